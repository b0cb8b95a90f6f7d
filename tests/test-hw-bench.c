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
 *       deleting them, on hw ports of the NIC model, in these layers:
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
 *                flow_put(), measured directly;
 *         pdr:   the same as pnull on hw ports with options:steering=dr,
 *                whose rules go to the pipeline of tables (hw-flow-dr.c):
 *                the null table's per-rule dr operations do nothing too,
 *                and the objects rules share (tables, matchers, the
 *                destination QP's action) are the model's.
 *       The model's cost is model - null, so the plugin's own cost of a
 *       flow_put() is also put - (model - null), printed next to pnull;
 *       that difference charges the plugin with the cache misses the
 *       model's memory causes in the plugin's code.  Memory: the growth
 *       of the heap in use (mallinfo2() uordblks + hblkhd: every live malloc
 *       chunk with its header, mapped ones included) across the N installs,
 *       per flow; B_pnull and B_pdr are the plugin's alone.
 *       A model device holds at most 65536 rules per priority, as mlx5
 *       does, so the flows are spread over ceil(N / 50000) hw ports
 *       (round-robin), one model device each, and as many hw ports on
 *       null devices of each steering.
 *       Every figure of the summaries is the median [lowest-highest] of
 *       its REPS repetitions.
 *
 *   ovstest test-hw-bench puts N verbs|dr [PUTS [ROUNDS]]
 *       The ports for N flows, the uncounted loop of 'flows', ROUNDS
 *       (default 0) uncounted puts and deletes of the N flows, then PUTS
 *       (default N) puts of the pnull (verbs) or pdr (dr) layer, and
 *       nothing else: for valgrind's cachegrind, which counts the cache
 *       misses of the put loop as the difference of a run with PUTS = N
 *       and one with PUTS = 0 (tools/bench.sh section 6).
 *
 *   ovstest test-hw-bench conns [N,N,...] [REPS,REPS,...]
 *       Conntrack offload (hw-ct.c): N UDP connections offered with
 *       hw_ct_conn_add(), as OVS's conntrack offers an established one,
 *       until hw-ct.c's thread has installed both directions in the
 *       connection tables of their hw ports (two ports with
 *       options:steering=dr, each with the stage flow
 *       ct(zone=5),recirc(0x1) that gives it the connection pipeline),
 *       then hw_ct_conn_del() of all until their rules are gone.  On hw
 *       ports of null devices (the null table's dr rules and counters:
 *       the plugin's own work) and on the NIC model.  Per connection: the
 *       caller's time in hw_ct_conn_add(), the CPU time of the whole
 *       process (the caller and the thread) until both rules are in and
 *       until they are gone, the heap growth while the N are held (every
 *       thread allocates from the main arena here), and connections per
 *       second of wall time.
 *
 *   ovstest test-hw-bench rss [N_TUPLES] [REPS]
 *       Sends N_TUPLES random TCP and UDP 5-tuples into the wire of hw
 *       ports with 2, 4 and 8 receive queues, reads every queue, and
 *       prints the max/mean queue load (median [lowest-highest] of REPS
 *       seeds).
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-ct.h"
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
#include "netlink.h"
#include "odp-netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovstest.h"
#include "packets.h"
#include "random.h"
#include "smap.h"
#include "test-hw-check.h"
#include "timeval.h"
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

/* The per-rule operations of the pipeline of tables, for hw ports with
 * options:steering=dr: a rule, its counter and the two actions that belong
 * to one rule (its flow's tag, since every flow has its own mark, and its
 * counter's action) are these objects, and creating or destroying them does
 * nothing.  The objects rules share (domains, tables, matchers, the
 * destination QP's action, the root rule's jump) are the NIC model's. */
static uint64_t null_dr_rule, null_dr_counter, null_dr_action;

/* The rules the null table holds: the 'conns' benchmark waits for the
 * thread of hw-ct.c to install or destroy its connections' rules. */
static atomic_count null_dr_rules = ATOMIC_COUNT_INIT(0);

static int
null_dr_rule_create(struct mlx5dv_dr_matcher *matcher OVS_UNUSED,
                    struct mlx5dv_flow_match_parameters *value OVS_UNUSED,
                    size_t n_actions OVS_UNUSED,
                    struct mlx5dv_dr_action *actions[] OVS_UNUSED,
                    struct mlx5dv_dr_rule **rulep)
{
    *rulep = (struct mlx5dv_dr_rule *) &null_dr_rule;
    atomic_count_inc(&null_dr_rules);
    return 0;
}

static int
null_dr_rule_destroy(struct mlx5dv_dr_rule *rule OVS_UNUSED)
{
    atomic_count_dec(&null_dr_rules);
    return 0;
}

static int
null_dr_action_create(struct mlx5dv_dr_domain *domain,
                      const struct hw_dr_action_attr *attr,
                      struct mlx5dv_dr_action **actionp)
{
    if (attr->type == HW_DR_ACTION_TAG
        || attr->type == HW_DR_ACTION_COUNTER) {
        *actionp = (struct mlx5dv_dr_action *) &null_dr_action;
        return 0;
    }
    return hw_model_ops.dr_action_create(domain, attr, actionp);
}

static int
null_dr_action_destroy(struct mlx5dv_dr_action *action)
{
    return (action == (struct mlx5dv_dr_action *) &null_dr_action
            ? 0 : hw_model_ops.dr_action_destroy(action));
}

static int
null_dr_counter_create(struct ibv_context *ctx OVS_UNUSED,
                       struct mlx5dv_devx_obj **counterp)
{
    *counterp = (struct mlx5dv_devx_obj *) &null_dr_counter;
    return 0;
}

static int
null_dr_counter_query(struct mlx5dv_devx_obj *counter OVS_UNUSED,
                      uint64_t *packets, uint64_t *bytes)
{
    *packets = *bytes = 0;
    return 0;
}

static int
null_dr_counter_destroy(struct mlx5dv_devx_obj *counter OVS_UNUSED)
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

/* The sets of hw ports a benchmark flow can be put on. */
enum bench_layer {
    LAYER_MODEL,        /* On the NIC model (put, del). */
    LAYER_NULL,         /* On null devices, verbs steering (pnull). */
    LAYER_DR,           /* On null devices, options:steering=dr (pdr). */
};

/* One hw port on its own model device and, for flows, one on each of two
 * null devices: with verbs steering and with the pipeline of tables. */
struct bench_port {
    struct netdev *netdev;
    struct netdev *null_netdev;     /* On device "null:model<N>". */
    struct netdev *dr_netdev;       /* On device "null:model<M>", dr. */
    struct netdev_hw_device dev;
    struct netdev_hw_device null_dev;
    struct ibv_qp *qp;              /* RSS QP for IPv4 UDP rules. */
    struct netdev_rxq **rxqs;
    int n_rxq;
};

static struct netdev *
bench_port_netdev(const struct bench_port *port, enum bench_layer layer)
{
    return (layer == LAYER_MODEL ? port->netdev
            : layer == LAYER_NULL ? port->null_netdev
            : port->dr_netdev);
}

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
    null_ops.dr_rule_create = null_dr_rule_create;
    null_ops.dr_rule_destroy = null_dr_rule_destroy;
    null_ops.dr_action_create = null_dr_action_create;
    null_ops.dr_action_destroy = null_dr_action_destroy;
    null_ops.dr_counter_create = null_dr_counter_create;
    null_ops.dr_counter_query = null_dr_counter_query;
    null_ops.dr_counter_destroy = null_dr_counter_destroy;
    null_ops.handles = null_handles;
    null_ops.open = null_open;
    hw_dev_register_backend(&null_ops);
    /* The capability check wants CAP_NET_RAW for any backend but the
     * model; the null device needs none. */
    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_FORCE_PRESENT);
}

/* Opens hw port 'name' on device 'devname' with 'n_rxq' receive queues and
 * options:steering='steering' if nonnull, as ovs-vswitchd would
 * (set_config, then reconfigure). */
static struct netdev *
bench_netdev_open(const char *name, const char *devname, int n_rxq,
                  const char *steering)
{
    struct smap args = SMAP_INITIALIZER(&args);
    struct netdev *netdev;
    char *errp = NULL;

    CHECK(!netdev_open(name, "hw", &netdev));
    smap_add(&args, "device", devname);
    smap_add_format(&args, "n_rxq", "%d", n_rxq);
    if (steering) {
        smap_add(&args, "steering", steering);
    }
    if (netdev_set_config(netdev, &args, &errp)) {
        ovs_fatal(0, "%s: set_config: %s", name, errp ? errp : "failed");
    }
    smap_destroy(&args);
    CHECK(!netdev_reconfigure(netdev));
    return netdev;
}

/* Opens hw port "'name''suffix'" on the null device 'devname' with the hw
 * flow API, and checks that its rules go where they should: to the null
 * table, and with 'steering' "dr" to a pipeline of tables. */
static struct netdev *
bench_null_open(const char *name, const char *suffix, const char *devname,
                int n_rxq, const char *steering)
{
    char *null_name = xasprintf("%s%s", name, suffix);
    struct netdev_hw_device dev;
    struct netdev *netdev;

    netdev = bench_netdev_open(null_name, devname, n_rxq, steering);
    CHECK(netdev_hw_get_device(netdev, &dev));
    CHECK(dev.ops == &null_ops);
    /* Every rule in the pipeline with "dr"; the root otherwise (the
     * default, "auto", takes the pipeline only for rules that need it,
     * which the benchmark's flows do not). */
    CHECK((dev.pipeline && !dev.pipeline_on_demand)
          == (steering && !strcmp(steering, "dr")));
    CHECK(!netdev_init_flow_api(netdev));
    free(null_name);
    return netdev;
}

/* Opens 'port': hw port 'name' on model device 'devname' with 'n_rxq'
 * receive queues and, if 'null_devname' and 'dr_devname' are nonnull, hw
 * ports "'name'n" on null device 'null_devname' and "'name'd" on null
 * device 'dr_devname' with options:steering=dr, all with the hw flow
 * API. */
static void
bench_port_open(struct bench_port *port, const char *name,
                const char *devname, const char *null_devname,
                const char *dr_devname, int n_rxq)
{
    bool offload = null_devname != NULL;

    memset(port, 0, sizeof *port);
    port->netdev = bench_netdev_open(name, devname, n_rxq, NULL);
    CHECK(netdev_hw_get_device(port->netdev, &port->dev));
    port->qp = netdev_hw_rss_qp(port->netdev, HW_RSS_IPV4_UDP);
    CHECK(port->qp);
    port->null_dev = port->dev;
    port->null_dev.ops = &null_ops;
    if (offload) {
        CHECK(!netdev_init_flow_api(port->netdev));
        port->null_netdev = bench_null_open(name, "n", null_devname, n_rxq,
                                            NULL);
        port->dr_netdev = bench_null_open(name, "d", dr_devname, n_rxq,
                                          "dr");
    }

    port->n_rxq = n_rxq;
    port->rxqs = xcalloc(n_rxq, sizeof *port->rxqs);
    for (int i = 0; i < n_rxq; i++) {
        CHECK(!netdev_rxq_open(port->netdev, &port->rxqs[i], i));
    }
}

static void
bench_port_close(struct bench_port *port)
{
    for (int q = 0; q < port->n_rxq; q++) {
        netdev_rxq_close(port->rxqs[q]);
    }
    free(port->rxqs);
    netdev_close(port->dr_netdev);
    netdev_close(port->null_netdev);
    netdev_close(port->netdev);
}

/* Grows 'ports' ('*n_ports' of them) to at least 'need' ports for flows:
 * port i on model device "model<i>", null device "null:model<10000+i>"
 * and, for dr, "null:model<20000+i>". */
static void
bench_ports_grow(struct bench_port **ports, size_t *n_ports, size_t need)
{
    while (*n_ports < need) {
        size_t i = *n_ports;
        char name[32], devname[32], null_devname[32], dr_devname[32];

        *ports = xrealloc(*ports, (i + 1) * sizeof **ports);
        snprintf(name, sizeof name, "bench%"PRIuSIZE, i);
        snprintf(devname, sizeof devname, "model%"PRIuSIZE, i);
        snprintf(null_devname, sizeof null_devname,
                 NULL_DEV_PREFIX"model%"PRIuSIZE, 10000 + i);
        snprintf(dr_devname, sizeof dr_devname,
                 NULL_DEV_PREFIX"model%"PRIuSIZE, 20000 + i);
        bench_port_open(&(*ports)[i], name, devname, null_devname,
                        dr_devname, 2);
        (*n_ports)++;
    }
}

/* The datapath flow 's' as dpif-netdev hands it to the provider. */
static void
odp_match(const char *s, struct match *match)
{
    struct ofpbuf key, mask;
    char *error = NULL;

    ofpbuf_init(&key, 0);
    ofpbuf_init(&mask, 0);
    if (odp_flow_from_string(s, NULL, &key, &mask, &error)) {
        ovs_fatal(0, "%s: %s", s, error);
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
}

/* The template flow as dpif-netdev hands it to the provider. */
static void
template_match(struct match *match, struct ofpbuf *actions)
{
    odp_match(flow_template, match);
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
    N_MEASURED,

    /* Derived from the columns above of the same repetition. */
    COL_HW = N_MEASURED, /* model - null: the model's own install. */
    COL_SUB,            /* put - (model - null). */
    COL_B_SUB,          /* B_put - (B_model - B_null). */
    N_COLS
};

static const char *const col_names[N_MEASURED] = {
    "xlate", "null", "model", "uninst", "put", "del", "B_null", "B_model",
    "B_put", "pnull", "pdel", "B_pnull", "pdr", "pdrdel", "B_pdr",
};

/* Puts flows 0...n-1 through OVS's offload API on the hw ports of 'ports'
 * of 'layer', round-robin.  Returns the time per put, and stores the heap
 * growth per installed flow into '*bytes' if 'bytes' is nonnull. */
static double
put_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
          enum bench_layer layer, struct match *match,
          const struct ofpbuf *actions, double *bytes)
{
    long long int m0 = heap_in_use();
    uint64_t t0 = now_ns();
    double ns;

    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        struct offload_info info = { .flow_mark = i + 1 };
        ovs_u128 ufid = ufid_i(i);
        int error;

        flow_i(match, i, i % n_ports + 1);
        /* No stats, as dpif-netdev's offload thread asks none. */
        error = netdev_flow_put(bench_port_netdev(port, layer), match,
                                actions->data, actions->size, &ufid, &info,
                                NULL);
        if (error) {
            ovs_fatal(0, "flow_put %"PRIu32": %s", i, ovs_strerror(error));
        }
    }
    ns = n ? (double) (now_ns() - t0) / n : 0;
    if (bytes) {
        *bytes = n ? (double) (heap_in_use() - m0) / n : 0;
    }
    return ns;
}

/* Deletes the flows that put_flows() put, and returns the time per
 * delete. */
static double
del_flows(struct bench_port *ports, size_t n_ports, uint32_t n,
          enum bench_layer layer)
{
    uint64_t t0 = now_ns();

    for (uint32_t i = 0; i < n; i++) {
        struct bench_port *port = &ports[i % n_ports];
        ovs_u128 ufid = ufid_i(i);

        CHECK(!netdev_flow_del(bench_port_netdev(port, layer), &ufid,
                               NULL));
    }
    return n ? (double) (now_ns() - t0) / n : 0;
}

/* Measures flow_put() and flow_del() of 'n' flows on 'layer' into
 * r[col_put], r[col_del] and r[col_bytes].  A short loop of the same calls
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

    put_flows(ports, n_ports, warm, layer, match, actions, NULL);
    del_flows(ports, n_ports, warm, layer);

    r[col_put] = put_flows(ports, n_ports, n, layer, match, actions,
                           &r[col_bytes]);
    r[col_del] = del_flows(ports, n_ports, n, layer);
}

/* Runs repetition 'rep' (from 0) at 'n' flows into 'r' (N_COLS
 * values). */
static void
run_flows(struct bench_port *ports, size_t n_ports, uint32_t n, size_t rep,
          double *r)
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
    r[COL_XLATE] = (double) (now_ns() - t0) / n;

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
        r[pass ? COL_MODEL : COL_NULL] = (double) (now_ns() - t0) / n;
        r[pass ? COL_B_MODEL : COL_B_NULL]
            = (double) (heap_in_use() - m0) / n;

        t0 = now_ns();
        for (uint32_t i = 0; i < n; i++) {
            struct bench_port *port = &ports[i % n_ports];

            hw_flow_uninstall(pass ? &port->dev : &port->null_dev,
                              &hw_flows[i], NULL);
        }
        if (pass) {
            r[COL_UNINST] = (double) (now_ns() - t0) / n;
        }
    }
    free(hw_flows);

    /* flow_put() and flow_del() through OVS's offload API: the plugin's
     * own work on null devices, verbs and dr side by side (in turns, the
     * one first in even repetitions and the other in odd ones, so that
     * neither always inherits the other's heap and caches), then on the
     * model.  The plugin's loops come first, so that they do not inherit
     * the heap that the model's gigabyte of rules (put and deleted in the
     * loop after them) leaves behind. */
    for (int k = 0; k < 2; k++) {
        if ((k + rep) % 2 == 0) {
            measure_put_del(ports, n_ports, n, LAYER_NULL, &match, &actions,
                            r, COL_PNULL, COL_PDEL, COL_B_PNULL);
        } else {
            measure_put_del(ports, n_ports, n, LAYER_DR, &match, &actions,
                            r, COL_PDR, COL_PDRDEL, COL_B_PDR);
        }
    }
    measure_put_del(ports, n_ports, n, LAYER_MODEL, &match, &actions, r,
                    COL_PUT, COL_DEL, COL_B_PUT);

    r[COL_HW] = r[COL_MODEL] - r[COL_NULL];
    r[COL_SUB] = r[COL_PUT] - r[COL_HW];
    r[COL_B_SUB] = r[COL_B_PUT] - (r[COL_B_MODEL] - r[COL_B_NULL]);

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

/* A figure over its repetitions: the median, and the spread as the lowest
 * and highest value. */
struct spread {
    double med, min, max;
};

static struct spread
spread_of(const double *values, size_t n)
{
    double *v = xmemdup(values, n * sizeof *values);
    struct spread s;

    s.med = median(v, n);
    s.min = v[0];
    s.max = v[n - 1];
    free(v);
    return s;
}

/* Appends "MED [MIN-MAX]" to 's' ("MED [MIN..MAX]" if MIN is negative,
 * as a difference of two measurements may be). */
static void
put_spread(struct ds *s, struct spread x)
{
    ds_put_format(s, "%.0f [%.0f%s%.0f]", x.med, x.min,
                  x.min < 0 ? ".." : "-", x.max);
}

/* Appends "Rx [LO-HI]" to 's': the ratio 'a' / 'b' of the medians, and
 * the range of the ratios of any of the values of 'a' to any of 'b'
 * ("[LO..HI]" if LO is negative). */
static void
put_ratio(struct ds *s, struct spread a, struct spread b)
{
    if (b.med > 0 && b.min > 0 && b.max > 0) {
        double lo = a.min / (a.min < 0 ? b.min : b.max);

        ds_put_format(s, "%.2fx [%.2f%s%.2f]", a.med / b.med, lo,
                      lo < 0 ? ".." : "-", a.max / b.min);
    } else {
        ds_put_cstr(s, "n/a");
    }
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

/* Prints "LABEL N" and the columns 'cols' of 'sp' as "MED [MIN-MAX]",
 * each padded to 18 characters. */
static void
print_spreads(const char *label, unsigned long long n,
              const struct spread *sp, const int *cols, size_t n_cols)
{
    struct ds line = DS_EMPTY_INITIALIZER;

    ds_put_format(&line, "%-8s %8llu", label, n);
    for (size_t i = 0; i < n_cols; i++) {
        size_t start;

        ds_put_char(&line, ' ');
        start = line.length;
        put_spread(&line, sp[cols[i]]);
        while (i + 1 < n_cols && line.length - start < 18) {
            ds_put_char(&line, ' ');
        }
    }
    puts(ds_cstr(&line));
    ds_destroy(&line);
}

/* Prints "LABEL L/F:" and, for each i < 'n', 'names[i]' and the ratio of
 * column 'cols[i]' at size 'l_n' ('l') to the same at size 'f_n' ('f'). */
static void
print_ratios(const char *label, unsigned long long l_n,
             unsigned long long f_n, const struct spread *l,
             const struct spread *f, const char *const names[],
             const int cols[], size_t n)
{
    struct ds line = DS_EMPTY_INITIALIZER;

    ds_put_format(&line, "%s %llu/%llu: ", label, l_n, f_n);
    for (size_t i = 0; i < n; i++) {
        ds_put_cstr(&line, names[i]);
        put_ratio(&line, l[cols[i]], f[cols[i]]);
    }
    puts(ds_cstr(&line));
    ds_destroy(&line);
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

/* Parses the sizes "N,N,..." of argv[1] and the repetitions "REPS,..."
 * of argv[2], if present, over the defaults in 'sizes' and 'reps'. */
static void
parse_sizes_reps(int argc, char *argv[], const char *what,
                 unsigned long long *sizes, size_t *n_sizes,
                 unsigned long long *reps, size_t *n_reps)
{
    if (argc > 1) {
        *n_sizes = parse_list(argv[1], sizes, MAX_SIZES);
    }
    if (argc > 2) {
        *n_reps = parse_list(argv[2], reps, MAX_SIZES);
    }
    if (!*n_sizes || !*n_reps) {
        ovs_fatal(0, "%s: no sizes or no repetitions", what);
    }
}

/* Stores into 'sp' the spread of each of the 'n_cols' columns over the
 * 'n_rows' rows of 'res' ('n_cols' values each, one row after the
 * other), and into rows[0], rows[1] and rows[2] ('n_cols' values each)
 * their medians, lowest and highest values. */
static void
spread_columns(const double *res, size_t n_rows, size_t n_cols,
               struct spread *sp, double *rows)
{
    for (size_t c = 0; c < n_cols; c++) {
        double v[MAX_REPS];

        for (size_t r = 0; r < n_rows; r++) {
            v[r] = res[r * n_cols + c];
        }
        sp[c] = spread_of(v, n_rows);
        rows[c] = sp[c].med;
        rows[n_cols + c] = sp[c].min;
        rows[2 * n_cols + c] = sp[c].max;
    }
}

static void
bench_flows(int argc, char *argv[])
{
    unsigned long long sizes[MAX_SIZES] = { 1000, 100000, 1000000 };
    unsigned long long reps[MAX_SIZES] = { 5, 3, 1 };
    size_t n_sizes = 3, n_reps = 3;
    static struct spread sp[MAX_SIZES][N_COLS];
    struct bench_port *ports = NULL;
    size_t n_ports = 0;

    parse_sizes_reps(argc, argv, "flows", sizes, &n_sizes, reps, &n_reps);

    bench_init();
    printf("# 1 microbenchmark: per-flow cost, one process, NIC model; "
           "flows spread over ceil(N/%d) hw ports\n", FLOWS_PER_PORT);
    printf("# columns (ns/flow unless said): xlate = hw_translate_flow; "
           "null = translate+encode+install on a no-op device; model = "
           "the same on the NIC model; uninst = hw_flow_uninstall on the "
           "model; put/del = netdev_flow_put/del into the provider (model "
           "included); pnull/pdel = the same put/del on hw ports of null "
           "devices (the plugin's own work); pdr/pdrdel = the same on hw "
           "ports of null devices with options:steering=dr (the plugin's "
           "own work on the pipeline of tables); B_* = heap growth per "
           "installed flow\n");
    printf("# rep rows: one repetition each; MED, MIN, MAX rows: the "
           "median, lowest and highest of the repetitions at that N\n");
    printf("%-4s %8s %5s %4s", "rep", "N", "ports", "#");
    for (int c = 0; c < N_MEASURED; c++) {
        printf(" %7s", col_names[c]);
    }
    putchar('\n');

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
            run_flows(ports, need, n, r, res[r]);
            print_row("rep", n, need, r + 1, res[r]);
        }

        spread_columns(&res[0][0], r_count, N_COLS, sp[s], &row[0][0]);
        print_row("MED", n, need, r_count, row[0]);
        print_row("MIN", n, need, r_count, row[1]);
        print_row("MAX", n, need, r_count, row[2]);
    }

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

        print_spreads("SUMMARY", sizes[s], sp[s], cols, ARRAY_SIZE(cols));
    }

    printf("# the plugin's own work (hw ports on null devices), verbs "
           "steering and the pipeline of tables (options:steering=dr) side "
           "by side: ns per flow_put (pnull, pdr), ns per flow_del (pdel, "
           "pdrdel), heap bytes per offloaded flow (B_pnull, B_pdr)\n");
    printf("%-8s %8s %-18s %-18s %-18s %-18s %-18s %s\n", "PLUGIN", "N",
           "verbs_put", "verbs_del", "verbs_B", "dr_put", "dr_del", "dr_B");
    for (size_t s = 0; s < n_sizes; s++) {
        static const int cols[] = { COL_PNULL, COL_PDEL, COL_B_PNULL,
                                    COL_PDR, COL_PDRDEL, COL_B_PDR };

        print_spreads("PLUGIN", sizes[s], sp[s], cols, ARRAY_SIZE(cols));
    }

    if (n_sizes > 1) {
        static const char *const names[] = {
            "put (model included) ", ", del ", ", model install ",
            ", plugin put by subtraction ",
        };
        static const int cols[] = { COL_PUT, COL_DEL, COL_MODEL, COL_SUB };
        static const char *const pnames[] = {
            "put verbs ", " dr ", "; del verbs ", " dr ", "; bytes verbs ",
            " dr ",
        };
        static const int pcols[] = { COL_PNULL, COL_PDR, COL_PDEL,
                                     COL_PDRDEL, COL_B_PNULL, COL_B_PDR };

        print_ratios("RATIO", sizes[n_sizes - 1], sizes[0],
                     sp[n_sizes - 1], sp[0], names, cols, ARRAY_SIZE(cols));
        print_ratios("RATIO-PLUGIN", sizes[n_sizes - 1], sizes[0],
                     sp[n_sizes - 1], sp[0], pnames, pcols,
                     ARRAY_SIZE(pcols));
    }
    fflush(stdout);

    for (size_t i = 0; i < n_ports; i++) {
        bench_port_close(&ports[i]);
    }
    free(ports);
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
 * then 'n_put' puts on null devices with verbs or dr steering, and nothing
 * more (the flows are not deleted).  A run with 'n_put' 0 does all the
 * rest, so the difference between the two is the put loop's. */
static void
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
    } else {
        ovs_fatal(0, "puts: steering must be verbs or dr");
    }
    if (!n || n_put > n) {
        ovs_fatal(0, "puts: N must be positive and PUTS at most N");
    }

    bench_init();
    bench_ports_grow(&ports, &n_ports, DIV_ROUND_UP(n, FLOWS_PER_PORT));
    template_match(&match, &actions);
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
        ovs_u128 ufid = ufid_i(odp0 + k);
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
        CHECK((dev.ops == &null_ops) == null);
        CHECK(dev.pipeline && !dev.pipeline_on_demand);
        CHECK(!netdev_init_flow_api(pair->netdev[k]));

        flow = xasprintf("recirc_id(0),in_port(%"PRIu32"),"
                         "eth_type(0x0800),ipv4(frag=no)", odp0 + k);
        odp_match(flow, &match);
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
        ovs_u128 ufid = ufid_i(odp_to_u32(pair->odp[k]));

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
        return atomic_count_get(&null_dr_rules);
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

    m0 = heap_in_use();
    w0 = wall_ns();
    p0 = process_ns();
    t0 = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        if (!hw_ct_conn_add(&infos[i])) {
            ovs_fatal(0, "hw_ct_conn_add %"PRIu32" refused", i);
        }
    }
    t1 = now_ns();
    ct_wait_rules(pair, base + 2 * n);
    r[CT_CONN] = (double) (process_ns() - p0) / n;
    r[CT_RATE] = n / ((wall_ns() - w0) / 1e9);
    r[CT_ADD] = (double) (t1 - t0) / n;
    r[CT_B] = (double) (heap_in_use() - m0) / n;

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

static void
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

    parse_sizes_reps(argc, argv, "conns", sizes, &n_sizes, reps, &n_reps);

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

        spread_columns(&res[0][0], r_count, N_CT_COLS, sp[s], &row[0][0]);
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
            print_spreads(label, sizes[s], sp[s], cols[layer], N_CT_LAYER);
        }
    }
    if (n_sizes > 1) {
        static const char *const names[] = {
            "conn plugin ", ", model ", "; bytes plugin ", ", model ",
        };
        static const int cols[] = { 1, 7, 3, 9 };

        print_ratios("RATIO-CONNS", sizes[n_sizes - 1], sizes[0],
                     sp[n_sizes - 1], sp[0], names, cols,
                     ARRAY_SIZE(cols));
    }
    fflush(stdout);

    ct_pair_close(&pairs[1]);
    ct_pair_close(&pairs[0]);
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

    n_reps = MIN(MAX(n_reps, 1), MAX_REPS);
    bench_init();
    printf("# 5 RSS spread: %u random IPv4 TCP/UDP 5-tuples into the NIC "
           "model's wire, read from every receive queue; max/mean queue "
           "load (1.00 is perfect); MED: median [lowest-highest] of the "
           "seeds\n", n_tuples);

    for (size_t k = 0; k < ARRAY_SIZE(queue_counts); k++) {
        int n_rxq = queue_counts[k];
        struct bench_port port;
        char name[32], devname[32];
        double v[MAX_REPS];
        struct spread sp;

        snprintf(name, sizeof name, "rss%d", n_rxq);
        snprintf(devname, sizeof devname, "model%d", 1000 + n_rxq);
        bench_port_open(&port, name, devname, NULL, NULL, n_rxq);

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
        sp = spread_of(v, n_reps);
        printf("MED queues=%d reps=%u max/mean=%.4f [%.4f-%.4f]\n", n_rxq,
               n_reps, sp.med, sp.min, sp.max);

        bench_port_close(&port);
    }
}

static void
test_hw_bench_main(int argc, char *argv[])
{
    const char *what = argc > 1 ? argv[1] : "flows";

    if (!strcmp(what, "flows")) {
        bench_flows(argc - 1, argv + 1);
    } else if (!strcmp(what, "puts")) {
        bench_puts(argc - 1, argv + 1);
    } else if (!strcmp(what, "rss")) {
        bench_rss(argc - 1, argv + 1);
    } else if (!strcmp(what, "conns")) {
        bench_conns(argc - 1, argv + 1);
    } else {
        ovs_fatal(0, "usage: ovstest test-hw-bench flows [N,...] [REPS,...]"
                  " | puts N verbs|dr [PUTS [ROUNDS]]"
                  " | rss [N_TUPLES] [REPS]"
                  " | conns [N,...] [REPS,...]");
    }
}

OVSTEST_REGISTER("test-hw-bench", test_hw_bench_main);
