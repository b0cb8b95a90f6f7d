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
#include "fuzz-hw.h"

#include <string.h>

#include "hw-model.h"
#include "hw-toeplitz.h"
#include "netdev-hw.h"
#include "openvswitch/vlog.h"
#include "util.h"

uint8_t
fuzz_u8(struct fuzz_input *in)
{
    const uint8_t *p = fuzz_bytes(in, 1);

    return p ? p[0] : 0;
}

uint16_t
fuzz_u16(struct fuzz_input *in)
{
    const uint8_t *p = fuzz_bytes(in, 2);

    return p ? (p[0] << 8) | p[1] : 0;
}

uint32_t
fuzz_u32(struct fuzz_input *in)
{
    const uint8_t *p = fuzz_bytes(in, 4);

    return p ? ((uint32_t) p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]
             : 0;
}

const uint8_t *
fuzz_bytes(struct fuzz_input *in, size_t n)
{
    const uint8_t *p = in->data;

    if (in->size < n) {
        return NULL;
    }
    in->data += n;
    in->size -= n;
    return p;
}

void
fuzz_init(void)
{
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_OFF);
}

/* What each RSS QP hashes, as netdev-hw.c's. */
static const uint64_t rss_fields[HW_N_RSS_TYPES] = {
    [HW_RSS_IPV4_TCP] = (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                         | IBV_RX_HASH_SRC_PORT_TCP
                         | IBV_RX_HASH_DST_PORT_TCP),
    [HW_RSS_IPV4_UDP] = (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                         | IBV_RX_HASH_SRC_PORT_UDP
                         | IBV_RX_HASH_DST_PORT_UDP),
    [HW_RSS_IPV4] = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4,
    [HW_RSS_IPV6_TCP] = (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                         | IBV_RX_HASH_SRC_PORT_TCP
                         | IBV_RX_HASH_DST_PORT_TCP),
    [HW_RSS_IPV6_UDP] = (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                         | IBV_RX_HASH_SRC_PORT_UDP
                         | IBV_RX_HASH_DST_PORT_UDP),
    [HW_RSS_IPV6] = IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6,
};

void
fuzz_port_create(struct fuzz_port *p, const char *devname)
{
    const struct hw_dev_ops *ops = &hw_model_ops;

    memset(p, 0, sizeof *p);
    p->devname = devname;
    CHECK(!ops->open(devname, &p->ctx));
    CHECK(!ops->query_caps(p->ctx, &p->caps));
    CHECK(!ops->alloc_pd(p->ctx, &p->pd));
    CHECK(!ops->create_cq(p->ctx, 256, &p->cq));

    struct ibv_wq_init_attr wq_attr = {
        .wq_type = IBV_WQT_RQ,
        .max_wr = 256,
        .max_sge = 1,
        .pd = p->pd,
        .cq = ibv_cq_ex_to_cq(p->cq),
    };
    struct ibv_wq_attr ready = {
        .attr_mask = IBV_WQ_ATTR_STATE,
        .wq_state = IBV_WQS_RDY,
    };
    CHECK(!ops->create_wq(p->ctx, &wq_attr, &p->wq));
    CHECK(!ops->modify_wq(p->wq, &ready));

    struct ibv_rwq_ind_table_init_attr ind_attr = {
        .log_ind_tbl_size = 0,
        .ind_tbl = &p->wq,
    };
    CHECK(!ops->create_rwq_ind_table(p->ctx, &ind_attr, &p->ind_tbl));

    for (int t = 0; t < HW_N_RSS_TYPES; t++) {
        struct ibv_qp_init_attr_ex qp_attr = {
            .qp_type = IBV_QPT_RAW_PACKET,
            .comp_mask = (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE
                          | IBV_QP_INIT_ATTR_RX_HASH),
            .pd = p->pd,
            .rwq_ind_tbl = p->ind_tbl,
            .rx_hash_conf = {
                .rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ,
                .rx_hash_key_len = HW_TOEPLITZ_KEY_LEN,
                .rx_hash_key = CONST_CAST(uint8_t *, hw_toeplitz_ms_key),
                .rx_hash_fields_mask = rss_fields[t],
            },
        };
        CHECK(!ops->create_qp(p->ctx, &qp_attr, &p->rss_qps[t]));
    }

    struct ibv_qp_init_attr_ex send_attr = {
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
    CHECK(!ops->create_qp(p->ctx, &send_attr, &p->send_qp));
    p->n_objects = fuzz_port_objects(p);
}

void
fuzz_port_device(const struct fuzz_port *p, struct netdev_hw_device *dev)
{
    *dev = (struct netdev_hw_device) {
        .ops = &hw_model_ops,
        .ctx = p->ctx,
        .caps = &p->caps,
        .devname = p->devname,
        .port_num = 1,
    };
}

size_t
fuzz_port_objects(const struct fuzz_port *p)
{
    struct hw_model_objects objs;

    CHECK(!hw_model_count_objects(p->devname, &objs));
    return objs.total;
}
