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
#include "hw-model-dr.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "hash.h"
#include "hw-model.h"
#include "hw-model-dr-private.h"
#include "hw-model-reformat.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "unaligned.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_dr_path);

COVERAGE_DEFINE(hw_model_dr_hit);
COVERAGE_DEFINE(hw_model_dr_miss);

/* A packet's way through the pipeline.
 *
 * The device builds the packet's fte_match_param bytes from its headers and
 * metadata (dr_build_match()), then looks them up table by table: matchers
 * in priority order, the first rule whose value equals the packet's bytes
 * under the matcher's mask.  It runs that rule's actions (decap, pop VLAN,
 * modify header, push VLAN, encap, tag, counter) and its terminal action;
 * a jump to a table builds the match bytes again from the changed packet.
 *
 * The root (level 0) of a domain is the firmware's root table: the verbs
 * rules (hw-model-flow.c) and the matchers of every level-0 dr table of
 * the domain share it by priority.  The model's choice where priorities
 * tie: verbs rules first, then dr matchers in the order they were created
 * (the device leaves the order of equal priorities undefined).  A
 * DEFAULT_MISS at the root (the kernel's FWD_NEXT_NS) sends the packet past
 * every root rule to the NIC's default path: the verbs leftover rules
 * (ALL_DEFAULT, RSS) on NIC RX, the wire on NIC TX; so does, by the model's
 * choice, a root rule without a terminal action.
 *
 * Below the root, a miss and DEFAULT_MISS take the domain's default
 * (rdma-core's default_icm_addr): NIC RX drops, NIC TX sends to the wire,
 * the FDB hands the packet to its manager (the PF: NIC RX).
 *
 * Frames from the wire cross the FDB (source port: the uplink), then NIC
 * RX; frames the host sends cross NIC TX.  In switchdev mode (VFs), frames
 * a VF sends cross the FDB with the VF's vport as source, and on a miss
 * the manager's NIC RX, where the verbs rules of the VF's representor
 * take them; a packet entering the FDB carries its source vport's metadata
 * in reg_c0 (hw_model_vport_reg_c0()), into NIC RX too.  A DEST_VPORT to a
 * VF hands the packet to the VF; to vport 0, to the manager's NIC RX and
 * the uplink port's verbs rules.
 *
 * Model assumptions, where the sources are silent:
 *   - A field of a header the packet lacks reads as 0, except that a
 *     matcher that masks a tunnel key or an inner field never matches a
 *     packet without a tunnel.
 *   - A modify-header command on a header the packet lacks (a TCP port of
 *     a UDP packet, the VLAN ID of an untagged one), a pop of an untagged
 *     packet and a decap of a packet without that tunnel are skipped.
 *   - FIRST_VID writes the 12 bits of the VLAN ID.
 *   - After a modify-header action the device updates the IPv4 header
 *     checksum and the TCP or UDP checksum (not a zero UDP checksum)
 *     incrementally, for every 16-bit word that changed (addresses,
 *     ports, TTL...), as RFC 1624 does.
 *   - A counter counts the bytes of the packet as the rule matched it. */

/* One copy of a packet on its way. */
struct dr_pkt {
    struct dp_packet *packet;
    struct hw_model_parsed parsed;      /* Of 'packet' as it is now. */
    uint32_t reg_c[DR_N_REG_C];
    uint32_t reg_a;
    uint32_t reg_b;
    uint16_t source_port;
    uint32_t tag;
};

struct dr_walk {
    struct hw_model_dr *dr;
    struct hw_model_steering *steering;     /* The source port's verbs
                                             * rules. */
    struct hw_model_steering *manager;      /* The uplink port's. */
    struct hw_model_stats *stats;
    struct hw_model_dr_result *result;
    int depth;
};

/* Jumps only go deeper, so this bounds only arrays of jumps. */
#define DR_MAX_DEPTH 256

static void
dr_reparse(struct dr_walk *w, struct dr_pkt *pkt)
{
    hw_model_steering_parse(w->steering, pkt->packet, &pkt->parsed);
}

/* Hands 'pkt''s packet to the caller with 'fate'. */
static void
dr_output__(struct dr_walk *w, struct dr_pkt *pkt,
            enum hw_model_dr_fate fate, uint16_t vport,
            const struct hw_model_verdict *verdict)
{
    struct hw_model_dr_result *r = w->result;
    struct hw_model_dr_output *out;

    if (r->n >= HW_MODEL_DR_MAX_OUTPUTS) {
        /* More copies than the model follows: the last ones are lost. */
        dp_packet_delete(pkt->packet);
        pkt->packet = NULL;
        return;
    }
    out = &r->out[r->n++];
    out->packet = pkt->packet;
    out->fate = fate;
    out->vport = vport;
    if (verdict) {
        out->verdict = *verdict;
    } else {
        memset(&out->verdict, 0, sizeof out->verdict);
    }
    pkt->packet = NULL;
}

static void
dr_output(struct dr_walk *w, struct dr_pkt *pkt, enum hw_model_dr_fate fate,
          const struct hw_model_verdict *verdict)
{
    dr_output__(w, pkt, fate, 0, verdict);
}

/* Drops 'pkt' as a DROP action does. */
static void
dr_output_drop(struct dr_walk *w, struct dr_pkt *pkt)
{
    struct hw_model_verdict verdict = { .matched = true, .drop = true };

    dr_output(w, pkt, HW_MODEL_DR_DELIVER, &verdict);
}

/* The match bytes of a packet. */

static void
dr_put16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x;
}

static void
dr_put32(uint8_t *p, uint32_t x)
{
    p[0] = x >> 24;
    p[1] = x >> 16;
    p[2] = x >> 8;
    p[3] = x;
}

static bool
dr_is_vlan_tpid(uint16_t tpid)
{
    return tpid == ETH_TYPE_VLAN_8021Q || tpid == ETH_TYPE_VLAN_8021AD;
}

/* Fills the L2 fields of 'l24' from the Ethernet header at 'ofs' of the
 * 'len'-byte frame 'data', and the second VLAN tag into 'second' and its
 * type into '*tags' ('cvlan_bit' or 'svlan_bit'). */
static void
dr_fill_l2(const uint8_t *data, size_t len, size_t ofs, uint8_t *l24,
           uint8_t *second, uint8_t *tags, uint8_t cvlan_bit,
           uint8_t svlan_bit)
{
    uint16_t type;

    if (ofs > len || len - ofs < ETH_HEADER_LEN) {
        return;
    }
    memcpy(l24 + DR_L24_DMAC, data + ofs, ETH_ADDR_LEN);
    memcpy(l24 + DR_L24_SMAC, data + ofs + ETH_ADDR_LEN, ETH_ADDR_LEN);
    type = dr_match_get16(data + ofs + 12);
    ofs += ETH_HEADER_LEN;
    for (int i = 0; dr_is_vlan_tpid(type); i++) {
        uint16_t tci;

        if (len - ofs < VLAN_HEADER_LEN) {
            return;
        }
        tci = dr_match_get16(data + ofs);
        if (!i) {
            /* first_prio, first_cfi, first_vid: the TCI's own layout. */
            l24[DR_L24_FLAGS] |= type == ETH_TYPE_VLAN_8021Q ? 0x80 : 0x40;
            dr_put16(l24 + DR_L24_FIRST_VLAN, tci);
        } else if (i == 1) {
            dr_put16(second, tci);
            *tags |= type == ETH_TYPE_VLAN_8021Q ? cvlan_bit : svlan_bit;
        }
        type = dr_match_get16(data + ofs + 2);
        ofs += VLAN_HEADER_LEN;
    }
    dr_put16(l24 + DR_L24_ETHERTYPE, type);
}

/* Fills the L3 and L4 fields of 'l24' from the layer 'l', the IPv6 flow
 * label into 'label', the TCP sequence and acknowledgement numbers into
 * 'seq' and 'ack', and, if 'misc3' is nonnull, the ICMP fields. */
static void
dr_fill_l34(const uint8_t *data, size_t len, const struct hw_model_layer *l,
            uint8_t *l24, uint8_t *label, uint8_t *seq, uint8_t *ack,
            uint8_t *misc3)
{
    size_t icmp_ofs;
    uint8_t proto;

    if (!l->ip_version) {
        return;
    }
    l24[DR_L24_IP_PROTOCOL] = l->ip_proto;
    l24[DR_L24_DSCP_ECN] = l->tos;
    l24[DR_L24_FLAGS] |= (l->is_fragment ? 0x20 : 0) | (l->ip_version << 1);
    l24[DR_L24_TTL] = l->ttl;
    if (l->ip_version == 4) {
        memcpy(l24 + DR_L24_SRC_IP + 12, &l->ipv4_src, 4);
        memcpy(l24 + DR_L24_DST_IP + 12, &l->ipv4_dst, 4);
        icmp_ofs = l->l3_ofs + (data[l->l3_ofs] & 0x0f) * 4;
        proto = IPPROTO_ICMP;
    } else {
        memcpy(l24 + DR_L24_SRC_IP, &l->ipv6_src, 16);
        memcpy(l24 + DR_L24_DST_IP, &l->ipv6_dst, 16);
        dr_put32(label, ntohl(l->ipv6_label) & 0xfffff);
        icmp_ofs = l->l3_ofs + 40;
        proto = IPPROTO_ICMPV6;
    }

    if (l->has_l4 && l->ip_proto == IPPROTO_TCP) {
        const uint8_t *tcp = data + l->l4_ofs;
        uint16_t flags = ((tcp[12] & 1) << 8) | tcp[13];

        memcpy(l24 + DR_L24_TCP_SPORT, tcp, 4);
        l24[DR_L24_FLAGS] |= flags >> 8;
        l24[DR_L24_FLAGS + 1] = flags;
        memcpy(seq, tcp + 4, 4);
        memcpy(ack, tcp + 8, 4);
    } else if (l->has_l4 && l->ip_proto == IPPROTO_UDP) {
        memcpy(l24 + DR_L24_UDP_SPORT, data + l->l4_ofs, 4);
    } else if (misc3 && l->ip_proto == proto && !l->is_later_fragment
               && icmp_ofs <= len && len - icmp_ofs >= 8) {
        const uint8_t *icmp = data + icmp_ofs;
        int i = l->ip_version == 4 ? 0 : 1;

        misc3[DR_MISC3_ICMP_TYPE + 2 * i] = icmp[0];
        misc3[DR_MISC3_ICMP_TYPE + 2 * i + 1] = icmp[1];
        memcpy(misc3 + DR_MISC3_ICMP_DATA + 4 * i, icmp + 4, 4);
    }
}

/* The integrity bits of the layer 'l' (outer): whether its IP header and
 * length are sane, its IPv4 header checksum right, its TCP or UDP header
 * whole and its checksum right.  The model's choice: a UDP checksum of 0
 * (none) is right. */
static uint8_t
dr_ok_bits(const uint8_t *data, size_t len, const struct hw_model_layer *l)
{
    const uint8_t *ip = data + l->l3_ofs;
    size_t l3_len, l4_len, hlen;
    uint8_t bits = 0;
    uint32_t sum;

    if (!l->ip_version || l->l3_ofs > len) {
        return 0;
    }
    if (l->ip_version == 4) {
        hlen = (ip[0] & 0x0f) * 4;
        if (len - l->l3_ofs < IP_HEADER_LEN || hlen < IP_HEADER_LEN
            || hlen > len - l->l3_ofs) {
            return 0;
        }
        l3_len = dr_match_get16(ip + 2);
        if (l3_len < hlen || l3_len > len - l->l3_ofs) {
            return 0;
        }
        bits |= 0x08;
        if (!csum(ip, hlen)) {
            bits |= 0x02;
        }
    } else {
        hlen = IPV6_HEADER_LEN;
        if (len - l->l3_ofs < hlen) {
            return 0;
        }
        l3_len = hlen + dr_match_get16(ip + 4);
        if (l3_len > len - l->l3_ofs) {
            return 0;
        }
        bits |= 0x08;
    }

    if (!l->has_l4 || l->is_fragment
        || (l->ip_proto != IPPROTO_UDP && l->ip_proto != IPPROTO_TCP)) {
        return bits;
    }
    l4_len = l3_len - (l->l4_ofs - l->l3_ofs);
    if (l->ip_proto == IPPROTO_UDP) {
        const uint8_t *udp = data + l->l4_ofs;

        if (dr_match_get16(udp + 4) != l4_len) {
            return bits;
        }
        bits |= 0x04;
        if (!dr_match_get16(udp + 6)) {
            return bits | 0x01;
        }
    } else {
        bits |= 0x04;
    }
    sum = (l->ip_version == 4
           ? packet_csum_pseudoheader(ALIGNED_CAST(const struct ip_header *,
                                                   ip))
           : packet_csum_pseudoheader6(
                 ALIGNED_CAST(const struct ovs_16aligned_ip6_hdr *, ip)));
    sum = csum_continue(sum, data + l->l4_ofs, l4_len);
    if (!csum_finish(sum)) {
        bits |= 0x01;
    }
    return bits;
}

/* Fills the Geneve fields of 'misc' and 'misc3' from 'p', the option data
 * from the first option that is the one 'opt' sets, if any. */
static void
dr_fill_geneve(const uint8_t *data, const struct hw_model_parsed *p,
               const struct dr_geneve_opt *opt, uint8_t *misc,
               uint8_t *misc3)
{
    uint32_t vni = ntohl(p->vxlan_vni) & 0xffffff;
    size_t ofs = p->tunnel_ofs + 8;
    size_t end = p->tunnel_ofs + p->tunnel_len;

    misc[DR_MISC_GENEVE_VNI] = vni >> 16;
    misc[DR_MISC_GENEVE_VNI + 1] = vni >> 8;
    misc[DR_MISC_GENEVE_VNI + 2] = vni;
    misc[DR_MISC_GENEVE_FLAGS] = p->geneve_flags & 0x80 ? 0x01 : 0;
    misc[DR_MISC_GENEVE_OPT_LEN] = p->geneve_opt_len;
    memcpy(misc + DR_MISC_GENEVE_PROTOCOL, &p->geneve_protocol, 2);

    while (opt && end - ofs >= 4) {
        const uint8_t *o = data + ofs;
        size_t o_len = (o[3] & 0x1f) * 4;

        if (end - ofs - 4 < o_len) {
            break;
        }
        if (!memcmp(o, &opt->opt_class, 2) && o[2] == opt->type
            && o_len == opt->len * 4u) {
            misc[DR_MISC_GENEVE_FLAGS] |= 0x02;
            memcpy(misc3 + DR_MISC3_GENEVE_OPT_DATA, o + 4, 4);
            break;
        }
        ofs += 4 + o_len;
    }
}

/* Builds the fte_match_param bytes of 'pkt' into 'm'; 'geneve' is the
 * option the device's parser samples, if any. */
static void
dr_build_match(const struct dr_pkt *pkt, const struct dr_geneve_opt *geneve,
               uint8_t m[DR_MATCH_SIZE])
{
    const struct hw_model_parsed *p = &pkt->parsed;
    const uint8_t *data = dp_packet_data(pkt->packet);
    size_t len = dp_packet_size(pkt->packet);
    uint8_t *misc = m + DR_MISC, *misc2 = m + DR_MISC2;
    uint8_t *misc3 = m + DR_MISC3;
    struct hw_model_layer outer;
    static const uint8_t mpls_ofs[HW_MODEL_N_MPLS_POS] = {
        [HW_MODEL_MPLS_OUTER] = 0,
        [HW_MODEL_MPLS_INNER] = 4,
        [HW_MODEL_MPLS_OVER_GRE] = 8,
        [HW_MODEL_MPLS_OVER_UDP] = 12,
    };

    memset(m, 0, DR_MATCH_SIZE);
    dr_fill_l2(data, len, 0, m + DR_OUTER, misc + DR_MISC_OUTER_SECOND_VLAN,
               misc + DR_MISC_SECOND_TAGS, 0x80, 0x20);
    hw_model_parsed_outer(p, &outer);
    dr_fill_l34(data, len, &outer, m + DR_OUTER,
                misc + DR_MISC_OUTER_FLOW_LABEL,
                misc3 + DR_MISC3_OUTER_TCP_SEQ,
                misc3 + DR_MISC3_OUTER_TCP_ACK, misc3);
    m[DR_OUTER + DR_L24_OK_BITS] = dr_ok_bits(data, len, &outer);

    dr_put16(misc + DR_MISC_SOURCE_PORT, pkt->source_port);
    for (int i = 0; i < HW_MODEL_N_MPLS_POS; i++) {
        if (p->mpls & (1u << i)) {
            memcpy(misc2 + mpls_ofs[i], &p->mpls_lse[i], 4);
        }
    }
    for (int i = 0; i < DR_N_REG_C; i++) {
        dr_put32(misc2 + DR_MISC2_REG_C_7 + 4 * (DR_N_REG_C - 1 - i),
                 pkt->reg_c[i]);
    }
    dr_put32(misc2 + DR_MISC2_REG_A, pkt->reg_a);

    if (p->tunnel == HW_MODEL_TUNNEL_VXLAN) {
        uint32_t vni = ntohl(p->vxlan_vni) & 0xffffff;

        misc[DR_MISC_VXLAN_VNI] = vni >> 16;
        misc[DR_MISC_VXLAN_VNI + 1] = vni >> 8;
        misc[DR_MISC_VXLAN_VNI + 2] = vni;
    } else if (p->tunnel == HW_MODEL_TUNNEL_GRE) {
        uint16_t flags = ntohs(p->gre_flags);

        misc[DR_MISC_GRE_FLAGS] = ((flags & 0x8000 ? 0x80 : 0)
                                   | (flags & 0x2000 ? 0x20 : 0)
                                   | (flags & 0x1000 ? 0x10 : 0));
        memcpy(misc + DR_MISC_GRE_PROTOCOL, &p->gre_protocol, 2);
        memcpy(misc + DR_MISC_GRE_KEY, &p->gre_key, 4);
    } else if (p->tunnel == HW_MODEL_TUNNEL_GENEVE) {
        dr_fill_geneve(data, p, geneve, misc, misc3);
    }
    if (p->tunnel != HW_MODEL_TUNNEL_NONE
        && p->inner_type != HW_MODEL_INNER_NONE) {
        uint8_t *inner = m + DR_INNER;

        if (p->inner.has_eth) {
            dr_fill_l2(data, len, p->inner_ofs, inner,
                       misc + DR_MISC_INNER_SECOND_VLAN,
                       misc + DR_MISC_SECOND_TAGS, 0x40, 0x10);
        } else {
            memcpy(inner + DR_L24_ETHERTYPE, &p->inner.eth_type, 2);
        }
        dr_fill_l34(data, len, &p->inner, inner,
                    misc + DR_MISC_INNER_FLOW_LABEL,
                    misc3 + DR_MISC3_INNER_TCP_SEQ,
                    misc3 + DR_MISC3_INNER_TCP_ACK, NULL);
    }
}

/* Lookup. */

/* Returns the first rule of the first matcher of 'matchers' that takes the
 * packet whose match bytes are 'pkt', or NULL. */
static struct dr_rule *
dr_lookup(const struct ovs_list *matchers, const uint8_t *pkt, bool tunnel)
{
    const struct dr_matcher *m;

    LIST_FOR_EACH (m, node, matchers) {
        uint8_t masked[DR_MATCH_SIZE];
        struct dr_rule *rule, *best = NULL;
        uint32_t hash;

        if (hmap_is_empty(&m->rules) || (m->needs_tunnel && !tunnel)) {
            continue;
        }
        for (size_t i = m->lo; i < m->hi; i++) {
            masked[i] = pkt[i] & m->mask[i];
        }
        hash = hash_bytes(masked + m->lo, m->hi - m->lo, 0);
        HMAP_FOR_EACH_WITH_HASH (rule, node, hash, &m->rules) {
            if (!memcmp(rule->value + m->lo, masked + m->lo, m->hi - m->lo)
                && (!best || rule->seq < best->seq)) {
                /* Identical rules: the oldest (the model's choice). */
                best = rule;
            }
        }
        if (best) {
            return best;
        }
    }
    return NULL;
}

static struct dr_rule *
dr_lookup_pkt(const struct hw_model_dr *dr, const struct ovs_list *matchers,
              const struct dr_pkt *pkt)
{
    uint8_t match[DR_MATCH_SIZE];

    if (ovs_list_is_empty(matchers)) {
        return NULL;
    }
    dr_build_match(pkt, dr->geneve_opt, match);
    return dr_lookup(matchers, match,
                     pkt->parsed.tunnel != HW_MODEL_TUNNEL_NONE);
}

/* Modify header. */

/* Where field 'id' of the packet is: 'ofs' and the field's position in the
 * 16 or 32-bit big-endian word there ('shift', 'bits'); or a register. */
struct dr_field_loc {
    uint32_t *reg;              /* A metadata register, or NULL. */
    size_t ofs;
    int size;                   /* 1, 2 or 4 bytes. */
    int shift;
    int bits;
};

/* Finds field 'id' (known to dr_field_lookup()) in 'pkt'.  Returns false
 * if the packet lacks its header. */
static bool
dr_field_locate(struct dr_pkt *pkt, uint16_t id, struct dr_field_loc *loc)
{
    const struct hw_model_parsed *p = &pkt->parsed;
    const uint8_t *data = dp_packet_data(pkt->packet);
    size_t len = dp_packet_size(pkt->packet);
    bool tcp = p->has_l4 && p->ip_proto == IPPROTO_TCP;
    bool udp = p->has_l4 && p->ip_proto == IPPROTO_UDP;

    memset(loc, 0, sizeof *loc);
    loc->size = 4;
    loc->bits = 32;
    switch (id) {
    case 0x01: case 0x04:       /* SMAC_47_16, DMAC_47_16. */
        loc->ofs = id == 0x04 ? 0 : 6;
        return len >= ETH_HEADER_LEN;
    case 0x02: case 0x05:       /* SMAC_15_0, DMAC_15_0. */
        loc->ofs = id == 0x05 ? 4 : 10;
        loc->size = 2;
        loc->bits = 16;
        return len >= ETH_HEADER_LEN;
    case 0x03: {                /* ETHERTYPE, after the VLAN tags. */
        size_t ofs = 12;

        while (ofs + 2 <= len && dr_is_vlan_tpid(dr_match_get16(data + ofs))
               && ofs + 6 <= len) {
            ofs += VLAN_HEADER_LEN;
        }
        loc->ofs = ofs;
        loc->size = 2;
        loc->bits = 16;
        return ofs + 2 <= len;
    }
    case 0x17:                  /* FIRST_VID. */
        loc->ofs = 14;
        loc->size = 2;
        loc->bits = 12;
        return (len >= ETH_HEADER_LEN + VLAN_HEADER_LEN
                && dr_is_vlan_tpid(dr_match_get16(data + 12)));
    case 0x06: case 0x73:       /* IP_DSCP, IP_ECN. */
        loc->shift = id == 0x06 ? 2 : 0;
        loc->bits = id == 0x06 ? 6 : 2;
        if (p->ip_version == 4) {
            loc->ofs = p->l3_ofs + 1;
            loc->size = 1;
        } else {
            loc->ofs = p->l3_ofs;
            loc->size = 2;
            loc->shift += 4;
        }
        return p->ip_version != 0;
    case 0x0a:                  /* IPV4_TTL. */
        loc->ofs = p->l3_ofs + 8;
        loc->size = 1;
        loc->bits = 8;
        return p->ip_version == 4;
    case 0x47:                  /* IPV6_HOPLIMIT. */
        loc->ofs = p->l3_ofs + 7;
        loc->size = 1;
        loc->bits = 8;
        return p->ip_version == 6;
    case 0x15: case 0x16:       /* SIPV4, DIPV4. */
        loc->ofs = p->l3_ofs + (id == 0x15 ? 12 : 16);
        return p->ip_version == 4;
    case 0x0d: case 0x0e: case 0x0f: case 0x10:     /* SIPV6. */
        loc->ofs = p->l3_ofs + 8 + 4 * (id - 0x0d);
        return p->ip_version == 6;
    case 0x11: case 0x12: case 0x13: case 0x14:     /* DIPV6. */
        loc->ofs = p->l3_ofs + 24 + 4 * (id - 0x11);
        return p->ip_version == 6;
    case 0x08: case 0x09: case 0x0b: case 0x0c:     /* L4 ports. */
        loc->ofs = p->l4_ofs + (id == 0x09 || id == 0x0c ? 2 : 0);
        loc->size = 2;
        loc->bits = 16;
        return id <= 0x09 ? tcp : udp;
    case 0x07:                  /* TCP_FLAGS. */
        loc->ofs = p->l4_ofs + 12;
        loc->size = 2;
        loc->bits = 9;
        return tcp;
    case 0x59: case 0x5b:       /* TCP_SEQ_NUM, TCP_ACK_NUM. */
        loc->ofs = p->l4_ofs + (id == 0x59 ? 4 : 8);
        return tcp;
    case 0x49:
        loc->reg = &pkt->reg_a;
        return true;
    case 0x50:
        loc->reg = &pkt->reg_b;
        return true;
    default:
        if (id >= 0x51 && id <= 0x56) {
            loc->reg = &pkt->reg_c[id - 0x51];
            return true;
        }
        return false;
    }
}

static uint32_t
dr_loc_mask(const struct dr_field_loc *loc)
{
    return loc->bits == 32 ? UINT32_MAX : (1u << loc->bits) - 1;
}

static uint32_t
dr_field_read(struct dr_pkt *pkt, const struct dr_field_loc *loc)
{
    const uint8_t *p = (const uint8_t *) dp_packet_data(pkt->packet)
                       + loc->ofs;
    uint32_t word;

    if (loc->reg) {
        return *loc->reg;
    }
    word = (loc->size == 1 ? p[0]
            : loc->size == 2 ? dr_match_get16(p) : dr_match_get32(p));
    return (word >> loc->shift) & dr_loc_mask(loc);
}

static void
dr_field_write(struct dr_pkt *pkt, const struct dr_field_loc *loc,
               uint32_t value)
{
    uint8_t *p = (uint8_t *) dp_packet_data(pkt->packet) + loc->ofs;
    uint32_t mask = dr_loc_mask(loc) << loc->shift;
    uint32_t word;

    if (loc->reg) {
        *loc->reg = value;
        return;
    }
    word = (loc->size == 1 ? p[0]
            : loc->size == 2 ? dr_match_get16(p) : dr_match_get32(p));
    word = (word & ~mask) | ((value << loc->shift) & mask);
    if (loc->size == 1) {
        p[0] = word;
    } else if (loc->size == 2) {
        dr_put16(p, word);
    } else {
        dr_put32(p, word);
    }
}

/* Bits [offset, offset + length) of 'x', moved down to bit 0. */
static uint32_t
dr_bits(uint32_t x, unsigned int offset, unsigned int length)
{
    return (x >> offset) & (length == 32 ? UINT32_MAX : (1u << length) - 1);
}

/* Runs one command; returns false if it was skipped. */
static bool
dr_modify_one(struct dr_pkt *pkt, uint64_t cmd)
{
    uint32_t word = cmd >> 32, data = cmd;
    unsigned int op = word >> 28;
    uint16_t field = (word >> 16) & 0xfff;
    unsigned int offset = (word >> 8) & 0x1f;
    unsigned int length = (word & 0x1f) ? (word & 0x1f) : 32;
    struct dr_field_loc loc, src;
    uint32_t value, mask;

    if (op == DR_MODIFY_COPY) {
        /* The source is 'field' at 'offset', the destination in 'data'. */
        uint16_t dst_field = (data >> 16) & 0xfff;
        unsigned int dst_offset = (data >> 8) & 0x1f;

        if (!dr_field_locate(pkt, field, &src)
            || !dr_field_locate(pkt, dst_field, &loc)) {
            return false;
        }
        mask = length == 32 ? UINT32_MAX : (1u << length) - 1;
        value = dr_field_read(pkt, &loc);
        value &= ~(mask << dst_offset);
        value |= dr_bits(dr_field_read(pkt, &src), offset, length)
                 << dst_offset;
        dr_field_write(pkt, &loc, value);
        return true;
    }

    if (!dr_field_locate(pkt, field, &loc)) {
        return false;
    }
    value = dr_field_read(pkt, &loc);
    if (op == DR_MODIFY_ADD) {
        /* ADD works on the whole field, modulo its width. */
        value += data;
    } else {
        mask = length == 32 ? UINT32_MAX : (1u << length) - 1;
        value &= ~(mask << offset);
        value |= (data & mask) << offset;
    }
    dr_field_write(pkt, &loc, value);
    return true;
}

/* Updates the checksum at 'csum' for every 16-bit word of the 'n' bytes at
 * 'new' that differs from 'old' (both aligned like the checksummed data),
 * skipping the checksum itself. */
static void
dr_csum_update(uint8_t *csum, const uint8_t *old, const uint8_t *new,
               size_t n)
{
    ovs_be16 sum;

    memcpy(&sum, csum, 2);

    for (size_t i = 0; i + 1 < n; i += 2) {
        if (new + i == csum) {
            continue;
        }
        if (old[i] != new[i] || old[i + 1] != new[i + 1]) {
            ovs_be16 o, w;

            memcpy(&o, old + i, 2);
            memcpy(&w, new + i, 2);
            sum = recalc_csum16(sum, o, w);
        }
    }
    memcpy(csum, &sum, 2);
}

static void
dr_apply_modify(struct dr_walk *w, struct dr_pkt *pkt,
                const struct dr_action *a)
{
    const struct hw_model_parsed *p = &pkt->parsed;
    uint8_t *data = dp_packet_data(pkt->packet);
    size_t len = dp_packet_size(pkt->packet);
    uint8_t old_l3[60], old_l4[20];
    size_t l3_len = 0, l4_len = 0;

    /* The headers as they were, for the checksums. */
    if (p->ip_version == 4) {
        l3_len = MIN((data[p->l3_ofs] & 0x0f) * 4, len - p->l3_ofs);
    } else if (p->ip_version == 6) {
        l3_len = 40;
    }
    memcpy(old_l3, data + p->l3_ofs, l3_len);
    if (p->has_l4) {
        l4_len = p->ip_proto == IPPROTO_TCP ? 20 : 8;
        memcpy(old_l4, data + p->l4_ofs, l4_len);
    }

    for (size_t i = 0; i < a->modify.n; i++) {
        uint64_t cmd = ntohll(get_unaligned_be64(&a->modify.commands[i]));

        if (!dr_modify_one(pkt, cmd)) {
            w->stats->dr_modify_skipped++;
        }
    }

    if (p->ip_version == 4) {
        dr_csum_update(data + p->l3_ofs + 10, old_l3, data + p->l3_ofs,
                       l3_len);
    }
    if (p->has_l4) {
        uint8_t *l4 = data + p->l4_ofs;
        uint8_t *csum = l4 + (p->ip_proto == IPPROTO_TCP ? 16 : 6);
        size_t addr_ofs = p->ip_version == 4 ? 12 : 8;
        size_t addr_len = p->ip_version == 4 ? 8 : 32;

        /* A zero UDP checksum means none. */
        if (p->ip_proto == IPPROTO_TCP || csum[0] || csum[1]) {
            dr_csum_update(csum, old_l3 + addr_ofs,
                           data + p->l3_ofs + addr_ofs, addr_len);
            dr_csum_update(csum, old_l4, l4, l4_len);
            if (p->ip_proto == IPPROTO_UDP && !csum[0] && !csum[1]) {
                csum[0] = csum[1] = 0xff;
            }
        }
    }
    dr_reparse(w, pkt);
}

/* VLAN tags and reformat. */

static void
dr_pop_vlan(struct dr_walk *w, struct dr_pkt *pkt)
{
    uint8_t *data = dp_packet_data(pkt->packet);

    if (dp_packet_size(pkt->packet) < ETH_HEADER_LEN + VLAN_HEADER_LEN
        || !dr_is_vlan_tpid(dr_match_get16(data + 12))) {
        w->stats->dr_modify_skipped++;
        return;
    }
    memmove(data + VLAN_HEADER_LEN, data, 2 * ETH_ADDR_LEN);
    dp_packet_pull(pkt->packet, VLAN_HEADER_LEN);
    dp_packet_reset_offsets(pkt->packet);
    dr_reparse(w, pkt);
}

static void
dr_push_vlan(struct dr_walk *w, struct dr_pkt *pkt, uint32_t vlan_hdr)
{
    uint8_t *data;

    if (dp_packet_size(pkt->packet) < 2 * ETH_ADDR_LEN) {
        w->stats->dr_modify_skipped++;
        return;
    }
    data = dp_packet_push_uninit(pkt->packet, VLAN_HEADER_LEN);
    memmove(data, data + VLAN_HEADER_LEN, 2 * ETH_ADDR_LEN);
    dr_put32(data + 2 * ETH_ADDR_LEN, vlan_hdr);
    dp_packet_reset_offsets(pkt->packet);
    dr_reparse(w, pkt);
}

/* Returns false if the packet cannot take the reformat. */
static bool
dr_reformat(struct dr_walk *w, struct dr_pkt *pkt, const struct dr_action *a)
{
    int error;

    if (hw_model_reformat_is_decap(a->reformat.type)) {
        /* libmlx5 ignores data given to an L2 decap. */
        bool l2 = (a->reformat.type
                   == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2);

        error = hw_model_reformat_decap(pkt->packet, &pkt->parsed,
                                        a->reformat.type,
                                        l2 ? NULL : a->reformat.data,
                                        l2 ? 0 : a->reformat.size);
        if (error) {
            w->stats->rx_decap_skipped++;
            return true;
        }
        w->stats->rx_decap++;
    } else {
        error = hw_model_reformat_encap(pkt->packet, a->reformat.type,
                                        a->reformat.data, a->reformat.size);
        if (error) {
            return false;
        }
        w->stats->tx_encap++;
    }
    dr_reparse(w, pkt);
    return true;
}

/* Fates. */

static void dr_nic_rx(struct dr_walk *, struct dr_pkt *);
static void dr_run_table(struct dr_walk *, const struct dr_table *,
                         struct dr_pkt *);

/* The domain default of 'type' below the root. */
static void
dr_default(struct dr_walk *w, enum mlx5dv_dr_domain_type type,
           struct dr_pkt *pkt)
{
    COVERAGE_INC(hw_model_dr_miss);
    switch (type) {
    case MLX5DV_DR_DOMAIN_TYPE_NIC_RX:
        w->stats->dr_drop_miss++;
        dr_output(w, pkt, HW_MODEL_DR_DELIVER, NULL);
        break;
    case MLX5DV_DR_DOMAIN_TYPE_NIC_TX:
        dr_output(w, pkt, HW_MODEL_DR_WIRE, NULL);
        break;
    case MLX5DV_DR_DOMAIN_TYPE_FDB:
    default:
        /* The e-switch manager: the PF's NIC RX. */
        dr_nic_rx(w, pkt);
        break;
    }
}

/* A root rule of 'type' forwards the packet to the next namespace
 * (DEFAULT_MISS is the kernel's FWD_NEXT_NS): past every rule of the root,
 * verbs and dr alike, to the NIC's default path, the verbs leftover rules
 * (NIC RX) or the wire (NIC TX); the FDB's default is its manager. */
static void
dr_root_next(struct dr_walk *w, enum mlx5dv_dr_domain_type type,
             struct dr_pkt *pkt)
{
    struct hw_model_verdict verdict;

    if (type == MLX5DV_DR_DOMAIN_TYPE_FDB) {
        dr_default(w, type, pkt);
        return;
    }
    hw_model_steering_lookup_default(w->steering, &pkt->parsed,
                                     dp_packet_size(pkt->packet),
                                     type == MLX5DV_DR_DOMAIN_TYPE_NIC_TX,
                                     &verdict);
    dr_output(w, pkt, HW_MODEL_DR_DELIVER, &verdict);
}

/* A DEST_VPORT to 'vport' (directly or in a DEST_ARRAY).
 *
 * The FDB takes a packet from the wire on its receive side, where a jump
 * to the uplink vport is not allowed: rdma-core 50 (dr_action.c, "Can't go
 * to uplink vport on RX rule") writes the drop address there instead, 44
 * writes the uplink's receive address, an STE the commit calls illegal;
 * the kernel only sends a packet back out of the uplink it came in by
 * through a termination table (hairpin, with cap
 * termination_table_raw_traffic), which software steering does not make.
 * The model drops it. */
static void
dr_to_vport(struct dr_walk *w, struct dr_pkt *pkt, uint16_t vport)
{
    if (vport == HW_MODEL_DR_WIRE_VPORT
        && pkt->source_port == HW_MODEL_DR_WIRE_VPORT) {
        w->stats->dr_uplink_drop++;
        dr_output_drop(w, pkt);
    } else if (vport == HW_MODEL_DR_WIRE_VPORT) {
        w->stats->dr_hairpin++;
        dr_output(w, pkt, HW_MODEL_DR_WIRE, NULL);
    } else if (vport) {
        dr_output__(w, pkt, HW_MODEL_DR_VPORT, vport, NULL);
    } else {
        /* The PF: its NIC RX, where the uplink port's rules are. */
        struct hw_model_steering *source = w->steering;

        w->steering = w->manager;
        dr_nic_rx(w, pkt);
        w->steering = source;
    }
}

/* The terminal 'a' of a rule in a table of 'type', at the root if 'root'. */
static void
dr_terminal(struct dr_walk *w, enum mlx5dv_dr_domain_type type, bool root,
            const struct dr_action *a, struct dr_pkt *pkt)
{
    struct hw_model_verdict verdict;

    switch (a->type) {
    case HW_DR_ACTION_DROP:
        dr_output_drop(w, pkt);
        break;
    case HW_DR_ACTION_DEST_QP:
        memset(&verdict, 0, sizeof verdict);
        verdict.matched = true;
        verdict.tag = pkt->tag;
        verdict.qp = a->qp;
        dr_output(w, pkt, HW_MODEL_DR_DELIVER, &verdict);
        break;
    case HW_DR_ACTION_DEST_TABLE:
        dr_run_table(w, a->table, pkt);
        break;
    case HW_DR_ACTION_FLOW_METER: {
        /* dr_meter_color() changes the meter's bucket: the action is the
         * device's, as every object the walk touches. */
        struct dr_action *meter = CONST_CAST(struct dr_action *, a);
        uint32_t *reg = &pkt->reg_c[a->meter.reg_c_index];

        *reg = ((*reg & ~0xffu)
                | dr_meter_color(meter, dp_packet_size(pkt->packet)));
        dr_run_table(w, a->meter.next_table, pkt);
        break;
    }
    case HW_DR_ACTION_DEST_VPORT:
        dr_to_vport(w, pkt, a->vport);
        break;
    case HW_DR_ACTION_DEFAULT_MISS:
        if (root) {
            dr_root_next(w, type, pkt);
        } else {
            dr_default(w, type, pkt);
        }
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        for (size_t i = 0; i < a->array.n; i++) {
            const struct dr_dest *d = &a->array.dests[i];
            struct dr_pkt copy = *pkt;

            copy.packet = dp_packet_clone(pkt->packet);
            if (d->reformat && !dr_reformat(w, &copy, d->reformat)) {
                dr_output_drop(w, &copy);
            } else if (d->dest->type == HW_DR_ACTION_COUNTER) {
                d->dest->counter->packets++;
                d->dest->counter->bytes += dp_packet_size(copy.packet);
                dp_packet_delete(copy.packet);
            } else {
                dr_terminal(w, type, root, d->dest, &copy);
            }
        }
        dp_packet_delete(pkt->packet);
        pkt->packet = NULL;
        break;
    case HW_DR_ACTION_TAG:
    case HW_DR_ACTION_COUNTER:
    case HW_DR_ACTION_REFORMAT:
    case HW_DR_ACTION_MODIFY_HEADER:
    case HW_DR_ACTION_PUSH_VLAN:
    case HW_DR_ACTION_POP_VLAN:
    case HW_DR_N_ACTIONS:
    default:
        OVS_NOT_REACHED();
    }
}

/* Runs the actions of 'rule', which matched 'pkt'. */
static void
dr_run_rule(struct dr_walk *w, struct dr_rule *rule, struct dr_pkt *pkt)
{
    const struct dr_table *table = rule->matcher->table;
    enum mlx5dv_dr_domain_type type = table->domain->type;
    size_t size = dp_packet_size(pkt->packet);
    bool root = !table->level;

    COVERAGE_INC(hw_model_dr_hit);
    rule->n_hits++;
    w->stats->dr_rule_hits++;
    if (++w->depth > DR_MAX_DEPTH) {
        dr_output_drop(w, pkt);
        return;
    }
    for (size_t i = 0; i < rule->n_actions; i++) {
        const struct dr_action *a = rule->actions[i];

        switch (a->type) {
        case HW_DR_ACTION_COUNTER:
            a->counter->packets++;
            a->counter->bytes += size;
            break;
        case HW_DR_ACTION_TAG:
            pkt->tag = a->tag;
            break;
        case HW_DR_ACTION_REFORMAT:
            if (!dr_reformat(w, pkt, a)) {
                dr_output_drop(w, pkt);
                return;
            }
            break;
        case HW_DR_ACTION_MODIFY_HEADER:
            dr_apply_modify(w, pkt, a);
            break;
        case HW_DR_ACTION_PUSH_VLAN:
            dr_push_vlan(w, pkt, a->vlan_hdr);
            break;
        case HW_DR_ACTION_POP_VLAN:
            dr_pop_vlan(w, pkt);
            break;
        case HW_DR_ACTION_DROP:
        case HW_DR_ACTION_DEFAULT_MISS:
        case HW_DR_ACTION_DEST_QP:
        case HW_DR_ACTION_DEST_TABLE:
        case HW_DR_ACTION_DEST_VPORT:
        case HW_DR_ACTION_DEST_ARRAY:
        case HW_DR_ACTION_FLOW_METER:
            dr_terminal(w, type, root, a, pkt);
            return;
        case HW_DR_N_ACTIONS:
        default:
            OVS_NOT_REACHED();
        }
    }
    /* No terminal action: as DEFAULT_MISS. */
    if (root) {
        dr_root_next(w, type, pkt);
    } else {
        dr_default(w, type, pkt);
    }
}

static void
dr_run_table(struct dr_walk *w, const struct dr_table *table,
             struct dr_pkt *pkt)
{
    struct dr_rule *rule = dr_lookup_pkt(w->dr, &table->matchers, pkt);

    if (rule) {
        dr_run_rule(w, rule, pkt);
    } else {
        dr_default(w, table->domain->type, pkt);
    }
}

/* The root of NIC RX or NIC TX, shared with the verbs rules. */
static void
dr_nic_root(struct dr_walk *w, enum mlx5dv_dr_domain_type type,
            struct dr_pkt *pkt)
{
    struct dr_rule *rule = dr_lookup_pkt(w->dr, &w->dr->roots[type], pkt);
    bool egress = type == MLX5DV_DR_DOMAIN_TYPE_NIC_TX;
    struct hw_model_verdict verdict;

    if (!rule) {
        /* The verbs rules alone. */
        hw_model_steering_lookup(w->steering, &pkt->parsed,
                                 dp_packet_size(pkt->packet), egress,
                                 &verdict);
        dr_output(w, pkt, HW_MODEL_DR_DELIVER, &verdict);
        return;
    }
    /* Verbs rules of the same or a higher priority come first. */
    hw_model_steering_lookup_upto(w->steering, &pkt->parsed,
                                  dp_packet_size(pkt->packet), egress,
                                  rule->matcher->priority, &verdict);
    if (verdict.matched) {
        dr_output(w, pkt, HW_MODEL_DR_DELIVER, &verdict);
    } else {
        dr_run_rule(w, rule, pkt);
    }
}

static void
dr_nic_rx(struct dr_walk *w, struct dr_pkt *pkt)
{
    dr_nic_root(w, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, pkt);
}

static void
dr_walk_init(struct dr_walk *w, struct hw_model_dr *dr,
             struct hw_model_steering *steering,
             struct hw_model_stats *stats, struct hw_model_dr_result *result,
             struct dr_pkt *pkt, struct dp_packet *packet,
             uint16_t source_port)
{
    w->dr = dr;
    w->steering = steering;
    w->manager = steering;
    w->stats = stats;
    w->result = result;
    w->depth = 0;
    result->n = 0;

    memset(pkt, 0, sizeof *pkt);
    pkt->packet = packet;
    pkt->source_port = source_port;
    dr_reparse(w, pkt);
}

bool
hw_model_dr_active(const struct hw_model_dr *dr, bool receive)
{
    return (receive
            ? (dr->n_rules[MLX5DV_DR_DOMAIN_TYPE_NIC_RX]
               || dr->n_rules[MLX5DV_DR_DOMAIN_TYPE_FDB])
            : dr->n_rules[MLX5DV_DR_DOMAIN_TYPE_NIC_TX] != 0);
}

/* 'pkt' enters the FDB from its source vport. */
static void
dr_fdb_enter(struct dr_walk *w, struct dr_pkt *pkt)
{
    const struct ovs_list *fdb = &w->dr->roots[MLX5DV_DR_DOMAIN_TYPE_FDB];
    struct dr_rule *rule;

    if (w->dr->n_vfs) {
        pkt->reg_c[0] = hw_model_vport_reg_c0(pkt->source_port);
    }
    rule = dr_lookup_pkt(w->dr, fdb, pkt);
    if (rule) {
        dr_run_rule(w, rule, pkt);
    } else {
        dr_nic_rx(w, pkt);
    }
}

void
hw_model_dr_from_vport(struct hw_model_dr *dr,
                       struct hw_model_steering *rep,
                       struct hw_model_steering *manager, uint16_t vport,
                       struct dp_packet *packet, struct hw_model_stats *stats,
                       struct hw_model_dr_result *result)
{
    struct dr_walk w;
    struct dr_pkt pkt;

    dr_walk_init(&w, dr, rep, stats, result, &pkt, packet, vport);
    w.manager = manager;
    dr_fdb_enter(&w, &pkt);
}

void
hw_model_dr_receive(struct hw_model_dr *dr,
                    struct hw_model_steering *steering,
                    struct dp_packet *packet, struct hw_model_stats *stats,
                    struct hw_model_dr_result *result)
{
    struct dr_walk w;
    struct dr_pkt pkt;

    dr_walk_init(&w, dr, steering, stats, result, &pkt, packet,
                 HW_MODEL_DR_WIRE_VPORT);
    dr_fdb_enter(&w, &pkt);
}

void
hw_model_dr_send(struct hw_model_dr *dr, struct hw_model_steering *steering,
                 struct dp_packet *packet, struct hw_model_stats *stats,
                 struct hw_model_dr_result *result)
{
    struct dr_walk w;
    struct dr_pkt pkt;

    /* Vport 0: the PF sends. */
    dr_walk_init(&w, dr, steering, stats, result, &pkt, packet, 0);
    dr_nic_root(&w, MLX5DV_DR_DOMAIN_TYPE_NIC_TX, &pkt);
}
