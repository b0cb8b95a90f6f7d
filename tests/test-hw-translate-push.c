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

/* Unit tests of the tunnel push of hw-translate-push.c: the header a
 * tnl_push action carries (VXLAN, GRE, over IPv4 or IPv6) becomes an
 * egress rule with an L2_TO_L3 encap, or is refused with a reason. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-rule.h"
#include "hw-tx-push.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

/* Tunnel push. */

/* The header netdev_vxlan_build_header() makes for a VXLAN port with remote
 * 1.1.2.92 (or 2001:db8::92) and VNI 0x7b: Ethernet, IP with DF and TTL 64
 * (IPv4 checksum of the header with total length 0), UDP to 4789 with
 * source port and checksum 0, VXLAN. */
size_t
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
size_t
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

void
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

void
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

    /* A routed flow: set(eth(...)),set(ipv4(ttl=63)),ct_clear, then the
     * push, which the device does to the packet as software left it. */
    len = vxlan_header(h, false, 0);
    ofpbuf_clear(&actions);
    {
        struct ovs_key_ethernet eth = {
            .eth_src = ETH_ADDR_C(00, 00, 00, 00, ff, 01),
            .eth_dst = ETH_ADDR_C(50, 54, 00, 00, 01, 01),
        };
        struct ovs_key_ipv4 ipv4 = { .ipv4_ttl = 63 };
        struct ovs_key_ipv4 ipv4_mask = { .ipv4_ttl = 0xff };
        size_t set_ofs;

        set_ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_SET);
        nl_msg_put_unspec(&actions, OVS_KEY_ATTR_ETHERNET, &eth, sizeof eth);
        nl_msg_end_nested(&actions, set_ofs);
        set_ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_SET_MASKED);
        nl_msg_put_unspec_zero(&actions, OVS_KEY_ATTR_IPV4,
                               2 * sizeof ipv4);
        memcpy((uint8_t *) actions.data + actions.size - 2 * sizeof ipv4,
               &ipv4, sizeof ipv4);
        memcpy((uint8_t *) actions.data + actions.size - sizeof ipv4,
               &ipv4_mask, sizeof ipv4_mask);
        nl_msg_end_nested(&actions, set_ofs);
    }
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_CT_CLEAR);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), 0);
    check_egress_rule(&push.egress);
    CHECK_EQ(push.header_len, 50);
    CHECK(!memcmp(push.header, h, 50));
    CHECK_EQ(odp_to_u32(push.out_port), 2);

    /* No push at all. */
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    CHECK_EQ(translate_push(&actions, &rule, &push, NULL), ENOENT);
    ofpbuf_uninit(&actions);
}

void
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

void
test_tnl_push_refusals(void)
{
    uint8_t h[TNL_PUSH_HEADER_SIZE];
    struct ofpbuf actions;
    size_t len, ofs;

    len = vxlan_header(h, false, 0);
    ofpbuf_init(&actions, 0);

    /* A VXLAN header given as Geneve's: its flags read as 8 words of
     * options that the header does not have. */
    put_tnl_push(&actions, OVS_VPORT_TYPE_GENEVE, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "tnl_push Geneve header malformed");

    /* Other tunnel types. */
    put_push_actions(&actions, false, OVS_VPORT_TYPE_ERSPAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push of tunnel type erspan not "
                       "supported");

    /* A UDP checksum the NIC would not compute. */
    len = vxlan_header(h, false, 0xffff);
    put_push_actions(&actions, false, OVS_VPORT_TYPE_VXLAN, h, len);
    CHECK_PUSH_REFUSED(&actions, "tnl_push with outer UDP checksum not "
                       "supported: the NIC does not compute it");
    len = vxlan_header(h, false, 0);

    /* The packet recirculated, or its framing changed, before the
     * push. */
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
    {
        size_t set_ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_SET);
        size_t tnl_ofs = nl_msg_start_nested(&actions, OVS_KEY_ATTR_TUNNEL);

        nl_msg_put_be64(&actions, OVS_TUNNEL_KEY_ATTR_ID, htonll(5));
        nl_msg_end_nested(&actions, tnl_ofs);
        nl_msg_end_nested(&actions, set_ofs);
    }
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 2);
    CHECK_PUSH_REFUSED(&actions, "set of the tunnel metadata before "
                       "tnl_push not supported");
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

/* A frame with the push marker that the push hook did not prepare is
 * forged, whether the marker ethertype follows the addresses or VLAN tags
 * (the egress rule matches both: fuzz target packet found the tagged
 * ones). */
static struct dp_packet *
marker_frame(const uint16_t *tpids, size_t n_tags, uint16_t type,
             size_t cut)
{
    struct eth_addr marker = hw_push_marker(3);
    struct dp_packet *p = dp_packet_new(64);
    uint8_t *b;

    dp_packet_put(p, marker.ea, ETH_ADDR_LEN);
    dp_packet_put_zeros(p, ETH_ADDR_LEN);
    for (size_t i = 0; i < n_tags; i++) {
        b = dp_packet_put_uninit(p, VLAN_HEADER_LEN);
        b[0] = tpids[i] >> 8;
        b[1] = tpids[i];
        b[2] = 0;
        b[3] = 10;
    }
    b = dp_packet_put_uninit(p, 2);
    b[0] = type >> 8;
    b[1] = type;
    dp_packet_put_zeros(p, 46);
    dp_packet_set_size(p, dp_packet_size(p) - cut);
    return p;
}

void
test_tnl_push_forged_marker(void)
{
    static const uint16_t tags[] = { ETH_TYPE_VLAN_8021AD,
                                     ETH_TYPE_VLAN_8021Q };
    static const uint16_t ctag[] = { ETH_TYPE_VLAN_8021Q };
    struct eth_addr dst;
    struct dp_packet *p;

    for (size_t n_tags = 0; n_tags <= 2; n_tags++) {
        const uint16_t *tpids = n_tags == 1 ? ctag : tags;

        p = marker_frame(tpids, n_tags, HW_PUSH_MARKER_TYPE, 0);
        memset(&dst, 0, sizeof dst);
        CHECK(hw_tx_push_is_forged(p, &dst));
        CHECK(eth_addr_equals(dst, hw_push_marker(3)));

        /* The push hook's own packets are not. */
        dp_packet_set_flow_mark(p, HW_PUSH_PACKET_MARK);
        CHECK(!hw_tx_push_is_forged(p, &dst));
        dp_packet_delete(p);

        p = marker_frame(tpids, n_tags, ETH_TYPE_IP, 0);
        CHECK(!hw_tx_push_is_forged(p, &dst));
        dp_packet_delete(p);
    }

    /* Cut in a tag: the NIC reads no ethertype there. */
    p = marker_frame(tags, 2, HW_PUSH_MARKER_TYPE, 46 + 2 + 2);
    CHECK(!hw_tx_push_is_forged(p, &dst));
    dp_packet_delete(p);
}
