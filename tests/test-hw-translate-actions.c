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

/* Unit tests of the actions hw-translate.c translates: the fates, a full
 * or partial offload, the flow mark's range, malformed actions. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>

#include "flow.h"
#include "hw-offload-eswitch.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

void
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

    /* Marks: 1 .. 2^23 - 1; the tags above are conntrack's restore
     * tags. */
    CHECK_EQ(translate_mark(&match, &actions, 1, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0x7fffff, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 0x7fffff);
    CHECK_EQ(translate_mark(&match, &actions, 0x800000, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 8388608 does not fit the tag (1 to 8388607)");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 0 does not fit the tag (1 to 8388607)");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, UINT32_MAX, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 4294967295 does not fit the tag (1 to 8388607)");
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

/* On a port of an e-switch in switchdev mode: a flow whose one action is
 * an output is a full FDB rule to a vport, matched on the port's reg_c0
 * metadata with the mlx5 matcher; anything else is refused, with the
 * reason, for the caller to try the port's receive side. */
void
test_eswitch_actions(void)
{
    struct hw_translate_params params = {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
        .vport = HW_TUNNEL_NONE,
        .eswitch = true,
        .esw_reg_c0 = 0x00020000,
        .esw_reg_c0_mask = 0xffff0000,
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);

    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 3);
    CHECK_EQ(rule.fate_vports[0], 0);   /* The offload core finds it. */
    CHECK(rule.fdb);
    CHECK(rule.full);
    CHECK(rule.count);
    CHECK(!rule.has_tag);
    CHECK_EQ(rule.reg_c[0], 0x00020000);
    CHECK_EQ(rule.reg_c_mask[0], 0xffff0000);
    for (int i = 1; i < HW_N_REG_C; i++) {
        CHECK_EQ(rule.reg_c_mask[i], 0);
    }
    CHECK_EQ(ds_cstr(&reason)[0], '\0');
    /* No VLAN guard in the FDB: an untagged flow takes untagged packets
     * only. */
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_NONE);
    CHECK(hw_rewrite_is_empty(&rule.rewrite));

    /* The mlx5 matcher: the TTL, which verbs cannot match. */
    match_set_nw_ttl(&match, 64);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext_mask.ttl, 0xff);
    CHECK_EQ(rule.outer.ext.ttl, 64);
    dp_match_init_udp(&match);

    /* A mirror: a copy to each output, up to 4. */
    put_output(&actions, 4);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.n_out, 2);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 3);
    CHECK_EQ(odp_to_u32(rule.out_ports[1]), 4);
    put_output(&actions, 5);
    put_output(&actions, 6);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.n_out, 4);
    put_output(&actions, 7);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB copies a packet to at "
              "most 4 ports");
    CHECK(!rule.fdb);
    ds_clear(&reason);

    /* An output and more, a drop: not the FDB's. */
    ofpbuf_clear(&actions);
    put_output(&actions, 3);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 4);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB takes flows whose "
              "outputs come last");
    ds_clear(&reason);
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 7);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB takes outputs, VLAN "
              "pushes and pops, sets of addresses, ports, TTL and DSCP, "
              "a tnl_push and a meter only");
    ds_clear(&reason);

    /* A push: the tag's TCI without OVS's CFI "present" bit. */
    struct ovs_action_push_vlan push = {
        .vlan_tpid = htons(ETH_TYPE_VLAN_8021Q),
        .vlan_tci = htons(VLAN_CFI | (3 << VLAN_PCP_SHIFT) | 100),
    };
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK(rule.rewrite.push_vlan && !rule.rewrite.pop_vlan);
    CHECK_EQ(ntohs(rule.rewrite.push_tpid), ETH_TYPE_VLAN_8021Q);
    CHECK_EQ(ntohs(rule.rewrite.push_tci), (3 << VLAN_PCP_SHIFT) | 100);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    push.vlan_tpid = htons(0x9100);
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB pushes 802.1Q and "
              "802.1ad tags only");
    ds_clear(&reason);

    /* A pop, of a tag the flow requires: VID 100 on a C-tag. */
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB pops a tag the flow "
              "requires only");
    ds_clear(&reason);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK(rule.rewrite.pop_vlan && !rule.rewrite.push_vlan);
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_CTAG);
    CHECK_EQ(ntohs(rule.outer.eth.tci), 100);
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);

    /* Without 'eswitch' an output is a partial offload, as ever. */
    params.eswitch = false;
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.fdb);
    CHECK_EQ(rule.reg_c_mask[0], 0);

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* Appends a set ('mask' null) or masked set of key 'type' to 'actions'. */
static void
put_set(struct ofpbuf *actions, enum ovs_key_attr type, const void *key,
        const void *mask, size_t size)
{
    size_t ofs = nl_msg_start_nested(actions, (mask
                                               ? OVS_ACTION_ATTR_SET_MASKED
                                               : OVS_ACTION_ATTR_SET));
    char *data = nl_msg_put_unspec_uninit(actions, type,
                                          mask ? 2 * size : size);

    memcpy(data, key, size);
    if (mask) {
        memcpy(data + size, mask, size);
    }
    nl_msg_end_nested(actions, ofs);
}

/* 'actions' for the FDB on a flow of 'match': 0 or the error, with the
 * reason in 'reason' (cleared first). */
static int
esw_translate(const struct match *match, const struct ofpbuf *actions,
              struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params params = {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
        .vport = HW_TUNNEL_NONE,
        .eswitch = true,
        .esw_reg_c0 = 0x00020000,
        .esw_reg_c0_mask = 0xffff0000,
    };

    ds_clear(reason);
    return hw_translate_flow(match, actions->data, actions->size, &params,
                             rule, reason);
}

/* Checks that the FDB refuses 'actions' on a flow of 'match' for the
 * reason 'why'. */
#define CHECK_ESW_REFUSED(MATCH, ACTIONS, WHY)                          \
    do {                                                                \
        struct ds why__ = DS_EMPTY_INITIALIZER;                         \
        struct hw_rule rule__;                                          \
                                                                        \
        CHECK_EQ(esw_translate(MATCH, ACTIONS, &rule__, &why__),        \
                 EOPNOTSUPP);                                           \
        CHECK_STR(ds_cstr(&why__), WHY);                                \
        CHECK(!rule__.fdb);                                             \
        ds_destroy(&why__);                                             \
    } while (0)

/* Header rewrites in the FDB: set and masked set of MAC and IP addresses,
 * the TTL (OVS's dec_ttl) and TCP and UDP ports, in one modify header
 * whatever their order around a VLAN pop or push; fields of headers the
 * flow matches, and what the device cannot set refused with the reason
 * (parts of fields: test_eswitch_partial_rewrites()). */
void
test_eswitch_rewrites(void)
{
    struct ovs_key_ethernet eth;
    struct ovs_key_ipv4 ip4, ip4_mask;
    struct ovs_key_ipv6 ip6, ip6_mask;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ovs_key_udp udp, udp_mask;
    struct ovs_key_tcp tcp, tcp_mask;
    const struct hw_rewrite *rw;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    ofpbuf_init(&actions, 64);
    rw = &rule.rewrite;

    /* Routing: both MACs (an unmasked set) and the TTL of a flow that
     * matches it exactly (dec_ttl), after a pop that the device still
     * runs first. */
    dp_match_init_udp(&match);
    match_set_nw_ttl(&match, 64);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    eth = (struct ovs_key_ethernet) {
        .eth_src = ETH_ADDR_C(02, 00, 00, 00, 00, 99),
        .eth_dst = ETH_ADDR_C(02, 00, 00, 00, 00, 02),
    };
    memset(&ip4, 0, sizeof ip4);
    memset(&ip4_mask, 0, sizeof ip4_mask);
    ip4.ipv4_ttl = 63;
    ip4_mask.ipv4_ttl = 0xff;
    put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_output(&actions, 3);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    CHECK(rule.fdb && rule.full);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK(rw->pop_vlan && !rw->push_vlan);
    CHECK_EQ(rw->set, ((1u << HW_SET_ETH_SRC) | (1u << HW_SET_ETH_DST)
                       | (1u << HW_SET_TTL)));
    CHECK(eth_addr_equals(rw->eth_src, eth.eth_src));
    CHECK(eth_addr_equals(rw->eth_dst, eth.eth_dst));
    CHECK_EQ(rw->ttl, 63);
    CHECK_EQ(rule.outer.ext.ttl, 64);

    /* SNAT-like: the IPv4 source and the UDP source port, masked sets,
     * then a push. */
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    memset(&ip4_mask, 0, sizeof ip4_mask);
    ip4.ipv4_src = htonl(0xc0000201);
    ip4_mask.ipv4_src = OVS_BE32_MAX;
    udp = (struct ovs_key_udp) { .udp_src = htons(40000) };
    udp_mask = (struct ovs_key_udp) { .udp_src = OVS_BE16_MAX };
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_set(&actions, OVS_KEY_ATTR_UDP, &udp, &udp_mask, sizeof udp);
    struct ovs_action_push_vlan push = {
        .vlan_tpid = htons(ETH_TYPE_VLAN_8021Q),
        .vlan_tci = htons(VLAN_CFI | 100),
    };
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, (1u << HW_SET_IPV4_SRC) | (1u << HW_SET_L4_SRC));
    CHECK_EQ(ntohl(rw->ipv4_src), 0xc0000201);
    CHECK_EQ(ntohs(rw->l4_src), 40000);
    CHECK(!rw->l4_tcp);
    CHECK(rw->push_vlan);

    /* The same set twice: the last value; a set back to the value the
     * flow matches still sets it. */
    ofpbuf_clear(&actions);
    ip4.ipv4_src = htonl(0x0a0000fe);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    ip4.ipv4_src = htonl(0xc0000201);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    match_set_nw_src(&match, htonl(0x0a0000fe));
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    ip4.ipv4_src = htonl(0x0a0000fe);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_IPV4_SRC);
    CHECK_EQ(ntohl(rw->ipv4_src), 0x0a0000fe);

    /* DNAT-like on TCP: the destination and its port.  An unmasked set
     * sets every field: the source, TOS and TTL the flow matches stay as
     * they are, with no command. */
    dp_match_init_ipv4(&match);
    match_set_nw_proto(&match, IPPROTO_TCP);
    match_set_nw_src(&match, htonl(0x0a000001));
    match_set_nw_dst(&match, htonl(0x0a000002));
    match.flow.nw_tos = 0x10;
    match.wc.masks.nw_tos = UINT8_MAX;
    match_set_nw_ttl(&match, 9);
    ofpbuf_clear(&actions);
    ip4 = (struct ovs_key_ipv4) {
        .ipv4_src = htonl(0x0a000001), .ipv4_dst = htonl(0x0a000063),
        .ipv4_proto = IPPROTO_TCP, .ipv4_tos = 0x10, .ipv4_ttl = 9,
    };
    tcp = (struct ovs_key_tcp) { .tcp_dst = htons(8080) };
    tcp_mask = (struct ovs_key_tcp) { .tcp_dst = OVS_BE16_MAX };
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, NULL, sizeof ip4);
    put_set(&actions, OVS_KEY_ATTR_TCP, &tcp, &tcp_mask, sizeof tcp);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, (1u << HW_SET_IPV4_DST) | (1u << HW_SET_L4_DST));
    CHECK_EQ(ntohl(rw->ipv4_dst), 0x0a000063);
    CHECK(rw->l4_tcp);
    CHECK_EQ(ntohs(rw->l4_dst), 8080);

    /* A TOS whose DSCP changes: its DSCP bits, the ECN bits the flow
     * matches kept; not ECN bits that change (the device has no ECN
     * field). */
    ip4.ipv4_tos = 0x20;
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, NULL, sizeof ip4);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, (1u << HW_SET_IPV4_DST) | (1u << HW_SET_TOS));
    CHECK_EQ(rw->tos, 0x20);
    CHECK_EQ(rw->bits[HW_SET_TOS].n_bits, 0);
    ip4.ipv4_tos = 0x21;
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, NULL, sizeof ip4);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB does not set the ECN bits of "
                      "ipv4 tos");

    /* Ports of a protocol the flow does not match, other keys. */
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_TCP, &tcp, &tcp_mask, sizeof tcp);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB sets fields of the "
                      "headers the flow matches only");
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_PRIORITY, "\x00\x00\x00\x07", NULL, 4);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB sets Ethernet, IPv4, "
                      "IPv6, TCP and UDP fields only");

    /* Addresses and ports of a flow that may take fragments: a later one
     * has no L4 header for the device to update. */
    dp_match_init_udp(&match);
    match_set_nw_frag_masked(&match, 0, 0);
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_UDP, &udp, &udp_mask, sizeof udp);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB rewrites addresses and "
                      "ports of flows of no fragments only");
    /* The MACs and the TTL of any packet. */
    ofpbuf_clear(&actions);
    memset(&ip4_mask, 0, sizeof ip4_mask);
    ip4_mask.ipv4_ttl = 0xff;
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);

    /* IPv6: the addresses of TCP and UDP flows (the datapath updates an
     * ICMPv6 checksum too), and the hop limit; not the label. */
    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_UDP);
    memset(&ip6, 0, sizeof ip6);
    memset(&ip6_mask, 0, sizeof ip6_mask);
    ip6.ipv6_src.s6_addr[0] = 0x20;
    ip6.ipv6_src.s6_addr[1] = 0x01;
    ip6.ipv6_src.s6_addr[15] = 1;
    ip6_mask.ipv6_src = in6addr_exact;
    ip6.ipv6_hlimit = 63;
    ip6_mask.ipv6_hlimit = 0xff;
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV6, &ip6, &ip6_mask, sizeof ip6);
    put_output(&actions, 1);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, (1u << HW_SET_IPV6_SRC) | (1u << HW_SET_TTL));
    CHECK(ipv6_addr_equals(&rw->ipv6_src, &ip6.ipv6_src));
    CHECK_EQ(rw->ttl, 63);
    match_set_nw_proto(&match, IPPROTO_ICMPV6);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB rewrites IPv6 addresses "
                      "of TCP and UDP flows only");
    ip6_mask.ipv6_label = htonl(0xfffff);
    ip6.ipv6_label = htonl(5);
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV6, &ip6, &ip6_mask, sizeof ip6);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB does not set ipv6 "
                      "label");

    /* A set after an output changes one copy only. */
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    put_output(&actions, 1);
    put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth);
    put_output(&actions, 3);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB takes flows whose "
                      "outputs come last");

    /* A malformed set: a key too short, or too long for its action. */
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_SET);
    put_output(&actions, 3);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed set action");
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth);
    ((struct nlattr *) ofpbuf_at_assert(&actions, NLA_HDRLEN,
                                        NLA_HDRLEN))->nla_len += 8;
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed set action");
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth - 1);
    put_output(&actions, 3);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed set action");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}


/* 'actions' cleared, then a masked set of 'key' and an output. */
static void
set_and_output(struct ofpbuf *actions, enum ovs_key_attr type,
               const void *key, const void *mask, size_t size)
{
    ofpbuf_clear(actions);
    put_set(actions, type, key, mask, size);
    put_output(actions, 3);
}

/* Parts of fields in the FDB: a mask of one run of bits of a field (or
 * else of the bits that change) is one SET of an offset and a length per
 * device field; the DSCP bits of the TOS and traffic class, not their ECN
 * bits; other masks refused, naming the field and the mask. */
void
test_eswitch_partial_rewrites(void)
{
    struct ovs_key_ethernet eth, eth_mask;
    struct ovs_key_ipv4 ip4, ip4_mask;
    struct ovs_key_ipv6 ip6, ip6_mask;
    struct ds reason = DS_EMPTY_INITIALIZER;
    const struct hw_rewrite *rw;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    ofpbuf_init(&actions, 64);
    rw = &rule.rewrite;

    /* OVS's mod_nw_tos:16 on a flow of DSCP 0: set(ipv4(tos=0x10/0xfc)),
     * all the DSCP bits. */
    dp_match_init_udp(&match);
    match_set_nw_dscp(&match, 0);
    memset(&ip4, 0, sizeof ip4);
    memset(&ip4_mask, 0, sizeof ip4_mask);
    ip4.ipv4_tos = 0x10;
    ip4_mask.ipv4_tos = 0xfc;
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    CHECK(rule.fdb && rule.full);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rw->set, 1u << HW_SET_TOS);
    CHECK_EQ(rw->tos, 0x10);
    CHECK_EQ(rw->bits[HW_SET_TOS].n_bits, 0);

    /* The class selector bits only: bits 5 to 7. */
    ip4.ipv4_tos = 0xa0;
    ip4_mask.ipv4_tos = 0xe0;
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_TOS);
    CHECK_EQ(rw->tos, 0xa0);
    CHECK_EQ(rw->bits[HW_SET_TOS].ofs, 5);
    CHECK_EQ(rw->bits[HW_SET_TOS].n_bits, 3);

    /* ECN bits that may change: no field holds them. */
    ip4.ipv4_tos = 0x01;
    ip4_mask.ipv4_tos = 0x03;
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB does not set the ECN bits of "
                      "ipv4 tos");
    ip4.ipv4_tos = 0x12;
    ip4_mask.ipv4_tos = 0xfe;
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB does not set the ECN bits of "
                      "ipv4 tos");

    /* IPv6's traffic class: the same DSCP field. */
    dp_match_init_ipv6(&match);
    match_set_nw_proto(&match, IPPROTO_UDP);
    memset(&ip6, 0, sizeof ip6);
    memset(&ip6_mask, 0, sizeof ip6_mask);
    ip6.ipv6_tclass = 0xb8;
    ip6_mask.ipv6_tclass = 0xfc;
    set_and_output(&actions, OVS_KEY_ATTR_IPV6, &ip6, &ip6_mask, sizeof ip6);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_TOS);
    CHECK_EQ(rw->tos, 0xb8);
    CHECK_EQ(rw->bits[HW_SET_TOS].n_bits, 0);

    /* An IPv6 prefix: the high 64 bits of the source. */
    memset(&ip6_mask, 0, sizeof ip6_mask);
    memset(&ip6.ipv6_src, 0, sizeof ip6.ipv6_src);
    ip6.ipv6_tclass = 0;
    ip6.ipv6_src.s6_addr[0] = 0x20;
    ip6.ipv6_src.s6_addr[1] = 0x01;
    ip6.ipv6_src.s6_addr[7] = 0x01;
    memset(&ip6_mask.ipv6_src, 0xff, 8);
    set_and_output(&actions, OVS_KEY_ATTR_IPV6, &ip6, &ip6_mask, sizeof ip6);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_IPV6_SRC);
    CHECK(ipv6_addr_equals(&rw->ipv6_src, &ip6.ipv6_src));
    CHECK_EQ(rw->bits[HW_SET_IPV6_SRC].ofs, 64);
    CHECK_EQ(rw->bits[HW_SET_IPV6_SRC].n_bits, 64);

    /* A MAC address's first three bytes (its OUI). */
    dp_match_init_udp(&match);
    memset(&eth, 0, sizeof eth);
    memset(&eth_mask, 0, sizeof eth_mask);
    eth.eth_dst = (struct eth_addr) ETH_ADDR_C(02, 00, 5e, 00, 00, 00);
    eth_mask.eth_dst = (struct eth_addr) ETH_ADDR_C(ff, ff, ff, 00, 00, 00);
    set_and_output(&actions, OVS_KEY_ATTR_ETHERNET, &eth, &eth_mask,
                   sizeof eth);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_ETH_DST);
    CHECK(eth_addr_equals(rw->eth_dst, eth.eth_dst));
    CHECK_EQ(rw->bits[HW_SET_ETH_DST].ofs, 24);
    CHECK_EQ(rw->bits[HW_SET_ETH_DST].n_bits, 24);
    /* Bytes 0 and 2: two runs. */
    eth_mask.eth_dst = (struct eth_addr) ETH_ADDR_C(ff, 00, ff, 00, 00, 00);
    eth.eth_dst = (struct eth_addr) ETH_ADDR_C(02, 00, 5e, 00, 00, 00);
    set_and_output(&actions, OVS_KEY_ATTR_ETHERNET, &eth, &eth_mask,
                   sizeof eth);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB sets one run of bits of a field "
                      "only, not eth dst under mask 0xff00ff000000");

    /* An IPv4 prefix, of a flow to 10.0.0.1: its high 24 bits. */
    memset(&ip4, 0, sizeof ip4);
    memset(&ip4_mask, 0, sizeof ip4_mask);
    ip4.ipv4_dst = htonl(0x0a000100);
    ip4_mask.ipv4_dst = htonl(0xffffff00);
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rw->set, 1u << HW_SET_IPV4_DST);
    CHECK_EQ(ntohl(rw->ipv4_dst), 0x0a000100);
    CHECK_EQ(rw->bits[HW_SET_IPV4_DST].ofs, 8);
    CHECK_EQ(rw->bits[HW_SET_IPV4_DST].n_bits, 24);
    /* Two runs of which one changes: that one. */
    ip4.ipv4_dst = htonl(0x0a000301);
    ip4_mask.ipv4_dst = htonl(0xffffff0f);
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(ntohl(rw->ipv4_dst), 0x00000300);
    CHECK_EQ(rw->bits[HW_SET_IPV4_DST].ofs, 8);
    CHECK_EQ(rw->bits[HW_SET_IPV4_DST].n_bits, 2);
    /* Two that change. */
    ip4.ipv4_dst = htonl(0x0b000002);
    ip4_mask.ipv4_dst = htonl(0xff0000ff);
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB sets one run of bits of a field "
                      "only, not ipv4 dst under mask 0xff0000ff");

    /* Two sets of a field: their runs together, the later bits last. */
    ip4.ipv4_dst = htonl(0x0a000100);
    ip4_mask.ipv4_dst = htonl(0xffffff00);
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    ip4.ipv4_dst = htonl(0x00000007);
    ip4_mask.ipv4_dst = htonl(0x000000ff);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_output(&actions, 3);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(ntohl(rw->ipv4_dst), 0x0a000107);
    CHECK_EQ(rw->bits[HW_SET_IPV4_DST].n_bits, 0);
    ip4.ipv4_dst = htonl(0x0a010000);
    ip4_mask.ipv4_dst = htonl(0xffff0000);
    ofpbuf_clear(&actions);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    ip4.ipv4_dst = htonl(0x00000007);
    ip4_mask.ipv4_dst = htonl(0x000000ff);
    put_set(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    put_output(&actions, 3);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB sets one run of bits of a field "
                      "only, not ipv4 dst under mask 0xffff00ff");

    /* A value bit outside its mask, which the datapath would set too. */
    ip4.ipv4_dst = htonl(0x0a000101);
    ip4_mask.ipv4_dst = htonl(0xffffff00);
    set_and_output(&actions, OVS_KEY_ATTR_IPV4, &ip4, &ip4_mask, sizeof ip4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed set action");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* A flow without actions, or an explicit drop, on a port of the e-switch:
 * a counted drop in its FDB table, for the packets the flow takes only
 * (the VLAN tag, and its port's reg_c0); without an output or a drop, no
 * rule. */
void
test_eswitch_drop(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.fdb && rule.full && rule.count);
    CHECK(!rule.has_tag);
    CHECK_EQ(rule.n_out, 0);
    CHECK_EQ(rule.reg_c[0], 0x00020000);
    CHECK_EQ(rule.reg_c_mask[0], 0xffff0000);
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_NONE);
    CHECK(hw_rewrite_is_empty(&rule.rewrite));
    CHECK_STR(ds_cstr(&reason), "");

    put_drop(&actions);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.fdb);

    /* A VLAN pop and no output: the software drops the packet too, but
     * the FDB takes no such flow. */
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    CHECK_ESW_REFUSED(&match, &actions,
                      "e-switch: the FDB takes flows that output "
                      "or drop");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* An output to the port the packets came in by: a VF's FDB rule sends
 * them back to the VF, the uplink's cannot send them back out of the
 * uplink (the FDB's receive side cannot go to the uplink vport). */
void
test_eswitch_hairpin(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);
    put_output(&actions, TEST_PORT);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), TEST_PORT);

    /* A VF (vport 1) back to itself. */
    rule.fate_vports[0] = 1;
    CHECK_EQ(hw_offload_eswitch_check_outputs(1, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");

    /* A VF to the uplink, the uplink to a VF. */
    rule.fate_vports[0] = HW_ESWITCH_UPLINK_VPORT;
    CHECK_EQ(hw_offload_eswitch_check_outputs(1, &rule, &reason), 0);
    rule.fate_vports[0] = 1;
    CHECK_EQ(hw_offload_eswitch_check_outputs(HW_ESWITCH_UPLINK_VPORT,
                                              &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");

    /* The uplink back to itself, alone or in a mirror. */
    rule.fate_vports[0] = HW_ESWITCH_UPLINK_VPORT;
    CHECK_EQ(hw_offload_eswitch_check_outputs(HW_ESWITCH_UPLINK_VPORT,
                                              &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB does not send packets "
              "from the uplink back out of it");
    ds_clear(&reason);
    put_output(&actions, 4);
    CHECK_EQ(esw_translate(&match, &actions, &rule, &reason), 0);
    CHECK_EQ(rule.n_out, 2);
    rule.fate_vports[0] = 2;
    rule.fate_vports[1] = HW_ESWITCH_UPLINK_VPORT;
    CHECK_EQ(hw_offload_eswitch_check_outputs(HW_ESWITCH_UPLINK_VPORT,
                                              &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB does not send packets "
              "from the uplink back out of it");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* The parameters of a flow on a port of an e-switch in switchdev mode. */
static struct hw_translate_params
eswitch_params(void)
{
    return (struct hw_translate_params) {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
        .vport = HW_TUNNEL_NONE,
        .eswitch = true,
        .esw_reg_c0 = 0x00020000,
        .esw_reg_c0_mask = 0xffff0000,
    };
}

/* A meter ahead of an FDB rule's outputs: the rule keeps the meter's id
 * for the offload core; a second meter, or one next to a VLAN push or
 * pop, is refused. */
void
test_eswitch_meter(void)
{
    struct hw_translate_params params = eswitch_params();
    struct ovs_action_push_vlan push = {
        .vlan_tpid = htons(ETH_TYPE_VLAN_8021Q),
        .vlan_tci = htons(VLAN_CFI | 100),
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);

    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK(rule.meter);
    CHECK_EQ(rule.meter_id, 5);
    CHECK(rule.fdb && rule.full && rule.count);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    /* The offload core fills the parameters and the register. */
    CHECK_EQ(rule.meter_params[0], 0);
    CHECK(hw_rewrite_is_empty(&rule.rewrite));
    CHECK_EQ(rule.reg_c_mask[HW_REG_METER], 0);
    CHECK_EQ(ds_cstr(&reason)[0], '\0');

    /* Two meters. */
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 6);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB runs one meter");
    CHECK(!rule.meter);
    ds_clear(&reason);

    /* A meter, then a push; a push, then a meter. */
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB runs a meter before VLAN "
              "pushes and pops");
    ds_clear(&reason);
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB runs a meter before VLAN "
              "pushes and pops");
    ds_clear(&reason);

    /* After an output: the outputs come last. */
    ofpbuf_clear(&actions);
    put_output(&actions, 3);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 4);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB takes flows whose "
              "outputs come last");
    ds_clear(&reason);

    /* A meter and a header rewrite, either way round. */
    {
        struct ovs_key_ethernet eth = {
            .eth_src = ETH_ADDR_C(02, 00, 00, 00, 00, 99),
            .eth_dst = ETH_ADDR_C(02, 00, 00, 00, 00, 02),
        };

        for (int i = 0; i < 2; i++) {
            ofpbuf_clear(&actions);
            if (i) {
                nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
            }
            put_set(&actions, OVS_KEY_ATTR_ETHERNET, &eth, NULL, sizeof eth);
            if (!i) {
                nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
            }
            put_output(&actions, 3);
            CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size,
                                       &params, &rule, &reason),
                     EOPNOTSUPP);
            CHECK_STR(ds_cstr(&reason), "e-switch: the FDB runs a meter "
                      "without header rewrites");
            ds_clear(&reason);
        }
    }

    /* Without 'eswitch': a partial rule, which meters nothing. */
    params.eswitch = false;
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.meter && !rule.full);

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}
