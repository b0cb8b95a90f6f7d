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
#include "hw-model-spec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* The kernel's filters end at these bytes.  For the types whose size may
 * vary, libibverbs takes (size - 8) / 2 as the filter length and refuses a
 * filter shorter than that (get_filters_size()). */
#define IPV4_EXT_MIN_FILTER 12      /* Up to 'flags'. */
#define IPV6_MIN_FILTER 39          /* Up to 'hop_limit'. */
#define TUNNEL_MIN_FILTER 4         /* 'tunnel_id'. */
#define VARIABLE_MIN_SIZE(FILTER) (HW_MODEL_SPEC_HDR_LEN + 2 * (FILTER))

uint16_t
hw_model_spec_min_size(uint32_t type)
{
    /* libibverbs reads the other types as their struct whatever their
     * size says, and hands the kernel the sizes it writes itself, so a
     * short spec is read past its end, into the next spec or beyond the
     * buffer.  The model refuses it with EINVAL, libibverbs' errno for a
     * short filter and the kernel's for a TAG, DROP or COUNT spec of the
     * wrong size (kern_spec_to_ib_spec_action(); EOPNOTSUPP there for an
     * ACTION_HANDLE, which the model refuses like the others). */
    switch (type) {
    case IBV_FLOW_SPEC_ETH:
    case IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER:
        return sizeof(struct ibv_flow_spec_eth);
    case IBV_FLOW_SPEC_IPV4:
    case IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER:
        return sizeof(struct ibv_flow_spec_ipv4);
    case IBV_FLOW_SPEC_IPV4_EXT:
    case IBV_FLOW_SPEC_IPV4_EXT | IBV_FLOW_SPEC_INNER:
        return VARIABLE_MIN_SIZE(IPV4_EXT_MIN_FILTER);
    case IBV_FLOW_SPEC_IPV6:
    case IBV_FLOW_SPEC_IPV6 | IBV_FLOW_SPEC_INNER:
        return VARIABLE_MIN_SIZE(IPV6_MIN_FILTER);
    case IBV_FLOW_SPEC_ESP:
    case IBV_FLOW_SPEC_ESP | IBV_FLOW_SPEC_INNER:
        return sizeof(struct ibv_flow_spec_esp);
    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
    case IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER:
    case IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER:
        return sizeof(struct ibv_flow_spec_tcp_udp);
    case IBV_FLOW_SPEC_GRE:
        return sizeof(struct ibv_flow_spec_gre);
    case IBV_FLOW_SPEC_MPLS:
    case IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER:
        return sizeof(struct ibv_flow_spec_mpls);
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        return VARIABLE_MIN_SIZE(TUNNEL_MIN_FILTER);
    case IBV_FLOW_SPEC_ACTION_TAG:
        return sizeof(struct ibv_flow_spec_action_tag);
    case IBV_FLOW_SPEC_ACTION_DROP:
        return sizeof(struct ibv_flow_spec_action_drop);
    case IBV_FLOW_SPEC_ACTION_HANDLE:
        return sizeof(struct ibv_flow_spec_action_handle);
    case IBV_FLOW_SPEC_ACTION_COUNT:
        return sizeof(struct ibv_flow_spec_counter_action);
    default:
        /* libibverbs: EINVAL, including the INNER forms it has no case
         * for. */
        return 0;
    }
}

void
hw_model_spec_iter_init(struct hw_model_spec_iter *iter, const void *specs,
                        unsigned int n_specs)
{
    iter->start = specs;
    iter->pos = specs;
    iter->index = 0;
    iter->n_specs = n_specs;
    iter->error = 0;
    iter->reason[0] = '\0';
}

bool
hw_model_spec_iter_next(struct hw_model_spec_iter *iter,
                        struct hw_model_spec *spec)
{
    uint16_t min_size;
    uint32_t type;
    uint16_t size;

    if (iter->error || iter->index >= iter->n_specs) {
        return false;
    }

    memcpy(&type, iter->pos, sizeof type);
    memcpy(&size, iter->pos + 4, sizeof size);
    min_size = hw_model_spec_min_size(type);
    if (!min_size) {
        iter->error = EINVAL;
        snprintf(iter->reason, sizeof iter->reason,
                 "spec %u: unknown type %#"PRIx32"%s", iter->index, type,
                 type & IBV_FLOW_SPEC_INNER
                 ? " (GRE, VXLAN_TUNNEL and actions have no INNER form)"
                 : "");
        return false;
    }
    if (size < min_size) {
        iter->error = EINVAL;
        snprintf(iter->reason, sizeof iter->reason,
                 "spec %u: size %"PRIu16" is below the %"PRIu16" bytes of "
                 "type %#"PRIx32, iter->index, size, min_size, type);
        return false;
    }

    spec->data = iter->pos;
    spec->type = type;
    spec->size = size;
    spec->index = iter->index;
    iter->pos += size;
    iter->index++;
    return true;
}

size_t
hw_model_spec_iter_len(const struct hw_model_spec_iter *iter)
{
    return iter->pos - iter->start;
}

const void *
hw_model_spec_object(const struct hw_model_spec *spec)
{
    const void *object;

    ovs_assert(spec->type == IBV_FLOW_SPEC_ACTION_HANDLE
               || spec->type == IBV_FLOW_SPEC_ACTION_COUNT);
    memcpy(&object, spec->data + HW_MODEL_SPEC_HDR_LEN, sizeof object);
    return object;
}
