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

/* Unit tests of what the device refuses to destroy: hw_flow_uninstall()
 * keeps it and says which call failed, and hw-stale.c keeps it, holds its
 * mark and destroys it on a retry, on the NIC model with injected
 * faults. */

#include <config.h>

#include <errno.h>
#include <string.h>

#include "hw-flow.h"
#include "hw-model.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "ovstest.h"
#include "seq.h"
#include "test-hw-check.h"
#include "test-hw-model-port.h"

/* A port on model device 'devname' and the device as hw-flow.h sees it. */
struct stale_port {
    struct model_port port;
    struct netdev_hw_device dev;
};

static void
stale_port_create(struct stale_port *sp, const char *devname)
{
    model_port_create(&sp->port, devname, 64,
                      IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4);
    sp->dev = (struct netdev_hw_device) {
        .ops = &hw_model_ops,
        .ctx = sp->port.ctx,
        .caps = &sp->port.caps,
        .devname = devname,
        .port_num = 1,
    };
}

/* A partial rule for UDP to port 'dport', counted, tagging with 'tag'. */
static void
stale_rule(struct hw_rule *rule, uint16_t dport, uint32_t tag)
{
    memset(rule, 0, sizeof *rule);
    rule->outer.present = HW_HDR_IPV4 | HW_HDR_UDP;
    rule->outer.l4.dst = htons(dport);
    rule->outer.l4_mask.dst = OVS_BE16_MAX;
    rule->has_tag = true;
    rule->tag = tag;
    rule->count = true;
    rule->fate = HW_FATE_RSS;
}

static void
install(struct stale_port *sp, uint16_t dport, uint32_t tag,
        struct hw_flow *flow)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;

    stale_rule(&rule, dport, tag);
    CHECK_ERR(hw_flow_install(&sp->dev, sp->port.rss_qp, &rule, flow,
                              &reason), 0);
    ds_destroy(&reason);
}

static void
fault(const char *devname, const char *op, int error, unsigned int count)
{
    CHECK_ERR(hw_model_set_fault(devname, op, error, count), 0);
}

static void
check_format(const char *devname, const char *want)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    hw_stale_format(devname, &s);
    CHECK_STR(ds_cstr(&s), want);
    ds_destroy(&s);
}

static void
count_release(void *n_)
{
    int *n = n_;

    (*n)++;
}

/* hw_flow_uninstall() destroys what it can, keeps the rest and says which
 * call failed; a second call finishes. */
static void
test_uninstall(void)
{
    const char *devname = "model40";
    struct stale_port sp;
    struct hw_flow flow;
    const char *step;
    size_t base;

    stale_port_create(&sp, devname);
    base = model_objects(devname);

    /* The rule stays, and with it its counters. */
    install(&sp, 53, 7, &flow);
    CHECK_EQ(model_objects(devname), base + 2);
    fault(devname, "destroy_flow", EIO, 1);
    CHECK_ERR(hw_flow_uninstall(&sp.dev, &flow, &step), EIO);
    CHECK_STR(step, "destroy_flow");
    CHECK(flow.flow && flow.counters);
    CHECK(flow.final_valid);
    CHECK_EQ(model_objects(devname), base + 2);
    CHECK_ERR(hw_flow_uninstall(&sp.dev, &flow, &step), 0);
    CHECK(!flow.flow && !flow.counters);
    CHECK_EQ(model_objects(devname), base);

    /* The rule goes, its counters stay. */
    install(&sp, 53, 7, &flow);
    fault(devname, "destroy_counters", EIO, 1);
    CHECK_ERR(hw_flow_uninstall(&sp.dev, &flow, &step), EIO);
    CHECK_STR(step, "destroy_counters");
    CHECK(!flow.flow && flow.counters);
    CHECK_EQ(model_objects(devname), base + 1);
    CHECK_ERR(hw_flow_uninstall(&sp.dev, &flow, NULL), 0);
    CHECK_EQ(model_objects(devname), base);

    model_port_destroy(&sp.port);
}

/* A stale rule holds its mark until a retry destroys it; then the holds of
 * the mark are released, once. */
static void
test_retry(void)
{
    const char *devname = "model41";
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct stale_port sp;
    struct hw_flow flow;
    struct hw_rule rule;
    int n_released = 0;
    uint64_t seqno;
    size_t base;

    stale_port_create(&sp, devname);
    base = model_objects(devname);
    CHECK(!hw_stale_any());

    install(&sp, 53, 7, &flow);
    fault(devname, "destroy_flow", EIO, 3);
    hw_stale_uninstall_flow(&sp.dev, &flow, 7);
    CHECK(!flow.flow && !flow.counters);
    CHECK(hw_stale_any());
    CHECK_EQ(hw_stale_count(devname), 1);
    CHECK_EQ(hw_stale_count("model42"), 0);
    CHECK(hw_stale_mark_held(7, &reason));
    CHECK_STR(ds_cstr(&reason), "destroy_flow: Input/output error");
    CHECK(!hw_stale_mark_held(8, NULL));
    CHECK(!hw_stale_hold(8, count_release, &n_released));
    CHECK(hw_stale_hold(7, count_release, &n_released));
    check_format(devname, "  stale rules: 1 (marks 7), destroy retried 0 "
                 "times, last error: destroy_flow: Input/output error\n");
    check_format("model42", "");

    /* Two retries fail. */
    CHECK_EQ(hw_stale_retry(devname), 1);
    CHECK_EQ(hw_stale_retry(NULL), 1);
    CHECK_EQ(hw_stale_retry("model42"), 0);
    CHECK_EQ(n_released, 0);
    check_format(devname, "  stale rules: 1 (marks 7), destroy retried 2 "
                 "times, last error: destroy_flow: Input/output error\n");
    CHECK_EQ(model_objects(devname), base + 2);

    /* The third destroys the rule, then its counters, and releases. */
    seqno = seq_read(hw_stale_seq());
    CHECK_EQ(hw_stale_retry(NULL), 0);
    CHECK(seq_read(hw_stale_seq()) != seqno);
    CHECK_EQ(n_released, 1);
    CHECK(!hw_stale_any());
    CHECK(!hw_stale_mark_held(7, NULL));
    CHECK_EQ(model_objects(devname), base);
    check_format(devname, "");

    /* A rule whose counters alone stay holds no mark. */
    install(&sp, 53, 7, &flow);
    fault(devname, "destroy_counters", EBUSY, 2);
    hw_stale_uninstall_flow(&sp.dev, &flow, 7);
    CHECK_EQ(hw_stale_count(devname), 1);
    CHECK(!hw_stale_mark_held(7, NULL));
    check_format(devname, "  stale rules: 1 (no marks), destroy retried 0 "
                 "times, last error: destroy_counters: Device or resource "
                 "busy\n");
    CHECK_EQ(hw_stale_retry(devname), 1);
    CHECK_EQ(hw_stale_retry(devname), 0);
    CHECK_EQ(model_objects(devname), base);

    /* An install that fails, and whose counters then refuse to go. */
    fault(devname, "create_flow", ENOSPC, 1);
    fault(devname, "destroy_counters", EIO, 1);
    stale_rule(&rule, 53, 7);
    CHECK_ERR(hw_flow_install(&sp.dev, sp.port.rss_qp, &rule, &flow,
                              &reason), ENOSPC);
    CHECK(!flow.flow && !flow.counters);
    CHECK_EQ(hw_stale_count(devname), 1);
    CHECK(!hw_stale_mark_held(7, NULL));
    CHECK_EQ(hw_stale_retry(devname), 0);
    CHECK_EQ(model_objects(devname), base);

    ds_destroy(&reason);
    model_port_destroy(&sp.port);
}

/* A device that closes forgets its stale rules after a last retry, and
 * releases their marks. */
static void
test_forget(void)
{
    const char *devname = "model43";
    struct stale_port sp;
    struct hw_flow flow1, flow2;
    int n_released = 0;
    size_t base;

    stale_port_create(&sp, devname);
    base = model_objects(devname);

    install(&sp, 53, 7, &flow1);
    install(&sp, 54, 8, &flow2);
    fault(devname, "destroy_flow", EIO, 2);
    hw_stale_uninstall_flow(&sp.dev, &flow1, 7);
    hw_stale_uninstall_flow(&sp.dev, &flow2, 8);
    CHECK(hw_stale_hold(7, count_release, &n_released));
    CHECK(hw_stale_hold(8, count_release, &n_released));
    check_format(devname, "  stale rules: 2 (marks 7,8), destroy retried 0 "
                 "times, last error: destroy_flow: Input/output error\n");

    /* The last retry destroys one rule of two. */
    fault(devname, "destroy_flow", EIO, 1);
    hw_stale_forget(devname);
    CHECK_EQ(n_released, 2);
    CHECK(!hw_stale_any());
    CHECK_EQ(hw_stale_count(devname), 0);
    CHECK_EQ(model_objects(devname), base + 2);
}

static void
test_hw_stale_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "uninstall", test_uninstall },
        { "retry", test_retry },
        { "forget", test_forget },
    };

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-stale", test_hw_stale_main);
