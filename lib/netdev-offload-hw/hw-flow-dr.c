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
#include "hw-flow-dr.h"

#include <errno.h>
#include <string.h>

#include "hw-dev.h"
#include "hw-encode-dr.h"
#include "hw-pipeline.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

/* The value of field 'f' of 'rw', in network byte order. */
static const void *
hw_flow_dr_set_value(const struct hw_rewrite *rw, enum hw_set_field f)
{
    switch (f) {
    case HW_SET_ETH_SRC: return &rw->eth_src;
    case HW_SET_ETH_DST: return &rw->eth_dst;
    case HW_SET_IPV4_SRC: return &rw->ipv4_src;
    case HW_SET_IPV4_DST: return &rw->ipv4_dst;
    case HW_SET_IPV6_SRC: return &rw->ipv6_src;
    case HW_SET_IPV6_DST: return &rw->ipv6_dst;
    case HW_SET_TTL: return &rw->ttl;
    case HW_SET_L4_SRC: return &rw->l4_src;
    case HW_SET_L4_DST: return &rw->l4_dst;
    case HW_SET_TOS: return &rw->tos;
    case HW_N_SET_FIELDS:
    default:
        OVS_NOT_REACHED();
    }
}

/* Appends the modify-header commands of 'rw' to 'cmds'. */
static void
hw_flow_dr_modify(const struct hw_rule *rule, struct ofpbuf *cmds)
{
    static const enum hw_set_field order[] = {
        HW_SET_ETH_SRC, HW_SET_ETH_DST, HW_SET_IPV4_SRC, HW_SET_IPV4_DST,
        HW_SET_IPV6_SRC, HW_SET_IPV6_DST, HW_SET_TTL, HW_SET_TOS,
        HW_SET_L4_SRC, HW_SET_L4_DST,
    };
    BUILD_ASSERT_DECL(ARRAY_SIZE(order) == HW_N_SET_FIELDS);
    const struct hw_rewrite *rw = &rule->rewrite;
    bool ipv6 = rule->outer.present & HW_HDR_IPV6;

    for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
        enum hw_set_field f = order[i];

        if (rw->set & (1u << f)) {
            hw_dr_modify_set_bits(cmds, f, ipv6, rw->l4_tcp,
                                  hw_flow_dr_set_value(rw, f),
                                  rw->bits[f].ofs, rw->bits[f].n_bits);
        }
    }
    for (unsigned int reg = 0; reg < HW_N_REG_C; reg++) {
        if (rw->set_regs & (1u << reg)) {
            hw_dr_modify_set_reg_c(cmds, reg, rw->regs[reg]);
        }
    }
}

static bool
hw_reformat_is_decap(enum hw_reformat_type type)
{
    return type == HW_REFORMAT_L2_DECAP || type == HW_REFORMAT_L3_DECAP;
}

static enum mlx5dv_flow_action_packet_reformat_type
hw_flow_dr_reformat_type(enum hw_reformat_type type)
{
    switch (type) {
    case HW_REFORMAT_L2_DECAP:
        return MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2;
    case HW_REFORMAT_L3_DECAP:
        return MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2;
    case HW_REFORMAT_L2_ENCAP:
        return MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL;
    case HW_REFORMAT_L3_ENCAP:
        return MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL;
    case HW_REFORMAT_NONE:
    default:
        OVS_NOT_REACHED();
    }
}

static int hw_flow_dr_install__(struct hw_pipeline *,
                                const struct netdev_hw_device *,
                                uint32_t level, uint16_t priority,
                                struct ibv_qp *dest,
                                struct hw_pipe_action *meter,
                                const struct hw_rule *, struct hw_flow_dr *,
                                struct hw_flow_dr_compact *,
                                struct ds *reason);

/* Gives back what 'flow' holds but its rule, in reverse order.  Returns 0,
 * or the errno of a counter the device refused to destroy, which 'flow'
 * then keeps (it counts nothing any more, but stays the device's until a
 * later call destroys it). */
static int
hw_flow_dr_release(struct hw_pipeline *p, const struct netdev_hw_device *dev,
                   struct hw_flow_dr *flow)
{
    int error = 0;

    while (flow->n_actions) {
        hw_pipeline_action_unref(p, flow->actions[--flow->n_actions]);
    }
    /* After the DEST_ARRAY that holds them. */
    while (flow->n_dests) {
        hw_pipeline_action_unref(p, flow->dests[--flow->n_dests]);
    }
    if (flow->counter) {
        error = dev->ops->dr_counter_destroy(flow->counter);
        if (!error) {
            flow->counter = NULL;
        }
    }
    if (flow->matcher) {
        hw_pipeline_matcher_unref(p, flow->matcher);
        flow->matcher = NULL;
    }
    if (flow->geneve_opt) {
        hw_pipeline_geneve_opt_unref(p);
        flow->geneve_opt = false;
    }
    return error;
}

/* Takes a reference to the action 'attr' for 'flow'. */
static int
hw_flow_dr_add_action(struct hw_pipeline *p, enum mlx5dv_dr_domain_type dom,
                      const struct hw_dr_action_attr *attr,
                      struct hw_flow_dr *flow)
{
    struct hw_pipe_action *action;
    int error;

    ovs_assert(flow->n_actions < HW_FLOW_DR_MAX_ACTIONS);
    error = hw_pipeline_action_ref(p, dom, attr, &action);
    if (!error) {
        flow->actions[flow->n_actions++] = action;
    }
    return error;
}

/* The destinations of a DEST_ARRAY, for as long as its attribute is
 * used. */
struct hw_flow_dr_dests {
    struct mlx5dv_dr_action_dest_attr attrs[HW_MAX_OUTPUTS];
    struct mlx5dv_dr_action_dest_attr *ptrs[HW_MAX_OUTPUTS];
};

/* The fate of 'rule' (HW_FATE_VPORT) into 'attr': DEST_VPORT to its one
 * vport, or a DEST_ARRAY of a DEST_VPORT to each (a mirror), which 'flow'
 * holds, with its destinations in 'd'. */
static int
hw_flow_dr_vports(struct hw_pipeline *p, enum mlx5dv_dr_domain_type dom,
                  const struct hw_rule *rule, struct hw_flow_dr *flow,
                  struct hw_flow_dr_dests *d, struct hw_dr_action_attr *attr)
{
    BUILD_ASSERT_DECL(HW_MAX_OUTPUTS <= HW_FLOW_DR_MAX_ACTIONS);
    if (rule->n_out == 1) {
        *attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_DEST_VPORT, .vport = rule->fate_vports[0],
        };
        return 0;
    }
    for (size_t i = 0; i < rule->n_out; i++) {
        struct hw_dr_action_attr vport = {
            .type = HW_DR_ACTION_DEST_VPORT, .vport = rule->fate_vports[i],
        };
        struct hw_pipe_action *action;
        int error = hw_pipeline_action_ref(p, dom, &vport, &action);

        if (error) {
            return error;
        }
        flow->dests[flow->n_dests++] = action;
        d->attrs[i] = (struct mlx5dv_dr_action_dest_attr) {
            .type = MLX5DV_DR_ACTION_DEST,
            .dest = hw_pipe_action_dr(action),
        };
        d->ptrs[i] = &d->attrs[i];
    }
    *attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_DEST_ARRAY,
        .array = { .n = rule->n_out, .dests = d->ptrs },
    };
    return 0;
}

int
hw_flow_dr_install(struct hw_pipeline *p, const struct netdev_hw_device *dev,
                   uint32_t level, struct ibv_qp *dest,
                   const struct hw_rule *rule, struct hw_flow_dr *flow,
                   struct ds *reason)
{
    return hw_flow_dr_install_at(p, dev, level, hw_rule_priority(rule), dest,
                                 rule, flow, reason);
}

int
hw_flow_dr_install_at(struct hw_pipeline *p,
                      const struct netdev_hw_device *dev, uint32_t level,
                      uint16_t priority, struct ibv_qp *dest,
                      const struct hw_rule *rule, struct hw_flow_dr *flow,
                      struct ds *reason)
{
    return hw_flow_dr_install__(p, dev, level, priority, dest, NULL, rule,
                                flow, NULL, reason);
}

int
hw_flow_dr_install_compact(struct hw_pipeline *p,
                           const struct netdev_hw_device *dev,
                           uint32_t level, struct ibv_qp *dest,
                           const struct hw_rule *rule,
                           struct hw_flow_dr *flow,
                           struct hw_flow_dr_compact *c, struct ds *reason)
{
    return hw_flow_dr_install__(p, dev, level, hw_rule_priority(rule), dest,
                                NULL, rule, flow, c, reason);
}

int
hw_flow_dr_install_meter(struct hw_pipeline *p,
                         const struct netdev_hw_device *dev, uint32_t level,
                         struct hw_pipe_action *meter,
                         const struct hw_rule *rule, struct hw_flow_dr *flow,
                         struct ds *reason)
{
    return hw_flow_dr_install__(p, dev, level, hw_rule_priority(rule), NULL,
                                meter, rule, flow, NULL, reason);
}

/* Whether a rule made from 'rule' fits struct hw_flow_dr_compact: at most
 * one shared action before its tag and counter, and one fate after. */
static bool
hw_flow_dr_fits_compact(const struct hw_rule *rule)
{
    const struct hw_rewrite *rw = &rule->rewrite;
    int n_before = ((rule->reformat != HW_REFORMAT_NONE) + rw->pop_vlan
                    + (rw->set || rw->set_regs) + rw->push_vlan);

    return (n_before <= 1 && !rule->geneve_opt.len
            && !(rule->fate == HW_FATE_VPORT && rule->n_out > 1));
}

static int
hw_flow_dr_install__(struct hw_pipeline *p,
                     const struct netdev_hw_device *dev, uint32_t level,
                     uint16_t priority, struct ibv_qp *dest,
                     struct hw_pipe_action *meter,
                     const struct hw_rule *rule, struct hw_flow_dr *flow,
                     struct hw_flow_dr_compact *c, struct ds *reason)
{
    enum mlx5dv_dr_domain_type dom = (rule->fdb
                                      ? MLX5DV_DR_DOMAIN_TYPE_FDB
                                      : rule->egress
                                      ? MLX5DV_DR_DOMAIN_TYPE_NIC_TX
                                      : MLX5DV_DR_DOMAIN_TYPE_NIC_RX);
    struct mlx5dv_dr_action *dr_actions[HW_FLOW_DR_MAX_ACTIONS];
    const struct hw_rewrite *rw = &rule->rewrite;
    struct mlx5dv_dr_action *own_tag = NULL, *own_counter = NULL;
    struct hw_flow_dr_dests dests;
    struct hw_dr_match mask, value;
    struct hw_dr_action_attr attr;
    size_t n_dr_actions = 0;
    const char *step;
    bool compact;
    int error, error2;

    memset(flow, 0, sizeof *flow);
    flow->level = level;
    if (c) {
        memset(c, 0, sizeof *c);
    }
    /* The rule's own tag and counter without wrappers, straight into the
     * compact form, when it fits. */
    compact = c && !meter && hw_flow_dr_fits_compact(rule);

    if (!rule->egress && !meter && rule->fate == HW_FATE_RSS && !dest) {
        ds_put_cstr(reason, "no destination QP: port not configured");
        return ENODEV;
    }
    error = hw_encode_dr_match(rule, !level, &mask, &value, reason);
    if (error) {
        return error;
    }

    if (rule->geneve_opt.len) {
        /* The option must be set before a matcher can sample it. */
        error = hw_pipeline_geneve_opt_ref(p, &rule->geneve_opt, reason);
        if (error) {
            return error;
        }
        flow->geneve_opt = true;
    }

    step = "dr_matcher_create";
    error = hw_pipeline_matcher_ref(p, dom, level, priority, mask.criteria,
                                    mask.buf, mask.match_sz, &flow->matcher);
    if (error) {
        goto error;
    }

    step = "dr_action_create";
    if (rule->reformat != HW_REFORMAT_NONE
        && hw_reformat_is_decap(rule->reformat)) {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_REFORMAT,
            .reformat = {
                .type = hw_flow_dr_reformat_type(rule->reformat),
                .size = rule->reformat_len,
                .data = rule->reformat_len ? rule->reformat_data : NULL,
            },
        };
        error = hw_flow_dr_add_action(p, dom, &attr, flow);
        if (error) {
            goto error;
        }
    }
    if (rw->pop_vlan) {
        attr = (struct hw_dr_action_attr) { .type = HW_DR_ACTION_POP_VLAN };
        error = hw_flow_dr_add_action(p, dom, &attr, flow);
        if (error) {
            goto error;
        }
    }
    if (rw->set || rw->set_regs) {
        uint64_t stub[HW_DR_MAX_MODIFY * 2];
        struct ofpbuf cmds;

        ofpbuf_use_stub(&cmds, stub, sizeof stub);
        hw_flow_dr_modify(rule, &cmds);
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_MODIFY_HEADER,
            .modify = { .size = cmds.size, .commands = cmds.data },
        };
        error = hw_flow_dr_add_action(p, dom, &attr, flow);
        ofpbuf_uninit(&cmds);
        if (error) {
            goto error;
        }
    }
    if (rw->push_vlan) {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_PUSH_VLAN,
            .vlan_hdr = htonl((uint32_t) ntohs(rw->push_tpid) << 16
                              | ntohs(rw->push_tci)),
        };
        error = hw_flow_dr_add_action(p, dom, &attr, flow);
        if (error) {
            goto error;
        }
    }
    if (rule->reformat != HW_REFORMAT_NONE
        && !hw_reformat_is_decap(rule->reformat)) {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_REFORMAT,
            .reformat = {
                .type = hw_flow_dr_reformat_type(rule->reformat),
                .size = rule->reformat_len,
                .data = rule->reformat_data,
            },
        };
        error = hw_flow_dr_add_action(p, dom, &attr, flow);
        if (error) {
            goto error;
        }
    }
    if (rule->has_tag) {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_TAG, .tag = rule->tag,
        };
        error = (compact
                 ? hw_pipeline_own_action_create(p, flow->matcher, &attr,
                                                 &own_tag)
                 : hw_flow_dr_add_action(p, dom, &attr, flow));
        if (error) {
            goto error;
        }
    }
    if (rule->count) {
        step = "dr_counter_create";
        error = dev->ops->dr_counter_create(dev->ctx, &flow->counter);
        if (error) {
            flow->counter = NULL;
            goto error;
        }
        step = "dr_action_create";
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_COUNTER,
            .counter = { .obj = flow->counter, .offset = 0 },
        };
        error = (compact
                 ? hw_pipeline_own_action_create(p, flow->matcher, &attr,
                                                 &own_counter)
                 : hw_flow_dr_add_action(p, dom, &attr, flow));
        if (error) {
            goto error;
        }
    }

    /* The fate.  An egress rule ends with the domain's default: the
     * packet goes on to the wire; so does a miss of the FDB, to its
     * manager. */
    if (meter) {
        /* The meter's action, which the caller holds: one more reference
         * for this rule, given back with its other actions. */
        ovs_assert(flow->n_actions < HW_FLOW_DR_MAX_ACTIONS);
        hw_pipeline_action_hold(p, meter);
        flow->actions[flow->n_actions++] = meter;
        goto rule;
    }
    if (rule->egress || rule->fate == HW_FATE_MISS) {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_DEFAULT_MISS,
        };
    } else if (rule->fate == HW_FATE_DROP) {
        attr = (struct hw_dr_action_attr) { .type = HW_DR_ACTION_DROP };
    } else if (rule->fate == HW_FATE_VPORT) {
        error = hw_flow_dr_vports(p, dom, rule, flow, &dests, &attr);
        if (error) {
            goto error;
        }
    } else if (rule->fate == HW_FATE_TABLE) {
        step = "dr_table_create";
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_DEST_TABLE,
        };
        error = hw_pipeline_table(p, dom, rule->fate_level, &attr.table);
        if (error) {
            goto error;
        }
        step = "dr_action_create";
    } else {
        attr = (struct hw_dr_action_attr) {
            .type = HW_DR_ACTION_DEST_QP, .qp = dest,
        };
    }
    error = hw_flow_dr_add_action(p, dom, &attr, flow);
    if (error) {
        goto error;
    }

rule:
    /* In the order of the device: what comes before the tag and counter
     * (all but the fate, in the compact form), the tag, the counter, the
     * rest. */
    for (size_t i = 0; i < flow->n_actions; i++) {
        if (compact && i == flow->n_actions - 1) {
            if (own_tag) {
                dr_actions[n_dr_actions++] = own_tag;
            }
            if (own_counter) {
                dr_actions[n_dr_actions++] = own_counter;
            }
        }
        dr_actions[n_dr_actions++] = hw_pipe_action_dr(flow->actions[i]);
    }
    step = "dr_rule_create";
    error = dev->ops->dr_rule_create(hw_pipe_matcher_dr(flow->matcher),
                                     hw_dr_match_params(&value),
                                     n_dr_actions, dr_actions, &flow->rule);
    if (error) {
        flow->rule = NULL;
        goto error;
    }
    if (compact) {
        c->matcher = flow->matcher;
        c->before = flow->n_actions > 1 ? flow->actions[0] : NULL;
        c->fate = flow->actions[flow->n_actions - 1];
        c->tag_action = own_tag;
        c->counter_action = own_counter;
        c->counter = flow->counter;
        c->rule = flow->rule;
        memset(flow, 0, sizeof *flow);
    }
    return 0;

error:
    ds_put_format(reason, "%s: %s", step, ovs_strerror(error));
    /* Before the counter they count into. */
    hw_pipeline_own_action_destroy(p, HW_DR_ACTION_TAG, own_tag);
    hw_pipeline_own_action_destroy(p, HW_DR_ACTION_COUNTER, own_counter);
    error2 = hw_flow_dr_release(p, dev, flow);
    if (error2) {
        hw_stale_add_dr(p, dev, flow, "dr_counter_destroy", error2);
    }
    return error;
}

int
hw_flow_dr_uninstall(struct hw_pipeline *p,
                     const struct netdev_hw_device *dev,
                     struct hw_flow_dr *flow, const char **stepp)
{
    int error;

    if (flow->rule) {
        if (flow->counter
            && !dev->ops->dr_counter_query(flow->counter,
                                           &flow->final_packets,
                                           &flow->final_bytes)) {
            flow->final_valid = true;
        }
        error = dev->ops->dr_rule_destroy(flow->rule);
        if (error) {
            *stepp = "dr_rule_destroy";
            return error;
        }
        flow->rule = NULL;
    }
    error = hw_flow_dr_release(p, dev, flow);
    if (error) {
        *stepp = "dr_counter_destroy";
    }
    return error;
}

int
hw_flow_dr_read(const struct netdev_hw_device *dev,
                const struct hw_flow_dr *flow,
                uint64_t *packets, uint64_t *bytes)
{
    *packets = *bytes = 0;
    if (!flow->counter) {
        if (flow->final_valid) {
            *packets = flow->final_packets;
            *bytes = flow->final_bytes;
            return 0;
        }
        return EOPNOTSUPP;
    }
    return dev->ops->dr_counter_query(flow->counter, packets, bytes);
}

/* Appends the matcher 'm' of a rule in the table of 'level' and what the
 * rule 'rule' matches there to 's'. */
static void
hw_flow_dr_format_match(const struct hw_pipe_matcher *m, uint32_t level,
                        const struct hw_rule *rule, struct ds *s)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;

    hw_pipe_matcher_format(m, s);
    if (!hw_encode_dr_match(rule, !level, &mask, &value, &reason)) {
        ds_put_char(s, ' ');
        hw_dr_match_format(&mask, &value, s);
    }
    ds_destroy(&reason);
    ds_put_cstr(s, " actions");
}

/* Appends " ACTION" for the action 'a' of a rule made from 'rule': a tag
 * with its value, which is the rule's own. */
static void
hw_flow_dr_format_action(const struct hw_pipe_action *a,
                         const struct hw_rule *rule, struct ds *s)
{
    ds_put_char(s, ' ');
    if (hw_pipe_action_type(a) == HW_DR_ACTION_TAG) {
        ds_put_format(s, "tag(%"PRIu32")", rule->tag);
    } else {
        hw_pipe_action_format(a, s);
    }
}

void
hw_flow_dr_format(const struct hw_flow_dr *flow, const struct hw_rule *rule,
                  struct ds *s)
{
    if (!flow->matcher) {
        return;
    }
    hw_flow_dr_format_match(flow->matcher, flow->level, rule, s);
    for (size_t i = 0; i < flow->n_actions; i++) {
        hw_flow_dr_format_action(flow->actions[i], rule, s);
    }
}

void
hw_flow_dr_uncompact(struct hw_pipeline *p, struct hw_flow_dr_compact *c,
                     struct hw_flow_dr *flow)
{
    memset(flow, 0, sizeof *flow);
    flow->matcher = c->matcher;
    if (c->before) {
        flow->actions[flow->n_actions++] = c->before;
    }
    if (c->tag_action) {
        flow->actions[flow->n_actions++] = hw_pipeline_action_wrap(
            p, c->matcher, HW_DR_ACTION_TAG, c->tag_action);
    }
    if (c->counter_action) {
        flow->actions[flow->n_actions++] = hw_pipeline_action_wrap(
            p, c->matcher, HW_DR_ACTION_COUNTER, c->counter_action);
    }
    if (c->fate) {
        flow->actions[flow->n_actions++] = c->fate;
    }
    flow->counter = c->counter;
    flow->rule = c->rule;
    flow->level = c->matcher ? hw_pipe_matcher_level(c->matcher) : 0;
    memset(c, 0, sizeof *c);
}

/* Reads 'counter' of a rule kept in less memory, if it has one. */
static int
hw_flow_dr_counter_read(const struct netdev_hw_device *dev,
                        struct mlx5dv_devx_obj *counter,
                        uint64_t *packets, uint64_t *bytes)
{
    *packets = *bytes = 0;
    return (counter
            ? dev->ops->dr_counter_query(counter, packets, bytes)
            : EOPNOTSUPP);
}

int
hw_flow_dr_compact_read(const struct netdev_hw_device *dev,
                        const struct hw_flow_dr_compact *c,
                        uint64_t *packets, uint64_t *bytes)
{
    return hw_flow_dr_counter_read(dev, c->counter, packets, bytes);
}

void
hw_flow_dr_compact_format(const struct hw_flow_dr_compact *c,
                          const struct hw_rule *rule, struct ds *s)
{
    if (!c->matcher) {
        return;
    }
    hw_flow_dr_format_match(c->matcher, hw_pipe_matcher_level(c->matcher),
                            rule, s);
    if (c->before) {
        hw_flow_dr_format_action(c->before, rule, s);
    }
    if (c->tag_action) {
        ds_put_format(s, " tag(%"PRIu32")", rule->tag);
    }
    if (c->counter_action) {
        ds_put_cstr(s, " counter");
    }
    if (c->fate) {
        hw_flow_dr_format_action(c->fate, rule, s);
    }
}

bool
hw_flow_dr_shrink(struct hw_pipeline *p, struct hw_flow_dr *flow,
                  struct hw_flow_dr_small *small)
{
    struct hw_pipe_action *counter = NULL;
    size_t n_shared = 0;

    if (flow->n_dests || flow->geneve_opt || !flow->rule) {
        return false;
    }
    memset(small, 0, sizeof *small);
    for (size_t i = 0; i < flow->n_actions; i++) {
        struct hw_pipe_action *a = flow->actions[i];
        enum hw_dr_action_type type = hw_pipe_action_type(a);

        if (type == HW_DR_ACTION_COUNTER) {
            if (counter || !flow->counter) {
                return false;
            }
            counter = a;
        } else if (type == HW_DR_ACTION_TAG
                   || type == HW_DR_ACTION_FLOW_METER
                   || n_shared >= HW_FLOW_DR_SMALL_SHARED) {
            return false;
        } else {
            small->shared[n_shared++] = a;
        }
    }
    if (flow->counter && !counter) {
        return false;
    }
    small->matcher = flow->matcher;
    small->counter = flow->counter;
    small->counter_action = (counter ? hw_pipeline_action_unwrap(p, counter)
                             : NULL);
    small->rule = flow->rule;
    memset(flow, 0, sizeof *flow);
    return true;
}

void
hw_flow_dr_expand(struct hw_pipeline *p, struct hw_flow_dr_small *small,
                  uint32_t level, struct hw_flow_dr *flow)
{
    memset(flow, 0, sizeof *flow);
    flow->matcher = small->matcher;
    for (size_t i = 0; i < HW_FLOW_DR_SMALL_SHARED; i++) {
        if (small->shared[i]) {
            flow->actions[flow->n_actions++] = small->shared[i];
        }
    }
    if (small->counter_action) {
        flow->actions[flow->n_actions++] = hw_pipeline_action_wrap(
            p, small->matcher, HW_DR_ACTION_COUNTER, small->counter_action);
    }
    flow->counter = small->counter;
    flow->rule = small->rule;
    flow->level = level;
    memset(small, 0, sizeof *small);
}

int
hw_flow_dr_small_read(const struct netdev_hw_device *dev,
                      const struct hw_flow_dr_small *small,
                      uint64_t *packets, uint64_t *bytes)
{
    return hw_flow_dr_counter_read(dev, small->counter, packets, bytes);
}
