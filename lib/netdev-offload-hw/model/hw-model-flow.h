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
 * Not thread-safe: the caller (the device, hw-model-private.h) serialises
 * every call on one device with the device's mutex. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <infiniband/verbs.h>
#include "openvswitch/types.h"
#include "packets.h"

struct dp_packet;

/* One layer of headers the parser found behind a tunnel. */
struct hw_model_layer {
    bool has_eth;               /* An Ethernet header (L2 tunnels). */
    bool has_cvlan;             /* First tag has TPID 0x8100. */
    struct eth_addr dst, src;
    ovs_be16 vlan_tci;          /* TCI of the first tag, if has_cvlan. */
    ovs_be16 eth_type;          /* After the last VLAN tag; for an L3
                                 * tunnel, the GRE protocol. */

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

    uint16_t l3_ofs;            /* From the start of the frame, valid when */
    uint16_t l4_ofs;            /* ip_version != 0, resp. has_l4. */
};

/* The tunnels the parser recognises. */
enum hw_model_tunnel {
    HW_MODEL_TUNNEL_NONE,
    HW_MODEL_TUNNEL_VXLAN,      /* UDP to one of the device's VXLAN ports. */
    HW_MODEL_TUNNEL_GRE,        /* IP protocol 47, GRE version 0. */
    HW_MODEL_TUNNEL_GENEVE,     /* UDP to port 6081 (the flex parser). */
};

#define HW_MODEL_GENEVE_PORT 6081

/* What a recognised tunnel carries. */
enum hw_model_inner {
    HW_MODEL_INNER_NONE,        /* Nothing the parser knows (or truncated). */
    HW_MODEL_INNER_L2,          /* An Ethernet frame (VXLAN, GRE 0x6558). */
    HW_MODEL_INNER_L3,          /* An IP packet (GRE 0x0800, 0x86dd). */
};

/* The positions of the first MPLS label stack entry mlx5 can match. */
enum hw_model_mpls_pos {
    HW_MODEL_MPLS_OUTER,        /* Ethertype 0x8847/0x8848. */
    HW_MODEL_MPLS_OVER_UDP,     /* UDP destination port 6635. */
    HW_MODEL_MPLS_OVER_GRE,     /* GRE protocol 0x8847. */
    HW_MODEL_MPLS_INNER,        /* Inner ethertype 0x8847/0x8848. */
    HW_MODEL_N_MPLS_POS
};

#define HW_MODEL_MPLS_UDP_PORT 6635

/* What the hardware parser found in a frame.  The fields up to l4_dst are
 * the outer headers. */
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

    /* Outer header offsets from the start of the frame, valid when
     * ip_version != 0, resp. has_l4. */
    uint16_t l3_ofs;
    uint16_t l4_ofs;

    /* MPLS: the first label stack entry (label 20, TC 3, S 1, TTL 8) at
     * each position, if bit 1 << position of 'mpls' is set. */
    uint8_t mpls;
    ovs_be32 mpls_lse[HW_MODEL_N_MPLS_POS];

    /* The tunnel, if the parser recognised one.  A packet with a tunnel
     * header truncated or of an unknown GRE version is not a tunnel. */
    enum hw_model_tunnel tunnel;
    uint16_t tunnel_ofs;        /* The VXLAN, GRE or Geneve header. */
    uint16_t tunnel_len;        /* 8 (VXLAN); 4 to 16 (GRE); 8 to 260
                                 * (Geneve, with its options). */
    ovs_be32 vxlan_vni;         /* VNI in the low 24 bits (Geneve too). */
    uint8_t geneve_flags;       /* O 0x80, C 0x40 (the second byte). */
    uint8_t geneve_opt_len;     /* Options, in 4-byte words. */
    ovs_be16 geneve_protocol;
    ovs_be16 gre_flags;         /* C 0x8000, K 0x2000, S 0x1000, ver 7. */
    ovs_be16 gre_protocol;
    ovs_be32 gre_key;           /* 0 when the K bit is clear. */

    /* What the tunnel carries: 'inner_ofs' is where the inner Ethernet
     * header (L2) or the inner IP header (L3) starts. */
    enum hw_model_inner inner_type;
    uint16_t inner_ofs;
    struct hw_model_layer inner;
};

/* UDP ports the parser takes for VXLAN.  mlx5 always has the IANA port
 * (udp_tunnel_nic's STATIC_IANA_VXLAN) and a table of 4 ports in all. */
#define HW_MODEL_VXLAN_PORT_IANA 4789
#define HW_MODEL_MAX_VXLAN_PORTS 4

/* Stores the outer headers of 'parsed' into 'layer'. */
void hw_model_parsed_outer(const struct hw_model_parsed *parsed,
                           struct hw_model_layer *layer);

/* Parses 'packet' as the hardware parser would, taking UDP destination
 * port 4789 only as VXLAN. */
void hw_model_parse(const struct dp_packet *, struct hw_model_parsed *);

/* Parses 'packet' taking the 'n_vxlan_ports' UDP destination ports in
 * 'vxlan_ports' (host byte order) as VXLAN. */
void hw_model_parse_ports(const struct dp_packet *,
                          const uint16_t *vxlan_ports, size_t n_vxlan_ports,
                          struct hw_model_parsed *);

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

/* The device's VXLAN UDP ports (host byte order), what its parser takes for
 * VXLAN: 4789 and up to 3 more.  Adding returns 0, EINVAL for port 0,
 * EEXIST if the port is in the list or ENOSPC if the list is full;
 * deleting returns 0, ENOENT if the port is not in the list or EPERM for
 * 4789, which the device always recognises. */
int hw_model_steering_add_vxlan_port(struct hw_model_steering *,
                                     uint16_t port);
int hw_model_steering_del_vxlan_port(struct hw_model_steering *,
                                     uint16_t port);
/* Stores the ports in 'ports' in the order they were added and returns
 * their number. */
size_t hw_model_steering_get_vxlan_ports(
    const struct hw_model_steering *,
    uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS]);

/* Parses 'packet' with the device's parser (its VXLAN ports). */
void hw_model_steering_parse(const struct hw_model_steering *,
                             const struct dp_packet *,
                             struct hw_model_parsed *);

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

/* Looks 'parsed' up in the NORMAL rules of priority 'max_priority' or less
 * only, as hw_model_steering_lookup() does otherwise: the verbs rules that
 * come first in a root table that pipeline (dr) rules share.  The sniffer
 * and the leftover (ALL_DEFAULT, MC_DEFAULT) rules are not looked at. */
void hw_model_steering_lookup_upto(struct hw_model_steering *,
                                   const struct hw_model_parsed *,
                                   size_t len, bool egress,
                                   uint16_t max_priority,
                                   struct hw_model_verdict *);

/* Looks 'parsed' up in the sniffer and leftover rules only: where a packet
 * goes that a root rule forwards to the next namespace. */
void hw_model_steering_lookup_default(struct hw_model_steering *,
                                      const struct hw_model_parsed *,
                                      size_t len, bool egress,
                                      struct hw_model_verdict *);

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
