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

/* Unit tests of the connection pipeline (hw-rule.h, HW_REG_RECIRC): what
 * hw-translate-ct.c makes of a ct() stage, of a flow of recirc_id != 0 and
 * of one direction of a connection, and then packets through the whole
 * pipeline on the NIC model (a stage in the flow table, the connection
 * table, the post-conntrack table, the stage's miss rules and the generic
 * ones), with the counters hw_flow_read() reports for the stage.  Run as
 * "ovstest test-hw-ct [NAME...]". */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-encode-dr.h"
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

#define STAGE_MARK 0x51         /* The ct() flow's. */
#define POST_MARK 0x52          /* The flow of recirc_id 1's. */
#define ZONE 5
#define RECIRC 1
#define CT_MARK 0x77
#define CT_LABEL 0xabcdu

/* Flows and actions. */

/* A TCP flow over IPv4 arriving on TEST_PORT, of recirc_id 'recirc'. */
static void
tcp_match(struct match *m, uint32_t recirc)
{
    dp_match_init_ip(m, htons(ETH_TYPE_IP));
    match_set_nw_proto(m, IPPROTO_TCP);
    match_set_recirc_id(m, recirc);
}

/* ct(zone='zone') with one more attribute 'attr' (OVS_CT_ATTR_*, or 0 for
 * none), as odp-util puts it. */
static void
put_ct(struct ofpbuf *b, uint16_t zone, int attr)
{
    static const uint32_t mark[2] = { 1, UINT32_MAX };
    static const uint8_t labels[32] = { 1 };
    size_t ofs = nl_msg_start_nested(b, OVS_ACTION_ATTR_CT);

    if (zone) {
        nl_msg_put_u16(b, OVS_CT_ATTR_ZONE, zone);
    }
    switch (attr) {
    case OVS_CT_ATTR_COMMIT:
    case OVS_CT_ATTR_FORCE_COMMIT:
        nl_msg_put_flag(b, attr);
        break;
    case OVS_CT_ATTR_MARK:
        nl_msg_put_unspec(b, attr, mark, sizeof mark);
        break;
    case OVS_CT_ATTR_LABELS:
        nl_msg_put_unspec(b, attr, labels, sizeof labels);
        break;
    case OVS_CT_ATTR_HELPER:
        nl_msg_put_string(b, attr, "ftp");
        break;
    case OVS_CT_ATTR_TIMEOUT:
        nl_msg_put_string(b, attr, "tp1");
        break;
    case OVS_CT_ATTR_EVENTMASK:
        nl_msg_put_u32(b, attr, 0xff);
        break;
    case OVS_CT_ATTR_NAT: {
        size_t nat = nl_msg_start_nested(b, OVS_CT_ATTR_NAT);

        nl_msg_put_flag(b, OVS_NAT_ATTR_SRC);
        nl_msg_put_be32(b, OVS_NAT_ATTR_IP_MIN, htonl(0x0a000063));
        nl_msg_end_nested(b, nat);
        break;
    }
    default:
        break;
    }
    nl_msg_end_nested(b, ofs);
}

static void
put_recirc(struct ofpbuf *b, uint32_t id)
{
    nl_msg_put_u32(b, OVS_ACTION_ATTR_RECIRC, id);
}

/* ct(zone=ZONE[,attr]),recirc(RECIRC), after a ct_clear if 'clear'. */
static void
stage_actions(struct ofpbuf *b, int attr, bool clear)
{
    ofpbuf_init(b, 0);
    if (clear) {
        nl_msg_put_flag(b, OVS_ACTION_ATTR_CT_CLEAR);
    }
    put_ct(b, ZONE, attr);
    put_recirc(b, RECIRC);
}

static void
put_set_priority(struct ofpbuf *b)
{
    size_t ofs = nl_msg_start_nested(b, OVS_ACTION_ATTR_SET);

    nl_msg_put_u32(b, OVS_KEY_ATTR_PRIORITY, 1);
    nl_msg_end_nested(b, ofs);
}

static void
put_push_vlan(struct ofpbuf *b)
{
    struct ovs_action_push_vlan vlan = {
        .vlan_tpid = htons(ETH_TYPE_VLAN),
        .vlan_tci = htons(10 | VLAN_CFI),
    };

    nl_msg_put_unspec(b, OVS_ACTION_ATTR_PUSH_VLAN, &vlan, sizeof vlan);
}

static void
put_userspace(struct ofpbuf *b)
{
    size_t ofs = nl_msg_start_nested(b, OVS_ACTION_ATTR_USERSPACE);

    nl_msg_put_u32(b, OVS_USERSPACE_ATTR_PID, 7);
    nl_msg_end_nested(b, ofs);
}

static void
put_sample(struct ofpbuf *b)
{
    size_t ofs = nl_msg_start_nested(b, OVS_ACTION_ATTR_SAMPLE);
    size_t acts;

    nl_msg_put_u32(b, OVS_SAMPLE_ATTR_PROBABILITY, UINT32_MAX / 2);
    acts = nl_msg_start_nested(b, OVS_SAMPLE_ATTR_ACTIONS);
    put_output(b, 2);
    nl_msg_end_nested(b, acts);
    nl_msg_end_nested(b, ofs);
}

/* Translates 'm' with 'actions' for a port with the pipeline of tables
 * (and the connection pipeline if 'conntrack') and flow mark 'mark'. */
static int
ct_translate(const struct match *m, const struct ofpbuf *actions,
             uint32_t mark, bool conntrack, struct hw_rule *rule,
             struct ds *reason)
{
    struct hw_translate_params params = {
        .flow_mark = mark,
        .in_port = u32_to_odp(TEST_PORT),
        .pipeline = true,
        .conntrack = conntrack,
    };

    return translate_params(m, actions, &params, rule, reason);
}

static void
check_ct_refused_at(const struct match *m, const struct ofpbuf *actions,
                    bool conntrack, const char *expected, const char *file,
                    int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    error = ct_translate(m, actions, STAGE_MARK, conntrack, &rule, &reason);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (EOPNOTSUPP), got "
                  "\"%s\" (%s)", file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_CT_REFUSED(M, ACTIONS, CONNTRACK, REASON) \
    check_ct_refused_at(M, ACTIONS, CONNTRACK, REASON, __FILE__, __LINE__)

static void
check_ct_accepted_at(const struct match *m, const struct ofpbuf *actions,
                     uint32_t mark, struct hw_rule *rule, const char *file,
                     int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    int error;

    error = ct_translate(m, actions, mark, true, rule, &reason);
    if (error) {
        ovs_abort(0, "%s:%d: expected the flow to be accepted, got \"%s\" "
                  "(%s)", file, line, ds_cstr(&reason), ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_CT_ACCEPTED(M, ACTIONS, MARK, RULE) \
    check_ct_accepted_at(M, ACTIONS, MARK, RULE, __FILE__, __LINE__)

/* Checks that 'rule' is a stage of zone 'zone' and recirc_id 'recirc'
 * tagged STAGE_MARK. */
static void
check_stage_nat(const struct hw_rule *rule, uint16_t zone, uint32_t recirc,
                bool nat)
{
    CHECK(rule->ct_stage);
    CHECK_EQ(rule->ct_zone, zone);
    CHECK_EQ(rule->ct_recirc, recirc);
    CHECK_EQ(rule->ct_nat, nat);
    CHECK_EQ(rule->table, HW_TABLE_FLOW);
    CHECK(rule->pipeline);
    CHECK_EQ(rule->rewrite.set_regs, (1u << HW_REG_RECIRC)
             | (1u << HW_REG_CT) | (1u << HW_REG_STAGE));
    CHECK_EQ(rule->rewrite.set_regs, 0x26);
    CHECK_EQ(rule->rewrite.regs[HW_REG_RECIRC], recirc);
    CHECK_EQ(rule->rewrite.regs[HW_REG_CT], zone | (nat ? 0x80000000 : 0));
    CHECK_EQ(rule->rewrite.regs[HW_REG_STAGE], STAGE_MARK);
    CHECK_EQ(rule->rewrite.set, 0);
    CHECK(!rule->rewrite.pop_vlan && !rule->rewrite.push_vlan);
    for (int i = 0; i < HW_N_REG_C; i++) {
        CHECK_EQ(rule->reg_c_mask[i], 0);
    }
    CHECK(rule->has_tag);
    CHECK_EQ(rule->tag, STAGE_MARK);
    CHECK(rule->count);
    CHECK_EQ(rule->fate, HW_FATE_TABLE);
    CHECK_EQ(rule->fate_level, HW_LEVEL_CT);
    CHECK_EQ(rule->fate_level, 2);
    CHECK(!rule->full);
    CHECK_EQ(rule->outer.present, HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK_EQ(hw_rule_rss_type(rule), HW_RSS_IPV4_TCP);
}

static void
check_stage(const struct hw_rule *rule, uint16_t zone, uint32_t recirc)
{
    check_stage_nat(rule, zone, recirc, false);
}

/* Translate: the ct() stage. */

/* ct(zone=5),recirc(0x1) becomes a stage: registers, tag, counter, jump to
 * the connection table; a ct_clear before it and ct(commit) change
 * nothing. */
static void
test_stage(void)
{
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    tcp_match(&m, 0);
    stage_actions(&actions, 0, false);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage(&rule, ZONE, RECIRC);
    ofpbuf_uninit(&actions);

    stage_actions(&actions, 0, true);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage(&rule, ZONE, RECIRC);
    ofpbuf_uninit(&actions);

    stage_actions(&actions, OVS_CT_ATTR_COMMIT, false);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage(&rule, ZONE, RECIRC);
    ofpbuf_uninit(&actions);

    stage_actions(&actions, OVS_CT_ATTR_EVENTMASK, true);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage(&rule, ZONE, RECIRC);
    ofpbuf_uninit(&actions);

    /* No zone: zone 0; another recirc_id. */
    ofpbuf_init(&actions, 0);
    put_ct(&actions, 0, 0);
    put_recirc(&actions, 0x1234);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage(&rule, 0, 0x1234);
    ofpbuf_uninit(&actions);
}

/* ct(zone=5,nat(src=10.0.0.99)),recirc(0x1) is a stage with nat: the
 * register of the zone gets bit 31 as well; so does ct(nat) after a
 * ct_clear. */
static void
test_stage_nat(void)
{
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    tcp_match(&m, 0);
    stage_actions(&actions, OVS_CT_ATTR_NAT, false);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage_nat(&rule, ZONE, RECIRC, true);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], 0x80000005);
    ofpbuf_uninit(&actions);

    stage_actions(&actions, OVS_CT_ATTR_NAT, true);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    check_stage_nat(&rule, ZONE, RECIRC, true);
    ofpbuf_uninit(&actions);
}

/* The ct() stage of a VXLAN vport's flow: the tunnel and the inner
 * headers matched, but no decap (the post-conntrack rule decapsulates) and
 * no tag (what the tables after it miss reaches software still
 * encapsulated); ct(nat) leaves a plain vport rule, with the reason. */
static void
test_stage_tunnel(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_translate_params params;
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    vport_match_init(&m, false);
    vport_params_init(&params, HW_TUNNEL_VXLAN);
    params.pipeline = true;
    params.conntrack = true;
    match_set_dl_type(&m, htons(ETH_TYPE_IP));
    match_set_nw_proto(&m, IPPROTO_UDP);
    stage_actions(&actions, OVS_CT_ATTR_COMMIT, false);
    CHECK_ERR(translate_params(&m, &actions, &params, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    CHECK(rule.ct_stage);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    CHECK_EQ(ntohl(rule.tnl.vni), 0x7b);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK(rule.inner.present & HW_HDR_UDP);
    CHECK_EQ(rule.reformat, HW_REFORMAT_NONE);
    CHECK(!rule.has_tag);
    CHECK_EQ(rule.rewrite.regs[HW_REG_STAGE], TEST_VPORT_MARK);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], ZONE);
    CHECK_EQ(rule.fate, HW_FATE_TABLE);
    CHECK_EQ(rule.fate_level, HW_LEVEL_CT);
    ofpbuf_uninit(&actions);

    /* Without a TCP or UDP match (ICMP behind a tunnel stays in
     * software), and with nat: a plain vport rule. */
    vport_match_init(&m, false);
    m.wc.masks.nw_proto = 0;
    m.wc.masks.tp_src = m.wc.masks.tp_dst = htons(0);
    stage_actions(&actions, 0, false);
    CHECK_ERR(translate_params(&m, &actions, &params, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "ct() of tunnelled packets needs a TCP or "
              "UDP match");
    CHECK(!rule.ct_stage);
    CHECK(rule.has_tag);
    ds_clear(&reason);
    ofpbuf_uninit(&actions);
    match_set_nw_proto(&m, IPPROTO_UDP);
    stage_actions(&actions, OVS_CT_ATTR_NAT, false);
    CHECK_ERR(translate_params(&m, &actions, &params, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "ct(nat) of tunnelled packets stays in "
              "software");
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

/* What the device cannot stand for: each ct() attribute leaves a plain
 * partial rule, with the reason as a note; so does the lack of the
 * connection pipeline;
 * ct() without recirc(), or ct_clear after ct(), is no stage. */
static void
test_stage_refusals(void)
{
    static const struct {
        int attr;
        const char *reason;
    } refused[] = {
        { OVS_CT_ATTR_FORCE_COMMIT, "ct(force_commit) stays in software" },
        { OVS_CT_ATTR_MARK, "ct() setting ct_mark stays in software" },
        { OVS_CT_ATTR_LABELS, "ct() setting ct_label stays in software" },
        { OVS_CT_ATTR_HELPER, "ct(helper) stays in software" },
        { OVS_CT_ATTR_TIMEOUT, "ct(timeout) stays in software" },
    };
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    tcp_match(&m, 0);
    for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
        struct ds note = DS_EMPTY_INITIALIZER;

        /* No stage, but a plain partial rule, with the reason as a
         * note. */
        stage_actions(&actions, refused[i].attr, false);
        CHECK_ERR(ct_translate(&m, &actions, STAGE_MARK, true, &rule,
                               &note), 0);
        CHECK(!rule.ct_stage);
        CHECK_EQ(rule.fate, HW_FATE_RSS);
        CHECK_EQ(rule.rewrite.set_regs, 0);
        CHECK_STR(ds_cstr(&note), refused[i].reason);
        ds_destroy(&note);
        /* Without the connection pipeline, software runs the ct(). */
        CHECK_ERR(ct_translate(&m, &actions, STAGE_MARK, false, &rule,
                               NULL), 0);
        CHECK(!rule.ct_stage);
        ofpbuf_uninit(&actions);
    }

    /* Without params.conntrack: tag and RSS, nothing more. */
    stage_actions(&actions, 0, false);
    CHECK_ERR(ct_translate(&m, &actions, STAGE_MARK, false, &rule, NULL), 0);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.ct_zone, 0);
    CHECK_EQ(rule.ct_recirc, 0);
    CHECK_EQ(rule.table, HW_TABLE_FLOW);
    CHECK_EQ(rule.rewrite.set_regs, 0);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, STAGE_MARK);
    CHECK(rule.count);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);
    ofpbuf_uninit(&actions);

    /* ct() alone, and ct(),ct_clear,recirc(): partial rules, no stage. */
    ofpbuf_init(&actions, 0);
    put_ct(&actions, ZONE, 0);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK_EQ(rule.rewrite.set_regs, 0);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_CT_CLEAR);
    put_recirc(&actions, RECIRC);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &rule);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    ofpbuf_uninit(&actions);
}

/* Translate: the post-conntrack table. */

/* recirc_id 0x1 with ct_state(+trk+est-rpl), ct_zone, ct_mark and the low
 * bits of ct_label matches the registers the connection rule wrote. */
static void
test_post_match(void)
{
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;
    ovs_u128 label, label_mask;

    tcp_match(&m, RECIRC);
    match_set_ct_state_masked(&m, CS_TRACKED | CS_ESTABLISHED,
                              CS_TRACKED | CS_ESTABLISHED | CS_REPLY_DIR);
    match_set_ct_zone(&m, ZONE);
    match_set_ct_mark_masked(&m, CT_MARK, 0xff);
    memset(&label, 0, sizeof label);
    memset(&label_mask, 0, sizeof label_mask);
    label.u64.lo = CT_LABEL;
    label_mask.u64.lo = 0xffff;
    match_set_ct_label_masked(&m, label, label_mask);

    ofpbuf_init(&actions, 0);
    put_output(&actions, 2);
    CHECK_CT_ACCEPTED(&m, &actions, POST_MARK, &rule);
    CHECK_EQ(rule.table, HW_TABLE_POST_CT);
    CHECK(rule.pipeline);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.reg_c[HW_REG_RECIRC], RECIRC);
    CHECK_EQ(rule.reg_c_mask[HW_REG_RECIRC], 0xffffffff);
    CHECK_EQ(rule.reg_c[HW_REG_CT], 0x220005);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT], 0x2affff);
    CHECK_EQ(rule.reg_c[HW_REG_CT_MARK], CT_MARK);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT_MARK], 0xff);
    CHECK_EQ(rule.reg_c[HW_REG_CT_LABEL], CT_LABEL);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT_LABEL], 0xffff);
    CHECK_EQ(rule.reg_c_mask[0], 0);
    CHECK_EQ(rule.reg_c_mask[HW_REG_STAGE], 0);
    CHECK_EQ(rule.reg_c_mask[6], 0);
    CHECK_EQ(rule.reg_c_mask[7], 0);
    CHECK_EQ(rule.rewrite.set_regs, 0);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, POST_MARK);
    CHECK(rule.count);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);

    /* +rpl, and a zone left out. */
    tcp_match(&m, RECIRC);
    match_set_ct_state_masked(&m, CS_TRACKED | CS_REPLY_DIR,
                              CS_TRACKED | CS_REPLY_DIR);
    CHECK_CT_ACCEPTED(&m, &actions, POST_MARK, &rule);
    CHECK_EQ(rule.reg_c[HW_REG_CT], 0x280000);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT], 0x280000);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT_MARK], 0);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT_LABEL], 0);

    /* A drop: a full rule of the post-conntrack table. */
    ofpbuf_clear(&actions);
    put_drop(&actions);
    CHECK_CT_ACCEPTED(&m, &actions, POST_MARK, &rule);
    CHECK_EQ(rule.table, HW_TABLE_POST_CT);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK(!rule.has_tag);
    ofpbuf_uninit(&actions);
}

/* ct_label bits above the low 32, recirc_id without the connection
 * pipeline and a masked recirc_id are refused. */
static void
test_post_match_refusals(void)
{
    ovs_u128 label, label_mask;
    struct ofpbuf actions;
    struct match m;

    ofpbuf_init(&actions, 0);
    put_output(&actions, 2);

    memset(&label, 0, sizeof label);
    memset(&label_mask, 0, sizeof label_mask);
    label_mask.u64.lo = UINT64_C(1) << 32;
    tcp_match(&m, RECIRC);
    match_set_ct_label_masked(&m, label, label_mask);
    CHECK_CT_REFUSED(&m, &actions, true, "match on ct_label bits above the "
                     "low 32 not supported");
    label_mask.u64.lo = 0;
    label_mask.u64.hi = 1;
    tcp_match(&m, RECIRC);
    match_set_ct_label_masked(&m, label, label_mask);
    CHECK_CT_REFUSED(&m, &actions, true, "match on ct_label bits above the "
                     "low 32 not supported");

    tcp_match(&m, RECIRC);
    CHECK_CT_REFUSED(&m, &actions, false,
                     "match on recirc_id 0x1 not supported");
    m.wc.masks.recirc_id = 0xff;
    CHECK_CT_REFUSED(&m, &actions, true,
                     "match on recirc_id 0x1/0xff not supported");
    ofpbuf_uninit(&actions);
}

/* What a flow of the post-conntrack table may do in software after the
 * device ran the stage: nothing that reads the recirc_id or the
 * conntrack state the packet lacks there. */
static void
test_post_actions(void)
{
    static const struct {
        void (*put)(struct ofpbuf *);
        const char *reason;             /* NULL: accepted. */
    } cases[] = {
        { put_set_priority, NULL },
        { put_push_vlan, NULL },
        { put_userspace, "userspace in a flow after conntrack needs the "
          "state the device keeps" },
        { put_sample, "sample in a flow after conntrack needs the state "
          "the device keeps" },
    };
    struct ofpbuf actions;
    struct hw_rule rule;
    struct match m;

    tcp_match(&m, RECIRC);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        ofpbuf_init(&actions, 0);
        cases[i].put(&actions);
        put_output(&actions, 2);
        if (cases[i].reason) {
            CHECK_CT_REFUSED(&m, &actions, true, cases[i].reason);
        } else {
            CHECK_CT_ACCEPTED(&m, &actions, POST_MARK, &rule);
            CHECK_EQ(rule.table, HW_TABLE_POST_CT);
            CHECK_EQ(rule.fate, HW_FATE_RSS);
            CHECK_EQ(rule.tag, POST_MARK);
        }
        ofpbuf_uninit(&actions);
    }

    /* recirc() needs a ct() before it, and not one a ct_clear undid. */
    ofpbuf_init(&actions, 0);
    put_recirc(&actions, 2);
    CHECK_CT_REFUSED(&m, &actions, true, "recirc in a flow after conntrack "
                     "needs the state the device keeps");
    ofpbuf_clear(&actions);
    put_ct(&actions, 6, 0);
    put_recirc(&actions, 2);
    CHECK_CT_ACCEPTED(&m, &actions, POST_MARK, &rule);
    CHECK_EQ(rule.table, HW_TABLE_POST_CT);
    CHECK(!rule.ct_stage);
    CHECK_EQ(rule.rewrite.set_regs, 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK_EQ(rule.tag, POST_MARK);
    ofpbuf_clear(&actions);
    put_ct(&actions, 6, 0);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_CT_CLEAR);
    put_recirc(&actions, 2);
    CHECK_CT_REFUSED(&m, &actions, true, "recirc in a flow after conntrack "
                     "needs the state the device keeps");
    ofpbuf_uninit(&actions);
}

/* Translate: a connection's direction. */

static void
conn_key_ipv4(struct hw_ct_conn_key *k, uint8_t proto, const char *src,
              const char *dst, uint16_t sport, uint16_t dport)
{
    memset(k, 0, sizeof *k);
    k->tuple.l3_type = AF_INET;
    k->tuple.ip_proto = proto;
    CHECK(inet_pton(AF_INET, src, &k->tuple.src.ip) == 1);
    CHECK(inet_pton(AF_INET, dst, &k->tuple.dst.ip) == 1);
    k->tuple.src_port = htons(sport);
    k->tuple.dst_port = htons(dport);
}

static void
check_conn_regs(const struct hw_rule *rule, uint32_t zone, uint32_t state,
                uint32_t mark, uint32_t label)
{
    /* The rule of every stage, with nat or not. */
    CHECK_EQ(rule->reg_c[HW_REG_CT], zone);
    CHECK_EQ(rule->reg_c_mask[HW_REG_CT], 0xffff);
    for (int i = 0; i < HW_N_REG_C; i++) {
        if (i != HW_REG_CT) {
            CHECK_EQ(rule->reg_c_mask[i], 0);
        }
    }
    CHECK_EQ(rule->rewrite.set_regs, 0x1c);
    CHECK_EQ(rule->rewrite.regs[HW_REG_CT], state << 16 | zone);
    CHECK_EQ(rule->rewrite.regs[HW_REG_CT_MARK], mark);
    CHECK_EQ(rule->rewrite.regs[HW_REG_CT_LABEL], label);
    CHECK_EQ(rule->rewrite.set, 0);
    CHECK(!rule->has_tag);
    CHECK(rule->count);
    CHECK_EQ(rule->fate, HW_FATE_TABLE);
    CHECK_EQ(rule->fate_level, HW_LEVEL_POST_CT);
    CHECK_EQ(rule->fate_level, 3);
    CHECK(rule->full);
    CHECK(rule->pipeline);
    CHECK_EQ(rule->tunnel, HW_TUNNEL_NONE);
}

/* An IPv4 TCP and an IPv6 UDP direction: the tuple exact, TCP without
 * SYN, FIN or RST, the zone, the state written; ICMP refused. */
static void
test_conn_rule(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    const struct hw_headers *h;
    struct hw_ct_conn_key k;
    struct hw_rule rule;

    conn_key_ipv4(&k, IPPROTO_TCP, "10.0.0.1", "10.0.0.2", 1234, 80);
    k.zone = ZONE;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED;
    k.mark = CT_MARK;
    k.label = CT_LABEL;
    memset(&rule, 0xa5, sizeof rule);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    check_rule_sane(&rule);
    h = &rule.outer;
    CHECK_EQ(h->present, HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP);
    CHECK_EQ(ntohs(h->eth.type), ETH_TYPE_IP);
    CHECK_EQ(ntohs(h->eth_mask.type), 0xffff);
    CHECK(eth_addr_is_zero(h->eth_mask.dst));
    CHECK(eth_addr_is_zero(h->eth_mask.src));
    CHECK_EQ(ntohl(h->ipv4.src), 0x0a000001);
    CHECK_EQ(ntohl(h->ipv4_mask.src), 0xffffffff);
    CHECK_EQ(ntohl(h->ipv4.dst), 0x0a000002);
    CHECK_EQ(ntohl(h->ipv4_mask.dst), 0xffffffff);
    CHECK_EQ(h->ipv4_mask.tos, 0);
    CHECK_EQ(ntohs(h->l4.src), 1234);
    CHECK_EQ(ntohs(h->l4_mask.src), 0xffff);
    CHECK_EQ(ntohs(h->l4.dst), 80);
    CHECK_EQ(ntohs(h->l4_mask.dst), 0xffff);
    CHECK_EQ(ntohs(h->ext.tcp_flags), 0);
    CHECK_EQ(ntohs(h->ext_mask.tcp_flags), TCP_SYN | TCP_FIN | TCP_RST);
    CHECK_EQ(ntohs(h->ext_mask.tcp_flags), 0x7);
    CHECK_EQ(h->ext_mask.ttl, 0);
    CHECK_EQ(h->ext_mask.frag, 0);
    check_conn_regs(&rule, ZONE, 0x22, CT_MARK, CT_LABEL);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV4_TCP);

    /* IPv6 UDP, reply direction, zone 0x1234. */
    memset(&k, 0, sizeof k);
    k.tuple.l3_type = AF_INET6;
    k.tuple.ip_proto = IPPROTO_UDP;
    CHECK(inet_pton(AF_INET6, "2001:db8::2", &k.tuple.src.in6) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8::1", &k.tuple.dst.in6) == 1);
    k.tuple.src_port = htons(53);
    k.tuple.dst_port = htons(4000);
    k.zone = 0x1234;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED | CS_REPLY_DIR;
    k.mark = 0xdeadbeef;
    k.label = 0x80000001;
    memset(&rule, 0xa5, sizeof rule);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    check_rule_sane(&rule);
    h = &rule.outer;
    CHECK_EQ(h->present, HW_HDR_ETH | HW_HDR_IPV6 | HW_HDR_UDP);
    CHECK_EQ(ntohs(h->eth.type), ETH_TYPE_IPV6);
    CHECK_EQ(ntohs(h->eth_mask.type), 0xffff);
    CHECK(in6_equal(&h->ipv6.src, "2001:db8::2"));
    CHECK(ipv6_mask_is_exact(&h->ipv6_mask.src));
    CHECK(in6_equal(&h->ipv6.dst, "2001:db8::1"));
    CHECK(ipv6_mask_is_exact(&h->ipv6_mask.dst));
    CHECK_EQ(h->ipv6_mask.tclass, 0);
    CHECK_EQ(h->ipv6_mask.label, 0);
    CHECK_EQ(ntohs(h->l4.src), 53);
    CHECK_EQ(ntohs(h->l4_mask.src), 0xffff);
    CHECK_EQ(ntohs(h->l4.dst), 4000);
    CHECK_EQ(ntohs(h->l4_mask.dst), 0xffff);
    CHECK_EQ(h->ext_mask.tcp_flags, 0);
    check_conn_regs(&rule, 0x1234, 0x2a, 0xdeadbeef, 0x80000001);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], 0x2a1234);
    CHECK_EQ(hw_rule_rss_type(&rule), HW_RSS_IPV6_UDP);

    /* An ICMP echo: type, code and identifier, the protocol from the
     * ICMP fields; ICMPv6 over IPv4 is refused. */
    conn_key_ipv4(&k, IPPROTO_ICMP, "10.0.0.1", "10.0.0.2", 0, 0);
    k.tuple.icmp_id = htons(0x1234);
    k.tuple.icmp_type = 8;
    k.tuple.icmp_code = 0;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    h = &rule.outer;
    CHECK_EQ(h->present, HW_HDR_ETH | HW_HDR_IPV4);
    CHECK_EQ(h->ipv4_mask.proto, 0);
    CHECK_EQ(h->ext.icmp_type, 8);
    CHECK_EQ(h->ext_mask.icmp_type, 0xff);
    CHECK_EQ(h->ext.icmp_code, 0);
    CHECK_EQ(h->ext_mask.icmp_code, 0xff);
    CHECK_EQ(ntohl(h->ext.icmp_data), 0x12340000);
    CHECK_EQ(ntohl(h->ext_mask.icmp_data), 0xffff0000);
    CHECK_EQ(h->ext_mask.tcp_flags, 0);
    CHECK_EQ(rule.fate_level, HW_LEVEL_POST_CT);
    k.tuple.ip_proto = IPPROTO_ICMPV6;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "ICMP protocol 58 over address family 2");
    ds_clear(&reason);
    conn_key_ipv4(&k, IPPROTO_SCTP, "10.0.0.1", "10.0.0.2", 1, 2);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "non-TCP, non-UDP, non-ICMP connections "
              "stay in software");
    ds_destroy(&reason);
}

/* A direction whose packets come out of a VXLAN tunnel: the stage kept
 * the outer headers, so the tuple is matched in the inner ones (which the
 * device only parses behind a tunnel it recognises), nothing outer; ICMP
 * (the matcher's ICMP fields are the outer headers') and NAT refused. */
static void
test_conn_tunnel(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;
    struct hw_ct_conn_key k;
    struct hw_rule rule;

    conn_key_ipv4(&k, IPPROTO_UDP, "10.0.0.1", "10.0.0.2", 1234, 80);
    k.zone = ZONE;
    k.tunnel = HW_TUNNEL_VXLAN;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED;
    memset(&rule, 0xa5, sizeof rule);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    check_rule_sane(&rule);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    CHECK_EQ(rule.outer.present, 0);
    CHECK_EQ(rule.tnl_mask.vni, 0);
    CHECK_EQ(rule.inner.present, HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohl(rule.inner.ipv4.src), 0x0a000001);
    CHECK_EQ(ntohs(rule.inner.l4.dst), 80);
    CHECK_EQ(rule.reformat, HW_REFORMAT_NONE);
    CHECK_EQ(rule.reg_c[HW_REG_CT], ZONE);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], 0x220005);
    CHECK_EQ(rule.fate_level, HW_LEVEL_POST_CT);
    CHECK_ERR(hw_encode_dr_match(&rule, false, &mask, &value, &reason), 0);
    hw_dr_match_format(&mask, &value, &reason);
    CHECK_STR(ds_cstr(&reason),
              "inner(ethertype=0x0800,ip_protocol=17,ip_version=4,"
              "udp_sport=1234,udp_dport=80,src_ipv4=10.0.0.1,"
              "dst_ipv4=10.0.0.2) misc2(reg_c2=0x00000005/0x0000ffff)");
    ds_clear(&reason);

    k.tuple.ip_proto = IPPROTO_ICMP;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "ICMP behind a tunnel stays in software: "
              "the device matches the outer ICMP header only");
    ds_clear(&reason);
    k.tuple.ip_proto = IPPROTO_UDP;
    k.stages = HW_CT_STAGES_NAT;
    k.nat = true;
    k.nat_tuple = k.tuple;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "NAT of tunnelled packets stays in "
              "software");
    ds_destroy(&reason);
}

/* A connection with SNAT, original direction: its rule for the stages
 * with nat translates the source address and port to the reverse of the
 * reply tuple and sets CS_SRC_NAT; its rule for the others matches bit 31
 * clear and translates nothing. */
static void
test_conn_nat(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    const struct hw_rewrite *rw;
    struct hw_ct_conn_key k;
    struct hw_rule rule;

    conn_key_ipv4(&k, IPPROTO_TCP, "10.0.0.1", "10.0.0.2", 1234, 80);
    k.zone = ZONE;
    k.stages = HW_CT_STAGES_NAT;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED | CS_SRC_NAT;
    k.nat = true;
    k.nat_tuple = k.tuple;
    CHECK(inet_pton(AF_INET, "10.0.0.99", &k.nat_tuple.src.ip) == 1);
    k.nat_tuple.src_port = htons(4000);
    memset(&rule, 0xa5, sizeof rule);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_STR(ds_cstr(&reason), "");
    check_rule_sane(&rule);
    CHECK_EQ(rule.reg_c[HW_REG_CT], 0x80000005);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT], 0x8000ffff);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], 0x620005);
    rw = &rule.rewrite;
    CHECK_EQ(rw->set, (1u << HW_SET_IPV4_SRC) | (1u << HW_SET_L4_SRC));
    CHECK_EQ(ntohl(rw->ipv4_src), 0x0a000063);
    CHECK_EQ(ntohs(rw->l4_src), 4000);
    CHECK(rw->l4_tcp);
    CHECK_EQ(ntohl(rule.outer.ipv4.src), 0x0a000001);
    CHECK_EQ(ntohs(rule.outer.l4.src), 1234);

    /* The rule of the stages without nat. */
    k.stages = HW_CT_STAGES_PLAIN;
    k.nat = false;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_EQ(rule.reg_c[HW_REG_CT], 5);
    CHECK_EQ(rule.reg_c_mask[HW_REG_CT], 0x8000ffff);
    CHECK_EQ(rule.rewrite.set, 0);
    CHECK_EQ(rule.rewrite.regs[HW_REG_CT], 0x220005);

    /* Translation outside a rule of the stages with nat. */
    k.nat = true;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "NAT needs the rule of the stages with "
              "nat");
    ds_clear(&reason);

    /* IPv6 UDP, DNAT: the destination address and port. */
    memset(&k, 0, sizeof k);
    k.tuple.l3_type = AF_INET6;
    k.tuple.ip_proto = IPPROTO_UDP;
    CHECK(inet_pton(AF_INET6, "2001:db8::1", &k.tuple.src.in6) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8::80", &k.tuple.dst.in6) == 1);
    k.tuple.src_port = htons(4000);
    k.tuple.dst_port = htons(53);
    k.stages = HW_CT_STAGES_NAT;
    k.nat = true;
    k.nat_tuple = k.tuple;
    CHECK(inet_pton(AF_INET6, "2001:db8::5", &k.nat_tuple.dst.in6) == 1);
    k.nat_tuple.dst_port = htons(5353);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    rw = &rule.rewrite;
    CHECK_EQ(rw->set, (1u << HW_SET_IPV6_DST) | (1u << HW_SET_L4_DST));
    CHECK(in6_equal(&rw->ipv6_dst, "2001:db8::5"));
    CHECK_EQ(ntohs(rw->l4_dst), 5353);
    CHECK(!rw->l4_tcp);

    /* Another protocol after NAT. */
    k.nat_tuple.ip_proto = IPPROTO_TCP;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "NAT to a tuple of another protocol");
    ds_clear(&reason);

    /* An ICMP echo: its addresses; its identifier never. */
    conn_key_ipv4(&k, IPPROTO_ICMP, "10.0.0.1", "10.0.0.2", 0, 0);
    k.tuple.icmp_id = htons(0x1234);
    k.tuple.icmp_type = 8;
    k.stages = HW_CT_STAGES_NAT;
    k.nat = true;
    k.nat_tuple = k.tuple;
    k.nat_tuple.icmp_type = 0;
    CHECK(inet_pton(AF_INET, "10.0.0.99", &k.nat_tuple.src.ip) == 1);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_EQ(rule.rewrite.set, 1u << HW_SET_IPV4_SRC);
    CHECK_EQ(rule.outer.ext.icmp_type, 8);
    k.nat_tuple.icmp_id = htons(0x4321);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "NAT of an ICMP identifier stays in "
              "software");
    ds_clear(&reason);

    /* ICMPv6: its checksum covers the addresses. */
    memset(&k, 0, sizeof k);
    k.tuple.l3_type = AF_INET6;
    k.tuple.ip_proto = IPPROTO_ICMPV6;
    CHECK(inet_pton(AF_INET6, "2001:db8::1", &k.tuple.src.in6) == 1);
    CHECK(inet_pton(AF_INET6, "2001:db8::2", &k.tuple.dst.in6) == 1);
    k.tuple.icmp_type = 128;
    k.stages = HW_CT_STAGES_NAT;
    k.nat = true;
    k.nat_tuple = k.tuple;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    CHECK_EQ(rule.rewrite.set, 0);
    CHECK(inet_pton(AF_INET6, "2001:db8::9", &k.nat_tuple.src.in6) == 1);
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "NAT of ICMPv6 stays in software: the "
              "device does not update its checksum");
    ds_destroy(&reason);
}

/* A stage's misses: its mark in reg_c_5, counted, to RSS, in the
 * connection and the post-conntrack table; a stage with nat has the
 * post-conntrack table's split by the NAT bits of the state, and those
 * with one set tag the packet with the restore tag. */
static void
test_miss_rules(void)
{
    struct hw_rule misses[HW_MAX_CT_MISSES];
    uint32_t levels[HW_MAX_CT_MISSES];
    struct hw_rule stage;

    memset(&stage, 0, sizeof stage);
    stage.ct_stage = true;
    stage.tag = STAGE_MARK;
    memset(misses, 0xa5, sizeof misses);
    CHECK_EQ(hw_translate_ct_misses(&stage, misses, levels), 2);
    CHECK_EQ(levels[0], HW_LEVEL_CT);
    CHECK_EQ(levels[1], HW_LEVEL_POST_CT);
    for (int i = 0; i < 2; i++) {
        const struct hw_rule *rule = &misses[i];

        CHECK_EQ(rule->reg_c[HW_REG_STAGE], STAGE_MARK);
        CHECK_EQ(rule->reg_c_mask[HW_REG_STAGE], 0xffffffff);
        CHECK_EQ(rule->reg_c_mask[HW_REG_CT], 0);
        CHECK_EQ(rule->outer.present, 0);
        CHECK(!rule->has_tag);
        CHECK(rule->count);
        CHECK_EQ(rule->fate, HW_FATE_RSS);
        CHECK(rule->pipeline);
        CHECK_EQ(rule->rewrite.set_regs, 0);
    }

    stage.ct_nat = true;
    CHECK_EQ(hw_translate_ct_misses(&stage, misses, levels), 4);
    CHECK_EQ(levels[0], HW_LEVEL_CT);
    CHECK_EQ(misses[0].reg_c_mask[HW_REG_CT], 0);
    CHECK_EQ(levels[1], HW_LEVEL_POST_CT);
    CHECK_EQ(misses[1].reg_c[HW_REG_CT], 0);
    CHECK_EQ(misses[1].reg_c_mask[HW_REG_CT], 0xc00000);
    CHECK(!misses[1].has_tag);
    for (int i = 2; i < 4; i++) {
        const struct hw_rule *rule = &misses[i];
        uint32_t bit = i == 2 ? 0x400000 : 0x800000;

        CHECK_EQ(levels[i], HW_LEVEL_POST_CT);
        CHECK_EQ(rule->reg_c[HW_REG_STAGE], STAGE_MARK);
        CHECK_EQ(rule->reg_c_mask[HW_REG_STAGE], 0xffffffff);
        CHECK_EQ(rule->reg_c[HW_REG_CT], bit);
        CHECK_EQ(rule->reg_c_mask[HW_REG_CT], bit);
        CHECK(rule->has_tag);
        CHECK_EQ(rule->tag, STAGE_MARK | 0x800000);
        CHECK(rule->count);
        CHECK_EQ(rule->fate, HW_FATE_RSS);
    }
}

/* On the NIC model. */

#define CONN_SRC "10.0.0.1"
#define CONN_DST "10.0.0.2"
#define CONN_SPORT 1234
#define CONN_DPORT 80

/* A model port with the pipeline of tables: WQ 1 behind the RSS QP of
 * every type (the miss path), WQ 2 behind another RSS QP (the post
 * rule's), the port's base rules and the connection pipeline's. */
struct ct_env {
    struct model_port port;
    struct ibv_wq *wq2;
    struct ibv_rwq_ind_table *table2;
    struct ibv_qp *qp2;
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];
    struct netdev_hw_device dev;
    struct netdev_hw_base *base;
    struct netdev_hw_base *ct_base;
    size_t n_port_objects;      /* The model's objects: the port alone... */
    struct hw_model_objects objs_base;      /* ...and with the bases. */
};

static void
ct_env_init(struct ct_env *e, const char *devname)
{
    struct model_port *p = &e->port;
    const char *step = NULL;

    memset(e, 0, sizeof *e);
    model_port_create(p, devname, 64,
                      IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4);
    e->qp2 = model_port_create_rss_qp(p, 64, IBV_RX_HASH_SRC_IPV4
                                      | IBV_RX_HASH_DST_IPV4,
                                      &e->wq2, &e->table2);
    for (int t = 0; t < HW_N_RSS_TYPES; t++) {
        e->rss_qps[t] = p->rss_qp;
    }
    e->n_port_objects = model_objects(devname);

    e->dev = (struct netdev_hw_device) {
        .ops = &hw_model_ops,
        .ctx = p->ctx,
        .caps = &p->caps,
        .devname = devname,
        .port_num = 1,
    };
    e->dev.pipeline = hw_pipeline_create(&e->dev);
    CHECK_ERR(netdev_hw_base_build(&e->dev, e->rss_qps, &e->base, &step), 0);
    CHECK_ERR(netdev_hw_base_build_ct(&e->dev, e->rss_qps, &e->ct_base,
                                      &step), 0);
    /* The miss rules of levels 2 and 3: per RSS type, and the default
     * (no VLAN guards). */
    CHECK_EQ(netdev_hw_base_n_rules(e->ct_base), 2 * 7);
    CHECK_ERR(hw_model_count_objects(devname, &e->objs_base), 0);
    /* The flow table's miss rules, the root's jump to it, and those. */
    CHECK_EQ(e->objs_base.dr_rule,
             netdev_hw_base_n_rules(e->base) + 1 + 2 * 7);
}

/* The model's objects are those of the port and its bases. */
static void
ct_env_check_base(const struct ct_env *e)
{
    struct hw_model_objects objs;

    CHECK_ERR(hw_model_count_objects(e->port.devname, &objs), 0);
    CHECK_EQ(objs.dr_rule, e->objs_base.dr_rule);
    CHECK_EQ(objs.dr_matcher, e->objs_base.dr_matcher);
    CHECK_EQ(objs.dr_action, e->objs_base.dr_action);
    CHECK_EQ(objs.dr_counter, e->objs_base.dr_counter);
    CHECK_EQ(objs.dr_table, e->objs_base.dr_table);
    CHECK_EQ(objs.total, e->objs_base.total);
}

static void
ct_env_destroy(struct ct_env *e)
{
    const struct hw_dev_ops *ops = &hw_model_ops;
    struct hw_pipeline_counts c;

    ct_env_check_base(e);
    netdev_hw_base_destroy(e->ct_base, &e->dev);
    netdev_hw_base_destroy(e->base, &e->dev);
    hw_pipeline_counts(e->dev.pipeline, &c);
    CHECK_EQ(c.matchers, 0);
    CHECK_EQ(c.actions, 0);
    CHECK_EQ(c.refs, 0);
    hw_pipeline_destroy(e->dev.pipeline);
    CHECK_EQ(model_objects(e->port.devname), e->n_port_objects);

    CHECK_ERR(ops->destroy_qp(e->qp2), 0);
    CHECK_ERR(ops->destroy_rwq_ind_table(e->table2), 0);
    CHECK_ERR(ops->destroy_wq(e->wq2), 0);
    model_port_destroy(&e->port);
}

/* Translates the recirc_id 0 flow of TCP over IPv4 with 'actions' ct(zone=
 * 'zone'),recirc(RECIRC), which must become a stage, and installs it. */
static void
install_stage(struct ct_env *e, uint16_t zone, struct hw_rule *rule,
              struct hw_flow *flow)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match m;

    tcp_match(&m, 0);
    ofpbuf_init(&actions, 0);
    put_ct(&actions, zone, 0);
    put_recirc(&actions, RECIRC);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, rule);
    check_stage(rule, zone, RECIRC);
    if (hw_flow_install(&e->dev, e->rss_qps[hw_rule_rss_type(rule)], rule,
                        flow, &reason)) {
        ovs_abort(0, "stage: %s", ds_cstr(&reason));
    }
    CHECK(hw_flow_has_rule(flow) && flow->extra->ct_misses);
    CHECK_EQ(hw_flow_level(flow), NETDEV_HW_FLOW_LEVEL);
    CHECK_EQ(flow->extra->ct_misses[0].level, HW_LEVEL_CT);
    CHECK_EQ(flow->extra->ct_misses[1].level, HW_LEVEL_POST_CT);
    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
}

/* Translates the flow of recirc_id RECIRC, TCP over IPv4, ct_zone ZONE,
 * with ct_state 'state'/'state_mask' and 'actions' (output:2 if null),
 * and installs it to deliver to WQ 2. */
static void
install_post(struct ct_env *e, uint8_t state, uint8_t state_mask,
             uint32_t ct_mark, const struct ofpbuf *actions,
             struct hw_rule *rule, struct hw_flow *flow)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf output;
    struct match m;

    ofpbuf_init(&output, 0);
    put_output(&output, 2);
    tcp_match(&m, RECIRC);
    match_set_ct_state_masked(&m, state, state_mask);
    match_set_ct_zone(&m, ZONE);
    match_set_ct_mark(&m, ct_mark);
    CHECK_CT_ACCEPTED(&m, actions ? actions : &output, POST_MARK, rule);
    CHECK_EQ(rule->table, HW_TABLE_POST_CT);
    if (hw_flow_install(&e->dev, e->qp2, rule, flow, &reason)) {
        ovs_abort(0, "post: %s", ds_cstr(&reason));
    }
    CHECK(hw_flow_has_rule(flow) && !flow->extra);
    CHECK_EQ(hw_flow_level(flow), HW_LEVEL_POST_CT);
    ofpbuf_uninit(&output);
    ds_destroy(&reason);
}

/* Installs the rule of one direction of a connection in the connection
 * table, as hw-ct.c does: 'src':'sport' to 'dst':'dport' over TCP. */
static void
install_conn(struct ct_env *e, const char *src, const char *dst,
             uint16_t sport, uint16_t dport, uint16_t zone, bool reply,
             uint32_t mark, struct hw_flow_dr *flow)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_ct_conn_key k;
    struct hw_rule rule;

    conn_key_ipv4(&k, IPPROTO_TCP, src, dst, sport, dport);
    k.zone = zone;
    k.ct_state = CS_TRACKED | CS_ESTABLISHED | (reply ? CS_REPLY_DIR : 0);
    k.mark = mark;
    k.label = CT_LABEL;
    CHECK_ERR(hw_translate_ct_conn(&k, &rule, &reason), 0);
    memset(flow, 0, sizeof *flow);
    if (hw_flow_dr_install_at(e->dev.pipeline, &e->dev, HW_LEVEL_CT,
                              HW_PRIO_UNTAGGED, NULL, &rule, flow,
                              &reason)) {
        ovs_abort(0, "connection: %s", ds_cstr(&reason));
    }
    ds_destroy(&reason);
}

static void
uninstall_conn(struct ct_env *e, struct hw_flow_dr *flow)
{
    CHECK_ERR(hw_flow_dr_uninstall(e->dev.pipeline, &e->dev, flow, NULL),
              0);
}

/* A TCP frame from 'src':'sport' to 'dst':'dport' with TCP 'flags' and 6
 * bytes of payload: 60 bytes. */
static struct frame *
tcp_frame(const char *src, const char *dst, uint16_t sport, uint16_t dport,
          uint16_t flags)
{
    struct frame *f = frame_new();

    put_eth(f, "aa:55:aa:55:00:01", "aa:55:aa:55:00:02", -1, ETH_TYPE_IP);
    put_ipv4(f, IPPROTO_TCP, src, dst, 20 + 20 + 6, true);
    put_be16(f, sport);
    put_be16(f, dport);
    put_be32(f, 0x01020304);    /* Sequence number. */
    put_be32(f, 0x05060708);    /* Acknowledgement. */
    put_be16(f, 0x5000 | flags);    /* Header length 20. */
    put_be16(f, 0xffff);        /* Window. */
    put_be16(f, 0);             /* Checksum (nothing checks it). */
    put_be16(f, 0);             /* Urgent pointer. */
    put(f, "hello!", 6);
    CHECK_EQ(f->len, 60);
    return f;
}

#define FRAME_LEN 60

/* Receives what 'wq' holds: at most one packet, returned (NULL if
 * none). */
static struct dp_packet *
rx_one(const struct ct_env *e, struct ibv_wq *wq)
{
    struct dp_packet_batch batch;
    int error;

    dp_packet_batch_init(&batch);
    error = hw_model_ops.rx_burst(wq, e->port.cq, &batch);
    if (error) {
        CHECK_ERR(error, EAGAIN);
        return NULL;
    }
    CHECK(dp_packet_batch_size(&batch) <= 1);
    return dp_packet_batch_size(&batch) ? batch.packets[0] : NULL;
}

/* Where a packet ends. */
enum ct_fate {
    TO_DROP,                    /* Dropped by a rule. */
    TO_MISS,                    /* WQ 1, the RSS QPs of the miss path. */
    TO_POST,                    /* WQ 2, the post rule's. */
};

/* Puts a TCP frame on the wire and checks that it ends at 'fate', unchanged
 * and with flow mark 'tag'. */
static void
check_rx_at(struct ct_env *e, const char *src, const char *dst,
            uint16_t sport, uint16_t dport, uint16_t flags,
            enum ct_fate fate, uint32_t tag, const char *file, int line)
{
    struct frame *f = tcp_frame(src, dst, sport, dport, flags);
    struct hw_model_stats before = model_stats(e->port.devname);
    struct hw_model_stats after;
    struct dp_packet *got1, *got2, *got;
    uint32_t mark = 0;
    int error;

    error = hw_model_receive(e->port.devname, packet_from(f, 0));
    after = model_stats(e->port.devname);
    got1 = rx_one(e, e->port.wq);
    got2 = rx_one(e, e->wq2);
    if (error != (fate == TO_DROP ? EPERM : 0)
        || (fate == TO_DROP && (got1 || got2))
        || (fate == TO_MISS && (!got1 || got2))
        || (fate == TO_POST && (got1 || !got2))) {
        ovs_abort(0, "%s:%d: %s:%d > %s:%d flags %#x: receive %s, WQ 1 %s, "
                  "WQ 2 %s, expected %s", file, line, src, sport, dst,
                  dport, flags, ovs_strerror(error),
                  got1 ? "got it" : "empty", got2 ? "got it" : "empty",
                  (fate == TO_DROP ? "a drop" : fate == TO_MISS ? "WQ 1"
                   : "WQ 2"));
    }
    if (fate == TO_DROP) {
        CHECK_EQ(after.rx_drop_rule - before.rx_drop_rule, 1);
    } else {
        got = got1 ? got1 : got2;
        CHECK_PACKET(got, f, 0);
        if (!dp_packet_has_flow_mark(got, &mark)) {
            mark = 0;
        }
        if (mark != tag) {
            ovs_abort(0, "%s:%d: flow mark %#"PRIx32", expected %#"PRIx32,
                      file, line, mark, tag);
        }
        dp_packet_delete(got);
    }
    free(f);
}
#define CHECK_RX(...) check_rx_at(__VA_ARGS__, __FILE__, __LINE__)

/* The original and the reply direction of the connection. */
#define ORIG CONN_SRC, CONN_DST, CONN_SPORT, CONN_DPORT
#define REPLY CONN_DST, CONN_SRC, CONN_DPORT, CONN_SPORT

/* Checks what hw_flow_read() or hw_flow_dr_read() ('what') returned:
 * 'packets' of FRAME_LEN bytes. */
static void
check_count_at(const char *what, int error, uint64_t p, uint64_t b,
               uint64_t packets, const char *file, int line)
{
    if (error || p != packets || b != packets * FRAME_LEN) {
        ovs_abort(0, "%s:%d: %s: %s, %"PRIu64" packets, %"PRIu64" bytes, "
                  "expected %"PRIu64" and %"PRIu64, file, line, what,
                  ovs_strerror(error), p, b, packets, packets * FRAME_LEN);
    }
}

/* What the counters of hw_flow 'FLOW' or hw_flow_dr 'DR' report. */
#define CHECK_READ(E, FLOW, PACKETS)                                    \
    do {                                                                \
        uint64_t p__, b__;                                              \
        int error__ = hw_flow_read(&(E)->dev, FLOW, &p__, &b__);        \
        check_count_at("hw_flow_read", error__, p__, b__, PACKETS,      \
                       __FILE__, __LINE__);                             \
    } while (0)
#define CHECK_DR_READ(E, DR, PACKETS)                                   \
    do {                                                                \
        uint64_t p__, b__;                                              \
        int error__ = hw_flow_dr_read(&(E)->dev, DR, &p__, &b__);       \
        check_count_at("hw_flow_dr_read", error__, p__, b__, PACKETS,   \
                       __FILE__, __LINE__);                             \
    } while (0)

/* The whole pipeline: a stage, a connection's two directions, a post rule
 * for each direction (-rpl partial to WQ 2, +rpl a drop).  What the
 * device finishes comes out with the post rule's tag or is dropped; what
 * it cannot (another connection, a FIN, a reply without a post rule) comes
 * out with the stage's tag, as it arrived, and the stage reports only the
 * rest. */
static void
test_pipeline_established(void)
{
    struct hw_rule stage, post, post_rpl;
    struct hw_flow stage_flow, post_flow, rpl_flow;
    struct hw_flow_dr conn[2];
    struct ofpbuf drop;
    struct ct_env e;

    ct_env_init(&e, "model60");
    install_stage(&e, ZONE, &stage, &stage_flow);
    install_conn(&e, ORIG, ZONE, false, CT_MARK, &conn[0]);
    install_conn(&e, REPLY, ZONE, true, CT_MARK, &conn[1]);
    install_post(&e, CS_TRACKED | CS_ESTABLISHED,
                 CS_TRACKED | CS_ESTABLISHED | CS_REPLY_DIR, CT_MARK, NULL,
                 &post, &post_flow);
    ofpbuf_init(&drop, 0);
    put_drop(&drop);
    install_post(&e, CS_TRACKED | CS_ESTABLISHED | CS_REPLY_DIR,
                 CS_TRACKED | CS_ESTABLISHED | CS_REPLY_DIR, CT_MARK, &drop,
                 &post_rpl, &rpl_flow);
    CHECK(post_rpl.full && post_rpl.fate == HW_FATE_DROP);
    ofpbuf_uninit(&drop);
    CHECK_READ(&e, &stage_flow, 0);

    /* Established, original direction: the post rule's tag on its QP. */
    CHECK_RX(&e, ORIG, TCP_ACK, TO_POST, POST_MARK);
    CHECK_RX(&e, ORIG, TCP_ACK | TCP_PSH, TO_POST, POST_MARK);
    CHECK_READ(&e, &stage_flow, 2);
    CHECK_READ(&e, &post_flow, 2);
    CHECK_DR_READ(&e, &conn[0], 2);

    /* Reply direction: +rpl, the drop. */
    CHECK_RX(&e, REPLY, TCP_ACK, TO_DROP, 0);
    CHECK_READ(&e, &stage_flow, 3);
    CHECK_READ(&e, &rpl_flow, 1);
    CHECK_READ(&e, &post_flow, 2);
    CHECK_DR_READ(&e, &conn[1], 1);

    /* Another connection (source port), a reversed tuple: the
     * connection table misses, software gets the packet with
     * the stage's tag and runs the stage. */
    CHECK_RX(&e, CONN_SRC, CONN_DST, CONN_SPORT + 1, CONN_DPORT, TCP_ACK,
             TO_MISS, STAGE_MARK);
    CHECK_RX(&e, CONN_SRC, CONN_DST, CONN_DPORT, CONN_SPORT, TCP_ACK,
             TO_MISS, STAGE_MARK);
    CHECK_READ(&e, &stage_flow, 3);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[0], 2);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[1], 0);

    /* SYN, FIN and RST of the connection go to software, in both
     * directions. */
    CHECK_RX(&e, ORIG, TCP_FIN | TCP_ACK, TO_MISS, STAGE_MARK);
    CHECK_RX(&e, REPLY, TCP_FIN | TCP_ACK, TO_MISS, STAGE_MARK);
    CHECK_RX(&e, ORIG, TCP_SYN, TO_MISS, STAGE_MARK);
    CHECK_RX(&e, ORIG, TCP_RST, TO_MISS, STAGE_MARK);
    CHECK_READ(&e, &stage_flow, 3);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[0], 6);
    CHECK_DR_READ(&e, &conn[0], 2);
    CHECK_DR_READ(&e, &conn[1], 1);

    /* Without the drop, a reply matches no post rule (the other one is
     * -rpl): the post-conntrack table misses, as it arrived. */
    CHECK_ERR(hw_flow_uninstall(&e.dev, &rpl_flow, NULL), 0);
    CHECK_READ(&e, &rpl_flow, 1);
    CHECK_RX(&e, REPLY, TCP_ACK, TO_MISS, STAGE_MARK);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[1], 1);
    CHECK_DR_READ(&e, &conn[1], 2);
    CHECK_READ(&e, &post_flow, 2);
    CHECK_READ(&e, &stage_flow, 3);

    /* And the original direction still finishes in the device. */
    CHECK_RX(&e, ORIG, TCP_ACK, TO_POST, POST_MARK);
    CHECK_READ(&e, &stage_flow, 4);

    /* What the stage reports stays once it is gone. */
    CHECK_ERR(hw_flow_uninstall(&e.dev, &post_flow, NULL), 0);
    uninstall_conn(&e, &conn[0]);
    uninstall_conn(&e, &conn[1]);
    CHECK_ERR(hw_flow_uninstall(&e.dev, &stage_flow, NULL), 0);
    /* The 7 packets its misses sent back to software are off the final
     * counts, which the extra members no longer hold. */
    CHECK(!stage_flow.extra);
    CHECK(stage_flow.final_valid);
    CHECK_EQ(stage_flow.final_packets, 4);
    CHECK_EQ(stage_flow.final_bytes, 4 * FRAME_LEN);
    CHECK_READ(&e, &stage_flow, 4);
    CHECK_READ(&e, &post_flow, 3);

    /* Everything the flows made is gone; a packet now takes the base
     * rules of the flow table, untagged. */
    ct_env_check_base(&e);
    CHECK_RX(&e, ORIG, TCP_ACK, TO_MISS, 0);
    ct_env_destroy(&e);
}

/* The registers the connection rule writes are those the post rule
 * reads: ct_mark from the connection, ct_zone from the stage; a packet
 * whose connection has another mark misses the post-conntrack table, one
 * whose connection is in another zone the connection table. */
static void
test_pipeline_registers(void)
{
    struct hw_flow stage_flow, post_flow;
    struct hw_rule stage, post;
    struct hw_flow_dr conns[3];
    struct ct_env e;

    ct_env_init(&e, "model61");
    install_stage(&e, ZONE, &stage, &stage_flow);
    install_post(&e, CS_TRACKED | CS_ESTABLISHED, CS_TRACKED, CT_MARK, NULL,
                 &post, &post_flow);

    /* Source port 2000: mark CT_MARK + 1; 2001: zone ZONE + 1; 2002: all
     * right. */
    install_conn(&e, CONN_SRC, CONN_DST, 2000, CONN_DPORT, ZONE, false,
                 CT_MARK + 1, &conns[0]);
    install_conn(&e, CONN_SRC, CONN_DST, 2001, CONN_DPORT, ZONE + 1, false,
                 CT_MARK, &conns[1]);
    install_conn(&e, CONN_SRC, CONN_DST, 2002, CONN_DPORT, ZONE, false,
                 CT_MARK, &conns[2]);

    CHECK_RX(&e, CONN_SRC, CONN_DST, 2000, CONN_DPORT, TCP_ACK, TO_MISS,
             STAGE_MARK);
    CHECK_DR_READ(&e, &conns[0], 1);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[1], 1);

    CHECK_RX(&e, CONN_SRC, CONN_DST, 2001, CONN_DPORT, TCP_ACK, TO_MISS,
             STAGE_MARK);
    CHECK_DR_READ(&e, &conns[1], 0);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[0], 1);

    CHECK_RX(&e, CONN_SRC, CONN_DST, 2002, CONN_DPORT, TCP_ACK, TO_POST,
             POST_MARK);
    CHECK_DR_READ(&e, &conns[2], 1);
    CHECK_READ(&e, &stage_flow, 1);
    CHECK_READ(&e, &post_flow, 1);

    /* A stage in zone ZONE + 1 (another recirc_id 0 flow would: here the
     * same one, again) makes the second connection's packets match. */
    CHECK_ERR(hw_flow_uninstall(&e.dev, &stage_flow, NULL), 0);
    install_stage(&e, ZONE + 1, &stage, &stage_flow);
    CHECK_RX(&e, CONN_SRC, CONN_DST, 2001, CONN_DPORT, TCP_ACK, TO_MISS,
             STAGE_MARK);
    CHECK_DR_READ(&e, &conns[1], 1);
    CHECK_DR_READ(&e, &stage_flow.extra->ct_misses[1], 1);
    CHECK_READ(&e, &stage_flow, 0);

    for (int i = 0; i < 3; i++) {
        uninstall_conn(&e, &conns[i]);
    }
    CHECK_ERR(hw_flow_uninstall(&e.dev, &stage_flow, NULL), 0);
    CHECK_ERR(hw_flow_uninstall(&e.dev, &post_flow, NULL), 0);
    ct_env_destroy(&e);
}

/* A packet that reaches the connection table from a stage without miss
 * rules takes the table's generic miss rules, tagged as the stage left
 * it; so does one that reaches the post-conntrack table. */
static void
test_pipeline_generic_misses(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_flow_dr bare, conn;
    struct hw_rule stage;
    struct ct_env e;
    struct match m;
    struct ofpbuf actions;

    ct_env_init(&e, "model62");
    tcp_match(&m, 0);
    stage_actions(&actions, 0, false);
    CHECK_CT_ACCEPTED(&m, &actions, STAGE_MARK, &stage);
    ofpbuf_uninit(&actions);
    memset(&bare, 0, sizeof bare);
    CHECK_ERR(hw_flow_dr_install(e.dev.pipeline, &e.dev,
                                 NETDEV_HW_FLOW_LEVEL, e.port.rss_qp, &stage,
                                 &bare, &reason), 0);

    /* Level 2's generic miss. */
    CHECK_RX(&e, ORIG, TCP_ACK, TO_MISS, STAGE_MARK);
    CHECK_DR_READ(&e, &bare, 1);

    /* Level 3's. */
    install_conn(&e, ORIG, ZONE, false, CT_MARK, &conn);
    CHECK_RX(&e, ORIG, TCP_ACK, TO_MISS, STAGE_MARK);
    CHECK_DR_READ(&e, &conn, 1);
    CHECK_DR_READ(&e, &bare, 2);

    uninstall_conn(&e, &conn);
    CHECK_ERR(hw_flow_dr_uninstall(e.dev.pipeline, &e.dev, &bare, NULL), 0);
    ds_destroy(&reason);
    ct_env_destroy(&e);
}

static void
test_hw_ct_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "stage", test_stage },
        { "stage-nat", test_stage_nat },
        { "stage-refusals", test_stage_refusals },
        { "stage-tunnel", test_stage_tunnel },
        { "post-match", test_post_match },
        { "post-match-refusals", test_post_match_refusals },
        { "post-actions", test_post_actions },
        { "conn-rule", test_conn_rule },
        { "conn-nat", test_conn_nat },
        { "conn-tunnel", test_conn_tunnel },
        { "miss-rules", test_miss_rules },
        { "pipeline-established", test_pipeline_established },
        { "pipeline-registers", test_pipeline_registers },
        { "pipeline-generic-misses", test_pipeline_generic_misses },
    };

    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-ct", test_hw_ct_main);
