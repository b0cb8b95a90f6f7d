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

/* Unit tests of the actions hw-translate.c translates: the fates, a full
 * or partial offload, the flow mark's range, malformed actions. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <errno.h>

#include "flow.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"

void
test_actions(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);

    /* No action: drop, fully in hardware, no mark needed. */
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, NULL), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK(rule.count);
    CHECK(!rule.has_tag);
    CHECK_EQ(hw_rule_priority(&rule), HW_PRIO_UNTAGGED);

    /* An explicit drop: the same. */
    put_drop(&actions);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_DROP);
    CHECK(rule.full);
    CHECK(!rule.has_tag);

    /* Output then drop: software still outputs. */
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    put_drop(&actions);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);
    CHECK(rule.has_tag);
    CHECK_EQ(rule.tag, TEST_MARK);
    CHECK(rule.count);

    /* Any other action list is a partial offload. */
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 7);
    CHECK_EQ(translate(&match, &actions, &rule), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.full);

    /* Marks: 1 .. 2^23 - 1; the tags above are conntrack's restore
     * tags. */
    CHECK_EQ(translate_mark(&match, &actions, 1, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0x7fffff, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 0x7fffff);
    CHECK_EQ(translate_mark(&match, &actions, 0x800000, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 8388608 does not fit the tag (1 to 8388607)");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 0 does not fit the tag (1 to 8388607)");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, UINT32_MAX, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 4294967295 does not fit the tag (1 to 8388607)");
    ds_clear(&reason);

    /* A refused match wins over a bad mark and is reported first. */
    match_set_nw_ttl(&match, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason),
             EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "match on nw_ttl not supported");
    ds_clear(&reason);

    /* Truncated netlink. */
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    put_output(&actions, 2);
    actions.size -= 2;
    CHECK_EQ(translate_mark(&match, &actions, TEST_MARK, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason), "malformed actions");

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* On a port of an e-switch in switchdev mode: a flow whose one action is
 * an output is a full FDB rule to a vport, matched on the port's reg_c0
 * metadata with the mlx5 matcher; anything else is refused, with the
 * reason, for the caller to try the port's receive side. */
void
test_eswitch_actions(void)
{
    struct hw_translate_params params = {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
        .vport = HW_TUNNEL_NONE,
        .eswitch = true,
        .esw_reg_c0 = 0x00020000,
        .esw_reg_c0_mask = 0xffff0000,
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct match match;
    struct hw_rule rule;

    dp_match_init_udp(&match);
    ofpbuf_init(&actions, 64);

    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    CHECK_EQ(rule.n_out, 1);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 3);
    CHECK_EQ(rule.fate_vports[0], 0);   /* The offload core finds it. */
    CHECK(rule.fdb);
    CHECK(rule.full);
    CHECK(rule.count);
    CHECK(!rule.has_tag);
    CHECK_EQ(rule.reg_c[0], 0x00020000);
    CHECK_EQ(rule.reg_c_mask[0], 0xffff0000);
    for (int i = 1; i < HW_N_REG_C; i++) {
        CHECK_EQ(rule.reg_c_mask[i], 0);
    }
    CHECK_EQ(ds_cstr(&reason)[0], '\0');
    /* No VLAN guard in the FDB: an untagged flow takes untagged packets
     * only. */
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_NONE);
    CHECK(hw_rewrite_is_empty(&rule.rewrite));

    /* The mlx5 matcher: the TTL, which verbs cannot match. */
    match_set_nw_ttl(&match, 64);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.outer.ext_mask.ttl, 0xff);
    CHECK_EQ(rule.outer.ext.ttl, 64);
    dp_match_init_udp(&match);

    /* A mirror: a copy to each output, up to 4. */
    put_output(&actions, 4);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.n_out, 2);
    CHECK_EQ(odp_to_u32(rule.out_ports[0]), 3);
    CHECK_EQ(odp_to_u32(rule.out_ports[1]), 4);
    put_output(&actions, 5);
    put_output(&actions, 6);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.n_out, 4);
    put_output(&actions, 7);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB copies a packet to at "
              "most 4 ports");
    CHECK(!rule.fdb);
    ds_clear(&reason);

    /* An output and more, a drop: not the FDB's. */
    ofpbuf_clear(&actions);
    put_output(&actions, 3);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 4);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB takes flows whose "
              "outputs come last");
    ds_clear(&reason);
    ofpbuf_clear(&actions);
    nl_msg_put_u32(&actions, OVS_ACTION_ATTR_RECIRC, 7);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB takes outputs and VLAN "
              "pushes and pops only");
    ds_clear(&reason);

    /* A push: the tag's TCI without OVS's CFI "present" bit. */
    struct ovs_action_push_vlan push = {
        .vlan_tpid = htons(ETH_TYPE_VLAN_8021Q),
        .vlan_tci = htons(VLAN_CFI | (3 << VLAN_PCP_SHIFT) | 100),
    };
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK(rule.rewrite.push_vlan && !rule.rewrite.pop_vlan);
    CHECK_EQ(ntohs(rule.rewrite.push_tpid), ETH_TYPE_VLAN_8021Q);
    CHECK_EQ(ntohs(rule.rewrite.push_tci), (3 << VLAN_PCP_SHIFT) | 100);
    CHECK_EQ(rule.fate, HW_FATE_VPORT);
    push.vlan_tpid = htons(0x9100);
    ofpbuf_clear(&actions);
    nl_msg_put_unspec(&actions, OVS_ACTION_ATTR_PUSH_VLAN, &push,
                      sizeof push);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB pushes 802.1Q and "
              "802.1ad tags only");
    ds_clear(&reason);

    /* A pop, of a tag the flow requires: VID 100 on a C-tag. */
    ofpbuf_clear(&actions);
    nl_msg_put_flag(&actions, OVS_ACTION_ATTR_POP_VLAN);
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    CHECK_STR(ds_cstr(&reason), "e-switch: the FDB pops a tag the flow "
              "requires only");
    ds_clear(&reason);
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK(rule.rewrite.pop_vlan && !rule.rewrite.push_vlan);
    CHECK_EQ(rule.outer.vlan1, HW_VLAN_CTAG);
    CHECK_EQ(ntohs(rule.outer.eth.tci), 100);
    dp_match_init_udp(&match);
    ofpbuf_clear(&actions);
    put_drop(&actions);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    ds_clear(&reason);
    ofpbuf_clear(&actions);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), EOPNOTSUPP);
    ds_clear(&reason);

    /* Without 'eswitch' an output is a partial offload, as ever. */
    params.eswitch = false;
    put_output(&actions, 3);
    CHECK_EQ(hw_translate_flow(&match, actions.data, actions.size, &params,
                               &rule, &reason), 0);
    CHECK_EQ(rule.fate, HW_FATE_RSS);
    CHECK(!rule.fdb);
    CHECK_EQ(rule.reg_c_mask[0], 0);

    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}
