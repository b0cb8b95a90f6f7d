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

#ifndef HW_MODEL_PRIVATE_H
#define HW_MODEL_PRIVATE_H 1

/* The model device's internals (hw-model.h is its public face), shared by
 * the files that implement it, each with one job:
 *
 *   hw-model-dev.c      The registry of devices: names, capabilities, open
 *                       and close, and the accounting of every object.
 *   hw-model-fault.c    Faults injected into the device ops.
 *   hw-model-queue.c    PDs, CQs, WQs, indirection tables and QPs.
 *   hw-model-rule.c     Flows, counters objects and reformat actions: the
 *                       objects a steering rule holds.
 *   hw-model-wire.c     The wire: frames leaving it, its far ends (pcap,
 *                       wire_tx), its counters.
 *   hw-model-eswitch.c  Switchdev mode: the VFs, their host sides and
 *                       representor ports, and frames the VFs send.
 *   hw-model-rx.c       The receive path, into the receive queues, and the
 *                       host's polling of them.
 *   hw-model-tx.c       The transmit path, from a send QP to the wire.
 *   hw-model-unixctl.c  The hw-model/... commands.
 *   hw-model.c          The table of device ops, on top of the others.
 *
 * Each file logs as the one module "hw_model" (defined in hw-model.c), as
 * the device did when it was one file.
 *
 * The steering engine (hw-model-flow-private.h) has its own struct
 * model_flow and struct model_counters, the objects these records hold:
 * no file includes both headers. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-dev.h"
#include "hw-model.h"
#include "hw-model-dr.h"
#include "hw-toeplitz.h"
#include "openvswitch/hmap.h"
#include "ovs-thread.h"
#include "util.h"

struct dp_packet;
struct dp_packet_batch;
struct hw_model_parsed;
struct hw_model_steering;
struct hw_model_verdict;
struct pcap_file;
struct seq;
struct shash_node;
struct vlog_rate_limit;

/* Limits of the model device, chosen to be those of a ConnectX-5 class NIC
 * where the verbs API exposes them (hw-apis.md sections 1 and 2). */
#define MODEL_MAX_WR            (1u << 15)  /* log_max_wq_sz. */
#define MODEL_MAX_SGE           32
#define MODEL_MAX_CQE           ((1 << 22) - 1)
#define MODEL_MAX_LOG_IND_TBL   13          /* Kernel limit, any device. */
#define MODEL_RSS_KEY_LEN       HW_TOEPLITZ_KEY_LEN
#define MODEL_MAX_NUMBER        65535       /* "model65535". */

/* The operations that faults can be injected into, by hw_dev_ops name. */
#define MODEL_OPS                                           \
    MODEL_OP(OPEN, "open")                                  \
    MODEL_OP(QUERY_CAPS, "query_caps")                      \
    MODEL_OP(ALLOC_PD, "alloc_pd")                          \
    MODEL_OP(DEALLOC_PD, "dealloc_pd")                      \
    MODEL_OP(CREATE_CQ, "create_cq")                        \
    MODEL_OP(DESTROY_CQ, "destroy_cq")                      \
    MODEL_OP(CREATE_WQ, "create_wq")                        \
    MODEL_OP(MODIFY_WQ, "modify_wq")                        \
    MODEL_OP(DESTROY_WQ, "destroy_wq")                      \
    MODEL_OP(CREATE_IND_TABLE, "create_rwq_ind_table")      \
    MODEL_OP(DESTROY_IND_TABLE, "destroy_rwq_ind_table")    \
    MODEL_OP(CREATE_QP, "create_qp")                        \
    MODEL_OP(DESTROY_QP, "destroy_qp")                      \
    MODEL_OP(CREATE_FLOW, "create_flow")                    \
    MODEL_OP(DESTROY_FLOW, "destroy_flow")                  \
    MODEL_OP(CREATE_COUNTERS, "create_counters")            \
    MODEL_OP(ATTACH_COUNTERS, "attach_counters")            \
    MODEL_OP(READ_COUNTERS, "read_counters")                \
    MODEL_OP(DESTROY_COUNTERS, "destroy_counters")          \
    MODEL_OP(CREATE_REFORMAT, "create_reformat")            \
    MODEL_OP(DESTROY_ACTION, "destroy_action")                  \
    HW_MODEL_DR_OPS(MODEL_OP)

enum model_op {
#define MODEL_OP(ENUM, NAME) MODEL_OP_##ENUM,
    MODEL_OPS
#undef MODEL_OP
    MODEL_N_OPS
};

/* hw-model-fault.c: the names of the operations, by enum model_op. */
extern const char *const model_op_names[MODEL_N_OPS];

/* Kinds of device objects, for accounting and for checking that a pointer
 * handed to an op is a live object of the right kind on the same device
 * (the kernel's handle lookup, which fails with EINVAL). */
enum model_kind {
    MODEL_PD,
    MODEL_CQ,
    MODEL_WQ,
    MODEL_IND_TABLE,
    MODEL_QP,
    MODEL_FLOW,
    MODEL_COUNTERS,
    MODEL_REFORMAT,
    MODEL_N_KINDS
};

struct model_obj {
    struct hmap_node node;      /* In model_dev's 'objects'. */
    const void *verbs;          /* The rdma-core struct the caller holds. */
    enum model_kind kind;
    uint32_t handle;            /* Device-unique, from 1. */
    unsigned int users;         /* Objects that refer to this one: destroying
                                 * it meanwhile gives EBUSY, as the kernel's
                                 * usecnt does. */
};

struct model_pd {
    struct model_obj obj;
    struct ibv_pd pd;
};

struct model_cq {
    struct model_obj obj;
    struct ibv_cq_ex cq;
};

/* A received packet waiting in a WQ, with what the CQE would carry. */
struct model_rx_entry {
    struct dp_packet *packet;
    uint32_t tag;               /* Flow tag, 0 if none. */
    uint32_t hash;              /* Toeplitz result, 0 if not hashed. */
};

struct model_wq {
    struct model_obj obj;
    struct ibv_wq wq;
    struct model_pd *pd;
    struct model_cq *cq;

    /* Receive ring: the model keeps every WQE posted, so a packet is
     * dropped only when 'ring_size' packets wait unread. */
    struct model_rx_entry *ring;
    uint32_t ring_size;         /* Power of 2. */
    uint32_t head;              /* Next to read, free running. */
    uint32_t tail;              /* Next to write, free running. */

    uint64_t n_queued;          /* Packets put on the ring. */
    uint64_t n_bytes;
    uint64_t n_read;            /* Packets returned by rx_burst(). */
    uint64_t n_flushed;         /* Freed when leaving RDY or destroyed. */
    uint64_t drop_not_ready;
    uint64_t drop_full;
};

struct model_ind_table {
    struct model_obj obj;
    struct ibv_rwq_ind_table table;
    uint32_t log_size;
    struct model_wq **wqs;      /* 1 << log_size entries. */
};

struct model_qp {
    struct model_obj obj;
    struct ibv_qp qp;
    struct model_pd *pd;
    bool rss;                   /* RSS (hash) QP: receives only. */

    /* RSS QP. */
    struct model_ind_table *ind_table;
    uint8_t key[MODEL_RSS_KEY_LEN];
    uint64_t hash_fields;

    /* Raw packet QP. */
    uint8_t port_num;           /* The port it sends on: 1 the uplink, 2
                                 * and up a VF's representor. */
    struct model_cq *send_cq;
    struct model_cq *recv_cq;
    uint32_t max_send_wr;
};

struct model_counters {
    struct model_obj obj;
    struct ibv_counters *counters;  /* Owned by hw-model-flow. */
};

struct model_reformat {
    struct model_obj obj;
    struct ibv_flow_action action;
    enum mlx5dv_flow_action_packet_reformat_type type;
    enum mlx5dv_flow_table_type ft_type;
    uint8_t *data;
    size_t size;
};

struct model_flow {
    struct model_obj obj;
    struct ibv_flow *flow;      /* Owned by hw-model-flow. */
    struct hw_model_steering *steering;     /* The port's engine. */
    struct model_qp *qp;
    struct model_reformat *reformat;
    struct model_counters *counters;
};

struct model_fault {
    int error;
    unsigned int count;
};

/* The far end of a wire or of a VF's host side. */
struct model_end {
    struct pcap_file *pcap;
    char *pcap_name;
    hw_model_wire_tx_func *tx;  /* Gets every frame, or NULL. */
    void *tx_aux;
};

/* One VF of a device in switchdev mode: vport 'index' + 1, verbs port
 * 'index' + 2 (its representor). */
struct model_vf {
    struct hw_model_steering *steering;     /* The representor's verbs
                                             * rules. */
    struct model_end end;       /* The VF's host side (the VM). */
    struct hw_model_vf_stats stats;
};

struct model_dev {
    char *name;                 /* "model<number>". */
    unsigned int number;
    bool hbl;                   /* "hbl_model<number>": hbl personality. */
    struct ibv_device ibdev;
    struct ibv_context ctx;     /* What open() returns. */

    /* Everything below is guarded by 'mutex'. */
    struct ovs_mutex mutex;
    int n_opens;
    struct hw_dev_caps caps;
    struct hw_model_steering *steering;
    struct hw_model_dr *dr;     /* The pipeline of tables. */
    struct hmap objects;        /* All model_obj, by hash_pointer(verbs). */
    size_t n_objs[MODEL_N_KINDS];
    uint32_t next_handle;
    struct model_fault faults[MODEL_N_OPS];
    struct hw_model_stats stats;
    struct pcap_file *pcap;
    char *pcap_name;
    hw_model_wire_tx_func *wire_tx;     /* Far end of the wire, or NULL. */
    void *wire_tx_aux;
    unsigned int n_vfs;         /* Switchdev mode if nonzero. */
    struct model_vf *vfs;

    /* A fatal error (hw_model_reset()): the device dropped every object
     * and every packet until the last context on it closes, as mlx5's
     * health recovery reloads the device under its users.  The event
     * reaches the users through 'async_fds'. */
    bool fatal;
    int async_fds[2];           /* Pipe: read end is the ctx's async_fd. */
};

static inline struct model_dev *
model_dev_from_ctx(const struct ibv_context *ctx)
{
    struct model_dev *dev;

    ovs_assert(ctx);
    dev = CONTAINER_OF(ctx, struct model_dev, ctx);
    /* A context from another backend would not point to our device. */
    ovs_assert(ctx->device == &dev->ibdev);
    return dev;
}

/* hw-model-dev.c. */

/* Changes whenever a device queues a received packet (hw_model_rx_seq()). */
extern struct seq *model_rx_seq;

void model_global_init(void);

struct model_dev *model_dev_lookup(const char *devname, bool create);

const struct shash_node **model_dev_sort(size_t *n);

/* Logs why the device refuses an operation (rate-limited, with its errno)
 * and returns 'error'. */
int model_reject(const struct model_dev *, int error, const char *format,
                 ...)
    OVS_PRINTF_FORMAT(3, 4);

void model_obj_add(struct model_dev *dev, struct model_obj *,
                   const void *verbs, enum model_kind)
    OVS_REQUIRES(dev->mutex);
void model_obj_remove(struct model_dev *dev, struct model_obj *)
    OVS_REQUIRES(dev->mutex);
struct model_obj *model_obj_find(const struct model_dev *dev,
                                 const void *verbs, enum model_kind)
    OVS_REQUIRES(dev->mutex);
void *model_obj_find_container(const struct model_dev *dev,
                               const void *verbs, enum model_kind,
                               size_t offset)
    OVS_REQUIRES(dev->mutex);

/* Returns the live object of type TYPE (embedding a 'struct model_obj obj')
 * of kind KIND whose rdma-core struct is VERBS, or NULL. */
#define MODEL_FIND(DEV, VERBS, KIND, TYPE)                              \
    ((TYPE *) model_obj_find_container(DEV, VERBS, KIND,                \
                                       offsetof(TYPE, obj)))

void model_fill_objects(struct model_dev *dev, struct hw_model_objects *)
    OVS_REQUIRES(dev->mutex);

bool model_op_handles(const char *devname);
char *model_identify(const char *devname);
int model_open(const char *devname, struct ibv_context **);
void model_close(struct ibv_context *);
int model_query_caps(struct ibv_context *, struct hw_dev_caps *);

/* hw-model-fault.c. */

/* Returns the error of the fault injected into 'op', if any is left, and
 * counts it down; otherwise 0. */
int model_fault_check(struct model_dev *dev, enum model_op)
    OVS_REQUIRES(dev->mutex);

/* The next asynchronous event of 'ctx' (hw_dev_ops.get_async_event). */
int model_get_async_event(struct ibv_context *, enum ibv_event_type *);

/* The last context on 'dev' closed: a device that had a fatal error is
 * back, with a fresh async event queue. */
void model_fault_closed(struct model_dev *dev)
    OVS_REQUIRES(dev->mutex);

/* hw-model-queue.c. */

const char *model_wq_state_name(enum ibv_wq_state);

static inline uint32_t
model_wq_n_queued(const struct model_wq *wq)
{
    return wq->tail - wq->head;
}

int model_alloc_pd(struct ibv_context *, struct ibv_pd **);
int model_dealloc_pd(struct ibv_pd *);
int model_create_cq(struct ibv_context *, int cqe, struct ibv_cq_ex **);
int model_destroy_cq(struct ibv_cq_ex *);
int model_create_wq(struct ibv_context *, struct ibv_wq_init_attr *,
                    struct ibv_wq **);
int model_modify_wq(struct ibv_wq *, struct ibv_wq_attr *);
int model_destroy_wq(struct ibv_wq *);
int model_create_rwq_ind_table(struct ibv_context *,
                               struct ibv_rwq_ind_table_init_attr *,
                               struct ibv_rwq_ind_table **);
int model_destroy_rwq_ind_table(struct ibv_rwq_ind_table *);
int model_create_qp(struct ibv_context *, struct ibv_qp_init_attr_ex *,
                    struct ibv_qp **);
int model_destroy_qp(struct ibv_qp *);

/* hw-model-rule.c. */

const char *model_reformat_type_name(
    enum mlx5dv_flow_action_packet_reformat_type);

int model_create_flow(struct ibv_qp *, struct ibv_flow_attr *,
                      struct ibv_flow **);
int model_destroy_flow(struct ibv_flow *);
int model_create_counters(struct ibv_context *, struct ibv_counters **);
int model_attach_counters(struct ibv_counters *,
                          struct ibv_counter_attach_attr *);
int model_read_counters(struct ibv_counters *, uint64_t *, uint32_t);
int model_destroy_counters(struct ibv_counters *);
int model_create_reformat(struct ibv_context *, size_t data_sz, void *data,
                          enum mlx5dv_flow_action_packet_reformat_type,
                          enum mlx5dv_flow_table_type,
                          struct ibv_flow_action **);
int model_destroy_action(struct ibv_flow_action *);

/* hw-model-wire.c. */

/* The rate limit of the packet path's debug messages. */
extern struct vlog_rate_limit model_dp_rl;

/* Counts a dropped packet in '*counter', one of the device's stats. */
void model_count_drop(uint64_t *counter);

void model_wire_out(struct model_dev *dev, struct dp_packet *)
    OVS_REQUIRES(dev->mutex);

/* hw-model-eswitch.c. */

/* Finds the device of 'name', "model<N>" (its wire) or "model<N>/vf<K>"
 * (the host side of its VF K, stored in '*vfp', -1 for the wire).
 * Returns NULL if there is no such device or VF. */
struct model_dev *model_end_lookup(const char *name, int *vfp);

/* The verbs rules of port 'port_num' of 'dev', or NULL if it has none. */
struct hw_model_steering *model_port_steering(struct model_dev *dev,
                                              uint32_t port_num)
    OVS_REQUIRES(dev->mutex);

/* 'packet' reaches the host side of VF 'vf' of 'dev'; the caller frees
 * it. */
void model_vf_out(struct model_dev *dev, unsigned int vf,
                  struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex);

/* Hands every copy in 'result' to its fate.  Returns 0 if one of them was
 * queued on a WQ, left on the wire or reached a VF, otherwise the reason
 * for the last one. */
struct hw_model_dr_result;
int model_dr_result_deliver(struct model_dev *dev,
                            struct hw_model_dr_result *result)
    OVS_REQUIRES(dev->mutex);

/* The host side of VF 'vf' of 'dev' sends 'packet' into the e-switch.
 * Returns as hw_model_receive(). */
int model_vf_send(struct model_dev *dev, unsigned int vf,
                  struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex);

/* The far ends of the host side of VF 'vf', as hw_model_set_pcap() and
 * hw_model_set_wire_tx() set the wire's. */
int model_end_set_pcap(struct model_dev *dev, int vf, struct pcap_file *,
                       const char *file_name)
    OVS_REQUIRES(dev->mutex);
int model_end_set_tx(struct model_dev *dev, int vf,
                     hw_model_wire_tx_func *func, void *aux)
    OVS_REQUIRES(dev->mutex);

int model_query_port(struct ibv_context *, uint32_t port_num,
                     struct mlx5dv_port *);
int model_bind_qp_port(struct ibv_qp *, uint32_t port_num);
int model_representor_port(struct ibv_context *, const char *representor,
                           uint32_t *port_num);

/* hw-model-rx.c. */

/* Delivers 'packet', which 'parsed' describes, as the ingress 'verdict'
 * says.  Returns 0 if it was queued on a WQ, otherwise frees it and returns
 * the reason (see hw-model.h). */
int model_deliver(struct model_dev *dev, struct dp_packet *,
                  const struct hw_model_parsed *,
                  const struct hw_model_verdict *)
    OVS_REQUIRES(dev->mutex);

int model_rx_burst(struct ibv_wq *, struct ibv_cq_ex *,
                   struct dp_packet_batch *);

void model_receive_burst(struct model_dev *, int vf,
                         struct dp_packet **packets, size_t n);

/* hw-model-tx.c. */

int model_tx_burst(struct ibv_qp *, struct dp_packet_batch *);

#endif /* hw-model-private.h */
