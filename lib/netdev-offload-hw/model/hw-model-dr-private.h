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

#ifndef HW_MODEL_DR_PRIVATE_H
#define HW_MODEL_DR_PRIVATE_H 1

/* The objects of the model's pipeline, shared by hw-model-dr.c (which
 * creates, validates and destroys them) and hw-model-dr-path.c (which runs
 * packets through them).  Everything here is guarded by the device's
 * mutex. */

#include "hw-meter.h"
#include "hw-model-dr.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "util.h"

/* fte_match_param: 7 sections of 64 bytes, the bits of
 * match_criteria_enable (hw-apis.md 3.3). */
#define DR_SECTION_SIZE 64
#define DR_N_SECTIONS 7
#define DR_MATCH_SIZE HW_DR_MATCH_MAX_SIZE

/* Section offsets. */
#define DR_OUTER (HW_DR_MATCH_OUTER * DR_SECTION_SIZE)
#define DR_MISC (HW_DR_MATCH_MISC * DR_SECTION_SIZE)
#define DR_INNER (HW_DR_MATCH_INNER * DR_SECTION_SIZE)
#define DR_MISC2 (HW_DR_MATCH_MISC2 * DR_SECTION_SIZE)
#define DR_MISC3 (HW_DR_MATCH_MISC3 * DR_SECTION_SIZE)

/* Byte offsets in fte_match_set_lyr_2_4 (outer and inner). */
#define DR_L24_SMAC 0
#define DR_L24_ETHERTYPE 6
#define DR_L24_DMAC 8
#define DR_L24_FIRST_VLAN 14    /* prio 3, cfi 1, vid 12 bits. */
#define DR_L24_IP_PROTOCOL 16
#define DR_L24_DSCP_ECN 17
#define DR_L24_FLAGS 18         /* cvlan, svlan, frag, ip_version 4,
                                 * tcp_flags 9 bits. */
#define DR_L24_TCP_SPORT 20
#define DR_L24_TCP_DPORT 22
#define DR_L24_OK_BITS 26       /* ipv4_ihl 0xf0, then l3_ok 0x08, l4_ok
                                 * 0x04, ipv4_checksum_ok 0x02,
                                 * l4_checksum_ok 0x01. */
#define DR_L24_TTL 27
#define DR_L24_UDP_SPORT 28
#define DR_L24_UDP_DPORT 30
#define DR_L24_SRC_IP 32        /* IPv4 in the last 4 bytes. */
#define DR_L24_DST_IP 48

/* fte_match_set_misc. */
#define DR_MISC_GRE_FLAGS 0     /* c_present 0x80, k 0x20, s 0x10. */
#define DR_MISC_SOURCE_PORT 6
#define DR_MISC_OUTER_SECOND_VLAN 8
#define DR_MISC_INNER_SECOND_VLAN 10
#define DR_MISC_SECOND_TAGS 12  /* outer cvlan 0x80, inner cvlan 0x40, outer
                                 * svlan 0x20, inner svlan 0x10. */
#define DR_MISC_GRE_PROTOCOL 14
#define DR_MISC_GRE_KEY 16
#define DR_MISC_VXLAN_VNI 20    /* 24 bits. */
#define DR_MISC_GENEVE_VNI 24   /* 24 bits, then option_0_exist 0x02 and
                                 * oam 0x01. */
#define DR_MISC_GENEVE_FLAGS 27
#define DR_MISC_GENEVE_OPT_LEN 37       /* Low 6 bits. */
#define DR_MISC_GENEVE_PROTOCOL 38
#define DR_MISC_OUTER_FLOW_LABEL 28     /* Low 20 bits. */
#define DR_MISC_INNER_FLOW_LABEL 32

/* fte_match_set_misc2. */
#define DR_MISC2_MPLS 0         /* Outer, inner, over GRE, over UDP. */
#define DR_MISC2_REG_C_7 16     /* reg_c_7 first, down to reg_c_0 at 44. */
#define DR_MISC2_REG_A 48

/* fte_match_set_misc3. */
#define DR_MISC3_INNER_TCP_SEQ 0
#define DR_MISC3_OUTER_TCP_SEQ 4
#define DR_MISC3_INNER_TCP_ACK 8
#define DR_MISC3_OUTER_TCP_ACK 12
#define DR_MISC3_ICMP_DATA 24
#define DR_MISC3_ICMPV6_DATA 28
#define DR_MISC3_ICMP_TYPE 32   /* Then icmp_code, icmpv6_type, _code. */
#define DR_MISC3_GENEVE_OPT_DATA 36

#define DR_N_REG_C 8

enum dr_kind {
    DR_DOMAIN,
    DR_TABLE,
    DR_MATCHER,
    DR_RULE,
    DR_ACTION,
    DR_COUNTER,
    DR_GENEVE_OPT,
    DR_N_KINDS
};

struct dr_obj {
    struct hmap_node node;      /* In hw_model_dr's 'objects'. */
    struct hw_model_dr *dr;
    enum dr_kind kind;
    uint32_t handle;            /* Device-unique, from 1. */
    unsigned int users;         /* Objects that refer to this one: while
                                 * non-zero, destroying it gives EBUSY. */
};

struct hw_model_dr {
    struct ibv_context *ctx;
    struct hmap objects;        /* All dr_obj, by hash_pointer(obj). */
    size_t n_objs[DR_N_KINDS];
    uint32_t next_handle;
    uint64_t next_seq;          /* Creation order of matchers and rules. */
    struct hw_dev_caps caps;
    uint32_t max_rules;         /* Per domain type. */
    size_t n_rules[HW_DR_N_DOMAINS];
    unsigned int n_vfs;         /* Switchdev mode if nonzero. */
    uint32_t n_meters;          /* FLOW_METER actions (meter objects). */

    /* The root (level 0) of each domain type: the matchers of every level-0
     * table of every domain of that type, by priority then creation. */
    struct ovs_list roots[HW_DR_N_DOMAINS];

    /* The Geneve option the parser samples (geneve_tlv_option_0_data),
     * while its object exists. */
    struct dr_geneve_opt *geneve_opt;
};

struct dr_geneve_opt {
    struct dr_obj obj;
    ovs_be16 opt_class;
    uint8_t type;
    uint8_t len;                /* Data length, 4-byte words (1..31). */
};

struct dr_domain {
    struct dr_obj obj;
    enum mlx5dv_dr_domain_type type;
};

struct dr_table {
    struct dr_obj obj;
    struct dr_domain *domain;
    uint32_t level;
    struct ovs_list matchers;   /* Level > 0: by priority then creation. */
};

struct dr_matcher {
    struct dr_obj obj;
    struct dr_table *table;
    uint16_t priority;
    uint8_t criteria;
    uint64_t seq;
    struct ovs_list node;       /* In the table's or the root's list. */
    uint8_t mask[DR_MATCH_SIZE];    /* Zero outside the enabled sections. */
    uint8_t ip_version[2];      /* Outer, inner: 4 or 6 if a non-root mask
                                 * names that version, else 0.  Software
                                 * steering matches it as an exact L3 type,
                                 * so 'mask' holds 0xf for it. */
    uint16_t lo, hi;            /* Bytes [lo, hi) hold every mask bit. */
    bool needs_tunnel;          /* Masks a tunnel or an inner field. */
    struct hmap rules;          /* dr_rule, by hash of value[lo, hi). */
};

struct dr_counter {
    struct dr_obj obj;
    uint64_t packets;
    uint64_t bytes;
};

struct dr_action;

/* One destination of a DEST_ARRAY action. */
struct dr_dest {
    struct dr_action *dest;
    struct dr_action *reformat;         /* Or NULL. */
};

struct dr_action {
    struct dr_obj obj;
    enum hw_dr_action_type type;
    struct dr_domain *domain;   /* Held (a user) by REFORMAT, MODIFY_HEADER
                                 * and DEST_ARRAY, as libmlx5 holds it;
                                 * only compared for DEST_VPORT. */
    union {
        uint32_t tag;
        struct ibv_qp *qp;
        struct dr_table *table;
        uint16_t vport;
        struct {
            size_t n;
            struct dr_dest *dests;
        } array;
        struct dr_counter *counter;
        struct {
            enum mlx5dv_flow_action_packet_reformat_type type;
            size_t size;
            uint8_t *data;
        } reformat;
        struct {
            size_t n;
            ovs_be64 *commands;
        } modify;
        uint32_t vlan_hdr;      /* TPID << 16 | TCI, host order. */
        struct dr_meter {
            struct dr_table *next_table;
            bool active;
            uint8_t reg_c_index;
            struct hw_meter_prm prm;
            uint64_t tokens;    /* In 1/2^cir_exponent bytes. */
            uint64_t cap;       /* cbs in the same unit (saturated). */
            long long int last; /* Model clock, usec, of the last
                                 * refill. */
        } meter;
    };
};

struct dr_rule {
    struct dr_obj obj;
    struct dr_matcher *matcher;
    struct hmap_node node;      /* In the matcher's 'rules'. */
    uint64_t seq;
    uint64_t n_hits;
    uint8_t value[DR_MATCH_SIZE];
    size_t n_actions;
    struct dr_action **actions; /* In the order the hardware runs them. */
};

/* Modify-header commands (hw-apis.md 3.2). */
#define DR_MODIFY_SET 1
#define DR_MODIFY_ADD 2
#define DR_MODIFY_COPY 3

/* What the model knows of a modify-header field id: its width in bits and
 * the header it lives in. */
enum dr_field_layer {
    DR_FIELD_META,              /* A metadata register. */
    DR_FIELD_L2,
    DR_FIELD_VLAN,
    DR_FIELD_IPV4,
    DR_FIELD_IPV6,
    DR_FIELD_IP,                /* IPv4 or IPv6 (DSCP, ECN). */
    DR_FIELD_TCP,
    DR_FIELD_UDP,
};

struct dr_field {
    uint8_t width;              /* 0: not a field id the device knows. */
    enum dr_field_layer layer;
    uint8_t l3_type;            /* 4 or 6 if the field is of that IP version
                                 * only, for the one-L3-type rule. */
    uint8_t l4_type;            /* IPPROTO_TCP or _UDP, likewise. */
};

const struct dr_field *dr_field_lookup(uint16_t id);

static inline uint16_t
dr_match_get16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static inline uint32_t
dr_match_get32(const uint8_t *p)
{
    return ((uint32_t) p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

/* hw-model-dr.c. */

/* Logs why the device refuses an operation (rate-limited, with its errno)
 * and returns 'error'. */
int dr_reject(const struct hw_model_dr *, int error, const char *format, ...)
    OVS_PRINTF_FORMAT(3, 4);

/* Enters the device of the object 'p' for 'op' (see hw_model_dr_lock())
 * and returns 'p' if it is a live object of 'kind' there; otherwise
 * returns NULL and stores in '*errorp' the injected fault or EINVAL.
 * dr_enter_destroy() also refuses an object in use (EBUSY).  The caller
 * then calls dr_leave('*drp'), which is NULL if 'p' was. */
void *dr_enter(const void *p, enum hw_model_dr_op, enum dr_kind,
               struct hw_model_dr **drp, int *errorp);
void *dr_enter_destroy(const void *p, enum hw_model_dr_op, enum dr_kind,
                       struct hw_model_dr **drp, int *errorp);
void dr_leave(struct hw_model_dr *);

void dr_obj_add(struct hw_model_dr *, struct dr_obj *, enum dr_kind);
void dr_obj_remove(struct hw_model_dr *, struct dr_obj *);

/* Returns 'p' if it is a live object of 'kind' of the device, else NULL:
 * the kernel's handle lookup, which fails with EINVAL. */
void *dr_find(const struct hw_model_dr *, const void *p, enum dr_kind);

/* hw-model-dr-action.c. */

extern const char *const dr_domain_names[HW_DR_N_DOMAINS];
const char *dr_action_name(enum hw_dr_action_type);

/* The checks of the 'n' actions of a new rule under 'm' with match bytes
 * 'value': at the root, or below it.  Return 0 or an errno. */
int dr_check_actions_root(struct hw_model_dr *, const struct dr_matcher *m,
                          size_t n, struct dr_action **actions);
int dr_check_actions(struct hw_model_dr *, const struct dr_matcher *m,
                     const uint8_t *value, size_t n,
                     struct dr_action **actions);

/* hw-model-dr-meter.c. */

/* Checks 'attr' for a FLOW_METER action on 'domain' and fills in 'a'. */
int dr_meter_init(struct hw_model_dr *, struct dr_domain *,
                  const struct hw_dr_action_attr *, struct dr_action *a);

/* Runs the meter 'a' for a packet of 'size' bytes at the model clock's
 * now: returns HW_METER_COLOR_GREEN (its tokens taken) or _RED. */
int dr_meter_color(struct dr_action *a, size_t size);

/* The stage of 'action' in the order the hardware runs a rule's actions:
 * decap, pop VLAN, modify header, push VLAN, encap, then tag and counter,
 * then the terminal action. */
int dr_action_stage(const struct dr_action *);

#endif /* hw-model-dr-private.h */
