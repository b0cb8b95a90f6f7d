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
#include "hw-offload-meter.h"

#include <errno.h>
#include <string.h>

#include "hash.h"
#include "hw-coverage.h"
#include "hw-dev.h"
#include "hw-flow-dr.h"
#include "hw-meter.h"
#include "hw-pipeline.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "id-pool.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/thread.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_offload_meter);

HW_COVERAGE_DEFINE(hw_offload_meter_flow);
HW_COVERAGE_DEFINE(hw_offload_meter_refused);

/* HW_REG_METER: meter slot << 24 | flow slot << 8 | color. */
#define METER_SLOT_SHIFT 24
#define METER_SLOTS 255
#define FLOW_SLOT_SHIFT 8
#define FLOW_SLOTS 65535
#define COLOR_MASK 0xffu

/* One OVS meter, as meter_set gave it. */
struct hw_meter_conf {
    struct hmap_node node;          /* In 'confs', by id. */
    uint32_t id;
    int error;                      /* 0, or why the device cannot run it: */
    char *reason;                   /* hw_meter_from_config()'s. */
    struct hw_meter_prm prm;

    /* What device meters of this id that went counted. */
    uint64_t green_packets, green_bytes;
    uint64_t red_packets, red_bytes;
};

/* One device meter: an OVS meter in one FDB domain. */
struct hw_meter_dev {
    struct hmap_node node;          /* In 'devs', by id. */
    uint32_t id;
    struct hw_pipeline *p;
    struct netdev_hw_device dev;    /* Its ops, for the counters. */
    uint32_t slot;
    struct hw_pipe_action *action;  /* The FLOW_METER action. */
    struct hw_flow_dr red, green;   /* The policy rules. */
    struct hw_meter_prm prm;
    unsigned int refs;              /* Rules that use it. */
};

/* What a metered FDB rule holds. */
struct hw_meter_flow {
    struct hw_meter_dev *md;
    uint32_t slot;                  /* The flow's slot. */
    struct hw_rule *out_rule;       /* For hw_offload_meter_format(). */
    struct hw_flow_dr out;          /* The output rule. */
};

static struct ovs_mutex meter_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap confs OVS_GUARDED_BY(meter_mutex)
    = HMAP_INITIALIZER(&confs);
static struct hmap devs OVS_GUARDED_BY(meter_mutex)
    = HMAP_INITIALIZER(&devs);
static struct id_pool *meter_slots OVS_GUARDED_BY(meter_mutex);
static struct id_pool *flow_slots OVS_GUARDED_BY(meter_mutex);

static struct hw_meter_conf *
meter_conf_find(uint32_t id)
    OVS_REQUIRES(meter_mutex)
{
    struct hw_meter_conf *conf;

    HMAP_FOR_EACH_WITH_HASH (conf, node, hash_int(id, 0), &confs) {
        if (conf->id == id) {
            return conf;
        }
    }
    return NULL;
}

static struct hw_meter_dev *
meter_dev_find(const struct hw_pipeline *p, uint32_t id)
    OVS_REQUIRES(meter_mutex)
{
    struct hw_meter_dev *md;

    HMAP_FOR_EACH_WITH_HASH (md, node, hash_int(id, 0), &devs) {
        if (md->id == id && md->p == p) {
            return md;
        }
    }
    return NULL;
}

static void
meter_attr(struct mlx5dv_dr_table *next, const struct hw_meter_prm *prm,
           uint8_t params[HW_METER_PARAMS_SIZE],
           struct hw_dr_action_attr *attr)
{
    hw_meter_prm_encode(prm, params);
    *attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_FLOW_METER,
        .meter = {
            .next_table = next,
            .active = true,
            .reg_c_index = HW_REG_METER,
            .size = HW_METER_PARAMS_SIZE,
            .params = params,
        },
    };
}

int
hw_offload_meter_set(ofproto_meter_id meter_id,
                     struct ofputil_meter_config *config)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ds fallback = DS_EMPTY_INITIALIZER;
    struct hw_meter_conf *conf;
    struct hw_meter_dev *md;
    int result;

    ovs_mutex_lock(&meter_mutex);
    conf = meter_conf_find(meter_id.uint32);
    if (!conf) {
        conf = xzalloc(sizeof *conf);
        conf->id = meter_id.uint32;
        hmap_insert(&confs, &conf->node, hash_int(conf->id, 0));
    }
    free(conf->reason);
    conf->error = hw_meter_from_config(config, &conf->prm, &reason);
    conf->reason = conf->error ? ds_steal_cstr(&reason) : NULL;

    /* A modify: the device meters of this id change in place, or, if the
     * device cannot run the new configuration, their flows go to software
     * once the mutex is released (their rules' release takes it). */
    HMAP_FOR_EACH_WITH_HASH (md, node, hash_int(conf->id, 0), &devs) {
        uint8_t params[HW_METER_PARAMS_SIZE];
        struct hw_dr_action_attr attr;
        int error;

        if (md->id != conf->id || fallback.length) {
            continue;
        }
        if (conf->error) {
            ds_put_format(&fallback, "e-switch: meter %"PRIu32" modified: "
                          "%s", conf->id, conf->reason);
            continue;
        }
        meter_attr(NULL, &conf->prm, params, &attr);
        error = (md->dev.ops->dr_action_modify_meter
                 ? md->dev.ops->dr_action_modify_meter(
                       hw_pipe_action_dr(md->action), &attr,
                       HW_METER_MODIFY_CIR | HW_METER_MODIFY_CBS)
                 : EOPNOTSUPP);
        if (error) {
            VLOG_WARN("meter %"PRIu32": device error: "
                      "dr_action_modify_meter: %s", conf->id,
                      ovs_strerror(error));
            ds_put_format(&fallback, "e-switch: meter %"PRIu32" modified: "
                          "device error: dr_action_modify_meter: %s",
                          conf->id, ovs_strerror(error));
        } else {
            md->prm = conf->prm;
        }
    }
    result = conf->error;
    ovs_mutex_unlock(&meter_mutex);

    if (fallback.length) {
        hw_offload_meter_fallback(meter_id.uint32, ds_cstr(&fallback));
    }
    ds_destroy(&fallback);
    ds_destroy(&reason);
    return result;
}

/* Adds what 'md' counted, green and red, to the counts given. */
static void
meter_dev_read(const struct hw_meter_dev *md, uint64_t counts[4])
{
    uint64_t packets, bytes;

    if (!hw_flow_dr_read(&md->dev, &md->green, &packets, &bytes)) {
        counts[0] += packets;
        counts[1] += bytes;
    }
    if (!hw_flow_dr_read(&md->dev, &md->red, &packets, &bytes)) {
        counts[2] += packets;
        counts[3] += bytes;
    }
}

static void
meter_stats_add(const uint64_t counts[4], struct ofputil_meter_stats *stats)
{
    stats->packet_in_count += counts[0] + counts[2];
    stats->byte_in_count += counts[1] + counts[3];
    if (stats->n_bands && stats->bands) {
        stats->bands[0].packet_count += counts[2];
        stats->bands[0].byte_count += counts[3];
    }
}

int
hw_offload_meter_get(ofproto_meter_id meter_id,
                     struct ofputil_meter_stats *stats)
{
    uint64_t counts[4] = { 0, 0, 0, 0 };
    struct hw_meter_conf *conf;
    struct hw_meter_dev *md;

    if (!stats) {
        return 0;
    }
    ovs_mutex_lock(&meter_mutex);
    conf = meter_conf_find(meter_id.uint32);
    if (!conf) {
        ovs_mutex_unlock(&meter_mutex);
        return ENOENT;
    }
    counts[0] = conf->green_packets;
    counts[1] = conf->green_bytes;
    counts[2] = conf->red_packets;
    counts[3] = conf->red_bytes;
    HMAP_FOR_EACH_WITH_HASH (md, node, hash_int(conf->id, 0), &devs) {
        if (md->id == conf->id) {
            meter_dev_read(md, counts);
        }
    }
    ovs_mutex_unlock(&meter_mutex);
    meter_stats_add(counts, stats);
    return 0;
}

int
hw_offload_meter_del(ofproto_meter_id meter_id,
                     struct ofputil_meter_stats *stats)
{
    struct hw_meter_conf *conf;
    int error = hw_offload_meter_get(meter_id, stats);

    /* Device meters of the id stay until their flows go: OVS deletes
     * the flows of a deleted meter. */
    ovs_mutex_lock(&meter_mutex);
    conf = meter_conf_find(meter_id.uint32);
    if (conf) {
        hmap_remove(&confs, &conf->node);
        free(conf->reason);
        free(conf);
    }
    ovs_mutex_unlock(&meter_mutex);
    return error;
}

int
hw_offload_meter_plan(const struct netdev_hw_device *dev,
                      struct hw_rule *rule, struct ds *reason)
{
    struct hw_meter_conf *conf;
    int error = 0;

    if (!rule->meter) {
        return 0;
    }
    ovs_mutex_lock(&meter_mutex);
    conf = meter_conf_find(rule->meter_id);
    if (!dev->caps->dr_max_meters) {
        ds_put_format(reason, "e-switch: meter %"PRIu32": the device has no "
                      "flow meters", rule->meter_id);
        error = EOPNOTSUPP;
    } else if (!conf) {
        ds_put_format(reason, "e-switch: meter %"PRIu32": unknown to the "
                      "device", rule->meter_id);
        error = EOPNOTSUPP;
    } else if (conf->error) {
        ds_put_format(reason, "e-switch: meter %"PRIu32": %s",
                      rule->meter_id, conf->reason);
        error = EOPNOTSUPP;
    } else {
        BUILD_ASSERT(sizeof rule->meter_params == HW_METER_PARAMS_SIZE);
        hw_meter_prm_encode(&conf->prm, rule->meter_params);
    }
    ovs_mutex_unlock(&meter_mutex);
    if (error) {
        HW_COVERAGE_INC(hw_offload_meter_refused);
    }
    return error;
}

/* A policy or output rule: a match on HW_REG_METER under 'mask'. */
static void
meter_rule(uint32_t value, uint32_t mask, struct hw_rule *rule)
{
    memset(rule, 0, sizeof *rule);
    rule->fdb = true;
    rule->reg_c[HW_REG_METER] = value;
    rule->reg_c_mask[HW_REG_METER] = mask;
}

/* Destroys 'flow' of 'p', handing it to hw-stale if the device refuses. */
static void
meter_uninstall(struct hw_pipeline *p, const struct netdev_hw_device *dev,
                struct hw_flow_dr *flow)
{
    const char *step = NULL;
    int error;

    if (!dev || (!flow->rule && !flow->matcher)) {
        return;
    }
    error = hw_flow_dr_uninstall(p, dev, flow, &step);
    if (error) {
        hw_stale_add_dr(p, dev, flow, step, error);
    }
}

static void
meter_dev_unref(const struct netdev_hw_device *dev, struct hw_meter_dev *md)
    OVS_REQUIRES(meter_mutex)
{
    struct hw_meter_conf *conf;

    if (--md->refs) {
        return;
    }
    meter_uninstall(md->p, dev, &md->red);
    meter_uninstall(md->p, dev, &md->green);
    conf = meter_conf_find(md->id);
    if (conf && dev) {
        uint64_t counts[4] = { 0, 0, 0, 0 };

        /* The values read as the rules went. */
        meter_dev_read(md, counts);
        conf->green_packets += counts[0];
        conf->green_bytes += counts[1];
        conf->red_packets += counts[2];
        conf->red_bytes += counts[3];
    }
    if (md->action && dev) {
        hw_pipeline_action_unref(md->p, md->action);
    }
    id_pool_free_id(meter_slots, md->slot);
    hmap_remove(&devs, &md->node);
    free(md);
}

/* Finds or makes the device meter of 'rule' in 'p'. */
static int
meter_dev_ref(const struct netdev_hw_device *dev, struct hw_pipeline *p,
              const struct hw_rule *rule, struct hw_meter_dev **mdp,
              struct ds *reason)
    OVS_REQUIRES(meter_mutex)
{
    uint8_t params[HW_METER_PARAMS_SIZE];
    struct hw_dr_action_attr attr;
    struct mlx5dv_dr_table *table;
    struct hw_meter_dev *md;
    struct hw_rule policy;
    int error;

    md = meter_dev_find(p, rule->meter_id);
    if (md) {
        md->refs++;
        *mdp = md;
        return 0;
    }

    if (!meter_slots) {
        meter_slots = id_pool_create(1, METER_SLOTS);
    }
    md = xzalloc(sizeof *md);
    if (!id_pool_alloc_id(meter_slots, &md->slot)) {
        free(md);
        ds_put_cstr(reason, "meter: " OVS_STRINGIZE(METER_SLOTS)
                    " device meters in use");
        return ENOSPC;
    }
    md->id = rule->meter_id;
    md->p = p;
    md->dev = *dev;
    md->dev.devname = NULL;
    md->refs = 1;
    hw_meter_prm_decode(rule->meter_params, &md->prm);
    hmap_insert(&devs, &md->node, hash_int(md->id, 0));

    error = hw_pipeline_table(p, MLX5DV_DR_DOMAIN_TYPE_FDB, HW_LEVEL_METER,
                              &table);
    if (error) {
        ds_put_format(reason, "dr_table_create: %s", ovs_strerror(error));
        goto error;
    }
    meter_attr(table, &md->prm, params, &attr);
    error = hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_FDB, &attr,
                                   &md->action);
    if (error) {
        md->action = NULL;
        ds_put_format(reason, "dr_action_create: flow meter: %s",
                      ovs_strerror(error));
        goto error;
    }

    meter_rule(md->slot << METER_SLOT_SHIFT | HW_METER_COLOR_RED,
               0xffu << METER_SLOT_SHIFT | COLOR_MASK, &policy);
    policy.count = true;
    policy.fate = HW_FATE_DROP;
    error = hw_flow_dr_install_at(p, dev, HW_LEVEL_METER, 0, NULL, &policy,
                                  &md->red, reason);
    if (error) {
        goto error;
    }
    meter_rule(md->slot << METER_SLOT_SHIFT | HW_METER_COLOR_GREEN,
               0xffu << METER_SLOT_SHIFT | COLOR_MASK, &policy);
    policy.count = true;
    policy.fate = HW_FATE_TABLE;
    policy.fate_level = HW_LEVEL_METER_OUT;
    error = hw_flow_dr_install_at(p, dev, HW_LEVEL_METER, 0, NULL, &policy,
                                  &md->green, reason);
    if (error) {
        goto error;
    }
    *mdp = md;
    return 0;

error:
    meter_dev_unref(dev, md);
    return error;
}

int
hw_offload_meter_install(const struct netdev_hw_device *dev,
                         struct hw_pipeline *p, uint32_t level,
                         const struct hw_rule *rule,
                         struct hw_flow_dr *flow,
                         struct hw_meter_flow **mfp, struct ds *reason)
{
    struct hw_meter_flow *mf = xzalloc(sizeof *mf);
    struct hw_rule *metered;
    uint32_t tag;
    int error;

    ovs_assert(rule->fdb && rule->meter && rule->fate == HW_FATE_VPORT);
    ovs_mutex_lock(&meter_mutex);
    error = meter_dev_ref(dev, p, rule, &mf->md, reason);
    if (error) {
        ovs_mutex_unlock(&meter_mutex);
        free(mf);
        return error;
    }
    if (!flow_slots) {
        flow_slots = id_pool_create(1, FLOW_SLOTS);
    }
    if (!id_pool_alloc_id(flow_slots, &mf->slot)) {
        ds_put_cstr(reason, "meter: " OVS_STRINGIZE(FLOW_SLOTS)
                    " metered flows");
        error = ENOSPC;
        goto error;
    }
    tag = mf->md->slot << METER_SLOT_SHIFT | mf->slot << FLOW_SLOT_SHIFT;

    /* The output rule first, so that no green packet misses it. */
    mf->out_rule = xmalloc(sizeof *mf->out_rule);
    meter_rule(tag, ~COLOR_MASK, mf->out_rule);
    mf->out_rule->fate = HW_FATE_VPORT;
    mf->out_rule->n_out = rule->n_out;
    memcpy(mf->out_rule->out_ports, rule->out_ports,
           sizeof rule->out_ports);
    memcpy(mf->out_rule->fate_vports, rule->fate_vports,
           sizeof rule->fate_vports);
    error = hw_flow_dr_install_at(p, dev, HW_LEVEL_METER_OUT, 0, NULL,
                                  mf->out_rule, &mf->out, reason);
    if (error) {
        goto error;
    }

    metered = xmemdup(rule, sizeof *rule);
    metered->rewrite.set_regs |= 1u << HW_REG_METER;
    metered->rewrite.regs[HW_REG_METER] = tag;
    error = hw_flow_dr_install_meter(p, dev, level, mf->md->action, metered,
                                     flow, reason);
    free(metered);
    if (error) {
        goto error;
    }
    ovs_mutex_unlock(&meter_mutex);
    HW_COVERAGE_INC(hw_offload_meter_flow);
    *mfp = mf;
    return 0;

error:
    ovs_mutex_unlock(&meter_mutex);
    hw_offload_meter_release(dev, mf);
    return error;
}

void
hw_offload_meter_release(const struct netdev_hw_device *dev,
                         struct hw_meter_flow *mf)
{
    if (!mf) {
        return;
    }
    ovs_mutex_lock(&meter_mutex);
    meter_uninstall(mf->md->p, dev, &mf->out);
    if (mf->slot) {
        id_pool_free_id(flow_slots, mf->slot);
    }
    meter_dev_unref(dev, mf->md);
    ovs_mutex_unlock(&meter_mutex);
    free(mf->out_rule);
    free(mf);
}

uint32_t
hw_offload_meter_flow_id(const struct hw_meter_flow *mf)
{
    return mf->md->id;
}

void
hw_offload_meter_format(const struct hw_meter_flow *mf, struct ds *s)
{
    if (mf && mf->out_rule) {
        ds_put_format(s, "; meter %"PRIu32" out ", mf->md->id);
        hw_flow_dr_format(&mf->out, mf->out_rule, s);
    }
}
