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

/* The cost per datapath flow of offloading it: the "flows" and "puts"
 * modes of the microbenchmark (test-hw-bench.c). */

#include <config.h>
#undef NDEBUG
#include "test-hw-bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "hw-flow.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netdev-offload.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "test-hw-check.h"
#include "util.h"

/* The columns of one repetition at one N: ns per flow, bytes per flow. */
enum bench_col {
    COL_XLATE,          /* hw_translate_flow(). */
    COL_NULL,           /* Translate + install on the null table. */
    COL_MODEL,          /* The same on the NIC model. */
    COL_UNINST,         /* hw_flow_uninstall() on the model. */
    COL_PUT,            /* netdev_flow_put() on the model. */
    COL_DEL,            /* netdev_flow_del() on the model. */
    COL_B_NULL,         /* Heap growth of COL_NULL's installs. */
    COL_B_MODEL,
    COL_B_PUT,
    COL_PNULL,          /* netdev_flow_put() on null devices, verbs. */
    COL_PDEL,
    COL_B_PNULL,
    COL_PDR,            /* netdev_flow_put() on null devices, dr. */
    COL_PDRDEL,
    COL_B_PDR,
    COL_PESW,           /* netdev_flow_put() on null devices, e-switch. */
    COL_PESWDEL,
    COL_B_PESW,
    COL_FDB,            /* Of COL_PESW's puts, the rules in the FDB. */
    N_MEASURED,

    /* Derived from the columns above of the same repetition. */
    COL_HW = N_MEASURED, /* model - null: the model's own install. */
    COL_SUB,            /* put - (model - null). */
    COL_B_SUB,          /* B_put - (B_model - B_null). */
    N_COLS
};

static const char *const col_names[N_MEASURED] = {
    "xlate", "null", "model", "uninst", "put", "del", "B_null", "B_model",
    "B_put", "pnull", "pdel", "B_pnull", "pdr", "pdrdel", "B_pdr", "pesw",
    "peswdel", "B_pesw", "fdb",
};

/* Puts flows 0...n-1 through OVS's offload API on the hw ports of 'ports'
 * of 'layer', round-robin, with 'actions' (on the e-switch, the output to
 * the port's VF 1 representor).  Returns the time per put, and stores the
 * heap growth per installed flow into '*bytes' if 'bytes' is nonnull. */
static double
put_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
          enum bench_layer layer, struct match *match,
          const struct ofpbuf *actions, double *bytes)
{
    long long int m0 = bench_heap_in_use();
    uint64_t t0 = bench_now_ns();
    double ns;

    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        const struct ofpbuf *a = (layer == LAYER_ESW ? &port->esw_actions
                                  : actions);
        struct offload_info info = { .flow_mark = i + 1 };
        ovs_u128 ufid = bench_ufid_i(i);
        int error;

        bench_flow_i(match, i, i % n_ports + 1);
        /* No stats, as dpif-netdev's offload thread asks none. */
        error = netdev_flow_put(bench_port_netdev(port, layer), match,
                                a->data, a->size, &ufid, &info, NULL);
        if (error) {
            ovs_fatal(0, "flow_put %"PRIu32": %s", i, ovs_strerror(error));
        }
    }
    ns = n ? (double) (bench_now_ns() - t0) / n : 0;
    if (bytes) {
        *bytes = n ? (double) (bench_heap_in_use() - m0) / n : 0;
    }
    return ns;
}

/* Deletes the flows that put_flows() put, and returns the time per
 * delete. */
static double
del_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
          enum bench_layer layer)
{
    uint64_t t0 = bench_now_ns();

    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        ovs_u128 ufid = bench_ufid_i(i);

        CHECK(!netdev_flow_del(bench_port_netdev(port, layer), &ufid,
                               NULL));
    }
    return n ? (double) (bench_now_ns() - t0) / n : 0;
}

/* Measures flow_put() and flow_del() of 'n' flows on 'layer' into
 * r[col_put], r[col_del] and r[col_bytes] and, on the e-switch, the rules
 * the puts made in the FDB into r[COL_FDB].  A short loop of the same calls
 * that is not counted comes first: at 1k flows a loop lasts half a
 * millisecond, and a cold start (code, branch predictors, the previous
 * phase's caches) would weigh on the small sizes only. */
static void
measure_put_del(struct bench_port *ports, size_t n_ports, uint32_t n,
                enum bench_layer layer, struct match *match,
                const struct ofpbuf *actions, double *r, int col_put,
                int col_del, int col_bytes)
{
    uint32_t warm = MIN(n, 1000);
    unsigned int fdb0;

    put_flows(ports, n_ports, warm, layer, match, actions, NULL);
    del_flows(ports, n_ports, warm, layer);

    fdb0 = atomic_count_get(&bench_null_fdb_rules);
    r[col_put] = put_flows(ports, n_ports, n, layer, match, actions,
                           &r[col_bytes]);
    if (layer == LAYER_ESW) {
        r[COL_FDB] = atomic_count_get(&bench_null_fdb_rules) - fdb0;
    }
    r[col_del] = del_flows(ports, n_ports, n, layer);
}

/* Measures the plugin's own work (hw ports of null devices) at 'n' flows
 * in repetition 'rep' (from 0) into 'r': verbs, dr and the e-switch side
 * by side, in turns (each first in every third repetition, so that none
 * always inherits another's heap and caches). */
static void
run_plugin(struct bench_port *ports, size_t n_ports, uint32_t n, size_t rep,
           struct match *match, const struct ofpbuf *actions, double *r)
{
    for (int k = 0; k < 3; k++) {
        switch ((k + rep) % 3) {
        case 0:
            measure_put_del(ports, n_ports, n, LAYER_NULL, match, actions,
                            r, COL_PNULL, COL_PDEL, COL_B_PNULL);
            break;
        case 1:
            measure_put_del(ports, n_ports, n, LAYER_DR, match, actions,
                            r, COL_PDR, COL_PDRDEL, COL_B_PDR);
            break;
        default:
            measure_put_del(ports, n_ports, n, LAYER_ESW, match, actions,
                            r, COL_PESW, COL_PESWDEL, COL_B_PESW);
            break;
        }
    }
}

/* Runs repetition 'rep' (from 0) at 'n' flows into 'r' (N_COLS values),
 * or with 'plugin_only' the plugin's own work alone. */
static void
run_flows(struct bench_port *ports, size_t n_ports, uint32_t n, size_t rep,
          bool plugin_only, double *r)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_flow *hw_flows;
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match match;
    long long int m0;
    uint64_t t0;

    bench_template_match(&match, &actions);
    if (plugin_only) {
        run_plugin(ports, n_ports, n, rep, &match, &actions, r);
        ofpbuf_uninit(&actions);
        ds_destroy(&reason);
        return;
    }
    hw_flows = xmalloc(n * sizeof *hw_flows);

    /* Translate only. */
    t0 = bench_now_ns();
    for (uint32_t i = 0; i < n; i++) {
        struct hw_translate_params params = {
            .flow_mark = i + 1,
            .in_port = u32_to_odp(i % n_ports + 1),
        };

        bench_flow_i(&match, i, i % n_ports + 1);
        CHECK(!hw_translate_flow(&match, actions.data, actions.size,
                                 &params, &rule, &reason));
    }
    r[COL_XLATE] = (double) (bench_now_ns() - t0) / n;

    /* translate + encode + install, on the null device then on the
     * model. */
    for (int pass = 0; pass < 2; pass++) {
        m0 = bench_heap_in_use();
        t0 = bench_now_ns();
        for (uint32_t i = 0; i < n; i++) {
            struct bench_port *port = &ports[i % n_ports];
            struct hw_translate_params params = {
                .flow_mark = i + 1,
                .in_port = u32_to_odp(i % n_ports + 1),
            };

            bench_flow_i(&match, i, i % n_ports + 1);
            CHECK(!hw_translate_flow(&match, actions.data, actions.size,
                                     &params, &rule, &reason));
            if (hw_flow_install(pass ? &port->dev : &port->null_dev,
                                port->qp, &rule, &hw_flows[i], &reason)) {
                ovs_fatal(0, "flow %"PRIu32": %s", i, ds_cstr(&reason));
            }
        }
        r[pass ? COL_MODEL : COL_NULL] = (double) (bench_now_ns() - t0) / n;
        r[pass ? COL_B_MODEL : COL_B_NULL]
            = (double) (bench_heap_in_use() - m0) / n;

        t0 = bench_now_ns();
        for (uint32_t i = 0; i < n; i++) {
            struct bench_port *port = &ports[i % n_ports];

            hw_flow_uninstall(pass ? &port->dev : &port->null_dev,
                              &hw_flows[i], NULL);
        }
        if (pass) {
            r[COL_UNINST] = (double) (bench_now_ns() - t0) / n;
        }
    }
    free(hw_flows);

    /* flow_put() and flow_del() through OVS's offload API: the plugin's
     * own work on null devices, then on the model.  The plugin's loops
     * come first, so that they do not inherit the heap that the model's
     * gigabyte of rules (put and deleted in the loop after them) leaves
     * behind. */
    run_plugin(ports, n_ports, n, rep, &match, &actions, r);
    measure_put_del(ports, n_ports, n, LAYER_MODEL, &match, &actions, r,
                    COL_PUT, COL_DEL, COL_B_PUT);

    r[COL_HW] = r[COL_MODEL] - r[COL_NULL];
    r[COL_SUB] = r[COL_PUT] - r[COL_HW];
    r[COL_B_SUB] = r[COL_B_PUT] - (r[COL_B_MODEL] - r[COL_B_NULL]);

    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

/* Prints "LABEL N PORTS REPS" and the measured columns of 'r'. */
static void
print_row(const char *label, uint32_t n, size_t ports, size_t reps,
          const double *r)
{
    printf("%-4s %8"PRIu32" %5"PRIuSIZE" %4"PRIuSIZE, label, n, ports, reps);
    for (int c = 0; c < N_MEASURED; c++) {
        printf(" %7.0f", r[c]);
    }
    putchar('\n');
    fflush(stdout);
}

/* Prints, for each of the 'n_sizes' sizes, "ESWITCH-FDB N puts=N
 * fdb_rules=MEDIAN [LOWEST-HIGHEST]": how many of the e-switch puts made a
 * rule in the FDB domain. */
static void
print_fdb(const unsigned long long *sizes, size_t n_sizes,
          struct spread sp[][N_COLS])
{
    printf("# e-switch flows (in_port VF 0's representor, output VF 1's): "
           "of N puts, the rules made in the FDB domain\n");
    for (size_t s = 0; s < n_sizes; s++) {
        const struct spread *f = &sp[s][COL_FDB];

        printf("ESWITCH-FDB %8llu puts=%llu fdb_rules=%.0f [%.0f-%.0f]\n",
               sizes[s], sizes[s], f->med, f->min, f->max);
    }
}

/* The header of the "flows" mode's rows. */
static void
print_flows_header(void)
{
    printf("# 1 microbenchmark: per-flow cost, one process, NIC model; "
           "flows spread over ceil(N/%d) hw ports\n", FLOWS_PER_PORT);
    printf("# columns (ns/flow unless said): xlate = hw_translate_flow; "
           "null = translate+encode+install on a no-op device; model = "
           "the same on the NIC model; uninst = hw_flow_uninstall on the "
           "model; put/del = netdev_flow_put/del into the provider (model "
           "included); pnull/pdel = the same put/del on hw ports of null "
           "devices (the plugin's own work); pdr/pdrdel = the same on hw "
           "ports of null devices with options:steering=dr (the plugin's "
           "own work on the pipeline of tables); pesw/peswdel = the same "
           "on representors of null devices in switchdev mode, flows from "
           "VF 0's to VF 1's (the plugin's own work on the FDB); fdb = of "
           "the pesw puts, the rules made in the FDB domain (a count); B_* "
           "= heap growth per installed flow\n");
    printf("# rep rows: one repetition each; MED, MIN, MAX rows: the "
           "median, lowest and highest of the repetitions at that N\n");
    printf("%-4s %8s %5s %4s", "rep", "N", "ports", "#");
    for (int c = 0; c < N_MEASURED; c++) {
        printf(" %7s", col_names[c]);
    }
    putchar('\n');
}

/* The figures of the "flows" mode with the NIC model, for each of the
 * 'n_sizes' sizes. */
static void
print_summary(const unsigned long long *sizes, size_t n_sizes,
              struct spread sp[][N_COLS])
{
    /* The summaries: each figure as the median [lowest-highest] of its
     * repetitions. */
    printf("# figures: median [lowest-highest] over the repetitions at "
           "each N; a ratio is the ratio of the medians [the lowest and "
           "highest ratio of any repetition of one N to any of the "
           "other]\n");
    printf("# with the NIC model: put_ns, del_ns = flow_put, flow_del; "
           "hw_ns = model - null (the model's own install); by "
           "subtraction, the plugin's: sub_ns = put - (model - null), sub_B "
           "= B_put - (B_model - B_null), each of one repetition\n");
    printf("%-8s %8s %-18s %-18s %-18s %-18s %s\n", "SUMMARY", "N",
           "put_ns", "hw_ns", "del_ns", "sub_ns", "sub_B");
    for (size_t s = 0; s < n_sizes; s++) {
        static const int cols[] = { COL_PUT, COL_HW, COL_DEL, COL_SUB,
                                    COL_B_SUB };

        bench_print_spreads("SUMMARY", sizes[s], sp[s], cols,
                            ARRAY_SIZE(cols));
    }
}

/* The figures of the plugin's own work, for each of the 'n_sizes'
 * sizes. */
static void
print_plugin(const unsigned long long *sizes, size_t n_sizes,
             struct spread sp[][N_COLS])
{
    printf("# the plugin's own work (hw ports on null devices), verbs "
           "steering, the pipeline of tables (options:steering=dr) and the "
           "e-switch (representors, flows to the FDB) side by side: ns per "
           "flow_put (pnull, pdr, pesw), ns per flow_del (pdel, pdrdel, "
           "peswdel), heap bytes per offloaded flow (B_pnull, B_pdr, "
           "B_pesw)\n");
    printf("%-8s %8s %-18s %-18s %-18s %-18s %-18s %-18s %-18s %-18s %s\n",
           "PLUGIN", "N", "verbs_put", "verbs_del", "verbs_B", "dr_put",
           "dr_del", "dr_B", "esw_put", "esw_del", "esw_B");
    for (size_t s = 0; s < n_sizes; s++) {
        static const int cols[] = { COL_PNULL, COL_PDEL, COL_B_PNULL,
                                    COL_PDR, COL_PDRDEL, COL_B_PDR,
                                    COL_PESW, COL_PESWDEL, COL_B_PESW };

        bench_print_spreads("PLUGIN", sizes[s], sp[s], cols, ARRAY_SIZE(cols));
    }
}

/* The "flows" mode or, with 'plugin_only', the "eswitch" mode. */
static void
bench_flows__(int argc, char *argv[], bool plugin_only)
{
    unsigned long long sizes[MAX_SIZES] = { 1000, 100000, 1000000 };
    unsigned long long reps[MAX_SIZES] = { 5, 3, 1 };
    size_t n_sizes = 3, n_reps = 3;
    static struct spread sp[MAX_SIZES][N_COLS];
    struct bench_port *ports = NULL;
    size_t n_ports = 0;

    bench_parse_sizes_reps(argc, argv, plugin_only ? "eswitch" : "flows",
                           sizes, &n_sizes, reps, &n_reps);

    bench_init();
    if (plugin_only) {
        printf("# 9 e-switch microbenchmark: the plugin's own work per "
               "flow_put, one process, hw ports of null devices, flows "
               "spread over ceil(N/%d) ports of each kind\n",
               FLOWS_PER_PORT);
    } else {
        print_flows_header();
    }

    for (size_t s = 0; s < n_sizes; s++) {
        uint32_t n = sizes[s];
        size_t need = DIV_ROUND_UP(n, FLOWS_PER_PORT);
        size_t r_count = MIN(s < n_reps ? reps[s] : reps[n_reps - 1],
                             MAX_REPS);
        static double res[MAX_REPS][N_COLS];
        double row[3][N_COLS];

        r_count = MAX(r_count, 1);
        bench_ports_grow(&ports, &n_ports, need);

        for (size_t r = 0; r < r_count; r++) {
            run_flows(ports, need, n, r, plugin_only, res[r]);
            if (!plugin_only) {
                print_row("rep", n, need, r + 1, res[r]);
            }
        }

        bench_spread_columns(&res[0][0], r_count, N_COLS, sp[s], &row[0][0]);
        if (!plugin_only) {
            print_row("MED", n, need, r_count, row[0]);
            print_row("MIN", n, need, r_count, row[1]);
            print_row("MAX", n, need, r_count, row[2]);
        }
    }
    if (!plugin_only) {
        print_summary(sizes, n_sizes, sp);
    }
    print_plugin(sizes, n_sizes, sp);
    print_fdb(sizes, n_sizes, sp);

    if (n_sizes > 1 && !plugin_only) {
        static const char *const names[] = {
            "put (model included) ", ", del ", ", model install ",
            ", plugin put by subtraction ",
        };
        static const int cols[] = { COL_PUT, COL_DEL, COL_MODEL, COL_SUB };

        bench_print_ratios("RATIO", sizes[n_sizes - 1], sizes[0],
                           sp[n_sizes - 1], sp[0], names, cols,
                           ARRAY_SIZE(cols));
    }
    if (n_sizes > 1) {
        static const char *const pnames[] = {
            "put verbs ", " dr ", " esw ", "; del verbs ", " dr ", " esw ",
            "; bytes verbs ", " dr ", " esw ",
        };
        static const int pcols[] = { COL_PNULL, COL_PDR, COL_PESW, COL_PDEL,
                                     COL_PDRDEL, COL_PESWDEL, COL_B_PNULL,
                                     COL_B_PDR, COL_B_PESW };

        bench_print_ratios("RATIO-PLUGIN", sizes[n_sizes - 1], sizes[0],
                           sp[n_sizes - 1], sp[0], pnames, pcols,
                           ARRAY_SIZE(pcols));
    }
    fflush(stdout);

    for (size_t i = 0; i < n_ports; i++) {
        bench_port_close(&ports[i]);
    }
    free(ports);
}

void
bench_flows(int argc, char *argv[])
{
    bench_flows__(argc, argv, false);
}

void
bench_eswitch(int argc, char *argv[])
{
    bench_flows__(argc, argv, true);
}

/* Minor page faults of the process so far. */
static long long int
minor_faults(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* The put loop of the plugin's own work alone, for a cache simulator
 * (tools/bench.sh section 6): the ports for 'n' flows and the uncounted
 * loop of bench_flows(), 'rounds' uncounted puts and deletes of all 'n'
 * flows (0 by default: with 1, the ufid maps are grown and the heap holds
 * the freed memory of 'n' flows, as in bench_flows()' later repetitions),
 * then 'n_put' puts on null devices with verbs or dr steering or on the
 * e-switch, and nothing more (the flows are not deleted).  A run with
 * 'n_put' 0 does all the rest, so the difference between the two is the
 * put loop's. */
void
bench_puts(int argc, char *argv[])
{
    uint32_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    const char *steering = argc > 2 ? argv[2] : "verbs";
    uint32_t n_put = argc > 3 ? strtoul(argv[3], NULL, 10) : n;
    uint32_t rounds = argc > 4 ? strtoul(argv[4], NULL, 10) : 0;
    struct bench_port *ports = NULL;
    enum bench_layer layer;
    struct ofpbuf actions;
    struct match match;
    size_t n_ports = 0;
    long long int f0;
    double ns;

    if (!strcmp(steering, "verbs")) {
        layer = LAYER_NULL;
    } else if (!strcmp(steering, "dr")) {
        layer = LAYER_DR;
    } else if (!strcmp(steering, "esw")) {
        layer = LAYER_ESW;
    } else {
        ovs_fatal(0, "puts: steering must be verbs, dr or esw");
    }
    if (!n || n_put > n) {
        ovs_fatal(0, "puts: N must be positive and PUTS at most N");
    }

    bench_init();
    bench_ports_grow(&ports, &n_ports, DIV_ROUND_UP(n, FLOWS_PER_PORT));
    bench_template_match(&match, &actions);
    put_flows(ports, n_ports, MIN(n, 1000), layer, &match, &actions, NULL);
    del_flows(ports, n_ports, MIN(n, 1000), layer);
    for (uint32_t i = 0; i < rounds; i++) {
        put_flows(ports, n_ports, n, layer, &match, &actions, NULL);
        del_flows(ports, n_ports, n, layer);
    }

    f0 = minor_faults();
    ns = put_flows(ports, n_ports, n_put, layer, &match, &actions, NULL);
    printf("puts N=%"PRIu32" steering=%s ports=%"PRIuSIZE" rounds=%"PRIu32
           " puts=%"PRIu32" ns_per_put=%.0f page_faults_per_put=%.3f\n", n,
           steering, n_ports, rounds, n_put, ns,
           n_put ? (double) (minor_faults() - f0) / n_put : 0);
    fflush(stdout);
    ofpbuf_uninit(&actions);
}
