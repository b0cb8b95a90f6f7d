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

/* Unit tests of hw-pipeline: shared matchers and actions, reference counts,
 * and nothing left behind on a device error.  The device is a recorder of
 * the dr calls, so the tests see exactly what the pipeline asked for. */

#include <config.h>
#undef NDEBUG
#include <errno.h>
#include <string.h>

#include "hw-dev.h"
#include "hw-pipeline.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "util.h"

/* The recording device: every object is a counted heap cell. */
static struct {
    int live[8];                /* Objects alive, by kind below. */
    int created[8];
    int fail_kind;              /* Kind whose next create fails, or -1. */
    int fail_error;
    size_t last_mask_size;
    uint8_t last_mask[HW_DR_MATCH_MAX_SIZE];
    uint8_t last_criteria;
    uint16_t last_priority;
    uint32_t last_level;
} rec;

enum { K_DOMAIN, K_TABLE, K_MATCHER, K_ACTION };

static int
rec_new(int kind, void **objp)
{
    if (rec.fail_kind == kind) {
        rec.fail_kind = -1;
        *objp = NULL;
        return rec.fail_error;
    }
    int *obj = xmalloc(sizeof *obj);
    *obj = kind;
    rec.live[kind]++;
    rec.created[kind]++;
    *objp = obj;
    return 0;
}

static int
rec_free(int kind, void *obj)
{
    CHECK(obj);
    CHECK_EQ(*(int *) obj, kind);
    rec.live[kind]--;
    free(obj);
    return 0;
}

static int
rec_domain_create(struct ibv_context *ctx OVS_UNUSED,
                  enum mlx5dv_dr_domain_type type OVS_UNUSED,
                  struct mlx5dv_dr_domain **d)
{
    return rec_new(K_DOMAIN, (void **) d);
}

static int
rec_domain_destroy(struct mlx5dv_dr_domain *d)
{
    return rec_free(K_DOMAIN, d);
}

static int
rec_table_create(struct mlx5dv_dr_domain *d OVS_UNUSED, uint32_t level,
                 struct mlx5dv_dr_table **t)
{
    rec.last_level = level;
    return rec_new(K_TABLE, (void **) t);
}

static int
rec_table_destroy(struct mlx5dv_dr_table *t)
{
    return rec_free(K_TABLE, t);
}

static int
rec_matcher_create(struct mlx5dv_dr_table *t OVS_UNUSED, uint16_t priority,
                   uint8_t criteria, struct mlx5dv_flow_match_parameters *mask,
                   struct mlx5dv_dr_matcher **m)
{
    rec.last_priority = priority;
    rec.last_criteria = criteria;
    rec.last_mask_size = mask->match_sz;
    memcpy(rec.last_mask, mask->match_buf, mask->match_sz);
    return rec_new(K_MATCHER, (void **) m);
}

static int
rec_matcher_destroy(struct mlx5dv_dr_matcher *m)
{
    return rec_free(K_MATCHER, m);
}

static int
rec_action_create(struct mlx5dv_dr_domain *d OVS_UNUSED,
                  const struct hw_dr_action_attr *attr OVS_UNUSED,
                  struct mlx5dv_dr_action **a)
{
    return rec_new(K_ACTION, (void **) a);
}

static int
rec_action_destroy(struct mlx5dv_dr_action *a)
{
    return rec_free(K_ACTION, a);
}

static struct hw_dev_caps rec_caps = {
    .dr_domains = 1u << MLX5DV_DR_DOMAIN_TYPE_NIC_RX
                  | 1u << MLX5DV_DR_DOMAIN_TYPE_NIC_TX,
    .dr_max_level = 8,
};

static const struct hw_dev_ops rec_ops = {
    .name = "recorder",
    .dr_domain_create = rec_domain_create,
    .dr_domain_destroy = rec_domain_destroy,
    .dr_table_create = rec_table_create,
    .dr_table_destroy = rec_table_destroy,
    .dr_matcher_create = rec_matcher_create,
    .dr_matcher_destroy = rec_matcher_destroy,
    .dr_action_create = rec_action_create,
    .dr_action_destroy = rec_action_destroy,
};

static struct hw_pipeline *
rec_pipeline(void)
{
    struct netdev_hw_device dev = {
        .ops = &rec_ops,
        .caps = &rec_caps,
        .devname = "rec0",
        .port_num = 1,
    };

    memset(&rec, 0, sizeof rec);
    rec.fail_kind = -1;
    return hw_pipeline_create(&dev);
}

static void
check_counts(const struct hw_pipeline *p, size_t domains, size_t tables,
             size_t matchers, size_t actions, size_t refs)
{
    struct hw_pipeline_counts c;

    hw_pipeline_counts(p, &c);
    CHECK_EQ(c.domains, domains);
    CHECK_EQ(c.tables, tables);
    CHECK_EQ(c.matchers, matchers);
    CHECK_EQ(c.actions, actions);
    CHECK_EQ(c.refs, refs);
    CHECK_EQ(rec.live[K_DOMAIN], domains);
    CHECK_EQ(rec.live[K_TABLE], tables);
    CHECK_EQ(rec.live[K_MATCHER], matchers);
    CHECK_EQ(rec.live[K_ACTION], actions);
}

/* Two rules of one mask and priority share a matcher; another priority or
 * mask gets its own; the last release destroys it. */
static void
test_matchers_shared(void)
{
    struct hw_pipeline *p = rec_pipeline();
    struct hw_pipe_matcher *m1, *m2, *m3, *m4;
    uint8_t mask[64], other[64];

    memset(mask, 0, sizeof mask);
    memset(mask + 48, 0xff, 16);        /* Outer destination IP. */
    memcpy(other, mask, sizeof other);
    other[27] = 0xff;                   /* And the TTL. */

    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 5,
                                      1, mask, sizeof mask, &m1), 0);
    CHECK_EQ(rec.last_level, 1);
    CHECK_EQ(rec.last_priority, 5);
    CHECK_EQ(rec.last_criteria, 1);
    CHECK_EQ(rec.last_mask_size, sizeof mask);
    CHECK(!memcmp(rec.last_mask, mask, sizeof mask));
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 5,
                                      1, mask, sizeof mask, &m2), 0);
    CHECK(m1 == m2);
    check_counts(p, 1, 1, 1, 0, 2);

    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 6,
                                      1, mask, sizeof mask, &m3), 0);
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 5,
                                      1, other, sizeof other, &m4), 0);
    CHECK(m3 != m1 && m4 != m1 && m3 != m4);
    check_counts(p, 1, 1, 3, 0, 4);

    hw_pipeline_matcher_unref(p, m1);
    check_counts(p, 1, 1, 3, 0, 3);
    hw_pipeline_matcher_unref(p, m2);
    hw_pipeline_matcher_unref(p, m3);
    hw_pipeline_matcher_unref(p, m4);
    check_counts(p, 1, 1, 0, 0, 0);
    hw_pipeline_destroy(p);
    CHECK_EQ(rec.live[K_TABLE], 0);
    CHECK_EQ(rec.live[K_DOMAIN], 0);
}

/* One action per distinct attribute; counters are never shared. */
static void
test_actions_shared(void)
{
    struct hw_pipeline *p = rec_pipeline();
    static const uint8_t hdr_a[50] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
    static const uint8_t hdr_b[50] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
    const ovs_be64 set_ttl[1] = { OVS_BE64_MAX };
    struct hw_dr_action_attr a1 = {
        .type = HW_DR_ACTION_REFORMAT,
        .reformat = {
            .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
            .size = sizeof hdr_a, .data = hdr_a,
        },
    };
    struct hw_dr_action_attr a2 = a1;
    struct hw_dr_action_attr tag = { .type = HW_DR_ACTION_TAG, .tag = 7 };
    struct hw_dr_action_attr mod = {
        .type = HW_DR_ACTION_MODIFY_HEADER,
        .modify = { .size = sizeof set_ttl, .commands = set_ttl },
    };
    struct hw_dr_action_attr cnt = { .type = HW_DR_ACTION_COUNTER };
    struct hw_pipe_action *r1, *r2, *r3, *t1, *t2, *m1, *c1, *c2;
    uint8_t copy[sizeof hdr_a];

    /* The same header bytes in another buffer: still the same action. */
    memcpy(copy, hdr_a, sizeof copy);
    a2.reformat.data = copy;
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_TX, &a1,
                                     &r1), 0);
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_TX, &a2,
                                     &r2), 0);
    CHECK(r1 == r2);
    a2.reformat.data = hdr_b;
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_TX, &a2,
                                     &r3), 0);
    CHECK(r3 != r1);

    /* Same attribute in another domain: another action. */
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, &tag,
                                     &t1), 0);
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_TX, &tag,
                                     &t2), 0);
    CHECK(t1 != t2);
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, &mod,
                                     &m1), 0);
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, &cnt,
                                     &c1), 0);
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, &cnt,
                                     &c2), 0);
    CHECK(c1 != c2);
    check_counts(p, 2, 0, 0, 7, 8);

    struct ds s = DS_EMPTY_INITIALIZER;
    hw_pipeline_format(p, &s);
    CHECK_STR(ds_cstr(&s),
              "  action #1: nic_tx reformat, 2 users\n"
              "  action #2: nic_tx reformat, 1 users\n"
              "  action #3: nic_rx modify_header, 1 users\n"
              "  tags: 2\n"
              "  counters: 2\n");
    ds_destroy(&s);

    hw_pipeline_action_unref(p, r1);
    hw_pipeline_action_unref(p, r2);
    hw_pipeline_action_unref(p, r3);
    hw_pipeline_action_unref(p, t1);
    hw_pipeline_action_unref(p, t2);
    hw_pipeline_action_unref(p, m1);
    hw_pipeline_action_unref(p, c1);
    hw_pipeline_action_unref(p, c2);
    check_counts(p, 2, 0, 0, 0, 0);
    hw_pipeline_destroy(p);
    CHECK_EQ(rec.live[K_DOMAIN], 0);
}

/* A device error leaves nothing behind and no reference taken; a domain
 * the device lacks is EOPNOTSUPP without asking it. */
static void
test_errors(void)
{
    struct hw_pipeline *p = rec_pipeline();
    struct hw_dr_action_attr drop = { .type = HW_DR_ACTION_DROP };
    struct hw_pipe_matcher *m;
    struct hw_pipe_action *a;
    uint8_t mask[HW_DR_MATCH_MAX_SIZE + 4];

    memset(mask, 0, sizeof mask);
    rec.fail_kind = K_MATCHER;
    rec.fail_error = ENOSPC;
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 0,
                                      1, mask, 64, &m), ENOSPC);
    CHECK(!m);
    check_counts(p, 1, 1, 0, 0, 0);

    rec.fail_kind = K_ACTION;
    rec.fail_error = ENOMEM;
    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, &drop,
                                     &a), ENOMEM);
    CHECK(!a);
    check_counts(p, 1, 1, 0, 0, 0);

    CHECK_ERR(hw_pipeline_action_ref(p, MLX5DV_DR_DOMAIN_TYPE_FDB, &drop,
                                     &a), EOPNOTSUPP);
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 1, 0,
                                      1, mask, sizeof mask, &m), EINVAL);
    CHECK_EQ(rec.created[K_DOMAIN], 1);
    CHECK_EQ(rec.created[K_ACTION], 0);

    /* The table failing: no table kept, a later call creates it. */
    rec.fail_kind = K_TABLE;
    rec.fail_error = ENOMEM;
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 2, 0,
                                      1, mask, 64, &m), ENOMEM);
    check_counts(p, 1, 1, 0, 0, 0);
    CHECK_ERR(hw_pipeline_matcher_ref(p, MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 2, 0,
                                      1, mask, 64, &m), 0);
    check_counts(p, 1, 2, 1, 0, 1);
    hw_pipeline_matcher_unref(p, m);
    hw_pipeline_destroy(p);
    CHECK_EQ(rec.live[K_TABLE], 0);
    CHECK_EQ(rec.live[K_DOMAIN], 0);
}

static void
test_hw_pipeline_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "matchers-shared", test_matchers_shared },
        { "actions-shared", test_actions_shared },
        { "errors", test_errors },
    };

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-pipeline", test_hw_pipeline_main);
