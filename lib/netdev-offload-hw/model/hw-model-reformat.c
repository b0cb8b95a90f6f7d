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
#include "hw-model-reformat.h"

#include <errno.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "hw-model-flow.h"
#include "packets.h"
#include "util.h"

bool
hw_model_reformat_is_decap(enum mlx5dv_flow_action_packet_reformat_type type)
{
    return (type == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
            || type
               == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2);
}

static uint16_t
get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static void
put_be16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x;
}

int
hw_model_reformat_decap(struct dp_packet *packet,
                        const struct hw_model_parsed *parsed,
                        enum mlx5dv_flow_action_packet_reformat_type type,
                        const void *data, size_t size)
{
    size_t cut;

    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
        if (data || size) {
            return EINVAL;
        }
        if (parsed->tunnel == HW_MODEL_TUNNEL_NONE
            || parsed->inner_type != HW_MODEL_INNER_L2
            || !parsed->inner.has_eth) {
            return ENOENT;
        }
        cut = parsed->inner_ofs;
        break;

    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
        if (!data || (size != ETH_HEADER_LEN
                      && size != ETH_HEADER_LEN + VLAN_HEADER_LEN)) {
            return EINVAL;
        }
        /* Behind an L2 tunnel the inner Ethernet header goes as well. */
        if (parsed->tunnel == HW_MODEL_TUNNEL_NONE
            || parsed->inner_type == HW_MODEL_INNER_NONE
            || !parsed->inner.ip_version) {
            return ENOENT;
        }
        cut = parsed->inner.l3_ofs;
        break;

    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
    default:
        return EINVAL;
    }

    if (cut > dp_packet_size(packet)) {
        /* 'parsed' is not a parse of this packet. */
        return EINVAL;
    }
    /* The whole buffer is the frame, Ethernet padding included. */
    dp_packet_reset_offsets(packet);
    dp_packet_pull(packet, cut);
    if (size) {
        dp_packet_push(packet, data, size);
    }
    return 0;
}

int
hw_model_reformat_fill_lengths(uint8_t *hdr, size_t hdr_len,
                               size_t payload_len)
{
    size_t ofs = 2 * ETH_ADDR_LEN, l3, l4 = 0;
    size_t ip_len = 0, udp_len = 0;
    uint8_t proto = 0;
    uint16_t type;

    if (hdr_len < ETH_HEADER_LEN) {
        return 0;
    }
    type = get_be16(hdr + ofs);
    while ((type == ETH_TYPE_VLAN_8021Q || type == ETH_TYPE_VLAN_8021AD)
           && hdr_len - ofs >= VLAN_HEADER_LEN + 2) {
        ofs += VLAN_HEADER_LEN;
        type = get_be16(hdr + ofs);
    }
    l3 = ofs + 2;

    /* Work out every length first, so that nothing changes on EMSGSIZE. */
    if (type == ETH_TYPE_IP && hdr_len - l3 >= IP_HEADER_LEN
        && hdr[l3] >> 4 == 4) {
        size_t ihl = (hdr[l3] & 0x0f) * 4;

        ip_len = hdr_len - l3 + payload_len;
        proto = hdr[l3 + 9];
        if (ihl >= IP_HEADER_LEN && ihl <= hdr_len - l3) {
            l4 = l3 + ihl;
        }
    } else if (type == ETH_TYPE_IPV6 && hdr_len - l3 >= IPV6_HEADER_LEN
               && hdr[l3] >> 4 == 6) {
        ip_len = hdr_len - l3 - IPV6_HEADER_LEN + payload_len;
        proto = hdr[l3 + 6];
        l4 = l3 + IPV6_HEADER_LEN;
    } else {
        return 0;
    }
    if (proto == IPPROTO_UDP && l4 && hdr_len - l4 >= UDP_HEADER_LEN) {
        udp_len = hdr_len - l4 + payload_len;
    }
    if (ip_len > UINT16_MAX || udp_len > UINT16_MAX) {
        return EMSGSIZE;
    }

    if (type == ETH_TYPE_IP) {
        size_t ihl = (hdr[l3] & 0x0f) * 4;

        put_be16(hdr + l3 + 2, ip_len);
        if (ihl >= IP_HEADER_LEN && ihl <= hdr_len - l3) {
            ovs_be16 sum;

            memset(hdr + l3 + 10, 0, 2);
            sum = csum(hdr + l3, ihl);
            memcpy(hdr + l3 + 10, &sum, 2);
        }
    } else {
        put_be16(hdr + l3 + 4, ip_len);
    }
    if (udp_len) {
        put_be16(hdr + l4 + 4, udp_len);
    }
    return 0;
}

/* The length of the Ethernet header and VLAN tags at the start of the
 * 'len'-byte frame 'frame', or 0 if the frame ends within them. */
static size_t
l2_header_len(const uint8_t *frame, size_t len)
{
    size_t ofs = 2 * ETH_ADDR_LEN;
    uint16_t type;

    if (len < ETH_HEADER_LEN) {
        return 0;
    }
    type = get_be16(frame + ofs);
    while (type == ETH_TYPE_VLAN_8021Q || type == ETH_TYPE_VLAN_8021AD) {
        if (len - ofs < VLAN_HEADER_LEN + 2) {
            return 0;
        }
        ofs += VLAN_HEADER_LEN;
        type = get_be16(frame + ofs);
    }
    return ofs + 2;
}

int
hw_model_reformat_encap(struct dp_packet *packet,
                        enum mlx5dv_flow_action_packet_reformat_type type,
                        const void *data, size_t size)
{
    uint8_t buf[256];
    size_t strip = 0;
    uint8_t *hdr;
    int error;

    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
        break;
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        strip = l2_header_len(dp_packet_data(packet), dp_packet_size(packet));
        if (!strip) {
            return ENOENT;
        }
        break;
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
    default:
        return EINVAL;
    }
    if (!data || !size) {
        return EINVAL;
    }

    /* Headers fit the stack buffer on every device the model has. */
    hdr = size <= sizeof buf ? memcpy(buf, data, size) : xmemdup(data, size);
    error = hw_model_reformat_fill_lengths(hdr, size,
                                           dp_packet_size(packet) - strip);
    if (!error) {
        /* The whole buffer is the frame, Ethernet padding included. */
        dp_packet_reset_offsets(packet);
        dp_packet_pull(packet, strip);
        dp_packet_push(packet, hdr, size);
    }
    if (hdr != buf) {
        free(hdr);
    }
    return error;
}
