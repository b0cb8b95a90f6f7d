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

#include <config.h>
#include "netdev-hw-options.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "hw-dev.h"
#include "openvswitch/dynamic-string.h"
#include "smap.h"
#include "util.h"

/* The options of a hw port, in alphabetical order. */
static const char *const option_names[] = {
    "ct-size", "device", "n_rxq", "representor", "rss-key", "steering",
};

static bool
is_option_name(const char *key)
{
    for (size_t i = 0; i < ARRAY_SIZE(option_names); i++) {
        if (!strcmp(key, option_names[i])) {
            return true;
        }
    }
    return false;
}

/* An option OVS's own netdevs do not know is ignored: netdev-dpdk says
 * nothing, tunnel ports warn ("unknown vxlan argument").  A hw port warns
 * too, and is configured with the options it knows: a typo must not take
 * a running port out of the datapath, nor keep a new one out of it, but
 * the operator must be able to find it. */
char *
netdev_hw_unknown_options(const char *port, const struct smap *options)
{
    const struct smap_node **nodes = smap_sort(options);
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t n_unknown = 0;

    for (size_t i = 0; i < smap_count(options); i++) {
        if (!is_option_name(nodes[i]->key)) {
            ds_put_format(&s, "%s%s", n_unknown++ ? ", " : "",
                          nodes[i]->key);
        }
    }
    free(nodes);
    if (!n_unknown) {
        ds_destroy(&s);
        return NULL;
    }

    char *unknown = ds_steal_cstr(&s);

    ds_put_format(&s, "%s: unknown option%s %s ignored (hw ports take ",
                  port, n_unknown == 1 ? "" : "s", unknown);
    for (size_t i = 0; i < ARRAY_SIZE(option_names); i++) {
        ds_put_format(&s, "%s%s",
                      (!i ? ""
                       : i == ARRAY_SIZE(option_names) - 1 ? " and "
                       : ", "),
                      option_names[i]);
    }
    ds_put_char(&s, ')');
    free(unknown);
    return ds_steal_cstr(&s);
}

/* Parses 's' as a count from 'min' to 'max' into '*n'.  Only decimal
 * digits are taken: str_to_int() alone would take " 4" and "+4" (strtol()
 * skips leading white space and takes a sign), and an option written so
 * is more likely a mistake than a number. */
bool
netdev_hw_parse_count(const char *s, int min, int max, int *n)
{
    int value;

    if (!s[0] || s[strspn(s, "0123456789")]
        || !str_to_int(s, 10, &value) || value < min || value > max) {
        return false;
    }
    *n = value;
    return true;
}

void
netdev_hw_format_key(struct ds *ds, const uint8_t *key)
{
    for (int i = 0; i < NETDEV_HW_RSS_KEY_LEN; i++) {
        ds_put_format(ds, "%02x", key[i]);
    }
}

bool
netdev_hw_parse_key(const char *s, uint8_t key[NETDEV_HW_RSS_KEY_LEN])
{
    if (strlen(s) != 2 * NETDEV_HW_RSS_KEY_LEN) {
        return false;
    }
    for (int i = 0; i < NETDEV_HW_RSS_KEY_LEN; i++) {
        bool ok;

        key[i] = hexits_value(&s[2 * i], 2, &ok);
        if (!ok) {
            return false;
        }
    }
    return true;
}

const char *
netdev_hw_steering_name(enum netdev_hw_steering steering)
{
    switch (steering) {
    case NETDEV_HW_STEERING_AUTO: return "auto";
    case NETDEV_HW_STEERING_VERBS: return "verbs";
    case NETDEV_HW_STEERING_DR: return "dr";
    }
    return "?";
}

bool
netdev_hw_parse_steering(const char *s, enum netdev_hw_steering *steering)
{
    for (int i = 0; i <= NETDEV_HW_STEERING_DR; i++) {
        if (!strcmp(s, netdev_hw_steering_name(i))) {
            *steering = i;
            return true;
        }
    }
    return false;
}

/* "auto" is itself a choice, made per rule where the device allows it
 * (netdev-hw.h, Documentation/configuration.rst). */
enum netdev_hw_steering
netdev_hw_steering_resolve(enum netdev_hw_steering steering)
{
    return steering;
}

/* The options set_config() takes, as one string: a port whose
 * reconfiguration failed waits for its retry unless they change. */
char *
netdev_hw_config_string(const char *device, const char *representor,
                        int n_rxq, const uint8_t *key,
                        enum netdev_hw_steering steering)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_format(&s, "device=%s ", device ? device : "");
    if (representor) {
        ds_put_format(&s, "representor=%s ", representor);
    }
    ds_put_format(&s, "n_rxq=%d rss-key=", n_rxq);
    netdev_hw_format_key(&s, key);
    ds_put_format(&s, " steering=%s", netdev_hw_steering_name(steering));
    return ds_steal_cstr(&s);
}

void
netdev_hw_format_hash_fields(struct ds *ds, uint64_t fields)
{
    static const struct {
        uint64_t bit;
        const char *name;
    } names[] = {
        { IBV_RX_HASH_SRC_IPV4, "src-ipv4" },
        { IBV_RX_HASH_DST_IPV4, "dst-ipv4" },
        { IBV_RX_HASH_SRC_IPV6, "src-ipv6" },
        { IBV_RX_HASH_DST_IPV6, "dst-ipv6" },
        { IBV_RX_HASH_SRC_PORT_TCP, "src-port-tcp" },
        { IBV_RX_HASH_DST_PORT_TCP, "dst-port-tcp" },
        { IBV_RX_HASH_SRC_PORT_UDP, "src-port-udp" },
        { IBV_RX_HASH_DST_PORT_UDP, "dst-port-udp" },
        { IBV_RX_HASH_IPSEC_SPI, "ipsec-spi" },
        { IBV_RX_HASH_INNER, "inner" },
    };
    const char *sep = "";

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (fields & names[i].bit) {
            ds_put_format(ds, "%s%s", sep, names[i].name);
            fields &= ~names[i].bit;
            sep = ",";
        }
    }
    if (fields) {
        ds_put_format(ds, "%s0x%"PRIx64, sep, fields);
    } else if (!*sep) {
        ds_put_cstr(ds, "none");
    }
}

void
netdev_hw_format_reformat_types(struct ds *ds, uint32_t types)
{
    static const char *const names[] = {
        "l2-tunnel-to-l2", "l2-to-l2-tunnel",
        "l3-tunnel-to-l2", "l2-to-l3-tunnel",
    };
    const char *sep = "";

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (types & (1u << i)) {
            ds_put_format(ds, "%s%s", sep, names[i]);
            types &= ~(1u << i);
            sep = ",";
        }
    }
    if (types) {
        ds_put_format(ds, "%s0x%"PRIx32, sep, types);
    } else if (!*sep) {
        ds_put_cstr(ds, "none");
    }
}

/* Prints the queue of each indirection table entry, with runs of
 * consecutive queues as "first-last": "0-2 0" for 3 queues in 4 entries. */
void
netdev_hw_format_ind_table(struct ds *ds, const uint16_t *queues, size_t n)
{
    size_t i = 0;

    while (i < n) {
        size_t j = i;

        while (j + 1 < n && queues[j + 1] == queues[j] + 1) {
            j++;
        }
        ds_put_format(ds, "%s%"PRIu16, i ? " " : "", queues[i]);
        if (j > i) {
            ds_put_format(ds, "-%"PRIu16, queues[j]);
        }
        i = j + 1;
    }
}

int
netdev_hw_check_options(const char *name, const struct smap *args,
                        struct netdev_hw_options *opts, char **reason)
{
    const char *n_rxq_s = smap_get(args, "n_rxq");
    const char *key_s = smap_get(args, "rss-key");
    const char *steering_s = smap_get(args, "steering");
    const char *ct_size_s = smap_get(args, "ct-size");
    enum netdev_hw_steering steering = NETDEV_HW_STEERING_AUTO;

    opts->device = smap_get(args, "device");
    if (!opts->device || !opts->device[0]) {
        *reason = xasprintf("%s: options:device is required (the verbs "
                            "device or NIC model instance, e.g. "
                            "device=model0)", name);
        return EINVAL;
    }
    opts->representor = smap_get(args, "representor");
    if (opts->representor && !opts->representor[0]) {
        *reason = xasprintf("%s: options:representor is empty (a VF's "
                            "representor is named as DPDK's representor "
                            "argument, e.g. representor=vf1)", name);
        return EINVAL;
    }
    opts->ops = hw_dev_ops_find(opts->device);
    if (!opts->ops) {
        *reason = xasprintf("%s: options:device=%s: no hw backend drives "
                            "this device", name, opts->device);
        return ENODEV;
    }
    opts->n_rxq = 1;
    if (n_rxq_s && !netdev_hw_parse_count(n_rxq_s, 1, NETDEV_HW_MAX_RXQ,
                                          &opts->n_rxq)) {
        *reason = xasprintf("%s: options:n_rxq=%s: must be an integer from "
                            "1 to %d, in decimal digits only", name,
                            n_rxq_s, NETDEV_HW_MAX_RXQ);
        return EINVAL;
    }
    opts->ct_size = -1;
    if (ct_size_s && !netdev_hw_parse_count(ct_size_s, 0, INT_MAX,
                                            &opts->ct_size)) {
        *reason = xasprintf("%s: options:ct-size=%s: must be an integer "
                            "from 0 to %d, in decimal digits only", name,
                            ct_size_s, INT_MAX);
        return EINVAL;
    }
    opts->key_set = key_s != NULL;
    if (key_s && !netdev_hw_parse_key(key_s, opts->key)) {
        *reason = xasprintf("%s: options:rss-key=%s: must be exactly %d "
                            "hexadecimal digits (a %d-byte Toeplitz key)",
                            name, key_s, 2 * NETDEV_HW_RSS_KEY_LEN,
                            NETDEV_HW_RSS_KEY_LEN);
        return EINVAL;
    }
    if (!key_s) {
        memcpy(opts->key, hw_toeplitz_default_key, NETDEV_HW_RSS_KEY_LEN);
    }
    if (steering_s && !netdev_hw_parse_steering(steering_s, &steering)) {
        *reason = xasprintf("%s: options:steering=%s: must be auto, verbs "
                            "or dr", name, steering_s);
        return EINVAL;
    }
    opts->steering = netdev_hw_steering_resolve(steering);
    return 0;
}
