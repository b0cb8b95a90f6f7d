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
#include "test-hw-flows.h"

#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "openvswitch/match.h"
#include "packets.h"

/* A match for a packet that arrived untagged on TEST_PORT: exact in_port,
 * recirc_id 0, Ethernet packet type and "no VLAN" (tpid and tci 0 under
 * full masks, as odp_flow_key_to_mask() makes it). */
void
dp_match_init(struct match *match)
{
    match_init_catchall(match);
    match->flow.in_port.odp_port = u32_to_odp(TEST_PORT);
    match->wc.masks.in_port.odp_port = u32_to_odp(UINT32_MAX);
    match_set_recirc_id(match, 0);
    match_set_packet_type(match, htonl(PT_ETH));
    match->flow.vlans[0].tpid = htons(0);
    match->flow.vlans[0].tci = htons(0);
    match->wc.masks.vlans[0].tpid = OVS_BE16_MAX;
    match->wc.masks.vlans[0].tci = OVS_BE16_MAX;
}

/* ...plus an IP 'dl_type' "not a fragment" match, as every IP megaflow
 * has. */
void
dp_match_init_ip(struct match *match, ovs_be16 dl_type)
{
    dp_match_init(match);
    match_set_dl_type(match, dl_type);
    match_set_nw_frag_masked(match, 0, FLOW_NW_FRAG_MASK);
}

/* A VXLAN decap rule, tagged 7 and counted, as hw-apis.md 1.2 counts it:
 * ETH(40) IPV4(24) UDP(16, dport 4789) VXLAN_TUNNEL(16) ETH|INNER(40)
 * IPV4|INNER(24) TCP|INNER(16) TAG(12) COUNT(16): 9 specs, 20 + 204 = 224
 * bytes. */
void
vxlan_decap_rule_init(struct hw_rule *rule)
{
    memset(rule, 0, sizeof *rule);
    rule->outer = (struct hw_headers) {
        .present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP,
        .ipv4 = { .src = htonl(0x01010258), .dst = htonl(0x0101025c) },
        .ipv4_mask = { .src = OVS_BE32_MAX, .dst = OVS_BE32_MAX },
        .l4 = { .dst = htons(4789) },
        .l4_mask = { .dst = OVS_BE16_MAX },
    };
    rule->tunnel = HW_TUNNEL_VXLAN;
    rule->tnl.vni = htonl(0x7b);
    rule->tnl_mask.vni = htonl(0xffffff);
    rule->inner = (struct hw_headers) {
        .present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP,
        .eth = { .dst = ETH_ADDR_C(aa, 55, aa, 55, 00, 01) },
        .eth_mask = { .dst = ETH_ADDR_C(ff, ff, ff, ff, ff, ff) },
        .ipv4 = { .dst = htonl(0x0a000002) },
        .ipv4_mask = { .dst = OVS_BE32_MAX },
        .l4 = { .dst = htons(80) },
        .l4_mask = { .dst = OVS_BE16_MAX },
    };
    rule->reformat = HW_REFORMAT_L2_DECAP;
    rule->has_tag = true;
    rule->tag = 7;
    rule->count = true;
    rule->fate = HW_FATE_RSS;
}
