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

/* Unit tests of the matches hw-translate.c translates, for verbs and for
 * the pipeline of tables, and of those it refuses, each with a reason that
 * names the field. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"
#include "util.h"

/* Tests. */

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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
void
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
void
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

/* Every byte of struct flow, matched with a non-zero value, is either
 * translated or refused with a reason that names its field: nothing is
 * ignored and nothing is refused anonymously. */
void
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
void
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
