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

#ifndef HW_DEV_H
#define HW_DEV_H 1

/* Device operations: the verbs calls the plugin makes, as one table.
 *
 * Every backend (the NIC model, rdma-core + libmlx5, hbl) fills the same
 * table and nothing above this layer asks which backend it is talking to.
 * The objects are rdma-core's own types (struct ibv_qp, struct ibv_flow_attr,
 * ...), so the bytes of a steering rule handed to create_flow() are the same
 * whichever backend receives them.  A backend that is a software model
 * allocates its own objects that embed the rdma-core struct.
 *
 * Every function returns 0 or a positive errno value, the errno the real
 * library would have set. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
#include "openvswitch/types.h"
#include "packets.h"

struct dp_packet_batch;
struct hbldv_encap;
struct hbldv_encap_attr;
struct hbldv_qp_attr;
struct hbldv_query_port_attr;
struct hw_fwdump_reg;

/* What a device can do, read once at open. */
struct hw_dev_caps {
    bool flow_steering;          /* IBV_DEVICE_MANAGED_FLOW_STEERING. */
    bool counters;               /* ibv_counters with flows. */
    bool raw_packet_qp;          /* IBV_QPT_RAW_PACKET supported. */
    uint16_t max_flow_priority;  /* Highest verbs priority (15 on mlx5). */
    uint16_t max_flow_specs;     /* Specs per rule (10 on 6.1 kernels). */
    uint32_t max_rules;          /* Rules per priority table. */
    uint32_t max_rwq_ind_log;    /* log2 of max indirection table size. */
    uint32_t max_wqs;            /* RX work queues. */
    uint64_t rx_hash_fields;     /* Supported IBV_RX_HASH_* bits. */
    uint32_t reformat_types;     /* 1 << MLX5DV_..._REFORMAT_TYPE_* bits. */
    uint32_t max_encap_header;   /* Bytes, 0 if no encap. */
    uint8_t phys_port_cnt;       /* Ports, numbered from 1. */
    struct eth_addr mac;         /* Port 1 MAC address. */
    int mtu;                     /* Port 1 MTU. */
    char fw_ver[64];             /* Firmware version string. */
    bool qp_encap;               /* hbl: encapsulation per send QP
                                  * (hw_dev_ops' create_encap and
                                  * hbl_modify_qp work). */
};

/* One received packet's hardware metadata is stored into the dp_packet
 * itself by rx_burst(): dp_packet_set_flow_mark() for a non-zero flow tag
 * and dp_packet_set_rss_hash() for the Toeplitz hash. */
struct hw_dev_ops {
    const char *name;            /* "model", "rdma", "hbl". */

    /* Returns true if this backend drives the device named 'devname'. */
    bool (*handles)(const char *devname);

    int (*open)(const char *devname, struct ibv_context **);
    void (*close)(struct ibv_context *);
    int (*query_caps)(struct ibv_context *, struct hw_dev_caps *);

    int (*alloc_pd)(struct ibv_context *, struct ibv_pd **);
    int (*dealloc_pd)(struct ibv_pd *);

    /* Extended CQ created with IBV_WC_EX_WITH_FLOW_TAG. */
    int (*create_cq)(struct ibv_context *, int cqe, struct ibv_cq_ex **);
    int (*destroy_cq)(struct ibv_cq_ex *);

    /* RSS: one WQ per RX queue, an indirection table, a hash QP. */
    int (*create_wq)(struct ibv_context *, struct ibv_wq_init_attr *,
                     struct ibv_wq **);
    int (*modify_wq)(struct ibv_wq *, struct ibv_wq_attr *);
    int (*destroy_wq)(struct ibv_wq *);
    int (*create_rwq_ind_table)(struct ibv_context *,
                                struct ibv_rwq_ind_table_init_attr *,
                                struct ibv_rwq_ind_table **);
    int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *);

    /* RSS QPs (IND_TABLE + RX_HASH) and the raw packet QP used to send. */
    int (*create_qp)(struct ibv_context *, struct ibv_qp_init_attr_ex *,
                     struct ibv_qp **);
    int (*destroy_qp)(struct ibv_qp *);

    /* Steering rules: 'attr' is the byte layout libibverbs consumes (specs
     * back to back after the 20-byte header, no padding). */
    int (*create_flow)(struct ibv_qp *, struct ibv_flow_attr *,
                       struct ibv_flow **);
    int (*destroy_flow)(struct ibv_flow *);

    /* Counters: static attach, PACKETS at index 0 and BYTES at index 1. */
    int (*create_counters)(struct ibv_context *, struct ibv_counters **);
    int (*attach_counters)(struct ibv_counters *,
                           struct ibv_counter_attach_attr *);
    int (*read_counters)(struct ibv_counters *, uint64_t *values,
                         uint32_t n_values);
    int (*destroy_counters)(struct ibv_counters *);

    /* mlx5dv packet reformat (tunnel decap/encap). */
    int (*create_reformat)(struct ibv_context *, size_t data_sz, void *data,
                           enum mlx5dv_flow_action_packet_reformat_type,
                           enum mlx5dv_flow_table_type,
                           struct ibv_flow_action **);
    int (*destroy_action)(struct ibv_flow_action *);

    /* Datapath.  rx_burst() appends up to the batch's free room of packets
     * received on 'wq' to 'batch' and returns 0, or EAGAIN if there were
     * none.  tx_burst() sends every packet of 'batch' on the raw packet QP
     * 'qp' and frees them; it returns the number of packets dropped. */
    int (*rx_burst)(struct ibv_wq *, struct ibv_cq_ex *,
                    struct dp_packet_batch *);
    int (*tx_burst)(struct ibv_qp *, struct dp_packet_batch *);

    /* Firmware dump, with FreeBSD mlx5io's semantics (the contract is in
     * hw-fwdump.h): force captures the one dump (EEXIST if held, EIO if the
     * device cannot dump); get with 'buf' NULL stores the register count in
     * '*n_filled', otherwise copies up to 'n' registers (ENOENT without a
     * dump); reset discards it.  NULL if the backend cannot dump. */
    int (*fwdump_force)(struct ibv_context *);
    int (*fwdump_get)(struct ibv_context *, struct hw_fwdump_reg *buf,
                      size_t n, size_t *n_filled);
    int (*fwdump_reset)(struct ibv_context *);

    /* hbl per-QP encapsulation (hw-apis.md section 5), with the semantics
     * of libhbl's hbldv_create_encap(), hbldv_destroy_encap(),
     * hbldv_modify_qp() and hbldv_query_port() (declared in hw-hbldv.h).
     * NULL if the device has none: then tunnel push is done by egress rules
     * with a packet reformat instead (hw-hbl.h says which to use). */
    int (*create_encap)(struct ibv_context *, struct hbldv_encap_attr *,
                        struct hbldv_encap **);
    int (*destroy_encap)(struct hbldv_encap *);
    int (*hbl_modify_qp)(struct ibv_qp *, struct ibv_qp_attr *,
                         int attr_mask, struct hbldv_qp_attr *);
    int (*hbl_query_port)(struct ibv_context *, uint32_t port_num,
                          struct hbldv_query_port_attr *);
};

/* Returns the backend that drives 'devname', or NULL if none does. */
const struct hw_dev_ops *hw_dev_ops_find(const char *devname);

/* Makes hw_dev_ops_find() ask 'ops' (whose handles() must be set) before
 * the built-in backends, for the rest of the process: for tests and
 * benchmarks that give hw ports a device-ops table of their own.  At most
 * 4 such backends. */
void hw_dev_register_backend(const struct hw_dev_ops *ops);

/* The backends.  'hw_model_ops' is always built in. */
extern const struct hw_dev_ops hw_model_ops;

#endif /* hw-dev.h */
