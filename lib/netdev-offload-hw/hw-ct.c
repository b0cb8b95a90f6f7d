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
#include "hw-ct-restore.h"
#include "hw-flow-dr.h"
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

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

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
};

/* A rule the device refused to destroy would go on giving the packets of
 * a connection conntrack deleted the state of an established one: a rule
 * of the same match ahead of it sends them to software instead, tagged
 * with their stage's mark, until the port's connection pipeline goes. */
struct hw_ct_override {
    struct ovs_list node;               /* In its port's 'overrides'. */
    struct hw_flow_dr flow;
};

/* The rule of one direction of a connection with NAT for the stages with
 * nat, which translates the packets, on the port of the direction's plain
 * rule. */
struct hw_ct_nat_rule {
    bool installed;
    struct hw_flow_dr flow;
    struct hw_ct_restore_dir *restore;  /* While 'installed'. */
    uint64_t packets;                   /* At the last read. */
    uint64_t bytes;
    char *why;                          /* Why it is not installed. */
};

/* One direction of a connection. */
struct hw_ct_dir {
    struct hw_ct_port *ctport;          /* Where its rule is, or NULL. */
    struct hw_flow_dr flow;             /* For all stages, or for those
                                         * without nat if 'nat'. */
    struct hw_ct_nat_rule *nat;         /* A connection with NAT. */
    uint64_t packets;                   /* At the last read. */
    uint64_t bytes;
    char *why;                          /* Why it has no rule, or NULL. */
};

struct hw_ct_conn {
    struct hmap_node node;              /* In 'hw_ct_conns' until deleted. */
    struct ovs_list pending_node;       /* In 'hw_ct_pending' if 'pending'. */
    bool pending;
    bool deleted;
    struct hw_ct_conn_info info;
    struct hw_ct_dir dir[2];
    long long int used;                 /* time_msec(), 0 if never. */
};

static struct ovs_mutex hw_ct_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap hw_ct_conns OVS_GUARDED_BY(hw_ct_mutex)
    = HMAP_INITIALIZER(&hw_ct_conns);
static struct ovs_list hw_ct_pending OVS_GUARDED_BY(hw_ct_mutex)
    = OVS_LIST_INITIALIZER(&hw_ct_pending);
static struct ovs_list hw_ct_ports OVS_GUARDED_BY(hw_ct_mutex)
    = OVS_LIST_INITIALIZER(&hw_ct_ports);
static bool hw_ct_resync OVS_GUARDED_BY(hw_ct_mutex);
static uint64_t hw_ct_n_busy OVS_GUARDED_BY(hw_ct_mutex);

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
        if (conn->info.id == id) {
            return conn;
        }
    }
    return NULL;
}

static void *hw_ct_thread_main(void *);

static void
hw_ct_schedule(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_mutex)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        hw_ct_seq = seq_create();
        hw_ct_done_seq = seq_create();
        ovs_thread_create("hw_ct", hw_ct_thread_main, NULL);
        ovsthread_once_done(&once);
    }
    if (conn && !conn->pending) {
        conn->pending = true;
        ovs_list_push_back(&hw_ct_pending, &conn->pending_node);
    }
    hw_ct_n_busy++;
    seq_change(hw_ct_seq);
}

bool
hw_ct_conn_add(const struct hw_ct_conn_info *info)
{
    uint8_t proto = info->tuple[0].ip_proto;
    int refused = -1;
    struct hw_ct_conn *conn;

    if (proto != IPPROTO_TCP && proto != IPPROTO_UDP
        && proto != IPPROTO_ICMP && proto != IPPROTO_ICMPV6) {
        refused = 0;
    }

    ovs_mutex_lock(&hw_ct_mutex);
    if (refused >= 0) {
        hw_ct_n_refused[refused]++;
        ovs_mutex_unlock(&hw_ct_mutex);
        HW_COVERAGE_INC(hw_ct_conn_refused);
        return false;
    }
    conn = xzalloc(sizeof *conn);
    conn->info = *info;
    for (int d = 0; info->nat && d < 2; d++) {
        conn->dir[d].nat = xzalloc(sizeof *conn->dir[d].nat);
    }
    hmap_insert(&hw_ct_conns, &conn->node, hw_ct_id_hash(info->id));
    hw_ct_schedule(conn);
    ovs_mutex_unlock(&hw_ct_mutex);
    HW_COVERAGE_INC(hw_ct_conn_offered);
    return true;
}

void
hw_ct_conn_del(const void *id)
{
    struct hw_ct_conn *conn;

    ovs_mutex_lock(&hw_ct_mutex);
    conn = hw_ct_conn_find(id);
    if (conn) {
        /* Out of the map now: conntrack may reuse the id.  The thread
         * destroys the rules and frees it. */
        hmap_remove(&hw_ct_conns, &conn->node);
        conn->deleted = true;
        hw_ct_schedule(conn);
    }
    ovs_mutex_unlock(&hw_ct_mutex);
}

/* Reads the counters of the rules of 'conn' and notes the time if they
 * grew. */
static void
hw_ct_conn_poll(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_mutex)
{
    for (int d = 0; d < 2; d++) {
        struct hw_ct_dir *dir = &conn->dir[d];
        uint64_t packets, bytes;

        if (dir->ctport && !hw_flow_dr_read(&dir->ctport->dev, &dir->flow,
                                            &packets, &bytes)) {
            if (packets > dir->packets) {
                conn->used = time_msec();
            }
            dir->packets = packets;
            dir->bytes = bytes;
        }
        if (dir->nat && dir->nat->installed
            && !hw_flow_dr_read(&dir->ctport->dev, &dir->nat->flow,
                                &packets, &bytes)) {
            if (packets > dir->nat->packets) {
                conn->used = time_msec();
            }
            dir->nat->packets = packets;
            dir->nat->bytes = bytes;
        }
    }
}

long long int
hw_ct_conn_used(const void *id)
{
    struct hw_ct_conn *conn;
    long long int used = 0;

    ovs_mutex_lock(&hw_ct_mutex);
    conn = hw_ct_conn_find(id);
    if (conn) {
        hw_ct_conn_poll(conn);
        used = conn->used;
    }
    ovs_mutex_unlock(&hw_ct_mutex);
    return used;
}

static void
hw_ct_dir_set_why(struct hw_ct_dir *dir, const char *why)
    OVS_REQUIRES(hw_ct_mutex)
{
    free(dir->why);
    dir->why = why ? xstrdup(why) : NULL;
}

/* What conntrack's nat_packet() does to the packets of direction 'd' of
 * 'conn', a connection with NAT: they leave with the reverse of the other
 * direction's tuple (an ICMP echo keeps its identifier), and the state
 * says which address changed. */
static uint8_t
hw_ct_nat_tuple(const struct hw_ct_conn *conn, int d,
                struct ct_dpif_tuple *nat_tuple)
{
    const struct ct_dpif_tuple *other = &conn->info.tuple[!d];
    bool snat = conn->info.nat & HW_CT_NAT_SRC;

    *nat_tuple = *other;
    nat_tuple->src = other->dst;
    nat_tuple->dst = other->src;
    if (other->ip_proto == IPPROTO_TCP || other->ip_proto == IPPROTO_UDP) {
        nat_tuple->src_port = other->dst_port;
        nat_tuple->dst_port = other->src_port;
    } else {
        /* An echo keeps its own type and code. */
        nat_tuple->icmp_type = conn->info.tuple[d].icmp_type;
        nat_tuple->icmp_code = conn->info.tuple[d].icmp_code;
    }
    /* The reply direction gets the opposite translation. */
    return snat != (d == 1) ? CS_SRC_NAT : CS_DST_NAT;
}

/* The connection table's key of direction 'd' of 'conn', for the rule of
 * 'stages'. */
static void
hw_ct_conn_key(const struct hw_ct_conn *conn, int d,
               enum hw_ct_stages stages, struct hw_ct_conn_key *key)
{
    memset(key, 0, sizeof *key);
    key->tuple = conn->info.tuple[d];
    key->zone = conn->info.zone;
    key->stages = stages;
    key->ct_state = CS_TRACKED | CS_ESTABLISHED | (d ? CS_REPLY_DIR : 0);
    key->mark = conn->info.mark;
    key->label = conn->info.label.u64.lo;
    if (stages == HW_CT_STAGES_NAT) {
        key->nat = true;
        key->ct_state |= hw_ct_nat_tuple(conn, d, &key->nat_tuple);
    }
}

/* The stages the plain rule of 'conn' takes. */
static enum hw_ct_stages
hw_ct_plain_stages(const struct hw_ct_conn *conn)
{
    return conn->info.nat ? HW_CT_STAGES_PLAIN : HW_CT_STAGES_ALL;
}

/* Puts an override ahead of the rule for 'stages' of direction 'd' of
 * 'conn' on 'ctport', which the device refused to destroy. */
static void
hw_ct_override(struct hw_ct_port *ctport, const struct hw_ct_conn *conn,
               int d, enum hw_ct_stages stages)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_override *o = xzalloc(sizeof *o);
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_rule rule;
    int error;

    hw_ct_conn_key(conn, d, stages, &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        hw_rule_make_override(&rule);
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

/* Destroys the NAT rule of direction 'd' of 'conn', which keeps what it
 * counted, then its restore record. */
static void
hw_ct_nat_uninstall(struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_dir *dir = &conn->dir[d];
    struct hw_ct_port *ctport = dir->ctport;
    struct hw_ct_nat_rule *nat = dir->nat;
    const char *step = NULL;
    int error;

    if (!nat || !nat->installed) {
        return;
    }
    error = hw_flow_dr_uninstall(ctport->dev.pipeline, &ctport->dev,
                                 &nat->flow, &step);
    if (nat->flow.final_valid) {
        nat->packets = nat->flow.final_packets;
        nat->bytes = nat->flow.final_bytes;
    }
    if (error) {
        hw_stale_add_dr(ctport->dev.pipeline, &ctport->dev, &nat->flow,
                        step, error);
        hw_ct_override(ctport, conn, d, HW_CT_STAGES_NAT);
    }
    hw_ct_restore_dir_del(nat->restore);
    nat->restore = NULL;
    nat->installed = false;
}

/* Destroys the rules of direction 'd' of 'conn', which keep what they
 * counted. */
static void
hw_ct_dir_uninstall(struct hw_ct_conn *conn, int d, const char *why)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_dir *dir = &conn->dir[d];
    struct hw_ct_port *ctport = dir->ctport;
    const char *step = NULL;
    int error;

    if (!ctport) {
        return;
    }
    hw_ct_nat_uninstall(conn, d);
    error = hw_flow_dr_uninstall(ctport->dev.pipeline, &ctport->dev,
                                 &dir->flow, &step);
    if (dir->flow.final_valid) {
        dir->packets = dir->flow.final_packets;
        dir->bytes = dir->flow.final_bytes;
    }
    if (error) {
        /* It stays the device's until a retry destroys it. */
        hw_stale_add_dr(ctport->dev.pipeline, &ctport->dev, &dir->flow,
                        step, error);
        hw_ct_override(ctport, conn, d, hw_ct_plain_stages(conn));
    }
    dir->ctport = NULL;
    hw_ct_dir_set_why(dir, why);
}

static struct hw_ct_port *
hw_ct_port_find(odp_port_t odp_port)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_port *ctport;

    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (ctport->odp_port == odp_port) {
            return ctport;
        }
    }
    return NULL;
}

/* Installs the NAT rule of direction 'd' of 'conn', a connection with
 * NAT, beside its plain rule.  Without it the stages with nat send the
 * direction's packets to software. */
static void
hw_ct_nat_install(struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_dir *dir = &conn->dir[d];
    struct hw_ct_port *ctport = dir->ctport;
    struct hw_ct_nat_rule *nat = dir->nat;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_rule rule;
    int error;

    if (!nat || nat->installed) {
        return;
    }
    hw_ct_conn_key(conn, d, HW_CT_STAGES_NAT, &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        /* Before the rule: a packet it translates may miss at once. */
        nat->restore = hw_ct_restore_dir_add(&key.nat_tuple, key.zone,
                                             key.ct_state, conn->info.mark,
                                             conn->info.label,
                                             &conn->info.tuple[0]);
        error = hw_flow_dr_install_at(ctport->dev.pipeline, &ctport->dev,
                                      HW_LEVEL_CT, HW_PRIO_UNTAGGED, NULL,
                                      &rule, &nat->flow, &reason);
        if (error) {
            hw_ct_restore_dir_del(nat->restore);
            nat->restore = NULL;
        }
    }
    free(nat->why);
    nat->why = NULL;
    if (error) {
        HW_COVERAGE_INC(hw_ct_rule_failed);
        VLOG_WARN_RL(&rl, "%s: NAT rule of a connection: %s; its "
                     "translated packets stay in software", ctport->name,
                     ds_cstr(&reason));
        nat->why = ds_steal_cstr(&reason);
    } else {
        HW_COVERAGE_INC(hw_ct_rule_installed);
        nat->installed = true;
        nat->packets = nat->bytes = 0;
    }
    ds_destroy(&reason);
}

/* Installs the rule of direction 'd' of 'conn' on the port its packets
 * arrive by, if that port has the connection pipeline. */
static void
hw_ct_dir_install(struct hw_ct_conn *conn, int d)
    OVS_REQUIRES(hw_ct_mutex)
{
    struct hw_ct_dir *dir = &conn->dir[d];
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key key;
    struct hw_ct_port *ctport;
    struct hw_rule rule;
    int error;

    if (dir->ctport) {
        return;
    }
    if (conn->info.in_port[d] == ODPP_NONE) {
        hw_ct_dir_set_why(dir, "no packet seen in this direction");
        return;
    }
    ctport = hw_ct_port_find(conn->info.in_port[d]);
    if (!ctport) {
        hw_ct_dir_set_why(dir, "its port has no connection pipeline");
        return;
    }

    hw_ct_conn_key(conn, d, hw_ct_plain_stages(conn), &key);
    error = hw_translate_ct_conn(&key, &rule, &reason);
    if (!error) {
        error = hw_flow_dr_install_at(ctport->dev.pipeline, &ctport->dev,
                                      HW_LEVEL_CT, HW_PRIO_UNTAGGED, NULL,
                                      &rule, &dir->flow, &reason);
    }
    if (error) {
        HW_COVERAGE_INC(hw_ct_rule_failed);
        VLOG_WARN_RL(&rl, "%s: connection rule: %s; the connection stays "
                     "in software", ctport->name, ds_cstr(&reason));
        hw_ct_dir_set_why(dir, ds_cstr(&reason));
    } else {
        HW_COVERAGE_INC(hw_ct_rule_installed);
        dir->ctport = ctport;
        dir->packets = dir->bytes = 0;
        hw_ct_dir_set_why(dir, NULL);
        hw_ct_nat_install(conn, d);
    }
    ds_destroy(&reason);
}

static void
hw_ct_conn_free(struct hw_ct_conn *conn)
    OVS_REQUIRES(hw_ct_mutex)
{
    for (int d = 0; d < 2; d++) {
        hw_ct_dir_uninstall(conn, d, NULL);
        hw_ct_dir_set_why(&conn->dir[d], NULL);
        if (conn->dir[d].nat) {
            free(conn->dir[d].nat->why);
            free(conn->dir[d].nat);
        }
    }
    HW_COVERAGE_INC(hw_ct_conn_removed);
    free(conn);
}

/* One round of the thread: what was offered or deleted since the last,
 * and, after a port became ready, every connection that misses a rule. */
static void
hw_ct_run(void)
{
    struct hw_ct_conn *conn;
    uint64_t n_busy;

    ovs_mutex_lock(&hw_ct_mutex);
    n_busy = hw_ct_n_busy;
    if (hw_ct_resync) {
        hw_ct_resync = false;
        HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
            if (!conn->pending
                && (!conn->dir[0].ctport || !conn->dir[1].ctport)) {
                conn->pending = true;
                ovs_list_push_back(&hw_ct_pending, &conn->pending_node);
            }
        }
    }

    /* One connection per hold of the mutex, which conntrack's calls from
     * the PMD threads take too.  A connection stays on the list until it
     * is done, where hw_ct_port_release() finds the deleted ones. */
    while (!ovs_list_is_empty(&hw_ct_pending)) {
        conn = CONTAINER_OF(ovs_list_pop_front(&hw_ct_pending),
                            struct hw_ct_conn, pending_node);
        conn->pending = false;
        if (conn->deleted) {
            hw_ct_conn_free(conn);
        } else {
            hw_ct_dir_install(conn, 0);
            hw_ct_dir_install(conn, 1);
        }
        ovs_mutex_unlock(&hw_ct_mutex);
        ovs_mutex_lock(&hw_ct_mutex);
    }
    hw_ct_n_busy -= n_busy;
    ovs_mutex_unlock(&hw_ct_mutex);
    seq_change(hw_ct_done_seq);
}

/* How often the thread reads every connection's counters.  A read that
 * finds new packets takes its own time for the time of the last one, so
 * without it a connection whose counters nobody read for a while would
 * get the time of the next read (a dump, conntrack's sweeper) and outlive
 * its timeout by that much; with it, by at most this (mlx5's own flow
 * counters are read about once a second too). */
#define HW_CT_POLL_MSEC 1000

/* Connections read per hold of the mutex, which the PMD threads' offers
 * take too. */
#define HW_CT_POLL_BATCH 1024

static void
hw_ct_poll_all(void)
{
    struct hmap_position pos = { 0, 0 };
    bool more = true;

    while (more) {
        ovs_mutex_lock(&hw_ct_mutex);
        for (int i = 0; i < HW_CT_POLL_BATCH; i++) {
            struct hmap_node *node = hmap_at_position(&hw_ct_conns, &pos);

            if (!node) {
                more = false;
                break;
            }
            hw_ct_conn_poll(CONTAINER_OF(node, struct hw_ct_conn, node));
        }
        ovs_mutex_unlock(&hw_ct_mutex);
    }
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

void
hw_ct_port_ready(struct hw_offload_port *port,
                 struct ibv_qp *const rss_qps[HW_N_RSS_TYPES])
    OVS_REQUIRES(port->mutex)
{
    struct hw_ct_port *ctport = xzalloc(sizeof *ctport);

    memcpy(ctport->rss_qps, rss_qps, sizeof ctport->rss_qps);
    ovs_list_init(&ctport->overrides);

    ctport->port = port;
    ctport->odp_port = port->odp_port;
    ctport->name = xstrdup(port->name);
    ctport->devname = xstrdup(port->dev.devname);
    ctport->dev = port->dev;
    ctport->dev.devname = ctport->devname;

    ovs_mutex_lock(&hw_ct_mutex);
    ovs_list_push_back(&hw_ct_ports, &ctport->node);
    hw_ct_resync = true;
    hw_ct_schedule(NULL);
    ovs_mutex_unlock(&hw_ct_mutex);
}

void
hw_ct_port_release(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    struct hw_ct_port *ctport, *found = NULL;
    struct hw_ct_override *o;
    struct hw_ct_conn *conn;

    ovs_mutex_lock(&hw_ct_mutex);
    LIST_FOR_EACH (ctport, node, &hw_ct_ports) {
        if (ctport->port == port) {
            found = ctport;
            break;
        }
    }
    if (found) {
        HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
            for (int d = 0; d < 2; d++) {
                if (conn->dir[d].ctport == found) {
                    hw_ct_dir_uninstall(conn, d, "its port has no "
                                        "connection pipeline");
                }
            }
        }
        /* Deleted connections waiting for the thread too. */
        LIST_FOR_EACH (conn, pending_node, &hw_ct_pending) {
            for (int d = 0; conn->deleted && d < 2; d++) {
                if (conn->dir[d].ctport == found) {
                    hw_ct_dir_uninstall(conn, d, NULL);
                }
            }
        }
        LIST_FOR_EACH_POP (o, node, &found->overrides) {
            const char *step = NULL;
            int error = hw_flow_dr_uninstall(found->dev.pipeline,
                                             &found->dev, &o->flow, &step);

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
    }
    ovs_mutex_unlock(&hw_ct_mutex);
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
    OVS_REQUIRES(hw_ct_mutex)
{
    const struct hw_ct_dir *dir = &conn->dir[d];

    ds_put_format(s, "  %s=(%s,", d ? "reply" : "orig",
                  hw_ct_proto_name(conn->info.tuple[d].ip_proto));
    ct_dpif_format_tuple(s, &conn->info.tuple[d]);
    ds_put_cstr(s, ")");
    if (conn->info.in_port[d] != ODPP_NONE) {
        ds_put_format(s, " in_port=%"PRIu32,
                      odp_to_u32(conn->info.in_port[d]));
    }
    if (dir->ctport) {
        ds_put_format(s, " hw:%s packets=%"PRIu64" bytes=%"PRIu64"\n",
                      dir->ctport->name, dir->packets, dir->bytes);
    } else {
        ds_put_format(s, " software: %s\n",
                      dir->why ? dir->why : "not yet in the device");
    }
    if (dir->nat && dir->nat->installed) {
        struct ct_dpif_tuple nat_tuple;

        hw_ct_nat_tuple(conn, d, &nat_tuple);
        ds_put_cstr(s, "    nat: to (");
        ct_dpif_format_tuple(s, &nat_tuple);
        ds_put_format(s, ") hw packets=%"PRIu64" bytes=%"PRIu64"\n",
                      dir->nat->packets, dir->nat->bytes);
    } else if (dir->nat && dir->ctport) {
        ds_put_format(s, "    nat: software: %s\n",
                      dir->nat->why ? dir->nat->why
                                    : "not yet in the device");
    }
}

/* Orders connections by zone, then original tuple, so that the dump is
 * the same from run to run. */
static int
hw_ct_conn_cmp(const void *a_, const void *b_)
{
    const struct hw_ct_conn *const *a = a_;
    const struct hw_ct_conn *const *b = b_;
    int cmp = (int) (*a)->info.zone - (int) (*b)->info.zone;

    return cmp ? cmp : memcmp(&(*a)->info.tuple[0], &(*b)->info.tuple[0],
                              sizeof (*a)->info.tuple[0]);
}

static void
hw_ct_unixctl_dump_conns(struct unixctl_conn *uconn, int argc OVS_UNUSED,
                         const char *argv[] OVS_UNUSED,
                         void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn **conns;
    struct hw_ct_conn *conn;
    size_t n = 0, n_hw = 0;

    hw_ct_flush_pending();
    ovs_mutex_lock(&hw_ct_mutex);
    conns = xmalloc((hmap_count(&hw_ct_conns) + 1) * sizeof *conns);
    HMAP_FOR_EACH (conn, node, &hw_ct_conns) {
        hw_ct_conn_poll(conn);
        conns[n++] = conn;
        n_hw += conn->dir[0].ctport || conn->dir[1].ctport;
    }
    qsort(conns, n, sizeof *conns, hw_ct_conn_cmp);

    ds_put_format(&s, "connections: %"PRIuSIZE" offered, %"PRIuSIZE
                  " with rules in hw; refused:", n, n_hw);
    for (size_t i = 0; i < ARRAY_SIZE(hw_ct_n_refused); i++) {
        ds_put_format(&s, " %s %"PRIu64, hw_ct_refused_names[i],
                      hw_ct_n_refused[i]);
    }
    ds_put_char(&s, '\n');
    for (size_t i = 0; i < n; i++) {
        long long int used = conns[i]->used;

        conn = conns[i];
        ds_put_format(&s, "zone=%"PRIu16" mark=%#"PRIx32"%s used=",
                      conn->info.zone, conn->info.mark,
                      (conn->info.nat & HW_CT_NAT_SRC ? " snat"
                       : conn->info.nat & HW_CT_NAT_DST ? " dnat" : ""));
        if (used) {
            ds_put_format(&s, "%.1fs", (time_msec() - used) / 1000.0);
        } else {
            ds_put_cstr(&s, "never");
        }
        ds_put_char(&s, '\n');
        hw_ct_format_dir(conn, 0, &s);
        hw_ct_format_dir(conn, 1, &s);
    }
    ovs_mutex_unlock(&hw_ct_mutex);
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
