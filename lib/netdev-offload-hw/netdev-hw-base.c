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

#include <config.h>
#include "netdev-hw-base.h"

#include <errno.h>
#include <string.h>

#include "hw-dev.h"
#include "hw-flow.h"
#include "hw-flow-dr.h"
#include "hw-pipeline.h"
#include "hw-stale.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_hw_base);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* The rules that deliver every packet no datapath rule claimed to the RSS
 * QPs (the upcall queues). */
enum netdev_hw_miss_kind {
    MISS_KIND_MISS,             /* Per packet type. */
    MISS_KIND_VLAN_GUARD,       /* Catches C-VLAN tagged packets. */
    MISS_KIND_DEFAULT,          /* IBV_FLOW_ATTR_ALL_DEFAULT. */
};

struct netdev_hw_miss_rule {
    enum netdev_hw_miss_kind kind;
    uint16_t priority;          /* Unused for MISS_KIND_DEFAULT. */
    uint8_t l3;                 /* 0, 4 or 6: IPV4 or IPV6 spec. */
    enum ibv_flow_spec_type l4; /* 0, IBV_FLOW_SPEC_TCP or _UDP. */
    uint16_t vlan_tci;          /* Guard rules: TCI value under VLAN_CFI. */
    enum hw_rss_type dest;
};

/* The two VLAN guards differ only in the CFI bit, which is matched so that
 * a non-zero vlan_tag mask requires a C-VLAN tag: together they catch every
 * C-VLAN tagged packet, whatever its CFI, before the untagged band (see
 * hw-rule.h).  Tagged packets that reach them are hashed on their IPv4
 * addresses, like every packet without a per-type rule. */
static const struct netdev_hw_miss_rule miss_rules[] = {
    { MISS_KIND_MISS, HW_PRIO_MISS_L4, 4, IBV_FLOW_SPEC_TCP, 0,
      HW_RSS_IPV4_TCP },
    { MISS_KIND_MISS, HW_PRIO_MISS_L4, 4, IBV_FLOW_SPEC_UDP, 0,
      HW_RSS_IPV4_UDP },
    { MISS_KIND_MISS, HW_PRIO_MISS_L4, 6, IBV_FLOW_SPEC_TCP, 0,
      HW_RSS_IPV6_TCP },
    { MISS_KIND_MISS, HW_PRIO_MISS_L4, 6, IBV_FLOW_SPEC_UDP, 0,
      HW_RSS_IPV6_UDP },
    { MISS_KIND_MISS, HW_PRIO_MISS_L3, 4, 0, 0, HW_RSS_IPV4 },
    { MISS_KIND_MISS, HW_PRIO_MISS_L3, 6, 0, 0, HW_RSS_IPV6 },
    { MISS_KIND_VLAN_GUARD, HW_PRIO_VLAN_GUARD, 0, 0, 0, HW_RSS_IPV4 },
    { MISS_KIND_VLAN_GUARD, HW_PRIO_VLAN_GUARD, 0, 0, VLAN_CFI,
      HW_RSS_IPV4 },
    { MISS_KIND_DEFAULT, 0, 0, 0, 0, HW_RSS_IPV4 },
};
#define N_MISS_RULES ARRAY_SIZE(miss_rules)

static const uint32_t ct_levels[] = { HW_LEVEL_CT, HW_LEVEL_POST_CT };
#define N_CT_LEVELS ARRAY_SIZE(ct_levels)

/* ibv_flow_attr byte buffers for the miss rules.
 *
 * libibverbs reads the specs back to back from byte 20 of the attribute,
 * without alignment padding, so each spec is copied in at the current end
 * of the buffer. */
#define MISS_RULE_MAX_LEN (sizeof(struct ibv_flow_attr)           \
                           + sizeof(struct ibv_flow_spec_eth)     \
                           + sizeof(struct ibv_flow_spec_ipv6)    \
                           + sizeof(struct ibv_flow_spec_tcp_udp))

BUILD_ASSERT_DECL(sizeof(struct ibv_flow_attr) == 20);

struct rule_buf {
    union {
        struct ibv_flow_attr attr;
        uint8_t bytes[MISS_RULE_MAX_LEN];
    } u;
    size_t len;
};

static void
rule_buf_init(struct rule_buf *rb, enum ibv_flow_attr_type type,
              uint16_t priority, uint8_t port_num)
{
    memset(rb, 0, sizeof *rb);
    rb->len = sizeof rb->u.attr;
    rb->u.attr.type = type;
    rb->u.attr.size = rb->len;
    rb->u.attr.priority = priority;
    rb->u.attr.port = port_num;
}

static void
rule_buf_put_spec(struct rule_buf *rb, const void *spec, uint16_t size)
{
    ovs_assert(rb->len + size <= sizeof rb->u.bytes);
    memcpy(&rb->u.bytes[rb->len], spec, size);
    rb->len += size;
    rb->u.attr.size = rb->len;
    rb->u.attr.num_of_specs++;
}

/* An ETH spec that matches every frame, or, with a non-zero 'tci_mask',
 * every frame with a C-VLAN tag whose TCI is 'tci' under 'tci_mask'. */
static void
rule_buf_put_eth(struct rule_buf *rb, uint16_t tci, uint16_t tci_mask)
{
    struct ibv_flow_spec_eth eth;

    memset(&eth, 0, sizeof eth);
    eth.type = IBV_FLOW_SPEC_ETH;
    eth.size = sizeof eth;
    eth.val.vlan_tag = htons(tci & tci_mask);
    eth.mask.vlan_tag = htons(tci_mask);
    rule_buf_put_spec(rb, &eth, sizeof eth);
}

/* An IPv4 or IPv6 spec with zero masks: it still requires the IP version. */
static void
rule_buf_put_ip(struct rule_buf *rb, uint8_t version)
{
    if (version == 4) {
        struct ibv_flow_spec_ipv4 ipv4;

        memset(&ipv4, 0, sizeof ipv4);
        ipv4.type = IBV_FLOW_SPEC_IPV4;
        ipv4.size = sizeof ipv4;
        rule_buf_put_spec(rb, &ipv4, sizeof ipv4);
    } else {
        struct ibv_flow_spec_ipv6 ipv6;

        memset(&ipv6, 0, sizeof ipv6);
        ipv6.type = IBV_FLOW_SPEC_IPV6;
        ipv6.size = sizeof ipv6;
        rule_buf_put_spec(rb, &ipv6, sizeof ipv6);
    }
}

/* A TCP or UDP spec with zero masks: it still requires the IP protocol. */
static void
rule_buf_put_l4(struct rule_buf *rb, enum ibv_flow_spec_type type)
{
    struct ibv_flow_spec_tcp_udp l4;

    memset(&l4, 0, sizeof l4);
    l4.type = type;
    l4.size = sizeof l4;
    rule_buf_put_spec(rb, &l4, sizeof l4);
}

static void
netdev_hw_miss_rule_encode(const struct netdev_hw_device *dev,
                           const struct netdev_hw_miss_rule *rule,
                           struct rule_buf *rb)
{
    switch (rule->kind) {
    case MISS_KIND_MISS:
        rule_buf_init(rb, IBV_FLOW_ATTR_NORMAL, rule->priority, dev->port_num);
        rule_buf_put_eth(rb, 0, 0);
        rule_buf_put_ip(rb, rule->l3);
        if (rule->l4) {
            rule_buf_put_l4(rb, rule->l4);
        }
        break;

    case MISS_KIND_VLAN_GUARD:
        rule_buf_init(rb, IBV_FLOW_ATTR_NORMAL, rule->priority, dev->port_num);
        rule_buf_put_eth(rb, rule->vlan_tci, VLAN_CFI);
        break;

    case MISS_KIND_DEFAULT:
        /* The device places leftover rules after every priority; use the
         * last valid priority in case a backend checks it anyway. */
        rule_buf_init(rb, IBV_FLOW_ATTR_ALL_DEFAULT,
                      dev->caps->max_flow_priority, dev->port_num);
        break;

    default:
        OVS_NOT_REACHED();
    }
}


struct netdev_hw_base {
    struct hw_pipeline *pipeline;       /* NULL with verbs steering. */

    /* Verbs: the rules in the root table. */
    struct ibv_flow *flows[N_MISS_RULES];

    /* Pipeline: the root rule that jumps to the flow table, and the same
     * rules in the flow table. */
    struct hw_flow_dr jump;
    struct hw_flow_dr dr_flows[N_MISS_RULES];
    bool has_jump;
    bool has_dr[N_MISS_RULES];

    /* The connection pipeline: the miss rules of the connection and
     * post-conntrack tables. */
    struct hw_flow_dr ct_flows[N_CT_LEVELS][N_MISS_RULES];
    bool has_ct[N_CT_LEVELS][N_MISS_RULES];
    bool ct;

    /* In switchdev mode: the FDB root rule that sends the port's packets
     * (its vport's reg_c0 metadata) to its FDB table. */
    struct hw_pipeline *fdb_pipeline;
    struct hw_flow_dr fdb_jump;
    bool has_fdb_jump;
};

/* The FDB root rule of the port of 'dev' (netdev-hw-eswitch.h). */
static int
netdev_hw_base_build_fdb(const struct netdev_hw_device *dev,
                         struct netdev_hw_base *base, const char **stepp)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    memset(&rule, 0, sizeof rule);
    rule.fdb = true;
    rule.fate = HW_FATE_TABLE;
    rule.fate_level = NETDEV_HW_FLOW_LEVEL;
    rule.reg_c[0] = dev->reg_c0;
    rule.reg_c_mask[0] = dev->reg_c0_mask;
    base->fdb_pipeline = dev->fdb_pipeline;
    error = hw_flow_dr_install_at(dev->fdb_pipeline, dev, 0, 0, NULL, &rule,
                                  &base->fdb_jump, &reason);
    if (error) {
        VLOG_WARN_RL(&rl, "%s: fdb rule: %s", dev->devname,
                     ds_cstr(&reason));
        *stepp = "dr_rule_create";
    } else {
        base->has_fdb_jump = true;
    }
    ds_destroy(&reason);
    return error;
}

/* The hw_rule of base rule 'm' on a port with the pipeline. */
static void
netdev_hw_base_rule(const struct netdev_hw_miss_rule *m, struct hw_rule *rule)
{
    memset(rule, 0, sizeof *rule);
    rule->fate = HW_FATE_RSS;
    switch (m->kind) {
    case MISS_KIND_MISS:
        rule->outer.present = (HW_HDR_ETH
                               | (m->l3 == 4 ? HW_HDR_IPV4 : HW_HDR_IPV6));
        if (m->l4 == IBV_FLOW_SPEC_TCP) {
            rule->outer.present |= HW_HDR_TCP;
        } else if (m->l4 == IBV_FLOW_SPEC_UDP) {
            rule->outer.present |= HW_HDR_UDP;
        }
        break;
    case MISS_KIND_VLAN_GUARD:
        rule->outer.present = HW_HDR_ETH;
        rule->outer.eth_mask.tci = htons(VLAN_CFI);
        rule->outer.eth.tci = htons(m->vlan_tci & VLAN_CFI);
        break;
    case MISS_KIND_DEFAULT:
        /* An empty match: every packet. */
        break;
    default:
        OVS_NOT_REACHED();
    }
}

static int
netdev_hw_base_build_dr(const struct netdev_hw_device *dev,
                        struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                        uint16_t jump_priority,
                        struct netdev_hw_base *base, const char **stepp)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    /* The flow table's rules first, so that no packet the jump sends there
     * finds it empty. */
    for (size_t i = 0; i < N_MISS_RULES; i++) {
        const struct netdev_hw_miss_rule *m = &miss_rules[i];
        uint16_t priority = (m->kind == MISS_KIND_DEFAULT
                             ? dev->caps->max_flow_priority : m->priority);

        netdev_hw_base_rule(m, &rule);
        error = hw_flow_dr_install_at(base->pipeline, dev,
                                      NETDEV_HW_FLOW_LEVEL, priority,
                                      rss_qps[m->dest], &rule,
                                      &base->dr_flows[i], &reason);
        if (error) {
            goto error;
        }
        base->has_dr[i] = true;
    }

    memset(&rule, 0, sizeof rule);
    rule.fate = HW_FATE_TABLE;
    rule.fate_level = NETDEV_HW_FLOW_LEVEL;
    if (dev->switchdev) {
        /* The root sees what every vport sent and the FDB did not switch:
         * the port's flow table takes only its own (netdev-hw-eswitch.h). */
        rule.reg_c[0] = dev->reg_c0;
        rule.reg_c_mask[0] = dev->reg_c0_mask;
    }
    error = hw_flow_dr_install_at(base->pipeline, dev, 0, jump_priority,
                                  NULL, &rule, &base->jump, &reason);
    if (error) {
        goto error;
    }
    base->has_jump = true;
    ds_destroy(&reason);
    return 0;

error:
    VLOG_WARN_RL(&rl, "%s: base rules: %s", dev->devname, ds_cstr(&reason));
    ds_destroy(&reason);
    *stepp = "dr_rule_create";
    return error;
}

int
netdev_hw_base_build(const struct netdev_hw_device *dev,
                     struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                     struct netdev_hw_base **basep, const char **stepp)
{
    struct netdev_hw_base *base = xzalloc(sizeof *base);
    int error = 0;

    base->pipeline = dev->pipeline_on_demand ? NULL : dev->pipeline;
    if (base->pipeline) {
        error = netdev_hw_base_build_dr(dev, rss_qps, 0, base, stepp);
    } else {
        for (size_t i = 0; i < N_MISS_RULES && !error; i++) {
            const struct netdev_hw_miss_rule *rule = &miss_rules[i];
            struct rule_buf rb;

            netdev_hw_miss_rule_encode(dev, rule, &rb);
            error = dev->ops->create_flow(rss_qps[rule->dest], &rb.u.attr,
                                          &base->flows[i]);
            if (error) {
                base->flows[i] = NULL;
                *stepp = "create_flow";
            }
        }
    }
    if (!error && dev->fdb_pipeline) {
        error = netdev_hw_base_build_fdb(dev, base, stepp);
    }
    if (error) {
        netdev_hw_base_destroy(base, dev);
        base = NULL;
    }
    *basep = base;
    return error;
}

int
netdev_hw_base_build_flow_table(const struct netdev_hw_device *dev,
                                struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                                struct netdev_hw_base **basep,
                                const char **stepp)
{
    struct netdev_hw_base *base = xzalloc(sizeof *base);
    int error;

    ovs_assert(dev->pipeline);
    base->pipeline = dev->pipeline;
    error = netdev_hw_base_build_dr(dev, rss_qps, HW_PRIO_PIPELINE_JUMP,
                                    base, stepp);
    if (error) {
        netdev_hw_base_destroy(base, dev);
        base = NULL;
    }
    *basep = base;
    return error;
}

int
netdev_hw_base_build_ct(const struct netdev_hw_device *dev,
                        struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                        struct netdev_hw_base **basep, const char **stepp)
{
    struct netdev_hw_base *base = xzalloc(sizeof *base);
    struct ds reason = DS_EMPTY_INITIALIZER;
    int error = 0;

    ovs_assert(dev->pipeline);
    base->pipeline = dev->pipeline;
    base->ct = true;
    for (size_t l = 0; l < N_CT_LEVELS && !error; l++) {
        for (size_t i = 0; i < N_MISS_RULES && !error; i++) {
            const struct netdev_hw_miss_rule *m = &miss_rules[i];
            struct hw_rule rule;

            /* The rules of these tables match the tags or not alike: no
             * guard. */
            if (m->kind == MISS_KIND_VLAN_GUARD) {
                continue;
            }
            netdev_hw_base_rule(m, &rule);
            error = hw_flow_dr_install_at(
                base->pipeline, dev, ct_levels[l],
                m->kind == MISS_KIND_DEFAULT ? dev->caps->max_flow_priority
                                             : m->priority,
                rss_qps[m->dest], &rule, &base->ct_flows[l][i], &reason);
            base->has_ct[l][i] = !error;
        }
    }
    if (error) {
        VLOG_WARN_RL(&rl, "%s: connection table base rules: %s",
                     dev->devname, ds_cstr(&reason));
        *stepp = "dr_rule_create";
        netdev_hw_base_destroy(base, dev);
        base = NULL;
    }
    ds_destroy(&reason);
    *basep = base;
    return error;
}

static void
netdev_hw_base_destroy_dr(struct netdev_hw_base *base,
                          const struct netdev_hw_device *dev,
                          struct hw_flow_dr *flow)
{
    const char *step = NULL;
    int error = hw_flow_dr_uninstall(base->pipeline, dev, flow, &step);

    if (error) {
        hw_stale_add_dr(base->pipeline, dev, flow, step, error);
    }
}

void
netdev_hw_base_destroy(struct netdev_hw_base *base,
                       const struct netdev_hw_device *dev)
{
    if (!base) {
        return;
    }
    /* A rule the device refuses to destroy still delivers to its RSS QP,
     * which therefore cannot go: hw-stale keeps it, and netdev-hw keeps the
     * QPs until a retry destroys it. */
    if (base->has_fdb_jump) {
        const char *step = NULL;
        int error = hw_flow_dr_uninstall(base->fdb_pipeline, dev,
                                         &base->fdb_jump, &step);

        if (error) {
            hw_stale_add_dr(base->fdb_pipeline, dev, &base->fdb_jump, step,
                            error);
        }
    }
    if (base->has_jump) {
        netdev_hw_base_destroy_dr(base, dev, &base->jump);
    }
    for (size_t l = 0; l < N_CT_LEVELS; l++) {
        for (int i = N_MISS_RULES - 1; i >= 0; i--) {
            if (base->has_ct[l][i]) {
                netdev_hw_base_destroy_dr(base, dev, &base->ct_flows[l][i]);
            }
        }
    }
    for (int i = N_MISS_RULES - 1; i >= 0; i--) {
        if (base->flows[i]) {
            struct hw_flow flow = { .flow = base->flows[i] };

            hw_stale_uninstall_flow(dev, &flow, HW_STALE_NO_MARK);
        }
        if (base->has_dr[i]) {
            netdev_hw_base_destroy_dr(base, dev, &base->dr_flows[i]);
        }
    }
    free(base);
}

int
netdev_hw_base_n_rules(const struct netdev_hw_base *base)
{
    int n = 0;

    for (size_t i = 0; base && i < N_MISS_RULES; i++) {
        n += base->flows[i] || base->has_dr[i];
        for (size_t l = 0; l < N_CT_LEVELS; l++) {
            n += base->has_ct[l][i];
        }
    }
    return n;
}

void
netdev_hw_base_format(const struct netdev_hw_base *base, struct ds *s)
{
    int n_rules = 0, n_guards = 0, n_default = 0;

    for (size_t i = 0; base && i < N_MISS_RULES; i++) {
        if (!base->flows[i] && !base->has_dr[i]) {
            continue;
        }
        switch (miss_rules[i].kind) {
        case MISS_KIND_MISS:
            n_rules++;
            break;
        case MISS_KIND_VLAN_GUARD:
            n_guards++;
            break;
        case MISS_KIND_DEFAULT:
            n_default++;
            break;
        }
    }
    ds_put_format(s, "  miss rules: %d per type, %d vlan guard, "
                  "%d default\n", n_rules, n_guards, n_default);
    if (base && base->pipeline) {
        ds_put_format(s, "  steering: dr, root jumps to table level %d%s\n",
                      NETDEV_HW_FLOW_LEVEL,
                      base->has_jump ? "" : " (missing)");
    }
    if (base && base->fdb_pipeline) {
        ds_put_format(s, "  e-switch: fdb root jumps to table level %d%s\n",
                      NETDEV_HW_FLOW_LEVEL,
                      base->has_fdb_jump ? "" : " (missing)");
    }
}
