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

#include "cmap.h"
#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "hash.h"
#include "hw-encode.h"
#include "hw-flow.h"
#include "hw-fwdump.h"
#include "hw-model.h"
#include "hw-privileges.h"
#include "hw-rule.h"
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

struct hw_mark_rec;
struct hw_egress;

/* One offloaded datapath flow. */
struct hw_offload_entry {
    struct hmap_node node;          /* In hw_offload_port's 'entries'. */
    ovs_u128 ufid;                  /* The mega_ufid. */
    uint32_t mark;                  /* Flow mark from dpif-netdev. */
    unsigned int creation_tid;      /* Offload thread that created it. */

    struct hw_rule rule;            /* What was translated. */
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

    /* The flow as OVS gave it, for flow_get() and flow dumps. */
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
    bool closing OVS_GUARDED;       /* uninit_flow_api() has run. */

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
static void
hw_offload_coverage_flush(void)
{
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

static struct hw_offload_entry *
hw_offload_entry_find(const struct hw_offload_port *port,
                      const ovs_u128 *ufid)
    OVS_REQUIRES(port->mutex)
{
    struct hw_offload_entry *entry;

    HMAP_FOR_EACH_WITH_HASH (entry, node, hw_offload_ufid_hash(ufid),
                             &port->entries) {
        if (ovs_u128_equals(entry->ufid, *ufid)) {
            return entry;
        }
    }
    return NULL;
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
    if (entry->rule.full) {
        port->n_full++;
    } else {
        port->n_partial++;
    }
}

static void
hw_offload_entry_free(struct hw_offload_entry *entry)
{
    if (entry) {
        minimatch_destroy(&entry->match);
        free(entry->actions);
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

    if (entry->rule.full && dev
        && !hw_flow_read(dev, &entry->flow, &packets, &bytes)) {
        if (packets > entry->last_packets) {
            entry->used = time_msec();
        }
        entry->last_packets = packets;
        entry->last_bytes = bytes;
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
    if (entry->installed && entry->rule.full) {
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
    if (entry->rule.full) {
        port->n_full--;
    } else {
        port->n_partial--;
    }

    /* hw_flow_uninstall() reads the counters once the rule is gone, so the
     * final read below misses no packet. */
    hw_flow_uninstall(hw_offload_port_dev(port), &entry->flow);
    if (entry->rule.full) {
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
    port->n_threads = MAX(netdev_offload_thread_nb(), 1);
    port->n_flows = xcalloc(port->n_threads, sizeof *port->n_flows);
    return port;
}

static void
hw_offload_port_free(struct hw_offload_port *port)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    hmap_destroy(&port->entries);
    ovs_mutex_destroy(&port->mutex);
    ovs_mutex_destroy(&port->dev_mutex);
    free(port->n_flows);
    free(port->devname);
    free(port->name);
    free(port);
}

/* Refusals. */

/* Records that the flow 'ufid' with 'match' was not offloaded on port
 * 'port_name' and why. */
static void
hw_offload_refusal_record(const char *port_name, const struct match *match,
                          const ovs_u128 *ufid, const char *reason)
{
    struct ds match_s = DS_EMPTY_INITIALIZER;
    struct hw_refusal *r;

    match_format(match, NULL, &match_s, OFP_DEFAULT_PRIORITY);

    ovs_mutex_lock(&refusals_mutex);
    r = &refusals[n_refusals++ % HW_REFUSALS_MAX];
    free(r->port);
    free(r->match);
    free(r->reason);
    r->when = time_wall_msec();
    r->port = xstrdup(port_name);
    r->ufid = *ufid;
    r->match = ds_steal_cstr(&match_s);
    r->reason = xstrdup(reason);
    ovs_mutex_unlock(&refusals_mutex);
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

/* flow_put() failed for 'reason': counts, logs and records it. */
static void
hw_offload_put_failed(const struct netdev *netdev,
                      struct hw_offload_port *port, const struct match *match,
                      const ovs_u128 *ufid, uint32_t mark, bool modify,
                      bool device_error, const char *reason)
    OVS_EXCLUDED(port->mutex)
{
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

    if (VLOG_IS_DBG_ENABLED()) {
        struct ds s = DS_EMPTY_INITIALIZER;

        hw_offload_put_log_prefix(&s, netdev, modify, ufid, mark);
        ds_put_format(&s, " %s: %s", device_error ? "device error"
                                                  : "not offloaded",
                      reason);
        VLOG_DBG("%s", ds_cstr(&s));
        ds_destroy(&s);
    }
    hw_offload_refusal_record(netdev_get_name(netdev), match, ufid, reason);
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
        HMAP_FOR_EACH (entry, node, &port->entries) {
            if (entry->installed) {
                hw_offload_entry_uninstall(port, entry);
                n++;
            }
        }
        port->have_dev = false;
    } else if (!port->closing && netdev_hw_get_device(netdev, &dev)) {
        hw_offload_port_set_dev(port, &dev);
        HMAP_FOR_EACH_SAFE (entry, node, &port->entries) {
            struct ds reason = DS_EMPTY_INITIALIZER;
            enum hw_rss_type type = hw_rule_rss_type(&entry->rule);
            int error;

            if (entry->installed) {
                continue;
            }
            error = hw_flow_install(&port->dev,
                                    netdev_hw_rss_qp(netdev, type),
                                    &entry->rule, &entry->flow, &reason);
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
    }
    ovs_mutex_unlock(&port->mutex);
    ovs_mutex_unlock(&port->dev_mutex);

    VLOG_DBG("%s: device %s: %s %"PRIuSIZE" rules, %"PRIuSIZE" failed",
             netdev_get_name(netdev),
             configured ? "configured" : "going down",
             configured ? "reinstalled" : "removed", n, n_failed);
}

/* The flow API. */

static bool
hw_offload_claims(const struct netdev *netdev)
{
    if (netdev_is_hw(netdev)) {
        return true;
    }

    /* Tunnel vports (vxlan, gre) of the "netdev" datapath will be claimed
     * here as well, once tunnel decap is offloaded: dpif-netdev puts
     * tunnel-pop flows on the vport, with the physical port in
     * info->orig_in_port. */
    return false;
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
            size_t n;

            ovs_mutex_lock(&stale->dev_mutex);
            ovs_mutex_lock(&stale->mutex);
            stale->closing = true;
            n = hw_offload_port_flush(stale, UINT_MAX);
            ovs_mutex_unlock(&stale->mutex);
            ovs_mutex_unlock(&stale->dev_mutex);

            VLOG_DBG("%s: removed %"PRIuSIZE" stale rules",
                     netdev_get_name(netdev), n);
            ovsrcu_set(&netdev->hw_info.offload_data, NULL);
            ovsrcu_postpone(hw_offload_port_free, stale);
        }
    }

    /* Without the capabilities the device needs, the port's flows stay in
     * software. */
    if (hw_privileges_check_offload(netdev)) {
        return EOPNOTSUPP;
    }

    port = hw_offload_port_create(netdev);
    ovs_mutex_lock(&hw_ports_mutex);
    ovs_list_push_back(&hw_ports, &port->list_node);
    ovs_mutex_unlock(&hw_ports_mutex);

    ovsrcu_set(&netdev->hw_info.offload_data, port);
    VLOG_DBG("%s: hw flow API claims port", netdev_get_name(netdev));
    return 0;
}

static void
netdev_offload_hw_uninit_flow_api(struct netdev *netdev)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    size_t n;

    if (!port) {
        return;
    }

    /* A put that comes later (dpif-netdev may still hold one queued) sees
     * 'closing' and fails without touching the device. */
    ovs_mutex_lock(&port->dev_mutex);
    ovs_mutex_lock(&port->mutex);
    port->closing = true;
    n = hw_offload_port_flush(port, UINT_MAX);
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
 * replacing the old entry of the same ufid if there is one.  Returns 0 or an
 * errno value with a reason in 'reason'. */
static int
hw_offload_install(struct netdev *netdev, struct hw_offload_port *port,
                   struct hw_offload_entry *entry, bool modify,
                   struct ds *reason, struct ds *log)
    OVS_REQUIRES(port->dev_mutex)
{
    enum hw_rss_type type = hw_rule_rss_type(&entry->rule);
    struct hw_offload_entry *old;
    struct netdev_hw_device dev;
    bool closing;
    int error;

    ovs_mutex_lock(&port->mutex);
    closing = port->closing;
    ovs_mutex_unlock(&port->mutex);
    if (closing) {
        ds_put_cstr(reason, "port is being removed");
        return ENODEV;
    }
    if (!netdev_hw_get_device(netdev, &dev)) {
        ds_put_cstr(reason, "device not open");
        return ENODEV;
    }

    /* The new rule goes in before the old one goes, so that a modify the
     * device refuses leaves the old rule working. */
    error = hw_flow_install(&dev, netdev_hw_rss_qp(netdev, type),
                            &entry->rule, &entry->flow, reason);
    if (error == EEXIST && modify) {
        /* Same ufid means same match, and the device refuses two rules of
         * one match and priority whose actions conflict (a partial rule
         * becoming a drop, say): this modify removes the old rule first.
         * What the old rule counted is kept in 'base'. */
        ovs_mutex_lock(&port->mutex);
        old = hw_offload_entry_find(port, &entry->ufid);
        if (old) {
            hw_offload_entry_uninstall(port, old);
        }
        ovs_mutex_unlock(&port->mutex);

        ds_clear(reason);
        error = hw_flow_install(&dev, netdev_hw_rss_qp(netdev, type),
                                &entry->rule, &entry->flow, reason);
    }
    if (error) {
        return error;
    }

    ovs_mutex_lock(&port->mutex);
    hw_offload_port_set_dev(port, &dev);
    old = hw_offload_entry_find(port, &entry->ufid);
    if (old) {
        /* Under the mutex, so that flow_get() sees the statistics grow
         * monotonically across the swap. */
        hmap_replace(&port->entries, &old->node, &entry->node);
        hw_offload_entry_uninstall(port, old);
        entry->base = old->base;
        entry->used = old->used;
        entry->creation_tid = old->creation_tid;
    } else {
        hmap_insert(&port->entries, &entry->node,
                    hw_offload_ufid_hash(&entry->ufid));
    }
    hw_offload_entry_installed(port, entry);

    if (log) {
        /* Formatted under the mutex: once it is released, uninit or a
         * reconfiguration may change 'entry'. */
        const struct ibv_flow_attr *attr = hw_flow_attr(&entry->flow);

        hw_offload_put_log_prefix(log, netdev, modify, &entry->ufid,
                                  entry->mark);
        ds_put_format(log, " mode %s: ",
                      entry->rule.full ? "full" : "partial");
        if (attr) {
            hw_encode_format(attr, log);
        }
    }
    ovs_mutex_unlock(&port->mutex);

    hw_offload_entry_free(old);
    return 0;
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
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ds log = DS_EMPTY_INITIALIZER;
    struct hw_offload_entry *entry;
    struct hw_rule rule;
    bool modify;
    int error;

    if (!port) {
        return EOPNOTSUPP;
    }

    /* Only this thread adds or removes this ufid (dpif-netdev hashes a
     * mega_ufid to one offload thread), so the answer holds while this put
     * runs. */
    ovs_mutex_lock(&port->mutex);
    modify = hw_offload_entry_find(port, ufid) != NULL;
    ovs_mutex_unlock(&port->mutex);

    memset(&rule, 0, sizeof rule);
    error = hw_translate_flow(match, actions, actions_len, &params, &rule,
                              &reason);
    if (error) {
        /* OVS keeps the flow in software.  A refused modify makes
         * dpif-netdev delete the old rule through flow_del(). */
        hw_offload_put_failed(netdev, port, match, ufid, info->flow_mark,
                              modify, false, ds_cstr(&reason));
        ds_destroy(&reason);
        return EOPNOTSUPP;
    }

    entry = xzalloc(sizeof *entry);
    entry->ufid = *ufid;
    entry->mark = info->flow_mark;
    entry->creation_tid = hw_offload_tid();
    entry->rule = rule;
    minimatch_init(&entry->match, match);
    entry->actions = actions_len ? xmemdup(actions, actions_len) : NULL;
    entry->actions_len = actions_len;

    ovs_mutex_lock(&port->dev_mutex);
    error = hw_offload_install(netdev, port, entry, modify, &reason,
                               VLOG_IS_DBG_ENABLED() ? &log : NULL);
    ovs_mutex_unlock(&port->dev_mutex);

    if (error) {
        hw_offload_put_failed(netdev, port, match, ufid, info->flow_mark,
                              modify, true, ds_cstr(&reason));
        hw_offload_entry_free(entry);
    } else {
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
            VLOG_DBG("%s", ds_cstr(&log));
        }
    }
    ds_destroy(&reason);
    ds_destroy(&log);
    hw_offload_coverage_flush();
    return error;
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
        attrs->dp_layer = entry->installed && entry->rule.full ? "hw" : "ovs";
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

static int
netdev_offload_hw_miss_packet_recover(struct netdev *netdev OVS_UNUSED,
                                      struct dp_packet *packet OVS_UNUSED)
{
    /* Nothing is decapsulated in hardware yet, so no packet carries state to
     * restore.  Returning 0 rather than EOPNOTSUPP keeps dpif-netdev's
     * miss_api_supported set for tunnel decap. */
    return 0;
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
        const struct ibv_flow_attr *attr;
        uint64_t packets, bytes;

        entry = entries[i];
        ds_put_format(&s, "ufid:"UUID_FMT", mode:%s, mark:%"PRIu32", ",
                      UUID_ARGS((const struct uuid *) &entry->ufid),
                      entry->rule.full ? "full" : "partial", entry->mark);
        if (dev && !hw_flow_read(dev, &entry->flow, &packets, &bytes)) {
            ds_put_format(&s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                          packets, bytes);
        } else {
            ds_put_cstr(&s, "packets:?, bytes:?, ");
        }
        ds_put_cstr(&s, "rule: ");
        attr = hw_flow_attr(&entry->flow);
        if (attr) {
            hw_encode_format(attr, &s);
        }
        ds_put_char(&s, '\n');
    }
    ovs_mutex_unlock(&port->mutex);
    free(entries);
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

    hw_fwdump_register_commands();
    hw_privileges_register_commands();
    netdev_hw_set_reconfigure_cb(hw_offload_reconfigure_cb);

    ovsthread_once_done(&once);
}
