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

/* The steering engine, on top of its parts (hw-model-flow-private.h): a
 * device's tables of verbs rules and the parser's VXLAN ports,
 * ibv_create_flow() from the walk over the specs to the entries the rule
 * joins, ibv_destroy_flow(), and the rules' text for hw-model/rules. */

#include <config.h>
#include "hw-model-flow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hw-hmap.h"
#include "hw-model-flow-private.h"
#include "hw-model-spec.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_flow);

/* How the model follows the real stack.
 *
 * ibv_create_flow() on mlx5 goes through three layers, and the model runs
 * their checks in the same order so that a rule with several faults fails
 * with the errno the first failing layer returns:
 *
 *   1. libmlx5 (mlx5_create_flow): at most one ACTION_COUNT spec; a counters
 *      object with no attached point cannot be bound.
 *   2. libibverbs (ib_spec_to_kern_spec): walks the specs from offset 20 by
 *      hdr.size, converts each to the kernel's fixed layout, and refuses
 *      unknown types (GRE, VXLAN and actions have no INNER variant) and
 *      short or over-long IPV4_EXT, IPV6 and VXLAN specs.  The walk is
 *      hw-model-spec.h's, the same as the device's lookup of the objects
 *      the specs name, and it comes first: a spec shorter than its struct
 *      is refused before anything reads it.
 *   3. The kernel: uverbs core (CAP_NET_RAW, flags, spec count, port, QP
 *      type, flow label and VNI range), then mlx5_ib (priority, table type,
 *      ethertype consistency, per-spec field support, ip_protocol
 *      conflicts, tag range), then mlx5 fs_core (value bits outside the
 *      mask, merge into or conflict with an identical entry, table size).
 *
 * The match of a rule is kept as mlx5 keeps it: a value and a mask
 * (criteria) over the fields of the device's match parameter.  Specs are
 * applied to it one after the other exactly as mlx5_ib does, so a later spec
 * overwrites what an earlier one set, and a packet matches when every byte
 * of its own view of those fields, ANDed with the mask, equals the value.
 *
 * The parser fills the packet's view.  Model assumptions (hw-apis.md 1.4
 * and 7), where the public sources say nothing:
 *
 *   - VXLAN is any UDP packet to one of the device's VXLAN ports (4789 and
 *     what hw_model_steering_add_vxlan_port() adds), whatever its flags;
 *     GRE is IP protocol 47 with a version 0 header.  The inner headers are
 *     parsed from the GRE protocol: 0x6558 an Ethernet frame, 0x0800 and
 *     0x86dd an IP packet.  Fragments are not parsed into.
 *   - A field of a header the packet lacks reads as 0, but a rule that
 *     masks a field of the inner Ethernet header, the VNI, the GRE fields,
 *     any inner field, or an MPLS entry needs the packet to have that
 *     header: an INNER spec never matches a packet that is not tunnelled,
 *     an inner Ethernet match never matches an L3 tunnel.  The GRE key of
 *     a packet without the K bit reads as 0 (verbs cannot match K). */

/* ---------------------------------------------------------------------- */
/* The engine: its tables and the parser's VXLAN ports.                   */
/* ---------------------------------------------------------------------- */

/* Entries per table when hw_model_limits.max_rules is 0: mlx5_ib's
 * MLX5_FS_MAX_ENTRIES (the device's log_max_ft_size may lower it). */
#define DEFAULT_MAX_RULES (1u << 16)

static void
table_init(struct model_table *t, const char *direction, const char *ns,
           int core_prio)
{
    ovs_list_init(&t->ftes);
    ovs_list_init(&t->masks);
    t->n_ftes = 0;
    t->direction = direction;
    t->ns = ns;
    t->core_prio = core_prio;
}

struct hw_model_steering *
hw_model_steering_create(const struct hw_model_limits *limits)
{
    struct hw_model_steering *st = xzalloc(sizeof *st);

    st->limits = *limits;
    hmap_init(&st->flows);
    st->next_fte_id = 1;
    st->next_handle = 1;

    st->n_prios = 2 * ((size_t) limits->max_priority + 1) + 1;
    st->ingress = xcalloc(st->n_prios, sizeof *st->ingress);
    st->egress = xcalloc(st->n_prios, sizeof *st->egress);
    for (size_t i = 0; i < st->n_prios; i++) {
        table_init(&st->ingress[i], "ingress", "bypass", i);
        table_init(&st->egress[i], "egress", "bypass", i);
    }
    table_init(&st->leftovers, "ingress", "leftovers", 0);
    table_init(&st->sniffer[0], "ingress", "sniffer", 0);
    table_init(&st->sniffer[1], "egress", "sniffer", 0);
    st->vxlan_ports[0] = HW_MODEL_VXLAN_PORT_IANA;
    st->n_vxlan_ports = 1;
    return st;
}

size_t
hw_model_steering_n_rules(const struct hw_model_steering *st)
{
    return hmap_count(&st->flows);
}

int
hw_model_steering_add_vxlan_port(struct hw_model_steering *st,
                                 uint16_t port)
{
    if (!port) {
        return EINVAL;
    }
    for (size_t i = 0; i < st->n_vxlan_ports; i++) {
        if (st->vxlan_ports[i] == port) {
            return EEXIST;
        }
    }
    if (st->n_vxlan_ports >= HW_MODEL_MAX_VXLAN_PORTS) {
        return ENOSPC;
    }
    st->vxlan_ports[st->n_vxlan_ports++] = port;
    return 0;
}

int
hw_model_steering_del_vxlan_port(struct hw_model_steering *st,
                                 uint16_t port)
{
    if (port == HW_MODEL_VXLAN_PORT_IANA) {
        return EPERM;
    }
    for (size_t i = 0; i < st->n_vxlan_ports; i++) {
        if (st->vxlan_ports[i] == port) {
            memmove(&st->vxlan_ports[i], &st->vxlan_ports[i + 1],
                    (st->n_vxlan_ports - i - 1) * sizeof *st->vxlan_ports);
            st->n_vxlan_ports--;
            return 0;
        }
    }
    return ENOENT;
}

size_t
hw_model_steering_get_vxlan_ports(const struct hw_model_steering *st,
                                  uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS])
{
    memcpy(ports, st->vxlan_ports, st->n_vxlan_ports * sizeof *ports);
    return st->n_vxlan_ports;
}

void
hw_model_steering_parse(const struct hw_model_steering *st,
                        const struct dp_packet *packet,
                        struct hw_model_parsed *p)
{
    hw_model_parse_ports(packet, st->vxlan_ports, st->n_vxlan_ports, p);
}

/* ---------------------------------------------------------------------- */
/* ibv_create_flow().                                                     */
/* ---------------------------------------------------------------------- */

/* An entry the new rule goes into: an existing one it merges with, or a
 * new one. */
struct rule_plan {
    struct model_table *table;
    struct fte_match value;
    struct fte_match mask;
    struct fte_action action;
    struct model_fte *existing;
};

/* mlx5 fs_core check_conflicting_ftes() for 'new' merging into 'old'. */
static int
check_conflicting_ftes(const struct fte_action *new,
                       const struct fte_action *old)
{
    bool new_count_only = new->count && !new->fwd && !new->drop
                          && !new->reformat;
    bool old_count_only = old->count && !old->fwd && !old->drop
                          && !old->reformat;

    if (new_count_only || old_count_only) {
        return 0;
    }
    if (new->drop != old->drop) {
        return reject(EEXIST, "an identical rule at this priority %s",
                      old->drop ? "drops" : "forwards");
    }
    if (!new->reformat != !old->reformat
        || (new->reformat && new->reformat != old->reformat)) {
        return reject(EEXIST, "an identical rule at this priority has "
                      "another action handle");
    }
    /* Only a rule that sets a tag can conflict on it: one without a tag
     * joins the entry and its packets carry the entry's tag. */
    if (new->has_tag && new->tag != (old->has_tag ? old->tag : 0)) {
        return reject(EEXIST, "an identical rule at this priority has flow "
                      "tag %"PRIu32, old->has_tag ? old->tag : 0);
    }
    return 0;
}

/* Checks that every plan fits (merge without conflict, or room for a new
 * entry). */
static int
check_plans(const struct hw_model_steering *st, struct rule_plan *plans,
            size_t n_plans)
{
    uint32_t max_rules = st->limits.max_rules ? st->limits.max_rules
                                              : DEFAULT_MAX_RULES;

    /* fs_core check_valid_spec(): value bits outside the mask. */
    for (size_t i = 0; i < n_plans; i++) {
        const uint8_t *v = (const uint8_t *) &plans[i].value;
        const uint8_t *m = (const uint8_t *) &plans[i].mask;

        for (size_t j = 0; j < sizeof plans[i].value; j++) {
            if (v[j] & ~m[j]) {
                return reject(EINVAL, "match value has bits outside the "
                              "mask");
            }
        }
    }

    for (size_t i = 0; i < n_plans; i++) {
        struct rule_plan *plan = &plans[i];
        size_t n_new = 0;

        plan->existing = table_find_fte(plan->table, &plan->value,
                                        &plan->mask);
        if (plan->existing) {
            int error = check_conflicting_ftes(&plan->action,
                                               &plan->existing->action);
            if (error) {
                return error;
            }
            continue;
        }
        /* Room for this and the other new entries in the same table. */
        for (size_t j = 0; j <= i; j++) {
            n_new += plans[j].table == plan->table && !plans[j].existing;
        }
        if (plan->table->n_ftes + n_new > max_rules) {
            return reject(ENOSPC, "%s %s table %d is full (%"PRIu32" "
                          "entries)", plan->table->direction,
                          plan->table->ns, plan->table->core_prio,
                          max_rules);
        }
    }
    return 0;
}

static void
fte_add_member(struct model_fte *fte, struct model_flow *flow)
{
    struct fte_member *m = &flow->members[flow->n_members++];

    m->fte = fte;
    m->flow = flow;
    ovs_list_push_back(&fte->members, &m->node);
}

static void
commit_plans(struct hw_model_steering *st, struct rule_plan *plans,
             size_t n_plans, struct model_flow *flow)
{
    for (size_t i = 0; i < n_plans; i++) {
        struct rule_plan *plan = &plans[i];
        struct model_fte *fte = plan->existing;

        if (fte) {
            /* fte->action.action |= flow_act->action; the entry keeps its
             * flow context (tag). */
            fte->action.fwd |= plan->action.fwd;
            fte->action.count |= plan->action.count;
            fte->action.fwd_next_prio |= plan->action.fwd_next_prio;
        } else {
            /* Plans for the same table may match each other's new entry. */
            fte = table_find_fte(plan->table, &plan->value, &plan->mask);
        }
        if (!fte) {
            fte = xzalloc(sizeof *fte);
            fte->table = plan->table;
            fte->id = st->next_fte_id++;
            fte->value = plan->value;
            fte->mask = plan->mask;
            fte->needs = mask_needs(&plan->mask);
            fte->action = plan->action;
            ovs_list_init(&fte->members);
            ovs_list_push_back(&plan->table->ftes, &fte->node);
            table_index_fte(plan->table, fte);
            plan->table->n_ftes++;
        }
        fte_add_member(fte, flow);
    }
}

/* Adds to 'plan' the match of one mlx5 leftovers rule: destination MAC
 * bit 0 (the group bit) equal to 'multicast'. */
static void
leftovers_plan(struct hw_model_steering *st, bool multicast,
               struct rule_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->table = &st->leftovers;
    plan->mask.outer.dmac[0] = 1;
    plan->value.outer.dmac[0] = multicast;
    plan->action.fwd = true;
}

/* hw_model_flow_create() with room for 'attr->num_of_specs' specs in
 * 'specs' and in 'ks'. */
static int
flow_create__(struct hw_model_steering *st, struct ibv_qp *qp,
              const struct ibv_flow_attr *attr, struct hw_model_spec *specs,
              struct kspec *ks, struct ibv_flow **flowp)
{
    const struct hw_model_limits *lim = &st->limits;
    struct model_counters *counters = NULL;
    struct hw_model_spec_iter iter;
    struct rule_plan plans[2];
    size_t n_specs, n_plans = 0;
    bool dont_trap, egress;
    struct model_flow *flow;
    int n_count = 0;
    int error;

    dont_trap = attr->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
    egress = attr->flags & IBV_FLOW_ATTR_FLAGS_EGRESS;

    /* attr->size and attr->comp_mask are not read: libibverbs 44 computes
     * the size itself and does not pass comp_mask to the kernel. */

    /* The specs, walked once: from here on each one is whole. */
    n_specs = 0;
    hw_model_spec_iter_init(&iter, hw_model_attr_specs(attr),
                            attr->num_of_specs);
    while (hw_model_spec_iter_next(&iter, &specs[n_specs])) {
        n_specs++;
    }
    if (iter.error) {
        return reject(iter.error, "%s", iter.reason);
    }

    /* 1. libmlx5: the counters object, before anything else. */
    for (size_t i = 0; i < n_specs; i++) {
        if (specs[i].type == IBV_FLOW_SPEC_ACTION_COUNT) {
            if (n_count++) {
                return reject(EINVAL, "more than one ACTION_COUNT spec");
            }
            counters = counters_find(hw_model_spec_object(&specs[i]));
            if (!counters) {
                return reject(EINVAL, "ACTION_COUNT names no counters "
                              "object");
            }
        }
    }
    if (counters && !counters->n_flows && !counters->n_points) {
        return reject(EINVAL, "counters object has no attached counter");
    }

    /* 2. libibverbs: every spec into the kernel's layout. */
    for (size_t i = 0; i < n_specs; i++) {
        error = spec_to_kspec(&specs[i], &ks[i]);
        if (error) {
            return error;
        }
    }

    /* 3a. uverbs core, ib_uverbs_ex_create_flow(). */
    if (!lim->cap_net_raw) {
        return reject(EPERM, "CAP_NET_RAW is needed");
    }
    if (attr->flags >= 1u << 3) {
        return reject(EINVAL, "unknown flags %#"PRIx32, attr->flags);
    }
    if (dont_trap && (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT
                      || attr->type == IBV_FLOW_ATTR_MC_DEFAULT)) {
        return reject(EINVAL, "DONT_TRAP on a %s rule",
                      attr_type_name(attr->type));
    }
    if (n_specs > lim->max_specs) {
        return reject(EINVAL, "%"PRIuSIZE" specs, at most %"PRIu16,
                      n_specs, lim->max_specs);
    }
    if (!attr->port || attr->port > lim->phys_port_cnt) {
        return reject(EINVAL, "port %"PRIu8" is not a port of the device",
                      attr->port);
    }
    if (!qp) {
        return reject(EINVAL, "no QP");
    }
    if (qp->qp_type != IBV_QPT_UD && qp->qp_type != IBV_QPT_RAW_PACKET) {
        return reject(EINVAL, "QP type %d is neither UD nor RAW_PACKET",
                      (int) qp->qp_type);
    }
    for (size_t i = 0; i < n_specs; i++) {
        const struct kspec *k = &ks[i];

        switch (k->type & ~IBV_FLOW_SPEC_INNER) {
        case IBV_FLOW_SPEC_IPV6:
            if (get_be32(&k->val[KF_IP6_LABEL]) >= 1u << 20
                || get_be32(&k->mask[KF_IP6_LABEL]) >= 1u << 20) {
                return reject(EINVAL, "ipv6 flow label exceeds 20 bits");
            }
            break;
        case IBV_FLOW_SPEC_VXLAN_TUNNEL:
            if (get_be32(&k->val[KF_TUN_ID]) >= 1u << 24
                || get_be32(&k->mask[KF_TUN_ID]) >= 1u << 24) {
                return reject(EINVAL, "vxlan vni exceeds 24 bits");
            }
            break;
        case IBV_FLOW_SPEC_ACTION_HANDLE:
            if (!k->action || k->action->context != qp->context) {
                return reject(EINVAL, "action handle is not an object of "
                              "this device");
            }
            break;
        case IBV_FLOW_SPEC_ACTION_COUNT:
            if (counters->ibv.context != qp->context) {
                return reject(EINVAL, "counters object belongs to another "
                              "device");
            }
            break;
        }
    }

    /* 3b. mlx5_ib_create_flow(). */
    if (attr->priority > lim->max_priority) {
        return reject(ENOMEM, "priority %"PRIu16" above %"PRIu16,
                      attr->priority, lim->max_priority);
    }
    if (attr->flags & ~(IBV_FLOW_ATTR_FLAGS_DONT_TRAP
                        | IBV_FLOW_ATTR_FLAGS_EGRESS)) {
        return reject(EINVAL, "flags %#"PRIx32" not supported",
                      attr->flags);
    }
    if (egress && (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT
                   || attr->type == IBV_FLOW_ATTR_MC_DEFAULT)) {
        return reject(EINVAL, "EGRESS on a %s rule",
                      attr_type_name(attr->type));
    }

    switch (attr->type) {
    case IBV_FLOW_ATTR_NORMAL: {
        struct rule_build b;
        uint32_t prev_type = 0;
        size_t core_prio;

        if (!ethertype_valid(ks, n_specs, false)
            || !ethertype_valid(ks, n_specs, true)) {
            return reject(EINVAL, "ethertype does not agree with the IP "
                          "spec");
        }
        memset(&b, 0, sizeof b);
        for (size_t i = 0; i < n_specs; i++) {
            error = parse_kspec(&ks[i], prev_type, &b);
            if (error) {
                return error;
            }
            prev_type = ks[i].type;
        }
        /* Model-conservative: the kernel lets a dropping rule carry a tag
         * or a reformat that can never apply; DPDK refuses it, so does the
         * model. */
        if (b.action.drop && (b.action.has_tag || b.action.reformat)) {
            return reject(EINVAL, "DROP together with %s",
                          b.action.has_tag ? "TAG" : "an action handle");
        }
        /* mlx5_ib_flow_counters_set_data(): the first flow hands the
         * kernel at most MAX_COUNTERS_NUM points. */
        if (counters && !counters->n_flows
            && counters->n_points > MAX_COUNTER_POINTS) {
            return reject(EINVAL, "%"PRIuSIZE" counter points, at most %d",
                          counters->n_points, MAX_COUNTER_POINTS);
        }
        b.action.fwd = !b.action.drop;
        b.action.fwd_next_prio = dont_trap && !b.action.drop;

        if (flow_is_multicast_only(ks, n_specs) && !dont_trap) {
            core_prio = st->n_prios - 1;
        } else {
            core_prio = 2 * (size_t) attr->priority + !dont_trap;
        }
        memset(&plans[0], 0, sizeof plans[0]);
        plans[0].table = (egress ? st->egress : st->ingress) + core_prio;
        plans[0].value = b.value;
        plans[0].mask = b.mask;
        plans[0].action = b.action;
        n_plans = 1;
        break;
    }

    case IBV_FLOW_ATTR_ALL_DEFAULT:
    case IBV_FLOW_ATTR_MC_DEFAULT:
        /* mlx5 installs its own "multicast" (and for ALL_DEFAULT also
         * "unicast") rule and ignores the caller's specs.  The kernel
         * refuses a flow tag on leftovers; the model keeps that rule for
         * any TAG spec. */
        for (size_t i = 0; i < n_specs; i++) {
            if (ks[i].type == IBV_FLOW_SPEC_ACTION_TAG) {
                return reject(EINVAL, "TAG on a %s rule",
                              attr_type_name(attr->type));
            }
        }
        leftovers_plan(st, true, &plans[n_plans++]);
        if (attr->type == IBV_FLOW_ATTR_ALL_DEFAULT) {
            leftovers_plan(st, false, &plans[n_plans++]);
        }
        break;

    case IBV_FLOW_ATTR_SNIFFER:
        if (!lim->sniffer) {
            return reject(EOPNOTSUPP, "sniffer rules need "
                          "allow_sniffer_and_nic_rx_shared_tir");
        }
        /* A copy of everything the port receives and sends; specs are
         * ignored. */
        for (size_t i = 0; i < 2; i++) {
            memset(&plans[i], 0, sizeof plans[i]);
            plans[i].table = &st->sniffer[i];
            plans[i].action.fwd = true;
        }
        n_plans = 2;
        break;

    default:
        return reject(EOPNOTSUPP, "unknown rule type %d", (int) attr->type);
    }

    /* 3c. fs_core. */
    error = check_plans(st, plans, n_plans);
    if (error) {
        return error;
    }

    /* Everything is checked: nothing below fails. */
    flow = xzalloc(sizeof *flow);
    flow->ibv.context = qp->context;
    flow->ibv.handle = st->next_handle++;
    flow->qp = qp;
    flow->type = attr->type;
    flow->priority = attr->priority;
    flow->flags = attr->flags;
    if (counters) {
        flow->counters = counters;
        flow->counts = attr->type == IBV_FLOW_ATTR_NORMAL;
        counters_bind(counters);
    }

    flow->specs = xmemdup(hw_model_attr_specs(attr),
                          hw_model_spec_iter_len(&iter));
    flow->n_specs = n_specs;

    commit_plans(st, plans, n_plans, flow);
    hmap_insert(&st->flows, &flow->node, hash_pointer(&flow->ibv, 0));
    *flowp = &flow->ibv;
    return 0;
}

int
hw_model_flow_create(struct hw_model_steering *st, struct ibv_qp *qp,
                     const struct ibv_flow_attr *attr,
                     struct ibv_flow **flowp)
{
    struct hw_model_spec *specs;
    struct kspec *ks;
    int error;

    *flowp = NULL;
    if (!attr) {
        return EINVAL;
    }
    /* libibverbs converts every spec before the kernel counts them, so up
     * to 255 may be needed. */
    specs = xmalloc(MAX(attr->num_of_specs, 1) * sizeof *specs);
    ks = xmalloc(MAX(attr->num_of_specs, 1) * sizeof *ks);
    error = flow_create__(st, qp, attr, specs, ks, flowp);
    free(ks);
    free(specs);
    return error;
}

/* ---------------------------------------------------------------------- */
/* ibv_destroy_flow().                                                    */
/* ---------------------------------------------------------------------- */

static struct model_flow *
flow_find(const struct hw_model_steering *st, const struct ibv_flow *ibv)
{
    struct model_flow *flow;

    HMAP_FOR_EACH_WITH_HASH (flow, node, hash_pointer(ibv, 0), &st->flows) {
        if (&flow->ibv == ibv) {
            return flow;
        }
    }
    return NULL;
}

static void
flow_free(struct hw_model_steering *st, struct model_flow *flow)
{
    for (size_t i = 0; i < flow->n_members; i++) {
        struct fte_member *m = &flow->members[i];
        struct model_fte *fte = m->fte;

        ovs_list_remove(&m->node);
        if (ovs_list_is_empty(&fte->members)) {
            ovs_list_remove(&fte->node);
            table_unindex_fte(fte);
            fte->table->n_ftes--;
            free(fte);
        } else {
            /* Deleting a rule's counter destination clears COUNT unless
             * another member still counts. */
            struct fte_member *other;

            fte->action.count = false;
            LIST_FOR_EACH (other, node, &fte->members) {
                fte->action.count |= other->flow->counts;
            }
        }
    }
    if (flow->counters) {
        counters_unbind(flow->counters);
    }
    hmap_remove(&st->flows, &flow->node);
    free(flow->specs);
    free(flow);
}

int
hw_model_flow_destroy(struct hw_model_steering *st, struct ibv_flow *ibv)
{
    struct model_flow *flow = ibv ? flow_find(st, ibv) : NULL;

    if (!flow) {
        return EINVAL;
    }
    flow_free(st, flow);
    hw_hmap_shrink_sparse(&st->flows);
    return 0;
}

void
hw_model_steering_destroy(struct hw_model_steering *st)
{
    struct model_flow *flow;

    if (!st) {
        return;
    }
    /* Flows the caller left behind are freed so that nothing leaks, but
     * that is the caller's bug. */
    if (!hmap_is_empty(&st->flows)) {
        VLOG_WARN("destroying steering with %"PRIuSIZE" flows left",
                  hmap_count(&st->flows));
    }
    HMAP_FOR_EACH_SAFE (flow, node, &st->flows) {
        flow_free(st, flow);
    }
    hmap_destroy(&st->flows);
    free(st->ingress);
    free(st->egress);
    free(st);
}

/* ---------------------------------------------------------------------- */
/* Formatting.                                                            */
/* ---------------------------------------------------------------------- */

/* Appends the specs and actions of 'flow', e.g. " eth(type=0x0800)
 * actions=tag(5)".  The specs were valid when the rule was created, so
 * they parse again. */
static void
format_flow_specs(const struct model_flow *flow, struct ds *s)
{
    bool any_match = false, any_action = false;
    struct hw_model_spec_iter iter;
    struct hw_model_spec spec;
    struct kspec *ks;
    size_t n = 0;

    ks = xmalloc(MAX(flow->n_specs, 1) * sizeof *ks);
    HW_MODEL_SPEC_FOR_EACH (&spec, &iter, flow->specs, flow->n_specs) {
        ovs_assert(!spec_to_kspec(&spec, &ks[n++]));
    }
    ovs_assert(!iter.error && n == flow->n_specs);
    for (size_t i = 0; i < flow->n_specs; i++) {
        if (!kspec_is_action(&ks[i])) {
            ds_put_char(s, ' ');
            format_kspec(&ks[i], s);
            any_match = true;
        }
    }
    if (!any_match) {
        ds_put_cstr(s, " any");
    }
    ds_put_cstr(s, " actions=");
    for (size_t i = 0; i < flow->n_specs; i++) {
        if (kspec_is_action(&ks[i])) {
            if (any_action) {
                ds_put_char(s, ',');
            }
            format_kspec(&ks[i], s);
            any_action = true;
        }
    }
    if (!any_action) {
        ds_put_cstr(s, "fwd");
    }
    free(ks);
}

static void
format_table(const struct model_table *t, size_t n_prios, struct ds *s)
{
    const struct model_fte *fte;

    LIST_FOR_EACH (fte, node, &t->ftes) {
        const struct fte_member *m;

        LIST_FOR_EACH (m, node, &fte->members) {
            const struct model_flow *flow = m->flow;

            ds_put_format(s, "%s %s prio=%"PRIu16" core=", t->direction,
                          attr_type_name(flow->type), flow->priority);
            if (!strcmp(t->ns, "bypass")) {
                if (t->core_prio == (int) n_prios - 1) {
                    ds_put_cstr(s, "mcast");
                } else {
                    ds_put_format(s, "%d", t->core_prio);
                }
            } else {
                ds_put_cstr(s, t->ns);
            }
            if (flow->flags & IBV_FLOW_ATTR_FLAGS_DONT_TRAP) {
                ds_put_cstr(s, " dont_trap");
            }
            ds_put_char(s, ':');
            format_flow_specs(flow, s);
            ds_put_format(s, " qp=%"PRIu32" entry=%u hits=%"PRIu64
                          " bytes=%"PRIu64"\n", flow->qp->qp_num,
                          fte->id, fte->packets, fte->bytes);
        }
    }
}

void
hw_model_steering_format(const struct hw_model_steering *st, struct ds *s)
{
    for (size_t i = 0; i < st->n_prios; i++) {
        format_table(&st->ingress[i], st->n_prios, s);
    }
    format_table(&st->leftovers, st->n_prios, s);
    for (size_t i = 0; i < st->n_prios; i++) {
        format_table(&st->egress[i], st->n_prios, s);
    }
    format_table(&st->sniffer[0], st->n_prios, s);
    format_table(&st->sniffer[1], st->n_prios, s);
}
