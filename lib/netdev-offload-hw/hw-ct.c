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
#include "hw-ct.h"

#include <errno.h>
#include <string.h>

#include "coverage.h"
#include "hash.h"
#include "hw-coverage.h"
#include "hw-ct-conn.h"
#include "hw-ct-restore.h"
#include "hw-flow-dr.h"
#include "hw-offload-eswitch.h"
#include "hw-offload-private.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "latch.h"
#include "netdev-offload.h"
#include "netdev.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "packets.h"
#include "seq.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_ct);

HW_COVERAGE_DEFINE(hw_ct_conn_offered);
HW_COVERAGE_DEFINE(hw_ct_conn_refused);
HW_COVERAGE_DEFINE(hw_ct_rule_installed);
HW_COVERAGE_DEFINE(hw_ct_rule_failed);
HW_COVERAGE_DEFINE(hw_ct_conn_removed);
HW_COVERAGE_DEFINE(hw_ct_rule_override);
HW_COVERAGE_DEFINE(hw_ct_table_full);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define HW_CT_MAX_VPORTS 8

/* A port whose connection pipeline base is in. */
struct hw_ct_port {
    struct ovs_list node;               /* In 'hw_ct_ports'. */
    const struct hw_offload_port *port;
    odp_port_t odp_port;
    char *name;
    struct netdev_hw_device dev;        /* 'dev.devname' is 'devname'. */
    char *devname;
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];
    struct ovs_list overrides;          /* Contains struct hw_ct_override. */
    size_t n_rules;                     /* Connection rules installed. */
    size_t size;                        /* options:ct-size, SIZE_MAX for
                                         * none. */

    /* Tunnel vports whose ct() stages are on this port: the connections
     * whose packets come out of them have their rules here, matching the
     * inner headers.  A vport belongs to the first port that has one of
     * its stages, until that port's pipeline goes. */
    struct hw_ct_vport {
        odp_port_t odp_port;
        enum hw_tunnel_type tunnel;
    } vports[HW_CT_MAX_VPORTS];
    size_t n_vports;
    bool fdb;                           /* A port of an e-switch: its
                                         * connection table is the FDB's,
                                         * 'dev.pipeline' the FDB's
                                         * pipeline. */
};

/* A rule the device refused to destroy would go on giving the packets of
 * a connection conntrack deleted the state of an established one: a rule
 * of the same match ahead of it sends them to software instead, tagged
 * with their stage's mark, until the port's connection pipeline goes. */
struct hw_ct_override {
    struct ovs_list node;               /* In its port's 'overrides'. */
    struct hw_flow_dr flow;
};

/* Two locks, so that conntrack's calls from the PMD threads never wait for
 * the device:
 *
 *   - 'hw_ct_mutex' guards the map of connections by id, the queue of
 *     connections offered or deleted, and the flags of each (held only
 *     for those, never across a call to the device);
 *
 *   - 'hw_ct_dev_mutex' guards the rules of the connections and the
 *     ports: the thread holds it to install or destroy a connection's
 *     rules, the ports' calls and netdev-hw/dump-conns hold it, and so
 *     does hw_ct_conn_used(), which reads counters.  The thread frees a
 *     deleted connection with it held, so that whoever holds it may use a
 *     connection found in the map after dropping 'hw_ct_mutex'.
 *
 * 'hw_ct_dev_mutex' comes first. */
static struct ovs_mutex hw_ct_dev_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_mutex hw_ct_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap hw_ct_conns OVS_GUARDED_BY(hw_ct_mutex)
    = HMAP_INITIALIZER(&hw_ct_conns);

/* Offered or deleted connections, for the thread, which takes them all at
 * once into 'hw_ct_batch'. */
static struct hw_ct_conn *hw_ct_queue OVS_GUARDED_BY(hw_ct_mutex);
static struct hw_ct_conn **hw_ct_queue_tail OVS_GUARDED_BY(hw_ct_mutex)
    = &hw_ct_queue;
static struct hw_ct_conn *hw_ct_batch OVS_GUARDED_BY(hw_ct_dev_mutex);
static bool hw_ct_resync OVS_GUARDED_BY(hw_ct_mutex);
static uint64_t hw_ct_n_busy OVS_GUARDED_BY(hw_ct_mutex);

static struct ovs_list hw_ct_ports OVS_GUARDED_BY(hw_ct_dev_mutex)
    = OVS_LIST_INITIALIZER(&hw_ct_ports);

/* options:ct-size of the hw ports that have it, by port name: the size
 * given, plus one. */
static struct shash hw_ct_sizes OVS_GUARDED_BY(hw_ct_dev_mutex)
    = SHASH_INITIALIZER(&hw_ct_sizes);

/* Connections conntrack offered that the device cannot have, by reason. */
static uint64_t hw_ct_n_refused[1] OVS_GUARDED_BY(hw_ct_mutex);
static const char *const hw_ct_refused_names[1] = {
    "other protocol",
};

static struct seq *hw_ct_seq;           /* Work for the thread. */
static struct seq *hw_ct_done_seq;      /* The thread finished a round. */
static atomic_bool hw_ct_on = ATOMIC_VAR_INIT(false);

bool
hw_ct_enabled(void)
{
    bool on;

    atomic_read_relaxed(&hw_ct_on, &on);
    return on;
}

void
hw_ct_set_enabled(bool on)
{
    atomic_store_relaxed(&hw_ct_on, on);
}

static uint32_t
hw_ct_id_hash(const void *id)
{
    return hash_pointer(id, 0);
}

static struct hw_ct_conn *
hw_ct_conn_find(const void *id)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_conn *conn;

    HMAP_FOR_EACH_WITH_HASH (conn, node, hw_ct_id_hash(id), &hw_ct_conns) {
        if (conn->id == id) {
            return conn;
        }
    }
    return NULL;
}

static void *hw_ct_thread_main(void *);

static void
hw_ct_start(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        hw_ct_seq = seq_create();
        hw_ct_done_seq = seq_create();
        ovs_thread_create("hw_ct", hw_ct_thread_main, NULL);
        ovsthread_once_done(&once);
    }
}

/* Queues 'conn' for the thread, unless it is queued.  Returns true if the
 * thread needs waking up (the caller does it after releasing the mutex):
 * the queue was empty, so the thread may be waiting. */
static bool
hw_ct_enqueue(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_mutex)
{
    bool was_empty = !hw_ct_queue;

    if (conn->flags & HW_CT_CONN_PENDING) {
        return false;
    }
    conn->flags |= HW_CT_CONN_PENDING;
    conn->next = NULL;
    *hw_ct_queue_tail = conn;
    hw_ct_queue_tail = &conn->next;
    hw_ct_n_busy++;
    return was_empty;
}

static void
hw_ct_wake(void)
{
    seq_change(hw_ct_seq);
}

bool
hw_ct_conn_add(const struct hw_ct_conn_info *info)
{
    uint8_t proto = info->tuple[0].ip_proto;
    struct hw_ct_conn *conn;
    bool wake;

    if (proto != IPPROTO_TCP && proto != IPPROTO_UDP
        && proto != IPPROTO_ICMP && proto != IPPROTO_ICMPV6) {
        ovs_mutex_lock(&hw_ct_mutex);
        hw_ct_n_refused[0]++;
        ovs_mutex_unlock(&hw_ct_mutex);
        HW_COVERAGE_INC(hw_ct_conn_refused);
        return false;
    }

    hw_ct_start();
    conn = hw_ct_conn_create(info);
    ovs_mutex_lock(&hw_ct_mutex);
    hmap_insert(&hw_ct_conns, &conn->node, hw_ct_id_hash(info->id));
    wake = hw_ct_enqueue(conn);
    ovs_mutex_unlock(&hw_ct_mutex);
    if (wake) {
        hw_ct_wake();
    }
    HW_COVERAGE_INC(hw_ct_conn_offered);
    return true;
}

void
hw_ct_conn_del(const void *id)
{
    struct hw_ct_conn *conn;
    bool wake = false;

    ovs_mutex_lock(&hw_ct_mutex);
    conn = hw_ct_conn_find(id);
    if (conn) {
        /* Out of the map now: conntrack may reuse the id.  The thread
         * destroys the rules and frees it. */
        hmap_remove(&hw_ct_conns, &conn->node);
        conn->flags |= HW_CT_CONN_DELETED;
        wake = hw_ct_enqueue(conn);
    }
    ovs_mutex_unlock(&hw_ct_mutex);
    if (wake) {
        hw_ct_wake();
    }
}

/* The tunnel behind which the packets that arrive at 'ctport' from
 * 'odp_port' come: HW_TUNNEL_NONE for the port itself, or -1 if they do
 * not arrive there. */
static int
hw_ct_port_tunnel(const struct hw_ct_port *ctport, odp_port_t odp_port)
{
    if (ctport->odp_port == odp_port) {
        return HW_TUNNEL_NONE;
    }
    for (size_t i = 0; i < ctport->n_vports; i++) {
        if (ctport->vports[i].odp_port == odp_port) {
            return ctport->vports[i].tunnel;
        }
    }
    return -1;
}

/* The port whose connection table takes the packets from 'odp_port', a hw
 * port or a tunnel vport. */
static struct hw_ct_port *
hw_ct_port_find(odp_port_t odp_port)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_port *ctport;

    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (hw_ct_port_tunnel(ctport, odp_port) >= 0) {
            return ctport;
        }
    }
    return NULL;
}

/* The port of the rules of direction 'd' of 'conn', which has its plain
 * rule installed. */
static struct hw_ct_port *
hw_ct_dir_port(const struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_port *ctport = hw_ct_port_find(conn->in_port[d]);

    ovs_assert(ctport);
    return ctport;
}

/* Reads the counter of 'r', on 'ctport', and notes the time in 'conn' if
 * it grew. */
static void
hw_ct_rule_poll(struct hw_ct_conn *conn, struct hw_ct_conn_rule *r,
                const struct hw_ct_port *ctport)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    uint64_t packets, bytes;

    if (r->installed && !hw_flow_dr_small_read(&ctport->dev, &r->flow,
                                               &packets, &bytes)) {
        if ((uint32_t) packets != r->packets) {
            atomic_store_relaxed(&conn->used, time_msec());
        }
        r->packets = packets;
    }
}

/* Reads the counters of the rules of 'conn'. */
static void
hw_ct_conn_poll(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    for (int d = 0; d < 2; d++) {
        struct hw_ct_nat_rule *nat = hw_ct_conn_nat(conn, d);

        if (conn->dir[d].installed) {
            struct hw_ct_port *ctport = hw_ct_dir_port(conn, d);

            hw_ct_rule_poll(conn, &conn->dir[d], ctport);
            if (nat) {
                hw_ct_rule_poll(conn, &nat->rule, ctport);
            }
        }
    }
}

long long int
hw_ct_conn_used(const void *id)
{
    struct hw_ct_conn *conn;
    long long int used = 0;

    ovs_mutex_lock(&hw_ct_dev_mutex);
    ovs_mutex_lock(&hw_ct_mutex);
    conn = hw_ct_conn_find(id);
    ovs_mutex_unlock(&hw_ct_mutex);
    if (conn) {
        hw_ct_conn_poll(conn);
        atomic_read_relaxed(&conn->used, &used);
    }
    ovs_mutex_unlock(&hw_ct_dev_mutex);
    return used;
}

/* What conntrack's nat_packet() does to the packets of direction 'd' of
 * 'conn', a connection with NAT: they leave with the reverse of the other
 * direction's tuple (an ICMP echo keeps its identifier), and the state
 * says which address changed. */
static uint8_t
hw_ct_nat_tuple(const struct hw_ct_conn *conn, int d,
                struct ct_dpif_tuple *nat_tuple)
{
    struct ct_dpif_tuple other;
    bool snat = conn->nat & HW_CT_NAT_SRC;

    hw_ct_conn_tuple(conn, !d, &other);
    *nat_tuple = other;
    nat_tuple->src = other.dst;
    nat_tuple->dst = other.src;
    if (other.ip_proto == IPPROTO_TCP || other.ip_proto == IPPROTO_UDP) {
        nat_tuple->src_port = other.dst_port;
        nat_tuple->dst_port = other.src_port;
    } else {
        /* An echo keeps its own type and code: the second word of the
         * direction's own ports. */
        nat_tuple->dst_port = conn->ports[d][1];
    }
    /* The reply direction gets the opposite translation. */
    return snat != (d == 1) ? CS_SRC_NAT : CS_DST_NAT;
}

/* The connection table's key of direction 'd' of 'conn', for the rule of
 * 'stages' on 'ctport', the port of that direction. */
static void
hw_ct_conn_key(const struct hw_ct_port *ctport, const struct hw_ct_conn *conn,
               int d, enum hw_ct_stages stages, struct hw_ct_conn_key *key)
{
    memset(key, 0, sizeof *key);
    hw_ct_conn_tuple(conn, d, &key->tuple);
    key->zone = conn->zone;
    key->tunnel = hw_ct_port_tunnel(ctport, conn->in_port[d]);
    key->stages = stages;
    key->ct_state = CS_TRACKED | CS_ESTABLISHED | (d ? CS_REPLY_DIR : 0);
    key->mark = conn->mark;
    key->label = conn->label;
    if (stages == HW_CT_STAGES_NAT) {
        key->nat = true;
        key->ct_state |= hw_ct_nat_tuple(conn, d, &key->nat_tuple);
    }
}

/* The stages the plain rule of 'conn' takes. */
static enum hw_ct_stages
hw_ct_plain_stages(const struct hw_ct_conn *conn)
{
    return conn->nat ? HW_CT_STAGES_PLAIN : HW_CT_STAGES_ALL;
}

/* Puts an override ahead of the rule for 'stages' of direction 'd' of
 * 'conn' on 'ctport', which the device refused to destroy. */
static void
hw_ct_override(struct hw_ct_port *ctport, const struct hw_ct_conn *conn,
               int d, enum hw_ct_stages stages)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_override *o = xzalloc(sizeof *o);
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_rule rule;
    int error;

    hw_ct_conn_key(ctport, conn, d, stages, &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        hw_rule_make_override(&rule);
        if (ctport->fdb) {
            hw_translate_eswitch_ct_miss(&rule);
        }
        error = hw_flow_dr_install_at(ctport->dev.pipeline, &ctport->dev,
                                      HW_LEVEL_CT, HW_PRIO_OVERRIDE,
                                      ctport->rss_qps[hw_rule_rss_type(&rule)],
                                      &rule, &o->flow, &reason);
    }
    if (error) {
        VLOG_WARN_RL(&rl, "%s: cannot override a connection rule the "
                     "device could not destroy: %s", ctport->name,
                     ds_cstr(&reason));
        free(o);
    } else {
        HW_COVERAGE_INC(hw_ct_rule_override);
        VLOG_WARN_RL(&rl, "%s: a connection rule the device could not "
                     "destroy is overridden: its packets go to software",
                     ctport->name);
        ovs_list_push_back(&ctport->overrides, &o->node);
    }
    ds_destroy(&reason);
}

/* Destroys the rule 'r' of 'stages' of direction 'd' of 'conn' on
 * 'ctport'.  If the device refuses, the rule is stale and an override goes
 * ahead of it. */
static void
hw_ct_rule_uninstall(struct hw_ct_port *ctport, struct hw_ct_conn *conn,
                     int d, enum hw_ct_stages stages,
                     struct hw_ct_conn_rule *r)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    const char *step = NULL;
    struct hw_flow_dr flow;
    int error;

    if (!r->installed) {
        return;
    }
    hw_flow_dr_expand(ctport->dev.pipeline, &r->flow, HW_LEVEL_CT, &flow);
    error = hw_flow_dr_uninstall(ctport->dev.pipeline, &ctport->dev, &flow,
                                 &step);
    if (error) {
        /* It stays the device's until a retry destroys it. */
        hw_stale_add_dr(ctport->dev.pipeline, &ctport->dev, &flow, step,
                        error);
        hw_ct_override(ctport, conn, d, stages);
    }
    r->installed = false;
    ctport->n_rules--;
}

/* Destroys the rules of direction 'd' of 'conn', 'why' it has none. */
static void
hw_ct_dir_uninstall(struct hw_ct_conn *conn, int d, const char *why)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_nat_rule *nat = hw_ct_conn_nat(conn, d);
    struct hw_ct_port *ctport;

    if (!conn->dir[d].installed) {
        return;
    }
    ctport = hw_ct_dir_port(conn, d);
    if (nat && nat->rule.installed) {
        hw_ct_rule_uninstall(ctport, conn, d, HW_CT_STAGES_NAT, &nat->rule);
        hw_ct_restore_dir_del(nat->restore);
        nat->restore = NULL;
    }
    hw_ct_rule_uninstall(ctport, conn, d, hw_ct_plain_stages(conn),
                         &conn->dir[d]);
    conn->dir[d].why = hw_ct_reason_index(why);
}

/* Installs 'rule', translated from 'key', as 'r' in the connection table
 * of 'ctport', if the table has room.  Returns 0 or an errno value with
 * the reason in 'reason'. */
static int
hw_ct_rule_install(struct hw_ct_port *ctport, const struct hw_rule *rule,
                   struct hw_ct_conn_rule *r, struct ds *reason)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_flow_dr flow;
    int error;

    if (ctport->n_rules >= ctport->size) {
        HW_COVERAGE_INC(hw_ct_table_full);
        ds_put_format(reason, "connection table full: options:ct-size=%"
                      PRIuSIZE, ctport->size);
        return ENOSPC;
    }
    memset(&flow, 0, sizeof flow);
    error = hw_flow_dr_install_at(ctport->dev.pipeline, &ctport->dev,
                                  HW_LEVEL_CT, HW_PRIO_UNTAGGED, NULL, rule,
                                  &flow, reason);
    if (!error && !hw_flow_dr_shrink(ctport->dev.pipeline, &flow,
                                     &r->flow)) {
        const char *step = NULL;

        error = hw_flow_dr_uninstall(ctport->dev.pipeline, &ctport->dev,
                                     &flow, &step);
        if (error) {
            hw_stale_add_dr(ctport->dev.pipeline, &ctport->dev, &flow, step,
                            error);
        }
        ds_put_cstr(reason, "the rule has more actions than a "
                    "connection's record keeps");
        error = EOPNOTSUPP;
    }
    if (!error) {
        r->installed = true;
        r->packets = 0;
        r->why = 0;
        ctport->n_rules++;
        HW_COVERAGE_INC(hw_ct_rule_installed);
    } else {
        HW_COVERAGE_INC(hw_ct_rule_failed);
    }
    return error;
}

/* Installs the NAT rule of direction 'd' of 'conn', a connection with
 * NAT, beside its plain rule.  Without it the stages with nat send the
 * direction's packets to software. */
static void
hw_ct_nat_install(struct hw_ct_port *ctport, struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_nat_rule *nat = hw_ct_conn_nat(conn, d);
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_rule rule;
    int error;

    if (!nat || nat->rule.installed) {
        return;
    }
    if (ctport->fdb) {
        /* Its stages, with nat, are not in the FDB. */
        nat->rule.why = hw_ct_reason_index("the FDB takes no ct(nat)");
        return;
    }
    hw_ct_conn_key(ctport, conn, d, HW_CT_STAGES_NAT, &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        struct ct_dpif_tuple orig;

        /* Before the rule: a packet it translates may miss at once. */
        hw_ct_conn_tuple(conn, 0, &orig);
        nat->restore = hw_ct_restore_dir_add(&key.nat_tuple, key.zone,
                                             key.ct_state, conn->mark,
                                             hw_ct_conn_label(conn), &orig);
        error = hw_ct_rule_install(ctport, &rule, &nat->rule, &reason);
        if (error) {
            hw_ct_restore_dir_del(nat->restore);
            nat->restore = NULL;
        }
    }
    if (error) {
        /* A refusal (EOPNOTSUPP) is what the device cannot do, not a
         * fault: netdev-hw/dump-conns shows it. */
        VLOG_RL(&rl, error == EOPNOTSUPP ? VLL_INFO : VLL_WARN,
                "%s: NAT rule of a connection: %s; its translated packets "
                "stay in software", ctport->name, ds_cstr(&reason));
        nat->rule.why = hw_ct_reason_index(ds_cstr(&reason));
    }
    ds_destroy(&reason);
}

/* Installs the rule of direction 'd' of 'conn' on the port its packets
 * arrive by, if that port has the connection pipeline. */
static void
hw_ct_dir_install(struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    struct hw_ct_conn_rule *r = &conn->dir[d];
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_ct_port *ctport;
    struct hw_rule rule;
    int error;

    if (r->installed) {
        return;
    }
    if (conn->in_port[d] == ODPP_NONE) {
        r->why = hw_ct_reason_index("no packet seen in this direction");
        return;
    }
    ctport = hw_ct_port_find(conn->in_port[d]);
    if (!ctport) {
        r->why = hw_ct_reason_index("its port has no connection pipeline");
        return;
    }

    hw_ct_conn_key(ctport, conn, d, hw_ct_plain_stages(conn), &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        rule.fdb = ctport->fdb;
        error = hw_ct_rule_install(ctport, &rule, r, &reason);
    }
    if (error) {
        VLOG_RL(&rl, error == EOPNOTSUPP ? VLL_INFO : VLL_WARN,
                "%s: connection rule: %s; the connection stays in software",
                ctport->name, ds_cstr(&reason));
        r->why = hw_ct_reason_index(ds_cstr(&reason));
    } else {
        hw_ct_nat_install(ctport, conn, d);
    }
    ds_destroy(&reason);
}

static void
hw_ct_conn_destroy(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    for (int d = 0; d < 2; d++) {
        hw_ct_dir_uninstall(conn, d, NULL);
    }
    HW_COVERAGE_INC(hw_ct_conn_removed);
    hw_ct_conn_free(conn);
}

/* The connections the thread handles with 'hw_ct_dev_mutex' held once. */
#define HW_CT_CHUNK 32

/* Handles the connections of 'hw_ct_batch', a few at a time. */
static void
hw_ct_run_batch(void)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    while (hw_ct_batch) {
        struct hw_ct_conn *chunk[HW_CT_CHUNK];
        bool deleted[HW_CT_CHUNK];
        size_t n = 0;

        while (hw_ct_batch && n < HW_CT_CHUNK) {
            chunk[n++] = hw_ct_batch;
            hw_ct_batch = hw_ct_batch->next;
        }
        ovs_mutex_lock(&hw_ct_mutex);
        for (size_t i = 0; i < n; i++) {
            deleted[i] = chunk[i]->flags & HW_CT_CONN_DELETED;
        }
        ovs_mutex_unlock(&hw_ct_mutex);

        for (size_t i = 0; i < n; i++) {
            if (!deleted[i]) {
                hw_ct_dir_install(chunk[i], 0);
                hw_ct_dir_install(chunk[i], 1);
            }
        }

        /* Deleted in the meantime: they are no longer in the map, and
         * conntrack no longer asks for them. */
        ovs_mutex_lock(&hw_ct_mutex);
        for (size_t i = 0; i < n; i++) {
            chunk[i]->flags &= ~HW_CT_CONN_PENDING;
            deleted[i] = chunk[i]->flags & HW_CT_CONN_DELETED;
        }
        hw_ct_n_busy -= n;
        ovs_mutex_unlock(&hw_ct_mutex);
        for (size_t i = 0; i < n; i++) {
            if (deleted[i]) {
                hw_ct_conn_destroy(chunk[i]);
            }
        }

        /* Let the ports and the counters' readers in. */
        ovs_mutex_unlock(&hw_ct_dev_mutex);
        ovs_mutex_lock(&hw_ct_dev_mutex);
    }
}

/* One round of the thread: what was offered or deleted since the last,
 * and, after a port became ready, every connection that misses a rule. */
static void
hw_ct_run(void)
{
    ovs_mutex_lock(&hw_ct_dev_mutex);
    for (;;) {
        bool resync;

        ovs_mutex_lock(&hw_ct_mutex);
        resync = hw_ct_resync;
        hw_ct_resync = false;
        if (resync) {
            struct hw_ct_conn *conn;

            HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
                if (!conn->dir[0].installed || !conn->dir[1].installed) {
                    hw_ct_enqueue(conn);
                }
            }
            hw_ct_n_busy--;
        }
        hw_ct_batch = hw_ct_queue;
        hw_ct_queue = NULL;
        hw_ct_queue_tail = &hw_ct_queue;
        ovs_mutex_unlock(&hw_ct_mutex);

        if (!hw_ct_batch) {
            break;
        }
        hw_ct_run_batch();
    }
    ovs_mutex_unlock(&hw_ct_dev_mutex);
    seq_change(hw_ct_done_seq);
}

/* How often the thread reads every connection's counters.  A read that
 * finds new packets takes its own time for the time of the last one, so
 * without it a connection whose counters nobody read for a while would
 * get the time of the next read (a dump, conntrack's sweeper) and outlive
 * its timeout by that much; with it, by at most this (mlx5's own flow
 * counters are read about once a second too). */
#define HW_CT_POLL_MSEC 1000

/* Connections read per hold of 'hw_ct_dev_mutex', which conntrack's
 * clean thread takes too; they are picked from the map under 'hw_ct_mutex'
 * and read without it, so that the PMD threads' offers never wait for the
 * device. */
#define HW_CT_POLL_BATCH 1024

static void
hw_ct_poll_all(void)
{
    struct hw_ct_conn **batch = xmalloc(HW_CT_POLL_BATCH * sizeof *batch);
    struct hmap_position pos = { 0, 0 };
    bool more = true;

    while (more) {
        size_t n = 0;

        ovs_mutex_lock(&hw_ct_dev_mutex);
        ovs_mutex_lock(&hw_ct_mutex);
        while (n < HW_CT_POLL_BATCH) {
            struct hmap_node *node = hmap_at_position(&hw_ct_conns, &pos);

            if (!node) {
                more = false;
                break;
            }
            batch[n++] = CONTAINER_OF(node, struct hw_ct_conn, node);
        }
        ovs_mutex_unlock(&hw_ct_mutex);
        /* Only this thread frees connections, with 'hw_ct_dev_mutex'
         * held. */
        for (size_t i = 0; i < n; i++) {
            hw_ct_conn_poll(batch[i]);
        }
        ovs_mutex_unlock(&hw_ct_dev_mutex);
    }
    free(batch);
}

static void *
hw_ct_thread_main(void *arg OVS_UNUSED)
{
    long long int next_poll = time_msec() + HW_CT_POLL_MSEC;

    for (;;) {
        uint64_t seqno = seq_read(hw_ct_seq);

        hw_ct_run();
        if (time_msec() >= next_poll) {
            hw_ct_poll_all();
            next_poll = time_msec() + HW_CT_POLL_MSEC;
        }
        seq_wait(hw_ct_seq, seqno);
        poll_timer_wait_until(next_poll);
        poll_block();
    }
    return NULL;
}

void
hw_ct_flush_pending(void)
{
    long long int deadline = time_msec() + 10 * 1000;

    for (;;) {
        uint64_t seqno;
        bool busy;

        ovs_mutex_lock(&hw_ct_mutex);
        busy = hw_ct_n_busy > 0;
        seqno = hw_ct_done_seq ? seq_read(hw_ct_done_seq) : 0;
        ovs_mutex_unlock(&hw_ct_mutex);
        if (!busy || time_msec() >= deadline) {
            return;
        }
        seq_wait(hw_ct_done_seq, seqno);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

/* Asks the thread to retry the connections that miss a rule. */
static void
hw_ct_request_resync(void)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    hw_ct_start();
    ovs_mutex_lock(&hw_ct_mutex);
    if (!hw_ct_resync) {
        hw_ct_resync = true;
        hw_ct_n_busy++;
    }
    ovs_mutex_unlock(&hw_ct_mutex);
    hw_ct_wake();
}

/* options:ct-size of port 'name', SIZE_MAX if it has none. */
static size_t
hw_ct_size_of(const char *name)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    void *data = shash_find_data(&hw_ct_sizes, name);
    uintptr_t size = (uintptr_t) data;

    return size ? size - 1 : SIZE_MAX;
}

void
hw_ct_set_port_size(const char *name, long long int size)
{
    struct hw_ct_port *ctport;
    size_t old;

    ovs_mutex_lock(&hw_ct_dev_mutex);
    old = hw_ct_size_of(name);
    if (size < 0) {
        shash_find_and_delete(&hw_ct_sizes, name);
    } else {
        shash_replace(&hw_ct_sizes, name, (void *) (uintptr_t) (size + 1));
    }
    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (!strcmp(ctport->name, name)) {
            ctport->size = hw_ct_size_of(name);
            if (ctport->size > old) {
                /* Room for connections that stayed in software. */
                hw_ct_request_resync();
            }
        }
    }
    ovs_mutex_unlock(&hw_ct_dev_mutex);
}

void
hw_ct_port_ready(struct hw_offload_port *port,
                 struct ibv_qp *const rss_qps[HW_N_RSS_TYPES])
    OVS_REQUIRES(port->mutex)
{
    struct hw_ct_port *ctport = xzalloc(sizeof *ctport);

    if (rss_qps) {
        memcpy(ctport->rss_qps, rss_qps, sizeof ctport->rss_qps);
    }
    ovs_list_init(&ctport->overrides);

    ctport->port = port;
    ctport->odp_port = port->odp_port;
    ctport->name = xstrdup(port->name);
    ctport->devname = xstrdup(port->dev.devname);
    ctport->dev = port->dev;
    ctport->dev.devname = ctport->devname;
    ctport->fdb = hw_offload_eswitch_enabled(&port->dev);
    if (ctport->fdb) {
        ctport->dev.pipeline = port->dev.fdb_pipeline;
    }

    ovs_mutex_lock(&hw_ct_dev_mutex);
    ctport->size = hw_ct_size_of(ctport->name);
    ovs_list_push_back(&hw_ct_ports, &ctport->node);
    hw_ct_request_resync();
    ovs_mutex_unlock(&hw_ct_dev_mutex);
}

void
hw_ct_port_add_vport(const struct hw_offload_port *port, odp_port_t vport,
                     enum hw_tunnel_type tunnel)
{
    struct hw_ct_port *ctport, *found = NULL;

    ovs_mutex_lock(&hw_ct_dev_mutex);
    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (hw_ct_port_tunnel(ctport, vport) >= 0) {
            /* Claimed already (by this port or another). */
            ovs_mutex_unlock(&hw_ct_dev_mutex);
            return;
        } else if (ctport->port == port) {
            found = ctport;
        }
    }
    if (found && found->n_vports < HW_CT_MAX_VPORTS) {
        found->vports[found->n_vports].odp_port = vport;
        found->vports[found->n_vports].tunnel = tunnel;
        found->n_vports++;
        /* Its connections so far have no port for that direction. */
        hw_ct_request_resync();
    }
    ovs_mutex_unlock(&hw_ct_dev_mutex);
}

/* Connections, for hw_ct_port_release(). */
struct hw_ct_conn_vec {
    struct hw_ct_conn **conns;
    size_t n, allocated;
};

/* Adds 'conn' to 'v' if it has a rule on 'ctport'. */
static void
hw_ct_collect(struct hw_ct_conn_vec *v, struct hw_ct_conn *conn,
              const struct hw_ct_port *ctport)
{
    for (int d = 0; d < 2; d++) {
        if (conn->dir[d].installed
            && hw_ct_port_tunnel(ctport, conn->in_port[d]) >= 0) {
            if (v->n >= v->allocated) {
                v->conns = x2nrealloc(v->conns, &v->allocated,
                                      sizeof *v->conns);
            }
            v->conns[v->n++] = conn;
            return;
        }
    }
}

void
hw_ct_port_release(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    struct hw_ct_conn_vec v = { NULL, 0, 0 };
    struct hw_ct_port *ctport, *found = NULL;
    struct hw_ct_override *o;
    struct hw_ct_conn *conn;

    ovs_mutex_lock(&hw_ct_dev_mutex);
    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (ctport->port == port) {
            found = ctport;
            break;
        }
    }
    if (!found) {
        ovs_mutex_unlock(&hw_ct_dev_mutex);
        return;
    }

    /* The connections with rules on the port: in the map, deleted ones in
     * the queue and in the thread's batch.  None is freed while this
     * thread holds 'hw_ct_dev_mutex'. */
    ovs_mutex_lock(&hw_ct_mutex);
    HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
        hw_ct_collect(&v, conn, found);
    }
    for (conn = hw_ct_queue; conn; conn = conn->next) {
        hw_ct_collect(&v, conn, found);
    }
    ovs_mutex_unlock(&hw_ct_mutex);
    for (conn = hw_ct_batch; conn; conn = conn->next) {
        hw_ct_collect(&v, conn, found);
    }

    for (size_t i = 0; i < v.n; i++) {
        for (int d = 0; d < 2; d++) {
            if (hw_ct_port_tunnel(found, v.conns[i]->in_port[d]) >= 0) {
                hw_ct_dir_uninstall(v.conns[i], d, "its port has no "
                                    "connection pipeline");
            }
        }
    }
    free(v.conns);

    LIST_FOR_EACH_POP (o, node, &found->overrides) {
        const char *step = NULL;
        int error = hw_flow_dr_uninstall(found->dev.pipeline, &found->dev,
                                         &o->flow, &step);

        if (error) {
            hw_stale_add_dr(found->dev.pipeline, &found->dev, &o->flow,
                            step, error);
        }
        free(o);
    }
    ovs_list_remove(&found->node);
    free(found->name);
    free(found->devname);
    free(found);
    ovs_mutex_unlock(&hw_ct_dev_mutex);
}

/* netdev-hw/dump-conns. */

static const char *
hw_ct_proto_name(uint8_t proto)
{
    return (proto == IPPROTO_TCP ? "tcp"
            : proto == IPPROTO_UDP ? "udp"
            : proto == IPPROTO_ICMP ? "icmp"
            : "icmpv6");
}

static void
hw_ct_format_dir(const struct hw_ct_conn *conn, int d, struct ds *s)
    OVS_REQUIRES(hw_ct_dev_mutex)
{
    const struct hw_ct_conn_rule *r = &conn->dir[d];
    const struct hw_ct_nat_rule *nat = hw_ct_conn_nat(conn, d);
    struct hw_ct_port *ctport = NULL;
    struct ct_dpif_tuple tuple;
    uint64_t packets, bytes;

    hw_ct_conn_tuple(conn, d, &tuple);
    ds_put_format(s, "  %s=(%s,", d ? "reply" : "orig",
                  hw_ct_proto_name(tuple.ip_proto));
    ct_dpif_format_tuple(s, &tuple);
    ds_put_cstr(s, ")");
    if (conn->in_port[d] != ODPP_NONE) {
        ds_put_format(s, " in_port=%"PRIu32, odp_to_u32(conn->in_port[d]));
    }
    if (r->installed) {
        ctport = hw_ct_dir_port(conn, d);
        hw_flow_dr_small_read(&ctport->dev, &r->flow, &packets, &bytes);
        ds_put_format(s, " hw:%s packets=%"PRIu64" bytes=%"PRIu64"\n",
                      ctport->name, packets, bytes);
    } else {
        const char *why = hw_ct_reason(r->why);

        ds_put_format(s, " software: %s\n",
                      why ? why : "not yet in the device");
    }
    if (nat && nat->rule.installed) {
        struct ct_dpif_tuple nat_tuple;

        hw_ct_nat_tuple(conn, d, &nat_tuple);
        hw_flow_dr_small_read(&ctport->dev, &nat->rule.flow, &packets,
                              &bytes);
        ds_put_cstr(s, "    nat: to (");
        ct_dpif_format_tuple(s, &nat_tuple);
        ds_put_format(s, ") hw packets=%"PRIu64" bytes=%"PRIu64"\n",
                      packets, bytes);
    } else if (nat && r->installed) {
        const char *why = hw_ct_reason(nat->rule.why);

        ds_put_format(s, "    nat: software: %s\n",
                      why ? why : "not yet in the device");
    }
}

/* Orders connections by zone, then original tuple, so that the dump is
 * the same from run to run. */
static int
hw_ct_conn_cmp(const void *a_, const void *b_)
{
    const struct hw_ct_conn *const *a = a_;
    const struct hw_ct_conn *const *b = b_;
    int cmp = (int) (*a)->zone - (int) (*b)->zone;
    struct ct_dpif_tuple ta, tb;

    if (cmp) {
        return cmp;
    }
    hw_ct_conn_tuple(*a, 0, &ta);
    hw_ct_conn_tuple(*b, 0, &tb);
    return memcmp(&ta, &tb, sizeof ta);
}

static void
hw_ct_unixctl_dump_conns(struct unixctl_conn *uconn, int argc OVS_UNUSED,
                         const char *argv[] OVS_UNUSED,
                         void *aux OVS_UNUSED)
{
    uint64_t n_refused[ARRAY_SIZE(hw_ct_n_refused)];
    struct ds s = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn **conns;
    struct hw_ct_conn *conn;
    size_t n = 0, n_hw = 0;

    hw_ct_flush_pending();
    ovs_mutex_lock(&hw_ct_dev_mutex);
    ovs_mutex_lock(&hw_ct_mutex);
    conns = xmalloc((hmap_count(&hw_ct_conns) + 1) * sizeof *conns);
    HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
        conns[n++] = conn;
    }
    memcpy(n_refused, hw_ct_n_refused, sizeof n_refused);
    ovs_mutex_unlock(&hw_ct_mutex);
    qsort(conns, n, sizeof *conns, hw_ct_conn_cmp);

    for (size_t i = 0; i < n; i++) {
        hw_ct_conn_poll(conns[i]);
        n_hw += conns[i]->dir[0].installed || conns[i]->dir[1].installed;
    }
    ds_put_format(&s, "connections: %"PRIuSIZE" offered, %"PRIuSIZE
                  " with rules in hw; refused:", n, n_hw);
    for (size_t i = 0; i < ARRAY_SIZE(n_refused); i++) {
        ds_put_format(&s, " %s %"PRIu64, hw_ct_refused_names[i],
                      n_refused[i]);
    }
    ds_put_char(&s, '\n');
    for (size_t i = 0; i < n; i++) {
        long long int used;

        conn = conns[i];
        atomic_read_relaxed(&conn->used, &used);
        ds_put_format(&s, "zone=%"PRIu16" mark=%#"PRIx32"%s used=",
                      conn->zone, conn->mark,
                      (conn->nat & HW_CT_NAT_SRC ? " snat"
                       : conn->nat & HW_CT_NAT_DST ? " dnat" : ""));
        if (used) {
            ds_put_format(&s, "%.1fs", (time_msec() - used) / 1000.0);
        } else {
            ds_put_cstr(&s, "never");
        }
        ds_put_char(&s, '\n');
        hw_ct_format_dir(conn, 0, &s);
        hw_ct_format_dir(conn, 1, &s);
    }
    ovs_mutex_unlock(&hw_ct_dev_mutex);
    free(conns);
    unixctl_command_reply(uconn, ds_cstr(&s));
    ds_destroy(&s);
}

void
hw_ct_unixctl_register(void)
{
    unixctl_command_register("netdev-hw/dump-conns", "", 0, 0,
                             hw_ct_unixctl_dump_conns, NULL);
}
