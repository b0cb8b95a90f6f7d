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

/* The entry map and the install path: per port, the map from mega_ufid to
 * the entry of the flow (struct hw_offload_entry), the entries' memory,
 * counters and statistics, and hw_offload_install(), which puts a flow's
 * rule on the device and its entry in the map, replacing the entry of a
 * modify. */

#include <config.h>
#include "hw-offload-entries.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hw-ct.h"
#include "hw-hmap.h"
#include "hw-offload-egress.h"
#include "hw-offload-eswitch.h"
#include "hw-offload-guards.h"
#include "hw-offload-marks.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "netdev.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

VLOG_DEFINE_THIS_MODULE(hw_offload_entry);

/* Finds the entry of 'ufid', whose hw_offload_ufid_hash() is 'hash'. */
struct hw_offload_entry *
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

struct hw_offload_entry *
hw_offload_entry_find(const struct hw_offload_port *port,
                      const ovs_u128 *ufid)
    OVS_REQUIRES(port->mutex)
{
    return hw_offload_entry_find__(port, ufid, hw_offload_ufid_hash(ufid));
}

/* A flow the FDB did not take ('esw_why' says why, empty if it was not a
 * flow of the e-switch) that 'rule' offloads in part: 'reason' says so. */
static void
hw_offload_partial_reason(const struct hw_rule *rule,
                          const struct ds *esw_why, struct ds *reason)
{
    if (!rule->full && esw_why->length && reason) {
        ds_clear(reason);
        ds_put_format(reason, "%s: offloaded in part", ds_cstr_ro(esw_why));
    }
}

int
hw_offload_translate(const struct match *match,
                     const struct flowmap *mask_map,
                     const struct nlattr *actions, size_t actions_len,
                     const struct hw_translate_params *params,
                     const struct netdev_hw_device *dev,
                     struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params p = *params;
    bool on_demand = dev && dev->pipeline && dev->pipeline_on_demand;
    struct ds esw_why = DS_EMPTY_INITIALIZER;
    struct ds why = DS_EMPTY_INITIALIZER;
    int error;

    /* The e-switch's FDB first, for a port of one (hw-offload-eswitch.h):
     * what it cannot take is the receive side's, with the reason in
     * 'reason' even on success. */
    hw_offload_eswitch_params(dev, &p);
    if (p.eswitch) {
        error = hw_translate_flow_mapped(match, mask_map, actions,
                                         actions_len, &p, rule, &why);
        if (!error) {
            error = hw_offload_eswitch_plan(dev, p.dpif_type, rule, &why);
        }
        if (!error) {
            ds_destroy(&why);
            return 0;
        }
        /* Why the FDB did not take it, for a partial offload wherever it
         * lands: the root, or the flow table on demand. */
        ds_put_buffer(&esw_why, why.string, why.length);
        ds_clear(&why);
        p = *params;
    }

    p.pipeline = dev && dev->pipeline && !on_demand;
    p.parse = dev && dev->pipeline ? dev->caps->dr_parse : 0;
    p.conntrack = dev && dev->pipeline && hw_ct_enabled();
    if (on_demand && p.conntrack && !match->flow.recirc_id
        && nl_attr_find__(actions, actions_len, OVS_ACTION_ATTR_CT)) {
        /* A stage of the connection pipeline takes the flow table, which
         * the root would otherwise keep it out of. */
        p.pipeline = true;
        if (!hw_translate_flow_mapped(match, mask_map, actions, actions_len,
                                      &p, rule, &why)
            && rule->ct_stage && !hw_rule_is_tagged(rule)
            && rule->tunnel == HW_TUNNEL_NONE) {
            hw_offload_partial_reason(rule, &esw_why, reason);
            ds_destroy(&esw_why);
            ds_destroy(&why);
            return 0;
        }
        ds_clear(&why);
        p.pipeline = false;
    }
    error = hw_translate_flow_mapped(match, mask_map, actions, actions_len,
                                     &p, rule, reason);
    if (!error) {
        hw_offload_partial_reason(rule, &esw_why, reason);
    }
    if (!error || !on_demand) {
        ds_destroy(&esw_why);
        ds_destroy(&why);
        return error;
    }
    ds_clear(&why);

    /* The root cannot take it: the flow table may.  Tagged and tunnel
     * packets do not get past the root's VLAN guard and tunnel rules to
     * its jump there: such a rule gets a jump of its own, in its band of
     * the root (hw-flow.h, 'root_jump'). */
    p.pipeline = true;
    if (!hw_translate_flow_mapped(match, mask_map, actions, actions_len, &p,
                                  rule, &why)) {
        bool kept = hw_rule_is_tagged(rule) || rule->tunnel != HW_TUNNEL_NONE;

        if (!kept || !rule->egress) {
            rule->pipeline = true;
            rule->root_jump = kept;
            if (reason) {
                ds_clear(reason);
            }
            hw_offload_partial_reason(rule, &esw_why, reason);
            error = 0;
        }
    }
    ds_destroy(&esw_why);
    ds_destroy(&why);
    return error;
}

/* Translates the flow of 'entry' again into 'rule', as flow_put() did, for
 * a port whose device is 'dev' (NULL if none).  Returns 0, or the error of
 * hw_offload_translate() with a reason in 'reason' (translate is pure, so
 * an entry that was installed translates again). */
int
hw_offload_entry_rule(const struct hw_offload_entry *entry,
                      const struct netdev_hw_device *dev,
                      struct hw_rule *rule, struct ds *reason)
{
    struct match match;

    size_t len = reason ? reason->length : 0;
    int error;

    minimatch_expand(&entry->match, &match);
    error = hw_offload_translate(&match, &entry->match.mask->masks.map,
                                 hw_offload_entry_actions(entry),
                                 entry->actions_len,
                                 &entry->params, dev, rule, reason);
    if (!error && reason) {
        /* The put noted it already. */
        ds_truncate(reason, len);
    }
    return error;
}

/* Remembers 'dev' as the device of the port's rules. */
void
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
void
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
    entry->in_flow_table = (entry->flow.pipeline
                            && port->dev.pipeline_on_demand);
    port->n_flow_table_rules += entry->in_flow_table;
    port->n_ct_rules += entry->ct_rule;
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
struct hw_offload_entry *
hw_offload_entry_alloc(const ovs_u128 *ufid, uint32_t hash,
                       const struct match *match,
                       const struct flowmap *mask_map,
                       const struct nlattr *actions, size_t actions_len)
{
    const uint64_t *mask_u64 = (const uint64_t *) &match->wc.masks;
    const uint64_t *flow_u64 = (const uint64_t *) &match->flow;
    size_t entry_size = ROUND_UP(sizeof(struct hw_offload_entry), 8);
    struct hw_offload_entry *entry;
    struct flowmap map = *mask_map;
    struct miniflow *flow, *mask;
    uint64_t *flow_values, *mask_values;
    size_t n_values, mf_size;
    size_t idx;

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
        memcpy((char *) mask + mf_size, actions, actions_len);
    }
    entry->actions_len = actions_len;
    return entry;
}

/* Gives back what 'entry', which has no rule installed, published in the
 * mark table and its reference to an egress rule. */
static void
hw_offload_entry_release(struct hw_offload_entry *entry)
{
    if (!hw_mark_keep_for_stale(entry->mark_rec)) {
        hw_mark_unpublish(entry->mark_rec, NULL);
    }
    entry->mark_rec = NULL;
    hw_egress_release(entry->egress);
    entry->egress = NULL;
}

/* Frees 'entry', which is in no map and has no rule installed, with what
 * it published in the mark table and its reference to an egress rule. */
void
hw_offload_entry_free(struct hw_offload_entry *entry)
{
    if (entry) {
        hw_offload_entry_release(entry);
        /* The miniflows and actions are in the entry's block. */
        free(entry->match.tun_md);
        free(entry);
    }
}

/* Reads the counters of the full rule or stage of 'entry' into its
 * 'last_*' members, and notes the time if the packet count grew.  On error
 * the last values read are kept. */
static void
hw_offload_entry_poll(const struct hw_offload_port *port,
                      struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    const struct netdev_hw_device *dev = hw_offload_port_dev(port);
    uint64_t packets, bytes;
    int error;

    if (!entry->hw_counts || !dev) {
        return;
    }
    error = hw_flow_read(dev, &entry->flow, &packets, &bytes);
    if (!error) {
        if (packets > entry->last_packets) {
            entry->used = time_msec();
        }
        /* A stage's count is a difference of two reads, which a packet
         * between them can make too large for a moment: never go back. */
        entry->last_packets = MAX(packets, entry->last_packets);
        entry->last_bytes = MAX(bytes, entry->last_bytes);
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
void
hw_offload_entry_stats(const struct hw_offload_port *port,
                       struct hw_offload_entry *entry,
                       struct dpif_flow_stats *stats)
    OVS_REQUIRES(port->mutex)
{
    *stats = entry->base;
    if (entry->installed && entry->hw_counts) {
        hw_offload_entry_poll(port, entry);
        stats->n_packets += entry->last_packets;
        stats->n_bytes += entry->last_bytes;
        stats->used = MAX(stats->used, entry->used);
    }
}

/* Destroys the rule of 'entry' and what it holds, reading its counters
 * just before the rule goes, so that the final read misses no packet.  A
 * rule the device refuses to destroy goes to hw-stale: a partial one goes
 * on tagging packets with its mark, which hw-stale keeps from other flows;
 * a full one goes on running its actions, so hw-stale puts its override
 * ahead of it. */
static void
hw_offload_entry_destroy_rule(struct hw_offload_port *port,
                              struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    const struct netdev_hw_device *dev = hw_offload_port_dev(port);
    struct hw_rule *override = NULL;
    const char *step = NULL;
    int error;

    error = hw_flow_uninstall(dev, &entry->flow, &step);
    if (!error) {
        return;
    }
    if (entry->full && hw_flow_has_rule(&entry->flow)) {
        struct ds reason = DS_EMPTY_INITIALIZER;

        override = xmalloc(sizeof *override);
        if (hw_offload_entry_rule(entry, dev, override, &reason)) {
            /* Cannot happen: translate is pure, and it took this flow. */
            VLOG_WARN("%s: no override for a full rule: %s", port->name,
                      ds_cstr(&reason));
            free(override);
            override = NULL;
        } else {
            hw_rule_make_override(override);
        }
        ds_destroy(&reason);
    }
    hw_stale_add_flow(dev, &entry->flow,
                      entry->full ? HW_STALE_NO_MARK : entry->params.flow_mark,
                      step, error, override);
    free(override);
}

/* Destroys the device objects of 'entry', if installed, uncounts it and
 * folds what its counters counted into 'entry->base'.  The entry stays in
 * the map. */
void
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

    hw_offload_entry_destroy_rule(port, entry);
    if (entry->tunnel != HW_TUNNEL_NONE) {
        port->n_tunnel_rules--;
    }
    port->n_flow_table_rules -= entry->in_flow_table;
    entry->in_flow_table = false;
    port->n_ct_rules -= entry->ct_rule;
    /* What only the rules that went needed can go too. */
    hw_offload_needs_release(port);
    if (entry->hw_counts) {
        hw_offload_entry_poll(port, entry);
        entry->base.n_packets += entry->last_packets;
        entry->base.n_bytes += entry->last_bytes;
        entry->base.used = MAX(entry->base.used, entry->used);
    }
    entry->last_packets = entry->last_bytes = 0;
    entry->installed = false;
}

/* Uncounts 'entry', which leaves the map, if it was 'in_software'. */
static void
hw_offload_entry_leave_software(struct hw_offload_port *port,
                                struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    if (entry->in_software) {
        entry->in_software = false;
        port->n_in_software--;
    }
}

/* Removes 'entry' from the map of 'port' and destroys its rule.  The
 * caller frees it, and shrinks the map once its loop over it is done
 * (hmap_shrink()). */
void
hw_offload_entry_unlink(struct hw_offload_port *port,
                        struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    hmap_remove(&port->entries, &entry->node);
    hw_offload_entry_uninstall(port, entry);
    hw_offload_entry_leave_software(port, entry);
}

/* The same for one entry, not in a loop over the map: the map gives its
 * buckets back as the flows go. */
void
hw_offload_entry_remove(struct hw_offload_port *port,
                        struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    hw_hmap_remove_shrink(&port->entries, &entry->node);
    hw_offload_entry_uninstall(port, entry);
    hw_offload_entry_leave_software(port, entry);
}

/* Destroys the rule of 'entry' for good, its flow going to software: the
 * entry stays in the map without a rule, so that flow_get() and flow_del()
 * go on reporting what the rule counted ('base'), to which OVS adds what
 * software counts from then on, and the flow's next put carries it over
 * like a modify's. */
void
hw_offload_entry_to_software(struct hw_offload_port *port,
                             struct hw_offload_entry *entry)
    OVS_REQUIRES(port->mutex)
{
    hw_offload_entry_uninstall(port, entry);
    /* As the entry's free would. */
    hw_offload_entry_release(entry);
    if (!entry->in_software) {
        entry->in_software = true;
        port->n_in_software++;
    }
}

/* Removes from 'port' every entry created by offload thread 'tid', or every
 * entry if 'tid' is UINT_MAX.  Returns the number of entries removed. */
size_t
hw_offload_port_flush(struct hw_offload_port *port, unsigned int tid)
    OVS_REQUIRES(port->mutex)
{
    struct hw_offload_entry *entry;
    size_t n = 0;

    HMAP_FOR_EACH_SAFE (entry, node, &port->entries) {
        if (tid == UINT_MAX || entry->creation_tid == tid) {
            hw_offload_entry_unlink(port, entry);
            hw_offload_entry_free(entry);
            n++;
        }
    }
    hmap_shrink(&port->entries);
    return n;
}

/* Nothing else refers to 'port' when it is created or freed. */
struct hw_offload_port *
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
    port->odp_port = ODPP_NONE;
    return port;
}

void
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

/* Appends to 's' the start of a "flow put" log line. */
void
hw_offload_put_log_prefix(struct ds *s, const struct netdev *netdev,
                          bool modify, const ovs_u128 *ufid, uint32_t mark)
{
    ds_put_format(s, "%s: flow put[%s]: ufid "UUID_FMT" mark %"PRIu32,
                  netdev_get_name(netdev), modify ? "modify" : "create",
                  UUID_ARGS((const struct uuid *) ufid), mark);
}

/* Installs the rule of 'entry' on the device of 'netdev', for flow_put(),
 * replacing the old entry of the same ufid if there is one ('*modifyp' is
 * set to whether there is).  Returns 0 or an errno value with a reason in
 * 'reason'. */
int
hw_offload_install(struct netdev *netdev, struct hw_offload_port *port,
                   struct hw_offload_entry *entry,
                   const struct hw_rule *rule, odp_port_t in_port,
                   bool *modifyp, struct dpif_flow_stats *stats,
                   struct ds *reason, struct ds *log)
    OVS_REQUIRES(port->dev_mutex)
{
    enum hw_rss_type type = hw_rule_rss_type(rule);
    struct hw_offload_entry *old;
    struct netdev_hw_device dev;
    struct ibv_qp *qp;
    bool modify;
    int error;

    /* 'closing' is set under 'dev_mutex', which this thread holds. */
    if (port->closing) {
        *modifyp = false;
        ds_put_cstr(reason, "port is being removed");
        return ENODEV;
    }

    /* A put takes each lock as few times as it can: at a million flows,
     * lock pairs were a sixth of its instructions. */
    if (!netdev_hw_get_device_rss(netdev, type, &dev, &qp)) {
        /* Rare: the lookup the path below makes under its one lock. */
        ovs_mutex_lock(&port->mutex);
        *modifyp = hw_offload_entry_find__(port, &entry->ufid,
                                           entry->node.hash) != NULL;
        ovs_mutex_unlock(&port->mutex);
        ds_put_cstr(reason, "device not open");
        return ENODEV;
    }

    /* Only this thread adds this ufid (dpif-netdev hashes a mega_ufid to
     * one offload thread), and only holders of 'dev_mutex' remove entries
     * besides flow_del() of the same thread, so the answer holds until the
     * entry is in the map. */
    ovs_mutex_lock(&port->mutex);
    if (in_port != ODPP_NONE) {
        port->odp_port = in_port;
    }
    modify = hw_offload_entry_find__(port, &entry->ufid,
                                     entry->node.hash) != NULL;
    *modifyp = modify;
    error = hw_offload_needs_install(port, netdev, &dev, rule, reason);
    ovs_mutex_unlock(&port->mutex);
    if (error) {
        return error;
    }

    /* The new rule goes in before the old one goes, so that a modify the
     * device refuses leaves the old rule working. */
    error = hw_flow_install(&dev, qp, rule, &entry->flow, reason);
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
        /* The old rule may have been the last to need them. */
        error = hw_offload_needs_install(port, netdev, &dev, rule, reason);
        ovs_mutex_unlock(&port->mutex);

        if (!error) {
            error = hw_flow_install(&dev, netdev_hw_rss_qp(netdev, type),
                                    rule, &entry->flow, reason);
        }
    }
    if (error) {
        ovs_mutex_lock(&port->mutex);
        hw_offload_needs_release(port);
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
        hw_offload_entry_leave_software(port, old);
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
         * has thousands of rules; at most one entry per two buckets, most
         * such lookups stop at an empty bucket, for 16 to 32 bytes of
         * buckets per flow and no more rehashing than hmap's own
         * doubling. */
        size_t n = hmap_count(&port->entries) + 1;

        if (n > (port->entries.mask + 1) / 2) {
            hmap_reserve(&port->entries, 4 * n);
        }
        hmap_insert(&port->entries, &entry->node, entry->node.hash);
    }

    if (stats) {
        *stats = entry->base;
    }
    if (log) {
        /* Formatted under the mutex: once it is released, uninit or a
         * reconfiguration may change 'entry'. */
        hw_offload_put_log_prefix(log, netdev, modify, &entry->ufid,
                                  entry->params.flow_mark);
        ds_put_format(log, " mode %s: ",
                      entry->full ? "full" : "partial");
        hw_flow_format(&entry->flow, rule, log);
    }
    ovs_mutex_unlock(&port->mutex);

    hw_offload_entry_free(old);
    if (rule->ct_stage && entry->vport != ODPP_NONE) {
        /* A stage of a tunnel vport's flow: the connections of the
         * vport's packets go into this port's connection table. */
        hw_ct_port_add_vport(port, entry->vport, rule->tunnel);
    }
    return 0;
}

/* Appends the actions of 'entry' to 'buf' as an OVS_FLOW_ATTR_ACTIONS
 * attribute, the form dpif-netlink expects from flow_get() and flow dumps,
 * and returns it.  Callers hand in fixed stack buffers: if the actions do
 * not fit, an empty attribute is returned instead. */
static struct nlattr *
hw_offload_entry_actions_attr(const struct hw_offload_entry *entry,
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
    nl_msg_put_unspec(buf, OVS_FLOW_ATTR_ACTIONS,
                      hw_offload_entry_actions(entry),
                      entry->actions_len);
    return ofpbuf_at_assert(buf, ofs, sizeof(struct nlattr));
}

void
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
        *actions = hw_offload_entry_actions_attr(entry, buf);
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
