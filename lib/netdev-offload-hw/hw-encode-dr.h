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

#ifndef HW_ENCODE_DR_H
#define HW_ENCODE_DR_H 1

/* encode for the pipeline of tables: the PRM bytes mlx5dv_dr consumes.
 *
 *   - A struct hw_rule's match becomes a matcher mask and a rule value in
 *     fte_match_param layout (hw-apis.md 3.3), with the semantics of the
 *     verbs encoder (hw-encode.c): a header implies what its verbs spec
 *     implies (ip_version for IPv4/IPv6, ip_protocol for TCP/UDP/GRE, a
 *     C-VLAN tag for a TCI mask), values are ANDed with their masks.
 *
 *   - A list of PRM modify-header commands (hw-apis.md 3.2) is built
 *     command by command, for mlx5dv_dr_action_create_modify_header().
 *
 *   - The PRM commands of DevX flow counters (ALLOC_FLOW_COUNTER,
 *     QUERY_FLOW_COUNTER) are built and their answers read.
 *
 *   - All of it can be printed in readable form.
 *
 * Pure code: no device calls. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/mlx5dv.h>

#include "hw-dev.h"
#include "openvswitch/types.h"

struct ds;
struct hw_rule;
struct in6_addr;
struct ofpbuf;

/* A mask or a value: a struct mlx5dv_flow_match_parameters ('match_sz',
 * then the bytes) with room for every section, and the
 * match_criteria_enable bits of the sections in use. */
struct hw_dr_match {
    size_t match_sz;            /* Bytes of 'buf' in use: up to the end of
                                 * the last section with a mask bit. */
    union {
        uint8_t buf[HW_DR_MATCH_MAX_SIZE];  /* fte_match_param. */
        uint64_t align_[HW_DR_MATCH_MAX_SIZE / 8];
    };
    uint8_t criteria;           /* 1 << enum hw_dr_match_section. */
};

/* 'match' as the argument mlx5dv_dr_matcher_create() and
 * mlx5dv_dr_rule_create() take. */
struct mlx5dv_flow_match_parameters *hw_dr_match_params(
    struct hw_dr_match *match);

/* Encodes the match of 'rule' (outer headers, tunnel key, inner headers,
 * registers, source vport) into 'mask' and 'value', for a matcher of a root
 * table if 'root' is true.  The IP version differs between the two: the
 * root table's firmware matcher is ternary on the 4-bit field (mask 0xf),
 * software steering turns it into an L3 type and takes the version itself
 * as the mask (4 or 6; hw-apis.md 3.4).  Returns 0, or
 * EOPNOTSUPP if the mlx5 matcher cannot express it (an inner ICMP match,
 * TCP flags above the 9 it has, fragment bits other than "is a fragment"),
 * or EINVAL if the rule contradicts itself (an IP protocol other than the
 * one its TCP, UDP, ICMP or GRE header implies), with the reason appended
 * to 'reason' and both all zero.  What lies beyond 'match_sz' in the two
 * buffers is not written. */
int hw_encode_dr_match(const struct hw_rule *rule, bool root,
                       struct hw_dr_match *mask, struct hw_dr_match *value,
                       struct ds *reason);

/* Formats the fields 'mask' masks, by section, e.g.
 * "outer(ethertype=0x0800,ip_version=4,ttl=64) misc(vxlan_vni=42)",
 * with the values of 'value', or only the masks if 'value' is NULL. */
void hw_dr_match_format(const struct hw_dr_match *mask,
                        const struct hw_dr_match *value, struct ds *);

/* Modify header. */

/* The PRM field ids of the packet fields a command can write. */
enum hw_dr_field {
    HW_DR_FIELD_SMAC_47_16 = 0x01,
    HW_DR_FIELD_SMAC_15_0 = 0x02,
    HW_DR_FIELD_ETHERTYPE = 0x03,
    HW_DR_FIELD_DMAC_47_16 = 0x04,
    HW_DR_FIELD_DMAC_15_0 = 0x05,
    HW_DR_FIELD_IP_DSCP = 0x06,
    HW_DR_FIELD_TCP_FLAGS = 0x07,
    HW_DR_FIELD_TCP_SPORT = 0x08,
    HW_DR_FIELD_TCP_DPORT = 0x09,
    HW_DR_FIELD_IPV4_TTL = 0x0a,
    HW_DR_FIELD_UDP_SPORT = 0x0b,
    HW_DR_FIELD_UDP_DPORT = 0x0c,
    HW_DR_FIELD_SIPV6_127_96 = 0x0d,    /* Then 95_64, 63_32, 31_0. */
    HW_DR_FIELD_DIPV6_127_96 = 0x11,    /* Then 95_64, 63_32, 31_0. */
    HW_DR_FIELD_SIPV4 = 0x15,
    HW_DR_FIELD_DIPV4 = 0x16,
    HW_DR_FIELD_FIRST_VID = 0x17,
    HW_DR_FIELD_IPV6_HOPLIMIT = 0x47,
    HW_DR_FIELD_REG_A = 0x49,
    HW_DR_FIELD_REG_B = 0x50,
    HW_DR_FIELD_REG_C_0 = 0x51,         /* Through REG_C_7 = 0x58. */
};

/* Most commands per modify-header action (DPDK's MLX5_MAX_MODIFY_NUM). */
#define HW_DR_MAX_MODIFY 32

/* Append one 8-byte command to 'cmds', an ofpbuf of ovs_be64 commands
 * ('cmds->data' and 'cmds->size' are the 'commands' and 'size' of a
 * MODIFY_HEADER action).
 *
 * set: writes 'data' (right-aligned) into 'length' bits (1-32) of 'field'
 * from bit 'offset'; add: adds 'data' modulo the field's width (0xff to
 * an 8-bit field subtracts 1); copy: copies 'length' bits from 'src' at
 * 'src_offset' to 'dst' at 'dst_offset'. */
void hw_dr_modify_set(struct ofpbuf *cmds, enum hw_dr_field field,
                      unsigned int offset, unsigned int length,
                      uint32_t data);
void hw_dr_modify_add(struct ofpbuf *cmds, enum hw_dr_field field,
                      uint32_t data);
void hw_dr_modify_copy(struct ofpbuf *cmds, enum hw_dr_field src,
                       unsigned int src_offset, enum hw_dr_field dst,
                       unsigned int dst_offset, unsigned int length);

/* Whole packet fields, as the commands above (two for a MAC address, four
 * for an IPv6 address, one otherwise).  'src' is true for the source
 * address or port.  Values in network byte order, registers in host byte
 * order. */
void hw_dr_modify_set_mac(struct ofpbuf *, bool src, struct eth_addr);
void hw_dr_modify_set_ipv4(struct ofpbuf *, bool src, ovs_be32);
void hw_dr_modify_set_ipv6(struct ofpbuf *, bool src,
                           const struct in6_addr *);
void hw_dr_modify_set_ttl(struct ofpbuf *, bool ipv6, uint8_t ttl);
void hw_dr_modify_add_ttl(struct ofpbuf *, bool ipv6, int delta);
void hw_dr_modify_set_port(struct ofpbuf *, bool tcp, bool src, ovs_be16);
void hw_dr_modify_set_reg_c(struct ofpbuf *, unsigned int reg,
                            uint32_t value);

/* Bits 'ofs' to 'ofs' + 'n_bits' - 1 (struct hw_set_bits; 'n_bits' 0: all
 * the device sets) of the packet field 'f' (enum hw_set_field) to those of
 * 'value', the field's bytes in network byte order (6 for a MAC, 16 for
 * an IPv6 address, 1 for the TOS...): one SET, of an offset and a length,
 * per device field the run touches.  'ipv6' picks the hop limit for the
 * TTL, 'tcp' TCP's ports rather than UDP's. */
void hw_dr_modify_set_bits(struct ofpbuf *, int f, bool ipv6, bool tcp,
                           const void *value, unsigned int ofs,
                           unsigned int n_bits);

/* Formats the 'size' bytes of commands at 'cmds', e.g.
 * "set eth_dst=00:00:5e:00:53:01, add ipv4_ttl -1". */
void hw_dr_modify_format(const ovs_be64 *cmds, size_t size, struct ds *);

/* DevX flow counters (PRM ALLOC_FLOW_COUNTER, QUERY_FLOW_COUNTER). */

#define HW_PRM_ALLOC_FLOW_COUNTER_IN 16
#define HW_PRM_ALLOC_FLOW_COUNTER_OUT 16
#define HW_PRM_QUERY_FLOW_COUNTER_IN 32
#define HW_PRM_QUERY_FLOW_COUNTER_OUT 32    /* One counter. */

/* The input of ALLOC_FLOW_COUNTER for one counter (no bulk). */
void hw_prm_alloc_flow_counter_in(uint8_t in[HW_PRM_ALLOC_FLOW_COUNTER_IN]);

/* The counter id in the output of ALLOC_FLOW_COUNTER. */
uint32_t hw_prm_alloc_flow_counter_id(
    const uint8_t out[HW_PRM_ALLOC_FLOW_COUNTER_OUT]);

/* The input of QUERY_FLOW_COUNTER for counter 'id'. */
void hw_prm_query_flow_counter_in(uint8_t in[HW_PRM_QUERY_FLOW_COUNTER_IN],
                                  uint32_t id);

/* Reads the packets and bytes of the output of QUERY_FLOW_COUNTER. */
void hw_prm_query_flow_counter_out(
    const uint8_t out[HW_PRM_QUERY_FLOW_COUNTER_OUT],
    uint64_t *packets, uint64_t *bytes);

/* The Geneve TLV option object (PRM CREATE_GENERAL_OBJECT of type
 * GENEVE_TLV_OPT) and the parser capabilities (QUERY_HCA_CAP, general
 * capabilities, current values). */

#define HW_PRM_CREATE_GENEVE_TLV_OPT_IN 80
#define HW_PRM_CREATE_GENEVE_TLV_OPT_OUT 16
#define HW_PRM_QUERY_HCA_CAP_IN 16
#define HW_PRM_QUERY_HCA_CAP_OUT (16 + 4096)

void hw_prm_create_geneve_tlv_opt_in(
    uint8_t in[HW_PRM_CREATE_GENEVE_TLV_OPT_IN], ovs_be16 opt_class,
    uint8_t type, uint8_t len);
void hw_prm_query_hca_cap_in(uint8_t in[HW_PRM_QUERY_HCA_CAP_IN]);

/* The HW_DR_PARSE_* bits the general capabilities in the output of
 * QUERY_HCA_CAP announce (flex_parser_protocols). */
uint32_t hw_prm_hca_cap_parse(const uint8_t out[HW_PRM_QUERY_HCA_CAP_OUT]);

#endif /* hw-encode-dr.h */
