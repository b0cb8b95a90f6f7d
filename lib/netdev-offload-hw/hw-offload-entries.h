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

#ifndef HW_OFFLOAD_ENTRIES_H
#define HW_OFFLOAD_ENTRIES_H 1

/* The entry map of a port and the install path (hw-offload-entries.c). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-offload-private.h"

struct ds;
struct dpif_flow_stats;
struct hw_rule;
struct match;
struct netdev;
struct nlattr;

struct hw_offload_port *hw_offload_port_create(const struct netdev *);
void hw_offload_port_free(struct hw_offload_port *);
void hw_offload_port_set_dev(struct hw_offload_port *port,
                             const struct netdev_hw_device *)
    OVS_REQUIRES(port->mutex);
size_t hw_offload_port_flush(struct hw_offload_port *port, unsigned int tid)
    OVS_REQUIRES(port->mutex);

struct hw_offload_entry *hw_offload_entry_find__(
    const struct hw_offload_port *port, const ovs_u128 *ufid, uint32_t hash)
    OVS_REQUIRES(port->mutex);
struct hw_offload_entry *hw_offload_entry_find(
    const struct hw_offload_port *port, const ovs_u128 *ufid)
    OVS_REQUIRES(port->mutex);
struct hw_offload_entry *hw_offload_entry_alloc(
    const ovs_u128 *ufid, uint32_t hash, const struct match *,
    const struct flowmap *mask_map,
    const struct nlattr *actions, size_t actions_len);
void hw_offload_entry_free(struct hw_offload_entry *);
/* Translates a flow into 'rule' for a port whose device is 'dev' (NULL if
 * none): with the mlx5 matcher if the device's pipeline takes every rule;
 * if it takes only the rules that need it, for the root first, and for the
 * flow table ('rule->pipeline') if the root cannot take it.  'mask_map' is
 * the nonzero words of the match's mask (hw_translate_mask_map()).
 * Returns 0, or an errno value with the reason in 'reason' (the root's,
 * when neither can take it). */
int hw_offload_translate(const struct match *,
                         const struct flowmap *mask_map,
                         const struct nlattr *actions, size_t actions_len,
                         const struct hw_translate_params *,
                         const struct netdev_hw_device *dev,
                         struct hw_rule *rule, struct ds *reason);
int hw_offload_entry_rule(const struct hw_offload_entry *,
                          const struct netdev_hw_device *dev,
                          struct hw_rule *, struct ds *reason);
void hw_offload_entry_installed(struct hw_offload_port *port,
                                struct hw_offload_entry *)
    OVS_REQUIRES(port->mutex);
void hw_offload_entry_uninstall(struct hw_offload_port *port,
                                struct hw_offload_entry *)
    OVS_REQUIRES(port->mutex);
void hw_offload_entry_unlink(struct hw_offload_port *port,
                             struct hw_offload_entry *)
    OVS_REQUIRES(port->mutex);
void hw_offload_entry_remove(struct hw_offload_port *port,
                             struct hw_offload_entry *)
    OVS_REQUIRES(port->mutex);
void hw_offload_entry_to_software(struct hw_offload_port *port,
                                  struct hw_offload_entry *)
    OVS_REQUIRES(port->mutex);
void hw_offload_entry_stats(const struct hw_offload_port *port,
                            struct hw_offload_entry *,
                            struct dpif_flow_stats *)
    OVS_REQUIRES(port->mutex);

/* Fills what flow_get() and flow_dump_next() report about 'entry': its
 * match, its actions (an OVS_FLOW_ATTR_ACTIONS attribute appended to
 * 'buf', empty if they do not fit a stack buffer), statistics and
 * attributes, for each that is nonnull. */
void hw_offload_entry_report(const struct hw_offload_port *port,
                             struct hw_offload_entry *, struct match *,
                             struct nlattr **actions,
                             struct dpif_flow_stats *,
                             struct dpif_flow_attrs *, struct ofpbuf *buf)
    OVS_REQUIRES(port->mutex);

/* Installs the rule of 'entry' on 'port' and puts the entry in its map in
 * place of the entry of the same ufid, if any ('*modifyp' says whether
 * there was one).  Records 'in_port' as the port's datapath port unless it
 * is ODPP_NONE.  On success, '*stats' (if nonnull) gets the statistics the
 * entry starts from; on error, the entry is not in the map and 'reason'
 * says why. */
int hw_offload_install(struct netdev *, struct hw_offload_port *port,
                       struct hw_offload_entry *, const struct hw_rule *,
                       odp_port_t in_port, bool *modifyp,
                       struct dpif_flow_stats *stats, struct ds *reason,
                       struct ds *log)
    OVS_REQUIRES(port->dev_mutex);
void hw_offload_put_log_prefix(struct ds *, const struct netdev *,
                               bool modify, const ovs_u128 *ufid,
                               uint32_t mark);

#endif /* hw-offload-entries.h */
