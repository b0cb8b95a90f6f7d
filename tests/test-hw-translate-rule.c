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

/* Unit tests of the rule helpers of hw-rule.c: the priority and RSS bands
 * of a rule, and the overlap checks that guard egress rules. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <string.h>

#include "hw-rule.h"
#include "packets.h"

void
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

/* The overlap checks that guard egress rules. */
void
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
