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

#ifndef HW_OFFLOAD_MARKS_H
#define HW_OFFLOAD_MARKS_H 1

#include <stdbool.h>
#include <stdint.h>
#include "cmap.h"
#include "hash.h"
#include "hw-translate.h"
#include "openvswitch/types.h"
#include "ovs-atomic.h"
#include "packets.h"

struct hw_egress;
struct netdev;

/* The mark table.
 *
 * What the datapath threads need to know about a flow mark, found without a
 * lock: the tunnel metadata of the packets a vport rule decapsulated, for
 * hw_miss_packet_recover(), and the tunnel push an egress rule does for
 * the flow, for the push hook.  Marks are unique in the process (dpif-netdev
 * allocates them from one pool), so one table serves every port.  Entries
 * are never changed in place: a modify replaces them. */
struct hw_mark_rec {
    struct cmap_node node;          /* In 'hw_marks'. */
    uint32_t mark;
    const struct netdev *phys;      /* The port whose rule tags 'mark'. */

    /* Decap, for a vport flow. */
    bool decap;
    bool l3;                        /* L3 decap: a placeholder Ethernet
                                     * header to remove. */
    odp_port_t vport;
    struct hw_tunnel_restore restore;

    /* The tunnel push the device does instead of the software, if
     * 'egress', for packets of in_port 'in_port' and exactly this push. */
    struct hw_egress *egress;
    odp_port_t in_port;
    odp_port_t tnl_port;
    odp_port_t push_out_port;
    uint32_t header_len;
    uint8_t header[HW_REFORMAT_MAX_DATA];
};

/* The table and the number of its records that decapsulate.  Only
 * hw-offload-marks.c changes them; the datapath threads read them without
 * a lock, inline, on the path of every tagged packet. */
extern struct cmap hw_marks;
extern atomic_count hw_n_decap_marks;

/* The record of 'mark', or NULL.  Safe without a lock in an RCU reader. */
static inline const struct hw_mark_rec *
hw_mark_find(uint32_t mark)
{
    const struct hw_mark_rec *rec;

    CMAP_FOR_EACH_WITH_HASH (rec, node, hash_int(mark, 0), &hw_marks) {
        if (rec->mark == mark) {
            return rec;
        }
    }
    return NULL;
}

struct hw_mark_rec *hw_mark_publish(struct hw_mark_rec *);
void hw_mark_retire(struct hw_mark_rec *);
void hw_mark_unpublish(struct hw_mark_rec *, struct hw_mark_rec *old);
bool hw_mark_keep_for_stale(struct hw_mark_rec *);

#endif /* hw-offload-marks.h */
