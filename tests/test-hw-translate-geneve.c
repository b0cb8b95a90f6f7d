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

/* Unit tests of Geneve vport flows: the rule hw-translate.c makes of them
 * (VNI, options, O bit, checksum), what recovery restores, the refusals,
 * and the mlx5 match hw-encode-dr.c makes of the rule. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>
#include <string.h>

#include "flow.h"
#include "hw-dev.h"
#include "hw-encode-dr.h"
#include "hw-rule.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

/* OVN's option: class 0x0102, type 0x80, 4 bytes of data (the logical
 * ports), matched under 0x7fffffff. */
static const uint8_t ovn_opt[8] = { 0x01, 0x02, 0x80, 0x01,
                                    0x80, 0x01, 0x00, 0x02 };
static const uint8_t ovn_opt_mask[8] = { 0xff, 0xff, 0xff, 0x1f,
                                         0x7f, 0xff, 0xff, 0xff };

/* A Geneve vport flow as dpif-netdev puts it: the options as they were on
 * the wire (FLOW_TNL_F_UDPIF), their length matched exactly. */
/* Two options, OVN's and its twin of type 0x81, and 16 zero bytes. */
static const uint8_t ovn_opt_pair[16] = {
    0x01, 0x02, 0x80, 0x01, 0x80, 0x01, 0x00, 0x02,
    0x01, 0x02, 0x81, 0x01, 0x00, 0x00, 0x00, 0x07,
};
static const uint8_t zero_opts[16];

static void
geneve_match_init(struct match *match, bool ipv6, const uint8_t *opts,
                  const uint8_t *opts_mask, size_t len)
{
    vport_match_init(match, ipv6);
    match->flow.tunnel.flags |= FLOW_TNL_F_UDPIF;
    match->wc.masks.tunnel.flags |= FLOW_TNL_F_UDPIF | FLOW_TNL_F_OAM;
    match->flow.tunnel.metadata.present.len = len;
    match->wc.masks.tunnel.metadata.present.len = UINT8_MAX;
    if (len) {
        memcpy(match->flow.tunnel.metadata.opts.gnv, opts, len);
        memcpy(match->wc.masks.tunnel.metadata.opts.gnv, opts_mask, len);
    }
}

static void
geneve_params_init(struct hw_translate_params *params, uint32_t parse)
{
    vport_params_init(params, HW_TUNNEL_GENEVE);
    params->vport_udp_port = htons(6081);
    params->pipeline = true;
    params->parse = parse;
}

#define ALL_PARSE (HW_DR_PARSE_GENEVE | HW_DR_PARSE_GENEVE_OPT \
                   | HW_DR_PARSE_CSUM_OK)

/* Translates 'match' with an output action; on failure the rule is all
 * zero and 'reason' says why. */
static int
translate_geneve(const struct match *match,
                 const struct hw_translate_params *params,
                 struct hw_rule *rule, struct ds *reason)
{
    struct ofpbuf actions;
    int error;

    ofpbuf_init(&actions, 0);
    put_output(&actions, 1);
    memset(rule, 0x5a, sizeof *rule);
    error = hw_translate_flow(match, actions.data, actions.size, params,
                              rule, reason);
    if (!error) {
        check_rule_sane(rule);
    }
    ofpbuf_uninit(&actions);
    return error;
}

static void
check_geneve_refused_at(const struct match *match, uint32_t parse,
                        bool pipeline, const char *expected,
                        const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_translate_params params;
    struct hw_rule rule, zero;
    int error;

    geneve_params_init(&params, parse);
    params.pipeline = pipeline;
    error = translate_geneve(match, &params, &rule, &reason);
    memset(&zero, 0, sizeof zero);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)
        || memcmp(&rule, &zero, sizeof zero)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (EOPNOTSUPP), got "
                  "\"%s\" (%s)", file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}
#define CHECK_GENEVE_REFUSED(MATCH, PARSE, PIPELINE, REASON) \
    check_geneve_refused_at(MATCH, PARSE, PIPELINE, REASON, \
                            __FILE__, __LINE__)

/* The mlx5 match of 'rule', below the root, as dump-rules shows it. */
static void
check_dr_match_at(const struct hw_rule *rule, const char *expected,
                  const char *file, int line)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;

    if (hw_encode_dr_match(rule, false, &mask, &value, &s)) {
        ovs_abort(0, "%s:%d: encode failed: %s", file, line, ds_cstr(&s));
    }
    hw_dr_match_format(&mask, &value, &s);
    if (strcmp(ds_cstr(&s), expected)) {
        ovs_abort(0, "%s:%d: expected\n%s\ngot\n%s", file, line, expected,
                  ds_cstr(&s));
    }
    ds_destroy(&s);
}
#define CHECK_DR_MATCH(RULE, EXPECTED) \
    check_dr_match_at(RULE, EXPECTED, __FILE__, __LINE__)

void
test_vport_geneve(void)
{
    static const uint8_t restored_opt[8] = { 0x01, 0x02, 0x80, 0x01,
                                             0x00, 0x01, 0x00, 0x02 };
    struct hw_translate_params params;
    struct hw_tunnel_restore restore;
    struct match match;
    struct hw_rule rule;

    /* OVN's decap: VNI, one option, its data in full (the bit the flow
     * leaves out as 0, which is what recovery gives back). */
    geneve_match_init(&match, false, ovn_opt, ovn_opt_mask, 8);
    geneve_params_init(&params, ALL_PARSE);
    CHECK_EQ(translate_geneve(&match, &params, &rule, NULL), 0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_GENEVE);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV4 | HW_HDR_UDP);
    CHECK_EQ(ntohs(rule.outer.l4.dst), 6081);
    CHECK_EQ(ntohl(rule.tnl.vni), 0x7b);
    CHECK_EQ(ntohs(rule.tnl.geneve_protocol), ETH_TYPE_TEB);
    CHECK_EQ(rule.tnl.geneve_opt_len, 2);
    CHECK_EQ(rule.tnl_mask.geneve_opt_len, 0x3f);
    CHECK_EQ(rule.tnl.geneve_oam, 0);
    CHECK_EQ(rule.tnl_mask.geneve_oam, 1);
    CHECK_EQ(rule.tnl.geneve_opt_exist, 1);
    CHECK_EQ(ntohl(rule.tnl.geneve_opt_data), 0x00010002);
    CHECK_EQ(ntohl(rule.tnl_mask.geneve_opt_data), 0xffffffff);
    CHECK_EQ(ntohs(rule.geneve_opt.opt_class), 0x0102);
    CHECK_EQ(rule.geneve_opt.type, 0x80);
    CHECK_EQ(rule.geneve_opt.len, 1);
    CHECK_EQ(rule.outer.ext_mask.csum_ok, 0);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    CHECK_EQ(rule.tag, TEST_VPORT_MARK);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_TUNNEL);
    CHECK_DR_MATCH(&rule,
                   "outer(ip_protocol=17,ip_dscp=0,ip_ecn=0,ip_version=4,"
                   "udp_dport=6081,src_ipv4=1.1.2.92,dst_ipv4=1.1.2.88) "
                   "misc(geneve_vni=123,geneve_tlv_option_0_exist=1,"
                   "geneve_oam=0,geneve_opt_len=2,"
                   "geneve_protocol_type=0x6558) "
                   "inner(ip_protocol=6,frag=0,ip_version=4,tcp_dport=80,"
                   "dst_ipv4=10.0.0.2) "
                   "misc3(geneve_tlv_option_0_data=0x00010002)");

    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.flags, FLOW_TNL_F_KEY | FLOW_TNL_F_UDPIF);
    CHECK(restore.udpif);
    CHECK_EQ(restore.opts_len, 8);
    CHECK(!memcmp(restore.opts, restored_opt, 8));
    CHECK_EQ(ntohs(restore.tunnel.tp_dst), 6081);
    CHECK_EQ(ntohll(restore.tunnel.tun_id), 0x7b);

    /* No option: the options length 0 is matched, nothing else. */
    geneve_match_init(&match, true, NULL, NULL, 0);
    CHECK_EQ(translate_geneve(&match, &params, &rule, NULL), 0);
    CHECK_EQ(rule.outer.present, HW_HDR_IPV6 | HW_HDR_UDP);
    CHECK_EQ(rule.tnl.geneve_opt_len, 0);
    CHECK_EQ(rule.tnl_mask.geneve_opt_len, 0x3f);
    CHECK_EQ(rule.tnl_mask.geneve_opt_exist, 0);
    CHECK_EQ(rule.tnl_mask.geneve_opt_data, 0);
    CHECK_EQ(rule.geneve_opt.len, 0);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK(restore.udpif);
    CHECK_EQ(restore.opts_len, 0);
    CHECK(ipv6_mask_is_exact(&rule.outer.ipv6_mask.dst));

    /* A flow no OpenFlow flow's options match: the megaflow has their
     * length exact and all-zero option masks.  The rule matches the
     * length only; the packets get that many zero bytes back.  Two
     * options (which the parser could not match one by one) are more
     * than recovery keeps. */
    geneve_match_init(&match, false, ovn_opt_pair, zero_opts, 16);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true, "16 bytes of Geneve "
                         "options: recovery gives back 8 at most");
    geneve_match_init(&match, false, ovn_opt_pair, zero_opts, 8);
    CHECK_EQ(translate_geneve(&match, &params, &rule, NULL), 0);
    CHECK_EQ(rule.tnl.geneve_opt_len, 2);
    CHECK_EQ(rule.tnl_mask.geneve_opt_len, 0x3f);
    CHECK_EQ(rule.tnl_mask.geneve_opt_exist, 0);
    CHECK_EQ(rule.tnl_mask.geneve_opt_data, 0);
    CHECK_EQ(rule.geneve_opt.len, 0);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.flags, FLOW_TNL_F_KEY | FLOW_TNL_F_UDPIF);
    CHECK(restore.udpif);
    CHECK_EQ(restore.opts_len, 8);
    CHECK(!memcmp(restore.opts, zero_opts, 8));

    /* The O bit is matched as the flow has it; "+csum" takes only what
     * the device found right. */
    geneve_match_init(&match, false, ovn_opt, ovn_opt_mask, 8);
    match.flow.tunnel.flags |= FLOW_TNL_F_OAM | FLOW_TNL_F_CSUM;
    CHECK_EQ(translate_geneve(&match, &params, &rule, NULL), 0);
    CHECK_EQ(rule.tnl.geneve_oam, 1);
    CHECK_EQ(rule.outer.ext.csum_ok, (HW_CSUM_OK_L3 | HW_CSUM_OK_L4
                                      | HW_CSUM_OK_IPV4_CSUM
                                      | HW_CSUM_OK_L4_CSUM));
    CHECK_EQ(rule.outer.ext_mask.csum_ok, rule.outer.ext.csum_ok);
    hw_translate_tunnel_restore(&match, &params, &restore);
    CHECK_EQ(restore.tunnel.flags, (FLOW_TNL_F_KEY | FLOW_TNL_F_UDPIF
                                    | FLOW_TNL_F_OAM | FLOW_TNL_F_CSUM));
    geneve_match_init(&match, true, ovn_opt, ovn_opt_mask, 8);
    match.flow.tunnel.flags |= FLOW_TNL_F_CSUM;
    CHECK_EQ(translate_geneve(&match, &params, &rule, NULL), 0);
    CHECK_EQ(rule.outer.ext.csum_ok, HW_CSUM_OK_L4 | HW_CSUM_OK_L4_CSUM);
    CHECK_GENEVE_REFUSED(&match, HW_DR_PARSE_GENEVE | HW_DR_PARSE_GENEVE_OPT,
                         true, "tunnel with checksum not supported: the NIC "
                         "would not verify it");
}

void
test_vport_geneve_refusals(void)
{
    static const uint8_t two_opts[16] = {
        0x01, 0x02, 0x80, 0x01, 0x00, 0x01, 0x00, 0x02,
        0xff, 0xff, 0x01, 0x01, 0x00, 0x00, 0x00, 0x07,
    };
    static const uint8_t two_opts_mask[16] = {
        0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0x1f, 0x00, 0x00, 0x00, 0x00,
    };
    static const uint8_t long_opt[12] = {
        0x01, 0x02, 0x80, 0x02, 0x00, 0x01, 0x00, 0x02, 0, 0, 0, 0,
    };
    static const uint8_t long_opt_mask[12] = {
        0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
    };
    static const uint8_t no_data_mask[8] = { 0xff, 0xff, 0xff, 0x1f,
                                             0, 0, 0, 0 };
    struct match match;

    geneve_match_init(&match, false, ovn_opt, ovn_opt_mask, 8);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, false,
                         "Geneve match needs the device's pipeline of "
                         "tables: verbs has no Geneve spec");
    CHECK_GENEVE_REFUSED(&match, HW_DR_PARSE_CSUM_OK, true,
                         "the device's parser does not recognise Geneve");
    CHECK_GENEVE_REFUSED(&match, HW_DR_PARSE_GENEVE, true,
                         "Geneve option class 0x102 type 0x80: the device's "
                         "parser matches no Geneve option");

    geneve_match_init(&match, false, two_opts, two_opts_mask, 16);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true,
                         "2 Geneve options: the device's parser matches one");
    geneve_match_init(&match, false, long_opt, long_opt_mask, 12);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true,
                         "Geneve option of 8 bytes: the device's parser "
                         "matches 4");
    geneve_match_init(&match, false, ovn_opt, no_data_mask, 8);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true,
                         "Geneve option class 0x102 type 0x80 data not "
                         "matched: the NIC could not restore it");

    geneve_match_init(&match, false, ovn_opt, ovn_opt_mask, 8);
    match.wc.masks.tunnel.metadata.present.len = 0;
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true,
                         "Geneve options matched in part: the NIC could "
                         "not restore them");

    geneve_match_init(&match, false, ovn_opt, ovn_opt_mask, 8);
    match.flow.tunnel.tun_id = htonll(1u << 24);
    CHECK_GENEVE_REFUSED(&match, ALL_PARSE, true,
                         "tun_id 0x1000000 is not a VNI");
}
