/*
 * Copyright (c) 2026 The netdev-offload-hw authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

#ifndef NETDEV_HW_OPTIONS_H
#define NETDEV_HW_OPTIONS_H 1

/* The hw port's options and the readable forms netdev-hw/show prints: the
 * RSS key, options:steering, the one-string form of a configuration, RSS
 * hash fields, packet reformat types and the indirection table.  Pure
 * code, apart from the port (netdev-hw.c), so that both stay short. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-toeplitz.h"

struct ds;
struct hw_dev_ops;
struct smap;

#define NETDEV_HW_RSS_KEY_LEN HW_TOEPLITZ_KEY_LEN

/* options:steering: where the port's rules go. */
enum netdev_hw_steering {
    NETDEV_HW_STEERING_AUTO,    /* The root table, and the pipeline's flow
                                 * table for the rules that need the mlx5
                                 * matcher, if the device has one. */
    NETDEV_HW_STEERING_VERBS,   /* The root table, ibv_create_flow(). */
    NETDEV_HW_STEERING_DR,      /* The pipeline of tables (mlx5dv_dr). */
};

#define NETDEV_HW_MAX_RXQ 1024

/* The options of set_config(), checked. */
struct netdev_hw_options {
    const char *device;
    const char *representor;            /* NULL for none. */
    const struct hw_dev_ops *ops;
    int n_rxq;
    uint8_t key[NETDEV_HW_RSS_KEY_LEN];
    bool key_set;                       /* options:rss-key given. */
    enum netdev_hw_steering steering;   /* Resolved. */
    int ct_size;                        /* options:ct-size, -1 if none. */
};

/* Checks the options of port 'name' in 'args' into 'opts'.  Returns 0, or
 * an errno with why in '*reason' (the caller frees it). */
int netdev_hw_check_options(const char *name, const struct smap *args,
                            struct netdev_hw_options *opts, char **reason);

/* The keys of 'options' that are not options of a hw port, as a warning
 * for port 'port' (the caller frees it), or NULL if there are none. */
char *netdev_hw_unknown_options(const char *port, const struct smap *options);

/* options:n_rxq: decimal digits only, for a value from 'min' to 'max'. */
bool netdev_hw_parse_count(const char *, int min, int max, int *n);

/* options:rss-key: 80 hexadecimal digits. */
void netdev_hw_format_key(struct ds *, const uint8_t *key);
bool netdev_hw_parse_key(const char *, uint8_t key[NETDEV_HW_RSS_KEY_LEN]);

/* options:steering's words, "auto", "verbs" and "dr". */
const char *netdev_hw_steering_name(enum netdev_hw_steering);
bool netdev_hw_parse_steering(const char *, enum netdev_hw_steering *);
enum netdev_hw_steering netdev_hw_steering_resolve(enum netdev_hw_steering);

/* The options set_config() takes, as one string (caller frees). */
char *netdev_hw_config_string(const char *device, const char *representor,
                              int n_rxq, const uint8_t *key,
                              enum netdev_hw_steering steering);

/* Readable forms for netdev-hw/show. */
void netdev_hw_format_hash_fields(struct ds *, uint64_t fields);
void netdev_hw_format_reformat_types(struct ds *, uint32_t types);
void netdev_hw_format_ind_table(struct ds *, const uint16_t *queues,
                                size_t n);

#endif /* netdev-hw-options.h */
