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

#ifndef TEST_HW_MODEL_FLOW_PRIVATE_H
#define TEST_HW_MODEL_FLOW_PRIVATE_H 1

/* What the unit tests of the NIC model's parser, steering engine and
 * counters (test-hw-model-flow*.c) share: fake device objects, rules as
 * byte buffers, packets, and the tests themselves, which
 * test-hw-model-flow.c lists. */

#include <arpa/inet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hw-model-flow.h"
#include "packets.h"
#include "test-hw-check.h"

/* Fake device objects (test-hw-model-flow-rule.c). */

extern struct ibv_context ctx_a, ctx_b;
extern struct ibv_qp qp1, qp2, qp_ud, qp_rc, qp_uc, qp_b;
extern struct ibv_flow_action act1, act2, act_b;

void init_fixtures(void);
struct hw_model_limits default_limits(void);
struct hw_model_steering *new_steering(void);

/* Rules (test-hw-model-flow-rule.c). */

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

/* Static, not extern: test-hw-frame.c and test-hw-model-port.c, linked
 * into the same ovstest, have global put_*() and rule_init() of their
 * own. */

static inline void
put_u8(uint8_t *p, uint8_t v)
{
    *p = v;
}

static inline void
put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline void
put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static inline void
put_mac(uint8_t *p, const char *s)
{
    struct eth_addr ea;

    CHECK(eth_addr_from_string(s, &ea));
    memcpy(p, ea.ea, 6);
}

static inline void
put_ip4(uint8_t *p, const char *s)
{
    CHECK(inet_pton(AF_INET, s, p) == 1);
}

static inline void
put_ip6(uint8_t *p, const char *s)
{
    CHECK(inet_pton(AF_INET6, s, p) == 1);
}

/* The header fields in host order at their offsets. */
static inline void
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

void rule_normal(struct rule *r, uint16_t priority);
uint8_t *rule_spec(struct rule *r, uint32_t type, uint16_t size);
void spec_eth_type(struct rule *r, uint32_t inner, uint16_t type);
void spec_eth_any(struct rule *r, uint32_t inner);
void spec_ipv4(struct rule *r, uint32_t inner, const char *dst,
               const char *dst_mask);
void spec_ipv6(struct rule *r, uint32_t inner, const char *dst,
               const char *dst_mask);
void spec_l4(struct rule *r, uint32_t type, int sport, int dport);
void spec_vxlan(struct rule *r, uint32_t vni, uint32_t mask);
void spec_gre(struct rule *r, uint16_t proto, uint16_t proto_mask,
              uint32_t key, uint32_t key_mask);
void spec_mpls(struct rule *r, uint32_t inner, uint32_t lse, uint32_t mask);
void spec_tag(struct rule *r, uint32_t tag);
void spec_drop(struct rule *r);
void spec_handle(struct rule *r, const struct ibv_flow_action *action);
void spec_count(struct rule *r, struct ibv_counters *counters);
struct ibv_flow *create_expect(struct hw_model_steering *st, struct ibv_qp *qp,
                               const struct rule *r, int want, int line);
void destroy_flow(struct hw_model_steering *st, struct ibv_flow *flow);

#define CREATE_OK(ST, QP, R) create_expect(ST, QP, R, 0, __LINE__)
#define CREATE_FAIL(ST, QP, R, ERR) create_expect(ST, QP, R, ERR, __LINE__)

/* Packets (test-hw-model-flow-packet.c). */

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

/* A packet whose payload is a tunnel header and an inner frame (or, with
 * 'inner_skip' = its L2 length, an inner L3 packet). */
struct tnl_pkt {
    struct pkt p;
    uint8_t data[400];
};

struct pkt pkt_tcp4(const char *src, const char *dst, uint16_t sport,
                    uint16_t dport);
struct pkt pkt_udp4(const char *src, const char *dst, uint16_t sport,
                    uint16_t dport);
struct pkt pkt_tcp6(const char *src, const char *dst, uint16_t sport,
                    uint16_t dport);
struct pkt pkt_arp(void);
size_t build_frame(const struct pkt *p, uint8_t *buf);
void parse_pkt(const struct pkt *p, struct hw_model_parsed *parsed,
               size_t *lenp);
struct hw_model_verdict run_dir(struct hw_model_steering *st,
                                const struct pkt *p, bool egress);
struct hw_model_verdict run(struct hw_model_steering *st, const struct pkt *p);
size_t frame_len(const struct pkt *p);
void tnl_pkt_init(struct tnl_pkt *t, const struct pkt *outer,
                  const uint8_t *hdr, size_t hdr_len, const struct pkt *inner,
                  size_t inner_skip);
size_t vxlan_hdr(uint8_t *buf, uint32_t vni);
void vxlan4_pkt(struct tnl_pkt *t, uint16_t port, uint32_t vni,
                const struct pkt *inner);
void gre_pkt(struct tnl_pkt *t, bool ip6, uint16_t flags, uint16_t proto,
             uint32_t key, const struct pkt *inner);
struct hw_model_verdict run_st(struct hw_model_steering *st,
                               const struct pkt *p);

/* The parser (test-hw-model-flow-parse.c). */
void test_parser(void);
void test_parser_tunnels(void);
void test_vxlan_ports(void);

/* Rules accepted and refused (test-hw-model-flow-spec.c). */
void test_accept_good_rules(void);
void test_reject_attr(void);
void test_reject_specs(void);
void test_reject_match(void);
void test_reject_actions(void);
void test_reject_short_specs(void);

/* Matching (test-hw-model-flow-match.c). */
void test_match_masks(void);
void test_match_vlan(void);
void test_match_fragments_and_truncation(void);
void test_match_tunnel_specs(void);
void test_priorities(void);
void test_leftovers_and_egress(void);
void test_match_vxlan(void);
void test_match_gre(void);
void test_match_mpls(void);
void test_inner_needs_tunnel(void);

/* Counters (test-hw-model-flow-counters.c). */
void test_counters(void);
void test_churn_heap(void);

#endif /* test-hw-model-flow-private.h */
