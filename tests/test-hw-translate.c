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

/* Unit tests of hw-translate.c (OVS match + actions -> struct hw_rule) and
 * of the rule helpers in hw-rule.c.  Run as "ovstest test-hw-translate"
 * (all tests) or "ovstest test-hw-translate NAME..." (some of them). */

#include <config.h>
#undef NDEBUG
#include "hw-translate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-check.h"
#include "test-hw-flows.h"
#include "util.h"

static void
dp_match_init_ipv4(struct match *match)
{
    dp_match_init_ip(match, htons(ETH_TYPE_IP));
}

static void
dp_match_init_ipv6(struct match *match)
{
    dp_match_init_ip(match, htons(ETH_TYPE_IPV6));
}

/* A UDP flow to 10.0.0.1:53. */
static void
dp_match_init_udp(struct match *match)
{
    dp_match_init_ipv4(match);
    match_set_nw_dst(match, htonl(0x0a000001));
    match_set_nw_proto(match, IPPROTO_UDP);
    match_set_tp_dst(match, htons(53));
}

/* Actions. */
static void
put_output(struct ofpbuf *actions, uint32_t port)
{
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, port);
}

static void
put_drop(struct ofpbuf *actions)
{
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_DROP, 0);
}

/* Checks what every rule must satisfy: no value bit outside its mask, and
 * no ethertype in the ETH spec that disagrees with an IP spec. */
static void
check_rule_sane(const struct hw_rule *rule)
{
    const struct hw_headers *h = &rule->outer;
    const struct {
        const void *val, *mask;
        size_t size;
    } pairs[] = {
        { &h->eth, &h->eth_mask, sizeof h->eth },
        { &h->ipv4, &h->ipv4_mask, sizeof h->ipv4 },
        { &h->ipv6, &h->ipv6_mask, sizeof h->ipv6 },
        { &h->l4, &h->l4_mask, sizeof h->l4 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
        const uint8_t *val = pairs[i].val, *mask = pairs[i].mask;

        for (size_t j = 0; j < pairs[i].size; j++) {
            if (val[j] & ~mask[j]) {
                ovs_abort(0, "value bits outside the mask: pair %"PRIuSIZE
                          " byte %"PRIuSIZE": %#x/%#x", i, j, val[j],
                          mask[j]);
            }
        }
    }

    if (h->present & (HW_HDR_IPV4 | HW_HDR_IPV6)) {
        /* is_valid_ethertype: absent, or exact and consistent. */
        ovs_be16 ip_type = htons(h->present & HW_HDR_IPV4
                                 ? ETH_TYPE_IP : ETH_TYPE_IPV6);

        CHECK(!h->eth_mask.type
              || (h->eth_mask.type == OVS_BE16_MAX && h->eth.type == ip_type));
    }
    if (h->present & (HW_HDR_TCP | HW_HDR_UDP)) {
        /* set_proto: the L4 spec sets the protocol, the IP spec must not. */
        CHECK(h->present & (HW_HDR_IPV4 | HW_HDR_IPV6));
        CHECK(!h->ipv4_mask.proto && !h->ipv6_mask.next_hdr);
        CHECK((h->present & (HW_HDR_TCP | HW_HDR_UDP))
              != (HW_HDR_TCP | HW_HDR_UDP));
    }
    CHECK(!(h->present & HW_HDR_IPV4) || !(h->present & HW_HDR_IPV6));
    if (rule->has_tag) {
        CHECK(rule->tag >= 1 && rule->tag < (1u << 24));
    }
}

/* Translates 'match' with 'actions' (NULL: an output action) for port
 * TEST_PORT and flow mark 'mark'.  Returns the errno; the reason goes to
 * 'reason' if nonnull. */
static int
translate_mark(const struct match *match, const struct ofpbuf *actions,
               uint32_t mark, struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params params = {
        .flow_mark = mark,
        .in_port = u32_to_odp(TEST_PORT),
    };
    struct ofpbuf output;
    struct ds s = DS_EMPTY_INITIALIZER;
    int error;

    ofpbuf_init(&output, 0);
    if (!actions) {
        put_output(&output, 1);
        actions = &output;
    }

    /* Garbage in the rule must not survive. */
    memset(rule, 0xa5, sizeof *rule);
    error = hw_translate_flow(match, actions->data, actions->size, &params,
                              rule, &s);
    if (!error) {
        CHECK_STR(ds_cstr(&s), "");
        check_rule_sane(rule);
    } else {
        struct hw_rule zero;

        memset(&zero, 0, sizeof zero);
        CHECK(!memcmp(rule, &zero, sizeof zero));
        CHECK(s.length > 0);
    }
    if (reason) {
        ds_put_cstr(reason, ds_cstr(&s));
    }
    ds_destroy(&s);
    ofpbuf_uninit(&output);
    return error;
}

static int
translate(const struct match *match, const struct ofpbuf *actions,
          struct hw_rule *rule)
{
    return translate_mark(match, actions, TEST_MARK, rule, NULL);
}

/* Checks that 'match' (with an output action) is refused with EOPNOTSUPP
 * and exactly 'expected' as the reason. */
static void
check_refused_at(const struct match *match, const char *expected,
                 const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    error = translate_mark(match, NULL, TEST_MARK, &rule, &reason);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (EOPNOTSUPP), got "
                  "\"%s\" (%s)", file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_REFUSED(MATCH, REASON) \
    check_refused_at(MATCH, REASON, __FILE__, __LINE__)

static void
check_accepted_at(const struct match *match, struct hw_rule *rule,
                  const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    int error;

    error = translate_mark(match, NULL, TEST_MARK, rule, &reason);
    if (error) {
        ovs_abort(0, "%s:%d: expected the flow to be accepted, got "
                  "\"%s\" (%s)", file, line, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_ACCEPTED(MATCH, RULE) \
    check_accepted_at(MATCH, RULE, __FILE__, __LINE__)

static bool
in6_equal(const struct in6_addr *a, const char *s)
{
    struct in6_addr b;

    CHECK(inet_pton(AF_INET6, s, &b) == 1);
    return ipv6_addr_equals(a, &b);
}

/* Tests. */

static void
test_udp_partial(void)
{
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    CHECK_ACCEPTED(&match, &rule);

    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohl(rule.outer.ipv4.dst), 0x0a000001);
    CHECK_EQ(ntohl(rule.outer.ipv4_mask.dst), 0xffffffff);
    CHECK_EQ(rule.outer.ipv4_mask.src, 0);
    /* The UDP spec implies the protocol: none in the IP spec. */
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0);
    CHECK_EQ(rule.outer.ipv4_mask.tos, 0);
    CHECK_EQ(ntohs(rule.outer.l4.dst), 53);
    CHECK_EQ(ntohs(rule.outer.l4_mask.dst), 0xffff);
    CHECK_EQ(rule.outer.l4_mask.src, 0);
    /* Untagged and no MAC: no ETH spec, no ethertype. */
    CHECK_EQ(rule.outer.eth_mask.tci, 0);
    CHECK_EQ(rule.outer.eth_mask.type, 0);

    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, TEST_MARK);
    CHECK(rule.count);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);

    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_UDP);
}

static void
test_tcp_macs_tos(void)
{
    struct eth_addr dst = ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    struct eth_addr src = ETH_ADDR_C(00, 66, 77, 88, 99, aa);
    struct eth_addr mcast_mask = ETH_ADDR_C(01, 00, 00, 00, 00, 00);
    struct match match;
    struct hw_rule rule;

    dp_match_init_ipv4(&match);
    match_set_dl_dst(&match, dst);
    match_set_dl_src_masked(&match, src, mcast_mask);
    match_set_nw_src_masked(&match, htonl(0xc0a80100), htonl(0xffffff00));
    match_set_nw_tos_masked(&match, 0xb8, 0xfc);
    match_set_nw_proto(&match, IPPROTO_TCP);
    match_set_tp_src_masked(&match, htons(0x0400), htons(0xfc00));
    match_set_tp_dst(&match, htons(80));
    CHECK_ACCEPTED(&match, &rule);

    CHECK_EQ(rule.outer.present, HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK(eth_addr_equals(rule.outer.eth.dst, dst));
    CHECK(eth_addr_equals(rule.outer.eth_mask.dst, eth_addr_exact));
    CHECK(eth_addr_is_zero(rule.outer.eth.src));    /* 0x00 & 0x01. */
    CHECK(eth_addr_equals(rule.outer.eth_mask.src, mcast_mask));
    CHECK_EQ(rule.outer.eth_mask.type, 0);
    CHECK_EQ(ntohl(rule.outer.ipv4.src), 0xc0a80100);
    CHECK_EQ(ntohl(rule.outer.ipv4_mask.src), 0xffffff00);
    CHECK_EQ(rule.outer.ipv4.tos, 0xb8);
    CHECK_EQ(rule.outer.ipv4_mask.tos, 0xfc);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0);
    CHECK_EQ(ntohs(rule.outer.l4.src), 0x0400);
    CHECK_EQ(ntohs(rule.outer.l4_mask.src), 0xfc00);
    CHECK_EQ(ntohs(rule.outer.l4.dst), 80);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_TCP);

    /* TCP without any port match still gets its TCP spec. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_TCP);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK_EQ(rule.outer.l4_mask.src | rule.outer.l4_mask.dst, 0);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
}

static void
test_ip_other_protocols(void)
{
    struct match match;
    struct hw_rule rule;

    /* GRE: the protocol stays in the IP spec. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_GRE);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4);
    CHECK_EQ(rule.outer.ipv4.proto, IPPROTO_GRE);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0xff);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 1);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4);

    /* ICMP without type/code is fine. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_ICMP);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.ipv4.proto, IPPROTO_ICMP);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0xff);

    /* An IP flow with no protocol. */
    dp_match_init_ipv4(&match);
    match_set_nw_dst_masked(&match, htonl(0x0a000000), htonl(0xff000000));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 1);
}

static void
test_ipv6(void)
{
    struct in6_addr src, src_mask, dst;
    struct match match;
    struct hw_rule rule;

    CHECK(inet_pton(AF_INET6, "2001:db8:1::", &src) == 1);
    CHECK(inet_pton(AF_INET6, "ffff:ffff:ffff:ffff::", &src_mask) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8:2::7", &dst) == 1);

    dp_match_init_ipv6(&match);
    match_set_ipv6_src_masked(&match, &src, &src_mask);
    match_set_ipv6_dst(&match, &dst);
    match_set_ipv6_label(&match, htonl(0x12345));
    match_set_nw_tos_masked(&match, 0x03, 0x03);
    match_set_nw_proto(&match, IPPROTO_UDP);
    match_set_tp_src(&match, htons(4789));
    CHECK_ACCEPTED(&match, &rule);

    CHECK_EQ(rule.outer.present, HW_HDR_IPV6 | HW_HDR_UDP);
    CHECK(in6_equal(&rule.outer.ipv6.src, "2001:db8:1::"));
    CHECK(in6_equal(&rule.outer.ipv6_mask.src, "ffff:ffff:ffff:ffff::"));
    CHECK(in6_equal(&rule.outer.ipv6.dst, "2001:db8:2::7"));
    CHECK(ipv6_mask_is_exact(&rule.outer.ipv6_mask.dst));
    CHECK_EQ(ntohl(rule.outer.ipv6.label), 0x12345);
    CHECK_EQ(ntohl(rule.outer.ipv6_mask.label), 0xfffff);
    CHECK_EQ(rule.outer.ipv6.tclass, 0x03);
    CHECK_EQ(rule.outer.ipv6_mask.tclass, 0x03);
    CHECK_EQ(rule.outer.ipv6_mask.next_hdr, 0);
    CHECK_EQ(ntohs(rule.outer.l4.src), 4789);
    CHECK_EQ(rule.outer.eth_mask.type, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_UDP);

    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_TCP);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_TCP);

    /* Next header other than TCP/UDP stays in the IPv6 spec. */
    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_GRE);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV6);
    CHECK_EQ(rule.outer.ipv6.next_hdr, IPPROTO_GRE);
    CHECK_EQ(rule.outer.ipv6_mask.next_hdr, 0xff);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 1);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6);

    /* Hop limit cannot be matched. */
    dp_match_init_ipv6(&match);
    match_set_nw_ttl(&match, 255);
    CHECK_REFUSED(&match, "match on nw_ttl not supported");

    /* A flow label mask beyond 20 bits: fine as long as those bits must be
     * zero, as they are in every packet. */
    dp_match_init_ipv6(&match);
    match_set_ipv6_label_masked(&match, htonl(0x000001), htonl(0x1fffff));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(ntohl(rule.outer.ipv6.label), 1);
    CHECK_EQ(ntohl(rule.outer.ipv6_mask.label), 0xfffff);
    match_set_ipv6_label_masked(&match, htonl(0x100001), htonl(0x1fffff));
    CHECK_REFUSED(&match, "match on ipv6_label not supported");

    /* ICMPv6 neighbour discovery. */
    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_ICMPV6);
    match_set_icmp_type(&match, 135);
    CHECK_REFUSED(&match, "match on icmp type/code not supported");
    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_ICMPV6);
    match_set_nd_target(&match, &dst);
    CHECK_REFUSED(&match, "match on icmpv6 nd fields not supported");
}

static void
test_l2_only(void)
{
    struct eth_addr dst = ETH_ADDR_C(ff, ff, ff, ff, ff, ff);
    struct match match;
    struct hw_rule rule;

    /* ARP by ethertype only. */
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_ARP));
    match_set_dl_dst(&match, dst);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_ETH);
    CHECK_EQ(ntohs(rule.outer.eth.type), ETH_TYPE_ARP);
    CHECK_EQ(ntohs(rule.outer.eth_mask.type), 0xffff);
    CHECK(eth_addr_equals(rule.outer.eth.dst, dst));
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 2);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4);

    /* Nothing but the port: a match-all rule with no spec at all. */
    dp_match_init(&match);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 2);

    /* MPLS by ethertype only is fine; a label is not. */
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_MPLS));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(ntohs(rule.outer.eth.type), ETH_TYPE_MPLS);
    match_set_mpls_label(&match, 0, htonl(100));
    CHECK_REFUSED(&match, "match on mpls not supported");
}

static void
test_vlan(void)
{
    struct match match;
    struct hw_rule rule;

    /* The usual untagged match: consumed, no TCI in the rule, untagged
     * band (the VLAN guard keeps tagged packets away). */
    dp_match_init_udp(&match);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.eth_mask.tci, 0);
    CHECK(!(rule.outer.present & HW_HDR_ETH));
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);

    /* "vlan_tci=0/0x1000": untagged only, expressed the same way. */
    dp_match_init_udp(&match);
    match_set_dl_tci_masked(&match, htons(0), htons(VLAN_CFI));
    match.wc.masks.vlans[0].tpid = htons(0);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.eth_mask.tci, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);

    /* No VLAN match at all: the rule only sees untagged packets, which is
     * narrower than the flow and therefore safe. */
    dp_match_init_udp(&match);
    memset(&match.wc.masks.vlans[0], 0, sizeof match.wc.masks.vlans[0]);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.eth_mask.tci, 0);

    /* VID 100 on a C-tag. */
    dp_match_init_udp(&match);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohs(rule.outer.eth.tci), 100);
    CHECK_EQ(ntohs(rule.outer.eth_mask.tci), VLAN_VID_MASK);
    CHECK_EQ(rule.outer.eth_mask.type, 0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED);

    /* PCP 5 and VID 7: the CFI bit is OVS's "present", never sent. */
    dp_match_init_ipv4(&match);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci(&match, htons((5 << VLAN_PCP_SHIFT) | VLAN_CFI | 7));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(ntohs(rule.outer.eth.tci), (5 << VLAN_PCP_SHIFT) | 7);
    CHECK_EQ(ntohs(rule.outer.eth_mask.tci), VLAN_PCP_MASK | VLAN_VID_MASK);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED + 1);

    /* Any tag: the DEI bit with value 0 requires the tag. */
    dp_match_init(&match);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI), htons(VLAN_CFI));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_ETH);
    CHECK_EQ(ntohs(rule.outer.eth.tci), 0);
    CHECK_EQ(ntohs(rule.outer.eth_mask.tci), 0x1000);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED + 2);

    /* A VID match without the CFI bit still implies a tag. */
    dp_match_init(&match);
    match.wc.masks.vlans[0].tpid = htons(0);
    match_set_dl_tci_masked(&match, htons(9), htons(VLAN_VID_MASK));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(ntohs(rule.outer.eth.tci), 9);
    CHECK_EQ(ntohs(rule.outer.eth_mask.tci), VLAN_VID_MASK);

    /* VID 0 without CFI: untagged packets or priority tags.  The rule goes
     * to the untagged band without a TCI match (narrower). */
    dp_match_init(&match);
    match.wc.masks.vlans[0].tpid = htons(0);
    match_set_dl_tci_masked(&match, htons(0), htons(VLAN_VID_MASK));
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.eth_mask.tci, 0);

    /* 802.1ad: verbs only knows C-tags. */
    dp_match_init(&match);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021AD);
    match_set_dl_tci(&match, htons(VLAN_CFI | 10));
    CHECK_REFUSED(&match, "match on vlan tpid 0x88a8 not supported");

    /* A TCI no packet can have (CFI clear but VID set). */
    dp_match_init(&match);
    match.wc.masks.vlans[0].tpid = htons(0);
    match.flow.vlans[0].tci = htons(5);
    match.wc.masks.vlans[0].tci = htons(VLAN_CFI | VLAN_VID_MASK);
    CHECK_REFUSED(&match, "match on vlan_tci 0x0005/0x1fff not supported");

    /* A second tag. */
    dp_match_init(&match);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci(&match, htons(VLAN_CFI | 10));
    match.flow.vlans[1].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match.flow.vlans[1].tci = htons(VLAN_CFI | 20);
    match.wc.masks.vlans[1].tpid = OVS_BE16_MAX;
    match.wc.masks.vlans[1].tci = OVS_BE16_MAX;
    CHECK_REFUSED(&match, "match on vlan[1] (QinQ) not supported");

    /* Even "no second tag" cannot be expressed. */
    dp_match_init(&match);
    match.wc.masks.vlans[1].tci = htons(VLAN_CFI);
    CHECK_REFUSED(&match, "match on vlan[1] (QinQ) not supported");
}

static void
test_dl_type(void)
{
    struct match match;
    struct hw_rule rule;

    dp_match_init(&match);
    match.flow.dl_type = htons(ETH_TYPE_IP);
    match.wc.masks.dl_type = htons(0xff00);
    CHECK_REFUSED(&match, "partial match on dl_type not supported");

    dp_match_init(&match);
    match_set_dl_type(&match, htons(FLOW_DL_TYPE_NONE));
    CHECK_REFUSED(&match, "match on dl_type 0x05ff not supported");

    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_VLAN_8021Q));
    CHECK_REFUSED(&match, "match on dl_type 0x8100 not supported");

    /* IP fields without an IP ethertype are not translated. */
    dp_match_init(&match);
    match.flow.nw_src = htonl(1);
    match.wc.masks.nw_src = OVS_BE32_MAX;
    CHECK_REFUSED(&match, "match on nw_src not supported");

    /* An IPv6 address in an IPv4 flow. */
    dp_match_init_ipv4(&match);
    match.wc.masks.ipv6_dst = in6addr_exact;
    CHECK_REFUSED(&match, "match on ipv6_dst not supported");

    /* Ports without a protocol. */
    dp_match_init_ipv4(&match);
    match_set_tp_dst(&match, htons(53));
    CHECK_REFUSED(&match, "match on tp_dst not supported");

    dp_match_init_ipv4(&match);
    match_set_nw_proto_masked(&match, 0x06, 0x0f);
    CHECK_REFUSED(&match, "partial match on nw_proto not supported");

    /* In every accepted flow, the ethertype is consistent: IPv4 and IPv6
     * carry none in the ETH spec. */
    dp_match_init_ipv4(&match);
    match_set_dl_dst(&match, eth_addr_broadcast);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_ETH | HW_HDR_IPV4);
    CHECK_EQ(rule.outer.eth_mask.type, 0);
}

static void
test_metadata(void)
{
    struct match match;
    struct hw_rule rule;

    /* in_port: this port, or wildcarded, or a mask this port satisfies. */
    dp_match_init_udp(&match);
    match.flow.in_port.odp_port = u32_to_odp(TEST_PORT + 1);
    CHECK_REFUSED(&match, "match on in_port 4 not supported");
    match.wc.masks.in_port.odp_port = u32_to_odp(0);
    CHECK_ACCEPTED(&match, &rule);
    match.flow.in_port.odp_port = u32_to_odp(TEST_PORT & 1);
    match.wc.masks.in_port.odp_port = u32_to_odp(1);
    CHECK_ACCEPTED(&match, &rule);

    /* recirc_id: 0 under any mask is fine. */
    dp_match_init_udp(&match);
    match_set_recirc_id(&match, 1);
    CHECK_REFUSED(&match, "match on recirc_id 0x1 not supported");
    match.flow.recirc_id = 0x20;
    match.wc.masks.recirc_id = 0xf0;
    CHECK_REFUSED(&match, "match on recirc_id 0x20 not supported");
    match.wc.masks.recirc_id = 0x0f;
    CHECK_ACCEPTED(&match, &rule);

    dp_match_init_udp(&match);
    match_set_packet_type(&match, htonl(PT_IPV4));
    CHECK_REFUSED(&match, "match on packet_type 0x10800 not supported");

    /* Conntrack: a packet fresh from the port is untracked. */
    dp_match_init_udp(&match);
    match_set_ct_state_masked(&match, CS_TRACKED, CS_TRACKED);
    CHECK_REFUSED(&match, "match on ct_state not supported");
    match_set_ct_state_masked(&match, 0, CS_TRACKED);
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_UDP);
    match_set_ct_zone(&match, 3);
    CHECK_REFUSED(&match, "match on ct_zone not supported");
    dp_match_init_udp(&match);
    match_set_ct_mark(&match, 1);
    CHECK_REFUSED(&match, "match on ct_mark not supported");
    dp_match_init_udp(&match);
    match_set_ct_label(&match, (ovs_u128) { .u64 = { 1, 0 } });
    CHECK_REFUSED(&match, "match on ct_label not supported");
    dp_match_init_udp(&match);
    match_set_ct_nw_src(&match, htonl(1));
    CHECK_REFUSED(&match, "match on ct_nw_src not supported");

    /* pkt_mark, skb_priority, dp_hash: zero on a fresh packet. */
    dp_match_init_udp(&match);
    match_set_pkt_mark(&match, 7);
    CHECK_REFUSED(&match, "match on pkt_mark not supported");
    match_set_pkt_mark(&match, 0);
    CHECK_ACCEPTED(&match, &rule);
    dp_match_init_udp(&match);
    match_set_skb_priority(&match, 2);
    CHECK_REFUSED(&match, "match on skb_priority not supported");
    dp_match_init_udp(&match);
    match_set_dp_hash_masked(&match, 0x10, 0xff);
    CHECK_REFUSED(&match, "match on dp_hash not supported");

    /* Tunnel metadata: none on a packet from a physical port. */
    dp_match_init_udp(&match);
    match_set_tun_id(&match, htonll(5));
    CHECK_REFUSED(&match, "match on tun_id not supported");
    dp_match_init_udp(&match);
    match_set_tun_dst(&match, htonl(0x0a000002));
    CHECK_REFUSED(&match, "match on tun_dst not supported");
    dp_match_init_udp(&match);
    match_set_tun_dst(&match, htonl(0));
    match_set_tun_flags_masked(&match, 0, FLOW_TNL_F_MASK);
    CHECK_ACCEPTED(&match, &rule);
    /* The option table pointer is not a packet field. */
    match.flow.tunnel.metadata.tab = (const struct tun_table *) &match;
    match.wc.masks.tunnel.metadata.tab = (const struct tun_table *) &rule;
    CHECK_ACCEPTED(&match, &rule);

    /* OpenFlow-only fields never reach a datapath flow, but if they did. */
    dp_match_init_udp(&match);
    match_set_reg(&match, 0, 0);
    CHECK_REFUSED(&match, "match on regs not supported");
    dp_match_init_udp(&match);
    match_set_metadata(&match, htonll(0));
    CHECK_REFUSED(&match, "match on metadata not supported");
}

static void
test_l3_l4_refusals(void)
{
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    match_set_nw_ttl(&match, 64);
    CHECK_REFUSED(&match, "match on nw_ttl not supported");

    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_TCP);
    match_set_tcp_flags(&match, htons(TCP_SYN));
    CHECK_REFUSED(&match, "match on tcp_flags not supported");

    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_ICMP);
    match_set_icmp_type(&match, 8);
    CHECK_REFUSED(&match, "match on icmp type/code not supported");
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_ICMP);
    match_set_icmp_code(&match, 0);
    CHECK_REFUSED(&match, "match on icmp type/code not supported");

    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_SCTP);
    match_set_tp_dst(&match, htons(9));
    CHECK_REFUSED(&match, "match on sctp ports not supported");

    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_IGMP);
    match_set_tp_src(&match, htons(0x11));
    CHECK_REFUSED(&match, "match on igmp fields not supported");

    /* ARP fields. */
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_ARP));
    match_set_arp_spa_masked(&match, htonl(0x0a000001), OVS_BE32_MAX);
    CHECK_REFUSED(&match, "match on arp fields not supported");
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_ARP));
    match_set_arp_opcode_masked(&match, 1, 0xff);
    CHECK_REFUSED(&match, "match on arp fields not supported");
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_RARP));
    match_set_arp_sha(&match, eth_addr_broadcast);
    CHECK_REFUSED(&match, "match on arp fields not supported");

    /* Fragments: "not a fragment" is consumed (the hardware cannot tell,
     * see hw-translate.c); "first" and "later" are refused. */
    dp_match_init_udp(&match);
    match_set_nw_frag_masked(&match, 0, FLOW_NW_FRAG_ANY);
    CHECK_ACCEPTED(&match, &rule);
    match_set_nw_frag_masked(&match, FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_MASK);
    CHECK_REFUSED(&match, "match on nw_frag not supported");
    match_set_nw_frag_masked(&match, FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER,
                             FLOW_NW_FRAG_MASK);
    CHECK_REFUSED(&match, "match on nw_frag not supported");
    match_set_nw_frag_masked(&match, 0, FLOW_NW_FRAG_LATER);
    CHECK_REFUSED(&match, "match on nw_frag not supported");
    dp_match_init(&match);
    match_set_nw_frag_masked(&match, 0, FLOW_NW_FRAG_MASK);
    CHECK_REFUSED(&match, "match on nw_frag not supported");
}

/* Translates 'match' (output to port 1) for a device with the pipeline of
 * tables.  Returns the errno; 'reason' gets the refusal. */
static int
translate_pipeline(const struct match *match, struct hw_rule *rule,
                   struct ds *reason)
{
    struct hw_translate_params params = {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
        .pipeline = true,
    };
    struct ofpbuf output;
    int error;

    ofpbuf_init(&output, 0);
    put_output(&output, 1);
    memset(rule, 0xa5, sizeof *rule);
    error = hw_translate_flow(match, output.data, output.size, &params,
                              rule, reason);
    ofpbuf_uninit(&output);
    return error;
}

/* With the mlx5 matcher of the pipeline, the fields verbs lacks are
 * matched: TTL and hop limit, the fragment bit, TCP flags, ICMP type and
 * code.  What the matcher cannot say either stays refused. */
static void
test_pipeline_fields(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct match match;
    struct hw_rule rule;

    /* A routed flow: TTL 64 exactly, not a fragment. */
    dp_match_init_udp(&match);
    match_set_nw_ttl(&match, 64);
    match_set_nw_frag_masked(&match, 0, FLOW_NW_FRAG_MASK);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext.ttl, 64);
    CHECK_EQ(rule.outer.ext_mask.ttl, 0xff);
    CHECK_EQ(rule.outer.ext.frag, 0);
    CHECK_EQ(rule.outer.ext_mask.frag, 1);
    CHECK(rule.has_tag && rule.tag == TEST_MARK);

    /* Any fragment. */
    match_set_nw_frag_masked(&match, FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_ANY);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext.frag, 1);
    CHECK_EQ(rule.outer.ext_mask.frag, 1);

    /* First or later fragment: one bit cannot tell. */
    match_set_nw_frag_masked(&match, FLOW_NW_FRAG_ANY, FLOW_NW_FRAG_MASK);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "match on nw_frag not supported");
    ds_clear(&reason);

    /* Hop limit. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IPV6));
    match_set_nw_ttl(&match, 255);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext.ttl, 255);
    CHECK(rule.outer.present & HW_HDR_IPV6);

    /* TCP flags: the matcher has the low 9. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_TCP);
    match_set_tcp_flags_masked(&match, htons(TCP_SYN), htons(TCP_SYN
                                                             | TCP_ACK));
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(ntohs(rule.outer.ext.tcp_flags), TCP_SYN);
    CHECK_EQ(ntohs(rule.outer.ext_mask.tcp_flags), TCP_SYN | TCP_ACK);
    CHECK(rule.outer.present & HW_HDR_TCP);
    match_set_tcp_flags_masked(&match, htons(0), htons(0x0e00));
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "match on tcp_flags not supported");
    ds_clear(&reason);

    /* ICMP echo request, and ICMPv6 echo reply. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_ICMP);
    match_set_icmp_type(&match, 8);
    match_set_icmp_code(&match, 0);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext.icmp_type, 8);
    CHECK_EQ(rule.outer.ext_mask.icmp_type, 0xff);
    CHECK_EQ(rule.outer.ext.icmp_code, 0);
    CHECK_EQ(rule.outer.ext_mask.icmp_code, 0xff);
    CHECK_EQ(rule.outer.ipv4.proto, IPPROTO_ICMP);
    dp_match_init_ip(&match, htons(ETH_TYPE_IPV6));
    match_set_nw_proto(&match, IPPROTO_ICMPV6);
    match_set_icmp_type(&match, 129);
    CHECK_ERR(translate_pipeline(&match, &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext.icmp_type, 129);

    /* Without the pipeline, the same flows stay refused. */
    dp_match_init_udp(&match);
    match_set_nw_ttl(&match, 64);
    CHECK_REFUSED(&match, "match on nw_ttl not supported");
    ds_destroy(&reason);
}

/* Values outside their masks (OVS's setters never produce them, but a
 * caller could) never reach the rule. */
static void
test_values_outside_masks(void)
{
    struct match match;
    struct hw_rule rule;

    dp_match_init_ipv4(&match);
    match.flow.nw_src = htonl(0x0a010203);
    match.wc.masks.nw_src = htonl(0xffffff00);
    match.flow.nw_dst = htonl(0xffffffff);
    match.flow.nw_tos = 0xff;
    match.wc.masks.nw_tos = 0x03;
    match.flow.nw_proto = IPPROTO_UDP;
    match.wc.masks.nw_proto = 0xff;
    match.flow.tp_src = htons(0xffff);
    match.wc.masks.tp_src = htons(0xff00);
    match.flow.tp_dst = htons(0x1234);
    match.flow.dl_dst = eth_addr_broadcast;
    match.wc.masks.dl_dst = (struct eth_addr) ETH_ADDR_C(01, 00, 00, 00, 00,
                                                         00);
    match.flow.dl_src = eth_addr_broadcast;
    match.flow.vlans[0].tpid = htons(0);
    match.flow.ipv6_label = OVS_BE32_MAX;
    match.flow.nw_ttl = 64;
    CHECK_ACCEPTED(&match, &rule);
    CHECK_EQ(ntohl(rule.outer.ipv4.src), 0x0a010200);
    CHECK_EQ(rule.outer.ipv4.dst, 0);
    CHECK_EQ(rule.outer.ipv4_mask.dst, 0);
    CHECK_EQ(rule.outer.ipv4.tos, 0x03);
    CHECK_EQ(ntohs(rule.outer.l4.src), 0xff00);
    CHECK_EQ(rule.outer.l4.dst, 0);
    CHECK(eth_addr_equals(rule.outer.eth.dst,
                          (struct eth_addr) ETH_ADDR_C(01, 00, 00, 00, 00,
                                                       00)));
    CHECK(eth_addr_is_zero(rule.outer.eth.src));

    /* The same for IPv6. */
    dp_match_init_ipv6(&match);
    memset(&match.flow.ipv6_src, 0xff, sizeof match.flow.ipv6_src);
    CHECK(inet_pton(AF_INET6, "ffff::", &match.wc.masks.ipv6_src) == 1);
    match.flow.ipv6_label = htonl(0xfffff);
    match.wc.masks.ipv6_label = htonl(0xff);
    match.flow.nw_tos = 0xff;
    match.wc.masks.nw_tos = 0xfc;
    CHECK_ACCEPTED(&match, &rule);
    CHECK(in6_equal(&rule.outer.ipv6.src, "ffff::"));
    CHECK(ipv6_mask_is_any(&rule.outer.ipv6.dst));
    CHECK_EQ(ntohl(rule.outer.ipv6.label), 0xff);
    CHECK_EQ(rule.outer.ipv6.tclass, 0xfc);
}

static void
test_actions(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);

    /* No action: drop, fully in hardware, no mark needed. */
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, NULL), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK(rule.count);
    CHECK(!rule.has_tag);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);

    /* An explicit drop: the same. */
    put_drop(&actions);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK(!rule.has_tag);

    /* Output then drop: software still outputs. */
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    put_drop(&actions);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, TEST_MARK);
    CHECK(rule.count);

    /* Any other action list is a partial offload. */
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 7);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);

    /* Marks: 1 .. 2^24 - 1. */
    CHECK_EQ(translate_mark(&match, &actions, 1, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0xffffff, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 0xffffff);
    CHECK_EQ(translate_mark(&match, &actions, 0x1000000, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 16777216 does not fit the 24-bit tag");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "flow mark 0 does not fit the 24-bit tag");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, UINT32_MAX, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 4294967295 does not fit the 24-bit tag");
    ds_clear(&reason);

    /* A refused match wins over a bad mark and is reported first. */
    match_set_nw_ttl(&match, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason),
             EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "match on nw_ttl not supported");
    ds_clear(&reason);

    /* Truncated netlink. */
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    actions.size -= 2;
    CHECK_EQ(translate_mark(&match, &actions, TEST_MARK, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed actions");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* Every byte of struct flow, matched with a non-zero value, is either
 * translated or refused with a reason that names its field: nothing is
 * ignored and nothing is refused anonymously. */
static void
test_every_field_named(void)
{
    struct match base;

    dp_match_init_udp(&base);
    for (size_t ofs = 0; ofs < sizeof base.flow; ofs++) {
        static const uint8_t values[] = { 0x01, 0x80, 0xff };

        for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
            struct ds reason = DS_EMPTY_INITIALIZER;
            struct match match = base;
            struct hw_rule rule;
            int error;

            ((uint8_t *) &match.flow)[ofs] |= values[i];
            ((uint8_t *) &match.wc.masks)[ofs] |= values[i];
            error = translate_mark(&match, NULL, TEST_MARK, &rule, &reason);
            if (error) {
                CHECK_EQ(error, EOPNOTSUPP);
                if (strstr(ds_cstr(&reason), "offset")
                    || !strstr(ds_cstr(&reason), "match on ")
                    || !strstr(ds_cstr(&reason), " not supported")) {
                    ovs_abort(0, "byte %"PRIuSIZE": bad reason \"%s\"",
                              ofs, ds_cstr(&reason));
                }
            }
            ds_destroy(&reason);
        }
    }
}

/* A flow whose only match is a masked field must be refused unless the
 * field is one translate handles: spot-check that fields the hardware cannot
 * match never get through, whatever byte of them is set. */
static void
test_untranslatable_fields(void)
{
    static const struct {
        size_t ofs, len;
        const char *reason;
    } fields[] = {
#define F(MEMBER, REASON)                                               \
        { offsetof(struct flow, MEMBER),                                \
          MEMBER_SIZEOF(struct flow, MEMBER), REASON }
        F(tunnel.tun_id, "match on tun_id not supported"),
        F(tunnel.ip_src, "match on tun_src not supported"),
        F(tunnel.ipv6_dst, "match on tun_ipv6_dst not supported"),
        F(tunnel.tp_dst, "match on tun_tp_dst not supported"),
        F(tunnel.gbp_id, "match on tun_gbp_id not supported"),
        F(tunnel.metadata.opts, "match on tunnel options not supported"),
        F(regs, "match on regs not supported"),
        F(conj_id, "match on conj_id not supported"),
        F(actset_output, "match on actset_output not supported"),
        F(mpls_lse, "match on mpls not supported"),
        F(nw_ttl, "match on nw_ttl not supported"),
        F(nd_target, "match on nd_target not supported"),
        F(arp_sha, "match on arp_sha not supported"),
        F(tcp_flags, "match on tcp_flags not supported"),
        F(nsh, "match on nsh not supported"),
        F(ct_tp_dst, "match on ct_tp_dst not supported"),
        F(igmp_group_ip4, "match on igmp_group_ip4 not supported"),
#undef F
    };

    for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
        for (size_t j = 0; j < fields[i].len; j++) {
            struct match match;

            dp_match_init_udp(&match);
            ((uint8_t *) &match.flow)[fields[i].ofs + j] = 0x10;
            ((uint8_t *) &match.wc.masks)[fields[i].ofs + j] = 0x10;
            CHECK_REFUSED(&match, fields[i].reason);
        }
    }
}

static void
test_priority_and_rss_bands(void)
{
    struct hw_rule rule;

    memset(&rule, 0, sizeof rule);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 2);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4);

    rule.outer.present = HW_HDR_ETH;
    rule.outer.eth_mask.tci = htons(0x1000);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED + 2);
    rule.outer.present |= HW_HDR_IPV6;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED + 1);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6);
    rule.outer.present |= HW_HDR_TCP;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_TCP);

    rule.outer.eth_mask.tci = htons(0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    rule.outer.present = HW_HDR_IPV4 | HW_HDR_UDP;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_UDP);
    rule.outer.present = HW_HDR_IPV4;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED + 1);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4);
    rule.outer.present = HW_HDR_IPV6 | HW_HDR_UDP;
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_UDP);

    /* Every band stays below the guard or between it and the miss rules,
     * and within the 0..15 verbs accepts. */
    CHECK(HW_PRIO_TAGGED + 2 < HW_PRIO_VLAN_GUARD);
    CHECK(HW_PRIO_VLAN_GUARD < HW_PRIO_TUNNEL_GUARD);
    CHECK(HW_PRIO_TUNNEL_GUARD < HW_PRIO_TUNNEL);
    CHECK(HW_PRIO_TUNNEL + 2 < HW_PRIO_UNTAGGED);
    CHECK(HW_PRIO_UNTAGGED + 2 < HW_PRIO_MISS_L4);
    CHECK(HW_PRIO_MISS_L3 <= 15);
}

/* Tunnels. */

#define TEST_VPORT 4789         /* The vxlan vport's odp port. */
#define TEST_VPORT_MARK 9

/* A vport flow as dpif-netdev puts it after a VXLAN tnl_pop: the tunnel
 * metadata as tnl_wc_init() unwildcards it (src, dst, tun_id and tos
 * exact, the df/csum/key flags, never ttl nor the UDP ports), in_port the
 * vport, and an inner TCP packet to 10.0.0.2:80. */
static void
vport_match_init(struct match *match, bool ipv6)
{
    match_init_catchall(match);
    match->flow.in_port.odp_port = u32_to_odp(TEST_VPORT);
    match->wc.masks.in_port.odp_port = u32_to_odp(UINT32_MAX);
    match_set_recirc_id(match, 0);
    match_set_packet_type(match, htonl(PT_ETH));
    match->wc.masks.vlans[0].tpid = OVS_BE16_MAX;
    match->wc.masks.vlans[0].tci = OVS_BE16_MAX;

    match_set_tun_id(match, htonll(0x7b));
    if (ipv6) {
        struct in6_addr src, dst;

        CHECK(inet_pton(AF_INET6, "2001:db8::92", &src) == 1);
        CHECK(inet_pton(AF_INET6, "2001:db8::88", &dst) == 1);
        match_set_tun_ipv6_src(match, &src);
        match_set_tun_ipv6_dst(match, &dst);
    } else {
        match_set_tun_src(match, htonl(0x0101025c));
        match_set_tun_dst(match, htonl(0x01010258));
    }
    match->flow.tunnel.flags = FLOW_TNL_F_KEY;
    match->wc.masks.tunnel.flags = (FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM
                                    | FLOW_TNL_F_KEY);
    match_set_tun_tos(match, 0);

    match_set_dl_type(match, htons(ETH_TYPE_IP));
    match_set_nw_frag_masked(match, 0, FLOW_NW_FRAG_MASK);
    match_set_nw_dst(match, htonl(0x0a000002));
    match_set_nw_proto(match, IPPROTO_TCP);
    match_set_tp_dst(match, htons(80));
}

static void
vport_params_init(struct hw_translate_params *params, enum hw_tunnel_type t)
{
    memset(params, 0, sizeof *params);
    params->flow_mark = TEST_VPORT_MARK;
    params->in_port = u32_to_odp(TEST_VPORT);
    params->vport = t;
    params->vport_udp_port = t == HW_TUNNEL_VXLAN ? htons(4789) : htons(0);
}

/* Translates the vport flow 'match' with an output action.  The rule must
 * come out as nothing or as a sane rule, as translate_mark() checks. */
static int
translate_vport(const struct match *match, enum hw_tunnel_type t,
                struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params params;
    struct ds s = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    int error;

    vport_params_init(&params, t);
    ofpbuf_init(&actions, 0);
    put_output(&actions, 1);
    memset(rule, 0x5a, sizeof *rule);
    error = hw_translate_flow(match, actions.data, actions.size, &params,
                              rule, &s);
    if (!error) {
        CHECK_STR(ds_cstr(&s), "");
        check_rule_sane(rule);
    } else {
        struct hw_rule zero;

        memset(&zero, 0, sizeof zero);
        CHECK(!memcmp(rule, &zero, sizeof zero));
    }
    if (reason) {
        ds_put_cstr(reason, ds_cstr(&s));
    }
    ds_destroy(&s);
    ofpbuf_uninit(&actions);
    return error;
}

static void
check_vport_refused_at(const struct match *match, enum hw_tunnel_type t,
                       const char *expected, const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    error = translate_vport(match, t, &rule, &reason);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (EOPNOTSUPP), got "
                  "\"%s\" (%s)", file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_VPORT_REFUSED(MATCH, TYPE, REASON) \
    check_vport_refused_at(MATCH, TYPE, REASON, __FILE__, __LINE__)

/* A vport flow becomes one rule on the physical port: the outer headers
 * from the tunnel metadata, the VNI, an L2 decap, the inner headers and the
 * vport flow's own mark. */
static void
test_vport_vxlan(void)
{
    struct hw_translate_params params;
    struct hw_tunnel_restore restore;
    struct match match;
    struct hw_rule rule;
    struct ofpbuf drop;

    vport_match_init(&match, false);
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_VXLAN, &rule, NULL), 0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohl(rule.outer.ipv4.src), 0x0101025c);
    CHECK_EQ(ntohl(rule.outer.ipv4_mask.src), 0xffffffff);
    CHECK_EQ(ntohl(rule.outer.ipv4.dst), 0x01010258);
    CHECK_EQ(ntohl(rule.outer.ipv4_mask.dst), 0xffffffff);
    CHECK_EQ(rule.outer.ipv4.tos, 0);
    CHECK_EQ(rule.outer.ipv4_mask.tos, 0xff);
    CHECK_EQ(rule.outer.ipv4_mask.proto, 0);
    CHECK_EQ(ntohs(rule.outer.l4.dst), 4789);
    CHECK_EQ(ntohs(rule.outer.l4_mask.dst), 0xffff);
    CHECK_EQ(rule.outer.l4_mask.src, 0);
    CHECK_EQ(ntohl(rule.tnl.vni), 0x7b);
    CHECK_EQ(ntohl(rule.tnl_mask.vni), 0xffffff);
    CHECK_EQ(rule.tnl_mask.gre_key, 0);
    CHECK_EQ(rule.inner.present, HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK_EQ(ntohl(rule.inner.ipv4.dst), 0x0a000002);
    CHECK_EQ(ntohs(rule.inner.l4.dst), 80);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    CHECK_EQ(rule.reformat_len, 0);
    CHECK(!rule.egress);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, TEST_VPORT_MARK);
    CHECK(!rule.full);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TUNNEL);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_TCP);

    /* What recovery gives the decapsulated packets. */
    vport_params_init(&params, HW_TUNNEL_VXLAN);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(ntohl(restore.tunnel.ip_src), 0x0101025c);
    CHECK_EQ(ntohl(restore.tunnel.ip_dst), 0x01010258);
    CHECK(ipv6_mask_is_any(&restore.tunnel.ipv6_dst));
    CHECK_EQ(ntohll(restore.tunnel.tun_id), 0x7b);
    CHECK_EQ(restore.tunnel.flags, FLOW_TNL_F_KEY);
    CHECK_EQ(restore.tunnel.ip_tos, 0);
    CHECK_EQ(ntohs(restore.tunnel.tp_dst), 4789);
    CHECK_EQ(restore.tunnel.tp_src, 0);
    CHECK_EQ(ntohl(restore.packet_type), PT_ETH);

    /* DF cannot be matched (OpenFlow cannot see it either): consumed, and
     * given back as the flow had it.  The TOS can. */
    match.flow.tunnel.flags |= FLOW_TNL_F_DONT_FRAGMENT;
    match_set_tun_tos(&match, 0xb8);
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_VXLAN, &rule, NULL), 0);
    CHECK_EQ(rule.outer.ipv4.tos, 0xb8);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.flags, FLOW_TNL_F_KEY | FLOW_TNL_F_DONT_FRAGMENT);
    CHECK_EQ(restore.tunnel.ip_tos, 0xb8);

    /* IPv6 outer. */
    vport_match_init(&match, true);
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_VXLAN, &rule, NULL), 0);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV6 | HW_HDR_UDP);
    CHECK(in6_equal(&rule.outer.ipv6.src, "2001:db8::92"));
    CHECK(ipv6_mask_is_exact(&rule.outer.ipv6_mask.dst));
    CHECK_EQ(rule.outer.ipv6_mask.tclass, 0xff);
    CHECK_EQ(rule.outer.ipv6_mask.next_hdr, 0);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK(in6_equal(&restore.tunnel.ipv6_dst, "2001:db8::88"));
    CHECK_EQ(restore.tunnel.ip_dst, 0);

    /* A vport flow that drops: no decap needed (nor allowed with DROP). */
    vport_match_init(&match, false);
    vport_params_init(&params, HW_TUNNEL_VXLAN);
    ofpbuf_init(&drop, 0);
    CHECK_EQ(hw_translate_flow(&match, drop.data, drop.size, &params, &rule,
                                NULL), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK_EQ(rule.reformat, HW_REFORMAT_NONE);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    ofpbuf_uninit(&drop);
}

static void
test_vport_gre(void)
{
    struct hw_translate_params params;
    struct hw_tunnel_restore restore;
    struct eth_header eth;
    struct match match;
    struct hw_rule rule;

    /* GRE carrying Ethernet (TEB) with a key. */
    vport_match_init(&match, false);
    match_set_tun_id(&match, htonll(0x1c8));
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_GRE, &rule, NULL), 0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_GRE);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4);
    CHECK_EQ(ntohs(rule.tnl.gre_protocol), ETH_TYPE_TEB);
    CHECK_EQ(ntohs(rule.tnl_mask.gre_protocol), 0xffff);
    CHECK_EQ(ntohl(rule.tnl.gre_key), 0x1c8);
    CHECK_EQ(ntohl(rule.tnl_mask.gre_key), 0xffffffff);
    CHECK_EQ(rule.tnl_mask.vni, 0);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    vport_params_init(&params, HW_TUNNEL_GRE);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.tp_dst, 0);
    CHECK_EQ(ntohll(restore.tunnel.tun_id), 0x1c8);

    /* A keyless GRE port: tun_id 0 "-key", matched as key 0. */
    match_set_tun_id(&match, htonll(0));
    match.flow.tunnel.flags = 0;
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_GRE, &rule, NULL), 0);
    CHECK_EQ(rule.tnl.gre_key, 0);
    CHECK_EQ(ntohl(rule.tnl_mask.gre_key), 0xffffffff);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.flags, 0);

    /* ip6gre: the same over an IPv6 outer, addresses and traffic class
     * matched exactly, and given back as IPv6 tunnel metadata. */
    vport_match_init(&match, true);
    match_set_tun_id(&match, htonll(0x1c8));
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_GRE, &rule, NULL), 0);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV6);
    CHECK(in6_equal(&rule.outer.ipv6.src, "2001:db8::92"));
    CHECK(in6_equal(&rule.outer.ipv6.dst, "2001:db8::88"));
    CHECK(ipv6_mask_is_exact(&rule.outer.ipv6_mask.src));
    CHECK(ipv6_mask_is_exact(&rule.outer.ipv6_mask.dst));
    CHECK_EQ(rule.outer.ipv6_mask.tclass, 0xff);
    CHECK_EQ(ntohs(rule.tnl.gre_protocol), ETH_TYPE_TEB);
    CHECK_EQ(ntohl(rule.tnl.gre_key), 0x1c8);
    CHECK_EQ(ntohl(rule.tnl_mask.gre_key), 0xffffffff);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK(in6_equal(&restore.tunnel.ipv6_src, "2001:db8::92"));
    CHECK(in6_equal(&restore.tunnel.ipv6_dst, "2001:db8::88"));
    CHECK_EQ(restore.tunnel.ip_dst, 0);
    CHECK_EQ(ntohll(restore.tunnel.tun_id), 0x1c8);
    CHECK_EQ(restore.tunnel.flags, FLOW_TNL_F_KEY);
    CHECK_EQ(restore.tunnel.tp_dst, 0);
    /* A GRE checksum the NIC would not verify. */
    match.flow.tunnel.flags |= FLOW_TNL_F_CSUM;
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_GRE, "tunnel with checksum not "
                        "supported: the NIC would not verify it");

    /* GRE carrying IPv4 (packet_type legacy_l3), over IPv4, then over
     * IPv6 (a "gre" port with an IPv6 remote_ip): an L3 decap whose data
     * is the Ethernet header put in front of the IPv4 packet, which
     * recovery removes again. */
    for (int ipv6 = 1; ipv6 >= 0; ipv6--) {
        vport_match_init(&match, ipv6);
        match_set_tun_id(&match, htonll(0x1c8));
        match_set_packet_type(&match, htonl(PT_IPV4));
        match.wc.masks.vlans[0].tpid = htons(0);
        match.wc.masks.vlans[0].tci = htons(0);
        CHECK_EQ(translate_vport(&match, HW_TUNNEL_GRE, &rule, NULL), 0);
        CHECK_EQ(rule.outer.present, ipv6 ? HW_HDR_IPV6 : HW_HDR_IPV4);
        CHECK_EQ(ntohs(rule.tnl.gre_protocol), ETH_TYPE_IP);
        CHECK_EQ(rule.reformat, HW_REFORMAT_L3_DECAP);
        CHECK_EQ(rule.reformat_len, ETH_HEADER_LEN);
        memcpy(&eth, rule.reformat_data, sizeof eth);
        CHECK_EQ(ntohs(eth.eth_type), ETH_TYPE_IP);
        CHECK(eth_addr_is_zero(eth.eth_dst)
              && eth_addr_is_zero(eth.eth_src));
        CHECK_EQ(rule.inner.present, HW_HDR_IPV4 | HW_HDR_TCP);
        CHECK(!(rule.inner.present & HW_HDR_ETH));
        hw_translate_tunnel_restore(&match, &params, &restore);
        CHECK_EQ(ntohl(restore.packet_type), PT_IPV4);
    }

    /* VXLAN carries Ethernet only. */
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on packet_type 0x10800 not supported");
}

/* What the NIC cannot match, or what could not be given back to the
 * decapsulated packets, keeps the flow in software. */
static void
test_vport_refusals(void)
{
    struct match match;
    struct hw_rule rule;

    vport_match_init(&match, false);
    match.flow.tunnel.flags |= FLOW_TNL_F_CSUM;
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN, "tunnel with checksum not "
                        "supported: the NIC would not verify it");

    vport_match_init(&match, false);
    match.flow.tunnel.flags |= FLOW_TNL_F_OAM;
    match.wc.masks.tunnel.flags |= FLOW_TNL_F_OAM;
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tunnel OAM flag not supported");
    match.flow.tunnel.flags &= ~FLOW_TNL_F_OAM;
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_VXLAN, &rule, NULL), 0);

    vport_match_init(&match, false);
    match_set_tun_ttl(&match, 64);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tun_ttl not supported");

    vport_match_init(&match, false);
    match.flow.tunnel.tp_src = htons(1234);
    match.wc.masks.tunnel.tp_src = OVS_BE16_MAX;
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tun_tp_src not supported");

    vport_match_init(&match, false);
    match_set_tun_tp_dst(&match, htons(4790));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tun_tp_dst 4790 not supported");
    match_set_tun_tp_dst(&match, htons(4789));
    CHECK_EQ(translate_vport(&match, HW_TUNNEL_VXLAN, &rule, NULL), 0);

    vport_match_init(&match, false);
    match_set_tun_src_masked(&match, htonl(0x01010200), htonl(0xffffff00));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "partial match on tun_src not supported");
    match.wc.masks.tunnel.ip_src = htonl(0);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "missing match on tun_src not supported");

    vport_match_init(&match, false);
    match_set_tun_dst_masked(&match, htonl(0x01010200), htonl(0xffffff00));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "partial match on tun_dst not supported");
    match.wc.masks.tunnel.ip_dst = htonl(0);
    match.flow.tunnel.ip_dst = htonl(0);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "vport flow without a tunnel destination");

    vport_match_init(&match, false);
    match_set_tun_tos_masked(&match, 0xb8, 0xfc);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "partial match on tun_tos not supported");

    vport_match_init(&match, false);
    match.wc.masks.tunnel.tun_id = htonll(0);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "missing match on tun_id not supported");
    match_set_tun_id(&match, htonll(1u << 24));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "tun_id 0x1000000 is not a VNI");
    match_set_tun_id(&match, htonll(UINT64_C(1) << 32));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_GRE,
                        "tun_id 0x100000000 is not a GRE key");

    /* Options and the fields of other tunnel types. */
    vport_match_init(&match, false);
    match_set_tun_gbp_id(&match, htons(5));
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tun_gbp_id not supported");
    vport_match_init(&match, false);
    match.flow.tunnel.metadata.present.map = 1;
    match.wc.masks.tunnel.metadata.present.map = 1;
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on tunnel options not supported");

    /* The VXLAN port must be known. */
    vport_match_init(&match, false);
    {
        struct hw_translate_params params;
        struct ofpbuf actions;
        struct ds reason = DS_EMPTY_INITIALIZER;

        vport_params_init(&params, HW_TUNNEL_VXLAN);
        params.vport_udp_port = htons(0);
        ofpbuf_init(&actions, 0);
        put_output(&actions, 1);
        CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size,
                                    &params, &rule, &reason), EOPNOTSUPP);
        CHECK_STR(ds_cstr(&reason), "VXLAN vport without UDP port");
        ds_destroy(&reason);
        ofpbuf_uninit(&actions);
    }

    /* An inner frame that must carry a VLAN tag: tunnel rules sit behind
     * the inner VLAN guard.  One that must not carry one is fine. */
    vport_match_init(&match, false);
    match_set_dl_vlan(&match, htons(100), 0);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    CHECK_VPORT_REFUSED(&match, HW_TUNNEL_VXLAN,
                        "match on inner vlan_tci 0x1064/0xffff not "
                        "supported");
}

/* The flow that pops the tunnel keeps an ordinary partial rule: no decap
 * (its match says nothing of the VNI or the outer source, which the vport
 * flows match on), and no push. */
static void
test_tnl_pop_flow(void)
{
    struct hw_push push;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_ipv4(&match);
    match_set_dl_dst(&match, (struct eth_addr) ETH_ADDR_C(aa, 55, aa, 55,
                                                          00, 00));
    match_set_nw_dst(&match, htonl(0x01010258));
    match_set_nw_proto(&match, IPPROTO_UDP);
    match_set_tp_dst(&match, htons(4789));
    ofpbuf_init(&actions, 0);
    nl_msg_put_odp_port(&actions, OVS_ACTION_ATTR_TUNNEL_POP,
                        u32_to_odp(TEST_VPORT));
    CHECK_EQ(translate_mark(&match, &actions, TEST_MARK, &rule, NULL), 0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_NONE);
    CHECK_EQ(rule.reformat, HW_REFORMAT_NONE);
    CHECK(rule.has_tag && !rule.full);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);
    CHECK_EQ(hw_translate_push(&rule, actions.data, actions.size, &push,
                                NULL), ENOENT);
    ofpbuf_uninit(&actions);
}

/* Tunnel push. */

/* The header netdev_vxlan_build_header() makes for a VXLAN port with remote
 * 1.1.2.92 (or 2001:db8::92) and VNI 0x7b: Ethernet, IP with DF and TTL 64
 * (IPv4 checksum of the header with total length 0), UDP to 4789 with
 * source port and checksum 0, VXLAN. */
static size_t
vxlan_header(uint8_t *h, bool ipv6, uint16_t udp_csum)
{
    static const uint8_t eth4[] = {
        0xf8, 0xbc, 0x12, 0x44, 0x34, 0xb6, 0xaa, 0x55, 0xaa, 0x55, 0x00,
        0x00, 0x08, 0x00,
    };
    static const uint8_t ip4[] = {
        0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00,
        0x00, 0x01, 0x01, 0x02, 0x58, 0x01, 0x01, 0x02, 0x5c,
    };
    static const uint8_t ip6[] = {
        0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x40,
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x88,
        0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x92,
    };
    const uint8_t udp_vxlan[] = {
        0x00, 0x00, 0x12, 0xb5, 0x00, 0x00, udp_csum >> 8, udp_csum & 0xff,
        0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7b, 0x00,
    };
    size_t n = 0;

    memcpy(h, eth4, sizeof eth4);
    if (ipv6) {
        h[12] = 0x86;
        h[13] = 0xdd;
    }
    n += sizeof eth4;
    if (ipv6) {
        memcpy(h + n, ip6, sizeof ip6);
        n += sizeof ip6;
    } else {
        memcpy(h + n, ip4, sizeof ip4);
        n += sizeof ip4;
    }
    memcpy(h + n, udp_vxlan, sizeof udp_vxlan);
    return n + sizeof udp_vxlan;
}

/* A GRE header over IPv4 to 1.1.2.92, or over IPv6 to 2001:db8::92 if
 * 'ipv6' (an ip6gre header), with 'flags' (GRE_KEY adds key 0x1c8) and
 * 'protocol'. */
static size_t
gre_header_ip(uint8_t *h, bool ipv6, uint16_t flags, uint16_t protocol)
{
    size_t n = vxlan_header(h, ipv6, 0) - 16;

    /* The IPv4 protocol or the IPv6 next header. */
    h[ipv6 ? 20 : 23] = IPPROTO_GRE;
    h[n++] = flags >> 8;
    h[n++] = flags & 0xff;
    h[n++] = protocol >> 8;
    h[n++] = protocol & 0xff;
    if (flags & GRE_CSUM) {
        memset(h + n, 0, 4);
        n += 4;
    }
    if (flags & GRE_KEY) {
        static const uint8_t key[] = { 0x00, 0x00, 0x01, 0xc8 };

        memcpy(h + n, key, sizeof key);
        n += sizeof key;
    }
    if (flags & GRE_SEQ) {
        memset(h + n, 0, 4);
        n += 4;
    }
    return n;
}

static size_t
gre_header(uint8_t *h, uint16_t flags, uint16_t protocol)
{
    return gre_header_ip(h, false, flags, protocol);
}

static void
put_tnl_push(struct ofpbuf *actions, uint32_t tnl_type, const uint8_t *h,
             size_t len)
{
    struct ovs_action_push_tnl data;

    memset(&data, 0, sizeof data);
    data.tnl_port = u32_to_odp(TEST_VPORT);
    data.out_port = u32_to_odp(100);
    data.header_len = len;
    data.tnl_type = tnl_type;
    memcpy(data.header, h, len);
    nl_msg_put_unspec(actions, OVS_ACTION_ATTR_TUNNEL_PUSH, &data,
                      offsetof(struct ovs_action_push_tnl, header) + len);
}

/* Replaces 'actions' by "[pop_eth,]tnl_push(...),2". */
static void
put_push_actions(struct ofpbuf *actions, bool pop_eth, uint32_t tnl_type,
                 const uint8_t *h, size_t len)
{
    ofpbuf_clear(actions);
    if (pop_eth) {
        nl_msg_put_flag(actions, OVS_ACTION_ATTR_POP_ETH);
    }
    put_tnl_push(actions, tnl_type, h, len);
    put_output(actions, 2);
}

/* Translates the UDP flow with 'actions', then looks for its push. */
static int
translate_push(const struct ofpbuf *actions, struct hw_rule *rule,
               struct hw_push *push, struct ds *reason)
{
    struct match match;

    dp_match_init_udp(&match);
    CHECK_EQ(translate_mark(&match, actions, TEST_MARK, rule, NULL), 0);
    return hw_translate_push(rule, actions->data, actions->size, push,
                             reason);
}

static void
check_push_refused_at(const struct ofpbuf *actions, const char *expected,
                      const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_push push, zero;
    struct hw_rule rule;
    int error;

    memset(&push, 0x5a, sizeof push);
    error = translate_push(actions, &rule, &push, &reason);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected push refusal \"%s\", got \"%s\" (%s)",
                  file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    memset(&zero, 0, sizeof zero);
    CHECK(!memcmp(&push, &zero, sizeof zero));
    ds_destroy(&reason);
}
#define CHECK_PUSH_REFUSED(ACTIONS, REASON) \
    check_push_refused_at(ACTIONS, REASON, __FILE__, __LINE__)

/* What every egress rule must be: the marker of id 0 (the adapter sets the
 * id), nothing else matched, the L2_TO_L3 encap, counted, untagged. */
static void
check_egress_rule(const struct hw_rule *egress)
{
    struct eth_addr marker = hw_push_marker(0);

    CHECK(egress->egress);
    CHECK(!egress->has_tag);
    CHECK_EQ(egress->fate, HW_FATE_RSS);
    CHECK(egress->count);
    CHECK(!egress->full);
    CHECK_EQ(egress->tunnel, HW_TUNNEL_NONE);
    CHECK_EQ(egress->outer.present, HW_HDR_ETH);
    CHECK(eth_addr_equals(egress->outer.eth.dst, marker));
    CHECK(eth_mask_is_exact(egress->outer.eth_mask.dst));
    CHECK(eth_addr_is_zero(egress->outer.eth_mask.src));
    CHECK_EQ(ntohs(egress->outer.eth.type), HW_PUSH_MARKER_TYPE);
    CHECK_EQ(ntohs(egress->outer.eth_mask.type), 0xffff);
    CHECK_EQ(egress->outer.eth_mask.tci, 0);
    CHECK_EQ(egress->reformat, HW_REFORMAT_L3_ENCAP);

    /* Locally administered unicast, one per id. */
    CHECK(marker.ea[0] & 0x02);
    CHECK(!(marker.ea[0] & 0x01));
    CHECK(!eth_addr_equals(hw_push_marker(1), hw_push_marker(0x100)));
}

static void
test_tnl_push_vxlan(void)
{
    uint8_t h[TNL_PUSH_HEADER_SIZE];
    struct ofpbuf actions;
    struct hw_push push;
    struct hw_rule rule;
    size_t len, ofs;

    /* clone(tnl_push(...),2), as xlate makes it when the push is not the
     * last action. */
    len = vxlan_header(h, false, 0);
    CHECK_EQ(len, 50);
    ofpbuf_init(&actions, 0);
    put_output(&actions, 1);
    ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_CLONE);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    nl_msg_end_nested(&actions, ofs);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);

    CHECK_EQ(odp_to_u32(push.out_port), 2);
    CHECK_EQ(odp_to_u32(push.tnl_port), TEST_VPORT);
    CHECK_EQ(odp_to_u32(push.push_out_port), 100);
    CHECK_EQ(push.tnl_type, OVS_VPORT_TYPE_VXLAN);
    CHECK(!push.l3);
    /* The egress rule: the marker the push hook puts in front of the
     * flow's packets instead of the header, and an L2_TO_L3 encap that
     * replaces it with exactly the header OVS would push. */
    check_egress_rule(&push.egress);
    CHECK_EQ(push.egress.reformat_len, 50);
    /* All of the header but the UDP source port, which OVS leaves 0 for
     * the software to fill per packet: the encap gets one in OVS's range. */
    CHECK_EQ(push.udp_ofs, 34);
    CHECK(!memcmp(push.egress.reformat_data, h, 34));
    CHECK(!memcmp(push.egress.reformat_data + 36, h + 36, 50 - 36));
    {
        uint16_t sport = (push.egress.reformat_data[34] << 8)
                         | push.egress.reformat_data[35];

        CHECK(sport >= 32768 && sport < 61000);
    }
    CHECK_EQ(push.header_len, 50);
    CHECK(!memcmp(push.header, h, 50));
    /* The outer headers the encap adds, for the overlap checks. */
    CHECK_EQ(push.encap.present, HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohl(push.encap.ipv4.dst), 0x0101025c);
    CHECK_EQ(ntohl(push.encap.ipv4_mask.dst), 0xffffffff);
    CHECK_EQ(ntohs(push.encap.l4.dst), 4789);
    CHECK(!hw_headers_overlap(&push.egress.outer, &push.encap));
    CHECK(!hw_headers_overlap(&push.egress.outer, &rule.outer));

    /* The top-level form: tnl_push(...),2. */
    put_push_actions(&actions, false, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    CHECK_EQ(odp_to_u32(push.out_port), 2);

    /* IPv6 outer: 70 bytes. */
    len = vxlan_header(h, true, 0);
    CHECK_EQ(len, 70);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    CHECK_EQ(push.egress.reformat_len, 70);
    CHECK_EQ(push.udp_ofs, 54);
    CHECK(!memcmp(push.egress.reformat_data, h, 54));
    CHECK(!memcmp(push.egress.reformat_data + 56, h + 56, 70 - 56));
    CHECK_EQ(push.encap.present, HW_HDR_ETH | HW_HDR_IPV6 | HW_HDR_UDP);
    CHECK(in6_equal(&push.encap.ipv6.dst, "2001:db8::92"));

    /* From a vport flow (VXLAN in, VXLAN out): the packet it sends is the
     * inner one. */
    {
        struct hw_translate_params params;
        struct match match;

        vport_match_init(&match, false);
        vport_params_init(&params, HW_TUNNEL_VXLAN);
        CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size,
                                    &params, &rule, NULL), 0);
        CHECK_EQ(hw_translate_push(&rule, actions.data, actions.size,
                                    &push, NULL), 0);
        check_egress_rule(&push.egress);
        CHECK(!memcmp(push.egress.reformat_data, h, 54));
        CHECK(!memcmp(push.egress.reformat_data + 56, h + 56, 70 - 56));
    }

    /* No push at all. */
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), ENOENT);
    ofpbuf_uninit(&actions);
}

static void
test_tnl_push_gre(void)
{
    uint8_t h[TNL_PUSH_HEADER_SIZE];
    struct ofpbuf actions;
    struct hw_push push;
    struct hw_rule rule;
    size_t len;

    /* GRE (TEB) with a key: 14 + 20 + 8 bytes. */
    len = gre_header(h, GRE_KEY, ETH_TYPE_TEB);
    CHECK_EQ(len, 42);
    ofpbuf_init(&actions, 0);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 2);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    check_egress_rule(&push.egress);
    CHECK_EQ(push.egress.reformat_len, 42);
    CHECK(!memcmp(push.egress.reformat_data, h, 42));
    CHECK_EQ(push.encap.present, HW_HDR_ETH | HW_HDR_IPV4);
    CHECK_EQ(push.encap.ipv4.proto, IPPROTO_GRE);

    /* GRE carrying the IPv4 packet (pop_eth first): the same marker and
     * encap, the marker standing in front of the IP header. */
    len = gre_header(h, GRE_KEY, ETH_TYPE_IP);
    put_push_actions(&actions, true, OVS_VPORT_TYPE_GRE, h, len);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    CHECK(push.l3);
    check_egress_rule(&push.egress);
    CHECK(!memcmp(push.egress.reformat_data, h, len));

    /* The GRE protocol must fit what is pushed. */
    len = gre_header(h, GRE_KEY, ETH_TYPE_IPV6);
    put_push_actions(&actions, true, OVS_VPORT_TYPE_GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push GRE protocol 0x86dd does not fit "
                       "the packet");
    len = gre_header(h, GRE_KEY, ETH_TYPE_IP);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of an Ethernet frame with GRE "
                       "protocol 0x0800 not supported");

    /* What the NIC would have to compute per packet. */
    len = gre_header(h, GRE_KEY | GRE_CSUM, ETH_TYPE_TEB);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of GRE with checksum not "
                       "supported: the NIC does not compute it");
    len = gre_header(h, GRE_SEQ, ETH_TYPE_TEB);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of GRE with sequence number not "
                       "supported: the NIC does not compute it");

    /* ip6gre: 14 + 40 + 8 bytes, copied whole (the NIC fills in the
     * payload length). */
    len = gre_header_ip(h, true, GRE_KEY, ETH_TYPE_TEB);
    CHECK_EQ(len, 62);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_IP6GRE, h, len);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    CHECK_EQ(push.tnl_type, OVS_VPORT_TYPE_IP6GRE);
    CHECK(!push.l3);
    check_egress_rule(&push.egress);
    CHECK_EQ(push.egress.reformat_len, 62);
    CHECK(!memcmp(push.egress.reformat_data, h, 62));
    CHECK_EQ(push.encap.present, HW_HDR_ETH | HW_HDR_IPV6);
    CHECK_EQ(push.encap.ipv6.next_hdr, IPPROTO_GRE);
    CHECK(in6_equal(&push.encap.ipv6.dst, "2001:db8::92"));
    CHECK(!hw_headers_overlap(&push.egress.outer, &push.encap));

    /* L3 GRE over IPv6 (a "gre" port with an IPv6 remote_ip). */
    len = gre_header_ip(h, true, GRE_KEY, ETH_TYPE_IP);
    put_push_actions(&actions, true, OVS_VPORT_TYPE_IP6GRE, h, len);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    CHECK(push.l3);
    CHECK(!memcmp(push.egress.reformat_data, h, len));

    /* Over IPv6 as over IPv4, the NIC computes neither field. */
    len = gre_header_ip(h, true, GRE_KEY | GRE_CSUM, ETH_TYPE_TEB);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_IP6GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of GRE with checksum not "
                       "supported: the NIC does not compute it");
    len = gre_header_ip(h, true, GRE_KEY | GRE_SEQ, ETH_TYPE_TEB);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_IP6GRE, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of GRE with sequence number not "
                       "supported: the NIC does not compute it");
    ofpbuf_uninit(&actions);
}

static void
test_tnl_push_refusals(void)
{
    uint8_t h[TNL_PUSH_HEADER_SIZE];
    struct ofpbuf actions;
    size_t len, ofs;

    len = vxlan_header(h, false, 0);
    ofpbuf_init(&actions, 0);

    /* Other tunnel types. */
    put_tnl_push(&actions, OVS_VPORT_TYPE_GENEVE, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of tunnel type geneve not "
                       "supported");
    put_push_actions(&actions, false, OVS_VPORT_TYPE_ERSPAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of tunnel type erspan not "
                       "supported");

    /* A UDP checksum the NIC would not compute. */
    len = vxlan_header(h, false, 0xffff);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push with outer UDP checksum not "
                       "supported: the NIC does not compute it");
    len = vxlan_header(h, false, 0);

    /* The packet changed before the push: the egress rule would not see
     * what the flow matched. */
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 1);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "recirc before tnl_push not supported");
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "pop_vlan before tnl_push not supported");
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_ETH);
    put_output(&actions, 2);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "pop_eth not followed by tnl_push not "
                       "supported");

    /* ...but a clone that changes its own copy does not matter. */
    ofpbuf_clear(&actions);
    ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_CLONE);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 3);
    nl_msg_end_nested(&actions, ofs);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    {
        struct hw_push push;
        struct hw_rule rule;

        CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    }

    /* After the push: exactly one output. */
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push without output");
    put_output(&actions, 2);
    put_output(&actions, 3);
    CHECK_PUSH_REFUSED(&actions, "more than one output after tnl_push not "
                       "supported");
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "pop_vlan after tnl_push not supported");

    /* Two pushes (flooding to two tunnels). */
    ofpbuf_clear(&actions);
    for (int i = 0; i < 2; i++) {
        ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_CLONE);
        put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
        put_output(&actions, 2);
        nl_msg_end_nested(&actions, ofs);
    }
    CHECK_PUSH_REFUSED(&actions, "more than one tnl_push not supported");

    /* Headers it cannot make sense of. */
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len - 4);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "tnl_push VXLAN header malformed");
    h[14] = 0x46;
    put_push_actions(&actions, false, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push outer IPv4 header with options "
                       "not supported");
    ofpbuf_uninit(&actions);
}

/* The overlap checks that guard egress rules. */
static void
test_rule_overlap(void)
{
    struct hw_headers a, b;
    struct hw_rule ra, rb;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK(hw_headers_overlap(&a, &b));

    a.present = HW_HDR_IPV4;
    a.ipv4.dst = htonl(0x0a000001);
    a.ipv4_mask.dst = OVS_BE32_MAX;
    b.present = HW_HDR_IPV4;
    b.ipv4.dst = htonl(0x0a000002);
    b.ipv4_mask.dst = OVS_BE32_MAX;
    CHECK(!hw_headers_overlap(&a, &b));
    b.ipv4_mask.dst = htonl(0xffffff00);
    b.ipv4.dst = htonl(0x0a000000);
    CHECK(hw_headers_overlap(&a, &b));

    /* IPv4 and IPv6 never, through the ethertype they imply. */
    b.present = HW_HDR_IPV6;
    CHECK(!hw_headers_overlap(&a, &b));
    memset(&b, 0, sizeof b);
    b.present = HW_HDR_ETH;
    b.eth.type = htons(ETH_TYPE_ARP);
    b.eth_mask.type = OVS_BE16_MAX;
    CHECK(!hw_headers_overlap(&a, &b));
    b.eth.type = htons(ETH_TYPE_IP);
    CHECK(hw_headers_overlap(&a, &b));

    /* TCP and UDP never; ports only within one protocol. */
    a.present |= HW_HDR_TCP;
    b.present = HW_HDR_IPV4 | HW_HDR_UDP;
    b.eth_mask.type = htons(0);
    CHECK(!hw_headers_overlap(&a, &b));
    b.present = HW_HDR_IPV4;
    b.ipv4.proto = IPPROTO_UDP;
    b.ipv4_mask.proto = UINT8_MAX;
    CHECK(!hw_headers_overlap(&a, &b));
    b.ipv4.proto = IPPROTO_TCP;
    CHECK(hw_headers_overlap(&a, &b));
    b.present |= HW_HDR_TCP;
    b.ipv4_mask.proto = 0;
    b.ipv4.proto = 0;
    a.l4.dst = htons(80);
    a.l4_mask.dst = OVS_BE16_MAX;
    b.l4.dst = htons(81);
    b.l4_mask.dst = OVS_BE16_MAX;
    CHECK(!hw_headers_overlap(&a, &b));
    b.l4_mask.dst = htons(0xfffe);
    b.l4.dst = htons(80);
    CHECK(hw_headers_overlap(&a, &b));

    /* Rules: tunnels and inner headers count when both have them. */
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    ra.tunnel = rb.tunnel = HW_TUNNEL_VXLAN;
    ra.tnl.vni = htonl(1);
    rb.tnl.vni = htonl(2);
    ra.tnl_mask.vni = rb.tnl_mask.vni = htonl(0xffffff);
    CHECK(!hw_rule_overlaps(&ra, &rb));
    rb.tnl.vni = htonl(1);
    CHECK(hw_rule_overlaps(&ra, &rb));
    ra.inner = a;
    rb.inner = b;
    rb.inner.l4.dst = htons(81);
    rb.inner.l4_mask.dst = OVS_BE16_MAX;
    CHECK(!hw_rule_overlaps(&ra, &rb));
    rb.tunnel = HW_TUNNEL_NONE;
    CHECK(hw_rule_overlaps(&ra, &rb));
    rb.tunnel = HW_TUNNEL_GRE;
    CHECK(!hw_rule_overlaps(&ra, &rb));
}

static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
    TEST(udp_partial),
    TEST(tcp_macs_tos),
    TEST(ip_other_protocols),
    TEST(ipv6),
    TEST(l2_only),
    TEST(vlan),
    TEST(dl_type),
    TEST(metadata),
    TEST(l3_l4_refusals),
    TEST(pipeline_fields),
    TEST(values_outside_masks),
    TEST(actions),
    TEST(every_field_named),
    TEST(untranslatable_fields),
    TEST(priority_and_rss_bands),
    TEST(vport_vxlan),
    TEST(vport_gre),
    TEST(vport_refusals),
    TEST(tnl_pop_flow),
    TEST(tnl_push_vxlan),
    TEST(tnl_push_gre),
    TEST(tnl_push_refusals),
    TEST(rule_overlap),
#undef TEST
};

static void
run_hw_translate_tests(int argc, char *argv[])
{
    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests), false);
}

OVSTEST_REGISTER("test-hw-translate", run_hw_translate_tests);
