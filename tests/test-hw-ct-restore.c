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

/* Unit tests of hw-ct-restore.c: a packet the device translated and sent
 * to software with the restore tag gets the metadata conntrack would have
 * given it, found by its stage's mark and its tuple after NAT; without
 * its stage or its connection it is refused. */

#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "dp-packet.h"
#include "hw-ct-restore.h"
#include "hw-rule.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-check.h"
#include "test-hw-frame.h"
#include "util.h"

#define STAGE_MARK 7
#define RECIRC 0x42
#define ZONE 5

/* A UDP (or ICMP echo, 'icmp_id' >= 0) packet from 'src':'sport' to
 * 'dst':'dport' with the restore tag of STAGE_MARK. */
static struct dp_packet *
tagged_packet(const char *src, const char *dst, uint16_t sport,
              uint16_t dport, int icmp_id)
{
    struct frame *f = frame_new();
    struct dp_packet *p;

    put_eth(f, "00:01:02:03:04:05", "00:06:07:08:09:0a", -1, ETH_TYPE_IP);
    if (icmp_id >= 0) {
        put_ipv4(f, IPPROTO_ICMP, src, dst, 20 + 8, true);
        put_u8(f, 8);
        put_u8(f, 0);
        put_be16(f, 0);
        put_be16(f, icmp_id);
        put_be16(f, 1);
    } else {
        put_ipv4(f, IPPROTO_UDP, src, dst, 20 + 8, true);
        put_udp(f, sport, dport, 8, 0);
    }
    p = packet_from(f, 0);
    free(f);
    pkt_metadata_init(&p->md, u32_to_odp(1));
    dp_packet_set_flow_mark(p, STAGE_MARK | HW_TAG_CT_RESTORE);
    return p;
}

static void
tuple_ipv4(struct ct_dpif_tuple *t, uint8_t proto, const char *src,
           const char *dst, uint16_t sport, uint16_t dport)
{
    memset(t, 0, sizeof *t);
    t->l3_type = AF_INET;
    t->ip_proto = proto;
    CHECK(inet_pton(AF_INET, src, &t->src.ip) == 1);
    CHECK(inet_pton(AF_INET, dst, &t->dst.ip) == 1);
    t->src_port = htons(sport);
    t->dst_port = htons(dport);
}

/* A connection 10.0.0.1:1000 > 10.0.0.2:2000 with SNAT to 10.0.0.99: its
 * original direction's packets, translated, get the connection's state,
 * mark, label, zone, the stage's recirc_id and the original tuple, and
 * lose their mark; another tuple, zone or stage is refused. */
static void
test_udp(void)
{
    struct hw_ct_restore_stage *stage;
    struct hw_ct_restore_dir *dir;
    struct ct_dpif_tuple orig, nat;
    ovs_u128 label = { .u64 = { .lo = 0x22, .hi = 0x33 } };
    struct dp_packet *p;
    uint32_t mark;

    tuple_ipv4(&orig, IPPROTO_UDP, "10.0.0.1", "10.0.0.2", 1000, 2000);
    tuple_ipv4(&nat, IPPROTO_UDP, "10.0.0.99", "10.0.0.2", 1000, 2000);
    stage = hw_ct_restore_stage_add(STAGE_MARK, RECIRC, ZONE);
    dir = hw_ct_restore_dir_add(&nat, ZONE, 0x62, 0x11, label, &orig);

    p = tagged_packet("10.0.0.99", "10.0.0.2", 1000, 2000, -1);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE), 0);
    CHECK_EQ(p->md.recirc_id, RECIRC);
    CHECK_EQ(p->md.ct_state, 0x62);
    CHECK_EQ(p->md.ct_zone, ZONE);
    CHECK_EQ(p->md.ct_mark, 0x11);
    CHECK_EQ(p->md.ct_label.u64.lo, 0x22);
    CHECK_EQ(p->md.ct_label.u64.hi, 0x33);
    CHECK_EQ(odp_to_u32(p->md.in_port.odp_port), 1);
    CHECK(!p->md.ct_orig_tuple_ipv6);
    CHECK_EQ(ntohl(p->md.ct_orig_tuple.ipv4.ipv4_src), 0x0a000001);
    CHECK_EQ(ntohl(p->md.ct_orig_tuple.ipv4.ipv4_dst), 0x0a000002);
    CHECK_EQ(ntohs(p->md.ct_orig_tuple.ipv4.src_port), 1000);
    CHECK_EQ(ntohs(p->md.ct_orig_tuple.ipv4.dst_port), 2000);
    CHECK_EQ(p->md.ct_orig_tuple.ipv4.ipv4_proto, IPPROTO_UDP);
    CHECK(!dp_packet_has_flow_mark(p, &mark));
    dp_packet_delete(p);

    /* Another source port: no such translated direction. */
    p = tagged_packet("10.0.0.99", "10.0.0.2", 1001, 2000, -1);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE),
              ENOENT);
    CHECK_EQ(p->md.recirc_id, 0);
    dp_packet_delete(p);

    /* Another stage (mark). */
    p = tagged_packet("10.0.0.99", "10.0.0.2", 1000, 2000, -1);
    CHECK_ERR(hw_ct_restore_packet(p, 8 | HW_TAG_CT_RESTORE), ENOENT);
    dp_packet_delete(p);

    /* The connection gone. */
    hw_ct_restore_dir_del(dir);
    p = tagged_packet("10.0.0.99", "10.0.0.2", 1000, 2000, -1);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE),
              ENOENT);
    dp_packet_delete(p);

    /* A stage of another zone does not find a direction of zone 5. */
    hw_ct_restore_stage_del(stage);
    stage = hw_ct_restore_stage_add(STAGE_MARK, RECIRC, ZONE + 1);
    dir = hw_ct_restore_dir_add(&nat, ZONE, 0x62, 0x11, label, &orig);
    p = tagged_packet("10.0.0.99", "10.0.0.2", 1000, 2000, -1);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE),
              ENOENT);
    dp_packet_delete(p);
    hw_ct_restore_dir_del(dir);
    hw_ct_restore_stage_del(stage);
}

/* An ICMP echo: the identifier in the packet, not the type, finds the
 * direction; the original tuple carries type and code as conntrack puts
 * them. */
static void
test_icmp(void)
{
    struct hw_ct_restore_stage *stage;
    struct hw_ct_restore_dir *dir;
    struct ct_dpif_tuple orig, nat;
    struct dp_packet *p;

    tuple_ipv4(&orig, IPPROTO_ICMP, "10.0.0.1", "10.0.0.2", 0, 0);
    orig.icmp_id = htons(0x1234);
    orig.icmp_type = 8;
    /* The reverse of the reply tuple: the reply's type. */
    tuple_ipv4(&nat, IPPROTO_ICMP, "10.0.0.99", "10.0.0.2", 0, 0);
    nat.icmp_id = htons(0x1234);
    nat.icmp_type = 0;
    stage = hw_ct_restore_stage_add(STAGE_MARK, RECIRC, ZONE);
    dir = hw_ct_restore_dir_add(&nat, ZONE, 0x62, 0, OVS_U128_ZERO, &orig);

    p = tagged_packet("10.0.0.99", "10.0.0.2", 0, 0, 0x1234);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE), 0);
    CHECK_EQ(p->md.recirc_id, RECIRC);
    CHECK_EQ(p->md.ct_state, 0x62);
    CHECK_EQ(ntohs(p->md.ct_orig_tuple.ipv4.src_port), 8);
    CHECK_EQ(ntohs(p->md.ct_orig_tuple.ipv4.dst_port), 0);
    CHECK_EQ(p->md.ct_orig_tuple.ipv4.ipv4_proto, IPPROTO_ICMP);
    dp_packet_delete(p);

    p = tagged_packet("10.0.0.99", "10.0.0.2", 0, 0, 0x1235);
    CHECK_ERR(hw_ct_restore_packet(p, STAGE_MARK | HW_TAG_CT_RESTORE),
              ENOENT);
    dp_packet_delete(p);
    hw_ct_restore_dir_del(dir);
    hw_ct_restore_stage_del(stage);
}

static void
test_hw_ct_restore_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "udp", test_udp },
        { "icmp", test_icmp },
    };

    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-ct-restore", test_hw_ct_restore_main);
