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

/* translate for the connection pipeline in the e-switch's FDB: the stage of
 * a flow of a representor or the uplink, its misses, and what a rule of the
 * connection table needs there.
 *
 * The FDB has the tables, registers, modify-header and jumps of the
 * receive side's pipeline, but no tag and no QP (hw-apis.md 3.4): a packet
 * that misses the connection or the post-conntrack table takes the FDB's
 * default, to its manager's NIC RX, where the verbs rules of the input
 * port's representor hand it to software as it arrived (a stage changes no
 * header): software runs the stage's ct() and recirc() itself, as for an
 * untagged miss on the receive side.  The stage still writes its mark into
 * HW_REG_STAGE, for its misses to count what they hand back.  A stage with
 * nat is refused: a packet the connection table translated could not be
 * told apart for its state to be restored.  Pure code. */

#include <config.h>
#include "hw-translate.h"

#include <errno.h>

#include "hw-rule.h"
#include "hw-translate-private.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

int
hw_translate_eswitch_ct_stage(const struct nlattr *actions,
                              size_t actions_len,
                              const struct hw_translate_params *p,
                              struct hw_rule *rule, struct ds *reason)
{
    struct hw_rule stage = *rule;
    int error;

    if (!p->conntrack || rule->table == HW_TABLE_POST_CT) {
        return ENOENT;
    }
    error = hw_translate_ct_stage(actions, actions_len, p, &stage, reason);
    if (error) {
        return error;
    }
    if (stage.ct_nat) {
        return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB "
                                 "has no tag to restore the state of a "
                                 "packet its connection table translated: "
                                 "ct(nat) stays on the receive side");
    }
    if (!p->flow_mark || p->flow_mark > HW_TAG_MAX) {
        return hw_translate_fail(reason, EINVAL, "flow mark %"PRIu32" does "
                                 "not fit the stage register (1 to %"PRIu32
                                 ")", p->flow_mark, HW_TAG_MAX);
    }
    /* The mark stays the stage's name in HW_REG_STAGE; no tag. */
    stage.has_tag = false;
    stage.fdb = true;
    *rule = stage;
    return 0;
}

size_t
hw_translate_eswitch_ct_misses(const struct hw_rule *stage,
                               struct hw_rule misses[HW_MAX_CT_MISSES],
                               uint32_t levels[HW_MAX_CT_MISSES])
{
    size_t n = hw_translate_ct_misses(stage, misses, levels);

    ovs_assert(n == HW_N_CT_PLAIN_MISSES);
    for (size_t i = 0; i < n; i++) {
        hw_translate_eswitch_ct_miss(&misses[i]);
    }
    return n;
}

void
hw_translate_eswitch_ct_miss(struct hw_rule *rule)
{
    rule->fdb = true;
    rule->has_tag = false;
    rule->tag = 0;
    rule->fate = HW_FATE_MISS;
}
