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

/* Unit tests of hw-encode-dr.c: the fte_match_param bytes of a rule's match
 * at the offsets of hw-apis.md 3.3 (every byte of mask and value compared,
 * with the criteria bits and the size), the PRM modify-header commands of
 * hw-apis.md 3.2 against hand-computed big-endian words, the DevX flow
 * counter commands, and the readable forms.  Run as "ovstest
 * test-hw-encode-dr" (all tests) or "ovstest test-hw-encode-dr NAME...". */

#include <config.h>
#undef NDEBUG
#include "hw-encode-dr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw-encode.h"
#include "hw-rule.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-check.h"
#include "util.h"

/* Expected bytes: runs of bytes at offsets of fte_match_param, ended by a
 * negative offset.  Every byte not listed must be zero. */
#define END -1

static void
build_expected(uint8_t expected[HW_DR_MATCH_MAX_SIZE], va_list args)
{
    memset(expected, 0, HW_DR_MATCH_MAX_SIZE);
    for (int ofs; (ofs = va_arg(args, int)) != END;) {
        int n = va_arg(args, int);

        for (int i = 0; i < n; i++) {
            CHECK(ofs + i < HW_DR_MATCH_MAX_SIZE);
            expected[ofs + i] = va_arg(args, int);
        }
    }
}

/* Checks 'got''s bytes up to its 'match_sz' (the encoder does not write
 * beyond): the runs that follow (OFS, N, N bytes), then END.  The expected
 * bytes beyond must be zero. */
static void
check_match_bytes(const struct hw_dr_match *got, const char *what, int line,
                  ...)
{
    uint8_t expected[HW_DR_MATCH_MAX_SIZE];
    va_list args;

    va_start(args, line);
    build_expected(expected, args);
    va_end(args);

    CHECK(got->match_sz <= sizeof expected);
    if (memcmp(got->buf, expected, got->match_sz)
        || !is_all_zeros(expected + got->match_sz,
                         sizeof expected - got->match_sz)) {
        struct ds s = DS_EMPTY_INITIALIZER;

        ds_put_format(&s, "line %d: %s bytes differ\nexpected:\n", line,
                      what);
        ds_put_hex_dump(&s, expected, sizeof expected, 0, false);
        ds_put_cstr(&s, "actual:\n");
        ds_put_hex_dump(&s, got->buf, got->match_sz, 0, false);
        ovs_abort(0, "%s", ds_cstr(&s));
    }
}

#define CHECK_MASK(M, ...) check_match_bytes(M, "mask", __LINE__, __VA_ARGS__)
#define CHECK_VALUE(V, ...) \
    check_match_bytes(V, "value", __LINE__, __VA_ARGS__)

/* Encodes 'rule', which must succeed, and checks the criteria bits and the
 * size of mask and value. */
static void
encode_ok(const struct hw_rule *rule, struct hw_dr_match *mask,
          struct hw_dr_match *value, uint8_t criteria, size_t size)
{
    struct ds reason = DS_EMPTY_INITIALIZER;

    /* What the encoder leaves unwritten shows in the checks of the bytes
     * up to 'match_sz'. */
    memset(mask, 0x5a, sizeof *mask);
    memset(value, 0x5a, sizeof *value);
    CHECK_ERR(hw_encode_dr_match(rule, true, mask, value, &reason), 0);
    CHECK_EQ(reason.length, 0);
    CHECK_EQ(mask->criteria, criteria);
    CHECK_EQ(value->criteria, criteria);
    CHECK_EQ(mask->match_sz, size);
    CHECK_EQ(value->match_sz, size);
    CHECK(hw_dr_match_params(mask)->match_sz == size);
    CHECK((void *) hw_dr_match_params(mask)->match_buf == mask->buf);
    ds_destroy(&reason);
}

static void
check_format(const struct hw_dr_match *mask, const struct hw_dr_match *value,
             const char *expected)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    hw_dr_match_format(mask, value, &s);
    CHECK_STR(ds_cstr(&s), expected);
    ds_destroy(&s);
}

static void
in6(const char *s, struct in6_addr *addr)
{
    CHECK(inet_pton(AF_INET6, s, addr) == 1);
}

/* Ethernet + C-VLAN + IPv4 + TCP, with values outside their masks. */
static void
rule_eth_vlan_ipv4_tcp(struct hw_rule *r)
{
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP;
    r->outer.eth.dst = (struct eth_addr) ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    r->outer.eth_mask.dst = eth_addr_exact;
    r->outer.eth.src = (struct eth_addr) ETH_ADDR_C(02, 00, 00, aa, bb, cc);
    r->outer.eth_mask.src = (struct eth_addr) ETH_ADDR_C(ff, ff, ff, 00, 00,
                                                         00);
    r->outer.eth.type = htons(ETH_TYPE_IP);
    r->outer.eth_mask.type = OVS_BE16_MAX;
    r->outer.eth.tci = htons(0x3064);           /* PCP 1, DEI, VID 100. */
    r->outer.eth_mask.tci = htons(0xefff);      /* PCP and VID. */
    r->outer.ipv4.src = htonl(0x0a010203);
    r->outer.ipv4_mask.src = htonl(0xffffff00);
    r->outer.ipv4.dst = htonl(0x0a000001);
    r->outer.ipv4_mask.dst = OVS_BE32_MAX;
    r->outer.ipv4.tos = 0xb9;
    r->outer.ipv4_mask.tos = 0xfc;
    r->outer.l4.src = htons(0x04ff);
    r->outer.l4_mask.src = htons(0xfc00);
    r->outer.l4.dst = htons(80);
    r->outer.l4_mask.dst = OVS_BE16_MAX;
}

static void
test_l2_l4(void)
{
    struct hw_dr_match mask, value;
    struct hw_rule r;

    rule_eth_vlan_ipv4_tcp(&r);
    encode_ok(&r, &mask, &value, 1 << HW_DR_MATCH_OUTER, 64);
    CHECK_MASK(&mask,
               0, 6, 0xff, 0xff, 0xff, 0, 0, 0,         /* smac */
               6, 2, 0xff, 0xff,                        /* ethertype */
               8, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,    /* dmac */
               14, 2, 0xef, 0xff,                       /* prio, vid */
               16, 2, 0xff, 0xfc,                       /* proto, dscp */
               18, 1, 0x9e,                     /* cvlan_tag, ip_version */
               20, 4, 0xfc, 0x00, 0xff, 0xff,           /* tcp ports */
               44, 4, 0xff, 0xff, 0xff, 0x00,           /* src ipv4 */
               60, 4, 0xff, 0xff, 0xff, 0xff,           /* dst ipv4 */
               END);
    CHECK_VALUE(&value,
                0, 6, 0x02, 0, 0, 0, 0, 0,
                6, 2, 0x08, 0x00,
                8, 6, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                14, 2, 0x20, 0x64,
                16, 2, 6, 0xb8,
                18, 1, 0x88,                    /* C-VLAN, version 4 */
                20, 4, 0x04, 0x00, 0x00, 80,
                44, 4, 10, 1, 2, 0,
                60, 4, 10, 0, 0, 1,
                END);
    check_format(&mask, &value,
                 "outer(smac=02:00:00:00:00:00/ff:ff:ff:00:00:00,"
                 "ethertype=0x0800,dmac=00:11:22:33:44:55,"
                 "first_vlan=0x2064/0xefff,ip_protocol=6,ip_dscp=46,"
                 "cvlan_tag=1,ip_version=4,tcp_sport=0x400/0xfc00,"
                 "tcp_dport=80,src_ipv4=10.1.2.0/24,dst_ipv4=10.0.0.1)");
    check_format(&mask, NULL,
                 "outer(smac/ff:ff:ff:00:00:00,ethertype,dmac,"
                 "first_vlan/0xefff,ip_protocol,ip_dscp,cvlan_tag,"
                 "ip_version,tcp_sport/0xfc00,tcp_dport,"
                 "src_ipv4/255.255.255.0,dst_ipv4)");

    /* IPv6 + UDP: label in misc, traffic class as DSCP and ECN. */
    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV6 | HW_HDR_UDP;
    in6("2001:db8:1::5", &r.outer.ipv6.src);
    in6("ffff:ffff:ffff:ffff::", &r.outer.ipv6_mask.src);
    in6("2001:db8:2::7", &r.outer.ipv6.dst);
    r.outer.ipv6_mask.dst = in6addr_exact;
    r.outer.ipv6.label = htonl(0x12345);
    r.outer.ipv6_mask.label = htonl(0xfffff);
    r.outer.ipv6.tclass = 0x03;
    r.outer.ipv6_mask.tclass = 0x03;
    r.outer.l4.src = htons(4789);
    r.outer.l4_mask.src = OVS_BE16_MAX;
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_OUTER | 1 << HW_DR_MATCH_MISC, 128);
    CHECK_MASK(&mask,
               16, 3, 0xff, 0x03, 0x1e,
               28, 2, 0xff, 0xff,                       /* udp_sport */
               32, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
               48, 16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
               64 + 28, 4, 0x00, 0x0f, 0xff, 0xff,      /* flow label */
               END);
    CHECK_VALUE(&value,
                16, 3, 17, 0x03, 0x0c,
                28, 2, 0x12, 0xb5,
                32, 8, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
                48, 16, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0x07,
                64 + 28, 4, 0x00, 0x01, 0x23, 0x45,
                END);
    check_format(&mask, &value,
                 "outer(ip_protocol=17,ip_ecn=3,ip_version=6,udp_sport=4789,"
                 "src_ipv6=2001:db8:1::/64,dst_ipv6=2001:db8:2::7) "
                 "misc(outer_ipv6_flow_label=0x12345)");

    /* Nothing to match: no section, no size. */
    memset(&r, 0, sizeof r);
    encode_ok(&r, &mask, &value, 0, 0);
    CHECK_MASK(&mask, END);
    check_format(&mask, &value, "any");
}

/* The IP version below the root: software steering takes the version
 * itself as the mask (an L3 type), the root's firmware matcher 0xf. */
static void
test_ip_version_non_root(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;
    struct hw_rule r;

    rule_eth_vlan_ipv4_tcp(&r);
    CHECK_ERR(hw_encode_dr_match(&r, false, &mask, &value, &reason), 0);
    CHECK_EQ(mask.buf[18], 0x88);       /* cvlan_tag, ip_version 4. */
    CHECK_EQ(value.buf[18], 0x88);
    CHECK_ERR(hw_encode_dr_match(&r, true, &mask, &value, &reason), 0);
    CHECK_EQ(mask.buf[18], 0x9e);
    CHECK_EQ(value.buf[18], 0x88);

    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV6;
    CHECK_ERR(hw_encode_dr_match(&r, false, &mask, &value, &reason), 0);
    CHECK_EQ(mask.buf[18], 0x0c);       /* ip_version 6. */
    CHECK_EQ(value.buf[18], 0x0c);
    check_format(&mask, &value, "outer(ip_version=6)");
    CHECK_EQ(reason.length, 0);
    ds_destroy(&reason);
}

/* What verbs cannot match: TTL, fragments, TCP flags, ICMP, both VLAN
 * tags. */
static void
test_ext(void)
{
    struct hw_dr_match mask, value;
    struct hw_rule r;

    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    r.outer.ext.ttl = 64;
    r.outer.ext_mask.ttl = 0xff;
    r.outer.ext.frag = 1;
    r.outer.ext_mask.frag = 1;
    r.outer.ext.tcp_flags = htons(0x0f02);      /* SYN, and bits outside. */
    r.outer.ext_mask.tcp_flags = htons(0x012);  /* SYN and ACK. */
    encode_ok(&r, &mask, &value, 1 << HW_DR_MATCH_OUTER, 64);
    CHECK_MASK(&mask,
               16, 1, 0xff,
               18, 2, 0x3e, 0x12,               /* frag, version, flags */
               27, 1, 0xff,                     /* ttl */
               END);
    CHECK_VALUE(&value,
                16, 1, 6,
                18, 2, 0x28, 0x02,
                27, 1, 64,
                END);
    check_format(&mask, &value,
                 "outer(ip_protocol=6,frag=1,ip_version=4,"
                 "tcp_flags=0x002/0x012,ttl_hoplimit=64)");

    /* TCP flags alone imply TCP, as a TCP header would. */
    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV6;
    r.outer.ext.tcp_flags = htons(0x100);       /* NS. */
    r.outer.ext_mask.tcp_flags = htons(0x1ff);
    r.outer.ext.ttl = 1;
    r.outer.ext_mask.ttl = 0xff;
    encode_ok(&r, &mask, &value, 1 << HW_DR_MATCH_OUTER, 64);
    CHECK_MASK(&mask, 16, 1, 0xff, 18, 2, 0x1f, 0xff, 27, 1, 0xff, END);
    CHECK_VALUE(&value, 16, 1, 6, 18, 2, 0x0d, 0x00, 27, 1, 1, END);

    /* ICMP echo request: the protocol and misc3. */
    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV4;
    r.outer.ext.icmp_type = 8;
    r.outer.ext_mask.icmp_type = 0xff;
    r.outer.ext_mask.icmp_code = 0xff;
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_OUTER | 1 << HW_DR_MATCH_MISC3, 320);
    CHECK_MASK(&mask, 16, 1, 0xff, 18, 1, 0x1e, 256 + 32, 2, 0xff, 0xff,
               END);
    CHECK_VALUE(&value, 16, 1, 1, 18, 1, 0x08, 256 + 32, 2, 8, 0, END);
    check_format(&mask, &value,
                 "outer(ip_protocol=1,ip_version=4) "
                 "misc3(icmp_type=8,icmp_code=0)");

    /* ICMPv6 neighbor solicitation, any code. */
    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV6;
    r.outer.ext.icmp_type = 135;
    r.outer.ext_mask.icmp_type = 0xff;
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_OUTER | 1 << HW_DR_MATCH_MISC3, 320);
    CHECK_MASK(&mask, 16, 1, 0xff, 18, 1, 0x1e, 256 + 34, 1, 0xff, END);
    CHECK_VALUE(&value, 16, 1, 58, 18, 1, 0x0c, 256 + 34, 1, 135, END);
    check_format(&mask, &value,
                 "outer(ip_protocol=58,ip_version=6) misc3(icmpv6_type=135)");

    /* 802.1ad: an S-VLAN with VID 10, then a C-VLAN with VID 20. */
    memset(&r, 0, sizeof r);
    r.outer.eth.tci = htons(10);
    r.outer.eth_mask.tci = htons(VLAN_VID_MASK);
    r.outer.vlan1 = HW_VLAN_STAG;
    r.outer.ext.tci2 = htons(20);
    r.outer.ext_mask.tci2 = htons(VLAN_VID_MASK);
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_OUTER | 1 << HW_DR_MATCH_MISC, 128);
    CHECK_MASK(&mask, 14, 2, 0x0f, 0xff, 18, 1, 0x40,
               64 + 8, 2, 0x0f, 0xff, 64 + 12, 1, 0x80, END);
    CHECK_VALUE(&value, 14, 2, 0x00, 10, 18, 1, 0x40,
                64 + 8, 2, 0x00, 20, 64 + 12, 1, 0x80, END);
    check_format(&mask, &value,
                 "outer(first_vlan=0x000a/0x0fff,svlan_tag=1) "
                 "misc(outer_second_vlan=0x0014/0x0fff,"
                 "outer_second_cvlan_tag=1)");

    /* Untagged only (verbs cannot say it), and exactly one tag. */
    memset(&r, 0, sizeof r);
    r.outer.vlan1 = HW_VLAN_NONE;
    encode_ok(&r, &mask, &value, 1 << HW_DR_MATCH_OUTER, 64);
    CHECK_MASK(&mask, 18, 1, 0xc0, END);
    CHECK_VALUE(&value, END);
    r.outer.vlan1 = HW_VLAN_CTAG;
    r.outer.vlan2 = HW_VLAN_NONE;
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_OUTER | 1 << HW_DR_MATCH_MISC, 128);
    CHECK_MASK(&mask, 18, 1, 0x80, 64 + 12, 1, 0xa0, END);
    CHECK_VALUE(&value, 18, 1, 0x80, END);
}

/* The VXLAN decap rule of the verbs tests: outer headers, VNI, inner
 * headers. */
static void
rule_vxlan(struct hw_rule *r)
{
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP;
    r->outer.ipv4.dst = htonl(0x01010258);
    r->outer.ipv4_mask.dst = OVS_BE32_MAX;
    r->outer.l4.dst = htons(4789);
    r->outer.l4_mask.dst = OVS_BE16_MAX;
    r->tunnel = HW_TUNNEL_VXLAN;
    r->tnl.vni = htonl(0xff00007b);             /* VNI 123, bits outside. */
    r->tnl_mask.vni = OVS_BE32_MAX;
    r->inner.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP;
    r->inner.eth.dst = (struct eth_addr) ETH_ADDR_C(00, 00, 5e, 00, 53, 01);
    r->inner.eth_mask.dst = eth_addr_exact;
    r->inner.ipv4.src = htonl(0xc0a80001);
    r->inner.ipv4_mask.src = OVS_BE32_MAX;
    r->inner.ext.ttl = 64;
    r->inner.ext_mask.ttl = 0xff;
    r->inner.l4.dst = htons(22);
    r->inner.l4_mask.dst = OVS_BE16_MAX;
}

static void
test_tunnel(void)
{
    struct hw_dr_match mask, value;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule r;

    rule_vxlan(&r);
    encode_ok(&r, &mask, &value, 0x07, 192);
    CHECK_MASK(&mask,
               16, 1, 0xff, 18, 1, 0x1e, 30, 2, 0xff, 0xff,
               60, 4, 0xff, 0xff, 0xff, 0xff,
               64 + 20, 3, 0xff, 0xff, 0xff,            /* vxlan_vni */
               128 + 8, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
               128 + 16, 1, 0xff, 128 + 18, 1, 0x1e,
               128 + 22, 2, 0xff, 0xff, 128 + 27, 1, 0xff,
               128 + 44, 4, 0xff, 0xff, 0xff, 0xff,
               END);
    CHECK_VALUE(&value,
                16, 1, 17, 18, 1, 0x08, 30, 2, 0x12, 0xb5,
                60, 4, 1, 1, 2, 0x58,
                64 + 20, 3, 0x00, 0x00, 0x7b,
                128 + 8, 6, 0x00, 0x00, 0x5e, 0x00, 0x53, 0x01,
                128 + 16, 1, 6, 128 + 18, 1, 0x08,
                128 + 22, 2, 0, 22, 128 + 27, 1, 64,
                128 + 44, 4, 192, 168, 0, 1,
                END);
    check_format(&mask, &value,
                 "outer(ip_protocol=17,ip_version=4,udp_dport=4789,"
                 "dst_ipv4=1.1.2.88) misc(vxlan_vni=123) "
                 "inner(dmac=00:00:5e:00:53:01,ip_protocol=6,ip_version=4,"
                 "tcp_dport=22,ttl_hoplimit=64,src_ipv4=192.168.0.1)");

    /* GRE (TEB) with a key: IP protocol 47, GRE protocol and key. */
    memset(&r, 0, sizeof r);
    r.outer.present = HW_HDR_IPV4;
    r.tunnel = HW_TUNNEL_GRE;
    r.tnl.gre_protocol = htons(0x6558);
    r.tnl_mask.gre_protocol = OVS_BE16_MAX;
    r.tnl.gre_key = htonl(0x01020304);
    r.tnl_mask.gre_key = htonl(0xffff00ff);
    r.inner.present = HW_HDR_ETH;
    r.inner.eth.type = htons(ETH_TYPE_ARP);
    r.inner.eth_mask.type = OVS_BE16_MAX;
    encode_ok(&r, &mask, &value, 0x07, 192);
    CHECK_MASK(&mask, 16, 1, 0xff, 18, 1, 0x1e,
               64 + 14, 6, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff,
               128 + 6, 2, 0xff, 0xff, END);
    CHECK_VALUE(&value, 16, 1, 47, 18, 1, 0x08,
                64 + 14, 6, 0x65, 0x58, 0x01, 0x02, 0x00, 0x04,
                128 + 6, 2, 0x08, 0x06, END);
    check_format(&mask, &value,
                 "outer(ip_protocol=47,ip_version=4) "
                 "misc(gre_protocol=0x6558,gre_key=0x01020004/0xffff00ff) "
                 "inner(ethertype=0x0806)");

    /* A GRE rule whose outer headers say UDP contradicts itself. */
    r.outer.present |= HW_HDR_UDP;
    CHECK_ERR(hw_encode_dr_match(&r, true, &mask, &value, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "outer headers imply IP protocols 47 and "
              "17");
    ds_destroy(&reason);
}

static void
test_metadata(void)
{
    struct hw_dr_match mask, value;
    struct hw_rule r;

    memset(&r, 0, sizeof r);
    r.reg_c[0] = 0xab1234;
    r.reg_c_mask[0] = 0xffff;
    r.reg_c[5] = 0xdeadbeef;
    r.reg_c_mask[5] = UINT32_MAX;
    r.reg_c[7] = 1;
    r.reg_c_mask[7] = 1;
    r.src_vport = 3;
    r.src_vport_mask = UINT16_MAX;
    encode_ok(&r, &mask, &value,
              1 << HW_DR_MATCH_MISC | 1 << HW_DR_MATCH_MISC2, 256);
    CHECK_MASK(&mask,
               64 + 6, 2, 0xff, 0xff,                   /* source_port */
               192 + 16, 4, 0, 0, 0, 1,                 /* reg_c_7 */
               192 + 24, 4, 0xff, 0xff, 0xff, 0xff,     /* reg_c_5 */
               192 + 44, 4, 0, 0, 0xff, 0xff,           /* reg_c_0 */
               END);
    CHECK_VALUE(&value,
                64 + 6, 2, 0, 3,
                192 + 16, 4, 0, 0, 0, 1,
                192 + 24, 4, 0xde, 0xad, 0xbe, 0xef,
                192 + 44, 4, 0, 0, 0x12, 0x34,
                END);
    check_format(&mask, &value,
                 "misc(source_port=3) "
                 "misc2(reg_c7=0x00000001/0x00000001,reg_c5=0xdeadbeef,"
                 "reg_c0=0x00001234/0x0000ffff)");
}

/* Matches the mlx5 matcher cannot express, and contradictions: refused
 * with a reason, nothing left in the buffers. */
static void
check_refused(const struct hw_rule *r, int error, const char *expected)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;

    memset(&mask, 0x5a, sizeof mask);
    memset(&value, 0x5a, sizeof value);
    CHECK_ERR(hw_encode_dr_match(r, true, &mask, &value, &reason), error);
    CHECK_STR(ds_cstr(&reason), expected);
    CHECK(is_all_zeros(mask.buf, sizeof mask.buf));
    CHECK(is_all_zeros(value.buf, sizeof value.buf));
    CHECK_EQ(mask.match_sz, 0);
    CHECK_EQ(mask.criteria, 0);
    ds_destroy(&reason);
}

static void
test_refused(void)
{
    struct hw_rule r;

    rule_vxlan(&r);
    r.inner.ext_mask.icmp_type = 0xff;
    check_refused(&r, EOPNOTSUPP, "inner ICMP match: the matcher has one "
                  "set of ICMP fields, for the outer headers");

    rule_eth_vlan_ipv4_tcp(&r);
    r.outer.ext_mask.tcp_flags = htons(0xfff);
    check_refused(&r, EOPNOTSUPP, "outer TCP flags mask 0xfff: the matcher "
                  "has the low 9 bits only");

    rule_eth_vlan_ipv4_tcp(&r);
    r.outer.ext.frag = 1;
    r.outer.ext_mask.frag = 3;          /* OVS's "later fragment" bit. */
    check_refused(&r, EOPNOTSUPP, "outer fragment match 0x1/0x3: the "
                  "matcher has only the is-a-fragment bit");

    rule_eth_vlan_ipv4_tcp(&r);
    r.outer.ipv4.proto = IPPROTO_UDP;
    r.outer.ipv4_mask.proto = 0xff;
    check_refused(&r, EINVAL, "outer IP protocol 17/0xff contradicts the 6 "
                  "its headers imply");

    /* An ICMP match on a TCP header. */
    rule_eth_vlan_ipv4_tcp(&r);
    r.outer.ext_mask.icmp_code = 0xff;
    check_refused(&r, EINVAL, "outer headers imply IP protocols 6 and 1");

    /* An IP protocol that agrees with the header is fine. */
    rule_eth_vlan_ipv4_tcp(&r);
    r.outer.ipv4.proto = IPPROTO_TCP;
    r.outer.ipv4_mask.proto = 0xff;
    {
        struct hw_dr_match mask, value;

        encode_ok(&r, &mask, &value, 1 << HW_DR_MATCH_OUTER, 64);
        CHECK_EQ(mask.buf[16], 0xff);
        CHECK_EQ(value.buf[16], IPPROTO_TCP);
    }
}

/* The verbs encoder ignores every dr-only field: the same ibv_flow_attr
 * bytes with or without them. */
static void
test_verbs_ignores_dr_fields(void)
{
    struct ofpbuf plain, ext;
    struct hw_rule r;

    rule_vxlan(&r);
    r.inner.ext_mask.ttl = 0;
    ofpbuf_init(&plain, 0);
    hw_encode_flow(&r, NULL, 1, &plain);

    r.outer.ext.ttl = 9;
    r.outer.ext_mask.ttl = 0xff;
    r.outer.ext.frag = 1;
    r.outer.ext_mask.frag = 1;
    r.outer.ext.tcp_flags = htons(2);
    r.outer.ext_mask.tcp_flags = htons(0x1ff);
    r.outer.ext.icmp_type = 3;
    r.outer.ext_mask.icmp_type = 0xff;
    r.outer.ext.tci2 = htons(5);
    r.outer.ext_mask.tci2 = htons(0xfff);
    r.outer.vlan1 = HW_VLAN_NONE;
    r.outer.vlan2 = HW_VLAN_STAG;
    r.inner.ext.ttl = 64;
    r.inner.ext_mask.ttl = 0xff;
    r.reg_c[2] = 7;
    r.reg_c_mask[2] = UINT32_MAX;
    r.src_vport = 1;
    r.src_vport_mask = UINT16_MAX;
    ofpbuf_init(&ext, 0);
    hw_encode_flow(&r, NULL, 1, &ext);

    CHECK_EQ(ext.size, plain.size);
    CHECK(!memcmp(ext.data, plain.data, plain.size));
    ofpbuf_uninit(&plain);
    ofpbuf_uninit(&ext);
}

/* Modify header. */

/* Checks that 'cmds' holds the 64-bit words that follow, then ends. */
static void
check_cmds(const struct ofpbuf *cmds, int line, size_t n, ...)
{
    const ovs_be64 *p = cmds->data;
    va_list args;

    if (cmds->size != n * 8) {
        ovs_abort(0, "line %d: %"PRIu32" bytes of commands, expected %"
                  PRIuSIZE, line, cmds->size, n * 8);
    }
    va_start(args, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t want = va_arg(args, uint64_t);
        uint8_t bytes[8];

        /* Big-endian on the wire: the most significant byte first. */
        memcpy(bytes, &p[i], sizeof bytes);
        for (int j = 0; j < 8; j++) {
            if (bytes[j] != (uint8_t) (want >> (56 - 8 * j))) {
                ovs_abort(0, "line %d: command %"PRIuSIZE" is %#018"PRIx64
                          ", expected %#018"PRIx64, line, i,
                          ntohll(p[i]), want);
            }
        }
    }
    va_end(args);
}

#define CHECK_CMDS(CMDS, N, ...) check_cmds(CMDS, __LINE__, N, __VA_ARGS__)

static void
check_modify_format(const struct ofpbuf *cmds, const char *expected)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    hw_dr_modify_format(cmds->data, cmds->size, &s);
    CHECK_STR(ds_cstr(&s), expected);
    ds_destroy(&s);
}

/* Each command: set = 1 << 28, add = 2 << 28, copy = 3 << 28; the field id
 * at bit 16, the offset at bit 8, the length in the low 5 bits (0 for 32);
 * the data in the low word. */
static void
test_modify(void)
{
    struct in6_addr a;
    struct ofpbuf cmds;

    ofpbuf_init(&cmds, 0);

    /* TTL and hop limit: set, and decrement as an add of 0xff. */
    hw_dr_modify_set_ttl(&cmds, false, 63);
    hw_dr_modify_add_ttl(&cmds, false, -1);
    hw_dr_modify_set_ttl(&cmds, true, 64);
    hw_dr_modify_add_ttl(&cmds, true, -1);
    hw_dr_modify_add_ttl(&cmds, false, 2);
    CHECK_CMDS(&cmds, 5,
               UINT64_C(0x100a00080000003f), UINT64_C(0x200a0000000000ff),
               UINT64_C(0x1047000800000040), UINT64_C(0x20470000000000ff),
               UINT64_C(0x200a000000000002));
    check_modify_format(&cmds, "set ipv4_ttl=63, add ipv4_ttl -1, "
                        "set ipv6_hlimit=64, add ipv6_hlimit -1, "
                        "add ipv4_ttl +2");

    /* MAC addresses: 47_16 (32 bits), then 15_0 (16 bits). */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_mac(&cmds, true,
                         (struct eth_addr) ETH_ADDR_C(00, 11, 22, 33, 44, 55));
    hw_dr_modify_set_mac(&cmds, false,
                         (struct eth_addr) ETH_ADDR_C(02, 00, 5e, 00, 53, 01));
    CHECK_CMDS(&cmds, 4,
               UINT64_C(0x1001000000112233), UINT64_C(0x1002001000004455),
               UINT64_C(0x1004000002005e00), UINT64_C(0x1005001000005301));
    check_modify_format(&cmds, "set eth_src=00:11:22:33:44:55, "
                        "set eth_dst=02:00:5e:00:53:01");

    /* IPv4 and IPv6 addresses. */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_ipv4(&cmds, true, htonl(0xc0000201));
    hw_dr_modify_set_ipv4(&cmds, false, htonl(0xc6336402));
    in6("2001:db8::1", &a);
    hw_dr_modify_set_ipv6(&cmds, true, &a);
    in6("fe80::1:2:3:4", &a);
    hw_dr_modify_set_ipv6(&cmds, false, &a);
    CHECK_CMDS(&cmds, 10,
               UINT64_C(0x10150000c0000201), UINT64_C(0x10160000c6336402),
               UINT64_C(0x100d000020010db8), UINT64_C(0x100e000000000000),
               UINT64_C(0x100f000000000000), UINT64_C(0x1010000000000001),
               UINT64_C(0x10110000fe800000), UINT64_C(0x1012000000000000),
               UINT64_C(0x1013000000010002), UINT64_C(0x1014000000030004));
    check_modify_format(&cmds, "set ipv4_src=192.0.2.1, "
                        "set ipv4_dst=198.51.100.2, set ipv6_src=2001:db8::1, "
                        "set ipv6_dst=fe80::1:2:3:4");

    /* L4 ports: 16 bits. */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_port(&cmds, true, true, htons(80));
    hw_dr_modify_set_port(&cmds, true, false, htons(8080));
    hw_dr_modify_set_port(&cmds, false, true, htons(53));
    hw_dr_modify_set_port(&cmds, false, false, htons(4789));
    CHECK_CMDS(&cmds, 4,
               UINT64_C(0x1008001000000050), UINT64_C(0x1009001000001f90),
               UINT64_C(0x100b001000000035), UINT64_C(0x100c0010000012b5));
    check_modify_format(&cmds, "set tcp_src=80, set tcp_dst=8080, "
                        "set udp_src=53, set udp_dst=4789");

    /* Registers: whole, some bits, and a copy between two. */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_reg_c(&cmds, 0, 0x12345678);
    hw_dr_modify_set_reg_c(&cmds, 7, 0xcafe);
    hw_dr_modify_set(&cmds, HW_DR_FIELD_REG_C_0 + 3, 8, 8, 0x1ab);
    hw_dr_modify_copy(&cmds, HW_DR_FIELD_REG_C_0 + 1, 0,
                      HW_DR_FIELD_REG_C_0, 16, 16);
    hw_dr_modify_copy(&cmds, HW_DR_FIELD_IPV4_TTL, 0,
                      HW_DR_FIELD_REG_C_0 + 2, 24, 8);
    CHECK_CMDS(&cmds, 5,
               UINT64_C(0x1051000012345678), UINT64_C(0x105800000000cafe),
               UINT64_C(0x10540808000000ab), UINT64_C(0x3052001000511000),
               UINT64_C(0x300a000800531800));
    check_modify_format(&cmds, "set reg_c0=0x12345678, set reg_c7=0xcafe, "
                        "set reg_c3[8..15]=0xab, "
                        "copy reg_c1[0..15]->reg_c0[16..31], "
                        "copy ipv4_ttl[0..7]->reg_c2[24..31]");

    /* What the formatter does not know, and a partial buffer. */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set(&cmds, 0x5a, 0, 32, 1);
    hw_dr_modify_set(&cmds, HW_DR_FIELD_SMAC_47_16, 0, 32, 0x00112233);
    {
        ovs_be64 odd = htonll(UINT64_C(0x7001000000000000));

        ofpbuf_put(&cmds, &odd, sizeof odd);
    }
    ofpbuf_put_zeros(&cmds, 3);
    check_modify_format(&cmds, "set field_0x5a[0..31]=0x1, "
                        "set smac_47_16=0x112233, "
                        "cmd(0x7001000000000000), trailing=3");
    ofpbuf_uninit(&cmds);
}

/* Runs of bits of packet fields: one SET of an offset and a length per
 * device field the run touches; all the bits the device sets when
 * 'n_bits' is 0, the same commands as the whole-field helpers. */
static void
test_modify_bits(void)
{
    struct eth_addr mac = ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    ovs_be16 port = htons(0x1f90);
    ovs_be32 ip4 = htonl(0xc6336400);
    struct ofpbuf cmds, whole;
    uint8_t tos, ttl = 64;
    struct in6_addr a;

    ofpbuf_init(&cmds, 0);
    ofpbuf_init(&whole, 0);

    /* Whole fields. */
    hw_dr_modify_set_bits(&cmds, HW_SET_ETH_SRC, false, false, &mac, 0, 0);
    hw_dr_modify_set_mac(&whole, true, mac);
    CHECK_EQ(cmds.size, whole.size);
    CHECK(!memcmp(cmds.data, whole.data, cmds.size));
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_bits(&cmds, HW_SET_TTL, true, false, &ttl, 0, 0);
    hw_dr_modify_set_bits(&cmds, HW_SET_L4_SRC, false, false, &port, 0, 0);
    CHECK_CMDS(&cmds, 2,
               UINT64_C(0x1047000800000040), UINT64_C(0x100b001000001f90));

    /* DSCP: the TOS byte's bits 2 to 7 are IP_DSCP's 0 to 5. */
    ofpbuf_clear(&cmds);
    tos = 0x10;
    hw_dr_modify_set_bits(&cmds, HW_SET_TOS, false, false, &tos, 0, 0);
    tos = 0xb8;
    hw_dr_modify_set_bits(&cmds, HW_SET_TOS, true, false, &tos, 5, 3);
    CHECK_CMDS(&cmds, 2,
               UINT64_C(0x1006000600000004), UINT64_C(0x1006030300000005));
    check_modify_format(&cmds, "set ip_dscp=4, set ip_dscp[3..5]=0x5");

    /* A MAC run across its two device fields: bits 8 to 39 are bits 0 to
     * 23 of DMAC_47_16 and 8 to 15 of DMAC_15_0. */
    ofpbuf_clear(&cmds);
    mac = (struct eth_addr) ETH_ADDR_C(02, 00, 5e, 00, 53, 01);
    hw_dr_modify_set_bits(&cmds, HW_SET_ETH_DST, false, false, &mac, 8, 32);
    CHECK_CMDS(&cmds, 2,
               UINT64_C(0x1004001800005e00), UINT64_C(0x1005080800000053));
    check_modify_format(&cmds, "set dmac_47_16[0..23]=0x5e00, "
                        "set dmac_15_0[8..15]=0x53");

    /* Within one: the OUI, and an IPv4 prefix. */
    ofpbuf_clear(&cmds);
    hw_dr_modify_set_bits(&cmds, HW_SET_ETH_DST, false, false, &mac, 24, 24);
    hw_dr_modify_set_bits(&cmds, HW_SET_IPV4_SRC, false, false, &ip4, 8, 24);
    CHECK_CMDS(&cmds, 2,
               UINT64_C(0x100408180002005e), UINT64_C(0x1015081800c63364));
    check_modify_format(&cmds, "set dmac_47_16[8..31]=0x2005e, "
                        "set ipv4_src[8..31]=0xc63364");

    /* An IPv6 /64: the two high words only; a TCP port's low byte. */
    ofpbuf_clear(&cmds);
    in6("2001:db8:0:1::", &a);
    hw_dr_modify_set_bits(&cmds, HW_SET_IPV6_DST, true, false, &a, 64, 64);
    hw_dr_modify_set_bits(&cmds, HW_SET_L4_DST, false, true, &port, 0, 8);
    CHECK_CMDS(&cmds, 3,
               UINT64_C(0x1011000020010db8), UINT64_C(0x1012000000000001),
               UINT64_C(0x1009000800000090));
    check_modify_format(&cmds, "set dipv6_127_96=0x20010db8, "
                        "set dipv6_95_64=0x1, set tcp_dst[0..7]=0x90");

    ofpbuf_uninit(&cmds);
    ofpbuf_uninit(&whole);
}

/* DevX flow counters: ALLOC_FLOW_COUNTER 0x939, QUERY_FLOW_COUNTER
 * 0x93b, each with its opcode in the first two bytes. */
static void
test_counter_commands(void)
{
    static const uint8_t alloc_in[HW_PRM_ALLOC_FLOW_COUNTER_IN] = {
        0x09, 0x39,
    };
    static const uint8_t query_in[HW_PRM_QUERY_FLOW_COUNTER_IN] = {
        0x09, 0x3b, [28] = 0x00, 0x80, 0x00, 0x2a,
    };
    static const uint8_t alloc_out[HW_PRM_ALLOC_FLOW_COUNTER_OUT] = {
        [8] = 0x00, 0x80, 0x00, 0x2a,
    };
    static const uint8_t query_out[HW_PRM_QUERY_FLOW_COUNTER_OUT] = {
        [16] = 0, 0, 0, 0, 0, 0, 0x01, 0x02,
        [24] = 0, 0, 0, 0x01, 0, 0, 0, 0x40,
    };
    uint8_t in[HW_PRM_QUERY_FLOW_COUNTER_IN];
    uint64_t packets, bytes;

    memset(in, 0xa5, sizeof in);
    hw_prm_alloc_flow_counter_in(in);
    CHECK(!memcmp(in, alloc_in, sizeof alloc_in));
    CHECK_EQ(hw_prm_alloc_flow_counter_id(alloc_out), 0x80002a);

    memset(in, 0xa5, sizeof in);
    hw_prm_query_flow_counter_in(in, 0x80002a);
    CHECK(!memcmp(in, query_in, sizeof query_in));
    hw_prm_query_flow_counter_out(query_out, &packets, &bytes);
    CHECK_EQ(packets, 0x102);
    CHECK_EQ(bytes, UINT64_C(0x100000040));
}

/* The Geneve TLV option object (CREATE_GENERAL_OBJECT 0xa00, object type
 * 0x000b; class, type and data length at bytes 12-15 of the object behind
 * the 16-byte header) and the flex parser protocols of QUERY_HCA_CAP 0x100
 * (op_mod 1: general capabilities, current; the 32 bits at byte 0xa8 of
 * the capability behind the 16-byte header: Geneve bit 3, its option 0
 * bit 10). */
static void
test_geneve_commands(void)
{
    static const uint8_t create_in[HW_PRM_CREATE_GENEVE_TLV_OPT_IN] = {
        0x0a, 0x00, [6] = 0x00, 0x0b,
        [28] = 0x01, 0x02, 0x80, 0x01,
    };
    static const uint8_t query_in[HW_PRM_QUERY_HCA_CAP_IN] = {
        0x01, 0x00, [6] = 0x00, 0x01,
    };
    uint8_t in[HW_PRM_CREATE_GENEVE_TLV_OPT_IN];
    uint8_t *out = xzalloc(HW_PRM_QUERY_HCA_CAP_OUT);

    memset(in, 0xa5, sizeof in);
    hw_prm_create_geneve_tlv_opt_in(in, htons(0x0102), 0x80, 1);
    CHECK(!memcmp(in, create_in, sizeof create_in));

    memset(in, 0xa5, sizeof in);
    hw_prm_query_hca_cap_in(in);
    CHECK(!memcmp(in, query_in, sizeof query_in));

    CHECK_EQ(hw_prm_hca_cap_parse(out), 0);
    out[16 + 0xa8 + 3] = 0x08;
    CHECK_EQ(hw_prm_hca_cap_parse(out), HW_DR_PARSE_GENEVE);
    out[16 + 0xa8 + 2] = 0x04;
    CHECK_EQ(hw_prm_hca_cap_parse(out),
             HW_DR_PARSE_GENEVE | HW_DR_PARSE_GENEVE_OPT);
    free(out);
}

/* Test runner. */

#define TEST(NAME) { #NAME, test_##NAME }
static const struct test_hw_case tests[] = {
    TEST(l2_l4),
    TEST(ext),
    TEST(tunnel),
    TEST(metadata),
    TEST(refused),
    TEST(ip_version_non_root),
    TEST(verbs_ignores_dr_fields),
    TEST(modify),
    TEST(modify_bits),
    TEST(counter_commands),
    TEST(geneve_commands),
};

static void
run_hw_encode_dr_tests(int argc, char *argv[])
{
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-encode-dr", run_hw_encode_dr_tests);
