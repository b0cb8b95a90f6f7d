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

#ifndef HW_CT_CONN_H
#define HW_CT_CONN_H 1

/* The record hw-ct.c keeps of each connection conntrack offered, in little
 * memory: a device holds a million connections and more.
 *
 * It keeps what the connection's rules need and netdev-hw/dump-conns
 * shows: the original tuple's addresses (IPv4 ones in 4 bytes), the ports
 * (or ICMP identifier, type and code) of both directions, the zone, the
 * mark, the low 32 bits of the label (all the device sets), the in_port of
 * each direction and, per direction, the handles of its rule in the
 * device (hw_flow_dr_small) and why it has none, as an index into a table
 * of the reasons (hw_ct_reason()).  The reply tuple is the original's
 * reversed.  A connection whose reply tuple is not that (NAT), or that has
 * NAT, has an extension: the reply tuple, the full label (the packets the
 * device translated get it back in software) and the NAT rules. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-ct.h"
#include "hw-flow-dr.h"
#include "openvswitch/hmap.h"
#include "openvswitch/types.h"
#include "ovs-atomic.h"

/* Flags. */
#define HW_CT_CONN_IPV6     0x01    /* Addresses are IPv6. */
#define HW_CT_CONN_PENDING  0x02    /* In the queue of the thread. */
#define HW_CT_CONN_DELETED  0x04    /* hw_ct_conn_del() was called. */

/* A rule of one direction of a connection, in the connection table of the
 * port its packets arrive by (in_port). */
struct hw_ct_conn_rule {
    struct hw_flow_dr_small flow;       /* If 'installed'. */
    uint32_t packets;                   /* Low 32 bits at the last read. */
    uint16_t why;                       /* Why it is not installed: an
                                         * index for hw_ct_reason(), 0 for
                                         * none given. */
    bool installed;
};

/* The NAT rule of a direction (for the stages with nat). */
struct hw_ct_nat_rule {
    struct hw_ct_conn_rule rule;
    struct hw_ct_restore_dir *restore;  /* While installed. */
};

struct hw_ct_conn_ext {
    struct ct_dpif_tuple reply;
    ovs_u128 label;
    struct hw_ct_nat_rule nat[2];       /* If the connection has NAT. */
};

struct hw_ct_conn {
    struct hmap_node node;              /* By 'id', until deleted. */
    const void *id;
    struct hw_ct_conn *next;            /* In the thread's queue. */
    struct hw_ct_conn_ext *ext;         /* NULL for most. */
    atomic_llong used;                  /* time_msec(), 0 if never. */
    uint32_t mark;
    uint32_t label;                     /* Low 32 bits of the ct_label. */
    odp_port_t in_port[2];              /* ODPP_NONE if not seen yet. */
    ovs_be16 ports[2][2];               /* Per direction: the tuple's
                                         * src_port (icmp_id) and dst_port
                                         * (icmp_type, icmp_code). */
    uint16_t zone;
    uint8_t nat;                        /* HW_CT_NAT_*. */
    uint8_t ip_proto;
    uint8_t flags;                      /* HW_CT_CONN_*. */
    struct hw_ct_conn_rule dir[2];
    ovs_be32 addr[];                    /* The original tuple's source and
                                         * destination: 1 or 4 words each. */
};

/* A new record of the connection 'info' (the caller inserts it in its
 * map by 'id'), with its flags 0 and its rules not installed. */
struct hw_ct_conn *hw_ct_conn_create(const struct hw_ct_conn_info *);
void hw_ct_conn_free(struct hw_ct_conn *);

/* The bytes allocated for 'conn'. */
size_t hw_ct_conn_size(const struct hw_ct_conn *);

/* The tuple of direction 'd' (0 original, 1 reply) and the label. */
void hw_ct_conn_tuple(const struct hw_ct_conn *, int d,
                      struct ct_dpif_tuple *);
ovs_u128 hw_ct_conn_label(const struct hw_ct_conn *);

/* A direction's NAT rule, or NULL for a connection without NAT. */
struct hw_ct_nat_rule *hw_ct_conn_nat(const struct hw_ct_conn *, int d);

/* Reasons, kept once each: a rule that is not installed keeps a 16-bit
 * index instead of a copy of its reason.  hw_ct_reason_index(NULL) is 0;
 * hw_ct_reason(0) is NULL.  Thread safe. */
uint16_t hw_ct_reason_index(const char *reason);
const char *hw_ct_reason(uint16_t index);

#endif /* hw-ct-conn.h */
