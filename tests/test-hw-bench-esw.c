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

/* The null devices in switchdev mode of the microbenchmark
 * (test-hw-bench.h): "null-esw:model<N>" is model device "model<N>" with
 * 2 VFs, whose capabilities, representors, vports and reg_c0 metadata are
 * the model's (model/hw-model-eswitch.c), and whose rules, counters and
 * per-rule actions are the null table's.  The rules its FDB domain gets
 * are counted, so that the benchmark checks that its flows land there. */

#include <config.h>
#undef NDEBUG
#include "test-hw-bench.h"

#include <stdlib.h>

#include "cmap.h"
#include "dpif.h"
#include "hash.h"
#include "hw-model.h"
#include "netdev.h"
#include "netdev-offload.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "test-hw-check.h"
#include "util.h"

struct hw_dev_ops bench_null_esw_ops;
atomic_count bench_null_fdb_rules = ATOMIC_COUNT_INIT(0);

/* The dpif type that dpif-netdev gives its ports: the plugin finds an
 * output port's netdev under it. */
#define ESW_DPIF_TYPE "netdev"

/* The domains, tables and matchers of the FDB domain of these devices.  A
 * cmap, so that a rule's creation looks its matcher up without a lock:
 * that lookup is the only cost the counting adds to a put. */
struct fdb_obj {
    struct cmap_node node;
    const void *obj;
};
static struct ovs_mutex fdb_mutex = OVS_MUTEX_INITIALIZER;
static struct cmap fdb_objs = CMAP_INITIALIZER;

/* A rule of the FDB domain, which the null table does not create. */
static uint64_t null_fdb_rule;

static bool
fdb_has(const void *obj)
{
    const struct fdb_obj *o;

    CMAP_FOR_EACH_WITH_HASH (o, node, hash_pointer(obj, 0), &fdb_objs) {
        if (o->obj == obj) {
            return true;
        }
    }
    return false;
}

/* Records 'obj' as an object of the FDB domain if 'fdb'. */
static void
fdb_add(bool fdb, const void *obj)
{
    if (fdb) {
        struct fdb_obj *o = xmalloc(sizeof *o);

        o->obj = obj;
        ovs_mutex_lock(&fdb_mutex);
        cmap_insert(&fdb_objs, &o->node, hash_pointer(obj, 0));
        ovs_mutex_unlock(&fdb_mutex);
    }
}

static void
fdb_del(const void *obj)
{
    struct fdb_obj *o;

    ovs_mutex_lock(&fdb_mutex);
    CMAP_FOR_EACH_WITH_HASH (o, node, hash_pointer(obj, 0), &fdb_objs) {
        if (o->obj == obj) {
            cmap_remove(&fdb_objs, &o->node, hash_pointer(obj, 0));
            ovsrcu_postpone(free, o);
            break;
        }
    }
    ovs_mutex_unlock(&fdb_mutex);
}

static int
esw_dr_domain_create(struct ibv_context *ctx,
                     enum mlx5dv_dr_domain_type type,
                     struct mlx5dv_dr_domain **domainp)
{
    int error = bench_null_ops.dr_domain_create(ctx, type, domainp);

    if (!error) {
        fdb_add(type == MLX5DV_DR_DOMAIN_TYPE_FDB, *domainp);
    }
    return error;
}

static int
esw_dr_domain_destroy(struct mlx5dv_dr_domain *domain)
{
    fdb_del(domain);
    return bench_null_ops.dr_domain_destroy(domain);
}

static int
esw_dr_table_create(struct mlx5dv_dr_domain *domain, uint32_t level,
                    struct mlx5dv_dr_table **tablep)
{
    int error = bench_null_ops.dr_table_create(domain, level, tablep);

    if (!error) {
        fdb_add(fdb_has(domain), *tablep);
    }
    return error;
}

static int
esw_dr_table_destroy(struct mlx5dv_dr_table *table)
{
    fdb_del(table);
    return bench_null_ops.dr_table_destroy(table);
}

static int
esw_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
                      uint8_t criteria,
                      struct mlx5dv_flow_match_parameters *mask,
                      struct mlx5dv_dr_matcher **matcherp)
{
    int error = bench_null_ops.dr_matcher_create(table, priority, criteria,
                                                 mask, matcherp);

    if (!error) {
        fdb_add(fdb_has(table), *matcherp);
    }
    return error;
}

static int
esw_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher)
{
    fdb_del(matcher);
    return bench_null_ops.dr_matcher_destroy(matcher);
}

static int
esw_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
                   struct mlx5dv_flow_match_parameters *value,
                   size_t n_actions, struct mlx5dv_dr_action *actions[],
                   struct mlx5dv_dr_rule **rulep)
{
    int error = bench_null_ops.dr_rule_create(matcher, value, n_actions,
                                              actions, rulep);

    if (!error && fdb_has(matcher)) {
        *rulep = (struct mlx5dv_dr_rule *) &null_fdb_rule;
        atomic_count_inc(&bench_null_fdb_rules);
    }
    return error;
}

static int
esw_dr_rule_destroy(struct mlx5dv_dr_rule *rule)
{
    if (rule == (struct mlx5dv_dr_rule *) &null_fdb_rule) {
        atomic_count_dec(&bench_null_fdb_rules);
    }
    return bench_null_ops.dr_rule_destroy(rule);
}

static bool
esw_handles(const char *devname)
{
    return bench_model_of(devname, ESW_DEV_PREFIX) != NULL;
}

/* Puts the model device in switchdev mode, with VF 0 and VF 1, before the
 * first port opens it (the number of VFs cannot change while it is
 * open). */
static int
esw_open(const char *devname, struct ibv_context **ctxp)
{
    const char *model = bench_model_of(devname, ESW_DEV_PREFIX);
    int error = hw_model_set_vfs(model, 2);

    return error ? error : hw_model_ops.open(model, ctxp);
}

void
bench_esw_init(void)
{
    bench_null_esw_ops = bench_null_ops;
    bench_null_esw_ops.name = "null-esw";
    bench_null_esw_ops.dr_domain_create = esw_dr_domain_create;
    bench_null_esw_ops.dr_domain_destroy = esw_dr_domain_destroy;
    bench_null_esw_ops.dr_table_create = esw_dr_table_create;
    bench_null_esw_ops.dr_table_destroy = esw_dr_table_destroy;
    bench_null_esw_ops.dr_matcher_create = esw_dr_matcher_create;
    bench_null_esw_ops.dr_matcher_destroy = esw_dr_matcher_destroy;
    bench_null_esw_ops.dr_rule_create = esw_dr_rule_create;
    bench_null_esw_ops.dr_rule_destroy = esw_dr_rule_destroy;
    bench_null_esw_ops.handles = esw_handles;
    bench_null_esw_ops.open = esw_open;
    hw_dev_register_backend(&bench_null_esw_ops);
}

/* Opens hw port "'name''suffix'", the representor of 'vf' on the null
 * device in switchdev mode 'devname', with the hw flow API, and checks
 * that it has a table in the FDB. */
static struct netdev *
esw_rep_open(const char *name, const char *suffix, const char *devname,
             const char *vf, int n_rxq)
{
    char *rep_name = xasprintf("%s%s", name, suffix);
    struct netdev_hw_device dev;
    struct netdev *netdev;

    netdev = bench_netdev_open_rep(rep_name, devname, n_rxq, vf);
    CHECK(netdev_hw_get_device(netdev, &dev));
    CHECK(dev.ops == &bench_null_esw_ops);
    CHECK(dev.switchdev && dev.fdb_pipeline && !dev.pipeline);
    /* As dpif-netdev's ports: the plugin looks outputs up by this type. */
    netdev_set_dpif_type(netdev, ESW_DPIF_TYPE);
    CHECK(!netdev_init_flow_api(netdev));
    free(rep_name);
    return netdev;
}

void
bench_esw_open(struct bench_port *port, const char *name,
               const char *devname, int n_rxq, uint32_t peer_odp)
{
    struct dpif_port dpif_port;

    port->esw_netdev = esw_rep_open(name, "e", devname, "vf0", n_rxq);
    port->esw_peer = esw_rep_open(name, "f", devname, "vf1", n_rxq);
    port->esw_odp = u32_to_odp(peer_odp);
    dpif_port.name = CONST_CAST(char *, netdev_get_name(port->esw_peer));
    dpif_port.type = CONST_CAST(char *, "hw");
    dpif_port.port_no = port->esw_odp;
    CHECK(!netdev_ports_insert(port->esw_peer, &dpif_port));
    ofpbuf_init(&port->esw_actions, 0);
    nl_msg_put_u32(&port->esw_actions, OVS_ACTION_ATTR_OUTPUT, peer_odp);
}

void
bench_esw_close(struct bench_port *port)
{
    if (port->esw_netdev) {
        netdev_ports_remove(port->esw_odp, ESW_DPIF_TYPE);
        ofpbuf_uninit(&port->esw_actions);
        netdev_close(port->esw_peer);
        netdev_close(port->esw_netdev);
    }
}
