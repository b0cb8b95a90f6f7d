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

/* The device's queue objects: protection domains, completion queues, work
 * queues (the receive rings, with their states), RSS indirection tables
 * and queue pairs, each created and destroyed with the checks and errnos
 * of libibverbs, libmlx5 and the kernel.  Apart from the packet path,
 * which only reads them. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "hw-model-hbl.h"
#include "openvswitch/vlog.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

/* Protection domains. */

int
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

int
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

int
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

int
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

const char *
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

int
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

int
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

int
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

int
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

int
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

int
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
        qp->port_num = 1;
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

int
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
