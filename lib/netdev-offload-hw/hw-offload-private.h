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

#ifndef HW_OFFLOAD_PRIVATE_H
#define HW_OFFLOAD_PRIVATE_H 1

/* The offload state the files of the offload core share: an offloaded
 * flow (struct hw_offload_entry) and a claimed port (struct
 * hw_offload_port), with the few helpers every one of them needs.  Only
 * netdev-offload-hw.c and the hw-offload-*.c files include it; see
 * netdev-offload-hw.c for the threads and the order of the mutexes. */

#include <stdbool.h>
#include <stdint.h>
#include "dpif.h"
#include "flow.h"
#include "hash.h"
#include "hw-flow.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "netdev-offload-provider.h"
#include "netdev-provider.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/match.h"
#include "openvswitch/thread.h"
#include "ovs-rcu.h"
#include "util.h"

struct sset;

struct hw_mark_rec;
struct hw_egress;

/* One offloaded datapath flow. */
struct hw_offload_entry {
    struct hmap_node node;          /* In hw_offload_port's 'entries'. */
    ovs_u128 ufid;                  /* The mega_ufid. */
    unsigned int creation_tid;      /* Offload thread that created it. */
    uint32_t actions_len;           /* Of the actions below. */

    /* The rule itself is not kept (a struct hw_rule is most of a flow's
     * memory): translate is pure, so hw_offload_entry_rule() makes it
     * again from 'match', 'actions' and 'params' when it is needed, to
     * reinstall it or to show it.  'params.flow_mark' is the flow mark
     * dpif-netdev gave. */
    struct hw_translate_params params;
    enum hw_tunnel_type tunnel;     /* The rule's tunnel, if any. */
    odp_port_t vport;               /* The vport of a vport flow, whose rule
                                     * lives on this physical port, or
                                     * ODPP_NONE. */
    struct hw_flow flow;            /* What is installed on the device. */

    /* Together, so that the struct has no holes: one per flow. */
    bool full;                      /* The rule is full (offloaded:yes). */
    bool in_flow_table;             /* Its rule is in the flow table of a
                                     * port whose pipeline takes only the
                                     * rules that need it. */
    bool installed;                 /* False while the port's device is
                                     * being reconfigured. */
    bool in_software;               /* Its rule went for good (a meter
                                     * modified to what the device cannot
                                     * run): the entry stays, without a
                                     * rule, for the statistics in 'base',
                                     * until the flow's next put or del. */
    bool hw_counts;                 /* The device alone handles some of
                                     * its packets: a full rule, or a stage
                                     * of the connection pipeline, whose
                                     * counters then count only those. */
    bool ct_rule;                   /* Its rule is in the connection
                                     * pipeline (a stage, or a flow of
                                     * recirc_id != 0). */

    struct hw_mark_rec *mark_rec;   /* What it published in the mark table,
                                     * or NULL.  Only compared, never read:
                                     * a modify replaces it. */
    struct hw_egress *egress;       /* The egress rule that does its tunnel
                                     * push, or NULL. */

    /* The flow as OVS gave it, for flow_get() and flow dumps.  The two
     * miniflows of 'match' and then the actions ('actions_len' bytes, see
     * hw_offload_entry_actions()) live in the entry's own memory block,
     * after the entry (see hw_offload_entry_alloc()). */
    struct minimatch match;

    /* Statistics of a full rule.  'base' holds what earlier rules of this
     * ufid counted (before a modify or a reconfiguration replaced them), so
     * that the statistics stay cumulative; the counters of the current rule
     * are added to it. */
    struct dpif_flow_stats base;
    uint64_t last_packets;          /* Counter values at the last read. */
    uint64_t last_bytes;
    long long int used;             /* time_msec() of the last read that
                                     * saw the packet count grow, or 0. */
};

/* The actions of 'entry', or NULL if it has none: they follow the mask,
 * the second of its miniflows. */
static inline const struct nlattr *
hw_offload_entry_actions(const struct hw_offload_entry *entry)
{
    const struct miniflow *mask = &entry->match.mask->masks;

    return (entry->actions_len
            ? ALIGNED_CAST(const struct nlattr *,
                           (const char *) mask + sizeof *mask
                           + MINIFLOW_VALUES_SIZE(miniflow_n_values(mask)))
            : NULL);
}

/* The offload state of one port we claimed, in its
 * netdev->hw_info.offload_data. */
struct hw_offload_port {
    struct ovs_list list_node;      /* In 'hw_ports'. */
    char *name;                     /* Port name, for the unixctl commands. */

    struct ovs_mutex dev_mutex;     /* See the comment at the top. */
    struct ovs_mutex mutex;         /* Taken after 'dev_mutex'. */

    struct hmap entries OVS_GUARDED;    /* Contains hw_offload_entry. */
    bool closing;                   /* uninit_flow_api() has run.  Set
                                     * with both mutexes held, so either
                                     * one is enough to read it. */

    /* The device the installed rules live on ('dev.devname' points to
     * 'devname'), valid if 'have_dev'. */
    struct netdev_hw_device dev OVS_GUARDED;
    char *devname OVS_GUARDED;
    bool have_dev OVS_GUARDED;

    /* Installed rules per offload thread, for flow_get_n_flows(). */
    unsigned int n_threads;
    uint64_t *n_flows OVS_GUARDED;

    /* A tunnel vport: it has no device; its flows' rules are on the
     * physical ports, and 'vport_flows' says which. */
    bool vport;
    enum hw_tunnel_type tunnel;     /* Its tunnel type, if 'vport'. */
    struct hmap vport_flows OVS_GUARDED;    /* Contains hw_vport_flow. */

    /* A physical port's inner VLAN guard rules (hw-rule.h), installed while
     * it has tunnel rules. */
    struct hw_flow tnl_guards[8] OVS_GUARDED;
    bool tnl_guards_installed OVS_GUARDED;
    size_t n_tunnel_rules OVS_GUARDED;  /* Installed tunnel rules. */

    /* On a port whose pipeline takes only the rules that need it
     * (options:steering=auto), the base of its flow table (netdev-hw-base.h),
     * installed while it has such rules. */
    struct netdev_hw_base *flow_table_base OVS_GUARDED;
    size_t n_flow_table_rules OVS_GUARDED;

    /* The miss rules of the connection and post-conntrack tables
     * (netdev_hw_base_build_ct()), installed while the port has rules of
     * the connection pipeline; connections go in while they are. */
    struct netdev_hw_base *ct_base OVS_GUARDED;
    bool ct_fdb OVS_GUARDED;    /* The port's connections go to the FDB
                                 * (hw-translate-eswitch-ct.c), which needs
                                 * no base. */
    size_t n_ct_rules OVS_GUARDED;
    odp_port_t odp_port OVS_GUARDED;    /* Its datapath port number, from
                                         * its flows' in_port (ODPP_NONE
                                         * before the first): conntrack
                                         * names a connection's ports so. */

    uint64_t n_full OVS_GUARDED;    /* Installed rules, by mode. */
    uint64_t n_partial OVS_GUARDED;
    uint64_t n_in_software OVS_GUARDED; /* Entries 'in_software'. */
    uint64_t n_refused OVS_GUARDED; /* Flows translate refused. */
    uint64_t n_device_errors OVS_GUARDED;   /* Flows the device refused. */
};

/* The UDP ports the NIC's parser recognises VXLAN and Geneve on. */
#define HW_VXLAN_PORT 4789
#define HW_GENEVE_PORT 6081

extern const struct netdev_flow_api netdev_offload_hw;

static inline struct hw_offload_port *
hw_offload_port_get(const struct netdev *netdev)
{
    return ovsrcu_get(void *, &netdev->hw_info.offload_data);
}

static inline bool
hw_offload_is_ours(const struct netdev *netdev)
{
    return ovsrcu_get(const struct netdev_flow_api *, &netdev->flow_api)
           == &netdev_offload_hw;
}

static inline uint32_t
hw_offload_ufid_hash(const ovs_u128 *ufid)
{
    return hash_bytes(ufid, sizeof *ufid, 0);
}

/* The device of the port's installed rules, or NULL. */
static inline const struct netdev_hw_device *
hw_offload_port_dev(const struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    return port->have_dev ? &port->dev : NULL;
}

/* Adds the name of every port the provider claimed to 'names'
 * (netdev-offload-hw.c). */
void hw_offload_port_names(struct sset *names);

#endif /* hw-offload-private.h */
