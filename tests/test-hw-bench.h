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

/* The parts of the microbenchmark (test-hw-bench.c) that its modes share:
 * the null devices, the hw ports flows are put on, the benchmark flow, the
 * clocks and the statistics over repetitions. */

#ifndef TEST_HW_BENCH_H
#define TEST_HW_BENCH_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw-dev.h"
#include "netdev-hw.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/types.h"
#include "ovs-atomic.h"

struct match;
struct netdev;
struct netdev_rxq;

/* Rules per hw port (model device): below the model's 65536 per priority
 * table. */
#define FLOWS_PER_PORT 50000

/* The null table as a backend of hw ports: "null:model<N>" is model
 * device "model<N>" (whose queues and RSS QPs the port uses) with the
 * null table's rules and counters. */
#define NULL_DEV_PREFIX "null:"

/* The same for a null device in switchdev mode, whose dr rules are also
 * counted by domain: "null-esw:model<N>". */
#define ESW_DEV_PREFIX "null-esw:"

/* The sets of hw ports a benchmark flow can be put on. */
enum bench_layer {
    LAYER_MODEL,        /* On the NIC model (put, del). */
    LAYER_NULL,         /* On null devices, verbs steering (pnull). */
    LAYER_DR,           /* On null devices, options:steering=dr (pdr). */
    LAYER_ESW,          /* On representors of null devices in switchdev
                         * mode, flows to the FDB (pesw). */
};

/* One hw port on its own model device and, for flows, one on each of two
 * null devices: with verbs steering and with the pipeline of tables; and
 * two representors of a null device in switchdev mode, whose flows go from
 * the first to the second. */
struct bench_port {
    struct netdev *netdev;
    struct netdev *null_netdev;     /* On device "null:model<N>". */
    struct netdev *dr_netdev;       /* On device "null:model<M>", dr. */
    struct netdev *esw_netdev;      /* VF 0's representor. */
    struct netdev *esw_peer;        /* VF 1's, datapath port 'esw_odp'. */
    odp_port_t esw_odp;
    struct ofpbuf esw_actions;      /* Output to 'esw_odp'. */
    struct netdev_hw_device dev;
    struct netdev_hw_device null_dev;
    struct ibv_qp *qp;              /* RSS QP for IPv4 UDP rules. */
    struct netdev_rxq **rxqs;
    int n_rxq;
};

/* A figure over its repetitions: the median, and the spread as the lowest
 * and highest value. */
struct spread {
    double med, min, max;
};

#define MAX_SIZES 8
#define MAX_REPS 32

/* Clocks: CPU time of the calling thread, and the heap in use. */
uint64_t bench_now_ns(void);
long long int bench_heap_in_use(void);

/* The null table's backend (test-hw-bench-common.c), and the rules its
 * devices hold. */
extern struct hw_dev_ops bench_null_ops;
extern atomic_count bench_null_dr_rules;

/* The model device name of 'devname' if it is 'prefix' followed by one,
 * else NULL. */
const char *bench_model_of(const char *devname, const char *prefix);

/* The null backend of devices in switchdev mode, and the rules of the FDB
 * domain its devices hold. */
extern struct hw_dev_ops bench_null_esw_ops;
extern atomic_count bench_null_fdb_rules;

/* test-hw-bench-esw.c: registers the backend; opens and closes the
 * e-switch ports of a bench port, on device 'devname' ("null-esw:..."),
 * the second one datapath port 'peer_odp'. */
void bench_esw_init(void);
void bench_esw_open(struct bench_port *, const char *name,
                    const char *devname, int n_rxq, uint32_t peer_odp);
void bench_esw_close(struct bench_port *);

void bench_init(void);
struct netdev *bench_netdev_open(const char *name, const char *devname,
                                 int n_rxq, const char *steering);
struct netdev *bench_netdev_open_rep(const char *name, const char *devname,
                                     int n_rxq, const char *representor);
void bench_port_open(struct bench_port *, const char *name,
                     const char *devname, const char *null_devname,
                     const char *dr_devname, int n_rxq);
void bench_port_close(struct bench_port *);
void bench_ports_grow(struct bench_port **ports, size_t *n_ports,
                      size_t need);
struct netdev *bench_port_netdev(const struct bench_port *,
                                 enum bench_layer);

/* The benchmark's datapath flows. */
void bench_odp_match(const char *s, struct match *);
void bench_template_match(struct match *, struct ofpbuf *actions);
void bench_flow_i(struct match *, uint32_t i, uint32_t port_no);
ovs_u128 bench_ufid_i(uint32_t i);

/* Statistics over the repetitions. */
struct spread bench_spread_of(const double *values, size_t n);
void bench_print_spreads(const char *label, unsigned long long n,
                         const struct spread *, const int *cols,
                         size_t n_cols);
void bench_print_ratios(const char *label, unsigned long long l_n,
                        unsigned long long f_n, const struct spread *l,
                        const struct spread *f, const char *const names[],
                        const int cols[], size_t n);
void bench_parse_sizes_reps(int argc, char *argv[], const char *what,
                            unsigned long long *sizes, size_t *n_sizes,
                            unsigned long long *reps, size_t *n_reps);
void bench_spread_columns(const double *res, size_t n_rows, size_t n_cols,
                          struct spread *, double *rows);

/* The modes. */
void bench_flows(int argc, char *argv[]);
void bench_eswitch(int argc, char *argv[]);
void bench_puts(int argc, char *argv[]);
void bench_conns(int argc, char *argv[]);
void bench_rss(int argc, char *argv[]);

#endif /* test-hw-bench.h */
