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

#ifndef HW_HMAP_H
#define HW_HMAP_H 1

#include "openvswitch/hmap.h"

/* Removes 'node' from 'hmap', and gives the buckets back once at most a
 * quarter of them would be used.  hmap_remove() never shrinks: a map of
 * rules or device objects that once held a million entries would keep its
 * 8 MB of buckets after the flows went.  hmap_shrink() after every removal
 * would resize back and forth across a power of 2; waiting for a quarter
 * leaves a factor 4 of entries between two shrinks.  Not while iterating
 * over 'hmap' (shrink after the loop). */
static inline void
hw_hmap_shrink_sparse(struct hmap *hmap)
{
    if (hmap->n < (hmap->mask + 1) / 4) {
        hmap_shrink(hmap);
    }
}

static inline void
hw_hmap_remove_shrink(struct hmap *hmap, struct hmap_node *node)
{
    hmap_remove(hmap, node);
    hw_hmap_shrink_sparse(hmap);
}

#endif /* hw-hmap.h */
