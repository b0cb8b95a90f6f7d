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
 * nothing else).  It claims ports, turns flow_put() into translate +
 * install, routes the flows of tunnel vports to the physical ports their
 * packets arrive by, reports statistics from the device's counters, logs
 * and counts why flows were not offloaded, recovers the packets that
 * hardware decapsulated, runs the tunnel push hook and reinstalls a port's
 * rules when netdev-hw reconfigures its device.  The rest of the offload
 * core is in the hw-offload-*.c files, which know nothing of OVS's
 * interface:
 *   - hw-offload-entries.c: per port, the map from mega_ufid to the entry
 *     of the rule installed for it, and the install path;
 *   - hw-offload-marks.c: the mark table the datapath threads read;
 *   - hw-offload-egress.c: the egress rules that do tunnel pushes;
 *   - hw-offload-guards.c: the inner VLAN guard rules of tunnel rules;
 *   - hw-offload-refusals.c: the records of the flows not offloaded;
 *   - hw-offload-unixctl.c: the netdev-hw/ unixctl commands.
 * hw-offload-private.h defines the entry and port structures they share.
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

#include "coverage.h"
#include "dp-packet.h"
#include "dpif.h"
#include "flow.h"
#include "hw-coverage.h"
#include "hw-ct-hooks.h"
#include "hw-ct-restore.h"
#include "hw-fwdump.h"
#include "hw-model.h"
#include "hw-offload-egress.h"
#include "hw-offload-entries.h"
#include "hw-offload-guards.h"
#include "hw-offload-marks.h"
#include "hw-offload-meter.h"
#include "hw-offload-private.h"
#include "hw-offload-refusals.h"
#include "hw-offload-unixctl.h"
#include "hw-privileges.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "hw-tx-push.h"
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
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(netdev_offload_hw);

HW_COVERAGE_DEFINE(hw_offload_put_partial);
HW_COVERAGE_DEFINE(hw_offload_put_full);
HW_COVERAGE_DEFINE(hw_offload_refused);
HW_COVERAGE_DEFINE(hw_offload_device_error);
HW_COVERAGE_DEFINE(hw_offload_del);
HW_COVERAGE_DEFINE(hw_offload_push_refused);
COVERAGE_DEFINE(hw_offload_recover);
COVERAGE_DEFINE(hw_offload_mark_cleared);
COVERAGE_DEFINE(hw_offload_decap_missed);
HW_COVERAGE_DEFINE(hw_offload_stale_mark);
HW_COVERAGE_DEFINE(hw_offload_resync);

/* Every port we claimed, so that netdev-hw/show can list them. */
static struct ovs_mutex hw_ports_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list hw_ports OVS_GUARDED_BY(hw_ports_mutex)
    = OVS_LIST_INITIALIZER(&hw_ports);

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

/* Adds the name of every port we claimed to 'names'. */
void
hw_offload_port_names(struct sset *names)
{
    struct hw_offload_port *port;

    ovs_mutex_lock(&hw_ports_mutex);
    LIST_FOR_EACH (port, list_node, &hw_ports) {
        sset_add(names, port->name);
    }
    ovs_mutex_unlock(&hw_ports_mutex);
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
        HW_COVERAGE_INC(hw_offload_device_error);
    } else {
        HW_COVERAGE_INC(hw_offload_refused);
    }

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
 * a rule the new device refuses is recorded like a failed put, and its
 * entry keeps its counts without a rule until OVS puts the flow again
 * (hw_offload_entry_to_software()). */
static void
hw_offload_reconfigure_cb(struct netdev *netdev, bool configured)
{
    struct hw_offload_port *port = hw_offload_port_get(netdev);
    struct hw_offload_entry *entry;
    struct netdev_hw_device dev = { .after_reset = false };
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
        hw_offload_needs_release(port);
        port->have_dev = false;
    } else if (!port->closing && netdev_hw_get_device(netdev, &dev)) {
        hw_offload_port_set_dev(port, &dev);
        n += hw_egress_port_up(netdev, &dev, &n_failed);
        HMAP_FOR_EACH (entry, node, &port->entries) {
            struct ds reason = DS_EMPTY_INITIALIZER;
            struct hw_rule rule;
            int error;

            if (entry->installed || entry->in_software) {
                continue;
            }
            error = hw_offload_entry_rule(entry, &dev, &rule, &reason);
            if (!error) {
                error = hw_offload_needs_install(port, netdev, &port->dev,
                                                 &rule, &reason);
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
                HW_COVERAGE_INC(hw_offload_device_error);
                /* OVS still believes the flow offloaded: it goes on in
                 * software with what its rule counted. */
                hw_offload_entry_to_software(port, entry);
                n_failed++;
            }
            ds_destroy(&reason);
        }
        hw_offload_needs_release(port);
    }
    ovs_mutex_unlock(&port->mutex);
    ovs_mutex_unlock(&port->dev_mutex);

    VLOG_DBG("%s: device %s: %s %"PRIuSIZE" rules, %"PRIuSIZE" failed",
             netdev_get_name(netdev),
             configured ? "configured" : "going down",
             configured ? "reinstalled" : "removed", n, n_failed);
    if (dev.after_reset) {
        HW_COVERAGE_INC(hw_offload_resync);
        VLOG_INFO("%s: re-synced with device %s after its reset: %"PRIuSIZE
                  " rules installed again, %"PRIuSIZE" failed",
                  netdev_get_name(netdev), dev.devname, n, n_failed);
    }
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
    } else if (!strcmp(type, "geneve")) {
        return HW_TUNNEL_GENEVE;
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
    own = entry && entry->params.flow_mark == mark;
    ovs_mutex_unlock(&port->mutex);
    *modifyp = entry != NULL;

    if (!own) {
        HW_COVERAGE_INC(hw_offload_stale_mark);
        ds_put_format(reason, "flow mark %"PRIu32" is held by a rule the "
                      "device could not destroy (%s)", mark, ds_cstr(&why));
    }
    ds_destroy(&why);
    return !own;
}

/* Records 'note', what the device leaves to software of the flow 'ufid'
 * it takes, for netdev-hw/not-offloaded and the debug log. */
static void
hw_offload_note(const struct netdev *flow_netdev, const struct match *match,
                const ovs_u128 *ufid, uint32_t mark, const char *note)
{
    VLOG_DBG("%s: flow put: ufid "UUID_FMT" mark %"PRIu32" %s",
             netdev_get_name(flow_netdev),
             UUID_ARGS((const struct uuid *) ufid), mark, note);
    hw_offload_refusal_record(netdev_get_name(flow_netdev), match, ufid,
                              note);
}

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
    struct flowmap mask_map;
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
            return EBUSY;
        }
    }

    /* In a map of many flows, the lookup of hw_offload_install() misses
     * the cache (and the TLB) on the ufid's bucket: ask for the bucket now,
     * so that it arrives while translate runs.  A device with a pipeline of
     * tables matches what verbs cannot (TTL, fragments, TCP flags, ICMP). */
    struct netdev_hw_device xdev;
    bool have_dev;
    ovs_mutex_lock(&port->mutex);
    OVS_PREFETCH(&port->entries.buckets[hash & port->entries.mask]);
    have_dev = port->have_dev;
    if (have_dev) {
        xdev = port->dev;
    }
    ovs_mutex_unlock(&port->mutex);
    if (!have_dev) {
        /* The port's first rule: ask its device. */
        have_dev = netdev_hw_get_device(netdev, &xdev);
    }

    /* Once for translate and the entry. */
    hw_translate_mask_map(&match->wc.masks, &mask_map);
    error = hw_offload_translate(match, &mask_map, actions, actions_len,
                                 params, have_dev ? &xdev : NULL, &rule,
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
    if (reason.length) {
        /* Offloaded, but not in full: why (hw-offload-eswitch.h). */
        hw_offload_refusal_record(netdev_get_name(flow_netdev), match, ufid,
                                  ds_cstr(&reason));
        ds_clear(&reason);
    }

    /* What the device leaves to software of a flow it takes. */
    if (reason.length) {
        hw_offload_note(flow_netdev, match, ufid, info->flow_mark,
                        ds_cstr(&reason));
        ds_clear(&reason);
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

            HW_COVERAGE_INC(hw_offload_push_refused);
            ds_put_format(&why, "tnl_push stays in software: %s",
                          ds_cstr(&reason));
            hw_offload_note(flow_netdev, match, ufid, info->flow_mark,
                            ds_cstr(&why));
            ds_destroy(&why);
        }
        ds_clear(&reason);
    }

    /* What the datapath threads need to know about the mark. */
    decap = (vport != ODPP_NONE && !rule.fdb
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
            rec->in_port = match->flow.in_port.odp_port;
            rec->tnl_port = push.tnl_port;
            rec->push_out_port = push.push_out_port;
            rec->header_len = push.header_len;
            memcpy(rec->header, push.header, push.header_len);
        }
    }

    entry = hw_offload_entry_alloc(ufid, hash, match, &mask_map, actions,
                                   actions_len);
    entry->creation_tid = hw_offload_tid();
    entry->params = *params;
    entry->full = rule.full;
    entry->hw_counts = rule.full || rule.ct_stage;
    entry->ct_rule = rule.ct_stage || rule.table == HW_TABLE_POST_CT;
    entry->tunnel = rule.fdb ? HW_TUNNEL_NONE : rule.tunnel;
    entry->vport = vport;
    entry->egress = egress;

    /* Published before the rule exists: a decapsulated packet must never
     * arrive with a mark recovery does not know. */
    if (rec) {
        old_rec = hw_mark_publish(rec);
        entry->mark_rec = rec;
    }

    ovs_mutex_lock(&port->dev_mutex);
    error = hw_offload_install(netdev, port, entry, &rule,
                               (vport == ODPP_NONE
                                ? match->flow.in_port.odp_port : ODPP_NONE),
                               &modify, stats, &reason,
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
            HW_COVERAGE_INC(hw_offload_put_full);
        } else {
            HW_COVERAGE_INC(hw_offload_put_partial);
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
        HW_COVERAGE_INC(hw_offload_del);
        VLOG_DBG("%s: flow del: ufid "UUID_FMT" mark %"PRIu32" (on %s)",
                 netdev_get_name(vport_netdev),
                 UUID_ARGS((const struct uuid *) ufid),
                 entry->params.flow_mark, netdev_get_name(phys));
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
        .dpif_type = netdev_get_dpif_type(netdev),
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
    } else if (phys && port->tunnel == HW_TUNNEL_GENEVE
               && params.vport_udp_port != htons(HW_GENEVE_PORT)) {
        /* Nor Geneve. */
        ds_put_format(&reason, "Geneve on UDP port %"PRIu16" not supported",
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
        .dpif_type = netdev_get_dpif_type(netdev),
    };

    /* dpif-netdev's flow_put() (dpif_netdev_flow_put() in OVS 3.1) hands
     * over a match whose 'tun_md' it never initialised: the userspace
     * datapath keeps tunnel metadata in UDPIF format and never has a valid
     * allocation, but tun_metadata_allocation_clone() and match_format()
     * read 'valid'.  The match is the offload request's own copy. */
    match->tun_md.valid = false;

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

    HW_COVERAGE_INC(hw_offload_del);
    VLOG_DBG("%s: flow del: ufid "UUID_FMT" mark %"PRIu32,
             netdev_get_name(netdev), UUID_ARGS((const struct uuid *) ufid),
             entry->params.flow_mark);
    if (stats) {
        /* 'base' now holds everything the device counted for a full rule;
         * a partial rule's packets were counted in software. */
        *stats = entry->base;
    }
    hw_offload_entry_free(entry);
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

    if (OVS_UNLIKELY(mark & HW_TAG_CT_RESTORE)) {
        /* Translated by a connection's NAT rule, then missed. */
        return hw_ct_restore_packet(packet, mark);
    }
    if (!atomic_count_get(&hw_n_decap_marks)) {
        hw_offload_check_mark(packet);
        return 0;
    }
    rec = hw_mark_find(mark);
    if (!rec || !rec->decap || rec->phys != netdev) {
        hw_offload_check_mark(packet);
        return 0;
    }
    if (OVS_UNLIKELY(hw_translate_still_encapsulated(packet, &rec->restore))) {
        /* The device did not decapsulate it: the software pops it, as if
         * no rule had taken it. */
        *dp_packet_ol_flags_ptr(packet) &= ~DP_PACKET_OL_FLOW_MARK;
        COVERAGE_INC(hw_offload_decap_missed);
        return 0;
    }

    md = &packet->md;
    pkt_metadata_init_tnl(md);
    memcpy(&md->tunnel, &rec->restore.tunnel,
           offsetof(struct flow_tnl, metadata));
    if (rec->restore.udpif) {
        md->tunnel.metadata.present.len = rec->restore.opts_len;
        memcpy(md->tunnel.metadata.opts.gnv, rec->restore.opts,
               rec->restore.opts_len);
    }
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
 * leaves at once if it does.  It returns an error (dpif-netdev drops the
 * packet) only for a packet the device translated whose connection is
 * gone (hw-ct-restore.h); never EOPNOTSUPP, which would stop dpif-netdev
 * calling it for the port. */
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
 * a flow mark that is about to get a tunnel header in software: if the
 * device will add exactly this header for the flow of the mark, prepares
 * the packet for that (hw-tx-push.h) and returns true.  The in_port and
 * recirc_id tests make sure the packet is still running the actions of the
 * flow that tagged it (a recirculated packet keeps its mark). */
static bool
hw_offload_push_header_offloaded(const struct netdev *tnl_netdev OVS_UNUSED,
                                 struct dp_packet *packet, uint32_t mark,
                                 const struct ovs_action_push_tnl *data)
{
    const struct hw_mark_rec *rec = hw_mark_find(mark);
    const struct hw_tx_push *push;
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
    push = ovsrcu_get(struct hw_tx_push *, &rec->egress->push);
    return push && hw_tx_push_prepare(push, packet, data->header,
                                      data->header_len);
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
    .meter_set = hw_offload_meter_set,
    .meter_get = hw_offload_meter_get,
    .meter_del = hw_offload_meter_del,
    .init_flow_api = netdev_offload_hw_init_flow_api,
    .uninit_flow_api = netdev_offload_hw_uninit_flow_api,
};

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

    hw_offload_unixctl_register();

    netdev_set_push_header_offload(hw_offload_push_header_offloaded);
    hw_fwdump_register_commands();
    hw_privileges_register_commands();
    netdev_hw_set_reconfigure_cb(hw_offload_reconfigure_cb);
    hw_ct_hooks_register();

    ovsthread_once_done(&once);
}
