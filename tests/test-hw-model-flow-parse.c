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

/* Unit tests of the NIC model's packet parser (hw-model-parse.c): the
 * headers it finds in plain and tunnel frames, and the VXLAN ports a
 * steering engine gives it. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <errno.h>
#include <string.h>
#include "dp-packet.h"
#include "packets.h"

/* ---------------------------------------------------------------------- */
/* Parser.                                                                */
/* ---------------------------------------------------------------------- */

void
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

void
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

void
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
