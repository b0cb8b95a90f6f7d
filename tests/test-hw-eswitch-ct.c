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

/* Unit tests of the connection pipeline in the e-switch's FDB
 * (hw-translate-eswitch-ct.c): what translate makes of a ct() stage and of
 * a flow after conntrack on a representor, the stage's misses, and then a
 * connection's packets from VF0 through the FDB's stage, connection and
 * post-conntrack tables to VF1 on the NIC model, the misses to the
 * representor, and what the FDB refuses.  Run as
 * "ovstest test-hw-eswitch-ct [NAME...]". */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-flow-dr.h"
#include "hw-flow.h"
#include "hw-model.h"
#include "hw-pipeline.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netdev-hw-base.h"
#include "netdev-hw.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "packets.h"
#include "test-hw-frame.h"
#include "test-hw-model-port.h"
#include "util.h"

#define STAGE_MARK 0x61
#define POST_MARK 0x62
#define ZONE 5
#define RECIRC 1
#define VF1_PORT 3              /* VF1's representor's datapath port. */
#define REG_C0 0x00020000u      /* VF0's metadata (vport 1). */
#define REG_C0_MASK 0xffff0000u

static struct hw_translate_params
esw_params(uint32_t mark, bool conntrack)
{
    return (struct hw_translate_params) {
        .flow_mark = mark,
        .in_port = u32_to_odp(TEST_PORT),
        .eswitch = true,
        .conntrack = conntrack,
        .esw_reg_c0 = REG_C0,
        .esw_reg_c0_mask = REG_C0_MASK,
    };
}

/* TCP over IPv4 of recirc_id 'recirc' from VF0's representor. */
static void
tcp_match(struct match *m, uint32_t recirc)
{
    dp_match_init_ipv4(m);
    match_set_nw_proto(m, IPPROTO_TCP);
    match_set_recirc_id(m, recirc);
}

/* ct(zone=ZONE[, nat or force_commit]),recirc(RECIRC). */
static void
stage_actions(struct ofpbuf *b, int attr)
{
    size_t ofs;

    ofpbuf_init(b, 0);
    ofs = nl_msg_start_nested(b, OVS_ACTION_ATTR_CT);
    nl_msg_put_u16(b, OVS_CT_ATTR_ZONE, ZONE);
    if (attr == OVS_CT_ATTR_NAT) {
        size_t nat = nl_msg_start_nested(b, OVS_CT_ATTR_NAT);

        nl_msg_put_flag(b, OVS_NAT_ATTR_SRC);
        nl_msg_put_be32(b, OVS_NAT_ATTR_IP_MIN, htonl(0x0a000063));
        nl_msg_end_nested(b, nat);
    } else if (attr) {
        nl_msg_put_flag(b, attr);
    }
    nl_msg_end_nested(b, ofs);
    nl_msg_put_u32(b, OVS_ACTION_ATTR_RECIRC, RECIRC);
}

static int
esw_translate(const struct match *m, const struct ofpbuf *actions,
              uint32_t mark, bool conntrack, struct hw_rule *rule,
              struct ds *reason)
{
    struct hw_translate_params p = esw_params(mark, conntrack);

    return translate_params(m, actions, &p, rule, reason);
}

static void
check_refused(const struct match *m, const struct ofpbuf *actions,
              bool conntrack, const char *want)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;

    CHECK_ERR(esw_translate(m, actions, STAGE_MARK, conntrack, &rule,
                            &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), want);
    ds_destroy(&reason);
}

/* The FDB stage of ct(zone=5),recirc(1). */
static void
stage_rule(struct hw_rule *rule)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match m;

    tcp_match(&m, 0);
    stage_actions(&actions, 0);
    esw_translate(&m, &actions, STAGE_MARK, true, rule, &reason);
    CHECK_STR(ds_cstr(&reason), "");
    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

/* The FDB flow of recirc_id 1, +trk+est in zone 5, output to VF1. */
static void
post_rule(struct hw_rule *rule, int extra_action)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match m;

    tcp_match(&m, RECIRC);
    match_set_ct_state_masked(&m, CS_TRACKED | CS_ESTABLISHED,
                              CS_TRACKED | CS_ESTABLISHED | CS_NEW);
    match_set_ct_zone(&m, ZONE);
    ofpbuf_init(&actions, 0);
    if (extra_action) {
        size_t ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_CT);

        nl_msg_put_flag(&actions, OVS_CT_ATTR_COMMIT);
        nl_msg_end_nested(&actions, ofs);
    }
    put_output(&actions, VF1_PORT);
    if (!extra_action) {
        CHECK_ERR(esw_translate(&m, &actions, POST_MARK, true, rule,
                                &reason), 0);
        CHECK_STR(ds_cstr(&reason), "");
    } else {
        check_refused(&m, &actions, true, "e-switch: the FDB takes outputs, "
                      "VLAN pushes and pops, sets of addresses, ports, "
                      "TTL and DSCP, a tnl_push and a meter only");
    }
    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

/* Translate. */

/* ct(zone=5),recirc(1) on a representor: an FDB stage, matched on the
 * port's metadata, that sets the registers of the receive side's stage
 * and jumps to the FDB's connection table, without a tag. */
static void
test_fdb_stage(void)
{
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    stage_rule(&rule);
    CHECK(rule.fdb);
    CHECK(rule.ct_stage);
    CHECK(!rule.ct_nat);
    CHECK_EQ(rule.ct_zone, ZONE);
    CHECK_EQ(rule.ct_recirc, RECIRC);
    CHECK_EQ(rule.table, HW_TABLE_FLOW);
    CHECK_EQ(rule.reg_c[0], REG_C0);
    CHECK_EQ(rule.reg_c_mask[0], REG_C0_MASK);
    for (int i = 1; i < HW_N_REG_C; i++) {
        CHECK_EQ(rule.reg_c_mask[i], 0);
    }
    CHECK_EQ(rule.rewrite.set_regs, 0x26);
    CHECK_EQ(rule.rewrite.regs[HW_REG_RECIRC], RECIRC);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], ZONE);
    CHECK_EQ(rule.rewrite.regs[HW_REG_STAGE], STAGE_MARK);
    CHECK_EQ(rule.rewrite.set, 0);
    CHECK(!rule.has_tag);
    CHECK_EQ(rule.tag, STAGE_MARK);
    CHECK(rule.count);
    CHECK_EQ(rule.fate, HW_FATE_TABLE);
    CHECK_EQ(rule.fate_level, HW_LEVEL_CT);
    CHECK(!rule.full);
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_NONE);

    /* Without the connection pipeline the FDB takes no ct(). */
    tcp_match(&m, 0);
    stage_actions(&actions, 0);
    check_refused(&m, &actions, false, "e-switch: the FDB takes outputs, "
                  "VLAN pushes and pops, sets of addresses, ports, TTL and "
                  "DSCP, a tnl_push and a meter only");
    ofpbuf_uninit(&actions);

    /* What no stage stands for, and nat: no tag to restore a translated
     * packet's state. */
    stage_actions(&actions, OVS_CT_ATTR_FORCE_COMMIT);
    check_refused(&m, &actions, true, "ct(force_commit) stays in software");
    ofpbuf_uninit(&actions);
    stage_actions(&actions, OVS_CT_ATTR_NAT);
    check_refused(&m, &actions, true, "e-switch: the FDB has no tag to "
                  "restore the state of a packet its connection table "
                  "translated: ct(nat) stays on the receive side");
    ofpbuf_uninit(&actions);
}

/* A flow after conntrack on a representor whose actions the FDB runs: a
 * full rule of the FDB's post-conntrack table, matched on the port's
 * metadata and the registers the connection table set; one with a ct()
 * is the receive side's. */
static void
test_fdb_post(void)
{
    struct hw_rule rule;

    post_rule(&rule, 0);
    CHECK(rule.fdb);
    CHECK(rule.full);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.table, HW_TABLE_POST_CT);
    CHECK_EQ(rule.reg_c[0], REG_C0);
    CHECK_EQ(rule.reg_c_mask[0], REG_C0_MASK);
    CHECK_EQ(rule.reg_c[HW_REG_RECIRC], RECIRC);
    CHECK_EQ(rule.reg_c_mask[HW_REG_RECIRC], UINT32_MAX);
    CHECK_EQ(rule.reg_c[HW_REG_CT],
             (uint32_t) (CS_TRACKED | CS_ESTABLISHED) << 16 | ZONE);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT],
             (uint32_t) (CS_TRACKED | CS_ESTABLISHED | CS_NEW) << 16
             | 0xffff);
    CHECK(!rule.has_tag);
    CHECK(rule.count);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), VF1_PORT);

    post_rule(&rule, OVS_CT_ATTR_COMMIT);
}

/* The stage's misses in the FDB: as on the receive side, by the stage's
 * register, but to the FDB's default instead of a QP, untagged. */
static void
test_fdb_misses(void)
{
    struct hw_rule stage, misses[HW_MAX_CT_MISSES];
    uint32_t levels[HW_MAX_CT_MISSES];

    stage_rule(&stage);
    CHECK_EQ(hw_translate_eswitch_ct_misses(&stage, misses, levels),
             HW_N_CT_PLAIN_MISSES);
    CHECK_EQ(levels[0], HW_LEVEL_CT);
    CHECK_EQ(levels[1], HW_LEVEL_POST_CT);
    for (int i = 0; i < HW_N_CT_PLAIN_MISSES; i++) {
        const struct hw_rule *r = &misses[i];

        CHECK(r->fdb);
        CHECK_EQ(r->fate, HW_FATE_MISS);
        CHECK(!r->has_tag);
        CHECK(r->count);
        CHECK_EQ(r->reg_c[HW_REG_STAGE], STAGE_MARK);
        CHECK_EQ(r->reg_c_mask[HW_REG_STAGE], UINT32_MAX);
        CHECK_EQ(r->reg_c_mask[0], 0);
        CHECK_EQ(r->reg_c_mask[HW_REG_CT], 0);
    }
}

/* The model. */

/* A TCP frame from 'src':'sport' to 'dst':'dport' with 'flags': 60
 * bytes. */
static struct frame *
tcp_frame(const char *src, const char *dst, uint16_t sport, uint16_t dport,
          uint16_t flags)
{
    struct frame *f = frame_new();

    put_eth(f, "02:00:00:00:00:02", "02:00:00:00:00:01", -1, ETH_TYPE_IP);
    put_ipv4(f, IPPROTO_TCP, src, dst, 20 + 20 + 6, true);
    put_be16(f, sport);
    put_be16(f, dport);
    put_be32(f, 0x01020304);
    put_be32(f, 0x05060708);
    put_be16(f, 0x5000 | flags);
    put_be16(f, 0xffff);
    put_be16(f, 0);
    put_be16(f, 0);
    put(f, "hello!", 6);
    CHECK_EQ(f->len, 60);
    return f;
}

/* The rule of the direction 'src':'sport' -> 'dst':'dport' of a TCP
 * connection in zone ZONE that leaves with 'state', for the FDB, as hw-ct.c
 * installs it. */
static void
install_conn(struct netdev_hw_device *dev, const char *src, const char *dst,
             uint16_t sport, uint16_t dport, uint8_t state,
             struct hw_flow_dr *flow)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key k;
    struct hw_rule rule;

    memset(&k, 0, sizeof k);
    k.tuple.l3_type = AF_INET;
    k.tuple.ip_proto = IPPROTO_TCP;
    CHECK(inet_pton(AF_INET, src, &k.tuple.src.ip) == 1);
    CHECK(inet_pton(AF_INET, dst, &k.tuple.dst.ip) == 1);
    k.tuple.src_port = htons(sport);
    k.tuple.dst_port = htons(dport);
    k.zone = ZONE;
    k.ct_state = state;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    rule.fdb = true;
    CHECK_ERR(hw_flow_dr_install_at(dev->fdb_pipeline, dev, HW_LEVEL_CT,
                                    HW_PRIO_UNTAGGED, NULL, &rule, flow,
                                    &reason), 0);
    ds_destroy(&reason);
}

static uint64_t
dr_packets(const struct netdev_hw_device *dev, const struct hw_flow_dr *f)
{
    uint64_t packets, bytes;

    CHECK_ERR(hw_flow_dr_read(dev, f, &packets, &bytes), 0);
    return packets;
}

static uint64_t
flow_packets(const struct netdev_hw_device *dev, const struct hw_flow *f)
{
    uint64_t packets, bytes;

    CHECK_ERR(hw_flow_read(dev, f, &packets, &bytes), 0);
    return packets;
}

/* VF0 -> VF1 through the FDB's connection pipeline: an established
 * connection's packets reach VF1 byte for byte and no port of the host;
 * a packet of no connection, a SYN, and a connection's packet that no
 * flow after conntrack takes go to the FDB's default, counted by the
 * stage's misses, which hw_flow_read() takes off the stage's count.  The
 * device refuses a tag in the FDB.  Every object goes back. */
static void
test_fdb_pipeline(void)
{
    struct hw_flow_dr jump, conn, conn_new;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct capture vf1 = { .n = 0 };
    struct hw_flow stage_flow, post_flow, bad;
    struct hw_rule root, stage, post;
    struct hw_pipeline_counts c;
    struct netdev_hw_device dev;
    struct mlx5dv_port info;
    struct model_port p;
    struct frame *f;
    size_t n_objects;
    const char *step;

    CHECK_ERR(hw_model_set_vfs("model96", 2), 0);
    model_port_create(&p, "model96", 64, 0);
    n_objects = model_objects("model96");
    CHECK_ERR(hw_model_set_wire_tx("model96/vf1", capture_tx, &vf1), 0);
    CHECK_ERR(hw_model_ops.query_port(p.ctx, 2, &info), 0);
    CHECK_EQ(info.reg_c0.value, REG_C0);
    dev = (struct netdev_hw_device) {
        .ops = &hw_model_ops,
        .ctx = p.ctx,
        .caps = &p.caps,
        .devname = "model96",
        .port_num = 2,
        .switchdev = true,
        .reg_c0 = REG_C0,
        .reg_c0_mask = REG_C0_MASK,
        .vport = 1,
    };
    dev.fdb_pipeline = hw_pipeline_create(&dev);

    /* The FDB root's jump for VF0 (netdev-hw-base.c's). */
    memset(&root, 0, sizeof root);
    root.fdb = true;
    root.fate = HW_FATE_TABLE;
    root.fate_level = NETDEV_HW_FLOW_LEVEL;
    root.reg_c[0] = REG_C0;
    root.reg_c_mask[0] = REG_C0_MASK;
    CHECK_ERR(hw_flow_dr_install_at(dev.fdb_pipeline, &dev, 0, 0, NULL,
                                    &root, &jump, &reason), 0);

    stage_rule(&stage);
    CHECK_ERR(hw_flow_install(&dev, NULL, &stage, &stage_flow, &reason), 0);
    CHECK_EQ(stage_flow.extra->n_ct_misses, 2);
    CHECK_EQ(hw_flow_level(&stage_flow), NETDEV_HW_FLOW_LEVEL);
    post_rule(&post, 0);
    post.fate_vports[0] = 2;            /* VF1. */
    CHECK_ERR(hw_flow_install(&dev, NULL, &post, &post_flow, &reason), 0);
    CHECK_EQ(hw_flow_level(&post_flow), HW_LEVEL_POST_CT);
    install_conn(&dev, "10.0.0.1", "10.0.0.2", 1234, 80,
                 CS_TRACKED | CS_ESTABLISHED, &conn);
    install_conn(&dev, "10.0.0.1", "10.0.0.2", 1235, 80,
                 CS_TRACKED | CS_NEW, &conn_new);
    CHECK_STR(ds_cstr(&reason), "");

    /* Established: the FDB forwards it. */
    f = tcp_frame("10.0.0.1", "10.0.0.2", 1234, 80, TCP_ACK);
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_receive("model96/vf0", packet_from(f, 0)), 0);
    }
    CHECK_EQ(vf1.n, 3);
    CHECK_PACKET(vf1.packets[2], f, 0);
    capture_clear(&vf1);
    CHECK_EQ(dr_packets(&dev, &conn), 3);
    CHECK_EQ(flow_packets(&dev, &post_flow), 3);
    CHECK_EQ(flow_packets(&dev, &stage_flow), 3);
    free(f);

    /* Its SYN, and a packet of no connection: the connection table misses
     * to the representor, which has no rule here. */
    f = tcp_frame("10.0.0.1", "10.0.0.2", 1234, 80, TCP_SYN);
    CHECK_ERR(hw_model_receive("model96/vf0", packet_from(f, 0)), ENOENT);
    free(f);
    f = tcp_frame("10.0.0.1", "10.0.0.2", 1236, 80, TCP_ACK);
    CHECK_ERR(hw_model_receive("model96/vf0", packet_from(f, 0)), ENOENT);
    free(f);
    CHECK_EQ(dr_packets(&dev, &stage_flow.extra->ct_misses[0]), 2);
    CHECK_EQ(dr_packets(&dev, &stage_flow.extra->ct_misses[1]), 0);

    /* A new connection: the post-conntrack table misses. */
    f = tcp_frame("10.0.0.1", "10.0.0.2", 1235, 80, TCP_ACK);
    CHECK_ERR(hw_model_receive("model96/vf0", packet_from(f, 0)), ENOENT);
    free(f);
    CHECK_EQ(dr_packets(&dev, &conn_new), 1);
    CHECK_EQ(dr_packets(&dev, &stage_flow.extra->ct_misses[1]), 1);
    CHECK_EQ(vf1.n, 0);
    CHECK_EQ(flow_packets(&dev, &stage_flow), 3);

    /* The FDB has no tag. */
    stage.has_tag = true;
    CHECK_ERR(hw_flow_install(&dev, NULL, &stage, &bad, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "dr_rule_create: Operation not supported");
    ds_clear(&reason);

    CHECK_ERR(hw_flow_uninstall(&dev, &post_flow, &step), 0);
    CHECK_ERR(hw_flow_uninstall(&dev, &stage_flow, &step), 0);
    CHECK_ERR(hw_flow_dr_uninstall(dev.fdb_pipeline, &dev, &conn, &step), 0);
    CHECK_ERR(hw_flow_dr_uninstall(dev.fdb_pipeline, &dev, &conn_new,
                                   &step), 0);
    CHECK_ERR(hw_flow_dr_uninstall(dev.fdb_pipeline, &dev, &jump, &step), 0);
    hw_pipeline_counts(dev.fdb_pipeline, &c);
    CHECK_EQ(c.matchers, 0);
    CHECK_EQ(c.actions, 0);
    CHECK_EQ(c.refs, 0);
    hw_pipeline_destroy(dev.fdb_pipeline);
    CHECK_EQ(model_objects("model96"), n_objects);
    CHECK_ERR(hw_model_set_wire_tx("model96/vf1", NULL, NULL), 0);
    model_port_destroy(&p);
    ds_destroy(&reason);
}

static void
test_hw_eswitch_ct_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "fdb-stage", test_fdb_stage },
        { "fdb-post", test_fdb_post },
        { "fdb-misses", test_fdb_misses },
        { "fdb-pipeline", test_fdb_pipeline },
    };

    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-eswitch-ct", test_hw_eswitch_ct_main);
