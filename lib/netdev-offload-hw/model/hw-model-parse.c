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

/* The packet parser: what the NIC's hardware parser finds in a frame
 * (outer L2 to L4, MPLS, the VXLAN, GRE and Geneve tunnels and the
 * headers behind them), which the steering engine and the pipeline match
 * and the RSS hash reads.  Apart from the engine: it reads frames, never
 * rules. */

#include <config.h>
#include "hw-model-flow-private.h"

#include <string.h>

#include "dp-packet.h"
#include "packets.h"

/* Every function below reads the frame 'data' of 'len' bytes from offset
 * 'ofs', which may be past the end (truncated frames), and records
 * offsets from the start of the frame. */

static void
parse_l4(const uint8_t *data, size_t len, size_t ofs, uint8_t proto,
         struct hw_model_layer *l)
{
    /* Ports only when the whole fixed L4 header is in the frame. */
    if (ofs <= len
        && ((proto == IPPROTO_TCP && len - ofs >= 20)
            || (proto == IPPROTO_UDP && len - ofs >= 8))) {
        l->has_l4 = true;
        l->l4_ofs = ofs;
        memcpy(&l->l4_src, data + ofs, 2);
        memcpy(&l->l4_dst, data + ofs + 2, 2);
    }
}

static void
parse_ipv4(const uint8_t *data, size_t len, size_t ofs,
           struct hw_model_layer *l)
{
    const uint8_t *l3 = data + ofs;
    size_t ihl;
    uint16_t frag;

    if (ofs > len || len - ofs < 20 || l3[0] >> 4 != 4) {
        return;
    }
    ihl = (l3[0] & 0x0f) * 4;
    if (ihl < 20) {
        return;
    }

    l->ip_version = 4;
    l->l3_ofs = ofs;
    l->tos = l3[1];
    l->ttl = l3[8];
    l->ip_proto = l3[9];
    memcpy(&l->ipv4_src, l3 + 12, 4);
    memcpy(&l->ipv4_dst, l3 + 16, 4);

    frag = get_be16(l3 + 6);
    if (frag & 0x3fff) {            /* MF or a fragment offset. */
        l->is_fragment = true;
        if (frag & 0x1fff) {
            l->is_later_fragment = true;
            return;
        }
    }
    parse_l4(data, len, ofs + ihl, l->ip_proto, l);
}

static void
parse_ipv6(const uint8_t *data, size_t len, size_t ofs,
           struct hw_model_layer *l)
{
    const uint8_t *l3 = data + ofs;
    uint32_t vtc_flow;
    size_t rest, ext;
    uint8_t next;

    if (ofs > len || len - ofs < 40 || l3[0] >> 4 != 6) {
        return;
    }
    rest = len - ofs;
    vtc_flow = get_be32(l3);
    l->ip_version = 6;
    l->l3_ofs = ofs;
    l->tos = vtc_flow >> 20;
    l->ipv6_label = htonl(vtc_flow & 0xfffff);
    l->ip_proto = l3[6];
    l->ttl = l3[7];
    memcpy(&l->ipv6_src, l3 + 8, 16);
    memcpy(&l->ipv6_dst, l3 + 24, 16);

    /* The fixed header's next header is what ip_protocol matches, and the
     * L4 header is looked for right after the fixed header; extension
     * headers are walked only to find a fragment header. */
    next = l->ip_proto;
    ext = 40;
    for (int i = 0; i < 8 && rest - ext >= 8; i++) {
        if (next == IPPROTO_FRAGMENT) {
            l->is_fragment = true;
            l->is_later_fragment = (get_be16(l3 + ext + 2) & 0xfff8) != 0;
            break;
        } else if (next == IPPROTO_HOPOPTS || next == IPPROTO_ROUTING
                   || next == IPPROTO_DSTOPTS) {
            size_t hlen = (l3[ext + 1] + 1) * 8;

            next = l3[ext];
            if (hlen > rest - ext) {
                break;
            }
            ext += hlen;
        } else {
            break;
        }
    }

    if (l->ip_proto == IPPROTO_TCP || l->ip_proto == IPPROTO_UDP) {
        parse_l4(data, len, ofs + 40, l->ip_proto, l);
    }
}

static void
parse_l3(const uint8_t *data, size_t len, size_t ofs, ovs_be16 type,
         struct hw_model_layer *l)
{
    if (type == htons(ETH_TYPE_IP)) {
        parse_ipv4(data, len, ofs, l);
    } else if (type == htons(ETH_TYPE_IPV6)) {
        parse_ipv6(data, len, ofs, l);
    }
}

static bool
eth_type_is_mpls(ovs_be16 type)
{
    return type == htons(ETH_TYPE_MPLS) || type == htons(ETH_TYPE_MPLS_MCAST);
}

/* Records the label stack entry at 'ofs', if the frame holds it, as the
 * first MPLS entry at 'pos'. */
static void
parse_mpls(const uint8_t *data, size_t len, size_t ofs,
           enum hw_model_mpls_pos pos, struct hw_model_parsed *p)
{
    if (ofs <= len && len - ofs >= 4) {
        p->mpls |= 1u << pos;
        memcpy(&p->mpls_lse[pos], data + ofs, 4);
    }
}

/* Parses the Ethernet header and VLAN tags at 'ofs', then what follows.
 * Returns the offset of the L3 header, or 0 if the frame ends before the
 * ethertype. */
static size_t
parse_eth(const uint8_t *data, size_t len, size_t ofs,
          struct hw_model_layer *l)
{
    ovs_be16 type;

    if (ofs > len || len - ofs < ETH_HEADER_LEN) {
        return 0;
    }
    l->has_eth = true;
    memcpy(&l->dst, data + ofs, ETH_ADDR_LEN);
    memcpy(&l->src, data + ofs + ETH_ADDR_LEN, ETH_ADDR_LEN);
    memcpy(&type, data + ofs + 12, 2);
    ofs += ETH_HEADER_LEN;

    /* The ethertype the hardware matches is the one after the last tag,
     * 802.1Q or 802.1ad; only an 802.1Q first tag sets cvlan_tag. */
    for (bool first = true; eth_type_vlan(type); first = false) {
        if (len - ofs < VLAN_HEADER_LEN) {
            return 0;           /* Truncated tag: no ethertype, no L3. */
        }
        if (first && type == htons(ETH_TYPE_VLAN_8021Q)) {
            l->has_cvlan = true;
            memcpy(&l->vlan_tci, data + ofs, 2);
        }
        memcpy(&type, data + ofs + 2, 2);
        ofs += VLAN_HEADER_LEN;
    }
    l->eth_type = type;
    parse_l3(data, len, ofs, type, l);
    return ofs;
}

static bool
is_vxlan_port(ovs_be16 port, const uint16_t *ports, size_t n_ports)
{
    for (size_t i = 0; i < n_ports; i++) {
        if (port == htons(ports[i])) {
            return true;
        }
    }
    return false;
}

/* The GRE header at 'ofs' (RFC 2784 with the RFC 2890 key and sequence
 * number): flags and version, protocol, then checksum + reserved if C, key
 * if K, sequence number if S.  Returns its length, or 0 if it is not a
 * GRE version 0 header that the frame holds whole. */
static size_t
parse_gre(const uint8_t *data, size_t len, size_t ofs,
          struct hw_model_parsed *p)
{
    uint16_t flags;
    size_t hlen;

    if (ofs > len || len - ofs < 4) {
        return 0;
    }
    flags = get_be16(data + ofs);
    if (flags & 0x0007) {
        return 0;               /* Version 1 (PPTP) has another layout. */
    }
    hlen = 4 + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0)
           + (flags & 0x1000 ? 4 : 0);
    if (len - ofs < hlen) {
        return 0;
    }
    p->gre_flags = htons(flags);
    memcpy(&p->gre_protocol, data + ofs + 2, 2);
    if (flags & 0x2000) {
        memcpy(&p->gre_key, data + ofs + 4 + (flags & 0x8000 ? 4 : 0), 4);
    }
    return hlen;
}

/* Looks behind the outer L4 (or L3 for GRE) header of 'p' for a tunnel. */
static void
parse_tunnel(const uint8_t *data, size_t len, const uint16_t *vxlan_ports,
             size_t n_vxlan_ports, struct hw_model_parsed *p)
{
    /* A fragment's payload is not parsed further. */
    if (!p->ip_version || p->is_fragment) {
        return;
    }

    if (p->ip_proto == IPPROTO_UDP && p->has_l4) {
        size_t ofs = p->l4_ofs + 8;

        if (is_vxlan_port(p->l4_dst, vxlan_ports, n_vxlan_ports)) {
            /* mlx5 takes every packet to a VXLAN port as VXLAN, whatever
             * its flags. */
            if (len - ofs < 8) {
                return;
            }
            p->tunnel = HW_MODEL_TUNNEL_VXLAN;
            p->tunnel_ofs = ofs;
            p->tunnel_len = 8;
            p->vxlan_vni = htonl(get_be32(data + ofs + 4) >> 8);
            p->inner_type = HW_MODEL_INNER_L2;
            p->inner_ofs = ofs + 8;
        } else if (p->l4_dst == htons(HW_MODEL_GENEVE_PORT)) {
            size_t hlen;

            /* Version 0 header, 8 bytes and the options it announces
             * (the version is not checked, as the matcher has no field for
             * it). */
            if (len - ofs < 8) {
                return;
            }
            hlen = 8 + (data[ofs] & 0x3f) * 4;
            if (len - ofs < hlen) {
                return;
            }
            p->tunnel = HW_MODEL_TUNNEL_GENEVE;
            p->tunnel_ofs = ofs;
            p->tunnel_len = hlen;
            p->geneve_opt_len = data[ofs] & 0x3f;
            p->geneve_flags = data[ofs + 1];
            memcpy(&p->geneve_protocol, data + ofs + 2, 2);
            p->vxlan_vni = htonl(get_be32(data + ofs + 4) >> 8);
            if (p->geneve_protocol != htons(ETH_TYPE_TEB)) {
                /* The tunnel's fields match; nothing behind it does. */
                p->inner_type = HW_MODEL_INNER_NONE;
                return;
            }
            p->inner_type = HW_MODEL_INNER_L2;
            p->inner_ofs = ofs + hlen;
        } else if (p->l4_dst == htons(HW_MODEL_MPLS_UDP_PORT)) {
            parse_mpls(data, len, ofs, HW_MODEL_MPLS_OVER_UDP, p);
            return;
        } else {
            return;
        }
    } else if (p->ip_proto == IPPROTO_GRE) {
        size_t ofs = p->l3_ofs, hlen;

        /* The L3 header length: IHL for IPv4, the fixed 40 bytes for IPv6
         * (the next header of the fixed header said GRE). */
        ofs += p->ip_version == 4 ? (data[ofs] & 0x0f) * 4 : 40;
        hlen = parse_gre(data, len, ofs, p);
        if (!hlen) {
            return;
        }
        p->tunnel = HW_MODEL_TUNNEL_GRE;
        p->tunnel_ofs = ofs;
        p->tunnel_len = hlen;
        p->inner_ofs = ofs + hlen;
        switch (ntohs(p->gre_protocol)) {
        case ETH_TYPE_TEB:
            p->inner_type = HW_MODEL_INNER_L2;
            break;
        case ETH_TYPE_IP:
        case ETH_TYPE_IPV6:
            p->inner_type = HW_MODEL_INNER_L3;
            break;
        case ETH_TYPE_MPLS:
            parse_mpls(data, len, p->inner_ofs, HW_MODEL_MPLS_OVER_GRE, p);
            return;
        default:
            return;
        }
    } else {
        return;
    }

    if (p->inner_type == HW_MODEL_INNER_L2) {
        size_t l3 = parse_eth(data, len, p->inner_ofs, &p->inner);

        if (l3 && eth_type_is_mpls(p->inner.eth_type)) {
            parse_mpls(data, len, l3, HW_MODEL_MPLS_INNER, p);
        }
    } else {
        p->inner.eth_type = p->gre_protocol;
        parse_l3(data, len, p->inner_ofs, p->gre_protocol, &p->inner);
    }
}

/* Copies the outer 'l' into the flat fields of 'p'. */
static void
set_outer(struct hw_model_parsed *p, const struct hw_model_layer *l)
{
    p->has_cvlan = l->has_cvlan;
    p->dst = l->dst;
    p->src = l->src;
    p->vlan_tci = l->vlan_tci;
    p->eth_type = l->eth_type;
    p->ip_version = l->ip_version;
    p->ip_proto = l->ip_proto;
    p->tos = l->tos;
    p->ttl = l->ttl;
    p->is_fragment = l->is_fragment;
    p->is_later_fragment = l->is_later_fragment;
    p->ipv4_src = l->ipv4_src;
    p->ipv4_dst = l->ipv4_dst;
    p->ipv6_src = l->ipv6_src;
    p->ipv6_dst = l->ipv6_dst;
    p->ipv6_label = l->ipv6_label;
    p->has_l4 = l->has_l4;
    p->l4_src = l->l4_src;
    p->l4_dst = l->l4_dst;
    p->l3_ofs = l->l3_ofs;
    p->l4_ofs = l->l4_ofs;
}

/* The reverse of set_outer(). */
void
hw_model_parsed_outer(const struct hw_model_parsed *p,
                      struct hw_model_layer *l)
{
    memset(l, 0, sizeof *l);
    l->has_eth = true;
    l->has_cvlan = p->has_cvlan;
    l->dst = p->dst;
    l->src = p->src;
    l->vlan_tci = p->vlan_tci;
    l->eth_type = p->eth_type;
    l->ip_version = p->ip_version;
    l->ip_proto = p->ip_proto;
    l->tos = p->tos;
    l->ttl = p->ttl;
    l->is_fragment = p->is_fragment;
    l->is_later_fragment = p->is_later_fragment;
    l->ipv4_src = p->ipv4_src;
    l->ipv4_dst = p->ipv4_dst;
    l->ipv6_src = p->ipv6_src;
    l->ipv6_dst = p->ipv6_dst;
    l->ipv6_label = p->ipv6_label;
    l->has_l4 = p->has_l4;
    l->l4_src = p->l4_src;
    l->l4_dst = p->l4_dst;
    l->l3_ofs = p->l3_ofs;
    l->l4_ofs = p->l4_ofs;
}

static void
parse_frame(const uint8_t *data, size_t len, const uint16_t *vxlan_ports,
            size_t n_vxlan_ports, struct hw_model_parsed *p)
{
    struct hw_model_layer outer;
    size_t l3;

    memset(p, 0, sizeof *p);
    memset(&outer, 0, sizeof outer);
    l3 = parse_eth(data, len, 0, &outer);
    if (!outer.has_eth) {
        /* A runt: the MAC addresses it has are still matched. */
        if (len >= ETH_ADDR_LEN) {
            memcpy(&outer.dst, data, ETH_ADDR_LEN);
        }
        if (len >= 2 * ETH_ADDR_LEN) {
            memcpy(&outer.src, data + ETH_ADDR_LEN, ETH_ADDR_LEN);
        }
    }
    set_outer(p, &outer);
    if (!l3) {
        return;
    }
    if (eth_type_is_mpls(p->eth_type)) {
        parse_mpls(data, len, l3, HW_MODEL_MPLS_OUTER, p);
    }
    parse_tunnel(data, len, vxlan_ports, n_vxlan_ports, p);
}

void
hw_model_parse_ports(const struct dp_packet *packet,
                     const uint16_t *vxlan_ports, size_t n_vxlan_ports,
                     struct hw_model_parsed *p)
{
    parse_frame(dp_packet_data(packet), dp_packet_size(packet),
                vxlan_ports, n_vxlan_ports, p);
}

void
hw_model_parse(const struct dp_packet *packet, struct hw_model_parsed *p)
{
    static const uint16_t iana = HW_MODEL_VXLAN_PORT_IANA;

    hw_model_parse_ports(packet, &iana, 1, p);
}
