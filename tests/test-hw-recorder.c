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
#undef NDEBUG
#include "test-hw-recorder.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "hw-encode-dr.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "test-hw-check.h"
#include "util.h"

static struct recorder *rec;    /* The recorder whose entries run. */

static const char *const kind_prefix[N_HANDLE_KINDS] = {
    "c", "f", "a", "d", "t", "m", "r", "da", "o",
};

static void
rec_add(const void *ptr, enum handle_kind kind)
{
    struct handle *h;

    CHECK(rec->n_handles < ARRAY_SIZE(rec->handles));
    h = &rec->handles[rec->n_handles++];
    h->ptr = ptr;
    h->kind = kind;
    h->mask = NULL;
    h->ordinal = ++rec->next_ordinal[kind];
    ds_put_format(&rec->log, " -> %s%d\n", kind_prefix[kind], h->ordinal);
}

static struct handle *
rec_find(const void *ptr, enum handle_kind kind)
{
    for (size_t i = 0; i < rec->n_handles; i++) {
        if (rec->handles[i].ptr == ptr && rec->handles[i].kind == kind) {
            return &rec->handles[i];
        }
    }
    ovs_abort(0, "%s: a %s handle the device never returned was handed "
              "to it", rec->name, kind_prefix[kind]);
}

static void
rec_put_handle(const void *ptr, enum handle_kind kind)
{
    ds_put_format(&rec->log, " %s%d", kind_prefix[kind],
                  rec_find(ptr, kind)->ordinal);
}

static void
rec_remove(const void *ptr, enum handle_kind kind)
{
    struct handle *h = rec_find(ptr, kind);

    free(h->mask);
    *h = rec->handles[--rec->n_handles];
}

static void *
rec_fake(size_t size)
{
    rec->n_fakes++;
    return xzalloc(size);
}

static void
rec_free_fake(void *p)
{
    CHECK(rec->n_fakes > 0);
    rec->n_fakes--;
    free(p);
}

static int
rec_create_counters(struct ibv_context *ctx, struct ibv_counters **cp)
{
    int error = 0;

    ds_put_cstr(&rec->log, "create_counters");
    if (rec->forward) {
        error = rec->base->create_counters(ctx, cp);
    } else {
        *cp = rec_fake(sizeof **cp);
        (*cp)->context = ctx;
    }
    if (!error) {
        rec_add(*cp, H_COUNTERS);
    }
    return error;
}

static int
rec_attach_counters(struct ibv_counters *counters,
                    struct ibv_counter_attach_attr *attr)
{
    int error = 0;

    ds_put_cstr(&rec->log, "attach_counters");
    rec_put_handle(counters, H_COUNTERS);
    ds_put_format(&rec->log, " desc=%d index=%"PRIu32" comp_mask=%#"PRIx32
                  "\n", (int) attr->counter_desc, attr->index,
                  attr->comp_mask);
    if (rec->forward) {
        error = rec->base->attach_counters(counters, attr);
    }
    return error;
}

static int
rec_read_counters(struct ibv_counters *counters, uint64_t *values,
                  uint32_t n_values)
{
    int error = 0;

    ds_put_cstr(&rec->log, "read_counters");
    rec_put_handle(counters, H_COUNTERS);
    ds_put_format(&rec->log, " n=%"PRIu32"\n", n_values);
    if (rec->forward) {
        error = rec->base->read_counters(counters, values, n_values);
    } else {
        memset(values, 0, n_values * sizeof *values);
    }
    return error;
}

static int
rec_destroy_counters(struct ibv_counters *counters)
{
    int error = 0;

    ds_put_cstr(&rec->log, "destroy_counters");
    rec_put_handle(counters, H_COUNTERS);
    ds_put_char(&rec->log, '\n');
    rec_remove(counters, H_COUNTERS);
    if (rec->forward) {
        error = rec->base->destroy_counters(counters);
    } else {
        rec_free_fake(counters);
    }
    return error;
}

/* Appends the bytes of the ibv_flow_attr at 'attr', walked as libibverbs
 * walks it (specs back to back after the 20-byte header, each 'size'
 * bytes long), with the handles inside written as ordinals. */
static void
rec_put_flow_attr(const struct ibv_flow_attr *attr)
{
    const uint8_t *p = (const uint8_t *) attr;
    struct ofpbuf copy;
    size_t ofs = sizeof *attr;

    CHECK(sizeof *attr == 20);
    CHECK(attr->num_of_specs <= 10);
    ofpbuf_init(&copy, 0);
    ofpbuf_put(&copy, p, ofs);
    for (int i = 0; i < attr->num_of_specs; i++) {
        uint32_t type;
        uint16_t size;

        memcpy(&type, p + ofs, sizeof type);
        memcpy(&size, p + ofs + 4, sizeof size);
        CHECK(size >= 8 && size <= sizeof(struct ibv_flow_spec));
        ofpbuf_put(&copy, p + ofs, size);

        if (type == IBV_FLOW_SPEC_ACTION_COUNT
            || type == IBV_FLOW_SPEC_ACTION_HANDLE) {
            enum handle_kind kind = (type == IBV_FLOW_SPEC_ACTION_COUNT
                                     ? H_COUNTERS : H_ACTION);
            uint64_t ordinal;
            const void *ptr;

            CHECK(size == 16);
            memcpy(&ptr, p + ofs + 8, sizeof ptr);
            ordinal = rec_find(ptr, kind)->ordinal;
            memcpy((uint8_t *) copy.data + ofs + 8, &ordinal,
                   sizeof ordinal);
        }
        ofs += size;
    }
    CHECK(attr->size == ofs);
    ds_put_hex_dump(&rec->log, copy.data, copy.size, 0, false);
    ofpbuf_uninit(&copy);
}

static int
rec_create_flow(struct ibv_qp *qp, struct ibv_flow_attr *attr,
                struct ibv_flow **flowp)
{
    int error = 0;

    CHECK(qp == rec->dest);
    ds_put_cstr(&rec->log, "create_flow\n");
    rec_put_flow_attr(attr);
    if (rec->forward) {
        error = rec->base->create_flow(qp, attr, flowp);
    } else {
        *flowp = rec_fake(sizeof **flowp);
        (*flowp)->context = qp->context;
    }
    if (!error) {
        rec_add(*flowp, H_FLOW);
    }
    return error;
}

static int
rec_destroy_flow(struct ibv_flow *flow)
{
    int error = 0;

    ds_put_cstr(&rec->log, "destroy_flow");
    rec_put_handle(flow, H_FLOW);
    ds_put_char(&rec->log, '\n');
    rec_remove(flow, H_FLOW);
    if (rec->forward) {
        error = rec->base->destroy_flow(flow);
    } else {
        rec_free_fake(flow);
    }
    return error;
}

static int
rec_create_reformat(struct ibv_context *ctx, size_t data_sz, void *data,
                    enum mlx5dv_flow_action_packet_reformat_type type,
                    enum mlx5dv_flow_table_type ft_type,
                    struct ibv_flow_action **actionp)
{
    int error = 0;

    ds_put_format(&rec->log, "create_reformat type=%d ft_type=%d\n",
                  (int) type, (int) ft_type);
    ds_put_hex_dump(&rec->log, data, data_sz, 0, false);
    if (rec->forward) {
        error = rec->base->create_reformat(ctx, data_sz, data, type,
                                           ft_type, actionp);
    } else {
        *actionp = rec_fake(sizeof **actionp);
        (*actionp)->context = ctx;
    }
    if (!error) {
        rec_add(*actionp, H_ACTION);
    }
    return error;
}

static int
rec_destroy_action(struct ibv_flow_action *action)
{
    int error = 0;

    ds_put_cstr(&rec->log, "destroy_action");
    rec_put_handle(action, H_ACTION);
    ds_put_char(&rec->log, '\n');
    rec_remove(action, H_ACTION);
    if (rec->forward) {
        error = rec->base->destroy_action(action);
    } else {
        rec_free_fake(action);
    }
    return error;
}

/* The pipeline of tables.  The recorder forwards when the backend has dr
 * operations; otherwise (the NIC model before it had them, the rdma-core
 * backend without a NIC) it makes up the objects. */

/* Ends a create of an object of 'KIND' into '*OBJP': the backend's 'CALL'
 * if forwarding, otherwise a made-up object. */
#define REC_CREATE(CALL, OBJP, KIND)                    \
    do {                                                \
        int error_ = 0;                                 \
                                                        \
        if (rec->dr_forward) {                          \
            error_ = (CALL);                            \
        } else {                                        \
            *(OBJP) = rec_fake(8);                      \
        }                                               \
        return rec_created(error_, *(OBJP), KIND);      \
    } while (0)

/* Ends a create: logs the new object's handle, or the error. */
static int
rec_created(int error, const void *obj, enum handle_kind kind)
{
    if (error) {
        ds_put_format(&rec->log, " -> %s\n", ovs_strerror(error));
    } else {
        rec_add(obj, kind);
    }
    return error;
}

/* Logs the destruction of 'obj' and forgets it; returns true if the
 * backend is to destroy it, false if it was made up (and is freed). */
static bool
rec_destroyed(const char *what, void *obj, enum handle_kind kind)
{
    ds_put_cstr(&rec->log, what);
    rec_put_handle(obj, kind);
    ds_put_char(&rec->log, '\n');
    rec_remove(obj, kind);
    if (!rec->dr_forward) {
        rec_free_fake(obj);
    }
    return rec->dr_forward;
}

/* Logs the bytes of 'params' and returns a copy of them. */
static struct hw_dr_match *
rec_put_match(const struct mlx5dv_flow_match_parameters *params)
{
    struct hw_dr_match *match = xzalloc(sizeof *match);

    CHECK(params->match_sz <= sizeof match->buf);
    match->match_sz = params->match_sz;
    memcpy(match->buf, params->match_buf, params->match_sz);
    ds_put_format(&rec->log, " size=%"PRIuSIZE"\n", params->match_sz);
    ds_put_hex_dump(&rec->log, match->buf, match->match_sz, 0, false);
    return match;
}

static int
rec_dr_domain_create(struct ibv_context *ctx,
                     enum mlx5dv_dr_domain_type type,
                     struct mlx5dv_dr_domain **domainp)
{
    ds_put_format(&rec->log, "dr_domain_create type=%d", (int) type);
    REC_CREATE(rec->base->dr_domain_create(ctx, type, domainp), domainp,
               H_DOMAIN);
}

static int
rec_dr_domain_sync(struct mlx5dv_dr_domain *domain, uint32_t flags)
{
    ds_put_cstr(&rec->log, "dr_domain_sync");
    rec_put_handle(domain, H_DOMAIN);
    ds_put_format(&rec->log, " flags=%#"PRIx32"\n", flags);
    return rec->dr_forward ? rec->base->dr_domain_sync(domain, flags) : 0;
}

static int
rec_dr_table_create(struct mlx5dv_dr_domain *domain, uint32_t level,
                    struct mlx5dv_dr_table **tablep)
{
    ds_put_cstr(&rec->log, "dr_table_create");
    rec_put_handle(domain, H_DOMAIN);
    ds_put_format(&rec->log, " level=%"PRIu32, level);
    REC_CREATE(rec->base->dr_table_create(domain, level, tablep), tablep,
               H_TABLE);
}

static int
rec_dr_matcher_create(struct mlx5dv_dr_table *table, uint16_t priority,
                      uint8_t criteria,
                      struct mlx5dv_flow_match_parameters *mask,
                      struct mlx5dv_dr_matcher **matcherp)
{
    struct hw_dr_match *mask_copy;
    int error = 0;

    ds_put_cstr(&rec->log, "dr_matcher_create");
    rec_put_handle(table, H_TABLE);
    ds_put_format(&rec->log, " priority=%"PRIu16" criteria=%#"PRIx8,
                  priority, criteria);
    mask_copy = rec_put_match(mask);
    ds_put_cstr(&rec->log, "  ");
    hw_dr_match_format(mask_copy, NULL, &rec->log);
    if (rec->dr_forward) {
        error = rec->base->dr_matcher_create(table, priority, criteria, mask,
                                             matcherp);
    } else {
        *matcherp = rec_fake(8);
    }
    if (!rec_created(error, *matcherp, H_MATCHER)) {
        /* The handle keeps the mask, to show the rules' values under it. */
        rec_find(*matcherp, H_MATCHER)->mask = mask_copy;
    } else {
        free(mask_copy);
    }
    return error;
}

static int
rec_dr_rule_create(struct mlx5dv_dr_matcher *matcher,
                   struct mlx5dv_flow_match_parameters *value,
                   size_t n_actions, struct mlx5dv_dr_action *actions[],
                   struct mlx5dv_dr_rule **rulep)
{
    struct hw_dr_match *value_copy;

    ds_put_cstr(&rec->log, "dr_rule_create");
    rec_put_handle(matcher, H_MATCHER);
    value_copy = rec_put_match(value);
    ds_put_cstr(&rec->log, "  ");
    hw_dr_match_format(rec_find(matcher, H_MATCHER)->mask, value_copy,
                       &rec->log);
    free(value_copy);
    ds_put_cstr(&rec->log, "\n  actions");
    for (size_t i = 0; i < n_actions; i++) {
        rec_put_handle(actions[i], H_DR_ACTION);
    }
    REC_CREATE(rec->base->dr_rule_create(matcher, value, n_actions,
                                         actions, rulep), rulep, H_RULE);
}

/* Logs what an action is made of, handles as ordinals. */
static void
rec_put_action_attr(const struct hw_dr_action_attr *attr)
{
    static const char *const names[HW_DR_N_ACTIONS] = {
        "drop", "default_miss", "tag", "dest_qp", "dest_table",
        "dest_vport", "dest_array", "counter", "reformat", "modify_header",
        "push_vlan", "pop_vlan", "flow_meter",
    };

    CHECK(attr->type < HW_DR_N_ACTIONS);
    ds_put_format(&rec->log, " %s", names[attr->type]);
    switch (attr->type) {
    case HW_DR_ACTION_TAG:
        ds_put_format(&rec->log, " tag=%#"PRIx32, attr->tag);
        break;
    case HW_DR_ACTION_DEST_QP:
        CHECK(attr->qp == rec->dest);
        break;
    case HW_DR_ACTION_DEST_TABLE:
        rec_put_handle(attr->table, H_TABLE);
        break;
    case HW_DR_ACTION_DEST_VPORT:
        ds_put_format(&rec->log, " vport=%"PRIu32, attr->vport);
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        ds_put_format(&rec->log, " n=%"PRIuSIZE, attr->array.n);
        for (size_t i = 0; i < attr->array.n; i++) {
            CHECK(attr->array.dests[i]->type == MLX5DV_DR_ACTION_DEST);
            rec_put_handle(attr->array.dests[i]->dest, H_DR_ACTION);
        }
        break;
    case HW_DR_ACTION_COUNTER:
        rec_put_handle(attr->counter.obj, H_DEVX);
        ds_put_format(&rec->log, " offset=%"PRIu32, attr->counter.offset);
        break;
    case HW_DR_ACTION_REFORMAT:
        ds_put_format(&rec->log, " type=%d size=%"PRIuSIZE,
                      (int) attr->reformat.type, attr->reformat.size);
        CHECK(!attr->reformat.data == !attr->reformat.size);
        if (attr->reformat.size) {
            ds_put_char(&rec->log, '\n');
            ds_put_hex_dump(&rec->log, attr->reformat.data,
                            attr->reformat.size, 0, false);
        }
        break;
    case HW_DR_ACTION_MODIFY_HEADER:
        ds_put_format(&rec->log, " size=%"PRIuSIZE"\n", attr->modify.size);
        ds_put_hex_dump(&rec->log, attr->modify.commands, attr->modify.size,
                        0, false);
        ds_put_cstr(&rec->log, "  ");
        hw_dr_modify_format(attr->modify.commands, attr->modify.size,
                            &rec->log);
        break;
    case HW_DR_ACTION_PUSH_VLAN:
        ds_put_format(&rec->log, " vlan_hdr=%#"PRIx32,
                      ntohl(attr->vlan_hdr));
        break;
    case HW_DR_ACTION_FLOW_METER:
        rec_put_handle(attr->meter.next_table, H_TABLE);
        ds_put_format(&rec->log, " reg_c_%u%s", attr->meter.reg_c_index,
                      attr->meter.active ? "" : " inactive");
        break;
    case HW_DR_ACTION_DROP:
    case HW_DR_ACTION_DEFAULT_MISS:
    case HW_DR_ACTION_POP_VLAN:
    case HW_DR_N_ACTIONS:
        break;
    }
}

static int
rec_dr_action_create(struct mlx5dv_dr_domain *domain,
                     const struct hw_dr_action_attr *attr,
                     struct mlx5dv_dr_action **actionp)
{
    ds_put_cstr(&rec->log, "dr_action_create");
    rec_put_handle(domain, H_DOMAIN);
    rec_put_action_attr(attr);
    REC_CREATE(rec->base->dr_action_create(domain, attr, actionp), actionp,
               H_DR_ACTION);
}

static int
rec_dr_counter_create(struct ibv_context *ctx, struct mlx5dv_devx_obj **objp)
{
    ds_put_cstr(&rec->log, "dr_counter_create");
    REC_CREATE(rec->base->dr_counter_create(ctx, objp), objp, H_DEVX);
}

static int
rec_dr_counter_query(struct mlx5dv_devx_obj *obj, uint64_t *packets,
                     uint64_t *bytes)
{
    ds_put_cstr(&rec->log, "dr_counter_query");
    rec_put_handle(obj, H_DEVX);
    ds_put_char(&rec->log, '\n');
    if (rec->dr_forward) {
        return rec->base->dr_counter_query(obj, packets, bytes);
    }
    *packets = *bytes = 0;
    return 0;
}

/* The destroy operations, one per kind of object. */
#define REC_DR_DESTROY(NAME, TYPE, KIND)                                \
    static int                                                          \
    rec_dr_##NAME(TYPE *obj)                                            \
    {                                                                   \
        return (rec_destroyed(#NAME, obj, KIND)                         \
                ? rec->base->dr_##NAME(obj) : 0);                       \
    }
REC_DR_DESTROY(domain_destroy, struct mlx5dv_dr_domain, H_DOMAIN)
REC_DR_DESTROY(table_destroy, struct mlx5dv_dr_table, H_TABLE)
REC_DR_DESTROY(matcher_destroy, struct mlx5dv_dr_matcher, H_MATCHER)
REC_DR_DESTROY(rule_destroy, struct mlx5dv_dr_rule, H_RULE)
REC_DR_DESTROY(action_destroy, struct mlx5dv_dr_action, H_DR_ACTION)
REC_DR_DESTROY(counter_destroy, struct mlx5dv_devx_obj, H_DEVX)

void
recorder_init(struct recorder *r, const char *name,
              const struct hw_dev_ops *base, bool forward)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->base = base;
    r->forward = forward;
    r->ops = *base;
    r->ops.create_counters = rec_create_counters;
    r->ops.attach_counters = rec_attach_counters;
    r->ops.read_counters = rec_read_counters;
    r->ops.destroy_counters = rec_destroy_counters;
    r->ops.create_flow = rec_create_flow;
    r->ops.destroy_flow = rec_destroy_flow;
    r->ops.create_reformat = rec_create_reformat;
    r->ops.destroy_action = rec_destroy_action;
    r->dr_forward = forward && base->dr_domain_create;
    r->ops.dr_domain_create = rec_dr_domain_create;
    r->ops.dr_domain_sync = rec_dr_domain_sync;
    r->ops.dr_domain_destroy = rec_dr_domain_destroy;
    r->ops.dr_table_create = rec_dr_table_create;
    r->ops.dr_table_destroy = rec_dr_table_destroy;
    r->ops.dr_matcher_create = rec_dr_matcher_create;
    r->ops.dr_matcher_destroy = rec_dr_matcher_destroy;
    r->ops.dr_rule_create = rec_dr_rule_create;
    r->ops.dr_rule_destroy = rec_dr_rule_destroy;
    r->ops.dr_action_create = rec_dr_action_create;
    r->ops.dr_action_destroy = rec_dr_action_destroy;
    r->ops.dr_counter_create = rec_dr_counter_create;
    r->ops.dr_counter_query = rec_dr_counter_query;
    r->ops.dr_counter_destroy = rec_dr_counter_destroy;
    ds_init(&r->log);
}

void
recorder_start(struct recorder *r)
{
    rec = r;
}

void
recorder_stop(void)
{
    rec = NULL;
}

void
recorder_check_equal(const struct recorder *a, const struct recorder *b)
{
    const char *la = ds_cstr_ro(&a->log), *lb = ds_cstr_ro(&b->log);

    if (strcmp(la, lb)) {
        size_t i = 0;

        while (la[i] == lb[i]) {
            i++;
        }
        /* Show from the start of the line that differs. */
        while (i > 0 && la[i - 1] != '\n') {
            i--;
        }
        ovs_abort(0, "the device calls differ between backends %s and %s "
                  "from here:\n--- %s\n%.1000s\n--- %s\n%.1000s", a->name,
                  b->name, a->name, la + i, b->name, lb + i);
    }
}
