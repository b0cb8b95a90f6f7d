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

/* Unit tests of the tunnel vport flows hw-translate.c turns into one rule
 * on the physical port with a decap (VXLAN, GRE), of those it refuses,
 * and of the flow that pops the tunnel. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-rule.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

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
void
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

void
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
void
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
void
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

/* Checks what hw_translate_still_encapsulated() says of the frame 'hex'
 * (hexadecimal) under 'restore'. */
static void
check_still_encapsulated_at(const char *hex,
                            const struct hw_tunnel_restore *restore,
                            bool expected, const char *file, int line)
{
    struct dp_packet *p = dp_packet_new(strlen(hex) / 2);

    CHECK(*dp_packet_put_hex(p, hex, NULL) == '\0');
    if (hw_translate_still_encapsulated(p, restore) != expected) {
        ovs_abort(0, "%s:%d: expected %s", file, line,
                  expected ? "still encapsulated" : "not encapsulated");
    }
    dp_packet_delete(p);
}
#define CHECK_STILL_ENCAPSULATED(HEX, RESTORE, EXPECTED) \
    check_still_encapsulated_at(HEX, RESTORE, EXPECTED, __FILE__, __LINE__)

/* What recovery checks before it gives a tagged frame the tunnel's
 * metadata: that the device did decapsulate it. */
void
test_still_encapsulated(void)
{
    /* VNI 123, 1.1.2.92:51283 > 1.1.2.88:4789, inner frame cut to 13
     * bytes; the same with other endpoints; the inner frame alone; GRE. */
    static const char vxlan[] =
        "aa55aa550000f8bc124434b608004500003100004000401134070101025c"
        "01010258c85312b5001d00000800000000007b0000010203040500060708"
        "090a08";
    static const char vxlan_other[] =
        "aa55aa550000f8bc124434b608004500003100004000401134070101025d"
        "01010258c85312b5001d00000800000000007b0000010203040500060708"
        "090a08";
    static const char inner[] =
        "00010203040500060708090a08004500002e00000000401166bd0a000001"
        "0a00000204d20050002ce6830000000000000000000000000000000000";
    static const char gre[] =
        "aa55aa550000f8bc124434b608004500005800004000402f33c20101025c"
        "0101025820006558000001c8";
    struct hw_translate_params params;
    struct hw_tunnel_restore restore;
    struct match match;

    vport_match_init(&match, false);
    vport_params_init(&params, HW_TUNNEL_VXLAN);
    hw_translate_tunnel_restore(&match, &params, &restore);

    CHECK_STILL_ENCAPSULATED(vxlan, &restore, true);
    CHECK_STILL_ENCAPSULATED(vxlan_other, &restore, false);
    CHECK_STILL_ENCAPSULATED(inner, &restore, false);
    CHECK_STILL_ENCAPSULATED(gre, &restore, false);

    /* A GRE vport's rule: the GRE frame is still encapsulated, the VXLAN
     * one (UDP) is not its tunnel. */
    vport_params_init(&params, HW_TUNNEL_GRE);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_STILL_ENCAPSULATED(gre, &restore, true);
    CHECK_STILL_ENCAPSULATED(vxlan, &restore, false);
}
