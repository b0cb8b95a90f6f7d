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

/* translate for the connection pipeline (hw-rule.h, HW_REG_RECIRC): the
 * ct() and recirc() of a recirc_id 0 flow, the match of a recirc_id != 0
 * flow on the registers the connection table set, what such a flow may do
 * in software after the device ran the stages before it, and the rule of
 * one direction of a connection.  Pure code. */

#include <config.h>
#include "hw-translate.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "ct-dpif.h"
#include "flow.h"
#include "hw-rule.h"
#include "hw-translate-private.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "util.h"

#define CT_REFUSE(REASON, ...) \
    hw_translate_fail(REASON, EOPNOTSUPP, __VA_ARGS__)

int
hw_translate_ct_match(const struct flow *key, struct flow *mask,
                      const struct hw_translate_params *p,
                      struct hw_rule *rule, struct ds *reason)
{
    uint32_t recirc = key->recirc_id & mask->recirc_id;
    uint32_t label_mask;

    if (!recirc) {
        return 0;
    }
    if (!p->conntrack) {
        return CT_REFUSE(reason, "match on recirc_id %#"PRIx32
                         " not supported", recirc);
    }
    if (mask->recirc_id != UINT32_MAX) {
        return CT_REFUSE(reason, "match on recirc_id %#"PRIx32"/%#"PRIx32
                         " not supported", recirc, mask->recirc_id);
    }
    rule->table = HW_TABLE_POST_CT;
    rule->pipeline = true;
    rule->reg_c[HW_REG_RECIRC] = recirc;
    rule->reg_c_mask[HW_REG_RECIRC] = UINT32_MAX;
    mask->recirc_id = 0;

    /* What the connection's rule wrote (hw_translate_ct_conn()). */
    rule->reg_c[HW_REG_CT] = ((uint32_t) (key->ct_state & mask->ct_state)
                              << 16) | (key->ct_zone & mask->ct_zone);
    rule->reg_c_mask[HW_REG_CT] = ((uint32_t) mask->ct_state << 16
                                   | mask->ct_zone);
    mask->ct_state = 0;
    mask->ct_zone = 0;

    rule->reg_c[HW_REG_CT_MARK] = key->ct_mark & mask->ct_mark;
    rule->reg_c_mask[HW_REG_CT_MARK] = mask->ct_mark;
    mask->ct_mark = 0;

    /* The register holds the low 32 bits of the label. */
    if (mask->ct_label.u64.hi || mask->ct_label.u64.lo >> 32) {
        return CT_REFUSE(reason, "match on ct_label bits above the low 32 "
                         "not supported");
    }
    label_mask = mask->ct_label.u64.lo;
    rule->reg_c[HW_REG_CT_LABEL] = key->ct_label.u64.lo & label_mask;
    rule->reg_c_mask[HW_REG_CT_LABEL] = label_mask;
    memset(&mask->ct_label, 0, sizeof mask->ct_label);
    return 0;
}

/* ct() of a stage: returns 0, the zone and whether it has nat, or refuses
 * what software must do itself even for a connection the device has. */
static int
xlate_ct_attrs(const struct nlattr *ct, uint16_t *zonep, bool *natp,
               struct ds *reason)
{
    const struct nlattr *a;
    size_t left;

    *zonep = 0;
    *natp = false;
    NL_NESTED_FOR_EACH (a, left, ct) {
        switch (nl_attr_type(a)) {
        case OVS_CT_ATTR_ZONE:
            *zonep = nl_attr_get_u16(a);
            break;
        case OVS_CT_ATTR_COMMIT:
            /* A no-op for a connection that is already committed, and
             * only those are in the device. */
        case OVS_CT_ATTR_EVENTMASK:
            break;
        case OVS_CT_ATTR_FORCE_COMMIT:
            return CT_REFUSE(reason, "ct(force_commit) stays in software");
        case OVS_CT_ATTR_MARK:
            return CT_REFUSE(reason, "ct() setting ct_mark stays in "
                             "software");
        case OVS_CT_ATTR_LABELS:
            return CT_REFUSE(reason, "ct() setting ct_label stays in "
                             "software");
        case OVS_CT_ATTR_HELPER:
            return CT_REFUSE(reason, "ct(helper) stays in software");
        case OVS_CT_ATTR_NAT:
            /* A connection applies the NAT it was committed with; a range
             * here only matters to a new one, which is software's. */
            *natp = true;
            break;
        case OVS_CT_ATTR_TIMEOUT:
            return CT_REFUSE(reason, "ct(timeout) stays in software");
        default:
            return CT_REFUSE(reason, "ct() attribute %d not supported",
                             nl_attr_type(a));
        }
    }
    return 0;
}

int
hw_translate_ct_stage(const struct nlattr *actions, size_t actions_len,
                      const struct hw_translate_params *p,
                      struct hw_rule *rule, struct ds *reason)
{
    const struct nlattr *ct = NULL, *recirc = NULL;
    const struct nlattr *a;
    uint16_t zone;
    size_t left;
    bool nat;
    int error;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        int type = nl_attr_type(a);

        if (type == OVS_ACTION_ATTR_CT_CLEAR && !ct) {
            /* A packet fresh from the port has no conntrack state. */
        } else if (type == OVS_ACTION_ATTR_CT && !ct) {
            ct = a;
        } else if (type == OVS_ACTION_ATTR_RECIRC && ct && !recirc) {
            recirc = a;
        } else {
            return ENOENT;
        }
    }
    if (!ct || !recirc) {
        return ENOENT;
    }
    error = xlate_ct_attrs(ct, &zone, &nat, reason);
    if (error) {
        return error;
    }

    if (rule->tunnel != HW_TUNNEL_NONE) {
        /* A vport flow: its stage keeps the outer headers, so that the
         * post-conntrack rule still matches the tunnel and decapsulates;
         * the connection table matches the inner headers.  NAT would have
         * to rewrite those. */
        if (nat) {
            return CT_REFUSE(reason, "ct(nat) of tunnelled packets stays "
                             "in software");
        } else if (!(rule->inner.present & (HW_HDR_TCP | HW_HDR_UDP))) {
            /* Its ICMP connections cannot be in the device, and what the
             * tables miss would lose the mark a plain rule gives it. */
            return CT_REFUSE(reason, "ct() of tunnelled packets needs a "
                             "TCP or UDP match");
        }
        rule->reformat = HW_REFORMAT_NONE;
        rule->reformat_len = 0;
        memset(rule->reformat_data, 0, sizeof rule->reformat_data);
    }
    rule->ct_stage = true;
    rule->ct_zone = zone;
    rule->ct_recirc = nl_attr_get_u32(recirc);
    rule->ct_nat = nat;
    rule->pipeline = true;
    rule->rewrite.set_regs |= ((1u << HW_REG_RECIRC) | (1u << HW_REG_CT)
                               | (1u << HW_REG_STAGE));
    rule->rewrite.regs[HW_REG_RECIRC] = rule->ct_recirc;
    rule->rewrite.regs[HW_REG_CT] = zone | (nat ? HW_CT_REG_NAT : 0);
    rule->rewrite.regs[HW_REG_STAGE] = p->flow_mark;
    /* A tunnel stage's misses reach software still encapsulated, so
     * untagged: software pops them again. */
    rule->has_tag = rule->tunnel == HW_TUNNEL_NONE;
    rule->tag = p->flow_mark;
    rule->count = true;
    rule->fate = HW_FATE_TABLE;
    rule->fate_level = HW_LEVEL_CT;
    rule->full = false;
    return 0;
}

int
hw_translate_ct_post_actions(const struct nlattr *actions,
                             size_t actions_len, struct ds *reason)
{
    const struct nlattr *a;
    bool after_ct = false;
    size_t left;

    /* Software runs these actions with the metadata of a packet fresh
     * from the port: no recirc_id, no conntrack state.  Only actions that
     * do not read them may run so, and a recirc() only after a ct() that
     * computes the state again. */
    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        int type = nl_attr_type(a);

        switch (type) {
        case OVS_ACTION_ATTR_OUTPUT:
        case OVS_ACTION_ATTR_TUNNEL_PUSH:
        case OVS_ACTION_ATTR_PUSH_VLAN:
        case OVS_ACTION_ATTR_POP_VLAN:
        case OVS_ACTION_ATTR_SET:
        case OVS_ACTION_ATTR_SET_MASKED:
        case OVS_ACTION_ATTR_PUSH_ETH:
        case OVS_ACTION_ATTR_POP_ETH:
        case OVS_ACTION_ATTR_METER:
        case OVS_ACTION_ATTR_TRUNC:
        case OVS_ACTION_ATTR_HASH:
            break;
        case OVS_ACTION_ATTR_CT:
            after_ct = true;
            break;
        case OVS_ACTION_ATTR_CT_CLEAR:
            after_ct = false;
            break;
        case OVS_ACTION_ATTR_RECIRC:
            if (after_ct) {
                break;
            }
            /* Fall through. */
        default:
            return CT_REFUSE(reason, "%s in a flow after conntrack needs "
                             "the state the device keeps",
                             hw_translate_action_name(type));
        }
    }
    return 0;
}

/* The rewrite of a connection's packets to 'n', the tuple they leave the
 * connection table with ('k->nat_tuple'). */
static int
xlate_ct_nat(const struct hw_ct_conn_key *k, bool icmp, struct hw_rule *rule,
             struct ds *reason)
{
    const struct ct_dpif_tuple *t = &k->tuple;
    const struct ct_dpif_tuple *n = &k->nat_tuple;
    struct hw_rewrite *rw = &rule->rewrite;

    if (t->l3_type == AF_INET) {
        if (n->src.ip != t->src.ip) {
            rw->set |= 1u << HW_SET_IPV4_SRC;
            rw->ipv4_src = n->src.ip;
        }
        if (n->dst.ip != t->dst.ip) {
            rw->set |= 1u << HW_SET_IPV4_DST;
            rw->ipv4_dst = n->dst.ip;
        }
    } else {
        if (!ipv6_addr_equals(&n->src.in6, &t->src.in6)) {
            rw->set |= 1u << HW_SET_IPV6_SRC;
            rw->ipv6_src = n->src.in6;
        }
        if (!ipv6_addr_equals(&n->dst.in6, &t->dst.in6)) {
            rw->set |= 1u << HW_SET_IPV6_DST;
            rw->ipv6_dst = n->dst.in6;
        }
    }

    if (icmp) {
        /* Conntrack translates an echo's addresses, never its
         * identifier. */
        if (n->icmp_id != t->icmp_id) {
            return CT_REFUSE(reason, "NAT of an ICMP identifier stays in "
                             "software");
        }
        if (t->ip_proto == IPPROTO_ICMPV6 && rw->set) {
            /* Its checksum covers the addresses; the device updates the
             * IPv4, TCP and UDP checksums only. */
            return CT_REFUSE(reason, "NAT of ICMPv6 stays in software: "
                             "the device does not update its checksum");
        }
        return 0;
    }
    rw->l4_tcp = t->ip_proto == IPPROTO_TCP;
    if (n->src_port != t->src_port) {
        rw->set |= 1u << HW_SET_L4_SRC;
        rw->l4_src = n->src_port;
    }
    if (n->dst_port != t->dst_port) {
        rw->set |= 1u << HW_SET_L4_DST;
        rw->l4_dst = n->dst_port;
    }
    return 0;
}

int
hw_translate_ct_conn(const struct hw_ct_conn_key *k, struct hw_rule *rule,
                     struct ds *reason)
{
    const struct ct_dpif_tuple *t = &k->tuple;
    struct hw_headers *h = (k->tunnel == HW_TUNNEL_NONE
                            ? &rule->outer : &rule->inner);

    bool icmp = (t->ip_proto == IPPROTO_ICMP
                 || t->ip_proto == IPPROTO_ICMPV6);

    memset(rule, 0, sizeof *rule);
    if (k->tunnel != HW_TUNNEL_NONE) {
        /* The matcher has one set of ICMP fields, the outer headers'
         * (hw-encode-dr.c), and modify header rewrites those. */
        if (icmp) {
            return CT_REFUSE(reason, "ICMP behind a tunnel stays in "
                             "software: the device matches the outer ICMP "
                             "header only");
        } else if (k->nat) {
            return CT_REFUSE(reason, "NAT of tunnelled packets stays in "
                             "software");
        }
        rule->tunnel = k->tunnel;
    }
    if (t->ip_proto != IPPROTO_TCP && t->ip_proto != IPPROTO_UDP && !icmp) {
        return CT_REFUSE(reason, "non-TCP, non-UDP, non-ICMP connections "
                         "stay in software");
    }
    if (icmp && (t->ip_proto == IPPROTO_ICMP) != (t->l3_type == AF_INET)) {
        return CT_REFUSE(reason, "ICMP protocol %"PRIu8" over address "
                         "family %"PRIu16, t->ip_proto, t->l3_type);
    }

    h->present = HW_HDR_ETH;
    if (t->l3_type == AF_INET) {
        h->present |= HW_HDR_IPV4;
        h->eth.type = htons(ETH_TYPE_IP);
        h->ipv4.src = t->src.ip;
        h->ipv4.dst = t->dst.ip;
        h->ipv4_mask.src = OVS_BE32_MAX;
        h->ipv4_mask.dst = OVS_BE32_MAX;
    } else if (t->l3_type == AF_INET6) {
        h->present |= HW_HDR_IPV6;
        h->eth.type = htons(ETH_TYPE_IPV6);
        h->ipv6.src = t->src.in6;
        h->ipv6.dst = t->dst.in6;
        h->ipv6_mask.src = in6addr_exact;
        h->ipv6_mask.dst = in6addr_exact;
    } else {
        return CT_REFUSE(reason, "address family %"PRIu16" not supported",
                         t->l3_type);
    }
    h->eth_mask.type = OVS_BE16_MAX;

    if (icmp) {
        /* An echo: its type and code, and the identifier, the first half
         * of the header's second word.  The ICMP fields imply the IP
         * protocol. */
        h->ext.icmp_type = t->icmp_type;
        h->ext.icmp_code = t->icmp_code;
        h->ext.icmp_data = htonl((uint32_t) ntohs(t->icmp_id) << 16);
        h->ext_mask.icmp_type = UINT8_MAX;
        h->ext_mask.icmp_code = UINT8_MAX;
        h->ext_mask.icmp_data = htonl(0xffff0000);
        goto regs;
    }

    /* The L4 header sets the IP protocol: the IP header must not
     * (hw-rule.h, as verbs' set_proto). */
    h->present |= t->ip_proto == IPPROTO_TCP ? HW_HDR_TCP : HW_HDR_UDP;
    h->l4.src = t->src_port;
    h->l4.dst = t->dst_port;
    h->l4_mask.src = OVS_BE16_MAX;
    h->l4_mask.dst = OVS_BE16_MAX;
    if (t->ip_proto == IPPROTO_TCP) {
        /* Software must see the packets that open or close a connection,
         * to track its state. */
        h->ext_mask.tcp_flags = htons(TCP_SYN | TCP_FIN | TCP_RST);
    }

regs:
    if (k->nat) {
        int error;

        if (k->stages != HW_CT_STAGES_NAT) {
            return CT_REFUSE(reason, "NAT needs the rule of the stages "
                             "with nat");
        }
        if (t->l3_type != k->nat_tuple.l3_type
            || t->ip_proto != k->nat_tuple.ip_proto) {
            return CT_REFUSE(reason, "NAT to a tuple of another protocol");
        }
        error = xlate_ct_nat(k, icmp, rule, reason);
        if (error) {
            return error;
        }
    }

    /* The zone the stage wrote, and whether it has nat, then the state the
     * packet leaves with. */
    rule->reg_c[HW_REG_CT] = k->zone;
    rule->reg_c_mask[HW_REG_CT] = UINT16_MAX;
    if (k->stages != HW_CT_STAGES_ALL) {
        rule->reg_c[HW_REG_CT] |= (k->stages == HW_CT_STAGES_NAT
                                   ? HW_CT_REG_NAT : 0);
        rule->reg_c_mask[HW_REG_CT] |= HW_CT_REG_NAT;
    }
    rule->rewrite.set_regs = ((1u << HW_REG_CT) | (1u << HW_REG_CT_MARK)
                              | (1u << HW_REG_CT_LABEL));
    rule->rewrite.regs[HW_REG_CT] = (uint32_t) k->ct_state << 16 | k->zone;
    rule->rewrite.regs[HW_REG_CT_MARK] = k->mark;
    rule->rewrite.regs[HW_REG_CT_LABEL] = k->label;

    rule->count = true;
    rule->fate = HW_FATE_TABLE;
    rule->fate_level = HW_LEVEL_POST_CT;
    rule->full = true;
    rule->pipeline = true;
    return 0;
}

/* A miss of 'stage' in the table of 'level': packets of the stage that
 * the table does not take go to software. */
static void
xlate_ct_miss(const struct hw_rule *stage, uint32_t level,
              struct hw_rule *rule, uint32_t *levelp)
{
    memset(rule, 0, sizeof *rule);
    rule->reg_c[HW_REG_STAGE] = stage->tag;
    rule->reg_c_mask[HW_REG_STAGE] = UINT32_MAX;
    rule->count = true;
    rule->fate = HW_FATE_RSS;
    rule->pipeline = true;
    *levelp = level;
}

size_t
hw_translate_ct_misses(const struct hw_rule *stage,
                       struct hw_rule misses[HW_MAX_CT_MISSES],
                       uint32_t levels[HW_MAX_CT_MISSES])
{
    static const uint8_t nat_states[] = { CS_SRC_NAT, CS_DST_NAT };
    size_t n = 0;

    /* As they arrived: software runs the stage again. */
    xlate_ct_miss(stage, HW_LEVEL_CT, &misses[n++], &levels[0]);
    xlate_ct_miss(stage, HW_LEVEL_POST_CT, &misses[n++], &levels[1]);
    if (!stage->ct_nat) {
        return n;
    }

    /* After the connection table translated them, the packets the
     * post-conntrack table misses go to software with the restore tag,
     * the others as they arrived. */
    misses[1].reg_c_mask[HW_REG_CT] = (uint32_t) (CS_SRC_NAT | CS_DST_NAT)
                                      << 16;
    for (size_t i = 0; i < ARRAY_SIZE(nat_states); i++) {
        struct hw_rule *miss = &misses[n];

        xlate_ct_miss(stage, HW_LEVEL_POST_CT, miss, &levels[n]);
        miss->reg_c[HW_REG_CT] = (uint32_t) nat_states[i] << 16;
        miss->reg_c_mask[HW_REG_CT] = (uint32_t) nat_states[i] << 16;
        miss->has_tag = true;
        miss->tag = stage->tag | HW_TAG_CT_RESTORE;
        n++;
    }
    return n;
}
