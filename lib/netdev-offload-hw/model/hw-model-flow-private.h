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

#ifndef HW_MODEL_FLOW_PRIVATE_H
#define HW_MODEL_FLOW_PRIVATE_H 1

/* The steering engine's internals (hw-model-flow.h is its public face),
 * shared by the files that implement it, each with one job:
 *
 *   hw-model-parse.c       The packet parser: the headers of a frame.
 *   hw-model-counters.c    ibv_counters objects, with mlx5's semantics.
 *   hw-model-match.c       The match parameter: a packet's view of it, a
 *                          table's entries by mask and value, and the
 *                          lookup of a packet by priority.
 *   hw-model-flow-spec.c   A rule's specs: converted to the kernel's layout
 *                          (libibverbs), translated into a match and
 *                          actions (mlx5_ib), and their readable form.
 *   hw-model-flow.c        The engine on top: its tables, ibv_create_flow()
 *                          and ibv_destroy_flow(), the rules' text.
 *
 * Not thread-safe, as hw-model-flow.h says, except for the list of
 * counters objects, which has its own lock.
 *
 * The device (hw-model-private.h) has its own struct model_flow and struct
 * model_counters, its records of the engine's objects: no file includes
 * both headers. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-model-flow.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "util.h"

struct ds;
struct hw_model_spec;

/* Big-endian byte arrays only, so that the structs have no padding: the
 * model compares, masks and hashes them byte by byte. */
struct fte_hdrs {                   /* mlx5 fte_match_set_lyr_2_4. */
    uint8_t dmac[6];
    uint8_t smac[6];
    uint8_t ethertype[2];           /* After the last VLAN tag. */
    uint8_t first_vid[2];           /* 12 bits. */
    uint8_t first_cfi;              /* 1 bit. */
    uint8_t first_prio;             /* 3 bits. */
    uint8_t cvlan_tag;              /* 1: the first tag is 802.1Q. */
    uint8_t ip_version;             /* 4 bits. */
    uint8_t ip_protocol;
    uint8_t ip_dscp;                /* 6 bits. */
    uint8_t ip_ecn;                 /* 2 bits. */
    uint8_t l4_type;                /* L4_TYPE_*; see below. */
    uint8_t src_ip[16];             /* IPv4 in the last 4 bytes. */
    uint8_t dst_ip[16];
    uint8_t tcp_sport[2];
    uint8_t tcp_dport[2];
    uint8_t udp_sport[2];
    uint8_t udp_dport[2];
};

/* l4_type is what the parser found after the IP header.  mlx5 programs only
 * ip_protocol for a TCP or UDP spec; the model also requires the L4 header
 * to be present (not a later fragment, not truncated), so that a rule with
 * an L4 spec never claims a packet whose ports the hardware could not
 * read. */
enum {
    L4_TYPE_NONE = 0,
    L4_TYPE_TCP = 1,
    L4_TYPE_UDP = 2,
};

struct fte_misc {                   /* mlx5 misc_parameters(_2). */
    uint8_t outer_ipv6_flow_label[4];
    uint8_t inner_ipv6_flow_label[4];
    uint8_t gre_protocol[2];
    uint8_t gre_key[4];
    uint8_t vxlan_vni[4];           /* 24 bits. */
    uint8_t outer_first_mpls[4];
    uint8_t inner_first_mpls[4];
    uint8_t outer_first_mpls_over_udp[4];
    uint8_t outer_first_mpls_over_gre[4];
};

struct fte_match {
    struct fte_hdrs outer;
    struct fte_misc misc;
    struct fte_hdrs inner;
};

/* What a packet offers beyond the fields of the match parameter: which
 * headers the parser found.  A field of a header the packet does not have
 * reads as 0, so a rule that masks such a field needs the header to be
 * there; these bits say which. */
enum {
    PRESENT_TUNNEL = 1 << 0,        /* VXLAN or GRE recognised. */
    PRESENT_VXLAN = 1 << 1,
    PRESENT_GRE = 1 << 2,
    PRESENT_INNER_L2 = 1 << 3,      /* An inner Ethernet header. */
    PRESENT_MPLS = 1 << 4,          /* << enum hw_model_mpls_pos. */
};

struct counter_point {
    uint32_t desc;              /* IBV_COUNTER_PACKETS or _BYTES. */
    uint32_t index;             /* Where ibv_read_counters() puts it. */
};

/* mlx5_ib MAX_COUNTERS_NUM: USHRT_MAX / (2 * sizeof(u32)). */
#define MAX_COUNTER_POINTS 8191

struct model_counters {
    struct ibv_counters ibv;        /* Handed to the caller. */
    struct hmap_node node;          /* In 'all_counters'. */

    /* libmlx5's list of attached points.  It only grows: libmlx5 never
     * removes a point, even after the last flow unbinds. */
    struct counter_point *points;
    size_t n_points, allocated_points;

    /* Flows bound to the object: libmlx5's refcount and the kernel's
     * usecnt, which move together for the rules the model accepts. */
    unsigned int n_flows;

    /* The kernel's copy of the points ("description"), taken when the
     * first flow binds and dropped when the last one goes; reads need at
     * least 'max_index' values (the highest index + 1, without the 32-bit
     * wrap-around the kernel has). */
    uint64_t max_index;

    /* The device's flow counter: it lives as long as the object, so values
     * survive unbinding and rebinding. */
    uint64_t packets;
    uint64_t bytes;
};

/* What an entry does with a packet (mlx5 flow_act + flow_context). */
struct fte_action {
    bool fwd;                   /* To the flow's QP (ingress) or to the
                                 * wire (egress: "allow"). */
    bool drop;
    bool count;
    bool fwd_next_prio;         /* DONT_TRAP: and continue to the next
                                 * priority. */
    bool has_tag;
    uint32_t tag;
    const struct ibv_flow_action *reformat;
};

/* One flow table entry.  Rules with the same priority and identical match
 * value and mask share it (mlx5 fs_core add_rule_fg). */
struct model_fte {
    struct ovs_list node;       /* In the table, in creation order. */
    struct hmap_node hmap_node; /* In 'group->ftes', by fte_value_hash(). */
    struct fte_mask_group *group;
    struct model_table *table;
    unsigned int id;            /* For hw_model_steering_format(). */
    struct fte_match value;
    struct fte_match mask;
    uint32_t needs;             /* PRESENT_* bits a packet must have. */
    struct fte_action action;
    struct ovs_list members;    /* struct fte_member, in creation order. */
    uint64_t packets;           /* Hits. */
    uint64_t bytes;
};

/* The entries of one table that have the same mask.  A table has few
 * distinct masks and may have many entries (65536), so creating a rule and
 * looking a packet up cost one hash lookup per mask instead of a comparison
 * per entry. */
struct fte_mask_group {
    struct ovs_list node;       /* In the table's 'masks'. */
    struct fte_match mask;
    struct hmap ftes;           /* struct model_fte, by fte_value_hash(). */
};

struct model_table {
    struct ovs_list ftes;       /* struct model_fte, in creation order. */
    struct ovs_list masks;      /* struct fte_mask_group. */
    size_t n_ftes;
    const char *direction;      /* "ingress", "egress". */
    int core_prio;              /* Index in its namespace. */
    const char *ns;             /* "bypass", "leftovers", "sniffer". */
};

struct model_flow;

/* A flow's membership in an entry.  A rule of type ALL_DEFAULT is two
 * entries (multicast and unicast destination MAC), SNIFFER one per
 * direction. */
struct fte_member {
    struct ovs_list node;       /* In fte->members. */
    struct model_fte *fte;
    struct model_flow *flow;
};

struct model_flow {
    struct ibv_flow ibv;            /* Handed to the caller. */
    struct hmap_node node;          /* In steering->flows. */
    struct ibv_qp *qp;
    uint32_t type;                  /* enum ibv_flow_attr_type. */
    uint16_t priority;
    uint32_t flags;
    struct model_counters *counters; /* Bound by ACTION_COUNT, or NULL. */
    bool counts;                    /* Whether hits add to 'counters'. */
    uint8_t *specs;                 /* A copy of the rule's specs, to show
                                     * it (formatted only when shown: a
                                     * device may hold 65536 rules per
                                     * table, and most are never shown). */
    size_t n_specs;
    size_t n_members;
    struct fte_member members[2];
};

struct hw_model_steering {
    struct hw_model_limits limits;
    struct hmap flows;              /* struct model_flow. */
    unsigned int next_fte_id;
    uint32_t next_handle;

    /* Ingress and egress "bypass" namespaces: core priorities
     * 0 .. 2 * (max_priority + 1) - 1, then the multicast priority. */
    size_t n_prios;
    struct model_table *ingress;
    struct model_table *egress;
    struct model_table leftovers;   /* ALL_DEFAULT, MC_DEFAULT. */
    struct model_table sniffer[2];  /* RX, TX. */

    /* The parser's VXLAN UDP ports, in the order they were added. */
    uint16_t vxlan_ports[HW_MODEL_MAX_VXLAN_PORTS];
    size_t n_vxlan_ports;
};

/* One spec in the kernel's fixed layout: filters zero-filled past what
 * libibverbs copies, IPV4_EXT turned into IPV4. */
struct kspec {
    uint32_t type;              /* Including IBV_FLOW_SPEC_INNER. */
    uint8_t val[40];
    uint8_t mask[40];
    uint32_t tag_id;
    const struct ibv_flow_action *action;
    struct ibv_counters *counters;
};

/* Kernel filter offsets and lengths. */
enum {
    KF_ETH_DMAC = 0,
    KF_ETH_SMAC = 6,
    KF_ETH_TYPE = 12,
    KF_ETH_VLAN = 14,
    KF_ETH_LEN = 16,

    KF_IP4_SRC = 0,
    KF_IP4_DST = 4,
    KF_IP4_PROTO = 8,
    KF_IP4_TOS = 9,
    KF_IP4_TTL = 10,
    KF_IP4_FLAGS = 11,
    KF_IP4_LEN = 12,
    KF_IP4_BASIC_LEN = 8,

    KF_IP6_SRC = 0,
    KF_IP6_DST = 16,
    KF_IP6_LABEL = 32,
    KF_IP6_NEXT = 36,
    KF_IP6_TCLASS = 37,
    KF_IP6_HLIM = 38,
    KF_IP6_LEN = 39,

    KF_L4_DST = 0,
    KF_L4_SRC = 2,
    KF_L4_LEN = 4,

    KF_ESP_SPI = 0,
    KF_ESP_SEQ = 4,
    KF_ESP_LEN = 8,

    KF_GRE_FLAGS = 0,
    KF_GRE_PROTO = 2,
    KF_GRE_KEY = 4,
    KF_GRE_LEN = 8,

    KF_MPLS_LEN = 4,

    KF_TUN_ID = 0,
    KF_TUN_LEN = 4,
};

/* The match and action a NORMAL rule's specs build. */
struct rule_build {
    struct fte_match value;
    struct fte_match mask;
    struct fte_action action;
    int n_handles;
};

/* Helpers for the bytes of a frame, a spec or the match parameter. */

static inline bool
bytes_are_zero(const void *p_, size_t n)
{
    const uint8_t *p = p_;

    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static inline uint16_t
get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static inline void
put_be16(uint8_t dst[2], uint16_t x)
{
    dst[0] = x >> 8;
    dst[1] = x;
}

static inline uint32_t
get_be32(const uint8_t *p)
{
    return ((uint32_t) p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

static inline void
put_be32(uint8_t dst[4], uint32_t x)
{
    dst[0] = x >> 24;
    dst[1] = x >> 16;
    dst[2] = x >> 8;
    dst[3] = x;
}

/* hw-model-match.c. */

uint32_t mask_needs(const struct fte_match *mask);

struct model_fte *table_find_fte(const struct model_table *,
                                 const struct fte_match *value,
                                 const struct fte_match *mask);
void table_index_fte(struct model_table *, struct model_fte *);
void table_unindex_fte(struct model_fte *);

/* hw-model-counters.c. */

struct model_counters *counters_find(const struct ibv_counters *);
void counters_bind(struct model_counters *);
void counters_unbind(struct model_counters *);

/* hw-model-flow-spec.c. */

int reject(int error, const char *format, ...) OVS_PRINTF_FORMAT(2, 3);

int spec_to_kspec(const struct hw_model_spec *, struct kspec *);
int parse_kspec(const struct kspec *, uint32_t prev_type,
                struct rule_build *);
bool ethertype_valid(const struct kspec *, size_t n, bool inner);
bool flow_is_multicast_only(const struct kspec *, size_t n);

void format_kspec(const struct kspec *, struct ds *);
bool kspec_is_action(const struct kspec *);
const char *attr_type_name(uint32_t type);

#endif /* hw-model-flow-private.h */
