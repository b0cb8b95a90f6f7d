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
#include "test-hw-model-port.h"

#include <arpa/inet.h>
#include <string.h>

#include "dp-packet.h"
#include "hw-model.h"
#include "hw-toeplitz.h"
#include "openvswitch/types.h"
#include "test-hw-check.h"
#include "test-hw-frame.h"
#include "util.h"

/* Opens 'devname' with a CQ and a ready WQ of 'depth' entries each, behind
 * an RSS QP that hashes 'rx_hash_fields' (IBV_RX_HASH_*). */
void
model_port_create(struct model_port *p, const char *devname, uint32_t depth,
                  uint64_t rx_hash_fields)
{
    const struct hw_dev_ops *ops = &hw_model_ops;

    memset(p, 0, sizeof *p);
    p->devname = devname;
    CHECK_ERR(ops->open(devname, &p->ctx), 0);
    CHECK_ERR(ops->query_caps(p->ctx, &p->caps), 0);
    CHECK_ERR(ops->alloc_pd(p->ctx, &p->pd), 0);
    CHECK_ERR(ops->create_cq(p->ctx, depth, &p->cq), 0);

    p->rss_qp = model_port_create_rss_qp(p, depth, rx_hash_fields, &p->wq,
                                         &p->table);
}

/* Another WQ of 'depth' entries on 'p''s CQ, ready, behind an indirection
 * table and an RSS QP that hashes 'rx_hash_fields', returned; the WQ and
 * the table go to '*wqp' and '*tablep', for the caller to destroy (after
 * the QP). */
struct ibv_qp *
model_port_create_rss_qp(struct model_port *p, uint32_t depth,
                         uint64_t rx_hash_fields, struct ibv_wq **wqp,
                         struct ibv_rwq_ind_table **tablep)
{
    const struct hw_dev_ops *ops = &hw_model_ops;
    struct ibv_qp *qp;

    struct ibv_wq_init_attr wq_attr = {
        .wq_type = IBV_WQT_RQ,
        .max_wr = depth,
        .max_sge = 1,
        .pd = p->pd,
        .cq = ibv_cq_ex_to_cq(p->cq),
    };
    struct ibv_wq_attr ready = {
        .attr_mask = IBV_WQ_ATTR_STATE,
        .wq_state = IBV_WQS_RDY,
    };
    CHECK_ERR(ops->create_wq(p->ctx, &wq_attr, wqp), 0);
    CHECK_ERR(ops->modify_wq(*wqp, &ready), 0);

    struct ibv_rwq_ind_table_init_attr table_attr = {
        .log_ind_tbl_size = 0,
        .ind_tbl = wqp,
    };
    CHECK_ERR(ops->create_rwq_ind_table(p->ctx, &table_attr, tablep), 0);

    struct ibv_qp_init_attr_ex qp_attr = {
        .qp_type = IBV_QPT_RAW_PACKET,
        .comp_mask = (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE
                      | IBV_QP_INIT_ATTR_RX_HASH),
        .pd = p->pd,
        .rwq_ind_tbl = *tablep,
        .rx_hash_conf = {
            .rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ,
            .rx_hash_key_len = HW_TOEPLITZ_KEY_LEN,
            .rx_hash_key = CONST_CAST(uint8_t *, hw_toeplitz_ms_key),
            .rx_hash_fields_mask = rx_hash_fields,
        },
    };
    CHECK_ERR(ops->create_qp(p->ctx, &qp_attr, &qp), 0);
    return qp;
}

/* A send QP of 64 entries on 'p''s CQ, for the caller to destroy. */
struct ibv_qp *
model_port_create_send_qp(struct model_port *p)
{
    struct ibv_qp_init_attr_ex qp_attr = {
        .qp_type = IBV_QPT_RAW_PACKET,
        .comp_mask = IBV_QP_INIT_ATTR_PD,
        .pd = p->pd,
        .send_cq = ibv_cq_ex_to_cq(p->cq),
        .recv_cq = ibv_cq_ex_to_cq(p->cq),
        .cap = {
            .max_send_wr = 64,
            .max_send_sge = 1,
        },
    };
    struct ibv_qp *qp;

    CHECK_ERR(hw_model_ops.create_qp(p->ctx, &qp_attr, &qp), 0);
    return qp;
}

/* Destroys what model_port_create() made and checks that nothing else the
 * test created is left on the device. */
void
model_port_destroy(struct model_port *p)
{
    const struct hw_dev_ops *ops = &hw_model_ops;

    CHECK_ERR(ops->destroy_qp(p->rss_qp), 0);
    CHECK_ERR(ops->destroy_rwq_ind_table(p->table), 0);
    CHECK_ERR(ops->destroy_wq(p->wq), 0);
    CHECK_ERR(ops->destroy_cq(p->cq), 0);
    CHECK_ERR(ops->dealloc_pd(p->pd), 0);
    CHECK_EQ(model_objects(p->devname), 0);
    ops->close(p->ctx);
}

size_t
model_objects(const char *devname)
{
    struct hw_model_objects objs;

    CHECK_ERR(hw_model_count_objects(devname, &objs), 0);
    return objs.total;
}

struct hw_model_stats
model_stats(const char *devname)
{
    struct hw_model_stats stats;

    CHECK_ERR(hw_model_get_stats(devname, &stats), 0);
    return stats;
}

void
model_port_check_rx(const struct model_port *p, const struct frame *f,
                    const struct frame *want, size_t want_skip, uint32_t tag)
{
    struct dp_packet_batch batch;
    uint32_t mark;

    CHECK_ERR(hw_model_receive(p->devname, packet_from(f, 0)), 0);
    dp_packet_batch_init(&batch);
    CHECK_ERR(hw_model_ops.rx_burst(p->wq, p->cq, &batch), 0);
    CHECK_EQ(dp_packet_batch_size(&batch), 1);
    CHECK_PACKET(batch.packets[0], want, want_skip);
    if (tag) {
        CHECK(dp_packet_has_flow_mark(batch.packets[0], &mark));
        CHECK_EQ(mark, tag);
    } else {
        CHECK(!dp_packet_has_flow_mark(batch.packets[0], &mark));
    }
    dp_packet_delete_batch(&batch, true);
}

void
capture_tx(void *capture_, const struct dp_packet *packet)
{
    struct capture *c = capture_;

    CHECK(c->n < ARRAY_SIZE(c->packets));
    c->packets[c->n++] = dp_packet_clone(packet);
}

void
capture_clear(struct capture *c)
{
    for (size_t i = 0; i < c->n; i++) {
        dp_packet_delete(c->packets[i]);
    }
    c->n = 0;
}

void
rule_init(struct rule *r, enum ibv_flow_attr_type type, uint16_t priority,
          uint32_t flags)
{
    struct ibv_flow_attr *attr = rule_attr(r);

    memset(r, 0, sizeof *r);
    attr->type = type;
    attr->size = sizeof *attr;
    attr->priority = priority;
    attr->port = 1;
    attr->flags = flags;
}

struct ibv_flow_attr *
rule_attr(struct rule *r)
{
    return (struct ibv_flow_attr *) r->buf;
}

/* Appends 'spec' of 'size' bytes to 'r'. */
void
rule_add(struct rule *r, const void *spec, size_t size)
{
    struct ibv_flow_attr *attr = rule_attr(r);

    CHECK(attr->size + size <= sizeof r->buf);
    memcpy((uint8_t *) r->buf + attr->size, spec, size);
    attr->size += size;
    attr->num_of_specs++;
}

void
rule_add_udp_dst(struct rule *r, uint16_t dst)
{
    struct ibv_flow_spec_tcp_udp udp = {
        .type = IBV_FLOW_SPEC_UDP,
        .size = sizeof udp,
        .val.dst_port = htons(dst),
        .mask.dst_port = OVS_BE16_MAX,
    };

    rule_add(r, &udp, sizeof udp);
}

void
rule_add_tag(struct rule *r, uint32_t tag)
{
    struct ibv_flow_spec_action_tag spec = {
        .type = IBV_FLOW_SPEC_ACTION_TAG,
        .size = sizeof spec,
        .tag_id = tag,
    };

    rule_add(r, &spec, sizeof spec);
}

void
rule_add_handle(struct rule *r, struct ibv_flow_action *action)
{
    struct ibv_flow_spec_action_handle spec = {
        .type = IBV_FLOW_SPEC_ACTION_HANDLE,
        .size = sizeof spec,
        .action = action,
    };

    rule_add(r, &spec, sizeof spec);
}
