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

/* Unit tests of the NIC model's parser, steering engine and counters.
 *
 * Rules are built as byte buffers exactly as libibverbs reads them (specs
 * back to back from offset 20), never through C structs with padding. */

#include <config.h>
#undef NDEBUG
#include "hw-model-flow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "dp-packet.h"
#include "openvswitch/dynamic-string.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-check.h"
#include "util.h"

/* ---------------------------------------------------------------------- */
/* Fake device objects.                                                   */
/* ---------------------------------------------------------------------- */

static struct ibv_context ctx_a, ctx_b;
static struct ibv_qp qp1, qp2, qp_ud, qp_rc, qp_uc, qp_b;
static struct ibv_flow_action act1, act2, act_b;

static void
init_fixtures(void)
{
    memset(&ctx_a, 0, sizeof ctx_a);
    memset(&ctx_b, 0, sizeof ctx_b);

    memset(&qp1, 0, sizeof qp1);
    qp1.context = &ctx_a;
    qp1.qp_type = IBV_QPT_RAW_PACKET;
    qp1.qp_num = 101;

    qp2 = qp1;
    qp2.qp_num = 102;

    qp_ud = qp1;
    qp_ud.qp_type = IBV_QPT_UD;
    qp_ud.qp_num = 103;

    qp_rc = qp1;
    qp_rc.qp_type = IBV_QPT_RC;
    qp_rc.qp_num = 104;

    qp_uc = qp1;
    qp_uc.qp_type = IBV_QPT_UC;
    qp_uc.qp_num = 105;

    qp_b = qp1;
    qp_b.context = &ctx_b;
    qp_b.qp_num = 201;

    act1.context = &ctx_a;
    act2.context = &ctx_a;
    act_b.context = &ctx_b;
}

static struct hw_model_limits
default_limits(void)
{
    return (struct hw_model_limits) {
        .phys_port_cnt = 1,
        .max_priority = 15,
        .max_specs = 10,
        .max_rules = 1024,
        .sniffer = false,
        .cap_net_raw = true,
    };
}

static struct hw_model_steering *
new_steering(void)
{
    struct hw_model_limits limits = default_limits();

    return hw_model_steering_create(&limits);
}

/* ---------------------------------------------------------------------- */
/* Rule buffers.                                                          */
/* ---------------------------------------------------------------------- */

/* Offsets of the verbs specs (verbs.h of rdma-core 44, x86-64). */
enum {
    ATTR_LEN = 20,

    ETH_SIZE = 40, ETH_V = 6, ETH_M = 22,
    F_DMAC = 0, F_SMAC = 6, F_ETYPE = 12, F_VLAN = 14,

    IP4_SIZE = 24, IP4_V = 8, IP4_M = 16,
    IP4X_SIZE = 32, IP4X_V = 8, IP4X_M = 20,
    F_IP4_SRC = 0, F_IP4_DST = 4, F_IP4_PROTO = 8, F_IP4_TOS = 9,
    F_IP4_TTL = 10, F_IP4_FLAGS = 11,

    IP6_SIZE = 88, IP6_V = 8, IP6_M = 48,
    F_IP6_SRC = 0, F_IP6_DST = 16, F_IP6_LABEL = 32, F_IP6_NEXT = 36,
    F_IP6_TCLASS = 37, F_IP6_HLIM = 38, F_IP6_PAD = 39,

    L4_SIZE = 16, L4_V = 6, L4_M = 10, F_L4_DST = 0, F_L4_SRC = 2,
    ESP_SIZE = 24, ESP_V = 8, ESP_M = 16,
    GRE_SIZE = 24, GRE_V = 8, GRE_M = 16,
    F_GRE_FLAGS = 0, F_GRE_PROTO = 2, F_GRE_KEY = 4,
    MPLS_SIZE = 16, MPLS_V = 8, MPLS_M = 12,
    VXLAN_SIZE = 16, VXLAN_V = 8, VXLAN_M = 12,
    TAG_SIZE = 12, DROP_SIZE = 8, HANDLE_SIZE = 16, COUNT_SIZE = 16,
};

struct rule {
    union {
        uint64_t align;
        uint8_t bytes[1024];
    };
    size_t len;
};

static void
put_u8(uint8_t *p, uint8_t v)
{
    *p = v;
}

static void
put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static void
put_mac(uint8_t *p, const char *s)
{
    struct eth_addr ea;

    CHECK(eth_addr_from_string(s, &ea));
    memcpy(p, ea.ea, 6);
}

static void
put_ip4(uint8_t *p, const char *s)
{
    CHECK(inet_pton(AF_INET, s, p) == 1);
}

static void
put_ip6(uint8_t *p, const char *s)
{
    CHECK(inet_pton(AF_INET6, s, p) == 1);
}

/* The header fields in host order at their offsets. */
static void
rule_init(struct rule *r, uint32_t type, uint16_t priority, uint8_t port,
          uint32_t flags)
{
    uint32_t comp_mask = 0;
    uint16_t size = ATTR_LEN;

    memset(r, 0, sizeof *r);
    memcpy(&r->bytes[0], &comp_mask, 4);
    memcpy(&r->bytes[4], &type, 4);
    memcpy(&r->bytes[8], &size, 2);
    memcpy(&r->bytes[10], &priority, 2);
    r->bytes[12] = 0;               /* num_of_specs */
    r->bytes[13] = port;
    memcpy(&r->bytes[16], &flags, 4);
    r->len = ATTR_LEN;
}

static void
rule_normal(struct rule *r, uint16_t priority)
{
    rule_init(r, IBV_FLOW_ATTR_NORMAL, priority, 1, 0);
}

/* Appends a zeroed spec of 'size' bytes with its header; returns it. */
static uint8_t *
rule_spec(struct rule *r, uint32_t type, uint16_t size)
{
    uint8_t *s = &r->bytes[r->len];
    uint16_t attr_size;

    CHECK(r->len + size <= sizeof r->bytes);
    memcpy(s, &type, 4);
    memcpy(s + 4, &size, 2);
    r->len += size;
    r->bytes[12]++;
    attr_size = r->len;
    memcpy(&r->bytes[8], &attr_size, 2);
    return s;
}

static const struct ibv_flow_attr *
rule_attr(const struct rule *r)
{
    return ALIGNED_CAST(const struct ibv_flow_attr *, r->bytes);
}

static void
spec_eth_type(struct rule *r, uint32_t inner, uint16_t type)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ETH | inner, ETH_SIZE);

    put_be16(s + ETH_V + F_ETYPE, type);
    put_be16(s + ETH_M + F_ETYPE, 0xffff);
}

static void
spec_eth_any(struct rule *r, uint32_t inner)
{
    rule_spec(r, IBV_FLOW_SPEC_ETH | inner, ETH_SIZE);
}

static void
spec_ipv4(struct rule *r, uint32_t inner, const char *dst,
          const char *dst_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_IPV4 | inner, IP4_SIZE);

    if (dst) {
        put_ip4(s + IP4_V + F_IP4_DST, dst);
        put_ip4(s + IP4_M + F_IP4_DST, dst_mask);
    }
}

static void
spec_ipv6(struct rule *r, uint32_t inner, const char *dst,
          const char *dst_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_IPV6 | inner, IP6_SIZE);

    if (dst) {
        put_ip6(s + IP6_V + F_IP6_DST, dst);
        put_ip6(s + IP6_M + F_IP6_DST, dst_mask);
    }
}

/* TCP or UDP; a negative port is not matched. */
static void
spec_l4(struct rule *r, uint32_t type, int sport, int dport)
{
    uint8_t *s = rule_spec(r, type, L4_SIZE);

    if (sport >= 0) {
        put_be16(s + L4_V + F_L4_SRC, sport);
        put_be16(s + L4_M + F_L4_SRC, 0xffff);
    }
    if (dport >= 0) {
        put_be16(s + L4_V + F_L4_DST, dport);
        put_be16(s + L4_M + F_L4_DST, 0xffff);
    }
}

static void
spec_vxlan(struct rule *r, uint32_t vni, uint32_t mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE);

    put_be32(s + VXLAN_V, vni);
    put_be32(s + VXLAN_M, mask);
}

static void
spec_gre(struct rule *r, uint16_t proto, uint16_t proto_mask, uint32_t key,
         uint32_t key_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_GRE, GRE_SIZE);

    put_be16(s + GRE_V + F_GRE_PROTO, proto);
    put_be16(s + GRE_M + F_GRE_PROTO, proto_mask);
    put_be32(s + GRE_V + F_GRE_KEY, key);
    put_be32(s + GRE_M + F_GRE_KEY, key_mask);
}

static void
spec_mpls(struct rule *r, uint32_t inner, uint32_t lse, uint32_t mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_MPLS | inner, MPLS_SIZE);

    put_be32(s + MPLS_V, lse);
    put_be32(s + MPLS_M, mask);
}

static void
spec_tag(struct rule *r, uint32_t tag)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_TAG, TAG_SIZE);

    memcpy(s + 8, &tag, 4);
}

static void
spec_drop(struct rule *r)
{
    rule_spec(r, IBV_FLOW_SPEC_ACTION_DROP, DROP_SIZE);
}

static void
spec_handle(struct rule *r, const struct ibv_flow_action *action)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE);

    memcpy(s + 8, &action, sizeof action);
}

static void
spec_count(struct rule *r, struct ibv_counters *counters)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE);

    memcpy(s + 8, &counters, sizeof counters);
}

/* Creates 'r' and checks the result and that a failure leaves nothing. */
static struct ibv_flow *
create_expect(struct hw_model_steering *st, struct ibv_qp *qp,
              const struct rule *r, int want, int line)
{
    size_t n_before = hw_model_steering_n_rules(st);
    struct ibv_flow *flow = (struct ibv_flow *) &flow;
    int error = hw_model_flow_create(st, qp, rule_attr(r), &flow);

    if (error != want) {
        ovs_abort(0, "line %d: hw_model_flow_create returned %d (%s), "
                  "expected %d (%s)", line, error, ovs_strerror(error),
                  want, ovs_strerror(want));
    }
    if (error) {
        if (flow || hw_model_steering_n_rules(st) != n_before) {
            ovs_abort(0, "line %d: failed create left state behind", line);
        }
    } else {
        if (!flow || hw_model_steering_n_rules(st) != n_before + 1
            || flow->context != qp->context) {
            ovs_abort(0, "line %d: bad flow after create", line);
        }
    }
    return flow;
}

#define CREATE_OK(ST, QP, R) create_expect(ST, QP, R, 0, __LINE__)
#define CREATE_FAIL(ST, QP, R, ERR) create_expect(ST, QP, R, ERR, __LINE__)

/* ---------------------------------------------------------------------- */
/* Packets.                                                               */
/* ---------------------------------------------------------------------- */

struct pkt {
    const char *dst, *src;      /* MACs. */
    int n_tags;
    uint16_t tpid[2], tci[2];
    uint16_t eth_type;
    int ip;                     /* 0, 4 or 6. */
    const char *ip_src, *ip_dst;
    uint8_t proto;
    uint8_t tos;
    uint16_t frag;              /* IPv4 frag_off / IPv6 fragment header
                                 * offset and M bit. */
    bool frag6;                 /* IPv6: add a fragment header. */
    int ip_opt_words;           /* IPv4 options, in 32-bit words. */
    uint32_t label;
    uint16_t sport, dport;
    size_t payload;
    const uint8_t *payload_data;    /* The payload bytes, if set (else
                                     * 0xa5 bytes). */
    size_t trunc;               /* Keep only this many bytes, if set. */
};

static struct pkt
pkt_tcp4(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    return (struct pkt) {
        .dst = "00:00:00:00:00:02", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_IP, .ip = 4, .ip_src = src, .ip_dst = dst,
        .proto = IPPROTO_TCP, .sport = sport, .dport = dport,
        .payload = 10,
    };
}

static struct pkt
pkt_udp4(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    struct pkt p = pkt_tcp4(src, dst, sport, dport);

    p.proto = IPPROTO_UDP;
    return p;
}

static struct pkt
pkt_tcp6(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    return (struct pkt) {
        .dst = "00:00:00:00:00:02", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_IPV6, .ip = 6, .ip_src = src, .ip_dst = dst,
        .proto = IPPROTO_TCP, .sport = sport, .dport = dport,
        .payload = 10,
    };
}

static struct pkt
pkt_arp(void)
{
    return (struct pkt) {
        .dst = "ff:ff:ff:ff:ff:ff", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_ARP, .payload = 28,
    };
}

static size_t
build_frame(const struct pkt *p, uint8_t *buf)
{
    size_t ofs = 0, l3;

    put_mac(buf, p->dst);
    put_mac(buf + 6, p->src);
    ofs = 12;
    for (int i = 0; i < p->n_tags; i++) {
        put_be16(buf + ofs, p->tpid[i]);
        put_be16(buf + ofs + 2, p->tci[i]);
        ofs += 4;
    }
    put_be16(buf + ofs, p->eth_type);
    ofs += 2;
    l3 = ofs;

    if (p->ip == 4) {
        size_t ihl = 20 + 4 * p->ip_opt_words;

        memset(buf + ofs, 0, ihl);
        buf[ofs] = 0x40 | (ihl / 4);
        buf[ofs + 1] = p->tos;
        put_be16(buf + ofs + 6, p->frag);
        buf[ofs + 8] = 64;
        buf[ofs + 9] = p->proto;
        put_ip4(buf + ofs + 12, p->ip_src);
        put_ip4(buf + ofs + 16, p->ip_dst);
        for (size_t i = 20; i < ihl; i++) {
            buf[ofs + i] = 1;       /* NOP options. */
        }
        ofs += ihl;
    } else if (p->ip == 6) {
        put_be32(buf + ofs, (6u << 28) | ((uint32_t) p->tos << 20)
                 | p->label);
        put_be16(buf + ofs + 4, 0);
        buf[ofs + 6] = p->frag6 ? 44 : p->proto;
        buf[ofs + 7] = 64;
        put_ip6(buf + ofs + 8, p->ip_src);
        put_ip6(buf + ofs + 24, p->ip_dst);
        ofs += 40;
        if (p->frag6) {
            buf[ofs] = p->proto;
            buf[ofs + 1] = 0;
            put_be16(buf + ofs + 2, p->frag);
            put_be32(buf + ofs + 4, 0x1234);
            ofs += 8;
        }
    }

    if (p->ip) {
        if (p->proto == IPPROTO_TCP) {
            memset(buf + ofs, 0, 20);
            put_be16(buf + ofs, p->sport);
            put_be16(buf + ofs + 2, p->dport);
            buf[ofs + 12] = 5 << 4;
            ofs += 20;
        } else if (p->proto == IPPROTO_UDP) {
            memset(buf + ofs, 0, 8);
            put_be16(buf + ofs, p->sport);
            put_be16(buf + ofs + 2, p->dport);
            ofs += 8;
        }
        if (p->ip == 4) {
            put_be16(buf + l3 + 2, ofs - l3 + p->payload);
        }
    }
    if (p->payload_data) {
        memcpy(buf + ofs, p->payload_data, p->payload);
    } else {
        memset(buf + ofs, 0xa5, p->payload);
    }
    ofs += p->payload;
    return p->trunc && p->trunc < ofs ? p->trunc : ofs;
}

static void
parse_pkt(const struct pkt *p, struct hw_model_parsed *parsed, size_t *lenp)
{
    uint8_t buf[512];
    size_t len = build_frame(p, buf);
    struct dp_packet *packet = dp_packet_new(len);

    dp_packet_put(packet, buf, len);
    hw_model_parse(packet, parsed);
    dp_packet_delete(packet);
    if (lenp) {
        *lenp = len;
    }
}

static struct hw_model_verdict
run_dir(struct hw_model_steering *st, const struct pkt *p, bool egress)
{
    struct hw_model_verdict verdict;
    struct hw_model_parsed parsed;
    size_t len;

    parse_pkt(p, &parsed, &len);
    hw_model_steering_lookup(st, &parsed, len, egress, &verdict);
    return verdict;
}

static struct hw_model_verdict
run(struct hw_model_steering *st, const struct pkt *p)
{
    return run_dir(st, p, false);
}

static size_t
frame_len(const struct pkt *p)
{
    uint8_t buf[512];

    return build_frame(p, buf);
}

static void
destroy_flow(struct hw_model_steering *st, struct ibv_flow *flow)
{
    CHECK_ERR(hw_model_flow_destroy(st, flow), 0);
}

/* ---------------------------------------------------------------------- */
/* Parser.                                                                */
/* ---------------------------------------------------------------------- */

static void
test_parser(void)
{
    struct hw_model_parsed pp;
    struct pkt p;

    /* Plain TCP/IPv4. */
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1234, 80);
    p.tos = 0xb9;
    parse_pkt(&p, &pp, NULL);
    CHECK(!pp.has_cvlan && pp.eth_type == htons(ETH_TYPE_IP));
    CHECK(pp.ip_version == 4 && pp.ip_proto == IPPROTO_TCP);
    CHECK(pp.tos == 0xb9 && pp.ttl == 64);
    CHECK(pp.ipv4_src == htonl(0x0a000001));
    CHECK(pp.ipv4_dst == htonl(0x0a000002));
    CHECK(pp.has_l4 && pp.l4_src == htons(1234) && pp.l4_dst == htons(80));
    CHECK(!pp.is_fragment && !pp.is_later_fragment);
    CHECK(eth_addr_equals(pp.dst, (struct eth_addr) ETH_ADDR_C(00, 00, 00,
                                                              00, 00, 02)));

    /* IPv4 options: the L4 header follows them. */
    p.ip_opt_words = 3;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.has_l4 && pp.l4_src == htons(1234) && pp.l4_dst == htons(80));

    /* 802.1Q tag: cvlan, TCI, ethertype after the tag. */
    p = pkt_udp4("10.0.0.1", "10.0.0.2", 5, 6);
    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 0xa064;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.has_cvlan && pp.vlan_tci == htons(0xa064));
    CHECK(pp.eth_type == htons(ETH_TYPE_IP) && pp.ip_version == 4);
    CHECK(pp.has_l4 && pp.ip_proto == IPPROTO_UDP);

    /* 802.1ad outer tag: no cvlan, ethertype after the last tag. */
    p.n_tags = 2;
    p.tpid[0] = ETH_TYPE_VLAN_8021AD;
    p.tci[0] = 0x0010;
    p.tpid[1] = ETH_TYPE_VLAN_8021Q;
    p.tci[1] = 0x0020;
    parse_pkt(&p, &pp, NULL);
    CHECK(!pp.has_cvlan && pp.vlan_tci == 0);
    CHECK(pp.eth_type == htons(ETH_TYPE_IP) && pp.has_l4);

    /* Q-in-Q with an 802.1Q outer tag: the first tag's TCI. */
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.has_cvlan && pp.vlan_tci == htons(0x0010));
    CHECK(pp.eth_type == htons(ETH_TYPE_IP));

    /* Fragments: first fragment keeps L4, later ones have none. */
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    p.frag = 0x2000;                        /* MF, offset 0. */
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.is_fragment && !pp.is_later_fragment && pp.has_l4);
    p.frag = 0x0010;                        /* Offset 128, last. */
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.is_fragment && pp.is_later_fragment && !pp.has_l4);
    CHECK(pp.l4_src == 0 && pp.l4_dst == 0 && pp.ip_proto == IPPROTO_TCP);

    /* IPv6 with TCP, traffic class and flow label. */
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 10, 20);
    p.tos = 0x28;
    p.label = 0xabcde;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.ip_version == 6 && pp.ip_proto == IPPROTO_TCP);
    CHECK(pp.tos == 0x28 && pp.ipv6_label == htonl(0xabcde));
    CHECK(pp.has_l4 && pp.l4_dst == htons(20) && !pp.is_fragment);
    {
        struct in6_addr want;

        put_ip6((uint8_t *) &want, "2001:db8::2");
        CHECK(!memcmp(&pp.ipv6_dst, &want, 16));
    }

    /* IPv6 fragment header: fragment detected, no L4 claimed. */
    p.frag6 = true;
    p.frag = 0x0001;                        /* M, offset 0. */
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.is_fragment && !pp.is_later_fragment);
    CHECK(pp.ip_proto == 44 && !pp.has_l4);
    p.frag = 0x0100;                        /* Offset 32. */
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.is_fragment && pp.is_later_fragment && !pp.has_l4);

    /* Truncated L4 header: IP parsed, no ports. */
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    p.trunc = 14 + 20 + 19;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.ip_version == 4 && !pp.has_l4);
    p = pkt_udp4("10.0.0.1", "10.0.0.2", 1, 2);
    p.payload = 0;
    p.trunc = 14 + 20 + 8;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.has_l4 && pp.l4_dst == htons(2));

    /* Truncated IP header: not IP. */
    p.trunc = 14 + 19;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.eth_type == htons(ETH_TYPE_IP) && pp.ip_version == 0);

    /* Truncated in a VLAN tag, and tiny frames: safe, nothing claimed. */
    p = pkt_udp4("10.0.0.1", "10.0.0.2", 1, 2);
    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.trunc = 16;
    parse_pkt(&p, &pp, NULL);
    CHECK(!pp.has_cvlan && pp.eth_type == 0 && pp.ip_version == 0);
    for (size_t n = 0; n < 14; n++) {
        p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
        p.trunc = n ? n : 1;
        parse_pkt(&p, &pp, NULL);
        CHECK(pp.eth_type == 0 && pp.ip_version == 0 && !pp.has_l4);
    }

    /* Not IP. */
    p = pkt_arp();
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.eth_type == htons(ETH_TYPE_ARP) && pp.ip_version == 0);
    CHECK(eth_addr_is_broadcast(pp.dst));

    /* Ethertype IPv4 with an IPv6 header: not IP. */
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 1, 2);
    p.eth_type = ETH_TYPE_IP;
    parse_pkt(&p, &pp, NULL);
    CHECK(pp.ip_version == 0 && !pp.has_l4);
}

/* ---------------------------------------------------------------------- */
/* Acceptance.                                                            */
/* ---------------------------------------------------------------------- */

static void
test_accept_good_rules(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c;
    struct ibv_flow *f[8];
    struct rule r;
    int n = 0;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* No specs at all: match everything. */
    rule_normal(&r, 0);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* The VXLAN decap upcall rule of hw-apis.md 1.2: 9 specs, 224 bytes. */
    rule_normal(&r, 1);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 42, 0xffffff);
    spec_eth_any(&r, IBV_FLOW_SPEC_INNER);
    spec_ipv4(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    spec_l4(&r, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, -1, 80);
    spec_tag(&r, 7);
    spec_count(&r, c);
    CHECK(r.len == 224 && r.bytes[12] == 9);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* UD QP, the highest priority, IPv6 + UDP, egress, DONT_TRAP. */
    rule_normal(&r, 15);
    spec_ipv6(&r, 0, "2001:db8::", "ffff:ffff::");
    spec_l4(&r, IBV_FLOW_SPEC_UDP, 53, -1);
    f[n++] = CREATE_OK(st, &qp_ud, &r);

    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 3, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS | IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_eth_type(&r, 0, ETH_TYPE_IPV6);
    spec_handle(&r, &act1);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* DROP with COUNT; MPLS ethertype with an IP spec; the largest tag. */
    rule_normal(&r, 2);
    spec_eth_type(&r, 0, ETH_TYPE_MPLS);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_drop(&r);
    spec_count(&r, c);
    f[n++] = CREATE_OK(st, &qp1, &r);

    rule_normal(&r, 2);
    spec_ipv4(&r, 0, "10.9.9.9", "255.255.255.255");
    spec_tag(&r, (1u << 24) - 1);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* A non-zero attr.comp_mask is not passed on by libibverbs 44, so the
     * hardware never sees it. */
    rule_normal(&r, 4);
    spec_ipv4(&r, 0, "10.8.8.8", "255.255.255.255");
    r.bytes[0] = 1;
    f[n++] = CREATE_OK(st, &qp1, &r);

    CHECK(hw_model_steering_n_rules(st) == n);
    for (int i = 0; i < n; i++) {
        destroy_flow(st, f[i]);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Rejections, one per row of hw-apis.md 1.7 that applies.                */
/* ---------------------------------------------------------------------- */

static void
test_reject_attr(void)
{
    struct hw_model_steering *st = new_steering();
    struct hw_model_limits limits;
    struct rule r;

    /* EPERM without CAP_NET_RAW. */
    limits = default_limits();
    limits.cap_net_raw = false;
    {
        struct hw_model_steering *noperm = hw_model_steering_create(&limits);

        rule_normal(&r, 0);
        CREATE_FAIL(noperm, &qp1, &r, EPERM);
        /* libibverbs' spec checks come before the kernel's. */
        rule_spec(&r, 0x99, 8);
        CREATE_FAIL(noperm, &qp1, &r, EINVAL);
        hw_model_steering_destroy(noperm);
    }

    /* Flags: reserved bit 3 and above in the core, bit 0 in mlx5. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1u << 3);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1u << 31);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The core's flag check comes before mlx5's priority check. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 16, 1, 1u << 3);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 16, 1, 1);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);

    /* DONT_TRAP and EGRESS on leftovers. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* More than max_specs specs; exactly max_specs is fine. */
    rule_normal(&r, 0);
    for (int i = 0; i < 10; i++) {
        spec_eth_any(&r, 0);
    }
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    spec_eth_any(&r, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Port 0 and past phys_port_cnt. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 2, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* QP types other than UD and RAW_PACKET. */
    rule_normal(&r, 0);
    CREATE_FAIL(st, &qp_rc, &r, EINVAL);
    CREATE_FAIL(st, &qp_uc, &r, EINVAL);
    destroy_flow(st, CREATE_OK(st, &qp_ud, &r));

    /* Priority above 15 is ENOMEM on mlx5, checked after the core. */
    rule_normal(&r, 16);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);
    rule_normal(&r, 0xffff);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);
    CREATE_FAIL(st, &qp_rc, &r, EINVAL);
    rule_normal(&r, 15);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Unknown rule type. */
    rule_init(&r, 4, 0, 1, 0);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* SNIFFER needs the capability. */
    rule_init(&r, IBV_FLOW_ATTR_SNIFFER, 0, 1, 0);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    limits = default_limits();
    limits.sniffer = true;
    {
        struct hw_model_steering *sn = hw_model_steering_create(&limits);
        struct hw_model_verdict v;
        struct pkt p = pkt_arp();
        struct ibv_flow *f = CREATE_OK(sn, &qp1, &r);
        struct ds s = DS_EMPTY_INITIALIZER;

        /* The sniffer sees both directions and steers nothing. */
        v = run(sn, &p);
        CHECK(!v.matched);
        v = run_dir(sn, &p, true);
        CHECK(!v.matched);
        hw_model_steering_format(sn, &s);
        CHECK(strstr(ds_cstr(&s), "ingress sniffer prio=0 core=sniffer")
              && strstr(ds_cstr(&s), "egress sniffer")
              && strstr(ds_cstr(&s), "hits=1 bytes=42"));
        ds_destroy(&s);
        destroy_flow(sn, f);
        hw_model_steering_destroy(sn);
    }

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

static void
test_reject_specs(void)
{
    struct hw_model_steering *st = new_steering();
    struct rule r;
    uint8_t *s;

    /* Unknown spec types, and INNER where libibverbs has no such case. */
    static const uint32_t bad_types[] = {
        0x99, 0x21, IBV_FLOW_SPEC_ETH | 0x200,
        IBV_FLOW_SPEC_GRE | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_VXLAN_TUNNEL | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_TAG | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_DROP | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_COUNT | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_HANDLE | IBV_FLOW_SPEC_INNER,
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_types); i++) {
        rule_normal(&r, 0);
        rule_spec(&r, bad_types[i], 16);
        CREATE_FAIL(st, &qp1, &r, EINVAL);
    }
    /* The INNER forms libibverbs knows are accepted. */
    rule_normal(&r, 0);
    spec_eth_any(&r, IBV_FLOW_SPEC_INNER);
    spec_l4(&r, IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, -1, -1);
    rule_spec(&r, IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER, MPLS_SIZE);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* A spec placed after C struct padding (offset 24, where a plain
     * struct would put it) is read from offset 20 like libibverbs does:
     * the padding reads as spec type 0. */
    rule_normal(&r, 0);
    r.len += 4;
    spec_eth_any(&r, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* IPV6 sizes: filter (size - 8) / 2 must reach hop_limit (39). */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 39);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 38 + 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 6);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The padding byte of the 40-byte mask is past the kernel's filter. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_M + F_IP6_PAD, 1);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* ... its value byte is ignored. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_V + F_IP6_PAD, 1);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* A longer (newer) spec: mask at val + 44, extra mask bytes zero. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 44);
    put_ip6(s + 8 + F_IP6_DST, "2001:db8::1");
    put_ip6(s + 8 + 44 + F_IP6_DST, "ffff:ffff:ffff:ffff::");
    CREATE_FAIL(st, &qp1, &r, EINVAL);      /* Value outside the mask. */
    put_ip6(s + 8 + 44 + F_IP6_DST, "ffff:ffff:ffff:ffff::ffff");
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + 8 + 44 + 42, 1);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* IPV4_EXT sizes. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE - 2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, 8 + 2 * 16);
    put_u8(s + 8 + F_IP4_PROTO, 17);
    put_u8(s + 8 + 16 + F_IP4_PROTO, 0xff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + 8 + 16 + 13, 0x80);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* VXLAN sizes. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE - 2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Unsupported mask bits. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_TTL, 0xff);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_FLAGS, 0x40);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_M + F_IP6_HLIM, 0xff);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* ... but their values alone are ignored. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_TTL, 64);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_GRE, GRE_SIZE);
    put_be16(s + GRE_M + F_GRE_FLAGS, 0x2000);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ESP, ESP_SIZE);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* MPLS right after UDP needs a flex parser the model lacks. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 6635);
    s = rule_spec(&r, IBV_FLOW_SPEC_MPLS, MPLS_SIZE);
    put_be32(s + MPLS_M, 0xfffff000);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    put_be32(s + MPLS_M, 0);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Ranges: flow label (val or mask) and VNI. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_be32(s + IP6_M + F_IP6_LABEL, 0xfffff);
    put_be32(s + IP6_V + F_IP6_LABEL, 0x12345);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_be32(s + IP6_M + F_IP6_LABEL, 0x1fffff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The value alone, with its low 20 bits inside the mask. */
    put_be32(s + IP6_M + F_IP6_LABEL, 0xfffff);
    put_be32(s + IP6_V + F_IP6_LABEL, 0x112345);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_vxlan(&r, 0xffffff, 0xffffff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    spec_vxlan(&r, 0, 0x1000000);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_vxlan(&r, 0x1000000, 0xffffff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

static void
test_reject_match(void)
{
    struct hw_model_steering *st = new_steering();
    struct rule r;
    uint8_t *s;

    /* Value bits outside the mask, field by field. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_mac(s + ETH_V + F_DMAC, "00:00:00:00:00:03");
    put_mac(s + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:fe");
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_mac(s + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:ff");
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.0");
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_TCP, L4_SIZE);
    put_be16(s + L4_V + F_L4_DST, 0x1ff);
    put_be16(s + L4_M + F_L4_DST, 0xff00);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* A VLAN value is compared only when its mask is set. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_VLAN, 100);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_be16(s + ETH_M + F_VLAN, 0xf000);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_be16(s + ETH_M + F_VLAN, 0x0fff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Same for ip_protocol: a zero mask leaves it unset. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_PROTO, IPPROTO_UDP);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, 80);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* ... set, it must agree with the L4 spec (set_proto). */
    put_u8(s + IP4X_M + F_IP4_PROTO, 0xff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_u8(s + IP4X_V + F_IP4_PROTO, IPPROTO_TCP);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + IP4X_M + F_IP4_PROTO, 0x0f);     /* Same value, other mask. */
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* A protocol value outside its mask. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_PROTO, 0x16);
    put_u8(s + IP4X_M + F_IP4_PROTO, 0x0f);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* TCP and UDP together; IPv6 next header against UDP. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, -1);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_V + F_IP6_NEXT, IPPROTO_TCP);
    put_u8(s + IP6_M + F_IP6_NEXT, 0xff);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* Outer and inner protocols are separate. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_l4(&r, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, -1, -1);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* GRE sets ip_protocol 47. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_GRE, GRE_SIZE);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Ethertype and IP spec of one layer must agree, with a full mask. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IPV6);
    spec_ipv4(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv6(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_ETYPE, 0x0800);
    put_be16(s + ETH_M + F_ETYPE, 0xff00);
    spec_ipv4(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_IP);
    spec_ipv6(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* ... a different layer does not count. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_ipv6(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* ... and the ethertype check runs before the per-spec checks. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_TTL, 0xff);
    spec_eth_type(&r, 0, ETH_TYPE_ARP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

static void
test_reject_actions(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c, *empty, *c_b;
    struct rule r;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &empty), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_b, &c_b), 0);
    CHECK_ERR(hw_model_counters_attach(c_b,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* Tag range. */
    rule_normal(&r, 0);
    spec_tag(&r, 1u << 24);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Tag on leftovers. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1, 0);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Two COUNT specs (libmlx5 catches it first, even across objects). */
    rule_normal(&r, 0);
    spec_count(&r, c);
    spec_count(&r, c);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* ... and before the kernel's ENOMEM. */
    rule_normal(&r, 99);
    spec_count(&r, c);
    spec_count(&r, c);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* A counters object without attached points. */
    rule_normal(&r, 0);
    spec_count(&r, empty);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* A counters object or a handle that is not this device's. */
    rule_normal(&r, 0);
    spec_count(&r, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_count(&r, c_b);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, &act_b);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    destroy_flow(st, CREATE_OK(st, &qp_b, &r));

    /* Two handles. */
    rule_normal(&r, 0);
    spec_handle(&r, &act1);
    spec_handle(&r, &act2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* DROP with TAG or a handle (model-conservative). */
    rule_normal(&r, 0);
    spec_drop(&r);
    spec_tag(&r, 5);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, &act1);
    spec_drop(&r);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* None of the failures bound the counters: they can go. */
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK_ERR(hw_model_counters_destroy(empty), 0);
    CHECK_ERR(hw_model_counters_destroy(c_b), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

static void
test_table_full(void)
{
    struct hw_model_limits limits = default_limits();
    struct hw_model_steering *st;
    struct ibv_flow *f[4];
    struct rule r;

    limits.max_rules = 2;
    st = hw_model_steering_create(&limits);

    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");
    f[0] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    f[1] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    CREATE_FAIL(st, &qp1, &r, ENOSPC);
    /* A DONT_TRAP rule of the same priority lives in another table. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 5, 1, IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    f[2] = CREATE_OK(st, &qp1, &r);
    /* An identical rule merges and takes no room. */
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    f[3] = CREATE_OK(st, &qp2, &r);
    /* Freed room can be used again. */
    destroy_flow(st, f[0]);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    f[0] = CREATE_OK(st, &qp1, &r);

    for (int i = 0; i < 4; i++) {
        destroy_flow(st, f[i]);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Matching.                                                              */
/* ---------------------------------------------------------------------- */

static void
test_match_masks(void)
{
    struct hw_model_steering *st = new_steering();
    struct hw_model_verdict v;
    struct ibv_flow *f[4];
    struct pkt p;
    struct rule r;
    uint8_t *s;

    /* A /24 destination prefix. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.1.2.0", "255.255.255.0");
    spec_tag(&r, 1);
    f[0] = CREATE_OK(st, &qp1, &r);

    p = pkt_tcp4("10.0.0.1", "10.1.2.77", 1, 2);
    v = run(st, &p);
    CHECK(v.matched && !v.drop && v.tag == 1 && v.qp == &qp1 && !v.reformat);
    p = pkt_udp4("10.0.0.1", "10.1.3.77", 1, 2);
    v = run(st, &p);
    CHECK(!v.matched && v.tag == 0 && !v.qp);
    /* An IPv4 spec never matches IPv6 or ARP. */
    p = pkt_tcp6("::1", "::2", 1, 2);
    CHECK(!run(st, &p).matched);
    p = pkt_arp();
    CHECK(!run(st, &p).matched);

    /* A destination MAC group-bit mask, and a source MAC. */
    rule_normal(&r, 1);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_mac(s + ETH_V + F_DMAC, "01:00:00:00:00:00");
    put_mac(s + ETH_M + F_DMAC, "01:00:00:00:00:00");
    put_mac(s + ETH_V + F_SMAC, "00:00:00:00:00:01");
    put_mac(s + ETH_M + F_SMAC, "ff:ff:ff:ff:ff:ff");
    spec_tag(&r, 2);
    f[1] = CREATE_OK(st, &qp1, &r);
    p = pkt_arp();
    CHECK(run(st, &p).tag == 2);
    p.src = "00:00:00:00:00:09";
    CHECK(!run(st, &p).matched);
    p = pkt_arp();
    p.dst = "00:00:00:00:00:02";
    CHECK(!run(st, &p).matched);

    /* TCP with a port range by bit mask (1024..2047), IPv6 traffic class
     * by mask, and zero-mask specs matching the type only. */
    rule_normal(&r, 2);
    s = rule_spec(&r, IBV_FLOW_SPEC_TCP, L4_SIZE);
    put_be16(s + L4_V + F_L4_DST, 0x0400);
    put_be16(s + L4_M + F_L4_DST, 0xfc00);
    spec_tag(&r, 3);
    f[2] = CREATE_OK(st, &qp1, &r);
    p = pkt_tcp4("1.1.1.1", "2.2.2.2", 9, 1500);
    CHECK(run(st, &p).tag == 3);
    p.dport = 2048;
    CHECK(!run(st, &p).matched);
    /* ... the TCP spec implies TCP: UDP with the same port misses. */
    p = pkt_udp4("1.1.1.1", "2.2.2.2", 9, 1500);
    CHECK(!run(st, &p).matched);
    /* ... and IPv6 TCP matches (no IP spec). */
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 9, 1500);
    CHECK(run(st, &p).tag == 3);

    rule_normal(&r, 3);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_V + F_IP6_TCLASS, 0x28);
    put_u8(s + IP6_M + F_IP6_TCLASS, 0xfc);     /* DSCP only. */
    put_be32(s + IP6_V + F_IP6_LABEL, 0xabcde);
    put_be32(s + IP6_M + F_IP6_LABEL, 0xfffff);
    spec_tag(&r, 4);
    f[3] = CREATE_OK(st, &qp1, &r);
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 9, 9);
    p.tos = 0x2b;                               /* Same DSCP, ECN 3. */
    p.label = 0xabcde;
    CHECK(run(st, &p).tag == 4);
    p.label = 0xabcdf;
    CHECK(!run(st, &p).matched);

    for (int i = 0; i < 4; i++) {
        destroy_flow(st, f[i]);
    }
    hw_model_steering_destroy(st);
}

static void
test_match_vlan(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[2];
    struct pkt p;
    struct rule r;
    uint8_t *s;

    /* VID 100 with the PCP ignored. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_VLAN, 100);
    put_be16(s + ETH_M + F_VLAN, 0x0fff);
    spec_tag(&r, 10);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Ethertype IPv4, with no VLAN mask: tagged and untagged. */
    rule_normal(&r, 1);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_tag(&r, 11);
    f[1] = CREATE_OK(st, &qp1, &r);

    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    CHECK(run(st, &p).tag == 11);               /* Untagged. */

    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 0xe000 | 100;
    CHECK(run(st, &p).tag == 10);               /* VID 100, PCP 7. */
    p.tci[0] = 101;
    CHECK(run(st, &p).tag == 11);               /* Tagged, other VID:
                                                 * ethertype after tag. */

    /* An 802.1ad tag is not a C-VLAN. */
    p.tpid[0] = ETH_TYPE_VLAN_8021AD;
    p.tci[0] = 100;
    CHECK(run(st, &p).tag == 11);
    /* Q-in-Q: the first (outer 802.1Q) tag is matched. */
    p.n_tags = 2;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 100;
    p.tpid[1] = ETH_TYPE_VLAN_8021Q;
    p.tci[1] = 200;
    CHECK(run(st, &p).tag == 10);
    p.tci[0] = 200;
    p.tci[1] = 100;
    CHECK(run(st, &p).tag == 11);

    /* ARP on VLAN 100 still matches the VLAN rule; untagged ARP none. */
    p = pkt_arp();
    CHECK(!run(st, &p).matched);
    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 100;
    CHECK(run(st, &p).tag == 10);

    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);

    /* PCP only. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_VLAN, 0xa000);
    put_be16(s + ETH_M + F_VLAN, 0xe000);
    spec_tag(&r, 13);
    f[0] = CREATE_OK(st, &qp1, &r);
    p = pkt_arp();
    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 0xa064;
    CHECK(run(st, &p).tag == 13);
    p.tci[0] = 0x2064;
    CHECK(!run(st, &p).matched);
    destroy_flow(st, f[0]);

    /* VID 0 (priority-tagged) still requires an 802.1Q tag. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_M + F_VLAN, 0x0fff);
    spec_tag(&r, 12);
    f[0] = CREATE_OK(st, &qp1, &r);
    p = pkt_arp();
    CHECK(!run(st, &p).matched);
    p.n_tags = 1;
    p.tpid[0] = ETH_TYPE_VLAN_8021AD;
    p.tci[0] = 0;
    CHECK(!run(st, &p).matched);
    p.tpid[0] = ETH_TYPE_VLAN_8021Q;
    p.tci[0] = 0x2000;
    CHECK(run(st, &p).tag == 12);
    destroy_flow(st, f[0]);

    hw_model_steering_destroy(st);
}

static void
test_match_fragments_and_truncation(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[3];
    struct pkt p;
    struct rule r;

    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);     /* Any UDP port. */
    spec_tag(&r, 20);
    f[0] = CREATE_OK(st, &qp1, &r);

    rule_normal(&r, 1);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_tag(&r, 21);
    f[1] = CREATE_OK(st, &qp1, &r);

    rule_normal(&r, 2);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, 0);      /* TCP port 0. */
    spec_tag(&r, 22);
    f[2] = CREATE_OK(st, &qp1, &r);

    p = pkt_udp4("10.0.0.1", "10.0.0.2", 7, 8);
    CHECK(run(st, &p).tag == 20);
    p.frag = 0x2000;                            /* First fragment. */
    CHECK(run(st, &p).tag == 20);
    p.frag = 0x00b9;                            /* Later fragment. */
    CHECK(run(st, &p).tag == 21);

    /* A later TCP fragment reads no ports: not even "port 0" matches. */
    p = pkt_tcp4("10.0.0.1", "10.0.0.3", 0, 0);
    CHECK(run(st, &p).tag == 22);
    p.frag = 0x0001;
    CHECK(!run(st, &p).matched);

    /* A truncated UDP header: the L3 rule takes it. */
    p = pkt_udp4("10.0.0.1", "10.0.0.2", 7, 8);
    p.payload = 0;
    p.trunc = 14 + 20 + 7;
    CHECK(run(st, &p).tag == 21);
    /* Tiny frames match nothing and are safe. */
    for (size_t n = 1; n < 14; n++) {
        p.trunc = n;
        CHECK(!run(st, &p).matched);
    }

    /* IPv6 fragments do not match an L4 spec either. */
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 0, 0);
    CHECK(run(st, &p).tag == 22);
    p.frag6 = true;
    CHECK(!run(st, &p).matched);

    for (int i = 0; i < 3; i++) {
        destroy_flow(st, f[i]);
    }
    hw_model_steering_destroy(st);
}

static void
test_match_tunnel_specs(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[6];
    struct pkt p;
    struct rule r;

    /* VXLAN VNI and INNER specs with masks never match a packet the parser
     * did not classify as tunnelled, even one to port 4789. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 42, 0xffffff);
    spec_tag(&r, 30);
    f[0] = CREATE_OK(st, &qp1, &r);

    rule_normal(&r, 1);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_IP);
    spec_tag(&r, 31);
    f[1] = CREATE_OK(st, &qp1, &r);

    /* Masks on VNI 0 or on inner fields equal to 0 need a tunnel too. */
    rule_normal(&r, 0);
    spec_vxlan(&r, 0, 0xffffff);
    spec_tag(&r, 33);
    f[3] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 0);
    {
        uint8_t *s = rule_spec(&r, IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER,
                               ETH_SIZE);

        put_mac(s + ETH_M + F_DMAC, "01:00:00:00:00:00");
    }
    spec_tag(&r, 34);
    f[4] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, -1, -1);
    spec_tag(&r, 35);
    f[5] = CREATE_OK(st, &qp1, &r);

    /* A zero-mask VXLAN spec adds nothing: plain UDP 4789 matches. */
    rule_normal(&r, 2);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 0, 0);
    spec_tag(&r, 32);
    f[2] = CREATE_OK(st, &qp1, &r);

    p = pkt_udp4("10.0.0.1", "10.0.0.2", 5555, 4789);
    CHECK(run(st, &p).tag == 32);
    p = pkt_arp();
    CHECK(!run(st, &p).matched);

    for (int i = 0; i < 6; i++) {
        destroy_flow(st, f[i]);
    }
    hw_model_steering_destroy(st);
}

static void
test_priorities(void)
{
    struct hw_model_steering *st = new_steering();
    struct hw_model_verdict v;
    struct ibv_flow *f[8];
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct ds s = DS_EMPTY_INITIALIZER;
    struct rule r;

    /* Created in reverse order of priority: priority decides. */
    rule_normal(&r, 7);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_tag(&r, 7);
    f[0] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 3);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, 80);
    spec_tag(&r, 3);
    f[1] = CREATE_OK(st, &qp2, &r);
    v = run(st, &p);
    CHECK(v.tag == 3 && v.qp == &qp2);

    /* Same priority, overlapping: the first created wins in the model
     * (undefined on hardware). */
    rule_normal(&r, 3);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_tag(&r, 33);
    f[2] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).tag == 3);
    destroy_flow(st, f[1]);
    CHECK(run(st, &p).tag == 33);
    destroy_flow(st, f[2]);
    CHECK(run(st, &p).tag == 7);

    /* DONT_TRAP at the same priority is looked up first, delivers, and lets
     * the packet go on to the trapping rule, which gives the verdict. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 7, 1, IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, -1);
    spec_tag(&r, 70);
    f[1] = CREATE_OK(st, &qp2, &r);
    v = run(st, &p);
    CHECK(v.tag == 7 && v.qp == &qp1);
    /* ... alone, its own QP gets the packet. */
    p.dport = 81;
    p.ip_dst = "10.0.0.99";
    CHECK(run(st, &p).tag == 7);
    p = pkt_tcp6("::1", "::2", 1, 80);
    v = run(st, &p);
    CHECK(v.matched && v.tag == 70 && v.qp == &qp2);
    /* ... and a DONT_TRAP DROP is final. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_ipv6(&r, 0, NULL, NULL);
    spec_drop(&r);
    f[2] = CREATE_OK(st, &qp1, &r);
    v = run(st, &p);
    CHECK(v.matched && v.drop && !v.qp);

    /* Multicast-only rules go after every regular priority. */
    rule_normal(&r, 0);
    {
        uint8_t *sp = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);

        put_mac(sp + ETH_V + F_DMAC, "01:00:5e:00:00:01");
        put_mac(sp + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:ff");
    }
    spec_tag(&r, 100);
    f[3] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 15);
    spec_eth_any(&r, 0);
    spec_tag(&r, 115);
    f[4] = CREATE_OK(st, &qp1, &r);
    p = pkt_arp();
    p.dst = "01:00:5e:00:00:01";
    CHECK(run(st, &p).tag == 115);
    destroy_flow(st, f[4]);
    CHECK(run(st, &p).tag == 100);

    /* An IPv4 multicast first spec counts too; unicast does not. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "239.1.1.1", "255.255.255.255");
    spec_tag(&r, 101);
    f[4] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 5);             /* Before the prio 7 IPv4 rule. */
    spec_ipv4(&r, 0, NULL, NULL);
    spec_tag(&r, 114);
    f[5] = CREATE_OK(st, &qp1, &r);
    p = pkt_udp4("10.0.0.1", "239.1.1.1", 1, 2);
    CHECK(run(st, &p).tag == 114);
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");
    spec_ipv4(&r, 0, NULL, NULL);   /* Overwrites the address. */
    spec_tag(&r, 102);
    f[6] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).tag == 102);

    hw_model_steering_format(st, &s);
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=0 core=mcast: "
                 "eth(dst=01:00:5e:00:00:01) actions=tag(100)"));
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=0 core=mcast: "
                 "ipv4(dst=239.1.1.1) actions=tag(101)"));
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=7 core=14 dont_trap: "
                 "tcp() actions=tag(70) qp=102"));
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=7 core=15: ipv4() "
                 "actions=tag(7) qp=101"));
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=0 core=0 dont_trap: "
                 "ipv6() actions=drop() qp=101"));
    CHECK(strstr(ds_cstr(&s), "ingress normal prio=0 core=1: "
                 "ipv4(dst=10.0.0.1) ipv4() actions=tag(102)"));
    ds_destroy(&s);

    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);
    destroy_flow(st, f[2]);
    destroy_flow(st, f[3]);
    destroy_flow(st, f[4]);
    destroy_flow(st, f[5]);
    destroy_flow(st, f[6]);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

static void
test_leftovers_and_egress(void)
{
    struct hw_model_steering *st = new_steering();
    struct hw_model_verdict v;
    struct ibv_flow *f[6];
    struct pkt p;
    struct rule r;

    /* MC_DEFAULT: multicast only. */
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1, 0);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");    /* Ignored. */
    f[0] = CREATE_OK(st, &qp2, &r);
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    CHECK(!run(st, &p).matched);
    p = pkt_arp();
    v = run(st, &p);
    CHECK(v.matched && v.qp == &qp2 && v.tag == 0);

    /* ALL_DEFAULT: everything else, after every NORMAL rule, whatever its
     * priority. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
    spec_drop(&r);                                      /* Ignored. */
    f[1] = CREATE_OK(st, &qp1, &r);
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    v = run(st, &p);
    CHECK(v.matched && !v.drop && v.qp == &qp1);
    rule_normal(&r, 15);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_tag(&r, 9);
    f[2] = CREATE_OK(st, &qp2, &r);
    v = run(st, &p);
    CHECK(v.tag == 9 && v.qp == &qp2);
    /* Multicast: MC_DEFAULT came first and shares the entry. */
    p = pkt_arp();
    v = run(st, &p);
    CHECK(v.matched && v.qp == &qp2);

    /* Egress rules live apart from ingress. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, IBV_FLOW_ATTR_FLAGS_EGRESS);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_handle(&r, &act1);
    f[3] = CREATE_OK(st, &qp1, &r);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 1, 1, IBV_FLOW_ATTR_FLAGS_EGRESS);
    spec_eth_any(&r, 0);
    spec_drop(&r);
    f[4] = CREATE_OK(st, &qp1, &r);

    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    v = run_dir(st, &p, true);
    CHECK(v.matched && v.reformat == &act1 && !v.drop);
    v = run(st, &p);
    CHECK(v.tag == 9 && !v.reformat);
    p = pkt_arp();
    v = run_dir(st, &p, true);
    CHECK(v.matched && v.drop);
    /* Leftovers never apply to egress. */
    destroy_flow(st, f[4]);
    CHECK(!run_dir(st, &p, true).matched);
    destroy_flow(st, f[3]);
    p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    CHECK(!run_dir(st, &p, true).matched);

    /* An ingress rule never sees egress traffic. */
    destroy_flow(st, f[2]);
    destroy_flow(st, f[1]);
    destroy_flow(st, f[0]);
    rule_normal(&r, 0);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK(!run_dir(st, &p, true).matched);
    CHECK(run(st, &p).matched);
    destroy_flow(st, f[0]);

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Identical rules: merge or EEXIST.                                      */
/* ---------------------------------------------------------------------- */

static void
test_merge_and_conflicts(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c;
    struct hw_model_verdict v;
    struct ibv_flow *f[8];
    struct ds s = DS_EMPTY_INITIALIZER;
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct rule base, r;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    rule_normal(&base, 4);
    spec_ipv4(&base, 0, "10.0.0.2", "255.255.255.255");
    spec_l4(&base, IBV_FLOW_SPEC_TCP, -1, 80);

    r = base;
    spec_tag(&r, 5);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Same match, another QP: added as a second destination. */
    f[1] = CREATE_OK(st, &qp2, &r);
    /* Same QP again: a reference. */
    f[2] = CREATE_OK(st, &qp1, &r);
    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp1);

    /* Another tag, drop against forward, a handle: EEXIST. */
    r = base;
    spec_tag(&r, 6);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    spec_drop(&r);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    spec_tag(&r, 5);
    spec_handle(&r, &act1);
    CREATE_FAIL(st, &qp1, &r, EEXIST);

    /* No tag joins the tagged entry; so does a COUNT-only difference. */
    r = base;
    f[3] = CREATE_OK(st, &qp1, &r);
    r = base;
    spec_tag(&r, 5);
    spec_count(&r, c);
    f[4] = CREATE_OK(st, &qp2, &r);

    /* Same match at another priority is another entry. */
    base.bytes[10] = 5;
    r = base;
    spec_drop(&r);
    f[5] = CREATE_OK(st, &qp1, &r);

    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp1 && !v.drop);

    /* All members show the same entry and its hits. */
    hw_model_steering_format(st, &s);
    {
        const char *line = ds_cstr(&s);
        int n_entry1 = 0;

        while ((line = strstr(line, "entry=1 hits=2 bytes="))) {
            n_entry1++;
            line++;
        }
        CHECK(n_entry1 == 5);
    }
    CHECK(strstr(ds_cstr(&s), "prio=4 core=9: ipv4(dst=10.0.0.2) "
                 "tcp(dst=80) actions=tag(5),count() qp=102 entry=1"));
    CHECK(strstr(ds_cstr(&s), "prio=5 core=11: ipv4(dst=10.0.0.2) "
                 "tcp(dst=80) actions=drop() qp=101 entry=2 hits=0"));
    ds_destroy(&s);

    /* Destroying members one by one keeps the entry until the last. */
    destroy_flow(st, f[0]);
    destroy_flow(st, f[2]);
    destroy_flow(st, f[3]);
    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp2);
    /* The tag stays with the entry; a new different tag still conflicts. */
    r = base;
    r.bytes[10] = 4;
    spec_tag(&r, 6);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[1]);
    destroy_flow(st, f[4]);
    /* Now the match is free at priority 4: the drop rule at 5 takes it. */
    v = run(st, &p);
    CHECK(v.matched && v.drop);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).tag == 6);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[5]);

    /* A drop entry first: a forwarding rule conflicts, a drop joins. */
    r = base;
    spec_drop(&r);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    r = base;
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);

    /* Same handle merges, another conflicts, none conflicts. */
    r = base;
    spec_handle(&r, &act1);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    r = base;
    spec_handle(&r, &act2);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);

    /* A tagged rule cannot join an untagged entry. */
    r = base;
    f[0] = CREATE_OK(st, &qp1, &r);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);

    /* Two ALL_DEFAULT rules share the leftovers entries. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    CHECK(run(st, &p).qp == &qp1);
    destroy_flow(st, f[0]);
    CHECK(run(st, &p).qp == &qp2);
    destroy_flow(st, f[1]);

    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Counters.                                                              */
/* ---------------------------------------------------------------------- */

static void
test_counters(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c, *c2;
    struct ibv_flow *f[4];
    uint64_t values[4];
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct pkt other = pkt_tcp4("10.0.0.1", "10.0.0.3", 1, 80);
    size_t len = frame_len(&p);
    struct rule r;

    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &c2), 0);
    CHECK(c->context == &ctx_a);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 2);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);

    /* Attach: static mode only, known descriptions only. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0,
                  .comp_mask = 1 }), EOPNOTSUPP);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = 2, .index = 0 }), ENOTSUP);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 1 }), 0);

    /* Not bound to a flow: cannot be read. */
    CHECK_ERR(hw_model_counters_read(c, values, 2), EINVAL);

    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Bound: no more attaching, no destroying. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 2 }), EBUSY);
    CHECK_ERR(hw_model_counters_destroy(c), EBUSY);

    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 0 && values[1] == 0);

    run(st, &p);
    run(st, &p);
    run(st, &other);                /* Not this rule's. */
    memset(values, 0xff, sizeof values);
    CHECK_ERR(hw_model_counters_read(c, values, 4), 0);
    CHECK(values[0] == 2 && values[1] == 2 * len);
    CHECK(values[2] == 0 && values[3] == 0);    /* Unfilled are 0. */
    /* Too small a buffer for index 1. */
    CHECK_ERR(hw_model_counters_read(c, values, 1), EINVAL);

    /* A second rule shares the object: values add up. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    spec_count(&r, c);
    f[1] = CREATE_OK(st, &qp1, &r);
    run(st, &other);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 3 && values[1] == 3 * len);

    /* Two members of one entry with the same object count once; another
     * object on the same entry counts too. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c);
    f[2] = CREATE_OK(st, &qp2, &r);
    CHECK_ERR(hw_model_counters_attach(c2,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_attach(c2,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c2);
    f[3] = CREATE_OK(st, &qp1, &r);
    run(st, &p);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 4 && values[1] == 4 * len);
    /* c2 has two BYTES points at index 0: they add up. */
    CHECK_ERR(hw_model_counters_read(c2, values, 1), 0);
    CHECK(values[0] == 2 * len);

    /* Once the last flow unbinds: unreadable, attachable, destroyable;
     * the hardware counter keeps its value if bound again. */
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    destroy_flow(st, f[2]);
    CHECK_ERR(hw_model_counters_read(c, values, 2), EINVAL);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 3 }), 0);
    rule_normal(&r, 1);
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK_ERR(hw_model_counters_read(c, values, 3), EINVAL);
    CHECK_ERR(hw_model_counters_read(c, values, 4), 0);
    CHECK(values[0] == 4 && values[1] == 4 * len && values[3] == 4);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[3]);

    /* An index near 2^32 needs a buffer that large: never a wild write. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS,
                  .index = UINT32_MAX }), 0);
    rule_normal(&r, 1);
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK_ERR(hw_model_counters_read(c, values, 4), EINVAL);
    destroy_flow(st, f[0]);

    /* The kernel takes at most 8191 points. */
    {
        struct ibv_counters *big;

        CHECK_ERR(hw_model_counters_create(&ctx_a, &big), 0);
        for (int i = 0; i < 8191; i++) {
            CHECK_ERR(hw_model_counters_attach(
                          big, &(struct ibv_counter_attach_attr) {
                              .counter_desc = IBV_COUNTER_PACKETS,
                              .index = 0 }), 0);
        }
        rule_normal(&r, 1);
        spec_count(&r, big);
        f[0] = CREATE_OK(st, &qp1, &r);
        destroy_flow(st, f[0]);
        CHECK_ERR(hw_model_counters_attach(
                      big, &(struct ibv_counter_attach_attr) {
                          .counter_desc = IBV_COUNTER_BYTES, .index = 0 }),
                  0);
        CREATE_FAIL(st, &qp1, &r, EINVAL);
        CHECK_ERR(hw_model_counters_destroy(big), 0);
    }

    /* A dropping rule counts too. */
    rule_normal(&r, 0);
    spec_drop(&r);
    spec_count(&r, c2);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).drop);
    CHECK_ERR(hw_model_counters_read(c2, values, 1), 0);
    CHECK(values[0] == 2 * 2 * len);
    destroy_flow(st, f[0]);

    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK_ERR(hw_model_counters_destroy(c2), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Object accounting.                                                     */
/* ---------------------------------------------------------------------- */

static void
test_cleanup(void)
{
    struct hw_model_limits limits = default_limits();
    struct hw_model_steering *st;
    struct ibv_counters *c[3];
    struct ibv_flow *f[40];
    struct ds s = DS_EMPTY_INITIALIZER;
    int n = 0;

    limits.sniffer = true;
    st = hw_model_steering_create(&limits);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_create(&ctx_a, &c[i]), 0);
        CHECK_ERR(hw_model_counters_attach(c[i],
                                           &(struct ibv_counter_attach_attr) {
                      .counter_desc = IBV_COUNTER_PACKETS }), 0);
    }
    for (int prio = 0; prio < 16; prio++) {
        struct rule r;
        char dst[32];

        snprintf(dst, sizeof dst, "10.0.%d.1", prio);
        rule_normal(&r, prio);
        spec_ipv4(&r, 0, dst, "255.255.255.255");
        spec_count(&r, c[prio % 3]);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_NORMAL, prio, 1,
                  IBV_FLOW_ATTR_FLAGS_EGRESS);
        spec_ipv4(&r, 0, dst, "255.255.255.255");
        f[n++] = CREATE_OK(st, &qp2, &r);
    }
    {
        struct rule r;

        rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_SNIFFER, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
    }
    CHECK(hw_model_steering_n_rules(st) == n);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 3);

    /* One line per rule. */
    hw_model_steering_format(st, &s);
    {
        int lines = 0;

        for (const char *q = ds_cstr(&s); *q; q++) {
            lines += *q == '\n';
        }
        /* ALL_DEFAULT and SNIFFER are two entries each. */
        CHECK(lines == n + 2);
    }
    ds_destroy(&s);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_destroy(c[i]), EBUSY);
    }
    for (int i = n - 1; i >= 0; i--) {
        destroy_flow(st, f[i]);
    }
    /* A destroyed flow is no longer known. */
    CHECK_ERR(hw_model_flow_destroy(st, f[0]), EINVAL);
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_destroy(c[i]), 0);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    ds_init(&s);
    hw_model_steering_format(st, &s);
    CHECK(s.length == 0);
    ds_destroy(&s);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Tunnels.                                                               */
/* ---------------------------------------------------------------------- */

/* A packet whose payload is a tunnel header and an inner frame (or, with
 * 'inner_skip' = its L2 length, an inner L3 packet). */
struct tnl_pkt {
    struct pkt p;
    uint8_t data[400];
};

static void
tnl_pkt_init(struct tnl_pkt *t, const struct pkt *outer, const uint8_t *hdr,
             size_t hdr_len, const struct pkt *inner, size_t inner_skip)
{
    uint8_t frame[400];
    size_t n = inner ? build_frame(inner, frame) : 0;

    CHECK(n >= inner_skip && hdr_len + n - inner_skip <= sizeof t->data);
    memcpy(t->data, hdr, hdr_len);
    if (n) {
        memcpy(t->data + hdr_len, frame + inner_skip, n - inner_skip);
    }
    t->p = *outer;
    t->p.payload = hdr_len + n - inner_skip;
    t->p.payload_data = t->data;
}

static size_t
vxlan_hdr(uint8_t *buf, uint32_t vni)
{
    memset(buf, 0, 8);
    buf[0] = 0x08;                  /* I: the VNI is valid. */
    put_be32(buf + 4, vni << 8);
    return 8;
}

/* A GRE header with 'flags' (C 0x8000, K 0x2000, S 0x1000, version). */
static size_t
gre_hdr(uint8_t *buf, uint16_t flags, uint16_t proto, uint32_t key)
{
    size_t n = 4;

    put_be16(buf, flags);
    put_be16(buf + 2, proto);
    if (flags & 0x8000) {
        put_be32(buf + n, 0xc5c50000);  /* Checksum (not checked). */
        n += 4;
    }
    if (flags & 0x2000) {
        put_be32(buf + n, key);
        n += 4;
    }
    if (flags & 0x1000) {
        put_be32(buf + n, 77);          /* Sequence number. */
        n += 4;
    }
    return n;
}

/* VXLAN over IPv4 to 'port', VNI 'vni', carrying 'inner'. */
static void
vxlan4_pkt(struct tnl_pkt *t, uint16_t port, uint32_t vni,
           const struct pkt *inner)
{
    struct pkt outer = pkt_udp4("192.168.0.1", "192.168.0.2", 49152, port);
    uint8_t hdr[8];

    tnl_pkt_init(t, &outer, hdr, vxlan_hdr(hdr, vni), inner, 0);
}

/* GRE over IPv4 (or IPv6 if 'ip6'), carrying 'inner' as an Ethernet frame
 * if 'proto' is 0x6558, else its L3 packet. */
static void
gre_pkt(struct tnl_pkt *t, bool ip6, uint16_t flags, uint16_t proto,
        uint32_t key, const struct pkt *inner)
{
    struct pkt outer = (ip6
                        ? pkt_tcp6("2001:db8::1", "2001:db8::2", 0, 0)
                        : pkt_tcp4("192.168.0.1", "192.168.0.2", 0, 0));
    uint8_t hdr[16];
    size_t skip = 0;

    outer.proto = IPPROTO_GRE;
    if (inner && proto != ETH_TYPE_TEB) {
        skip = 14 + 4 * inner->n_tags;
    }
    tnl_pkt_init(t, &outer, hdr, gre_hdr(hdr, flags, proto, key), inner,
                 skip);
}

/* Looks 'p' up with the parser of 'st' (its VXLAN ports). */
static struct hw_model_verdict
run_st(struct hw_model_steering *st, const struct pkt *p)
{
    struct hw_model_verdict verdict;
    struct hw_model_parsed parsed;
    uint8_t buf[512];
    size_t len = build_frame(p, buf);
    struct dp_packet *packet = dp_packet_new(len);

    dp_packet_put(packet, buf, len);
    hw_model_steering_parse(st, packet, &parsed);
    dp_packet_delete(packet);
    hw_model_steering_lookup(st, &parsed, len, false, &verdict);
    return verdict;
}

static void
test_parser_tunnels(void)
{
    struct hw_model_parsed pp;
    struct tnl_pkt t;
    struct pkt in;

    /* VXLAN over IPv4: outer as before, VNI, inner Ethernet + IPv4 + TCP,
     * and where each header starts. */
    in = pkt_tcp4("10.1.0.1", "10.1.0.2", 1000, 80);
    in.n_tags = 1;
    in.tpid[0] = ETH_TYPE_VLAN_8021Q;
    in.tci[0] = 0x0123;
    vxlan4_pkt(&t, 4789, 0xabcdef, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.ip_version == 4 && pp.has_l4 && pp.l4_dst == htons(4789));
    CHECK(pp.l3_ofs == 14 && pp.l4_ofs == 34);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_VXLAN);
    CHECK(pp.tunnel_ofs == 42 && pp.tunnel_len == 8);
    CHECK(pp.vxlan_vni == htonl(0xabcdef));
    CHECK(pp.inner_type == HW_MODEL_INNER_L2 && pp.inner_ofs == 50);
    CHECK(pp.inner.has_eth && pp.inner.has_cvlan);
    CHECK(pp.inner.vlan_tci == htons(0x0123));
    CHECK(pp.inner.eth_type == htons(ETH_TYPE_IP));
    CHECK(pp.inner.ip_version == 4 && pp.inner.l3_ofs == 50 + 18);
    CHECK(pp.inner.ipv4_dst == htonl(0x0a010002));
    CHECK(pp.inner.has_l4 && pp.inner.l4_dst == htons(80));
    CHECK(pp.inner.l4_ofs == 50 + 18 + 20);
    CHECK(!pp.mpls);

    /* Only UDP port 4789 is VXLAN to the default parser. */
    vxlan4_pkt(&t, 4790, 1, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_NONE && !pp.inner.has_eth);
    CHECK(pp.inner.ip_version == 0 && pp.vxlan_vni == 0);
    {
        static const uint16_t ports[] = { 4789, 4790 };
        uint8_t buf[512];
        size_t len = build_frame(&t.p, buf);
        struct dp_packet *packet = dp_packet_new(len);

        dp_packet_put(packet, buf, len);
        hw_model_parse_ports(packet, ports, 2, &pp);
        CHECK(pp.tunnel == HW_MODEL_TUNNEL_VXLAN);
        CHECK(pp.vxlan_vni == htonl(1) && pp.inner.ip_version == 4);
        hw_model_parse_ports(packet, ports, 0, &pp);
        CHECK(pp.tunnel == HW_MODEL_TUNNEL_NONE);
        dp_packet_delete(packet);
    }

    /* A VXLAN header cut short: not a tunnel.  A whole VXLAN header with a
     * cut inner frame: a tunnel without inner headers. */
    vxlan4_pkt(&t, 4789, 5, &in);
    t.p.trunc = 14 + 20 + 8 + 7;
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.has_l4 && pp.tunnel == HW_MODEL_TUNNEL_NONE);
    t.p.trunc = 14 + 20 + 8 + 8 + 13;
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_VXLAN && pp.vxlan_vni == htonl(5));
    CHECK(!pp.inner.has_eth && pp.inner.ip_version == 0);

    /* An outer fragment is not parsed into. */
    vxlan4_pkt(&t, 4789, 5, &in);
    t.p.frag = 0x2000;
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.is_fragment && pp.has_l4 && pp.tunnel == HW_MODEL_TUNNEL_NONE);

    /* VXLAN over IPv6. */
    {
        struct pkt outer = pkt_tcp6("2001:db8::1", "2001:db8::2", 7, 4789);
        uint8_t hdr[8];

        outer.proto = IPPROTO_UDP;
        tnl_pkt_init(&t, &outer, hdr, vxlan_hdr(hdr, 9), &in, 0);
        parse_pkt(&t.p, &pp, NULL);
        CHECK(pp.ip_version == 6 && pp.tunnel == HW_MODEL_TUNNEL_VXLAN);
        CHECK(pp.tunnel_ofs == 14 + 40 + 8 && pp.vxlan_vni == htonl(9));
        CHECK(pp.inner.ip_version == 4 && pp.inner.has_l4);
    }

    /* GRE with key carrying Ethernet; the key follows the checksum. */
    in = pkt_udp4("10.2.0.1", "10.2.0.2", 53, 5353);
    gre_pkt(&t, false, 0xa000, ETH_TYPE_TEB, 0x11223344, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.ip_proto == IPPROTO_GRE && !pp.has_l4);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_GRE && pp.tunnel_ofs == 34);
    CHECK(pp.tunnel_len == 12 && pp.gre_flags == htons(0xa000));
    CHECK(pp.gre_protocol == htons(ETH_TYPE_TEB));
    CHECK(pp.gre_key == htonl(0x11223344));
    CHECK(pp.inner_type == HW_MODEL_INNER_L2 && pp.inner_ofs == 46);
    CHECK(pp.inner.has_eth && pp.inner.ip_version == 4);
    CHECK(pp.inner.ip_proto == IPPROTO_UDP && pp.inner.l4_dst == htons(5353));

    /* GRE without key: key reads 0.  C, K and S together: 16 bytes. */
    gre_pkt(&t, false, 0, ETH_TYPE_TEB, 0x99, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_GRE && pp.tunnel_len == 4);
    CHECK(pp.gre_key == 0 && pp.inner.has_eth);
    gre_pkt(&t, false, 0xb000, ETH_TYPE_TEB, 0x99, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel_len == 16 && pp.gre_key == htonl(0x99));
    CHECK(pp.inner_ofs == 34 + 16 && pp.inner.l4_dst == htons(5353));

    /* GRE carrying IPv4 and IPv6, outer IPv6. */
    gre_pkt(&t, true, 0x2000, ETH_TYPE_IP, 7, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.ip_version == 6 && pp.tunnel == HW_MODEL_TUNNEL_GRE);
    CHECK(pp.tunnel_ofs == 54 && pp.gre_key == htonl(7));
    CHECK(pp.inner_type == HW_MODEL_INNER_L3 && pp.inner_ofs == 62);
    CHECK(!pp.inner.has_eth && pp.inner.eth_type == htons(ETH_TYPE_IP));
    CHECK(pp.inner.ip_version == 4 && pp.inner.l3_ofs == 62);
    CHECK(pp.inner.has_l4 && pp.inner.l4_src == htons(53));
    in = pkt_tcp6("2001:db8:1::1", "2001:db8:1::2", 22, 2222);
    gre_pkt(&t, false, 0, ETH_TYPE_IPV6, 0, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.inner_type == HW_MODEL_INNER_L3 && pp.inner.ip_version == 6);
    CHECK(pp.inner.l4_dst == htons(2222));

    /* GRE version 1 and a cut GRE header are not tunnels; an unknown
     * protocol is a GRE tunnel with nothing parsed inside. */
    gre_pkt(&t, false, 0x2001, ETH_TYPE_TEB, 1, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_NONE && pp.gre_key == 0);
    gre_pkt(&t, false, 0x2000, ETH_TYPE_TEB, 1, &in);
    t.p.trunc = 14 + 20 + 7;
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_NONE);
    gre_pkt(&t, false, 0, 0x88be, 0, &in);
    parse_pkt(&t.p, &pp, NULL);
    CHECK(pp.tunnel == HW_MODEL_TUNNEL_GRE);
    CHECK(pp.inner_type == HW_MODEL_INNER_NONE && !pp.inner.has_eth);
    CHECK(pp.inner.ip_version == 0);

    /* MPLS at each position. */
    {
        uint8_t lse[4];
        struct pkt p;

        put_be32(lse, (100 << 12) | 0x100 | 64);
        p = pkt_arp();
        p.eth_type = ETH_TYPE_MPLS;
        p.payload = 4;
        p.payload_data = lse;
        parse_pkt(&p, &pp, NULL);
        CHECK(pp.mpls == 1 << HW_MODEL_MPLS_OUTER);
        CHECK(pp.mpls_lse[HW_MODEL_MPLS_OUTER] == htonl(0x64140));
        CHECK(pp.ip_version == 0 && pp.tunnel == HW_MODEL_TUNNEL_NONE);

        p = pkt_udp4("10.0.0.1", "10.0.0.2", 1, 6635);
        p.payload = 4;
        p.payload_data = lse;
        parse_pkt(&p, &pp, NULL);
        CHECK(pp.mpls == 1 << HW_MODEL_MPLS_OVER_UDP);
        CHECK(pp.mpls_lse[HW_MODEL_MPLS_OVER_UDP] == htonl(0x64140));

        gre_pkt(&t, false, 0, ETH_TYPE_MPLS, 0, NULL);
        memcpy(t.data + 4, lse, 4);
        t.p.payload = 8;
        parse_pkt(&t.p, &pp, NULL);
        CHECK(pp.tunnel == HW_MODEL_TUNNEL_GRE);
        CHECK(pp.mpls == 1 << HW_MODEL_MPLS_OVER_GRE);
        CHECK(pp.mpls_lse[HW_MODEL_MPLS_OVER_GRE] == htonl(0x64140));

        p = pkt_arp();
        p.eth_type = ETH_TYPE_MPLS;
        p.payload = 4;
        p.payload_data = lse;
        vxlan4_pkt(&t, 4789, 3, &p);
        parse_pkt(&t.p, &pp, NULL);
        CHECK(pp.mpls == 1 << HW_MODEL_MPLS_INNER);
        CHECK(pp.mpls_lse[HW_MODEL_MPLS_INNER] == htonl(0x64140));
        CHECK(pp.inner.eth_type == htons(ETH_TYPE_MPLS));
    }
}

static void
test_match_vxlan(void)
{
    struct hw_model_steering *st = new_steering();
    struct tnl_pkt t;
    struct ibv_flow *f[3];
    struct pkt in;
    struct rule r;

    /* Outer UDP 4789 + VNI + inner IPv4 dst + inner TCP dport. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 0x123456, 0xffffff);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_IP);
    spec_ipv4(&r, IBV_FLOW_SPEC_INNER, "10.1.0.2", "255.255.255.255");
    spec_l4(&r, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, -1, 80);
    spec_tag(&r, 1);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* The VNI alone, lower priority. */
    rule_normal(&r, 1);
    spec_vxlan(&r, 0x123456, 0xffffff);
    spec_tag(&r, 2);
    f[1] = CREATE_OK(st, &qp1, &r);

    /* A VNI in the low bits only (masked). */
    rule_normal(&r, 2);
    spec_vxlan(&r, 0x000007, 0x00000f);
    spec_tag(&r, 3);
    f[2] = CREATE_OK(st, &qp1, &r);

    in = pkt_tcp4("10.1.0.1", "10.1.0.2", 1000, 80);
    vxlan4_pkt(&t, 4789, 0x123456, &in);
    CHECK(run(st, &t.p).tag == 1);

    /* Each inner field and the VNI count. */
    in.dport = 81;
    vxlan4_pkt(&t, 4789, 0x123456, &in);
    CHECK(run(st, &t.p).tag == 2);
    in = pkt_tcp4("10.1.0.1", "10.1.0.3", 1000, 80);
    vxlan4_pkt(&t, 4789, 0x123456, &in);
    CHECK(run(st, &t.p).tag == 2);
    in = pkt_udp4("10.1.0.1", "10.1.0.2", 1000, 80);
    vxlan4_pkt(&t, 4789, 0x123456, &in);
    CHECK(run(st, &t.p).tag == 2);
    in = pkt_tcp4("10.1.0.1", "10.1.0.2", 1000, 80);
    vxlan4_pkt(&t, 4789, 0x123457, &in);
    CHECK(run(st, &t.p).tag == 3);
    vxlan4_pkt(&t, 4789, 0xabc, &in);
    CHECK(!run(st, &t.p).matched);

    /* The same bytes to a port that is not a VXLAN port are no tunnel, so
     * the VNI rules (which add no UDP port match) do not match; once the
     * port is configured they do. */
    vxlan4_pkt(&t, 8472, 0x123456, &in);
    CHECK(!run_st(st, &t.p).matched);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 8472), 0);
    CHECK(run_st(st, &t.p).tag == 2);
    CHECK_ERR(hw_model_steering_del_vxlan_port(st, 8472), 0);
    CHECK(!run_st(st, &t.p).matched);

    /* A VNI rule never matches a GRE packet. */
    gre_pkt(&t, false, 0x2000, ETH_TYPE_TEB, 0x123456, &in);
    CHECK(!run(st, &t.p).matched);

    for (int i = 0; i < 3; i++) {
        destroy_flow(st, f[i]);
    }
    hw_model_steering_destroy(st);
}

static void
test_vxlan_ports(void)
{
    struct hw_model_steering *st = new_steering();
    uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS];

    CHECK(hw_model_steering_get_vxlan_ports(st, ports) == 1);
    CHECK(ports[0] == 4789);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 4789), EEXIST);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 0), EINVAL);
    CHECK_ERR(hw_model_steering_del_vxlan_port(st, 4789), EPERM);
    CHECK_ERR(hw_model_steering_del_vxlan_port(st, 4790), ENOENT);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 4790), 0);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 8472), 0);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 1), 0);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 2), ENOSPC);
    CHECK(hw_model_steering_get_vxlan_ports(st, ports) == 4);
    CHECK(ports[1] == 4790 && ports[2] == 8472 && ports[3] == 1);
    CHECK_ERR(hw_model_steering_del_vxlan_port(st, 4790), 0);
    CHECK(hw_model_steering_get_vxlan_ports(st, ports) == 3);
    CHECK(ports[0] == 4789 && ports[1] == 8472 && ports[2] == 1);
    CHECK_ERR(hw_model_steering_add_vxlan_port(st, 2), 0);
    hw_model_steering_destroy(st);
}

static void
test_match_gre(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[5];
    struct tnl_pkt t;
    struct pkt in;
    struct rule r;

    /* TEB with key 0x1234. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "192.168.0.2", "255.255.255.255");
    spec_gre(&r, ETH_TYPE_TEB, 0xffff, 0x1234, 0xffffffff);
    spec_tag(&r, 1);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* L3 GRE carrying IPv4 to 10.9.0.0/16, over IPv4 or IPv6. */
    rule_normal(&r, 0);
    spec_gre(&r, ETH_TYPE_IP, 0xffff, 0, 0);
    spec_ipv4(&r, IBV_FLOW_SPEC_INNER, "10.9.0.0", "255.255.0.0");
    spec_tag(&r, 2);
    f[1] = CREATE_OK(st, &qp1, &r);

    /* An inner Ethernet match on type IPv4: an L3 tunnel has no inner
     * Ethernet header, so only L2 tunnels match. */
    rule_normal(&r, 1);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_IP);
    spec_tag(&r, 3);
    f[2] = CREATE_OK(st, &qp1, &r);

    /* Any GRE (protocol and key unmasked): ip_protocol 47 only. */
    rule_normal(&r, 2);
    spec_gre(&r, 0, 0, 0, 0);
    spec_tag(&r, 4);
    f[3] = CREATE_OK(st, &qp1, &r);

    /* Key 0 under a full mask: keyless GRE reads key 0 (model
     * assumption: the parser leaves an absent key at 0). */
    rule_normal(&r, 0);
    spec_gre(&r, ETH_TYPE_TEB, 0xffff, 0, 0xffffffff);
    spec_tag(&r, 5);
    f[4] = CREATE_OK(st, &qp1, &r);

    in = pkt_tcp4("10.9.1.1", "10.9.1.2", 1, 2);
    gre_pkt(&t, false, 0x2000, ETH_TYPE_TEB, 0x1234, &in);
    CHECK(run(st, &t.p).tag == 1);
    gre_pkt(&t, false, 0xa000, ETH_TYPE_TEB, 0x1234, &in);
    CHECK(run(st, &t.p).tag == 1);
    gre_pkt(&t, false, 0x2000, ETH_TYPE_TEB, 0x1235, &in);
    CHECK(run(st, &t.p).tag == 3);
    gre_pkt(&t, false, 0, ETH_TYPE_TEB, 0, &in);
    CHECK(run(st, &t.p).tag == 5);

    gre_pkt(&t, false, 0, ETH_TYPE_IP, 0, &in);
    CHECK(run(st, &t.p).tag == 2);
    gre_pkt(&t, true, 0x2000, ETH_TYPE_IP, 99, &in);
    CHECK(run(st, &t.p).tag == 2);
    in = pkt_tcp4("10.8.1.1", "10.8.1.2", 1, 2);
    gre_pkt(&t, false, 0, ETH_TYPE_IP, 0, &in);
    CHECK(run(st, &t.p).tag == 4);
    in = pkt_tcp6("2001:db8::5", "2001:db8::6", 1, 2);
    gre_pkt(&t, false, 0, ETH_TYPE_IPV6, 0, &in);
    CHECK(run(st, &t.p).tag == 4);

    /* GRE version 1 is IP protocol 47 but no tunnel. */
    gre_pkt(&t, false, 0x2001, ETH_TYPE_TEB, 0x1234, &in);
    CHECK(run(st, &t.p).tag == 4);

    /* Not GRE at all. */
    in = pkt_tcp4("10.9.1.1", "10.9.1.2", 1, 2);
    vxlan4_pkt(&t, 4789, 0x1234, &in);
    CHECK(run(st, &t.p).tag == 3);
    CHECK(!run(st, &in).matched);

    for (int i = 0; i < 5; i++) {
        destroy_flow(st, f[i]);
    }

    /* The C/K/S bits cannot be matched; the version neither. */
    rule_normal(&r, 0);
    {
        uint8_t *s = rule_spec(&r, IBV_FLOW_SPEC_GRE, GRE_SIZE);

        put_be16(s + GRE_M + F_GRE_FLAGS, 0x0007);
    }
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    hw_model_steering_destroy(st);
}

static void
test_match_mpls(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[2];
    struct tnl_pkt t;
    uint8_t lse[4];
    struct pkt p;
    struct rule r;

    /* First label 100 after the Ethernet header. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_MPLS);
    spec_mpls(&r, 0, 100 << 12, 0xfffff000);
    spec_tag(&r, 1);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Inner first label 200 with bottom of stack (after the VXLAN spec:
     * right after UDP it would be MPLS over UDP). */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 0, 0);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_MPLS);
    spec_mpls(&r, IBV_FLOW_SPEC_INNER, (200 << 12) | 0x100, 0xfffff100);
    spec_tag(&r, 2);
    f[1] = CREATE_OK(st, &qp1, &r);

    p = pkt_arp();
    p.eth_type = ETH_TYPE_MPLS;
    p.payload = 4;
    p.payload_data = lse;
    put_be32(lse, (100 << 12) | 0x100 | 64);
    CHECK(run(st, &p).tag == 1);
    put_be32(lse, (101 << 12) | 0x100 | 64);
    CHECK(!run(st, &p).matched);

    /* A label the parser did not find reads as absent, not as 0. */
    p.payload = 3;
    put_be32(lse, 100 << 12);
    CHECK(!run(st, &p).matched);

    /* Inner: only behind a tunnel. */
    p.payload = 4;
    put_be32(lse, (200 << 12) | 0x100 | 5);
    vxlan4_pkt(&t, 4789, 1, &p);
    CHECK(run(st, &t.p).tag == 2);
    put_be32(lse, (200 << 12) | 5);
    vxlan4_pkt(&t, 4789, 1, &p);
    CHECK(!run(st, &t.p).matched);
    put_be32(lse, (200 << 12) | 0x100 | 5);
    CHECK(!run(st, &p).matched);

    /* MPLS right after GRE cannot be matched on this device. */
    rule_normal(&r, 0);
    spec_gre(&r, ETH_TYPE_MPLS, 0xffff, 0, 0);
    spec_mpls(&r, 0, 100 << 12, 0xfffff000);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);
    hw_model_steering_destroy(st);
}

static void
test_inner_needs_tunnel(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_flow *f[4];
    struct tnl_pkt t;
    struct pkt p, in;
    struct rule r;

    /* Inner IPv4 with dst 10.0.0.2 (which is also the outer dst of the
     * plain packets below), inner UDP, inner IPv6, inner Ethernet with
     * only a MAC mask. */
    rule_normal(&r, 0);
    spec_ipv4(&r, IBV_FLOW_SPEC_INNER, "10.0.0.2", "255.255.255.255");
    spec_tag(&r, 1);
    f[0] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 1);
    spec_l4(&r, IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, -1, 4789);
    spec_tag(&r, 2);
    f[1] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 2);
    spec_ipv6(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    spec_tag(&r, 3);
    f[2] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 3);
    {
        uint8_t *s = rule_spec(&r, IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER,
                               ETH_SIZE);

        put_mac(s + ETH_V + F_DMAC, "00:00:00:00:00:02");
        put_mac(s + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:ff");
    }
    spec_tag(&r, 4);
    f[3] = CREATE_OK(st, &qp1, &r);

    /* Plain packets whose outer headers fit every inner spec. */
    p = pkt_udp4("10.0.0.1", "10.0.0.2", 1, 4789);
    CHECK(!run(st, &p).matched);
    p = pkt_tcp6("2001:db8::1", "2001:db8::2", 1, 2);
    CHECK(!run(st, &p).matched);
    p = pkt_arp();
    p.dst = "00:00:00:00:00:02";
    CHECK(!run(st, &p).matched);

    /* Tunnelled ones match. */
    in = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 2);
    vxlan4_pkt(&t, 4789, 1, &in);
    CHECK(run(st, &t.p).tag == 1);
    in = pkt_udp4("10.0.0.1", "10.0.0.3", 1, 4789);
    vxlan4_pkt(&t, 4789, 1, &in);
    CHECK(run(st, &t.p).tag == 2);
    in = pkt_tcp6("2001:db8::1", "2001:db8::2", 1, 2);
    gre_pkt(&t, false, 0, ETH_TYPE_IPV6, 0, &in);
    CHECK(run(st, &t.p).tag == 3);
    in = pkt_arp();
    in.dst = "00:00:00:00:00:02";
    gre_pkt(&t, true, 0, ETH_TYPE_TEB, 0, &in);
    CHECK(run(st, &t.p).tag == 4);

    /* A VXLAN packet on a port the parser does not know is plain UDP: the
     * inner UDP rule does not see the inner headers. */
    in = pkt_udp4("10.0.0.1", "10.0.0.3", 1, 4789);
    vxlan4_pkt(&t, 4790, 1, &in);
    CHECK(!run(st, &t.p).matched);

    for (int i = 0; i < 4; i++) {
        destroy_flow(st, f[i]);
    }
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Short specs.                                                           */
/* ---------------------------------------------------------------------- */

/* Writes an ACTION_HANDLE or ACTION_COUNT spec naming 'object' at 's', with
 * 'size' in its header: the object's pointer is at byte 8 whatever 'size'
 * says. */
static void
put_object_spec(uint8_t *s, uint32_t type, uint16_t size, const void *object)
{
    memcpy(s, &type, 4);
    memcpy(s + 4, &size, 2);
    memcpy(s + 8, &object, sizeof object);
}

/* A spec shorter than its struct (or, for the sizes that may vary, than the
 * kernel's filter) is EINVAL, and so is everything behind it: the walk
 * stops there, before anything reads past the spec or binds an object. */
static void
test_reject_short_specs(void)
{
    static const struct {
        uint32_t type;
        uint16_t min_size;
        int error;              /* For a spec of 'min_size' bytes. */
    } specs[] = {
        { IBV_FLOW_SPEC_ETH, ETH_SIZE, 0 },
        { IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER, ETH_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV4, IP4_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV6, 8 + 2 * 39, 0 },
        { IBV_FLOW_SPEC_ESP, ESP_SIZE, EOPNOTSUPP },
        { IBV_FLOW_SPEC_TCP, L4_SIZE, 0 },
        { IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, L4_SIZE, 0 },
        { IBV_FLOW_SPEC_GRE, GRE_SIZE, 0 },
        { IBV_FLOW_SPEC_MPLS, MPLS_SIZE, 0 },
        { IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_TAG, TAG_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_DROP, DROP_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE, 0 },
    };
    struct hw_model_steering *st = new_steering();
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct hw_model_verdict v;
    struct ibv_counters *c;
    struct ibv_flow *flow;
    uint64_t values[1];
    struct rule r;
    uint8_t *s;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* Every size below the minimum, then the minimum.  HANDLE and COUNT
     * name a valid object, so only the size is wrong. */
    for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
        const void *object = (specs[i].type == IBV_FLOW_SPEC_ACTION_HANDLE
                              ? (const void *) &act1 : (const void *) c);

        for (uint16_t size = 0; size <= specs[i].min_size; size++) {
            rule_normal(&r, 0);
            s = rule_spec(&r, specs[i].type, size);
            if (specs[i].type == IBV_FLOW_SPEC_ACTION_HANDLE
                || specs[i].type == IBV_FLOW_SPEC_ACTION_COUNT) {
                put_object_spec(s, specs[i].type, size, object);
            }
            if (size < specs[i].min_size) {
                CREATE_FAIL(st, &qp1, &r, EINVAL);
            } else if (specs[i].error) {
                CREATE_FAIL(st, &qp1, &r, specs[i].error);
            } else {
                flow = CREATE_OK(st, &qp1, &r);
                destroy_flow(st, flow);
            }
        }
    }

    /* A size-0 spec would be read again and again. */
    rule_normal(&r, 0);
    spec_tag(&r, 5);
    memset(&r.bytes[ATTR_LEN + 4], 0, 2);
    r.bytes[12] = 2;
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Specs hidden behind a 6-byte TAG spec, whose padding is the hidden
     * spec's type: the TAG is refused before the spec behind it is read. */
    rule_normal(&r, 0);
    spec_eth_any(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ACTION_TAG, 6);
    put_object_spec(s + 6, IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE, &act1);
    r.bytes[12]++;
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_any(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ACTION_TAG, 6);
    put_object_spec(s + 6, IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE, c);
    r.bytes[12]++;
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* None of the refusals bound the counters object: it is unreadable
     * (no flow uses it) and still takes points. */
    CHECK_ERR(hw_model_counters_read(c, values, 1), EINVAL);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_EQ(hw_model_steering_n_rules(st), 0);

    /* A longer spec is fine: libibverbs reads its struct and skips the
     * rest, and so does the model. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE + 8);
    put_be16(s + ETH_V + F_ETYPE, 0x0800);
    put_be16(s + ETH_M + F_ETYPE, 0xffff);
    spec_tag(&r, 7);
    flow = CREATE_OK(st, &qp1, &r);
    v = run(st, &p);
    CHECK(v.matched && v.qp == &qp1);
    CHECK_EQ(v.tag, 7);
    destroy_flow(st, flow);

    CHECK_ERR(hw_model_counters_destroy(c), 0);
    hw_model_steering_destroy(st);
}

static void
test_hw_model_flow_main(int argc OVS_UNUSED, char *argv[] OVS_UNUSED)
{
    static const struct {
        const char *name;
        void (*function)(void);
    } tests[] = {
        { "parser", test_parser },
        { "accept-good-rules", test_accept_good_rules },
        { "reject-attr", test_reject_attr },
        { "reject-specs", test_reject_specs },
        { "reject-match", test_reject_match },
        { "reject-actions", test_reject_actions },
        { "table-full", test_table_full },
        { "match-masks", test_match_masks },
        { "match-vlan", test_match_vlan },
        { "match-fragments", test_match_fragments_and_truncation },
        { "match-tunnel-specs", test_match_tunnel_specs },
        { "parser-tunnels", test_parser_tunnels },
        { "match-vxlan", test_match_vxlan },
        { "vxlan-ports", test_vxlan_ports },
        { "match-gre", test_match_gre },
        { "match-mpls", test_match_mpls },
        { "inner-needs-tunnel", test_inner_needs_tunnel },
        { "priorities", test_priorities },
        { "leftovers-egress", test_leftovers_and_egress },
        { "merge-conflicts", test_merge_and_conflicts },
        { "counters", test_counters },
        { "cleanup", test_cleanup },
        { "reject-short-specs", test_reject_short_specs },
    };

    init_fixtures();
    for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
        tests[i].function();
        printf("%s: ok\n", tests[i].name);
    }
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);
}

OVSTEST_REGISTER("test-hw-model-flow", test_hw_model_flow_main);
