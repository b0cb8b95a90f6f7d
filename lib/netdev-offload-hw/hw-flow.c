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
#include "hw-flow.h"

#include <errno.h>
#include <string.h>

#include "hw-ct-restore.h"
#include "hw-dev.h"
#include "hw-encode.h"
#include "hw-flow-dr.h"
#include "hw-offload-meter.h"
#include "hw-pipeline.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "netdev-hw-base.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/util.h"
#include "util.h"

/* Counter points attached to every counters object, by index.  The order is
 * the one hw_flow_read() relies on. */
static const enum ibv_counter_description hw_flow_counter_points[] = {
    IBV_COUNTER_PACKETS,
    IBV_COUNTER_BYTES,
};

/* The mlx5dv packet reformat type and flow table of 'type': decaps act on
 * received packets (NIC_RX), encaps on sent ones (NIC_TX). */
static void
hw_flow_reformat_type(enum hw_reformat_type type,
                      enum mlx5dv_flow_action_packet_reformat_type *rtype,
                      enum mlx5dv_flow_table_type *ft_type)
{
    switch (type) {
    case HW_REFORMAT_L2_DECAP:
        *rtype = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2;
        *ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
        break;
    case HW_REFORMAT_L3_DECAP:
        *rtype = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2;
        *ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
        break;
    case HW_REFORMAT_L2_ENCAP:
        *rtype = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL;
        *ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
        break;
    case HW_REFORMAT_L3_ENCAP:
        *rtype = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL;
        *ft_type = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
        break;
    case HW_REFORMAT_NONE:
    default:
        OVS_NOT_REACHED();
    }
}

/* Keeps the rule just installed in 'flow': 'full', unless it went to
 * 'flow->compact' (hw_flow_dr_install_compact()). */
static void
hw_flow_keep_dr(struct hw_flow *flow, struct hw_flow_dr *full)
{
    if (!flow->compact.rule) {
        flow->dr = xmemdup(full, sizeof *full);
    }
}

/* The extra members of 'flow', allocated on first use. */
static struct hw_flow_extra *
hw_flow_extra(struct hw_flow *flow)
{
    if (!flow->extra) {
        flow->extra = xzalloc(sizeof *flow->extra);
    }
    return flow->extra;
}

/* Frees the extra members of 'flow', which must hold no object any more.
 * What the stage's misses sent back to software is taken off the final
 * counts first: the rule's counter counted those packets too. */
static void
hw_flow_extra_free(struct hw_flow *flow)
{
    struct hw_flow_extra *x = flow->extra;

    if (x) {
        ovs_assert(!x->root_jump && !x->ct_misses && !x->ct_restore
                   && !x->meter);
        flow->final_packets -= MIN(flow->final_packets, x->ct_miss_packets);
        flow->final_bytes -= MIN(flow->final_bytes, x->ct_miss_bytes);
        free(x);
        flow->extra = NULL;
    }
}

/* Destroys the stage misses of 'flow', keeping what they counted.  A miss
 * the device refuses to destroy is hw-stale's (it counts nothing for the
 * flow any more). */
static void
hw_flow_release_ct_misses(const struct netdev_hw_device *dev,
                          struct hw_flow *flow)
{
    struct hw_flow_extra *x = flow->extra;

    for (size_t i = 0; dev && i < x->n_ct_misses; i++) {
        struct hw_flow_dr *miss = &x->ct_misses[i];
        const char *step = NULL;
        int error;

        if (!miss->rule && !miss->matcher) {
            continue;
        }
        error = hw_flow_dr_uninstall(flow->pipeline, dev, miss, &step);
        if (miss->final_valid && i < HW_N_CT_PLAIN_MISSES) {
            x->ct_miss_packets += miss->final_packets;
            x->ct_miss_bytes += miss->final_bytes;
        }
        if (error) {
            hw_stale_add_dr(flow->pipeline, dev, miss, step, error);
        }
    }
    free(x->ct_misses);
    x->ct_misses = NULL;
    x->n_ct_misses = 0;
    /* After its restore misses: no packet gets its tag any more. */
    hw_ct_restore_stage_del(x->ct_restore);
    x->ct_restore = NULL;
}

/* The root rule that sends the packets of 'rule' to the flow table: the
 * same match, and only the jump (a root rule takes no reformat or rewrite
 * made for the flow table). */
static void
hw_flow_root_jump_rule(const struct hw_rule *rule, struct hw_rule *jump)
{
    memset(jump, 0, sizeof *jump);
    jump->outer = rule->outer;
    jump->tunnel = rule->tunnel;
    jump->tnl = rule->tnl;
    jump->tnl_mask = rule->tnl_mask;
    jump->geneve_opt = rule->geneve_opt;
    jump->inner = rule->inner;
    memcpy(jump->reg_c, rule->reg_c, sizeof jump->reg_c);
    memcpy(jump->reg_c_mask, rule->reg_c_mask, sizeof jump->reg_c_mask);
    jump->src_vport = rule->src_vport;
    jump->src_vport_mask = rule->src_vport_mask;
    jump->fate = HW_FATE_TABLE;
    jump->fate_level = NETDEV_HW_FLOW_LEVEL;
}

/* Destroys the root jump of 'flow' (first: no packet may jump to a rule
 * that is gone).  A jump the device refuses to destroy is hw-stale's: its
 * packets meet the flow table's miss rules. */
static void
hw_flow_release_root_jump(const struct netdev_hw_device *dev,
                          struct hw_flow *flow)
{
    struct hw_flow_dr *jump = flow->extra->root_jump;
    const char *step = NULL;
    int error;

    if (dev && (jump->rule || jump->matcher)) {
        error = hw_flow_dr_uninstall(flow->pipeline, dev, jump, &step);
        if (error) {
            hw_stale_add_dr(flow->pipeline, dev, jump, step, error);
        }
    }
    free(jump);
    flow->extra->root_jump = NULL;
}

/* hw_flow_destroy__() for a rule in the pipeline of tables. */
static int
hw_flow_destroy_dr(const struct netdev_hw_device *dev, struct hw_flow *flow,
                   const char **stepp)
{
    int error = 0;

    if (flow->extra && flow->extra->root_jump) {
        hw_flow_release_root_jump(dev, flow);
    }
    if (flow->extra && flow->extra->ct_misses) {
        /* Before the stage that sends packets to them goes. */
        hw_flow_release_ct_misses(dev, flow);
    }
    if (!flow->dr && dev) {
        /* The uninstall, and hw-stale if it fails, take the full form. */
        struct hw_flow_dr_compact c = flow->compact;

        memset(&flow->compact, 0, sizeof flow->compact);
        flow->dr = xmalloc(sizeof *flow->dr);
        hw_flow_dr_uncompact(flow->pipeline, &c, flow->dr);
    }
    if (dev) {
        error = hw_flow_dr_uninstall(flow->pipeline, dev, flow->dr, stepp);
        /* The counter was read before the destroy, failed or not. */
        flow->final_valid = flow->dr->final_valid;
        flow->final_packets = flow->dr->final_packets;
        flow->final_bytes = flow->dr->final_bytes;
        if (error) {
            return error;
        }
    }
    if (flow->extra) {
        /* After the rule that jumps to its meter. */
        hw_offload_meter_release(dev, flow->extra->meter);
        flow->extra->meter = NULL;
        hw_flow_extra_free(flow);
    }
    free(flow->dr);
    flow->dr = NULL;
    memset(&flow->compact, 0, sizeof flow->compact);
    flow->pipeline = NULL;
    return error;
}

/* Destroys what 'flow' holds, in reverse order of creation, as far as the
 * device lets it: an object the device refuses to destroy stays in 'flow',
 * and so do the actions and counters of a rule it refuses to destroy (the
 * rule still uses them).  Returns 0, or the first error with the call that
 * failed in '*stepp'.  Used both to undo a partial install and to
 * uninstall a complete one. */
static int
hw_flow_destroy__(const struct netdev_hw_device *dev, struct hw_flow *flow,
                  const char **stepp)
{
    int retval = 0;
    int error;

    if (flow->pipeline) {
        return hw_flow_destroy_dr(dev, flow, stepp);
    }
    if (!dev) {
        /* The device is closed, and its objects with it. */
        flow->flow = NULL;
        flow->counters = NULL;
        flow->reformat = NULL;
        return 0;
    }

    if (flow->flow && flow->counters) {
        uint64_t values[ARRAY_SIZE(hw_flow_counter_points)];

        /* Read while the rule still holds the counters: the device
         * refuses to read counters that no rule uses (EINVAL).  What
         * arrives between this read and the destroy is not counted. */
        memset(values, 0, sizeof values);
        if (!dev->ops->read_counters(flow->counters, values,
                                     ARRAY_SIZE(values))) {
            flow->final_packets = values[0];
            flow->final_bytes = values[1];
            flow->final_valid = true;
        }
    }
    if (flow->flow) {
        error = dev->ops->destroy_flow(flow->flow);
        if (error) {
            *stepp = "destroy_flow";
            return error;
        }
        flow->flow = NULL;
    }
    if (flow->reformat) {
        /* Only once no rule uses it: the device refuses to destroy an
         * action in use (EBUSY). */
        error = dev->ops->destroy_action(flow->reformat);
        if (!error) {
            flow->reformat = NULL;
        } else if (!retval) {
            retval = error;
            *stepp = "destroy_action";
        }
    }
    if (flow->counters) {
        error = dev->ops->destroy_counters(flow->counters);
        if (!error) {
            flow->counters = NULL;
        } else if (!retval) {
            retval = error;
            *stepp = "destroy_counters";
        }
    }
    return retval;
}

/* Encodes 'rule' with the handles of 'flow' into 'attr', a buffer of the
 * caller's (a stub: no allocation for a usual rule). */
static void
hw_flow_encode(const struct hw_flow *flow, const struct hw_rule *rule,
               struct ofpbuf *attr)
{
    struct hw_encode_handles handles = {
        .counters = flow->counters,
        .reformat = flow->reformat,
    };

    hw_encode_flow(rule, &handles, flow->port_num, attr);
}

/* The misses of the stage 'rule' (hw_translate_ct_misses()), made before
 * the stage, so that every packet it sends to the connection table is
 * counted where it leaves the device.  The misses of one table match
 * disjoint packets: they share a priority. */
static int
hw_flow_install_ct_misses(const struct netdev_hw_device *dev,
                          struct ibv_qp *dest, const struct hw_rule *rule,
                          struct hw_flow *flow, struct ds *reason)
{
    struct hw_flow_extra *x = hw_flow_extra(flow);
    struct hw_rule misses[HW_MAX_CT_MISSES];
    uint32_t levels[HW_MAX_CT_MISSES];
    size_t n;

    n = (rule->fdb ? hw_translate_eswitch_ct_misses(rule, misses, levels)
         : hw_translate_ct_misses(rule, misses, levels));
    if (rule->ct_nat) {
        /* Before any packet can get its restore tag. */
        x->ct_restore = hw_ct_restore_stage_add(rule->tag, rule->ct_recirc,
                                                rule->ct_zone);
    }
    x->ct_misses = xcalloc(n, sizeof *x->ct_misses);
    x->n_ct_misses = n;
    for (size_t i = 0; i < n; i++) {
        int error = hw_flow_dr_install_at(flow->pipeline, dev, levels[i],
                                          HW_PRIO_PIPELINE_JUMP, dest,
                                          &misses[i], &x->ct_misses[i],
                                          reason);
        if (error) {
            ds_put_cstr(reason, " (stage miss)");
            return error;
        }
    }
    return 0;
}

/* A rule of the port's table in the e-switch (hw-offload-eswitch.h). */
static int
hw_flow_install_fdb(const struct netdev_hw_device *dev,
                    const struct hw_rule *rule, struct hw_flow *flow,
                    struct ds *reason)
{
    uint32_t level = (rule->table == HW_TABLE_POST_CT
                      ? HW_LEVEL_POST_CT : NETDEV_HW_FLOW_LEVEL);
    struct hw_flow_dr full;
    int error;

    if (!dev->fdb_pipeline) {
        ds_put_cstr(reason, "no FDB table: port not in switchdev mode");
        return ENODEV;
    }
    flow->pipeline = dev->fdb_pipeline;
    if (rule->ct_stage) {
        error = hw_flow_install_ct_misses(dev, NULL, rule, flow, reason);
        if (error) {
            goto error;
        }
    }
    error = (rule->meter
             ? hw_offload_meter_install(dev, dev->fdb_pipeline, level, rule,
                                        &full, &hw_flow_extra(flow)->meter,
                                        reason)
             : hw_flow_dr_install_compact(dev->fdb_pipeline, dev, level,
                                          NULL, rule, &full, &flow->compact,
                                          reason));
    if (error) {
        goto error;
    }
    hw_flow_keep_dr(flow, &full);
    flow->counted = rule->count;
    return 0;

error:
    if (flow->extra && flow->extra->ct_misses) {
        hw_flow_release_ct_misses(dev, flow);
    }
    free(flow->extra);
    flow->extra = NULL;
    flow->pipeline = NULL;
    return error;
}

/* hw_flow_install() for a rule in the pipeline of tables. */
static int
hw_flow_install_dr(const struct netdev_hw_device *dev, struct ibv_qp *dest,
                   const struct hw_rule *rule, struct hw_flow *flow,
                   struct ds *reason)
{
    uint32_t level = (rule->table == HW_TABLE_POST_CT
                      ? HW_LEVEL_POST_CT : NETDEV_HW_FLOW_LEVEL);
    struct hw_flow_dr full;
    int error;

    flow->pipeline = dev->pipeline;
    if (rule->ct_stage) {
        error = hw_flow_install_ct_misses(dev, dest, rule, flow, reason);
        if (error) {
            goto error;
        }
    }
    error = hw_flow_dr_install_compact(dev->pipeline, dev, level, dest, rule,
                                       &full, &flow->compact, reason);
    if (error) {
        goto error;
    }
    hw_flow_keep_dr(flow, &full);
    flow->counted = rule->count;
    if (rule->root_jump) {
        /* After the rule, so that no packet jumps to a table without it. */
        struct hw_rule jump;

        struct hw_flow_extra *x = hw_flow_extra(flow);

        hw_flow_root_jump_rule(rule, &jump);
        x->root_jump = xzalloc(sizeof *x->root_jump);
        error = hw_flow_dr_install_at(dev->pipeline, dev, 0,
                                      hw_rule_priority(rule), NULL, &jump,
                                      x->root_jump, reason);
        if (error) {
            const char *step = NULL;
            int error2;

            ds_put_cstr(reason, " (root jump)");
            free(x->root_jump);
            x->root_jump = NULL;
            error2 = hw_flow_destroy_dr(dev, flow, &step);
            if (error2) {
                hw_stale_add_dr(dev->pipeline, dev, flow->dr, step, error2);
                free(flow->dr);
                flow->dr = NULL;
                hw_flow_extra_free(flow);
            }
            return error;
        }
    }
    return 0;

error:
    if (flow->extra && flow->extra->ct_misses) {
        hw_flow_release_ct_misses(dev, flow);
    }
    free(flow->extra);
    flow->extra = NULL;
    flow->pipeline = NULL;
    return error;
}

int
hw_flow_install(const struct netdev_hw_device *dev, struct ibv_qp *dest,
                const struct hw_rule *rule, struct hw_flow *flow,
                struct ds *reason)
{
    uint64_t attr_stub[1024 / 8];
    struct ofpbuf attr;
    const char *step;
    int error, error2;

    memset(flow, 0, sizeof *flow);
    flow->port_num = dev->port_num;
    flow->dest = dest;

    if (rule->fdb) {
        return hw_flow_install_fdb(dev, rule, flow, reason);
    }
    if (dev->pipeline && !rule->egress
        && (!dev->pipeline_on_demand || rule->pipeline)) {
        return hw_flow_install_dr(dev, dest, rule, flow, reason);
    }

    if (!dest) {
        ds_put_cstr(reason, "no destination QP: port not configured");
        return ENODEV;
    }

    if (rule->count) {
        step = "create_counters";
        error = dev->ops->create_counters(dev->ctx, &flow->counters);
        if (error) {
            flow->counters = NULL;
            goto error;
        }

        step = "attach_counters";
        for (size_t i = 0; i < ARRAY_SIZE(hw_flow_counter_points); i++) {
            struct ibv_counter_attach_attr attach = {
                .counter_desc = hw_flow_counter_points[i],
                .index = i,
                .comp_mask = 0,
            };

            error = dev->ops->attach_counters(flow->counters, &attach);
            if (error) {
                goto error;
            }
        }
        flow->counted = true;
    }

    if (rule->reformat != HW_REFORMAT_NONE) {
        enum mlx5dv_flow_action_packet_reformat_type rtype;
        enum mlx5dv_flow_table_type ft_type;
        uint8_t data[HW_REFORMAT_MAX_DATA];
        size_t len = MIN(rule->reformat_len, sizeof data);

        /* The backend takes a non-const buffer; give it a copy. */
        memcpy(data, rule->reformat_data, len);
        hw_flow_reformat_type(rule->reformat, &rtype, &ft_type);
        step = "create_reformat";
        error = dev->ops->create_reformat(dev->ctx, len, len ? data : NULL,
                                          rtype, ft_type, &flow->reformat);
        if (error) {
            flow->reformat = NULL;
            goto error;
        }
    }

    ofpbuf_use_stub(&attr, attr_stub, sizeof attr_stub);
    hw_flow_encode(flow, rule, &attr);
    step = "create_flow";
    error = dev->ops->create_flow(dest, attr.data, &flow->flow);
    ofpbuf_uninit(&attr);
    if (error) {
        flow->flow = NULL;
        goto error;
    }
    return 0;

error:
    ds_put_format(reason, "%s: %s", step, ovs_strerror(error));
    /* The rule was not created: what is left (counters or an action the
     * device refused to destroy) steers no packet, but stays the device's
     * until a retry destroys it. */
    error2 = hw_flow_destroy__(dev, flow, &step);
    if (error2) {
        hw_stale_add_flow(dev, flow, HW_STALE_NO_MARK, step, error2, NULL);
    }
    return error;
}

int
hw_flow_uninstall(const struct netdev_hw_device *dev, struct hw_flow *flow,
                  const char **stepp)
{
    const char *step = NULL;
    int error;

    error = hw_flow_destroy__(dev, flow, &step);
    if (stepp) {
        *stepp = step;
    }
    flow->uninstalled = true;
    return error;
}

bool
hw_flow_has_rule(const struct hw_flow *flow)
{
    return (!flow->pipeline ? flow->flow != NULL
            : flow->dr ? flow->dr->rule != NULL
            : flow->compact.rule != NULL);
}

uint32_t
hw_flow_level(const struct hw_flow *flow)
{
    const struct hw_pipe_matcher *m = flow->compact.matcher;

    return (!flow->pipeline ? 0
            : flow->dr ? flow->dr->level
            : m ? hw_pipe_matcher_level(m)
            : 0);
}

void
hw_flow_forget_objects(struct hw_flow *flow)
{
    flow->flow = NULL;
    flow->reformat = NULL;
    flow->counters = NULL;
    flow->dr = NULL;
    memset(&flow->compact, 0, sizeof flow->compact);
    flow->pipeline = NULL;
    flow->extra = NULL;
}

int
hw_flow_read(const struct netdev_hw_device *dev, const struct hw_flow *flow,
             uint64_t *packets, uint64_t *bytes)
{
    uint64_t values[ARRAY_SIZE(hw_flow_counter_points)];
    int error;

    *packets = *bytes = 0;
    if (!flow->counted) {
        return EOPNOTSUPP;
    }
    if (flow->pipeline && !flow->uninstalled) {
        const struct hw_flow_extra *x = flow->extra;
        uint64_t miss_packets = x ? x->ct_miss_packets : 0;
        uint64_t miss_bytes = x ? x->ct_miss_bytes : 0;
        size_t n_misses = x ? MIN(x->n_ct_misses, HW_N_CT_PLAIN_MISSES) : 0;

        /* The misses first: a packet they count was counted by the stage
         * before, so the difference never goes below the truth. */
        for (size_t i = 0; i < n_misses; i++) {
            uint64_t p, b;

            if (!hw_flow_dr_read(dev, &x->ct_misses[i], &p, &b)) {
                miss_packets += p;
                miss_bytes += b;
            }
        }
        error = (flow->dr
                 ? hw_flow_dr_read(dev, flow->dr, packets, bytes)
                 : hw_flow_dr_compact_read(dev, &flow->compact, packets,
                                           bytes));
        if (!error) {
            *packets -= MIN(*packets, miss_packets);
            *bytes -= MIN(*bytes, miss_bytes);
        }
        return error;
    }
    if (flow->uninstalled || !flow->counters) {
        if (!flow->final_valid) {
            return ENODEV;
        }
        *packets = flow->final_packets;
        *bytes = flow->final_bytes;
        if (flow->extra) {
            /* Uninstalled, but the device refused to destroy the rule. */
            *packets -= MIN(*packets, flow->extra->ct_miss_packets);
            *bytes -= MIN(*bytes, flow->extra->ct_miss_bytes);
        }
        return 0;
    }

    memset(values, 0, sizeof values);
    error = dev->ops->read_counters(flow->counters, values,
                                    ARRAY_SIZE(values));
    if (!error) {
        *packets = values[0];
        *bytes = values[1];
    }
    return error;
}

void
hw_flow_format(const struct hw_flow *flow, const struct hw_rule *rule,
               struct ds *s)
{
    uint64_t attr_stub[1024 / 8];
    struct ofpbuf attr;

    if (flow->pipeline) {
        const struct hw_flow_extra *x = flow->extra;

        if (flow->dr) {
            hw_flow_dr_format(flow->dr, rule, s);
        } else {
            hw_flow_dr_compact_format(&flow->compact, rule, s);
        }
        hw_offload_meter_format(hw_flow_meter(flow), s);
        if (x && x->root_jump) {
            struct hw_rule jump;

            hw_flow_root_jump_rule(rule, &jump);
            ds_put_cstr(s, "; root jump ");
            hw_flow_dr_format(x->root_jump, &jump, s);
        }
        if (x && x->ct_misses) {
            struct hw_rule misses[HW_MAX_CT_MISSES];
            uint32_t levels[HW_MAX_CT_MISSES];

            if (rule->fdb) {
                hw_translate_eswitch_ct_misses(rule, misses, levels);
            } else {
                hw_translate_ct_misses(rule, misses, levels);
            }
            for (size_t i = 0; i < x->n_ct_misses; i++) {
                ds_put_cstr(s, "; miss ");
                hw_flow_dr_format(&x->ct_misses[i], &misses[i], s);
            }
        }
        return;
    }
    if (!flow->flow) {
        return;
    }
    ofpbuf_use_stub(&attr, attr_stub, sizeof attr_stub);
    hw_flow_encode(flow, rule, &attr);
    hw_encode_format(attr.data, s);
    ofpbuf_uninit(&attr);
}
