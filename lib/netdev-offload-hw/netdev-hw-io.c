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

/* The hw port's datapath: what the PMD threads run, receive bursts from
 * the port's RSS work queues and send bursts on its send QPs (with the
 * checks a frame passes before the NIC sees it: the MTU, forged tunnel
 * push markers, and the packets of pushes with queues of their own).
 * The rest of the port is netdev-hw.c. */

#include <config.h>
#include "netdev-hw-private.h"

#include <errno.h>

#include "coverage.h"
#include "dp-packet.h"
#include "hw-translate.h"
#include "hw-tx-push.h"
#include "netdev-hw-qos.h"
#include "netdev-hw.h"
#include "openvswitch/vlog.h"
#include "util.h"

/* The port's log module (netdev-hw.c): its datapath logs as the port
 * does. */
extern struct vlog_module *VLM_netdev_hw;
#define this_module (*VLM_netdev_hw)

COVERAGE_DEFINE(netdev_hw_rx_error);
COVERAGE_DEFINE(netdev_hw_tx_drop);
COVERAGE_DEFINE(netdev_hw_tx_forged_marker);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static int
netdev_hw_tx_burst_locked(const struct netdev_hw *dev,
                          struct netdev_hw_txq *txq,
                          struct dp_packet_batch *batch)
    OVS_EXCLUDED(txq->mutex)
{
    int dropped;

    ovs_mutex_lock(&txq->mutex);
    dropped = dev->ops->tx_burst(txq->qp, batch);
    ovs_mutex_unlock(&txq->mutex);
    return dropped;
}

/* Returns true if 'packet', about to leave hw port 'netdev', looks like a
 * packet prepared for the device's tunnel push that the push hook did not
 * prepare, and counts and logs it.  The device would push a tenant's
 * tunnel header on such a frame, which any port of the bridge may have
 * received (hw-tx-push.h). */
static bool
netdev_hw_is_forged_marker(const struct netdev *netdev,
                           const struct dp_packet *packet)
{
    struct eth_addr dst;

    if (OVS_LIKELY(!hw_tx_push_is_forged(packet, &dst))) {
        return false;
    }

    COVERAGE_INC(netdev_hw_tx_forged_marker);
    VLOG_WARN_RL(&rl, "hw port %s: dropped a frame to "ETH_ADDR_FMT" with "
                 "the tunnel push marker type 0x%04x that the push hook did "
                 "not send: an egress rule would encapsulate it",
                 netdev_get_name(netdev), ETH_ADDR_ARGS(dst),
                 HW_PUSH_MARKER_TYPE);
    return true;
}

int
netdev_hw_send(struct netdev *netdev, int qid, struct dp_packet_batch *batch,
               bool concurrent_txq)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);
    uint32_t sizes[NETDEV_MAX_BURST];
    uint64_t n_dropped = 0, n_bytes = 0, orig;
    struct netdev_hw_txq *txq;
    struct dp_packet *packet;
    size_t n_packets;

    if (OVS_UNLIKELY(!dev->configured || !dev->n_txq)) {
        n_dropped = dp_packet_batch_size(batch);
        dp_packet_delete_batch(batch, true);
        atomic_add_relaxed(&dev->tx_dropped, n_dropped, &orig);
        COVERAGE_ADD(netdev_hw_tx_drop, n_dropped);
        return ENXIO;
    }

    /* Drop the frames the port's MTU does not allow, and those that look
     * like a tunnel push marker the push hook did not put there. */
    size_t n = dp_packet_batch_size(batch);
    size_t i;
    DP_PACKET_BATCH_REFILL_FOR_EACH (i, n, packet, batch) {
        if (OVS_UNLIKELY(dp_packet_size(packet) > dev->max_frame_len)) {
            VLOG_WARN_RL(&rl, "hw port %s: dropped a %"PRIu32"-byte frame, "
                         "larger than the MTU (%"PRIuSIZE" bytes with "
                         "headers) allows", netdev_get_name(netdev),
                         dp_packet_size(packet), dev->max_frame_len);
            dp_packet_delete(packet);
            n_dropped++;
        } else if (OVS_UNLIKELY(netdev_hw_is_forged_marker(netdev,
                                                           packet))) {
            dp_packet_delete(packet);
            n_dropped++;
        } else {
            dp_packet_batch_refill(batch, packet, i);
        }
    }

    /* The egress QoS, in software (netdev-hw-qos.h). */
    n_dropped += netdev_hw_qos_police_tx(dev->qos, batch);

    /* Packets whose tunnel push a send queue of its own does go on that
     * queue (hw-tx-push.h). */
    uint64_t push_sent = 0, push_bytes = 0;
    if (OVS_UNLIKELY(hw_tx_push_diverting())) {
        n_dropped += hw_tx_push_divert(dev->ctx, dev->max_frame_len, batch,
                                       &push_sent, &push_bytes);
    }

    n_packets = dp_packet_batch_size(batch);
    if (n_packets) {
        size_t dev_dropped;
        int ret;

        DP_PACKET_BATCH_FOR_EACH (j, packet, batch) {
            sizes[j] = dp_packet_size(packet);
        }

        /* Each TX queue has its own QP: only a queue OVS shares between
         * threads needs the lock.  A qid beyond n_txq (which OVS does not
         * use) shares a QP with another queue, so it is locked too. */
        txq = &dev->txqs[qid >= 0 ? qid % dev->n_txq : 0];
        if (concurrent_txq || qid < 0 || qid >= dev->n_txq) {
            ret = netdev_hw_tx_burst_locked(dev, txq, batch);
        } else {
            ret = dev->ops->tx_burst(txq->qp, batch);
        }
        dev_dropped = MIN((size_t) MAX(ret, 0), n_packets);

        /* A send queue that fills up refuses the tail of the batch, so the
         * sent bytes are those of the first packets. */
        for (size_t k = 0; k < n_packets - dev_dropped; k++) {
            n_bytes += sizes[k];
        }
        n_dropped += dev_dropped;
        n_packets -= dev_dropped;
    }

    atomic_add_relaxed(&dev->tx_packets, n_packets + push_sent, &orig);
    atomic_add_relaxed(&dev->tx_bytes, n_bytes + push_bytes, &orig);
    if (n_dropped) {
        atomic_add_relaxed(&dev->tx_dropped, n_dropped, &orig);
        COVERAGE_ADD(netdev_hw_tx_drop, n_dropped);
    }
    return 0;
}

int
netdev_hw_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch,
                   int *qfill)
{
    struct netdev_hw *dev = netdev_hw_cast(rxq->netdev);
    struct netdev_hw_rxq_objs *q;
    struct dp_packet *packet;
    uint64_t n_bytes = 0, n_dropped, orig;
    int error;

    if (OVS_UNLIKELY(!dev->configured || rxq->queue_id >= dev->n_rxq)) {
        return EAGAIN;
    }

    q = &dev->rxqs[rxq->queue_id];
    error = dev->ops->rx_burst(q->wq, q->cq, batch);
    if (OVS_UNLIKELY(error && error != EAGAIN)) {
        dp_packet_delete_batch(batch, true);
        COVERAGE_INC(netdev_hw_rx_error);
        atomic_add_relaxed(&dev->rx_errors, 1, &orig);
        VLOG_WARN_RL(&rl, "hw port %s: rx queue %d: rx_burst failed: %s",
                     netdev_get_name(rxq->netdev), rxq->queue_id,
                     ovs_strerror(error));
        return error;
    }
    if (dp_packet_batch_is_empty(batch)) {
        return EAGAIN;
    }

    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        n_bytes += dp_packet_size(packet);
    }
    atomic_add_relaxed(&dev->rx_packets, dp_packet_batch_size(batch), &orig);
    atomic_add_relaxed(&dev->rx_bytes, n_bytes, &orig);

    /* The port received them all: the policer's drops are rx_dropped. */
    n_dropped = netdev_hw_qos_police_rx(dev->qos, batch);
    if (OVS_UNLIKELY(n_dropped)) {
        atomic_add_relaxed(&dev->rx_dropped, n_dropped, &orig);
        if (dp_packet_batch_is_empty(batch)) {
            return EAGAIN;
        }
    }

    if (qfill) {
        *qfill = -ENOTSUP;
    }
    return 0;
}

void
netdev_hw_rxq_wait(struct netdev_rxq *rxq OVS_UNUSED)
{
    /* A PMD port is polled, never waited on: dpif-netdev only calls this
     * for non-PMD ports.  Nothing to register. */
}

int
netdev_hw_rxq_drain(struct netdev_rxq *rxq)
{
    struct netdev_hw *dev = netdev_hw_cast(rxq->netdev);

    if (!dev->configured || rxq->queue_id >= dev->n_rxq) {
        return 0;
    }

    /* Bounded: packets may keep arriving while we drain. */
    struct netdev_hw_rxq_objs *q = &dev->rxqs[rxq->queue_id];
    for (int i = 0; i < NETDEV_HW_RXQ_SIZE / NETDEV_MAX_BURST + 1; i++) {
        struct dp_packet_batch batch;
        int error;

        dp_packet_batch_init(&batch);
        error = dev->ops->rx_burst(q->wq, q->cq, &batch);
        dp_packet_delete_batch(&batch, true);
        if (error) {
            break;
        }
    }
    return 0;
}

/* The RSS QP of 'type' that a partial rule of the offload provider
 * delivers to, while the port is configured. */
struct ibv_qp *
netdev_hw_rss_qp(const struct netdev *netdev, enum hw_rss_type type)
{
    struct netdev_hw *dev;
    struct ibv_qp *qp;

    if (!netdev_is_hw(netdev) || (int) type < 0 || type >= HW_N_RSS_TYPES) {
        return NULL;
    }
    dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    qp = dev->configured ? dev->rss_qps[type] : NULL;
    ovs_mutex_unlock(&dev->mutex);
    return qp;
}
