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

/* What the modes of the microbenchmark share (test-hw-bench.h). */

#include <config.h>
#undef NDEBUG
#include "test-hw-bench.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw-model.h"
#include "hw-privileges.h"
#include "netdev.h"
#include "netdev-offload.h"
#include "netdev-offload-hw.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "smap.h"
#include "test-hw-check.h"
#include "util.h"

/* The datapath flow every benchmark flow is a copy of, with its own IPv4
 * source address: what tools/bench.sh adds with dpctl/add-flow. */
static const char flow_template[] =
    "in_port(1),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),"
    "eth_type(0x0800),ipv4(src=10.0.0.1,dst=192.168.0.1,proto=17,frag=no),"
    "udp(src=1000,dst=2000)";

/* CPU time of the calling thread: the benchmark is single-threaded, and
 * CPU time does not count the time other processes of a busy host take
 * from it (wall time would). */
uint64_t
bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Bytes of heap in use: every live malloc chunk with its header, including
 * the large ones malloc maps on their own (a big hash table's buckets). */
long long int
bench_heap_in_use(void)
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
atomic_count bench_null_dr_rules = ATOMIC_COUNT_INIT(0);

static int
null_dr_rule_create(struct mlx5dv_dr_matcher *matcher OVS_UNUSED,
                    struct mlx5dv_flow_match_parameters *value OVS_UNUSED,
                    size_t n_actions OVS_UNUSED,
                    struct mlx5dv_dr_action *actions[] OVS_UNUSED,
                    struct mlx5dv_dr_rule **rulep)
{
    *rulep = (struct mlx5dv_dr_rule *) &null_dr_rule;
    atomic_count_inc(&bench_null_dr_rules);
    return 0;
}

static int
null_dr_rule_destroy(struct mlx5dv_dr_rule *rule OVS_UNUSED)
{
    atomic_count_dec(&bench_null_dr_rules);
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

const char *
bench_model_of(const char *devname, const char *prefix)
{
    size_t n = strlen(prefix);

    return (!strncmp(devname, prefix, n) && hw_model_ops.handles(devname + n)
            ? devname + n : NULL);
}

static bool
null_handles(const char *devname)
{
    return bench_model_of(devname, NULL_DEV_PREFIX) != NULL;
}

static int
null_open(const char *devname, struct ibv_context **ctxp)
{
    return hw_model_ops.open(bench_model_of(devname, NULL_DEV_PREFIX), ctxp);
}

struct hw_dev_ops bench_null_ops;

struct netdev *
bench_port_netdev(const struct bench_port *port, enum bench_layer layer)
{
    return (layer == LAYER_MODEL ? port->netdev
            : layer == LAYER_NULL ? port->null_netdev
            : layer == LAYER_DR ? port->dr_netdev
            : port->esw_netdev);
}

void
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

    bench_null_ops = hw_model_ops;
    bench_null_ops.name = "null";
    bench_null_ops.create_counters = null_create_counters;
    bench_null_ops.attach_counters = null_attach_counters;
    bench_null_ops.read_counters = null_read_counters;
    bench_null_ops.destroy_counters = null_destroy_counters;
    bench_null_ops.create_flow = null_create_flow;
    bench_null_ops.destroy_flow = null_destroy_flow;
    bench_null_ops.dr_rule_create = null_dr_rule_create;
    bench_null_ops.dr_rule_destroy = null_dr_rule_destroy;
    bench_null_ops.dr_action_create = null_dr_action_create;
    bench_null_ops.dr_action_destroy = null_dr_action_destroy;
    bench_null_ops.dr_counter_create = null_dr_counter_create;
    bench_null_ops.dr_counter_query = null_dr_counter_query;
    bench_null_ops.dr_counter_destroy = null_dr_counter_destroy;
    bench_null_ops.handles = null_handles;
    bench_null_ops.open = null_open;
    hw_dev_register_backend(&bench_null_ops);
    bench_esw_init();
    /* The capability check wants CAP_NET_RAW for any backend but the
     * model; the null device needs none. */
    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_FORCE_PRESENT);
}

/* Opens hw port 'name' on device 'devname' with 'n_rxq' receive queues,
 * options:steering='steering' and options:representor='representor' if
 * nonnull, as ovs-vswitchd would (set_config, then reconfigure). */
static struct netdev *
bench_netdev_open__(const char *name, const char *devname, int n_rxq,
                    const char *steering, const char *representor)
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
    if (representor) {
        smap_add(&args, "representor", representor);
    }
    if (netdev_set_config(netdev, &args, &errp)) {
        ovs_fatal(0, "%s: set_config: %s", name, errp ? errp : "failed");
    }
    smap_destroy(&args);
    CHECK(!netdev_reconfigure(netdev));
    return netdev;
}

struct netdev *
bench_netdev_open(const char *name, const char *devname, int n_rxq,
                  const char *steering)
{
    return bench_netdev_open__(name, devname, n_rxq, steering, NULL);
}

struct netdev *
bench_netdev_open_rep(const char *name, const char *devname, int n_rxq,
                      const char *representor)
{
    return bench_netdev_open__(name, devname, n_rxq, NULL, representor);
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
    CHECK(dev.ops == &bench_null_ops);
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
void
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
    port->null_dev.ops = &bench_null_ops;
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

void
bench_port_close(struct bench_port *port)
{
    for (int q = 0; q < port->n_rxq; q++) {
        netdev_rxq_close(port->rxqs[q]);
    }
    free(port->rxqs);
    bench_esw_close(port);
    netdev_close(port->dr_netdev);
    netdev_close(port->null_netdev);
    netdev_close(port->netdev);
}

/* Grows 'ports' ('*n_ports' of them) to at least 'need' ports for flows:
 * port i on model device "model<i>", null device "null:model<10000+i>",
 * for dr "null:model<20000+i>" and, for the e-switch,
 * "null-esw:model<30000+i>", whose VF 1 representor is datapath port
 * 1000 + i. */
void
bench_ports_grow(struct bench_port **ports, size_t *n_ports, size_t need)
{
    while (*n_ports < need) {
        size_t i = *n_ports;
        char name[32], devname[32], null_devname[32], dr_devname[32];
        char esw_devname[32];

        *ports = xrealloc(*ports, (i + 1) * sizeof **ports);
        snprintf(name, sizeof name, "bench%"PRIuSIZE, i);
        snprintf(devname, sizeof devname, "model%"PRIuSIZE, i);
        snprintf(null_devname, sizeof null_devname,
                 NULL_DEV_PREFIX"model%"PRIuSIZE, 10000 + i);
        snprintf(dr_devname, sizeof dr_devname,
                 NULL_DEV_PREFIX"model%"PRIuSIZE, 20000 + i);
        snprintf(esw_devname, sizeof esw_devname,
                 ESW_DEV_PREFIX"model%"PRIuSIZE, 30000 + i);
        bench_port_open(&(*ports)[i], name, devname, null_devname,
                        dr_devname, 2);
        bench_esw_open(&(*ports)[i], name, esw_devname, 2, 1000 + i);
        (*n_ports)++;
    }
}

/* The datapath flow 's' as dpif-netdev hands it to the provider. */
void
bench_odp_match(const char *s, struct match *match)
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
void
bench_template_match(struct match *match, struct ofpbuf *actions)
{
    bench_odp_match(flow_template, match);
    ofpbuf_init(actions, 0);
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, 2);
}

/* Makes 'match' flow number 'i' (from 0) of port 'port_no'. */
void
bench_flow_i(struct match *match, uint32_t i, uint32_t port_no)
{
    match->flow.nw_src = htonl((10u << 24) + i + 1);
    match->flow.in_port.odp_port = u32_to_odp(port_no);
}

ovs_u128
bench_ufid_i(uint32_t i)
{
    ovs_u128 ufid = { .u64 = { .lo = 0x6f6c666863656e62ULL + i,
                               .hi = i * 0x9e3779b97f4a7c15ULL } };
    return ufid;
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

struct spread
bench_spread_of(const double *values, size_t n)
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

/* Prints "LABEL N" and the columns 'cols' of 'sp' as "MED [MIN-MAX]",
 * each padded to 18 characters. */
void
bench_print_spreads(const char *label, unsigned long long n,
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
void
bench_print_ratios(const char *label, unsigned long long l_n,
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

/* Parses the sizes "N,N,..." of argv[1] and the repetitions "REPS,..."
 * of argv[2], if present, over the defaults in 'sizes' and 'reps'. */
void
bench_parse_sizes_reps(int argc, char *argv[], const char *what,
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
void
bench_spread_columns(const double *res, size_t n_rows, size_t n_cols,
                     struct spread *sp, double *rows)
{
    for (size_t c = 0; c < n_cols; c++) {
        double v[MAX_REPS];

        for (size_t r = 0; r < n_rows; r++) {
            v[r] = res[r * n_cols + c];
        }
        sp[c] = bench_spread_of(v, n_rows);
        rows[c] = sp[c].med;
        rows[n_cols + c] = sp[c].min;
        rows[2 * n_cols + c] = sp[c].max;
    }
}
