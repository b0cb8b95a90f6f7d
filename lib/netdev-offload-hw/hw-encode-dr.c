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
#include "hw-encode-dr.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "hw-rule.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"
#include "unaligned.h"
#include "util.h"

/* The bytes are handed to libmlx5 as a struct mlx5dv_flow_match_parameters
 * (hw-apis.md 3.3). */
BUILD_ASSERT_DECL(offsetof(struct hw_dr_match, match_sz)
                  == offsetof(struct mlx5dv_flow_match_parameters, match_sz));
BUILD_ASSERT_DECL(offsetof(struct hw_dr_match, buf)
                  == offsetof(struct mlx5dv_flow_match_parameters,
                              match_buf));

#define SECTION_SIZE 64
#define N_SECTIONS (HW_DR_MATCH_MAX_SIZE / SECTION_SIZE)

struct mlx5dv_flow_match_parameters *
hw_dr_match_params(struct hw_dr_match *match)
{
    return ALIGNED_CAST(struct mlx5dv_flow_match_parameters *, match);
}

/* Fields of fte_match_param.  PRM fields are big-endian bit fields; 'bit'
 * counts from the most significant bit of the section's first byte, as the
 * PRM's "reserved_at_<bit>" names do.  A field of up to 32 bits lies
 * within one 32-bit word; longer ones (addresses) start on a byte. */
enum dr_fmt {
    FMT_DEC,
    FMT_HEX,
    FMT_MAC,                    /* 48 bits. */
    FMT_IP,                     /* 128 bits: IPv6, or IPv4 in the last 32. */
    FMT_IP_VERSION,             /* Decimal; a mask of 4 or 6 is an exact L3
                                 * type below the root. */
};

struct dr_field {
    const char *name;
    uint16_t bit;
    uint16_t n_bits;
    enum dr_fmt fmt;
};

/* fte_match_set_lyr_2_4: the outer and the inner sections. */
enum {
    L24_SMAC, L24_ETHERTYPE, L24_DMAC, L24_VLAN, L24_IP_PROTOCOL,
    L24_IP_DSCP, L24_IP_ECN, L24_CVLAN_TAG, L24_SVLAN_TAG, L24_FRAG,
    L24_IP_VERSION, L24_TCP_FLAGS, L24_TCP_SPORT, L24_TCP_DPORT,
    L24_CSUM_OK, L24_TTL, L24_UDP_SPORT, L24_UDP_DPORT, L24_SRC_IP,
    L24_DST_IP,
};
static const struct dr_field l24_fields[] = {
    [L24_SMAC] = { "smac", 0x00, 48, FMT_MAC },
    [L24_ETHERTYPE] = { "ethertype", 0x30, 16, FMT_HEX },
    [L24_DMAC] = { "dmac", 0x40, 48, FMT_MAC },
    [L24_VLAN] = { "first_vlan", 0x70, 16, FMT_HEX },  /* prio, cfi, vid. */
    [L24_IP_PROTOCOL] = { "ip_protocol", 0x80, 8, FMT_DEC },
    [L24_IP_DSCP] = { "ip_dscp", 0x88, 6, FMT_DEC },
    [L24_IP_ECN] = { "ip_ecn", 0x8e, 2, FMT_DEC },
    [L24_CVLAN_TAG] = { "cvlan_tag", 0x90, 1, FMT_DEC },
    [L24_SVLAN_TAG] = { "svlan_tag", 0x91, 1, FMT_DEC },
    [L24_FRAG] = { "frag", 0x92, 1, FMT_DEC },
    [L24_IP_VERSION] = { "ip_version", 0x93, 4, FMT_IP_VERSION },
    [L24_TCP_FLAGS] = { "tcp_flags", 0x97, 9, FMT_HEX },
    [L24_TCP_SPORT] = { "tcp_sport", 0xa0, 16, FMT_DEC },
    [L24_TCP_DPORT] = { "tcp_dport", 0xb0, 16, FMT_DEC },
    /* l3_ok, l4_ok, ipv4_checksum_ok, l4_checksum_ok: HW_CSUM_OK_*. */
    [L24_CSUM_OK] = { "ok_bits", 0xd4, 4, FMT_HEX },
    [L24_TTL] = { "ttl_hoplimit", 0xd8, 8, FMT_DEC },
    [L24_UDP_SPORT] = { "udp_sport", 0xe0, 16, FMT_DEC },
    [L24_UDP_DPORT] = { "udp_dport", 0xf0, 16, FMT_DEC },
    [L24_SRC_IP] = { "src", 0x100, 128, FMT_IP },
    [L24_DST_IP] = { "dst", 0x180, 128, FMT_IP },
};

/* fte_match_set_misc. */
enum {
    MISC_GRE_C, MISC_GRE_K, MISC_GRE_S, MISC_SOURCE_PORT,
    MISC_OUTER_VLAN2, MISC_INNER_VLAN2, MISC_OUTER_CVLAN2,
    MISC_INNER_CVLAN2, MISC_OUTER_SVLAN2, MISC_INNER_SVLAN2,
    MISC_GRE_PROTOCOL, MISC_GRE_KEY, MISC_VXLAN_VNI, MISC_GENEVE_VNI,
    MISC_GENEVE_OPT_EXIST, MISC_GENEVE_OAM, MISC_OUTER_LABEL,
    MISC_INNER_LABEL, MISC_GENEVE_OPT_LEN, MISC_GENEVE_PROTOCOL,
};
static const struct dr_field misc_fields[] = {
    [MISC_GRE_C] = { "gre_c_present", 0x00, 1, FMT_DEC },
    [MISC_GRE_K] = { "gre_k_present", 0x02, 1, FMT_DEC },
    [MISC_GRE_S] = { "gre_s_present", 0x03, 1, FMT_DEC },
    [MISC_SOURCE_PORT] = { "source_port", 0x30, 16, FMT_DEC },
    [MISC_OUTER_VLAN2] = { "outer_second_vlan", 0x40, 16, FMT_HEX },
    [MISC_INNER_VLAN2] = { "inner_second_vlan", 0x50, 16, FMT_HEX },
    [MISC_OUTER_CVLAN2] = { "outer_second_cvlan_tag", 0x60, 1, FMT_DEC },
    [MISC_INNER_CVLAN2] = { "inner_second_cvlan_tag", 0x61, 1, FMT_DEC },
    [MISC_OUTER_SVLAN2] = { "outer_second_svlan_tag", 0x62, 1, FMT_DEC },
    [MISC_INNER_SVLAN2] = { "inner_second_svlan_tag", 0x63, 1, FMT_DEC },
    [MISC_GRE_PROTOCOL] = { "gre_protocol", 0x70, 16, FMT_HEX },
    [MISC_GRE_KEY] = { "gre_key", 0x80, 32, FMT_HEX },
    [MISC_VXLAN_VNI] = { "vxlan_vni", 0xa0, 24, FMT_DEC },
    [MISC_GENEVE_VNI] = { "geneve_vni", 0xc0, 24, FMT_DEC },
    [MISC_GENEVE_OPT_EXIST] = { "geneve_tlv_option_0_exist", 0xde, 1,
                                FMT_DEC },
    [MISC_GENEVE_OAM] = { "geneve_oam", 0xdf, 1, FMT_DEC },
    [MISC_OUTER_LABEL] = { "outer_ipv6_flow_label", 0xec, 20, FMT_HEX },
    [MISC_INNER_LABEL] = { "inner_ipv6_flow_label", 0x10c, 20, FMT_HEX },
    [MISC_GENEVE_OPT_LEN] = { "geneve_opt_len", 0x12a, 6, FMT_DEC },
    [MISC_GENEVE_PROTOCOL] = { "geneve_protocol_type", 0x130, 16, FMT_HEX },
};

/* fte_match_set_misc2: reg_c_7 first, at 0x80. */
#define MISC2_REG_C(I) (7 - (I))
static const struct dr_field misc2_fields[] = {
    { "reg_c7", 0x80, 32, FMT_HEX }, { "reg_c6", 0xa0, 32, FMT_HEX },
    { "reg_c5", 0xc0, 32, FMT_HEX }, { "reg_c4", 0xe0, 32, FMT_HEX },
    { "reg_c3", 0x100, 32, FMT_HEX }, { "reg_c2", 0x120, 32, FMT_HEX },
    { "reg_c1", 0x140, 32, FMT_HEX }, { "reg_c0", 0x160, 32, FMT_HEX },
    { "reg_a", 0x180, 32, FMT_HEX }, { "reg_b", 0x1a0, 32, FMT_HEX },
};

/* fte_match_set_misc3. */
enum {
    MISC3_INNER_SEQ, MISC3_OUTER_SEQ, MISC3_INNER_ACK, MISC3_OUTER_ACK,
    MISC3_ICMP_DATA, MISC3_ICMPV6_DATA,
    MISC3_ICMP_TYPE, MISC3_ICMP_CODE, MISC3_ICMPV6_TYPE, MISC3_ICMPV6_CODE,
    MISC3_GENEVE_OPT_DATA,
};
static const struct dr_field misc3_fields[] = {
    [MISC3_INNER_SEQ] = { "inner_tcp_seq_num", 0x00, 32, FMT_HEX },
    [MISC3_OUTER_SEQ] = { "outer_tcp_seq_num", 0x20, 32, FMT_HEX },
    [MISC3_INNER_ACK] = { "inner_tcp_ack_num", 0x40, 32, FMT_HEX },
    [MISC3_OUTER_ACK] = { "outer_tcp_ack_num", 0x60, 32, FMT_HEX },
    [MISC3_ICMP_DATA] = { "icmp_header_data", 0xc0, 32, FMT_HEX },
    [MISC3_ICMPV6_DATA] = { "icmpv6_header_data", 0xe0, 32, FMT_HEX },
    [MISC3_ICMP_TYPE] = { "icmp_type", 0x100, 8, FMT_DEC },
    [MISC3_ICMP_CODE] = { "icmp_code", 0x108, 8, FMT_DEC },
    [MISC3_ICMPV6_TYPE] = { "icmpv6_type", 0x110, 8, FMT_DEC },
    [MISC3_ICMPV6_CODE] = { "icmpv6_code", 0x118, 8, FMT_DEC },
    [MISC3_GENEVE_OPT_DATA] = { "geneve_tlv_option_0_data", 0x120, 32,
                                FMT_HEX },
};

static const struct {
    const char *name;
    const struct dr_field *fields;
    size_t n_fields;
} sections[N_SECTIONS] = {
    [HW_DR_MATCH_OUTER] = { "outer", l24_fields, ARRAY_SIZE(l24_fields) },
    [HW_DR_MATCH_MISC] = { "misc", misc_fields, ARRAY_SIZE(misc_fields) },
    [HW_DR_MATCH_INNER] = { "inner", l24_fields, ARRAY_SIZE(l24_fields) },
    [HW_DR_MATCH_MISC2] = { "misc2", misc2_fields,
                            ARRAY_SIZE(misc2_fields) },
    [HW_DR_MATCH_MISC3] = { "misc3", misc3_fields,
                            ARRAY_SIZE(misc3_fields) },
    [5] = { "misc4", NULL, 0 },
    [6] = { "misc5", NULL, 0 },
};

static uint32_t
bits_mask(unsigned int n_bits)
{
    return n_bits >= 32 ? UINT32_MAX : (UINT32_C(1) << n_bits) - 1;
}

/* Reads the field of 'n_bits' (at most 32) at 'bit' of 'sec'. */
static uint32_t
get_bits(const uint8_t *sec, unsigned int bit, unsigned int n_bits)
{
    uint32_t word = ntohl(get_unaligned_be32(
                              ALIGNED_CAST(const ovs_be32 *,
                                           sec + bit / 32 * 4)));

    return (word >> (32 - bit % 32 - n_bits)) & bits_mask(n_bits);
}

static void
put_bits(uint8_t *sec, unsigned int bit, unsigned int n_bits, uint32_t x)
{
    ovs_be32 *p = ALIGNED_CAST(ovs_be32 *, sec + bit / 32 * 4);
    unsigned int shift = 32 - bit % 32 - n_bits;
    uint32_t field = bits_mask(n_bits) << shift;
    uint32_t word = ntohl(get_unaligned_be32(p));

    word = (word & ~field) | ((x << shift) & field);
    put_unaligned_be32(p, htonl(word));
}

/* Whether 'n' bytes at 'p' are all zero. */
static bool
is_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

/* Encoding. */

struct dr_enc {
    struct hw_dr_match *mask;
    struct hw_dr_match *value;
    bool root;                  /* For a matcher of a level 0 table. */
    uint8_t written;            /* 1 << section, for each section a field
                                 * with mask bits went into. */
};

/* Clears section 'sec' of the mask and the value before its first field:
 * a rule uses one to three of the seven, and clearing all 896 bytes was a
 * tenth of a put's instructions. */
static void
enc_section(struct dr_enc *e, enum hw_dr_match_section sec)
{
    if (!(e->written & (1u << sec))) {
        e->written |= 1u << sec;
        memset(e->mask->buf + sec * SECTION_SIZE, 0, SECTION_SIZE);
        memset(e->value->buf + sec * SECTION_SIZE, 0, SECTION_SIZE);
    }
}

static void
enc_u32__(struct dr_enc *e, enum hw_dr_match_section sec,
          const struct dr_field *f, uint32_t value, uint32_t mask)
{
    enc_section(e, sec);
    put_bits(e->mask->buf + sec * SECTION_SIZE, f->bit, f->n_bits, mask);
    put_bits(e->value->buf + sec * SECTION_SIZE, f->bit, f->n_bits,
             value & mask);
}

/* Sets field 'f' of section 'sec' to 'value' under 'mask' (host order,
 * right-aligned).  Nothing is written for a zero mask, the usual case:
 * that test is inline, the writing is not. */
static inline void
enc_u32(struct dr_enc *e, enum hw_dr_match_section sec,
        const struct dr_field *f, uint32_t value, uint32_t mask)
{
    mask &= bits_mask(f->n_bits);
    if (mask) {
        enc_u32__(e, sec, f, value, mask);
    }
}

/* The same for a byte-aligned field of 'n' bytes that starts 'skip' bytes
 * into field 'f'. */
static void
enc_bytes(struct dr_enc *e, enum hw_dr_match_section sec,
          const struct dr_field *f, size_t skip, const void *value_,
          const void *mask_, size_t n)
{
    const uint8_t *value = value_, *mask = mask_;
    size_t ofs = sec * SECTION_SIZE + f->bit / 8 + skip;

    if (is_zero(mask, n)) {
        return;
    }
    enc_section(e, sec);
    for (size_t i = 0; i < n; i++) {
        e->mask->buf[ofs + i] = mask[i];
        e->value->buf[ofs + i] = value[i] & mask[i];
    }
}

static void
enc_vlan_kind(struct dr_enc *e, enum hw_dr_match_section sec,
              const struct dr_field *ctag, const struct dr_field *stag,
              enum hw_vlan_kind kind, bool tci_masked)
{
    switch (kind) {
    case HW_VLAN_ANY:
        /* As the verbs ETH spec: a TCI match needs a C-VLAN tag. */
        if (tci_masked) {
            enc_u32(e, sec, ctag, 1, 1);
        }
        break;
    case HW_VLAN_NONE:
        enc_u32(e, sec, ctag, 0, 1);
        enc_u32(e, sec, stag, 0, 1);
        break;
    case HW_VLAN_CTAG:
        enc_u32(e, sec, ctag, 1, 1);
        break;
    case HW_VLAN_STAG:
        enc_u32(e, sec, stag, 1, 1);
        break;
    }
}

static void
enc_eth(struct dr_enc *e, const struct hw_headers *h, bool inner)
{
    enum hw_dr_match_section sec = inner ? HW_DR_MATCH_INNER
                                         : HW_DR_MATCH_OUTER;
    const struct hw_ext_key *x = &h->ext, *xm = &h->ext_mask;

    enc_bytes(e, sec, &l24_fields[L24_SMAC], 0, h->eth.src.ea,
              h->eth_mask.src.ea, ETH_ADDR_LEN);
    enc_bytes(e, sec, &l24_fields[L24_DMAC], 0, h->eth.dst.ea,
              h->eth_mask.dst.ea, ETH_ADDR_LEN);
    enc_u32(e, sec, &l24_fields[L24_ETHERTYPE], ntohs(h->eth.type),
            ntohs(h->eth_mask.type));
    enc_u32(e, sec, &l24_fields[L24_VLAN], ntohs(h->eth.tci),
            ntohs(h->eth_mask.tci));
    enc_vlan_kind(e, sec, &l24_fields[L24_CVLAN_TAG],
                  &l24_fields[L24_SVLAN_TAG], h->vlan1,
                  h->eth_mask.tci != htons(0));

    /* The second tag lives in the misc section. */
    enc_u32(e, HW_DR_MATCH_MISC,
            &misc_fields[inner ? MISC_INNER_VLAN2 : MISC_OUTER_VLAN2],
            ntohs(x->tci2), ntohs(xm->tci2));
    enc_vlan_kind(e, HW_DR_MATCH_MISC,
                  &misc_fields[inner ? MISC_INNER_CVLAN2 : MISC_OUTER_CVLAN2],
                  &misc_fields[inner ? MISC_INNER_SVLAN2 : MISC_OUTER_SVLAN2],
                  h->vlan2, xm->tci2 != htons(0));
}

/* Encodes the IP header of 'h', if any; '*proto' and '*proto_mask' get its
 * protocol field. */
static void
enc_ip(struct dr_enc *e, const struct hw_headers *h, bool inner,
       uint8_t *proto, uint8_t *proto_mask)
{
    enum hw_dr_match_section sec = inner ? HW_DR_MATCH_INNER
                                         : HW_DR_MATCH_OUTER;
    uint8_t tos, tos_mask;

    *proto = *proto_mask = 0;
    if (h->present & HW_HDR_IPV4) {
        const struct hw_ipv4_key *v = &h->ipv4, *m = &h->ipv4_mask;

        enc_u32(e, sec, &l24_fields[L24_IP_VERSION], 4, e->root ? 0xf : 4);
        enc_bytes(e, sec, &l24_fields[L24_SRC_IP], 12, &v->src, &m->src, 4);
        enc_bytes(e, sec, &l24_fields[L24_DST_IP], 12, &v->dst, &m->dst, 4);
        tos = v->tos;
        tos_mask = m->tos;
        *proto = v->proto;
        *proto_mask = m->proto;
    } else if (h->present & HW_HDR_IPV6) {
        const struct hw_ipv6_key *v = &h->ipv6, *m = &h->ipv6_mask;
        uint32_t label_mask = ntohl(m->label) & IPV6_LABEL_MASK;

        enc_u32(e, sec, &l24_fields[L24_IP_VERSION], 6, e->root ? 0xf : 6);
        enc_bytes(e, sec, &l24_fields[L24_SRC_IP], 0, &v->src, &m->src, 16);
        enc_bytes(e, sec, &l24_fields[L24_DST_IP], 0, &v->dst, &m->dst, 16);
        enc_u32(e, HW_DR_MATCH_MISC,
                &misc_fields[inner ? MISC_INNER_LABEL : MISC_OUTER_LABEL],
                ntohl(v->label), label_mask);
        tos = v->tclass;
        tos_mask = m->tclass;
        *proto = v->next_hdr;
        *proto_mask = m->next_hdr;
    } else {
        return;
    }
    /* TOS and traffic class: DSCP in the high 6 bits, ECN in the low 2. */
    enc_u32(e, sec, &l24_fields[L24_IP_DSCP], tos >> 2, tos_mask >> 2);
    enc_u32(e, sec, &l24_fields[L24_IP_ECN], tos & 3, tos_mask & 3);
}

/* Encodes one layer of headers.  'tunnel_proto' is the IP protocol the
 * rule's tunnel implies in this layer (GRE), or 0. */
static int
enc_layer(struct dr_enc *e, const struct hw_headers *h, bool inner,
          uint8_t tunnel_proto, struct ds *reason)
{
    enum hw_dr_match_section sec = inner ? HW_DR_MATCH_INNER
                                         : HW_DR_MATCH_OUTER;
    const struct hw_ext_key *x = &h->ext, *xm = &h->ext_mask;
    const char *layer = inner ? "inner" : "outer";
    bool ipv6 = h->present & HW_HDR_IPV6;
    bool icmp = xm->icmp_type || xm->icmp_code || xm->icmp_data;
    uint8_t proto, proto_mask, implied[3];
    size_t n_implied = 0;

    enc_eth(e, h, inner);
    enc_ip(e, h, inner, &proto, &proto_mask);

    if (xm->frag & ~1) {
        ds_put_format(reason, "%s fragment match %#"PRIx8"/%#"PRIx8": the "
                      "matcher has only the is-a-fragment bit", layer,
                      x->frag, xm->frag);
        return EOPNOTSUPP;
    }
    if (ntohs(xm->tcp_flags) & ~0x1ff) {
        ds_put_format(reason, "%s TCP flags mask %#"PRIx16": the matcher "
                      "has the low 9 bits only", layer, ntohs(xm->tcp_flags));
        return EOPNOTSUPP;
    }
    if (icmp && inner) {
        ds_put_cstr(reason, "inner ICMP match: the matcher has one set of "
                    "ICMP fields, for the outer headers");
        return EOPNOTSUPP;
    }
    enc_u32(e, sec, &l24_fields[L24_TTL], x->ttl, xm->ttl);
    enc_u32(e, sec, &l24_fields[L24_CSUM_OK], x->csum_ok, xm->csum_ok);
    enc_u32(e, sec, &l24_fields[L24_FRAG], x->frag, xm->frag);

    /* The protocol each header implies, as its verbs spec would. */
    if (tunnel_proto) {
        implied[n_implied++] = tunnel_proto;
    }
    if (h->present & HW_HDR_TCP || xm->tcp_flags) {
        implied[n_implied++] = IPPROTO_TCP;
    } else if (h->present & HW_HDR_UDP) {
        implied[n_implied++] = IPPROTO_UDP;
    }
    if (icmp) {
        implied[n_implied++] = ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
    }
    for (size_t i = 1; i < n_implied; i++) {
        if (implied[i] != implied[0]) {
            ds_put_format(reason, "%s headers imply IP protocols %"PRIu8
                          " and %"PRIu8, layer, implied[0], implied[i]);
            return EINVAL;
        }
    }
    if (n_implied) {
        if ((proto ^ implied[0]) & proto_mask) {
            ds_put_format(reason, "%s IP protocol %"PRIu8"/%#"PRIx8
                          " contradicts the %"PRIu8" its headers imply",
                          layer, proto, proto_mask, implied[0]);
            return EINVAL;
        }
        proto = implied[0];
        proto_mask = UINT8_MAX;
    }
    enc_u32(e, sec, &l24_fields[L24_IP_PROTOCOL], proto, proto_mask);

    if (h->present & HW_HDR_TCP) {
        enc_u32(e, sec, &l24_fields[L24_TCP_SPORT], ntohs(h->l4.src),
                ntohs(h->l4_mask.src));
        enc_u32(e, sec, &l24_fields[L24_TCP_DPORT], ntohs(h->l4.dst),
                ntohs(h->l4_mask.dst));
    } else if (h->present & HW_HDR_UDP) {
        enc_u32(e, sec, &l24_fields[L24_UDP_SPORT], ntohs(h->l4.src),
                ntohs(h->l4_mask.src));
        enc_u32(e, sec, &l24_fields[L24_UDP_DPORT], ntohs(h->l4.dst),
                ntohs(h->l4_mask.dst));
    }
    enc_u32(e, sec, &l24_fields[L24_TCP_FLAGS], ntohs(x->tcp_flags),
            ntohs(xm->tcp_flags));
    enc_u32(e, HW_DR_MATCH_MISC3,
            &misc3_fields[ipv6 ? MISC3_ICMPV6_TYPE : MISC3_ICMP_TYPE],
            x->icmp_type, xm->icmp_type);
    enc_u32(e, HW_DR_MATCH_MISC3,
            &misc3_fields[ipv6 ? MISC3_ICMPV6_CODE : MISC3_ICMP_CODE],
            x->icmp_code, xm->icmp_code);
    enc_u32(e, HW_DR_MATCH_MISC3,
            &misc3_fields[ipv6 ? MISC3_ICMPV6_DATA : MISC3_ICMP_DATA],
            ntohl(x->icmp_data), ntohl(xm->icmp_data));
    return 0;
}

/* The tunnel key, in the misc section (and Geneve's option data in misc3).
 * As with verbs, a VXLAN or Geneve match does not imply the UDP port (the
 * outer UDP header carries it) and a GRE key match does not require the K
 * bit. */
static void
enc_tunnel(struct dr_enc *e, const struct hw_rule *rule)
{
    const struct hw_tunnel_key *v = &rule->tnl, *m = &rule->tnl_mask;

    if (rule->tunnel == HW_TUNNEL_VXLAN) {
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_VXLAN_VNI],
                ntohl(v->vni), ntohl(m->vni));
    } else if (rule->tunnel == HW_TUNNEL_GRE) {
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GRE_PROTOCOL],
                ntohs(v->gre_protocol), ntohs(m->gre_protocol));
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GRE_KEY],
                ntohl(v->gre_key), ntohl(m->gre_key));
    } else if (rule->tunnel == HW_TUNNEL_GENEVE) {
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GENEVE_VNI],
                ntohl(v->vni), ntohl(m->vni));
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GENEVE_OAM],
                v->geneve_oam, m->geneve_oam);
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GENEVE_OPT_LEN],
                v->geneve_opt_len, m->geneve_opt_len);
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GENEVE_PROTOCOL],
                ntohs(v->geneve_protocol), ntohs(m->geneve_protocol));
        enc_u32(e, HW_DR_MATCH_MISC, &misc_fields[MISC_GENEVE_OPT_EXIST],
                v->geneve_opt_exist, m->geneve_opt_exist);
        enc_u32(e, HW_DR_MATCH_MISC3, &misc3_fields[MISC3_GENEVE_OPT_DATA],
                ntohl(v->geneve_opt_data), ntohl(m->geneve_opt_data));
    }
}

/* Sets the criteria bits and the size of 'mask' and 'value' from the
 * sections written, and clears the unwritten ones below the last. */
static void
set_sections(struct dr_enc *e)
{
    uint8_t criteria = e->written;
    size_t size = 0;

    for (size_t i = 0; i < N_SECTIONS; i++) {
        if (criteria & (1u << i)) {
            size = (i + 1) * SECTION_SIZE;
        }
    }
    for (size_t i = 0; i * SECTION_SIZE < size; i++) {
        enc_section(e, i);
    }
    e->mask->criteria = e->value->criteria = criteria;
    e->mask->match_sz = e->value->match_sz = size;
}

int
hw_encode_dr_match(const struct hw_rule *rule, bool root,
                   struct hw_dr_match *mask, struct hw_dr_match *value,
                   struct ds *reason)
{
    struct dr_enc e = { .mask = mask, .value = value, .root = root };
    int error;

    error = enc_layer(&e, &rule->outer, false,
                      rule->tunnel == HW_TUNNEL_GRE ? IPPROTO_GRE : 0,
                      reason);
    if (!error && rule->tunnel != HW_TUNNEL_NONE) {
        enc_tunnel(&e, rule);
        error = enc_layer(&e, &rule->inner, true, 0, reason);
    }
    if (error) {
        memset(mask, 0, sizeof *mask);
        memset(value, 0, sizeof *value);
        return error;
    }

    for (size_t i = 0; i < HW_N_REG_C; i++) {
        enc_u32(&e, HW_DR_MATCH_MISC2, &misc2_fields[MISC2_REG_C(i)],
                rule->reg_c[i], rule->reg_c_mask[i]);
    }
    enc_u32(&e, HW_DR_MATCH_MISC, &misc_fields[MISC_SOURCE_PORT],
            rule->src_vport, rule->src_vport_mask);

    set_sections(&e);
    return 0;
}

/* Formatting a match. */

/* Puts 'x' in hexadecimal with at least 'digits' digits. */
static void
put_hex(struct ds *s, uint32_t x, int digits)
{
    int n = 1;

    while (n < 8 && x >> (4 * n)) {
        n++;
    }
    ds_put_cstr(s, "0x");
    for (int i = MAX(n, digits) - 1; i >= 0; i--) {
        ds_put_char(s, "0123456789abcdef"[(x >> (4 * i)) & 0xf]);
    }
}

static void
format_u32(struct ds *s, const struct dr_field *f, const uint32_t *value,
           uint32_t mask)
{
    uint32_t full = bits_mask(f->n_bits);
    int digits = f->fmt == FMT_HEX ? DIV_ROUND_UP(f->n_bits, 4) : 0;

    if (f->fmt == FMT_IP_VERSION && (mask == 4 || mask == 6)
        && (!value || *value == mask)) {
        mask = full;
    }
    ds_put_cstr(s, f->name);
    if (value && mask == full
        && (f->fmt == FMT_DEC || f->fmt == FMT_IP_VERSION)) {
        ds_put_format(s, "=%"PRIu32, *value);
        return;
    }
    if (value) {
        ds_put_char(s, '=');
        put_hex(s, *value, digits);
    }
    if (mask != full) {
        ds_put_char(s, '/');
        put_hex(s, mask, digits);
    }
}

static void
format_mac(struct ds *s, const struct dr_field *f, const uint8_t *value,
           const uint8_t *mask)
{
    struct eth_addr v, m;

    memcpy(m.ea, mask, ETH_ADDR_LEN);
    ds_put_cstr(s, f->name);
    if (value) {
        memcpy(v.ea, value, ETH_ADDR_LEN);
        ds_put_format(s, "="ETH_ADDR_FMT, ETH_ADDR_ARGS(v));
    }
    if (!eth_mask_is_exact(m)) {
        ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(m));
    }
}

/* An address field: IPv4 if only its last 4 bytes are masked. */
static void
format_ip(struct ds *s, const struct dr_field *f, const uint8_t *value,
          const uint8_t *mask)
{
    static const uint8_t zeros[12];

    if (!memcmp(mask, zeros, sizeof zeros)) {
        ovs_be32 v4, m4;

        memcpy(&m4, mask + 12, sizeof m4);
        ds_put_format(s, "%s_ipv4", f->name);
        if (value) {
            memcpy(&v4, value + 12, sizeof v4);
            ds_put_char(s, '=');
            ip_format_masked(v4, m4, s);
        } else if (m4 != OVS_BE32_MAX) {
            ds_put_format(s, "/"IP_FMT, IP_ARGS(m4));
        }
    } else {
        struct in6_addr v6, m6;

        memcpy(&m6, mask, sizeof m6);
        ds_put_format(s, "%s_ipv6", f->name);
        if (value) {
            memcpy(&v6, value, sizeof v6);
            ds_put_char(s, '=');
            ipv6_format_masked(&v6, &m6, s);
        } else if (!ipv6_mask_is_exact(&m6)) {
            ds_put_char(s, '/');
            ipv6_format_addr(&m6, s);
        }
    }
}

/* Formats the fields section 'i' of 'mask' masks.  Mask bits outside the
 * known fields are shown raw, by 32-bit word: "@BYTE=VALUE/MASK". */
static void
format_section(struct ds *s, size_t i, const uint8_t *mask,
               const uint8_t *value)
{
    uint8_t known[SECTION_SIZE];
    bool first = true;

    memset(known, 0, sizeof known);
    ds_put_format(s, "%s(", sections[i].name);
    for (size_t j = 0; j < sections[i].n_fields; j++) {
        const struct dr_field *f = &sections[i].fields[j];

        if (f->n_bits > 32) {
            size_t ofs = f->bit / 8, n = f->n_bits / 8;

            memset(known + ofs, 0xff, n);
            if (is_zero(mask + ofs, n)) {
                continue;
            }
            ds_put_cstr(s, first ? "" : ",");
            if (f->fmt == FMT_MAC) {
                format_mac(s, f, value ? value + ofs : NULL, mask + ofs);
            } else {
                format_ip(s, f, value ? value + ofs : NULL, mask + ofs);
            }
        } else {
            uint32_t m = get_bits(mask, f->bit, f->n_bits);
            uint32_t v = value ? get_bits(value, f->bit, f->n_bits) : 0;

            put_bits(known, f->bit, f->n_bits, UINT32_MAX);
            if (!m) {
                continue;
            }
            ds_put_cstr(s, first ? "" : ",");
            format_u32(s, f, value ? &v : NULL, m);
        }
        first = false;
    }
    for (size_t ofs = 0; ofs < SECTION_SIZE; ofs += 4) {
        uint32_t m = get_bits(mask, ofs * 8, 32);
        uint32_t other = m & ~get_bits(known, ofs * 8, 32);

        if (other) {
            ds_put_format(s, "%s@%"PRIuSIZE"=%#010"PRIx32"/%#010"PRIx32,
                          first ? "" : ",", ofs,
                          value ? get_bits(value, ofs * 8, 32) & other : 0,
                          other);
            first = false;
        }
    }
    ds_put_char(s, ')');
}

void
hw_dr_match_format(const struct hw_dr_match *mask,
                   const struct hw_dr_match *value, struct ds *s)
{
    size_t size = MIN(mask->match_sz, sizeof mask->buf);
    size_t start = s->length;

    for (size_t i = 0; i < N_SECTIONS; i++) {
        const uint8_t *m = mask->buf + i * SECTION_SIZE;

        if ((i + 1) * SECTION_SIZE > size || is_zero(m, SECTION_SIZE)) {
            continue;
        }
        if (s->length > start) {
            ds_put_char(s, ' ');
        }
        format_section(s, i, m,
                       value ? value->buf + i * SECTION_SIZE : NULL);
    }
    if (s->length == start) {
        ds_put_cstr(s, "any");
    }
}

/* Modify header (hw-apis.md 3.2): one big-endian 64-bit command each.
 *
 *   set/add: action_type 31:28, field 27:16, offset 12:8, length 4:0 (0
 *            means 32; add has neither offset nor length), then the data;
 *   copy:    action_type, src_field, src_offset, length, then dst_field
 *            27:16 and dst_offset 12:8 of the second word. */
enum {
    MODIFY_SET = 1,
    MODIFY_ADD = 2,
    MODIFY_COPY = 3,
};

static void
put_cmd(struct ofpbuf *cmds, uint32_t hi, uint32_t lo)
{
    ovs_be64 cmd = htonll(((uint64_t) hi << 32) | lo);

    ofpbuf_put(cmds, &cmd, sizeof cmd);
}

static uint32_t
cmd_word(unsigned int type, enum hw_dr_field field, unsigned int offset,
         unsigned int length)
{
    ovs_assert(field <= 0xfff && offset < 32 && length <= 32);
    return (type << 28) | (field << 16) | (offset << 8) | (length & 0x1f);
}

void
hw_dr_modify_set(struct ofpbuf *cmds, enum hw_dr_field field,
                 unsigned int offset, unsigned int length, uint32_t data)
{
    ovs_assert(length && offset + length <= 32);
    put_cmd(cmds, cmd_word(MODIFY_SET, field, offset, length),
            data & bits_mask(length));
}

void
hw_dr_modify_add(struct ofpbuf *cmds, enum hw_dr_field field, uint32_t data)
{
    put_cmd(cmds, cmd_word(MODIFY_ADD, field, 0, 0), data);
}

void
hw_dr_modify_copy(struct ofpbuf *cmds, enum hw_dr_field src,
                  unsigned int src_offset, enum hw_dr_field dst,
                  unsigned int dst_offset, unsigned int length)
{
    ovs_assert(length && src_offset + length <= 32
               && dst_offset + length <= 32);
    put_cmd(cmds, cmd_word(MODIFY_COPY, src, src_offset, length),
            cmd_word(0, dst, dst_offset, 0));
}

void
hw_dr_modify_set_mac(struct ofpbuf *cmds, bool src, struct eth_addr mac)
{
    const uint8_t *a = mac.ea;

    hw_dr_modify_set(cmds, src ? HW_DR_FIELD_SMAC_47_16
                               : HW_DR_FIELD_DMAC_47_16, 0, 32,
                     ((uint32_t) a[0] << 24) | (a[1] << 16) | (a[2] << 8)
                     | a[3]);
    hw_dr_modify_set(cmds, src ? HW_DR_FIELD_SMAC_15_0
                               : HW_DR_FIELD_DMAC_15_0, 0, 16,
                     (a[4] << 8) | a[5]);
}

void
hw_dr_modify_set_ipv4(struct ofpbuf *cmds, bool src, ovs_be32 addr)
{
    hw_dr_modify_set(cmds, src ? HW_DR_FIELD_SIPV4 : HW_DR_FIELD_DIPV4,
                     0, 32, ntohl(addr));
}

void
hw_dr_modify_set_ipv6(struct ofpbuf *cmds, bool src,
                      const struct in6_addr *addr)
{
    enum hw_dr_field base = src ? HW_DR_FIELD_SIPV6_127_96
                                : HW_DR_FIELD_DIPV6_127_96;

    for (int i = 0; i < 4; i++) {
        ovs_be32 word;

        memcpy(&word, &addr->s6_addr[i * 4], sizeof word);
        hw_dr_modify_set(cmds, base + i, 0, 32, ntohl(word));
    }
}

void
hw_dr_modify_set_ttl(struct ofpbuf *cmds, bool ipv6, uint8_t ttl)
{
    hw_dr_modify_set(cmds, ipv6 ? HW_DR_FIELD_IPV6_HOPLIMIT
                                : HW_DR_FIELD_IPV4_TTL, 0, 8, ttl);
}

void
hw_dr_modify_add_ttl(struct ofpbuf *cmds, bool ipv6, int delta)
{
    /* Modulo 256: -1 is 0xff, as DPDK's dec_ttl. */
    hw_dr_modify_add(cmds, ipv6 ? HW_DR_FIELD_IPV6_HOPLIMIT
                                : HW_DR_FIELD_IPV4_TTL,
                     (uint32_t) delta & 0xff);
}

void
hw_dr_modify_set_port(struct ofpbuf *cmds, bool tcp, bool src, ovs_be16 port)
{
    enum hw_dr_field field = (tcp
                              ? (src ? HW_DR_FIELD_TCP_SPORT
                                     : HW_DR_FIELD_TCP_DPORT)
                              : (src ? HW_DR_FIELD_UDP_SPORT
                                     : HW_DR_FIELD_UDP_DPORT));

    hw_dr_modify_set(cmds, field, 0, 16, ntohs(port));
}

void
hw_dr_modify_set_reg_c(struct ofpbuf *cmds, unsigned int reg, uint32_t value)
{
    ovs_assert(reg < HW_N_REG_C);
    hw_dr_modify_set(cmds, HW_DR_FIELD_REG_C_0 + reg, 0, 32, value);
}

/* The device fields that hold bits 'lo' to 'lo' + 'width' - 1 of a packet
 * field. */
struct dr_span {
    enum hw_dr_field field;
    unsigned int lo, width;
};

/* The spans of packet field 'f' into 'spans', most significant first;
 * returns how many, and the field's size in bytes in '*size'. */
static size_t
dr_spans(enum hw_set_field f, bool ipv6, bool tcp, struct dr_span spans[4],
         size_t *size)
{
    bool src = (f == HW_SET_ETH_SRC || f == HW_SET_IPV4_SRC
                || f == HW_SET_IPV6_SRC || f == HW_SET_L4_SRC);

    switch (f) {
    case HW_SET_ETH_SRC:
    case HW_SET_ETH_DST:
        spans[0] = (struct dr_span) { src ? HW_DR_FIELD_SMAC_47_16
                                          : HW_DR_FIELD_DMAC_47_16, 16, 32 };
        spans[1] = (struct dr_span) { src ? HW_DR_FIELD_SMAC_15_0
                                          : HW_DR_FIELD_DMAC_15_0, 0, 16 };
        *size = ETH_ADDR_LEN;
        return 2;
    case HW_SET_IPV4_SRC:
    case HW_SET_IPV4_DST:
        spans[0] = (struct dr_span) { src ? HW_DR_FIELD_SIPV4
                                          : HW_DR_FIELD_DIPV4, 0, 32 };
        *size = 4;
        return 1;
    case HW_SET_IPV6_SRC:
    case HW_SET_IPV6_DST:
        for (int i = 0; i < 4; i++) {
            spans[i] = (struct dr_span) {
                (src ? HW_DR_FIELD_SIPV6_127_96 : HW_DR_FIELD_DIPV6_127_96)
                + i, 96 - 32 * i, 32 };
        }
        *size = 16;
        return 4;
    case HW_SET_TTL:
        spans[0] = (struct dr_span) { ipv6 ? HW_DR_FIELD_IPV6_HOPLIMIT
                                           : HW_DR_FIELD_IPV4_TTL, 0, 8 };
        *size = 1;
        return 1;
    case HW_SET_L4_SRC:
    case HW_SET_L4_DST:
        spans[0] = (struct dr_span) {
            tcp ? (src ? HW_DR_FIELD_TCP_SPORT : HW_DR_FIELD_TCP_DPORT)
                : (src ? HW_DR_FIELD_UDP_SPORT : HW_DR_FIELD_UDP_DPORT),
            0, 16 };
        *size = 2;
        return 1;
    case HW_SET_TOS:
        /* DSCP is the TOS byte's high 6 bits; the ECN bits have no
         * field. */
        spans[0] = (struct dr_span) { HW_DR_FIELD_IP_DSCP, 2, 6 };
        *size = 1;
        return 1;
    case HW_N_SET_FIELDS:
    default:
        OVS_NOT_REACHED();
    }
}

/* Bits 'lo' to 'lo' + 'n' - 1 (n <= 32) of the 'size' bytes at 'value',
 * bit 0 the least significant of the last byte. */
static uint32_t
dr_get_bits(const uint8_t *value, size_t size, unsigned int lo,
            unsigned int n)
{
    uint32_t x = 0;

    for (unsigned int i = n; i-- > 0;) {
        unsigned int bit = lo + i;

        x = (x << 1) | ((value[size - 1 - bit / 8] >> (bit % 8)) & 1);
    }
    return x;
}

void
hw_dr_modify_set_bits(struct ofpbuf *cmds, int f, bool ipv6, bool tcp,
                      const void *value, unsigned int ofs,
                      unsigned int n_bits)
{
    struct dr_span spans[4];
    size_t size;
    size_t n = dr_spans(f, ipv6, tcp, spans, &size);
    unsigned int first = spans[n - 1].lo;
    unsigned int end = spans[0].lo + spans[0].width;

    if (!n_bits) {
        ofs = first;
        n_bits = end - first;
    }
    /* Translate sets no bit the device has no field for. */
    ovs_assert(ofs >= first && ofs + n_bits <= end);
    for (size_t i = 0; i < n; i++) {
        unsigned int lo = MAX(ofs, spans[i].lo);
        unsigned int hi = MIN(ofs + n_bits, spans[i].lo + spans[i].width);

        if (lo < hi) {
            hw_dr_modify_set(cmds, spans[i].field, lo - spans[i].lo,
                             hi - lo, dr_get_bits(value, size, lo, hi - lo));
        }
    }
}

/* Formatting modify-header commands. */

struct modify_field {
    const char *name;
    unsigned int n_bits;
    bool decimal;
};

static const struct modify_field *
modify_field(unsigned int id)
{
    static const struct modify_field fields[] = {
        [HW_DR_FIELD_SMAC_47_16] = { "smac_47_16", 32, false },
        [HW_DR_FIELD_SMAC_15_0] = { "smac_15_0", 16, false },
        [HW_DR_FIELD_ETHERTYPE] = { "ethertype", 16, false },
        [HW_DR_FIELD_DMAC_47_16] = { "dmac_47_16", 32, false },
        [HW_DR_FIELD_DMAC_15_0] = { "dmac_15_0", 16, false },
        [HW_DR_FIELD_IP_DSCP] = { "ip_dscp", 6, true },
        [HW_DR_FIELD_TCP_FLAGS] = { "tcp_flags", 9, false },
        [HW_DR_FIELD_TCP_SPORT] = { "tcp_src", 16, true },
        [HW_DR_FIELD_TCP_DPORT] = { "tcp_dst", 16, true },
        [HW_DR_FIELD_IPV4_TTL] = { "ipv4_ttl", 8, true },
        [HW_DR_FIELD_UDP_SPORT] = { "udp_src", 16, true },
        [HW_DR_FIELD_UDP_DPORT] = { "udp_dst", 16, true },
        [0x0d] = { "sipv6_127_96", 32, false },
        [0x0e] = { "sipv6_95_64", 32, false },
        [0x0f] = { "sipv6_63_32", 32, false },
        [0x10] = { "sipv6_31_0", 32, false },
        [0x11] = { "dipv6_127_96", 32, false },
        [0x12] = { "dipv6_95_64", 32, false },
        [0x13] = { "dipv6_63_32", 32, false },
        [0x14] = { "dipv6_31_0", 32, false },
        [HW_DR_FIELD_SIPV4] = { "ipv4_src", 32, false },
        [HW_DR_FIELD_DIPV4] = { "ipv4_dst", 32, false },
        [HW_DR_FIELD_FIRST_VID] = { "first_vid", 12, true },
        [HW_DR_FIELD_IPV6_HOPLIMIT] = { "ipv6_hlimit", 8, true },
        [HW_DR_FIELD_REG_A] = { "reg_a", 32, false },
        [HW_DR_FIELD_REG_B] = { "reg_b", 32, false },
        [0x51] = { "reg_c0", 32, false },
        [0x52] = { "reg_c1", 32, false },
        [0x53] = { "reg_c2", 32, false },
        [0x54] = { "reg_c3", 32, false },
        [0x55] = { "reg_c4", 32, false },
        [0x56] = { "reg_c5", 32, false },
        [0x57] = { "reg_c6", 32, false },
        [0x58] = { "reg_c7", 32, false },
    };

    return id < ARRAY_SIZE(fields) && fields[id].name ? &fields[id] : NULL;
}

/* One decoded command. */
struct modify_cmd {
    unsigned int type, field, offset, length;   /* 'length' 1 to 32. */
    uint32_t data;
};

static void
decode_cmd(ovs_be64 raw, struct modify_cmd *c)
{
    uint64_t x = ntohll(raw);
    uint32_t hi = x >> 32;

    c->type = hi >> 28;
    c->field = (hi >> 16) & 0xfff;
    c->offset = (hi >> 8) & 0x1f;
    c->length = hi & 0x1f ? hi & 0x1f : 32;
    c->data = x;
}

/* Whether 'c' sets all of field 'field', 'n_bits' wide. */
static bool
sets_whole(const struct modify_cmd *c, unsigned int field,
           unsigned int n_bits)
{
    return (c->type == MODIFY_SET && c->field == field && !c->offset
            && c->length == n_bits);
}

static void
put_field_name(struct ds *s, unsigned int field)
{
    const struct modify_field *f = modify_field(field);

    if (f) {
        ds_put_cstr(s, f->name);
    } else {
        ds_put_format(s, "field_%#x", field);
    }
}

static void
put_bit_range(struct ds *s, unsigned int field, unsigned int offset,
              unsigned int length)
{
    put_field_name(s, field);
    ds_put_format(s, "[%u..%u]", offset, offset + length - 1);
}

/* Formats the whole-field sets of MAC and IPv6 addresses at 'c' (of 'n'
 * commands) as one; returns the number of commands used, 0 if none. */
static size_t
format_address(struct ds *s, const struct modify_cmd *c, size_t n)
{
    static const struct {
        unsigned int field;
        const char *name;
    } macs[] = {
        { HW_DR_FIELD_SMAC_47_16, "eth_src" },
        { HW_DR_FIELD_DMAC_47_16, "eth_dst" },
    }, ipv6s[] = {
        { HW_DR_FIELD_SIPV6_127_96, "ipv6_src" },
        { HW_DR_FIELD_DIPV6_127_96, "ipv6_dst" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(macs); i++) {
        if (n >= 2 && sets_whole(&c[0], macs[i].field, 32)
            && sets_whole(&c[1], macs[i].field + 1, 16)) {
            struct eth_addr mac = ETH_ADDR_C(0, 0, 0, 0, 0, 0);

            for (int j = 0; j < 4; j++) {
                mac.ea[j] = c[0].data >> (24 - 8 * j);
            }
            mac.ea[4] = c[1].data >> 8;
            mac.ea[5] = c[1].data;
            ds_put_format(s, "set %s="ETH_ADDR_FMT, macs[i].name,
                          ETH_ADDR_ARGS(mac));
            return 2;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(ipv6s); i++) {
        struct in6_addr addr;
        size_t j;

        for (j = 0; j < 4 && j < n; j++) {
            ovs_be32 word = htonl(c[j].data);

            if (!sets_whole(&c[j], ipv6s[i].field + j, 32)) {
                break;
            }
            memcpy(&addr.s6_addr[j * 4], &word, sizeof word);
        }
        if (j == 4) {
            ds_put_format(s, "set %s=", ipv6s[i].name);
            ipv6_format_addr(&addr, s);
            return 4;
        }
    }
    return 0;
}

static void
format_cmd(struct ds *s, const struct modify_cmd *c, ovs_be64 raw)
{
    const struct modify_field *f = modify_field(c->field);

    if (c->type == MODIFY_SET) {
        ds_put_cstr(s, "set ");
        if (f && !c->offset && c->length == f->n_bits) {
            ds_put_cstr(s, f->name);
            if (c->field == HW_DR_FIELD_SIPV4
                || c->field == HW_DR_FIELD_DIPV4) {
                ds_put_format(s, "="IP_FMT, IP_ARGS(htonl(c->data)));
            } else {
                ds_put_format(s, f->decimal ? "=%"PRIu32 : "=%#"PRIx32,
                              c->data);
            }
        } else {
            put_bit_range(s, c->field, c->offset, c->length);
            ds_put_format(s, "=%#"PRIx32, c->data);
        }
    } else if (c->type == MODIFY_ADD) {
        /* The data, as a signed number of the field's width. */
        unsigned int n_bits = f ? f->n_bits : 32;
        uint32_t data = c->data & bits_mask(n_bits);
        int64_t delta = (n_bits < 32 && data >> (n_bits - 1)
                         ? (int64_t) data - (INT64_C(1) << n_bits)
                         : (int64_t) (int32_t) data);

        ds_put_cstr(s, "add ");
        put_field_name(s, c->field);
        ds_put_format(s, " %+"PRId64, delta);
    } else if (c->type == MODIFY_COPY) {
        unsigned int dst = (c->data >> 16) & 0xfff;
        unsigned int dst_offset = (c->data >> 8) & 0x1f;

        ds_put_cstr(s, "copy ");
        put_bit_range(s, c->field, c->offset, c->length);
        ds_put_cstr(s, "->");
        put_bit_range(s, dst, dst_offset, c->length);
    } else {
        ds_put_format(s, "cmd(%#018"PRIx64")", ntohll(raw));
    }
}

void
hw_dr_modify_format(const ovs_be64 *cmds, size_t size, struct ds *s)
{
    size_t n = size / sizeof *cmds;
    struct modify_cmd *c = xmalloc(MAX(n, 1) * sizeof *c);

    for (size_t i = 0; i < n; i++) {
        decode_cmd(cmds[i], &c[i]);
    }
    for (size_t i = 0; i < n;) {
        size_t used;

        if (i) {
            ds_put_cstr(s, ", ");
        }
        used = format_address(s, &c[i], n - i);
        if (!used) {
            format_cmd(s, &c[i], cmds[i]);
            used = 1;
        }
        i += used;
    }
    if (size % sizeof *cmds) {
        ds_put_format(s, "%strailing=%"PRIuSIZE, n ? ", " : "",
                      size % sizeof *cmds);
    }
    free(c);
}

/* DevX flow counters: the PRM command layouts (opcode at byte 0, op_mod at
 * byte 6; outputs start with status and syndrome). */
#define PRM_OP_ALLOC_FLOW_COUNTER 0x939
#define PRM_OP_QUERY_FLOW_COUNTER 0x93b

void
hw_prm_alloc_flow_counter_in(uint8_t in[HW_PRM_ALLOC_FLOW_COUNTER_IN])
{
    /* flow_counter_id (byte 8) 0 and flow_counter_bulk (byte 15) 0: one
     * counter, numbered by the device. */
    memset(in, 0, HW_PRM_ALLOC_FLOW_COUNTER_IN);
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in),
                       htons(PRM_OP_ALLOC_FLOW_COUNTER));
}

uint32_t
hw_prm_alloc_flow_counter_id(const uint8_t out[HW_PRM_ALLOC_FLOW_COUNTER_OUT])
{
    return ntohl(get_unaligned_be32(ALIGNED_CAST(const ovs_be32 *,
                                                 out + 8)));
}

void
hw_prm_query_flow_counter_in(uint8_t in[HW_PRM_QUERY_FLOW_COUNTER_IN],
                             uint32_t id)
{
    /* mkey, address, clear, dump_to_memory, num_of_counters all 0: read
     * one counter into the output, without clearing it. */
    memset(in, 0, HW_PRM_QUERY_FLOW_COUNTER_IN);
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in),
                       htons(PRM_OP_QUERY_FLOW_COUNTER));
    put_unaligned_be32(ALIGNED_CAST(ovs_be32 *, in + 28), htonl(id));
}

void
hw_prm_query_flow_counter_out(
    const uint8_t out[HW_PRM_QUERY_FLOW_COUNTER_OUT],
    uint64_t *packets, uint64_t *bytes)
{
    /* flow_statistics[0] after the 16-byte header: packets, octets. */
    *packets = ntohll(get_unaligned_be64(ALIGNED_CAST(const ovs_be64 *,
                                                      out + 16)));
    *bytes = ntohll(get_unaligned_be64(ALIGNED_CAST(const ovs_be64 *,
                                                    out + 24)));
}

/* CREATE_GENERAL_OBJECT: the 16-byte general object header (opcode,
 * obj_type at byte 6), then the geneve_tlv_option object, whose class is
 * at its byte 12, type at 14 and data length (5 bits) at 15. */
#define PRM_OP_CREATE_GENERAL_OBJECT 0xa00
#define PRM_OBJ_TYPE_GENEVE_TLV_OPT 0x000b
#define PRM_OP_QUERY_HCA_CAP 0x100

/* flex_parser_protocols of cmd_hca_cap, bit 0x540, and its bits. */
#define PRM_HCA_CAP_FLEX_PARSER_PROTOCOLS (0x540 / 8)
#define PRM_FLEX_PARSER_GENEVE (1u << 3)
#define PRM_FLEX_PARSER_GENEVE_OPT_0 (1u << 10)

void
hw_prm_create_geneve_tlv_opt_in(uint8_t in[HW_PRM_CREATE_GENEVE_TLV_OPT_IN],
                                ovs_be16 opt_class, uint8_t type,
                                uint8_t len)
{
    uint8_t *obj = in + 16;

    memset(in, 0, HW_PRM_CREATE_GENEVE_TLV_OPT_IN);
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in),
                       htons(PRM_OP_CREATE_GENERAL_OBJECT));
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in + 6),
                       htons(PRM_OBJ_TYPE_GENEVE_TLV_OPT));
    memcpy(obj + 12, &opt_class, 2);
    obj[14] = type;
    obj[15] = len & 0x1f;
}

void
hw_prm_query_hca_cap_in(uint8_t in[HW_PRM_QUERY_HCA_CAP_IN])
{
    /* op_mod (byte 6): capability type 0 (general) << 1 | 1 (current). */
    memset(in, 0, HW_PRM_QUERY_HCA_CAP_IN);
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in),
                       htons(PRM_OP_QUERY_HCA_CAP));
    put_unaligned_be16(ALIGNED_CAST(ovs_be16 *, in + 6), htons(1));
}

uint32_t
hw_prm_hca_cap_parse(const uint8_t out[HW_PRM_QUERY_HCA_CAP_OUT])
{
    const uint8_t *flexp = out + 16 + PRM_HCA_CAP_FLEX_PARSER_PROTOCOLS;
    uint32_t flex = ntohl(get_unaligned_be32(
                              ALIGNED_CAST(const ovs_be32 *, flexp)));
    uint32_t parse = 0;

    if (flex & PRM_FLEX_PARSER_GENEVE) {
        parse |= HW_DR_PARSE_GENEVE;
    }
    if (flex & PRM_FLEX_PARSER_GENEVE_OPT_0) {
        parse |= HW_DR_PARSE_GENEVE_OPT;
    }
    return parse;
}
