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

/* Unit tests of the actions of the NIC model's pipeline of tables
 * (hw-model-dr-action.c), groups "actions", "order" and "modify" of
 * test-hw-model-dr: actions per domain, jumps, reformat, push VLAN, the
 * action-order state machine and the modify-header commands. */

#include <config.h>
#include "test-hw-model-dr-private.h"

#include <errno.h>
#include <string.h>

#include "byte-order.h"
#include "hw-meter.h"
#include "packets.h"
#include "util.h"

/* Group "actions": actions per domain, jumps, reformat, push VLAN. */

void
test_actions_domains(void)
{
    struct mlx5dv_dr_action *tag, *qp, *drop, *wire, *pf;
    struct mlx5dv_dr_matcher *rx, *tx, *fdb;
    struct mlx5dv_dr_table *rx1, *tx1, *fdb1;
    struct mlx5dv_devx_obj *counter;
    struct env e;

    env_init(&e, "model67");
    rx1 = table(&e, NIC_RX, 1);
    tx1 = table(&e, NIC_TX, 1);
    fdb1 = table(&e, FDB, 1);
    rx = matcher(rx1, 0, 0, NULL);
    tx = matcher(tx1, 0, 0, NULL);
    fdb = matcher(fdb1, 0, 0, NULL);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 0x1234567);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);

    /* Tag and QP: NIC RX only. */
    CHECK_ERR(TRY_RULE(rx, NULL, tag, qp), 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, tag, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tag, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(fdb, NULL, qp), EOPNOTSUPP);

    /* Vports: FDB only, 0 (the PF) and 0xffff (the uplink). */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0), EOPNOTSUPP);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0), EOPNOTSUPP);
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 0x10000), EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                         .vport = 7), EINVAL);
    wire = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT,
                  .vport = 0xffff);
    pf = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_VPORT, .vport = 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, wire), 0);
    CHECK_ERR(TRY_RULE(rx, NULL, wire), EINVAL);       /* Other domain. */

    /* Arrays: NIC RX and FDB, at least two destinations. */
    {
        struct mlx5dv_dr_action_dest_attr d0 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = wire
        };
        struct mlx5dv_dr_action_dest_attr d1 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = pf
        };
        struct mlx5dv_dr_action_dest_attr d2 = {
            .type = MLX5DV_DR_ACTION_DEST, .dest = tag
        };
        struct mlx5dv_dr_action_dest_attr *two[] = { &d0, &d1 };
        struct mlx5dv_dr_action_dest_attr *bad[] = { &d0, &d2 };

        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 1, two }), EINVAL);
        CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, two }), EOPNOTSUPP);
        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, bad }), EOPNOTSUPP);
        CHECK_ERR(TRY_ACTION(e.dom[FDB], .type = HW_DR_ACTION_DEST_ARRAY,
                             .array = { 2, two }), 0);
    }

    /* Counters: a DevX flow counter, offset 0. */
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_COUNTER,
                         .counter = { .obj = counter, .offset = 1 }),
              EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_COUNTER,
                         .counter = { .obj = (void *) tag }), EINVAL);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);

    /* Push VLAN: TPID 0x8100 or 0x88a8. */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                         .vlan_hdr = htonl(0x0800u << 16 | 5)), EINVAL);
    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                         .vlan_hdr = htonl(0x88a8u << 16 | 5)), 0);

    CHECK_ERR(TRY_ACTION(e.dom[NIC_TX], .type = HW_DR_N_ACTIONS), EINVAL);

    CHECK_ERR(ops->dr_action_destroy(pf), 0);
    CHECK_ERR(ops->dr_action_destroy(wire), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_matcher_destroy(rx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(tx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb), 0);
    CHECK_ERR(ops->dr_table_destroy(rx1), 0);
    CHECK_ERR(ops->dr_table_destroy(tx1), 0);
    CHECK_ERR(ops->dr_table_destroy(fdb1), 0);
    env_destroy(&e);
}

void
test_actions_jumps(void)
{
    struct mlx5dv_dr_action *to1, *to2, *to_tx2;
    struct mlx5dv_dr_table *t0, *t1, *t2, *tx2;
    struct mlx5dv_dr_matcher *m0, *m1, *m2;
    struct env e;

    env_init(&e, "model68");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    tx2 = table(&e, NIC_TX, 2);
    m0 = matcher(t0, 0, 0, NULL);
    m1 = matcher(t1, 0, 0, NULL);
    m2 = matcher(t2, 0, 0, NULL);

    /* A root table is never a destination. */
    CHECK_ERR(TRY_ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                         .table = t0), EINVAL);
    to1 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE, .table = t1);
    to2 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE, .table = t2);
    to_tx2 = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                    .table = tx2);

    /* Jumps go deeper, within the domain. */
    CHECK_ERR(TRY_RULE(m0, NULL, to1), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, to2), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, to1), EINVAL);        /* Same level. */
    CHECK_ERR(TRY_RULE(m2, NULL, to1), EINVAL);        /* Up. */
    CHECK_ERR(TRY_RULE(m1, NULL, to_tx2), EINVAL);     /* Other domain. */
    CHECK_ERR(TRY_RULE(m0, NULL, to_tx2), EINVAL);

    CHECK_ERR(ops->dr_action_destroy(to1), 0);
    CHECK_ERR(ops->dr_action_destroy(to2), 0);
    CHECK_ERR(ops->dr_action_destroy(to_tx2), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m2), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_table_destroy(tx2), 0);
    env_destroy(&e);
}

void
test_actions_reformat(void)
{
    static const uint8_t hdr[50] = { 0 };
    struct env e;

    env_init(&e, "model69");
#define REFORMAT(D, TYPE, DATA, SIZE)                                   \
    TRY_ACTION(e.dom[D], .type = HW_DR_ACTION_REFORMAT,                 \
               .reformat = { .type = TYPE, .size = SIZE, .data = DATA })

    /* NIC RX takes the decaps, NIC TX the encaps, the FDB all four. */
    CHECK_ERR(REFORMAT(NIC_RX, L2_DECAP, NULL, 0), 0);
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, hdr, 14), 0);
    CHECK_ERR(REFORMAT(NIC_RX, L2_ENCAP, hdr, 50), EINVAL);
    CHECK_ERR(REFORMAT(NIC_RX, L3_ENCAP, hdr, 50), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(NIC_TX, L3_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(NIC_TX, L2_DECAP, NULL, 0), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L3_DECAP, hdr, 14), EINVAL);
    CHECK_ERR(REFORMAT(FDB, L2_DECAP, NULL, 0), 0);
    CHECK_ERR(REFORMAT(FDB, L3_DECAP, hdr, 18), 0);
    CHECK_ERR(REFORMAT(FDB, L2_ENCAP, hdr, 50), 0);
    CHECK_ERR(REFORMAT(FDB, L3_ENCAP, hdr, 50), 0);

    /* Data and size agree; an L3 decap writes 14 or 18 bytes. */
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, hdr, 16), EINVAL);
    CHECK_ERR(REFORMAT(NIC_RX, L3_DECAP, NULL, 14), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, hdr, 0), EINVAL);
    CHECK_ERR(REFORMAT(NIC_TX, L2_ENCAP, NULL, 0), EINVAL);
    CHECK_ERR(REFORMAT(FDB, 4, NULL, 0), EINVAL);
#undef REFORMAT
    env_destroy(&e);
}

/* Group "order": the action-order state machine. */

void
test_order(void)
{
    struct mlx5dv_dr_action *decap, *encap, *push, *pop, *mod, *tag, *qp;
    struct mlx5dv_dr_action *drop, *miss, *ctr, *jump, *fdb_decap;
    struct mlx5dv_dr_action *fdb_encap, *fdb_drop, *tx_push, *tx_pop;
    struct mlx5dv_dr_matcher *m0, *m1, *tx, *fdb, *fdb_port;
    struct mlx5dv_dr_table *t0, *t1, *t2, *tx1, *fdb1;
    static const uint8_t hdr[50] = { 0 };
    ovs_be64 cmd = mod_add(F_IPV4_TTL, UINT32_MAX);
    struct mlx5dv_devx_obj *counter;
    struct match mask, value;
    struct env e;

    env_init(&e, "model70");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    tx1 = table(&e, NIC_TX, 1);
    fdb1 = table(&e, FDB, 1);
    m0 = matcher(t0, 0, 0, NULL);
    m1 = matcher(t1, 0, 0, NULL);
    tx = matcher(tx1, 0, 0, NULL);
    fdb = matcher(fdb1, 0, 0, NULL);
    match_init(&mask, 128);
    mset(&mask, M_MISC + 6, 0xffff, 2);                /* source_port. */
    fdb_port = matcher(fdb1, 1, C_MISC, &mask);

    decap = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_DECAP });
    fdb_decap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                       .reformat = { .type = L2_DECAP });
    fdb_encap = ACTION(e.dom[FDB], .type = HW_DR_ACTION_REFORMAT,
                       .reformat = { .type = L2_ENCAP, .size = 50,
                                     .data = hdr });
    encap = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_ENCAP, .size = 50,
                                 .data = hdr });
    push = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_PUSH_VLAN,
                  .vlan_hdr = htonl(0x8100u << 16 | 10));
    tx_push = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_PUSH_VLAN,
                     .vlan_hdr = htonl(0x8100u << 16 | 10));
    pop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_POP_VLAN);
    tx_pop = ACTION(e.dom[NIC_TX], .type = HW_DR_ACTION_POP_VLAN);
    mod = modify(e.dom[NIC_RX], &cmd, 1);
    tag = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_TAG, .tag = 1);
    qp = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                .qp = e.port.rss_qp);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    fdb_drop = ACTION(e.dom[FDB], .type = HW_DR_ACTION_DROP);
    miss = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEFAULT_MISS);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                 .counter = { .obj = counter });
    jump = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                  .table = t2);

    /* The full order, then each stage out of it. */
    CHECK_ERR(TRY_RULE(m1, NULL, decap, pop, mod, push, tag, ctr, qp), 0);
    CHECK_ERR(TRY_RULE(fdb, NULL, fdb_encap, fdb_decap, fdb_drop),
              EOPNOTSUPP);                      /* Decap after encap. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, decap, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, push, pop, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, push, mod, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, mod, pop, qp), EOPNOTSUPP);
    /* NIC RX may not push after a pop; NIC TX may. */
    CHECK_ERR(TRY_RULE(m1, NULL, pop, push, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_pop, tx_push), 0);

    /* One terminal, last; a counter may follow it, a tag may not. */
    CHECK_ERR(TRY_RULE(m1, NULL, qp, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, jump), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, qp), EINVAL);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, tag), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, qp, ctr), 0);
    CHECK_ERR(TRY_RULE(m1, NULL, tag, tag, qp), EINVAL);
    /* DROP and DEFAULT_MISS only for an unchanged packet. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, mod, miss), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m1, NULL, ctr, tag, drop), 0);
    /* No terminal at all is allowed. */
    CHECK_ERR(TRY_RULE(m1, NULL, mod, tag), 0);

    /* VLAN actions at most twice. */
    CHECK_ERR(TRY_RULE(tx, NULL, tx_push, tx_push), 0);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_push, tx_push, tx_push), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(tx, NULL, tx_pop, tx_pop, tx_pop), EINVAL);

    /* Decap only where packets come from the wire: an FDB rule is also
     * for the vports' side unless its source port is the uplink. */
    CHECK_ERR(TRY_RULE(fdb, NULL, fdb_decap, fdb_encap), EOPNOTSUPP);
    match_init(&value, 128);
    mset(&value, M_MISC + 6, 0, 2);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_encap), EOPNOTSUPP);
    mset(&value, M_MISC + 6, 0xffff, 2);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_encap), 0);
    CHECK_ERR(TRY_RULE(fdb_port, &value, fdb_decap, fdb_drop),
              EOPNOTSUPP);                      /* Decap then DROP. */
    CHECK_ERR(TRY_RULE(tx, NULL, encap, tx_push), EOPNOTSUPP);

    /* The root: no VLAN actions, DROP with DEFAULT_MISS refused, the
     * firmware's own order. */
    CHECK_ERR(TRY_RULE(m0, NULL, push, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, NULL, pop, qp), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, NULL, drop, miss), EINVAL);
    CHECK_ERR(TRY_RULE(m0, NULL, qp, mod, tag), 0);

    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_decap), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_encap), 0);
    CHECK_ERR(ops->dr_action_destroy(encap), 0);
    CHECK_ERR(ops->dr_action_destroy(push), 0);
    CHECK_ERR(ops->dr_action_destroy(tx_push), 0);
    CHECK_ERR(ops->dr_action_destroy(pop), 0);
    CHECK_ERR(ops->dr_action_destroy(tx_pop), 0);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    CHECK_ERR(ops->dr_action_destroy(tag), 0);
    CHECK_ERR(ops->dr_action_destroy(qp), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(fdb_drop), 0);
    CHECK_ERR(ops->dr_action_destroy(miss), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr), 0);
    CHECK_ERR(ops->dr_action_destroy(jump), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(tx), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb), 0);
    CHECK_ERR(ops->dr_matcher_destroy(fdb_port), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_table_destroy(tx1), 0);
    CHECK_ERR(ops->dr_table_destroy(fdb1), 0);
    env_destroy(&e);
}

/* Group "modify": modify-header commands. */

void
test_modify_refusals(void)
{
    ovs_be64 cmds[40];
    struct env e;

    env_init(&e, "model71");
    for (int i = 0; i < ARRAY_SIZE(cmds); i++) {
        cmds[i] = mod_set(F_REG_C_0 + i % 6, 0, 0, i);
    }

    /* The buffer: a non-zero multiple of 8 bytes, at most 32 commands. */
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 12), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 0), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 32 * 8), 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 33 * 8), EOPNOTSUPP);

    /* Field ids: unknown ones, REG_C_6 (not in rdma-core 44's table). */
    cmds[0] = mod_set(0x18, 0, 16, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_set(F_REG_C_6, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_copy(F_REG_C_0, 0, 0, 0x18, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);

    /* Command type 4 does not exist. */
    cmds[0] = htonll((uint64_t) ((4u << 28) | (F_REG_C_0 << 16)) << 32);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EOPNOTSUPP);

    /* ADD: TTL, hop limit, TCP sequence numbers only. */
    cmds[0] = mod_add(F_REG_C_0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_add(F_IPV4_TTL, UINT32_MAX);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    /* SET: offset + length within the field (TTL has 8 bits). */
    cmds[0] = mod_set(F_IPV4_TTL, 4, 8, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_set(F_IPV4_TTL, 4, 4, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);
    cmds[0] = mod_copy(F_REG_C_0, 0, 16, F_IPV4_TTL, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    cmds[0] = mod_copy(F_REG_C_0, 8, 8, F_IPV4_TTL, 0);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    /* One L3 type and one L4 type per list. */
    cmds[0] = mod_set(F_SIPV4, 0, 0, 1);
    cmds[1] = mod_set(F_SIPV6_127_96, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 16), EOPNOTSUPP);
    cmds[0] = mod_set(F_TCP_SPORT, 0, 16, 1);
    cmds[1] = mod_set(F_UDP_SPORT, 0, 16, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 16), EINVAL);

    /* REG_A is written on NIC TX, REG_B on NIC RX only. */
    cmds[0] = mod_set(F_REG_A, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[FDB], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_TX], cmds, 8), 0);
    cmds[0] = mod_set(F_REG_B, 0, 0, 1);
    CHECK_ERR(try_modify(e.dom[NIC_TX], cmds, 8), EINVAL);
    CHECK_ERR(try_modify(e.dom[NIC_RX], cmds, 8), 0);

    CHECK_EQ(objects("model71").dr_action, 0);
    env_destroy(&e);
}

/* Flow meter actions: what mlx5dv_dr_action_create_flow_meter() refuses,
 * and the device's count of meter objects. */
void
test_actions_meter(void)
{
    uint8_t params[HW_METER_PARAMS_SIZE];
    struct mlx5dv_dr_table *t0, *t1, *tx1;
    struct mlx5dv_dr_action *meter;
    struct hw_meter_prm prm = {
        .valid = true, .cir_mantissa = 1, .cbs_mantissa = 100,
    };
    struct hw_dev_caps caps;
    struct env e;

    env_init(&e, "model74");
    CHECK_ERR(ops->query_caps(e.port.ctx, &caps), 0);
    CHECK_EQ(caps.dr_max_meters, 128);
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    tx1 = table(&e, NIC_TX, 1);
    hw_meter_prm_encode(&prm, params);

#define METER_ATTR(TABLE, REG, SIZE)                                    \
    ((struct hw_dr_action_attr) {                                       \
        .type = HW_DR_ACTION_FLOW_METER,                                \
        .meter = { .next_table = TABLE, .active = true,                 \
                   .reg_c_index = REG, .size = SIZE,                    \
                   .params = params },                                  \
    })
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t0, 6, 32)), EOPNOTSUPP);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(tx1, 6, 32)), EINVAL);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 8, 32)), EINVAL);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 6, 31)), EINVAL);
    prm.valid = false;
    hw_meter_prm_encode(&prm, params);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32)), EINVAL);
    prm.valid = true;
    prm.cir_mantissa = 0;
    hw_meter_prm_encode(&prm, params);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32)), EINVAL);
    prm.cir_mantissa = 1;
    prm.ebs_mantissa = 1;
    hw_meter_prm_encode(&prm, params);
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32)), EOPNOTSUPP);
    prm.ebs_mantissa = 0;
    hw_meter_prm_encode(&prm, params);

    /* The device has 128 meter objects. */
    struct mlx5dv_dr_action *meters[128];
    for (size_t i = 0; i < ARRAY_SIZE(meters); i++) {
        meters[i] = action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32));
    }
    CHECK_ERR(try_action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32)), ENOSPC);
    CHECK_EQ(objects("model74").dr_action, 128);
    for (size_t i = 0; i < ARRAY_SIZE(meters); i++) {
        CHECK_ERR(ops->dr_action_destroy(meters[i]), 0);
    }
    meter = action(e.dom[NIC_RX], METER_ATTR(t1, 6, 32));

    /* Terminal, and never at the root. */
    struct mlx5dv_dr_matcher *m0 = matcher(t0, 0, 0, NULL);
    struct mlx5dv_dr_table *t2 = table(&e, NIC_RX, 2);
    struct mlx5dv_dr_matcher *m2 = matcher(t2, 0, 0, NULL);
    struct mlx5dv_dr_action *drop = ACTION(e.dom[NIC_RX],
                                           .type = HW_DR_ACTION_DROP);

    CHECK_ERR(TRY_RULE(m0, NULL, meter), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m2, NULL, meter), EINVAL);   /* Not deeper. */
    CHECK_ERR(ops->dr_matcher_destroy(m2), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_action_destroy(meter), 0);
#undef METER_ATTR
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(tx1), 0);
    env_destroy(&e);
}
