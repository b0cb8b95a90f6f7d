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

/* Unit tests of the NIC model's ibv_counters (hw-model-counters.c):
 * attach, bind to flows, read, destroy. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include "util.h"

/* ---------------------------------------------------------------------- */
/* Counters.                                                              */
/* ---------------------------------------------------------------------- */

void
test_counters(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c, *c2;
    struct ibv_flow *f[4];
    uint64_t values[4];
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct pkt other = pkt_tcp4("10.0.0.1", "10.0.0.3", 1, 80);
    size_t len = frame_len(&p);
    struct rule r;

    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &c2), 0);
    CHECK(c->context == &ctx_a);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 2);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);

    /* Attach: static mode only, known descriptions only. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0,
                  .comp_mask = 1 }), EOPNOTSUPP);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = 2, .index = 0 }), ENOTSUP);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 1 }), 0);

    /* Not bound to a flow: cannot be read. */
    CHECK_ERR(hw_model_counters_read(c, values, 2), EINVAL);

    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);

    /* Bound: no more attaching, no destroying. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 2 }), EBUSY);
    CHECK_ERR(hw_model_counters_destroy(c), EBUSY);

    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 0 && values[1] == 0);

    run(st, &p);
    run(st, &p);
    run(st, &other);                /* Not this rule's. */
    memset(values, 0xff, sizeof values);
    CHECK_ERR(hw_model_counters_read(c, values, 4), 0);
    CHECK(values[0] == 2 && values[1] == 2 * len);
    CHECK(values[2] == 0 && values[3] == 0);    /* Unfilled are 0. */
    /* Too small a buffer for index 1. */
    CHECK_ERR(hw_model_counters_read(c, values, 1), EINVAL);

    /* A second rule shares the object: values add up. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.3", "255.255.255.255");
    spec_count(&r, c);
    f[1] = CREATE_OK(st, &qp1, &r);
    run(st, &other);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 3 && values[1] == 3 * len);

    /* Two members of one entry with the same object count once; another
     * object on the same entry counts too. */
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c);
    f[2] = CREATE_OK(st, &qp2, &r);
    CHECK_ERR(hw_model_counters_attach(c2,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_attach(c2,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.2", "255.255.255.255");
    spec_count(&r, c2);
    f[3] = CREATE_OK(st, &qp1, &r);
    run(st, &p);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    CHECK(values[0] == 4 && values[1] == 4 * len);
    /* c2 has two BYTES points at index 0: they add up. */
    CHECK_ERR(hw_model_counters_read(c2, values, 1), 0);
    CHECK(values[0] == 2 * len);

    /* Once the last flow unbinds: unreadable, attachable, destroyable;
     * the hardware counter keeps its value if bound again. */
    destroy_flow(st, f[0]);
    destroy_flow(st, f[1]);
    CHECK_ERR(hw_model_counters_read(c, values, 2), 0);
    destroy_flow(st, f[2]);
    CHECK_ERR(hw_model_counters_read(c, values, 2), EINVAL);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 3 }), 0);
    rule_normal(&r, 1);
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK_ERR(hw_model_counters_read(c, values, 3), EINVAL);
    CHECK_ERR(hw_model_counters_read(c, values, 4), 0);
    CHECK(values[0] == 4 && values[1] == 4 * len && values[3] == 4);
    destroy_flow(st, f[0]);
    destroy_flow(st, f[3]);

    /* An index near 2^32 needs a buffer that large: never a wild write. */
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS,
                  .index = UINT32_MAX }), 0);
    rule_normal(&r, 1);
    spec_count(&r, c);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK_ERR(hw_model_counters_read(c, values, 4), EINVAL);
    destroy_flow(st, f[0]);

    /* The kernel takes at most 8191 points. */
    {
        struct ibv_counters *big;

        CHECK_ERR(hw_model_counters_create(&ctx_a, &big), 0);
        for (int i = 0; i < 8191; i++) {
            CHECK_ERR(hw_model_counters_attach(
                          big, &(struct ibv_counter_attach_attr) {
                              .counter_desc = IBV_COUNTER_PACKETS,
                              .index = 0 }), 0);
        }
        rule_normal(&r, 1);
        spec_count(&r, big);
        f[0] = CREATE_OK(st, &qp1, &r);
        destroy_flow(st, f[0]);
        CHECK_ERR(hw_model_counters_attach(
                      big, &(struct ibv_counter_attach_attr) {
                          .counter_desc = IBV_COUNTER_BYTES, .index = 0 }),
                  0);
        CREATE_FAIL(st, &qp1, &r, EINVAL);
        CHECK_ERR(hw_model_counters_destroy(big), 0);
    }

    /* A dropping rule counts too. */
    rule_normal(&r, 0);
    spec_drop(&r);
    spec_count(&r, c2);
    f[0] = CREATE_OK(st, &qp1, &r);
    CHECK(run(st, &p).drop);
    CHECK_ERR(hw_model_counters_read(c2, values, 1), 0);
    CHECK(values[0] == 2 * 2 * len);
    destroy_flow(st, f[0]);

    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK_ERR(hw_model_counters_destroy(c2), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Churn.                                                                 */
/* ---------------------------------------------------------------------- */

/* Creates 'n' counted rules, each with its own counters object, and
 * destroys them all. */
static void
churn_round(struct hw_model_steering *st, int n)
{
    struct ibv_counters **c = xmalloc(n * sizeof *c);
    struct ibv_flow **f = xmalloc(n * sizeof *f);

    for (int i = 0; i < n; i++) {
        char dst[32];
        struct rule r;

        snprintf(dst, sizeof dst, "10.%d.%d.1", i / 256, i % 256);
        CHECK_ERR(hw_model_counters_create(&ctx_a, &c[i]), 0);
        CHECK_ERR(hw_model_counters_attach(c[i],
                                           &(struct ibv_counter_attach_attr) {
                      .counter_desc = IBV_COUNTER_PACKETS }), 0);
        rule_normal(&r, 0);
        spec_ipv4(&r, 0, dst, "255.255.255.255");
        spec_count(&r, c[i]);
        f[i] = CREATE_OK(st, &qp1, &r);
    }
    for (int i = 0; i < n; i++) {
        destroy_flow(st, f[i]);
        CHECK_ERR(hw_model_counters_destroy(c[i]), 0);
    }
    free(f);
    free(c);
}

/* Once the rules of a churn are gone, the model holds the memory it held
 * before them: its maps of rules and counters give their buckets back
 * (before, 4096 rules left 67 kB of buckets behind).  The heap in use
 * (mallinfo2() uordblks) is measured after a first round of 64, which
 * fills glibc's per-size caches of freed blocks (it counts them as in
 * use); the round of 4096 adds to those caches the bucket arrays of
 * 512 and 1024 bytes it frees as its maps shrink, no more. */
void
test_churn_heap(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct hw_model_limits limits = default_limits();
    struct hw_model_steering *st;
    size_t before, after;

    limits.max_rules = 4096;
    st = hw_model_steering_create(&limits);
    churn_round(st, 64);
    before = mallinfo2().uordblks;
    churn_round(st, 4096);
    after = mallinfo2().uordblks;
    if (after > before + 4096) {
        fprintf(stderr, "heap in use: %"PRIuSIZE" bytes before the "
                "churn, %"PRIuSIZE" after\n", before, after);
    }
    CHECK(after <= before + 4096);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
#endif
}
