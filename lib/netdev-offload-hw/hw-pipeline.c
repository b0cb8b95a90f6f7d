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
#include "hw-pipeline.h"

#include <errno.h>
#include <string.h>

#include "hash.h"
#include "hw-rule.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_pipeline);

/* A destroy that fails leaves an object on the device we no longer track:
 * worth a warning, not the caller's to handle. */
static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

struct hw_pipe_table {
    struct hmap_node node;              /* In 'tables', by domain + level. */
    enum mlx5dv_dr_domain_type domain;
    uint32_t level;
    struct mlx5dv_dr_domain *dmn;       /* Its domain's, for rules' own
                                         * actions without the mutex. */
    struct mlx5dv_dr_table *dr;
};

struct hw_pipe_matcher {
    struct hmap_node node;              /* In 'matchers', by key. */
    struct hw_pipe_table *table;
    uint16_t priority;
    uint8_t criteria;
    size_t mask_size;
    uint64_t *mask;                     /* mlx5dv_flow_match_parameters
                                         * buffer: 'mask_size' bytes. */
    unsigned int refs;
    unsigned int id;                    /* For dump-rules. */
    struct mlx5dv_dr_matcher *dr;
};

struct hw_pipe_action {
    union {
        struct hmap_node node;          /* A shared action: in 'actions',
                                         * by key. */
        struct ovs_list list_node;      /* A rule's own action (see
                                         * hw_pipe_action_is_private()): in
                                         * 'private_actions'. */
    };
    enum mlx5dv_dr_domain_type domain;
    enum hw_dr_action_type type;
    uint8_t *key;                       /* What makes two shared actions the
                                         * same: see hw_pipe_action_key().
                                         * NULL for a rule's own action. */
    size_t key_len;
    unsigned int refs;
    unsigned int id;
    struct mlx5dv_dr_action *dr;
};

struct hw_pipeline {
    struct ovs_mutex mutex;
    struct netdev_hw_device dev;
    struct mlx5dv_dr_domain *domains[HW_DR_N_DOMAINS] OVS_GUARDED;
    struct hmap tables OVS_GUARDED;
    struct hmap matchers OVS_GUARDED;
    struct hmap actions OVS_GUARDED;    /* Shared actions. */
    struct ovs_list private_actions OVS_GUARDED;    /* Rules' own. */
    /* Rules' own actions, counted without the mutex: a put makes two.
     * Those with wrappers are also in 'private_actions'. */
    atomic_count n_private;             /* Tags, counters, flow meters... */
    atomic_count n_counters;            /* ...of which counter actions... */
    atomic_count n_tags;                /* ...and tag actions. */
    unsigned int next_id OVS_GUARDED;

    /* The matcher found or made last: the rules of a connection table come
     * one after another with the same mask, which this finds without
     * hashing it. */
    struct hw_pipe_matcher *last_matcher OVS_GUARDED;

    /* The Geneve TLV option object, while rules match its option. */
    struct mlx5dv_devx_obj *geneve_obj OVS_GUARDED;
    struct hw_geneve_opt geneve_opt OVS_GUARDED;
    unsigned int geneve_refs OVS_GUARDED;
};

static void hw_pipe_matcher_free(struct hw_pipe_matcher *);

/* The count of a rule's own actions of 'type' besides 'n_private', if
 * any. */
static atomic_count *
hw_pipe_own_kind_count(struct hw_pipeline *p, enum hw_dr_action_type type)
{
    return (type == HW_DR_ACTION_COUNTER ? &p->n_counters
            : type == HW_DR_ACTION_TAG ? &p->n_tags
            : NULL);
}

static void
hw_pipe_count_own(struct hw_pipeline *p, enum hw_dr_action_type type)
{
    atomic_count *kind = hw_pipe_own_kind_count(p, type);

    atomic_count_inc(&p->n_private);
    if (kind) {
        atomic_count_inc(kind);
    }
}

static void
hw_pipe_uncount_own(struct hw_pipeline *p, enum hw_dr_action_type type)
{
    atomic_count *kind = hw_pipe_own_kind_count(p, type);

    atomic_count_dec(&p->n_private);
    if (kind) {
        atomic_count_dec(kind);
    }
}

static const char *const hw_pipe_domain_names[HW_DR_N_DOMAINS] = {
    [MLX5DV_DR_DOMAIN_TYPE_NIC_RX] = "nic_rx",
    [MLX5DV_DR_DOMAIN_TYPE_NIC_TX] = "nic_tx",
    [MLX5DV_DR_DOMAIN_TYPE_FDB] = "fdb",
};

static const char *const hw_pipe_action_names[HW_DR_N_ACTIONS] = {
    [HW_DR_ACTION_DROP] = "drop",
    [HW_DR_ACTION_DEFAULT_MISS] = "default_miss",
    [HW_DR_ACTION_TAG] = "tag",
    [HW_DR_ACTION_DEST_QP] = "dest_qp",
    [HW_DR_ACTION_DEST_TABLE] = "dest_table",
    [HW_DR_ACTION_DEST_VPORT] = "dest_vport",
    [HW_DR_ACTION_DEST_ARRAY] = "dest_array",
    [HW_DR_ACTION_COUNTER] = "counter",
    [HW_DR_ACTION_REFORMAT] = "reformat",
    [HW_DR_ACTION_MODIFY_HEADER] = "modify_header",
    [HW_DR_ACTION_PUSH_VLAN] = "push_vlan",
    [HW_DR_ACTION_POP_VLAN] = "pop_vlan",
    [HW_DR_ACTION_FLOW_METER] = "flow_meter",
};

const char *
hw_pipe_domain_name(enum mlx5dv_dr_domain_type domain)
{
    return domain < HW_DR_N_DOMAINS ? hw_pipe_domain_names[domain] : "?";
}

const char *
hw_pipe_action_name(enum hw_dr_action_type type)
{
    return type < HW_DR_N_ACTIONS ? hw_pipe_action_names[type] : "?";
}

struct hw_pipeline *
hw_pipeline_create(const struct netdev_hw_device *dev)
{
    struct hw_pipeline *p = xzalloc(sizeof *p);

    ovs_assert(dev->ops->dr_domain_create);
    ovs_mutex_init(&p->mutex);
    p->dev = *dev;
    hmap_init(&p->tables);
    hmap_init(&p->matchers);
    hmap_init(&p->actions);
    ovs_list_init(&p->private_actions);
    p->next_id = 1;
    return p;
}

static void
hw_pipe_destroy_warn(const struct hw_pipeline *p, const char *what,
                     int error)
{
    if (error) {
        VLOG_WARN_RL(&rl, "%s: destroying a dr %s failed: %s",
                     p->dev.devname, what, ovs_strerror(error));
    }
}

void
hw_pipeline_destroy(struct hw_pipeline *p)
{
    struct hw_pipe_table *table;

    if (!p) {
        return;
    }
    if (!hmap_is_empty(&p->matchers) || !hmap_is_empty(&p->actions)
        || atomic_count_get(&p->n_private)) {
        struct hw_pipe_matcher *m;
        struct hw_pipe_action *a;

        VLOG_WARN("%s: pipeline closed with %"PRIuSIZE" matchers and "
                  "%"PRIuSIZE" actions still in use", p->dev.devname,
                  hmap_count(&p->matchers),
                  hmap_count(&p->actions) + atomic_count_get(&p->n_private));
        HMAP_FOR_EACH_POP (m, node, &p->matchers) {
            hw_pipe_matcher_free(m);
        }
        HMAP_FOR_EACH_POP (a, node, &p->actions) {
            free(a->key);
            free(a);
        }
        LIST_FOR_EACH_POP (a, list_node, &p->private_actions) {
            free(a);
        }
    }

    /* Deepest level first: nothing refers to a table any more, but a
     * backend may still hold a shallower table's jump to it. */
    for (uint32_t level = p->dev.caps->dr_max_level + 1; level-- > 0;) {
        HMAP_FOR_EACH_SAFE (table, node, &p->tables) {
            if (table->level == level) {
                hw_pipe_destroy_warn(p, "table",
                                     p->dev.ops->dr_table_destroy(table->dr));
                hmap_remove(&p->tables, &table->node);
                free(table);
            }
        }
    }
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        if (p->domains[i]) {
            hw_pipe_destroy_warn(p, "domain",
                                 p->dev.ops->dr_domain_destroy(p->domains[i]));
        }
    }
    hmap_destroy(&p->tables);
    hmap_destroy(&p->matchers);
    hmap_destroy(&p->actions);
    ovs_mutex_destroy(&p->mutex);
    free(p);
}

static int
hw_pipe_domain(struct hw_pipeline *p, enum mlx5dv_dr_domain_type domain,
               struct mlx5dv_dr_domain **domainp)
    OVS_REQUIRES(p->mutex)
{
    int error = 0;

    if (domain >= HW_DR_N_DOMAINS
        || !(p->dev.caps->dr_domains & (1u << domain))) {
        return EOPNOTSUPP;
    }
    if (!p->domains[domain]) {
        error = p->dev.ops->dr_domain_create(p->dev.ctx, domain,
                                             &p->domains[domain]);
    }
    *domainp = p->domains[domain];
    return error;
}

static int
hw_pipe_table(struct hw_pipeline *p, enum mlx5dv_dr_domain_type domain,
              uint32_t level, struct hw_pipe_table **tablep)
    OVS_REQUIRES(p->mutex)
{
    uint32_t hash = hash_2words(domain, level);
    struct mlx5dv_dr_domain *dmn;
    struct hw_pipe_table *table;
    int error;

    HMAP_FOR_EACH_WITH_HASH (table, node, hash, &p->tables) {
        if (table->domain == domain && table->level == level) {
            *tablep = table;
            return 0;
        }
    }
    error = hw_pipe_domain(p, domain, &dmn);
    if (error) {
        return error;
    }
    table = xzalloc(sizeof *table);
    table->domain = domain;
    table->level = level;
    table->dmn = dmn;
    error = p->dev.ops->dr_table_create(dmn, level, &table->dr);
    if (error) {
        free(table);
        return error;
    }
    hmap_insert(&p->tables, &table->node, hash);
    *tablep = table;
    return 0;
}

int
hw_pipeline_table(struct hw_pipeline *p, enum mlx5dv_dr_domain_type domain,
                  uint32_t level, struct mlx5dv_dr_table **tablep)
{
    struct hw_pipe_table *table;
    int error;

    ovs_mutex_lock(&p->mutex);
    error = hw_pipe_table(p, domain, level, &table);
    *tablep = error ? NULL : table->dr;
    ovs_mutex_unlock(&p->mutex);
    return error;
}

static uint32_t
hw_pipe_matcher_hash(const struct hw_pipe_table *table, uint16_t priority,
                     uint8_t criteria, const void *mask, size_t mask_size)
{
    uint32_t hash = hash_pointer(table, priority << 8 | criteria);

    return hash_bytes(mask, mask_size, hash);
}

int
hw_pipeline_matcher_ref(struct hw_pipeline *p,
                        enum mlx5dv_dr_domain_type domain, uint32_t level,
                        uint16_t priority, uint8_t criteria, const void *mask,
                        size_t mask_size, struct hw_pipe_matcher **matcherp)
{
    struct mlx5dv_flow_match_parameters *params;
    struct hw_pipe_matcher *m;
    struct hw_pipe_table *table;
    uint32_t hash;
    int error;

    *matcherp = NULL;
    if (mask_size > HW_DR_MATCH_MAX_SIZE) {
        /* What the device says of it, without asking it. */
        return EINVAL;
    }

    ovs_mutex_lock(&p->mutex);
    m = p->last_matcher;
    if (m && m->table->domain == domain && m->table->level == level
        && m->priority == priority && m->criteria == criteria
        && m->mask_size == mask_size && !memcmp(m->mask, mask, mask_size)) {
        m->refs++;
        *matcherp = m;
        error = 0;
        goto out;
    }
    error = hw_pipe_table(p, domain, level, &table);
    if (error) {
        goto out;
    }
    hash = hw_pipe_matcher_hash(table, priority, criteria, mask, mask_size);
    HMAP_FOR_EACH_WITH_HASH (m, node, hash, &p->matchers) {
        if (m->table == table && m->priority == priority
            && m->criteria == criteria && m->mask_size == mask_size
            && !memcmp(m->mask, mask, mask_size)) {
            m->refs++;
            *matcherp = m;
            p->last_matcher = m;
            goto out;
        }
    }

    m = xzalloc(sizeof *m);
    m->table = table;
    m->priority = priority;
    m->criteria = criteria;
    m->mask_size = mask_size;
    params = xzalloc(sizeof *params + ROUND_UP(mask_size, 8));
    params->match_sz = mask_size;
    memcpy(params->match_buf, mask, mask_size);
    error = p->dev.ops->dr_matcher_create(table->dr, priority, criteria,
                                          params, &m->dr);
    if (error) {
        free(params);
        free(m);
        goto out;
    }
    /* Keep the mask for lookups: the parameters' buffer is it. */
    m->mask = params->match_buf;
    m->refs = 1;
    m->id = p->next_id++;
    hmap_insert(&p->matchers, &m->node, hash);
    *matcherp = m;
    p->last_matcher = m;

out:
    ovs_mutex_unlock(&p->mutex);
    return error;
}

static void
hw_pipe_matcher_free(struct hw_pipe_matcher *m)
{
    /* 'mask' points into the mlx5dv_flow_match_parameters allocation. */
    free(CONTAINER_OF(m->mask, struct mlx5dv_flow_match_parameters,
                      match_buf));
    free(m);
}

void
hw_pipeline_matcher_unref(struct hw_pipeline *p, struct hw_pipe_matcher *m)
{
    if (!m) {
        return;
    }
    ovs_mutex_lock(&p->mutex);
    ovs_assert(m->refs > 0);
    if (!--m->refs) {
        hw_pipe_destroy_warn(p, "matcher",
                             p->dev.ops->dr_matcher_destroy(m->dr));
        hmap_remove(&p->matchers, &m->node);
        if (p->last_matcher == m) {
            p->last_matcher = NULL;
        }
        hw_pipe_matcher_free(m);
    }
    ovs_mutex_unlock(&p->mutex);
}

struct mlx5dv_dr_matcher *
hw_pipe_matcher_dr(const struct hw_pipe_matcher *m)
{
    return m->dr;
}

uint32_t
hw_pipe_matcher_level(const struct hw_pipe_matcher *m)
{
    return m->table->level;
}

/* Appends to 'key' what identifies 'attr': its type and the arguments of
 * its create call, with the bytes of reformat data and modify commands
 * themselves (the caller's buffers do not outlive the call). */
static void
hw_pipe_action_key(enum mlx5dv_dr_domain_type domain,
                   const struct hw_dr_action_attr *attr, struct ofpbuf *key)
{
    uint32_t head[2] = { domain, attr->type };

    ofpbuf_put(key, head, sizeof head);
    switch (attr->type) {
    case HW_DR_ACTION_DROP:
    case HW_DR_ACTION_DEFAULT_MISS:
    case HW_DR_ACTION_POP_VLAN:
    case HW_DR_ACTION_COUNTER:
    case HW_DR_ACTION_FLOW_METER:
        break;
    case HW_DR_ACTION_TAG:
        ofpbuf_put(key, &attr->tag, sizeof attr->tag);
        break;
    case HW_DR_ACTION_DEST_QP:
        ofpbuf_put(key, &attr->qp, sizeof attr->qp);
        break;
    case HW_DR_ACTION_DEST_TABLE:
        ofpbuf_put(key, &attr->table, sizeof attr->table);
        break;
    case HW_DR_ACTION_DEST_VPORT:
        ofpbuf_put(key, &attr->vport, sizeof attr->vport);
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        for (size_t i = 0; i < attr->array.n; i++) {
            const struct mlx5dv_dr_action_dest_attr *d = attr->array.dests[i];
            const void *parts[2] = { NULL, NULL };

            if (d->type == MLX5DV_DR_ACTION_DEST) {
                parts[0] = d->dest;
            } else {
                parts[0] = d->dest_reformat->dest;
                parts[1] = d->dest_reformat->reformat;
            }
            ofpbuf_put(key, parts, sizeof parts);
        }
        break;
    case HW_DR_ACTION_REFORMAT:
        ofpbuf_put(key, &attr->reformat.type, sizeof attr->reformat.type);
        if (attr->reformat.size) {
            ofpbuf_put(key, attr->reformat.data, attr->reformat.size);
        }
        break;
    case HW_DR_ACTION_MODIFY_HEADER:
        ofpbuf_put(key, attr->modify.commands, attr->modify.size);
        break;
    case HW_DR_ACTION_PUSH_VLAN:
        ofpbuf_put(key, &attr->vlan_hdr, sizeof attr->vlan_hdr);
        break;
    case HW_DR_N_ACTIONS:
    default:
        OVS_NOT_REACHED();
    }
}

/* Whether an action of 'type' belongs to one rule instead of being shared
 * by the rules that use the same attribute.  A counter counts one rule.  A
 * tag is a flow's mark, which no other flow has: looking it up among the
 * shared actions would find nothing, after a cache and TLB miss in a map
 * that holds an action per flow and is rehashed as the flows grow, and
 * its key would be one more allocation per flow. */
static bool
hw_pipe_action_is_private(enum hw_dr_action_type type)
{
    return (type == HW_DR_ACTION_COUNTER || type == HW_DR_ACTION_TAG
            || type == HW_DR_ACTION_FLOW_METER);
}

void
hw_pipeline_action_hold(struct hw_pipeline *p, struct hw_pipe_action *a)
{
    ovs_mutex_lock(&p->mutex);
    a->refs++;
    ovs_mutex_unlock(&p->mutex);
}

int
hw_pipeline_action_ref(struct hw_pipeline *p,
                       enum mlx5dv_dr_domain_type domain,
                       const struct hw_dr_action_attr *attr,
                       struct hw_pipe_action **actionp)
{
    bool shared = !hw_pipe_action_is_private(attr->type);
    uint64_t stub[512 / 8];     /* Most keys: no allocation per lookup. */
    struct mlx5dv_dr_domain *dmn;
    struct ofpbuf key;
    struct hw_pipe_action *a;
    uint32_t hash = 0;
    int error;

    *actionp = NULL;
    ofpbuf_use_stub(&key, stub, sizeof stub);
    if (shared) {
        hw_pipe_action_key(domain, attr, &key);
        hash = hash_bytes(key.data, key.size, 0);
    }

    ovs_mutex_lock(&p->mutex);
    if (shared) {
        HMAP_FOR_EACH_WITH_HASH (a, node, hash, &p->actions) {
            if (a->key_len == key.size
                && !memcmp(a->key, key.data, key.size)) {
                a->refs++;
                *actionp = a;
                error = 0;
                goto out;
            }
        }
    }
    error = hw_pipe_domain(p, domain, &dmn);
    if (error) {
        goto out;
    }
    a = xzalloc(sizeof *a);
    error = p->dev.ops->dr_action_create(dmn, attr, &a->dr);
    if (error) {
        free(a);
        goto out;
    }
    a->domain = domain;
    a->type = attr->type;
    a->refs = 1;
    if (shared) {
        /* A rule's own action has no id: only what rules may share is
         * worth telling apart. */
        a->id = p->next_id++;
        a->key_len = key.size;
        a->key = xmemdup(key.data, key.size);
        hmap_insert(&p->actions, &a->node, hash);
    } else {
        ovs_list_push_back(&p->private_actions, &a->list_node);
        hw_pipe_count_own(p, a->type);
    }
    *actionp = a;

out:
    ovs_mutex_unlock(&p->mutex);
    ofpbuf_uninit(&key);
    return error;
}

void
hw_pipeline_action_unref(struct hw_pipeline *p, struct hw_pipe_action *a)
{
    if (!a) {
        return;
    }
    ovs_mutex_lock(&p->mutex);
    ovs_assert(a->refs > 0);
    if (!--a->refs) {
        hw_pipe_destroy_warn(p, hw_pipe_action_name(a->type),
                             p->dev.ops->dr_action_destroy(a->dr));
        if (hw_pipe_action_is_private(a->type)) {
            ovs_list_remove(&a->list_node);
            hw_pipe_uncount_own(p, a->type);
        } else {
            hmap_remove(&p->actions, &a->node);
        }
        free(a->key);
        free(a);
    }
    ovs_mutex_unlock(&p->mutex);
}

struct mlx5dv_dr_action *
hw_pipe_action_dr(const struct hw_pipe_action *a)
{
    return a->dr;
}

enum hw_dr_action_type
hw_pipe_action_type(const struct hw_pipe_action *a)
{
    return a->type;
}

/* Needs no mutex: the domain of 'm' lives as long as 'm', which the caller
 * holds, and the device serialises its own action calls. */
int
hw_pipeline_own_action_create(struct hw_pipeline *p,
                              const struct hw_pipe_matcher *m,
                              const struct hw_dr_action_attr *attr,
                              struct mlx5dv_dr_action **actionp)
{
    int error;

    ovs_assert(hw_pipe_action_is_private(attr->type));
    error = p->dev.ops->dr_action_create(m->table->dmn, attr, actionp);
    if (!error) {
        hw_pipe_count_own(p, attr->type);
    } else {
        *actionp = NULL;
    }
    return error;
}

void
hw_pipeline_own_action_destroy(struct hw_pipeline *p,
                               enum hw_dr_action_type type,
                               struct mlx5dv_dr_action *action)
{
    if (!action) {
        return;
    }
    hw_pipe_destroy_warn(p, hw_pipe_action_name(type),
                         p->dev.ops->dr_action_destroy(action));
    hw_pipe_uncount_own(p, type);
}

struct mlx5dv_dr_action *
hw_pipeline_action_unwrap(struct hw_pipeline *p, struct hw_pipe_action *a)
{
    struct mlx5dv_dr_action *dr = a->dr;

    ovs_assert(hw_pipe_action_is_private(a->type) && a->refs == 1);
    ovs_mutex_lock(&p->mutex);
    ovs_list_remove(&a->list_node);
    ovs_mutex_unlock(&p->mutex);
    free(a);
    return dr;
}

struct hw_pipe_action *
hw_pipeline_action_wrap(struct hw_pipeline *p, const struct hw_pipe_matcher *m,
                        enum hw_dr_action_type type,
                        struct mlx5dv_dr_action *dr)
{
    struct hw_pipe_action *a = xzalloc(sizeof *a);

    ovs_assert(hw_pipe_action_is_private(type));
    a->domain = m->table->domain;
    a->type = type;
    a->refs = 1;
    a->dr = dr;
    ovs_mutex_lock(&p->mutex);
    ovs_list_push_back(&p->private_actions, &a->list_node);
    ovs_mutex_unlock(&p->mutex);
    return a;
}

void
hw_pipe_matcher_format(const struct hw_pipe_matcher *m, struct ds *s)
{
    ds_put_format(s, "matcher #%u (%s level %"PRIu32" priority %"PRIu16")",
                  m->id, hw_pipe_domain_name(m->table->domain),
                  m->table->level, m->priority);
}

void
hw_pipe_action_format(const struct hw_pipe_action *a, struct ds *s)
{
    if (hw_pipe_action_is_private(a->type)) {
        ds_put_cstr(s, hw_pipe_action_name(a->type));
    } else {
        ds_put_format(s, "%s#%u", hw_pipe_action_name(a->type), a->id);
    }
}

void
hw_pipeline_counts(const struct hw_pipeline *p_, struct hw_pipeline_counts *c)
{
    struct hw_pipeline *p = CONST_CAST(struct hw_pipeline *, p_);
    const struct hw_pipe_matcher *m;
    const struct hw_pipe_action *a;

    memset(c, 0, sizeof *c);
    ovs_mutex_lock(&p->mutex);
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        c->domains += p->domains[i] != NULL;
    }
    c->tables = hmap_count(&p->tables);
    c->matchers = hmap_count(&p->matchers);
    c->actions = hmap_count(&p->actions) + atomic_count_get(&p->n_private);
    HMAP_FOR_EACH (m, node, &p->matchers) {
        c->refs += m->refs;
    }
    HMAP_FOR_EACH (a, node, &p->actions) {
        c->refs += a->refs;
    }
    c->refs += atomic_count_get(&p->n_private);     /* One each. */
    ovs_mutex_unlock(&p->mutex);
}

/* Orders matchers by domain, table level, priority and id: the order a
 * packet meets them in. */
static int
hw_pipe_matcher_compare(const void *a_, const void *b_)
{
    const struct hw_pipe_matcher *a = *(const struct hw_pipe_matcher **) a_;
    const struct hw_pipe_matcher *b = *(const struct hw_pipe_matcher **) b_;

    if (a->table->domain != b->table->domain) {
        return a->table->domain < b->table->domain ? -1 : 1;
    }
    if (a->table->level != b->table->level) {
        return a->table->level < b->table->level ? -1 : 1;
    }
    if (a->priority != b->priority) {
        return a->priority < b->priority ? -1 : 1;
    }
    return a->id < b->id ? -1 : a->id > b->id;
}

static int
hw_pipe_table_compare(const void *a_, const void *b_)
{
    const struct hw_pipe_table *a = *(const struct hw_pipe_table **) a_;
    const struct hw_pipe_table *b = *(const struct hw_pipe_table **) b_;

    if (a->domain != b->domain) {
        return a->domain < b->domain ? -1 : 1;
    }
    return a->level < b->level ? -1 : a->level > b->level;
}

static int
hw_pipe_action_compare(const void *a_, const void *b_)
{
    const struct hw_pipe_action *const *a = a_;
    const struct hw_pipe_action *const *b = b_;

    return (*a)->id < (*b)->id ? -1 : (*a)->id > (*b)->id;
}

void
hw_pipeline_format(const struct hw_pipeline *p_, struct ds *s)
{
    struct hw_pipeline *p = CONST_CAST(struct hw_pipeline *, p_);
    const struct hw_pipe_matcher **ms;
    const struct hw_pipe_table **ts;
    const struct hw_pipe_action **as;
    const struct hw_pipe_matcher *m;
    const struct hw_pipe_table *t;
    const struct hw_pipe_action *a;
    size_t n_m = 0, n_t = 0, n_a = 0;

    ovs_mutex_lock(&p->mutex);
    ts = xmalloc(hmap_count(&p->tables) * sizeof *ts + 1);
    HMAP_FOR_EACH (t, node, &p->tables) {
        ts[n_t++] = t;
    }
    qsort(ts, n_t, sizeof *ts, hw_pipe_table_compare);
    ms = xmalloc(hmap_count(&p->matchers) * sizeof *ms + 1);
    HMAP_FOR_EACH (m, node, &p->matchers) {
        ms[n_m++] = m;
    }
    qsort(ms, n_m, sizeof *ms, hw_pipe_matcher_compare);
    as = xmalloc(hmap_count(&p->actions) * sizeof *as + 1);
    HMAP_FOR_EACH (a, node, &p->actions) {
        as[n_a++] = a;
    }
    qsort(as, n_a, sizeof *as, hw_pipe_action_compare);

    /* Each table, then its matchers: both lists are in the same order. */
    for (size_t i = 0, j = 0; i < n_t; i++) {
        t = ts[i];
        ds_put_format(s, "  table %s level %"PRIu32"\n",
                      hw_pipe_domain_name(t->domain), t->level);
        for (; j < n_m && ms[j]->table == t; j++) {
            m = ms[j];
            ds_put_format(s, "    matcher #%u: priority %"PRIu16
                          " criteria 0x%02"PRIx8" mask %"PRIuSIZE" bytes, "
                          "%u rules\n", m->id, m->priority, m->criteria,
                          m->mask_size, m->refs);
        }
    }
    for (size_t i = 0; i < n_a; i++) {
        a = as[i];
        ds_put_format(s, "  action #%u: %s %s, %u users\n", a->id,
                      hw_pipe_domain_name(a->domain),
                      hw_pipe_action_name(a->type), a->refs);
    }
    /* The rules' own actions, counted: a rule that keeps them without
     * their wrappers (hw_flow_dr_install_compact()) has them still. */
    unsigned int n_tags = atomic_count_get(&p->n_tags);
    unsigned int n_counters = atomic_count_get(&p->n_counters);
    if (n_tags) {
        ds_put_format(s, "  tags: %u\n", n_tags);
    }
    if (n_counters) {
        ds_put_format(s, "  counters: %u\n", n_counters);
    }
    ovs_mutex_unlock(&p->mutex);
    free(ts);
    free(ms);
    free(as);
}

int
hw_pipeline_geneve_opt_ref(struct hw_pipeline *p,
                           const struct hw_geneve_opt *opt, struct ds *reason)
{
    const struct hw_dev_ops *ops = p->dev.ops;
    int error = 0;

    ovs_mutex_lock(&p->mutex);
    if (p->geneve_refs) {
        if (memcmp(&p->geneve_opt, opt, sizeof *opt)) {
            ds_put_format(reason, "the device's Geneve option parser is set "
                          "to class %#"PRIx16" type %#"PRIx8" (one option "
                          "per device)", ntohs(p->geneve_opt.opt_class),
                          p->geneve_opt.type);
            error = EBUSY;
        } else {
            p->geneve_refs++;
        }
    } else if (!ops->dr_geneve_opt_create) {
        ds_put_cstr(reason, "the device has no Geneve option parser");
        error = EOPNOTSUPP;
    } else {
        error = ops->dr_geneve_opt_create(p->dev.ctx, opt->opt_class,
                                          opt->type, opt->len,
                                          &p->geneve_obj);
        if (error) {
            ds_put_format(reason, "dr_geneve_opt_create: %s",
                          ovs_strerror(error));
            p->geneve_obj = NULL;
        } else {
            p->geneve_opt = *opt;
            p->geneve_refs = 1;
        }
    }
    ovs_mutex_unlock(&p->mutex);
    return error;
}

void
hw_pipeline_geneve_opt_unref(struct hw_pipeline *p)
{
    ovs_mutex_lock(&p->mutex);
    ovs_assert(p->geneve_refs);
    if (!--p->geneve_refs) {
        int error = p->dev.ops->dr_geneve_opt_destroy(p->geneve_obj);

        /* A parser setting the device keeps only costs the next option
         * another class: log it and forget it, as for a table. */
        hw_pipe_destroy_warn(p, "Geneve option object", error);
        p->geneve_obj = NULL;
        memset(&p->geneve_opt, 0, sizeof p->geneve_opt);
    }
    ovs_mutex_unlock(&p->mutex);
}
