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

/* configure --without-rdma: nothing here is compiled. */
#ifdef HAVE_HW_RDMA

#include "hw-dr.h"

#include <errno.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "hash.h"
#include "hw-encode-dr.h"
#include "hw-privileges.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "svec.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_dr);

/* rdma-core reports a failed create as NULL with errno set, and a failed
 * int call as a positive errno value, or -1 (or a negated errno) from a
 * few paths.  Returns the errno of a failure whose result was 'ret' (-1
 * for a NULL). */
static int
dr_error(int ret)
{
    if (ret > 0) {
        return ret;
    } else if (ret < -1) {
        return -ret;
    }
    return errno > 0 ? errno : EIO;
}

/* The result of a create that returned 'obj'. */
static int
dr_created(const void *obj)
{
    return obj ? 0 : dr_error(-1);
}

/* The result of an int call that returned 'ret'. */
static int
dr_done(int ret)
{
    return ret ? dr_error(ret) : 0;
}

/* Opening and capabilities. */

struct ibv_context *
hw_dr_open_device(struct ibv_device *device)
{
    if (mlx5dv_is_supported(device)) {
        struct mlx5dv_context_attr attr = {
            .flags = MLX5DV_CONTEXT_FLAGS_DEVX,
        };
        struct ibv_context *ctx;

        errno = 0;
        ctx = mlx5dv_open_device(device, &attr);
        if (ctx) {
            return ctx;
        }
        /* An old kernel or a restricted device: verbs still work. */
        VLOG_INFO("%s: no DevX context (%s): no pipeline of tables",
                  ibv_get_device_name(device), ovs_strerror(dr_error(-1)));
    }
    return ibv_open_device(device);
}

/* What rdma-core's mlx5dv_dr does not report. */
#define HW_DR_MAX_LEVEL UINT32_MAX  /* No bound on a software-steered
                                     * table's level (only the order of
                                     * levels matters). */
#define HW_DR_MAX_RULES UINT32_MAX  /* None either: device memory runs out
                                     * first (ENOMEM at rule creation). */

#define ACT(TYPE) (1u << HW_DR_ACTION_##TYPE)
#define ACTS_COMMON (ACT(DROP) | ACT(DEFAULT_MISS) | ACT(DEST_TABLE)      \
                     | ACT(COUNTER) | ACT(REFORMAT) | ACT(MODIFY_HEADER)  \
                     | ACT(PUSH_VLAN) | ACT(POP_VLAN))

/* The actions each domain takes (hw-apis.md 3.4), the reformat types
 * among them checked by the library per domain. */
static const struct {
    const char *name;
    uint32_t actions;
} dr_domains[HW_DR_N_DOMAINS] = {
    [MLX5DV_DR_DOMAIN_TYPE_NIC_RX] = {
        "NIC RX", ACTS_COMMON | ACT(TAG) | ACT(DEST_QP),
    },
    [MLX5DV_DR_DOMAIN_TYPE_NIC_TX] = { "NIC TX", ACTS_COMMON },
    [MLX5DV_DR_DOMAIN_TYPE_FDB] = {
        "FDB", ACTS_COMMON | ACT(DEST_VPORT) | ACT(DEST_ARRAY),
    },
};

/* What the device's parser recognises, from its flex parser protocols.
 * The checksum-ok bits have a capability of their own in the flow table
 * capabilities, which is not read: they stay off. */
static uint32_t
hw_dr_query_parse(struct ibv_context *ctx)
{
    uint8_t in[HW_PRM_QUERY_HCA_CAP_IN];
    uint8_t *out = xzalloc(HW_PRM_QUERY_HCA_CAP_OUT);
    uint32_t parse = 0;

    hw_prm_query_hca_cap_in(in);
    if (!mlx5dv_devx_general_cmd(ctx, in, sizeof in, out,
                                 HW_PRM_QUERY_HCA_CAP_OUT)) {
        parse = hw_prm_hca_cap_parse(out);
    }
    free(out);
    return parse;
}

void
hw_dr_probe(struct ibv_context *ctx, struct hw_dev_caps *caps,
            struct svec *why)
{
    struct ds reason = DS_EMPTY_INITIALIZER;

    hw_dev_caps_clear_dr(caps);

    /* Ask before the kernel refuses: it answers EPERM. */
    if (hw_privileges_check(HW_CAP_SYS_RAWIO, NULL,
                            "software steering (mlx5dv_dr)", &reason)) {
        if (why) {
            svec_add_nocopy(why, xasprintf("%s: no pipeline of tables, "
                                           "flows use the verbs root "
                                           "table", ds_cstr(&reason)));
        }
        ds_destroy(&reason);
        return;
    }
    ds_destroy(&reason);

    for (int type = 0; type < HW_DR_N_DOMAINS; type++) {
        struct mlx5dv_dr_domain *domain;
        struct mlx5dv_dr_table *table;
        const char *step = "mlx5dv_dr_domain_create";
        int error;

        error = hw_dr_domain_create(ctx, type, &domain);
        if (!error) {
            step = "mlx5dv_dr_table_create";
            error = hw_dr_table_create(domain, 1, &table);
            if (!error) {
                hw_dr_table_destroy(table);
            }
            hw_dr_domain_destroy(domain);
        }
        if (!error) {
            caps->dr_domains |= 1u << type;
            caps->dr_actions[type] = dr_domains[type].actions;
        } else if (why) {
            svec_add_nocopy(why, xasprintf(
                "%s software steering unavailable (%s: %s): no pipeline "
                "of tables in that domain", dr_domains[type].name, step,
                ovs_strerror(error)));
        }
    }
    if (caps->dr_domains) {
        caps->dr_max_level = HW_DR_MAX_LEVEL;
        caps->dr_match_criteria = ((1u << HW_DR_MATCH_OUTER)
                                   | (1u << HW_DR_MATCH_MISC)
                                   | (1u << HW_DR_MATCH_INNER)
                                   | (1u << HW_DR_MATCH_MISC2)
                                   | (1u << HW_DR_MATCH_MISC3));
        caps->dr_max_modify = HW_DR_MAX_MODIFY;
        caps->dr_max_rules = HW_DR_MAX_RULES;
        /* Flow meters (HW_DR_ACTION_FLOW_METER) are not probed: that needs
         * the QoS capabilities (flow_meter_old, log_max_flow_meter) read
         * by DevX QUERY_HCA_CAP, so a real device keeps meters in
         * software for now. */
        caps->dr_max_meters = 0;
        caps->dr_parse = hw_dr_query_parse(ctx);
    }
}

/* Domains, tables, matchers, rules. */

int
hw_dr_domain_create(struct ibv_context *ctx,
                    enum mlx5dv_dr_domain_type type,
                    struct mlx5dv_dr_domain **domainp)
{
    errno = 0;
    *domainp = mlx5dv_dr_domain_create(ctx, type);
    return dr_created(*domainp);
}

int
hw_dr_domain_sync(struct mlx5dv_dr_domain *domain, uint32_t flags)
{
    return dr_done(mlx5dv_dr_domain_sync(domain, flags));
}

int
hw_dr_domain_destroy(struct mlx5dv_dr_domain *domain)
{
    return dr_done(mlx5dv_dr_domain_destroy(domain));
}

int
hw_dr_table_create(struct mlx5dv_dr_domain *domain, uint32_t level,
                   struct mlx5dv_dr_table **tablep)
{
    errno = 0;
    *tablep = mlx5dv_dr_table_create(domain, level);
    return dr_created(*tablep);
}

int
hw_dr_table_destroy(struct mlx5dv_dr_table *table)
{
    return dr_done(mlx5dv_dr_table_destroy(table));
}

int
hw_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
                     uint8_t match_criteria_enable,
                     struct mlx5dv_flow_match_parameters *mask,
                     struct mlx5dv_dr_matcher **matcherp)
{
    errno = 0;
    *matcherp = mlx5dv_dr_matcher_create(table, priority,
                                         match_criteria_enable, mask);
    return dr_created(*matcherp);
}

int
hw_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher)
{
    return dr_done(mlx5dv_dr_matcher_destroy(matcher));
}

int
hw_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
                  struct mlx5dv_flow_match_parameters *value,
                  size_t n_actions, struct mlx5dv_dr_action *actions[],
                  struct mlx5dv_dr_rule **rulep)
{
    errno = 0;
    *rulep = mlx5dv_dr_rule_create(matcher, value, n_actions, actions);
    return dr_created(*rulep);
}

int
hw_dr_rule_destroy(struct mlx5dv_dr_rule *rule)
{
    return dr_done(mlx5dv_dr_rule_destroy(rule));
}

/* Actions. */

/* The mlx5dv_dr_flow_meter_attr of 'attr' (libmlx5 does not write to the
 * parameters it is given). */
static void
hw_dr_meter_attr(const struct hw_dr_action_attr *attr,
                 struct mlx5dv_dr_flow_meter_attr *meter)
{
    memset(meter, 0, sizeof *meter);
    meter->next_table = attr->meter.next_table;
    meter->active = attr->meter.active;
    meter->reg_c_index = attr->meter.reg_c_index;
    meter->flow_meter_parameter_sz = attr->meter.size;
    meter->flow_meter_parameter = CONST_CAST(void *, attr->meter.params);
}

int
hw_dr_action_create(struct mlx5dv_dr_domain *domain,
                    const struct hw_dr_action_attr *attr,
                    struct mlx5dv_dr_action **actionp)
{
    struct mlx5dv_dr_action *action;

    errno = 0;
    switch (attr->type) {
    case HW_DR_ACTION_DROP:
        action = mlx5dv_dr_action_create_drop();
        break;
    case HW_DR_ACTION_DEFAULT_MISS:
        action = mlx5dv_dr_action_create_default_miss();
        break;
    case HW_DR_ACTION_TAG:
        action = mlx5dv_dr_action_create_tag(attr->tag);
        break;
    case HW_DR_ACTION_DEST_QP:
        action = mlx5dv_dr_action_create_dest_ibv_qp(attr->qp);
        break;
    case HW_DR_ACTION_DEST_TABLE:
        action = mlx5dv_dr_action_create_dest_table(attr->table);
        break;
    case HW_DR_ACTION_DEST_VPORT:
        action = mlx5dv_dr_action_create_dest_vport(domain, attr->vport);
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        action = mlx5dv_dr_action_create_dest_array(domain, attr->array.n,
                                                    attr->array.dests);
        break;
    case HW_DR_ACTION_COUNTER:
        action = mlx5dv_dr_action_create_flow_counter(attr->counter.obj,
                                                      attr->counter.offset);
        break;
    case HW_DR_ACTION_REFORMAT:
        action = mlx5dv_dr_action_create_packet_reformat(
            domain, 0, attr->reformat.type, attr->reformat.size,
            CONST_CAST(void *, attr->reformat.data));
        break;
    case HW_DR_ACTION_MODIFY_HEADER:
        action = mlx5dv_dr_action_create_modify_header(
            domain, 0, attr->modify.size,
            (__be64 *) CONST_CAST(ovs_be64 *, attr->modify.commands));
        break;
    case HW_DR_ACTION_PUSH_VLAN:
        action = mlx5dv_dr_action_create_push_vlan(
            domain, (OVS_FORCE __be32) attr->vlan_hdr);
        break;
    case HW_DR_ACTION_POP_VLAN:
        action = mlx5dv_dr_action_create_pop_vlan();
        break;
    case HW_DR_ACTION_FLOW_METER: {
        struct mlx5dv_dr_flow_meter_attr meter;

        hw_dr_meter_attr(attr, &meter);
        action = mlx5dv_dr_action_create_flow_meter(&meter);
        break;
    }
    case HW_DR_N_ACTIONS:
    default:
        *actionp = NULL;
        return EINVAL;
    }
    *actionp = action;
    return dr_created(action);
}

int
hw_dr_action_destroy(struct mlx5dv_dr_action *action)
{
    return dr_done(mlx5dv_dr_action_destroy(action));
}

int
hw_dr_action_modify_meter(struct mlx5dv_dr_action *action,
                          const struct hw_dr_action_attr *attr,
                          uint64_t modify_field_select)
{
    struct mlx5dv_dr_flow_meter_attr meter;

    /* The PRM flow_meter's modify_field_select, big-endian. */
    hw_dr_meter_attr(attr, &meter);
    errno = 0;
    return dr_done(mlx5dv_dr_action_modify_flow_meter(
                       action, &meter,
                       (OVS_FORCE __be64) htonll(modify_field_select)));
}

/* DevX flow counters.  The object is opaque, and QUERY_FLOW_COUNTER names
 * the counter by the id ALLOC_FLOW_COUNTER returned, so each object's id
 * is kept here. */

struct dr_counter {
    struct hmap_node node;      /* In 'dr_counters', by 'obj'. */
    struct mlx5dv_devx_obj *obj;
    uint32_t id;
};

static struct ovs_mutex dr_counters_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap dr_counters OVS_GUARDED_BY(dr_counters_mutex)
    = HMAP_INITIALIZER(&dr_counters);

static struct dr_counter *
dr_counter_find(const struct mlx5dv_devx_obj *obj)
    OVS_REQUIRES(dr_counters_mutex)
{
    struct dr_counter *counter;

    HMAP_FOR_EACH_WITH_HASH (counter, node, hash_pointer(obj, 0),
                             &dr_counters) {
        if (counter->obj == obj) {
            return counter;
        }
    }
    return NULL;
}

int
hw_dr_counter_create(struct ibv_context *ctx, struct mlx5dv_devx_obj **objp)
{
    uint32_t in[HW_PRM_ALLOC_FLOW_COUNTER_IN / 4];
    uint32_t out[HW_PRM_ALLOC_FLOW_COUNTER_OUT / 4];
    struct dr_counter *counter;
    struct mlx5dv_devx_obj *obj;

    hw_prm_alloc_flow_counter_in((uint8_t *) in);
    memset(out, 0, sizeof out);
    errno = 0;
    obj = mlx5dv_devx_obj_create(ctx, in, sizeof in, out, sizeof out);
    *objp = obj;
    if (!obj) {
        return dr_error(-1);
    }

    counter = xmalloc(sizeof *counter);
    counter->obj = obj;
    counter->id = hw_prm_alloc_flow_counter_id((const uint8_t *) out);
    ovs_mutex_lock(&dr_counters_mutex);
    hmap_insert(&dr_counters, &counter->node, hash_pointer(obj, 0));
    ovs_mutex_unlock(&dr_counters_mutex);
    return 0;
}

int
hw_dr_counter_query(struct mlx5dv_devx_obj *obj, uint64_t *packets,
                    uint64_t *bytes)
{
    uint32_t in[HW_PRM_QUERY_FLOW_COUNTER_IN / 4];
    uint32_t out[HW_PRM_QUERY_FLOW_COUNTER_OUT / 4];
    struct dr_counter *counter;
    uint32_t id = 0;
    int ret;

    ovs_mutex_lock(&dr_counters_mutex);
    counter = dr_counter_find(obj);
    if (counter) {
        id = counter->id;
    }
    ovs_mutex_unlock(&dr_counters_mutex);
    if (!counter) {
        return EINVAL;
    }

    hw_prm_query_flow_counter_in((uint8_t *) in, id);
    memset(out, 0, sizeof out);
    ret = mlx5dv_devx_obj_query(obj, in, sizeof in, out, sizeof out);
    if (ret) {
        return dr_done(ret);
    }
    hw_prm_query_flow_counter_out((const uint8_t *) out, packets, bytes);
    return 0;
}

int
hw_dr_counter_destroy(struct mlx5dv_devx_obj *obj)
{
    struct dr_counter *counter;
    int ret;

    /* On failure (EBUSY: a rule still counts with it) the counter stays,
     * and so does its id. */
    ovs_mutex_lock(&dr_counters_mutex);
    ret = mlx5dv_devx_obj_destroy(obj);
    counter = ret ? NULL : dr_counter_find(obj);
    if (counter) {
        hmap_remove(&dr_counters, &counter->node);
        free(counter);
    }
    ovs_mutex_unlock(&dr_counters_mutex);
    return dr_done(ret);
}

/* The Geneve TLV option object: a DevX general object. */
int
hw_dr_geneve_opt_create(struct ibv_context *ctx, ovs_be16 opt_class,
                        uint8_t type, uint8_t len,
                        struct mlx5dv_devx_obj **objp)
{
    uint32_t in[HW_PRM_CREATE_GENEVE_TLV_OPT_IN / 4];
    uint32_t out[HW_PRM_CREATE_GENEVE_TLV_OPT_OUT / 4];

    hw_prm_create_geneve_tlv_opt_in((uint8_t *) in, opt_class, type, len);
    memset(out, 0, sizeof out);
    errno = 0;
    *objp = mlx5dv_devx_obj_create(ctx, in, sizeof in, out, sizeof out);
    return *objp ? 0 : dr_error(-1);
}

int
hw_dr_geneve_opt_destroy(struct mlx5dv_devx_obj *obj)
{
    return dr_done(mlx5dv_devx_obj_destroy(obj));
}

#endif /* HAVE_HW_RDMA */
