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

/* Unit tests of hw-encode.c: the ibv_flow_attr byte layout libibverbs
 * consumes (hw-apis.md 1.1, 1.2) and its readable form.  Run as
 * "ovstest test-hw-encode" (all tests) or "ovstest test-hw-encode NAME...".
 */

#include <config.h>
#undef NDEBUG
#include "hw-encode.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "hw-translate.h"
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

/* Checks 'len' bytes at 'ofs' of 'buf' against 'expected'. */
static void
check_bytes_at(const struct ofpbuf *buf, size_t ofs, const void *expected,
               size_t len, const char *file, int line)
{
    const uint8_t *p = buf->data;

    if (ofs + len > buf->size || memcmp(p + ofs, expected, len)) {
        struct ds s = DS_EMPTY_INITIALIZER;

        ds_put_format(&s, "%s:%d: bytes at %"PRIuSIZE" differ\nexpected:\n",
                      file, line, ofs);
        ds_put_hex_dump(&s, expected, len, ofs, false);
        ds_put_cstr(&s, "actual:\n");
        if (ofs < buf->size) {
            ds_put_hex_dump(&s, p + ofs, MIN(len, buf->size - ofs), ofs,
                            false);
        }
        ovs_abort(0, "%s", ds_cstr(&s));
    }
}
#define CHECK_BYTES(BUF, OFS, ...)                                      \
    do {                                                                \
        static const uint8_t expected_[] = { __VA_ARGS__ };             \
        check_bytes_at(BUF, OFS, expected_, sizeof expected_,           \
                       __FILE__, __LINE__);                             \
    } while (0)

/* Host-order readers of the buffer (the spec headers are host order). */
static uint32_t
get_u32(const struct ofpbuf *buf, size_t ofs)
{
    uint32_t v;

    CHECK(ofs + sizeof v <= buf->size);
    memcpy(&v, (const uint8_t *) buf->data + ofs, sizeof v);
    return v;
}

static uint16_t
get_u16(const struct ofpbuf *buf, size_t ofs)
{
    uint16_t v;

    CHECK(ofs + sizeof v <= buf->size);
    memcpy(&v, (const uint8_t *) buf->data + ofs, sizeof v);
    return v;
}

static const void *
get_ptr(const struct ofpbuf *buf, size_t ofs)
{
    const void *v;

    CHECK(ofs + sizeof v <= buf->size);
    memcpy(&v, (const uint8_t *) buf->data + ofs, sizeof v);
    return v;
}

static const struct ibv_flow_attr *
attr_of(const struct ofpbuf *buf)
{
    CHECK(buf->size >= sizeof(struct ibv_flow_attr));
    return buf->data;
}

/* The size of the filter (val or mask) of a match spec type, 0 for an
 * action spec. */
static size_t
filter_size(uint32_t type, size_t *val_ofs)
{
    switch (type & ~IBV_FLOW_SPEC_INNER) {
    case IBV_FLOW_SPEC_ETH:
        *val_ofs = offsetof(struct ibv_flow_spec_eth, val);
        return sizeof(struct ibv_flow_eth_filter);
    case IBV_FLOW_SPEC_IPV4:
        *val_ofs = offsetof(struct ibv_flow_spec_ipv4, val);
        return sizeof(struct ibv_flow_ipv4_filter);
    case IBV_FLOW_SPEC_IPV4_EXT:
        *val_ofs = offsetof(struct ibv_flow_spec_ipv4_ext, val);
        return sizeof(struct ibv_flow_ipv4_ext_filter);
    case IBV_FLOW_SPEC_IPV6:
        *val_ofs = offsetof(struct ibv_flow_spec_ipv6, val);
        return sizeof(struct ibv_flow_ipv6_filter);
    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
        *val_ofs = offsetof(struct ibv_flow_spec_tcp_udp, val);
        return sizeof(struct ibv_flow_tcp_udp_filter);
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        *val_ofs = offsetof(struct ibv_flow_spec_tunnel, val);
        return sizeof(struct ibv_flow_tunnel_filter);
    case IBV_FLOW_SPEC_GRE:
        *val_ofs = offsetof(struct ibv_flow_spec_gre, val);
        return sizeof(struct ibv_flow_gre_filter);
    default:
        *val_ofs = 0;
        return 0;
    }
}

/* Walks 'buf' as libibverbs does and checks what every encoded rule must
 * satisfy: the header fields, specs back to back from byte 20 with sizes
 * summing to attr.size, num_of_specs specs, and no value bit outside its
 * mask.  Stores the offset and type of each spec in 'ofs' and 'types'. */
static size_t
walk_specs(const struct ofpbuf *buf, size_t ofs[], uint32_t types[],
           size_t max)
{
    const struct ibv_flow_attr *attr = attr_of(buf);
    const uint8_t *p = buf->data;
    size_t pos = sizeof *attr;
    size_t n;

    CHECK_EQ(sizeof *attr, 20);
    CHECK_EQ(attr->comp_mask, 0);
    CHECK_EQ(attr->type, IBV_FLOW_ATTR_NORMAL);
    CHECK(attr->flags == 0 || attr->flags == IBV_FLOW_ATTR_FLAGS_EGRESS);
    CHECK_EQ(attr->size, buf->size);
    CHECK(attr->priority <= 15);
    CHECK(attr->num_of_specs <= max);

    for (n = 0; n < attr->num_of_specs; n++) {
        uint32_t type = get_u32(buf, pos);
        uint16_t size = get_u16(buf, pos + 4);
        size_t val_ofs, fsize;

        CHECK(size >= 8);
        CHECK(pos + size <= buf->size);
        ofs[n] = pos;
        types[n] = type;

        fsize = filter_size(type, &val_ofs);
        for (size_t i = 0; i < fsize; i++) {
            uint8_t val = p[pos + val_ofs + i];
            uint8_t mask = p[pos + val_ofs + fsize + i];

            if (val & ~mask) {
                ovs_abort(0, "spec %"PRIuSIZE" (type %#"PRIx32") byte "
                          "%"PRIuSIZE": value %#x outside mask %#x", n,
                          type, i, val, mask);
            }
        }
        pos += size;
    }
    CHECK_EQ(pos, buf->size);
    return n;
}

static void
check_format(const struct ofpbuf *buf, const char *expected)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    hw_encode_format(attr_of(buf), &s);
    CHECK_STR(ds_cstr(&s), expected);
    ds_destroy(&s);
}

/* Fake device objects: encode only copies the pointers. */
#define FAKE_COUNTERS \
    ((struct ibv_counters *) (uintptr_t) 0x1122334455667788)
#define FAKE_REFORMAT \
    ((struct ibv_flow_action *) (uintptr_t) 0x0102030405060708)

static void
rule_init(struct hw_rule *rule)
{
    memset(rule, 0, sizeof *rule);
}

static void
rule_set_tag(struct hw_rule *rule, uint32_t tag)
{
    rule->has_tag = true;
    rule->tag = tag;
    rule->count = true;
    rule->fate = HW_FATE_RSS;
}

/* Tests. */

/* hw-apis.md 1.2 arithmetic: ETH+IPV4+UDP+TAG+COUNT = 20+40+24+16+12+16. */
static void
test_eth_ipv4_udp_tag_count(void)
{
    struct hw_encode_handles handles = { .counters = FAKE_COUNTERS };
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    rule_init(&rule);
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP;
    rule.outer.eth.dst = (struct eth_addr) ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    rule.outer.eth_mask.dst = eth_addr_exact;
    rule.outer.ipv4.src = htonl(0x0a000000);
    rule.outer.ipv4_mask.src = htonl(0xffffff00);
    rule.outer.ipv4.dst = htonl(0x0a000001);
    rule.outer.ipv4_mask.dst = OVS_BE32_MAX;
    rule.outer.l4.dst = htons(53);
    rule.outer.l4_mask.dst = OVS_BE16_MAX;
    rule_set_tag(&rule, 5);

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);

    CHECK_EQ(buf.size, 20 + 40 + 24 + 16 + 12 + 16);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 5);
    CHECK_EQ(attr_of(&buf)->num_of_specs, 5);
    CHECK_EQ(attr_of(&buf)->port, 1);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED);

    CHECK_EQ(ofs[0], 20);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ETH);
    CHECK_EQ(get_u16(&buf, 24), 40);
    CHECK_EQ(ofs[1], 60);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_IPV4);
    CHECK_EQ(get_u16(&buf, 64), 24);
    CHECK_EQ(ofs[2], 84);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_UDP);
    CHECK_EQ(get_u16(&buf, 88), 16);
    CHECK_EQ(ofs[3], 100);
    CHECK_EQ(types[3], IBV_FLOW_SPEC_ACTION_TAG);
    CHECK_EQ(get_u16(&buf, 104), 12);
    CHECK_EQ(ofs[4], 112);
    CHECK_EQ(types[4], IBV_FLOW_SPEC_ACTION_COUNT);
    CHECK_EQ(get_u16(&buf, 116), 16);

    /* ETH: val at +6 (dst, src, type, vlan), mask at +22. */
    CHECK_BYTES(&buf, 26, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    CHECK_BYTES(&buf, 42, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    /* IPv4: val at +8 (src, dst), mask at +16, network order. */
    CHECK_BYTES(&buf, 68, 10, 0, 0, 0, 10, 0, 0, 1,
                0xff, 0xff, 0xff, 0x00, 0xff, 0xff, 0xff, 0xff);
    /* UDP: val at +6 with dst_port first, mask at +10. */
    CHECK_BYTES(&buf, 90, 0x00, 0x35, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00);
    /* TAG: the plain host-order value at +8. */
    CHECK_EQ(get_u32(&buf, 108), 5);
    /* COUNT: the counters pointer at +8. */
    CHECK(get_ptr(&buf, 120) == FAKE_COUNTERS);

    check_format(&buf, "prio=9 eth(dst=00:11:22:33:44:55) "
                 "ipv4(src=10.0.0.0/24,dst=10.0.0.1) udp(dst=53) tag(5) "
                 "count");
    ofpbuf_uninit(&buf);
}

/* A whole rule, byte for byte. */
static void
test_golden_drop_rule(void)
{
    struct ofpbuf buf;
    struct hw_rule rule;

    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    rule.outer.ipv4.src = htonl(0xc0a80100);
    rule.outer.ipv4_mask.src = htonl(0xffffff00);
    rule.outer.l4.dst = htons(80);
    rule.outer.l4_mask.dst = OVS_BE16_MAX;
    rule.outer.l4.src = htons(0x0400);
    rule.outer.l4_mask.src = htons(0xfc00);
    rule.fate = HW_FATE_DROP;
    rule.full = true;
    rule.count = true;          /* No counters object: no COUNT spec. */

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, NULL, 2, &buf);
#ifndef WORDS_BIGENDIAN
    CHECK_BYTES(&buf, 0,
                /* ibv_flow_attr: comp_mask, type NORMAL, size 68, prio 9,
                 * 3 specs, port 2, pad, flags. */
                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x44, 0x00, 0x09, 0x00, 0x03, 0x02, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00,
                /* @20 IPV4 (0x30, 24): pad, val src/dst, mask src/dst. */
                0x30, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
                0xc0, 0xa8, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
                0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
                /* @44 TCP (0x40, 16): val dst 80, src 0x400; mask dst, src;
                 * pad. */
                0x40, 0x00, 0x00, 0x00, 0x10, 0x00,
                0x00, 0x50, 0x04, 0x00, 0xff, 0xff, 0xfc, 0x00,
                0x00, 0x00,
                /* @60 DROP (0x1001, 8). */
                0x01, 0x10, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00);
#endif
    CHECK_EQ(buf.size, 20 + 24 + 16 + 8);
    check_format(&buf, "prio=9 ipv4(src=192.168.1.0/24) "
                 "tcp(src=0x0400/0xfc00,dst=80) drop");
    ofpbuf_uninit(&buf);
}

static void
test_ipv4_ext(void)
{
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    /* A protocol other than TCP/UDP needs the extended spec. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV4;
    rule.outer.ipv4.proto = IPPROTO_GRE;
    rule.outer.ipv4_mask.proto = 0xff;
    rule_set_tag(&rule, 9);
    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_IPV4_EXT);
    CHECK_EQ(get_u16(&buf, 24), 32);
    CHECK_EQ(ofs[1], 52);
    CHECK_EQ(buf.size, 20 + 32 + 12);
    /* val: src 28, dst 32, proto 36, tos 37, ttl 38, flags 39; mask from
     * 40: proto at 48. */
    CHECK_BYTES(&buf, 36, IPPROTO_GRE, 0, 0, 0);
    CHECK_BYTES(&buf, 48, 0xff, 0, 0, 0);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED + 1);
    check_format(&buf, "prio=10 ipv4(proto=47) tag(9)");

    /* So does a tos match. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV4 | HW_HDR_UDP;
    rule.outer.ipv4.tos = 0xb8;
    rule.outer.ipv4_mask.tos = 0xfc;
    rule_set_tag(&rule, 9);
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 3);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_IPV4_EXT);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_UDP);
    CHECK_EQ(ofs[1], 52);
    CHECK_BYTES(&buf, 37, 0xb8);
    CHECK_BYTES(&buf, 49, 0xfc);
    /* Never a ttl or flags mask: mlx5 refuses them. */
    CHECK_BYTES(&buf, 50, 0x00, 0x00);
    check_format(&buf, "prio=9 ipv4(tos=0xb8/0xfc) udp() tag(9)");
    ofpbuf_uninit(&buf);
}

/* ETH+IPV6+TCP+DROP+COUNT = 20+40+88+16+8+16. */
static void
test_ipv6_tcp(void)
{
    struct hw_encode_handles handles = { .counters = FAKE_COUNTERS };
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    rule_init(&rule);
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV6 | HW_HDR_TCP;
    rule.outer.eth.src = (struct eth_addr) ETH_ADDR_C(02, 00, 00, 00, 00, 01);
    rule.outer.eth_mask.src = eth_addr_exact;
    CHECK(inet_pton(AF_INET6, "2001:db8::", &rule.outer.ipv6.src) == 1);
    CHECK(inet_pton(AF_INET6, "ffff:ffff::", &rule.outer.ipv6_mask.src) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8::7", &rule.outer.ipv6.dst) == 1);
    rule.outer.ipv6_mask.dst = in6addr_exact;
    rule.outer.ipv6.label = htonl(0x12345);
    rule.outer.ipv6_mask.label = htonl(0xfffff);
    rule.outer.ipv6.tclass = 0x03;
    rule.outer.ipv6_mask.tclass = 0x03;
    rule.outer.l4.src = htons(1000);
    rule.outer.l4_mask.src = OVS_BE16_MAX;
    rule.fate = HW_FATE_DROP;
    rule.count = true;
    rule.full = true;

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(buf.size, 20 + 40 + 88 + 16 + 8 + 16);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 5);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_IPV6);
    CHECK_EQ(ofs[1], 60);
    CHECK_EQ(get_u16(&buf, 64), 88);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_TCP);
    CHECK_EQ(ofs[2], 148);
    CHECK_EQ(types[3], IBV_FLOW_SPEC_ACTION_DROP);
    CHECK_EQ(ofs[3], 164);
    CHECK_EQ(get_u16(&buf, 168), 8);
    CHECK_EQ(types[4], IBV_FLOW_SPEC_ACTION_COUNT);
    CHECK_EQ(ofs[4], 172);

    /* IPv6 val at +8: src, dst, label (network order), next_hdr, tclass,
     * hop_limit; mask at +48. */
    CHECK_BYTES(&buf, 68, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0);
    CHECK_BYTES(&buf, 100, 0x00, 0x01, 0x23, 0x45, 0x00, 0x03, 0x00);
    CHECK_BYTES(&buf, 108, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0);
    CHECK_BYTES(&buf, 140, 0x00, 0x0f, 0xff, 0xff, 0x00, 0x03, 0x00);
    /* TCP src port after dst. */
    CHECK_BYTES(&buf, 154, 0x00, 0x00, 0x03, 0xe8, 0x00, 0x00, 0xff, 0xff);

    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED);
    check_format(&buf, "prio=9 eth(src=02:00:00:00:00:01) "
                 "ipv6(src=2001:db8::/32,dst=2001:db8::7,label=0x12345,"
                 "tclass=0x03/0x03) tcp(src=1000) drop count");
    ofpbuf_uninit(&buf);
}

static void
test_vlan_and_bands(void)
{
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    rule_init(&rule);
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP;
    rule.outer.eth.tci = htons(100);
    rule.outer.eth_mask.tci = htons(VLAN_VID_MASK);
    rule.outer.l4.dst = htons(53);
    rule.outer.l4_mask.dst = OVS_BE16_MAX;
    rule_set_tag(&rule, 77);

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 4);
    /* vlan_tag is the last field of each filter (val +14, mask +30). */
    CHECK_BYTES(&buf, 40, 0x00, 0x64);
    CHECK_BYTES(&buf, 56, 0x0f, 0xff);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_TAGGED);
    check_format(&buf, "prio=1 eth(vlan=0x0064/0x0fff) ipv4() udp(dst=53) "
                 "tag(77)");

    /* The bands: tagged 0/1/2, untagged 4/5/6. */
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV4;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 3);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_TAGGED + 1);

    rule.outer.present = HW_HDR_ETH;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_TAGGED + 2);

    /* A TCI mask alone is enough for an ETH spec. */
    rule.outer.present = 0;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ETH);

    rule.outer.eth_mask.tci = htons(0);
    rule.outer.eth.tci = htons(0);
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 1);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ACTION_TAG);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED + 2);
    check_format(&buf, "prio=11 tag(77)");

    /* An ETH spec asked for with nothing masked: 40 zero bytes after the
     * header. */
    rule.outer.present = HW_HDR_ETH;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_BYTES(&buf, 26, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    check_format(&buf, "prio=11 eth() tag(77)");

    rule.outer.present = HW_HDR_IPV6 | HW_HDR_UDP;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED);
    ofpbuf_uninit(&buf);
}

/* Values are ANDed with masks even if the rule was not. */
static void
test_values_anded(void)
{
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    rule_init(&rule);
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP;
    rule.outer.eth.dst = eth_addr_broadcast;
    rule.outer.eth_mask.dst = (struct eth_addr) ETH_ADDR_C(01, 00, 00, 00,
                                                           00, 00);
    rule.outer.eth.src = eth_addr_broadcast;
    rule.outer.eth.type = htons(0x1234);
    rule.outer.eth.tci = htons(0xffff);
    rule.outer.eth_mask.tci = htons(VLAN_VID_MASK);
    rule.outer.ipv4.src = htonl(0x0a010203);
    rule.outer.ipv4_mask.src = htonl(0xffffff00);
    rule.outer.ipv4.dst = OVS_BE32_MAX;
    rule.outer.ipv4.proto = 0xff;
    rule.outer.ipv4.tos = 0xff;
    rule.outer.ipv4_mask.tos = 0x03;
    rule.outer.l4.src = OVS_BE16_MAX;
    rule.outer.l4_mask.src = htons(0xff00);
    rule.outer.l4.dst = OVS_BE16_MAX;
    rule_set_tag(&rule, 1);

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 4);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_IPV4_EXT);
    check_format(&buf, "prio=1 eth(dst=01:00:00:00:00:00/01:00:00:00:00:00,"
                 "vlan=0x0fff/0x0fff) ipv4(src=10.1.2.0/24,tos=0x03/0x03) "
                 "tcp(src=0xff00/0xff00) tag(1)");

    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV6;
    memset(&rule.outer.ipv6.src, 0xff, sizeof rule.outer.ipv6.src);
    CHECK(inet_pton(AF_INET6, "ffff::", &rule.outer.ipv6_mask.src) == 1);
    rule.outer.ipv6.label = OVS_BE32_MAX;
    rule.outer.ipv6_mask.label = htonl(0xff);
    rule.outer.ipv6.next_hdr = 0xff;
    rule.outer.ipv6.tclass = 0xff;
    rule.outer.ipv6_mask.tclass = 0xf0;
    rule_set_tag(&rule, 1);
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    check_format(&buf, "prio=10 ipv6(src=ffff::/16,label=0xff/0xff,"
                 "tclass=0xf0/0xf0) tag(1)");

    /* A label mask beyond 20 bits never reaches the device. */
    rule.outer.ipv6_mask.label = OVS_BE32_MAX;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_BYTES(&buf, 60, 0x00, 0x0f, 0xff, 0xff);
    CHECK_BYTES(&buf, 100, 0x00, 0x0f, 0xff, 0xff);
    ofpbuf_uninit(&buf);
}

static void
test_actions(void)
{
    struct hw_encode_handles handles = {
        .counters = FAKE_COUNTERS,
        .reformat = FAKE_REFORMAT,
    };
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    /* Drop, count and a reformat handle: 8 + 16 + 16 after the header. */
    rule_init(&rule);
    rule.fate = HW_FATE_DROP;
    rule.count = true;
    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(buf.size, 20 + 8 + 16 + 16);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 3);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ACTION_DROP);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_ACTION_COUNT);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_ACTION_HANDLE);
    CHECK(get_ptr(&buf, ofs[1] + 8) == FAKE_COUNTERS);
    CHECK(get_ptr(&buf, ofs[2] + 8) == FAKE_REFORMAT);
    check_format(&buf, "prio=11 drop count handle");

    /* No count asked for: no COUNT spec even with a counters object. */
    rule.count = false;
    rule.fate = HW_FATE_RSS;
    rule.has_tag = true;
    rule.tag = 0xffffff;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ACTION_TAG);
    CHECK_EQ(get_u32(&buf, ofs[0] + 8), 0xffffff);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_ACTION_HANDLE);
    check_format(&buf, "prio=11 tag(16777215) handle");

    /* RSS without a tag or count: an empty rule, header only. */
    rule_init(&rule);
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 3, &buf);
    CHECK_EQ(buf.size, 20);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 0);
    CHECK_EQ(attr_of(&buf)->port, 3);
    check_format(&buf, "prio=11");
    ofpbuf_uninit(&buf);
}

/* hw_encode_format() must survive buffers it did not write. */
static void
test_format_robust(void)
{
    struct {
        struct ibv_flow_attr attr;
        uint8_t specs[128];
    } raw;
    struct ibv_flow_spec_eth eth;
    struct ibv_flow_spec_tunnel vxlan;
    uint8_t *p;
    struct ofpbuf buf;

    /* INNER ETH, VXLAN and an unknown spec. */
    memset(&raw, 0, sizeof raw);
    p = (uint8_t *) &raw;
    memset(&vxlan, 0, sizeof vxlan);
    vxlan.type = IBV_FLOW_SPEC_VXLAN_TUNNEL;
    vxlan.size = sizeof vxlan;
    vxlan.val.tunnel_id = htonl(100);
    vxlan.mask.tunnel_id = htonl(0xffffff);
    memcpy(p + 20, &vxlan, sizeof vxlan);
    memset(&eth, 0, sizeof eth);
    eth.type = IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER;
    eth.size = sizeof eth;
    eth.val.ether_type = htons(ETH_TYPE_IP);
    eth.mask.ether_type = htons(0xffff);
    memcpy(p + 36, &eth, sizeof eth);
    {
        struct { uint32_t type; uint16_t size; uint16_t pad; } unknown = {
            0x99, 8, 0
        };
        memcpy(p + 76, &unknown, sizeof unknown);
    }
    raw.attr.type = IBV_FLOW_ATTR_NORMAL;
    raw.attr.priority = 13;
    raw.attr.num_of_specs = 3;
    raw.attr.size = 84;
    buf = (struct ofpbuf) { .data = &raw, .size = 84 };
    check_format(&buf, "prio=13 vxlan(vni=0x64) inner_eth(type=0x0800) "
                 "spec(type=0x99,size=8)");

    /* A spec of size 0 must not loop forever. */
    raw.attr.num_of_specs = 4;
    raw.attr.size = 92;
    check_format(&buf, "prio=13 vxlan(vni=0x64) inner_eth(type=0x0800) "
                 "spec(type=0x99,size=8) bad-spec(type=0,size=0)");

    /* More specs than the size holds. */
    raw.attr.num_of_specs = 3;
    raw.attr.size = 60;
    check_format(&buf, "prio=13 vxlan(vni=0x64) "
                 "bad-spec(type=0x120,size=40)");
    raw.attr.num_of_specs = 2;
    raw.attr.size = 38;
    check_format(&buf, "prio=13 vxlan(vni=0x64) truncated");

    /* A known type with the wrong size, and bytes past the last spec. */
    raw.attr.num_of_specs = 1;
    raw.attr.size = 40;
    vxlan.size = 20;
    memcpy(p + 20, &vxlan, sizeof vxlan);
    check_format(&buf, "prio=13 vxlan(size=20?)");
    raw.attr.size = 44;
    check_format(&buf, "prio=13 vxlan(size=20?) trailing=4");

    /* Flags and type are shown when not the defaults. */
    raw.attr.num_of_specs = 0;
    raw.attr.size = 20;
    raw.attr.type = IBV_FLOW_ATTR_SNIFFER;
    raw.attr.flags = IBV_FLOW_ATTR_FLAGS_EGRESS;
    check_format(&buf, "prio=13 type=3 flags=0x4");
    raw.attr.size = 0;
    check_format(&buf, "prio=13 type=3 flags=0x4 size=0?");
}


/* Tunnels. */

static void
test_vxlan_decap(void)
{
    struct hw_encode_handles handles = { .counters = FAKE_COUNTERS };
    const uint32_t inner = IBV_FLOW_SPEC_INNER;
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    vxlan_decap_rule_init(&rule);
    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(buf.size, 224);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 9);
    CHECK_EQ(attr_of(&buf)->flags, 0);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_ETH);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_IPV4);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_UDP);
    CHECK_EQ(types[3], IBV_FLOW_SPEC_VXLAN_TUNNEL);
    CHECK_EQ(types[4], IBV_FLOW_SPEC_ETH | inner);
    CHECK_EQ(types[5], IBV_FLOW_SPEC_IPV4 | inner);
    CHECK_EQ(types[6], IBV_FLOW_SPEC_TCP | inner);
    CHECK_EQ(types[7], IBV_FLOW_SPEC_ACTION_TAG);
    CHECK_EQ(types[8], IBV_FLOW_SPEC_ACTION_COUNT);
    CHECK_EQ(ofs[3], 20 + 40 + 24 + 16);
    CHECK_EQ(get_u16(&buf, ofs[3] + 4), 16);
    /* VNI big-endian in the low 24 bits: val at +8, mask at +12. */
    CHECK_BYTES(&buf, ofs[3] + 8, 0x00, 0x00, 0x00, 0x7b,
                0x00, 0xff, 0xff, 0xff);
    /* The outer UDP spec carries the VXLAN port. */
    CHECK_BYTES(&buf, ofs[2] + 6, 0x12, 0xb5, 0x00, 0x00, 0xff, 0xff);
    /* A tunnel rule is more specific than the outer-only rule of the
     * tnl_pop flow, and its band comes first. */
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_TUNNEL);
    CHECK(HW_PRIO_TUNNEL + 2 < HW_PRIO_UNTAGGED);
    check_format(&buf, "prio=6 eth() ipv4(src=1.1.2.88,dst=1.1.2.92) "
                 "udp(dst=4789) vxlan(vni=0x7b) "
                 "inner_eth(dst=aa:55:aa:55:00:01) inner_ipv4(dst=10.0.0.2) "
                 "inner_tcp(dst=80) tag(7) count");

    /* With the decap action: a tenth spec, the most a 6.1 kernel takes. */
    handles.reformat = FAKE_REFORMAT;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(buf.size, 224 + 16);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 10);
    CHECK_EQ(types[9], IBV_FLOW_SPEC_ACTION_HANDLE);
    CHECK(get_ptr(&buf, ofs[9] + 8) == FAKE_REFORMAT);

    /* The sub-priority follows the inner headers. */
    rule.inner.present &= ~HW_HDR_TCP;
    rule.inner.l4_mask.dst = htons(0);
    rule.inner.l4.dst = htons(0);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TUNNEL + 1);
    rule.inner.present &= ~HW_HDR_IPV4;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TUNNEL + 2);
    /* ...and a decap rule is hashed on what it delivers: the inner
     * packet. */
    rule.inner.present |= HW_HDR_IPV6 | HW_HDR_UDP;
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_UDP);
    rule.reformat = HW_REFORMAT_NONE;
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_UDP);

    /* An inner VLAN match is the inner VLAN guard's, before them all. */
    rule.inner.eth_mask.tci = htons(VLAN_CFI);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TUNNEL_GUARD);
    CHECK(HW_PRIO_VLAN_GUARD < HW_PRIO_TUNNEL_GUARD);
    CHECK(HW_PRIO_TUNNEL_GUARD < HW_PRIO_TUNNEL);
    ofpbuf_uninit(&buf);
}

static void
test_gre_l3(void)
{
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    /* GRE carrying IPv4, over IPv6: IPV6 GRE IPV4|INNER UDP|INNER TAG. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV6;
    CHECK(inet_pton(AF_INET6, "2001:db8::1", &rule.outer.ipv6.dst) == 1);
    rule.outer.ipv6_mask.dst = in6addr_exact;
    rule.tunnel = HW_TUNNEL_GRE;
    rule.tnl.gre_protocol = htons(ETH_TYPE_IP);
    rule.tnl_mask.gre_protocol = OVS_BE16_MAX;
    rule.tnl.gre_key = htonl(0x1c8);
    rule.tnl_mask.gre_key = OVS_BE32_MAX;
    rule.inner.present = HW_HDR_IPV4 | HW_HDR_UDP;
    rule.inner.l4.src = htons(53);
    rule.inner.l4_mask.src = OVS_BE16_MAX;
    rule.reformat = HW_REFORMAT_L3_DECAP;
    rule_set_tag(&rule, 3);
    rule.count = false;

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, NULL, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 5);
    CHECK_EQ(buf.size, 20 + 88 + 24 + 24 + 16 + 12);
    CHECK_EQ(types[0], IBV_FLOW_SPEC_IPV6);
    CHECK_EQ(types[1], IBV_FLOW_SPEC_GRE);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER);
    CHECK_EQ(types[3], IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER);
    CHECK_EQ(get_u16(&buf, ofs[1] + 4), 24);
    /* GRE: c_ks_res0_ver (never masked: EOPNOTSUPP on mlx5), protocol,
     * key, all network order; val at +8, mask at +16. */
    CHECK_BYTES(&buf, ofs[1] + 8, 0x00, 0x00, 0x08, 0x00,
                0x00, 0x00, 0x01, 0xc8,
                0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_TUNNEL);
    check_format(&buf, "prio=6 ipv6(dst=2001:db8::1) "
                 "gre(proto=0x0800,key=0x1c8) inner_ipv4() "
                 "inner_udp(src=53) tag(3)");
    ofpbuf_uninit(&buf);
}

static void
test_egress_encap(void)
{
    struct hw_encode_handles handles = {
        .counters = FAKE_COUNTERS,
        .reformat = FAKE_REFORMAT,
    };
    struct ofpbuf buf;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    /* What the flow sends, with the encap: IPV4 TCP COUNT HANDLE and the
     * egress flag; no tag, the packet leaves on the wire. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    rule.outer.ipv4.dst = htonl(0x0a000002);
    rule.outer.ipv4_mask.dst = OVS_BE32_MAX;
    rule.egress = true;
    rule.reformat = HW_REFORMAT_L2_ENCAP;
    rule.reformat_len = 50;
    rule.count = true;
    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 4);
    CHECK_EQ(attr_of(&buf)->flags, IBV_FLOW_ATTR_FLAGS_EGRESS);
    CHECK_EQ(types[2], IBV_FLOW_SPEC_ACTION_COUNT);
    CHECK_EQ(types[3], IBV_FLOW_SPEC_ACTION_HANDLE);
    CHECK_EQ(attr_of(&buf)->priority, HW_PRIO_UNTAGGED);
    check_format(&buf, "prio=9 flags=0x4 ipv4(dst=10.0.0.2) tcp() count "
                 "handle");

    /* The marker match the plugin uses: destination and ethertype. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_ETH;
    rule.outer.eth.dst = (struct eth_addr) ETH_ADDR_C(0e, 48, 00, 00, 00, 07);
    rule.outer.eth_mask.dst = eth_addr_exact;
    rule.outer.eth.type = htons(0x88b5);
    rule.outer.eth_mask.type = OVS_BE16_MAX;
    rule.egress = true;
    rule.reformat = HW_REFORMAT_L3_ENCAP;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, &handles, 1, &buf);
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 2);
    check_format(&buf, "prio=11 flags=0x4 eth(dst=0e:48:00:00:00:07,"
                 "type=0x88b5) handle");

    /* Hex fields of value 0 under a full mask print as such. */
    rule_init(&rule);
    rule.outer.present = HW_HDR_IPV4;
    rule.outer.ipv4_mask.tos = 0xff;
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, NULL, 1, &buf);
    check_format(&buf, "prio=10 ipv4(tos=0x00)");
    ofpbuf_uninit(&buf);
}

/* translate and encode together, as the plugin uses them. */
static void
test_translate_then_encode(void)
{
    struct hw_encode_handles handles = { .counters = FAKE_COUNTERS };
    struct hw_translate_params params = {
        .flow_mark = 5,
        .in_port = u32_to_odp(1),
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions, buf;
    struct match match;
    struct hw_rule rule;
    size_t ofs[10];
    uint32_t types[10];

    match_init_catchall(&match);
    match.flow.in_port.odp_port = u32_to_odp(1);
    match.wc.masks.in_port.odp_port = u32_to_odp(UINT32_MAX);
    match_set_recirc_id(&match, 0);
    match_set_packet_type(&match, htonl(PT_ETH));
    match.wc.masks.vlans[0].tpid = OVS_BE16_MAX;
    match.wc.masks.vlans[0].tci = OVS_BE16_MAX;
    match_set_dl_type(&match, htons(ETH_TYPE_IP));
    match_set_nw_frag_masked(&match, 0, FLOW_NW_FRAG_MASK);
    match_set_nw_dst(&match, htonl(0x0a000001));
    match_set_nw_proto(&match, IPPROTO_UDP);
    match_set_tp_dst(&match, htons(53));

    ofpbuf_init(&actions, 0);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_OUTPUT, 2);
    ofpbuf_init(&buf, 0);

    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                                &rule, &reason), 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    /* IPV4 (not EXT: the UDP spec carries the protocol) + UDP + TAG +
     * COUNT. */
    CHECK_EQ(walk_specs(&buf, ofs, types, 10), 4);
    CHECK_EQ(buf.size, 20 + 24 + 16 + 12 + 16);
    check_format(&buf, "prio=9 ipv4(dst=10.0.0.1) udp(dst=53) tag(5) count");

    /* The same flow with no actions: a counted drop. */
    ofpbuf_clear(&actions);
    ofpbuf_clear(&buf);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                                &rule, &reason), 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    check_format(&buf, "prio=9 ipv4(dst=10.0.0.1) udp(dst=53) drop count");

    /* An ARP flow: the ethertype goes in the ETH spec. */
    match_set_dl_type(&match, htons(ETH_TYPE_ARP));
    match.wc.masks.nw_dst = htonl(0);
    match.wc.masks.nw_proto = 0;
    match.wc.masks.nw_frag = 0;
    match.wc.masks.tp_dst = htons(0);
    ofpbuf_clear(&buf);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                                &rule, &reason), 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    check_format(&buf, "prio=11 eth(type=0x0806) drop count");

    CHECK_STR(ds_cstr(&reason), "");
    ds_destroy(&reason);
    ofpbuf_uninit(&buf);
    ofpbuf_uninit(&actions);
}

/* The override of a full rule the device could not destroy: its match,
 * ahead of every band, with no action (the RSS QP's fate). */
static void
test_override(void)
{
    struct hw_encode_handles handles = {
        .counters = FAKE_COUNTERS,
    };
    struct ofpbuf buf;
    struct hw_rule rule;

    /* The most urgent band: a tagged L4 rule. */
    rule_init(&rule);
    rule.outer.eth.tci = htons(VLAN_CFI | 10);
    rule.outer.eth_mask.tci = htons(VLAN_CFI | VLAN_VID_MASK);
    rule.outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    rule.outer.l4.dst = htons(80);
    rule.outer.l4_mask.dst = OVS_BE16_MAX;
    rule.fate = HW_FATE_DROP;
    rule.count = true;
    rule.full = true;
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TAGGED);

    ofpbuf_init(&buf, 0);
    hw_encode_flow(&rule, &handles, 1, &buf);
    check_format(&buf, "prio=1 eth(vlan=0x100a/0x1fff) ipv4() tcp(dst=80) "
                 "drop count");

    hw_rule_make_override(&rule);
    CHECK(HW_PRIO_OVERRIDE < HW_PRIO_TAGGED);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_OVERRIDE);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_TCP);
    CHECK(!rule.full && !rule.count && !rule.has_tag);
    ofpbuf_clear(&buf);
    hw_encode_flow(&rule, &handles, 1, &buf);
    check_format(&buf, "prio=0 eth(vlan=0x100a/0x1fff) ipv4() tcp(dst=80)");
    ofpbuf_uninit(&buf);
}

static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
    TEST(eth_ipv4_udp_tag_count),
    TEST(golden_drop_rule),
    TEST(ipv4_ext),
    TEST(ipv6_tcp),
    TEST(vlan_and_bands),
    TEST(values_anded),
    TEST(actions),
    TEST(format_robust),
    TEST(vxlan_decap),
    TEST(gre_l3),
    TEST(egress_encap),
    TEST(translate_then_encode),
    TEST(override),
#undef TEST
};

static void
run_hw_encode_tests(int argc, char *argv[])
{
    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-encode", run_hw_encode_tests);
