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

#ifndef TEST_HW_MODEL_DR_PRIVATE_H
#define TEST_HW_MODEL_DR_PRIVATE_H 1

/* What the unit tests of the NIC model's pipeline of tables
 * (test-hw-model-dr*.c) share: the reference's offsets and field ids, match
 * buffers, modify-header commands, a model port with its domains, the
 * objects made or tried through hw_model_ops, and the tests themselves,
 * which test-hw-model-dr.c lists by group. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "hw-dev.h"
#include "hw-model.h"
#include "openvswitch/types.h"
#include "test-hw-check.h"
#include "test-hw-model-port.h"

static const struct hw_dev_ops *ops = &hw_model_ops;

/* fte_match_param (hw-apis.md 3.3): sections of 64 bytes and the bits of
 * match_criteria_enable. */
#define M_OUTER 0
#define M_MISC 64
#define M_INNER 128
#define M_MISC2 192
#define M_MISC3 256
#define C_OUTER 0x01
#define C_MISC 0x02
#define C_INNER 0x04
#define C_MISC2 0x08
#define C_MISC3 0x10

/* fte_match_set_lyr_2_4. */
#define L24_DMAC 8
#define L24_IP_PROTOCOL 16
#define L24_FLAGS 18            /* cvlan_tag 0x80, svlan 0x40, frag 0x20,
                                 * ip_version << 1, tcp_flags bit 8. */
#define L24_TCP_DPORT 22
#define L24_TTL 27
#define L24_UDP_DPORT 30
#define L24_DST_IP 48

/* Modify-header field ids (hw-apis.md 3.2). */
#define F_SMAC_47_16 0x01
#define F_SMAC_15_0 0x02
#define F_DMAC_47_16 0x04
#define F_DMAC_15_0 0x05
#define F_IP_DSCP 0x06
#define F_TCP_SPORT 0x08
#define F_TCP_DPORT 0x09
#define F_IPV4_TTL 0x0a
#define F_UDP_SPORT 0x0b
#define F_UDP_DPORT 0x0c
#define F_SIPV6_127_96 0x0d
#define F_SIPV4 0x15
#define F_DIPV4 0x16
#define F_REG_A 0x49
#define F_REG_B 0x50
#define F_REG_C_0 0x51
#define F_REG_C_6 0x57

#define NIC_RX MLX5DV_DR_DOMAIN_TYPE_NIC_RX
#define NIC_TX MLX5DV_DR_DOMAIN_TYPE_NIC_TX
#define FDB MLX5DV_DR_DOMAIN_TYPE_FDB

#define L2_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
#define L2_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define L3_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define L3_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL

/* A match parameter buffer (mlx5dv_flow_match_parameters), with room for
 * 512 bytes. */
struct match {
    uint64_t raw[1 + 512 / 8];
};

/* Static, not extern: lib/match.c, linked into the same ovstest, has a
 * global match_init(). */

static inline struct mlx5dv_flow_match_parameters *
mp(struct match *m)
{
    return (struct mlx5dv_flow_match_parameters *) m->raw;
}

static inline struct mlx5dv_flow_match_parameters *
match_init(struct match *m, size_t size)
{
    memset(m, 0, sizeof *m);
    mp(m)->match_sz = size;
    return mp(m);
}

/* Sets the 'n' bytes at 'ofs' to 'x', big-endian. */
static inline void
mset(struct match *m, size_t ofs, uint64_t x, int n)
{
    uint8_t *p = (uint8_t *) mp(m)->match_buf + ofs;

    for (int i = n - 1; i >= 0; i--) {
        p[i] = x;
        x >>= 8;
    }
}

/* A model port with the three domains. */
struct env {
    struct model_port port;
    struct mlx5dv_dr_domain *dom[HW_DR_N_DOMAINS];
};

ovs_be64 mod_set(uint16_t field, int offset, int length, uint32_t data);
ovs_be64 mod_add(uint16_t field, uint32_t data);
ovs_be64 mod_copy(uint16_t src, int src_offset, int length, uint16_t dst,
                  int dst_offset);
void env_init(struct env *e, const char *devname);
void env_destroy(struct env *e);
struct mlx5dv_dr_table *table(struct env *e, int domain, uint32_t level);
struct mlx5dv_dr_matcher *matcher(struct mlx5dv_dr_table *t, uint16_t prio,
                                  uint8_t criteria, struct match *mask);
int try_action(struct mlx5dv_dr_domain *d, struct hw_dr_action_attr attr);
struct mlx5dv_dr_action *action(struct mlx5dv_dr_domain *d,
                                struct hw_dr_action_attr attr);
struct mlx5dv_dr_action *modify(struct mlx5dv_dr_domain *d,
                                const ovs_be64 *cmds, size_t n);
int try_modify(struct mlx5dv_dr_domain *d, const ovs_be64 *cmds, size_t size);
int try_rule(struct mlx5dv_dr_matcher *m, struct match *value, size_t n,
             struct mlx5dv_dr_action **actions);
struct mlx5dv_dr_rule *rule(struct mlx5dv_dr_matcher *m, struct match *value,
                            size_t n, struct mlx5dv_dr_action **actions);
struct hw_model_objects objects(const char *devname);

/* Frames (test-hw-model-dr-path.c). */
struct frame;

/* Recomputes every checksum of the IPv4 frame 'f' (IPv4 header at 'l3',
 * TCP or UDP at 'l4'); a UDP checksum stays 0 if 'udp_zero'. */
void fix_csums(struct frame *f, size_t l3, size_t l4, bool udp_zero);

/* An IPv4 frame to 'dst' with 'proto' (TCP or UDP) ports 'sport', 'dport'
 * and TTL 'ttl', checksums right; '*l3p' and '*l4p' get the offsets. */
struct frame *ipv4_frame(int tci, uint8_t proto, const char *dst,
                         uint16_t sport, uint16_t dport, uint8_t ttl,
                         size_t *l3p, size_t *l4p);
struct frame *frame_copy(const struct frame *f);

/* A root rule of a domain that jumps to a new level-1 table. */
struct jump {
    struct mlx5dv_dr_table *t0, *t1;
    struct mlx5dv_dr_matcher *m0;
    struct mlx5dv_dr_action *to1;
    struct mlx5dv_dr_rule *r0;
};

/* Returns the level-1 table. */
struct mlx5dv_dr_table *jump_init(struct jump *j, struct env *e, int domain);
void jump_destroy(struct jump *j);

#define ACTION(D, ...) action(D, (struct hw_dr_action_attr) { __VA_ARGS__ })

#define TRY_ACTION(D, ...) \
    try_action(D, (struct hw_dr_action_attr) { __VA_ARGS__ })

#define TRY_RULE(M, V, ...)                                             \
    ({                                                                  \
        struct mlx5dv_dr_action *acts__[] = { __VA_ARGS__ };            \
        try_rule(M, V, ARRAY_SIZE(acts__), acts__);                     \
    })

#define RULE(M, V, ...)                                                 \
    ({                                                                  \
        struct mlx5dv_dr_action *acts__[] = { __VA_ARGS__ };            \
        rule(M, V, ARRAY_SIZE(acts__), acts__);                         \
    })

/* Groups "objects", "matcher" and "rule" (test-hw-model-dr-objects.c). */
void test_objects_busy(void);
void test_objects_domain_refs(void);
void test_objects_domain(void);
void test_objects_faults(void);
void test_objects_geneve_opt(void);
void test_matcher_refusals(void);
void test_rule_refusals(void);

/* Groups "actions", "order" and "modify" (test-hw-model-dr-action.c). */
void test_actions_domains(void);
void test_actions_jumps(void);
void test_actions_reformat(void);
void test_actions_meter(void);
void test_order(void);
void test_modify_refusals(void);

/* Group "path" (test-hw-model-dr-path.c). */
void test_path_ttl(void);
void test_path_ip_version(void);
void test_path_set_fields(void);
void test_path_set_bits(void);
void test_path_udp_csum(void);
void test_path_vlan(void);
void test_path_root_verbs(void);
void test_path_tx(void);
void test_path_fdb(void);
void test_path_meter(void);

/* Group "eswitch" (test-hw-model-eswitch.c). */
void test_eswitch_setup(void);
void test_eswitch_fdb(void);
void test_eswitch_representor(void);
void test_eswitch_refusals(void);
void test_eswitch_modify(void);
void test_eswitch_tunnel(void);

#endif /* test-hw-model-dr-private.h */
