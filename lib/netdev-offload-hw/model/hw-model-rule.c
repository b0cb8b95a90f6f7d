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

/* The device side of steering rules: ibv_create_flow() and
 * ibv_destroy_flow() as device ops (the objects a rule names, its
 * direction, the references it holds), counters objects and packet
 * reformat actions.  The rules themselves, their parsing and lookup, are
 * the steering engine's (hw-model-flow.h). */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdlib.h>

#include "hw-model-flow.h"
#include "hw-model-spec.h"
#include "openvswitch/vlog.h"
#include "packets.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

/* Flows. */

/* Reads the objects an ibv_flow_attr buffer refers to (ACTION_HANDLE and
 * ACTION_COUNT specs), as the kernel looks their handles up before the
 * driver parses the rule: an object that is not a live one of this device
 * gives EINVAL.  The walk is the rule parser's (hw-model-spec.h), so every
 * object the parser finds is looked up here and held by the flow. */
static int
model_flow_lookup_handles(struct model_dev *dev,
                          const struct ibv_flow_attr *attr,
                          struct model_reformat **reformatp,
                          struct model_counters **countersp)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_spec_iter iter;
    struct hw_model_spec spec;

    *reformatp = NULL;
    *countersp = NULL;
    HW_MODEL_SPEC_FOR_EACH (&spec, &iter, hw_model_attr_specs(attr),
                            attr->num_of_specs) {
        if (spec.type == IBV_FLOW_SPEC_ACTION_HANDLE) {
            struct model_reformat *reformat
                = MODEL_FIND(dev, hw_model_spec_object(&spec), MODEL_REFORMAT,
                             struct model_reformat);
            if (!reformat) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "unknown flow action", spec.index);
            } else if (*reformatp) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "second packet reformat", spec.index);
            }
            *reformatp = reformat;
        } else if (spec.type == IBV_FLOW_SPEC_ACTION_COUNT) {
            struct model_counters *counters
                = MODEL_FIND(dev, hw_model_spec_object(&spec), MODEL_COUNTERS,
                             struct model_counters);
            if (!counters) {
                return model_reject(dev, EINVAL, "create_flow: spec %u: "
                                    "unknown counters object", spec.index);
            }
            /* A second COUNT spec is the engine's EINVAL. */
            *countersp = counters;
        }
    }
    if (iter.error) {
        return model_reject(dev, iter.error, "create_flow: %s", iter.reason);
    }
    return 0;
}

int
model_create_flow(struct ibv_qp *ibv_qp, struct ibv_flow_attr *attr,
                  struct ibv_flow **flowp)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct model_reformat *reformat;
    struct model_counters *counters;
    struct model_flow *mflow;
    struct hw_model_steering *steering;
    struct ibv_flow *flow;
    struct model_qp *qp;
    int error;

    *flowp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_FLOW);
    if (error) {
        goto out;
    }
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    if (!qp) {
        error = model_reject(dev, EINVAL, "create_flow: unknown QP");
        goto out;
    }
    error = model_flow_lookup_handles(dev, attr, &reformat, &counters);
    if (error) {
        goto out;
    }

    /* The rules of a representor's port are the kernel's rules matched
     * on the VF's vport; it has no egress rules (hw-apis.md 1.5).  A port
     * the device lacks goes to the uplink's engine, which refuses it. */
    steering = model_port_steering(dev, attr->port);
    if (!steering) {
        steering = dev->steering;
    } else if (attr->port > 1 && attr->flags & IBV_FLOW_ATTR_FLAGS_EGRESS) {
        error = model_reject(dev, EINVAL, "create_flow: egress rule on "
                             "representor port %"PRIu8, attr->port);
        goto out;
    }
    error = hw_model_flow_create(steering, ibv_qp, attr, &flow);
    if (error) {
        model_reject(dev, error, "create_flow: rule rejected");
        goto out;
    }

    /* The firmware refuses a reformat made for the other direction when it
     * writes the rule (hw-apis.md section 7, item 5). */
    if (reformat) {
        bool egress = (attr->flags & IBV_FLOW_ATTR_FLAGS_EGRESS) != 0;
        enum mlx5dv_flow_table_type want = (egress
                                            ? MLX5DV_FLOW_TABLE_TYPE_NIC_TX
                                            : MLX5DV_FLOW_TABLE_TYPE_NIC_RX);

        if (reformat->ft_type != want) {
            hw_model_flow_destroy(steering, flow);
            error = model_reject(dev, EINVAL, "create_flow: %s rule with a "
                                 "reformat made for %s", egress ? "egress"
                                 : "ingress", egress ? "NIC_RX" : "NIC_TX");
            goto out;
        }
    }

    if (!flow->context) {
        flow->context = ibv_qp->context;
    }
    mflow = xzalloc(sizeof *mflow);
    mflow->flow = flow;
    mflow->steering = steering;
    mflow->qp = qp;
    mflow->reformat = reformat;
    mflow->counters = counters;
    qp->obj.users++;
    if (reformat) {
        reformat->obj.users++;
    }
    if (counters) {
        counters->obj.users++;
    }
    model_obj_add(dev, &mflow->obj, flow, MODEL_FLOW);
    *flowp = flow;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_destroy_flow(struct ibv_flow *flow)
{
    struct model_dev *dev = model_dev_from_ctx(flow->context);
    struct model_flow *mflow;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_FLOW);
    if (error) {
        goto out;
    }
    mflow = MODEL_FIND(dev, flow, MODEL_FLOW, struct model_flow);
    if (!mflow) {
        error = model_reject(dev, EINVAL, "destroy_flow: unknown flow");
        goto out;
    }
    error = hw_model_flow_destroy(mflow->steering, flow);
    if (error) {
        model_reject(dev, error, "destroy_flow: steering engine refused");
        goto out;
    }
    mflow->qp->obj.users--;
    if (mflow->reformat) {
        mflow->reformat->obj.users--;
    }
    if (mflow->counters) {
        mflow->counters->obj.users--;
    }
    model_obj_remove(dev, &mflow->obj);
    free(mflow);
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Counters. */

int
model_create_counters(struct ibv_context *ctx, struct ibv_counters **cp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_counters *mc;
    struct ibv_counters *counters;
    int error;

    *cp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_COUNTERS);
    if (error) {
        goto out;
    }
    error = hw_model_counters_create(ctx, &counters);
    if (error) {
        goto out;
    }
    if (!counters->context) {
        counters->context = ctx;
    }
    mc = xzalloc(sizeof *mc);
    mc->counters = counters;
    model_obj_add(dev, &mc->obj, counters, MODEL_COUNTERS);
    *cp = counters;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_attach_counters(struct ibv_counters *counters,
                      struct ibv_counter_attach_attr *attr)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_ATTACH_COUNTERS);
    if (!error) {
        error = (model_obj_find(dev, counters, MODEL_COUNTERS)
                 ? hw_model_counters_attach(counters, attr)
                 : model_reject(dev, EINVAL, "attach_counters: unknown "
                                "counters object"));
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_read_counters(struct ibv_counters *counters, uint64_t *values,
                    uint32_t n_values)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_READ_COUNTERS);
    if (!error) {
        error = (model_obj_find(dev, counters, MODEL_COUNTERS)
                 ? hw_model_counters_read(counters, values, n_values)
                 : model_reject(dev, EINVAL, "read_counters: unknown "
                                "counters object"));
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_destroy_counters(struct ibv_counters *counters)
{
    struct model_dev *dev = model_dev_from_ctx(counters->context);
    struct model_counters *mc;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_COUNTERS);
    if (error) {
        goto out;
    }
    mc = MODEL_FIND(dev, counters, MODEL_COUNTERS, struct model_counters);
    if (!mc) {
        error = model_reject(dev, EINVAL, "destroy_counters: unknown "
                             "counters object");
    } else if (mc->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_counters: counters "
                             "%"PRIu32" used by %u flows", mc->obj.handle,
                             mc->obj.users);
    } else {
        error = hw_model_counters_destroy(counters);
        if (!error) {
            model_obj_remove(dev, &mc->obj);
            free(mc);
        }
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

/* Packet reformat actions. */

const char *
model_reformat_type_name(enum mlx5dv_flow_action_packet_reformat_type type)
{
    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
        return "L2_TUNNEL_TO_L2";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
        return "L2_TO_L2_TUNNEL";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
        return "L3_TUNNEL_TO_L2";
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        return "L2_TO_L3_TUNNEL";
    default:
        return "unknown";
    }
}

int
model_create_reformat(struct ibv_context *ctx, size_t data_sz, void *data,
                      enum mlx5dv_flow_action_packet_reformat_type type,
                      enum mlx5dv_flow_table_type ft_type,
                      struct ibv_flow_action **actionp)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_reformat *reformat;
    bool decap, valid_dir;
    int error;

    *actionp = NULL;
    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_CREATE_REFORMAT);
    if (error) {
        goto out;
    }

    /* libmlx5. */
    if ((data == NULL) != (data_sz == 0)) {
        error = model_reject(dev, EINVAL, "create_reformat: data %s but "
                             "size %"PRIuSIZE, data ? "given" : "missing",
                             data_sz);
        goto out;
    }

    /* Kernel (mlx5_ib_flow_action_packet_reformat_valid): decaps on NIC
     * RX, encaps on NIC TX, each gated by a capability. */
    switch (type) {
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
        decap = true;
        valid_dir = ft_type == MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
        break;
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
    case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        decap = false;
        valid_dir = ft_type == MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
        break;
    default:
        decap = false;
        valid_dir = false;
        break;
    }
    if (!valid_dir || (unsigned int) type >= 32
        || !(dev->caps.reformat_types & (1u << type))) {
        error = model_reject(dev, EOPNOTSUPP, "create_reformat: %s (%d) on "
                             "flow table type %d not supported",
                             model_reformat_type_name(type), (int) type,
                             (int) ft_type);
        goto out;
    }

    if (type == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2) {
        if (data_sz) {
            error = model_reject(dev, EINVAL, "create_reformat: L2 decap "
                                 "takes no data (%"PRIuSIZE" bytes given)",
                                 data_sz);
            goto out;
        }
    } else if (type
               == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2) {
        if (data_sz != ETH_HEADER_LEN
            && data_sz != ETH_HEADER_LEN + VLAN_HEADER_LEN) {
            error = model_reject(dev, EINVAL, "create_reformat: L3 decap "
                                 "needs a 14 or 18 byte L2 header, not %"
                                 PRIuSIZE, data_sz);
            goto out;
        }
    } else if (!data_sz) {
        error = model_reject(dev, EINVAL, "create_reformat: %s without a "
                             "header", model_reformat_type_name(type));
        goto out;
    }
    if (data_sz > dev->caps.max_encap_header) {
        error = model_reject(dev, EINVAL, "create_reformat: %"PRIuSIZE
                             "-byte header above the device limit %"PRIu32,
                             data_sz, dev->caps.max_encap_header);
        goto out;
    }

    reformat = xzalloc(sizeof *reformat);
    reformat->type = type;
    reformat->ft_type = ft_type;
    reformat->size = data_sz;
    reformat->data = data_sz ? xmemdup(data, data_sz) : NULL;
    reformat->action.context = ctx;
    model_obj_add(dev, &reformat->obj, &reformat->action, MODEL_REFORMAT);
    VLOG_DBG("%s: reformat %"PRIu32": %s %s, %"PRIuSIZE" bytes", dev->name,
             reformat->obj.handle, model_reformat_type_name(type),
             decap ? "NIC_RX" : "NIC_TX", data_sz);
    *actionp = &reformat->action;
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_destroy_action(struct ibv_flow_action *action)
{
    struct model_dev *dev = model_dev_from_ctx(action->context);
    struct model_reformat *reformat;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_DESTROY_ACTION);
    if (error) {
        goto out;
    }
    reformat = MODEL_FIND(dev, action, MODEL_REFORMAT,
                          struct model_reformat);
    if (!reformat) {
        error = model_reject(dev, EINVAL, "destroy_action: unknown action");
    } else if (reformat->obj.users) {
        error = model_reject(dev, EBUSY, "destroy_action: reformat %"PRIu32
                             " used by %u flows", reformat->obj.handle,
                             reformat->obj.users);
    } else {
        model_obj_remove(dev, &reformat->obj);
        free(reformat->data);
        free(reformat);
    }
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}
