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

#ifndef HW_TRANSLATE_H
#define HW_TRANSLATE_H 1

/* translate: an OVS datapath flow (struct match + netlink actions) becomes a
 * struct hw_rule, or is refused with EOPNOTSUPP and a reason.
 *
 * Pure code: no device, no locks, no global state.  Every match field it
 * translates is cleared from a copy of the mask; any mask bit left at the
 * end refuses the flow and the reason names the field, so nothing is ever
 * silently ignored. */

#include <stddef.h>
#include <stdint.h>
#include "openvswitch/types.h"

struct match;
struct nlattr;
struct ds;
struct hw_rule;

struct hw_translate_params {
    uint32_t flow_mark;         /* From struct offload_info. */
    odp_port_t in_port;         /* The hw port's odp port number. */
};

/* Translates 'match' and 'actions' into 'rule'.  Returns 0 on success.  On
 * EOPNOTSUPP (or EINVAL for a mark the tag cannot carry) 'reason' receives
 * a one-line explanation such as "match on recirc_id 0x1 not supported". */
int hw_translate_flow(const struct match *, const struct nlattr *actions,
                      size_t actions_len,
                      const struct hw_translate_params *,
                      struct hw_rule *, struct ds *reason);

#endif /* hw-translate.h */
