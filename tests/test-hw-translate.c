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

/* Unit tests of hw-translate.c (OVS match + actions -> struct hw_rule) and
 * of the rule helpers in hw-rule.c.  Run as "ovstest test-hw-translate"
 * (all tests) or "ovstest test-hw-translate NAME..." (some of them).
 *
 * This file holds what the tests share, the flows and the translation
 * they check every rule with, and the list of the tests, which are in
 * test-hw-translate-{match,actions,rule,vport,push,eswitch-tunnel}.c. */

#include <config.h>
#undef NDEBUG
#include "test-hw-translate-private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "packets.h"
#include "util.h"

void
dp_match_init_ipv4(struct match *match)
{
    dp_match_init_ip(match, htons(ETH_TYPE_IP));
}

void
dp_match_init_ipv6(struct match *match)
{
    dp_match_init_ip(match, htons(ETH_TYPE_IPV6));
}

/* A UDP flow to 10.0.0.1:53. */
void
dp_match_init_udp(struct match *match)
{
    dp_match_init_ipv4(match);
    match_set_nw_dst(match, htonl(0x0a000001));
    match_set_nw_proto(match, IPPROTO_UDP);
    match_set_tp_dst(match, htons(53));
}

/* Actions. */
void
put_output(struct ofpbuf *actions, uint32_t port)
{
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_OUTPUT, port);
}

void
put_drop(struct ofpbuf *actions)
{
    nl_msg_put_u32(actions, OVS_ACTION_ATTR_DROP, 0);
}

/* Checks what every rule must satisfy: no value bit outside its mask, and
 * no ethertype in the ETH spec that disagrees with an IP spec. */
void
check_rule_sane(const struct hw_rule *rule)
{
    const struct hw_headers *h = &rule->outer;
    const struct {
        const void *val, *mask;
        size_t size;
    } pairs[] = {
        { &h->eth, &h->eth_mask, sizeof h->eth },
        { &h->ipv4, &h->ipv4_mask, sizeof h->ipv4 },
        { &h->ipv6, &h->ipv6_mask, sizeof h->ipv6 },
        { &h->l4, &h->l4_mask, sizeof h->l4 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
        const uint8_t *val = pairs[i].val, *mask = pairs[i].mask;

        for (size_t j = 0; j < pairs[i].size; j++) {
            if (val[j] & ~mask[j]) {
                ovs_abort(0, "value bits outside the mask: pair %"PRIuSIZE
                          " byte %"PRIuSIZE": %#x/%#x", i, j, val[j],
                          mask[j]);
            }
        }
    }

    if (h->present & (HW_HDR_IPV4 | HW_HDR_IPV6)) {
        /* is_valid_ethertype: absent, or exact and consistent. */
        ovs_be16 ip_type = htons(h->present & HW_HDR_IPV4
                                 ? ETH_TYPE_IP : ETH_TYPE_IPV6);

        CHECK(!h->eth_mask.type
              || (h->eth_mask.type == OVS_BE16_MAX && h->eth.type == ip_type));
    }
    if (h->present & (HW_HDR_TCP | HW_HDR_UDP)) {
        /* set_proto: the L4 spec sets the protocol, the IP spec must not. */
        CHECK(h->present & (HW_HDR_IPV4 | HW_HDR_IPV6));
        CHECK(!h->ipv4_mask.proto && !h->ipv6_mask.next_hdr);
        CHECK((h->present & (HW_HDR_TCP | HW_HDR_UDP))
              != (HW_HDR_TCP | HW_HDR_UDP));
    }
    CHECK(!(h->present & HW_HDR_IPV4) || !(h->present & HW_HDR_IPV6));
    if (rule->has_tag) {
        CHECK(rule->tag >= 1 && rule->tag < (1u << 24));
    }
}

/* Translates 'match' with 'actions' under 'params'.  Returns the errno;
 * the reason (or the note of an offloaded flow) goes to 'reason' if
 * nonnull.  A rule that comes out must be sane, a refused one all zeros
 * with a reason. */
int
translate_params(const struct match *match, const struct ofpbuf *actions,
                 const struct hw_translate_params *params,
                 struct hw_rule *rule, struct ds *reason)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    int error;

    /* Garbage in the rule must not survive. */
    memset(rule, 0xa5, sizeof *rule);
    error = hw_translate_flow(match, actions->data, actions->size, params,
                              rule, &s);
    if (!error) {
        /* A note (what stays in software of an offloaded flow) only for a
         * caller that looks at it. */
        if (!reason) {
            CHECK_STR(ds_cstr(&s), "");
        }
        check_rule_sane(rule);
    } else {
        struct hw_rule zero;

        memset(&zero, 0, sizeof zero);
        CHECK(!memcmp(rule, &zero, sizeof zero));
        CHECK(s.length > 0);
    }
    if (reason) {
        ds_put_cstr(reason, ds_cstr(&s));
    }
    ds_destroy(&s);
    return error;
}

/* Translates 'match' with 'actions' (NULL: an output action) for port
 * TEST_PORT and flow mark 'mark'.  Returns the errno; the reason goes to
 * 'reason' if nonnull. */
int
translate_mark(const struct match *match, const struct ofpbuf *actions,
               uint32_t mark, struct hw_rule *rule, struct ds *reason)
{
    struct hw_translate_params params = {
        .flow_mark = mark,
        .in_port = u32_to_odp(TEST_PORT),
    };
    struct ofpbuf output;
    int error;

    ofpbuf_init(&output, 0);
    if (!actions) {
        put_output(&output, 1);
        actions = &output;
    }
    error = translate_params(match, actions, &params, rule, reason);
    ofpbuf_uninit(&output);
    return error;
}

int
translate(const struct match *match, const struct ofpbuf *actions,
          struct hw_rule *rule)
{
    return translate_mark(match, actions, TEST_MARK, rule, NULL);
}

/* Checks that 'match' (with an output action) is refused with EOPNOTSUPP
 * and exactly 'expected' as the reason. */
void
check_refused_at(const struct match *match, const char *expected,
                 const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_rule rule;
    int error;

    error = translate_mark(match, NULL, TEST_MARK, &rule, &reason);
    if (error != EOPNOTSUPP || strcmp(ds_cstr(&reason), expected)) {
        ovs_abort(0, "%s:%d: expected refusal \"%s\" (EOPNOTSUPP), got "
                  "\"%s\" (%s)", file, line, expected, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}

void
check_accepted_at(const struct match *match, struct hw_rule *rule,
                  const char *file, int line)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    int error;

    error = translate_mark(match, NULL, TEST_MARK, rule, &reason);
    if (error) {
        ovs_abort(0, "%s:%d: expected the flow to be accepted, got "
                  "\"%s\" (%s)", file, line, ds_cstr(&reason),
                  ovs_strerror(error));
    }
    ds_destroy(&reason);
}

bool
in6_equal(const struct in6_addr *a, const char *s)
{
    struct in6_addr b;

    CHECK(inet_pton(AF_INET6, s, &b) == 1);
    return ipv6_addr_equals(a, &b);
}

/* Tunnels. */

/* A vport flow as dpif-netdev puts it after a VXLAN tnl_pop: the tunnel
 * metadata as tnl_wc_init() unwildcards it (src, dst, tun_id and tos
 * exact, the df/csum/key flags, never ttl nor the UDP ports), in_port the
 * vport, and an inner TCP packet to 10.0.0.2:80. */
void
vport_match_init(struct match *match, bool ipv6)
{
    match_init_catchall(match);
    match->flow.in_port.odp_port = u32_to_odp(TEST_VPORT);
    match->wc.masks.in_port.odp_port = u32_to_odp(UINT32_MAX);
    match_set_recirc_id(match, 0);
    match_set_packet_type(match, htonl(PT_ETH));
    match->wc.masks.vlans[0].tpid = OVS_BE16_MAX;
    match->wc.masks.vlans[0].tci = OVS_BE16_MAX;

    match_set_tun_id(match, htonll(0x7b));
    if (ipv6) {
        struct in6_addr src, dst;

        CHECK(inet_pton(AF_INET6, "2001:db8::92", &src) == 1);
        CHECK(inet_pton(AF_INET6, "2001:db8::88", &dst) == 1);
        match_set_tun_ipv6_src(match, &src);
        match_set_tun_ipv6_dst(match, &dst);
    } else {
        match_set_tun_src(match, htonl(0x0101025c));
        match_set_tun_dst(match, htonl(0x01010258));
    }
    match->flow.tunnel.flags = FLOW_TNL_F_KEY;
    match->wc.masks.tunnel.flags = (FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM
                                    | FLOW_TNL_F_KEY);
    match_set_tun_tos(match, 0);

    match_set_dl_type(match, htons(ETH_TYPE_IP));
    match_set_nw_frag_masked(match, 0, FLOW_NW_FRAG_MASK);
    match_set_nw_dst(match, htonl(0x0a000002));
    match_set_nw_proto(match, IPPROTO_TCP);
    match_set_tp_dst(match, htons(80));
}

void
vport_params_init(struct hw_translate_params *params, enum hw_tunnel_type t)
{
    memset(params, 0, sizeof *params);
    params->flow_mark = TEST_VPORT_MARK;
    params->in_port = u32_to_odp(TEST_VPORT);
    params->vport = t;
    params->vport_udp_port = t == HW_TUNNEL_VXLAN ? htons(4789) : htons(0);
}

static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
    TEST(udp_partial),
    TEST(tcp_macs_tos),
    TEST(ip_other_protocols),
    TEST(ipv6),
    TEST(l2_only),
    TEST(vlan),
    TEST(dl_type),
    TEST(metadata),
    TEST(l3_l4_refusals),
    TEST(pipeline_fields),
    TEST(values_outside_masks),
    TEST(actions),
    TEST(eswitch_actions),
    TEST(eswitch_rewrites),
    TEST(eswitch_partial_rewrites),
    TEST(eswitch_drop),
    TEST(eswitch_meter),
    TEST(eswitch_hairpin),
    TEST(every_field_named),
    TEST(untranslatable_fields),
    TEST(priority_and_rss_bands),
    TEST(vport_vxlan),
    TEST(vport_gre),
    TEST(vport_refusals),
    TEST(vport_geneve),
    TEST(still_encapsulated),
    TEST(vport_geneve_refusals),
    TEST(tnl_pop_flow),
    TEST(tnl_push_vxlan),
    TEST(tnl_push_gre),
    TEST(tnl_push_refusals),
    TEST(tnl_push_forged_marker),
    TEST(eswitch_decap),
    TEST(eswitch_encap),
    TEST(rule_overlap),
#undef TEST
};

static void
run_hw_translate_tests(int argc, char *argv[])
{
    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-translate", run_hw_translate_tests);
