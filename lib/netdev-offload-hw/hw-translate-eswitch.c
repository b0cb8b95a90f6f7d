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

/* translate for the e-switch's FDB: the actions of a flow of a port of an
 * e-switch in switchdev mode (hw-offload-eswitch.h), in the order the
 * device runs a rule's actions (hw-apis.md 3.4): a VLAN pop, a VLAN push,
 * then one output, which becomes DEST_VPORT once the offload core knows
 * the output port's vport, or several (a mirror: DEST_ARRAY).  Pure, like
 * the rest of translate. */

#include <config.h>
#include "hw-translate-private.h"

#include <errno.h>

#include "hw-rule.h"
#include "hw-translate.h"
#include "netlink.h"
#include "openvswitch/match.h"
#include "odp-netlink.h"
#include "packets.h"
#include "util.h"

static int
esw_refuse(struct ds *reason, const char *why)
{
    return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB %s",
                             why);
}

int
hw_translate_eswitch_actions(const struct nlattr *actions,
                             size_t actions_len,
                             const struct hw_translate_params *params,
                             struct hw_rule *rule, struct ds *reason)
{
    struct hw_rewrite *rw = &rule->rewrite;
    const struct ovs_action_push_vlan *push;
    const struct nlattr *a;
    bool output = false;
    size_t left;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        if (output && nl_attr_type(a) != OVS_ACTION_ATTR_OUTPUT) {
            /* Every copy of a mirror is the same packet. */
            return esw_refuse(reason, "takes flows whose outputs come "
                              "last");
        }
        switch (nl_attr_type(a)) {
        case OVS_ACTION_ATTR_POP_VLAN:
            if (rw->pop_vlan || rw->push_vlan) {
                return esw_refuse(reason, "pops one VLAN tag, before a "
                                  "push");
            }
            rw->pop_vlan = true;
            break;
        case OVS_ACTION_ATTR_PUSH_VLAN:
            push = nl_attr_get(a);
            if (rw->push_vlan) {
                return esw_refuse(reason, "pushes one VLAN tag");
            }
            if (push->vlan_tpid != htons(ETH_TYPE_VLAN_8021Q)
                && push->vlan_tpid != htons(ETH_TYPE_VLAN_8021AD)) {
                return esw_refuse(reason, "pushes 802.1Q and 802.1ad "
                                  "tags only");
            }
            rw->push_vlan = true;
            rw->push_tpid = push->vlan_tpid;
            /* OVS marks the tag present with the CFI bit; the tag on the
             * wire has it clear. */
            rw->push_tci = push->vlan_tci & htons(~VLAN_CFI);
            break;
        case OVS_ACTION_ATTR_OUTPUT:
            if (rule->n_out >= HW_MAX_OUTPUTS) {
                return esw_refuse(reason, "copies a packet to at most "
                                  OVS_STRINGIZE(HW_MAX_OUTPUTS) " ports");
            }
            rule->out_ports[rule->n_out++] = nl_attr_get_odp_port(a);
            output = true;
            break;
        default:
            return esw_refuse(reason, "takes outputs and VLAN pushes and "
                              "pops only");
        }
    }
    if (!output) {
        return esw_refuse(reason, "takes flows with one output");
    }
    rule->fate = HW_FATE_VPORT;
    rule->fdb = true;
    rule->full = true;
    rule->reg_c[0] = params->esw_reg_c0 & params->esw_reg_c0_mask;
    rule->reg_c_mask[0] = params->esw_reg_c0_mask;
    return 0;
}

int
hw_translate_eswitch_vlan(const struct match *match, struct hw_rule *rule,
                          struct ds *reason)
{
    ovs_be16 mask = match->wc.masks.vlans[0].tci;
    ovs_be16 tci = match->flow.vlans[0].tci & mask;
    struct hw_headers *outer = &rule->outer;

    /* On the receive side the VLAN guard keeps tagged packets from the
     * rules of untagged flows (hw-rule.h); the FDB table has none, so its
     * rules say which packets they take.  OVS's CFI bit says "tagged". */
    if (outer->eth_mask.tci) {
        outer->vlan1 = HW_VLAN_CTAG;
    } else if (mask & htons(VLAN_CFI) && !(tci & htons(VLAN_CFI))) {
        outer->vlan1 = HW_VLAN_NONE;
    } else {
        outer->vlan1 = HW_VLAN_ANY;
    }
    if (rule->rewrite.pop_vlan && outer->vlan1 != HW_VLAN_CTAG) {
        /* Popping from a packet without a tag is not the datapath's. */
        return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB "
                                 "pops a tag the flow requires only");
    }
    return 0;
}
