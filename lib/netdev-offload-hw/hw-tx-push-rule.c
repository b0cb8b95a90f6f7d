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

/* Tunnel push by an egress rule (hw-tx-push-provider.h): a rule on the
 * port's send side matches the marker Ethernet header that prepare() puts
 * in front of a packet and replaces it with the tunnel header, by a packet
 * reformat (hw-translate.h). */

#include <config.h>
#include "hw-tx-push-provider.h"

#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "hw-flow.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "util.h"

struct tx_push_rule {
    struct hw_rule rule;            /* The egress rule it was made from. */
    struct netdev_hw_device dev;    /* 'dev.devname' is 'devname'. */
    char *devname;
    struct hw_flow flow;            /* The egress rule on the device. */
    struct eth_header marker;       /* What the egress rule matches. */
};

/* Any device may try: hw_flow_install() refuses, with a reason, a rule the
 * device cannot take. */
static bool
tx_push_rule_usable(const struct netdev_hw_device *dev OVS_UNUSED)
{
    return true;
}

static int
tx_push_rule_create(const struct netdev_hw_device *dev, struct ibv_qp *qp,
                    const struct hw_rule *rule, void **objp,
                    struct ds *reason)
{
    struct tx_push_rule *push = xzalloc(sizeof *push);
    int error;

    push->rule = *rule;
    error = hw_flow_install(dev, qp, rule, &push->flow, reason);
    if (error) {
        free(push);
        *objp = NULL;
        return error;
    }

    push->devname = xstrdup(dev->devname);
    push->dev = *dev;
    push->dev.devname = push->devname;
    push->marker.eth_dst = rule->outer.eth.dst;
    push->marker.eth_src = eth_addr_zero;
    push->marker.eth_type = htons(HW_PUSH_MARKER_TYPE);
    *objp = push;
    return 0;
}

static void
tx_push_rule_free(struct tx_push_rule *push)
{
    free(push->devname);
    free(push);
}

static void
tx_push_rule_destroy(void *push_)
{
    struct tx_push_rule *push = push_;

    hw_stale_uninstall_flow(&push->dev, &push->flow, HW_STALE_NO_MARK);
    ovsrcu_postpone(tx_push_rule_free, push);
}

static bool
tx_push_rule_prepare(const void *push_, struct dp_packet *packet,
                     const void *header OVS_UNUSED,
                     size_t header_len OVS_UNUSED)
{
    const struct tx_push_rule *push = push_;

    memcpy(dp_packet_push_uninit(packet, sizeof push->marker), &push->marker,
           sizeof push->marker);
    packet->packet_type = htonl(PT_ETH);
    dp_packet_reset_offsets(packet);
    dp_packet_set_flow_mark(packet, HW_PUSH_PACKET_MARK);
    return true;
}

static int
tx_push_rule_read(const void *push_, uint64_t *packets, uint64_t *bytes)
{
    const struct tx_push_rule *push = push_;

    return hw_flow_read(&push->dev, &push->flow, packets, bytes);
}

static void
tx_push_rule_format(const void *push_, struct ds *s)
{
    const struct tx_push_rule *push = push_;

    hw_flow_format(&push->flow, &push->rule, s);
}

static bool
tx_push_rule_is_forged(const struct dp_packet *packet, struct eth_addr *dst)
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

const struct hw_tx_push_class hw_tx_push_rule_class = {
    .name = "egress rule",
    .usable = tx_push_rule_usable,
    .create = tx_push_rule_create,
    .destroy = tx_push_rule_destroy,
    .prepare = tx_push_rule_prepare,
    .read = tx_push_rule_read,
    .format = tx_push_rule_format,
    .is_forged = tx_push_rule_is_forged,
};
