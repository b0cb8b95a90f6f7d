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

#ifndef HW_OFFLOAD_EGRESS_H
#define HW_OFFLOAD_EGRESS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-rule.h"
#include "netdev-hw.h"
#include "openvswitch/hmap.h"
#include "ovs-atomic.h"
#include "ovs-rcu.h"

struct ds;
struct hw_push;
struct hw_tx_push;
struct netdev;

/* Egress rules.
 *
 * A flow that pushes a tunnel header and sends the packet to a hw port has
 * its push done by an egress rule on that port (see hw-translate.h): the
 * push hook (vswitchd-patches/0004) puts the rule's marker Ethernet header
 * in front of the flow's packets instead of the tunnel header, and the rule,
 * which matches only that marker, replaces it with the tunnel header.  The
 * hook does so for packets with the flow's mark, its in_port, no
 * recirculation and exactly its tnl_push, so that the actions that follow
 * are the flow's: one output to that port.
 *
 * Why a marker: an egress rule sees every packet the port sends, and verbs
 * cannot tie it to the packets whose push was skipped.  A rule matching the
 * flow's own headers would also encapsulate the packets of other flows the
 * port sends unencapsulated, the underlay's own traffic, and the packets
 * whose header the software pushed (those that arrived before the flow's
 * rule, or through another PMD thread): a megaflow typically matches little
 * more than "ip".  Nothing but the hook's packets carries a marker, each
 * rule has its own, and a packet that would leave with a marker (the rule
 * gone with a reconfiguration, say) is garbage to every receiver rather
 * than a frame delivered unencapsulated.  All flows that push the same
 * header on one port share its rule ('n_users'). */
struct hw_egress {
    struct hmap_node node;          /* In 'hw_egresses', by port name. */
    char *port_name;                /* The hw port it is on. */
    uint32_t id;                    /* Its marker: hw_push_marker(id). */
    struct hw_rule rule;            /* Match and encap. */

    /* What the device does for it (an egress rule or a send queue of its
     * own, hw-tx-push.h), nonnull if 'installed'; the push hook reads it
     * under RCU. */
    OVSRCU_TYPE(struct hw_tx_push *) push;
    bool installed;
    atomic_bool active;             /* Installed and used: the push hook
                                     * may leave the header to it. */

    unsigned int n_users;           /* Flows whose push it does. */
    bool dead;                      /* Its port is gone. */
    uint64_t death;                 /* If unused: after the grace period of
                                     * this number nothing reads it. */
};

struct hw_egress *hw_egress_acquire(const struct netdev *in_netdev,
                                    const struct hw_push *,
                                    struct ds *reason);
void hw_egress_release(struct hw_egress *);
void hw_egress_port_down(const char *name, bool gone);
size_t hw_egress_port_up(struct netdev *,
                         const struct netdev_hw_device *,
                         size_t *n_failed);
void hw_egress_format(const char *name, struct ds *);

#endif /* hw-offload-egress.h */
