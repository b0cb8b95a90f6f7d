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
#include "hw-model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coverage.h"
#include "dp-packet.h"
#include "flow.h"
#include "hash.h"
#include "hw-dev.h"
#include "hw-model-afpacket.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "hw-model-fwdump.h"
#include "hw-model-hbl.h"
#include "hw-model-reformat.h"
#include "hw-model-spec.h"
#include "hw-toeplitz.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "pcap-file.h"
#include "seq.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model);

COVERAGE_DEFINE(hw_model_rx);
COVERAGE_DEFINE(hw_model_drop);
COVERAGE_DEFINE(hw_model_tx);
COVERAGE_DEFINE(hw_model_fault);

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

static const char *const model_op_names[MODEL_N_OPS] = {
#define MODEL_OP(ENUM, NAME) NAME,
    MODEL_OPS
#undef MODEL_OP
};

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
    struct model_qp *qp;
    struct model_reformat *reformat;
    struct model_counters *counters;
};

struct model_fault {
    int error;
    unsigned int count;
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
};

/* All devices, never freed. */
static struct ovs_mutex model_registry_mutex = OVS_MUTEX_INITIALIZER;
static struct shash model_devs OVS_GUARDED_BY(model_registry_mutex)
    = SHASH_INITIALIZER(&model_devs);

static struct seq *model_rx_seq;

static void
model_global_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        model_rx_seq = seq_create();
        ovsthread_once_done(&once);
    }
}

struct seq *
hw_model_rx_seq(void)
{
    model_global_init();
    return model_rx_seq;
}

/* Names and devices. */

static bool
model_parse_name(const char *devname, unsigned int *numberp)
{
    const char *digits;
    unsigned int number = 0;

    /* "hbl_model<N>" is a model device with the hbl personality
     * (hw-model-hbl.h). */
    if (devname && !strncmp(devname, HW_MODEL_HBL_PREFIX,
                            strlen(HW_MODEL_HBL_PREFIX))) {
        devname += strlen(HW_MODEL_HBL_PREFIX);
    }
    if (!devname || strncmp(devname, "model", 5)) {
        return false;
    }
    digits = devname + 5;
    if (!digits[0] || (digits[0] == '0' && digits[1])) {
        return false;
    }
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        number = number * 10 + (*p - '0');
        if (number > MODEL_MAX_NUMBER) {
            return false;
        }
    }
    if (numberp) {
        *numberp = number;
    }
    return true;
}

bool
hw_model_handles(const char *devname)
{
    return model_parse_name(devname, NULL);
}

static void
model_dev_init_caps(struct model_dev *dev)
{
    struct hw_dev_caps *caps = &dev->caps;

    memset(caps, 0, sizeof *caps);
    caps->flow_steering = true;
    caps->counters = true;
    caps->raw_packet_qp = true;
    caps->max_flow_priority = 15;
    caps->max_flow_specs = 10;
    caps->max_rules = 65536;
    caps->max_rwq_ind_log = 9;
    caps->max_wqs = 64;
    caps->rx_hash_fields = (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                            | IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                            | IBV_RX_HASH_SRC_PORT_TCP
                            | IBV_RX_HASH_DST_PORT_TCP
                            | IBV_RX_HASH_SRC_PORT_UDP
                            | IBV_RX_HASH_DST_PORT_UDP);
    caps->reformat_types =
        ((1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL));
    caps->max_encap_header = 128;
    caps->phys_port_cnt = 1;
    /* Locally administered unicast MAC derived from the device number. */
    caps->mac = (struct eth_addr) ETH_ADDR_C(aa, 55, aa, 55, 00, 00);
    caps->mac.ea[4] = dev->number >> 8;
    caps->mac.ea[5] = dev->number & 0xff;
    if (dev->hbl) {
        /* hbl has no mlx5dv packet reformat: it encapsulates per send QP.
         * Its MAC differs from the plain model device of the same number. */
        caps->reformat_types = 0;
        caps->max_encap_header = 0;
        caps->qp_encap = true;
        caps->mac.ea[3] = 0x56;
    } else {
        hw_model_dr_init_caps(caps);
    }
    caps->mtu = 1500;
    ovs_strlcpy(caps->fw_ver, "model-1.0", sizeof caps->fw_ver);
}

static struct model_dev *
model_dev_create(const char *devname, unsigned int number)
{
    struct hw_model_limits limits;
    struct model_dev *dev = xzalloc(sizeof *dev);

    dev->name = xstrdup(devname);
    dev->number = number;
    dev->hbl = !strncmp(devname, HW_MODEL_HBL_PREFIX,
                        strlen(HW_MODEL_HBL_PREFIX));
    dev->ibdev.node_type = IBV_NODE_CA;
    dev->ibdev.transport_type = IBV_TRANSPORT_IB;
    ovs_strlcpy(dev->ibdev.name, devname, sizeof dev->ibdev.name);
    snprintf(dev->ibdev.dev_name, sizeof dev->ibdev.dev_name, "uverbs-%s",
             devname);
    dev->ctx.device = &dev->ibdev;
    dev->ctx.cmd_fd = -1;
    dev->ctx.async_fd = -1;
    dev->ctx.num_comp_vectors = 1;

    ovs_mutex_init(&dev->mutex);
    model_dev_init_caps(dev);
    hmap_init(&dev->objects);
    dev->next_handle = 1;

    memset(&limits, 0, sizeof limits);
    limits.phys_port_cnt = dev->caps.phys_port_cnt;
    limits.max_priority = dev->caps.max_flow_priority;
    limits.max_specs = dev->caps.max_flow_specs;
    limits.max_rules = dev->caps.max_rules;
    limits.sniffer = false;
    limits.cap_net_raw = true;
    dev->steering = hw_model_steering_create(&limits);
    dev->dr = hw_model_dr_create(&dev->ctx, &dev->caps);

    /* Not INFO: OVS's autotest start-up check rejects any INFO line it
     * does not expect, and a device is created when its port is added. */
    VLOG_DBG("%s: created model NIC, MAC "ETH_ADDR_FMT, devname,
              ETH_ADDR_ARGS(dev->caps.mac));
    return dev;
}

/* Returns the device named 'devname', creating it if 'create' is true and
 * the name is a valid model device name, or NULL. */
static struct model_dev *
model_dev_lookup(const char *devname, bool create)
{
    struct model_dev *dev;
    unsigned int number;

    if (!model_parse_name(devname, &number)) {
        return NULL;
    }

    model_global_init();
    ovs_mutex_lock(&model_registry_mutex);
    dev = shash_find_data(&model_devs, devname);
    if (!dev && create) {
        dev = model_dev_create(devname, number);
        shash_add(&model_devs, devname, dev);
    }
    ovs_mutex_unlock(&model_registry_mutex);
    return dev;
}

static struct model_dev *
model_dev_from_ctx(const struct ibv_context *ctx)
{
    struct model_dev *dev;

    ovs_assert(ctx);
    dev = CONTAINER_OF(ctx, struct model_dev, ctx);
    /* A context from another backend would not point to our device. */
    ovs_assert(ctx->device == &dev->ibdev);
    return dev;
}

static int OVS_PRINTF_FORMAT(3, 4)
model_reject(const struct model_dev *dev, int error, const char *format, ...)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(20, 20);

    if (!vlog_should_drop(&this_module, VLL_INFO, &rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_INFO("%s: %s (%s)", dev->name, msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

static int
model_fault_check(struct model_dev *dev, enum model_op op)
    OVS_REQUIRES(dev->mutex)
{
    struct model_fault *fault = &dev->faults[op];

    if (fault->count && fault->error) {
        fault->count--;
        COVERAGE_INC(hw_model_fault);
        VLOG_DBG("%s: injected fault: %s fails with %s (%u more)",
                 dev->name, model_op_names[op], ovs_strerror(fault->error),
                 fault->count);
        return fault->error;
    }
    return 0;
}

/* Objects. */

static void
model_obj_add(struct model_dev *dev, struct model_obj *obj,
              const void *verbs, enum model_kind kind)
    OVS_REQUIRES(dev->mutex)
{
    obj->verbs = verbs;
    obj->kind = kind;
    obj->handle = dev->next_handle++;
    obj->users = 0;
    hmap_insert(&dev->objects, &obj->node, hash_pointer(verbs, 0));
    dev->n_objs[kind]++;
}

static void
model_obj_remove(struct model_dev *dev, struct model_obj *obj)
    OVS_REQUIRES(dev->mutex)
{
    ovs_assert(!obj->users);
    hmap_remove(&dev->objects, &obj->node);
    dev->n_objs[obj->kind]--;
}

static struct model_obj *
model_obj_find(const struct model_dev *dev, const void *verbs,
               enum model_kind kind)
    OVS_REQUIRES(dev->mutex)
{
    struct model_obj *obj;

    if (!verbs) {
        return NULL;
    }
    HMAP_FOR_EACH_WITH_HASH (obj, node, hash_pointer(verbs, 0),
                             &dev->objects) {
        if (obj->verbs == verbs && obj->kind == kind) {
            return obj;
        }
    }
    return NULL;
}

static void *
model_obj_find_container(const struct model_dev *dev, const void *verbs,
                         enum model_kind kind, size_t offset)
    OVS_REQUIRES(dev->mutex)
{
    struct model_obj *obj = model_obj_find(dev, verbs, kind);

    return obj ? (char *) obj - offset : NULL;
}

/* Returns the live object of type TYPE (embedding a 'struct model_obj obj')
 * of kind KIND whose rdma-core struct is VERBS, or NULL. */
#define MODEL_FIND(DEV, VERBS, KIND, TYPE)                              \
    ((TYPE *) model_obj_find_container(DEV, VERBS, KIND,                \
                                       offsetof(TYPE, obj)))

static size_t
model_total_objects(const struct model_dev *dev)
    OVS_REQUIRES(dev->mutex)
{
    size_t total = 0;

    for (int i = 0; i < MODEL_N_KINDS; i++) {
        total += dev->n_objs[i];
    }
    return total + hw_model_dr_n_objects(dev->dr);
}

/* The pipeline's way into its device (hw-model-dr.h). */

BUILD_ASSERT_DECL(MODEL_OP_DR_COUNTER_DESTROY - MODEL_OP_DR_DOMAIN_CREATE + 1
                  == HW_MODEL_DR_N_OPS);

struct hw_model_dr *
hw_model_dr_lock(struct ibv_context *ctx, enum hw_model_dr_op op,
                 int *errorp)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    struct model_dev *dev = model_dev_from_ctx(ctx);

    ovs_mutex_lock(&dev->mutex);
    *errorp = model_fault_check(dev, MODEL_OP_DR_DOMAIN_CREATE + op);
    return dev->dr;
}

void
hw_model_dr_unlock(struct ibv_context *ctx)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    ovs_mutex_unlock(&model_dev_from_ctx(ctx)->mutex);
}

int
hw_model_dr_qp_ref(struct ibv_context *ctx, struct ibv_qp *ibv_qp, int delta)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_qp *qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);

    if (!qp) {
        return EINVAL;
    }
    qp->obj.users += delta;
    return 0;
}

/* Device. */

static bool
model_op_handles(const char *devname)
{
    return hw_model_handles(devname);
}

/* A model device has one name: "model0" and "hbl_model0" are two. */
static char *
model_identify(const char *devname)
{
    return (model_parse_name(devname, NULL)
            ? xasprintf("model device %s", devname) : NULL);
}

static int
model_open(const char *devname, struct ibv_context **ctxp)
{
    struct model_dev *dev;
    int error;

    *ctxp = NULL;
    dev = model_dev_lookup(devname, true);
    if (!dev) {
        return ENODEV;
    }

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_OPEN);
    if (!error) {
        dev->n_opens++;
        *ctxp = &dev->ctx;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static void
model_close(struct ibv_context *ctx)
{
    struct model_dev *dev;

    if (!ctx) {
        return;
    }
    dev = model_dev_from_ctx(ctx);
    ovs_mutex_lock(&dev->mutex);
    ovs_assert(dev->n_opens > 0);
    dev->n_opens--;
    if (!dev->n_opens) {
        size_t total = model_total_objects(dev);

        /* The kernel would destroy them when the last file descriptor
         * closes; the model keeps them so that a test can see the leak. */
        if (total) {
            VLOG_WARN("%s: closed with %"PRIuSIZE" objects still alive",
                      dev->name, total);
        }
    }
    ovs_mutex_unlock(&dev->mutex);
}

static int
model_query_caps(struct ibv_context *ctx, struct hw_dev_caps *caps)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_QUERY_CAPS);
    if (!error) {
        *caps = dev->caps;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Protection domains. */

static int
model_alloc_pd(struct ibv_context *ctx, struct ibv_pd **pdp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_pd *pd;
    int error;

    *pdp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_ALLOC_PD);
    if (!error) {
        pd = xzalloc(sizeof *pd);
        model_obj_add(dev, &pd->obj, &pd->pd, MODEL_PD);
        pd->pd.context = ctx;
        pd->pd.handle = pd->obj.handle;
        *pdp = &pd->pd;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_dealloc_pd(struct ibv_pd *ibv_pd)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_pd->context);
    struct model_pd *pd;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DEALLOC_PD);
    if (error) {
        goto out;
    }
    pd = MODEL_FIND(dev, ibv_pd, MODEL_PD, struct model_pd);
    if (!pd) {
        error = model_reject(dev, EINVAL, "dealloc_pd: unknown PD");
    } else if (pd->obj.users) {
        error = model_reject(dev, EBUSY, "dealloc_pd: PD %"PRIu32" still "
                             "used by %u objects", pd->obj.handle,
                             pd->obj.users);
    } else {
        model_obj_remove(dev, &pd->obj);
        free(pd);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Completion queues. */

static int
model_create_cq(struct ibv_context *ctx, int cqe, struct ibv_cq_ex **cqp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_cq *cq;
    int error;

    *cqp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_CQ);
    if (error) {
        goto out;
    }
    if (cqe <= 0 || cqe > MODEL_MAX_CQE) {
        error = model_reject(dev, EINVAL, "create_cq: %d entries (must be "
                             "1 to %d)", cqe, MODEL_MAX_CQE);
        goto out;
    }

    cq = xzalloc(sizeof *cq);
    model_obj_add(dev, &cq->obj, &cq->cq, MODEL_CQ);
    cq->cq.context = ctx;
    cq->cq.handle = cq->obj.handle;
    /* mlx5 rounds the ring up to a power of 2 and reports one less. */
    cq->cq.cqe = (1 << log_2_ceil(cqe + 1)) - 1;
    *cqp = &cq->cq;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_cq(struct ibv_cq_ex *ibv_cq)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_cq->context);
    struct model_cq *cq;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_CQ);
    if (error) {
        goto out;
    }
    cq = MODEL_FIND(dev, ibv_cq, MODEL_CQ, struct model_cq);
    if (!cq) {
        error = model_reject(dev, EINVAL, "destroy_cq: unknown CQ");
    } else if (cq->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_cq: CQ %"PRIu32" still "
                             "used by %u queues", cq->obj.handle,
                             cq->obj.users);
    } else {
        model_obj_remove(dev, &cq->obj);
        free(cq);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Work queues. */

static const char *
model_wq_state_name(enum ibv_wq_state state)
{
    switch (state) {
    case IBV_WQS_RESET:
        return "RESET";
    case IBV_WQS_RDY:
        return "RDY";
    case IBV_WQS_ERR:
        return "ERR";
    case IBV_WQS_UNKNOWN:
    default:
        return "UNKNOWN";
    }
}

static uint32_t
model_wq_n_queued(const struct model_wq *wq)
{
    return wq->tail - wq->head;
}

/* Frees the packets waiting in 'wq', as the hardware flushes posted WQEs
 * when a WQ leaves RDY. */
static void
model_wq_flush(struct model_wq *wq)
{
    while (wq->head != wq->tail) {
        struct model_rx_entry *e = &wq->ring[wq->head & (wq->ring_size - 1)];

        dp_packet_delete(e->packet);
        e->packet = NULL;
        wq->head++;
        wq->n_flushed++;
    }
}

static int
model_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *attr,
                struct ibv_wq **wqp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    uint32_t create_flags = 0;
    struct model_pd *pd;
    struct model_cq *cq;
    struct model_wq *wq;
    int error;

    *wqp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_WQ);
    if (error) {
        goto out;
    }

    /* libibverbs (ibv_cmd_create_wq). */
    if (attr->comp_mask >= IBV_WQ_INIT_ATTR_RESERVED) {
        error = model_reject(dev, EINVAL, "create_wq: comp_mask %#"PRIx32,
                             attr->comp_mask);
        goto out;
    }
    if (attr->comp_mask & IBV_WQ_INIT_ATTR_FLAGS) {
        create_flags = attr->create_flags;
        if (create_flags & ~(IBV_WQ_FLAGS_RESERVED - 1)) {
            error = model_reject(dev, EOPNOTSUPP, "create_wq: unknown "
                                 "create_flags %#"PRIx32, create_flags);
            goto out;
        }
    }

    /* Kernel: handle lookups, then mlx5_ib_create_wq(). */
    pd = MODEL_FIND(dev, attr->pd, MODEL_PD, struct model_pd);
    if (!pd) {
        error = model_reject(dev, EINVAL, "create_wq: %s PD",
                             attr->pd ? "unknown" : "no");
        goto out;
    }
    cq = MODEL_FIND(dev, attr->cq, MODEL_CQ, struct model_cq);
    if (!cq) {
        error = model_reject(dev, EINVAL, "create_wq: %s CQ",
                             attr->cq ? "unknown" : "no");
        goto out;
    }
    if (attr->wq_type != IBV_WQT_RQ) {
        error = model_reject(dev, EINVAL, "create_wq: WQ type %d (only RQ "
                             "is supported)", (int) attr->wq_type);
        goto out;
    }
    if (!attr->max_wr || attr->max_wr > MODEL_MAX_WR) {
        error = model_reject(dev, EINVAL, "create_wq: max_wr %"PRIu32
                             " (must be 1 to %u)", attr->max_wr,
                             MODEL_MAX_WR);
        goto out;
    }
    if (attr->max_sge > MODEL_MAX_SGE) {
        error = model_reject(dev, EINVAL, "create_wq: max_sge %"PRIu32
                             " (at most %d)", attr->max_sge, MODEL_MAX_SGE);
        goto out;
    }
    /* The model has none of the capabilities that gate VLAN stripping,
     * FCS scatter and delay drop; end padding only affects DMA. */
    if (create_flags & ~IBV_WQ_FLAGS_PCI_WRITE_END_PADDING) {
        error = model_reject(dev, EOPNOTSUPP, "create_wq: create_flags %#"
                             PRIx32" not supported by the device",
                             create_flags);
        goto out;
    }
    if (dev->n_objs[MODEL_WQ] >= dev->caps.max_wqs) {
        error = model_reject(dev, ENOMEM, "create_wq: all %"PRIu32" WQs "
                             "in use", dev->caps.max_wqs);
        goto out;
    }

    wq = xzalloc(sizeof *wq);
    wq->pd = pd;
    wq->cq = cq;
    wq->ring_size = 1u << log_2_ceil(attr->max_wr);
    wq->ring = xcalloc(wq->ring_size, sizeof *wq->ring);
    model_obj_add(dev, &wq->obj, &wq->wq, MODEL_WQ);
    pd->obj.users++;
    cq->obj.users++;

    wq->wq.context = ctx;
    wq->wq.wq_context = attr->wq_context;
    wq->wq.pd = attr->pd;
    wq->wq.cq = attr->cq;
    wq->wq.wq_num = wq->obj.handle;
    wq->wq.handle = wq->obj.handle;
    wq->wq.state = IBV_WQS_RESET;
    wq->wq.wq_type = IBV_WQT_RQ;

    /* Like ibv_create_wq(), report the actual sizes. */
    attr->max_wr = wq->ring_size;
    attr->max_sge = MAX(attr->max_sge, 1);
    *wqp = &wq->wq;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* RQ state transitions the device accepts (mlx5 PRM: RST->RDY, RDY->RDY,
 * RDY->ERR, RDY->RST, ERR->RST).  Any other is a bad parameter. */
static bool
model_wq_transition_ok(enum ibv_wq_state cur, enum ibv_wq_state next)
{
    switch (cur) {
    case IBV_WQS_RESET:
        return next == IBV_WQS_RDY;
    case IBV_WQS_RDY:
        return true;
    case IBV_WQS_ERR:
        return next == IBV_WQS_RESET;
    case IBV_WQS_UNKNOWN:
    default:
        return false;
    }
}

static int
model_modify_wq(struct ibv_wq *ibv_wq, struct ibv_wq_attr *attr)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_wq->context);
    enum ibv_wq_state cur, next;
    struct model_wq *wq;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_MODIFY_WQ);
    if (error) {
        goto out;
    }

    /* libibverbs (ibv_cmd_modify_wq) and kernel (ib_uverbs_ex_modify_wq). */
    if (!attr->attr_mask || attr->attr_mask >= IBV_WQ_ATTR_RESERVED) {
        error = model_reject(dev, EINVAL, "modify_wq: attr_mask %#"PRIx32,
                             attr->attr_mask);
        goto out;
    }
    if (attr->attr_mask & IBV_WQ_ATTR_FLAGS && attr->flags_mask) {
        /* Unknown flags fail in libibverbs; the known ones need device
         * capabilities the model does not have. */
        error = model_reject(dev, EOPNOTSUPP, "modify_wq: flags_mask %#"
                             PRIx32" not supported", attr->flags_mask);
        goto out;
    }
    wq = MODEL_FIND(dev, ibv_wq, MODEL_WQ, struct model_wq);
    if (!wq) {
        error = model_reject(dev, EINVAL, "modify_wq: unknown WQ");
        goto out;
    }
    if (attr->attr_mask & IBV_WQ_ATTR_CURR_STATE) {
        if (attr->curr_wq_state > IBV_WQS_ERR) {
            error = model_reject(dev, EINVAL, "modify_wq: current state %d",
                                 (int) attr->curr_wq_state);
            goto out;
        }
        cur = attr->curr_wq_state;
    } else {
        cur = wq->wq.state;
    }
    if (attr->attr_mask & IBV_WQ_ATTR_STATE) {
        if (attr->wq_state > IBV_WQS_ERR) {
            error = model_reject(dev, EINVAL, "modify_wq: state %d",
                                 (int) attr->wq_state);
            goto out;
        }
        next = attr->wq_state;
    } else {
        next = cur;
    }

    /* Firmware: the given current state must be the real one. */
    if (cur != wq->wq.state || !model_wq_transition_ok(cur, next)) {
        error = model_reject(dev, EINVAL, "modify_wq: WQ %"PRIu32" cannot "
                             "go from %s to %s (it is %s)", wq->obj.handle,
                             model_wq_state_name(cur),
                             model_wq_state_name(next),
                             model_wq_state_name(wq->wq.state));
        goto out;
    }

    if (next != IBV_WQS_RDY) {
        model_wq_flush(wq);
    }
    wq->wq.state = next;
    VLOG_DBG("%s: WQ %"PRIu32" %s -> %s", dev->name, wq->obj.handle,
             model_wq_state_name(cur), model_wq_state_name(next));
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_wq(struct ibv_wq *ibv_wq)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_wq->context);
    struct model_wq *wq;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_WQ);
    if (error) {
        goto out;
    }
    wq = MODEL_FIND(dev, ibv_wq, MODEL_WQ, struct model_wq);
    if (!wq) {
        error = model_reject(dev, EINVAL, "destroy_wq: unknown WQ");
    } else if (wq->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_wq: WQ %"PRIu32" is in "
                             "%u indirection table entries", wq->obj.handle,
                             wq->obj.users);
    } else {
        model_wq_flush(wq);
        wq->pd->obj.users--;
        wq->cq->obj.users--;
        model_obj_remove(dev, &wq->obj);
        free(wq->ring);
        free(wq);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Indirection tables. */

static int
model_create_rwq_ind_table(struct ibv_context *ctx,
                           struct ibv_rwq_ind_table_init_attr *attr,
                           struct ibv_rwq_ind_table **tablep)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_ind_table *table;
    struct model_wq **wqs = NULL;
    uint32_t size;
    int error;

    *tablep = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_IND_TABLE);
    if (error) {
        goto out;
    }
    if (attr->comp_mask) {
        error = model_reject(dev, EINVAL, "create_rwq_ind_table: comp_mask "
                             "%#"PRIx32, attr->comp_mask);
        goto out;
    }
    if (attr->log_ind_tbl_size > MODEL_MAX_LOG_IND_TBL) {
        error = model_reject(dev, EINVAL, "create_rwq_ind_table: log size "
                             "%"PRIu32" above the kernel limit %d",
                             attr->log_ind_tbl_size, MODEL_MAX_LOG_IND_TBL);
        goto out;
    }
    if (!attr->ind_tbl) {
        error = model_reject(dev, EINVAL, "create_rwq_ind_table: no WQs");
        goto out;
    }

    size = 1u << attr->log_ind_tbl_size;
    wqs = xcalloc(size, sizeof *wqs);
    for (uint32_t i = 0; i < size; i++) {
        wqs[i] = MODEL_FIND(dev, attr->ind_tbl[i], MODEL_WQ,
                            struct model_wq);
        if (!wqs[i]) {
            error = model_reject(dev, EINVAL, "create_rwq_ind_table: entry "
                                 "%"PRIu32" is not a WQ of this device", i);
            goto out;
        }
    }
    if (attr->log_ind_tbl_size > dev->caps.max_rwq_ind_log) {
        error = model_reject(dev, EINVAL, "create_rwq_ind_table: log size "
                             "%"PRIu32" above the device limit %"PRIu32,
                             attr->log_ind_tbl_size,
                             dev->caps.max_rwq_ind_log);
        goto out;
    }

    table = xzalloc(sizeof *table);
    table->log_size = attr->log_ind_tbl_size;
    table->wqs = wqs;
    wqs = NULL;
    for (uint32_t i = 0; i < size; i++) {
        table->wqs[i]->obj.users++;
    }
    model_obj_add(dev, &table->obj, &table->table, MODEL_IND_TABLE);
    table->table.context = ctx;
    table->table.ind_tbl_handle = table->obj.handle;
    table->table.ind_tbl_num = table->obj.handle;
    table->table.comp_mask = 0;
    *tablep = &table->table;
out:
    free(wqs);
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_rwq_ind_table(struct ibv_rwq_ind_table *ibv_table)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_table->context);
    struct model_ind_table *table;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_IND_TABLE);
    if (error) {
        goto out;
    }
    table = MODEL_FIND(dev, ibv_table, MODEL_IND_TABLE,
                       struct model_ind_table);
    if (!table) {
        error = model_reject(dev, EINVAL, "destroy_rwq_ind_table: unknown "
                             "table");
    } else if (table->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_rwq_ind_table: table "
                             "%"PRIu32" used by %u QPs", table->obj.handle,
                             table->obj.users);
    } else {
        for (uint32_t i = 0; i < (1u << table->log_size); i++) {
            table->wqs[i]->obj.users--;
        }
        model_obj_remove(dev, &table->obj);
        free(table->wqs);
        free(table);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Queue pairs. */

#define MODEL_HASH_IPV4 (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4)
#define MODEL_HASH_IPV6 (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6)
#define MODEL_HASH_TCP (IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP)
#define MODEL_HASH_UDP (IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP)

/* Validates an RSS QP request in the order libmlx5 (create_qp,
 * mlx5_cmd_create_rss_qp), the kernel core (create_qp) and mlx5
 * (create_rss_raw_qp_tir) check it.  Returns 0 or the errno. */
static int
model_check_rss_qp(struct model_dev *dev,
                   const struct ibv_qp_init_attr_ex *attr,
                   struct model_pd **pdp, struct model_ind_table **tablep)
    OVS_REQUIRES(dev->mutex)
{
    const uint32_t allowed = (IBV_QP_INIT_ATTR_PD
                              | IBV_QP_INIT_ATTR_CREATE_FLAGS
                              | IBV_QP_INIT_ATTR_IND_TABLE
                              | IBV_QP_INIT_ATTR_RX_HASH);
    const uint32_t needed = (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE
                             | IBV_QP_INIT_ATTR_RX_HASH);
    const struct ibv_rx_hash_conf *conf = &attr->rx_hash_conf;
    uint64_t fields = conf->rx_hash_fields_mask;
    int n_l4;

    if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
        return model_reject(dev, EINVAL, "create_qp: an RSS QP cannot "
                            "send (SEND_OPS_FLAGS)");
    }
    if (attr->comp_mask & ~allowed) {
        return model_reject(dev, EINVAL, "create_qp: comp_mask %#"PRIx32
                            " invalid for an RSS QP", attr->comp_mask);
    }
    if ((attr->comp_mask & needed) != needed) {
        return model_reject(dev, EINVAL, "create_qp: an RSS QP needs PD, "
                            "IND_TABLE and RX_HASH (comp_mask %#"PRIx32")",
                            attr->comp_mask);
    }
    if (conf->rx_hash_key_len > MODEL_RSS_KEY_LEN) {
        return model_reject(dev, EINVAL, "create_qp: RSS key of %u bytes",
                            conf->rx_hash_key_len);
    }
    *pdp = MODEL_FIND(dev, attr->pd, MODEL_PD, struct model_pd);
    if (!*pdp) {
        return model_reject(dev, EINVAL, "create_qp: %s PD",
                            attr->pd ? "unknown" : "no");
    }
    *tablep = MODEL_FIND(dev, attr->rwq_ind_tbl, MODEL_IND_TABLE,
                         struct model_ind_table);
    if (!*tablep) {
        return model_reject(dev, EINVAL, "create_qp: %s indirection table",
                            attr->rwq_ind_tbl ? "unknown" : "no");
    }
    if (attr->recv_cq || attr->srq || attr->cap.max_recv_wr
        || attr->cap.max_recv_sge) {
        return model_reject(dev, EINVAL, "create_qp: an RSS QP has no "
                            "receive queue of its own");
    }
    if (attr->send_cq || attr->cap.max_send_wr) {
        return model_reject(dev, EINVAL, "create_qp: an RSS QP has no "
                            "send queue");
    }
    if (attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS
        && attr->create_flags) {
        return model_reject(dev, EINVAL, "create_qp: create_flags %#"PRIx32
                            " invalid for an RSS QP", attr->create_flags);
    }
    if (fields & IBV_RX_HASH_INNER) {
        return model_reject(dev, EOPNOTSUPP, "create_qp: inner RSS needs "
                            "a QP with tunnel offloads");
    }
    if (conf->rx_hash_function != IBV_RX_HASH_FUNC_TOEPLITZ) {
        return model_reject(dev, EOPNOTSUPP, "create_qp: hash function %u "
                            "(only Toeplitz)", conf->rx_hash_function);
    }
    if (conf->rx_hash_key_len != MODEL_RSS_KEY_LEN || !conf->rx_hash_key) {
        return model_reject(dev, EINVAL, "create_qp: Toeplitz key must be "
                            "%d bytes, got %u", MODEL_RSS_KEY_LEN,
                            conf->rx_hash_key ? conf->rx_hash_key_len : 0);
    }
    if (!fields) {
        if ((*tablep)->log_size) {
            return model_reject(dev, EINVAL, "create_qp: no hash fields "
                                "with a %u-entry indirection table",
                                1u << (*tablep)->log_size);
        }
        return 0;
    }
    if (fields & MODEL_HASH_IPV4 && fields & MODEL_HASH_IPV6) {
        return model_reject(dev, EINVAL, "create_qp: IPv4 and IPv6 hash "
                            "fields together");
    }
    n_l4 = (!!(fields & MODEL_HASH_TCP) + !!(fields & MODEL_HASH_UDP)
            + !!(fields & IBV_RX_HASH_IPSEC_SPI));
    if (n_l4 > 1) {
        return model_reject(dev, EINVAL, "create_qp: more than one of TCP, "
                            "UDP and SPI hash fields");
    }
    if (fields & ~dev->caps.rx_hash_fields) {
        return model_reject(dev, EOPNOTSUPP, "create_qp: hash fields %#"
                            PRIx64" not supported", fields
                            & ~dev->caps.rx_hash_fields);
    }
    return 0;
}

/* Validates a plain raw packet QP (the one used to send). */
static int
model_check_raw_qp(struct model_dev *dev,
                   const struct ibv_qp_init_attr_ex *attr,
                   struct model_pd **pdp, struct model_cq **send_cqp,
                   struct model_cq **recv_cqp)
    OVS_REQUIRES(dev->mutex)
{
    const uint32_t allowed = (IBV_QP_INIT_ATTR_PD
                              | IBV_QP_INIT_ATTR_CREATE_FLAGS
                              | IBV_QP_INIT_ATTR_MAX_TSO_HEADER
                              | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
    const uint32_t known_flags = (IBV_QP_CREATE_BLOCK_SELF_MCAST_LB
                                  | IBV_QP_CREATE_SCATTER_FCS
                                  | IBV_QP_CREATE_CVLAN_STRIPPING
                                  | IBV_QP_CREATE_SOURCE_QPN
                                  | IBV_QP_CREATE_PCI_WRITE_END_PADDING);
    uint32_t flags = (attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS
                      ? attr->create_flags : 0);

    if (attr->comp_mask & ~allowed) {
        return model_reject(dev, EINVAL, "create_qp: comp_mask %#"PRIx32
                            " invalid for a raw packet QP", attr->comp_mask);
    }
    if (flags & IBV_QP_CREATE_SOURCE_QPN || flags & ~known_flags) {
        return model_reject(dev, EINVAL, "create_qp: create_flags %#"PRIx32
                            " invalid for a raw packet QP", flags);
    }
    *pdp = MODEL_FIND(dev, attr->pd, MODEL_PD, struct model_pd);
    if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !*pdp) {
        return model_reject(dev, EINVAL, "create_qp: %s PD",
                            attr->pd ? "unknown" : "no");
    }
    *send_cqp = MODEL_FIND(dev, attr->send_cq, MODEL_CQ, struct model_cq);
    *recv_cqp = MODEL_FIND(dev, attr->recv_cq, MODEL_CQ, struct model_cq);
    if (!*send_cqp || !*recv_cqp) {
        return model_reject(dev, EINVAL, "create_qp: a raw packet QP needs "
                            "a send and a receive CQ of this device");
    }
    if (attr->srq) {
        /* The model has no shared receive queues. */
        return model_reject(dev, EINVAL, "create_qp: unknown SRQ");
    }
    if (attr->cap.max_send_wr > MODEL_MAX_WR
        || attr->cap.max_recv_wr > MODEL_MAX_WR
        || attr->cap.max_send_sge > MODEL_MAX_SGE
        || attr->cap.max_recv_sge > MODEL_MAX_SGE) {
        return model_reject(dev, EINVAL, "create_qp: queue sizes above the "
                            "device limits (%u WRs, %d SGEs)", MODEL_MAX_WR,
                            MODEL_MAX_SGE);
    }
    if (flags & ~IBV_QP_CREATE_BLOCK_SELF_MCAST_LB) {
        return model_reject(dev, EOPNOTSUPP, "create_qp: create_flags %#"
                            PRIx32" not supported by the device", flags);
    }
    return 0;
}

static int
model_create_qp(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr,
                struct ibv_qp **qpp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_ind_table *table = NULL;
    struct model_cq *send_cq = NULL, *recv_cq = NULL;
    struct model_pd *pd = NULL;
    struct model_qp *qp;
    bool rss;
    int error;

    *qpp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_QP);
    if (error) {
        goto out;
    }
    if (attr->qp_type != IBV_QPT_RAW_PACKET) {
        error = model_reject(dev, EOPNOTSUPP, "create_qp: QP type %d (the "
                             "model has raw packet QPs only)",
                             (int) attr->qp_type);
        goto out;
    }

    rss = (attr->comp_mask
           & (IBV_QP_INIT_ATTR_IND_TABLE | IBV_QP_INIT_ATTR_RX_HASH)) != 0;
    error = (rss
             ? model_check_rss_qp(dev, attr, &pd, &table)
             : model_check_raw_qp(dev, attr, &pd, &send_cq, &recv_cq));
    if (error) {
        goto out;
    }

    qp = xzalloc(sizeof *qp);
    qp->rss = rss;
    qp->pd = pd;
    pd->obj.users++;
    if (rss) {
        qp->ind_table = table;
        table->obj.users++;
        memcpy(qp->key, attr->rx_hash_conf.rx_hash_key, MODEL_RSS_KEY_LEN);
        qp->hash_fields = attr->rx_hash_conf.rx_hash_fields_mask;
    } else {
        qp->send_cq = send_cq;
        qp->recv_cq = recv_cq;
        send_cq->obj.users++;
        recv_cq->obj.users++;
        qp->max_send_wr = attr->cap.max_send_wr;
        /* Like libmlx5, report the rounded queue sizes. */
        if (attr->cap.max_send_wr) {
            attr->cap.max_send_wr = 1u << log_2_ceil(attr->cap.max_send_wr);
        }
        if (attr->cap.max_recv_wr) {
            attr->cap.max_recv_wr = 1u << log_2_ceil(attr->cap.max_recv_wr);
        }
    }
    model_obj_add(dev, &qp->obj, &qp->qp, MODEL_QP);

    qp->qp.context = ctx;
    qp->qp.qp_context = attr->qp_context;
    qp->qp.pd = attr->pd;
    qp->qp.send_cq = rss ? NULL : attr->send_cq;
    qp->qp.recv_cq = rss ? NULL : attr->recv_cq;
    qp->qp.srq = NULL;
    qp->qp.handle = qp->obj.handle;
    qp->qp.qp_num = qp->obj.handle & 0xffffff;
    /* There is no modify_qp op: an RSS QP receives as soon as it exists
     * and the raw QP is created ready to send. */
    qp->qp.state = rss ? IBV_QPS_RTR : IBV_QPS_RTS;
    qp->qp.qp_type = IBV_QPT_RAW_PACKET;
    *qpp = &qp->qp;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_qp(struct ibv_qp *ibv_qp)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct model_qp *qp;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_QP);
    if (error) {
        goto out;
    }
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    if (!qp) {
        error = model_reject(dev, EINVAL, "destroy_qp: unknown QP");
    } else if (qp->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_qp: QP %"PRIu32" has %u "
                             "flows", qp->obj.handle, qp->obj.users);
    } else {
        qp->pd->obj.users--;
        if (qp->rss) {
            qp->ind_table->obj.users--;
        } else {
            qp->send_cq->obj.users--;
            qp->recv_cq->obj.users--;
        }
        if (dev->hbl) {
            hw_model_hbl_qp_destroyed(ibv_qp);
        }
        model_obj_remove(dev, &qp->obj);
        free(qp);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Flows. */

/* Reads the objects an ibv_flow_attr buffer refers to (ACTION_HANDLE and
 * ACTION_COUNT specs), as the kernel looks their handles up before the
 * driver parses the rule: an object that is not a live one of this device
 * gives EINVAL.  The walk is the rule parser's (hw-model-spec.h), so every
 * object the parser finds is looked up here and held by the flow. */
static int
model_flow_lookup_handles(struct model_dev *dev,
                          const struct ibv_flow_attr *attr,
                          struct model_reformat **reformatp,
                          struct model_counters **countersp)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_spec_iter iter;
    struct hw_model_spec spec;

    *reformatp = NULL;
    *countersp = NULL;
    HW_MODEL_SPEC_FOR_EACH (&spec, &iter, hw_model_attr_specs(attr),
                            attr->num_of_specs) {
        if (spec.type == IBV_FLOW_SPEC_ACTION_HANDLE) {
            struct model_reformat *reformat
                = MODEL_FIND(dev, hw_model_spec_object(&spec), MODEL_REFORMAT,
                             struct model_reformat);
            if (!reformat) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "unknown flow action", spec.index);
            } else if (*reformatp) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "second packet reformat", spec.index);
            }
            *reformatp = reformat;
        } else if (spec.type == IBV_FLOW_SPEC_ACTION_COUNT) {
            struct model_counters *counters
                = MODEL_FIND(dev, hw_model_spec_object(&spec), MODEL_COUNTERS,
                             struct model_counters);
            if (!counters) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "unknown counters object", spec.index);
            }
            /* A second COUNT spec is the engine's EINVAL. */
            *countersp = counters;
        }
    }
    if (iter.error) {
        return model_reject(dev, iter.error, "create_flow: %s", iter.reason);
    }
    return 0;
}

static int
model_create_flow(struct ibv_qp *ibv_qp, struct ibv_flow_attr *attr,
                  struct ibv_flow **flowp)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct model_reformat *reformat;
    struct model_counters *counters;
    struct model_flow *mflow;
    struct ibv_flow *flow;
    struct model_qp *qp;
    int error;

    *flowp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_FLOW);
    if (error) {
        goto out;
    }
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    if (!qp) {
        error = model_reject(dev, EINVAL, "create_flow: unknown QP");
        goto out;
    }
    error = model_flow_lookup_handles(dev, attr, &reformat, &counters);
    if (error) {
        goto out;
    }

    error = hw_model_flow_create(dev->steering, ibv_qp, attr, &flow);
    if (error) {
        model_reject(dev, error, "create_flow: rule rejected");
        goto out;
    }

    /* The firmware refuses a reformat made for the other direction when it
     * writes the rule (hw-apis.md section 7, item 5). */
    if (reformat) {
        bool egress = (attr->flags & IBV_FLOW_ATTR_FLAGS_EGRESS) != 0;
        enum mlx5dv_flow_table_type want = (egress
                                            ? MLX5DV_FLOW_TABLE_TYPE_NIC_TX
                                            : MLX5DV_FLOW_TABLE_TYPE_NIC_RX);

        if (reformat->ft_type != want) {
            hw_model_flow_destroy(dev->steering, flow);
            error = model_reject(dev, EINVAL, "create_flow: %s rule with a "
                                 "reformat made for %s", egress ? "egress"
                                 : "ingress", egress ? "NIC_RX" : "NIC_TX");
            goto out;
        }
    }

    if (!flow->context) {
        flow->context = ibv_qp->context;
    }
    mflow = xzalloc(sizeof *mflow);
    mflow->flow = flow;
    mflow->qp = qp;
    mflow->reformat = reformat;
    mflow->counters = counters;
    qp->obj.users++;
    if (reformat) {
        reformat->obj.users++;
    }
    if (counters) {
        counters->obj.users++;
    }
    model_obj_add(dev, &mflow->obj, flow, MODEL_FLOW);
    *flowp = flow;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_flow(struct ibv_flow *flow)
{
    struct model_dev *dev = model_dev_from_ctx(flow->context);
    struct model_flow *mflow;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_FLOW);
    if (error) {
        goto out;
    }
    mflow = MODEL_FIND(dev, flow, MODEL_FLOW, struct model_flow);
    if (!mflow) {
        error = model_reject(dev, EINVAL, "destroy_flow: unknown flow");
        goto out;
    }
    error = hw_model_flow_destroy(dev->steering, flow);
    if (error) {
        model_reject(dev, error, "destroy_flow: steering engine refused");
        goto out;
    }
    mflow->qp->obj.users--;
    if (mflow->reformat) {
        mflow->reformat->obj.users--;
    }
    if (mflow->counters) {
        mflow->counters->obj.users--;
    }
    model_obj_remove(dev, &mflow->obj);
    free(mflow);
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Counters. */

static int
model_create_counters(struct ibv_context *ctx, struct ibv_counters **cp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_counters *mc;
    struct ibv_counters *counters;
    int error;

    *cp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_COUNTERS);
    if (error) {
        goto out;
    }
    error = hw_model_counters_create(ctx, &counters);
    if (error) {
        goto out;
    }
    if (!counters->context) {
        counters->context = ctx;
    }
    mc = xzalloc(sizeof *mc);
    mc->counters = counters;
    model_obj_add(dev, &mc->obj, counters, MODEL_COUNTERS);
    *cp = counters;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_attach_counters(struct ibv_counters *counters,
                      struct ibv_counter_attach_attr *attr)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_ATTACH_COUNTERS);
    if (!error) {
        error = (model_obj_find(dev, counters, MODEL_COUNTERS)
                 ? hw_model_counters_attach(counters, attr)
                 : model_reject(dev, EINVAL, "attach_counters: unknown "
                                "counters object"));
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_read_counters(struct ibv_counters *counters, uint64_t *values,
                    uint32_t n_values)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_READ_COUNTERS);
    if (!error) {
        error = (model_obj_find(dev, counters, MODEL_COUNTERS)
                 ? hw_model_counters_read(counters, values, n_values)
                 : model_reject(dev, EINVAL, "read_counters: unknown "
                                "counters object"));
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_counters(struct ibv_counters *counters)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    struct model_counters *mc;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_COUNTERS);
    if (error) {
        goto out;
    }
    mc = MODEL_FIND(dev, counters, MODEL_COUNTERS, struct model_counters);
    if (!mc) {
        error = model_reject(dev, EINVAL, "destroy_counters: unknown "
                             "counters object");
    } else if (mc->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_counters: counters "
                             "%"PRIu32" used by %u flows", mc->obj.handle,
                             mc->obj.users);
    } else {
        error = hw_model_counters_destroy(counters);
        if (!error) {
            model_obj_remove(dev, &mc->obj);
            free(mc);
        }
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Packet reformat actions. */

static const char *
model_reformat_type_name(enum mlx5dv_flow_action_packet_reformat_type type)
{
    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
        return "L2_TUNNEL_TO_L2";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
        return "L2_TO_L2_TUNNEL";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
        return "L3_TUNNEL_TO_L2";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        return "L2_TO_L3_TUNNEL";
    default:
        return "unknown";
    }
}

static int
model_create_reformat(struct ibv_context *ctx, size_t data_sz, void *data,
                      enum mlx5dv_flow_action_packet_reformat_type type,
                      enum mlx5dv_flow_table_type ft_type,
                      struct ibv_flow_action **actionp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_reformat *reformat;
    bool decap, valid_dir;
    int error;

    *actionp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_REFORMAT);
    if (error) {
        goto out;
    }

    /* libmlx5. */
    if ((data == NULL) != (data_sz == 0)) {
        error = model_reject(dev, EINVAL, "create_reformat: data %s but "
                             "size %"PRIuSIZE, data ? "given" : "missing",
                             data_sz);
        goto out;
    }

    /* Kernel (mlx5_ib_flow_action_packet_reformat_valid): decaps on NIC
     * RX, encaps on NIC TX, each gated by a capability. */
    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
        decap = true;
        valid_dir = ft_type == MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
        break;
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        decap = false;
        valid_dir = ft_type == MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
        break;
    default:
        decap = false;
        valid_dir = false;
        break;
    }
    if (!valid_dir || (unsigned int) type >= 32
        || !(dev->caps.reformat_types & (1u << type))) {
        error = model_reject(dev, EOPNOTSUPP, "create_reformat: %s (%d) on "
                             "flow table type %d not supported",
                             model_reformat_type_name(type), (int) type,
                             (int) ft_type);
        goto out;
    }

    if (type == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2) {
        if (data_sz) {
            error = model_reject(dev, EINVAL, "create_reformat: L2 decap "
                                 "takes no data (%"PRIuSIZE" bytes given)",
                                 data_sz);
            goto out;
        }
    } else if (type
               == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2) {
        if (data_sz != ETH_HEADER_LEN
            && data_sz != ETH_HEADER_LEN + VLAN_HEADER_LEN) {
            error = model_reject(dev, EINVAL, "create_reformat: L3 decap "
                                 "needs a 14 or 18 byte L2 header, not %"
                                 PRIuSIZE, data_sz);
            goto out;
        }
    } else if (!data_sz) {
        error = model_reject(dev, EINVAL, "create_reformat: %s without a "
                             "header", model_reformat_type_name(type));
        goto out;
    }
    if (data_sz > dev->caps.max_encap_header) {
        error = model_reject(dev, EINVAL, "create_reformat: %"PRIuSIZE
                             "-byte header above the device limit %"PRIu32,
                             data_sz, dev->caps.max_encap_header);
        goto out;
    }

    reformat = xzalloc(sizeof *reformat);
    reformat->type = type;
    reformat->ft_type = ft_type;
    reformat->size = data_sz;
    reformat->data = data_sz ? xmemdup(data, data_sz) : NULL;
    reformat->action.context = ctx;
    model_obj_add(dev, &reformat->obj, &reformat->action, MODEL_REFORMAT);
    VLOG_DBG("%s: reformat %"PRIu32": %s %s, %"PRIuSIZE" bytes", dev->name,
             reformat->obj.handle, model_reformat_type_name(type),
             decap ? "NIC_RX" : "NIC_TX", data_sz);
    *actionp = &reformat->action;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static int
model_destroy_action(struct ibv_flow_action *action)
{
    struct model_dev *dev = model_dev_from_ctx(action->context);
    struct model_reformat *reformat;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_ACTION);
    if (error) {
        goto out;
    }
    reformat = MODEL_FIND(dev, action, MODEL_REFORMAT,
                          struct model_reformat);
    if (!reformat) {
        error = model_reject(dev, EINVAL, "destroy_action: unknown action");
    } else if (reformat->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_action: reformat %"PRIu32
                             " used by %u flows", reformat->obj.handle,
                             reformat->obj.users);
    } else {
        model_obj_remove(dev, &reformat->obj);
        free(reformat->data);
        free(reformat);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Datapath. */

/* The Toeplitz hash the QP's TIR computes for 'parsed', 0 if the QP hashes
 * nothing or the packet's type does not fit its fields. */
static uint32_t
model_rss_hash(const struct model_qp *qp,
               const struct hw_model_parsed *parsed)
{
    if (!qp->hash_fields) {
        return 0;
    }
    return hw_toeplitz_hash_parsed(qp->key, sizeof qp->key, parsed,
                                   qp->hash_fields);
}

static struct vlog_rate_limit model_dp_rl = VLOG_RATE_LIMIT_INIT(5, 20);

static void
model_count_drop(uint64_t *counter)
{
    (*counter)++;
    COVERAGE_INC(hw_model_drop);
}

/* Applies the decap 'reformat' of an ingress rule to 'packet'.  A packet
 * without the tunnel the decap removes goes on unchanged (a model
 * assumption: the PRM applies a decap only to a tunnelled packet). */
static void
model_apply_decap(struct model_dev *dev, struct dp_packet *packet,
                  const struct hw_model_parsed *parsed,
                  const struct model_reformat *reformat)
    OVS_REQUIRES(dev->mutex)
{
    int error = hw_model_reformat_decap(packet, parsed, reformat->type,
                                        reformat->data, reformat->size);

    if (!error) {
        dev->stats.rx_decap++;
    } else {
        dev->stats.rx_decap_skipped++;
        VLOG_DBG_RL(&model_dp_rl, "%s: reformat %"PRIu32" (%s) not "
                    "applied: %s", dev->name, reformat->obj.handle,
                    model_reformat_type_name(reformat->type),
                    ovs_strerror(error));
    }
}

/* Delivers 'packet', which 'parsed' describes, as the ingress 'verdict'
 * says.  Returns 0 if it was queued on a WQ, otherwise frees it and returns
 * the reason (see hw-model.h). */
static int
model_deliver(struct model_dev *dev, struct dp_packet *packet,
              const struct hw_model_parsed *parsed,
              const struct hw_model_verdict *verdict)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_stats *stats = &dev->stats;
    struct model_rx_entry *entry;
    struct model_ind_table *table;
    struct model_wq *wq;
    struct model_qp *qp;
    uint32_t hash;
    int error;

    if (!verdict->matched) {
        /* No default path: the plugin installs ALL_DEFAULT miss rules. */
        model_count_drop(&stats->rx_drop_no_rule);
        error = ENOENT;
        goto drop;
    }
    if (verdict->drop || !verdict->qp) {
        model_count_drop(&stats->rx_drop_rule);
        error = EPERM;
        goto drop;
    }

    /* A flow's QP cannot be destroyed while the flow exists. */
    qp = CONTAINER_OF(verdict->qp, struct model_qp, qp);
    if (!qp->rss) {
        model_count_drop(&stats->rx_drop_no_rq);
        error = EPROTOTYPE;
        goto drop;
    }

    if (verdict->reformat) {
        /* A flow's reformat cannot be destroyed while the flow exists. */
        model_apply_decap(dev, packet, parsed,
                          CONTAINER_OF(verdict->reformat,
                                       struct model_reformat, action));
    }

    /* The TIR hashes the outer headers: the model's QPs have no
     * IBV_RX_HASH_INNER. */
    table = qp->ind_table;
    hash = model_rss_hash(qp, parsed);
    wq = table->wqs[hash & ((1u << table->log_size) - 1)];
    if (wq->wq.state != IBV_WQS_RDY) {
        wq->drop_not_ready++;
        model_count_drop(&stats->rx_drop_wq_not_ready);
        error = ENETDOWN;
        goto drop;
    }
    if (model_wq_n_queued(wq) >= wq->ring_size) {
        wq->drop_full++;
        model_count_drop(&stats->rx_drop_wq_full);
        error = ENOBUFS;
        goto drop;
    }

    entry = &wq->ring[wq->tail & (wq->ring_size - 1)];
    entry->packet = packet;
    entry->tag = verdict->tag;
    entry->hash = hash;
    wq->tail++;
    wq->n_queued++;
    wq->n_bytes += dp_packet_size(packet);
    stats->rx_delivered++;
    return 0;

drop:
    dp_packet_delete(packet);
    return error;
}

static void model_wire_out(struct model_dev *, struct dp_packet *);

/* Delivers every copy of a packet that the pipeline made.  Returns 0 if
 * one of them was queued on a WQ or left on the wire, otherwise the reason
 * for the last one. */
static int
model_receive_dr(struct model_dev *dev, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_dr_result result;
    bool delivered = false;
    int error = ENOENT;

    hw_model_dr_receive(dev->dr, dev->steering, packet, &dev->stats,
                        &result);
    for (size_t i = 0; i < result.n; i++) {
        struct hw_model_dr_output *out = &result.out[i];
        struct hw_model_parsed parsed;

        if (out->fate == HW_MODEL_DR_WIRE) {
            model_wire_out(dev, out->packet);
            dp_packet_delete(out->packet);
            error = 0;
        } else {
            hw_model_steering_parse(dev->steering, out->packet, &parsed);
            error = model_deliver(dev, out->packet, &parsed, &out->verdict);
        }
        delivered |= !error;
    }
    return delivered ? 0 : error;
}

/* Delivers 'packet' arriving on 'dev''s wire.  Returns 0 if it was queued
 * on a WQ, otherwise frees it and returns the reason (see hw-model.h). */
static int
model_receive(struct model_dev *dev, struct dp_packet *packet,
              const struct hw_model_parsed *parsed)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_verdict verdict;

    COVERAGE_INC(hw_model_rx);
    dev->stats.rx_packets++;
    dev->stats.rx_bytes += dp_packet_size(packet);

    if (hw_model_dr_active(dev->dr, true)) {
        return model_receive_dr(dev, packet);
    }
    hw_model_steering_lookup(dev->steering, parsed, dp_packet_size(packet),
                             false, &verdict);
    return model_deliver(dev, packet, parsed, &verdict);
}

int
hw_model_receive(const char *devname, struct dp_packet *packet)
{
    struct hw_model_parsed parsed;
    struct model_dev *dev;
    int error;

    dev = model_dev_lookup(devname, false);
    if (!dev) {
        dp_packet_delete(packet);
        return ENODEV;
    }

    /* A frame from the wire carries no metadata of an earlier life. */
    dp_packet_reset_offload(packet);

    ovs_mutex_lock(&dev->mutex);
    hw_model_steering_parse(dev->steering, packet, &parsed);
    error = model_receive(dev, packet, &parsed);
    ovs_mutex_unlock(&dev->mutex);

    if (!error) {
        seq_change(model_rx_seq);
    }
    return error;
}

static int
model_rx_burst(struct ibv_wq *ibv_wq, struct ibv_cq_ex *cq,
               struct dp_packet_batch *batch)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_wq->context);
    uint32_t mask, n, room;
    struct model_wq *wq;

    if (ovs_mutex_trylock(&dev->mutex)) {
        /* The device is busy, e.g. queueing a burst from the wire.  A real
         * NIC never makes the host wait on its ring: it looks empty for
         * now and the PMD polls again, instead of sleeping on the mutex
         * (which would count as its busy cycles). */
        return EAGAIN;
    }

    /* Like a verbs provider's datapath calls, this trusts 'ibv_wq' to be a
     * live WQ of the device rather than looking it up among the device's
     * objects: that map holds every flow too, and probing it cost a cache
     * miss on every poll.  The WQ's own record still tells it from another
     * kind of object. */
    wq = CONTAINER_OF(ibv_wq, struct model_wq, wq);
    if (wq->obj.kind != MODEL_WQ || wq->obj.verbs != ibv_wq
        || (cq && &wq->cq->cq != cq)) {
        ovs_mutex_unlock(&dev->mutex);
        return model_reject(dev, EINVAL, "rx_burst: %s",
                            wq->obj.kind == MODEL_WQ ? "CQ is not the WQ's"
                            : "unknown WQ");
    }

    room = NETDEV_MAX_BURST - dp_packet_batch_size(batch);
    n = MIN(wq->tail - wq->head, room);
    mask = wq->ring_size - 1;

    /* The packets were last written by the thread that received them from
     * the wire, on another CPU.  Ask for all of them first, so that their
     * cache misses overlap instead of coming one after another, as a NIC
     * driver prefetches the buffers of its completions. */
    for (uint32_t i = 0; i < n; i++) {
        OVS_PREFETCH_WRITE(wq->ring[(wq->head + i) & mask].packet);
    }
    for (uint32_t i = 0; i < n; i++) {
        struct model_rx_entry *e = &wq->ring[(wq->head + i) & mask];
        struct dp_packet *packet = e->packet;

        e->packet = NULL;
        if (e->tag) {
            dp_packet_set_flow_mark(packet, e->tag);
        }
        /* Like the mlx5 PMD, report a hash only when the TIR computed one:
         * a 0 result means the packet was not hashed. */
        if (e->hash) {
            dp_packet_set_rss_hash(packet, e->hash);
        }
        /* The datapath parses the headers next. */
        OVS_PREFETCH(dp_packet_data(packet));
        dp_packet_batch_add(batch, packet);
    }
    wq->head += n;
    wq->n_read += n;
    ovs_mutex_unlock(&dev->mutex);
    return n ? 0 : EAGAIN;
}

/* Applies the encap 'reformat' of an egress rule to 'packet'.  Returns
 * false if the hardware cannot send the result. */
static bool
model_apply_encap(struct model_dev *dev, struct dp_packet *packet,
                  const struct model_reformat *reformat)
    OVS_REQUIRES(dev->mutex)
{
    int error = hw_model_reformat_encap(packet, reformat->type,
                                        reformat->data, reformat->size);

    if (error) {
        VLOG_DBG_RL(&model_dp_rl, "%s: reformat %"PRIu32" (%s) failed: %s",
                    dev->name, reformat->obj.handle,
                    model_reformat_type_name(reformat->type),
                    ovs_strerror(error));
        return false;
    }
    dev->stats.tx_encap++;
    return true;
}

/* Applies the hbl encap of send QP 'qp', if it has one, to 'packet'
 * (hw-model-hbl.h).  Returns false if the hardware cannot send the
 * result. */
static bool
model_apply_hbl(struct model_dev *dev, const struct ibv_qp *qp,
                struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    bool encapped;
    int error = hw_model_hbl_tx(qp, packet, &encapped);

    if (error) {
        VLOG_DBG_RL(&model_dp_rl, "%s: hbl encap failed: %s", dev->name,
                    ovs_strerror(error));
        return false;
    }
    if (encapped) {
        dev->stats.tx_encap++;
    }
    return true;
}

/* 'packet' leaves on the wire of 'dev'. */
static void
model_wire_out(struct model_dev *dev, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    COVERAGE_INC(hw_model_tx);
    dev->stats.tx_packets++;
    dev->stats.tx_bytes += dp_packet_size(packet);
    if (dev->pcap) {
        ovs_pcap_write(dev->pcap, packet);
    }
    if (dev->wire_tx) {
        dev->wire_tx(dev->wire_tx_aux, packet);
    }
}

/* Sends 'packet', which the host put on a send QP, through the egress
 * rules, then onto the wire.  Returns true if it left.  Frees 'packet'. */
static bool
model_send_one(struct model_dev *dev, struct dp_packet *packet,
               const struct hw_model_verdict *verdict)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_stats *stats = &dev->stats;
    bool sent = false;

    if (verdict->matched && verdict->drop) {
        model_count_drop(&stats->tx_drop_rule);
    } else if (verdict->matched && verdict->reformat
               && !model_apply_encap(dev, packet,
                                     CONTAINER_OF(verdict->reformat,
                                                  struct model_reformat,
                                                  action))) {
        model_count_drop(&stats->tx_drop_encap);
    } else {
        model_wire_out(dev, packet);
        sent = true;
    }
    dp_packet_delete(packet);
    return sent;
}

/* Sends 'packet' through the pipeline's NIC TX domain.  Returns true if a
 * copy of it left on the wire.  Frees 'packet'. */
static bool
model_send_dr(struct model_dev *dev, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_dr_result result;
    bool sent = false;

    hw_model_dr_send(dev->dr, dev->steering, packet, &dev->stats, &result);
    for (size_t i = 0; i < result.n; i++) {
        struct hw_model_dr_output *out = &result.out[i];

        if (out->fate == HW_MODEL_DR_WIRE) {
            model_wire_out(dev, out->packet);
            dp_packet_delete(out->packet);
            sent = true;
        } else {
            sent |= model_send_one(dev, out->packet, &out->verdict);
        }
    }
    return sent;
}

static int
model_tx_burst(struct ibv_qp *ibv_qp, struct dp_packet_batch *batch)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct hw_model_stats *stats = &dev->stats;
    struct dp_packet *packet;
    struct model_qp *qp;
    int n_dropped = 0;
    bool cannot_send;

    ovs_mutex_lock(&dev->mutex);
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        struct hw_model_verdict verdict;
        struct hw_model_parsed parsed;
        size_t size = dp_packet_size(packet);
        bool sent = false;

        if (!qp || qp->rss || !qp->max_send_wr || !dp_packet_is_eth(packet)
            || size < ETH_HEADER_LEN) {
            model_count_drop(&stats->tx_drop_invalid);
            dp_packet_delete(packet);
        } else if (dev->hbl && !model_apply_hbl(dev, ibv_qp, packet)) {
            model_count_drop(&stats->tx_drop_encap);
            dp_packet_delete(packet);
        } else if (hw_model_dr_active(dev->dr, false)) {
            sent = model_send_dr(dev, packet);
        } else {
            /* An hbl encap changed the frame. */
            hw_model_steering_parse(dev->steering, packet, &parsed);
            hw_model_steering_lookup(dev->steering, &parsed,
                                     dp_packet_size(packet), true, &verdict);
            sent = model_send_one(dev, packet, &verdict);
        }
        n_dropped += !sent;
    }
    dp_packet_batch_init(batch);
    cannot_send = !qp || qp->rss;
    ovs_mutex_unlock(&dev->mutex);

    if (cannot_send) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

        VLOG_WARN_RL(&rl, "%s: tx_burst on a QP that cannot send",
                     dev->name);
    }
    return n_dropped;
}

const struct hw_dev_ops hw_model_ops = {
    .name = "model",
    .fwdump_reg_addresses = true,
    .handles = model_op_handles,
    .identify = model_identify,
    .open = model_open,
    .close = model_close,
    .query_caps = model_query_caps,
    .alloc_pd = model_alloc_pd,
    .dealloc_pd = model_dealloc_pd,
    .create_cq = model_create_cq,
    .destroy_cq = model_destroy_cq,
    .create_wq = model_create_wq,
    .modify_wq = model_modify_wq,
    .destroy_wq = model_destroy_wq,
    .create_rwq_ind_table = model_create_rwq_ind_table,
    .destroy_rwq_ind_table = model_destroy_rwq_ind_table,
    .create_qp = model_create_qp,
    .destroy_qp = model_destroy_qp,
    .create_flow = model_create_flow,
    .destroy_flow = model_destroy_flow,
    .create_counters = model_create_counters,
    .attach_counters = model_attach_counters,
    .read_counters = model_read_counters,
    .destroy_counters = model_destroy_counters,
    .create_reformat = model_create_reformat,
    .destroy_action = model_destroy_action,
    .rx_burst = model_rx_burst,
    .tx_burst = model_tx_burst,
    .fwdump_force = hw_model_fwdump_force,
    .fwdump_get = hw_model_fwdump_get,
    .fwdump_reset = hw_model_fwdump_reset,
    .create_encap = hw_model_hbl_create_encap,
    .destroy_encap = hw_model_hbl_destroy_encap,
    .hbl_modify_qp = hw_model_hbl_modify_qp,
    .hbl_query_port = hw_model_hbl_query_port,
    .dr_domain_create = hw_model_dr_domain_create,
    .dr_domain_sync = hw_model_dr_domain_sync,
    .dr_domain_destroy = hw_model_dr_domain_destroy,
    .dr_table_create = hw_model_dr_table_create,
    .dr_table_destroy = hw_model_dr_table_destroy,
    .dr_matcher_create = hw_model_dr_matcher_create,
    .dr_matcher_destroy = hw_model_dr_matcher_destroy,
    .dr_rule_create = hw_model_dr_rule_create,
    .dr_rule_destroy = hw_model_dr_rule_destroy,
    .dr_action_create = hw_model_dr_action_create,
    .dr_action_destroy = hw_model_dr_action_destroy,
    .dr_counter_create = hw_model_dr_counter_create,
    .dr_counter_query = hw_model_dr_counter_query,
    .dr_counter_destroy = hw_model_dr_counter_destroy,
};

int
hw_model_with_send_qp(struct ibv_qp *ibv_qp, hw_model_qp_func *func,
                      void *aux)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct model_qp *qp;
    int error;

    ovs_mutex_lock(&dev->mutex);
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    error = qp && !qp->rss && qp->max_send_wr ? func(ibv_qp, aux) : ENOENT;
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Test and management interface. */

int
hw_model_set_fault(const char *devname, const char *op, int error,
                   unsigned int count)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        return ENODEV;
    }
    for (int i = 0; i < MODEL_N_OPS; i++) {
        if (!strcmp(op, model_op_names[i])) {
            if (!error || !count) {
                error = 0;
                count = 0;
            }
            ovs_mutex_lock(&dev->mutex);
            dev->faults[i].error = error;
            dev->faults[i].count = count;
            ovs_mutex_unlock(&dev->mutex);
            if (count) {
                VLOG_INFO("%s: next %u %s calls fail with %s", devname,
                          count, op, ovs_strerror(error));
            } else {
                VLOG_INFO("%s: %s fault cleared", devname, op);
            }
            return 0;
        }
    }
    return EINVAL;
}

int
hw_model_set_pcap(const char *devname, const char *file_name)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    struct pcap_file *pcap = NULL;

    if (!dev) {
        return ENODEV;
    }
    if (file_name && file_name[0] && strcmp(file_name, "none")) {
        pcap = ovs_pcap_open(file_name, "wb");
        if (!pcap) {
            return errno ? errno : EIO;
        }
    }

    ovs_mutex_lock(&dev->mutex);
    if (dev->pcap) {
        ovs_pcap_close(dev->pcap);
    }
    free(dev->pcap_name);
    dev->pcap = pcap;
    dev->pcap_name = pcap ? xstrdup(file_name) : NULL;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

int
hw_model_set_vxlan_port(const char *devname, bool add, uint16_t port)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    int error;

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    error = (add
             ? hw_model_steering_add_vxlan_port(dev->steering, port)
             : hw_model_steering_del_vxlan_port(dev->steering, port));
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
hw_model_set_wire_tx(const char *devname, hw_model_wire_tx_func *func,
                     void *aux)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    int error = 0;

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    if (func && dev->wire_tx
        && (dev->wire_tx != func || dev->wire_tx_aux != aux)) {
        error = EBUSY;
    } else {
        dev->wire_tx = func;
        dev->wire_tx_aux = func ? aux : NULL;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

static void
model_fill_objects(struct model_dev *dev, struct hw_model_objects *objs)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_dr_objects dr;

    hw_model_dr_count(dev->dr, &dr);
    objs->dr_domain = dr.domain;
    objs->dr_table = dr.table;
    objs->dr_matcher = dr.matcher;
    objs->dr_rule = dr.rule;
    objs->dr_action = dr.action;
    objs->dr_counter = dr.counter;
    objs->pd = dev->n_objs[MODEL_PD];
    objs->cq = dev->n_objs[MODEL_CQ];
    objs->wq = dev->n_objs[MODEL_WQ];
    objs->ind_table = dev->n_objs[MODEL_IND_TABLE];
    objs->qp = dev->n_objs[MODEL_QP];
    objs->flow = dev->n_objs[MODEL_FLOW];
    objs->counters = dev->n_objs[MODEL_COUNTERS];
    objs->reformat = dev->n_objs[MODEL_REFORMAT];
    objs->total = model_total_objects(dev);
}

int
hw_model_count_objects(const char *devname, struct hw_model_objects *objs)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        memset(objs, 0, sizeof *objs);
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    model_fill_objects(dev, objs);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

int
hw_model_set_dr_max_rules(const char *devname, uint32_t max_rules)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    hw_model_dr_set_max_rules(dev->dr, max_rules);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

int
hw_model_get_stats(const char *devname, struct hw_model_stats *stats)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        memset(stats, 0, sizeof *stats);
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    *stats = dev->stats;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

/* unixctl. */

static struct model_dev *
model_unixctl_dev(struct unixctl_conn *conn, const char *devname)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        char *msg = xasprintf("%s: no such model device%s", devname,
                              (hw_model_handles(devname)
                               ? " (not opened yet)" : ""));
        unixctl_command_reply_error(conn, msg);
        free(msg);
    }
    return dev;
}

/* Builds a frame from 'hex' bytes or, failing that, from an ODP flow
 * string padded to 'size' bytes (0: the minimum).  Returns NULL and an
 * error message in '*errorp' on failure. */
static struct dp_packet *
model_packet_from_string(const char *s, size_t size, char **errorp)
{
    struct dp_packet *packet;
    struct ofpbuf odp_key;
    struct flow flow;

    *errorp = NULL;
    if (!size && !eth_from_hex(s, &packet)) {
        return packet;
    }

    ofpbuf_init(&odp_key, 0);
    if (odp_flow_from_string(s, NULL, &odp_key, NULL, errorp)) {
        goto error;
    }
    if (odp_flow_key_to_flow(odp_key.data, odp_key.size, &flow, errorp)
        == ODP_FIT_ERROR) {
        goto error;
    }
    packet = dp_packet_new(0);
    flow_compose(packet, &flow, NULL, 0);
    if (size) {
        if (dp_packet_size(packet) > size) {
            dp_packet_delete(packet);
            *errorp = xasprintf("packet of %"PRIu32" bytes is longer than "
                                "--len %"PRIuSIZE, dp_packet_size(packet),
                                size);
            goto error;
        }
        packet_expand(packet, &flow, size);
    } else if (dp_packet_size(packet) < ETH_TOTAL_MIN) {
        packet_expand(packet, &flow, ETH_TOTAL_MIN);
    }
    ofpbuf_uninit(&odp_key);
    return packet;

error:
    if (!*errorp) {
        *errorp = xasprintf("cannot parse \"%s\" as a packet", s);
    }
    ofpbuf_uninit(&odp_key);
    return NULL;
}

/* Delivers the 'n' frames of 'packets', which arrive back to back on the
 * wire of 'dev', under one hold of the device mutex: they land on the
 * receive queues together, as a burst does, and a host polling the queues
 * sees none or all of them.  Takes ownership of the packets. */
static void
model_receive_burst(struct model_dev *dev, struct dp_packet **packets,
                    size_t n)
{
    bool delivered = false;

    ovs_mutex_lock(&dev->mutex);
    for (size_t i = 0; i < n; i++) {
        struct hw_model_parsed parsed;

        dp_packet_reset_offload(packets[i]);
        hw_model_steering_parse(dev->steering, packets[i], &parsed);
        delivered |= !model_receive(dev, packets[i], &parsed);
    }
    ovs_mutex_unlock(&dev->mutex);

    if (delivered) {
        seq_change(model_rx_seq);
    }
}

static void
model_unixctl_receive(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    struct dp_packet **packets;
    struct model_dev *dev;
    size_t n_packets = 0;
    char *error = NULL;

    dev = model_unixctl_dev(conn, argv[1]);
    if (!dev) {
        return;
    }

    /* Build every packet first, so that a bad argument injects nothing. */
    packets = xmalloc(argc * sizeof *packets);
    for (int i = 2; i < argc && !error; i++) {
        const char *s = argv[i];
        unsigned int size = 0;

        if (i + 1 < argc && !strcmp(argv[i + 1], "--len")) {
            if (i + 2 >= argc || !str_to_uint(argv[i + 2], 10, &size)
                || size < ETH_TOTAL_MIN || size > UINT16_MAX) {
                error = xasprintf("--len needs a length from %d to %d",
                                  ETH_TOTAL_MIN, UINT16_MAX);
                break;
            }
            i += 2;
        }
        packets[n_packets] = model_packet_from_string(s, size, &error);
        if (packets[n_packets]) {
            n_packets++;
        }
    }

    if (error) {
        for (size_t i = 0; i < n_packets; i++) {
            dp_packet_delete(packets[i]);
        }
        unixctl_command_reply_error(conn, error);
        free(error);
    } else {
        model_receive_burst(dev, packets, n_packets);
        unixctl_command_reply(conn, NULL);
    }
    free(packets);
}

static void
model_unixctl_set_pcap(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[], void *aux OVS_UNUSED)
{
    int error;

    if (!model_unixctl_dev(conn, argv[1])) {
        return;
    }
    error = hw_model_set_pcap(argv[1], argv[2]);
    if (error) {
        char *msg = xasprintf("%s: %s", argv[2], ovs_strerror(error));
        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
model_format_objects(struct model_dev *dev, struct ds *s)
{
    struct hw_model_objects objs;

    ovs_mutex_lock(&dev->mutex);
    model_fill_objects(dev, &objs);
    ovs_mutex_unlock(&dev->mutex);

    ds_put_format(s, "%s: pd=%"PRIuSIZE" cq=%"PRIuSIZE" wq=%"PRIuSIZE
                  " ind_table=%"PRIuSIZE" qp=%"PRIuSIZE" flow=%"PRIuSIZE
                  " counters=%"PRIuSIZE" reformat=%"PRIuSIZE, dev->name,
                  objs.pd, objs.cq, objs.wq, objs.ind_table, objs.qp,
                  objs.flow, objs.counters, objs.reformat);
    /* The pipeline's objects, when there are any. */
    if (objs.dr_domain + objs.dr_table + objs.dr_matcher + objs.dr_rule
        + objs.dr_action + objs.dr_counter) {
        ds_put_format(s, " dr_domain=%"PRIuSIZE" dr_table=%"PRIuSIZE
                      " dr_matcher=%"PRIuSIZE" dr_rule=%"PRIuSIZE
                      " dr_action=%"PRIuSIZE" dr_counter=%"PRIuSIZE,
                      objs.dr_domain, objs.dr_table, objs.dr_matcher,
                      objs.dr_rule, objs.dr_action, objs.dr_counter);
    }
    ds_put_format(s, " total=%"PRIuSIZE"\n", objs.total);
}

static void
model_unixctl_objects(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct model_dev *dev = model_unixctl_dev(conn, argv[1]);

        if (!dev) {
            return;
        }
        model_format_objects(dev, &s);
    } else {
        const struct shash_node **nodes;
        size_t n;

        ovs_mutex_lock(&model_registry_mutex);
        nodes = shash_sort(&model_devs);
        n = shash_count(&model_devs);
        ovs_mutex_unlock(&model_registry_mutex);

        /* Devices are never freed, so the nodes stay valid. */
        for (size_t i = 0; i < n; i++) {
            model_format_objects(nodes[i]->data, &s);
        }
        free(nodes);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
model_unixctl_rules(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    struct ds s = DS_EMPTY_INITIALIZER;

    if (!dev) {
        return;
    }
    ovs_mutex_lock(&dev->mutex);
    hw_model_steering_format(dev->steering, &s);
    hw_model_dr_format(dev->dr, &s);
    ovs_mutex_unlock(&dev->mutex);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static int
model_wq_compare(const void *a_, const void *b_)
{
    const struct model_wq *const *a = a_;
    const struct model_wq *const *b = b_;

    return ((*a)->obj.handle > (*b)->obj.handle
            ? 1 : (*a)->obj.handle < (*b)->obj.handle ? -1 : 0);
}

static void
model_unixctl_stats(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct hw_model_stats *st;
    struct model_wq **wqs;
    struct model_obj *obj;
    size_t n_wqs = 0;

    if (!dev) {
        return;
    }

    ovs_mutex_lock(&dev->mutex);
    st = &dev->stats;
    ds_put_format(&s, "%s:\n", dev->name);
    ds_put_format(&s, "  rx: packets=%"PRIu64" bytes=%"PRIu64
                  " delivered=%"PRIu64"\n", st->rx_packets, st->rx_bytes,
                  st->rx_delivered);
    ds_put_format(&s, "  rx drops: rule=%"PRIu64" no_rule=%"PRIu64
                  " no_rq=%"PRIu64" wq_not_ready=%"PRIu64" wq_full=%"PRIu64
                  "\n", st->rx_drop_rule, st->rx_drop_no_rule,
                  st->rx_drop_no_rq, st->rx_drop_wq_not_ready,
                  st->rx_drop_wq_full);
    ds_put_format(&s, "  tx: packets=%"PRIu64" bytes=%"PRIu64"\n",
                  st->tx_packets, st->tx_bytes);
    ds_put_format(&s, "  tx drops: rule=%"PRIu64" invalid=%"PRIu64
                  " encap=%"PRIu64"\n", st->tx_drop_rule,
                  st->tx_drop_invalid, st->tx_drop_encap);
    ds_put_format(&s, "  tunnel: decap=%"PRIu64" decap_skipped=%"PRIu64
                  " encap=%"PRIu64"\n", st->rx_decap, st->rx_decap_skipped,
                  st->tx_encap);
    ds_put_format(&s, "  pipeline: hits=%"PRIu64" drop_miss=%"PRIu64
                  " skipped=%"PRIu64" hairpin=%"PRIu64"\n", st->dr_rule_hits,
                  st->dr_drop_miss, st->dr_modify_skipped, st->dr_hairpin);

    wqs = xmalloc(MAX(dev->n_objs[MODEL_WQ], 1) * sizeof *wqs);
    HMAP_FOR_EACH (obj, node, &dev->objects) {
        if (obj->kind == MODEL_WQ) {
            wqs[n_wqs++] = CONTAINER_OF(obj, struct model_wq, obj);
        }
    }
    qsort(wqs, n_wqs, sizeof *wqs, model_wq_compare);
    for (size_t i = 0; i < n_wqs; i++) {
        const struct model_wq *wq = wqs[i];

        ds_put_format(&s, "  wq %"PRIu32": state=%s ring=%"PRIu32
                      " waiting=%"PRIu32" queued=%"PRIu64" bytes=%"PRIu64
                      " read=%"PRIu64" flushed=%"PRIu64
                      " drop_not_ready=%"PRIu64" drop_full=%"PRIu64"\n",
                      wq->obj.handle, model_wq_state_name(wq->wq.state),
                      wq->ring_size, model_wq_n_queued(wq), wq->n_queued,
                      wq->n_bytes, wq->n_read, wq->n_flushed,
                      wq->drop_not_ready, wq->drop_full);
    }
    free(wqs);
    if (dev->pcap_name) {
        ds_put_format(&s, "  pcap: %s\n", dev->pcap_name);
    }
    ovs_mutex_unlock(&dev->mutex);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static const struct {
    const char *name;
    int value;
} model_errno_names[] = {
#define MODEL_ERRNO(E) { #E, E }
    MODEL_ERRNO(EPERM), MODEL_ERRNO(ENOENT), MODEL_ERRNO(EIO),
    MODEL_ERRNO(ENXIO), MODEL_ERRNO(E2BIG), MODEL_ERRNO(EAGAIN),
    MODEL_ERRNO(ENOMEM), MODEL_ERRNO(EACCES), MODEL_ERRNO(EFAULT),
    MODEL_ERRNO(EBUSY), MODEL_ERRNO(EEXIST), MODEL_ERRNO(ENODEV),
    MODEL_ERRNO(EINVAL), MODEL_ERRNO(ENOSPC), MODEL_ERRNO(ERANGE),
    MODEL_ERRNO(ENOSYS), MODEL_ERRNO(EOPNOTSUPP), MODEL_ERRNO(ENOTSUP),
    MODEL_ERRNO(ENOBUFS), MODEL_ERRNO(ETIMEDOUT), MODEL_ERRNO(EDQUOT),
    MODEL_ERRNO(ENETDOWN), MODEL_ERRNO(ECONNRESET), MODEL_ERRNO(EPROTO),
#undef MODEL_ERRNO
};

static bool
model_parse_errno(const char *s, int *errorp)
{
    for (size_t i = 0; i < ARRAY_SIZE(model_errno_names); i++) {
        if (!strcasecmp(s, model_errno_names[i].name)) {
            *errorp = model_errno_names[i].value;
            return true;
        }
    }
    return str_to_int(s, 10, errorp) && *errorp >= 0;
}

static void
model_unixctl_fault(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *aux OVS_UNUSED)
{
    unsigned int count = 1;
    int error, value;
    char *msg;

    if (!model_unixctl_dev(conn, argv[1])) {
        return;
    }
    if (!model_parse_errno(argv[3], &value)) {
        msg = xasprintf("%s: not an errno name or number", argv[3]);
        goto error;
    }
    if (argc > 4 && !str_to_uint(argv[4], 10, &count)) {
        msg = xasprintf("%s: not a count", argv[4]);
        goto error;
    }
    error = hw_model_set_fault(argv[1], argv[2], value, count);
    if (error) {
        struct ds ops = DS_EMPTY_INITIALIZER;

        for (int i = 0; i < MODEL_N_OPS; i++) {
            ds_put_format(&ops, " %s", model_op_names[i]);
        }
        msg = xasprintf("%s: unknown operation (one of:%s)", argv[2],
                        ds_cstr(&ops));
        ds_destroy(&ops);
        goto error;
    }
    unixctl_command_reply(conn, NULL);
    return;

error:
    unixctl_command_reply_error(conn, msg);
    free(msg);
}

/* "hw-model/vxlan-port DEV [add|del PORT]": changes the device's VXLAN
 * ports, then replies with them. */
static void
model_unixctl_vxlan_port(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS];
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t n_ports;

    if (!dev) {
        return;
    }
    if (argc > 2) {
        bool add = !strcmp(argv[2], "add");
        unsigned int port;
        int error;

        if ((!add && strcmp(argv[2], "del")) || argc != 4) {
            unixctl_command_reply_error(conn, "usage: hw-model/vxlan-port "
                                        "DEV [add|del PORT]");
            return;
        }
        if (!str_to_uint(argv[3], 10, &port) || !port || port > 65535) {
            unixctl_command_reply_error(conn, "PORT must be a UDP port "
                                        "from 1 to 65535");
            return;
        }
        error = hw_model_set_vxlan_port(argv[1], add, port);
        if (error) {
            char *msg = xasprintf("%s: cannot %s VXLAN port %u: %s%s",
                                  argv[1], argv[2], port,
                                  ovs_strerror(error),
                                  error == EPERM
                                  ? " (the device always has 4789)"
                                  : error == ENOSPC
                                  ? " (the device has 4 VXLAN ports)" : "");
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    ovs_mutex_lock(&dev->mutex);
    n_ports = hw_model_steering_get_vxlan_ports(dev->steering, ports);
    ovs_mutex_unlock(&dev->mutex);
    ds_put_format(&s, "%s: vxlan ports:", dev->name);
    for (size_t i = 0; i < n_ports; i++) {
        ds_put_format(&s, " %"PRIu16, ports[i]);
    }
    ds_put_char(&s, '\n');
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
hw_model_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    model_global_init();
    if (!ovsthread_once_start(&once)) {
        return;
    }
    unixctl_command_register("hw-model/receive",
                             "DEV PACKET|FLOW [--len LEN]...", 2, INT_MAX,
                             model_unixctl_receive, NULL);
    unixctl_command_register("hw-model/set-pcap", "DEV FILE|none", 2, 2,
                             model_unixctl_set_pcap, NULL);
    unixctl_command_register("hw-model/objects", "[DEV]", 0, 1,
                             model_unixctl_objects, NULL);
    unixctl_command_register("hw-model/rules", "DEV", 1, 1,
                             model_unixctl_rules, NULL);
    unixctl_command_register("hw-model/stats", "DEV", 1, 1,
                             model_unixctl_stats, NULL);
    unixctl_command_register("hw-model/fault", "DEV OP ERRNO [COUNT]", 3, 4,
                             model_unixctl_fault, NULL);
    unixctl_command_register("hw-model/vxlan-port", "DEV [add|del PORT]", 1,
                             3, model_unixctl_vxlan_port, NULL);
    hw_model_afpacket_init();
    hw_model_hbl_init();
    ovsthread_once_done(&once);
}
