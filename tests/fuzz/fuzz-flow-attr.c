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

/* Fuzz target: the NIC model's ibv_create_flow().
 *
 * The input is an ibv_flow_attr with its specs, as libibverbs hands it to
 * the kernel, given to the model device's create_flow() on one of a port's
 * QPs (chosen by the input's first byte).  The object pointer of an
 * ACTION_HANDLE or ACTION_COUNT spec is replaced, by its first byte, with
 * a live reformat or counters object of the device, or left as the input
 * has it.
 *
 * Invariants: no crash; a refusal is one of the errno values of hw-apis.md
 * 1.7; a rule made is destroyed, and leaves no object behind. */

#include <config.h>
#include <errno.h>
#include <string.h>

#include "fuzz-hw.h"
#include "hw-model-spec.h"
#include "hw-model.h"
#include "util.h"

static struct fuzz_port port;

/* Objects an ACTION_HANDLE or ACTION_COUNT spec may name. */
static struct ibv_flow_action *decap, *l3_decap, *encap;
static struct ibv_counters *counters_attached, *counters_bare;

static void
init(void)
{
    const struct hw_dev_ops *ops = &hw_model_ops;
    static uint8_t l2[14] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 8, 0 };
    static uint8_t header[50];

    fuzz_init();
    fuzz_port_create(&port, "model1");
    CHECK(!ops->create_reformat(
              port.ctx, 0, NULL,
              MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2,
              MLX5DV_FLOW_TABLE_TYPE_NIC_RX, &decap));
    CHECK(!ops->create_reformat(
              port.ctx, sizeof l2, l2,
              MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
              MLX5DV_FLOW_TABLE_TYPE_NIC_RX, &l3_decap));
    memcpy(header, l2, sizeof l2);
    CHECK(!ops->create_reformat(
              port.ctx, sizeof header, header,
              MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
              MLX5DV_FLOW_TABLE_TYPE_NIC_TX, &encap));
    CHECK(!ops->create_counters(port.ctx, &counters_attached));
    for (int i = 0; i < 2; i++) {
        struct ibv_counter_attach_attr attach = {
            .counter_desc = i ? IBV_COUNTER_BYTES : IBV_COUNTER_PACKETS,
            .index = i,
        };

        CHECK(!ops->attach_counters(counters_attached, &attach));
    }
    CHECK(!ops->create_counters(port.ctx, &counters_bare));
    port.n_objects = fuzz_port_objects(&port);
}

/* Whether the 'size' bytes at 'buf' hold every spec that 'attr' claims, as
 * the caller of ibv_create_flow() must make sure (libibverbs reads them
 * without a length), and if so gives the object specs their objects. */
static bool
prepare_specs(struct ibv_flow_attr *attr, uint8_t *buf, size_t size)
{
    size_t ofs = sizeof *attr;

    for (unsigned int i = 0; i < attr->num_of_specs; i++) {
        uint16_t spec_size, min_size;
        uint32_t type;
        void *object;

        if (ofs + HW_MODEL_SPEC_HDR_LEN > size) {
            return false;
        }
        memcpy(&type, buf + ofs, sizeof type);
        memcpy(&spec_size, buf + ofs + 4, sizeof spec_size);
        min_size = hw_model_spec_min_size(type);
        if (!min_size || spec_size < min_size) {
            /* The walk ends here, refused, having read the header only. */
            return true;
        }
        if (ofs + spec_size > size) {
            return false;
        }
        if (type == IBV_FLOW_SPEC_ACTION_HANDLE
            || type == IBV_FLOW_SPEC_ACTION_COUNT) {
            switch (buf[ofs + 8] % 8) {
            case 0: object = decap; break;
            case 1: object = l3_decap; break;
            case 2: object = encap; break;
            case 3: object = counters_attached; break;
            case 4: object = counters_bare; break;
            case 5: object = NULL; break;
            default: object = NULL; break;
            }
            if (object || buf[ofs + 8] % 8 == 5) {
                memcpy(buf + ofs + 8, &object, sizeof object);
            }
        }
        ofs += spec_size;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct hw_dev_ops *ops = &hw_model_ops;
    struct ibv_flow_attr *attr;
    struct ibv_flow *flow;
    struct ibv_qp *qp;
    uint8_t *buf;
    int error;

    if (!port.ctx) {
        init();
    }
    if (size < 1 + sizeof *attr) {
        return 0;
    }
    qp = data[0] % 7 < HW_N_RSS_TYPES ? port.rss_qps[data[0] % 7]
                                      : port.send_qp;
    size--;
    /* An exact copy, aligned as a malloc'd buffer, so that the sanitizer
     * catches any read past its end. */
    buf = xmemdup(data + 1, size);
    attr = (struct ibv_flow_attr *) buf;
    if (!prepare_specs(attr, buf, size)) {
        free(buf);
        return 0;
    }

    error = ops->create_flow(qp, attr, &flow);
    if (error) {
        CHECK(error == EINVAL || error == EOPNOTSUPP || error == ENOMEM
              || error == EPERM || error == EEXIST || error == ENOSPC);
        CHECK(!flow);
    } else {
        CHECK(flow);
        CHECK(!ops->destroy_flow(flow));
    }
    CHECK_EQ(fuzz_port_objects(&port), port.n_objects);
    free(buf);
    return 0;
}
