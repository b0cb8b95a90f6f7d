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

#ifndef HW_MODEL_SPEC_H
#define HW_MODEL_SPEC_H 1

/* The NIC model's one walk over the specs of an ibv_flow_attr.
 *
 * libibverbs (ibv_cmd_create_flow()) walks the specs from the end of the
 * 20-byte attribute by hdr.size, without padding, and reads each one as its
 * fixed struct whatever hdr.size says.  Every part of the model that reads
 * specs (the device's lookup of the objects that ACTION_HANDLE and
 * ACTION_COUNT specs name, the rule parser, the rule formatter) walks them
 * with this iterator, so that they all see the same specs at the same
 * offsets.  It checks each spec's header once: an unknown type, or a size
 * below what libibverbs reads from that type, is EINVAL and ends the walk,
 * so nothing reads past a spec and no spec hides behind a short one.
 * Longer specs are fine, as in libibverbs: the rest is skipped. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* sizeof the 'hdr' of union ibv_flow_spec: type (4), size (2), padding. */
#define HW_MODEL_SPEC_HDR_LEN 8

/* One spec, whole: 'size' is at least hw_model_spec_min_size('type'). */
struct hw_model_spec {
    const uint8_t *data;        /* From the header on. */
    uint32_t type;              /* With IBV_FLOW_SPEC_INNER. */
    uint16_t size;              /* hdr.size. */
    unsigned int index;         /* Position, from 0. */
};

struct hw_model_spec_iter {
    const uint8_t *start;
    const uint8_t *pos;         /* The next spec. */
    unsigned int index;         /* Its index, from 0. */
    unsigned int n_specs;
    int error;                  /* 0, or EINVAL: spec 'index' is bad. */
    char reason[96];            /* Why, if 'error'. */
};

/* The specs of 'attr', which follow it. */
static inline const void *
hw_model_attr_specs(const struct ibv_flow_attr *attr)
{
    return (const uint8_t *) attr + sizeof *attr;
}

/* Starts a walk over the 'n_specs' specs at 'specs'.  next() stores the
 * next spec and returns true, or returns false at the end or, with 'error'
 * and 'reason' set, at a bad spec. */
void hw_model_spec_iter_init(struct hw_model_spec_iter *, const void *specs,
                             unsigned int n_specs);
bool hw_model_spec_iter_next(struct hw_model_spec_iter *,
                             struct hw_model_spec *);

/* Iterates over the 'N_SPECS' specs at 'SPECS'.  After the loop,
 * 'ITER'->error says whether it stopped at a bad spec. */
#define HW_MODEL_SPEC_FOR_EACH(SPEC, ITER, SPECS, N_SPECS)              \
    for (hw_model_spec_iter_init(ITER, SPECS, N_SPECS);                 \
         hw_model_spec_iter_next(ITER, SPEC); )

/* The bytes walked so far: all the specs' once the walk has ended without
 * an error. */
size_t hw_model_spec_iter_len(const struct hw_model_spec_iter *);

/* The smallest valid size of a spec of 'type', or 0 for an unknown type. */
uint16_t hw_model_spec_min_size(uint32_t type);

/* The object pointer (at byte 8) of an ACTION_HANDLE or ACTION_COUNT spec. */
const void *hw_model_spec_object(const struct hw_model_spec *);

#endif /* hw-model-spec.h */
