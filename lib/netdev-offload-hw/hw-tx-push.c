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

/* The device's tunnel push (hw-tx-push.h): an egress rule that replaces a
 * marker, or an hbl send queue whose encapsulation adds the header. */

#include <config.h>
#include "hw-tx-push.h"

#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "hw-flow.h"
#include "hw-hbl.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "util.h"

struct hw_tx_push {
    struct hw_rule rule;            /* The egress rule it was made from. */
    struct netdev_hw_device dev;    /* 'dev.devname' is 'devname'. */
    char *devname;

    /* One of the two: */
    struct hw_hbl_txq *txq;         /* The send queue that pushes. */
    struct hw_flow flow;            /* The egress rule, if no 'txq'. */
    struct eth_header marker;       /* What the egress rule matches. */
};

int
hw_tx_push_create(const struct netdev_hw_device *dev, struct ibv_qp *qp,
                  const struct hw_rule *rule, struct hw_tx_push **pushp,
                  struct ds *reason)
{
    struct hw_tx_push *push = xzalloc(sizeof *push);
    int error;

    push->rule = *rule;
    if (hw_hbl_device_encaps(dev)) {
        error = hw_hbl_txq_create(dev, rule->reformat_data,
                                  rule->reformat_len, &push->txq, reason);
    } else {
        error = hw_flow_install(dev, qp, rule, &push->flow, reason);
    }
    if (error) {
        free(push);
        *pushp = NULL;
        return error;
    }

    push->devname = xstrdup(dev->devname);
    push->dev = *dev;
    push->dev.devname = push->devname;
    push->marker.eth_dst = rule->outer.eth.dst;
    push->marker.eth_src = eth_addr_zero;
    push->marker.eth_type = htons(HW_PUSH_MARKER_TYPE);
    *pushp = push;
    return 0;
}

static void
hw_tx_push_free(struct hw_tx_push *push)
{
    free(push->devname);
    free(push);
}

void
hw_tx_push_destroy(struct hw_tx_push *push)
{
    if (!push) {
        return;
    }
    if (push->txq) {
        hw_hbl_txq_destroy(push->txq);
    } else {
        hw_stale_uninstall_flow(&push->dev, &push->flow, HW_STALE_NO_MARK);
    }
    ovsrcu_postpone(hw_tx_push_free, push);
}

bool
hw_tx_push_prepare(const struct hw_tx_push *push, struct dp_packet *packet,
                   const void *header, size_t header_len)
{
    if (push->txq) {
        /* The queue's encap adds what follows the outer IPv4 header. */
        return hw_hbl_push_prepare(push->txq, packet, header, header_len);
    }

    memcpy(dp_packet_push_uninit(packet, sizeof push->marker), &push->marker,
           sizeof push->marker);
    packet->packet_type = htonl(PT_ETH);
    dp_packet_reset_offsets(packet);
    dp_packet_set_flow_mark(packet, HW_PUSH_PACKET_MARK);
    return true;
}

void
hw_tx_push_format(const struct hw_tx_push *push, struct ds *s)
{
    uint64_t packets, bytes;

    if (!hw_flow_read(&push->dev, &push->flow, &packets, &bytes)) {
        ds_put_format(s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                      packets, bytes);
    } else {
        ds_put_cstr(s, "packets:?, bytes:?, ");
    }
    ds_put_cstr(s, "rule: ");
    hw_flow_format(&push->flow, &push->rule, s);
}

bool
hw_tx_push_is_forged(const struct dp_packet *packet, struct eth_addr *dst)
{
    const uint8_t *data = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);
    size_t ofs = 2 * ETH_ADDR_LEN;
    ovs_be16 type;
    uint32_t mark;

    if (OVS_UNLIKELY(packet->packet_type != htonl(PT_ETH)
                     || size < ETH_HEADER_LEN)) {
        return false;
    }
    /* The egress rule's Ethernet spec matches tagged frames too, on the
     * ethertype after the last VLAN tag, as the NIC's parser reads it. */
    memcpy(&type, data + ofs, sizeof type);
    while (eth_type_vlan(type) && size >= ofs + VLAN_HEADER_LEN + 2) {
        ofs += VLAN_HEADER_LEN;
        memcpy(&type, data + ofs, sizeof type);
    }
    if (OVS_LIKELY(type != htons(HW_PUSH_MARKER_TYPE))
        || (dp_packet_has_flow_mark(packet, &mark)
            && mark == HW_PUSH_PACKET_MARK)) {
        return false;
    }
    memcpy(dst->ea, data, ETH_ADDR_LEN);
    return true;
}

bool
hw_tx_push_diverting(void)
{
    return hw_hbl_tx_active();
}

size_t
hw_tx_push_divert(const struct ibv_context *ctx, size_t max_frame_len,
                  struct dp_packet_batch *batch,
                  uint64_t *n_sent, uint64_t *n_bytes)
{
    return hw_hbl_tx_divert(ctx, max_frame_len, batch, n_sent, n_bytes);
}
