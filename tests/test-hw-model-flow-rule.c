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

/* The fake device objects and the rules of the NIC model's steering tests
 * (test-hw-model-flow*.c).
 *
 * Rules are built as byte buffers exactly as libibverbs reads them (specs
 * back to back from offset 20), never through C structs with padding. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <arpa/inet.h>
#include <string.h>
#include "packets.h"
#include "util.h"

/* ---------------------------------------------------------------------- */
/* Fake device objects.                                                   */
/* ---------------------------------------------------------------------- */

struct ibv_context ctx_a, ctx_b;
struct ibv_qp qp1, qp2, qp_ud, qp_rc, qp_uc, qp_b;
struct ibv_flow_action act1, act2, act_b;

void
init_fixtures(void)
{
    memset(&ctx_a, 0, sizeof ctx_a);
    memset(&ctx_b, 0, sizeof ctx_b);

    memset(&qp1, 0, sizeof qp1);
    qp1.context = &ctx_a;
    qp1.qp_type = IBV_QPT_RAW_PACKET;
    qp1.qp_num = 101;

    qp2 = qp1;
    qp2.qp_num = 102;

    qp_ud = qp1;
    qp_ud.qp_type = IBV_QPT_UD;
    qp_ud.qp_num = 103;

    qp_rc = qp1;
    qp_rc.qp_type = IBV_QPT_RC;
    qp_rc.qp_num = 104;

    qp_uc = qp1;
    qp_uc.qp_type = IBV_QPT_UC;
    qp_uc.qp_num = 105;

    qp_b = qp1;
    qp_b.context = &ctx_b;
    qp_b.qp_num = 201;

    act1.context = &ctx_a;
    act2.context = &ctx_a;
    act_b.context = &ctx_b;
}

struct hw_model_limits
default_limits(void)
{
    return (struct hw_model_limits) {
        .phys_port_cnt = 1,
        .max_priority = 15,
        .max_specs = 10,
        .max_rules = 1024,
        .sniffer = false,
        .cap_net_raw = true,
    };
}

struct hw_model_steering *
new_steering(void)
{
    struct hw_model_limits limits = default_limits();

    return hw_model_steering_create(&limits);
}

/* ---------------------------------------------------------------------- */
/* Rule buffers.                                                          */
/* ---------------------------------------------------------------------- */

void
rule_normal(struct rule *r, uint16_t priority)
{
    rule_init(r, IBV_FLOW_ATTR_NORMAL, priority, 1, 0);
}

/* Appends a zeroed spec of 'size' bytes with its header; returns it. */
uint8_t *
rule_spec(struct rule *r, uint32_t type, uint16_t size)
{
    uint8_t *s = &r->bytes[r->len];
    uint16_t attr_size;

    CHECK(r->len + size <= sizeof r->bytes);
    memcpy(s, &type, 4);
    memcpy(s + 4, &size, 2);
    r->len += size;
    r->bytes[12]++;
    attr_size = r->len;
    memcpy(&r->bytes[8], &attr_size, 2);
    return s;
}

static const struct ibv_flow_attr *
rule_attr(const struct rule *r)
{
    return ALIGNED_CAST(const struct ibv_flow_attr *, r->bytes);
}

void
spec_eth_type(struct rule *r, uint32_t inner, uint16_t type)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ETH | inner, ETH_SIZE);

    put_be16(s + ETH_V + F_ETYPE, type);
    put_be16(s + ETH_M + F_ETYPE, 0xffff);
}

void
spec_eth_any(struct rule *r, uint32_t inner)
{
    rule_spec(r, IBV_FLOW_SPEC_ETH | inner, ETH_SIZE);
}

void
spec_ipv4(struct rule *r, uint32_t inner, const char *dst,
          const char *dst_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_IPV4 | inner, IP4_SIZE);

    if (dst) {
        put_ip4(s + IP4_V + F_IP4_DST, dst);
        put_ip4(s + IP4_M + F_IP4_DST, dst_mask);
    }
}

void
spec_ipv6(struct rule *r, uint32_t inner, const char *dst,
          const char *dst_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_IPV6 | inner, IP6_SIZE);

    if (dst) {
        put_ip6(s + IP6_V + F_IP6_DST, dst);
        put_ip6(s + IP6_M + F_IP6_DST, dst_mask);
    }
}

/* TCP or UDP; a negative port is not matched. */
void
spec_l4(struct rule *r, uint32_t type, int sport, int dport)
{
    uint8_t *s = rule_spec(r, type, L4_SIZE);

    if (sport >= 0) {
        put_be16(s + L4_V + F_L4_SRC, sport);
        put_be16(s + L4_M + F_L4_SRC, 0xffff);
    }
    if (dport >= 0) {
        put_be16(s + L4_V + F_L4_DST, dport);
        put_be16(s + L4_M + F_L4_DST, 0xffff);
    }
}

void
spec_vxlan(struct rule *r, uint32_t vni, uint32_t mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE);

    put_be32(s + VXLAN_V, vni);
    put_be32(s + VXLAN_M, mask);
}

void
spec_gre(struct rule *r, uint16_t proto, uint16_t proto_mask, uint32_t key,
         uint32_t key_mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_GRE, GRE_SIZE);

    put_be16(s + GRE_V + F_GRE_PROTO, proto);
    put_be16(s + GRE_M + F_GRE_PROTO, proto_mask);
    put_be32(s + GRE_V + F_GRE_KEY, key);
    put_be32(s + GRE_M + F_GRE_KEY, key_mask);
}

void
spec_mpls(struct rule *r, uint32_t inner, uint32_t lse, uint32_t mask)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_MPLS | inner, MPLS_SIZE);

    put_be32(s + MPLS_V, lse);
    put_be32(s + MPLS_M, mask);
}

void
spec_tag(struct rule *r, uint32_t tag)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_TAG, TAG_SIZE);

    memcpy(s + 8, &tag, 4);
}

void
spec_drop(struct rule *r)
{
    rule_spec(r, IBV_FLOW_SPEC_ACTION_DROP, DROP_SIZE);
}

void
spec_handle(struct rule *r, const struct ibv_flow_action *action)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE);

    memcpy(s + 8, &action, sizeof action);
}

void
spec_count(struct rule *r, struct ibv_counters *counters)
{
    uint8_t *s = rule_spec(r, IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE);

    memcpy(s + 8, &counters, sizeof counters);
}

/* Creates 'r' and checks the result and that a failure leaves nothing. */
struct ibv_flow *
create_expect(struct hw_model_steering *st, struct ibv_qp *qp,
              const struct rule *r, int want, int line)
{
    size_t n_before = hw_model_steering_n_rules(st);
    struct ibv_flow *flow = (struct ibv_flow *) &flow;
    int error = hw_model_flow_create(st, qp, rule_attr(r), &flow);

    if (error != want) {
        ovs_abort(0, "line %d: hw_model_flow_create returned %d (%s), "
                  "expected %d (%s)", line, error, ovs_strerror(error),
                  want, ovs_strerror(want));
    }
    if (error) {
        if (flow || hw_model_steering_n_rules(st) != n_before) {
            ovs_abort(0, "line %d: failed create left state behind", line);
        }
    } else {
        if (!flow || hw_model_steering_n_rules(st) != n_before + 1
            || flow->context != qp->context) {
            ovs_abort(0, "line %d: bad flow after create", line);
        }
    }
    return flow;
}

void
destroy_flow(struct hw_model_steering *st, struct ibv_flow *flow)
{
    CHECK_ERR(hw_model_flow_destroy(st, flow), 0);
}
