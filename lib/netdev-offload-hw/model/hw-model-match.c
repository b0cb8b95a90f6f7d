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

/* The match parameter of the steering engine: a packet's view of it (from
 * the parser's headers), a table's entries grouped by mask and indexed by
 * value, and the lookup of a packet through the tables by core priority,
 * which counts the hits.  Apart from the rules' creation, which only adds
 * and removes entries. */

#include <config.h>
#include "hw-model-flow-private.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "packets.h"

/* ---------------------------------------------------------------------- */
/* What a rule's mask needs, and a packet's view of the match.            */
/* ---------------------------------------------------------------------- */

#define FIELD_IS_ZERO(F) bytes_are_zero(&(F), sizeof (F))

/* The PRESENT_* bits a rule with 'mask' needs a packet to have. */
uint32_t
mask_needs(const struct fte_match *mask)
{
    const struct fte_hdrs *in = &mask->inner;
    const struct fte_misc *m = &mask->misc;
    uint32_t needs = 0;

    if (!FIELD_IS_ZERO(in->dmac) || !FIELD_IS_ZERO(in->smac)
        || !FIELD_IS_ZERO(in->ethertype) || !FIELD_IS_ZERO(in->first_vid)
        || in->first_cfi || in->first_prio || in->cvlan_tag) {
        needs |= PRESENT_TUNNEL | PRESENT_INNER_L2;
    }
    if (!FIELD_IS_ZERO(*in) || !FIELD_IS_ZERO(m->inner_ipv6_flow_label)) {
        needs |= PRESENT_TUNNEL;
    }
    if (!FIELD_IS_ZERO(m->vxlan_vni)) {
        needs |= PRESENT_TUNNEL | PRESENT_VXLAN;
    }
    if (!FIELD_IS_ZERO(m->gre_protocol) || !FIELD_IS_ZERO(m->gre_key)) {
        needs |= PRESENT_TUNNEL | PRESENT_GRE;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OUTER;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls_over_udp)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OVER_UDP;
    }
    if (!FIELD_IS_ZERO(m->outer_first_mpls_over_gre)) {
        needs |= PRESENT_MPLS << HW_MODEL_MPLS_OVER_GRE;
    }
    if (!FIELD_IS_ZERO(m->inner_first_mpls)) {
        needs |= PRESENT_TUNNEL | (PRESENT_MPLS << HW_MODEL_MPLS_INNER);
    }
    return needs;
}

/* Fills one layer of the match parameter (and its IPv6 flow label) from
 * what the parser found. */
static void
layer_to_match(const struct hw_model_layer *l, struct fte_hdrs *h,
               uint8_t flow_label[4])
{
    if (l->has_eth) {
        memcpy(h->dmac, l->dst.ea, 6);
        memcpy(h->smac, l->src.ea, 6);
    }
    memcpy(h->ethertype, &l->eth_type, 2);
    if (l->has_cvlan) {
        uint16_t tci = ntohs(l->vlan_tci);

        h->cvlan_tag = 1;
        put_be16(h->first_vid, tci & 0xfff);
        h->first_cfi = (tci >> 12) & 1;
        h->first_prio = tci >> 13;
    }

    h->ip_version = l->ip_version;
    if (l->ip_version == 4) {
        memcpy(&h->src_ip[12], &l->ipv4_src, 4);
        memcpy(&h->dst_ip[12], &l->ipv4_dst, 4);
    } else if (l->ip_version == 6) {
        memcpy(h->src_ip, &l->ipv6_src, 16);
        memcpy(h->dst_ip, &l->ipv6_dst, 16);
        put_be32(flow_label, ntohl(l->ipv6_label) & 0xfffff);
    }
    if (l->ip_version) {
        h->ip_protocol = l->ip_proto;
        h->ip_dscp = l->tos >> 2;
        h->ip_ecn = l->tos & 3;
    }
    if (l->has_l4 && l->ip_proto == IPPROTO_TCP) {
        h->l4_type = L4_TYPE_TCP;
        memcpy(h->tcp_sport, &l->l4_src, 2);
        memcpy(h->tcp_dport, &l->l4_dst, 2);
    } else if (l->has_l4 && l->ip_proto == IPPROTO_UDP) {
        h->l4_type = L4_TYPE_UDP;
        memcpy(h->udp_sport, &l->l4_src, 2);
        memcpy(h->udp_dport, &l->l4_dst, 2);
    }
}

/* The packet's view of the match parameter, and the PRESENT_* bits. */
static void
packet_to_match(const struct hw_model_parsed *p, struct fte_match *m,
                uint32_t *present)
{
    struct fte_misc *misc = &m->misc;
    struct hw_model_layer outer;

    memset(m, 0, sizeof *m);
    *present = 0;

    hw_model_parsed_outer(p, &outer);
    layer_to_match(&outer, &m->outer, misc->outer_ipv6_flow_label);

    for (int i = 0; i < HW_MODEL_N_MPLS_POS; i++) {
        static const size_t offsets[HW_MODEL_N_MPLS_POS] = {
            [HW_MODEL_MPLS_OUTER] = offsetof(struct fte_misc,
                                             outer_first_mpls),
            [HW_MODEL_MPLS_OVER_UDP] = offsetof(struct fte_misc,
                                                outer_first_mpls_over_udp),
            [HW_MODEL_MPLS_OVER_GRE] = offsetof(struct fte_misc,
                                                outer_first_mpls_over_gre),
            [HW_MODEL_MPLS_INNER] = offsetof(struct fte_misc,
                                             inner_first_mpls),
        };

        if (p->mpls & (1u << i)) {
            *present |= PRESENT_MPLS << i;
            memcpy((uint8_t *) misc + offsets[i], &p->mpls_lse[i], 4);
        }
    }

    if (p->tunnel == HW_MODEL_TUNNEL_NONE) {
        return;
    }
    *present |= PRESENT_TUNNEL;
    if (p->tunnel == HW_MODEL_TUNNEL_VXLAN) {
        *present |= PRESENT_VXLAN;
        put_be32(misc->vxlan_vni, ntohl(p->vxlan_vni) & 0xffffff);
    } else if (p->tunnel == HW_MODEL_TUNNEL_GRE) {
        *present |= PRESENT_GRE;
        memcpy(misc->gre_protocol, &p->gre_protocol, 2);
        memcpy(misc->gre_key, &p->gre_key, 4);
    }
    if (p->inner.has_eth) {
        *present |= PRESENT_INNER_L2;
    }
    if (p->inner_type != HW_MODEL_INNER_NONE) {
        layer_to_match(&p->inner, &m->inner, misc->inner_ipv6_flow_label);
    }
}

/* ---------------------------------------------------------------------- */
/* Entries by mask and value.                                             */
/* ---------------------------------------------------------------------- */

static uint32_t
fte_value_hash(const struct fte_match *value)
{
    return hash_bytes(value, sizeof *value, 0);
}

static struct fte_mask_group *
table_find_mask(const struct model_table *t, const struct fte_match *mask)
{
    struct fte_mask_group *group;

    LIST_FOR_EACH (group, node, &t->masks) {
        if (!memcmp(&group->mask, mask, sizeof *mask)) {
            return group;
        }
    }
    return NULL;
}

/* The entry of 'group' whose value is 'value' (already masked), or NULL. */
static struct model_fte *
group_find_fte(const struct fte_mask_group *group,
               const struct fte_match *value, uint32_t hash)
{
    struct model_fte *fte;

    HMAP_FOR_EACH_WITH_HASH (fte, hmap_node, hash, &group->ftes) {
        if (!memcmp(&fte->value, value, sizeof *value)) {
            return fte;
        }
    }
    return NULL;
}

struct model_fte *
table_find_fte(const struct model_table *t, const struct fte_match *value,
               const struct fte_match *mask)
{
    struct fte_mask_group *group = table_find_mask(t, mask);

    return group ? group_find_fte(group, value, fte_value_hash(value)) : NULL;
}

/* Adds 'fte', with its value and mask set, to the lookup structure of its
 * table. */
void
table_index_fte(struct model_table *t, struct model_fte *fte)
{
    struct fte_mask_group *group = table_find_mask(t, &fte->mask);

    if (!group) {
        group = xmalloc(sizeof *group);
        group->mask = fte->mask;
        hmap_init(&group->ftes);
        ovs_list_push_back(&t->masks, &group->node);
    }
    fte->group = group;
    hmap_insert(&group->ftes, &fte->hmap_node, fte_value_hash(&fte->value));
}

void
table_unindex_fte(struct model_fte *fte)
{
    struct fte_mask_group *group = fte->group;

    hmap_remove(&group->ftes, &fte->hmap_node);
    if (hmap_is_empty(&group->ftes)) {
        ovs_list_remove(&group->node);
        hmap_destroy(&group->ftes);
        free(group);
    }
}

/* ---------------------------------------------------------------------- */
/* Lookup.                                                                */
/* ---------------------------------------------------------------------- */

static bool
fte_matches(const struct model_fte *fte, const struct fte_match *pkt,
            uint32_t present)
{
    const uint8_t *p = (const uint8_t *) pkt;
    const uint8_t *v = (const uint8_t *) &fte->value;
    const uint8_t *m = (const uint8_t *) &fte->mask;

    if (fte->needs & ~present) {
        return false;
    }
    for (size_t i = 0; i < sizeof *pkt; i++) {
        if ((p[i] & m[i]) != v[i]) {
            return false;
        }
    }
    return true;
}

/* The first entry of 't' that matches.  mlx5 gives no order between
 * overlapping entries of one priority (the man page calls it undefined);
 * the model picks the oldest (the lowest id: ids grow in creation order),
 * so that tests are deterministic.  Every entry of a mask group that
 * matches has the packet's masked bytes as its value, and values are
 * unique within a group, so one hash lookup per mask finds them all. */
static struct model_fte *
table_lookup(const struct model_table *t, const struct fte_match *pkt,
             uint32_t present)
{
    const uint8_t *p = (const uint8_t *) pkt;
    const struct fte_mask_group *group;
    struct model_fte *best = NULL;

    LIST_FOR_EACH (group, node, &t->masks) {
        const uint8_t *m = (const uint8_t *) &group->mask;
        struct fte_match masked;
        uint8_t *v = (uint8_t *) &masked;
        struct model_fte *fte;

        for (size_t i = 0; i < sizeof masked; i++) {
            v[i] = p[i] & m[i];
        }
        fte = group_find_fte(group, &masked, fte_value_hash(&masked));
        if (fte && (!best || fte->id < best->id)
            && fte_matches(fte, pkt, present)) {
            best = fte;
        }
    }
    return best;
}

static void
fte_hit(struct model_fte *fte, size_t len)
{
    struct fte_member *m;

    fte->packets++;
    fte->bytes += len;
    if (!fte->action.count) {
        return;
    }
    /* Each counters object among the members counts the packet once. */
    LIST_FOR_EACH (m, node, &fte->members) {
        struct model_counters *c = m->flow->counters;
        struct fte_member *prev;
        bool seen = false;

        if (!c || !m->flow->counts) {
            continue;
        }
        LIST_FOR_EACH (prev, node, &fte->members) {
            if (prev == m) {
                break;
            }
            if (prev->flow->counters == c && prev->flow->counts) {
                seen = true;
                break;
            }
        }
        if (!seen) {
            c->packets++;
            c->bytes += len;
        }
    }
}

static void
fill_verdict(const struct model_fte *fte, struct hw_model_verdict *v)
{
    const struct fte_member *first;

    first = CONTAINER_OF(ovs_list_front(&fte->members),
                         struct fte_member, node);
    v->matched = true;
    v->drop = fte->action.drop;
    v->tag = fte->action.has_tag ? fte->action.tag : 0;
    /* With several QPs on one entry, the hardware replicates the packet;
     * the verdict names the first (oldest) destination. */
    v->qp = fte->action.drop ? NULL : first->flow->qp;
    v->reformat = CONST_CAST(struct ibv_flow_action *, fte->action.reformat);
}

/* Looks 'parsed' up in the rules of the first 'n_prios' core priorities,
 * then, if 'all', in the sniffer and leftover rules too. */
static void
steering_lookup(struct hw_model_steering *st,
                const struct hw_model_parsed *parsed, size_t len,
                bool egress, size_t n_prios, bool all,
                struct hw_model_verdict *verdict)
{
    struct model_table *tables = egress ? st->egress : st->ingress;
    struct model_fte *dont_trap = NULL;
    uint32_t present;
    struct fte_match pkt;
    struct model_fte *fte;

    memset(verdict, 0, sizeof *verdict);
    packet_to_match(parsed, &pkt, &present);

    /* A sniffer gets a copy and changes nothing else. */
    if (all) {
        fte = table_lookup(&st->sniffer[egress], &pkt, present);
        if (fte) {
            fte_hit(fte, len);
        }
    }

    for (size_t i = 0; i < n_prios; i++) {
        fte = table_lookup(&tables[i], &pkt, present);
        if (!fte) {
            continue;
        }
        fte_hit(fte, len);
        if (fte->action.fwd_next_prio) {
            /* DONT_TRAP: its QP gets the packet and so does whatever
             * matches next; the verdict reports the trapping rule. */
            if (!dont_trap) {
                dont_trap = fte;
            }
            continue;
        }
        fill_verdict(fte, verdict);
        return;
    }

    if (!egress && all) {
        fte = table_lookup(&st->leftovers, &pkt, present);
        if (fte) {
            fte_hit(fte, len);
            fill_verdict(fte, verdict);
            return;
        }
    }
    if (dont_trap) {
        fill_verdict(dont_trap, verdict);
    }
}

void
hw_model_steering_lookup(struct hw_model_steering *st,
                         const struct hw_model_parsed *parsed, size_t len,
                         bool egress, struct hw_model_verdict *verdict)
{
    steering_lookup(st, parsed, len, egress, st->n_prios, true, verdict);
}

void
hw_model_steering_lookup_upto(struct hw_model_steering *st,
                              const struct hw_model_parsed *parsed,
                              size_t len, bool egress, uint16_t max_priority,
                              struct hw_model_verdict *verdict)
{
    /* Priority p holds core priorities 2p and 2p + 1; the last one is for
     * multicast-only rules, below every priority. */
    size_t n_prios = MIN(2 * (size_t) max_priority + 2, st->n_prios - 1);

    steering_lookup(st, parsed, len, egress, n_prios, false, verdict);
}

void
hw_model_steering_lookup_default(struct hw_model_steering *st,
                                 const struct hw_model_parsed *parsed,
                                 size_t len, bool egress,
                                 struct hw_model_verdict *verdict)
{
    steering_lookup(st, parsed, len, egress, 0, true, verdict);
}
