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
#include "hw-model-flow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "dp-packet.h"
#include "hash.h"
#include "hw-model-spec.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_flow);

/* How the model follows the real stack.
 *
 * ibv_create_flow() on mlx5 goes through three layers, and the model runs
 * their checks in the same order so that a rule with several faults fails
 * with the errno the first failing layer returns:
 *
 *   1. libmlx5 (mlx5_create_flow): at most one ACTION_COUNT spec; a counters
 *      object with no attached point cannot be bound.
 *   2. libibverbs (ib_spec_to_kern_spec): walks the specs from offset 20 by
 *      hdr.size, converts each to the kernel's fixed layout, and refuses
 *      unknown types (GRE, VXLAN and actions have no INNER variant) and
 *      short or over-long IPV4_EXT, IPV6 and VXLAN specs.  The walk is
 *      hw-model-spec.h's, the same as the device's lookup of the objects
 *      the specs name, and it comes first: a spec shorter than its struct
 *      is refused before anything reads it.
 *   3. The kernel: uverbs core (CAP_NET_RAW, flags, spec count, port, QP
 *      type, flow label and VNI range), then mlx5_ib (priority, table type,
 *      ethertype consistency, per-spec field support, ip_protocol
 *      conflicts, tag range), then mlx5 fs_core (value bits outside the
 *      mask, merge into or conflict with an identical entry, table size).
 *
 * The match of a rule is kept as mlx5 keeps it: a value and a mask
 * (criteria) over the fields of the device's match parameter.  Specs are
 * applied to it one after the other exactly as mlx5_ib does, so a later spec
 * overwrites what an earlier one set, and a packet matches when every byte
 * of its own view of those fields, ANDed with the mask, equals the value.
 *
 * The parser fills the packet's view.  Model assumptions (hw-apis.md 1.4
 * and 7), where the public sources say nothing:
 *
 *   - VXLAN is any UDP packet to one of the device's VXLAN ports (4789 and
 *     what hw_model_steering_add_vxlan_port() adds), whatever its flags;
 *     GRE is IP protocol 47 with a version 0 header.  The inner headers are
 *     parsed from the GRE protocol: 0x6558 an Ethernet frame, 0x0800 and
 *     0x86dd an IP packet.  Fragments are not parsed into.
 *   - A field of a header the packet lacks reads as 0, but a rule that
 *     masks a field of the inner Ethernet header, the VNI, the GRE fields,
 *     any inner field, or an MPLS entry needs the packet to have that
 *     header: an INNER spec never matches a packet that is not tunnelled,
 *     an inner Ethernet match never matches an L3 tunnel.  The GRE key of
 *     a packet without the K bit reads as 0 (verbs cannot match K). */

/* ---------------------------------------------------------------------- */
/* The match parameter.                                                   */
/* ---------------------------------------------------------------------- */

/* Big-endian byte arrays only, so that the structs have no padding: the
 * model compares, masks and hashes them byte by byte. */
struct fte_hdrs {                   /* mlx5 fte_match_set_lyr_2_4. */
    uint8_t dmac[6];
    uint8_t smac[6];
    uint8_t ethertype[2];           /* After the last VLAN tag. */
    uint8_t first_vid[2];           /* 12 bits. */
    uint8_t first_cfi;              /* 1 bit. */
    uint8_t first_prio;             /* 3 bits. */
    uint8_t cvlan_tag;              /* 1: the first tag is 802.1Q. */
    uint8_t ip_version;             /* 4 bits. */
    uint8_t ip_protocol;
    uint8_t ip_dscp;                /* 6 bits. */
    uint8_t ip_ecn;                 /* 2 bits. */
    uint8_t l4_type;                /* L4_TYPE_*; see below. */
    uint8_t src_ip[16];             /* IPv4 in the last 4 bytes. */
    uint8_t dst_ip[16];
    uint8_t tcp_sport[2];
    uint8_t tcp_dport[2];
    uint8_t udp_sport[2];
    uint8_t udp_dport[2];
};

/* l4_type is what the parser found after the IP header.  mlx5 programs only
 * ip_protocol for a TCP or UDP spec; the model also requires the L4 header
 * to be present (not a later fragment, not truncated), so that a rule with
 * an L4 spec never claims a packet whose ports the hardware could not
 * read. */
enum {
    L4_TYPE_NONE = 0,
    L4_TYPE_TCP = 1,
    L4_TYPE_UDP = 2,
};

struct fte_misc {                   /* mlx5 misc_parameters(_2). */
    uint8_t outer_ipv6_flow_label[4];
    uint8_t inner_ipv6_flow_label[4];
    uint8_t gre_protocol[2];
    uint8_t gre_key[4];
    uint8_t vxlan_vni[4];           /* 24 bits. */
    uint8_t outer_first_mpls[4];
    uint8_t inner_first_mpls[4];
    uint8_t outer_first_mpls_over_udp[4];
    uint8_t outer_first_mpls_over_gre[4];
};

struct fte_match {
    struct fte_hdrs outer;
    struct fte_misc misc;
    struct fte_hdrs inner;
};

/* What a packet offers beyond the fields of the match parameter: which
 * headers the parser found.  A field of a header the packet does not have
 * reads as 0, so a rule that masks such a field needs the header to be
 * there; these bits say which. */
enum {
    PRESENT_TUNNEL = 1 << 0,        /* VXLAN or GRE recognised. */
    PRESENT_VXLAN = 1 << 1,
    PRESENT_GRE = 1 << 2,
    PRESENT_INNER_L2 = 1 << 3,      /* An inner Ethernet header. */
    PRESENT_MPLS = 1 << 4,          /* << enum hw_model_mpls_pos. */
};

static bool
bytes_are_zero(const void *p_, size_t n)
{
    const uint8_t *p = p_;

    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

#define FIELD_IS_ZERO(F) bytes_are_zero(&(F), sizeof (F))

static void
put_be16(uint8_t dst[2], uint16_t x)
{
    dst[0] = x >> 8;
    dst[1] = x;
}

static void
put_be32(uint8_t dst[4], uint32_t x)
{
    dst[0] = x >> 24;
    dst[1] = x >> 16;
    dst[2] = x >> 8;
    dst[3] = x;
}

static uint16_t
get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static uint32_t
get_be32(const uint8_t *p)
{
    return ((uint32_t) p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

/* The PRESENT_* bits a rule with 'mask' needs a packet to have. */
static uint32_t
mask_needs(const struct fte_match *mask)
{
    const struct fte_hdrs *in = &mask->inner;
    const struct fte_misc *m = &mask->misc;
    uint32_t needs = 0;

    if (!FIELD_IS_ZERO(in->dmac) || !FIELD_IS_ZERO(in->smac)
        || !FIELD_IS_ZERO(in->ethertype) || !FIELD_IS_ZERO(in->first_vid)
        || in->first_cfi || in->first_prio || in->cvlan_tag) {
        needs |= PRESENT_TUNNEL | PRESENT_INNER_L2;
    }
    if (!FIELD_IS_ZERO(*in) || !FIELD_IS_ZERO(m->inner_ipv6_flow_label)) {
        needs |= PRESENT_TUNNEL;
    }
    if (!FIELD_IS_ZERO(m->vxlan_vni)) {
        needs |= PRESENT_TUNNEL | PRESENT_VXLAN;
    }
    if (!FIELD_IS_ZERO(m->gre_protocol) || !FIELD_IS_ZERO(m->gre_key)) {
        needs |= PRESENT_TUNNEL | PRESENT_GRE;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OUTER;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls_over_udp)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OVER_UDP;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls_over_gre)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OVER_GRE;
    }
    if (!FIELD_IS_ZERO(m->inner_first_mpls)) {
        needs |= PRESENT_TUNNEL | (PRESENT_MPLS << HW_MODEL_MPLS_INNER);
    }
    return needs;
}

/* ---------------------------------------------------------------------- */
/* Packet parser.                                                         */
/* ---------------------------------------------------------------------- */

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

/* Fills one layer of the match parameter (and its IPv6 flow label) from
 * what the parser found. */
static void
layer_to_match(const struct hw_model_layer *l, struct fte_hdrs *h,
               uint8_t flow_label[4])
{
    if (l->has_eth) {
        memcpy(h->dmac, l->dst.ea, 6);
        memcpy(h->smac, l->src.ea, 6);
    }
    memcpy(h->ethertype, &l->eth_type, 2);
    if (l->has_cvlan) {
        uint16_t tci = ntohs(l->vlan_tci);

        h->cvlan_tag = 1;
        put_be16(h->first_vid, tci & 0xfff);
        h->first_cfi = (tci >> 12) & 1;
        h->first_prio = tci >> 13;
    }

    h->ip_version = l->ip_version;
    if (l->ip_version == 4) {
        memcpy(&h->src_ip[12], &l->ipv4_src, 4);
        memcpy(&h->dst_ip[12], &l->ipv4_dst, 4);
    } else if (l->ip_version == 6) {
        memcpy(h->src_ip, &l->ipv6_src, 16);
        memcpy(h->dst_ip, &l->ipv6_dst, 16);
        put_be32(flow_label, ntohl(l->ipv6_label) & 0xfffff);
    }
    if (l->ip_version) {
        h->ip_protocol = l->ip_proto;
        h->ip_dscp = l->tos >> 2;
        h->ip_ecn = l->tos & 3;
    }
    if (l->has_l4 && l->ip_proto == IPPROTO_TCP) {
        h->l4_type = L4_TYPE_TCP;
        memcpy(h->tcp_sport, &l->l4_src, 2);
        memcpy(h->tcp_dport, &l->l4_dst, 2);
    } else if (l->has_l4 && l->ip_proto == IPPROTO_UDP) {
        h->l4_type = L4_TYPE_UDP;
        memcpy(h->udp_sport, &l->l4_src, 2);
        memcpy(h->udp_dport, &l->l4_dst, 2);
    }
}

/* The packet's view of the match parameter, and the PRESENT_* bits. */
static void
packet_to_match(const struct hw_model_parsed *p, struct fte_match *m,
                uint32_t *present)
{
    struct fte_misc *misc = &m->misc;
    struct hw_model_layer outer;

    memset(m, 0, sizeof *m);
    *present = 0;

    hw_model_parsed_outer(p, &outer);
    layer_to_match(&outer, &m->outer, misc->outer_ipv6_flow_label);

    for (int i = 0; i < HW_MODEL_N_MPLS_POS; i++) {
        static const size_t offsets[HW_MODEL_N_MPLS_POS] = {
            [HW_MODEL_MPLS_OUTER] = offsetof(struct fte_misc,
                                             outer_first_mpls),
            [HW_MODEL_MPLS_OVER_UDP] = offsetof(struct fte_misc,
                                                outer_first_mpls_over_udp),
            [HW_MODEL_MPLS_OVER_GRE] = offsetof(struct fte_misc,
                                                outer_first_mpls_over_gre),
            [HW_MODEL_MPLS_INNER] = offsetof(struct fte_misc,
                                             inner_first_mpls),
        };

        if (p->mpls & (1u << i)) {
            *present |= PRESENT_MPLS << i;
            memcpy((uint8_t *) misc + offsets[i], &p->mpls_lse[i], 4);
        }
    }

    if (p->tunnel == HW_MODEL_TUNNEL_NONE) {
        return;
    }
    *present |= PRESENT_TUNNEL;
    if (p->tunnel == HW_MODEL_TUNNEL_VXLAN) {
        *present |= PRESENT_VXLAN;
        put_be32(misc->vxlan_vni, ntohl(p->vxlan_vni) & 0xffffff);
    } else {
        *present |= PRESENT_GRE;
        memcpy(misc->gre_protocol, &p->gre_protocol, 2);
        memcpy(misc->gre_key, &p->gre_key, 4);
    }
    if (p->inner.has_eth) {
        *present |= PRESENT_INNER_L2;
    }
    if (p->inner_type != HW_MODEL_INNER_NONE) {
        layer_to_match(&p->inner, &m->inner, misc->inner_ipv6_flow_label);
    }
}

/* ---------------------------------------------------------------------- */
/* Counters.                                                              */
/* ---------------------------------------------------------------------- */

struct counter_point {
    uint32_t desc;              /* IBV_COUNTER_PACKETS or _BYTES. */
    uint32_t index;             /* Where ibv_read_counters() puts it. */
};

/* mlx5_ib MAX_COUNTERS_NUM: USHRT_MAX / (2 * sizeof(u32)). */
#define MAX_COUNTER_POINTS 8191

struct model_counters {
    struct ibv_counters ibv;        /* Handed to the caller. */
    struct hmap_node node;          /* In 'all_counters'. */

    /* libmlx5's list of attached points.  It only grows: libmlx5 never
     * removes a point, even after the last flow unbinds. */
    struct counter_point *points;
    size_t n_points, allocated_points;

    /* Flows bound to the object: libmlx5's refcount and the kernel's
     * usecnt, which move together for the rules the model accepts. */
    unsigned int n_flows;

    /* The kernel's copy of the points ("description"), taken when the
     * first flow binds and dropped when the last one goes; reads need at
     * least 'max_index' values (the highest index + 1, without the 32-bit
     * wrap-around the kernel has). */
    uint64_t max_index;

    /* The device's flow counter: it lives as long as the object, so values
     * survive unbinding and rebinding. */
    uint64_t packets;
    uint64_t bytes;
};

/* Every counters object of every context, to validate the pointers found in
 * rules and to count objects per context.  One lock for all devices: the
 * callers serialise per device only. */
static struct ovs_mutex counters_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap all_counters OVS_GUARDED_BY(counters_mutex)
    = HMAP_INITIALIZER(&all_counters);

static struct model_counters *
counters_find(const struct ibv_counters *ibv)
{
    struct model_counters *c, *found = NULL;

    if (!ibv) {
        return NULL;
    }
    ovs_mutex_lock(&counters_mutex);
    HMAP_FOR_EACH_WITH_HASH (c, node, hash_pointer(ibv, 0), &all_counters) {
        if (&c->ibv == ibv) {
            found = c;
            break;
        }
    }
    ovs_mutex_unlock(&counters_mutex);
    return found;
}

int
hw_model_counters_create(struct ibv_context *ctx,
                         struct ibv_counters **countersp)
{
    struct model_counters *c = xzalloc(sizeof *c);

    c->ibv.context = ctx;
    ovs_mutex_lock(&counters_mutex);
    hmap_insert(&all_counters, &c->node, hash_pointer(&c->ibv, 0));
    ovs_mutex_unlock(&counters_mutex);

    *countersp = &c->ibv;
    return 0;
}

int
hw_model_counters_attach(struct ibv_counters *ibv,
                         struct ibv_counter_attach_attr *attr)
{
    struct model_counters *c = counters_find(ibv);

    if (!c || !attr) {
        return EINVAL;
    }
    /* libmlx5 mlx5_attach_counters_point_flow(), in its order.  The model's
     * API has no 'flow' argument: it is always the static (NULL) mode. */
    if (attr->comp_mask) {
        return EOPNOTSUPP;
    }
    if (attr->counter_desc != IBV_COUNTER_PACKETS
        && attr->counter_desc != IBV_COUNTER_BYTES) {
        return ENOTSUP;
    }
    if (c->n_flows) {
        return EBUSY;
    }

    if (c->n_points >= c->allocated_points) {
        c->points = x2nrealloc(c->points, &c->allocated_points,
                               sizeof *c->points);
    }
    c->points[c->n_points++] = (struct counter_point) {
        .desc = attr->counter_desc,
        .index = attr->index,
    };
    return 0;
}

int
hw_model_counters_read(struct ibv_counters *ibv, uint64_t *values,
                       uint32_t n_values)
{
    struct model_counters *c = counters_find(ibv);

    if (!c) {
        return EINVAL;
    }
    /* uverbs core: an object no flow uses cannot be read. */
    if (!c->n_flows) {
        return EINVAL;
    }
    /* mlx5_ib_read_counters(): the buffer must hold every index. */
    if (n_values < c->max_index) {
        return EINVAL;
    }

    if (n_values) {
        memset(values, 0, n_values * sizeof *values);
    }
    for (size_t i = 0; i < c->n_points; i++) {
        const struct counter_point *pt = &c->points[i];

        /* Points sharing an index add up, as in the kernel. */
        values[pt->index] += (pt->desc == IBV_COUNTER_PACKETS
                              ? c->packets : c->bytes);
    }
    return 0;
}

int
hw_model_counters_destroy(struct ibv_counters *ibv)
{
    struct model_counters *c = counters_find(ibv);

    if (!c) {
        return EINVAL;
    }
    /* The kernel refuses to destroy an object that flows still use
     * (uverbs_free_counters: usecnt != 0), and libibverbs returns that
     * EBUSY: destroy the flows first. */
    if (c->n_flows) {
        return EBUSY;
    }

    ovs_mutex_lock(&counters_mutex);
    hmap_remove(&all_counters, &c->node);
    ovs_mutex_unlock(&counters_mutex);
    free(c->points);
    free(c);
    return 0;
}

size_t
hw_model_counters_n_alive(const struct ibv_context *ctx)
{
    const struct model_counters *c;
    size_t n = 0;

    ovs_mutex_lock(&counters_mutex);
    HMAP_FOR_EACH (c, node, &all_counters) {
        n += c->ibv.context == ctx;
    }
    ovs_mutex_unlock(&counters_mutex);
    return n;
}

/* A flow starts using 'c'.  The first one gives the kernel its copy of the
 * points. */
static void
counters_bind(struct model_counters *c)
{
    if (!c->n_flows++) {
        c->max_index = 0;
        for (size_t i = 0; i < c->n_points; i++) {
            c->max_index = MAX(c->max_index,
                               (uint64_t) c->points[i].index + 1);
        }
    }
}

static void
counters_unbind(struct model_counters *c)
{
    ovs_assert(c->n_flows);
    if (!--c->n_flows) {
        c->max_index = 0;       /* mlx5_ib_counters_clear_description(). */
    }
}

/* ---------------------------------------------------------------------- */
/* Rules: entries (FTEs), tables, flows.                                  */
/* ---------------------------------------------------------------------- */

/* What an entry does with a packet (mlx5 flow_act + flow_context). */
struct fte_action {
    bool fwd;                   /* To the flow's QP (ingress) or to the
                                 * wire (egress: "allow"). */
    bool drop;
    bool count;
    bool fwd_next_prio;         /* DONT_TRAP: and continue to the next
                                 * priority. */
    bool has_tag;
    uint32_t tag;
    const struct ibv_flow_action *reformat;
};

/* One flow table entry.  Rules with the same priority and identical match
 * value and mask share it (mlx5 fs_core add_rule_fg). */
struct model_fte {
    struct ovs_list node;       /* In the table, in creation order. */
    struct hmap_node hmap_node; /* In 'group->ftes', by fte_value_hash(). */
    struct fte_mask_group *group;
    struct model_table *table;
    unsigned int id;            /* For hw_model_steering_format(). */
    struct fte_match value;
    struct fte_match mask;
    uint32_t needs;             /* PRESENT_* bits a packet must have. */
    struct fte_action action;
    struct ovs_list members;    /* struct fte_member, in creation order. */
    uint64_t packets;           /* Hits. */
    uint64_t bytes;
};

/* The entries of one table that have the same mask.  A table has few
 * distinct masks and may have many entries (65536), so creating a rule and
 * looking a packet up cost one hash lookup per mask instead of a comparison
 * per entry. */
struct fte_mask_group {
    struct ovs_list node;       /* In the table's 'masks'. */
    struct fte_match mask;
    struct hmap ftes;           /* struct model_fte, by fte_value_hash(). */
};

struct model_table {
    struct ovs_list ftes;       /* struct model_fte, in creation order. */
    struct ovs_list masks;      /* struct fte_mask_group. */
    size_t n_ftes;
    const char *direction;      /* "ingress", "egress". */
    int core_prio;              /* Index in its namespace. */
    const char *ns;             /* "bypass", "leftovers", "sniffer". */
};

struct model_flow;

/* A flow's membership in an entry.  A rule of type ALL_DEFAULT is two
 * entries (multicast and unicast destination MAC), SNIFFER one per
 * direction. */
struct fte_member {
    struct ovs_list node;       /* In fte->members. */
    struct model_fte *fte;
    struct model_flow *flow;
};

struct model_flow {
    struct ibv_flow ibv;            /* Handed to the caller. */
    struct hmap_node node;          /* In steering->flows. */
    struct ibv_qp *qp;
    uint32_t type;                  /* enum ibv_flow_attr_type. */
    uint16_t priority;
    uint32_t flags;
    struct model_counters *counters; /* Bound by ACTION_COUNT, or NULL. */
    bool counts;                    /* Whether hits add to 'counters'. */
    uint8_t *specs;                 /* A copy of the rule's specs, to show
                                     * it (formatted only when shown: a
                                     * device may hold 65536 rules per
                                     * table, and most are never shown). */
    size_t n_specs;
    size_t n_members;
    struct fte_member members[2];
};

struct hw_model_steering {
    struct hw_model_limits limits;
    struct hmap flows;              /* struct model_flow. */
    unsigned int next_fte_id;
    uint32_t next_handle;

    /* Ingress and egress "bypass" namespaces: core priorities
     * 0 .. 2 * (max_priority + 1) - 1, then the multicast priority. */
    size_t n_prios;
    struct model_table *ingress;
    struct model_table *egress;
    struct model_table leftovers;   /* ALL_DEFAULT, MC_DEFAULT. */
    struct model_table sniffer[2];  /* RX, TX. */

    /* The parser's VXLAN UDP ports, in the order they were added. */
    uint16_t vxlan_ports[HW_MODEL_MAX_VXLAN_PORTS];
    size_t n_vxlan_ports;
};

/* Entries per table when hw_model_limits.max_rules is 0: mlx5_ib's
 * MLX5_FS_MAX_ENTRIES (the device's log_max_ft_size may lower it). */
#define DEFAULT_MAX_RULES (1u << 16)

static void
table_init(struct model_table *t, const char *direction, const char *ns,
           int core_prio)
{
    ovs_list_init(&t->ftes);
    ovs_list_init(&t->masks);
    t->n_ftes = 0;
    t->direction = direction;
    t->ns = ns;
    t->core_prio = core_prio;
}

struct hw_model_steering *
hw_model_steering_create(const struct hw_model_limits *limits)
{
    struct hw_model_steering *st = xzalloc(sizeof *st);

    st->limits = *limits;
    hmap_init(&st->flows);
    st->next_fte_id = 1;
    st->next_handle = 1;

    st->n_prios = 2 * ((size_t) limits->max_priority + 1) + 1;
    st->ingress = xcalloc(st->n_prios, sizeof *st->ingress);
    st->egress = xcalloc(st->n_prios, sizeof *st->egress);
    for (size_t i = 0; i < st->n_prios; i++) {
        table_init(&st->ingress[i], "ingress", "bypass", i);
        table_init(&st->egress[i], "egress", "bypass", i);
    }
    table_init(&st->leftovers, "ingress", "leftovers", 0);
    table_init(&st->sniffer[0], "ingress", "sniffer", 0);
    table_init(&st->sniffer[1], "egress", "sniffer", 0);
    st->vxlan_ports[0] = HW_MODEL_VXLAN_PORT_IANA;
    st->n_vxlan_ports = 1;
    return st;
}

size_t
hw_model_steering_n_rules(const struct hw_model_steering *st)
{
    return hmap_count(&st->flows);
}

int
hw_model_steering_add_vxlan_port(struct hw_model_steering *st,
                                 uint16_t port)
{
    if (!port) {
        return EINVAL;
    }
    for (size_t i = 0; i < st->n_vxlan_ports; i++) {
        if (st->vxlan_ports[i] == port) {
            return EEXIST;
        }
    }
    if (st->n_vxlan_ports >= HW_MODEL_MAX_VXLAN_PORTS) {
        return ENOSPC;
    }
    st->vxlan_ports[st->n_vxlan_ports++] = port;
    return 0;
}

int
hw_model_steering_del_vxlan_port(struct hw_model_steering *st,
                                 uint16_t port)
{
    if (port == HW_MODEL_VXLAN_PORT_IANA) {
        return EPERM;
    }
    for (size_t i = 0; i < st->n_vxlan_ports; i++) {
        if (st->vxlan_ports[i] == port) {
            memmove(&st->vxlan_ports[i], &st->vxlan_ports[i + 1],
                    (st->n_vxlan_ports - i - 1) * sizeof *st->vxlan_ports);
            st->n_vxlan_ports--;
            return 0;
        }
    }
    return ENOENT;
}

size_t
hw_model_steering_get_vxlan_ports(const struct hw_model_steering *st,
                                  uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS])
{
    memcpy(ports, st->vxlan_ports, st->n_vxlan_ports * sizeof *ports);
    return st->n_vxlan_ports;
}

void
hw_model_steering_parse(const struct hw_model_steering *st,
                        const struct dp_packet *packet,
                        struct hw_model_parsed *p)
{
    hw_model_parse_ports(packet, st->vxlan_ports, st->n_vxlan_ports, p);
}

/* ---------------------------------------------------------------------- */
/* ibv_create_flow(): step 2, libibverbs' conversion of the specs.        */
/* ---------------------------------------------------------------------- */

/* One spec in the kernel's fixed layout: filters zero-filled past what
 * libibverbs copies, IPV4_EXT turned into IPV4. */
struct kspec {
    uint32_t type;              /* Including IBV_FLOW_SPEC_INNER. */
    uint8_t val[40];
    uint8_t mask[40];
    uint32_t tag_id;
    const struct ibv_flow_action *action;
    struct ibv_counters *counters;
};

/* Kernel filter offsets and lengths. */
enum {
    KF_ETH_DMAC = 0,
    KF_ETH_SMAC = 6,
    KF_ETH_TYPE = 12,
    KF_ETH_VLAN = 14,
    KF_ETH_LEN = 16,

    KF_IP4_SRC = 0,
    KF_IP4_DST = 4,
    KF_IP4_PROTO = 8,
    KF_IP4_TOS = 9,
    KF_IP4_TTL = 10,
    KF_IP4_FLAGS = 11,
    KF_IP4_LEN = 12,
    KF_IP4_BASIC_LEN = 8,

    KF_IP6_SRC = 0,
    KF_IP6_DST = 16,
    KF_IP6_LABEL = 32,
    KF_IP6_NEXT = 36,
    KF_IP6_TCLASS = 37,
    KF_IP6_HLIM = 38,
    KF_IP6_LEN = 39,

    KF_L4_DST = 0,
    KF_L4_SRC = 2,
    KF_L4_LEN = 4,

    KF_ESP_SPI = 0,
    KF_ESP_SEQ = 4,
    KF_ESP_LEN = 8,

    KF_GRE_FLAGS = 0,
    KF_GRE_PROTO = 2,
    KF_GRE_KEY = 4,
    KF_GRE_LEN = 8,

    KF_MPLS_LEN = 4,

    KF_TUN_ID = 0,
    KF_TUN_LEN = 4,
};

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static int reject(int error, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);

/* Logs why a rule is refused and returns 'error'. */
static int
reject(int error, const char *format, ...)
{
    if (!VLOG_DROP_DBG(&rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_DBG("ibv_create_flow: %s (%s)", msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

/* libibverbs get_filters_size() for the specs whose size may differ from
 * the struct libibverbs was built with: the filter size is (size - 8) / 2,
 * the mask follows the value, and mask bytes past the kernel's filter must
 * be zero (EOPNOTSUPP).  The walker refused a filter shorter than the
 * kernel's. */
static int
spec_filter_size(const struct hw_model_spec *s, size_t *filter_len)
{
    size_t min_len = (hw_model_spec_min_size(s->type)
                      - HW_MODEL_SPEC_HDR_LEN) / 2;
    size_t len = (s->size - HW_MODEL_SPEC_HDR_LEN) / 2;

    if (!bytes_are_zero(s->data + HW_MODEL_SPEC_HDR_LEN + len + min_len,
                        len - min_len)) {
        return reject(EOPNOTSUPP, "spec 0x%"PRIx32" has mask bits past the "
                      "fields the kernel knows", s->type);
    }
    *filter_len = len;
    return 0;
}

/* Converts 's' as ib_spec_to_kern_spec() does. */
static int
spec_to_kspec(const struct hw_model_spec *s, struct kspec *k)
{
    const uint8_t *spec = s->data;
    uint32_t type = s->type;
    size_t flen;
    int error;

    memset(k, 0, sizeof *k);
    k->type = type;
    switch (type) {
    case IBV_FLOW_SPEC_ETH:
    case IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 6, KF_ETH_LEN);
        memcpy(k->mask, spec + 6 + KF_ETH_LEN, KF_ETH_LEN);
        break;

    case IBV_FLOW_SPEC_IPV4:
    case IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_IP4_BASIC_LEN);
        memcpy(k->mask, spec + 8 + KF_IP4_BASIC_LEN, KF_IP4_BASIC_LEN);
        break;

    case IBV_FLOW_SPEC_IPV4_EXT:
    case IBV_FLOW_SPEC_IPV4_EXT | IBV_FLOW_SPEC_INNER:
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        k->type = IBV_FLOW_SPEC_IPV4 | (type & IBV_FLOW_SPEC_INNER);
        memcpy(k->val, spec + 8, KF_IP4_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_IP4_LEN);
        break;

    case IBV_FLOW_SPEC_IPV6:
    case IBV_FLOW_SPEC_IPV6 | IBV_FLOW_SPEC_INNER:
        /* The kernel's filter ends at hop_limit: the padding byte of the
         * 40-byte verbs filter is the first "extra" byte. */
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        memcpy(k->val, spec + 8, KF_IP6_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_IP6_LEN);
        break;

    case IBV_FLOW_SPEC_ESP:
    case IBV_FLOW_SPEC_ESP | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_ESP_LEN);
        memcpy(k->mask, spec + 8 + KF_ESP_LEN, KF_ESP_LEN);
        break;

    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
    case IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER:
    case IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 6, KF_L4_LEN);
        memcpy(k->mask, spec + 6 + KF_L4_LEN, KF_L4_LEN);
        break;

    case IBV_FLOW_SPEC_GRE:
        memcpy(k->val, spec + 8, KF_GRE_LEN);
        memcpy(k->mask, spec + 8 + KF_GRE_LEN, KF_GRE_LEN);
        break;

    case IBV_FLOW_SPEC_MPLS:
    case IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_MPLS_LEN);
        memcpy(k->mask, spec + 8 + KF_MPLS_LEN, KF_MPLS_LEN);
        break;

    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        memcpy(k->val, spec + 8, KF_TUN_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_TUN_LEN);
        break;

    case IBV_FLOW_SPEC_ACTION_TAG:
        memcpy(&k->tag_id, spec + 8, 4);
        break;

    case IBV_FLOW_SPEC_ACTION_DROP:
        break;

    case IBV_FLOW_SPEC_ACTION_HANDLE:
        k->action = hw_model_spec_object(s);
        break;

    case IBV_FLOW_SPEC_ACTION_COUNT:
        k->counters = CONST_CAST(struct ibv_counters *,
                                 hw_model_spec_object(s));
        break;

    default:
        /* The walker refused every other type. */
        OVS_NOT_REACHED();
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Step 3: mlx5_ib's translation of kernel specs into the match.          */
/* ---------------------------------------------------------------------- */

/* ft_field_support for MPLS positions.  Model assumption: a device without
 * a flex parser profile for MPLS over UDP/GRE, where only the plain first
 * MPLS label entry (outer, or inner behind a tunnel) is matchable. */
enum {
    MPLS_FIELD_LABEL = 1 << 0,
    MPLS_FIELD_EXP = 1 << 1,
    MPLS_FIELD_S_BOS = 1 << 2,
    MPLS_FIELD_TTL = 1 << 3,
    MPLS_FIELDS_ALL = 0xf,
};
#define MPLS_SUPPORT_OUTER      MPLS_FIELDS_ALL
#define MPLS_SUPPORT_INNER      MPLS_FIELDS_ALL
#define MPLS_SUPPORT_OVER_UDP   0
#define MPLS_SUPPORT_OVER_GRE   0

static bool
mpls_fields_supported(unsigned int support, const uint8_t mask[4])
{
    uint32_t m = get_be32(mask);

    return !(((m >> 12) && !(support & MPLS_FIELD_LABEL))
             || ((m >> 9 & 7) && !(support & MPLS_FIELD_EXP))
             || ((m >> 8 & 1) && !(support & MPLS_FIELD_S_BOS))
             || ((m & 0xff) && !(support & MPLS_FIELD_TTL)));
}

/* mlx5 set_proto(): the first spec that masks ip_protocol sets it; a later
 * one must agree on both value and mask. */
static int
set_proto(struct fte_hdrs *val, struct fte_hdrs *mask,
          uint8_t proto_mask, uint8_t proto_val)
{
    if (!proto_mask) {
        return 0;
    }
    if (!mask->ip_protocol) {
        mask->ip_protocol = proto_mask;
        val->ip_protocol = proto_val;
        return 0;
    }
    if (mask->ip_protocol != proto_mask || val->ip_protocol != proto_val) {
        return reject(EINVAL, "ip protocol %#x/%#x conflicts with %#x/%#x "
                      "set by an earlier spec", proto_val, proto_mask,
                      val->ip_protocol, mask->ip_protocol);
    }
    return 0;
}

static void
set_tos(struct fte_hdrs *val, struct fte_hdrs *mask, uint8_t tos_mask,
        uint8_t tos_val)
{
    mask->ip_ecn = tos_mask & 3;
    val->ip_ecn = tos_val & 3;
    mask->ip_dscp = tos_mask >> 2;
    val->ip_dscp = tos_val >> 2;
}

/* The match and action a NORMAL rule's specs build. */
struct rule_build {
    struct fte_match value;
    struct fte_match mask;
    struct fte_action action;
    int n_handles;
};

/* mlx5_ib parse_flow_attr() for one spec. */
static int
parse_kspec(const struct kspec *k, uint32_t prev_type, struct rule_build *b)
{
    bool inner = k->type & IBV_FLOW_SPEC_INNER;
    struct fte_hdrs *hv = inner ? &b->value.inner : &b->value.outer;
    struct fte_hdrs *hm = inner ? &b->mask.inner : &b->mask.outer;
    struct fte_misc *mv = &b->value.misc;
    struct fte_misc *mm = &b->mask.misc;
    int error;

    switch (k->type & ~IBV_FLOW_SPEC_INNER) {
    case IBV_FLOW_SPEC_ETH: {
        uint16_t vlan_mask = get_be16(&k->mask[KF_ETH_VLAN]);
        uint16_t vlan_val = get_be16(&k->val[KF_ETH_VLAN]);

        memcpy(hm->dmac, &k->mask[KF_ETH_DMAC], 6);
        memcpy(hv->dmac, &k->val[KF_ETH_DMAC], 6);
        memcpy(hm->smac, &k->mask[KF_ETH_SMAC], 6);
        memcpy(hv->smac, &k->val[KF_ETH_SMAC], 6);
        if (vlan_mask) {
            /* Any VLAN mask requires an 802.1Q first tag. */
            hm->cvlan_tag = hv->cvlan_tag = 1;
            put_be16(hm->first_vid, vlan_mask & 0xfff);
            put_be16(hv->first_vid, vlan_val & 0xfff);
            hm->first_cfi = (vlan_mask >> 12) & 1;
            hv->first_cfi = (vlan_val >> 12) & 1;
            hm->first_prio = vlan_mask >> 13;
            hv->first_prio = vlan_val >> 13;
        }
        memcpy(hm->ethertype, &k->mask[KF_ETH_TYPE], 2);
        memcpy(hv->ethertype, &k->val[KF_ETH_TYPE], 2);
        break;
    }

    case IBV_FLOW_SPEC_IPV4:
        if (k->mask[KF_IP4_TTL] || k->mask[KF_IP4_FLAGS]) {
            return reject(EOPNOTSUPP, "ipv4 ttl and flags cannot be "
                          "matched");
        }
        /* Model assumption: the device has ft_field_support.ip_version
         * (ConnectX-5 and later), so the spec matches the IP version
         * rather than forcing the ethertype. */
        hm->ip_version = 0xf;
        hv->ip_version = 4;
        memcpy(&hm->src_ip[12], &k->mask[KF_IP4_SRC], 4);
        memcpy(&hv->src_ip[12], &k->val[KF_IP4_SRC], 4);
        memcpy(&hm->dst_ip[12], &k->mask[KF_IP4_DST], 4);
        memcpy(&hv->dst_ip[12], &k->val[KF_IP4_DST], 4);
        set_tos(hv, hm, k->mask[KF_IP4_TOS], k->val[KF_IP4_TOS]);
        return set_proto(hv, hm, k->mask[KF_IP4_PROTO], k->val[KF_IP4_PROTO]);

    case IBV_FLOW_SPEC_IPV6:
        if (k->mask[KF_IP6_HLIM]) {
            return reject(EOPNOTSUPP, "ipv6 hop limit cannot be matched");
        }
        hm->ip_version = 0xf;
        hv->ip_version = 6;
        memcpy(hm->src_ip, &k->mask[KF_IP6_SRC], 16);
        memcpy(hv->src_ip, &k->val[KF_IP6_SRC], 16);
        memcpy(hm->dst_ip, &k->mask[KF_IP6_DST], 16);
        memcpy(hv->dst_ip, &k->val[KF_IP6_DST], 16);
        set_tos(hv, hm, k->mask[KF_IP6_TCLASS], k->val[KF_IP6_TCLASS]);
        error = set_proto(hv, hm, k->mask[KF_IP6_NEXT], k->val[KF_IP6_NEXT]);
        if (error) {
            return error;
        }
        /* A 20-bit field: MLX5_SET() drops higher bits. */
        put_be32(inner ? mm->inner_ipv6_flow_label
                 : mm->outer_ipv6_flow_label,
                 get_be32(&k->mask[KF_IP6_LABEL]) & 0xfffff);
        put_be32(inner ? mv->inner_ipv6_flow_label
                 : mv->outer_ipv6_flow_label,
                 get_be32(&k->val[KF_IP6_LABEL]) & 0xfffff);
        break;

    case IBV_FLOW_SPEC_ESP:
        /* Linux 6.1 mlx5_ib no longer matches ESP through verbs (its IPsec
         * flow steering was removed in 5.17). */
        return reject(EOPNOTSUPP, "esp specs are not supported");

    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP: {
        bool tcp = (k->type & ~IBV_FLOW_SPEC_INNER) == IBV_FLOW_SPEC_TCP;

        error = set_proto(hv, hm, 0xff, tcp ? IPPROTO_TCP : IPPROTO_UDP);
        if (error) {
            return error;
        }
        hm->l4_type = 0xff;
        hv->l4_type = tcp ? L4_TYPE_TCP : L4_TYPE_UDP;
        memcpy(tcp ? hm->tcp_sport : hm->udp_sport, &k->mask[KF_L4_SRC], 2);
        memcpy(tcp ? hv->tcp_sport : hv->udp_sport, &k->val[KF_L4_SRC], 2);
        memcpy(tcp ? hm->tcp_dport : hm->udp_dport, &k->mask[KF_L4_DST], 2);
        memcpy(tcp ? hv->tcp_dport : hv->udp_dport, &k->val[KF_L4_DST], 2);
        break;
    }

    case IBV_FLOW_SPEC_GRE:
        if (get_be16(&k->mask[KF_GRE_FLAGS])) {
            return reject(EOPNOTSUPP, "gre c/k/s flags and version cannot "
                          "be matched");
        }
        error = set_proto(hv, hm, 0xff, IPPROTO_GRE);
        if (error) {
            return error;
        }
        memcpy(mm->gre_protocol, &k->mask[KF_GRE_PROTO], 2);
        memcpy(mv->gre_protocol, &k->val[KF_GRE_PROTO], 2);
        memcpy(mm->gre_key, &k->mask[KF_GRE_KEY], 4);
        memcpy(mv->gre_key, &k->val[KF_GRE_KEY], 4);
        break;

    case IBV_FLOW_SPEC_MPLS: {
        uint8_t *pos_v, *pos_m;
        unsigned int support;

        /* The position depends on the spec before it. */
        if (prev_type == IBV_FLOW_SPEC_UDP) {
            support = MPLS_SUPPORT_OVER_UDP;
            pos_v = mv->outer_first_mpls_over_udp;
            pos_m = mm->outer_first_mpls_over_udp;
        } else if (prev_type == IBV_FLOW_SPEC_GRE) {
            support = MPLS_SUPPORT_OVER_GRE;
            pos_v = mv->outer_first_mpls_over_gre;
            pos_m = mm->outer_first_mpls_over_gre;
        } else if (inner) {
            support = MPLS_SUPPORT_INNER;
            pos_v = mv->inner_first_mpls;
            pos_m = mm->inner_first_mpls;
        } else {
            support = MPLS_SUPPORT_OUTER;
            pos_v = mv->outer_first_mpls;
            pos_m = mm->outer_first_mpls;
        }
        if (!mpls_fields_supported(support, k->mask)) {
            return reject(EOPNOTSUPP, "mpls fields not matchable at this "
                          "position");
        }
        memcpy(pos_v, k->val, 4);
        memcpy(pos_m, k->mask, 4);
        break;
    }

    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        put_be32(mm->vxlan_vni, get_be32(&k->mask[KF_TUN_ID]) & 0xffffff);
        put_be32(mv->vxlan_vni, get_be32(&k->val[KF_TUN_ID]) & 0xffffff);
        break;

    case IBV_FLOW_SPEC_ACTION_TAG:
        if (k->tag_id >= 1u << 24) {
            return reject(EINVAL, "flow tag %"PRIu32" does not fit 24 bits",
                          k->tag_id);
        }
        b->action.has_tag = true;
        b->action.tag = k->tag_id;
        break;

    case IBV_FLOW_SPEC_ACTION_DROP:
        b->action.drop = true;
        break;

    case IBV_FLOW_SPEC_ACTION_HANDLE:
        /* mlx5 allows one action of each kind (decap, reformat, modify
         * header); the model cannot tell the kinds of the caller's objects
         * apart and allows one handle. */
        if (b->n_handles++) {
            return reject(EINVAL, "a second action handle");
        }
        b->action.reformat = k->action;
        break;

    case IBV_FLOW_SPEC_ACTION_COUNT:
        if (b->action.count) {
            return reject(EINVAL, "a second ACTION_COUNT");
        }
        b->action.count = true;
        break;

    default:
        OVS_NOT_REACHED();
    }
    return 0;
}

/* mlx5_ib is_valid_ethertype() for one layer: if an ETH spec of that layer
 * masks the ethertype and an IP spec of that layer exists, the mask must be
 * full and the ethertype must be that IP version's (or MPLS). */
static bool
ethertype_valid(const struct kspec *ks, size_t n, bool inner)
{
    uint32_t inner_bit = inner ? IBV_FLOW_SPEC_INNER : 0;
    uint32_t ip_type = 0;
    bool has_ethertype = false;
    bool mask_full = true;
    uint16_t eth_type = 0;

    for (size_t i = 0; i < n; i++) {
        uint16_t mask = get_be16(&ks[i].mask[KF_ETH_TYPE]);

        if (ks[i].type == (IBV_FLOW_SPEC_ETH | inner_bit) && mask) {
            mask_full = mask == 0xffff;
            has_ethertype = true;
            eth_type = get_be16(&ks[i].val[KF_ETH_TYPE]);
        } else if (ks[i].type == (IBV_FLOW_SPEC_IPV4 | inner_bit)
                   || ks[i].type == (IBV_FLOW_SPEC_IPV6 | inner_bit)) {
            ip_type = ks[i].type;
        }
    }

    if (!has_ethertype || !ip_type) {
        return true;
    }
    if (!mask_full) {
        return false;
    }
    return ((eth_type == ETH_TYPE_IP
             && ip_type == (IBV_FLOW_SPEC_IPV4 | inner_bit))
            || (eth_type == ETH_TYPE_IPV6
                && ip_type == (IBV_FLOW_SPEC_IPV6 | inner_bit))
            || eth_type == ETH_TYPE_MPLS || eth_type == ETH_TYPE_MPLS_MCAST);
}

/* mlx5_ib flow_is_multicast_only(): such rules (unless DONT_TRAP) go to the
 * multicast priority, after every regular one. */
static bool
flow_is_multicast_only(const struct kspec *ks, size_t n)
{
    if (!n) {
        return false;
    }
    if (ks[0].type == IBV_FLOW_SPEC_IPV4) {
        ovs_be32 dst;

        memcpy(&dst, &ks[0].val[KF_IP4_DST], 4);
        return ip_is_multicast(dst);
    }
    if (ks[0].type == IBV_FLOW_SPEC_ETH) {
        return (ks[0].mask[KF_ETH_DMAC] & 1) && (ks[0].val[KF_ETH_DMAC] & 1);
    }
    return false;
}

/* ---------------------------------------------------------------------- */
/* Readable form of specs.                                                */
/* ---------------------------------------------------------------------- */

static void
format_sep(struct ds *s, bool *first)
{
    if (!*first) {
        ds_put_char(s, ',');
    }
    *first = false;
}

/* Formats the 'n'-byte big-endian field as "name=0xval[/0xmask]" if its
 * mask is non-zero. */
static void
format_hex_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask, size_t n,
                 uint32_t full)
{
    uint32_t v = 0, m = 0;

    for (size_t i = 0; i < n; i++) {
        v = (v << 8) | val[i];
        m = (m << 8) | mask[i];
    }
    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=%#"PRIx32, name, v);
    if (m != full) {
        ds_put_format(s, "/%#"PRIx32, m);
    }
}

static void
format_dec_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    uint16_t v = get_be16(val), m = get_be16(mask);

    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=%"PRIu16, name, v);
    if (m != 0xffff) {
        ds_put_format(s, "/%#"PRIx16, m);
    }
}

static void
format_mac_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    struct eth_addr v, m;

    memcpy(v.ea, val, 6);
    memcpy(m.ea, mask, 6);
    if (eth_addr_is_zero(m)) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s="ETH_ADDR_FMT, name, ETH_ADDR_ARGS(v));
    if (!eth_addr_equals(m, eth_addr_exact)) {
        ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(m));
    }
}

static void
format_ip4_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    ovs_be32 v, m;

    memcpy(&v, val, 4);
    memcpy(&m, mask, 4);
    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s="IP_FMT, name, IP_ARGS(v));
    if (m != OVS_BE32_MAX) {
        ds_put_format(s, "/"IP_FMT, IP_ARGS(m));
    }
}

static void
format_ip6_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    struct in6_addr v, m;

    memcpy(&v, val, 16);
    memcpy(&m, mask, 16);
    if (ipv6_mask_is_any(&m)) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=", name);
    ipv6_format_addr(&v, s);
    if (!ipv6_mask_is_exact(&m)) {
        ds_put_char(s, '/');
        ipv6_format_addr(&m, s);
    }
}

static void
format_kspec(const struct kspec *k, struct ds *s)
{
    bool first = true;

    if (k->type & IBV_FLOW_SPEC_INNER) {
        ds_put_cstr(s, "inner_");
    }
    switch (k->type & ~IBV_FLOW_SPEC_INNER) {
    case IBV_FLOW_SPEC_ETH:
        ds_put_cstr(s, "eth(");
        format_mac_field(s, &first, "dst", &k->val[KF_ETH_DMAC],
                         &k->mask[KF_ETH_DMAC]);
        format_mac_field(s, &first, "src", &k->val[KF_ETH_SMAC],
                         &k->mask[KF_ETH_SMAC]);
        format_hex_field(s, &first, "type", &k->val[KF_ETH_TYPE],
                         &k->mask[KF_ETH_TYPE], 2, 0xffff);
        format_hex_field(s, &first, "vlan", &k->val[KF_ETH_VLAN],
                         &k->mask[KF_ETH_VLAN], 2, 0xffff);
        break;
    case IBV_FLOW_SPEC_IPV4:
        ds_put_cstr(s, "ipv4(");
        format_ip4_field(s, &first, "src", &k->val[KF_IP4_SRC],
                         &k->mask[KF_IP4_SRC]);
        format_ip4_field(s, &first, "dst", &k->val[KF_IP4_DST],
                         &k->mask[KF_IP4_DST]);
        format_hex_field(s, &first, "proto", &k->val[KF_IP4_PROTO],
                         &k->mask[KF_IP4_PROTO], 1, 0xff);
        format_hex_field(s, &first, "tos", &k->val[KF_IP4_TOS],
                         &k->mask[KF_IP4_TOS], 1, 0xff);
        break;
    case IBV_FLOW_SPEC_IPV6:
        ds_put_cstr(s, "ipv6(");
        format_ip6_field(s, &first, "src", &k->val[KF_IP6_SRC],
                         &k->mask[KF_IP6_SRC]);
        format_ip6_field(s, &first, "dst", &k->val[KF_IP6_DST],
                         &k->mask[KF_IP6_DST]);
        format_hex_field(s, &first, "label", &k->val[KF_IP6_LABEL],
                         &k->mask[KF_IP6_LABEL], 4, 0xfffff);
        format_hex_field(s, &first, "next", &k->val[KF_IP6_NEXT],
                         &k->mask[KF_IP6_NEXT], 1, 0xff);
        format_hex_field(s, &first, "tclass", &k->val[KF_IP6_TCLASS],
                         &k->mask[KF_IP6_TCLASS], 1, 0xff);
        break;
    case IBV_FLOW_SPEC_ESP:
        ds_put_cstr(s, "esp(");
        format_hex_field(s, &first, "spi", &k->val[KF_ESP_SPI],
                         &k->mask[KF_ESP_SPI], 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
        ds_put_cstr(s, (k->type & ~IBV_FLOW_SPEC_INNER) == IBV_FLOW_SPEC_TCP
                       ? "tcp(" : "udp(");
        format_dec_field(s, &first, "src", &k->val[KF_L4_SRC],
                         &k->mask[KF_L4_SRC]);
        format_dec_field(s, &first, "dst", &k->val[KF_L4_DST],
                         &k->mask[KF_L4_DST]);
        break;
    case IBV_FLOW_SPEC_GRE:
        ds_put_cstr(s, "gre(");
        format_hex_field(s, &first, "proto", &k->val[KF_GRE_PROTO],
                         &k->mask[KF_GRE_PROTO], 2, 0xffff);
        format_hex_field(s, &first, "key", &k->val[KF_GRE_KEY],
                         &k->mask[KF_GRE_KEY], 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_MPLS:
        ds_put_cstr(s, "mpls(");
        format_hex_field(s, &first, "lse", k->val, k->mask, 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        ds_put_cstr(s, "vxlan(");
        format_hex_field(s, &first, "vni", &k->val[KF_TUN_ID],
                         &k->mask[KF_TUN_ID], 4, 0xffffff);
        break;
    case IBV_FLOW_SPEC_ACTION_TAG:
        ds_put_format(s, "tag(%"PRIu32, k->tag_id);
        break;
    case IBV_FLOW_SPEC_ACTION_DROP:
        ds_put_cstr(s, "drop(");
        break;
    case IBV_FLOW_SPEC_ACTION_HANDLE:
        ds_put_cstr(s, "reformat(");
        break;
    case IBV_FLOW_SPEC_ACTION_COUNT:
        ds_put_cstr(s, "count(");
        break;
    default:
        ds_put_format(s, "spec_%#"PRIx32"(", k->type);
        break;
    }
    ds_put_char(s, ')');
}

static bool
kspec_is_action(const struct kspec *k)
{
    return k->type >= IBV_FLOW_SPEC_ACTION_TAG;
}

static const char *
attr_type_name(uint32_t type)
{
    switch (type) {
    case IBV_FLOW_ATTR_NORMAL:
        return "normal";
    case IBV_FLOW_ATTR_ALL_DEFAULT:
        return "all_default";
    case IBV_FLOW_ATTR_MC_DEFAULT:
        return "mc_default";
    case IBV_FLOW_ATTR_SNIFFER:
        return "sniffer";
    default:
        return "unknown";
    }
}

/* ---------------------------------------------------------------------- */
/* ibv_create_flow().                                                     */
/* ---------------------------------------------------------------------- */

/* An entry the new rule goes into: an existing one it merges with, or a
 * new one. */
struct rule_plan {
    struct model_table *table;
    struct fte_match value;
    struct fte_match mask;
    struct fte_action action;
    struct model_fte *existing;
};

static uint32_t
fte_value_hash(const struct fte_match *value)
{
    return hash_bytes(value, sizeof *value, 0);
}

static struct fte_mask_group *
table_find_mask(const struct model_table *t, const struct fte_match *mask)
{
    struct fte_mask_group *group;

    LIST_FOR_EACH (group, node, &t->masks) {
        if (!memcmp(&group->mask, mask, sizeof *mask)) {
            return group;
        }
    }
    return NULL;
}

/* The entry of 'group' whose value is 'value' (already masked), or NULL. */
static struct model_fte *
group_find_fte(const struct fte_mask_group *group,
               const struct fte_match *value, uint32_t hash)
{
    struct model_fte *fte;

    HMAP_FOR_EACH_WITH_HASH (fte, hmap_node, hash, &group->ftes) {
        if (!memcmp(&fte->value, value, sizeof *value)) {
            return fte;
        }
    }
    return NULL;
}

static struct model_fte *
table_find_fte(const struct model_table *t, const struct fte_match *value,
               const struct fte_match *mask)
{
    struct fte_mask_group *group = table_find_mask(t, mask);

    return group ? group_find_fte(group, value, fte_value_hash(value)) : NULL;
}

/* Adds 'fte', with its value and mask set, to the lookup structure of its
 * table. */
static void
table_index_fte(struct model_table *t, struct model_fte *fte)
{
    struct fte_mask_group *group = table_find_mask(t, &fte->mask);

    if (!group) {
        group = xmalloc(sizeof *group);
        group->mask = fte->mask;
        hmap_init(&group->ftes);
        ovs_list_push_back(&t->masks, &group->node);
    }
    fte->group = group;
    hmap_insert(&group->ftes, &fte->hmap_node, fte_value_hash(&fte->value));
}

static void
table_unindex_fte(struct model_fte *fte)
{
    struct fte_mask_group *group = fte->group;

    hmap_remove(&group->ftes, &fte->hmap_node);
    if (hmap_is_empty(&group->ftes)) {
        ovs_list_remove(&group->node);
        hmap_destroy(&group->ftes);
        free(group);
    }
}

/* mlx5 fs_core check_conflicting_ftes() for 'new' merging into 'old'. */
static int
check_conflicting_ftes(const struct fte_action *new,
                       const struct fte_action *old)
{
    bool new_count_only = new->count && !new->fwd && !new->drop
                          && !new->reformat;
    bool old_count_only = old->count && !old->fwd && !old->drop
                          && !old->reformat;

    if (new_count_only || old_count_only) {
        return 0;
    }
    if (new->drop != old->drop) {
        return reject(EEXIST, "an identical rule at this priority %s",
                      old->drop ? "drops" : "forwards");
    }
    if (!new->reformat != !old->reformat
        || (new->reformat && new->reformat != old->reformat)) {
        return reject(EEXIST, "an identical rule at this priority has "
                      "another action handle");
    }
    /* Only a rule that sets a tag can conflict on it: one without a tag
     * joins the entry and its packets carry the entry's tag. */
    if (new->has_tag && new->tag != (old->has_tag ? old->tag : 0)) {
        return reject(EEXIST, "an identical rule at this priority has flow "
                      "tag %"PRIu32, old->has_tag ? old->tag : 0);
    }
    return 0;
}

/* Checks that every plan fits (merge without conflict, or room for a new
 * entry). */
static int
check_plans(const struct hw_model_steering *st, struct rule_plan *plans,
            size_t n_plans)
{
    uint32_t max_rules = st->limits.max_rules ? st->limits.max_rules
                                              : DEFAULT_MAX_RULES;

    /* fs_core check_valid_spec(): value bits outside the mask. */
    for (size_t i = 0; i < n_plans; i++) {
        const uint8_t *v = (const uint8_t *) &plans[i].value;
        const uint8_t *m = (const uint8_t *) &plans[i].mask;

        for (size_t j = 0; j < sizeof plans[i].value; j++) {
            if (v[j] & ~m[j]) {
                return reject(EINVAL, "match value has bits outside the "
                              "mask");
            }
        }
    }

    for (size_t i = 0; i < n_plans; i++) {
        struct rule_plan *plan = &plans[i];
        size_t n_new = 0;

        plan->existing = table_find_fte(plan->table, &plan->value,
                                        &plan->mask);
        if (plan->existing) {
            int error = check_conflicting_ftes(&plan->action,
                                               &plan->existing->action);
            if (error) {
                return error;
            }
            continue;
        }
        /* Room for this and the other new entries in the same table. */
        for (size_t j = 0; j <= i; j++) {
            n_new += plans[j].table == plan->table && !plans[j].existing;
        }
        if (plan->table->n_ftes + n_new > max_rules) {
            return reject(ENOSPC, "%s %s table %d is full (%"PRIu32" "
                          "entries)", plan->table->direction,
                          plan->table->ns, plan->table->core_prio,
                          max_rules);
        }
    }
    return 0;
}

static void
fte_add_member(struct model_fte *fte, struct model_flow *flow)
{
    struct fte_member *m = &flow->members[flow->n_members++];

    m->fte = fte;
    m->flow = flow;
    ovs_list_push_back(&fte->members, &m->node);
}

static void
commit_plans(struct hw_model_steering *st, struct rule_plan *plans,
             size_t n_plans, struct model_flow *flow)
{
    for (size_t i = 0; i < n_plans; i++) {
        struct rule_plan *plan = &plans[i];
        struct model_fte *fte = plan->existing;

        if (fte) {
            /* fte->action.action |= flow_act->action; the entry keeps its
             * flow context (tag). */
            fte->action.fwd |= plan->action.fwd;
            fte->action.count |= plan->action.count;
            fte->action.fwd_next_prio |= plan->action.fwd_next_prio;
        } else {
            /* Plans for the same table may match each other's new entry. */
            fte = table_find_fte(plan->table, &plan->value, &plan->mask);
        }
        if (!fte) {
            fte = xzalloc(sizeof *fte);
            fte->table = plan->table;
            fte->id = st->next_fte_id++;
            fte->value = plan->value;
            fte->mask = plan->mask;
            fte->needs = mask_needs(&plan->mask);
            fte->action = plan->action;
            ovs_list_init(&fte->members);
            ovs_list_push_back(&plan->table->ftes, &fte->node);
            table_index_fte(plan->table, fte);
            plan->table->n_ftes++;
        }
        fte_add_member(fte, flow);
    }
}

/* Adds to 'plan' the match of one mlx5 leftovers rule: destination MAC
 * bit 0 (the group bit) equal to 'multicast'. */
static void
leftovers_plan(struct hw_model_steering *st, bool multicast,
               struct rule_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->table = &st->leftovers;
    plan->mask.outer.dmac[0] = 1;
    plan->value.outer.dmac[0] = multicast;
    plan->action.fwd = true;
}

/* hw_model_flow_create() with room for 'attr->num_of_specs' specs in
 * 'specs' and in 'ks'. */
static int
flow_create__(struct hw_model_steering *st, struct ibv_qp *qp,
              const struct ibv_flow_attr *attr, struct hw_model_spec *specs,
              struct kspec *ks, struct ibv_flow **flowp)
{
    const struct hw_model_limits *lim = &st->limits;
    struct model_counters *counters = NULL;
    struct hw_model_spec_iter iter;
    struct rule_plan plans[2];
    size_t n_specs, n_plans = 0;
    bool dont_trap, egress;
    struct model_flow *flow;
    int n_count = 0;
    int error;

    dont_trap = attr->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
    egress = attr->flags & IBV_FLOW_ATTR_FLAGS_EGRESS;

    /* attr->size and attr->comp_mask are not read: libibverbs 44 computes
     * the size itself and does not pass comp_mask to the kernel. */

    /* The specs, walked once: from here on each one is whole. */
    n_specs = 0;
    hw_model_spec_iter_init(&iter, hw_model_attr_specs(attr),
                            attr->num_of_specs);
    while (hw_model_spec_iter_next(&iter, &specs[n_specs])) {
        n_specs++;
    }
    if (iter.error) {
        return reject(iter.error, "%s", iter.reason);
    }

    /* 1. libmlx5: the counters object, before anything else. */
    for (size_t i = 0; i < n_specs; i++) {
        if (specs[i].type == IBV_FLOW_SPEC_ACTION_COUNT) {
            if (n_count++) {
                return reject(EINVAL, "more than one ACTION_COUNT spec");
            }
            counters = counters_find(hw_model_spec_object(&specs[i]));
            if (!counters) {
                return reject(EINVAL, "ACTION_COUNT names no counters "
                              "object");
            }
        }
    }
    if (counters && !counters->n_flows && !counters->n_points) {
        return reject(EINVAL, "counters object has no attached counter");
    }

    /* 2. libibverbs: every spec into the kernel's layout. */
    for (size_t i = 0; i < n_specs; i++) {
        error = spec_to_kspec(&specs[i], &ks[i]);
        if (error) {
            return error;
        }
    }

    /* 3a. uverbs core, ib_uverbs_ex_create_flow(). */
    if (!lim->cap_net_raw) {
        return reject(EPERM, "CAP_NET_RAW is needed");
    }
    if (attr->flags >= 1u << 3) {
        return reject(EINVAL, "unknown flags %#"PRIx32, attr->flags);
    }
    if (dont_trap && (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT
                      || attr->type == IBV_FLOW_ATTR_MC_DEFAULT)) {
        return reject(EINVAL, "DONT_TRAP on a %s rule",
                      attr_type_name(attr->type));
    }
    if (n_specs > lim->max_specs) {
        return reject(EINVAL, "%"PRIuSIZE" specs, at most %"PRIu16,
                      n_specs, lim->max_specs);
    }
    if (!attr->port || attr->port > lim->phys_port_cnt) {
        return reject(EINVAL, "port %"PRIu8" is not a port of the device",
                      attr->port);
    }
    if (!qp) {
        return reject(EINVAL, "no QP");
    }
    if (qp->qp_type != IBV_QPT_UD && qp->qp_type != IBV_QPT_RAW_PACKET) {
        return reject(EINVAL, "QP type %d is neither UD nor RAW_PACKET",
                      (int) qp->qp_type);
    }
    for (size_t i = 0; i < n_specs; i++) {
        const struct kspec *k = &ks[i];

        switch (k->type & ~IBV_FLOW_SPEC_INNER) {
        case IBV_FLOW_SPEC_IPV6:
            if (get_be32(&k->val[KF_IP6_LABEL]) >= 1u << 20
                || get_be32(&k->mask[KF_IP6_LABEL]) >= 1u << 20) {
                return reject(EINVAL, "ipv6 flow label exceeds 20 bits");
            }
            break;
        case IBV_FLOW_SPEC_VXLAN_TUNNEL:
            if (get_be32(&k->val[KF_TUN_ID]) >= 1u << 24
                || get_be32(&k->mask[KF_TUN_ID]) >= 1u << 24) {
                return reject(EINVAL, "vxlan vni exceeds 24 bits");
            }
            break;
        case IBV_FLOW_SPEC_ACTION_HANDLE:
            if (!k->action || k->action->context != qp->context) {
                return reject(EINVAL, "action handle is not an object of "
                              "this device");
            }
            break;
        case IBV_FLOW_SPEC_ACTION_COUNT:
            if (counters->ibv.context != qp->context) {
                return reject(EINVAL, "counters object belongs to another "
                              "device");
            }
            break;
        }
    }

    /* 3b. mlx5_ib_create_flow(). */
    if (attr->priority > lim->max_priority) {
        return reject(ENOMEM, "priority %"PRIu16" above %"PRIu16,
                      attr->priority, lim->max_priority);
    }
    if (attr->flags & ~(IBV_FLOW_ATTR_FLAGS_DONT_TRAP
                        | IBV_FLOW_ATTR_FLAGS_EGRESS)) {
        return reject(EINVAL, "flags %#"PRIx32" not supported",
                      attr->flags);
    }
    if (egress && (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT
                   || attr->type == IBV_FLOW_ATTR_MC_DEFAULT)) {
        return reject(EINVAL, "EGRESS on a %s rule",
                      attr_type_name(attr->type));
    }

    switch (attr->type) {
    case IBV_FLOW_ATTR_NORMAL: {
        struct rule_build b;
        uint32_t prev_type = 0;
        size_t core_prio;

        if (!ethertype_valid(ks, n_specs, false)
            || !ethertype_valid(ks, n_specs, true)) {
            return reject(EINVAL, "ethertype does not agree with the IP "
                          "spec");
        }
        memset(&b, 0, sizeof b);
        for (size_t i = 0; i < n_specs; i++) {
            error = parse_kspec(&ks[i], prev_type, &b);
            if (error) {
                return error;
            }
            prev_type = ks[i].type;
        }
        /* Model-conservative: the kernel lets a dropping rule carry a tag
         * or a reformat that can never apply; DPDK refuses it, so does the
         * model. */
        if (b.action.drop && (b.action.has_tag || b.action.reformat)) {
            return reject(EINVAL, "DROP together with %s",
                          b.action.has_tag ? "TAG" : "an action handle");
        }
        /* mlx5_ib_flow_counters_set_data(): the first flow hands the
         * kernel at most MAX_COUNTERS_NUM points. */
        if (counters && !counters->n_flows
            && counters->n_points > MAX_COUNTER_POINTS) {
            return reject(EINVAL, "%"PRIuSIZE" counter points, at most %d",
                          counters->n_points, MAX_COUNTER_POINTS);
        }
        b.action.fwd = !b.action.drop;
        b.action.fwd_next_prio = dont_trap && !b.action.drop;

        if (flow_is_multicast_only(ks, n_specs) && !dont_trap) {
            core_prio = st->n_prios - 1;
        } else {
            core_prio = 2 * (size_t) attr->priority + !dont_trap;
        }
        memset(&plans[0], 0, sizeof plans[0]);
        plans[0].table = (egress ? st->egress : st->ingress) + core_prio;
        plans[0].value = b.value;
        plans[0].mask = b.mask;
        plans[0].action = b.action;
        n_plans = 1;
        break;
    }

    case IBV_FLOW_ATTR_ALL_DEFAULT:
    case IBV_FLOW_ATTR_MC_DEFAULT:
        /* mlx5 installs its own "multicast" (and for ALL_DEFAULT also
         * "unicast") rule and ignores the caller's specs.  The kernel
         * refuses a flow tag on leftovers; the model keeps that rule for
         * any TAG spec. */
        for (size_t i = 0; i < n_specs; i++) {
            if (ks[i].type == IBV_FLOW_SPEC_ACTION_TAG) {
                return reject(EINVAL, "TAG on a %s rule",
                              attr_type_name(attr->type));
            }
        }
        leftovers_plan(st, true, &plans[n_plans++]);
        if (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT) {
            leftovers_plan(st, false, &plans[n_plans++]);
        }
        break;

    case IBV_FLOW_ATTR_SNIFFER:
        if (!lim->sniffer) {
            return reject(EOPNOTSUPP, "sniffer rules need "
                          "allow_sniffer_and_nic_rx_shared_tir");
        }
        /* A copy of everything the port receives and sends; specs are
         * ignored. */
        for (size_t i = 0; i < 2; i++) {
            memset(&plans[i], 0, sizeof plans[i]);
            plans[i].table = &st->sniffer[i];
            plans[i].action.fwd = true;
        }
        n_plans = 2;
        break;

    default:
        return reject(EOPNOTSUPP, "unknown rule type %d", (int) attr->type);
    }

    /* 3c. fs_core. */
    error = check_plans(st, plans, n_plans);
    if (error) {
        return error;
    }

    /* Everything is checked: nothing below fails. */
    flow = xzalloc(sizeof *flow);
    flow->ibv.context = qp->context;
    flow->ibv.handle = st->next_handle++;
    flow->qp = qp;
    flow->type = attr->type;
    flow->priority = attr->priority;
    flow->flags = attr->flags;
    if (counters) {
        flow->counters = counters;
        flow->counts = attr->type == IBV_FLOW_ATTR_NORMAL;
        counters_bind(counters);
    }

    flow->specs = xmemdup(hw_model_attr_specs(attr),
                          hw_model_spec_iter_len(&iter));
    flow->n_specs = n_specs;

    commit_plans(st, plans, n_plans, flow);
    hmap_insert(&st->flows, &flow->node, hash_pointer(&flow->ibv, 0));
    *flowp = &flow->ibv;
    return 0;
}

int
hw_model_flow_create(struct hw_model_steering *st, struct ibv_qp *qp,
                     const struct ibv_flow_attr *attr,
                     struct ibv_flow **flowp)
{
    struct hw_model_spec *specs;
    struct kspec *ks;
    int error;

    *flowp = NULL;
    if (!attr) {
        return EINVAL;
    }
    /* libibverbs converts every spec before the kernel counts them, so up
     * to 255 may be needed. */
    specs = xmalloc(MAX(attr->num_of_specs, 1) * sizeof *specs);
    ks = xmalloc(MAX(attr->num_of_specs, 1) * sizeof *ks);
    error = flow_create__(st, qp, attr, specs, ks, flowp);
    free(ks);
    free(specs);
    return error;
}

/* ---------------------------------------------------------------------- */
/* ibv_destroy_flow().                                                    */
/* ---------------------------------------------------------------------- */

static struct model_flow *
flow_find(const struct hw_model_steering *st, const struct ibv_flow *ibv)
{
    struct model_flow *flow;

    HMAP_FOR_EACH_WITH_HASH (flow, node, hash_pointer(ibv, 0), &st->flows) {
        if (&flow->ibv == ibv) {
            return flow;
        }
    }
    return NULL;
}

static void
flow_free(struct hw_model_steering *st, struct model_flow *flow)
{
    for (size_t i = 0; i < flow->n_members; i++) {
        struct fte_member *m = &flow->members[i];
        struct model_fte *fte = m->fte;

        ovs_list_remove(&m->node);
        if (ovs_list_is_empty(&fte->members)) {
            ovs_list_remove(&fte->node);
            table_unindex_fte(fte);
            fte->table->n_ftes--;
            free(fte);
        } else {
            /* Deleting a rule's counter destination clears COUNT unless
             * another member still counts. */
            struct fte_member *other;

            fte->action.count = false;
            LIST_FOR_EACH (other, node, &fte->members) {
                fte->action.count |= other->flow->counts;
            }
        }
    }
    if (flow->counters) {
        counters_unbind(flow->counters);
    }
    hmap_remove(&st->flows, &flow->node);
    free(flow->specs);
    free(flow);
}

int
hw_model_flow_destroy(struct hw_model_steering *st, struct ibv_flow *ibv)
{
    struct model_flow *flow = ibv ? flow_find(st, ibv) : NULL;

    if (!flow) {
        return EINVAL;
    }
    flow_free(st, flow);
    return 0;
}

void
hw_model_steering_destroy(struct hw_model_steering *st)
{
    struct model_flow *flow;

    if (!st) {
        return;
    }
    /* Flows the caller left behind are freed so that nothing leaks, but
     * that is the caller's bug. */
    if (!hmap_is_empty(&st->flows)) {
        VLOG_WARN("destroying steering with %"PRIuSIZE" flows left",
                  hmap_count(&st->flows));
    }
    HMAP_FOR_EACH_SAFE (flow, node, &st->flows) {
        flow_free(st, flow);
    }
    hmap_destroy(&st->flows);
    free(st->ingress);
    free(st->egress);
    free(st);
}

/* ---------------------------------------------------------------------- */
/* Lookup.                                                                */
/* ---------------------------------------------------------------------- */

static bool
fte_matches(const struct model_fte *fte, const struct fte_match *pkt,
            uint32_t present)
{
    const uint8_t *p = (const uint8_t *) pkt;
    const uint8_t *v = (const uint8_t *) &fte->value;
    const uint8_t *m = (const uint8_t *) &fte->mask;

    if (fte->needs & ~present) {
        return false;
    }
    for (size_t i = 0; i < sizeof *pkt; i++) {
        if ((p[i] & m[i]) != v[i]) {
            return false;
        }
    }
    return true;
}

/* The first entry of 't' that matches.  mlx5 gives no order between
 * overlapping entries of one priority (the man page calls it undefined);
 * the model picks the oldest (the lowest id: ids grow in creation order),
 * so that tests are deterministic.  Every entry of a mask group that
 * matches has the packet's masked bytes as its value, and values are
 * unique within a group, so one hash lookup per mask finds them all. */
static struct model_fte *
table_lookup(const struct model_table *t, const struct fte_match *pkt,
             uint32_t present)
{
    const uint8_t *p = (const uint8_t *) pkt;
    const struct fte_mask_group *group;
    struct model_fte *best = NULL;

    LIST_FOR_EACH (group, node, &t->masks) {
        const uint8_t *m = (const uint8_t *) &group->mask;
        struct fte_match masked;
        uint8_t *v = (uint8_t *) &masked;
        struct model_fte *fte;

        for (size_t i = 0; i < sizeof masked; i++) {
            v[i] = p[i] & m[i];
        }
        fte = group_find_fte(group, &masked, fte_value_hash(&masked));
        if (fte && (!best || fte->id < best->id)
            && fte_matches(fte, pkt, present)) {
            best = fte;
        }
    }
    return best;
}

static void
fte_hit(struct model_fte *fte, size_t len)
{
    struct fte_member *m;

    fte->packets++;
    fte->bytes += len;
    if (!fte->action.count) {
        return;
    }
    /* Each counters object among the members counts the packet once. */
    LIST_FOR_EACH (m, node, &fte->members) {
        struct model_counters *c = m->flow->counters;
        struct fte_member *prev;
        bool seen = false;

        if (!c || !m->flow->counts) {
            continue;
        }
        LIST_FOR_EACH (prev, node, &fte->members) {
            if (prev == m) {
                break;
            }
            if (prev->flow->counters == c && prev->flow->counts) {
                seen = true;
                break;
            }
        }
        if (!seen) {
            c->packets++;
            c->bytes += len;
        }
    }
}

static void
fill_verdict(const struct model_fte *fte, struct hw_model_verdict *v)
{
    const struct fte_member *first;

    first = CONTAINER_OF(ovs_list_front(&fte->members),
                         struct fte_member, node);
    v->matched = true;
    v->drop = fte->action.drop;
    v->tag = fte->action.has_tag ? fte->action.tag : 0;
    /* With several QPs on one entry, the hardware replicates the packet;
     * the verdict names the first (oldest) destination. */
    v->qp = fte->action.drop ? NULL : first->flow->qp;
    v->reformat = CONST_CAST(struct ibv_flow_action *, fte->action.reformat);
}

/* Looks 'parsed' up in the rules of the first 'n_prios' core priorities,
 * then, if 'all', in the sniffer and leftover rules too. */
static void
steering_lookup(struct hw_model_steering *st,
                const struct hw_model_parsed *parsed, size_t len,
                bool egress, size_t n_prios, bool all,
                struct hw_model_verdict *verdict)
{
    struct model_table *tables = egress ? st->egress : st->ingress;
    struct model_fte *dont_trap = NULL;
    uint32_t present;
    struct fte_match pkt;
    struct model_fte *fte;

    memset(verdict, 0, sizeof *verdict);
    packet_to_match(parsed, &pkt, &present);

    /* A sniffer gets a copy and changes nothing else. */
    if (all) {
        fte = table_lookup(&st->sniffer[egress], &pkt, present);
        if (fte) {
            fte_hit(fte, len);
        }
    }

    for (size_t i = 0; i < n_prios; i++) {
        fte = table_lookup(&tables[i], &pkt, present);
        if (!fte) {
            continue;
        }
        fte_hit(fte, len);
        if (fte->action.fwd_next_prio) {
            /* DONT_TRAP: its QP gets the packet and so does whatever
             * matches next; the verdict reports the trapping rule. */
            if (!dont_trap) {
                dont_trap = fte;
            }
            continue;
        }
        fill_verdict(fte, verdict);
        return;
    }

    if (!egress && all) {
        fte = table_lookup(&st->leftovers, &pkt, present);
        if (fte) {
            fte_hit(fte, len);
            fill_verdict(fte, verdict);
            return;
        }
    }
    if (dont_trap) {
        fill_verdict(dont_trap, verdict);
    }
}

void
hw_model_steering_lookup(struct hw_model_steering *st,
                         const struct hw_model_parsed *parsed, size_t len,
                         bool egress, struct hw_model_verdict *verdict)
{
    steering_lookup(st, parsed, len, egress, st->n_prios, true, verdict);
}

void
hw_model_steering_lookup_upto(struct hw_model_steering *st,
                              const struct hw_model_parsed *parsed,
                              size_t len, bool egress, uint16_t max_priority,
                              struct hw_model_verdict *verdict)
{
    /* Priority p holds core priorities 2p and 2p + 1; the last one is for
     * multicast-only rules, below every priority. */
    size_t n_prios = MIN(2 * (size_t) max_priority + 2, st->n_prios - 1);

    steering_lookup(st, parsed, len, egress, n_prios, false, verdict);
}

void
hw_model_steering_lookup_default(struct hw_model_steering *st,
                                 const struct hw_model_parsed *parsed,
                                 size_t len, bool egress,
                                 struct hw_model_verdict *verdict)
{
    steering_lookup(st, parsed, len, egress, 0, true, verdict);
}

/* ---------------------------------------------------------------------- */
/* Formatting.                                                            */
/* ---------------------------------------------------------------------- */

/* Appends the specs and actions of 'flow', e.g. " eth(type=0x0800)
 * actions=tag(5)".  The specs were valid when the rule was created, so
 * they parse again. */
static void
format_flow_specs(const struct model_flow *flow, struct ds *s)
{
    bool any_match = false, any_action = false;
    struct hw_model_spec_iter iter;
    struct hw_model_spec spec;
    struct kspec *ks;
    size_t n = 0;

    ks = xmalloc(MAX(flow->n_specs, 1) * sizeof *ks);
    HW_MODEL_SPEC_FOR_EACH (&spec, &iter, flow->specs, flow->n_specs) {
        ovs_assert(!spec_to_kspec(&spec, &ks[n++]));
    }
    ovs_assert(!iter.error && n == flow->n_specs);
    for (size_t i = 0; i < flow->n_specs; i++) {
        if (!kspec_is_action(&ks[i])) {
            ds_put_char(s, ' ');
            format_kspec(&ks[i], s);
            any_match = true;
        }
    }
    if (!any_match) {
        ds_put_cstr(s, " any");
    }
    ds_put_cstr(s, " actions=");
    for (size_t i = 0; i < flow->n_specs; i++) {
        if (kspec_is_action(&ks[i])) {
            if (any_action) {
                ds_put_char(s, ',');
            }
            format_kspec(&ks[i], s);
            any_action = true;
        }
    }
    if (!any_action) {
        ds_put_cstr(s, "fwd");
    }
    free(ks);
}

static void
format_table(const struct model_table *t, size_t n_prios, struct ds *s)
{
    const struct model_fte *fte;

    LIST_FOR_EACH (fte, node, &t->ftes) {
        const struct fte_member *m;

        LIST_FOR_EACH (m, node, &fte->members) {
            const struct model_flow *flow = m->flow;

            ds_put_format(s, "%s %s prio=%"PRIu16" core=", t->direction,
                          attr_type_name(flow->type), flow->priority);
            if (!strcmp(t->ns, "bypass")) {
                if (t->core_prio == (int) n_prios - 1) {
                    ds_put_cstr(s, "mcast");
                } else {
                    ds_put_format(s, "%d", t->core_prio);
                }
            } else {
                ds_put_cstr(s, t->ns);
            }
            if (flow->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP) {
                ds_put_cstr(s, " dont_trap");
            }
            ds_put_char(s, ':');
            format_flow_specs(flow, s);
            ds_put_format(s, " qp=%"PRIu32" entry=%u hits=%"PRIu64
                          " bytes=%"PRIu64"\n", flow->qp->qp_num,
                          fte->id, fte->packets, fte->bytes);
        }
    }
}

void
hw_model_steering_format(const struct hw_model_steering *st, struct ds *s)
{
    for (size_t i = 0; i < st->n_prios; i++) {
        format_table(&st->ingress[i], st->n_prios, s);
    }
    format_table(&st->leftovers, st->n_prios, s);
    for (size_t i = 0; i < st->n_prios; i++) {
        format_table(&st->egress[i], st->n_prios, s);
    }
    format_table(&st->sniffer[0], st->n_prios, s);
    format_table(&st->sniffer[1], st->n_prios, s);
}
