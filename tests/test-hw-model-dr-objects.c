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

/* Unit tests of the objects of the NIC model's pipeline of tables
 * (hw-model-dr.c), groups "objects", "matcher" and "rule" of
 * test-hw-model-dr: their life, references, counts and faults, and the
 * masks and values matchers and rules refuse. */

#include <config.h>
#include "test-hw-model-dr-private.h"

#include <errno.h>
#include <string.h>

#include "byte-order.h"
#include "util.h"

/* Group "objects": life, references, counts, faults. */

void
test_objects_busy(void)
{
    struct mlx5dv_dr_action *ctr_action, *jump, *qp_action;
    struct mlx5dv_dr_table *t1, *t2;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_matcher *m;
    struct hw_model_objects objs;
    struct mlx5dv_dr_rule *r;
    struct env e;

    env_init(&e, "model60");
    t1 = table(&e, NIC_RX, 1);
    t2 = table(&e, NIC_RX, 2);
    m = matcher(t1, 0, 0, NULL);
    CHECK_ERR(ops->dr_counter_create(e.port.ctx, &counter), 0);
    ctr_action = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_COUNTER,
                        .counter = { .obj = counter });
    jump = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_TABLE,
                  .table = t2);
    qp_action = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DEST_QP,
                       .qp = e.port.rss_qp);
    r = RULE(m, NULL, ctr_action, jump);

    objs = objects("model60");
    CHECK_EQ(objs.dr_domain, 3);
    CHECK_EQ(objs.dr_table, 2);
    CHECK_EQ(objs.dr_matcher, 1);
    CHECK_EQ(objs.dr_rule, 1);
    CHECK_EQ(objs.dr_action, 3);
    CHECK_EQ(objs.dr_counter, 1);
    CHECK_EQ(objs.total, 5 + 11);      /* The port's 5 objects. */

    /* Everything in use refuses to go. */
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_table_destroy(t1), EBUSY);        /* Matcher. */
    CHECK_ERR(ops->dr_table_destroy(t2), EBUSY);        /* Jump. */
    CHECK_ERR(ops->dr_matcher_destroy(m), EBUSY);       /* Rule. */
    CHECK_ERR(ops->dr_action_destroy(ctr_action), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(jump), EBUSY);
    CHECK_ERR(ops->dr_counter_destroy(counter), EBUSY);
    CHECK_ERR(ops->destroy_qp(e.port.rss_qp), EBUSY);   /* DEST_QP. */
    CHECK_EQ(objects("model60").total, 5 + 11);

    /* Then, in order, it does. */
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(ops->dr_action_destroy(ctr_action), 0);
    CHECK_ERR(ops->dr_counter_destroy(counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(jump), 0);
    CHECK_ERR(ops->dr_table_destroy(t2), 0);
    CHECK_ERR(ops->dr_action_destroy(qp_action), 0);
    objs = objects("model60");
    CHECK_EQ(objs.dr_domain, 3);
    CHECK_EQ(objs.total, 5 + 3);
    env_destroy(&e);
    CHECK_EQ(objects("model60").total, 0);
}

void
test_objects_domain_refs(void)
{
    struct mlx5dv_dr_action *decap, *mod;
    ovs_be64 cmd = mod_add(F_IPV4_TTL, UINT32_MAX);
    struct env e;

    env_init(&e, "model61");
    /* A reformat and a modify header hold their domain, as in libmlx5. */
    decap = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_REFORMAT,
                   .reformat = { .type = L2_DECAP });
    mod = modify(e.dom[NIC_RX], &cmd, 1);
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_domain_destroy(e.dom[NIC_RX]), EBUSY);
    CHECK_ERR(ops->dr_action_destroy(mod), 0);
    env_destroy(&e);
}

void
test_objects_domain(void)
{
    struct mlx5dv_dr_domain *d;
    struct model_port hbl;
    struct env e;

    env_init(&e, "model62");
    CHECK_ERR(ops->dr_domain_create(e.port.ctx, 3, &d), EINVAL);
    CHECK(!d);
    CHECK_ERR(ops->dr_domain_sync(e.dom[FDB],
                                  MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
                                  | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW
                                  | MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM), 0);
    CHECK_ERR(ops->dr_domain_sync(e.dom[FDB], 8), EOPNOTSUPP);
    CHECK_EQ(e.port.caps.dr_domains, 7);
    CHECK_EQ(e.port.caps.dr_match_criteria, 0x1f);
    CHECK_EQ(e.port.caps.dr_max_modify, 32);
    CHECK_EQ(e.port.caps.dr_actions[NIC_RX] & (1u << HW_DR_ACTION_TAG),
             1u << HW_DR_ACTION_TAG);
    CHECK_EQ(e.port.caps.dr_actions[FDB] & (1u << HW_DR_ACTION_TAG), 0);
    CHECK_EQ(e.port.caps.dr_actions[NIC_RX]
             & (1u << HW_DR_ACTION_DEST_VPORT), 0);
    env_destroy(&e);

    /* An hbl device has no pipeline. */
    model_port_create(&hbl, "hbl_model63", 16, 0);
    CHECK_EQ(hbl.caps.dr_domains, 0);
    CHECK_ERR(ops->dr_domain_create(hbl.ctx, NIC_RX, &d), EOPNOTSUPP);
    model_port_destroy(&hbl);
}

void
test_objects_faults(void)
{
    struct mlx5dv_dr_action *drop;
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_rule *r;
    struct mlx5dv_dr_table *t;
    size_t total;
    struct env e;

    env_init(&e, "model64");
    t = table(&e, NIC_RX, 1);
    m = matcher(t, 0, 0, NULL);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    total = objects("model64").total;

    CHECK_ERR(hw_model_set_fault("model64", "dr_rule_create", ENOSPC, 1), 0);
    CHECK_ERR(TRY_RULE(m, NULL, drop), ENOSPC);
    CHECK_EQ(objects("model64").total, total);
    r = RULE(m, NULL, drop);
    CHECK_ERR(hw_model_set_fault("model64", "dr_rule_destroy", EIO, 1), 0);
    CHECK_ERR(ops->dr_rule_destroy(r), EIO);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_domain_create", ENOMEM, 1),
              0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_counter_query", EIO, 1), 0);
    CHECK_ERR(hw_model_set_fault("model64", "dr_no_such_op", EIO, 1),
              EINVAL);

    /* The rules capacity knob. */
    CHECK_ERR(hw_model_set_dr_max_rules("model64", 1), 0);
    r = RULE(m, NULL, drop);
    CHECK_ERR(TRY_RULE(m, NULL, drop), ENOMEM);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    CHECK_ERR(hw_model_set_dr_max_rules("model64", 1u << 20), 0);

    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    CHECK_ERR(ops->dr_table_destroy(t), 0);
    env_destroy(&e);
}

/* Group "matcher": masks. */

void
test_matcher_refusals(void)
{
    struct mlx5dv_dr_matcher *m;
    struct mlx5dv_dr_table *t0, *t1;
    struct match mask;
    struct env e;

    env_init(&e, "model65");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);

    /* Mask above 448 bytes, criteria above 7 bits: EINVAL at any level. */
    match_init(&mask, 452);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m), EINVAL);
    CHECK(!m);
    CHECK_ERR(ops->dr_matcher_create(t0, 0, C_OUTER, mp(&mask), &m), EINVAL);
    match_init(&mask, 448);
    mset(&mask, M_OUTER + L24_TTL, 0xff, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, 0x80, mp(&mask), &m), EINVAL);
    CHECK_ERR(ops->dr_matcher_create(t0, 0, 0x80, mp(&mask), &m), EINVAL);
    m = matcher(t1, 0, 0x7f, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* A field the device cannot consume: the IPv4 IHL (outer byte 26). */
    mset(&mask, M_OUTER + 26, 0xf0, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m),
              EOPNOTSUPP);

    /* Below the root the mask's IP version is 0, 4 or 6. */
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 0xf << 1, 1);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m),
              EOPNOTSUPP);
    m = matcher(t0, 0, C_OUTER, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* Below the root, criteria with nothing in the mask. */
    match_init(&mask, 64);
    CHECK_ERR(ops->dr_matcher_create(t1, 0, C_OUTER, mp(&mask), &m), EINVAL);
    m = matcher(t1, 0, 0, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);
    m = matcher(t0, 0, C_OUTER, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    /* Bits in a section the criteria do not enable are ignored. */
    match_init(&mask, 448);
    mset(&mask, M_OUTER + 26, 0xff, 1);
    mset(&mask, M_MISC2 + 44, 0xffffffff, 4);
    m = matcher(t1, 0, C_MISC2, &mask);
    CHECK_ERR(ops->dr_matcher_destroy(m), 0);

    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    env_destroy(&e);
}

/* Group "rule": values. */

void
test_rule_refusals(void)
{
    struct mlx5dv_dr_matcher *m0, *m1, *m16;
    struct mlx5dv_dr_table *t0, *t1;
    struct mlx5dv_dr_action *drop;
    struct mlx5dv_dr_rule *r;
    struct match mask, value;
    struct env e;

    env_init(&e, "model66");
    t0 = table(&e, NIC_RX, 0);
    t1 = table(&e, NIC_RX, 1);
    drop = ACTION(e.dom[NIC_RX], .type = HW_DR_ACTION_DROP);
    match_init(&mask, 64);
    mset(&mask, M_OUTER + L24_FLAGS, 4 << 1, 1);       /* IPv4. */
    mset(&mask, M_OUTER + L24_TTL, 0xff, 1);
    m1 = matcher(t1, 3, C_OUTER, &mask);
    m0 = matcher(t0, 3, C_OUTER, &mask);
    m16 = matcher(t0, 16, C_OUTER, &mask);

    /* Size: a multiple of 4, at most 448. */
    match_init(&value, 62);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    mp(&value)->match_sz = 452;
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    mp(&value)->match_sz = 448;
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);
    mp(&value)->match_sz = 32;         /* Shorter: the rest is 0. */
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);

    /* A value bit outside the mask. */
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    mset(&value, M_OUTER + L24_IP_PROTOCOL, IPPROTO_UDP, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EINVAL);
    CHECK_ERR(TRY_RULE(m0, &value, drop), EINVAL);

    /* IP version: the value's must be the mask's below the root. */
    match_init(&value, 64);
    mset(&value, M_OUTER + L24_TTL, 64, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), EOPNOTSUPP);
    CHECK_ERR(TRY_RULE(m0, &value, drop), 0);
    mset(&value, M_OUTER + L24_FLAGS, 4 << 1, 1);
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);

    /* Identical values: refused at the root, allowed below. */
    r = RULE(m0, &value, drop);
    CHECK_ERR(TRY_RULE(m0, &value, drop), EEXIST);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);
    r = RULE(m1, &value, drop);
    CHECK_ERR(TRY_RULE(m1, &value, drop), 0);
    CHECK_ERR(ops->dr_rule_destroy(r), 0);

    /* A root priority above 15. */
    CHECK_ERR(TRY_RULE(m16, &value, drop), ENOMEM);

    /* Not an action of the device. */
    CHECK_ERR(TRY_RULE(m1, &value, (struct mlx5dv_dr_action *) &value),
              EINVAL);

    CHECK_ERR(ops->dr_matcher_destroy(m0), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m1), 0);
    CHECK_ERR(ops->dr_matcher_destroy(m16), 0);
    CHECK_ERR(ops->dr_action_destroy(drop), 0);
    CHECK_ERR(ops->dr_table_destroy(t0), 0);
    CHECK_ERR(ops->dr_table_destroy(t1), 0);
    env_destroy(&e);
}

/* The Geneve TLV option object: one per device, an option length of 1 to
 * 31 words, counted among the device's objects. */
void
test_objects_geneve_opt(void)
{
    struct mlx5dv_devx_obj *opt, *opt2;
    struct hw_model_objects objs;
    struct env e;

    env_init(&e, "model80");
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0x0102), 0x80, 0,
                                        &opt), EINVAL);
    CHECK(!opt);
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0x0102), 0x80, 32,
                                        &opt), EINVAL);
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0x0102), 0x80, 1,
                                        &opt), 0);
    CHECK(opt);
    objs = objects("model80");
    CHECK_EQ(objs.dr_geneve_opt, 1);

    /* A second one, of another option or of the same. */
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0xffff), 0x01, 1,
                                        &opt2), ENOMEM);
    CHECK(!opt2);
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0x0102), 0x80, 1,
                                        &opt2), ENOMEM);

    CHECK_ERR(ops->dr_geneve_opt_destroy(opt), 0);
    objs = objects("model80");
    CHECK_EQ(objs.dr_geneve_opt, 0);
    CHECK_ERR(ops->dr_geneve_opt_create(e.port.ctx, htons(0xffff), 0x01, 2,
                                        &opt2), 0);
    CHECK_ERR(ops->dr_geneve_opt_destroy(opt2), 0);
    env_destroy(&e);
}
