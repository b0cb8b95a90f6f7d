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

/* The NIC model's pipeline of tables (hw-model-dr.c, hw-model-dr-action.c,
 * hw-model-dr-path.c), through hw_model_ops only: every refusal with its
 * errno (rdma-core 44's mlx5dv_dr, hw-apis.md 3.1-3.4), and packets
 * through tables, byte for byte.  The match bytes, modify-header commands
 * and expected frames are written here from the reference's offsets and
 * field ids, not taken from the model.
 *
 * "ovstest test-hw-model-dr [NAME]..." runs the sub-tests named, or all of
 * them, as test-hw-check.h says; a group's name runs the group's sub-tests.
 * This file holds the groups and what their sub-tests share, which are in
 * test-hw-model-dr-{objects,action,path}.c. */

#include <config.h>
#include "test-hw-model-dr-private.h"

#include <string.h>

#include "byte-order.h"
#include "ovstest.h"
#include "util.h"

/* One PRM modify-header command (hw-apis.md 3.2). */
ovs_be64
mod_set(uint16_t field, int offset, int length, uint32_t data)
{
    uint32_t w = (1u << 28) | (field << 16) | (offset << 8) | (length & 31);

    return htonll(((uint64_t) w << 32) | data);
}

ovs_be64
mod_add(uint16_t field, uint32_t data)
{
    return htonll(((uint64_t) ((2u << 28) | (field << 16)) << 32) | data);
}

ovs_be64
mod_copy(uint16_t src, int src_offset, int length, uint16_t dst,
         int dst_offset)
{
    uint32_t w0 = (3u << 28) | (src << 16) | (src_offset << 8)
                  | (length & 31);
    uint32_t w1 = (dst << 16) | (dst_offset << 8);

    return htonll(((uint64_t) w0 << 32) | w1);
}

void
env_init(struct env *e, const char *devname)
{
    model_port_create(&e->port, devname, 64, 0);
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        CHECK_ERR(ops->dr_domain_create(e->port.ctx, i, &e->dom[i]), 0);
    }
}

void
env_destroy(struct env *e)
{
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        CHECK_ERR(ops->dr_domain_destroy(e->dom[i]), 0);
    }
    model_port_destroy(&e->port);
}

struct mlx5dv_dr_table *
table(struct env *e, int domain, uint32_t level)
{
    struct mlx5dv_dr_table *t;

    CHECK_ERR(ops->dr_table_create(e->dom[domain], level, &t), 0);
    return t;
}

struct mlx5dv_dr_matcher *
matcher(struct mlx5dv_dr_table *t, uint16_t prio, uint8_t criteria,
        struct match *mask)
{
    struct mlx5dv_dr_matcher *m;

    CHECK_ERR(ops->dr_matcher_create(t, prio, criteria,
                                     mask ? mp(mask) : NULL, &m), 0);
    return m;
}

int
try_action(struct mlx5dv_dr_domain *d, struct hw_dr_action_attr attr)
{
    struct mlx5dv_dr_action *a = NULL;
    int error = ops->dr_action_create(d, &attr, &a);

    if (!error) {
        CHECK_ERR(ops->dr_action_destroy(a), 0);
    } else {
        CHECK(!a);
    }
    return error;
}

struct mlx5dv_dr_action *
action(struct mlx5dv_dr_domain *d, struct hw_dr_action_attr attr)
{
    struct mlx5dv_dr_action *a;

    CHECK_ERR(ops->dr_action_create(d, &attr, &a), 0);
    return a;
}

struct mlx5dv_dr_action *
modify(struct mlx5dv_dr_domain *d, const ovs_be64 *cmds, size_t n)
{
    return ACTION(d, .type = HW_DR_ACTION_MODIFY_HEADER,
                  .modify = { .size = 8 * n, .commands = cmds });
}

int
try_modify(struct mlx5dv_dr_domain *d, const ovs_be64 *cmds, size_t size)
{
    return TRY_ACTION(d, .type = HW_DR_ACTION_MODIFY_HEADER,
                      .modify = { .size = size, .commands = cmds });
}

/* Tries a rule with 'n' actions; destroys it again if it was created. */
int
try_rule(struct mlx5dv_dr_matcher *m, struct match *value, size_t n,
         struct mlx5dv_dr_action **actions)
{
    struct mlx5dv_dr_rule *rule = NULL;
    int error = ops->dr_rule_create(m, value ? mp(value) : NULL, n, actions,
                                    &rule);

    if (!error) {
        CHECK_ERR(ops->dr_rule_destroy(rule), 0);
    } else {
        CHECK(!rule);
    }
    return error;
}

struct mlx5dv_dr_rule *
rule(struct mlx5dv_dr_matcher *m, struct match *value, size_t n,
     struct mlx5dv_dr_action **actions)
{
    struct mlx5dv_dr_rule *r;

    CHECK_ERR(ops->dr_rule_create(m, value ? mp(value) : NULL, n, actions,
                                  &r), 0);
    return r;
}

struct hw_model_objects
objects(const char *devname)
{
    struct hw_model_objects objs;

    CHECK_ERR(hw_model_count_objects(devname, &objs), 0);
    return objs;
}

static const struct test_hw_case objects_tests[] = {
    { "busy", test_objects_busy },
    { "domain-refs", test_objects_domain_refs },
    { "domain", test_objects_domain },
    { "faults", test_objects_faults },
    { "geneve-opt", test_objects_geneve_opt },
};

static const struct test_hw_case matcher_tests[] = {
    { "matcher-refusals", test_matcher_refusals },
};

static const struct test_hw_case rule_tests[] = {
    { "rule-refusals", test_rule_refusals },
};

static const struct test_hw_case actions_tests[] = {
    { "domains", test_actions_domains },
    { "jumps", test_actions_jumps },
    { "reformat", test_actions_reformat },
    { "meter-refusals", test_actions_meter },
};

static const struct test_hw_case order_tests[] = {
    { "order", test_order },
};

static const struct test_hw_case modify_tests[] = {
    { "modify-refusals", test_modify_refusals },
};

static const struct test_hw_case path_tests[] = {
    { "ttl", test_path_ttl },
    { "ip-version", test_path_ip_version },
    { "set-fields", test_path_set_fields },
    { "set-bits", test_path_set_bits },
    { "udp-csum", test_path_udp_csum },
    { "vlan", test_path_vlan },
    { "root-verbs", test_path_root_verbs },
    { "tx", test_path_tx },
    { "fdb", test_path_fdb },
    { "meter", test_path_meter },
};

static const struct test_hw_case eswitch_tests[] = {
    { "eswitch-setup", test_eswitch_setup },
    { "eswitch-fdb", test_eswitch_fdb },
    { "eswitch-representor", test_eswitch_representor },
    { "eswitch-refusals", test_eswitch_refusals },
    { "eswitch-modify", test_eswitch_modify },
    { "eswitch-tunnel", test_eswitch_tunnel },
};

static void
test_hw_model_dr_main(int argc, char *argv[])
{
    static const struct {
        const char *name;
        const struct test_hw_case *tests;
        size_t n;
    } groups[] = {
#define GROUP(NAME, TESTS) { NAME, TESTS, ARRAY_SIZE(TESTS) }
        GROUP("objects", objects_tests),
        GROUP("matcher", matcher_tests),
        GROUP("rule", rule_tests),
        GROUP("actions", actions_tests),
        GROUP("order", order_tests),
        GROUP("modify", modify_tests),
        GROUP("path", path_tests),
        GROUP("eswitch", eswitch_tests),
#undef GROUP
    };
    struct test_hw_case *tests = NULL;
    size_t n_tests = 0;

    /* Every sub-test, group by group. */
    for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
        tests = xrealloc(tests, (n_tests + groups[i].n) * sizeof *tests);
        memcpy(&tests[n_tests], groups[i].tests,
               groups[i].n * sizeof *tests);
        n_tests += groups[i].n;
    }

    /* The arguments, each group's name replaced by the names of its
     * sub-tests (no more than 'n_tests' of them). */
    char **names = xmalloc(argc * n_tests * sizeof *names);
    int n_names = 0;

    names[n_names++] = argv[0];
    for (int j = 1; j < argc; j++) {
        size_t i = 0;

        while (i < ARRAY_SIZE(groups) && strcmp(argv[j], groups[i].name)) {
            i++;
        }
        if (i < ARRAY_SIZE(groups)) {
            for (size_t k = 0; k < groups[i].n; k++) {
                names[n_names++] = CONST_CAST(char *,
                                              groups[i].tests[k].name);
            }
        } else {
            names[n_names++] = argv[j];
        }
    }

    test_hw_run(n_names, names, tests, n_tests);
    free(names);
    free(tests);
}

OVSTEST_REGISTER("test-hw-model-dr", test_hw_model_dr_main);
