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

/* The transmit path: a frame the host puts on a send QP through the hbl
 * encap, the egress rules (or the pipeline's NIC TX) and their encap, then
 * onto the wire. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>

#include "dp-packet.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "hw-model-hbl.h"
#include "hw-model-reformat.h"
#include "openvswitch/vlog.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

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

int
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

        if (dev->fatal) {
            model_count_drop(&stats->tx_drop_fatal);
            dp_packet_delete(packet);
        } else if (!qp || qp->rss || !qp->max_send_wr
                   || !dp_packet_is_eth(packet) || size < ETH_HEADER_LEN) {
            model_count_drop(&stats->tx_drop_invalid);
            dp_packet_delete(packet);
        } else if (qp->port_num > 1) {
            /* A representor's send queue: the kernel's send-to-vport rule
             * at the FDB's root takes it to the VF, ahead of every other
             * rule. */
            model_vf_out(dev, qp->port_num - 2, packet);
            dp_packet_delete(packet);
            sent = true;
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
