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

/* Unit tests of the rules the NIC model's ibv_create_flow() accepts and
 * of those it refuses with the errno of hw-apis.md 1.7 (hw-model-spec.c,
 * hw-model-flow-spec.c), short specs included. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <errno.h>
#include <string.h>
#include "packets.h"
#include "util.h"

/* ---------------------------------------------------------------------- */
/* Acceptance.                                                            */
/* ---------------------------------------------------------------------- */

void
test_accept_good_rules(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c;
    struct ibv_flow *f[8];
    struct rule r;
    int n = 0;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* No specs at all: match everything. */
    rule_normal(&r, 0);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* The VXLAN decap upcall rule of hw-apis.md 1.2: 9 specs, 224 bytes. */
    rule_normal(&r, 1);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.255");
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_vxlan(&r, 42, 0xffffff);
    spec_eth_any(&r, IBV_FLOW_SPEC_INNER);
    spec_ipv4(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    spec_l4(&r, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, -1, 80);
    spec_tag(&r, 7);
    spec_count(&r, c);
    CHECK(r.len == 224 && r.bytes[12] == 9);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* UD QP, the highest priority, IPv6 + UDP, egress, DONT_TRAP. */
    rule_normal(&r, 15);
    spec_ipv6(&r, 0, "2001:db8::", "ffff:ffff::");
    spec_l4(&r, IBV_FLOW_SPEC_UDP, 53, -1);
    f[n++] = CREATE_OK(st, &qp_ud, &r);

    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 3, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS | IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    spec_eth_type(&r, 0, ETH_TYPE_IPV6);
    spec_handle(&r, &act1);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* DROP with COUNT; MPLS ethertype with an IP spec; the largest tag. */
    rule_normal(&r, 2);
    spec_eth_type(&r, 0, ETH_TYPE_MPLS);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_drop(&r);
    spec_count(&r, c);
    f[n++] = CREATE_OK(st, &qp1, &r);

    rule_normal(&r, 2);
    spec_ipv4(&r, 0, "10.9.9.9", "255.255.255.255");
    spec_tag(&r, (1u << 24) - 1);
    f[n++] = CREATE_OK(st, &qp1, &r);

    /* A non-zero attr.comp_mask is not passed on by libibverbs 44, so the
     * hardware never sees it. */
    rule_normal(&r, 4);
    spec_ipv4(&r, 0, "10.8.8.8", "255.255.255.255");
    r.bytes[0] = 1;
    f[n++] = CREATE_OK(st, &qp1, &r);

    CHECK(hw_model_steering_n_rules(st) == n);
    for (int i = 0; i < n; i++) {
        destroy_flow(st, f[i]);
    }
    CHECK(hw_model_steering_n_rules(st) == 0);
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Rejections, one per row of hw-apis.md 1.7 that applies.                */
/* ---------------------------------------------------------------------- */

void
test_reject_attr(void)
{
    struct hw_model_steering *st = new_steering();
    struct hw_model_limits limits;
    struct rule r;

    /* EPERM without CAP_NET_RAW. */
    limits = default_limits();
    limits.cap_net_raw = false;
    {
        struct hw_model_steering *noperm = hw_model_steering_create(&limits);

        rule_normal(&r, 0);
        CREATE_FAIL(noperm, &qp1, &r, EPERM);
        /* libibverbs' spec checks come before the kernel's. */
        rule_spec(&r, 0x99, 8);
        CREATE_FAIL(noperm, &qp1, &r, EINVAL);
        hw_model_steering_destroy(noperm);
    }

    /* Flags: reserved bit 3 and above in the core, bit 0 in mlx5. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1u << 3);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1u << 31);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 1, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The core's flag check comes before mlx5's priority check. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 16, 1, 1u << 3);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 16, 1, 1);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);

    /* DONT_TRAP and EGRESS on leftovers. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1,
              IBV_FLOW_ATTR_FLAGS_EGRESS);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* More than max_specs specs; exactly max_specs is fine. */
    rule_normal(&r, 0);
    for (int i = 0; i < 10; i++) {
        spec_eth_any(&r, 0);
    }
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    spec_eth_any(&r, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Port 0 and past phys_port_cnt. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 2, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* QP types other than UD and RAW_PACKET. */
    rule_normal(&r, 0);
    CREATE_FAIL(st, &qp_rc, &r, EINVAL);
    CREATE_FAIL(st, &qp_uc, &r, EINVAL);
    destroy_flow(st, CREATE_OK(st, &qp_ud, &r));

    /* Priority above 15 is ENOMEM on mlx5, checked after the core. */
    rule_normal(&r, 16);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);
    rule_normal(&r, 0xffff);
    CREATE_FAIL(st, &qp1, &r, ENOMEM);
    CREATE_FAIL(st, &qp_rc, &r, EINVAL);
    rule_normal(&r, 15);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Unknown rule type. */
    rule_init(&r, 4, 0, 1, 0);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* SNIFFER needs the capability. */
    rule_init(&r, IBV_FLOW_ATTR_SNIFFER, 0, 1, 0);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    limits = default_limits();
    limits.sniffer = true;
    {
        struct hw_model_steering *sn = hw_model_steering_create(&limits);
        struct hw_model_verdict v;
        struct pkt p = pkt_arp();
        struct ibv_flow *f = CREATE_OK(sn, &qp1, &r);
        struct ds s = DS_EMPTY_INITIALIZER;

        /* The sniffer sees both directions and steers nothing. */
        v = run(sn, &p);
        CHECK(!v.matched);
        v = run_dir(sn, &p, true);
        CHECK(!v.matched);
        hw_model_steering_format(sn, &s);
        CHECK(strstr(ds_cstr(&s), "ingress sniffer prio=0 core=sniffer")
              && strstr(ds_cstr(&s), "egress sniffer")
              && strstr(ds_cstr(&s), "hits=1 bytes=42"));
        ds_destroy(&s);
        destroy_flow(sn, f);
        hw_model_steering_destroy(sn);
    }

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

void
test_reject_specs(void)
{
    struct hw_model_steering *st = new_steering();
    struct rule r;
    uint8_t *s;

    /* Unknown spec types, and INNER where libibverbs has no such case. */
    static const uint32_t bad_types[] = {
        0x99, 0x21, IBV_FLOW_SPEC_ETH | 0x200,
        IBV_FLOW_SPEC_GRE | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_VXLAN_TUNNEL | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_TAG | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_DROP | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_COUNT | IBV_FLOW_SPEC_INNER,
        IBV_FLOW_SPEC_ACTION_HANDLE | IBV_FLOW_SPEC_INNER,
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad_types); i++) {
        rule_normal(&r, 0);
        rule_spec(&r, bad_types[i], 16);
        CREATE_FAIL(st, &qp1, &r, EINVAL);
    }
    /* The INNER forms libibverbs knows are accepted. */
    rule_normal(&r, 0);
    spec_eth_any(&r, IBV_FLOW_SPEC_INNER);
    spec_l4(&r, IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, -1, -1);
    rule_spec(&r, IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER, MPLS_SIZE);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* A spec placed after C struct padding (offset 24, where a plain
     * struct would put it) is read from offset 20 like libibverbs does:
     * the padding reads as spec type 0. */
    rule_normal(&r, 0);
    r.len += 4;
    spec_eth_any(&r, 0);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* IPV6 sizes: filter (size - 8) / 2 must reach hop_limit (39). */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 39);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 38 + 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV6, 6);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The padding byte of the 40-byte mask is past the kernel's filter. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_M + F_IP6_PAD, 1);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* ... its value byte is ignored. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_V + F_IP6_PAD, 1);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* A longer (newer) spec: mask at val + 44, extra mask bytes zero. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, 8 + 2 * 44);
    put_ip6(s + 8 + F_IP6_DST, "2001:db8::1");
    put_ip6(s + 8 + 44 + F_IP6_DST, "ffff:ffff:ffff:ffff::");
    CREATE_FAIL(st, &qp1, &r, EINVAL);      /* Value outside the mask. */
    put_ip6(s + 8 + 44 + F_IP6_DST, "ffff:ffff:ffff:ffff::ffff");
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + 8 + 44 + 42, 1);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* IPV4_EXT sizes. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE - 2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, 8 + 2 * 16);
    put_u8(s + 8 + F_IP4_PROTO, 17);
    put_u8(s + 8 + 16 + F_IP4_PROTO, 0xff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + 8 + 16 + 13, 0x80);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);

    /* VXLAN sizes. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE - 2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Unsupported mask bits. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_TTL, 0xff);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_FLAGS, 0x40);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_M + F_IP6_HLIM, 0xff);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* ... but their values alone are ignored. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_TTL, 64);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_GRE, GRE_SIZE);
    put_be16(s + GRE_M + F_GRE_FLAGS, 0x2000);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ESP, ESP_SIZE);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    /* MPLS right after UDP needs a flex parser the model lacks. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 6635);
    s = rule_spec(&r, IBV_FLOW_SPEC_MPLS, MPLS_SIZE);
    put_be32(s + MPLS_M, 0xfffff000);
    CREATE_FAIL(st, &qp1, &r, EOPNOTSUPP);
    put_be32(s + MPLS_M, 0);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Ranges: flow label (val or mask) and VNI. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_be32(s + IP6_M + F_IP6_LABEL, 0xfffff);
    put_be32(s + IP6_V + F_IP6_LABEL, 0x12345);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_be32(s + IP6_M + F_IP6_LABEL, 0x1fffff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* The value alone, with its low 20 bits inside the mask. */
    put_be32(s + IP6_M + F_IP6_LABEL, 0xfffff);
    put_be32(s + IP6_V + F_IP6_LABEL, 0x112345);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_vxlan(&r, 0xffffff, 0xffffff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    rule_normal(&r, 0);
    spec_vxlan(&r, 0, 0x1000000);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_vxlan(&r, 0x1000000, 0xffffff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

void
test_reject_match(void)
{
    struct hw_model_steering *st = new_steering();
    struct rule r;
    uint8_t *s;

    /* Value bits outside the mask, field by field. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_mac(s + ETH_V + F_DMAC, "00:00:00:00:00:03");
    put_mac(s + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:fe");
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_mac(s + ETH_M + F_DMAC, "ff:ff:ff:ff:ff:ff");
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    rule_normal(&r, 0);
    spec_ipv4(&r, 0, "10.0.0.1", "255.255.255.0");
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_TCP, L4_SIZE);
    put_be16(s + L4_V + F_L4_DST, 0x1ff);
    put_be16(s + L4_M + F_L4_DST, 0xff00);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* A VLAN value is compared only when its mask is set. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_VLAN, 100);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_be16(s + ETH_M + F_VLAN, 0xf000);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_be16(s + ETH_M + F_VLAN, 0x0fff);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));

    /* Same for ip_protocol: a zero mask leaves it unset. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_PROTO, IPPROTO_UDP);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, 80);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* ... set, it must agree with the L4 spec (set_proto). */
    put_u8(s + IP4X_M + F_IP4_PROTO, 0xff);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    put_u8(s + IP4X_V + F_IP4_PROTO, IPPROTO_TCP);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    put_u8(s + IP4X_M + F_IP4_PROTO, 0x0f);     /* Same value, other mask. */
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* A protocol value outside its mask. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_V + F_IP4_PROTO, 0x16);
    put_u8(s + IP4X_M + F_IP4_PROTO, 0x0f);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* TCP and UDP together; IPv6 next header against UDP. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_TCP, -1, -1);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV6, IP6_SIZE);
    put_u8(s + IP6_V + F_IP6_NEXT, IPPROTO_TCP);
    put_u8(s + IP6_M + F_IP6_NEXT, 0xff);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* Outer and inner protocols are separate. */
    rule_normal(&r, 0);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_l4(&r, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, -1, -1);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* GRE sets ip_protocol 47. */
    rule_normal(&r, 0);
    rule_spec(&r, IBV_FLOW_SPEC_GRE, GRE_SIZE);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, -1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Ethertype and IP spec of one layer must agree, with a full mask. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IPV6);
    spec_ipv4(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv6(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE);
    put_be16(s + ETH_V + F_ETYPE, 0x0800);
    put_be16(s + ETH_M + F_ETYPE, 0xff00);
    spec_ipv4(&r, 0, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_type(&r, IBV_FLOW_SPEC_INNER, ETH_TYPE_IP);
    spec_ipv6(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* ... a different layer does not count. */
    rule_normal(&r, 0);
    spec_eth_type(&r, 0, ETH_TYPE_IP);
    spec_ipv4(&r, 0, NULL, NULL);
    spec_l4(&r, IBV_FLOW_SPEC_UDP, -1, 4789);
    spec_ipv6(&r, IBV_FLOW_SPEC_INNER, NULL, NULL);
    destroy_flow(st, CREATE_OK(st, &qp1, &r));
    /* ... and the ethertype check runs before the per-spec checks. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE);
    put_u8(s + IP4X_M + F_IP4_TTL, 0xff);
    spec_eth_type(&r, 0, ETH_TYPE_ARP);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

void
test_reject_actions(void)
{
    struct hw_model_steering *st = new_steering();
    struct ibv_counters *c, *empty, *c_b;
    struct rule r;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_a, &empty), 0);
    CHECK_ERR(hw_model_counters_create(&ctx_b, &c_b), 0);
    CHECK_ERR(hw_model_counters_attach(c_b,
                                       &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* Tag range. */
    rule_normal(&r, 0);
    spec_tag(&r, 1u << 24);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Tag on leftovers. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 1, 0);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_MC_DEFAULT, 0, 1, 0);
    spec_tag(&r, 1);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Two COUNT specs (libmlx5 catches it first, even across objects). */
    rule_normal(&r, 0);
    spec_count(&r, c);
    spec_count(&r, c);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* ... and before the kernel's ENOMEM. */
    rule_normal(&r, 99);
    spec_count(&r, c);
    spec_count(&r, c);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* A counters object without attached points. */
    rule_normal(&r, 0);
    spec_count(&r, empty);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    /* A counters object or a handle that is not this device's. */
    rule_normal(&r, 0);
    spec_count(&r, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_count(&r, c_b);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, NULL);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, &act_b);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    destroy_flow(st, CREATE_OK(st, &qp_b, &r));

    /* Two handles. */
    rule_normal(&r, 0);
    spec_handle(&r, &act1);
    spec_handle(&r, &act2);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* DROP with TAG or a handle (model-conservative). */
    rule_normal(&r, 0);
    spec_drop(&r);
    spec_tag(&r, 5);
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_handle(&r, &act1);
    spec_drop(&r);
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* None of the failures bound the counters: they can go. */
    CHECK_ERR(hw_model_counters_destroy(c), 0);
    CHECK_ERR(hw_model_counters_destroy(empty), 0);
    CHECK_ERR(hw_model_counters_destroy(c_b), 0);
    CHECK(hw_model_counters_n_alive(&ctx_a) == 0);
    CHECK(hw_model_counters_n_alive(&ctx_b) == 0);
    CHECK(hw_model_steering_n_rules(st) == 0);
    hw_model_steering_destroy(st);
}

/* ---------------------------------------------------------------------- */
/* Short specs.                                                           */
/* ---------------------------------------------------------------------- */

/* Writes an ACTION_HANDLE or ACTION_COUNT spec naming 'object' at 's', with
 * 'size' in its header: the object's pointer is at byte 8 whatever 'size'
 * says. */
static void
put_object_spec(uint8_t *s, uint32_t type, uint16_t size, const void *object)
{
    memcpy(s, &type, 4);
    memcpy(s + 4, &size, 2);
    memcpy(s + 8, &object, sizeof object);
}

/* A spec shorter than its struct (or, for the sizes that may vary, than the
 * kernel's filter) is EINVAL, and so is everything behind it: the walk
 * stops there, before anything reads past the spec or binds an object. */
void
test_reject_short_specs(void)
{
    static const struct {
        uint32_t type;
        uint16_t min_size;
        int error;              /* For a spec of 'min_size' bytes. */
    } specs[] = {
        { IBV_FLOW_SPEC_ETH, ETH_SIZE, 0 },
        { IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER, ETH_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV4, IP4_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV4_EXT, IP4X_SIZE, 0 },
        { IBV_FLOW_SPEC_IPV6, 8 + 2 * 39, 0 },
        { IBV_FLOW_SPEC_ESP, ESP_SIZE, EOPNOTSUPP },
        { IBV_FLOW_SPEC_TCP, L4_SIZE, 0 },
        { IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER, L4_SIZE, 0 },
        { IBV_FLOW_SPEC_GRE, GRE_SIZE, 0 },
        { IBV_FLOW_SPEC_MPLS, MPLS_SIZE, 0 },
        { IBV_FLOW_SPEC_VXLAN_TUNNEL, VXLAN_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_TAG, TAG_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_DROP, DROP_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE, 0 },
        { IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE, 0 },
    };
    struct hw_model_steering *st = new_steering();
    struct pkt p = pkt_tcp4("10.0.0.1", "10.0.0.2", 1, 80);
    struct hw_model_verdict v;
    struct ibv_counters *c;
    struct ibv_flow *flow;
    uint64_t values[1];
    struct rule r;
    uint8_t *s;

    CHECK_ERR(hw_model_counters_create(&ctx_a, &c), 0);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_PACKETS, .index = 0 }), 0);

    /* Every size below the minimum, then the minimum.  HANDLE and COUNT
     * name a valid object, so only the size is wrong. */
    for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
        const void *object = (specs[i].type == IBV_FLOW_SPEC_ACTION_HANDLE
                              ? (const void *) &act1 : (const void *) c);

        for (uint16_t size = 0; size <= specs[i].min_size; size++) {
            rule_normal(&r, 0);
            s = rule_spec(&r, specs[i].type, size);
            if (specs[i].type == IBV_FLOW_SPEC_ACTION_HANDLE
                || specs[i].type == IBV_FLOW_SPEC_ACTION_COUNT) {
                put_object_spec(s, specs[i].type, size, object);
            }
            if (size < specs[i].min_size) {
                CREATE_FAIL(st, &qp1, &r, EINVAL);
            } else if (specs[i].error) {
                CREATE_FAIL(st, &qp1, &r, specs[i].error);
            } else {
                flow = CREATE_OK(st, &qp1, &r);
                destroy_flow(st, flow);
            }
        }
    }

    /* A size-0 spec would be read again and again. */
    rule_normal(&r, 0);
    spec_tag(&r, 5);
    memset(&r.bytes[ATTR_LEN + 4], 0, 2);
    r.bytes[12] = 2;
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* Specs hidden behind a 6-byte TAG spec, whose padding is the hidden
     * spec's type: the TAG is refused before the spec behind it is read. */
    rule_normal(&r, 0);
    spec_eth_any(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ACTION_TAG, 6);
    put_object_spec(s + 6, IBV_FLOW_SPEC_ACTION_HANDLE, HANDLE_SIZE, &act1);
    r.bytes[12]++;
    CREATE_FAIL(st, &qp1, &r, EINVAL);
    rule_normal(&r, 0);
    spec_eth_any(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ACTION_TAG, 6);
    put_object_spec(s + 6, IBV_FLOW_SPEC_ACTION_COUNT, COUNT_SIZE, c);
    r.bytes[12]++;
    CREATE_FAIL(st, &qp1, &r, EINVAL);

    /* None of the refusals bound the counters object: it is unreadable
     * (no flow uses it) and still takes points. */
    CHECK_ERR(hw_model_counters_read(c, values, 1), EINVAL);
    CHECK_ERR(hw_model_counters_attach(c, &(struct ibv_counter_attach_attr) {
                  .counter_desc = IBV_COUNTER_BYTES, .index = 0 }), 0);
    CHECK_EQ(hw_model_steering_n_rules(st), 0);

    /* A longer spec is fine: libibverbs reads its struct and skips the
     * rest, and so does the model. */
    rule_normal(&r, 0);
    s = rule_spec(&r, IBV_FLOW_SPEC_ETH, ETH_SIZE + 8);
    put_be16(s + ETH_V + F_ETYPE, 0x0800);
    put_be16(s + ETH_M + F_ETYPE, 0xffff);
    spec_tag(&r, 7);
    flow = CREATE_OK(st, &qp1, &r);
    v = run(st, &p);
    CHECK(v.matched && v.qp == &qp1);
    CHECK_EQ(v.tag, 7);
    destroy_flow(st, flow);

    CHECK_ERR(hw_model_counters_destroy(c), 0);
    hw_model_steering_destroy(st);
}
