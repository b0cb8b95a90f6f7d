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

/* The cost per connection of conntrack offload: the "conns" mode of the
 * microbenchmark (test-hw-bench.c). */

#include <config.h>
#undef NDEBUG
#include "test-hw-bench.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "hw-ct.h"
#include "hw-model.h"
#include "netdev.h"
#include "netdev-offload.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "test-hw-check.h"
#include "timeval.h"
#include "util.h"

/* Conntrack offload: the plugin's cost per connection (hw-ct.c). */

#define CT_ZONE 5

/* Two hw ports with options:steering=dr and the connection pipeline: the
 * original direction of every connection arrives by the first, its reply
 * by the second, as in the firewall of tests/hw-conntrack.at. */
struct ct_pair {
    const char *what;               /* "model" or "null". */
    bool null;                      /* On null devices. */
    struct netdev *netdev[2];
    char *devname[2];
    odp_port_t odp[2];
};

/* Opens 'pair': hw ports on model devices "model<dev0>" and "model<dev0 +
 * 1>", or on the null devices of those if 'null', datapath ports
 * 'odp0' and 'odp0' + 1, each with the stage of the firewall,
 * recirc_id(0),in_port(N),eth_type(0x0800),ipv4(frag=no) with the actions
 * ct(zone=5),recirc(0x1), which gives the port its connection pipeline. */
static void
ct_pair_open(struct ct_pair *pair, bool null, int dev0, uint32_t odp0)
{
    memset(pair, 0, sizeof *pair);
    pair->what = null ? "null" : "model";
    pair->null = null;
    for (int k = 0; k < 2; k++) {
        struct offload_info info = { .flow_mark = odp0 + k };
        ovs_u128 ufid = bench_ufid_i(odp0 + k);
        struct netdev_hw_device dev;
        struct ofpbuf actions;
        struct match match;
        char *name, *flow;
        size_t ct;

        name = xasprintf("ct%s%d", null ? "n" : "m", k);
        pair->devname[k] = xasprintf("%smodel%d", null ? NULL_DEV_PREFIX : "",
                                     dev0 + k);
        pair->odp[k] = u32_to_odp(odp0 + k);
        pair->netdev[k] = bench_netdev_open(name, pair->devname[k], 1, "dr");
        CHECK(netdev_hw_get_device(pair->netdev[k], &dev));
        CHECK((dev.ops == &bench_null_ops) == null);
        CHECK(dev.pipeline && !dev.pipeline_on_demand);
        CHECK(!netdev_init_flow_api(pair->netdev[k]));

        flow = xasprintf("recirc_id(0),in_port(%"PRIu32"),"
                         "eth_type(0x0800),ipv4(frag=no)", odp0 + k);
        bench_odp_match(flow, &match);
        ofpbuf_init(&actions, 0);
        ct = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_CT);
        nl_msg_put_u16(&actions, OVS_CT_ATTR_ZONE, CT_ZONE);
        nl_msg_end_nested(&actions, ct);
        nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 1);
        if (netdev_flow_put(pair->netdev[k], &match, actions.data,
                            actions.size, &ufid, &info, NULL)) {
            ovs_fatal(0, "%s: the stage flow_put failed", name);
        }
        ofpbuf_uninit(&actions);
        free(flow);
        free(name);
    }
}

static void
ct_pair_close(struct ct_pair *pair)
{
    for (int k = 0; k < 2; k++) {
        ovs_u128 ufid = bench_ufid_i(odp_to_u32(pair->odp[k]));

        CHECK(!netdev_flow_del(pair->netdev[k], &ufid, NULL));
        netdev_close(pair->netdev[k]);
        free(pair->devname[k]);
    }
}

/* The rules the devices of 'pair' hold. */
static size_t
ct_pair_rules(const struct ct_pair *pair)
{
    size_t n = 0;

    if (pair->null) {
        return atomic_count_get(&bench_null_dr_rules);
    }
    for (int k = 0; k < 2; k++) {
        struct hw_model_objects objs;

        CHECK(!hw_model_count_objects(pair->devname[k], &objs));
        n += objs.dr_rule;
    }
    return n;
}

/* Waits until the devices of 'pair' hold 'want' rules: until hw-ct.c's
 * thread has installed or destroyed the rules of every connection
 * offered or deleted so far.  hw_ct_flush_pending() blocks until the
 * thread is idle or for 10 seconds at most. */
static void
ct_wait_rules(const struct ct_pair *pair, size_t want)
{
    long long int last_change = time_msec();
    size_t last = SIZE_MAX;

    for (;;) {
        size_t n;

        hw_ct_flush_pending();
        n = ct_pair_rules(pair);
        if (n == want) {
            return;
        }
        if (n != last) {
            last = n;
            last_change = time_msec();
        } else if (time_msec() - last_change > 30 * 1000) {
            ovs_fatal(0, "%s: %"PRIuSIZE" rules, %"PRIuSIZE" expected: "
                      "connections were not installed", pair->what, n,
                      want);
        }
        xnanosleep(1000 * 1000);
    }
}

/* Connection 'i' (from 0), UDP from 10.0.0.0 + i + 1 port 1000 to
 * 192.168.0.1 port 2000 in zone CT_ZONE, its packets arriving by the
 * ports of 'pair'. */
static void
ct_conn_info(struct hw_ct_conn_info *info, uint32_t i,
             const struct ct_pair *pair)
{
    struct ct_dpif_tuple *orig = &info->tuple[0];
    struct ct_dpif_tuple *reply = &info->tuple[1];

    memset(info, 0, sizeof *info);
    info->id = (const void *) (uintptr_t) (i + 1);
    info->zone = CT_ZONE;
    orig->l3_type = AF_INET;
    orig->ip_proto = IPPROTO_UDP;
    orig->src.ip = htonl((10u << 24) + i + 1);
    orig->dst.ip = htonl(0xc0a80001);
    orig->src_port = htons(1000);
    orig->dst_port = htons(2000);
    reply->l3_type = AF_INET;
    reply->ip_proto = IPPROTO_UDP;
    reply->src = orig->dst;
    reply->dst = orig->src;
    reply->src_port = orig->dst_port;
    reply->dst_port = orig->src_port;
    info->in_port[0] = pair->odp[0];
    info->in_port[1] = pair->odp[1];
}

/* CPU time of the whole process: the benchmark's thread and hw-ct.c's,
 * which installs the rules. */
static uint64_t
process_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t
wall_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The columns of one layer ('model' or 'null') of one repetition. */
enum ct_col {
    CT_ADD,             /* ns of the caller per hw_ct_conn_add(). */
    CT_CONN,            /* ns of CPU per connection, add and install. */
    CT_DEL,             /* ns of CPU per connection, del and uninstall. */
    CT_B,               /* Heap growth per connection held. */
    CT_RATE,            /* Connections in the device per second (wall). */
    CT_DRATE,           /* Connections deleted per second (wall). */
    N_CT_LAYER
};
#define N_CT_COLS (2 * N_CT_LAYER)

static const char *const ct_col_names[N_CT_COLS] = {
    "n_add", "n_conn", "n_del", "n_B", "n_c/s", "n_d/s",
    "m_add", "m_conn", "m_del", "m_B", "m_c/s", "m_d/s",
};

/* Offers connections 0...n-1 of 'infos' and waits until both directions
 * of each are in the devices of 'pair', then deletes them and waits until
 * their rules are gone; 'r' gets the N_CT_LAYER columns.  A loop of the
 * same calls on 1000 connections at most, not counted, comes first. */
static void
ct_measure(const struct ct_pair *pair, const struct hw_ct_conn_info *infos,
           uint32_t n, double *r)
{
    size_t base = ct_pair_rules(pair);
    uint32_t warm = MIN(n, 1000);
    uint64_t p0, t0, t1, w0;
    long long int m0;

    for (uint32_t i = 0; i < warm; i++) {
        CHECK(hw_ct_conn_add(&infos[i]));
    }
    ct_wait_rules(pair, base + 2 * warm);
    for (uint32_t i = 0; i < warm; i++) {
        hw_ct_conn_del(infos[i].id);
    }
    ct_wait_rules(pair, base);

    m0 = bench_heap_in_use();
    w0 = wall_ns();
    p0 = process_ns();
    t0 = bench_now_ns();
    for (uint32_t i = 0; i < n; i++) {
        if (!hw_ct_conn_add(&infos[i])) {
            ovs_fatal(0, "hw_ct_conn_add %"PRIu32" refused", i);
        }
    }
    t1 = bench_now_ns();
    ct_wait_rules(pair, base + 2 * n);
    r[CT_CONN] = (double) (process_ns() - p0) / n;
    r[CT_RATE] = n / ((wall_ns() - w0) / 1e9);
    r[CT_ADD] = (double) (t1 - t0) / n;
    r[CT_B] = (double) (bench_heap_in_use() - m0) / n;

    w0 = wall_ns();
    p0 = process_ns();
    for (uint32_t i = 0; i < n; i++) {
        hw_ct_conn_del(infos[i].id);
    }
    ct_wait_rules(pair, base);
    r[CT_DEL] = (double) (process_ns() - p0) / n;
    r[CT_DRATE] = n / ((wall_ns() - w0) / 1e9);
}

/* Prints "LABEL N REPS" and the 'n' values of 'r'. */
static void
print_ct_row(const char *label, uint32_t n, size_t reps, const double *r)
{
    printf("%-4s %8"PRIu32" %4"PRIuSIZE, label, n, reps);
    for (int c = 0; c < N_CT_COLS; c++) {
        printf(" %8.0f", r[c]);
    }
    putchar('\n');
    fflush(stdout);
}

void
bench_conns(int argc, char *argv[])
{
    unsigned long long sizes[MAX_SIZES] = { 1000, 100000, 1000000 };
    unsigned long long reps[MAX_SIZES] = { 5, 3, 3 };
    size_t n_sizes = 3, n_reps = 3;
    static struct spread sp[MAX_SIZES][N_CT_COLS];
    struct ct_pair pairs[2];

    /* Every thread allocates from the main arena, which mallinfo2()
     * reports: the rules are installed by hw-ct.c's thread. */
    mallopt(M_ARENA_MAX, 1);

    bench_parse_sizes_reps(argc, argv, "conns", sizes, &n_sizes, reps,
                           &n_reps);

    bench_init();
    /* The clock's first reading creates a seq.  Here, not in hw-ct.c's
     * thread: its first one is in seq_wait(), under the seq module's
     * mutex (ovs-vswitchd reads the clock long before). */
    time_msec();
    /* The thread and the waits block in poll_block(), whose warnings of
     * long poll intervals are the benchmark's own doing. */
    vlog_set_levels(vlog_module_from_name("timeval"), VLF_ANY_DESTINATION,
                    VLL_ERR);
    hw_ct_set_enabled(true);
    ct_pair_open(&pairs[0], true, 30002, 3);
    ct_pair_open(&pairs[1], false, 30000, 1);

    printf("# 7 microbenchmark: per-connection cost of conntrack offload, "
           "one process: N UDP connections offered with hw_ct_conn_add() "
           "(zone %d), hw-ct.c's thread installs each direction in the "
           "connection table of its hw port (options:steering=dr, two "
           "ports), then hw_ct_conn_del() of all\n", CT_ZONE);
    printf("# columns, n_* on null devices (the plugin's own work), m_* "
           "on the NIC model: add = ns of the caller per hw_ct_conn_add(); "
           "conn = ns of CPU (all threads) per connection until both its "
           "rules are in; del = the same for the delete; B = heap growth "
           "per connection held; c/s, d/s = connections installed, "
           "deleted per second of wall time\n");
    printf("%-4s %8s %4s", "rep", "N", "#");
    for (int c = 0; c < N_CT_COLS; c++) {
        printf(" %8s", ct_col_names[c]);
    }
    putchar('\n');

    for (size_t s = 0; s < n_sizes; s++) {
        uint32_t n = sizes[s];
        size_t r_count = MIN(s < n_reps ? reps[s] : reps[n_reps - 1],
                             MAX_REPS);
        static double res[MAX_REPS][N_CT_COLS];
        struct hw_ct_conn_info *infos;
        double row[3][N_CT_COLS];

        r_count = MAX(r_count, 1);
        infos = xmalloc(n * sizeof *infos);
        for (size_t r = 0; r < r_count; r++) {
            /* The layers in turns, so that neither always inherits the
             * other's heap. */
            for (int k = 0; k < 2; k++) {
                int layer = (k + r) % 2;

                for (uint32_t i = 0; i < n; i++) {
                    ct_conn_info(&infos[i], i, &pairs[layer]);
                }
                ct_measure(&pairs[layer], infos, n,
                           &res[r][layer * N_CT_LAYER]);
            }
            print_ct_row("rep", n, r + 1, res[r]);
        }
        free(infos);

        bench_spread_columns(&res[0][0], r_count, N_CT_COLS, sp[s],
                             &row[0][0]);
        print_ct_row("MED", n, r_count, row[0]);
        print_ct_row("MIN", n, r_count, row[1]);
        print_ct_row("MAX", n, r_count, row[2]);
    }

    printf("# figures: median [lowest-highest] over the repetitions at "
           "each N; CONNS-PLUGIN on null devices (the plugin's own work), "
           "CONNS-MODEL on the NIC model\n");
    for (int layer = 0; layer < 2; layer++) {
        static const int cols[2][N_CT_LAYER] = {
            { 0, 1, 2, 3, 4, 5 },
            { 6, 7, 8, 9, 10, 11 },
        };
        const char *label = layer ? "CONNS-MODEL" : "CONNS-PLUGIN";

        printf("%-12s %8s %-18s %-18s %-18s %-18s %-18s %s\n", label, "N",
               "add_ns", "conn_ns", "del_ns", "B", "conns_per_s",
               "dels_per_s");
        for (size_t s = 0; s < n_sizes; s++) {
            bench_print_spreads(label, sizes[s], sp[s], cols[layer],
                                N_CT_LAYER);
        }
    }
    if (n_sizes > 1) {
        static const char *const names[] = {
            "conn plugin ", ", model ", "; bytes plugin ", ", model ",
        };
        static const int cols[] = { 1, 7, 3, 9 };

        bench_print_ratios("RATIO-CONNS", sizes[n_sizes - 1], sizes[0],
                           sp[n_sizes - 1], sp[0], names, cols,
                           ARRAY_SIZE(cols));
    }
    fflush(stdout);

    ct_pair_close(&pairs[1]);
    ct_pair_close(&pairs[0]);
}
