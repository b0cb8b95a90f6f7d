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

#include <string.h>

bool
hw_rule_is_tagged(const struct hw_rule *rule)
{
    return rule->outer.eth_mask.tci != htons(0);
}

/* The same sub-priorities as DPDK's verbs engine (L4 0, L3 1, L2 2): rules
 * of one priority that overlap have no defined order, so the more specific
 * layer must come first. */
static uint16_t
hw_headers_subpriority(const struct hw_headers *h)
{
    if (h->present & (HW_HDR_TCP | HW_HDR_UDP)) {
        return 0;
    } else if (h->present & (HW_HDR_IPV4 | HW_HDR_IPV6)) {
        return 1;
    } else {
        return 2;
    }
}

void
hw_rule_make_override(struct hw_rule *rule)
{
    rule->reformat = HW_REFORMAT_NONE;
    rule->reformat_len = 0;
    memset(&rule->rewrite, 0, sizeof rule->rewrite);
    rule->has_tag = false;
    rule->tag = 0;
    rule->count = false;
    rule->fate = HW_FATE_RSS;
    rule->fate_level = 0;
    rule->full = false;
    rule->override = true;
}

uint16_t
hw_rule_priority(const struct hw_rule *rule)
{
    if (rule->override) {
        return HW_PRIO_OVERRIDE;
    }
    if (rule->tunnel != HW_TUNNEL_NONE && !rule->egress) {
        /* A tunnel rule that needs an inner tag is the inner VLAN guard;
         * the plugin offloads no other (see hw-translate.c). */
        if (rule->inner.eth_mask.tci) {
            return HW_PRIO_TUNNEL_GUARD;
        }
        return HW_PRIO_TUNNEL + hw_headers_subpriority(&rule->inner);
    }
    return ((hw_rule_is_tagged(rule) ? HW_PRIO_TAGGED : HW_PRIO_UNTAGGED)
            + hw_headers_subpriority(&rule->outer));
}

enum hw_rss_type
hw_rule_rss_type(const struct hw_rule *rule)
{
    bool decap = (rule->reformat == HW_REFORMAT_L2_DECAP
                  || rule->reformat == HW_REFORMAT_L3_DECAP);
    const struct hw_headers *h = decap ? &rule->inner : &rule->outer;
    bool tcp = h->present & HW_HDR_TCP;
    bool udp = h->present & HW_HDR_UDP;

    if (h->present & HW_HDR_IPV6) {
        return tcp ? HW_RSS_IPV6_TCP : udp ? HW_RSS_IPV6_UDP : HW_RSS_IPV6;
    } else {
        /* IPv4, or no IP header at all: the IPv4 hash QP takes those. */
        return tcp ? HW_RSS_IPV4_TCP : udp ? HW_RSS_IPV4_UDP : HW_RSS_IPV4;
    }
}

/* Overlap. */

/* Returns false if no value can satisfy both the 'n' bytes 'va' under 'ma'
 * and 'vb' under 'mb'. */
static bool
bytes_overlap(const void *va_, const void *ma_, const void *vb_,
              const void *mb_, size_t n)
{
    const uint8_t *va = va_, *ma = ma_, *vb = vb_, *mb = mb_;

    for (size_t i = 0; i < n; i++) {
        if ((va[i] ^ vb[i]) & ma[i] & mb[i]) {
            return false;
        }
    }
    return true;
}

/* Copies 'h' to 'e' with what its specs imply made explicit: an IP spec
 * requires its ethertype, a TCP or UDP spec its IP protocol. */
static void
hw_headers_effective(const struct hw_headers *h, struct hw_headers *e)
{
    *e = *h;
    if (h->present & (HW_HDR_IPV4 | HW_HDR_IPV6)) {
        bool v4 = h->present & HW_HDR_IPV4;
        uint8_t proto = 0;

        e->eth.type = htons(v4 ? ETH_TYPE_IP : ETH_TYPE_IPV6);
        e->eth_mask.type = OVS_BE16_MAX;
        if (h->present & HW_HDR_TCP) {
            proto = IPPROTO_TCP;
        } else if (h->present & HW_HDR_UDP) {
            proto = IPPROTO_UDP;
        }
        if (proto && v4) {
            e->ipv4.proto = proto;
            e->ipv4_mask.proto = UINT8_MAX;
        } else if (proto) {
            e->ipv6.next_hdr = proto;
            e->ipv6_mask.next_hdr = UINT8_MAX;
        }
    }
}

bool
hw_headers_overlap(const struct hw_headers *a_, const struct hw_headers *b_)
{
    struct hw_headers a, b;

    hw_headers_effective(a_, &a);
    hw_headers_effective(b_, &b);

    if (!bytes_overlap(&a.eth, &a.eth_mask, &b.eth, &b.eth_mask,
                       sizeof a.eth)) {
        return false;
    }
    if (a.present & b.present & HW_HDR_IPV4
        && !bytes_overlap(&a.ipv4, &a.ipv4_mask, &b.ipv4, &b.ipv4_mask,
                          sizeof a.ipv4)) {
        return false;
    }
    if (a.present & b.present & HW_HDR_IPV6
        && !bytes_overlap(&a.ipv6, &a.ipv6_mask, &b.ipv6, &b.ipv6_mask,
                          sizeof a.ipv6)) {
        return false;
    }
    /* Ports only compare within one protocol; a TCP and a UDP spec were
     * told apart by the protocol above. */
    if (((a.present & b.present & HW_HDR_TCP)
         || (a.present & b.present & HW_HDR_UDP))
        && !bytes_overlap(&a.l4, &a.l4_mask, &b.l4, &b.l4_mask,
                          sizeof a.l4)) {
        return false;
    }
    return true;
}

bool
hw_rule_overlaps(const struct hw_rule *a, const struct hw_rule *b)
{
    if (!hw_headers_overlap(&a->outer, &b->outer)) {
        return false;
    }
    if (a->tunnel == HW_TUNNEL_NONE || b->tunnel == HW_TUNNEL_NONE) {
        return true;
    }
    return (a->tunnel == b->tunnel
            && bytes_overlap(&a->tnl, &a->tnl_mask, &b->tnl, &b->tnl_mask,
                             sizeof a->tnl)
            && hw_headers_overlap(&a->inner, &b->inner));
}
