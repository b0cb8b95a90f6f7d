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

#ifndef HW_MODEL_FLOW_H
#define HW_MODEL_FLOW_H 1

/* The NIC model's parser and steering engine: what the device's packet
 * parser recognises in a frame, the rules created with ibv_create_flow()
 * (parsed from their bytes and validated with the hardware's errno), their
 * priorities and counters, and the lookup of a packet in them.
 *
 * Not thread-safe: the caller (hw-model.c) serialises every call on one
 * device with the device's mutex. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <infiniband/verbs.h>
#include "openvswitch/types.h"
#include "packets.h"

struct dp_packet;

/* What the hardware parser found in a frame. */
struct hw_model_parsed {
    bool has_cvlan;             /* First tag has TPID 0x8100. */
    struct eth_addr dst, src;
    ovs_be16 vlan_tci;          /* TCI of the first tag, if has_cvlan. */
    ovs_be16 eth_type;          /* After the last VLAN tag. */

    uint8_t ip_version;         /* 0 (not IP), 4 or 6. */
    uint8_t ip_proto;           /* IPv4 protocol or IPv6 next header. */
    uint8_t tos;                /* IPv4 TOS or IPv6 traffic class. */
    uint8_t ttl;                /* TTL or hop limit. */
    bool is_fragment;           /* Any IPv4/IPv6 fragment. */
    bool is_later_fragment;     /* Offset != 0: no L4 header. */
    ovs_be32 ipv4_src, ipv4_dst;
    struct in6_addr ipv6_src, ipv6_dst;
    ovs_be32 ipv6_label;

    bool has_l4;                /* TCP or UDP header parsed. */
    ovs_be16 l4_src, l4_dst;
};

/* Parses 'packet' as the hardware parser would. */
void hw_model_parse(const struct dp_packet *, struct hw_model_parsed *);

/* Device limits the steering engine enforces. */
struct hw_model_limits {
    uint8_t phys_port_cnt;      /* Valid attr.port: 1 .. phys_port_cnt. */
    uint16_t max_priority;      /* 15: higher gives ENOMEM. */
    uint16_t max_specs;         /* 10: more gives EINVAL. */
    uint32_t max_rules;         /* Per priority table: more gives ENOSPC. */
    bool sniffer;               /* allow_sniffer_and_nic_rx_shared_tir. */
    bool cap_net_raw;           /* false: every create gives EPERM. */
};

struct hw_model_steering;

struct hw_model_steering *hw_model_steering_create(
    const struct hw_model_limits *);
/* Destroys the engine.  The caller destroys the flows first. */
void hw_model_steering_destroy(struct hw_model_steering *);

/* Number of rules held, for object accounting. */
size_t hw_model_steering_n_rules(const struct hw_model_steering *);

/* ibv_create_flow(): validates 'attr' (bytes, as libibverbs and the kernel
 * would) and installs the rule with destination 'qp'.  Returns 0 and the
 * new flow in '*flowp', or the errno of hw-apis.md section 1.7. */
int hw_model_flow_create(struct hw_model_steering *, struct ibv_qp *qp,
                         const struct ibv_flow_attr *attr,
                         struct ibv_flow **flowp);
int hw_model_flow_destroy(struct hw_model_steering *, struct ibv_flow *);

/* What the first matching rule (by core priority) does with a packet. */
struct hw_model_verdict {
    bool matched;               /* false: no rule matched. */
    bool drop;                  /* ACTION_DROP. */
    uint32_t tag;               /* ACTION_TAG value, 0 if none. */
    struct ibv_qp *qp;          /* Destination QP (NULL for drop). */
    struct ibv_flow_action *reformat;   /* ACTION_HANDLE, or NULL. */
};

/* Looks 'parsed' (a frame of 'len' bytes) up in the ingress rules, or in
 * the egress rules (IBV_FLOW_ATTR_FLAGS_EGRESS) if 'egress', updates the
 * counters of the rule that matched and fills 'verdict'.  NORMAL rules are
 * looked up before ALL_DEFAULT ones. */
void hw_model_steering_lookup(struct hw_model_steering *,
                              const struct hw_model_parsed *, size_t len,
                              bool egress, struct hw_model_verdict *);

/* ibv_counters, with mlx5's static attach semantics. */
int hw_model_counters_create(struct ibv_context *, struct ibv_counters **);
int hw_model_counters_attach(struct ibv_counters *,
                             struct ibv_counter_attach_attr *);
int hw_model_counters_read(struct ibv_counters *, uint64_t *values,
                           uint32_t n_values);
int hw_model_counters_destroy(struct ibv_counters *);
/* Number of counters objects alive on 'ctx', for object accounting. */
size_t hw_model_counters_n_alive(const struct ibv_context *);

/* Formats the rules of 'steering' with their priorities and hit counts. */
struct ds;
void hw_model_steering_format(const struct hw_model_steering *, struct ds *);

#endif /* hw-model-flow.h */
