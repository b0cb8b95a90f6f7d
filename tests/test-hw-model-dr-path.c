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

/* Unit tests of packets through the NIC model's pipeline of tables
 * (hw-model-dr-path.c), group "path" of test-hw-model-dr: TTL, IP version,
 * rewrites and checksums, VLAN, the root shared with verbs, NIC TX and the
 * FDB, byte for byte. */

#include <config.h>
#include "test-hw-model-dr-private.h"

#include <errno.h>
#include <string.h>

#include "byte-order.h"
#include "dp-packet.h"
#include "hw-meter.h"
#include "hw-model-dr.h"
#include "packets.h"
#include "test-hw-frame.h"
#include "util.h"

/* Frames. */

static void
put_tcp(struct frame *f, uint16_t sport, uint16_t dport)
{
    put_be16(f, sport);
    put_be16(f, dport);
    put_be32(f, 0x01020304);    /* Sequence number. */
    put_be32(f, 0);             /* Acknowledgement. */
    put_be16(f, 0x5002);        /* Header length 20, SYN. */
    put_be16(f, 0xffff);        /* Window. */
    put_be16(f, 0);             /* Checksum. */
    put_be16(f, 0);             /* Urgent pointer. */
}

void
fix_csums(struct frame *f, size_t l3, size_t l4, bool udp_zero)
{
    uint8_t *ip = f->data + l3;
    uint8_t proto = ip[9];
    size_t l4_len = f->len - l4;
    size_t csum_ofs = proto == IPPROTO_TCP ? 16 : 6;
    struct frame *pseudo = frame_new();

    set_be16(ip + 10, 0);
    set_be16(ip + 10, inet_sum(ip, 20));

    set_be16(f->data + l4 + csum_ofs, 0);
    if (proto == IPPROTO_UDP && udp_zero) {
        free(pseudo);
        return;
    }
    put(pseudo, ip + 12, 8);
    put_u8(pseudo, 0);
    put_u8(pseudo, proto);
    put_be16(pseudo, l4_len);
    put(pseudo, f->data + l4, l4_len);
    set_be16(f->data + l4 + csum_ofs, inet_sum(pseudo->data, pseudo->len));
    free(pseudo);
}

struct frame *
ipv4_frame(int tci, uint8_t proto, const char *dst, uint16_t sport,
           uint16_t dport, uint8_t ttl, size_t *l3p, size_t *l4p)
{
    struct frame *f = frame_new();
    size_t l3, l4;

    put_eth(f, "aa:55:aa:55:00:07", "00:00:00:00:00:01", tci, ETH_TYPE_IP);
    l3 = put_ipv4(f, proto, "192.168.0.1", dst,
                  20 + (proto == IPPROTO_TCP ? 20 : 8) + 6, false);
    f->data[l3 + 8] = ttl;
    l4 = f->len;
    if (proto == IPPROTO_TCP) {
        put_tcp(f, sport, dport);
    } else {
        put_udp(f, sport, dport, 8 + 6, 0);
    }
    put(f, "hello!", 6);
    fix_csums(f, l3, l4, false);
    *l3p = l3;
    *l4p = l4;
    return f;
}

struct frame *
frame_copy(const struct frame *f)
{
    struct frame *copy = frame_new();

    put(copy, f->data, f->len);
    return copy;
}

/* Group "path": packets through the pipeline. */

struct mlx5dv_dr_table *
jump_init(struct jump *j, struct env *e, int domain)
{
    j->t0 = table(e, domain, 0);
    j->t1 = table(e, domain, 1);
    j->m0 = matcher(j->t0, 0, 0, NULL);
    j->to1 = ACTION(e->dom[domain], .type = HW_DR_ACTION_DEST_TABLE,
                    .table = j->t1);
    j->r0 = RULE(j->m0, NULL, j->to1);
    return j->t1;
}

void
jump_destroy(struct jump *j)
{
    CHECK_ERR(ops->dr_rule_destroy(j->r0), 0);
    CHECK_ERR(ops->dr_action_destroy(j->to1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(j->m0), 0);
    CHECK_ERR(ops->dr_table_destroy(j->t0), 0);
    CHECK_ERR(ops->dr_table_destroy(j->t1), 0);
}

void
test_path_ttl(void)
{
    struct mlx5dv_dr_action *dec_ttl, *tag, *qp, *ctr;
    ovs_be64 cmd = mod_add(F_IPV4_TTL, UINT32_MAX);
    struct frame *f, *want, *old;
    struct mlx5dv_devx_obj *counter;
    struct hw_model_stats stats;
    struct mlx5dv_dr_matcher *m;
    struct match mask, value;
    uint64_t packets, bytes;
    struct mlx5dv_dr_rule *r;
    struct jump j;
    size_t l3, l4;
    struct env e;

    env_init(&e, "model72");
    jump_init(&j, &e, NIC_RX);

    /* Level 1: IPv4 with TTL 64 -> TTL 63, tag 7, count, to the QP. */
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 4 << 1, 1);
    mset(&mask, M_OUTER + L24_TTL, 0xff, 1);
    m = matcher(j.t1, 0, C_OUTER, &mask);
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    mset(&value, M_OUTER + L24_TTL, 64, 1);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    dec_ttl = modify(e.dom[NIC_RX], &cmd, 1);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 7);
    ctr = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    r = RULE(m, &value, dec_ttl, tag, ctr, qp);

    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    want = frame_copy(f);
    want->data[l3 + 8] = 63;
    fix_csums(want, l3, l4, false);
    CHECK(get_be16(want->data + l3 + 10) != get_be16(f->data + l3 + 10));
    for (int i = 0; i < 3; i++) {
        model_port_check_rx(&e.port, f, want, 0, 7);
    }
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 3);
    CHECK_EQ(bytes, 3 * f->len);

    /* TTL 10 misses in level 1: NIC RX's default drops it. */
    old = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 10, &l3, &l4);
    CHECK_ERR(hw_model_receive("model72", packet_from(old, 0)), ENOENT);
    stats = model_stats("model72");
    CHECK_EQ(stats.dr_rule_hits, 3 * 2 + 1);
    CHECK_EQ(stats.dr_drop_miss, 1);
    CHECK_EQ(stats.rx_delivered, 3);
    CHECK_EQ(stats.rx_packets, 4);
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 3);

    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(dec_ttl), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    jump_destroy(&j);
    env_destroy(&e);
    CHECK_EQ(objects("model72").total, 0);
    free(f);
    free(want);
    free(old);
}

/* Below the root, a mask that names IP version 4 matches the L3 type: an
 * IPv6 packet (version 6, whose bits include 4's) does not hit it. */
void
test_path_ip_version(void)
{
    struct mlx5dv_dr_action *tag, *qp;
    struct hw_model_stats stats;
    struct mlx5dv_dr_matcher *m;
    struct match mask, value;
    struct frame *f4, *f6;
    struct mlx5dv_dr_rule *r;
    struct jump j;
    size_t l3, l4;
    struct env e;

    env_init(&e, "model79");
    jump_init(&j, &e, NIC_RX);

    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 4 << 1, 1);
    m = matcher(j.t1, 0, C_OUTER, &mask);
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 9);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    r = RULE(m, &value, tag, qp);

    f4 = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    model_port_check_rx(&e.port, f4, f4, 0, 9);

    f6 = frame_new();
    put_eth(f6, "aa:55:aa:55:00:07", "00:00:00:00:00:01", -1, ETH_TYPE_IPV6);
    put_ipv6(f6, IPPROTO_UDP, "2001:db8::1", "2001:db8::2", 8);
    put_udp(f6, 1000, 2000, 8, 0);
    CHECK_ERR(hw_model_receive("model79", packet_from(f6, 0)), ENOENT);
    stats = model_stats("model79");
    CHECK_EQ(stats.dr_drop_miss, 1);
    CHECK_EQ(stats.rx_delivered, 1);

    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    jump_destroy(&j);
    env_destroy(&e);
    CHECK_EQ(objects("model79").total, 0);
    free(f4);
    free(f6);
}

/* On NIC model 'name', a root rule that takes TCP packets through the
 * 'n' modify-header 'cmds' to the port's QP: 'f' arrives as 'want'; a UDP
 * packet misses the rule and has no other path. */
static void
check_tcp_modify(const char *name, const ovs_be64 *cmds, size_t n,
                 const struct frame *f, const struct frame *want)
{
    struct mlx5dv_dr_action *mod, *qp;
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_rule *r;
    struct frame *udp;
    struct match mask;
    size_t l3, l4;
    struct env e;

    env_init(&e, name);
    struct mlx5dv_dr_table *t0 = table(&e, NIC_RX, 0);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, 0xff, 1);
    m = matcher(t0, 0, C_OUTER, &mask);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, IPPROTO_TCP, 1);
    mod = modify(e.dom[NIC_RX], cmds, n);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    r = RULE(m, &mask, qp, mod);

    model_port_check_rx(&e.port, f, want, 0, 0);

    udp = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1, 2, 64, &l3, &l4);
    CHECK_ERR(hw_model_receive(name, packet_from(udp, 0)), ENOENT);
    CHECK_EQ(model_stats(name).rx_drop_no_rule, 1);
    free(udp);

    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    env_destroy(&e);
}

void
test_path_set_fields(void)
{
    ovs_be64 cmds[] = {
        mod_set(F_DMAC_47_16, 0, 0, 0x02000000),
        mod_set(F_DMAC_15_0, 0, 16, 0x0001),
        mod_set(F_SMAC_47_16, 0, 0, 0x0a0b0c0d),
        mod_set(F_SMAC_15_0, 0, 16, 0x0e0f),
        mod_set(F_SIPV4, 0, 0, 0x0a010101),
        mod_set(F_DIPV4, 0, 0, 0x0a020202),
        mod_set(F_TCP_SPORT, 0, 16, 1234),
        mod_set(F_TCP_DPORT, 0, 16, 80),
        mod_set(F_IP_DSCP, 0, 6, 46),
    };
    struct frame *f, *want;
    size_t l3, l4;

    f = ipv4_frame(-1, IPPROTO_TCP, "10.0.0.2", 40000, 8080, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data, "\x02\x00\x00\x00\x00\x01\x0a\x0b\x0c\x0d\x0e\x0f",
           12);
    memcpy(want->data + l3 + 12, "\x0a\x01\x01\x01\x0a\x02\x02\x02", 8);
    set_be16(want->data + l4, 1234);
    set_be16(want->data + l4 + 2, 80);
    want->data[l3 + 1] = (46 << 2) | 0x02;     /* DSCP EF, ECN kept. */
    fix_csums(want, l3, l4, false);
    check_tcp_modify("model73", cmds, ARRAY_SIZE(cmds), f, want);
    free(f);
    free(want);
}

/* Runs of bits: a SET of an offset and a length writes those bits of its
 * field and no other; the checksums follow. */
void
test_path_set_bits(void)
{
    ovs_be64 cmds[] = {
        mod_set(F_SMAC_47_16, 8, 16, 0xbeef),   /* Bytes 1 and 2. */
        mod_set(F_DIPV4, 8, 24, 0xc63364),      /* A /24 prefix. */
        mod_set(F_IP_DSCP, 3, 3, 5),            /* Class selector 5. */
        mod_set(F_TCP_DPORT, 0, 8, 0x90),       /* The low byte. */
    };
    struct frame *f, *want;
    size_t l3, l4;

    f = ipv4_frame(-1, IPPROTO_TCP, "10.0.0.2", 40000, 8000, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data + 7, "\xbe\xef", 2);
    memcpy(want->data + l3 + 16, "\xc6\x33\x64", 3);
    want->data[l3 + 1] = (5 << 5) | 0x02;     /* Bits 0-4 kept. */
    set_be16(want->data + l4 + 2, 8080);
    fix_csums(want, l3, l4, false);
    check_tcp_modify("model81", cmds, ARRAY_SIZE(cmds), f, want);
    free(f);
    free(want);
}

void
test_path_udp_csum(void)
{
    ovs_be64 cmds[] = {
        mod_set(F_UDP_DPORT, 0, 16, 4242),
        mod_set(0x47, 0, 8, 1),         /* IPv6 hop limit: skipped. */
        mod_copy(F_UDP_DPORT, 0, 16, F_REG_C_0, 0),
    };
    struct mlx5dv_dr_action *mod, *qp, *to1;
    struct mlx5dv_dr_matcher *m, *m1;
    struct mlx5dv_dr_rule *r, *r1;
    struct frame *f, *want;
    struct match mask;
    size_t l3, l4;
    struct jump j;
    struct env e;

    env_init(&e, "model74");
    jump_init(&j, &e, NIC_RX);
    struct mlx5dv_dr_table *t2 = table(&e, NIC_RX, 2);

    /* Level 1: UDP -> set the port (and copy it to reg_c_0), jump to
     * level 2, which matches reg_c_0 (misc2 byte 44) and delivers. */
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 4 << 1, 1);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, 0xff, 1);
    m = matcher(j.t1, 0, C_OUTER, &mask);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, IPPROTO_UDP, 1);
    mod = modify(e.dom[NIC_RX], cmds, ARRAY_SIZE(cmds));
    to1 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE, .table = t2);
    r = RULE(m, &mask, mod, to1);
    match_init(&mask, 256);
    mset(&mask, M_MISC2 + 44, 0xffffffff, 4);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    m1 = matcher(t2, 0, C_OUTER | C_MISC2, &mask);
    mset(&mask, M_MISC2 + 44, 4242, 4);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 4242, 2);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    r1 = RULE(m1, &mask, qp);

    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    want = frame_copy(f);
    set_be16(want->data + l4 + 2, 4242);
    fix_csums(want, l3, l4, false);
    model_port_check_rx(&e.port, f, want, 0, 0);
    CHECK_EQ(model_stats("model74").dr_modify_skipped, 1);

    /* A zero UDP checksum stays zero. */
    fix_csums(f, l3, l4, true);
    fix_csums(want, l3, l4, true);
    model_port_check_rx(&e.port, f, want, 0, 0);

    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_rule_destroy(r1), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(to1), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    jump_destroy(&j);
    env_destroy(&e);
    free(f);
    free(want);
}

void
test_path_vlan(void)
{
    struct mlx5dv_dr_action *pop, *push, *qp, *tag;
    struct mlx5dv_dr_rule *r_pop, *r_push;
    struct frame *tagged, *untagged;
    struct mlx5dv_dr_matcher *m;
    struct match mask;
    size_t l3, l4;
    struct jump j;
    struct env e;

    env_init(&e, "model75");
    jump_init(&j, &e, NIC_RX);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 0x80, 1);         /* cvlan_tag. */
    m = matcher(j.t1, 0, C_OUTER, &mask);
    pop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_POP_VLAN);
    push = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_PUSH_VLAN,
                  .vlan_hdr = htonl(0x8100u << 16 | 0x2005));
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 9);
    r_pop = RULE(m, &mask, pop, qp);                    /* Tagged. */
    r_push = RULE(m, NULL, push, tag, qp);              /* Untagged. */

    /* VID 5, PCP 1. */
    tagged = ipv4_frame(0x2005, IPPROTO_UDP, "10.0.0.2", 1, 2, 64, &l3, &l4);
    untagged = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1, 2, 64, &l3, &l4);
    model_port_check_rx(&e.port, tagged, untagged, 0, 0);
    model_port_check_rx(&e.port, untagged, tagged, 0, 9);

    CHECK_ERR(ops->dr_rule_destroy(r_pop), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_push), 0);
    CHECK_ERR(ops->dr_action_destroy(pop), 0);
    CHECK_ERR(ops->dr_action_destroy(push), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    jump_destroy(&j);
    env_destroy(&e);
    free(tagged);
    free(untagged);
}

/* The root is shared with the verbs rules by priority, verbs first on a
 * tie; DEFAULT_MISS there goes back to the verbs rules. */
void
test_path_root_verbs(void)
{
    struct mlx5dv_dr_action *tag, *qp, *miss;
    struct mlx5dv_dr_matcher *m1, *m3;
    struct mlx5dv_dr_rule *r1, *r3;
    struct mlx5dv_dr_table *t0;
    struct ibv_flow *flow, *all_default;
    struct rule verbs, leftovers;
    struct frame *f;
    struct match mask;
    size_t l3, l4;
    struct env e;

    env_init(&e, "model76");
    t0 = table(&e, NIC_RX, 0);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    m1 = matcher(t0, 1, C_OUTER, &mask);
    m3 = matcher(t0, 3, C_OUTER, &mask);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 2000, 2);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 100);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    miss = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEFAULT_MISS);

    /* A verbs rule of priority 1 with tag 200. */
    rule_init(&verbs, IBV_FLOW_ATTR_NORMAL, 1, 0);
    rule_add_udp_dst(&verbs, 2000);
    rule_add_tag(&verbs, 200);
    CHECK_ERR(ops->create_flow(e.port.rss_qp, rule_attr(&verbs), &flow), 0);

    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    r3 = RULE(m3, &mask, tag, qp);
    /* Verbs 1 before dr 3. */
    model_port_check_rx(&e.port, f, f, 0, 200);
    r1 = RULE(m1, &mask, tag, qp);
    /* Tie: verbs first. */
    model_port_check_rx(&e.port, f, f, 0, 200);
    CHECK_ERR(ops->destroy_flow(flow), 0);
    model_port_check_rx(&e.port, f, f, 0, 100);            /* Dr 1. */
    CHECK_ERR(ops->dr_rule_destroy(r1), 0);

    /* DEFAULT_MISS at the root skips every rule of the root, verbs or dr,
     * to the NIC's default: the leftover rules. */
    rule_init(&verbs, IBV_FLOW_ATTR_NORMAL, 5, 0);
    rule_add_udp_dst(&verbs, 2000);
    rule_add_tag(&verbs, 300);
    CHECK_ERR(ops->create_flow(e.port.rss_qp, rule_attr(&verbs), &flow), 0);
    r1 = RULE(m1, &mask, miss);
    CHECK_ERR(hw_model_receive("model76", packet_from(f, 0)), ENOENT);
    rule_init(&leftovers, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
    CHECK_ERR(ops->create_flow(e.port.rss_qp, rule_attr(&leftovers),
                               &all_default), 0);
    model_port_check_rx(&e.port, f, f, 0, 0);
    CHECK_ERR(ops->dr_rule_destroy(r1), 0);
    /* Dr 3 before verbs 5. */
    model_port_check_rx(&e.port, f, f, 0, 100);
    CHECK_ERR(ops->dr_rule_destroy(r3), 0);
    model_port_check_rx(&e.port, f, f, 0, 300);
    CHECK_ERR(ops->destroy_flow(flow), 0);
    CHECK_ERR(ops->destroy_flow(all_default), 0);

    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(miss), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m3), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    env_destroy(&e);
    free(f);
}

/* NIC TX: a rewrite then the wire (the domain's default); a drop. */
void
test_path_tx(void)
{
    ovs_be64 cmd = mod_set(F_DMAC_15_0, 0, 16, 0x0099);
    struct mlx5dv_dr_action *mod, *drop;
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_rule *r, *r_drop;
    struct dp_packet_batch batch;
    struct capture cap = { .n = 0 };
    struct frame *f, *want;
    struct ibv_qp *sq;
    struct match mask;
    size_t l3, l4;
    struct jump j;
    struct env e;

    env_init(&e, "model77");
    sq = model_port_create_send_qp(&e.port);
    CHECK_ERR(hw_model_set_wire_tx("model77", capture_tx, &cap), 0);
    jump_init(&j, &e, NIC_TX);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    m = matcher(j.t1, 0, C_OUTER, &mask);
    mod = modify(e.dom[NIC_TX], &cmd, 1);
    drop = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_DROP);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 2000, 2);
    r = RULE(m, &mask, mod);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 53, 2);
    r_drop = RULE(m, &mask, drop);

    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    want = frame_copy(f);
    want->data[4] = 0x00;
    want->data[5] = 0x99;
    dp_packet_batch_init_packet(&batch, packet_from(f, 0));
    CHECK_EQ(ops->tx_burst(sq, &batch), 0);
    CHECK_EQ(cap.n, 1);
    CHECK_PACKET(cap.packets[0], want, 0);
    capture_clear(&cap);

    free(f);
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 53, 64, &l3, &l4);
    dp_packet_batch_init_packet(&batch, packet_from(f, 0));
    CHECK_EQ(ops->tx_burst(sq, &batch), 1);
    CHECK_EQ(cap.n, 0);
    CHECK_EQ(model_stats("model77").tx_drop_rule, 1);

    CHECK_ERR(hw_model_set_wire_tx("model77", NULL, NULL), 0);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_drop), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    jump_destroy(&j);
    CHECK_ERR(ops->destroy_qp(sq), 0);
    env_destroy(&e);
    free(f);
    free(want);
}

/* FDB: from the uplink back to it, which the FDB's receive side drops
 * (rdma-core's "Can't go to uplink vport on RX rule"), or to the PF's NIC
 * RX. */
void
test_path_fdb(void)
{
    struct mlx5dv_dr_action *wire, *pf, *ctr, *qp, *tag;
    struct mlx5dv_dr_rule *r_wire, *r_pf, *r_rx;
    struct capture cap = { .n = 0 };
    struct mlx5dv_dr_matcher *m, *m_rx;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_table *rx0;
    uint64_t packets, bytes;
    struct frame *f, *g;
    struct match mask;
    size_t l3, l4;
    struct jump j;
    struct env e;

    env_init(&e, "model78");
    CHECK_ERR(hw_model_set_wire_tx("model78", capture_tx, &cap), 0);
    jump_init(&j, &e, FDB);
    match_init(&mask, 128);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    mset(&mask, M_MISC + 6, 0xffff, 2);                /* source_port. */
    m = matcher(j.t1, 0, C_OUTER | C_MISC, &mask);
    wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                  .vport = 0xffff);
    pf = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 0);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr = ACTION(e.dom[FDB], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });
    mset(&mask, M_MISC + 6, 0xffff, 2);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 7, 2);
    r_wire = RULE(m, &mask, wire);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 2000, 2);
    r_pf = RULE(m, &mask, ctr, pf);

    rx0 = table(&e, NIC_RX, 0);
    m_rx = matcher(rx0, 0, 0, NULL);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 0xabcdef);
    r_rx = RULE(m_rx, NULL, tag, qp);

    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 7, 64, &l3, &l4);
    CHECK_ERR(hw_model_receive("model78", packet_from(f, 0)), EPERM);
    CHECK_EQ(cap.n, 0);
    CHECK_EQ(model_stats("model78").dr_uplink_drop, 1);
    CHECK_EQ(model_stats("model78").dr_hairpin, 0);
    CHECK_EQ(model_stats("model78").rx_drop_rule, 1);
    CHECK_EQ(model_stats("model78").tx_packets, 0);

    g = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    model_port_check_rx(&e.port, g, g, 0, 0xabcdef);
    CHECK_EQ(cap.n, 0);
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 1);
    CHECK_EQ(bytes, g->len);

    CHECK_ERR(hw_model_set_wire_tx("model78", NULL, NULL), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_wire), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_pf), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_rx), 0);
    CHECK_ERR(ops->dr_action_destroy(wire), 0);
    CHECK_ERR(ops->dr_action_destroy(pf), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m_rx), 0);
    CHECK_ERR(ops->dr_table_destroy(rx0), 0);
    jump_destroy(&j);
    env_destroy(&e);
    free(f);
    free(g);
}

/* The model clock of test_path_meter(), in microseconds. */
static long long int meter_now;

static long long int
meter_clock(void)
{
    return meter_now;
}

/* Flow meters: a level-1 rule meters into the level-2 table, whose rules
 * drop red packets and deliver green ones, each counted. */
void
test_path_meter(void)
{
    struct mlx5dv_dr_action *meter, *drop, *qp, *ctr_red, *ctr_green;
    struct mlx5dv_devx_obj *red, *green;
    struct mlx5dv_dr_matcher *m1, *m2;
    struct mlx5dv_dr_rule *r1, *r_red, *r_green;
    struct hw_dr_action_attr attr;
    uint8_t params[HW_METER_PARAMS_SIZE];
    struct match mask, value;
    struct hw_meter_prm prm;
    uint64_t packets, bytes;
    struct mlx5dv_dr_table *t2;
    struct frame *f;
    size_t l3, l4;
    struct jump j;
    struct env e;

    hw_model_dr_meter_set_clock(meter_clock);
    meter_now = 1000000;
    env_init(&e, "model73");
    jump_init(&j, &e, NIC_RX);
    t2 = table(&e, NIC_RX, 2);

    /* 976,562.5 bytes/s, a burst of 3 frames of 'f'. */
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 2000, 64, &l3, &l4);
    memset(&prm, 0, sizeof prm);
    prm.valid = true;
    prm.cir_mantissa = 1;       /* 10^9 / 2^10 = 976,562.5 B/s. */
    prm.cir_exponent = 10;
    prm.cbs_mantissa = 3 * f->len;
    CHECK(3 * f->len <= 255);
    hw_meter_prm_encode(&prm, params);
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_FLOW_METER,
        .meter = { .next_table = t2, .active = true, .reg_c_index = 6,
                   .size = sizeof params, .params = params },
    };
    meter = action(e.dom[NIC_RX], attr);
    m1 = matcher(j.t1, 0, 0, NULL);
    r1 = RULE(m1, NULL, meter);

    /* Level 2: reg_c_6 red (0) -> count, drop; any other -> count, QP. */
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &red), 0);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &green), 0);
    ctr_red = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                     .counter = { .obj = red });
    ctr_green = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                       .counter = { .obj = green });
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    match_init(&mask, 256);
    mset(&mask, M_MISC2 + 16 + 4, 0xff, 4);     /* reg_c_6 low byte. */
    m2 = matcher(t2, 0, C_MISC2, &mask);
    match_init(&value, 256);
    mset(&value, M_MISC2 + 16 + 4, HW_METER_COLOR_RED, 4);
    r_red = RULE(m2, &value, ctr_red, drop);
    match_init(&value, 256);
    mset(&value, M_MISC2 + 16 + 4, HW_METER_COLOR_GREEN, 4);
    r_green = RULE(m2, &value, ctr_green, qp);

    /* A full bucket passes 3 frames, then drops (EPERM: a drop rule). */
    for (int i = 0; i < 5; i++) {
        int err = hw_model_receive("model73", packet_from(f, 0));

        CHECK_ERR(err, i < 3 ? 0 : EPERM);
    }
    /* 'f->len' bytes come back in f->len * 1024 / 1000 us (rounded up). */
    meter_now += DIV_ROUND_UP(f->len * 1024, 1000) - 1;
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), EPERM);
    meter_now += 1;
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), 0);
    CHECK_ERR(ops->dr_counter_query(green, &packets, &bytes), 0);
    CHECK_EQ(packets, 4);
    CHECK_EQ(bytes, 4 * f->len);
    CHECK_ERR(ops->dr_counter_query(red, &packets, &bytes), 0);
    CHECK_EQ(packets, 3);

    /* A long time refills to the burst only. */
    meter_now += 10 * 1000000;
    for (int i = 0; i < 4; i++) {
        int err = hw_model_receive("model73", packet_from(f, 0));

        CHECK_ERR(err, i < 3 ? 0 : EPERM);
    }

    /* Modify: a burst of one frame takes effect at once; inactive passes
     * everything; unknown select bits and non-meters are refused. */
    meter_now += 10 * 1000000;
    prm.cbs_mantissa = f->len;
    hw_meter_prm_encode(&prm, params);
    CHECK_ERR(ops->dr_action_modify_meter(meter, &attr,
                                          HW_METER_MODIFY_CBS), 0);
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), 0);
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), EPERM);
    attr.meter.active = false;
    CHECK_ERR(ops->dr_action_modify_meter(meter, &attr,
                                          HW_METER_MODIFY_ACTIVE), 0);
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), 0);
    CHECK_ERR(ops->dr_action_modify_meter(meter, &attr, 1u << 5), EINVAL);
    CHECK_ERR(ops->dr_action_modify_meter(drop, &attr,
                                          HW_METER_MODIFY_ACTIVE), EINVAL);

    /* The next table is in use while the meter exists. */
    CHECK_ERR(ops->dr_rule_destroy(r1), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_red), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_green), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m2), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(meter), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr_red), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr_green), 0);
    CHECK_ERR(ops->dr_counter_destroy(red), 0);
    CHECK_ERR(ops->dr_counter_destroy(green), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    jump_destroy(&j);
    free(f);
    env_destroy(&e);
    hw_model_dr_meter_set_clock(NULL);
}
