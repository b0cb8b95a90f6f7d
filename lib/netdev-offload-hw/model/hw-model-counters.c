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

/* ibv_counters objects with mlx5's static attach semantics: the points
 * attached before a flow binds the object, the kernel's copy of them, and
 * the device's packet and byte counts that the rules' hits add to.  Apart
 * from the rules, which bind, unbind and count. */

#include <config.h>
#include "hw-model-flow-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hw-hmap.h"
#include "ovs-thread.h"

/* Every counters object of every context, to validate the pointers found in
 * rules and to count objects per context.  One lock for all devices: the
 * callers serialise per device only. */
static struct ovs_mutex counters_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap all_counters OVS_GUARDED_BY(counters_mutex)
    = HMAP_INITIALIZER(&all_counters);

struct model_counters *
counters_find(const struct ibv_counters *ibv)
{
    struct model_counters *c, *found = NULL;

    if (!ibv) {
        return NULL;
    }
    ovs_mutex_lock(&counters_mutex);
    HMAP_FOR_EACH_WITH_HASH (c, node, hash_pointer(ibv, 0), &all_counters) {
        if (&c->ibv == ibv) {
            found = c;
            break;
        }
    }
    ovs_mutex_unlock(&counters_mutex);
    return found;
}

int
hw_model_counters_create(struct ibv_context *ctx,
                         struct ibv_counters **countersp)
{
    struct model_counters *c = xzalloc(sizeof *c);

    c->ibv.context = ctx;
    ovs_mutex_lock(&counters_mutex);
    hmap_insert(&all_counters, &c->node, hash_pointer(&c->ibv, 0));
    ovs_mutex_unlock(&counters_mutex);

    *countersp = &c->ibv;
    return 0;
}

int
hw_model_counters_attach(struct ibv_counters *ibv,
                         struct ibv_counter_attach_attr *attr)
{
    struct model_counters *c = counters_find(ibv);

    if (!c || !attr) {
        return EINVAL;
    }
    /* libmlx5 mlx5_attach_counters_point_flow(), in its order.  The model's
     * API has no 'flow' argument: it is always the static (NULL) mode. */
    if (attr->comp_mask) {
        return EOPNOTSUPP;
    }
    if (attr->counter_desc != IBV_COUNTER_PACKETS
        && attr->counter_desc != IBV_COUNTER_BYTES) {
        return ENOTSUP;
    }
    if (c->n_flows) {
        return EBUSY;
    }

    if (c->n_points >= c->allocated_points) {
        c->points = x2nrealloc(c->points, &c->allocated_points,
                               sizeof *c->points);
    }
    c->points[c->n_points++] = (struct counter_point) {
        .desc = attr->counter_desc,
        .index = attr->index,
    };
    return 0;
}

int
hw_model_counters_read(struct ibv_counters *ibv, uint64_t *values,
                       uint32_t n_values)
{
    struct model_counters *c = counters_find(ibv);

    if (!c) {
        return EINVAL;
    }
    /* uverbs core: an object no flow uses cannot be read. */
    if (!c->n_flows) {
        return EINVAL;
    }
    /* mlx5_ib_read_counters(): the buffer must hold every index. */
    if (n_values < c->max_index) {
        return EINVAL;
    }

    if (n_values) {
        memset(values, 0, n_values * sizeof *values);
    }
    for (size_t i = 0; i < c->n_points; i++) {
        const struct counter_point *pt = &c->points[i];

        /* Points sharing an index add up, as in the kernel. */
        values[pt->index] += (pt->desc == IBV_COUNTER_PACKETS
                              ? c->packets : c->bytes);
    }
    return 0;
}

int
hw_model_counters_destroy(struct ibv_counters *ibv)
{
    struct model_counters *c = counters_find(ibv);

    if (!c) {
        return EINVAL;
    }
    /* The kernel refuses to destroy an object that flows still use
     * (uverbs_free_counters: usecnt != 0), and libibverbs returns that
     * EBUSY: destroy the flows first. */
    if (c->n_flows) {
        return EBUSY;
    }

    ovs_mutex_lock(&counters_mutex);
    hw_hmap_remove_shrink(&all_counters, &c->node);
    ovs_mutex_unlock(&counters_mutex);
    free(c->points);
    free(c);
    return 0;
}

size_t
hw_model_counters_n_alive(const struct ibv_context *ctx)
{
    const struct model_counters *c;
    size_t n = 0;

    ovs_mutex_lock(&counters_mutex);
    HMAP_FOR_EACH (c, node, &all_counters) {
        n += c->ibv.context == ctx;
    }
    ovs_mutex_unlock(&counters_mutex);
    return n;
}

/* A flow starts using 'c'.  The first one gives the kernel its copy of the
 * points. */
void
counters_bind(struct model_counters *c)
{
    if (!c->n_flows++) {
        c->max_index = 0;
        for (size_t i = 0; i < c->n_points; i++) {
            c->max_index = MAX(c->max_index,
                               (uint64_t) c->points[i].index + 1);
        }
    }
}

void
counters_unbind(struct model_counters *c)
{
    ovs_assert(c->n_flows);
    if (!--c->n_flows) {
        c->max_index = 0;       /* mlx5_ib_counters_clear_description(). */
    }
}
