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
struct mlx5dv_devx_obj;

/* The pipeline of tables, with mlx5dv_dr's semantics (hw-apis.md 3.4).
 *
 * A domain (NIC RX, NIC TX, FDB) holds tables with levels; level 0 is the
 * root (the table verbs rules live in, firmware steered), deeper levels are
 * reached only by a dest_table action of a shallower table of the same
 * domain.  A matcher is a mask shape with a priority in one table (lower
 * priorities are matched first); a rule is a value under a matcher and an
 * ordered list of actions, which must follow the action-order rule:
 * decap -> pop VLAN / modify header -> push VLAN -> encap -> one terminal
 * action (QP, table, vport, several destinations, drop, default miss); tag
 * and counter anywhere before the terminal.  Masks and values are PRM
 * fte_match_param bytes (mlx5dv_flow_match_parameters), so every backend
 * receives the bytes a real device would. */
#define HW_DR_N_DOMAINS 3       /* MLX5DV_DR_DOMAIN_TYPE_NIC_RX..FDB. */

/* Sections of fte_match_param, the bits of match_criteria_enable. */
enum hw_dr_match_section {
    HW_DR_MATCH_OUTER,          /* Outer L2-L4 (64 bytes at 0). */
    HW_DR_MATCH_MISC,           /* Source port/vport, second VLAN, tunnel
                                 * keys (64 bytes at 64). */
    HW_DR_MATCH_INNER,          /* Inner L2-L4 (64 bytes at 128). */
    HW_DR_MATCH_MISC2,          /* Metadata registers (64 bytes at 192). */
    HW_DR_MATCH_MISC3,          /* TCP seq/ack, ICMP, Geneve TLV (at 256). */
};
#define HW_DR_MATCH_MAX_SIZE 448    /* 7 sections of 64 bytes. */

/* The actions a pipeline rule can hold, one per mlx5dv_dr_action_create_*
 * call the plugin makes. */
enum hw_dr_action_type {
    HW_DR_ACTION_DROP,
    HW_DR_ACTION_DEFAULT_MISS,
    HW_DR_ACTION_TAG,           /* NIC RX only. */
    HW_DR_ACTION_DEST_QP,       /* NIC RX only. */
    HW_DR_ACTION_DEST_TABLE,
    HW_DR_ACTION_DEST_VPORT,    /* FDB only. */
    HW_DR_ACTION_DEST_ARRAY,    /* NIC RX and FDB (libmlx5 refuses NIC TX). */
    HW_DR_ACTION_COUNTER,
    HW_DR_ACTION_REFORMAT,
    HW_DR_ACTION_MODIFY_HEADER,
    HW_DR_ACTION_PUSH_VLAN,
    HW_DR_ACTION_POP_VLAN,
    HW_DR_ACTION_FLOW_METER,    /* Terminal: colors the packet and goes on
                                 * in 'next_table' (not at the root). */
    HW_DR_N_ACTIONS
};

/* The flow meter of mlx5dv_dr_action_create_flow_meter(): a FLOW_METER
 * general object (PRM 'flow_meter') with its token bucket.  The device
 * refills the committed bucket at 'cir' bytes per second up to 'cbs' bytes
 * and marks each packet that finds enough tokens green (taking them), the
 * others red, by writing the color (HW_METER_COLOR_*) into the low 8 bits of
 * reg_c_'reg_c_index' (the rest of the register is kept); then the packet
 * goes on in 'next_table', whose rules decide by color.  It counts bytes
 * only: packet mode needs ASO meters.
 *
 * 'params' are the 32 bytes of PRM flow_meter_parameters (hw-meter.h). */
#define HW_METER_COLOR_RED 0
#define HW_METER_COLOR_YELLOW 1
#define HW_METER_COLOR_GREEN 2

/* modify_field_select bits of dr_action_modify_meter(). */
#define HW_METER_MODIFY_ACTIVE (1u << 0)
#define HW_METER_MODIFY_CBS (1u << 1)
#define HW_METER_MODIFY_CIR (1u << 2)
#define HW_METER_MODIFY_EBS (1u << 3)
#define HW_METER_MODIFY_EIR (1u << 4)

/* What dr_action_create() makes: the arguments of the matching
 * mlx5dv_dr_action_create_*() call. */
struct hw_dr_action_attr {
    enum hw_dr_action_type type;
    union {
        uint32_t tag;                           /* TAG: < 2^24. */
        struct ibv_qp *qp;                      /* DEST_QP. */
        struct mlx5dv_dr_table *table;          /* DEST_TABLE. */
        uint32_t vport;                         /* DEST_VPORT. */
        struct {                                /* DEST_ARRAY. */
            size_t n;
            struct mlx5dv_dr_action_dest_attr **dests;
        } array;
        struct {                                /* COUNTER. */
            struct mlx5dv_devx_obj *obj;
            uint32_t offset;
        } counter;
        struct {                                /* REFORMAT. */
            enum mlx5dv_flow_action_packet_reformat_type type;
            size_t size;
            const void *data;                   /* NULL iff size is 0. */
        } reformat;
        struct {                                /* MODIFY_HEADER. */
            size_t size;                        /* Bytes, 8 per command. */
            const ovs_be64 *commands;           /* PRM set/add/copy. */
        } modify;
        ovs_be32 vlan_hdr;                      /* PUSH_VLAN: TPID << 16 |
                                                 * TCI. */
        struct {                                /* FLOW_METER. */
            struct mlx5dv_dr_table *next_table;
            bool active;
            uint8_t reg_c_index;
            size_t size;                        /* Of 'params': 32. */
            const void *params;
        } meter;
    };
};

/* What the parser of a device with the pipeline recognises beyond what
 * verbs specs match (the cap flex_parser_protocols and the integrity
 * bits). */
enum hw_dr_parse_bits {
    HW_DR_PARSE_GENEVE = 1 << 0,        /* The Geneve header on UDP port
                                         * 6081: VNI, O bit, options length,
                                         * protocol type. */
    HW_DR_PARSE_GENEVE_OPT = 1 << 1,    /* The data of one Geneve option,
                                         * once dr_geneve_opt_create() set
                                         * which one. */
    HW_DR_PARSE_CSUM_OK = 1 << 2,       /* The l3_ok, l4_ok,
                                         * ipv4_checksum_ok and
                                         * l4_checksum_ok match bits. */
};

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

    /* The pipeline of tables (the dr_* operations below), all zero if the
     * device has only the verbs root table. */
    uint32_t dr_domains;         /* 1 << MLX5DV_DR_DOMAIN_TYPE_*. */
    uint32_t dr_max_level;       /* Deepest table level (levels 1..max are
                                  * software steered, 0 is the root). */
    uint32_t dr_actions[HW_DR_N_DOMAINS]; /* Per domain, 1 << enum
                                           * hw_dr_action_type valid there. */
    uint8_t dr_match_criteria;   /* match_criteria_enable bits accepted
                                  * (1 << HW_DR_MATCH_OUTER ...). */
    uint32_t dr_parse;           /* HW_DR_PARSE_* bits. */
    uint32_t dr_max_modify;      /* Commands per modify-header action. */
    uint32_t dr_max_rules;       /* Rules per domain. */
    uint32_t dr_max_meters;      /* Flow meter objects (FLOW_METER actions)
                                  * per device, 0 if none. */
};

/* One received packet's hardware metadata is stored into the dp_packet
 * itself by rx_burst(): dp_packet_set_flow_mark() for a non-zero flow tag
 * and dp_packet_set_rss_hash() for the Toeplitz hash. */
struct hw_dev_ops {
    const char *name;            /* "model", "rdma", "hbl". */

    /* Facts about the backend known before a device is opened. */
    bool kernel_checks_caps;     /* The kernel makes its objects and checks
                                  * the process' capabilities (false for a
                                  * software device). */
    bool fwdump_reg_addresses;   /* fwdump_get()'s registers carry crspace
                                  * addresses, not offsets into a raw
                                  * dump. */

    /* Returns true if this backend drives the device named 'devname'. */
    bool (*handles)(const char *devname);

    /* Returns a description of the device 'devname' names that is the
     * same whatever name it is reached by (a device has several: a verbs
     * device name, its network interface, ...) and differs from every other
     * device's, e.g. "RDMA device at /sys/devices/...", or NULL if
     * 'devname' names no device now.  The caller frees it.  NULL if each
     * device of the backend has exactly one name (see hw_dev_identify()). */
    char *(*identify)(const char *devname);

    int (*open)(const char *devname, struct ibv_context **);
    void (*close)(struct ibv_context *);
    int (*query_caps)(struct ibv_context *, struct hw_dev_caps *);

    /* Stores the next asynchronous event of the device into '*event' and
     * returns 0, or returns EAGAIN if none is pending: ibv_get_async_event()
     * and ibv_ack_async_event() on the context's 'async_fd', which never
     * blocks (poll it for POLLIN to wait).  IBV_EVENT_DEVICE_FATAL says the
     * device is dead: it lost every object made on the context, and the
     * context must be closed and the device opened again.  NULL if the
     * backend reports no events. */
    int (*get_async_event)(struct ibv_context *, enum ibv_event_type *);

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
     * with a packet reformat instead (hw-tx-push.c picks the way). */
    int (*create_encap)(struct ibv_context *, struct hbldv_encap_attr *,
                        struct hbldv_encap **);
    int (*destroy_encap)(struct hbldv_encap *);
    int (*hbl_modify_qp)(struct ibv_qp *, struct ibv_qp_attr *,
                         int attr_mask, struct hbldv_qp_attr *);
    int (*hbl_query_port)(struct ibv_context *, uint32_t port_num,
                          struct hbldv_query_port_attr *);

    /* The pipeline of tables (see struct hw_dr_action_attr above), with the
     * semantics and errno values of mlx5dv_dr_*().  NULL if the backend
     * has none; a device of a backend that has them may still lack the
     * pipeline: only its 'caps.dr_domains' says (0: none). */
    int (*dr_domain_create)(struct ibv_context *, enum mlx5dv_dr_domain_type,
                            struct mlx5dv_dr_domain **);
    int (*dr_domain_sync)(struct mlx5dv_dr_domain *, uint32_t flags);
    int (*dr_domain_destroy)(struct mlx5dv_dr_domain *);
    int (*dr_table_create)(struct mlx5dv_dr_domain *, uint32_t level,
                           struct mlx5dv_dr_table **);
    int (*dr_table_destroy)(struct mlx5dv_dr_table *);
    int (*dr_matcher_create)(struct mlx5dv_dr_table *, uint16_t priority,
                             uint8_t match_criteria_enable,
                             struct mlx5dv_flow_match_parameters *mask,
                             struct mlx5dv_dr_matcher **);
    int (*dr_matcher_destroy)(struct mlx5dv_dr_matcher *);
    int (*dr_rule_create)(struct mlx5dv_dr_matcher *,
                          struct mlx5dv_flow_match_parameters *value,
                          size_t n_actions, struct mlx5dv_dr_action *[],
                          struct mlx5dv_dr_rule **);
    int (*dr_rule_destroy)(struct mlx5dv_dr_rule *);
    int (*dr_action_create)(struct mlx5dv_dr_domain *,
                            const struct hw_dr_action_attr *,
                            struct mlx5dv_dr_action **);
    int (*dr_action_destroy)(struct mlx5dv_dr_action *);

    /* mlx5dv_dr_action_modify_flow_meter(): changes the parameters of the
     * FLOW_METER action 'action' that 'modify_field_select'
     * (HW_METER_MODIFY_*) names to those of 'attr->meter'. */
    int (*dr_action_modify_meter)(struct mlx5dv_dr_action *,
                                  const struct hw_dr_action_attr *,
                                  uint64_t modify_field_select);

    /* DevX flow counters for the pipeline's COUNTER action: one counter per
     * object; query stores packets and bytes since creation. */
    int (*dr_counter_create)(struct ibv_context *, struct mlx5dv_devx_obj **);
    int (*dr_counter_query)(struct mlx5dv_devx_obj *, uint64_t *packets,
                            uint64_t *bytes);
    int (*dr_counter_destroy)(struct mlx5dv_devx_obj *);

    /* The Geneve TLV option object (HW_DR_PARSE_GENEVE_OPT): sets the
     * option whose data the matcher's geneve_tlv_option_0_data samples,
     * its class, type and data length in 4-byte words.  A device holds one
     * such object at a time. */
    int (*dr_geneve_opt_create)(struct ibv_context *, ovs_be16 opt_class,
                                uint8_t type, uint8_t len,
                                struct mlx5dv_devx_obj **);
    int (*dr_geneve_opt_destroy)(struct mlx5dv_devx_obj *);

    /* The e-switch of a PF in switchdev mode, whose representors are
     * verbs ports of the PF's device (port 1 is the uplink).  NULL if the
     * backend has none.
     *
     * representor_port() stores the verbs port of the representor 'name'
     * ("vf1", as DPDK's representor= device argument, or "pf0vf1", the
     * representor netdev's phys_port_name) into '*port_num': EOPNOTSUPP
     * if the device is not in switchdev mode, ENODEV if it has no such
     * representor.  query_port() is mlx5dv_query_port(): the port's vport
     * and the reg_c0 value and mask that name it as a packet's source in
     * the FDB (EINVAL for no such port).  bind_qp_port() moves the raw
     * packet send QP 'qp' to port 'port_num' (ibv_modify_qp() to INIT with
     * IBV_QP_PORT, then to RTS): what it sends on a representor reaches
     * the VF. */
    int (*representor_port)(struct ibv_context *, const char *name,
                            uint32_t *port_num);
    int (*query_port)(struct ibv_context *, uint32_t port_num,
                      struct mlx5dv_port *);
    int (*bind_qp_port)(struct ibv_qp *, uint32_t port_num);
};

/* Clears the pipeline's capabilities (the 'dr_*' fields) from 'caps': the
 * device is then driven through the verbs root table only. */
void hw_dev_caps_clear_dr(struct hw_dev_caps *caps);

/* Returns the backend that drives 'devname', or NULL if none does. */
const struct hw_dev_ops *hw_dev_ops_find(const char *devname);

/* Returns the identity of the device 'devname' that 'ops' drives: what
 * ops->identify() returns, else "device DEVNAME".  Two names with the same
 * identity are one device.  The caller frees the result. */
char *hw_dev_identify(const struct hw_dev_ops *ops, const char *devname);

/* Makes hw_dev_ops_find() ask 'ops' (whose handles() must be set) before
 * the built-in backends, for the rest of the process: for tests and
 * benchmarks that give hw ports a device-ops table of their own.  At most
 * 4 such backends. */
void hw_dev_register_backend(const struct hw_dev_ops *ops);

/* The backends.  'hw_model_ops' is always built in. */
extern const struct hw_dev_ops hw_model_ops;

#endif /* hw-dev.h */
