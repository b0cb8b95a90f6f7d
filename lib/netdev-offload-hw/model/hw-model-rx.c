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

/* The receive path: a frame from the wire through the ingress rules (or
 * the pipeline) to a drop or a WQ, by way of the RSS QP's Toeplitz hash and
 * indirection table, and the host's polling of the WQs (rx_burst). */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>

#include "coverage.h"
#include "dp-packet.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "hw-model-reformat.h"
#include "hw-toeplitz.h"
#include "openvswitch/vlog.h"
#include "seq.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

COVERAGE_DEFINE(hw_model_rx);

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

int
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

/* Delivers every copy of a packet that the pipeline made.  Returns 0 if
 * one of them was queued on a WQ or left on the wire, otherwise the reason
 * for the last one. */
static int
model_receive_dr(struct model_dev *dev, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_dr_result result;

    hw_model_dr_receive(dev->dr, dev->steering, packet, &dev->stats,
                        &result);
    return model_dr_result_deliver(dev, &result);
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

/* 'packet' arrives on the wire of 'dev' or, if 'vf' >= 0, from the host
 * side of its VF 'vf'.  Returns as hw_model_receive(). */
static int
model_rx_one(struct model_dev *dev, int vf, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_parsed parsed;

    if (dev->fatal) {
        /* Nothing steers or receives until the device is back. */
        model_count_drop(&dev->stats.rx_drop_fatal);
        dp_packet_delete(packet);
        return ENETDOWN;
    } else if (vf >= 0) {
        return model_vf_send(dev, vf, packet);
    }
    hw_model_steering_parse(dev->steering, packet, &parsed);
    return model_receive(dev, packet, &parsed);
}

int
hw_model_receive(const char *devname, struct dp_packet *packet)
{
    struct model_dev *dev;
    int error, vf;

    dev = model_end_lookup(devname, &vf);
    if (!dev) {
        dp_packet_delete(packet);
        return ENODEV;
    }

    /* A frame from the wire carries no metadata of an earlier life. */
    dp_packet_reset_offload(packet);

    ovs_mutex_lock(&dev->mutex);
    error = model_rx_one(dev, vf, packet);
    ovs_mutex_unlock(&dev->mutex);

    if (!error) {
        seq_change(model_rx_seq);
    }
    return error;
}

int
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
    if (dev->fatal) {
        /* A dead device completes nothing: its rings are lost. */
        ovs_mutex_unlock(&dev->mutex);
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

/* Delivers the 'n' frames of 'packets', which arrive back to back on the
 * wire of 'dev' (or, if 'vf' is not negative, which VF 'vf' sends), under
 * one hold of the device mutex: they land on the receive queues together,
 * as a burst does, and a host polling the queues sees none or all of them.
 * Takes ownership of the packets. */
void
model_receive_burst(struct model_dev *dev, int vf, struct dp_packet **packets,
                    size_t n)
{
    bool delivered = false;

    ovs_mutex_lock(&dev->mutex);
    for (size_t i = 0; i < n; i++) {
        dp_packet_reset_offload(packets[i]);
        delivered |= !model_rx_one(dev, vf, packets[i]);
    }
    ovs_mutex_unlock(&dev->mutex);

    if (delivered) {
        seq_change(model_rx_seq);
    }
}
