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

#include <config.h>
#include "hw-rule.h"

/* A rule is "tagged" when its outer Ethernet spec masks part of the TCI:
 * verbs then requires a C-VLAN tag, so the rule belongs before the VLAN
 * guard.  Every other rule matches tagged and untagged packets alike and
 * relies on the guard to keep tagged packets away from it. */
static bool
hw_rule_is_tagged(const struct hw_rule *rule)
{
    return rule->outer.eth_mask.tci != htons(0);
}

uint16_t
hw_rule_priority(const struct hw_rule *rule)
{
    const struct hw_headers *outer = &rule->outer;
    uint16_t base = hw_rule_is_tagged(rule) ? HW_PRIO_TAGGED
                                             : HW_PRIO_UNTAGGED;

    /* The same sub-priorities as DPDK's verbs engine (L4 0, L3 1, L2 2):
     * rules of one priority that overlap have no defined order, so the more
     * specific layer must come first. */
    if (outer->present & (HW_HDR_TCP | HW_HDR_UDP)) {
        return base;
    } else if (outer->present & (HW_HDR_IPV4 | HW_HDR_IPV6)) {
        return base + 1;
    } else {
        return base + 2;
    }
}

enum hw_rss_type
hw_rule_rss_type(const struct hw_rule *rule)
{
    const struct hw_headers *outer = &rule->outer;
    bool tcp = outer->present & HW_HDR_TCP;
    bool udp = outer->present & HW_HDR_UDP;

    if (outer->present & HW_HDR_IPV6) {
        return tcp ? HW_RSS_IPV6_TCP : udp ? HW_RSS_IPV6_UDP : HW_RSS_IPV6;
    } else {
        /* IPv4, or no IP header at all: the IPv4 hash QP takes those. */
        return tcp ? HW_RSS_IPV4_TCP : udp ? HW_RSS_IPV4_UDP : HW_RSS_IPV4;
    }
}
