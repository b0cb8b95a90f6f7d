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

/* The NIC model's pipeline of tables (hw-model-dr.c, hw-model-dr-path.c),
 * through hw_model_ops only: every refusal with its errno (rdma-core 44's
 * mlx5dv_dr, hw-apis.md 3.1-3.4), and packets through tables, byte for
 * byte.  The match bytes, modify-header commands and expected frames are
 * written here from the reference's offsets and field ids, not taken from
 * the model.
 *
 * "ovstest test-hw-model-dr GROUP" runs one group of tests and prints
 * "NAME: ok" after each. */

#include <config.h>

#include <errno.h>
#include <string.h>

#include "byte-order.h"
#include "dp-packet.h"
#include "hw-dev.h"
#include "hw-model.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-check.h"
#include "test-hw-frame.h"
#include "test-hw-model-port.h"
#include "util.h"

static const struct hw_dev_ops *ops = &hw_model_ops;

/* fte_match_param (hw-apis.md 3.3): sections of 64 bytes and the bits of
 * match_criteria_enable. */
#define M_OUTER 0
#define M_MISC 64
#define M_INNER 128
#define M_MISC2 192
#define M_MISC3 256
#define C_OUTER 0x01
#define C_MISC 0x02
#define C_INNER 0x04
#define C_MISC2 0x08
#define C_MISC3 0x10

/* fte_match_set_lyr_2_4. */
#define L24_DMAC 8
#define L24_IP_PROTOCOL 16
#define L24_FLAGS 18            /* cvlan_tag 0x80, svlan 0x40, frag 0x20,
                                 * ip_version << 1, tcp_flags bit 8. */
#define L24_TCP_DPORT 22
#define L24_TTL 27
#define L24_UDP_DPORT 30
#define L24_DST_IP 48

/* Modify-header field ids (hw-apis.md 3.2). */
#define F_SMAC_47_16 0x01
#define F_SMAC_15_0 0x02
#define F_DMAC_47_16 0x04
#define F_DMAC_15_0 0x05
#define F_IP_DSCP 0x06
#define F_TCP_SPORT 0x08
#define F_TCP_DPORT 0x09
#define F_IPV4_TTL 0x0a
#define F_UDP_SPORT 0x0b
#define F_UDP_DPORT 0x0c
#define F_SIPV6_127_96 0x0d
#define F_SIPV4 0x15
#define F_DIPV4 0x16
#define F_REG_A 0x49
#define F_REG_B 0x50
#define F_REG_C_0 0x51
#define F_REG_C_6 0x57

#define NIC_RX MLX5DV_DR_DOMAIN_TYPE_NIC_RX
#define NIC_TX MLX5DV_DR_DOMAIN_TYPE_NIC_TX
#define FDB MLX5DV_DR_DOMAIN_TYPE_FDB

#define L2_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
#define L2_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define L3_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define L3_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL

/* A match parameter buffer (mlx5dv_flow_match_parameters), with room for
 * 512 bytes. */
struct match {
    uint64_t raw[1 + 512 / 8];
};

static struct mlx5dv_flow_match_parameters *
mp(struct match *m)
{
    return (struct mlx5dv_flow_match_parameters *) m->raw;
}

static struct mlx5dv_flow_match_parameters *
match_init(struct match *m, size_t size)
{
    memset(m, 0, sizeof *m);
    mp(m)->match_sz = size;
    return mp(m);
}

/* Sets the 'n' bytes at 'ofs' to 'x', big-endian. */
static void
mset(struct match *m, size_t ofs, uint64_t x, int n)
{
    uint8_t *p = (uint8_t *) mp(m)->match_buf + ofs;

    for (int i = n - 1; i >= 0; i--) {
        p[i] = x;
        x >>= 8;
    }
}

/* One PRM modify-header command (hw-apis.md 3.2). */
static ovs_be64
mod_set(uint16_t field, int offset, int length, uint32_t data)
{
    uint32_t w = (1u << 28) | (field << 16) | (offset << 8) | (length & 31);

    return htonll(((uint64_t) w << 32) | data);
}

static ovs_be64
mod_add(uint16_t field, uint32_t data)
{
    return htonll(((uint64_t) ((2u << 28) | (field << 16)) << 32) | data);
}

static ovs_be64
mod_copy(uint16_t src, int src_offset, int length, uint16_t dst,
         int dst_offset)
{
    uint32_t w0 = (3u << 28) | (src << 16) | (src_offset << 8)
                  | (length & 31);
    uint32_t w1 = (dst << 16) | (dst_offset << 8);

    return htonll(((uint64_t) w0 << 32) | w1);
}

/* A model port with the three domains. */
struct env {
    struct model_port port;
    struct mlx5dv_dr_domain *dom[HW_DR_N_DOMAINS];
};

static void
env_init(struct env *e, const char *devname)
{
    model_port_create(&e->port, devname, 64, 0);
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        CHECK_ERR(ops->dr_domain_create(e->port.ctx, i, &e->dom[i]), 0);
    }
}

static void
env_destroy(struct env *e)
{
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        CHECK_ERR(ops->dr_domain_destroy(e->dom[i]), 0);
    }
    model_port_destroy(&e->port);
}

static struct mlx5dv_dr_table *
table(struct env *e, int domain, uint32_t level)
{
    struct mlx5dv_dr_table *t;

    CHECK_ERR(ops->dr_table_create(e->dom[domain], level, &t), 0);
    return t;
}

static struct mlx5dv_dr_matcher *
matcher(struct mlx5dv_dr_table *t, uint16_t prio, uint8_t criteria,
        struct match *mask)
{
    struct mlx5dv_dr_matcher *m;

    CHECK_ERR(ops->dr_matcher_create(t, prio, criteria,
                                     mask ? mp(mask) : NULL, &m), 0);
    return m;
}

static int
try_action(struct mlx5dv_dr_domain *d, struct hw_dr_action_attr attr)
{
    struct mlx5dv_dr_action *a = NULL;
    int error = ops->dr_action_create(d, &attr, &a);

    if (!error) {
        CHECK_ERR(ops->dr_action_destroy(a), 0);
    } else {
        CHECK(!a);
    }
    return error;
}

static struct mlx5dv_dr_action *
action(struct mlx5dv_dr_domain *d, struct hw_dr_action_attr attr)
{
    struct mlx5dv_dr_action *a;

    CHECK_ERR(ops->dr_action_create(d, &attr, &a), 0);
    return a;
}

#define ACTION(D, ...) action(D, (struct hw_dr_action_attr) { __VA_ARGS__ })
#define TRY_ACTION(D, ...) \
    try_action(D, (struct hw_dr_action_attr) { __VA_ARGS__ })

static struct mlx5dv_dr_action *
modify(struct mlx5dv_dr_domain *d, const ovs_be64 *cmds, size_t n)
{
    return ACTION(d, .type = HW_DR_ACTION_MODIFY_HEADER,
                  .modify = { .size = 8 * n, .commands = cmds });
}

static int
try_modify(struct mlx5dv_dr_domain *d, const ovs_be64 *cmds, size_t size)
{
    return TRY_ACTION(d, .type = HW_DR_ACTION_MODIFY_HEADER,
                      .modify = { .size = size, .commands = cmds });
}

/* Tries a rule with 'n' actions; destroys it again if it was created. */
static int
try_rule(struct mlx5dv_dr_matcher *m, struct match *value, size_t n,
         struct mlx5dv_dr_action **actions)
{
    struct mlx5dv_dr_rule *rule = NULL;
    int error = ops->dr_rule_create(m, value ? mp(value) : NULL, n, actions,
                                    &rule);

    if (!error) {
        CHECK_ERR(ops->dr_rule_destroy(rule), 0);
    } else {
        CHECK(!rule);
    }
    return error;
}

#define TRY_RULE(M, V, ...)                                             \
    ({                                                                  \
        struct mlx5dv_dr_action *acts__[] = { __VA_ARGS__ };            \
        try_rule(M, V, ARRAY_SIZE(acts__), acts__);                     \
    })

static struct mlx5dv_dr_rule *
rule(struct mlx5dv_dr_matcher *m, struct match *value, size_t n,
     struct mlx5dv_dr_action **actions)
{
    struct mlx5dv_dr_rule *r;

    CHECK_ERR(ops->dr_rule_create(m, value ? mp(value) : NULL, n, actions,
                                  &r), 0);
    return r;
}

#define RULE(M, V, ...)                                                 \
    ({                                                                  \
        struct mlx5dv_dr_action *acts__[] = { __VA_ARGS__ };            \
        rule(M, V, ARRAY_SIZE(acts__), acts__);                         \
    })

static struct hw_model_objects
objects(const char *devname)
{
    struct hw_model_objects objs;

    CHECK_ERR(hw_model_count_objects(devname, &objs), 0);
    return objs;
}

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

/* Recomputes every checksum of the IPv4 frame 'f' (IPv4 header at 'l3',
 * TCP or UDP at 'l4'); a UDP checksum stays 0 if 'udp_zero'. */
static void
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

/* An IPv4 frame to 'dst' with 'proto' (TCP or UDP) ports 'sport', 'dport'
 * and TTL 'ttl', checksums right; '*l3p' and '*l4p' get the offsets. */
static struct frame *
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

static struct frame *
frame_copy(const struct frame *f)
{
    struct frame *copy = frame_new();

    put(copy, f->data, f->len);
    return copy;
}

/* Group "objects": life, references, counts, faults. */

static void
test_objects_busy(void)
{
    struct mlx5dv_dr_action *ctr_action, *jump, *qp_action;
    struct mlx5dv_dr_table *t1, *t2;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_matcher *m;
    struct hw_model_objects objs;
    struct mlx5dv_dr_rule *r;
    struct env e;

    env_init(&e, "model60");
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    m = matcher(t1, 0, 0, NULL);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr_action = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                        .counter = { .obj = counter });
    jump = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                  .table = t2);
    qp_action = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                       .qp = e.port.rss_qp);
    r = RULE(m, NULL, ctr_action, jump);

    objs = objects("model60");
    CHECK_EQ(objs.dr_domain, 3);
    CHECK_EQ(objs.dr_table, 2);
    CHECK_EQ(objs.dr_matcher, 1);
    CHECK_EQ(objs.dr_rule, 1);
    CHECK_EQ(objs.dr_action, 3);
    CHECK_EQ(objs.dr_counter, 1);
    CHECK_EQ(objs.total, 5 + 11);      /* The port's 5 objects. */

    /* Everything in use refuses to go. */
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_table_destroy(t1), EBUSY);        /* Matcher. */
    CHECK_ERR(ops->dr_table_destroy(t2), EBUSY);        /* Jump. */
    CHECK_ERR(ops->dr_matcher_destroy(m), EBUSY);       /* Rule. */
    CHECK_ERR(ops->dr_action_destroy(ctr_action), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(jump), EBUSY);
    CHECK_ERR(ops->dr_counter_destroy(counter), EBUSY);
    CHECK_ERR(ops->destroy_qp(e.port.rss_qp), EBUSY);   /* DEST_QP. */
    CHECK_EQ(objects("model60").total, 5 + 11);

    /* Then, in order, it does. */
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr_action), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(jump), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_action_destroy(qp_action), 0);
    objs = objects("model60");
    CHECK_EQ(objs.dr_domain, 3);
    CHECK_EQ(objs.total, 5 + 3);
    env_destroy(&e);
    CHECK_EQ(objects("model60").total, 0);
}

static void
test_objects_domain_refs(void)
{
    struct mlx5dv_dr_action *decap, *mod;
    ovs_be64 cmd = mod_add(F_IPV4_TTL, UINT32_MAX);
    struct env e;

    env_init(&e, "model61");
    /* A reformat and a modify header hold their domain, as in libmlx5. */
    decap = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_DECAP });
    mod = modify(e.dom[NIC_RX], &cmd, 1);
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    env_destroy(&e);
}

static void
test_objects_domain(void)
{
    struct mlx5dv_dr_domain *d;
    struct model_port hbl;
    struct env e;

    env_init(&e, "model62");
    CHECK_ERR(ops->dr_domain_create(e.port.ctx, 3, &d), EINVAL);
    CHECK(!d);
    CHECK_ERR(ops->dr_domain_sync(e.dom[FDB],
                                  MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
                                  | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW
                                  | MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM), 0);
    CHECK_ERR(ops->dr_domain_sync(e.dom[FDB], 8), EOPNOTSUPP);
    CHECK_EQ(e.port.caps.dr_domains, 7);
    CHECK_EQ(e.port.caps.dr_match_criteria, 0x1f);
    CHECK_EQ(e.port.caps.dr_max_modify, 32);
    CHECK_EQ(e.port.caps.dr_actions[NIC_RX] & (1u << HW_DR_ACTION_TAG),
             1u << HW_DR_ACTION_TAG);
    CHECK_EQ(e.port.caps.dr_actions[FDB] & (1u << HW_DR_ACTION_TAG), 0);
    CHECK_EQ(e.port.caps.dr_actions[NIC_RX]
             & (1u << HW_DR_ACTION_DEST_VPORT), 0);
    env_destroy(&e);

    /* An hbl device has no pipeline. */
    model_port_create(&hbl, "hbl_model63", 16, 0);
    CHECK_EQ(hbl.caps.dr_domains, 0);
    CHECK_ERR(ops->dr_domain_create(hbl.ctx, NIC_RX, &d), EOPNOTSUPP);
    model_port_destroy(&hbl);
}

static void
test_objects_faults(void)
{
    struct mlx5dv_dr_action *drop;
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_rule *r;
    struct mlx5dv_dr_table *t;
    size_t total;
    struct env e;

    env_init(&e, "model64");
    t = table(&e, NIC_RX, 1);
    m = matcher(t, 0, 0, NULL);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    total = objects("model64").total;

    CHECK_ERR(hw_model_set_fault("model64", "dr_rule_create", ENOSPC, 1), 0);
    CHECK_ERR(TRY_RULE(m, NULL, drop), ENOSPC);
    CHECK_EQ(objects("model64").total, total);
    r = RULE(m, NULL, drop);
    CHECK_ERR(hw_model_set_fault("model64", "dr_rule_destroy", EIO, 1), 0);
    CHECK_ERR(ops->dr_rule_destroy(r), EIO);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_domain_create", ENOMEM, 1),
              0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_counter_query", EIO, 1), 0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_no_such_op", EIO, 1),
              EINVAL);

    /* The rules capacity knob. */
    CHECK_ERR(hw_model_set_dr_max_rules("model64", 1), 0);
    r = RULE(m, NULL, drop);
    CHECK_ERR(TRY_RULE(m, NULL, drop), ENOMEM);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(hw_model_set_dr_max_rules("model64", 1u << 20), 0);

    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t), 0);
    env_destroy(&e);
}

/* Group "matcher": masks. */

static void
test_matcher_refusals(void)
{
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_table *t0, *t1;
    struct match mask;
    struct env e;

    env_init(&e, "model65");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);

    /* Mask above 448 bytes, criteria above 7 bits: EINVAL at any level. */
    match_init(&mask, 452);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m), EINVAL);
    CHECK(!m);
    CHECK_ERR(ops->dr_matcher_create(t0, 0, C_OUTER, mp(&mask), &m), EINVAL);
    match_init(&mask, 448);
    mset(&mask, M_OUTER + L24_TTL, 0xff, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, 0x80, mp(&mask), &m), EINVAL);
    CHECK_ERR(ops->dr_matcher_create(t0, 0, 0x80, mp(&mask), &m), EINVAL);
    m = matcher(t1, 0, 0x7f, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* A field the device cannot consume: the IPv4 IHL (outer byte 26). */
    mset(&mask, M_OUTER + 26, 0xf0, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m),
              EOPNOTSUPP);

    /* Below the root the mask's IP version is 0, 4 or 6. */
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 0xf << 1, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m),
              EOPNOTSUPP);
    m = matcher(t0, 0, C_OUTER, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* Below the root, criteria with nothing in the mask. */
    match_init(&mask, 64);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m), EINVAL);
    m = matcher(t1, 0, 0, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    m = matcher(t0, 0, C_OUTER, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* Bits in a section the criteria do not enable are ignored. */
    match_init(&mask, 448);
    mset(&mask, M_OUTER + 26, 0xff, 1);
    mset(&mask, M_MISC2 + 44, 0xffffffff, 4);
    m = matcher(t1, 0, C_MISC2, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    env_destroy(&e);
}

/* Group "rule": values. */

static void
test_rule_refusals(void)
{
    struct mlx5dv_dr_matcher *m0, *m1, *m16;
    struct mlx5dv_dr_table *t0, *t1;
    struct mlx5dv_dr_action *drop;
    struct mlx5dv_dr_rule *r;
    struct match mask, value;
    struct env e;

    env_init(&e, "model66");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 4 << 1, 1);       /* IPv4. */
    mset(&mask, M_OUTER + L24_TTL, 0xff, 1);
    m1 = matcher(t1, 3, C_OUTER, &mask);
    m0 = matcher(t0, 3, C_OUTER, &mask);
    m16 = matcher(t0, 16, C_OUTER, &mask);

    /* Size: a multiple of 4, at most 448. */
    match_init(&value, 62);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    mp(&value)->match_sz = 452;
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    mp(&value)->match_sz = 448;
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);
    mp(&value)->match_sz = 32;         /* Shorter: the rest is 0. */
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);

    /* A value bit outside the mask. */
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    mset(&value, M_OUTER + L24_IP_PROTOCOL, IPPROTO_UDP, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    CHECK_ERR(TRY_RULE(m0, &value, drop), EINVAL);

    /* IP version: the value's must be the mask's below the root. */
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_TTL, 64, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, &value, drop), 0);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);

    /* Identical values: refused at the root, allowed below. */
    r = RULE(m0, &value, drop);
    CHECK_ERR(TRY_RULE(m0, &value, drop), EEXIST);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    r = RULE(m1, &value, drop);
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);

    /* A root priority above 15. */
    CHECK_ERR(TRY_RULE(m16, &value, drop), ENOMEM);

    /* Not an action of the device. */
    CHECK_ERR(TRY_RULE(m1, &value, (struct mlx5dv_dr_action *) &value),
              EINVAL);

    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m16), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    env_destroy(&e);
}

/* Group "actions": actions per domain, jumps, reformat, push VLAN. */

static void
test_actions_domains(void)
{
    struct mlx5dv_dr_action *tag, *qp, *drop, *wire, *pf;
    struct mlx5dv_dr_matcher *rx, *tx, *fdb;
    struct mlx5dv_dr_table *rx1, *tx1, *fdb1;
    struct mlx5dv_devx_obj *counter;
    struct env e;

    env_init(&e, "model67");
    rx1 = table(&e, NIC_RX, 1);
    tx1 = table(&e, NIC_TX, 1);
    fdb1 = table(&e, FDB, 1);
    rx = matcher(rx1, 0, 0, NULL);
    tx = matcher(tx1, 0, 0, NULL);
    fdb = matcher(fdb1, 0, 0, NULL);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 0x1234567);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);

    /* Tag and QP: NIC RX only. */
    CHECK_ERR(TRY_RULE(rx, NULL, tag, qp), 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, tag, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tag, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(fdb, NULL, qp), EOPNOTSUPP);

    /* Vports: FDB only, 0 (the PF) and 0xffff (the uplink). */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0), EOPNOTSUPP);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0), EOPNOTSUPP);
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0x10000), EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 7), EINVAL);
    wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                  .vport = 0xffff);
    pf = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, wire), 0);
    CHECK_ERR(TRY_RULE(rx, NULL, wire), EINVAL);       /* Other domain. */

    /* Arrays: NIC RX and FDB, at least two destinations. */
    {
        struct mlx5dv_dr_action_dest_attr d0 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = wire
        };
        struct mlx5dv_dr_action_dest_attr d1 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = pf
        };
        struct mlx5dv_dr_action_dest_attr d2 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = tag
        };
        struct mlx5dv_dr_action_dest_attr *two[] = { &d0, &d1 };
        struct mlx5dv_dr_action_dest_attr *bad[] = { &d0, &d2 };

        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 1, two }), EINVAL);
        CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, two }), EOPNOTSUPP);
        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, bad }), EOPNOTSUPP);
        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, two }), 0);
    }

    /* Counters: a DevX flow counter, offset 0. */
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_COUNTER,
                         .counter = { .obj = counter, .offset = 1 }),
              EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_COUNTER,
                         .counter = { .obj = (void *) tag }), EINVAL);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);

    /* Push VLAN: TPID 0x8100 or 0x88a8. */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                         .vlan_hdr = htonl(0x0800 << 16 | 5)), EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                         .vlan_hdr = htonl(0x88a8 << 16 | 5)), 0);

    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_N_ACTIONS), EINVAL);

    CHECK_ERR(ops->dr_action_destroy(pf), 0);
    CHECK_ERR(ops->dr_action_destroy(wire), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_matcher_destroy(rx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(tx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb), 0);
    CHECK_ERR(ops->dr_table_destroy(rx1), 0);
    CHECK_ERR(ops->dr_table_destroy(tx1), 0);
    CHECK_ERR(ops->dr_table_destroy(fdb1), 0);
    env_destroy(&e);
}

static void
test_actions_jumps(void)
{
    struct mlx5dv_dr_action *to1, *to2, *to_tx2;
    struct mlx5dv_dr_table *t0, *t1, *t2, *tx2;
    struct mlx5dv_dr_matcher *m0, *m1, *m2;
    struct env e;

    env_init(&e, "model68");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    tx2 = table(&e, NIC_TX, 2);
    m0 = matcher(t0, 0, 0, NULL);
    m1 = matcher(t1, 0, 0, NULL);
    m2 = matcher(t2, 0, 0, NULL);

    /* A root table is never a destination. */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                         .table = t0), EINVAL);
    to1 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE, .table = t1);
    to2 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE, .table = t2);
    to_tx2 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                    .table = tx2);

    /* Jumps go deeper, within the domain. */
    CHECK_ERR(TRY_RULE(m0, NULL, to1), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, to2), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, to1), EINVAL);        /* Same level. */
    CHECK_ERR(TRY_RULE(m2, NULL, to1), EINVAL);        /* Up. */
    CHECK_ERR(TRY_RULE(m1, NULL, to_tx2), EINVAL);     /* Other domain. */
    CHECK_ERR(TRY_RULE(m0, NULL, to_tx2), EINVAL);

    CHECK_ERR(ops->dr_action_destroy(to1), 0);
    CHECK_ERR(ops->dr_action_destroy(to2), 0);
    CHECK_ERR(ops->dr_action_destroy(to_tx2), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m2), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_table_destroy(tx2), 0);
    env_destroy(&e);
}

static void
test_actions_reformat(void)
{
    static const uint8_t hdr[50] = { 0 };
    struct env e;

    env_init(&e, "model69");
#define REFORMAT(D, TYPE, DATA, SIZE)                                   \
    TRY_ACTION(e.dom[D], .type = HW_DR_ACTION_REFORMAT,                 \
               .reformat = { .type = TYPE, .size = SIZE, .data = DATA })

    /* NIC RX takes the decaps, NIC TX the encaps, the FDB all four. */
    CHECK_ERR(REFORMAT(NIC_RX, L2_DECAP, NULL, 0), 0);
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, hdr, 14), 0);
    CHECK_ERR(REFORMAT(NIC_RX, L2_ENCAP, hdr, 50), EINVAL);
    CHECK_ERR(REFORMAT(NIC_RX, L3_ENCAP, hdr, 50), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(NIC_TX, L3_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(NIC_TX, L2_DECAP, NULL, 0), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L3_DECAP, hdr, 14), EINVAL);
    CHECK_ERR(REFORMAT(FDB, L2_DECAP, NULL, 0), 0);
    CHECK_ERR(REFORMAT(FDB, L3_DECAP, hdr, 18), 0);
    CHECK_ERR(REFORMAT(FDB, L2_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(FDB, L3_ENCAP, hdr, 50), 0);

    /* Data and size agree; an L3 decap writes 14 or 18 bytes. */
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, hdr, 16), EINVAL);
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, NULL, 14), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, hdr, 0), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, NULL, 0), EINVAL);
    CHECK_ERR(REFORMAT(FDB, 4, NULL, 0), EINVAL);
#undef REFORMAT
    env_destroy(&e);
}

/* Group "order": the action-order state machine. */

static void
test_order(void)
{
    struct mlx5dv_dr_action *decap, *encap, *push, *pop, *mod, *tag, *qp;
    struct mlx5dv_dr_action *drop, *miss, *ctr, *jump, *fdb_decap;
    struct mlx5dv_dr_action *fdb_encap, *fdb_drop, *tx_push, *tx_pop;
    struct mlx5dv_dr_matcher *m0, *m1, *tx, *fdb, *fdb_port;
    struct mlx5dv_dr_table *t0, *t1, *t2, *tx1, *fdb1;
    static const uint8_t hdr[50] = { 0 };
    ovs_be64 cmd = mod_add(F_IPV4_TTL, UINT32_MAX);
    struct mlx5dv_devx_obj *counter;
    struct match mask, value;
    struct env e;

    env_init(&e, "model70");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    tx1 = table(&e, NIC_TX, 1);
    fdb1 = table(&e, FDB, 1);
    m0 = matcher(t0, 0, 0, NULL);
    m1 = matcher(t1, 0, 0, NULL);
    tx = matcher(tx1, 0, 0, NULL);
    fdb = matcher(fdb1, 0, 0, NULL);
    match_init(&mask, 128);
    mset(&mask, M_MISC + 6, 0xffff, 2);                /* source_port. */
    fdb_port = matcher(fdb1, 1, C_MISC, &mask);

    decap = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_DECAP });
    fdb_decap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                       .reformat = { .type = L2_DECAP });
    fdb_encap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                       .reformat = { .type = L2_ENCAP, .size = 50,
                                     .data = hdr });
    encap = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_ENCAP, .size = 50,
                                 .data = hdr });
    push = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_PUSH_VLAN,
                  .vlan_hdr = htonl(0x8100 << 16 | 10));
    tx_push = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                     .vlan_hdr = htonl(0x8100 << 16 | 10));
    pop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_POP_VLAN);
    tx_pop = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_POP_VLAN);
    mod = modify(e.dom[NIC_RX], &cmd, 1);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 1);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    fdb_drop = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DROP);
    miss = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEFAULT_MISS);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });
    jump = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                  .table = t2);

    /* The full order, then each stage out of it. */
    CHECK_ERR(TRY_RULE(m1, NULL, decap, pop, mod, push, tag, ctr, qp), 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, fdb_encap, fdb_decap, fdb_drop),
              EOPNOTSUPP);                      /* Decap after encap. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, decap, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, push, pop, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, push, mod, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, mod, pop, qp), EOPNOTSUPP);
    /* NIC RX may not push after a pop; NIC TX may. */
    CHECK_ERR(TRY_RULE(m1, NULL, pop, push, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_pop, tx_push), 0);

    /* One terminal, last; a counter may follow it, a tag may not. */
    CHECK_ERR(TRY_RULE(m1, NULL, qp, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, jump), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, qp), EINVAL);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, tag), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, ctr), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, tag, tag, qp), EINVAL);
    /* DROP and DEFAULT_MISS only for an unchanged packet. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, mod, miss), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, ctr, tag, drop), 0);
    /* No terminal at all is allowed. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, tag), 0);

    /* VLAN actions at most twice. */
    CHECK_ERR(TRY_RULE(tx, NULL, tx_push, tx_push), 0);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_push, tx_push, tx_push), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_pop, tx_pop, tx_pop), EINVAL);

    /* Decap only where packets come from the wire: an FDB rule is also
     * for the vports' side unless its source port is the uplink. */
    CHECK_ERR(TRY_RULE(fdb, NULL, fdb_decap, fdb_encap), EOPNOTSUPP);
    match_init(&value, 128);
    mset(&value, M_MISC + 6, 0, 2);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_encap), EOPNOTSUPP);
    mset(&value, M_MISC + 6, 0xffff, 2);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_encap), 0);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_drop),
              EOPNOTSUPP);                      /* Decap then DROP. */
    CHECK_ERR(TRY_RULE(tx, NULL, encap, tx_push), EOPNOTSUPP);

    /* The root: no VLAN actions, DROP with DEFAULT_MISS refused, the
     * firmware's own order. */
    CHECK_ERR(TRY_RULE(m0, NULL, push, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, NULL, pop, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, NULL, drop, miss), EINVAL);
    CHECK_ERR(TRY_RULE(m0, NULL, qp, mod, tag), 0);

    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_decap), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_encap), 0);
    CHECK_ERR(ops->dr_action_destroy(encap), 0);
    CHECK_ERR(ops->dr_action_destroy(push), 0);
    CHECK_ERR(ops->dr_action_destroy(tx_push), 0);
    CHECK_ERR(ops->dr_action_destroy(pop), 0);
    CHECK_ERR(ops->dr_action_destroy(tx_pop), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_drop), 0);
    CHECK_ERR(ops->dr_action_destroy(miss), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(jump), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(tx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb_port), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_table_destroy(tx1), 0);
    CHECK_ERR(ops->dr_table_destroy(fdb1), 0);
    env_destroy(&e);
}

/* Group "modify": modify-header commands. */

static void
test_modify_refusals(void)
{
    ovs_be64 cmds[40];
    struct env e;

    env_init(&e, "model71");
    for (int i = 0; i < ARRAY_SIZE(cmds); i++) {
        cmds[i] = mod_set(F_REG_C_0 + i % 6, 0, 0, i);
    }

    /* The buffer: a non-zero multiple of 8 bytes, at most 32 commands. */
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 12), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 0), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 32 * 8), 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 33 * 8), EOPNOTSUPP);

    /* Field ids: unknown ones, REG_C_6 (not in rdma-core 44's table). */
    cmds[0] = mod_set(0x18, 0, 16, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_set(F_REG_C_6, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_copy(F_REG_C_0, 0, 0, 0x18, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);

    /* Command type 4 does not exist. */
    cmds[0] = htonll((uint64_t) ((4u << 28) | (F_REG_C_0 << 16)) << 32);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EOPNOTSUPP);

    /* ADD: TTL, hop limit, TCP sequence numbers only. */
    cmds[0] = mod_add(F_REG_C_0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_add(F_IPV4_TTL, UINT32_MAX);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    /* SET: offset + length within the field (TTL has 8 bits). */
    cmds[0] = mod_set(F_IPV4_TTL, 4, 8, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_set(F_IPV4_TTL, 4, 4, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);
    cmds[0] = mod_copy(F_REG_C_0, 0, 16, F_IPV4_TTL, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_copy(F_REG_C_0, 8, 8, F_IPV4_TTL, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    /* One L3 type and one L4 type per list. */
    cmds[0] = mod_set(F_SIPV4, 0, 0, 1);
    cmds[1] = mod_set(F_SIPV6_127_96, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 16), EOPNOTSUPP);
    cmds[0] = mod_set(F_TCP_SPORT, 0, 16, 1);
    cmds[1] = mod_set(F_UDP_SPORT, 0, 16, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 16), EINVAL);

    /* REG_A is written on NIC TX, REG_B on NIC RX only. */
    cmds[0] = mod_set(F_REG_A, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[FDB], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_TX], cmds, 8), 0);
    cmds[0] = mod_set(F_REG_B, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_TX], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    CHECK_EQ(objects("model71").dr_action, 0);
    env_destroy(&e);
}

/* Group "path": packets through the pipeline. */

/* A root rule of 'domain' that jumps to a new level-1 table, returned. */
struct jump {
    struct mlx5dv_dr_table *t0, *t1;
    struct mlx5dv_dr_matcher *m0;
    struct mlx5dv_dr_action *to1;
    struct mlx5dv_dr_rule *r0;
};

static struct mlx5dv_dr_table *
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

static void
jump_destroy(struct jump *j)
{
    CHECK_ERR(ops->dr_rule_destroy(j->r0), 0);
    CHECK_ERR(ops->dr_action_destroy(j->to1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(j->m0), 0);
    CHECK_ERR(ops->dr_table_destroy(j->t0), 0);
    CHECK_ERR(ops->dr_table_destroy(j->t1), 0);
}

static void
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
static void
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

static void
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
    struct mlx5dv_dr_action *mod, *qp;
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_rule *r;
    struct frame *f, *want;
    struct match mask;
    size_t l3, l4;
    struct env e;

    env_init(&e, "model73");
    /* At the root: ip_protocol TCP. */
    struct mlx5dv_dr_table *t0 = table(&e, NIC_RX, 0);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, 0xff, 1);
    m = matcher(t0, 0, C_OUTER, &mask);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, IPPROTO_TCP, 1);
    mod = modify(e.dom[NIC_RX], cmds, ARRAY_SIZE(cmds));
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    r = RULE(m, &mask, qp, mod);

    f = ipv4_frame(-1, IPPROTO_TCP, "10.0.0.2", 40000, 8080, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data, "\x02\x00\x00\x00\x00\x01\x0a\x0b\x0c\x0d\x0e\x0f",
           12);
    memcpy(want->data + l3 + 12, "\x0a\x01\x01\x01\x0a\x02\x02\x02", 8);
    set_be16(want->data + l4, 1234);
    set_be16(want->data + l4 + 2, 80);
    want->data[l3 + 1] = (46 << 2) | 0x02;     /* DSCP EF, ECN kept. */
    fix_csums(want, l3, l4, false);
    model_port_check_rx(&e.port, f, want, 0, 0);

    /* A UDP packet misses the root rule and has no other path. */
    free(f);
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1, 2, 64, &l3, &l4);
    CHECK_ERR(hw_model_receive("model73", packet_from(f, 0)), ENOENT);
    CHECK_EQ(model_stats("model73").rx_drop_no_rule, 1);

    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    env_destroy(&e);
    free(f);
    free(want);
}

static void
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

static void
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
                  .vlan_hdr = htonl(0x8100 << 16 | 0x2005));
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
static void
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
static void
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

/* FDB: from the uplink back to it (hairpin), or to the PF's NIC RX. */
static void
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
    CHECK_ERR(hw_model_receive("model78", packet_from(f, 0)), 0);
    CHECK_EQ(cap.n, 1);
    CHECK_PACKET(cap.packets[0], f, 0);
    CHECK_EQ(model_stats("model78").dr_hairpin, 1);
    capture_clear(&cap);

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

static const struct test_hw_case objects_tests[] = {
    { "busy", test_objects_busy },
    { "domain-refs", test_objects_domain_refs },
    { "domain", test_objects_domain },
    { "faults", test_objects_faults },
};

static const struct test_hw_case matcher_tests[] = {
    { "matcher-refusals", test_matcher_refusals },
};

static const struct test_hw_case rule_tests[] = {
    { "rule-refusals", test_rule_refusals },
};

static const struct test_hw_case actions_tests[] = {
    { "domains", test_actions_domains },
    { "jumps", test_actions_jumps },
    { "reformat", test_actions_reformat },
};

static const struct test_hw_case order_tests[] = {
    { "order", test_order },
};

static const struct test_hw_case modify_tests[] = {
    { "modify-refusals", test_modify_refusals },
};

static const struct test_hw_case path_tests[] = {
    { "ttl", test_path_ttl },
    { "ip-version", test_path_ip_version },
    { "set-fields", test_path_set_fields },
    { "udp-csum", test_path_udp_csum },
    { "vlan", test_path_vlan },
    { "root-verbs", test_path_root_verbs },
    { "tx", test_path_tx },
    { "fdb", test_path_fdb },
};

static void
test_hw_model_dr_main(int argc, char *argv[])
{
    static const struct {
        const char *name;
        const struct test_hw_case *tests;
        size_t n;
    } groups[] = {
#define GROUP(NAME, TESTS) { NAME, TESTS, ARRAY_SIZE(TESTS) }
        GROUP("objects", objects_tests),
        GROUP("matcher", matcher_tests),
        GROUP("rule", rule_tests),
        GROUP("actions", actions_tests),
        GROUP("order", order_tests),
        GROUP("modify", modify_tests),
        GROUP("path", path_tests),
#undef GROUP
    };

    if (argc < 2) {
        ovs_fatal(0, "usage: %s GROUP [TEST]...", argv[0]);
    }
    for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
        if (!strcmp(argv[1], groups[i].name)) {
            test_hw_run(argc - 1, argv + 1, groups[i].tests, groups[i].n,
                        true);
            return;
        }
    }
    ovs_fatal(0, "%s: no such group", argv[1]);
}

OVSTEST_REGISTER("test-hw-model-dr", test_hw_model_dr_main);
