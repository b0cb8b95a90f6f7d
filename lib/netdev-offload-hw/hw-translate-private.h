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

#ifndef HW_TRANSLATE_PRIVATE_H
#define HW_TRANSLATE_PRIVATE_H 1

/* What the files of translate (hw-translate.c, hw-translate-push.c,
 * hw-translate-ct.c, hw-translate-eswitch.c) share. */

#include <stddef.h>
#include "openvswitch/compiler.h"

struct ds;
struct hw_rule;
struct hw_translate_params;
struct nlattr;

/* Appends the printf-style message to 'reason', if nonnull, and returns
 * 'error': the one way translate says why it refuses. */
int hw_translate_fail(struct ds *reason, int error, const char *format, ...)
    OVS_PRINTF_FORMAT(3, 4);

/* The name of datapath action 'type' (OVS_ACTION_ATTR_*), as
 * ovs-appctl dpctl/dump-flows shows it. */
const char *hw_translate_action_name(int type);

/* The actions of a flow of 'match' for the e-switch's FDB
 * ('params->eswitch'): fills the fate and rewrites of 'rule', whose match
 * is translated, or refuses with EOPNOTSUPP and the reason
 * (hw-translate-eswitch.c). */
struct match;
int hw_translate_eswitch_actions(const struct match *,
                                 const struct nlattr *actions,
                                 size_t actions_len,
                                 const struct hw_translate_params *params,
                                 struct hw_rule *rule, struct ds *reason);

/* The VLAN tag an FDB rule requires or excludes, from 'match': the FDB
 * has no VLAN guard.  Returns 0, or EOPNOTSUPP with the reason. */
int hw_translate_eswitch_vlan(const struct match *, struct hw_rule *rule,
                              struct ds *reason);

#endif /* hw-translate-private.h */
