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

#ifndef TEST_HW_TRANSLATE_PRIVATE_H
#define TEST_HW_TRANSLATE_PRIVATE_H 1

/* What the unit tests of hw-translate.c and hw-rule.c
 * (test-hw-translate*.c) share: the flows and actions they translate, the
 * translation that checks every rule, and the tests themselves, which
 * test-hw-translate.c lists. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-translate.h"
#include "test-hw-check.h"
#include "test-hw-flows.h"

struct ds;
struct hw_rule;
struct in6_addr;
struct match;
struct ofpbuf;

/* Flows, actions and their translation (test-hw-translate.c). */

#define TEST_VPORT 4789         /* The vxlan vport's odp port. */
#define TEST_VPORT_MARK 9

void dp_match_init_ipv4(struct match *match);
void dp_match_init_ipv6(struct match *match);
void dp_match_init_udp(struct match *match);
void put_output(struct ofpbuf *actions, uint32_t port);
void put_drop(struct ofpbuf *actions);
void check_rule_sane(const struct hw_rule *rule);
int translate_params(const struct match *match, const struct ofpbuf *actions,
                     const struct hw_translate_params *params,
                     struct hw_rule *rule, struct ds *reason);
int translate_mark(const struct match *match, const struct ofpbuf *actions,
                   uint32_t mark, struct hw_rule *rule, struct ds *reason);
int translate(const struct match *match, const struct ofpbuf *actions,
              struct hw_rule *rule);
void check_refused_at(const struct match *match, const char *expected,
                      const char *file, int line);
void check_accepted_at(const struct match *match, struct hw_rule *rule,
                       const char *file, int line);
bool in6_equal(const struct in6_addr *a, const char *s);
void vport_match_init(struct match *match, bool ipv6);
void vport_params_init(struct hw_translate_params *params,
                       enum hw_tunnel_type t);

#define CHECK_REFUSED(MATCH, REASON) \
    check_refused_at(MATCH, REASON, __FILE__, __LINE__)
#define CHECK_ACCEPTED(MATCH, RULE) \
    check_accepted_at(MATCH, RULE, __FILE__, __LINE__)

/* Matches (test-hw-translate-match.c). */
void test_udp_partial(void);
void test_tcp_macs_tos(void);
void test_ip_other_protocols(void);
void test_ipv6(void);
void test_l2_only(void);
void test_vlan(void);
void test_dl_type(void);
void test_metadata(void);
void test_l3_l4_refusals(void);
void test_pipeline_fields(void);
void test_values_outside_masks(void);
void test_every_field_named(void);
void test_untranslatable_fields(void);

/* Actions (test-hw-translate-actions.c). */
void test_actions(void);
void test_eswitch_actions(void);
void test_eswitch_rewrites(void);
void test_eswitch_partial_rewrites(void);
void test_eswitch_drop(void);
void test_eswitch_meter(void);
void test_eswitch_hairpin(void);

/* The rule helpers (test-hw-translate-rule.c). */
void test_priority_and_rss_bands(void);
void test_rule_overlap(void);

/* Tunnel vports (test-hw-translate-vport.c). */
void test_vport_vxlan(void);
void test_vport_gre(void);
void test_vport_refusals(void);
void test_vport_geneve(void);
void test_still_encapsulated(void);
void test_vport_geneve_refusals(void);
void test_tnl_pop_flow(void);

/* Tunnel push (test-hw-translate-push.c). */
size_t vxlan_header(uint8_t *h, bool ipv6, uint16_t udp_csum);
size_t gre_header_ip(uint8_t *h, bool ipv6, uint16_t flags,
                     uint16_t protocol);
void put_tnl_push(struct ofpbuf *actions, uint32_t tnl_type,
                  const uint8_t *h, size_t len);
void test_tnl_push_vxlan(void);
void test_tnl_push_gre(void);
void test_tnl_push_refusals(void);
void test_tnl_push_forged_marker(void);

/* Tunnels in the e-switch (test-hw-translate-eswitch-tunnel.c). */
void test_eswitch_decap(void);
void test_eswitch_encap(void);

#endif /* test-hw-translate-private.h */
