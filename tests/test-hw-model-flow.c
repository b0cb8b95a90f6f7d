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

/* Unit tests of the NIC model's parser, steering engine and counters, run
 * as "ovstest test-hw-model-flow": the list of them, from
 * test-hw-model-flow-{parse,spec,match,counters}.c and this file, which
 * holds those of the steering engine's tables (hw-model-flow.c): a full
 * table, identical rules merged or refused, and what cleanup leaves. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <errno.h>
#include <stdio.h>
#include "openvswitch/dynamic-string.h"
#include "ovstest.h"
#include "util.h"

static void
test_table_full(void)
{
    struct hw_model_limits limits = default_limits();
    struct hw_model_steering *st;
    struct ibv_flow *f[4];
    struct rule r;

    limits.max_rules = 2;
    st = hw_model_steering_create(&limits);

    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");
    f[0] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    f[1] = CREATE_OK(st, &qp1, &r);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    CREATE_FAIL(st, &qp1, &r, ENOSPC);
    /* A DONT_TRAP rule of the same priority lives in another table. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 5, 1, IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    f[2] = CREATE_OK(st, &qp1, &r);
    /* An identical rule merges and takes no room. */
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    f[3] = CREATE_OK(st, &qp2, &r);
    /* Freed room can be used again. */
    destroy_flow(st, f[0]);
    rule_normal(&r, 5);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    f[0] = CREATE_OK(st, &qp1, &r);

    for (int i = 0; i < 4; i++) {
        destroy_flow(st, f[i]);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Identical rules: merge or EEXIST.                                      */
/* ---------------------------------------------------------------------- */

static void
test_merge_and_conflicts(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c;
    struct hw_model_verdict v;
    struct ibv_flow *f[8];
    struct ds s = DS_EMPTY_INITIALIZER;
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct rule base, r;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    rule_normal(&base, 4);
    spec_ipv4(&base, 0, "10.0.0.2", "255.255.255.255");
    spec_l4(&base, IBV_FLOW_SPEC_TCP, -1, 80);

    r = base;
    spec_tag(&r, 5);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Same match, another QP: added as a second destination. */
    f[1] = CREATE_OK(st, &qp2, &r);
    /* Same QP again: a reference. */
    f[2] = CREATE_OK(st, &qp1, &r);
    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp1);

    /* Another tag, drop against forward, a handle: EEXIST. */
    r = base;
    spec_tag(&r, 6);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    spec_drop(&r);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    spec_tag(&r, 5);
    spec_handle(&r, &act1);
    CREATE_FAIL(st, &qp1, &r, EEXIST);

    /* No tag joins the tagged entry; so does a COUNT-only difference. */
    r = base;
    f[3] = CREATE_OK(st, &qp1, &r);
    r = base;
    spec_tag(&r, 5);
    spec_count(&r, c);
    f[4] = CREATE_OK(st, &qp2, &r);

    /* Same match at another priority is another entry. */
    base.bytes[10] = 5;
    r = base;
    spec_drop(&r);
    f[5] = CREATE_OK(st, &qp1, &r);

    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp1 && !v.drop);

    /* All members show the same entry and its hits. */
    hw_model_steering_format(st, &s);
    {
        const char *line = ds_cstr(&s);
        int n_entry1 = 0;

        while ((line = strstr(line, "entry=1 hits=2 bytes="))) {
            n_entry1++;
            line++;
        }
        CHECK(n_entry1 == 5);
    }
    CHECK(strstr(ds_cstr(&s), "prio=4 core=9: ipv4(dst=10.0.0.2) "
                 "tcp(dst=80) actions=tag(5),count() qp=102 entry=1"));
    CHECK(strstr(ds_cstr(&s), "prio=5 core=11: ipv4(dst=10.0.0.2) "
                 "tcp(dst=80) actions=drop() qp=101 entry=2 hits=0"));
    ds_destroy(&s);

    /* Destroying members one by one keeps the entry until the last. */
    destroy_flow(st, f[0]);
    destroy_flow(st, f[2]);
    destroy_flow(st, f[3]);
    v = run(st, &p);
    CHECK(v.tag == 5 && v.qp == &qp2);
    /* The tag stays with the entry; a new different tag still conflicts. */
    r = base;
    r.bytes[10] = 4;
    spec_tag(&r, 6);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[1]);
    destroy_flow(st, f[4]);
    /* Now the match is free at priority 4: the drop rule at 5 takes it. */
    v = run(st, &p);
    CHECK(v.matched && v.drop);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).tag == 6);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[5]);

    /* A drop entry first: a forwarding rule conflicts, a drop joins. */
    r = base;
    spec_drop(&r);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    r = base;
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);

    /* Same handle merges, another conflicts, none conflicts. */
    r = base;
    spec_handle(&r, &act1);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    r = base;
    spec_handle(&r, &act2);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    r = base;
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);

    /* A tagged rule cannot join an untagged entry. */
    r = base;
    f[0] = CREATE_OK(st, &qp1, &r);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EEXIST);
    destroy_flow(st, f[0]);

    /* Two ALL_DEFAULT rules share the leftovers entries. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
    f[0] = CREATE_OK(st, &qp1, &r);
    f[1] = CREATE_OK(st, &qp2, &r);
    CHECK(run(st, &p).qp == &qp1);
    destroy_flow(st, f[0]);
    CHECK(run(st, &p).qp == &qp2);
    destroy_flow(st, f[1]);

    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Object accounting.                                                     */
/* ---------------------------------------------------------------------- */

static void
test_cleanup(void)
{
    struct hw_model_limits limits = default_limits();
    struct hw_model_steering *st;
    struct ibv_counters *c[3];
    struct ibv_flow *f[40];
    struct ds s = DS_EMPTY_INITIALIZER;
    int n = 0;

    limits.sniffer = true;
    st = hw_model_steering_create(&limits);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_create(&ctx_a, &c[i]), 0);
        CHECK_ERR(hw_model_counters_attach(c[i],
                                           &(struct ibv_counter_attach_attr) {
                      .counter_desc = IBV_COUNTER_PACKETS }), 0);
    }
    for (int prio = 0; prio < 16; prio++) {
        struct rule r;
        char dst[32];

        snprintf(dst, sizeof dst, "10.0.%d.1", prio);
        rule_normal(&r, prio);
        spec_ipv4(&r, 0, dst, "255.255.255.255");
        spec_count(&r, c[prio % 3]);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_NORMAL, prio, 1,
                  IBV_FLOW_ATTR_FLAGS_EGRESS);
        spec_ipv4(&r, 0, dst, "255.255.255.255");
        f[n++] = CREATE_OK(st, &qp2, &r);
    }
    {
        struct rule r;

        rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
        rule_init(&r, IBV_FLOW_ATTR_SNIFFER, 0, 1, 0);
        f[n++] = CREATE_OK(st, &qp1, &r);
    }
    CHECK(hw_model_steering_n_rules(st) == n);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 3);

    /* One line per rule. */
    hw_model_steering_format(st, &s);
    {
        int lines = 0;

        for (const char *q = ds_cstr(&s); *q; q++) {
            lines += *q == '\n';
        }
        /* ALL_DEFAULT and SNIFFER are two entries each. */
        CHECK(lines == n + 2);
    }
    ds_destroy(&s);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_destroy(c[i]), EBUSY);
    }
    for (int i = n - 1; i >= 0; i--) {
        destroy_flow(st, f[i]);
    }
    /* A destroyed flow is no longer known. */
    CHECK_ERR(hw_model_flow_destroy(st, f[0]), EINVAL);
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(hw_model_counters_destroy(c[i]), 0);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    ds_init(&s);
    hw_model_steering_format(st, &s);
    CHECK(s.length == 0);
    ds_destroy(&s);
    hw_model_steering_destroy(st);
}

static void
test_hw_model_flow_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "parser", test_parser },
        { "accept-good-rules", test_accept_good_rules },
        { "reject-attr", test_reject_attr },
        { "reject-specs", test_reject_specs },
        { "reject-match", test_reject_match },
        { "reject-actions", test_reject_actions },
        { "table-full", test_table_full },
        { "match-masks", test_match_masks },
        { "match-vlan", test_match_vlan },
        { "match-fragments", test_match_fragments_and_truncation },
        { "match-tunnel-specs", test_match_tunnel_specs },
        { "parser-tunnels", test_parser_tunnels },
        { "match-vxlan", test_match_vxlan },
        { "vxlan-ports", test_vxlan_ports },
        { "match-gre", test_match_gre },
        { "match-mpls", test_match_mpls },
        { "inner-needs-tunnel", test_inner_needs_tunnel },
        { "priorities", test_priorities },
        { "leftovers-egress", test_leftovers_and_egress },
        { "merge-conflicts", test_merge_and_conflicts },
        { "counters", test_counters },
        { "churn-heap", test_churn_heap },
        { "cleanup", test_cleanup },
        { "reject-short-specs", test_reject_short_specs },
    };

    init_fixtures();
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);
}

OVSTEST_REGISTER("test-hw-model-flow", test_hw_model_flow_main);
