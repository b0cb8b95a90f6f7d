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

/* Unit tests of the NIC model's e-switch in switchdev mode
 * (hw-model-eswitch.c and the FDB of hw-model-dr-path.c), group "eswitch"
 * of test-hw-model-dr: VFs and representor ports, query_port, the FDB from
 * a VF's vport matched on reg_c0, DEST_VPORT to a VF, the uplink and the
 * PF, misses to the representor's verbs rules, sends on a representor,
 * what the device refuses, header rewrites and drops in the FDB, and
 * VXLAN encap and decap there. */

#include <config.h>
#include "test-hw-model-dr-private.h"

#include <errno.h>
#include <string.h>

#include "dp-packet.h"
#include "packets.h"
#include "test-hw-frame.h"
#include "util.h"

#define UPLINK 0xffff
#define REG_C0_MASK 0xffff0000u

/* misc2's reg_c_0 (reg_c_7 first, at 16). */
#define MISC2_REG_C_0 (16 + 7 * 4)

/* A UDP frame from 'src' to 'dst' with destination port 'dport'. */
static struct frame *
udp_frame(const char *src, const char *dst, uint16_t dport)
{
    struct frame *f = frame_new();

    put_eth(f, dst, src, -1, ETH_TYPE_IP);
    put_ipv4(f, IPPROTO_UDP, "10.0.0.1", "10.0.0.2", 20 + 8 + 6, true);
    put_udp(f, 1000, dport, 8 + 6, 0);
    put(f, "hello!", 6);
    return f;
}

static uint32_t
reg_c0_of(struct ibv_context *ctx, uint32_t port_num, uint16_t *vportp)
{
    struct mlx5dv_port info;

    CHECK_ERR(ops->query_port(ctx, port_num, &info), 0);
    CHECK(info.flags & MLX5DV_QUERY_PORT_VPORT);
    CHECK(info.flags & MLX5DV_QUERY_PORT_VPORT_REG_C0);
    CHECK_EQ(info.reg_c0.mask, REG_C0_MASK);
    if (vportp) {
        *vportp = info.vport;
    }
    return info.reg_c0.value;
}

/* VFs, representor names, query_port; what changes while open. */
void
test_eswitch_setup(void)
{
    struct hw_model_vf_stats stats;
    struct mlx5dv_port info;
    unsigned int n_vfs;
    struct model_port p;
    uint32_t port_num;
    uint16_t vport;

    CHECK_ERR(hw_model_set_vfs("model90", HW_MODEL_MAX_VFS + 1), EINVAL);
    CHECK_ERR(hw_model_set_vfs("hbl_model90", 2), EINVAL);
    CHECK_ERR(hw_model_set_vfs("nic0", 2), EINVAL);
    CHECK_ERR(hw_model_set_vfs("model90", 2), 0);
    CHECK_ERR(hw_model_get_vf_stats("model90", 1, &n_vfs, &stats), 0);
    CHECK_EQ(n_vfs, 2);
    CHECK_EQ(stats.tx_packets + stats.rx_packets, 0);
    CHECK_ERR(hw_model_get_vf_stats("model90", 2, &n_vfs, &stats), ENOENT);

    model_port_create(&p, "model90", 64, 0);
    CHECK_EQ(p.caps.phys_port_cnt, 3);

    /* DPDK's "vf1" and the representor netdev's "pf0vf1". */
    CHECK_ERR(ops->representor_port(p.ctx, "vf0", &port_num), 0);
    CHECK_EQ(port_num, 2);
    CHECK_ERR(ops->representor_port(p.ctx, "pf0vf1", &port_num), 0);
    CHECK_EQ(port_num, 3);
    CHECK_ERR(ops->representor_port(p.ctx, "vf2", &port_num), ENODEV);
    CHECK_ERR(ops->representor_port(p.ctx, "vf01", &port_num), ENODEV);
    CHECK_ERR(ops->representor_port(p.ctx, "uplink", &port_num), ENODEV);

    /* The uplink is the wire port; VF K is vport K + 1; each has its own
     * metadata. */
    CHECK_EQ(reg_c0_of(p.ctx, 1, &vport), 0xff000000u);
    CHECK_EQ(vport, UPLINK);
    CHECK_EQ(reg_c0_of(p.ctx, 2, &vport), 0x00020000u);
    CHECK_EQ(vport, 1);
    CHECK_EQ(reg_c0_of(p.ctx, 3, &vport), 0x00030000u);
    CHECK_EQ(vport, 2);
    CHECK_ERR(ops->query_port(p.ctx, 4, &info), EINVAL);
    CHECK_ERR(ops->query_port(p.ctx, 0, &info), EINVAL);

    /* SR-IOV VFs cannot change while the PF is in use. */
    CHECK_ERR(hw_model_set_vfs("model90", 3), EBUSY);
    CHECK_ERR(hw_model_set_vfs("model90", 2), 0);
    model_port_destroy(&p);

    /* Legacy mode: no representors, no metadata. */
    CHECK_ERR(hw_model_set_vfs("model90", 0), 0);
    model_port_create(&p, "model90", 64, 0);
    CHECK_EQ(p.caps.phys_port_cnt, 1);
    CHECK_ERR(ops->representor_port(p.ctx, "vf0", &port_num), EOPNOTSUPP);
    CHECK_ERR(ops->query_port(p.ctx, 1, &info), 0);
    CHECK_EQ(info.flags, MLX5DV_QUERY_PORT_VPORT);
    CHECK_EQ(info.vport, UPLINK);
    CHECK_ERR(ops->query_port(p.ctx, 2, &info), EINVAL);
    model_port_destroy(&p);
}

/* The FDB: rules matched on the source vport's reg_c0 metadata switch
 * frames between the VFs and the uplink, byte for byte, and count them;
 * what no rule takes goes to the representor of the VF that sent it. */
void
test_eswitch_fdb(void)
{
    struct mlx5dv_dr_action *to_vf0, *to_vf1, *to_wire, *to_pf, *ctr, *jump;
    struct mlx5dv_dr_rule *r_vf, *r_up, *r_down, *r_pf, *r_back, *r_loop;
    struct mlx5dv_dr_rule *r0;
    struct capture wire = { .n = 0 }, vf0 = { .n = 0 }, vf1 = { .n = 0 };
    struct mlx5dv_dr_table *t0, *t1;
    struct mlx5dv_dr_matcher *m, *m0;
    struct mlx5dv_devx_obj *counter;
    struct hw_model_vf_stats stats;
    uint32_t meta_vf0, meta_up;
    struct frame *f, *g, *h;
    uint64_t packets, bytes;
    unsigned int n_vfs;
    struct match mask;
    struct env e;

    CHECK_ERR(hw_model_set_vfs("model91", 2), 0);
    env_init(&e, "model91");
    CHECK_ERR(hw_model_set_wire_tx("model91", capture_tx, &wire), 0);
    CHECK_ERR(hw_model_set_wire_tx("model91/vf0", capture_tx, &vf0), 0);
    CHECK_ERR(hw_model_set_wire_tx("model91/vf1", capture_tx, &vf1), 0);
    CHECK_ERR(hw_model_set_wire_tx("model91/vf2", capture_tx, &vf1),
              ENODEV);
    meta_up = reg_c0_of(e.port.ctx, 1, NULL);
    meta_vf0 = reg_c0_of(e.port.ctx, 2, NULL);

    t0 = table(&e, FDB, 0);
    t1 = table(&e, FDB, 1);
    m0 = matcher(t0, 0, 0, NULL);
    jump = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_TABLE, .table = t1);
    r0 = RULE(m0, NULL, jump);

    match_init(&mask, 256);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, REG_C0_MASK, 4);
    m = matcher(t1, 0, C_OUTER | C_MISC2, &mask);
    to_vf0 = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 1);
    to_vf1 = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 2);
    to_wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                     .vport = UPLINK);
    to_pf = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 0);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr = ACTION(e.dom[FDB], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });

    /* VF0 -> VF1 (port 7, counted), VF0 -> uplink (port 8), uplink ->
     * VF0 (port 9), VF0 -> the PF (port 10), VF0 -> VF0 (port 11), uplink
     * -> uplink (port 12). */
    mset(&mask, M_MISC2 + MISC2_REG_C_0, meta_vf0, 4);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 7, 2);
    r_vf = RULE(m, &mask, ctr, to_vf1);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 8, 2);
    r_up = RULE(m, &mask, to_wire);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 10, 2);
    r_pf = RULE(m, &mask, to_pf);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 11, 2);
    r_back = RULE(m, &mask, to_vf0);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, meta_up, 4);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 9, 2);
    r_down = RULE(m, &mask, to_vf0);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 12, 2);
    r_loop = RULE(m, &mask, to_wire);

    f = udp_frame("02:00:00:00:00:01", "02:00:00:00:00:02", 7);
    CHECK_ERR(hw_model_receive("model91/vf0", packet_from(f, 0)), 0);
    CHECK_EQ(vf1.n, 1);
    CHECK_PACKET(vf1.packets[0], f, 0);
    CHECK_EQ(vf0.n + wire.n, 0);
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 1);
    CHECK_EQ(bytes, f->len);
    CHECK_ERR(hw_model_get_vf_stats("model91", 0, &n_vfs, &stats), 0);
    CHECK_EQ(stats.tx_packets, 1);
    CHECK_EQ(stats.tx_bytes, f->len);
    CHECK_EQ(stats.rx_packets, 0);
    CHECK_ERR(hw_model_get_vf_stats("model91", 1, &n_vfs, &stats), 0);
    CHECK_EQ(stats.rx_packets, 1);
    CHECK_EQ(stats.rx_bytes, f->len);
    capture_clear(&vf1);

    /* The same frame from VF1 carries VF1's metadata: no rule takes it,
     * and the representor of VF1, with no rule yet, has nowhere to put
     * it. */
    CHECK_ERR(hw_model_receive("model91/vf1", packet_from(f, 0)), ENOENT);
    CHECK_EQ(vf0.n + vf1.n + wire.n, 0);
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 1);

    g = udp_frame("02:00:00:00:00:01", "02:00:00:00:00:02", 8);
    CHECK_ERR(hw_model_receive("model91/vf0", packet_from(g, 0)), 0);
    CHECK_EQ(wire.n, 1);
    CHECK_PACKET(wire.packets[0], g, 0);
    CHECK_EQ(model_stats("model91").tx_packets, 1);
    CHECK_EQ(model_stats("model91").dr_hairpin, 1);
    capture_clear(&wire);

    /* From the wire to VF0; port 8 from the wire is no VF's rule. */
    h = udp_frame("02:00:00:00:00:09", "02:00:00:00:00:01", 9);
    CHECK_ERR(hw_model_receive("model91", packet_from(h, 0)), 0);
    CHECK_EQ(vf0.n, 1);
    CHECK_PACKET(vf0.packets[0], h, 0);
    capture_clear(&vf0);
    CHECK_ERR(hw_model_receive("model91", packet_from(g, 0)), ENOENT);
    CHECK_EQ(vf0.n + vf1.n + wire.n, 0);

    /* To the PF: its NIC RX and the uplink port's rules, none here. */
    g->data[g->len - 6 - 8 + 3] = 10;
    CHECK_ERR(hw_model_receive("model91/vf0", packet_from(g, 0)), ENOENT);
    CHECK_EQ(vf0.n + vf1.n + wire.n, 0);

    /* Back to the vport it came from: a VF gets its frame back (the FDB's
     * transmit side takes any vport), the wire does not (its receive side
     * cannot go to the uplink: dropped). */
    g->data[g->len - 6 - 8 + 3] = 11;
    CHECK_ERR(hw_model_receive("model91/vf0", packet_from(g, 0)), 0);
    CHECK_EQ(vf0.n, 1);
    CHECK_PACKET(vf0.packets[0], g, 0);
    CHECK_EQ(vf1.n + wire.n, 0);
    CHECK_ERR(hw_model_get_vf_stats("model91", 0, &n_vfs, &stats), 0);
    CHECK_EQ(stats.rx_packets, 2);
    capture_clear(&vf0);
    g->data[g->len - 6 - 8 + 3] = 12;
    CHECK_ERR(hw_model_receive("model91", packet_from(g, 0)), EPERM);
    CHECK_EQ(vf0.n + vf1.n + wire.n, 0);
    CHECK_EQ(model_stats("model91").dr_uplink_drop, 1);
    CHECK_EQ(model_stats("model91").dr_hairpin, 1);
    CHECK_EQ(model_stats("model91").tx_packets, 1);

    CHECK_ERR(hw_model_set_wire_tx("model91", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model91/vf0", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model91/vf1", NULL, NULL), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_vf), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_up), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_down), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_pf), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_back), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_loop), 0);
    CHECK_ERR(ops->dr_rule_destroy(r0), 0);
    CHECK_ERR(ops->dr_action_destroy(to_vf0), 0);
    CHECK_ERR(ops->dr_action_destroy(to_vf1), 0);
    CHECK_ERR(ops->dr_action_destroy(to_wire), 0);
    CHECK_ERR(ops->dr_action_destroy(to_pf), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(jump), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    env_destroy(&e);
    free(f);
    free(g);
    free(h);
}

/* A representor's verbs rules take only what its VF sent; what the host
 * sends on the representor reaches the VF. */
void
test_eswitch_representor(void)
{
    struct capture wire = { .n = 0 }, vf1 = { .n = 0 };
    struct ibv_flow *up_flow, *rep_flow, *flow;
    struct dp_packet_batch batch;
    struct model_port p;
    struct ibv_qp *sq;
    struct frame *f;
    struct rule r;
    uint32_t mark;

    CHECK_ERR(hw_model_set_vfs("model92", 2), 0);
    model_port_create(&p, "model92", 64, 0);
    CHECK_ERR(hw_model_set_wire_tx("model92", capture_tx, &wire), 0);
    CHECK_ERR(hw_model_set_wire_tx("model92/vf1", capture_tx, &vf1), 0);

    /* The uplink's rule tags 0x11, VF1's representor's (port 3) 0x33. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_udp_dst(&r, 7);
    rule_add_tag(&r, 0x11);
    CHECK_ERR(ops->create_flow(p.rss_qp, rule_attr(&r), &up_flow), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_attr(&r)->port = 3;
    rule_add_udp_dst(&r, 7);
    rule_add_tag(&r, 0x33);
    CHECK_ERR(ops->create_flow(p.rss_qp, rule_attr(&r), &rep_flow), 0);

    /* No egress rule on a representor, no port beyond the last. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_attr(&r)->port = 3;
    rule_add_udp_dst(&r, 7);
    CHECK_ERR(ops->create_flow(p.rss_qp, rule_attr(&r), &flow), EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_attr(&r)->port = 4;
    rule_add_udp_dst(&r, 7);
    CHECK_ERR(ops->create_flow(p.rss_qp, rule_attr(&r), &flow), EINVAL);

    f = udp_frame("02:00:00:00:00:02", "02:00:00:00:00:09", 7);
    model_port_check_rx(&p, f, f, 0, 0x11);

    CHECK_ERR(hw_model_receive("model92/vf1", packet_from(f, 0)), 0);
    dp_packet_batch_init(&batch);
    CHECK_ERR(ops->rx_burst(p.wq, p.cq, &batch), 0);
    CHECK_EQ(dp_packet_batch_size(&batch), 1);
    CHECK_PACKET(batch.packets[0], f, 0);
    CHECK(dp_packet_has_flow_mark(batch.packets[0], &mark));
    CHECK_EQ(mark, 0x33);
    dp_packet_delete_batch(&batch, true);

    /* VF0's representor has no rule. */
    CHECK_ERR(hw_model_receive("model92/vf0", packet_from(f, 0)), ENOENT);

    /* A send QP bound to VF1's representor sends to VF1, not the wire. */
    sq = model_port_create_send_qp(&p);
    CHECK_ERR(ops->bind_qp_port(sq, 4), EINVAL);
    CHECK_ERR(ops->bind_qp_port(p.rss_qp, 3), EINVAL);
    CHECK_ERR(ops->bind_qp_port(sq, 3), 0);
    dp_packet_batch_init_packet(&batch, packet_from(f, 0));
    CHECK_EQ(ops->tx_burst(sq, &batch), 0);
    CHECK_EQ(vf1.n, 1);
    CHECK_PACKET(vf1.packets[0], f, 0);
    CHECK_EQ(wire.n, 0);
    capture_clear(&vf1);
    CHECK_ERR(ops->bind_qp_port(sq, 1), 0);
    dp_packet_batch_init_packet(&batch, packet_from(f, 0));
    CHECK_EQ(ops->tx_burst(sq, &batch), 0);
    CHECK_EQ(wire.n, 1);
    CHECK_EQ(vf1.n, 0);
    capture_clear(&wire);

    CHECK_ERR(hw_model_set_wire_tx("model92", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model92/vf1", NULL, NULL), 0);
    CHECK_ERR(ops->destroy_qp(sq), 0);
    CHECK_ERR(ops->destroy_flow(rep_flow), 0);
    CHECK_ERR(ops->destroy_flow(up_flow), 0);
    model_port_destroy(&p);
    free(f);
}

/* DEST_VPORT names a vport the e-switch has (the domains it is valid in
 * are test-hw-model-dr-action.c's). */
void
test_eswitch_refusals(void)
{
    struct mlx5dv_dr_action *a;
    struct env e;

    CHECK_ERR(hw_model_set_vfs("model93", 2), 0);
    env_init(&e, "model93");
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 3), EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0xfffe), EINVAL);
    a = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 2);
    CHECK_ERR(ops->dr_action_destroy(a), 0);
    env_destroy(&e);

    /* In legacy mode only the PF and the uplink. */
    env_init(&e, "model94");
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 1), EINVAL);
    env_destroy(&e);
}

/* A modify header in the FDB, as on NIC RX, updates the IPv4 header
 * checksum and the TCP or UDP checksum (a zero UDP checksum stays zero):
 * VF0 routes to VF1 (MAC addresses, TTL), VF0 to the wire with a new IPv4
 * source and UDP source port (SNAT), the wire to VF0 with a new IPv4
 * destination and TCP port (DNAT); and a DROP in the FDB counts what it
 * drops, which no port then sees. */
void
test_eswitch_modify(void)
{
    const ovs_be64 route[] = {
        mod_set(F_DMAC_47_16, 0, 0, 0x02000000),
        mod_set(F_DMAC_15_0, 0, 16, 0x0002),
        mod_set(F_SMAC_47_16, 0, 0, 0x02000000),
        mod_set(F_SMAC_15_0, 0, 16, 0x0099),
        mod_set(F_IPV4_TTL, 0, 8, 63),
    };
    const ovs_be64 snat[] = {
        mod_set(F_SIPV4, 0, 0, 0xc0000201),
        mod_set(F_UDP_SPORT, 0, 16, 40000),
    };
    const ovs_be64 dnat[] = {
        mod_set(F_DIPV4, 0, 0, 0x0a000063),
        mod_set(F_TCP_DPORT, 0, 16, 8080),
    };
    struct mlx5dv_dr_action *m_route, *m_snat, *m_dnat, *c_route, *c_drop;
    struct mlx5dv_dr_action *to_vf0, *to_vf1, *to_wire, *drop;
    struct capture wire = { .n = 0 }, vf0 = { .n = 0 }, vf1 = { .n = 0 };
    struct mlx5dv_dr_rule *r_route, *r_snat, *r_dnat, *r_drop;
    struct mlx5dv_devx_obj *ctr_route, *ctr_drop;
    uint32_t meta_vf0, meta_up;
    uint64_t packets, bytes;
    struct mlx5dv_dr_matcher *m;
    struct frame *f, *want;
    struct match mask;
    size_t l3, l4;
    struct jump j;
    struct env e;

    CHECK_ERR(hw_model_set_vfs("model95", 2), 0);
    env_init(&e, "model95");
    CHECK_ERR(hw_model_set_wire_tx("model95", capture_tx, &wire), 0);
    CHECK_ERR(hw_model_set_wire_tx("model95/vf0", capture_tx, &vf0), 0);
    CHECK_ERR(hw_model_set_wire_tx("model95/vf1", capture_tx, &vf1), 0);
    meta_up = reg_c0_of(e.port.ctx, 1, NULL);
    meta_vf0 = reg_c0_of(e.port.ctx, 2, NULL);

    jump_init(&j, &e, FDB);
    match_init(&mask, 256);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, 0xff, 1);
    mset(&mask, M_OUTER + L24_TCP_DPORT, 0xffff, 2);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, REG_C0_MASK, 4);
    m = matcher(j.t1, 0, C_OUTER | C_MISC2, &mask);
    match_init(&mask, 256);

    m_route = modify(e.dom[FDB], route, ARRAY_SIZE(route));
    m_snat = modify(e.dom[FDB], snat, ARRAY_SIZE(snat));
    m_dnat = modify(e.dom[FDB], dnat, ARRAY_SIZE(dnat));
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &ctr_route), 0);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &ctr_drop), 0);
    c_route = ACTION(e.dom[FDB], .type = HW_DR_ACTION_COUNTER,
                     .counter = { .obj = ctr_route });
    c_drop = ACTION(e.dom[FDB], .type = HW_DR_ACTION_COUNTER,
                    .counter = { .obj = ctr_drop });
    to_vf0 = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 1);
    to_vf1 = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 2);
    to_wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                     .vport = UPLINK);
    drop = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DROP);

    /* The device's order: a modify header comes before the destination,
     * a DROP after no header change. */
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, IPPROTO_UDP, 1);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, meta_vf0, 4);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 7, 2);
    CHECK_ERR(TRY_RULE(m, &mask, to_vf1, m_route), EOPNOTSUPP);
    r_route = RULE(m, &mask, m_route, c_route, to_vf1);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 8, 2);
    r_snat = RULE(m, &mask, m_snat, to_wire);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 9, 2);
    CHECK_ERR(TRY_RULE(m, &mask, m_snat, drop), EOPNOTSUPP);
    r_drop = RULE(m, &mask, c_drop, drop);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0, 2);
    mset(&mask, M_OUTER + L24_IP_PROTOCOL, IPPROTO_TCP, 1);
    mset(&mask, M_OUTER + L24_TCP_DPORT, 80, 2);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, meta_up, 4);
    r_dnat = RULE(m, &mask, m_dnat, to_vf0);

    /* Routed: new MAC addresses, TTL 63, the IPv4 checksum follows. */
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 7, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x99",
           12);
    want->data[l3 + 8] = 63;
    fix_csums(want, l3, l4, false);
    CHECK_ERR(hw_model_receive("model95/vf0", packet_from(f, 0)), 0);
    CHECK_EQ(vf1.n, 1);
    CHECK_PACKET(vf1.packets[0], want, 0);
    CHECK_ERR(ops->dr_counter_query(ctr_route, &packets, &bytes), 0);
    CHECK_EQ(packets, 1);
    CHECK_EQ(bytes, f->len);
    capture_clear(&vf1);
    free(f);
    free(want);

    /* SNAT to the wire: the UDP checksum covers the new address and port;
     * without a checksum the packet gets none. */
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 8, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data + l3 + 12, "\xc0\x00\x02\x01", 4);
    set_be16(want->data + l4, 40000);
    fix_csums(want, l3, l4, false);
    CHECK_ERR(hw_model_receive("model95/vf0", packet_from(f, 0)), 0);
    fix_csums(f, l3, l4, true);
    fix_csums(want, l3, l4, true);
    CHECK_ERR(hw_model_receive("model95/vf0", packet_from(f, 0)), 0);
    CHECK_EQ(wire.n, 2);
    CHECK_PACKET(wire.packets[1], want, 0);
    fix_csums(want, l3, l4, false);
    CHECK_PACKET(wire.packets[0], want, 0);
    capture_clear(&wire);
    free(f);
    free(want);

    /* DNAT from the wire to VF0, TCP. */
    f = ipv4_frame(-1, IPPROTO_TCP, "10.0.0.2", 1000, 80, 64, &l3, &l4);
    want = frame_copy(f);
    memcpy(want->data + l3 + 16, "\x0a\x00\x00\x63", 4);
    set_be16(want->data + l4 + 2, 8080);
    fix_csums(want, l3, l4, false);
    CHECK_ERR(hw_model_receive("model95", packet_from(f, 0)), 0);
    CHECK_EQ(vf0.n, 1);
    CHECK_PACKET(vf0.packets[0], want, 0);
    capture_clear(&vf0);
    free(f);
    free(want);

    /* Dropped in the FDB, counted, seen nowhere. */
    f = ipv4_frame(-1, IPPROTO_UDP, "10.0.0.2", 1000, 9, 64, &l3, &l4);
    CHECK_ERR(hw_model_receive("model95/vf0", packet_from(f, 0)), EPERM);
    CHECK_ERR(hw_model_receive("model95/vf0", packet_from(f, 0)), EPERM);
    CHECK_EQ(vf0.n + vf1.n + wire.n, 0);
    CHECK_EQ(model_stats("model95").rx_drop_rule, 2);
    CHECK_ERR(ops->dr_counter_query(ctr_drop, &packets, &bytes), 0);
    CHECK_EQ(packets, 2);
    CHECK_EQ(bytes, 2 * f->len);
    free(f);

    CHECK_ERR(hw_model_set_wire_tx("model95", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model95/vf0", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model95/vf1", NULL, NULL), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_route), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_snat), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_dnat), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_drop), 0);
    CHECK_ERR(ops->dr_action_destroy(m_route), 0);
    CHECK_ERR(ops->dr_action_destroy(m_snat), 0);
    CHECK_ERR(ops->dr_action_destroy(m_dnat), 0);
    CHECK_ERR(ops->dr_action_destroy(c_route), 0);
    CHECK_ERR(ops->dr_action_destroy(c_drop), 0);
    CHECK_ERR(ops->dr_action_destroy(to_vf0), 0);
    CHECK_ERR(ops->dr_action_destroy(to_vf1), 0);
    CHECK_ERR(ops->dr_action_destroy(to_wire), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_counter_destroy(ctr_route), 0);
    CHECK_ERR(ops->dr_counter_destroy(ctr_drop), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    jump_destroy(&j);
    env_destroy(&e);
    CHECK_EQ(objects("model95").total, 0);
}

/* Tunnels in the FDB: a VF's frame encapsulated (L2_TO_L2_TUNNEL) to the
 * uplink, the IP and UDP lengths and the IPv4 checksum filled in; the
 * uplink's VXLAN frame decapsulated (L2_TUNNEL_TO_L2) to a VF, byte for
 * byte.  libmlx5 puts an FDB rule on both sides of the FDB unless it
 * matches a source port, and the transmit side (from the vports) has no
 * decap: a decap rule must match the uplink as its source port.  The
 * actions keep the device's order. */
void
test_eswitch_tunnel(void)
{
    struct mlx5dv_dr_action *encap, *decap, *ctr, *to_vf0, *to_wire;
    struct capture wire = { .n = 0 }, vf0 = { .n = 0 };
    struct mlx5dv_dr_rule *r_encap, *r_decap;
    struct mlx5dv_dr_matcher *m, *m_encap, *m_no_port;
    struct mlx5dv_devx_obj *counter;
    struct frame *inner, *outer;
    uint32_t meta_vf0, meta_up;
    uint64_t packets, bytes;
    struct match mask, val;
    uint8_t hdr[50];
    struct jump j;
    struct env e;

    CHECK_ERR(hw_model_set_vfs("model96", 2), 0);
    env_init(&e, "model96");
    CHECK_ERR(hw_model_set_wire_tx("model96", capture_tx, &wire), 0);
    CHECK_ERR(hw_model_set_wire_tx("model96/vf0", capture_tx, &vf0), 0);
    meta_up = reg_c0_of(e.port.ctx, 1, NULL);
    meta_vf0 = reg_c0_of(e.port.ctx, 2, NULL);

    /* VF0's frame, and what it becomes in VXLAN VNI 123. */
    inner = udp_frame("02:00:00:00:00:01", "02:00:00:00:00:02", 7);
    outer = frame_new();
    put_eth(outer, "f8:bc:12:44:34:b6", "aa:55:aa:55:00:00", -1,
            ETH_TYPE_IP);
    put_ipv4(outer, IPPROTO_UDP, "1.1.2.88", "1.1.2.92",
             20 + 8 + 8 + inner->len, true);
    put_udp(outer, 40000, 4789, 8 + 8 + inner->len, 0);
    put_vxlan(outer, 123);
    CHECK_EQ(outer->len, sizeof hdr);
    put(outer, inner->data, inner->len);
    /* The header as tnl_push has it: no lengths, no checksum. */
    memcpy(hdr, outer->data, sizeof hdr);
    memset(hdr + 16, 0, 2);
    memset(hdr + 24, 0, 2);
    memset(hdr + 38, 0, 2);

    jump_init(&j, &e, FDB);
    match_init(&mask, 256);
    mset(&mask, M_OUTER + L24_UDP_DPORT, 0xffff, 2);
    mset(&mask, M_MISC2 + MISC2_REG_C_0, REG_C0_MASK, 4);
    m_no_port = matcher(j.t1, 1, C_OUTER | C_MISC2, &mask);
    mset(&mask, M_MISC + 6, 0xffff, 2);                /* source_port. */
    m_encap = matcher(j.t1, 0, C_OUTER | C_MISC | C_MISC2, &mask);
    /* A matcher of a tunnel field takes tunnel packets only. */
    mset(&mask, M_MISC + 20, 0xffffff, 3);             /* vxlan_vni. */
    m = matcher(j.t1, 0, C_OUTER | C_MISC | C_MISC2, &mask);

    encap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = {
        .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
        .size = sizeof hdr, .data = hdr,
    });
    decap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = {
        .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2,
    });
    /* An L3 decap needs a 14 or 18-byte Ethernet header. */
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                         .reformat = {
        .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
        .size = 10, .data = hdr,
    }), EINVAL);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr = ACTION(e.dom[FDB], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });
    to_vf0 = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 1);
    to_wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                     .vport = UPLINK);

    /* VF0 (vport 1), port 7: encap, count, to the uplink. */
    match_init(&val, 256);
    mset(&val, M_OUTER + L24_UDP_DPORT, 7, 2);
    mset(&val, M_MISC + 6, 1, 2);
    mset(&val, M_MISC2 + MISC2_REG_C_0, meta_vf0, 4);
    CHECK_ERR(TRY_RULE(m_encap, &val, decap, to_wire), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m_encap, &val, to_wire, encap), EOPNOTSUPP);
    r_encap = RULE(m_encap, &val, encap, ctr, to_wire);

    /* The uplink, VXLAN VNI 123: decap, to VF0; decap comes first. */
    match_init(&val, 256);
    mset(&val, M_OUTER + L24_UDP_DPORT, 4789, 2);
    mset(&val, M_MISC + 6, UPLINK, 2);
    mset(&val, M_MISC + 20, 123, 3);
    mset(&val, M_MISC2 + MISC2_REG_C_0, meta_up, 4);
    CHECK_ERR(TRY_RULE(m, &val, encap, decap, to_vf0), EOPNOTSUPP);
    r_decap = RULE(m, &val, decap, to_vf0);
    /* Without the source port, the rule would be the transmit side's
     * too. */
    match_init(&val, 256);
    mset(&val, M_OUTER + L24_UDP_DPORT, 4789, 2);
    mset(&val, M_MISC2 + MISC2_REG_C_0, meta_up, 4);
    CHECK_ERR(TRY_RULE(m_no_port, &val, decap, to_vf0), EOPNOTSUPP);

    CHECK_ERR(hw_model_receive("model96/vf0", packet_from(inner, 0)), 0);
    CHECK_EQ(wire.n, 1);
    CHECK_EQ(vf0.n, 0);
    CHECK_PACKET(wire.packets[0], outer, 0);
    CHECK_ERR(ops->dr_counter_query(counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 1);
    CHECK_EQ(bytes, inner->len);

    CHECK_ERR(hw_model_receive("model96", packet_from(outer, 0)), 0);
    CHECK_EQ(vf0.n, 1);
    CHECK_EQ(wire.n, 1);
    CHECK_PACKET(vf0.packets[0], inner, 0);
    capture_clear(&vf0);
    capture_clear(&wire);

    /* Another VNI: no rule, and no representor rule either. */
    outer->data[48] = 124;
    CHECK_ERR(hw_model_receive("model96", packet_from(outer, 0)), ENOENT);
    CHECK_EQ(vf0.n + wire.n, 0);

    CHECK_ERR(hw_model_set_wire_tx("model96", NULL, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx("model96/vf0", NULL, NULL), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_encap), 0);
    CHECK_ERR(ops->dr_rule_destroy(r_decap), 0);
    CHECK_ERR(ops->dr_action_destroy(encap), 0);
    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(to_vf0), 0);
    CHECK_ERR(ops->dr_action_destroy(to_wire), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m_encap), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m_no_port), 0);
    jump_destroy(&j);
    env_destroy(&e);
    free(inner);
    free(outer);
}
