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

/* Microbenchmark of the plugin, in one process (tools/bench.sh runs it).
 *
 *   ovstest test-hw-bench flows [N,N,...] [REPS,REPS,...]
 *       The cost per flow of offloading N distinct datapath flows, and of
 *       deleting them, on hw ports of the NIC model, in three layers:
 *         null:  hw_translate_flow() + hw_flow_install() on a device-ops
 *                table that does nothing: translate, encode and the
 *                install bookkeeping alone (the plugin's own work);
 *         model: the same on the NIC model (hw_model_ops), with the RSS
 *                QPs a hw port sets up;
 *         put:   netdev_flow_put() through OVS's offload API into the
 *                provider, as dpif-netdev's offload thread calls it;
 *         pnull: the same put (and del) on hw ports whose device is driven
 *                by the no-op table of 'null' (a backend registered for
 *                device names "null:model<N>"): the plugin's own work of a
 *                flow_put(), measured directly.
 *       The model's cost is model - null, so the plugin's own cost of a
 *       flow_put() is also put - (model - null), printed next to pnull;
 *       that difference charges the plugin with the cache misses the
 *       model's memory causes in the plugin's code.  Memory: the growth
 *       of the heap in use (mallinfo2() uordblks + hblkhd: every live malloc
 *       chunk with its header, mapped ones included) across the N installs,
 *       per flow; B_pnull is the plugin's alone.
 *       A model device holds at most 65536 rules per priority, as mlx5
 *       does, so the flows are spread over ceil(N / 50000) hw ports
 *       (round-robin), one model device each, and as many hw ports on
 *       null devices.
 *
 *   ovstest test-hw-bench rss [N_TUPLES] [REPS]
 *       Sends N_TUPLES random TCP and UDP 5-tuples into the wire of hw
 *       ports with 2, 4 and 8 receive queues, reads every queue, and
 *       prints the max/mean queue load (median of REPS seeds).
 *
 * Times are the CPU time of the benchmark's thread
 * (CLOCK_THREAD_CPUTIME_ID).  Every number printed is measured; nothing is
 * asserted except that the operations succeed. */

#include <config.h>
#undef NDEBUG

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-dev.h"
#include "hw-flow.h"
#include "hw-model.h"
#include "hw-privileges.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netdev.h"
#include "netdev-hw.h"
#include "netdev-offload.h"
#include "netdev-offload-hw.h"
#include "odp-netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovstest.h"
#include "packets.h"
#include "random.h"
#include "smap.h"
#include "test-hw-check.h"
#include "util.h"

/* Rules per hw port (model device): below the model's 65536 per priority
 * table. */
#define FLOWS_PER_PORT 50000

/* The datapath flow every benchmark flow is a copy of, with its own IPv4
 * source address: what tools/bench.sh adds with dpctl/add-flow. */
static const char flow_template[] =
    "in_port(1),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),"
    "eth_type(0x0800),ipv4(src=10.0.0.1,dst=192.168.0.1,proto=17,frag=no),"
    "udp(src=1000,dst=2000)";

/* CPU time of the calling thread: the benchmark is single-threaded, and
 * CPU time does not count the time other processes of a busy host take
 * from it (wall time would). */
static uint64_t
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Bytes of heap in use: every live malloc chunk with its header, including
 * the large ones malloc maps on their own (a big hash table's buckets). */
static long long int
heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();

    return mi.uordblks + mi.hblkhd;
}

/* A device-ops table that creates nothing, so that hw_flow_install() costs
 * only what the plugin itself does. */
static struct ibv_counters null_counters;
static struct ibv_flow null_flow;

static int
null_create_counters(struct ibv_context *ctx OVS_UNUSED,
                     struct ibv_counters **countersp)
{
    *countersp = &null_counters;
    return 0;
}

static int
null_attach_counters(struct ibv_counters *counters OVS_UNUSED,
                     struct ibv_counter_attach_attr *attr OVS_UNUSED)
{
    return 0;
}

static int
null_read_counters(struct ibv_counters *counters OVS_UNUSED,
                   uint64_t *values, uint32_t n_values)
{
    memset(values, 0, n_values * sizeof *values);
    return 0;
}

static int
null_destroy_counters(struct ibv_counters *counters OVS_UNUSED)
{
    return 0;
}

static int
null_create_flow(struct ibv_qp *qp OVS_UNUSED,
                 struct ibv_flow_attr *attr OVS_UNUSED,
                 struct ibv_flow **flowp)
{
    *flowp = &null_flow;
    return 0;
}

static int
null_destroy_flow(struct ibv_flow *flow OVS_UNUSED)
{
    return 0;
}

/* The null table as a backend of hw ports: "null:model<N>" is model
 * device "model<N>" (whose queues and RSS QPs the port uses) with the
 * null table's rules and counters. */
#define NULL_DEV_PREFIX "null:"

static bool
null_handles(const char *devname)
{
    return (!strncmp(devname, NULL_DEV_PREFIX, strlen(NULL_DEV_PREFIX))
            && hw_model_ops.handles(devname + strlen(NULL_DEV_PREFIX)));
}

static int
null_open(const char *devname, struct ibv_context **ctxp)
{
    return hw_model_ops.open(devname + strlen(NULL_DEV_PREFIX), ctxp);
}

static struct hw_dev_ops null_ops;

/* One hw port on its own model device, and one on a null device. */
struct bench_port {
    struct netdev *netdev;
    struct netdev *null_netdev;     /* On device "null:model<N>". */
    struct netdev_hw_device dev;
    struct netdev_hw_device null_dev;
    struct ibv_qp *qp;              /* RSS QP for IPv4 UDP rules. */
    struct netdev_rxq **rxqs;
    int n_rxq;
};

static void
bench_init(void)
{
    static bool done;
    struct smap config = SMAP_INITIALIZER(&config);

    if (done) {
        return;
    }
    done = true;

    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_WARN);
    netdev_hw_register();

    smap_add(&config, "hw-offload", "true");
    netdev_set_flow_api_enabled(&config);
    smap_destroy(&config);

    null_ops = hw_model_ops;
    null_ops.name = "null";
    null_ops.create_counters = null_create_counters;
    null_ops.attach_counters = null_attach_counters;
    null_ops.read_counters = null_read_counters;
    null_ops.destroy_counters = null_destroy_counters;
    null_ops.create_flow = null_create_flow;
    null_ops.destroy_flow = null_destroy_flow;
    null_ops.handles = null_handles;
    null_ops.open = null_open;
    hw_dev_register_backend(&null_ops);
    /* The capability check wants CAP_NET_RAW for any backend but the
     * model; the null device needs none. */
    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_FORCE_PRESENT);
}

/* Opens hw port 'name' on device 'devname' with 'n_rxq' receive queues, as
 * ovs-vswitchd would (set_config, then reconfigure). */
static struct netdev *
bench_netdev_open(const char *name, const char *devname, int n_rxq)
{
    struct smap args = SMAP_INITIALIZER(&args);
    struct netdev *netdev;
    char *errp = NULL;

    CHECK(!netdev_open(name, "hw", &netdev));
    smap_add(&args, "device", devname);
    smap_add_format(&args, "n_rxq", "%d", n_rxq);
    if (netdev_set_config(netdev, &args, &errp)) {
        ovs_fatal(0, "%s: set_config: %s", name, errp ? errp : "failed");
    }
    smap_destroy(&args);
    CHECK(!netdev_reconfigure(netdev));
    return netdev;
}

/* Opens 'port': hw port 'name' on model device 'devname' with 'n_rxq'
 * receive queues and, if 'null_devname' is nonnull, hw port "'name'n" on
 * that null device, both with the hw flow API. */
static void
bench_port_open(struct bench_port *port, const char *name,
                const char *devname, const char *null_devname, int n_rxq)
{
    bool offload = null_devname != NULL;

    memset(port, 0, sizeof *port);
    port->netdev = bench_netdev_open(name, devname, n_rxq);
    CHECK(netdev_hw_get_device(port->netdev, &port->dev));
    port->qp = netdev_hw_rss_qp(port->netdev, HW_RSS_IPV4_UDP);
    CHECK(port->qp);
    port->null_dev = port->dev;
    port->null_dev.ops = &null_ops;
    if (offload) {
        char *null_name = xasprintf("%sn", name);
        struct netdev_hw_device null_dev;

        CHECK(!netdev_init_flow_api(port->netdev));
        port->null_netdev = bench_netdev_open(null_name, null_devname,
                                               n_rxq);
        CHECK(netdev_hw_get_device(port->null_netdev, &null_dev));
        CHECK(null_dev.ops == &null_ops);
        CHECK(!netdev_init_flow_api(port->null_netdev));
        free(null_name);
    }

    port->n_rxq = n_rxq;
    port->rxqs = xcalloc(n_rxq, sizeof *port->rxqs);
    for (int i = 0; i < n_rxq; i++) {
        CHECK(!netdev_rxq_open(port->netdev, &port->rxqs[i], i));
    }
}

/* The template flow as dpif-netdev hands it to the provider. */
static void
template_match(struct match *match, struct ofpbuf *actions)
{
    struct ofpbuf key, mask;
    char *error = NULL;

    ofpbuf_init(&key, 0);
    ofpbuf_init(&mask, 0);
    if (odp_flow_from_string(flow_template, NULL, &key, &mask, &error)) {
        ovs_fatal(0, "%s: %s", flow_template, error);
    }
    match_init_catchall(match);
    CHECK(odp_flow_key_to_flow(key.data, key.size, &match->flow, &error)
          != ODP_FIT_ERROR);
    CHECK(odp_flow_key_to_mask(mask.data, mask.size, &match->wc,
                               &match->flow, &error) != ODP_FIT_ERROR);
    /* dpif-netdev's put: an absent VLAN means "no VLAN". */
    if (!match->wc.masks.vlans[0].tci) {
        match->wc.masks.vlans[0].tci = htons(VLAN_VID_MASK | VLAN_CFI);
    }
    ofpbuf_uninit(&key);
    ofpbuf_uninit(&mask);

    ofpbuf_init(actions, 0);
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, 2);
}

/* Makes 'match' flow number 'i' (from 0) of port 'port_no'. */
static void
flow_i(struct match *match, uint32_t i, uint32_t port_no)
{
    match->flow.nw_src = htonl((10u << 24) + i + 1);
    match->flow.in_port.odp_port = u32_to_odp(port_no);
}

static ovs_u128
ufid_i(uint32_t i)
{
    ovs_u128 ufid = { .u64 = { .lo = 0x6f6c666863656e62ULL + i,
                               .hi = i * 0x9e3779b97f4a7c15ULL } };
    return ufid;
}

/* One repetition at one N. */
struct flows_result {
    double null_ns, model_ns, uninstall_ns;
    double xlate_ns;
    double put_ns, del_ns;
    double pnull_ns, pdel_ns;       /* put and del on null devices. */
    double null_bytes, model_bytes, put_bytes, pnull_bytes;
};

/* Puts flows 0...n-1 through OVS's offload API on the hw ports of 'ports'
 * (on the model) or of their 'null_netdev's, round-robin, then deletes
 * them.  Stores the time per put and per delete, and the heap growth per
 * installed flow, into '*put_ns', '*del_ns' and '*bytes'. */
static void
put_del_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
              bool on_null, struct match *match, const struct ofpbuf *actions,
              double *put_ns, double *del_ns, double *bytes)
{
    long long int m0 = heap_in_use();
    uint64_t t0 = now_ns();

    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        struct offload_info info = { .flow_mark = i + 1 };
        ovs_u128 ufid = ufid_i(i);
        int error;

        flow_i(match, i, i % n_ports + 1);
        /* No stats, as dpif-netdev's offload thread asks none. */
        error = netdev_flow_put(on_null ? port->null_netdev : port->netdev,
                                match, actions->data, actions->size, &ufid,
                                &info, NULL);
        if (error) {
            ovs_fatal(0, "flow_put %"PRIu32": %s", i, ovs_strerror(error));
        }
    }
    *put_ns = (double) (now_ns() - t0) / n;
    *bytes = (double) (heap_in_use() - m0) / n;

    t0 = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        ovs_u128 ufid = ufid_i(i);

        CHECK(!netdev_flow_del(on_null ? port->null_netdev : port->netdev,
                               &ufid, NULL));
    }
    *del_ns = (double) (now_ns() - t0) / n;
}

static void
run_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
          struct flows_result *r)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_flow *hw_flows;
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match match;
    long long int m0;
    uint64_t t0;

    template_match(&match, &actions);
    hw_flows = xmalloc(n * sizeof *hw_flows);

    /* Translate only. */
    t0 = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        struct hw_translate_params params = {
            .flow_mark = i + 1,
            .in_port = u32_to_odp(i % n_ports + 1),
        };

        flow_i(&match, i, i % n_ports + 1);
        CHECK(!hw_translate_flow(&match, actions.data, actions.size,
                                 &params, &rule, &reason));
    }
    r->xlate_ns = (double) (now_ns() - t0) / n;

    /* translate + encode + install, on the null device then on the
     * model. */
    for (int pass = 0; pass < 2; pass++) {
        m0 = heap_in_use();
        t0 = now_ns();
        for (uint32_t i = 0; i < n; i++) {
            struct bench_port *port = &ports[i % n_ports];
            struct hw_translate_params params = {
                .flow_mark = i + 1,
                .in_port = u32_to_odp(i % n_ports + 1),
            };

            flow_i(&match, i, i % n_ports + 1);
            CHECK(!hw_translate_flow(&match, actions.data, actions.size,
                                     &params, &rule, &reason));
            if (hw_flow_install(pass ? &port->dev : &port->null_dev,
                                port->qp, &rule, &hw_flows[i], &reason)) {
                ovs_fatal(0, "flow %"PRIu32": %s", i, ds_cstr(&reason));
            }
        }
        if (pass) {
            r->model_ns = (double) (now_ns() - t0) / n;
            r->model_bytes = (double) (heap_in_use() - m0) / n;
        } else {
            r->null_ns = (double) (now_ns() - t0) / n;
            r->null_bytes = (double) (heap_in_use() - m0) / n;
        }

        t0 = now_ns();
        for (uint32_t i = 0; i < n; i++) {
            struct bench_port *port = &ports[i % n_ports];

            hw_flow_uninstall(pass ? &port->dev : &port->null_dev,
                              &hw_flows[i], NULL);
        }
        if (pass) {
            r->uninstall_ns = (double) (now_ns() - t0) / n;
        }
    }
    free(hw_flows);

    /* flow_put() and flow_del() through OVS's offload API, on the model
     * and then on null devices. */
    /* Each measured loop follows a short one of the same calls that is not
     * counted: at 1k flows a loop lasts half a millisecond, and a cold
     * start (code, branch predictors, the previous phase's caches) would
     * weigh on the small sizes only.  The plugin's own loop comes first, so
     * that it does not inherit the heap that the model's gigabyte of rules
     * (put and deleted in the loop after it) leaves behind. */
    double warm_ns, warm_bytes;

    put_del_flows(ports, n_ports, MIN(n, 1000), true, &match, &actions,
                  &warm_ns, &warm_ns, &warm_bytes);
    put_del_flows(ports, n_ports, n, true, &match, &actions,
                  &r->pnull_ns, &r->pdel_ns, &r->pnull_bytes);
    put_del_flows(ports, n_ports, MIN(n, 1000), false, &match, &actions,
                  &warm_ns, &warm_ns, &warm_bytes);
    put_del_flows(ports, n_ports, n, false, &match, &actions,
                  &r->put_ns, &r->del_ns, &r->put_bytes);

    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

static int
compare_doubles(const void *a_, const void *b_)
{
    const double *a = a_, *b = b_;

    return *a < *b ? -1 : *a > *b;
}

static double
median(double *values, size_t n)
{
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Parses "a,b,c" into up to 'max' numbers; returns how many. */
static size_t
parse_list(const char *s, unsigned long long *values, size_t max)
{
    char *copy = xstrdup(s), *save = NULL;
    size_t n = 0;

    for (char *tok = strtok_r(copy, ",", &save); tok && n < max;
         tok = strtok_r(NULL, ",", &save)) {
        values[n++] = strtoull(tok, NULL, 10);
    }
    free(copy);
    return n;
}

#define MAX_SIZES 8
#define MAX_REPS 32

static void
bench_flows(int argc, char *argv[])
{
    unsigned long long sizes[MAX_SIZES] = { 1000, 100000, 1000000 };
    unsigned long long reps[MAX_SIZES] = { 5, 3, 1 };
    size_t n_sizes = 3, n_reps = 3;
    struct flows_result med[MAX_SIZES];
    struct bench_port *ports = NULL;
    size_t n_ports = 0;

    if (argc > 1) {
        n_sizes = parse_list(argv[1], sizes, MAX_SIZES);
    }
    if (argc > 2) {
        n_reps = parse_list(argv[2], reps, MAX_SIZES);
    }

    bench_init();
    printf("# 1 microbenchmark: per-flow cost, one process, NIC model; "
           "flows spread over ceil(N/%d) hw ports\n", FLOWS_PER_PORT);
    printf("# columns (ns/flow unless said): xlate = hw_translate_flow; "
           "null = translate+encode+install on a no-op device; model = "
           "the same on the NIC model; uninst = hw_flow_uninstall on the "
           "model; put/del = netdev_flow_put/del into the provider (model "
           "included); pnull/pdel = the same put/del on hw ports of null "
           "devices (the plugin's own work); bytes = heap growth per "
           "installed flow\n");
    printf("%-4s %8s %5s %4s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s "
           "%7s\n", "rep", "N", "ports", "#", "xlate", "null", "model",
           "uninst", "put", "del", "B_null", "B_model", "B_put", "pnull",
           "pdel", "B_pnull");

    for (size_t s = 0; s < n_sizes; s++) {
        uint32_t n = sizes[s];
        size_t need = DIV_ROUND_UP(n, FLOWS_PER_PORT);
        size_t r_count = MIN(s < n_reps ? reps[s] : reps[n_reps - 1],
                             MAX_REPS);
        struct flows_result res[MAX_REPS];
        double v[MAX_REPS];

        r_count = MAX(r_count, 1);
        while (n_ports < need) {
            char name[32], devname[32], null_devname[32];

            ports = xrealloc(ports, (n_ports + 1) * sizeof *ports);
            snprintf(name, sizeof name, "bench%"PRIuSIZE, n_ports);
            snprintf(devname, sizeof devname, "model%"PRIuSIZE, n_ports);
            snprintf(null_devname, sizeof null_devname,
                     NULL_DEV_PREFIX"model%"PRIuSIZE, 500 + n_ports);
            bench_port_open(&ports[n_ports], name, devname, null_devname,
                            2);
            n_ports++;
        }

        for (size_t r = 0; r < r_count; r++) {
            struct flows_result *x = &res[r];

            run_flows(ports, need, n, x);
            printf("%-4s %8"PRIu32" %5"PRIuSIZE" %4"PRIuSIZE
                   " %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f"
                   " %7.0f %7.0f %7.0f\n",
                   "rep", n, need, r + 1, x->xlate_ns, x->null_ns,
                   x->model_ns, x->uninstall_ns, x->put_ns, x->del_ns,
                   x->null_bytes, x->model_bytes, x->put_bytes,
                   x->pnull_ns, x->pdel_ns, x->pnull_bytes);
            fflush(stdout);
        }

#define MEDIAN_OF(FIELD)                                    \
        do {                                                \
            for (size_t r = 0; r < r_count; r++) {          \
                v[r] = res[r].FIELD;                        \
            }                                               \
            med[s].FIELD = median(v, r_count);              \
        } while (0)
        MEDIAN_OF(xlate_ns);
        MEDIAN_OF(null_ns);
        MEDIAN_OF(model_ns);
        MEDIAN_OF(uninstall_ns);
        MEDIAN_OF(put_ns);
        MEDIAN_OF(del_ns);
        MEDIAN_OF(null_bytes);
        MEDIAN_OF(model_bytes);
        MEDIAN_OF(put_bytes);
        MEDIAN_OF(pnull_ns);
        MEDIAN_OF(pdel_ns);
        MEDIAN_OF(pnull_bytes);
#undef MEDIAN_OF
        printf("%-4s %8"PRIu32" %5"PRIuSIZE" %4"PRIuSIZE
               " %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f"
               " %7.0f %7.0f %7.0f\n",
               "MED", n, need, r_count, med[s].xlate_ns, med[s].null_ns,
               med[s].model_ns, med[s].uninstall_ns, med[s].put_ns,
               med[s].del_ns, med[s].null_bytes, med[s].model_bytes,
               med[s].put_bytes, med[s].pnull_ns, med[s].pdel_ns,
               med[s].pnull_bytes);
        fflush(stdout);
    }

    /* The summary.  The plugin's own work is measured directly (pnull);
     * the NIC model stands in for the hardware, so the older estimate,
     * flow_put's cost without the model's (model - null), is printed
     * too. */
    printf("# plugin's own work per flow_put (plugin_ns) = pnull, per "
           "flow_del (plugin_del) = pdel; plugin bytes per flow = B_pnull; "
           "by subtraction: sub_ns = put - (model - null), sub_B = B_put - "
           "(B_model - B_null)\n");
    printf("%-8s %8s %10s %10s %10s %10s %12s %10s %10s %10s\n", "SUMMARY",
           "N", "put_ns", "hw_ns", "plugin_ns", "del_ns", "plugin_B",
           "plugin_del", "sub_ns", "sub_B");
    for (size_t s = 0; s < n_sizes; s++) {
        double hw_ns = med[s].model_ns - med[s].null_ns;
        double hw_bytes = med[s].model_bytes - med[s].null_bytes;

        printf("%-8s %8llu %10.0f %10.0f %10.0f %10.0f %12.0f %10.0f %10.0f "
               "%10.0f\n", "SUMMARY", sizes[s], med[s].put_ns, hw_ns,
               med[s].pnull_ns, med[s].del_ns, med[s].pnull_bytes,
               med[s].pdel_ns, med[s].put_ns - hw_ns,
               med[s].put_bytes - hw_bytes);
    }
    if (n_sizes > 1) {
        size_t l = n_sizes - 1;
        double hw0 = med[0].model_ns - med[0].null_ns;
        double hwl = med[l].model_ns - med[l].null_ns;

        printf("RATIO %llu/%llu: plugin put %.2fx, plugin del %.2fx, "
               "plugin put by subtraction %.2fx, put (model included) "
               "%.2fx, del %.2fx, model install %.2fx\n",
               sizes[l], sizes[0], med[l].pnull_ns / med[0].pnull_ns,
               med[l].pdel_ns / med[0].pdel_ns,
               (med[l].put_ns - hwl) / (med[0].put_ns - hw0),
               med[l].put_ns / med[0].put_ns,
               med[l].del_ns / med[0].del_ns,
               med[l].model_ns / med[0].model_ns);
    }

    for (size_t i = 0; i < n_ports; i++) {
        for (int q = 0; q < ports[i].n_rxq; q++) {
            netdev_rxq_close(ports[i].rxqs[q]);
        }
        free(ports[i].rxqs);
        netdev_close(ports[i].null_netdev);
        netdev_close(ports[i].netdev);
    }
    free(ports);
}

/* RSS spread. */

static struct dp_packet *
random_packet(void)
{
    struct dp_packet *packet = dp_packet_new(128);
    struct flow flow;

    memset(&flow, 0, sizeof flow);
    flow.dl_src = (struct eth_addr) ETH_ADDR_C(00, 00, 00, 00, 00, 01);
    flow.dl_dst = (struct eth_addr) ETH_ADDR_C(00, 00, 00, 00, 00, 02);
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_src = htonl(random_uint32());
    flow.nw_dst = htonl(random_uint32());
    flow.nw_proto = random_uint32() & 1 ? IPPROTO_TCP : IPPROTO_UDP;
    flow.nw_ttl = 64;
    flow.tp_src = htons(random_uint32());
    flow.tp_dst = htons(random_uint32());
    flow_compose(packet, &flow, NULL, 18);
    return packet;
}

/* Reads every packet queued on 'port', adding per-queue counts to
 * 'counts'. */
static void
drain_port(struct bench_port *port, uint64_t *counts)
{
    for (int q = 0; q < port->n_rxq; q++) {
        struct dp_packet_batch batch;

        dp_packet_batch_init(&batch);
        while (!netdev_rxq_recv(port->rxqs[q], &batch, NULL)) {
            counts[q] += dp_packet_batch_size(&batch);
            dp_packet_delete_batch(&batch, true);
            dp_packet_batch_init(&batch);
        }
    }
}

static void
bench_rss(int argc, char *argv[])
{
    static const int queue_counts[] = { 2, 4, 8 };
    unsigned int n_tuples = argc > 1 ? atoi(argv[1]) : 65536;
    unsigned int n_reps = argc > 2 ? atoi(argv[2]) : 5;
    double med[ARRAY_SIZE(queue_counts)];

    n_reps = MIN(MAX(n_reps, 1), MAX_REPS);
    bench_init();
    printf("# 5 RSS spread: %u random IPv4 TCP/UDP 5-tuples into the NIC "
           "model's wire, read from every receive queue; max/mean queue "
           "load (1.00 is perfect)\n", n_tuples);

    for (size_t k = 0; k < ARRAY_SIZE(queue_counts); k++) {
        int n_rxq = queue_counts[k];
        struct bench_port port;
        char name[32], devname[32];
        double v[MAX_REPS];

        snprintf(name, sizeof name, "rss%d", n_rxq);
        snprintf(devname, sizeof devname, "model%d", 1000 + n_rxq);
        bench_port_open(&port, name, devname, NULL, n_rxq);

        for (unsigned int r = 0; r < n_reps; r++) {
            uint64_t counts[64], total = 0, max = 0;
            struct ds s = DS_EMPTY_INITIALIZER;

            memset(counts, 0, sizeof counts);
            random_set_seed(r + 1);
            for (unsigned int i = 0; i < n_tuples; i++) {
                CHECK(!hw_model_receive(devname, random_packet()));
                if (i % 256 == 255) {
                    drain_port(&port, counts);
                }
            }
            drain_port(&port, counts);
            for (int q = 0; q < n_rxq; q++) {
                total += counts[q];
                max = MAX(max, counts[q]);
                ds_put_format(&s, " %"PRIu64, counts[q]);
            }
            CHECK(total == n_tuples);
            v[r] = (double) max / ((double) total / n_rxq);
            printf("rep queues=%d seed=%u max/mean=%.4f per-queue:%s\n",
                   n_rxq, r + 1, v[r], ds_cstr(&s));
            ds_destroy(&s);
        }
        med[k] = median(v, n_reps);
        printf("MED queues=%d reps=%u max/mean=%.4f\n", n_rxq, n_reps,
               med[k]);

        for (int q = 0; q < port.n_rxq; q++) {
            netdev_rxq_close(port.rxqs[q]);
        }
        free(port.rxqs);
        netdev_close(port.netdev);
    }
}

static void
test_hw_bench_main(int argc, char *argv[])
{
    const char *what = argc > 1 ? argv[1] : "flows";

    if (!strcmp(what, "flows")) {
        bench_flows(argc - 1, argv + 1);
    } else if (!strcmp(what, "rss")) {
        bench_rss(argc - 1, argv + 1);
    } else {
        ovs_fatal(0, "usage: ovstest test-hw-bench flows [N,...] [REPS,...]"
                  " | rss [N_TUPLES] [REPS]");
    }
}

OVSTEST_REGISTER("test-hw-bench", test_hw_bench_main);
