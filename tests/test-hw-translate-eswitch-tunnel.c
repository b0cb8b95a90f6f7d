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

/* Unit tests of tunnels in the e-switch's FDB (hw-translate-eswitch.c):
 * the flow of a VXLAN or GRE vport whose packets arrive by the uplink
 * decapsulates and goes to a VF; the flow of a VF that pushes a tunnel
 * header encapsulates and goes to the uplink. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

/* The uplink's vport metadata, and a VF's. */
#define UPLINK_REG_C0 0xff000000
#define VF_REG_C0 0x00020000
#define REG_C0_MASK 0xffff0000
#define UPLINK_VPORT 0xffff

/* Translates 'match' with 'actions' under 'params' for the FDB; the
 * reason goes to 'reason' (cleared first).  A refusal leaves no rule. */
static int
esw_tnl_translate(const struct match *match, const struct ofpbuf *actions,
                  struct hw_translate_params *params, struct hw_rule *rule,
                  struct ds *reason)
{
    int error;

    params->eswitch = true;
    params->esw_reg_c0_mask = REG_C0_MASK;
    ds_clear(reason);
    error = hw_translate_flow(match, actions->data, actions->size, params,
                              rule, reason);
    if (error) {
        CHECK(!rule->fdb);
        CHECK_EQ(rule->reformat, HW_REFORMAT_NONE);
    } else {
        CHECK(rule->fdb && rule->full && rule->count);
        CHECK(!rule->has_tag);
        CHECK_EQ(rule->reg_c[0], params->esw_reg_c0);
        CHECK_EQ(rule->reg_c_mask[0], REG_C0_MASK);
        CHECK_STR(ds_cstr(reason), "");
    }
    return error;
}

/* Checks that 'actions' on 'match' are refused with 'error' and
 * 'expected'. */
static void
check_esw_refused_at(const struct match *match, const struct ofpbuf *actions,
                     struct hw_translate_params *params, int error,
                     const char *expected, const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int got;

    got = esw_tnl_translate(match, actions, params, &rule, &reason);
    if (got != error || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (%s), got \"%s\" (%s)",
                  file, line, expected, ovs_strerror(error),
                  ds_cstr(&reason), ovs_strerror(got));
    }
    ds_destroy(&reason);
}
#define CHECK_ESW_REFUSED(MATCH, ACTIONS, PARAMS, ERROR, REASON)          \
    check_esw_refused_at(MATCH, ACTIONS, PARAMS, ERROR, REASON,           \
                         __FILE__, __LINE__)

static void
vport_esw_params(struct hw_translate_params *params, enum hw_tunnel_type t)
{
    vport_params_init(params, t);
    params->esw_reg_c0 = UPLINK_REG_C0;
    params->esw_vport = UPLINK_VPORT;
}

static void
vf_esw_params(struct hw_translate_params *params)
{
    memset(params, 0, sizeof *params);
    params->flow_mark = TEST_MARK;
    params->in_port = u32_to_odp(TEST_PORT);
    params->vport = HW_TUNNEL_NONE;
    params->esw_reg_c0 = VF_REG_C0;
    params->esw_vport = 2;
}

/* A vport flow with an output: the tunnel rule of the receive side
 * (outer headers from the metadata, VNI or key, inner headers) with an L2
 * decap, and a DEST_VPORT instead of the tag.  The VLAN tags are said
 * outright: an untagged underlay, an untagged inner frame. */
void
test_eswitch_decap(void)
{
    struct hw_translate_params params;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;
    uint8_t h[HW_REFORMAT_MAX_DATA];

    ofpbuf_init(&actions, 64);
    vport_match_init(&match, false);
    vport_esw_params(&params, HW_TUNNEL_VXLAN);
    put_output(&actions, 3);
    CHECK_EQ(esw_tnl_translate(&match, &actions, &params, &rule, &reason),
             0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    CHECK_EQ(ntohl(rule.tnl.vni), 0x7b);
    CHECK_EQ(ntohl(rule.outer.ipv4.src), 0x0101025c);
    CHECK_EQ(ntohl(rule.outer.ipv4.dst), 0x01010258);
    CHECK_EQ(ntohs(rule.outer.l4.dst), 4789);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    CHECK_EQ(rule.reformat_len, 0);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 3);
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_NONE);
    CHECK_EQ(rule.inner.vlan1, HW_VLAN_NONE);
    CHECK_EQ(ntohl(rule.inner.ipv4.dst), 0x0a000002);
    /* The uplink as the source port too: the FDB's receive side only. */
    CHECK_EQ(rule.src_vport, UPLINK_VPORT);
    CHECK_EQ(rule.src_vport_mask, 0xffff);
    CHECK(hw_rewrite_is_empty(&rule.rewrite));

    /* GRE: the key and the TEB protocol. */
    vport_esw_params(&params, HW_TUNNEL_GRE);
    CHECK_EQ(esw_tnl_translate(&match, &actions, &params, &rule, &reason),
             0);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_GRE);
    CHECK_EQ(ntohl(rule.tnl.gre_key), 0x7b);
    CHECK_EQ(ntohs(rule.tnl.gre_protocol), ETH_TYPE_TEB);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_DECAP);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);

    /* An inner tag: the tunnel rules do not match it. */
    vport_esw_params(&params, HW_TUNNEL_VXLAN);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 3);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "match on inner vlan_tci 0x1064/0x1fff not "
                      "supported");
    vport_match_init(&match, false);

    /* A drop needs no decap. */
    ofpbuf_clear(&actions);
    put_drop(&actions);
    CHECK_EQ(esw_tnl_translate(&match, &actions, &params, &rule, &reason),
             0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK_EQ(rule.reformat, HW_REFORMAT_NONE);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_VXLAN);
    CHECK_EQ(rule.src_vport_mask, 0);

    /* The flow that pops the tunnel stays the receive side's. */
    {
        struct hw_translate_params pop_params;
        struct match pop;

        vf_esw_params(&pop_params);
        pop_params.esw_reg_c0 = UPLINK_REG_C0;
        dp_match_init_udp(&pop);
        ofpbuf_clear(&actions);
        nl_msg_put_u32(&actions, OVS_ACTION_ATTR_TUNNEL_POP, TEST_VPORT);
        CHECK_ESW_REFUSED(&pop, &actions, &pop_params, EOPNOTSUPP,
                          "e-switch: the FDB decapsulates in the "
                          "flows of the tunnel's vport, not at tnl_pop");
    }

    /* Decap, then a push, or a meter: not the FDB's. */
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, vxlan_header(h, false,
                                                                 0));
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB pushes one tunnel "
                      "header, onto packets it did not decapsulate");
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 3);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB runs a meter without "
                      "tunnel decap or push");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* A VF's flow that pushes a tunnel header and outputs: an L2 encap of the
 * header tnl_push has, with the device's UDP source port, after the
 * rewrites before it; nothing but one output after it. */
void
test_eswitch_encap(void)
{
    struct ovs_key_ethernet eth = {
        .eth_src = ETH_ADDR_C(02, 00, 00, 00, 00, 99),
        .eth_dst = ETH_ADDR_C(02, 00, 00, 00, 00, 02),
    };
    struct hw_translate_params params;
    struct ds reason = DS_EMPTY_INITIALIZER;
    uint8_t h[HW_REFORMAT_MAX_DATA];
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;
    uint16_t sport;
    size_t len;

    ofpbuf_init(&actions, 64);
    dp_match_init_udp(&match);
    vf_esw_params(&params);

    /* VXLAN over IPv4, after a MAC rewrite. */
    len = vxlan_header(h, false, 0);
    CHECK_EQ(len, 50);
    {
        size_t ofs = nl_msg_start_nested(&actions, OVS_ACTION_ATTR_SET);

        nl_msg_put_unspec(&actions, OVS_KEY_ATTR_ETHERNET, &eth, sizeof eth);
        nl_msg_end_nested(&actions, ofs);
    }
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 1);
    CHECK_EQ(esw_tnl_translate(&match, &actions, &params, &rule, &reason),
             0);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_ENCAP);
    CHECK_EQ(rule.reformat_len, len);
    CHECK_EQ(rule.tunnel, HW_TUNNEL_NONE);
    CHECK_EQ(rule.src_vport_mask, 0);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 1);
    CHECK(rule.rewrite.set & (1u << HW_SET_ETH_SRC));
    /* The header, byte for byte, but the UDP source port, which OVS
     * leaves 0 and the device takes from the header: one in OVS's
     * range. */
    CHECK(!memcmp(rule.reformat_data, h, 34));
    CHECK(!memcmp(rule.reformat_data + 36, h + 36, len - 36));
    sport = rule.reformat_data[34] << 8 | rule.reformat_data[35];
    CHECK(sport >= 32768 && sport < 61000);
    for (size_t i = len; i < HW_REFORMAT_MAX_DATA; i++) {
        CHECK_EQ(rule.reformat_data[i], 0);
    }

    /* GRE with a key: no UDP port to fill. */
    len = gre_header_ip(h, false, GRE_KEY, ETH_TYPE_TEB);
    CHECK_EQ(len, 42);
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 1);
    CHECK_EQ(esw_tnl_translate(&match, &actions, &params, &rule, &reason),
             0);
    CHECK_EQ(rule.reformat, HW_REFORMAT_L2_ENCAP);
    CHECK_EQ(rule.reformat_len, len);
    CHECK(!memcmp(rule.reformat_data, h, len));

    /* What the device cannot do: anything but an output after the push
     * (it would run before the push), a push to two ports, a meter, an
     * output before the push, and the headers tnl_push refuses. */
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB takes outputs only "
                      "after a tnl_push");
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 1);
    put_output(&actions, 3);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB sends a tnl_push to one "
                      "port only");
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB runs a meter without "
                      "tnl_push");
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_METER, 5);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB takes outputs only "
                      "after a tnl_push");
    ofpbuf_clear(&actions);
    put_output(&actions, 3);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: the FDB takes flows whose "
                      "outputs come last");

    len = gre_header_ip(h, false, GRE_KEY | GRE_CSUM, ETH_TYPE_TEB);
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_GRE, h, len);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: tnl_push of GRE with checksum "
                      "not supported: the NIC does not compute it");
    len = vxlan_header(h, true, 0x1234);
    ofpbuf_clear(&actions);
    put_tnl_push(&actions, OVS_VPORT_TYPE_VXLAN, h, len);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EOPNOTSUPP,
                      "e-switch: tnl_push with outer UDP "
                      "checksum not supported: the NIC does not compute it");

    /* A malformed tnl_push. */
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_TUNNEL_PUSH, h, 4);
    put_output(&actions, 1);
    CHECK_ESW_REFUSED(&match, &actions, &params, EINVAL,
                      "e-switch: malformed tnl_push");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}
