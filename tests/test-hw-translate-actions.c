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

#include "hw-rule.h"
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

    /* Marks: 1 .. 2^24 - 1. */
    CHECK_EQ(translate_mark(&match, &actions, 1, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 1);
    CHECK_EQ(translate_mark(&match, &actions, 0xffffff, &rule, NULL), 0);
    CHECK_EQ(rule.tag, 0xffffff);
    CHECK_EQ(translate_mark(&match, &actions, 0x1000000, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 16777216 does not fit the 24-bit tag");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, 0, &rule, &reason), EINVAL);
    CHECK_STR(ds_cstr(&reason), "flow mark 0 does not fit the 24-bit tag");
    ds_clear(&reason);
    CHECK_EQ(translate_mark(&match, &actions, UINT32_MAX, &rule, &reason),
             EINVAL);
    CHECK_STR(ds_cstr(&reason),
              "flow mark 4294967295 does not fit the 24-bit tag");
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
