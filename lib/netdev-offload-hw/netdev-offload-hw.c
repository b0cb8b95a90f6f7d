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

/* The OVS adapter: the "hw" netdev_flow_api provider for dpif-netdev.
 *
 * This is the only file that knows OVS's offload provider interface (OVS
 * 3.7 replaced it with dpif_offload_class, so a port rewrites this file and
 * nothing else).  It keeps, per port, the map from mega_ufid to the rule
 * installed for it, turns flow_put() into translate + install, reports
 * statistics from the device's counters, records why flows were not
 * offloaded, and registers the unixctl commands.
 *
 * Threads: flow_put(), flow_del() and flow_flush() run in dpif-netdev's
 * offload threads (a mega_ufid always goes to the same one); flow_get() runs
 * in revalidators, handlers and the main thread; init, uninit and the
 * netdev-hw reconfiguration notifier run in the main thread.
 *
 * Each port has two mutexes, always taken in this order:
 *   - 'dev_mutex' serialises creating device objects with reconfiguration:
 *     flow_put() holds it from netdev_hw_get_device() until its rule is in
 *     the map, and the notifier holds it while it removes every rule, so no
 *     rule is ever created on a QP that netdev-hw is about to destroy;
 *   - 'mutex' guards the map, the counts and the device objects of the
 *     entries.  Rules are destroyed and counters read under it, so that
 *     flow_get() never reads counters that are going away, but flow_put()
 *     creates its rule outside it, so that a slow device does not hold up
 *     flow_get() (only the rare reinstall after a reconfiguration creates
 *     rules under it).
 * Two global mutexes come after them: 'hw_egress_mutex' (egress rules) and
 * then 'hw_marks_mutex' (the mark table).
 *
 * Tunnels.
 *
 * Decap.  dpif-netdev puts the flows of packets that came out of a tunnel
 * ("tunnel(...)" match, in_port the vxlan or gre vport) on the vport, with
 * the physical port the packets arrived by in info->orig_in_port.  The
 * plugin claims the vxlan and gre vports of the userspace datapath for
 * that.  A vport flow's rule (outer headers from the tunnel metadata,
 * tunnel, decap, inner headers, tag) goes to the physical port's device and
 * entries map, so that the physical port's reconfiguration and removal deal
 * with it like with its own rules; the vport only keeps an index from ufid
 * to that port ('vport_flows').  The packets the rule tags arrive
 * decapsulated: hw_miss_packet_recover() finds their mark in the mark table
 * and gives them the tunnel metadata and in_port the software pop would
 * have given them.  It keeps the mark, so that dpif-netdev's mark lookup,
 * which does not look at in_port, runs the vport flow's actions at once.
 * The mark table entry is published before the rule exists, so no tagged
 * packet ever arrives without it.
 *
 * The flow that pops the tunnel (tnl_pop on the physical port) keeps an
 * ordinary partial rule without decap: struct flow has no field for the
 * VNI or key of an encapsulated packet, and the megaflow does not match the
 * outer source address either, so after a decap in that rule the metadata
 * the vport flows match on would be lost.  The vport rules are more
 * specific and come first (hw-rule.h); the packets none of them takes
 * reach the tnl_pop rule and are popped in software.  Tagged inner frames
 * are kept away from the vport rules by the inner VLAN guard rules the
 * physical port carries while it has tunnel rules.
 *
 * Encap.  See struct hw_egress. */

#include <config.h>
#include "netdev-offload-hw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmap.h"
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "flow.h"
#include "hash.h"
#include "hw-encode.h"
#include "hw-flow.h"
#include "hw-fwdump.h"
#include "hw-hbl.h"
#include "hw-model.h"
#include "hw-privileges.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "netdev-offload-provider.h"
#include "netdev-provider.h"
#include "netdev-vport.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/ofp-port.h"
#include "openvswitch/vlog.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "sset.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(netdev_offload_hw);

COVERAGE_DEFINE(hw_offload_put_partial);
COVERAGE_DEFINE(hw_offload_put_full);
COVERAGE_DEFINE(hw_offload_refused);
COVERAGE_DEFINE(hw_offload_device_error);
COVERAGE_DEFINE(hw_offload_del);
COVERAGE_DEFINE(hw_offload_push_refused);
COVERAGE_DEFINE(hw_offload_recover);
COVERAGE_DEFINE(hw_offload_mark_cleared);
COVERAGE_DEFINE(hw_offload_stale_mark);

struct hw_mark_rec;
struct hw_egress;

/* One offloaded datapath flow. */
struct hw_offload_entry {
    struct hmap_node node;          /* In hw_offload_port's 'entries'. */
    ovs_u128 ufid;                  /* The mega_ufid. */
    uint32_t mark;                  /* Flow mark from dpif-netdev. */
    unsigned int creation_tid;      /* Offload thread that created it. */

    /* The rule itself is not kept (a struct hw_rule is most of a flow's
     * memory): translate is pure, so hw_offload_entry_rule() makes it
     * again from 'match', 'actions' and 'params' when it is needed, to
     * reinstall it or to show it. */
    struct hw_translate_params params;
    bool full;                      /* The rule is full (offloaded:yes). */
    enum hw_tunnel_type tunnel;     /* The rule's tunnel, if any. */
    struct hw_flow flow;            /* What is installed on the device. */
    bool installed;                 /* False while the port's device is
                                     * being reconfigured. */

    odp_port_t vport;               /* The vport of a vport flow, whose rule
                                     * lives on this physical port, or
                                     * ODPP_NONE. */
    struct hw_mark_rec *mark_rec;   /* What it published in the mark table,
                                     * or NULL.  Only compared, never read:
                                     * a modify replaces it. */
    struct hw_egress *egress;       /* The egress rule that does its tunnel
                                     * push, or NULL. */

    /* The flow as OVS gave it, for flow_get() and flow dumps.  The two
     * miniflows of 'match' and the actions live in the entry's own memory
     * block, after the entry (see hw_offload_entry_alloc()). */
    struct minimatch match;
    struct nlattr *actions;
    size_t actions_len;

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

    uint64_t n_full OVS_GUARDED;    /* Installed rules, by mode. */
    uint64_t n_partial OVS_GUARDED;
    uint64_t n_refused OVS_GUARDED; /* Flows translate refused. */
    uint64_t n_device_errors OVS_GUARDED;   /* Flows the device refused. */
};

/* Every port we claimed, so that netdev-hw/show can list them. */
static struct ovs_mutex hw_ports_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list hw_ports OVS_GUARDED_BY(hw_ports_mutex)
    = OVS_LIST_INITIALIZER(&hw_ports);

/* The last flows that were not offloaded, newest at 'n_refusals - 1'. */
#define HW_REFUSALS_MAX 64
struct hw_refusal {
    long long int when;             /* time_wall_msec(). */
    char *port;
    ovs_u128 ufid;
    char *match;
    char *reason;
};
static struct ovs_mutex refusals_mutex = OVS_MUTEX_INITIALIZER;
static struct hw_refusal refusals[HW_REFUSALS_MAX]
    OVS_GUARDED_BY(refusals_mutex);
static uint64_t n_refusals OVS_GUARDED_BY(refusals_mutex);

extern const struct netdev_flow_api netdev_offload_hw;

/* Offload thread id of the caller.  dpif-netdev's offload threads get theirs
 * from netdev_offload_thread_id(), which asserts for any other thread; a
 * unit test that drives the provider from its main thread counts as thread
 * 0, like OVS's RCU thread does. */
static unsigned int
hw_offload_tid(void)
{
    unsigned int id = *netdev_offload_thread_id_get();

    if (id != OVSTHREAD_ID_UNSET) {
        return id;
    }
    if (!strncmp(get_subprogram_name(), "hw_offload", strlen("hw_offload"))) {
        return netdev_offload_thread_id();
    }
    return 0;
}

/* dpif-netdev's offload threads never block in poll_block(), which is where
 * a thread's coverage counts are added to the totals that coverage/show
 * prints, so the provider does it for them (at most once a second, and
 * without waiting for the coverage mutex). */
DEFINE_STATIC_PER_THREAD_DATA(long long int, hw_coverage_next_check, 0);

static void
hw_offload_coverage_flush(void)
{
#ifdef CLOCK_MONOTONIC_COARSE
    /* coverage_try_clear() reads the monotonic clock, which costs as much
     * as a tenth of a put; the coarse clock is a memory read.  Asking
     * coverage every 100 ms is plenty for its once a second. */
    long long int *next = hw_coverage_next_check_get();
    struct timespec ts;
    long long int now;

    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    now = (long long int) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (now < *next) {
        return;
    }
    *next = now + 100;
#endif
    coverage_try_clear();
}

static struct hw_offload_port *
hw_offload_port_get(const struct netdev *netdev)
{
    return ovsrcu_get(void *, &netdev->hw_info.offload_data);
}

static bool
hw_offload_is_ours(const struct netdev *netdev)
{
    return ovsrcu_get(const struct netdev_flow_api *, &netdev->flow_api)
           == &netdev_offload_hw;
}

static uint32_t
hw_offload_ufid_hash(const ovs_u128 *ufid)
{
    return hash_bytes(ufid, sizeof *ufid, 0);
}

/* Finds the entry of 'ufid', whose hw_offload_ufid_hash() is 'hash'. */
static struct hw_offload_entry *
hw_offload_entry_find__(const struct hw_offload_port *port,
                        const ovs_u128 *ufid, uint32_t hash)
    OVS_REQUIRES(port->mutex)
{
    struct hw_offload_entry *entry;

    HMAP_FOR_EACH_WITH_HASH (entry, node, hash, &port->entries) {
        if (ovs_u128_equals(entry->ufid, *ufid)) {
            return entry;
        }
    }
    return NULL;
}

static struct hw_offload_entry *
hw_offload_entry_find(const struct hw_offload_port *port,
                      const ovs_u128 *ufid)
    OVS_REQUIRES(port->mutex)
{
    return hw_offload_entry_find__(port, ufid, hw_offload_ufid_hash(ufid));
}

/* Translates the flow of 'entry' again into 'rule', as flow_put() did.
 * Returns 0, or the error of hw_translate_flow() with a reason in 'reason'
 * (translate is pure, so an entry that was installed translates again). */
static int
hw_offload_entry_rule(const struct hw_offload_entry *entry, bool pipeline,
                      struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params params = entry->params;
    struct match match;

    minimatch_expand(&entry->match, &match);
    params.pipeline = pipeline;
    return hw_translate_flow(&match, entry->actions, entry->actions_len,
                             &params, rule, reason);
}

/* The device of the port's installed rules, or NULL. */
static const struct netdev_hw_device *
hw_offload_port_dev(const struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    return port->have_dev ? &port->dev : NULL;
}

/* Remembers 'dev' as the device of the port's rules. */
static void
hw_offload_port_set_dev(struct hw_offload_port *port,
                        const struct netdev_hw_device *dev)
    OVS_REQUIRES(port->mutex)
{
    if (!port->devname || strcmp(port->devname, dev->devname)) {
        free(port->devname);
        port->devname = xstrdup(dev->devname);
    }
    port->dev = *dev;
    port->dev.devname = port->devname;
    port->have_dev = true;
}

/* The mark table.
 *
 * What the datapath threads need to know about a flow mark, found without a
 * lock: the tunnel metadata of the packets a vport rule decapsulated, for
 * hw_miss_packet_recover(), and the tunnel push an egress rule does for
 * the flow, for the push hook.  Marks are unique in the process (dpif-netdev
 * allocates them from one pool), so one table serves every port.  Entries
 * are never changed in place: a modify replaces them. */
struct hw_mark_rec {
    struct cmap_node node;          /* In 'hw_marks'. */
    uint32_t mark;
    const struct netdev *phys;      /* The port whose rule tags 'mark'. */

    /* Decap, for a vport flow. */
    bool decap;
    bool l3;                        /* L3 decap: a placeholder Ethernet
                                     * header to remove. */
    odp_port_t vport;
    struct hw_tunnel_restore restore;

    /* The tunnel push an egress rule does instead of the software, if
     * 'egress', for packets of in_port 'in_port' and exactly this push:
     * the hook puts 'marker' in front of them. */
    struct hw_egress *egress;
    struct eth_header marker;
    odp_port_t in_port;
    odp_port_t tnl_port;
    odp_port_t push_out_port;
    uint32_t header_len;
    uint8_t header[HW_REFORMAT_MAX_DATA];
};

static struct ovs_mutex hw_marks_mutex = OVS_MUTEX_INITIALIZER;
static struct cmap hw_marks = CMAP_INITIALIZER;
static atomic_count hw_n_decap_marks = ATOMIC_COUNT_INIT(0);

static const struct hw_mark_rec *
hw_mark_find(uint32_t mark)
{
    const struct hw_mark_rec *rec;

    CMAP_FOR_EACH_WITH_HASH (rec, node, hash_int(mark, 0), &hw_marks) {
        if (rec->mark == mark) {
            return rec;
        }
    }
    return NULL;
}

static struct hw_mark_rec *
hw_mark_find_protected(uint32_t mark)
    OVS_REQUIRES(hw_marks_mutex)
{
    return CONST_CAST(struct hw_mark_rec *, hw_mark_find(mark));
}

/* Publishes 'rec' in the mark table, in place of whatever its mark had,
 * which it returns (still allocated: the caller either puts it back with
 * hw_mark_restore() or frees it with hw_mark_retire()). */
static struct hw_mark_rec *
hw_mark_publish(struct hw_mark_rec *rec)
{
    uint32_t hash = hash_int(rec->mark, 0);
    struct hw_mark_rec *old;

    ovs_mutex_lock(&hw_marks_mutex);
    old = hw_mark_find_protected(rec->mark);
    if (old) {
        cmap_replace(&hw_marks, &old->node, &rec->node, hash);
        if (old->decap) {
            atomic_count_dec(&hw_n_decap_marks);
        }
    } else {
        cmap_insert(&hw_marks, &rec->node, hash);
    }
    if (rec->decap) {
        atomic_count_inc(&hw_n_decap_marks);
    }
    ovs_mutex_unlock(&hw_marks_mutex);
    return old;
}

static void
hw_mark_rec_free(struct hw_mark_rec *rec)
{
    free(rec);
}

/* Frees 'rec', which is no longer in the table, once no datapath thread can
 * still be reading it. */
static void
hw_mark_retire(struct hw_mark_rec *rec)
{
    if (rec) {
        ovsrcu_postpone(hw_mark_rec_free, rec);
    }
}

/* Removes 'rec' from the mark table if it is still there (a later publish
 * of the same mark may have replaced it) and puts 'old' back in its place,
 * if nonnull. */
static void
hw_mark_unpublish(struct hw_mark_rec *rec, struct hw_mark_rec *old)
{
    uint32_t hash;

    if (!rec) {
        return;
    }
    hash = hash_int(rec->mark, 0);

    ovs_mutex_lock(&hw_marks_mutex);
    if (hw_mark_find_protected(rec->mark) == rec) {
        if (old) {
            cmap_replace(&hw_marks, &rec->node, &old->node, hash);
            if (old->decap) {
                atomic_count_inc(&hw_n_decap_marks);
            }
        } else {
            cmap_remove(&hw_marks, &rec->node, hash);
        }
        if (rec->decap) {
            atomic_count_dec(&hw_n_decap_marks);
        }
        ovsrcu_postpone(hw_mark_rec_free, rec);
    } else {
        hw_mark_retire(old);
    }
    ovs_mutex_unlock(&hw_marks_mutex);
}

static void
hw_mark_stale_release(void *rec)
{
    hw_mark_unpublish(rec, NULL);
}

/* The flow of 'rec' goes, but the device refused to destroy its rule
 * (hw-stale.h), which still tags packets with the mark.  If the rule also
 * decapsulates them (a vport flow's), replaces 'rec' in the mark table by a
 * copy without the egress rule (whose reference goes with the flow) and
 * keeps it there until the rule is destroyed: hw_offload_recover_tagged()
 * then still gives those packets the tunnel metadata the software pop
 * would, and the classifier picks their flow, no flow having the mark.
 * Returns true if it did; otherwise the caller unpublishes 'rec'. */
static bool
hw_mark_keep_for_stale(struct hw_mark_rec *rec)
{
    struct hw_mark_rec *copy = NULL;

    if (!rec || !rec->decap || !hw_stale_mark_held(rec->mark, NULL)) {
        return false;
    }

    ovs_mutex_lock(&hw_marks_mutex);
    if (hw_mark_find_protected(rec->mark) == rec) {
        copy = xmemdup(rec, sizeof *rec);
        copy->egress = NULL;
        cmap_replace(&hw_marks, &rec->node, &copy->node,
                     hash_int(rec->mark, 0));
        ovsrcu_postpone(hw_mark_rec_free, rec);
    }
    ovs_mutex_unlock(&hw_marks_mutex);

    if (copy && !hw_stale_hold(copy->mark, hw_mark_stale_release, copy)) {
        /* A retry destroyed the rule meanwhile. */
        hw_mark_unpublish(copy, NULL);
    }
    return copy != NULL;
}

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

    struct hw_flow flow;            /* Device objects, if 'installed'. */
    OVSRCU_TYPE(struct hw_hbl_txq *) hbl;   /* Instead of 'flow' on an hbl
                                             * device: the send queue whose
                                             * encap does the push
                                             * (hw-hbl.h). */
    struct netdev_hw_device dev;    /* Their device, if 'installed'. */
    char *devname;
    bool installed;
    atomic_bool active;             /* Installed and used: the push hook
                                     * may leave the header to it. */

    unsigned int n_users;           /* Flows whose push it does. */
    bool dead;                      /* Its port is gone. */
    uint64_t death;                 /* If unused: after the grace period of
                                     * this number nothing reads it. */
};

static struct ovs_mutex hw_egress_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap hw_egresses OVS_GUARDED_BY(hw_egress_mutex)
    = HMAP_INITIALIZER(&hw_egresses);
static uint32_t hw_egress_next_id OVS_GUARDED_BY(hw_egress_mutex) = 1;
static uint64_t hw_egress_graces_requested OVS_GUARDED_BY(hw_egress_mutex);
static uint64_t hw_egress_graces_done OVS_GUARDED_BY(hw_egress_mutex);

/* An egress rule that no flow uses any more must stay until no datapath
 * thread can be about to send a packet whose push it skipped for it, or
 * that packet would leave unencapsulated.  ovsrcu_synchronize() could
 * deadlock in the offload threads (they hold dpif-netdev's port_rwlock), so
 * the rule is destroyed later, by the first egress operation after an RCU
 * grace period has passed. */
struct hw_egress_grace {
    uint64_t seq;
};

static void
hw_egress_grace_done(struct hw_egress_grace *grace)
{
    ovs_mutex_lock(&hw_egress_mutex);
    hw_egress_graces_done = MAX(hw_egress_graces_done, grace->seq);
    ovs_mutex_unlock(&hw_egress_mutex);
    free(grace);
}

static void
hw_egress_uninstall(struct hw_egress *egress)
    OVS_REQUIRES(hw_egress_mutex)
{
    atomic_store_relaxed(&egress->active, false);
    if (egress->installed) {
        struct hw_hbl_txq *txq = ovsrcu_get_protected(struct hw_hbl_txq *,
                                                      &egress->hbl);

        if (txq) {
            ovsrcu_set(&egress->hbl, NULL);
            hw_hbl_txq_destroy(txq);
        } else {
            hw_stale_uninstall_flow(&egress->dev, &egress->flow,
                                    HW_STALE_NO_MARK);
        }
        egress->installed = false;
    }
}

static int
hw_egress_install(struct hw_egress *egress, struct netdev *netdev,
                  const struct netdev_hw_device *dev, struct ds *reason)
    OVS_REQUIRES(hw_egress_mutex)
{
    int error;

    if (hw_hbl_device_encaps(dev)) {
        /* hbl encapsulates per send QP: no rule, a send queue whose encap
         * adds the header (hw-hbl.h). */
        struct hw_hbl_txq *txq;

        error = hw_hbl_txq_create(dev, egress->rule.reformat_data,
                                  egress->rule.reformat_len, &txq, reason);
        if (!error) {
            ovsrcu_set(&egress->hbl, txq);
        }
    } else {
        struct ibv_qp *qp = netdev_hw_rss_qp(netdev,
                                             hw_rule_rss_type(&egress->rule));

        /* The QP of an egress rule only names the device (hw-apis.md
         * 1.5). */
        error = hw_flow_install(dev, qp, &egress->rule, &egress->flow,
                                reason);
    }
    if (!error) {
        free(egress->devname);
        egress->devname = xstrdup(dev->devname);
        egress->dev = *dev;
        egress->dev.devname = egress->devname;
        egress->installed = true;
        atomic_store_relaxed(&egress->active, egress->n_users > 0);
    }
    return error;
}

/* Destroys the egress rules no flow has used for a grace period. */
static void
hw_egress_drain(void)
    OVS_REQUIRES(hw_egress_mutex)
{
    struct hw_egress *egress;

    HMAP_FOR_EACH_SAFE (egress, node, &hw_egresses) {
        if (!egress->n_users && egress->death <= hw_egress_graces_done) {
            hmap_remove(&hw_egresses, &egress->node);
            hw_egress_uninstall(egress);
            free(egress->port_name);
            free(egress->devname);
            free(egress);
        }
    }
}

static bool
hw_egress_same_encap(const struct hw_egress *egress,
                     const struct hw_rule *rule)
{
    return (egress->rule.reformat == rule->reformat
            && egress->rule.reformat_len == rule->reformat_len
            && !memcmp(egress->rule.reformat_data, rule->reformat_data,
                       rule->reformat_len));
}

/* Finds or installs the egress rule of 'push' on its output port and takes
 * a reference to it.  'in_netdev' is the port the flow was put on.  Returns
 * NULL with a reason if the push cannot be done by the NIC. */
static struct hw_egress *
hw_egress_acquire(const struct netdev *in_netdev, const struct hw_push *push,
                  struct ds *reason)
{
    struct hw_egress *egress, *found = NULL;
    struct hw_offload_port *qport;
    struct netdev_hw_device dev;
    struct netdev *q;
    const char *name;
    uint32_t hash;
    bool closing;

    q = netdev_ports_get(push->out_port, netdev_get_dpif_type(in_netdev));
    if (!q) {
        ds_put_format(reason, "output port %"PRIu32" not found",
                      odp_to_u32(push->out_port));
        return NULL;
    }
    name = netdev_get_name(q);
    qport = (netdev_is_hw(q) && hw_offload_is_ours(q)
             ? hw_offload_port_get(q) : NULL);
    if (!qport || qport->vport) {
        ds_put_format(reason, "output port %s is not a hw port", name);
        netdev_close(q);
        return NULL;
    }

    ovs_mutex_lock(&qport->dev_mutex);
    ovs_mutex_lock(&qport->mutex);
    closing = qport->closing;
    ovs_mutex_unlock(&qport->mutex);
    if (closing || !netdev_hw_get_device(q, &dev)) {
        ds_put_format(reason, "device of %s not open", name);
        ovs_mutex_unlock(&qport->dev_mutex);
        netdev_close(q);
        return NULL;
    }

    hash = hash_string(name, 0);
    ovs_mutex_lock(&hw_egress_mutex);
    hw_egress_drain();
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash, &hw_egresses) {
        if (!strcmp(egress->port_name, name) && !egress->dead
            && hw_egress_same_encap(egress, &push->egress)) {
            /* One in use, or unused but not destroyed yet. */
            found = egress;
            break;
        }
    }

    if (!found) {
        struct hw_rule rule = push->egress;

        rule.outer.eth.dst = hw_push_marker(hw_egress_next_id);
        /* Markers make egress rules disjoint; check it anyway, as two
         * overlapping rules of different encaps would give a packet
         * either. */
        HMAP_FOR_EACH_WITH_HASH (egress, node, hash, &hw_egresses) {
            if (!strcmp(egress->port_name, name) && !egress->dead
                && hw_rule_overlaps(&egress->rule, &rule)) {
                ds_put_format(reason, "egress rule overlaps another on %s",
                              name);
                goto refuse;
            }
        }

        found = xzalloc(sizeof *found);
        found->port_name = xstrdup(name);
        found->id = hw_egress_next_id++;
        found->rule = rule;
        atomic_init(&found->active, false);
        if (hw_egress_install(found, q, &dev, reason)) {
            free(found->port_name);
            free(found->devname);
            free(found);
            goto refuse;
        }
        hmap_insert(&hw_egresses, &found->node, hash);
    }
    found->n_users++;
    atomic_store_relaxed(&found->active, found->installed);
    ovs_mutex_unlock(&hw_egress_mutex);
    ovs_mutex_unlock(&qport->dev_mutex);
    netdev_close(q);
    return found;

refuse:
    ovs_mutex_unlock(&hw_egress_mutex);
    ovs_mutex_unlock(&qport->dev_mutex);
    netdev_close(q);
    return NULL;
}

/* Drops a flow's reference to 'egress'.  The hook stops using an unused
 * rule at once; the rule goes after a grace period (hw_egress_drain()). */
static void
hw_egress_release(struct hw_egress *egress)
{
    struct hw_egress_grace *grace = NULL;

    if (!egress) {
        return;
    }
    ovs_mutex_lock(&hw_egress_mutex);
    ovs_assert(egress->n_users > 0);
    if (!--egress->n_users) {
        atomic_store_relaxed(&egress->active, false);
        grace = xmalloc(sizeof *grace);
        grace->seq = egress->death = ++hw_egress_graces_requested;
    }
    hw_egress_drain();
    ovs_mutex_unlock(&hw_egress_mutex);

    if (grace) {
        ovsrcu_postpone(hw_egress_grace_done, grace);
    }
}

/* The device of port 'name' is going away ('gone': for good): destroys its
 * egress rules, whose flows' pushes go back to the software. */
static void
hw_egress_port_down(const char *name, bool gone)
{
    struct hw_egress *egress;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        if (!strcmp(egress->port_name, name)) {
            hw_egress_uninstall(egress);
            egress->dead |= gone;
        }
    }
    hw_egress_drain();
    ovs_mutex_unlock(&hw_egress_mutex);
}

/* The device of 'netdev' is back: reinstalls the egress rules in use.
 * Returns the number that failed (their flows push in software). */
static size_t
hw_egress_port_up(struct netdev *netdev, const struct netdev_hw_device *dev)
{
    const char *name = netdev_get_name(netdev);
    struct hw_egress *egress;
    size_t n_failed = 0;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        struct ds reason = DS_EMPTY_INITIALIZER;

        if (strcmp(egress->port_name, name) || egress->dead
            || egress->installed || !egress->n_users) {
            continue;
        }
        if (hw_egress_install(egress, netdev, dev, &reason)) {
            VLOG_WARN("%s: egress rule not reinstalled, tunnel pushes go "
                      "back to software: %s", name, ds_cstr(&reason));
            n_failed++;
        }
        ds_destroy(&reason);
    }
    ovs_mutex_unlock(&hw_egress_mutex);
    return n_failed;
}

/* Appends the egress rules of port 'name' to 's', for dump-rules. */
static void
hw_egress_format(const char *name, struct ds *s)
{
    struct hw_egress *egress;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        uint64_t packets, bytes;

        if (strcmp(egress->port_name, name) || !egress->installed) {
            continue;
        }
        ds_put_format(s, "egress, flows:%u, ", egress->n_users);
        if (!hw_flow_read(&egress->dev, &egress->flow, &packets, &bytes)) {
            ds_put_format(s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                          packets, bytes);
        } else {
            ds_put_cstr(s, "packets:?, bytes:?, ");
        }
        ds_put_cstr(s, "rule: ");
        hw_flow_format(&egress->flow, &egress->rule, s);
        ds_put_char(s, '\n');
    }
    ovs_mutex_unlock(&hw_egress_mutex);
}

/* Inner VLAN guards.
 *
 * A tunnel rule for a flow that wants an untagged inner frame cannot say
 * "untagged" (verbs has no such match), so while a physical port has tunnel
 * rules it also has these: for VXLAN (UDP port 4789) and GRE carrying
 * Ethernet, IPv4 and IPv6 outer, an inner C-VLAN tag with the CFI bit 0 or
 * 1: together they send every tunnelled packet with a tagged inner frame
 * to the miss path, ahead of the tunnel rules (HW_PRIO_TUNNEL_GUARD). */
#define HW_VXLAN_PORT 4789
#define HW_N_TNL_GUARDS 8

static void
hw_tnl_guard_rule(size_t i, struct hw_rule *rule)
{
    bool gre = i & 4;
    bool ipv6 = i & 2;
    bool cfi = i & 1;

    memset(rule, 0, sizeof *rule);
    rule->outer.present = ipv6 ? HW_HDR_IPV6 : HW_HDR_IPV4;
    if (gre) {
        rule->tunnel = HW_TUNNEL_GRE;
        rule->tnl.gre_protocol = htons(ETH_TYPE_TEB);
        rule->tnl_mask.gre_protocol = OVS_BE16_MAX;
    } else {
        rule->tunnel = HW_TUNNEL_VXLAN;
        rule->outer.present |= HW_HDR_UDP;
        rule->outer.l4.dst = htons(HW_VXLAN_PORT);
        rule->outer.l4_mask.dst = OVS_BE16_MAX;
    }
    rule->inner.present = HW_HDR_ETH;
    rule->inner.eth.tci = htons(cfi ? VLAN_CFI : 0);
    rule->inner.eth_mask.tci = htons(VLAN_CFI);
    rule->fate = HW_FATE_RSS;
}

/* Installs the guards of 'port' if they are not.  Returns 0 or an errno
 * value with a reason. */
static int
hw_tnl_guards_install(struct hw_offload_port *port, struct netdev *netdev,
                      const struct netdev_hw_device *dev, struct ds *reason)
    OVS_REQUIRES(port->mutex)
{
    BUILD_ASSERT_DECL(HW_N_TNL_GUARDS == ARRAY_SIZE(port->tnl_guards));

    if (port->tnl_guards_installed) {
        return 0;
    }
    for (size_t i = 0; i < HW_N_TNL_GUARDS; i++) {
        struct hw_rule rule;
        int error;

        hw_tnl_guard_rule(i, &rule);
        error = hw_flow_install(dev,
                                netdev_hw_rss_qp(netdev,
                                                 hw_rule_rss_type(&rule)),
                                &rule, &port->tnl_guards[i], reason);
        if (error) {
            ds_put_cstr(reason, " (inner vlan guard)");
            while (i-- > 0) {
                hw_stale_uninstall_flow(dev, &port->tnl_guards[i],
                                        HW_STALE_NO_MARK);
            }
            return error;
        }
    }
    hw_offload_port_set_dev(port, dev);
    port->tnl_guards_installed = true;
    return 0;
}

static void
hw_tnl_guards_uninstall(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    if (port->tnl_guards_installed) {
        for (size_t i = 0; i < HW_N_TNL_GUARDS; i++) {
            hw_stale_uninstall_flow(hw_offload_port_dev(port),
                                    &port->tnl_guards[i], HW_STALE_NO_MARK);
        }
        port->tnl_guards_installed = false;
    }
}

/* Marks 'entry', whose rule was just installed, as installed and counts
 * it. */
static void
hw_offload_entry_installed(struct hw_offload_port *port,
                           struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    entry->installed = true;
    entry->last_packets = entry->last_bytes = 0;
    if (entry->creation_tid < port->n_threads) {
        port->n_flows[entry->creation_tid]++;
    }
    if (entry->tunnel != HW_TUNNEL_NONE) {
        port->n_tunnel_rules++;
    }
    if (entry->full) {
        port->n_full++;
    } else {
        port->n_partial++;
    }
}

/* Returns a new entry for the flow 'ufid' (whose hw_offload_ufid_hash() is
 * 'hash') with copies of 'match' and 'actions', and every other member
 * zero.  One memory block holds the entry, then the two miniflows of its
 * minimatch, as minimatch_init() would lay them out, then the actions:
 * one allocation per flow instead of three, and the mask is scanned once
 * where minimatch_init() scans it and then walks it again. */
static struct hw_offload_entry *
hw_offload_entry_alloc(const ovs_u128 *ufid, uint32_t hash,
                       const struct match *match,
                       const struct nlattr *actions, size_t actions_len)
{
    const uint64_t *mask_u64 = (const uint64_t *) &match->wc.masks;
    const uint64_t *flow_u64 = (const uint64_t *) &match->flow;
    size_t entry_size = ROUND_UP(sizeof(struct hw_offload_entry), 8);
    struct hw_offload_entry *entry;
    struct miniflow *flow, *mask;
    uint64_t *flow_values, *mask_values;
    struct flowmap map;
    size_t n_values, mf_size;
    size_t idx;

    hw_translate_mask_map(&match->wc.masks, &map);
    n_values = flowmap_n_1bits(map);
    mf_size = sizeof(struct miniflow) + MINIFLOW_VALUES_SIZE(n_values);

    entry = xmalloc(entry_size + 2 * mf_size + actions_len);
    memset(entry, 0, sizeof *entry);
    entry->ufid = *ufid;
    entry->node.hash = hash;

    flow = ALIGNED_CAST(struct miniflow *, (char *) entry + entry_size);
    mask = ALIGNED_CAST(struct miniflow *, (char *) flow + mf_size);
    flow->map = map;
    mask->map = map;
    flow_values = miniflow_values(flow);
    mask_values = miniflow_values(mask);
    FLOWMAP_FOR_EACH_INDEX (idx, map) {
        *flow_values++ = flow_u64[idx];
        *mask_values++ = mask_u64[idx];
    }
    entry->match.flow = flow;
    entry->match.mask = (struct minimask *) mask;
    entry->match.tun_md = tun_metadata_allocation_clone(&match->tun_md);

    if (actions_len) {
        entry->actions = ALIGNED_CAST(struct nlattr *,
                                      (char *) mask + mf_size);
        memcpy(entry->actions, actions, actions_len);
    }
    entry->actions_len = actions_len;
    return entry;
}

/* Frees 'entry', which is in no map and has no rule installed, with what
 * it published in the mark table and its reference to an egress rule. */
static void
hw_offload_entry_free(struct hw_offload_entry *entry)
{
    if (entry) {
        if (!hw_mark_keep_for_stale(entry->mark_rec)) {
            hw_mark_unpublish(entry->mark_rec, NULL);
        }
        hw_egress_release(entry->egress);
        /* The miniflows and actions are in the entry's block. */
        free(entry->match.tun_md);
        free(entry);
    }
}

/* Reads the counters of the full rule of 'entry' into its 'last_*' members,
 * and notes the time if the packet count grew.  On error the last values
 * read are kept. */
static void
hw_offload_entry_poll(const struct hw_offload_port *port,
                      struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    const struct netdev_hw_device *dev = hw_offload_port_dev(port);
    uint64_t packets, bytes;
    int error;

    if (!entry->full || !dev) {
        return;
    }
    error = hw_flow_read(dev, &entry->flow, &packets, &bytes);
    if (!error) {
        if (packets > entry->last_packets) {
            entry->used = time_msec();
        }
        entry->last_packets = packets;
        entry->last_bytes = bytes;
    } else {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

        VLOG_WARN_RL(&rl, "%s: device error: reading the counters of flow "
                     "ufid "UUID_FMT" failed: %s; its statistics stay those "
                     "of the last read", port->name,
                     UUID_ARGS((const struct uuid *) &entry->ufid),
                     ovs_strerror(error));
    }
}

/* Returns the cumulative statistics of 'entry' into 'stats'.  A partial
 * rule's packets go through the software datapath, which counts them
 * itself, so only what earlier full rules of the ufid counted is reported
 * for it. */
static void
hw_offload_entry_stats(const struct hw_offload_port *port,
                       struct hw_offload_entry *entry,
                       struct dpif_flow_stats *stats)
    OVS_REQUIRES(port->mutex)
{
    *stats = entry->base;
    if (entry->installed && entry->full) {
        hw_offload_entry_poll(port, entry);
        stats->n_packets += entry->last_packets;
        stats->n_bytes += entry->last_bytes;
        stats->used = MAX(stats->used, entry->used);
    }
}

/* Destroys the device objects of 'entry', if installed, uncounts it and
 * folds what its counters counted into 'entry->base'.  The entry stays in
 * the map. */
static void
hw_offload_entry_uninstall(struct hw_offload_port *port,
                           struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    if (!entry->installed) {
        return;
    }

    if (entry->creation_tid < port->n_threads) {
        port->n_flows[entry->creation_tid]--;
    }
    if (entry->full) {
        port->n_full--;
    } else {
        port->n_partial--;
    }

    /* hw_flow_uninstall() reads the counters just before the rule goes, so
     * the final read below misses no packet.  A rule the device refuses to
     * destroy goes on tagging packets with the mark of a partial rule:
     * hw-stale keeps the mark from other flows until a retry destroys it. */
    hw_stale_uninstall_flow(hw_offload_port_dev(port), &entry->flow,
                            entry->full ? HW_STALE_NO_MARK : entry->mark);
    if (entry->tunnel != HW_TUNNEL_NONE && !--port->n_tunnel_rules) {
        /* The last tunnel rule is gone: its guards can go too. */
        hw_tnl_guards_uninstall(port);
    }
    if (entry->full) {
        hw_offload_entry_poll(port, entry);
        entry->base.n_packets += entry->last_packets;
        entry->base.n_bytes += entry->last_bytes;
        entry->base.used = MAX(entry->base.used, entry->used);
    }
    entry->last_packets = entry->last_bytes = 0;
    entry->installed = false;
}

/* Removes 'entry' from the map of 'port' and destroys its rule.  The
 * caller frees it. */
static void
hw_offload_entry_remove(struct hw_offload_port *port,
                        struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    hmap_remove(&port->entries, &entry->node);
    hw_offload_entry_uninstall(port, entry);
}

/* Removes from 'port' every entry created by offload thread 'tid', or every
 * entry if 'tid' is UINT_MAX.  Returns the number of entries removed. */
static size_t
hw_offload_port_flush(struct hw_offload_port *port, unsigned int tid)
    OVS_REQUIRES(port->mutex)
{
    struct hw_offload_entry *entry;
    size_t n = 0;

    HMAP_FOR_EACH_SAFE (entry, node, &port->entries) {
        if (tid == UINT_MAX || entry->creation_tid == tid) {
            hw_offload_entry_remove(port, entry);
            hw_offload_entry_free(entry);
            n++;
        }
    }
    return n;
}

/* Nothing else refers to 'port' when it is created or freed. */
static struct hw_offload_port *
hw_offload_port_create(const struct netdev *netdev)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    struct hw_offload_port *port = xzalloc(sizeof *port);

    port->name = xstrdup(netdev_get_name(netdev));
    ovs_mutex_init(&port->dev_mutex);
    ovs_mutex_init(&port->mutex);
    hmap_init(&port->entries);
    hmap_init(&port->vport_flows);
    port->n_threads = MAX(netdev_offload_thread_nb(), 1);
    port->n_flows = xcalloc(port->n_threads, sizeof *port->n_flows);
    return port;
}

static void
hw_offload_port_free(struct hw_offload_port *port)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    hmap_destroy(&port->entries);
    hmap_destroy(&port->vport_flows);
    ovs_mutex_destroy(&port->mutex);
    ovs_mutex_destroy(&port->dev_mutex);
    free(port->n_flows);
    free(port->devname);
    free(port->name);
    free(port);
}

/* Refusals. */

/* Records that the flow 'ufid' with 'match' was not offloaded on port
 * 'port_name' and why.  Returns false if the latest records already hold
 * this flow on this port: dpif-netdev asks again for the same megaflow
 * from each PMD thread that has it, and a flow counts once.  The record
 * then gets the new reason and time. */
static bool
hw_offload_refusal_record(const char *port_name, const struct match *match,
                          const ovs_u128 *ufid, const char *reason)
{
    struct ds match_s = DS_EMPTY_INITIALIZER;
    struct hw_refusal *r = NULL;
    bool new_flow;

    ovs_mutex_lock(&refusals_mutex);
    for (size_t i = 0; i < MIN(n_refusals, HW_REFUSALS_MAX); i++) {
        struct hw_refusal *old = &refusals[i];

        if (ovs_u128_equals(old->ufid, *ufid)
            && !strcmp(old->port, port_name)) {
            r = old;
            break;
        }
    }
    new_flow = !r;
    if (new_flow) {
        r = &refusals[n_refusals++ % HW_REFUSALS_MAX];
        free(r->port);
        free(r->match);
        struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER(&map);
        uint32_t in_port = odp_to_u32(match->flow.in_port.odp_port);

        r->port = xstrdup(port_name);
        r->ufid = *ufid;
        /* The flow's in_port is the port it was put on: show its name, as
         * dpctl/dump-flows does, rather than a datapath port number. */
        if (in_port < ofp_to_u16(OFPP_MAX)) {
            ofputil_port_map_put(&map, u16_to_ofp(in_port), port_name);
        }
        match_format(match, &map, &match_s, OFP_DEFAULT_PRIORITY);
        ofputil_port_map_destroy(&map);
        r->match = ds_steal_cstr(&match_s);
    }
    free(r->reason);
    r->when = time_wall_msec();
    r->reason = xstrdup(reason);
    ovs_mutex_unlock(&refusals_mutex);
    return new_flow;
}

/* Appends to 's' the start of a "flow put" log line. */
static void
hw_offload_put_log_prefix(struct ds *s, const struct netdev *netdev,
                          bool modify, const ovs_u128 *ufid, uint32_t mark)
{
    ds_put_format(s, "%s: flow put[%s]: ufid "UUID_FMT" mark %"PRIu32,
                  netdev_get_name(netdev), modify ? "modify" : "create",
                  UUID_ARGS((const struct uuid *) ufid), mark);
}

/* flow_put() failed for 'reason': records, counts and logs it, each flow
 * once.  A device error (table full, ENOMEM, EEXIST, ...) is a warning:
 * the NIC refused what it should take. */
static void
hw_offload_put_failed(const struct netdev *netdev,
                      struct hw_offload_port *port, const struct match *match,
                      const ovs_u128 *ufid, uint32_t mark, bool modify,
                      bool device_error, const char *reason)
    OVS_EXCLUDED(port->mutex)
{
    static struct vlog_rate_limit device_rl = VLOG_RATE_LIMIT_INIT(5, 20);

    if (!hw_offload_refusal_record(netdev_get_name(netdev), match, ufid,
                                   reason)) {
        return;
    }

    ovs_mutex_lock(&port->mutex);
    if (device_error) {
        port->n_device_errors++;
    } else {
        port->n_refused++;
    }
    ovs_mutex_unlock(&port->mutex);

    if (device_error) {
        COVERAGE_INC(hw_offload_device_error);
    } else {
        COVERAGE_INC(hw_offload_refused);
    }
    hw_offload_coverage_flush();

    if (device_error ? !vlog_should_drop(&this_module, VLL_WARN, &device_rl)
                     : VLOG_IS_DBG_ENABLED()) {
        struct ds s = DS_EMPTY_INITIALIZER;

        hw_offload_put_log_prefix(&s, netdev, modify, ufid, mark);
        ds_put_format(&s, " %s: %s", device_error ? "device error"
                                                  : "not offloaded",
                      reason);
        if (device_error) {
            VLOG_WARN("%s; the flow stays in software", ds_cstr(&s));
        } else {
            VLOG_DBG("%s", ds_cstr(&s));
        }
        ds_destroy(&s);
    }
}

/* Reconfiguration of a port's device (see netdev-hw.h). */

/* Destroys every rule of 'netdev' before netdev-hw destroys the QPs they
 * point to ('configured' false), and installs them again on the rebuilt
 * device afterwards ('configured' true).  The entries stay in the map
 * meanwhile, so that OVS, which knows nothing of this, still finds them;
 * a rule the new device refuses is dropped and recorded like a failed
 * put. */
static void
hw_offload_reconfigure_cb(struct netdev *netdev, bool configured)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_offload_entry *entry;
    struct netdev_hw_device dev;
    size_t n = 0, n_failed = 0;

    if (!port || !hw_offload_is_ours(netdev)) {
        return;
    }

    ovs_mutex_lock(&port->dev_mutex);
    ovs_mutex_lock(&port->mutex);
    if (!configured) {
        /* The egress rules first: the push hook must stop leaving headers
         * to them before anything else changes. */
        hw_egress_port_down(port->name, false);
        HMAP_FOR_EACH (entry, node, &port->entries) {
            if (entry->installed) {
                hw_offload_entry_uninstall(port, entry);
                n++;
            }
        }
        hw_tnl_guards_uninstall(port);
        port->have_dev = false;
    } else if (!port->closing && netdev_hw_get_device(netdev, &dev)) {
        hw_offload_port_set_dev(port, &dev);
        n_failed += hw_egress_port_up(netdev, &dev);
        HMAP_FOR_EACH_SAFE (entry, node, &port->entries) {
            struct ds reason = DS_EMPTY_INITIALIZER;
            struct hw_rule rule;
            int error;

            if (entry->installed) {
                continue;
            }
            error = hw_offload_entry_rule(entry, dev.pipeline != NULL,
                                          &rule, &reason);
            if (!error && entry->tunnel != HW_TUNNEL_NONE) {
                error = hw_tnl_guards_install(port, netdev, &port->dev,
                                              &reason);
            }
            if (!error) {
                enum hw_rss_type type = hw_rule_rss_type(&rule);

                error = hw_flow_install(&port->dev,
                                        netdev_hw_rss_qp(netdev, type),
                                        &rule, &entry->flow, &reason);
            }
            if (!error) {
                hw_offload_entry_installed(port, entry);
                n++;
            } else {
                struct match match;

                minimatch_expand(&entry->match, &match);
                hw_offload_refusal_record(port->name, &match, &entry->ufid,
                                          ds_cstr(&reason));
                port->n_device_errors++;
                COVERAGE_INC(hw_offload_device_error);
                hmap_remove(&port->entries, &entry->node);
                hw_offload_entry_free(entry);
                n_failed++;
            }
            ds_destroy(&reason);
        }
        if (!port->n_tunnel_rules) {
            hw_tnl_guards_uninstall(port);
        }
    }
    ovs_mutex_unlock(&port->mutex);
    ovs_mutex_unlock(&port->dev_mutex);

    VLOG_DBG("%s: device %s: %s %"PRIuSIZE" rules, %"PRIuSIZE" failed",
             netdev_get_name(netdev),
             configured ? "configured" : "going down",
             configured ? "reinstalled" : "removed", n, n_failed);
    if (n_failed) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

        VLOG_WARN_RL(&rl, "%s: device error: %"PRIuSIZE" rules could not "
                     "be installed again after a reconfiguration; their "
                     "flows stay in software (netdev-hw/not-offloaded says "
                     "why)", netdev_get_name(netdev), n_failed);
    }
}

/* The flow API. */

static size_t hw_offload_vport_flush(struct netdev *,
                                     struct hw_offload_port *,
                                     unsigned int tid);

/* The tunnel type of 'netdev' if it is a vport whose flows the plugin can
 * offload, HW_TUNNEL_NONE otherwise: the vxlan and gre vports of the
 * userspace datapath (the "netdev" datapath, "dummy" in tests), as
 * netdev-offload-dpdk claims them.  dpif-netdev puts the flows of the
 * packets they decapsulate on them, with the physical port in
 * info->orig_in_port. */
static enum hw_tunnel_type
hw_offload_vport_tunnel(const struct netdev *netdev)
{
    const char *type = netdev_get_type(netdev);
    const char *dpif_type = netdev_get_dpif_type(netdev);

    if (!dpif_type
        || (strcmp(dpif_type, "netdev") && strcmp(dpif_type, "dummy"))) {
        return HW_TUNNEL_NONE;
    }
    if (!strcmp(type, "vxlan")) {
        return HW_TUNNEL_VXLAN;
    } else if (!strcmp(type, "gre") || !strcmp(type, "ip6gre")) {
        return HW_TUNNEL_GRE;
    }
    return HW_TUNNEL_NONE;
}

static bool
hw_offload_claims(const struct netdev *netdev)
{
    return (netdev_is_hw(netdev)
            || hw_offload_vport_tunnel(netdev) != HW_TUNNEL_NONE);
}

static int
netdev_offload_hw_init_flow_api(struct netdev *netdev)
{
    struct hw_offload_port *port, *stale;

    if (!hw_offload_claims(netdev)) {
        return EOPNOTSUPP;
    }

    /* A port that still has offload state from an earlier claim keeps rules
     * that no datapath flow refers to any more: remove them first. */
    stale = hw_offload_port_get(netdev);
    if (stale) {
        bool ours = false;

        ovs_mutex_lock(&hw_ports_mutex);
        LIST_FOR_EACH (port, list_node, &hw_ports) {
            if (port == stale) {
                ours = true;
                ovs_list_remove(&port->list_node);
                break;
            }
        }
        ovs_mutex_unlock(&hw_ports_mutex);

        if (ours) {
            size_t n = 0;

            if (stale->vport) {
                n = hw_offload_vport_flush(netdev, stale, UINT_MAX);
            } else {
                hw_egress_port_down(stale->name, true);
            }
            ovs_mutex_lock(&stale->dev_mutex);
            ovs_mutex_lock(&stale->mutex);
            stale->closing = true;
            n += hw_offload_port_flush(stale, UINT_MAX);
            ovs_mutex_unlock(&stale->mutex);
            ovs_mutex_unlock(&stale->dev_mutex);

            VLOG_DBG("%s: removed %"PRIuSIZE" stale rules",
                     netdev_get_name(netdev), n);
            ovsrcu_set(&netdev->hw_info.offload_data, NULL);
            ovsrcu_postpone(hw_offload_port_free, stale);
        }
    }

    /* Without the capabilities the device needs, the port's flows stay in
     * software.  A vport has no device: its flows' rules go to hw ports. */
    if (netdev_is_hw(netdev) && hw_privileges_check_offload(netdev)) {
        return EOPNOTSUPP;
    }

    port = hw_offload_port_create(netdev);
    if (!netdev_is_hw(netdev)) {
        port->vport = true;
        port->tunnel = hw_offload_vport_tunnel(netdev);
    }
    ovs_mutex_lock(&hw_ports_mutex);
    ovs_list_push_back(&hw_ports, &port->list_node);
    ovs_mutex_unlock(&hw_ports_mutex);

    ovsrcu_set(&netdev->hw_info.offload_data, port);
    /* Only a packet with a flow mark can need our miss hook: dpif-netdev
     * calls it for no other (vswitchd-patches/0005), so that an untagged
     * packet costs the miss path a test instead of a call. */
    atomic_store_relaxed(&netdev->hw_info.miss_api_marked_only, true);
    VLOG_DBG("%s: hw flow API claims port", netdev_get_name(netdev));
    return 0;
}

static void
netdev_offload_hw_uninit_flow_api(struct netdev *netdev)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    size_t n = 0;

    if (!port) {
        return;
    }
    hw_stale_retry(NULL);
    if (port->vport) {
        n = hw_offload_vport_flush(netdev, port, UINT_MAX);
    }

    /* A put that comes later (dpif-netdev may still hold one queued) sees
     * 'closing' and fails without touching the device.  The egress rules
     * of the port go first, so that the push hook stops leaving headers to
     * them. */
    if (!port->vport) {
        hw_egress_port_down(port->name, true);
    }
    ovs_mutex_lock(&port->dev_mutex);
    ovs_mutex_lock(&port->mutex);
    port->closing = true;
    n += hw_offload_port_flush(port, UINT_MAX);
    ovs_mutex_unlock(&port->mutex);
    ovs_mutex_unlock(&port->dev_mutex);
    if (n) {
        VLOG_DBG("%s: uninit removed %"PRIuSIZE" rules",
                 netdev_get_name(netdev), n);
    }

    ovs_mutex_lock(&hw_ports_mutex);
    ovs_list_remove(&port->list_node);
    ovs_mutex_unlock(&hw_ports_mutex);

    ovsrcu_set(&netdev->hw_info.offload_data, NULL);
    ovsrcu_postpone(hw_offload_port_free, port);
}

/* Installs the rule of 'entry' on the device of 'netdev', for flow_put(),
 * replacing the old entry of the same ufid if there is one ('*modifyp' is
 * set to whether there is).  Returns 0 or an errno value with a reason in
 * 'reason'. */
static int
hw_offload_install(struct netdev *netdev, struct hw_offload_port *port,
                   struct hw_offload_entry *entry,
                   const struct hw_rule *rule, bool *modifyp,
                   struct ds *reason, struct ds *log)
    OVS_REQUIRES(port->dev_mutex)
{
    enum hw_rss_type type = hw_rule_rss_type(rule);
    struct hw_offload_entry *old;
    struct netdev_hw_device dev;
    bool modify;
    int error;

    /* 'closing' is set under 'dev_mutex', which this thread holds. */
    if (port->closing) {
        *modifyp = false;
        ds_put_cstr(reason, "port is being removed");
        return ENODEV;
    }

    /* Only this thread adds this ufid (dpif-netdev hashes a mega_ufid to
     * one offload thread), and only holders of 'dev_mutex' remove entries
     * besides flow_del() of the same thread, so the answer holds until the
     * entry is in the map. */
    ovs_mutex_lock(&port->mutex);
    modify = hw_offload_entry_find__(port, &entry->ufid,
                                     entry->node.hash) != NULL;
    ovs_mutex_unlock(&port->mutex);
    *modifyp = modify;

    if (!netdev_hw_get_device(netdev, &dev)) {
        ds_put_cstr(reason, "device not open");
        return ENODEV;
    }

    /* A tunnel rule needs the port's inner VLAN guards in front of it. */
    if (entry->tunnel != HW_TUNNEL_NONE) {
        ovs_mutex_lock(&port->mutex);
        error = hw_tnl_guards_install(port, netdev, &dev, reason);
        ovs_mutex_unlock(&port->mutex);
        if (error) {
            return error;
        }
    }

    /* The new rule goes in before the old one goes, so that a modify the
     * device refuses leaves the old rule working. */
    error = hw_flow_install(&dev, netdev_hw_rss_qp(netdev, type),
                            rule, &entry->flow, reason);
    if (error == EEXIST && modify) {
        /* Same ufid means same match, and the device refuses two rules of
         * one match and priority whose actions conflict (a partial rule
         * becoming a drop, say): this modify removes the old rule first.
         * What the old rule counted is kept in 'base'. */
        ovs_mutex_lock(&port->mutex);
        old = hw_offload_entry_find__(port, &entry->ufid, entry->node.hash);
        if (old) {
            hw_offload_entry_uninstall(port, old);
        }
        ds_clear(reason);
        error = 0;
        if (entry->tunnel != HW_TUNNEL_NONE) {
            /* The old rule may have been the last to need them. */
            error = hw_tnl_guards_install(port, netdev, &dev, reason);
        }
        ovs_mutex_unlock(&port->mutex);

        if (!error) {
            error = hw_flow_install(&dev, netdev_hw_rss_qp(netdev, type),
                                    rule, &entry->flow, reason);
        }
    }
    if (error) {
        ovs_mutex_lock(&port->mutex);
        if (!port->n_tunnel_rules) {
            hw_tnl_guards_uninstall(port);
        }
        ovs_mutex_unlock(&port->mutex);
        return error;
    }

    ovs_mutex_lock(&port->mutex);
    hw_offload_port_set_dev(port, &dev);
    /* A create finds no old entry: looking it up again would cost a cache
     * miss per flow in a large map. */
    old = modify ? hw_offload_entry_find__(port, &entry->ufid,
                                           entry->node.hash)
                 : NULL;
    /* The new entry counts before the old one stops counting, so that the
     * inner VLAN guards stay while either is a tunnel rule. */
    hw_offload_entry_installed(port, entry);
    if (old) {
        /* Under the mutex, so that flow_get() sees the statistics grow
         * monotonically across the swap. */
        hmap_replace(&port->entries, &old->node, &entry->node);
        hw_offload_entry_uninstall(port, old);
        entry->base = old->base;
        entry->used = old->used;
        if (entry->creation_tid < port->n_threads) {
            port->n_flows[entry->creation_tid]--;
        }
        entry->creation_tid = old->creation_tid;
        if (entry->creation_tid < port->n_threads) {
            port->n_flows[entry->creation_tid]++;
        }
    } else {
        /* Every create first looks its ufid up and finds nothing.  At
         * hmap's usual load, up to two entries per bucket, that compares
         * the hash of a chain of entries, a cache miss each once a port
         * has thousands of rules; at one entry per four buckets most such
         * lookups stop at an empty bucket (about 24 more bytes per flow
         * for the buckets, and no more rehashing than hmap's own
         * doubling). */
        size_t n = hmap_count(&port->entries) + 1;

        if (n > (port->entries.mask + 1) / 4) {
            hmap_reserve(&port->entries, 8 * n);
        }
        hmap_insert(&port->entries, &entry->node, entry->node.hash);
    }

    if (log) {
        /* Formatted under the mutex: once it is released, uninit or a
         * reconfiguration may change 'entry'. */
        hw_offload_put_log_prefix(log, netdev, modify, &entry->ufid,
                                  entry->mark);
        ds_put_format(log, " mode %s: ",
                      entry->full ? "full" : "partial");
        hw_flow_format(&entry->flow, rule, log);
    }
    ovs_mutex_unlock(&port->mutex);

    hw_offload_entry_free(old);
    return 0;
}

/* A rule the device refused to destroy (hw-stale.h) may still tag packets
 * with 'mark', which dpif-netdev freed when flow_del() returned and now
 * gives to the flow 'ufid': if it ran that flow's actions for the stale
 * rule's packets, they would be misforwarded.  Returns true, with a reason,
 * if the mark is held and the flow is not the one that owns it (a modify of
 * the flow whose old rule went stale keeps its mark: the stale rule's
 * packets are its own).  '*modifyp' tells whether the flow has an
 * entry. */
static bool
hw_offload_stale_mark(struct hw_offload_port *port, const ovs_u128 *ufid,
                      uint32_t hash, uint32_t mark, bool *modifyp,
                      struct ds *reason)
{
    struct ds why = DS_EMPTY_INITIALIZER;
    struct hw_offload_entry *entry;
    bool own;

    if (!hw_stale_mark_held(mark, &why)) {
        ds_destroy(&why);
        return false;
    }

    ovs_mutex_lock(&port->mutex);
    entry = hw_offload_entry_find__(port, ufid, hash);
    own = entry && entry->mark == mark;
    ovs_mutex_unlock(&port->mutex);
    *modifyp = entry != NULL;

    if (!own) {
        COVERAGE_INC(hw_offload_stale_mark);
        ds_put_format(reason, "flow mark %"PRIu32" is held by a rule the "
                      "device could not destroy (%s)", mark, ds_cstr(&why));
    }
    ds_destroy(&why);
    return !own;
}

static void hw_offload_entry_report(const struct hw_offload_port *port,
                                    struct hw_offload_entry *entry,
                                    struct match *match,
                                    struct nlattr **actions,
                                    struct dpif_flow_stats *stats,
                                    struct dpif_flow_attrs *attrs,
                                    struct ofpbuf *buf)
    OVS_REQUIRES(port->mutex);

/* Offloads the flow 'ufid' (put on 'flow_netdev', whose offload state is
 * 'flow_port') with a rule on the hw port 'netdev' ('port'): the same port
 * for a flow of a hw port; for a flow of the tunnel vport 'vport' the port
 * its packets arrive by. */
static int
hw_offload_put__(struct netdev *flow_netdev, struct hw_offload_port *flow_port,
                 struct netdev *netdev, struct hw_offload_port *port,
                 odp_port_t vport, struct match *match,
                 struct nlattr *actions, size_t actions_len,
                 const ovs_u128 *ufid, const struct offload_info *info,
                 const struct hw_translate_params *params,
                 struct dpif_flow_stats *stats)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ds log = DS_EMPTY_INITIALIZER;
    struct hw_mark_rec *rec = NULL, *old_rec = NULL;
    struct hw_egress *egress = NULL;
    struct hw_offload_entry *entry;
    uint32_t hash = hw_offload_ufid_hash(ufid);
    struct hw_push push;
    struct hw_rule rule;
    bool modify, decap;
    int error;

    if (hw_stale_any()) {
        /* Before the mark is looked at, and before a rule of the same
         * match, which the device would refuse next to a stale one. */
        hw_stale_retry(NULL);
        if (hw_offload_stale_mark(port, ufid, hash, info->flow_mark,
                                  &modify, &reason)) {
            /* A refusal, not a new device error: the failed destroy that
             * holds the mark was counted and logged as one. */
            hw_offload_put_failed(flow_netdev, flow_port, match, ufid,
                                  info->flow_mark, modify, false,
                                  ds_cstr(&reason));
            ds_destroy(&reason);
            hw_offload_coverage_flush();
            return EBUSY;
        }
    }

    /* In a map of many flows, the lookup of hw_offload_install() misses
     * the cache (and the TLB) on the ufid's bucket: ask for the bucket now,
     * so that it arrives while translate runs.  A device with a pipeline of
     * tables matches what verbs cannot (TTL, fragments, TCP flags, ICMP). */
    struct hw_translate_params xparams = *params;
    bool have_dev;
    ovs_mutex_lock(&port->mutex);
    OVS_PREFETCH(&port->entries.buckets[hash & port->entries.mask]);
    have_dev = port->have_dev;
    xparams.pipeline = have_dev && port->dev.pipeline;
    ovs_mutex_unlock(&port->mutex);
    if (!have_dev) {
        /* The port's first rule: ask its device. */
        struct netdev_hw_device dev;

        xparams.pipeline = (netdev_hw_get_device(netdev, &dev)
                            && dev.pipeline);
    }

    error = hw_translate_flow(match, actions, actions_len, &xparams, &rule,
                              &reason);
    if (error) {
        /* OVS keeps the flow in software.  A refused modify makes
         * dpif-netdev delete the old rule through flow_del(). */
        ovs_mutex_lock(&port->mutex);
        modify = hw_offload_entry_find__(port, ufid, hash) != NULL;
        ovs_mutex_unlock(&port->mutex);
        hw_offload_put_failed(flow_netdev, flow_port, match, ufid,
                              info->flow_mark, modify, false,
                              ds_cstr(&reason));
        ds_destroy(&reason);
        return EOPNOTSUPP;
    }

    /* A tunnel push the NIC can do.  If it cannot, the flow is still
     * offloaded and the software pushes. */
    if (!rule.full) {
        int push_error = hw_translate_push(&rule, actions, actions_len,
                                           &push, &reason);

        if (!push_error) {
            egress = hw_egress_acquire(flow_netdev, &push, &reason);
        }
        if (push_error != ENOENT && !egress) {
            struct ds why = DS_EMPTY_INITIALIZER;

            COVERAGE_INC(hw_offload_push_refused);
            ds_put_format(&why, "tnl_push stays in software: %s",
                          ds_cstr(&reason));
            VLOG_DBG("%s: flow put: ufid "UUID_FMT" mark %"PRIu32" %s",
                     netdev_get_name(flow_netdev),
                     UUID_ARGS((const struct uuid *) ufid), info->flow_mark,
                     ds_cstr(&why));
            hw_offload_refusal_record(netdev_get_name(flow_netdev), match,
                                      ufid, ds_cstr(&why));
            ds_destroy(&why);
        }
        ds_clear(&reason);
    }

    /* What the datapath threads need to know about the mark. */
    decap = (vport != ODPP_NONE
             && (rule.reformat == HW_REFORMAT_L2_DECAP
                 || rule.reformat == HW_REFORMAT_L3_DECAP));
    if (decap || egress) {
        rec = xzalloc(sizeof *rec);
        rec->mark = info->flow_mark;
        rec->phys = netdev;
        if (decap) {
            rec->decap = true;
            rec->l3 = rule.reformat == HW_REFORMAT_L3_DECAP;
            rec->vport = vport;
            hw_translate_tunnel_restore(match, params, &rec->restore);
        }
        if (egress) {
            rec->egress = egress;
            rec->marker.eth_dst = hw_push_marker(egress->id);
            rec->marker.eth_src = eth_addr_zero;
            rec->marker.eth_type = htons(HW_PUSH_MARKER_TYPE);
            rec->in_port = match->flow.in_port.odp_port;
            rec->tnl_port = push.tnl_port;
            rec->push_out_port = push.push_out_port;
            rec->header_len = push.header_len;
            memcpy(rec->header, push.header, push.header_len);
        }
    }

    entry = hw_offload_entry_alloc(ufid, hash, match, actions, actions_len);
    entry->mark = info->flow_mark;
    entry->creation_tid = hw_offload_tid();
    entry->params = *params;
    entry->full = rule.full;
    entry->tunnel = rule.tunnel;
    entry->vport = vport;
    entry->egress = egress;

    /* Published before the rule exists: a decapsulated packet must never
     * arrive with a mark recovery does not know. */
    if (rec) {
        old_rec = hw_mark_publish(rec);
        entry->mark_rec = rec;
    }

    ovs_mutex_lock(&port->dev_mutex);
    error = hw_offload_install(netdev, port, entry, &rule, &modify, &reason,
                               VLOG_IS_DBG_ENABLED() ? &log : NULL);
    ovs_mutex_unlock(&port->dev_mutex);

    if (error) {
        hw_offload_put_failed(flow_netdev, flow_port, match, ufid,
                              info->flow_mark, modify, true,
                              ds_cstr(&reason));
        /* The old rule of a failed modify still tags packets: give its
         * record back. */
        hw_mark_unpublish(entry->mark_rec, old_rec);
        entry->mark_rec = NULL;
        hw_offload_entry_free(entry);
    } else {
        hw_mark_retire(old_rec);
        if (rule.full) {
            COVERAGE_INC(hw_offload_put_full);
        } else {
            COVERAGE_INC(hw_offload_put_partial);
        }
        if (stats) {
            ovs_mutex_lock(&port->mutex);
            entry = hw_offload_entry_find(port, ufid);
            if (entry) {
                *stats = entry->base;
            } else {
                memset(stats, 0, sizeof *stats);
            }
            ovs_mutex_unlock(&port->mutex);
        }
        if (log.length) {
            if (egress) {
                ds_put_cstr(&log, ", tnl_push by egress rule");
            }
            VLOG_DBG("%s", ds_cstr(&log));
        }
    }
    ds_destroy(&reason);
    ds_destroy(&log);
    hw_offload_coverage_flush();
    return error;
}

/* Vport flows. */

/* Where the rule of a vport flow is. */
struct hw_vport_flow {
    struct hmap_node node;          /* In the vport's 'vport_flows'. */
    ovs_u128 ufid;
    odp_port_t phys_port;           /* The hw port its rule is on. */
    unsigned int creation_tid;
};

static struct hw_vport_flow *
hw_vport_flow_find(const struct hw_offload_port *port, const ovs_u128 *ufid)
    OVS_REQUIRES(port->mutex)
{
    struct hw_vport_flow *vf;

    HMAP_FOR_EACH_WITH_HASH (vf, node, hw_offload_ufid_hash(ufid),
                             &port->vport_flows) {
        if (ovs_u128_equals(vf->ufid, *ufid)) {
            return vf;
        }
    }
    return NULL;
}

/* Opens the hw port 'odp' of the datapath of 'vport_netdev', the physical
 * port of a vport flow, and returns it with its offload state in
 * '*portp', or NULL with a reason. */
static struct netdev *
hw_offload_phys_get(const struct netdev *vport_netdev, odp_port_t odp,
                    struct hw_offload_port **portp, struct ds *reason)
{
    struct hw_offload_port *port;
    struct netdev *phys;

    *portp = NULL;
    if (odp == ODPP_NONE) {
        /* dpctl/add-flow puts vport flows without it. */
        ds_put_cstr(reason, "vport flow without the port its packets "
                    "arrive by (orig_in_port)");
        return NULL;
    }
    phys = netdev_ports_get(odp, netdev_get_dpif_type(vport_netdev));
    if (!phys) {
        ds_put_format(reason, "port %"PRIu32" its packets arrive by not "
                      "found", odp_to_u32(odp));
        return NULL;
    }
    port = (netdev_is_hw(phys) && hw_offload_is_ours(phys)
            ? hw_offload_port_get(phys) : NULL);
    if (!port || port->vport) {
        ds_put_format(reason, "its packets arrive by %s, which is not a hw "
                      "port", netdev_get_name(phys));
        netdev_close(phys);
        return NULL;
    }
    *portp = port;
    return phys;
}

/* Removes the rule of the vport flow 'ufid' from its physical port 'odp'.
 * Returns 0 and the flow's statistics in 'stats', if nonnull, or
 * ENOENT. */
static int
hw_offload_phys_remove(const struct netdev *vport_netdev, odp_port_t odp,
                       const ovs_u128 *ufid, struct dpif_flow_stats *stats)
{
    struct hw_offload_entry *entry = NULL;
    struct hw_offload_port *port;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct netdev *phys;

    phys = hw_offload_phys_get(vport_netdev, odp, &port, &reason);
    ds_destroy(&reason);
    if (!phys) {
        return ENOENT;
    }

    ovs_mutex_lock(&port->mutex);
    entry = hw_offload_entry_find(port, ufid);
    if (entry) {
        hw_offload_entry_remove(port, entry);
    }
    ovs_mutex_unlock(&port->mutex);

    if (entry) {
        COVERAGE_INC(hw_offload_del);
        VLOG_DBG("%s: flow del: ufid "UUID_FMT" mark %"PRIu32" (on %s)",
                 netdev_get_name(vport_netdev),
                 UUID_ARGS((const struct uuid *) ufid), entry->mark,
                 netdev_get_name(phys));
        if (stats) {
            *stats = entry->base;
        }
        hw_offload_entry_free(entry);
    }
    netdev_close(phys);
    return entry ? 0 : ENOENT;
}

static int
hw_offload_vport_put(struct netdev *netdev, struct hw_offload_port *port,
                     struct match *match, struct nlattr *actions,
                     size_t actions_len, const ovs_u128 *ufid,
                     struct offload_info *info,
                     struct dpif_flow_stats *stats)
{
    const struct netdev_tunnel_config *cfg = netdev_get_tunnel_config(netdev);
    struct hw_translate_params params = {
        .flow_mark = info->flow_mark,
        .in_port = match->flow.in_port.odp_port,
        .vport = port->tunnel,
        .vport_udp_port = cfg ? cfg->dst_port : htons(0),
    };
    odp_port_t phys_port = info->orig_in_port;
    odp_port_t old_phys = ODPP_NONE;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_offload_port *pport;
    struct hw_vport_flow *vf;
    struct netdev *phys;
    int error;

    ovs_mutex_lock(&port->mutex);
    vf = hw_vport_flow_find(port, ufid);
    if (vf) {
        old_phys = vf->phys_port;
    }
    ovs_mutex_unlock(&port->mutex);
    if (phys_port == ODPP_NONE) {
        /* A modify from dpctl: the rule stays where it is. */
        phys_port = old_phys;
    }

    phys = hw_offload_phys_get(netdev, phys_port, &pport, &reason);
    if (phys && port->tunnel == HW_TUNNEL_VXLAN
        && params.vport_udp_port != htons(HW_VXLAN_PORT)) {
        /* The NIC's parser recognises VXLAN on this port only. */
        ds_put_format(&reason, "VXLAN on UDP port %"PRIu16" not supported",
                      ntohs(params.vport_udp_port));
        netdev_close(phys);
        phys = NULL;
    }
    if (!phys) {
        hw_offload_put_failed(netdev, port, match, ufid, info->flow_mark,
                              vf != NULL, false, ds_cstr(&reason));
        ds_destroy(&reason);
        return EOPNOTSUPP;
    }
    ds_destroy(&reason);

    if (old_phys != ODPP_NONE && old_phys != phys_port) {
        /* Its packets arrive by another port now. */
        hw_offload_phys_remove(netdev, old_phys, ufid, NULL);
    }

    error = hw_offload_put__(netdev, port, phys, pport,
                             match->flow.in_port.odp_port, match, actions,
                             actions_len, ufid, info, &params, stats);
    if (!error) {
        ovs_mutex_lock(&port->mutex);
        vf = hw_vport_flow_find(port, ufid);
        if (!vf) {
            vf = xzalloc(sizeof *vf);
            vf->ufid = *ufid;
            vf->creation_tid = hw_offload_tid();
            hmap_insert(&port->vport_flows, &vf->node,
                        hw_offload_ufid_hash(ufid));
        }
        vf->phys_port = phys_port;
        ovs_mutex_unlock(&port->mutex);
    }
    netdev_close(phys);
    return error;
}

static int
hw_offload_vport_get(struct netdev *netdev, struct hw_offload_port *port,
                     struct match *match, struct nlattr **actions,
                     const ovs_u128 *ufid, struct dpif_flow_stats *stats,
                     struct dpif_flow_attrs *attrs, struct ofpbuf *buf)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_offload_entry *entry = NULL;
    struct hw_offload_port *pport;
    odp_port_t phys_port;
    struct hw_vport_flow *vf;
    struct netdev *phys;

    ovs_mutex_lock(&port->mutex);
    vf = hw_vport_flow_find(port, ufid);
    phys_port = vf ? vf->phys_port : ODPP_NONE;
    ovs_mutex_unlock(&port->mutex);
    if (phys_port == ODPP_NONE) {
        return ENOENT;
    }

    phys = hw_offload_phys_get(netdev, phys_port, &pport, &reason);
    ds_destroy(&reason);
    if (!phys) {
        return ENOENT;
    }
    ovs_mutex_lock(&pport->mutex);
    entry = hw_offload_entry_find(pport, ufid);
    if (entry) {
        hw_offload_entry_report(pport, entry, match, actions, stats, attrs,
                                buf);
    }
    ovs_mutex_unlock(&pport->mutex);
    netdev_close(phys);
    return entry ? 0 : ENOENT;
}

static int
hw_offload_vport_del(struct netdev *netdev, struct hw_offload_port *port,
                     const ovs_u128 *ufid, struct dpif_flow_stats *stats)
{
    struct hw_vport_flow *vf;
    int error;

    ovs_mutex_lock(&port->mutex);
    vf = hw_vport_flow_find(port, ufid);
    if (vf) {
        hmap_remove(&port->vport_flows, &vf->node);
    }
    ovs_mutex_unlock(&port->mutex);
    if (!vf) {
        return ENOENT;
    }

    error = hw_offload_phys_remove(netdev, vf->phys_port, ufid, stats);
    free(vf);
    hw_offload_coverage_flush();
    return error;
}

/* Removes the rules of the flows of vport 'netdev' created by offload
 * thread 'tid', or of all its flows if 'tid' is UINT_MAX.  Returns the
 * number of flows. */
static size_t
hw_offload_vport_flush(struct netdev *netdev, struct hw_offload_port *port,
                       unsigned int tid)
{
    struct hw_vport_flow *vf, **vfs;
    size_t n = 0;

    /* The rules are removed after the vport's mutex is released:
     * hw_offload_phys_remove() takes the physical port's. */
    ovs_mutex_lock(&port->mutex);
    vfs = xmalloc(MAX(hmap_count(&port->vport_flows), 1) * sizeof *vfs);
    HMAP_FOR_EACH_SAFE (vf, node, &port->vport_flows) {
        if (tid == UINT_MAX || vf->creation_tid == tid) {
            hmap_remove(&port->vport_flows, &vf->node);
            vfs[n++] = vf;
        }
    }
    ovs_mutex_unlock(&port->mutex);

    for (size_t i = 0; i < n; i++) {
        hw_offload_phys_remove(netdev, vfs[i]->phys_port, &vfs[i]->ufid,
                               NULL);
        free(vfs[i]);
    }
    free(vfs);
    return n;
}

static int
netdev_offload_hw_flow_put(struct netdev *netdev, struct match *match,
                           struct nlattr *actions, size_t actions_len,
                           const ovs_u128 *ufid, struct offload_info *info,
                           struct dpif_flow_stats *stats)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_translate_params params = {
        .flow_mark = info->flow_mark,
        .in_port = match->flow.in_port.odp_port,
        .vport = HW_TUNNEL_NONE,
    };

    if (!port) {
        return EOPNOTSUPP;
    } else if (port->vport) {
        return hw_offload_vport_put(netdev, port, match, actions,
                                    actions_len, ufid, info, stats);
    }
    return hw_offload_put__(netdev, port, netdev, port, ODPP_NONE, match,
                            actions, actions_len, ufid, info, &params,
                            stats);
}

/* Appends the actions of 'entry' to 'buf' as an OVS_FLOW_ATTR_ACTIONS
 * attribute, the form dpif-netlink expects from flow_get() and flow dumps,
 * and returns it.  Callers hand in fixed stack buffers: if the actions do
 * not fit, an empty attribute is returned instead. */
static struct nlattr *
hw_offload_put_actions(const struct hw_offload_entry *entry,
                       struct ofpbuf *buf)
{
    static struct nlattr no_actions = {
        .nla_len = NLA_HDRLEN,
        .nla_type = OVS_FLOW_ATTR_ACTIONS,
    };
    size_t need = NLA_ALIGN(NLA_HDRLEN + entry->actions_len);
    size_t ofs;

    if (!buf || entry->actions_len > UINT16_MAX - NLA_HDRLEN
        || (buf->source == OFPBUF_STACK && ofpbuf_tailroom(buf) < need)) {
        return &no_actions;
    }

    ofs = buf->size;
    nl_msg_put_unspec(buf, OVS_FLOW_ATTR_ACTIONS, entry->actions,
                      entry->actions_len);
    return ofpbuf_at_assert(buf, ofs, sizeof(struct nlattr));
}

/* Fills what flow_get() and flow_dump_next() report about 'entry'. */
static void
hw_offload_entry_report(const struct hw_offload_port *port,
                        struct hw_offload_entry *entry, struct match *match,
                        struct nlattr **actions,
                        struct dpif_flow_stats *stats,
                        struct dpif_flow_attrs *attrs, struct ofpbuf *buf)
    OVS_REQUIRES(port->mutex)
{
    if (match) {
        minimatch_expand(&entry->match, match);
    }
    if (actions) {
        *actions = hw_offload_put_actions(entry, buf);
    }
    if (stats) {
        hw_offload_entry_stats(port, entry, stats);
    }
    if (attrs) {
        /* dpctl shows "offloaded:partial" for layer "ovs" and
         * "offloaded:yes" for any other.  A rule waiting for its device to
         * be reconfigured is not offloaded at the moment. */
        attrs->offloaded = entry->installed;
        attrs->dp_layer = entry->installed && entry->full ? "hw" : "ovs";
        attrs->dp_extra_info = NULL;
    }
}

static int
netdev_offload_hw_flow_get(struct netdev *netdev, struct match *match,
                           struct nlattr **actions, const ovs_u128 *ufid,
                           struct dpif_flow_stats *stats,
                           struct dpif_flow_attrs *attrs,
                           struct ofpbuf *buf)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_offload_entry *entry;

    if (!port) {
        return ENOENT;
    } else if (port->vport) {
        return hw_offload_vport_get(netdev, port, match, actions, ufid,
                                    stats, attrs, buf);
    }

    ovs_mutex_lock(&port->mutex);
    entry = hw_offload_entry_find(port, ufid);
    if (entry) {
        hw_offload_entry_report(port, entry, match, actions, stats, attrs,
                                buf);
    }
    ovs_mutex_unlock(&port->mutex);

    return entry ? 0 : ENOENT;
}

static int
netdev_offload_hw_flow_del(struct netdev *netdev, const ovs_u128 *ufid,
                           struct dpif_flow_stats *stats)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_offload_entry *entry;

    if (!port) {
        return ENOENT;
    }
    hw_stale_retry(NULL);
    if (port->vport) {
        return hw_offload_vport_del(netdev, port, ufid, stats);
    }

    ovs_mutex_lock(&port->mutex);
    entry = hw_offload_entry_find(port, ufid);
    if (entry) {
        hw_offload_entry_remove(port, entry);
    }
    ovs_mutex_unlock(&port->mutex);

    if (!entry) {
        return ENOENT;
    }

    COVERAGE_INC(hw_offload_del);
    VLOG_DBG("%s: flow del: ufid "UUID_FMT" mark %"PRIu32,
             netdev_get_name(netdev), UUID_ARGS((const struct uuid *) ufid),
             entry->mark);
    if (stats) {
        /* 'base' now holds everything the device counted for a full rule;
         * a partial rule's packets were counted in software. */
        *stats = entry->base;
    }
    hw_offload_entry_free(entry);
    hw_offload_coverage_flush();
    return 0;
}

static int
netdev_offload_hw_flow_flush(struct netdev *netdev)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    size_t n;

    if (!port) {
        return ENOENT;
    }
    hw_stale_retry(NULL);
    if (port->vport) {
        n = hw_offload_vport_flush(netdev, port, hw_offload_tid());
        if (n) {
            VLOG_DBG("%s: flow flush: removed %"PRIuSIZE" rules",
                     netdev_get_name(netdev), n);
        }
        return 0;
    }

    /* dpif-netdev sends a flush to every offload thread: each removes the
     * rules it created. */
    ovs_mutex_lock(&port->mutex);
    n = hw_offload_port_flush(port, hw_offload_tid());
    ovs_mutex_unlock(&port->mutex);
    if (n) {
        VLOG_DBG("%s: flow flush: removed %"PRIuSIZE" rules",
                 netdev_get_name(netdev), n);
    }
    return 0;
}

static int
netdev_offload_hw_flow_get_n_flows(struct netdev *netdev, uint64_t *n_flows)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    unsigned int n;

    if (!port) {
        return ENOENT;
    }

    n = MIN(port->n_threads, netdev_offload_thread_nb());
    ovs_mutex_lock(&port->mutex);
    for (unsigned int tid = 0; tid < n; tid++) {
        n_flows[tid] = port->n_flows[tid];
    }
    ovs_mutex_unlock(&port->mutex);
    return 0;
}

/* Flow dumps.  dpif-netdev does not use them (it dumps its own flows and
 * asks flow_get() about each); dpif-netlink does, through
 * netdev_ports_flow_dump_create(). */

struct hw_offload_dump {
    struct netdev_flow_dump up;
    ovs_u128 *ufids;                /* The ufids when the dump started. */
    size_t n_ufids;
    size_t next;
};

static struct hw_offload_dump *
hw_offload_dump_cast(struct netdev_flow_dump *dump)
{
    return CONTAINER_OF(dump, struct hw_offload_dump, up);
}

static int
netdev_offload_hw_flow_dump_create(struct netdev *netdev,
                                   struct netdev_flow_dump **dump_out,
                                   bool terse)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_offload_entry *entry;
    struct hw_offload_dump *dump;

    if (!port) {
        return ENOENT;
    }

    dump = xzalloc(sizeof *dump);
    dump->up.netdev = netdev_ref(netdev);
    dump->up.port = ODPP_NONE;
    dump->up.terse = terse;

    /* A snapshot of the ufids: entries added later are not dumped, entries
     * removed meanwhile are skipped. */
    ovs_mutex_lock(&port->mutex);
    dump->ufids = xmalloc(MAX(hmap_count(&port->entries), 1)
                          * sizeof *dump->ufids);
    HMAP_FOR_EACH (entry, node, &port->entries) {
        dump->ufids[dump->n_ufids++] = entry->ufid;
    }
    ovs_mutex_unlock(&port->mutex);

    *dump_out = &dump->up;
    return 0;
}

static int
netdev_offload_hw_flow_dump_destroy(struct netdev_flow_dump *dump_)
{
    struct hw_offload_dump *dump = hw_offload_dump_cast(dump_);

    netdev_close(dump->up.netdev);
    free(dump->ufids);
    free(dump);
    return 0;
}

static bool
netdev_offload_hw_flow_dump_next(struct netdev_flow_dump *dump_,
                                 struct match *match,
                                 struct nlattr **actions,
                                 struct dpif_flow_stats *stats,
                                 struct dpif_flow_attrs *attrs,
                                 ovs_u128 *ufid,
                                 struct ofpbuf *rbuffer OVS_UNUSED,
                                 struct ofpbuf *wbuffer)
{
    struct hw_offload_dump *dump = hw_offload_dump_cast(dump_);
    struct netdev *netdev = dump->up.netdev;
    struct hw_offload_port *port = hw_offload_port_get(netdev);

    if (!port) {
        return false;
    }

    while (dump->next < dump->n_ufids) {
        const ovs_u128 *next = &dump->ufids[dump->next++];
        struct hw_offload_entry *entry;

        ovs_mutex_lock(&port->mutex);
        entry = hw_offload_entry_find(port, next);
        if (entry) {
            hw_offload_entry_report(port, entry, match, actions, stats,
                                    attrs, wbuffer);
            *ufid = entry->ufid;
        }
        ovs_mutex_unlock(&port->mutex);

        if (entry) {
            return true;
        }
    }
    return false;
}

/* Clears the flow mark of a packet that the NIC may have tagged with the
 * mark of a flow that does not match it (see hw_translate_mark_is_exact()),
 * so that the classifier, not the mark, picks its flow. */
static void
hw_offload_check_mark(struct dp_packet *packet)
{
    if (!hw_translate_mark_is_exact(packet)) {
        *dp_packet_ol_flags_ptr(packet) &= ~DP_PACKET_OL_FLOW_MARK;
        COVERAGE_INC(hw_offload_mark_cleared);
    }
}

/* Gives a packet that a vport rule decapsulated what the software pop
 * would have left it: the tunnel metadata, in_port the vport (orig_in_port
 * stays the physical port), recirc_id 0 and the rest of the metadata
 * cleared.  The mark stays, so that dpif-netdev runs the vport flow's
 * actions at once; if this PMD thread has no copy of the flow, the
 * classifier finds it from the metadata, or the upcall sees the packet as
 * coming from the vport.
 *
 * The tagged half of netdev_offload_hw_miss_packet_recover(), out of line
 * so that the untagged half needs no stack frame (tools/
 * bench-instructions.sh: 19 instructions per untagged packet when it was
 * inlined, with the pushes and pops of the registers this half uses).
 * dpif-netdev no longer calls the hook for untagged packets
 * (vswitchd-patches/0005); the split keeps them cheap if they come
 * anyway. */
static int __attribute__((__noinline__))
hw_offload_recover_tagged(struct netdev *netdev, struct dp_packet *packet,
                          uint32_t mark)
{
    const struct hw_mark_rec *rec;
    struct pkt_metadata *md;

    if (!atomic_count_get(&hw_n_decap_marks)) {
        hw_offload_check_mark(packet);
        return 0;
    }
    rec = hw_mark_find(mark);
    if (!rec || !rec->decap || rec->phys != netdev) {
        hw_offload_check_mark(packet);
        return 0;
    }

    md = &packet->md;
    pkt_metadata_init_tnl(md);
    memcpy(&md->tunnel, &rec->restore.tunnel,
           offsetof(struct flow_tnl, metadata));
    md->in_port.odp_port = rec->vport;
    if (rec->l3) {
        /* An L3 decap puts a placeholder Ethernet header in front of the
         * inner IP packet; the software pop leaves the bare L3 packet.
         * dpif-netdev's mark path only parses Ethernet frames, so the
         * classifier handles these. */
        if (dp_packet_size(packet) >= ETH_HEADER_LEN) {
            dp_packet_pull(packet, ETH_HEADER_LEN);
        }
        packet->packet_type = rec->restore.packet_type;
        dp_packet_reset_offsets(packet);
        *dp_packet_ol_flags_ptr(packet) &= ~DP_PACKET_OL_FLOW_MARK;
    }
    COVERAGE_INC(hw_offload_recover);
    hw_offload_check_mark(packet);
    return 0;
}

/* dpif-netdev's miss hook: restores the packets that a vport rule
 * decapsulated (see hw_offload_recover_tagged()) and clears marks that do
 * not name the packet's flow.
 *
 * dpif-netdev calls it only for packets with a flow mark, because
 * init_flow_api sets 'miss_api_marked_only' (vswitchd-patches/0005): an
 * untagged packet costs the datapath one test and never gets here, and
 * leaves at once if it does.  It never returns an error: dpif-netdev would
 * drop the packet (or, for EOPNOTSUPP, stop calling it for the port). */
static int
netdev_offload_hw_miss_packet_recover(struct netdev *netdev,
                                      struct dp_packet *packet)
{
    uint32_t mark;

    if (OVS_UNLIKELY(!dp_packet_has_flow_mark(packet, &mark))) {
        return 0;
    }
    return hw_offload_recover_tagged(netdev, packet, mark);
}

/* The tunnel push hook (vswitchd-patches/0004), called for each packet with
 * a flow mark that is about to get a tunnel header in software: if an
 * installed egress rule will add exactly this header for the flow of the
 * mark, puts the rule's marker in front of the packet (an Ethernet frame,
 * or an L3 packet after a pop_eth) and returns true.  The in_port and
 * recirc_id tests make sure the packet is still running the actions of the
 * flow that tagged it (a recirculated packet keeps its mark). */
static bool
hw_offload_push_header_offloaded(const struct netdev *tnl_netdev OVS_UNUSED,
                                 struct dp_packet *packet, uint32_t mark,
                                 const struct ovs_action_push_tnl *data)
{
    const struct hw_mark_rec *rec = hw_mark_find(mark);
    struct hw_hbl_txq *txq;
    bool active;

    if (!rec || !rec->egress
        || packet->md.in_port.odp_port != rec->in_port
        || packet->md.recirc_id
        || data->header_len != rec->header_len
        || data->tnl_port != rec->tnl_port
        || data->out_port != rec->push_out_port
        || memcmp(data->header, rec->header, rec->header_len)) {
        return false;
    }
    atomic_read_relaxed(&rec->egress->active, &active);
    if (!active) {
        return false;
    }
    txq = ovsrcu_get(struct hw_hbl_txq *, &rec->egress->hbl);
    if (txq) {
        /* hbl: the send queue's encap adds what follows the outer IPv4
         * header. */
        return hw_hbl_push_prepare(txq, packet, data->header,
                                   data->header_len);
    }

    memcpy(dp_packet_push_uninit(packet, sizeof rec->marker), &rec->marker,
           sizeof rec->marker);
    packet->packet_type = htonl(PT_ETH);
    dp_packet_reset_offsets(packet);
    dp_packet_set_flow_mark(packet, HW_PUSH_PACKET_MARK);
    return true;
}

const struct netdev_flow_api netdev_offload_hw = {
    .type = "hw",
    .priority = 100,
    .flow_flush = netdev_offload_hw_flow_flush,
    .flow_dump_create = netdev_offload_hw_flow_dump_create,
    .flow_dump_destroy = netdev_offload_hw_flow_dump_destroy,
    .flow_dump_next = netdev_offload_hw_flow_dump_next,
    .flow_put = netdev_offload_hw_flow_put,
    .flow_get = netdev_offload_hw_flow_get,
    .flow_del = netdev_offload_hw_flow_del,
    .flow_get_n_flows = netdev_offload_hw_flow_get_n_flows,
    .hw_miss_packet_recover = netdev_offload_hw_miss_packet_recover,
    .init_flow_api = netdev_offload_hw_init_flow_api,
    .uninit_flow_api = netdev_offload_hw_uninit_flow_api,
};

/* unixctl commands. */

/* Opens the port 'name' for a command, replying with an error and returning
 * NULL if it is not a hw port. */
static struct netdev *
hw_offload_open_port(struct unixctl_conn *conn, const char *name)
{
    struct netdev *netdev = netdev_from_name(name);

    if (!netdev) {
        unixctl_command_reply_error(conn, "no such port");
        return NULL;
    }
    if (!netdev_is_hw(netdev)) {
        unixctl_command_reply_error(conn, "not a hw port");
        netdev_close(netdev);
        return NULL;
    }
    return netdev;
}

static void
hw_offload_format_port(struct netdev *netdev, struct ds *s)
{
    struct netdev_hw_device dev;

    ds_put_format(s, "%s:\n", netdev_get_name(netdev));
    netdev_hw_format(netdev, s);
    if (s->length && s->string[s->length - 1] != '\n') {
        ds_put_char(s, '\n');
    }

    if (hw_offload_is_ours(netdev) && hw_offload_port_get(netdev)) {
        struct hw_offload_port *port = hw_offload_port_get(netdev);

        uint64_t n_installed;

        ovs_mutex_lock(&port->mutex);
        n_installed = port->n_full + port->n_partial;
        ds_put_format(s, "  offload: %"PRIu64" rules (%"PRIu64" full, "
                      "%"PRIu64" partial), %"PRIu64" refused, "
                      "%"PRIu64" device errors",
                      n_installed, port->n_full, port->n_partial,
                      port->n_refused, port->n_device_errors);
        if (hmap_count(&port->entries) > n_installed) {
            ds_put_format(s, ", %"PRIu64" waiting for the device",
                          hmap_count(&port->entries) - n_installed);
        }
        ds_put_char(s, '\n');
        ovs_mutex_unlock(&port->mutex);
    } else {
        ds_put_cstr(s, "  offload: not enabled\n");
    }

    /* The rules the device refused to destroy, whoever created them. */
    if (netdev_hw_get_device(netdev, &dev)) {
        hw_stale_format(dev.devname, s);
    }
}

static void
hw_offload_unixctl_show(struct unixctl_conn *conn, int argc,
                        const char *argv[], void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct netdev *netdev = hw_offload_open_port(conn, argv[1]);

        if (!netdev) {
            return;
        }
        hw_offload_format_port(netdev, &s);
        netdev_close(netdev);
    } else {
        struct sset names = SSET_INITIALIZER(&names);
        struct hw_offload_port *port;
        const char *name;

        /* Names only: the netdevs are opened after the mutex is released,
         * because uninit takes it with netdev_mutex held. */
        ovs_mutex_lock(&hw_ports_mutex);
        LIST_FOR_EACH (port, list_node, &hw_ports) {
            sset_add(&names, port->name);
        }
        ovs_mutex_unlock(&hw_ports_mutex);

        SSET_FOR_EACH (name, &names) {
            struct netdev *netdev = netdev_from_name(name);

            if (netdev) {
                hw_offload_format_port(netdev, &s);
                netdev_close(netdev);
            }
        }
        sset_destroy(&names);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static int
hw_offload_entry_compare(const void *a_, const void *b_)
{
    const struct hw_offload_entry *const *a = a_;
    const struct hw_offload_entry *const *b = b_;

    return (*a)->mark < (*b)->mark ? -1 : (*a)->mark > (*b)->mark;
}

static void
hw_offload_unixctl_dump_rules(struct unixctl_conn *conn,
                              int argc OVS_UNUSED, const char *argv[],
                              void *aux OVS_UNUSED)
{
    struct hw_offload_entry **entries, *entry;
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct netdev_hw_device *dev;
    struct hw_offload_port *port;
    struct netdev *netdev;
    size_t n = 0;

    netdev = hw_offload_open_port(conn, argv[1]);
    if (!netdev) {
        return;
    }
    port = hw_offload_port_get(netdev);
    if (!hw_offload_is_ours(netdev) || !port) {
        unixctl_command_reply_error(conn, "offload not enabled on port");
        netdev_close(netdev);
        return;
    }

    ovs_mutex_lock(&port->mutex);
    dev = hw_offload_port_dev(port);
    entries = xmalloc(MAX(hmap_count(&port->entries), 1) * sizeof *entries);
    HMAP_FOR_EACH (entry, node, &port->entries) {
        if (entry->installed) {
            entries[n++] = entry;
        }
    }
    qsort(entries, n, sizeof *entries, hw_offload_entry_compare);

    for (size_t i = 0; i < n; i++) {
        uint64_t packets, bytes;
        struct hw_rule rule;

        entry = entries[i];
        ds_put_format(&s, "ufid:"UUID_FMT", mode:%s, mark:%"PRIu32", ",
                      UUID_ARGS((const struct uuid *) &entry->ufid),
                      entry->full ? "full" : "partial", entry->mark);
        if (dev && !hw_flow_read(dev, &entry->flow, &packets, &bytes)) {
            ds_put_format(&s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                          packets, bytes);
        } else {
            ds_put_cstr(&s, "packets:?, bytes:?, ");
        }
        ds_put_cstr(&s, "rule: ");
        if (!hw_offload_entry_rule(entry, entry->flow.pipeline != NULL,
                                   &rule, NULL)) {
            hw_flow_format(&entry->flow, &rule, &s);
        }
        ds_put_char(&s, '\n');
    }
    ovs_mutex_unlock(&port->mutex);
    free(entries);
    hw_egress_format(netdev_get_name(netdev), &s);
    netdev_close(netdev);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
hw_offload_unixctl_not_offloaded(struct unixctl_conn *conn, int argc,
                                 const char *argv[], void *aux OVS_UNUSED)
{
    const char *port = argc > 1 ? argv[1] : NULL;
    struct ds s = DS_EMPTY_INITIALIZER;
    uint64_t first;

    if (port) {
        /* Any port: the flows of a tunnel vport are listed under its
         * name. */
        struct netdev *netdev = netdev_from_name(port);

        if (!netdev) {
            unixctl_command_reply_error(conn, "no such port");
            return;
        }
        netdev_close(netdev);
    }

    ovs_mutex_lock(&refusals_mutex);
    first = n_refusals > HW_REFUSALS_MAX ? n_refusals - HW_REFUSALS_MAX : 0;
    for (uint64_t i = first; i < n_refusals; i++) {
        const struct hw_refusal *r = &refusals[i % HW_REFUSALS_MAX];

        if (port && strcmp(port, r->port)) {
            continue;
        }
        ds_put_strftime_msec(&s, "%Y-%m-%dT%H:%M:%S.###Z", r->when, true);
        ds_put_format(&s, " ufid:"UUID_FMT" %s: %s: %s\n",
                      UUID_ARGS((const struct uuid *) &r->ufid), r->port,
                      r->reason, r->match);
    }
    ovs_mutex_unlock(&refusals_mutex);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
netdev_hw_register(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    int error;

    if (!ovsthread_once_start(&once)) {
        return;
    }

    netdev_hw_register_class();
    hw_model_init();

    error = netdev_register_flow_api_provider(&netdev_offload_hw);
    /* Not INFO: OVS's autotest start-up check rejects any INFO line. */
    VLOG_DBG("flow API provider '%s' registered (%s)",
             netdev_offload_hw.type, error ? ovs_strerror(error) : "ok");

    unixctl_command_register("netdev-hw/show", "[PORT]", 0, 1,
                             hw_offload_unixctl_show, NULL);
    unixctl_command_register("netdev-hw/dump-rules", "PORT", 1, 1,
                             hw_offload_unixctl_dump_rules, NULL);
    unixctl_command_register("netdev-hw/not-offloaded", "[PORT]", 0, 1,
                             hw_offload_unixctl_not_offloaded, NULL);

    netdev_set_push_header_offload(hw_offload_push_header_offloaded);
    hw_fwdump_register_commands();
    hw_privileges_register_commands();
    netdev_hw_set_reconfigure_cb(hw_offload_reconfigure_cb);

    ovsthread_once_done(&once);
}
