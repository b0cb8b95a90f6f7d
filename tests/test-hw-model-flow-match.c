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

/* Unit tests of the NIC model's matching and lookup (hw-model-match.c):
 * masks, VLANs, fragments, tunnel and MPLS specs, inner headers behind a
 * tunnel only, priorities, the leftover rules and egress. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <errno.h>
#include <string.h>
#include "openvswitch/dynamic-string.h"
#include "packets.h"

/* ---------------------------------------------------------------------- */
/* Matching.                                                              */
/* ---------------------------------------------------------------------- */

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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
