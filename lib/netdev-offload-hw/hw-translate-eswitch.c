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

/* translate for the e-switch's FDB: the actions of a flow of a port of an
 * e-switch in switchdev mode (hw-offload-eswitch.h), in the order the
 * device runs a rule's actions (hw-apis.md 3.4): a tunnel decap (a vport
 * flow), a VLAN pop, the header rewrites (one modify-header action), a
 * VLAN push, a tunnel push, or a meter (hw-rule.h HW_REG_METER), then one
 * output, which becomes DEST_VPORT once the offload core knows the output
 * port's vport, or several (a mirror: DEST_ARRAY); or a drop.  Pure, like
 * the rest of translate. */

#include <config.h>
#include "hw-translate-private.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "flow.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netlink.h"
#include "openvswitch/match.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "util.h"

static int
esw_refuse(struct ds *reason, const char *why)
{
    return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB %s",
                             why);
}

/* Header rewrites.
 *
 * A set or masked set of Ethernet, IPv4, IPv6, TCP or UDP fields becomes
 * commands of the rule's modify-header action, which the device runs after
 * a VLAN pop and before a push, wherever the datapath's actions have them:
 * the fields it rewrites are the same with or without the tag.  A SET
 * command writes one run of bits of a device field (hw-apis.md 3.2), so
 * the device sets a field under a mask of one run of bits, the DSCP bits
 * of the TOS or traffic class (IP_DSCP) but not their ECN bits, which no
 * field holds; it updates the IPv4 header checksum and the TCP or UDP
 * checksum, as the datapath does.  A mask bit for a field whose value the
 * flow's match already guarantees changes nothing (an unmasked set sets
 * every field); the datapath never writes the protocol and fragment fields
 * of a key. */

/* One field of a set action's key (struct ovs_key_*). */
struct esw_field {
    const char *name;           /* For the reason of a refusal. */
    size_t ofs, n;              /* Where in the key. */
    size_t flow_ofs;            /* The same field in struct flow. */
    int set;                    /* enum hw_set_field, or -1: the device
                                 * does not rewrite it. */
    size_t rw_ofs, rw_n;        /* With 'set': its value in struct
                                 * hw_rewrite. */
    uint8_t fixed;              /* The bits of its last byte the device
                                 * cannot set (the ECN bits). */
};

#define ESW_FIELD__(NAME, KEY, MEMBER, FLOW_MEMBER, SET, RW_OFS, RW_N,  \
                    FIXED)                                              \
    { NAME, offsetof(struct KEY, MEMBER),                               \
      MEMBER_SIZEOF(struct KEY, MEMBER),                                \
      offsetof(struct flow, FLOW_MEMBER), SET, RW_OFS, RW_N, FIXED }

/* A field the device sets, into 'RW_MEMBER' of struct hw_rewrite. */
#define ESW_SET(NAME, KEY, MEMBER, FLOW_MEMBER, SET, RW_MEMBER)         \
    ESW_FIELD__(NAME, KEY, MEMBER, FLOW_MEMBER, SET,                    \
                offsetof(struct hw_rewrite, RW_MEMBER),                 \
                MEMBER_SIZEOF(struct hw_rewrite, RW_MEMBER), 0)

/* The TOS or traffic class: its DSCP bits. */
#define ESW_SET_TOS(NAME, KEY, MEMBER)                                  \
    ESW_FIELD__(NAME, KEY, MEMBER, nw_tos, HW_SET_TOS,                  \
                offsetof(struct hw_rewrite, tos),                       \
                MEMBER_SIZEOF(struct hw_rewrite, tos), IP_ECN_MASK)

/* A field it does not. */
#define ESW_KEEP(NAME, KEY, MEMBER, FLOW_MEMBER)                        \
    ESW_FIELD__(NAME, KEY, MEMBER, FLOW_MEMBER, -1, 0, 0, 0)

static const struct esw_field esw_eth_fields[] = {
    ESW_SET("eth src", ovs_key_ethernet, eth_src, dl_src, HW_SET_ETH_SRC,
            eth_src),
    ESW_SET("eth dst", ovs_key_ethernet, eth_dst, dl_dst, HW_SET_ETH_DST,
            eth_dst),
};

static const struct esw_field esw_ipv4_fields[] = {
    ESW_SET("ipv4 src", ovs_key_ipv4, ipv4_src, nw_src, HW_SET_IPV4_SRC,
            ipv4_src),
    ESW_SET("ipv4 dst", ovs_key_ipv4, ipv4_dst, nw_dst, HW_SET_IPV4_DST,
            ipv4_dst),
    ESW_SET_TOS("ipv4 tos", ovs_key_ipv4, ipv4_tos),
    ESW_SET("ipv4 ttl", ovs_key_ipv4, ipv4_ttl, nw_ttl, HW_SET_TTL, ttl),
};

static const struct esw_field esw_ipv6_fields[] = {
    ESW_SET("ipv6 src", ovs_key_ipv6, ipv6_src, ipv6_src, HW_SET_IPV6_SRC,
            ipv6_src),
    ESW_SET("ipv6 dst", ovs_key_ipv6, ipv6_dst, ipv6_dst, HW_SET_IPV6_DST,
            ipv6_dst),
    ESW_KEEP("ipv6 label", ovs_key_ipv6, ipv6_label, ipv6_label),
    ESW_SET_TOS("ipv6 tclass", ovs_key_ipv6, ipv6_tclass),
    ESW_SET("ipv6 hlimit", ovs_key_ipv6, ipv6_hlimit, nw_ttl, HW_SET_TTL,
            ttl),
};

static const struct esw_field esw_tcp_fields[] = {
    ESW_SET("tcp src", ovs_key_tcp, tcp_src, tp_src, HW_SET_L4_SRC, l4_src),
    ESW_SET("tcp dst", ovs_key_tcp, tcp_dst, tp_dst, HW_SET_L4_DST, l4_dst),
};

static const struct esw_field esw_udp_fields[] = {
    ESW_SET("udp src", ovs_key_udp, udp_src, tp_src, HW_SET_L4_SRC, l4_src),
    ESW_SET("udp dst", ovs_key_udp, udp_dst, tp_dst, HW_SET_L4_DST, l4_dst),
};

/* The keys of the set actions the FDB takes: their fields, and the headers
 * the flow must match ('need', HW_HDR_*). */
struct esw_key {
    enum ovs_key_attr type;
    const struct esw_field *fields;
    size_t n_fields;
    size_t size;
    uint32_t need;
};

#define ESW_KEY(TYPE, FIELDS, KEY, NEED) \
    { TYPE, FIELDS, ARRAY_SIZE(FIELDS), sizeof(struct KEY), NEED }

static const struct esw_key esw_keys[] = {
    ESW_KEY(OVS_KEY_ATTR_ETHERNET, esw_eth_fields, ovs_key_ethernet, 0),
    ESW_KEY(OVS_KEY_ATTR_IPV4, esw_ipv4_fields, ovs_key_ipv4, HW_HDR_IPV4),
    ESW_KEY(OVS_KEY_ATTR_IPV6, esw_ipv6_fields, ovs_key_ipv6, HW_HDR_IPV6),
    ESW_KEY(OVS_KEY_ATTR_TCP, esw_tcp_fields, ovs_key_tcp, HW_HDR_TCP),
    ESW_KEY(OVS_KEY_ATTR_UDP, esw_udp_fields, ovs_key_udp, HW_HDR_UDP),
};

/* The largest of them. */
#define ESW_MAX_KEY sizeof(struct ovs_key_ipv6)
BUILD_ASSERT_DECL(ESW_MAX_KEY >= sizeof(struct ovs_key_ipv4));

/* The largest field. */
#define ESW_MAX_FIELD sizeof(struct in6_addr)

/* Whether the bits of the 'n' bytes at 'mask' are one run, bit 0 the least
 * significant of the last byte; if so, the run into '*bits'. */
static bool
esw_bits_run(const uint8_t *mask, size_t n, struct hw_set_bits *bits)
{
    unsigned int lo = 0, end = 0;       /* The run so far: [lo, end). */

    for (unsigned int bit = 0; bit < n * 8; bit++) {
        if (mask[n - 1 - bit / 8] & (1u << (bit % 8))) {
            if (end && end != bit) {
                return false;
            }
            lo = end ? lo : bit;
            end = bit + 1;
        }
    }
    bits->ofs = lo;
    bits->n_bits = end - lo;
    return end != 0;
}

/* The run 'bits' of an 'n'-byte field as a mask into 'mask'. */
static void
esw_bits_mask(const struct hw_set_bits *bits, size_t n, uint8_t *mask)
{
    memset(mask, 0, n);
    for (size_t bit = bits->ofs; bit < bits->ofs + bits->n_bits; bit++) {
        mask[n - 1 - bit / 8] |= 1u << (bit % 8);
    }
}

static int
esw_refuse_mask(struct ds *reason, const struct esw_field *f,
                const uint8_t *mask)
{
    hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB sets one run "
                      "of bits of a field only, not %s under mask 0x",
                      f->name);
    for (size_t i = 0; i < f->n; i++) {
        ds_put_format(reason, "%02"PRIx8, mask[i]);
    }
    return EOPNOTSUPP;
}

/* Field 'f' of key 'key' under 'mask' into the rewrites of 'rule', for a
 * flow of 'match'.  Returns 0 or EOPNOTSUPP with the reason. */
static int
esw_set_field(const struct esw_field *f, const uint8_t *key,
              const uint8_t *mask, const struct match *match,
              struct hw_rule *rule, struct ds *reason)
{
    const uint8_t *fv = (const uint8_t *) &match->flow + f->flow_ofs;
    const uint8_t *fm = (const uint8_t *) &match->wc.masks + f->flow_ofs;
    const uint8_t *v = key + f->ofs, *m = mask + f->ofs;
    struct hw_rewrite *rw = &rule->rewrite;
    uint8_t change[ESW_MAX_FIELD], w[ESW_MAX_FIELD];
    struct hw_set_bits run, all;
    bool again, any = false;
    uint8_t *value;

    ovs_assert(f->n <= ESW_MAX_FIELD);
    /* An earlier set changed it: the match no longer says. */
    again = f->set >= 0 && rw->set & (1u << f->set);
    for (size_t i = 0; i < f->n; i++) {
        change[i] = again ? m[i] : m[i] & ~(fm[i] & ~(fv[i] ^ v[i]));
        any |= change[i] != 0;
    }
    if (!any) {
        return 0;
    }
    for (size_t i = 0; i < f->n; i++) {
        if (v[i] & ~m[i]) {
            /* The datapath would set them too; OVS masks its keys. */
            return hw_translate_fail(reason, EINVAL, "malformed set action");
        }
    }
    if (f->set < 0) {
        return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB "
                                 "does not set %s", f->name);
    }
    if (change[f->n - 1] & f->fixed) {
        return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB "
                                 "does not set the ECN bits of %s",
                                 f->name);
    }

    /* One run per field: the mask's (bits the device cannot set keep the
     * value the flow matches), else just the bits that change. */
    memcpy(w, m, f->n);
    w[f->n - 1] &= ~f->fixed;
    if (!esw_bits_run(w, f->n, &run)
        && !esw_bits_run(change, f->n, &run)) {
        return esw_refuse_mask(reason, f, m);
    }
    esw_bits_mask(&run, f->n, w);

    ovs_assert(f->rw_n == f->n);
    value = (uint8_t *) rw + f->rw_ofs;
    memset(change, UINT8_MAX, f->n);
    change[f->n - 1] &= ~f->fixed;
    esw_bits_run(change, f->n, &all);
    if (again) {
        /* The union of both runs, the later bits over the earlier. */
        uint8_t u[ESW_MAX_FIELD];

        esw_bits_mask(rw->bits[f->set].n_bits ? &rw->bits[f->set] : &all,
                      f->n, u);
        for (size_t i = 0; i < f->n; i++) {
            u[i] |= w[i];
        }
        if (!esw_bits_run(u, f->n, &run)) {
            return esw_refuse_mask(reason, f, u);
        }
    } else {
        memset(value, 0, f->n);
    }
    for (size_t i = 0; i < f->n; i++) {
        value[i] = (value[i] & ~w[i]) | (v[i] & w[i]);
    }
    rw->set |= 1u << f->set;
    rw->bits[f->set] = (run.ofs == all.ofs && run.n_bits == all.n_bits
                        ? (struct hw_set_bits) { 0, 0 } : run);
    return 0;
}

/* A set ('masked' false) or masked set action 'a' into the rewrites of
 * 'rule', for a flow of 'match'. */
static int
esw_set(const struct nlattr *a, bool masked, const struct match *match,
        struct hw_rule *rule, struct ds *reason)
{
    const struct nlattr *key = nl_attr_get(a);
    uint8_t ones[ESW_MAX_KEY];
    const struct esw_key *k;
    const uint8_t *mask;

    if (nl_attr_get_size(a) < NLA_HDRLEN
        || nl_attr_get_size(key) > nl_attr_get_size(a) - NLA_HDRLEN) {
        return hw_translate_fail(reason, EINVAL, "malformed set action");
    }
    for (k = esw_keys; k < &esw_keys[ARRAY_SIZE(esw_keys)]; k++) {
        if (k->type == nl_attr_type(key)) {
            break;
        }
    }
    if (k == &esw_keys[ARRAY_SIZE(esw_keys)]) {
        return esw_refuse(reason, "sets Ethernet, IPv4, IPv6, TCP and UDP "
                          "fields only");
    }
    if (nl_attr_get_size(key) != k->size * (masked ? 2 : 1)) {
        return hw_translate_fail(reason, EINVAL, "malformed set action");
    }
    if ((rule->outer.present & k->need) != k->need) {
        return esw_refuse(reason, "sets fields of the headers the flow "
                          "matches only");
    }
    if (k->need & (HW_HDR_TCP | HW_HDR_UDP)) {
        rule->rewrite.l4_tcp = k->need == HW_HDR_TCP;
    }
    memset(ones, UINT8_MAX, sizeof ones);
    mask = masked ? (const uint8_t *) nl_attr_get(key) + k->size : ones;
    for (size_t i = 0; i < k->n_fields; i++) {
        int error = esw_set_field(&k->fields[i], nl_attr_get(key), mask,
                                  match, rule, reason);
        if (error) {
            return error;
        }
    }
    return 0;
}

/* A tunnel push.
 *
 * The device pushes the header of the tnl_push action after the VLAN
 * actions and header rewrites, which the datapath runs before it too, and
 * before the one output that must follow (L2_TO_L2_TUNNEL, hw-apis.md
 * 3.4).  The header is the one an egress rule pushes (hw-translate.h). */
static int
esw_push(const struct nlattr *a, struct hw_rule *rule, struct ds *reason)
{
    struct ds why = DS_EMPTY_INITIALIZER;
    struct hw_push push;
    int error;

    if (rule->meter) {
        return esw_refuse(reason, "runs a meter without tnl_push");
    }
    if (rule->reformat != HW_REFORMAT_NONE) {
        return esw_refuse(reason, "pushes one tunnel header, onto packets "
                          "it did not decapsulate");
    }
    error = hw_translate_push_action(a, &push, rule->reformat_data, &why);
    if (error) {
        memset(rule->reformat_data, 0, sizeof rule->reformat_data);
        hw_translate_fail(reason, error, "e-switch: %s", ds_cstr(&why));
        ds_destroy(&why);
        return error;
    }
    ds_destroy(&why);
    rule->reformat = HW_REFORMAT_L2_ENCAP;
    rule->reformat_len = push.header_len;
    return 0;
}

/* The checksums the device updates after rewriting addresses and ports
 * are those the datapath updates, for the packets the rule can match. */
static int
esw_check_rewrites(const struct hw_rule *rule, struct ds *reason)
{
    const uint32_t addrs = ((1u << HW_SET_IPV4_SRC) | (1u << HW_SET_IPV4_DST)
                            | (1u << HW_SET_IPV6_SRC)
                            | (1u << HW_SET_IPV6_DST)
                            | (1u << HW_SET_L4_SRC) | (1u << HW_SET_L4_DST));
    const uint32_t addrs6 = ((1u << HW_SET_IPV6_SRC)
                             | (1u << HW_SET_IPV6_DST));
    const struct hw_headers *outer = &rule->outer;
    uint32_t set = rule->rewrite.set;

    if (set & addrs && (!outer->ext_mask.frag || outer->ext.frag)) {
        /* A later fragment has no L4 header for the device to update. */
        return esw_refuse(reason, "rewrites addresses and ports of flows "
                          "of no fragments only");
    }
    if (set & addrs6 && !(outer->present & (HW_HDR_TCP | HW_HDR_UDP))) {
        /* The datapath also updates an ICMPv6 checksum, and looks behind
         * extension headers. */
        return esw_refuse(reason, "rewrites IPv6 addresses of TCP and UDP "
                          "flows only");
    }
    return 0;
}

int
hw_translate_eswitch_actions(const struct match *match,
                             const struct nlattr *actions,
                             size_t actions_len,
                             const struct hw_translate_params *params,
                             struct hw_rule *rule, struct ds *reason)
{
    struct hw_rewrite *rw = &rule->rewrite;
    const struct ovs_action_push_vlan *push;
    const struct nlattr *a;
    bool output = false;
    size_t left;
    int error;

    rule->fdb = true;
    rule->full = true;
    rule->reg_c[0] = params->esw_reg_c0 & params->esw_reg_c0_mask;
    rule->reg_c_mask[0] = params->esw_reg_c0_mask;
    if (rule->tunnel != HW_TUNNEL_NONE) {
        /* libmlx5 puts an FDB rule on the FDB's transmit side too, where
         * no decap runs, unless it matches the uplink as its source port
         * (dr_rule_skip()). */
        rule->src_vport = params->esw_vport;
        rule->src_vport_mask = UINT16_MAX;
    }
    error = hw_translate_eswitch_ct_stage(actions, actions_len, params, rule,
                                          reason);
    if (error != ENOENT) {
        /* A stage of the connection pipeline, or a ct() the FDB cannot
         * stand for. */
        return error;
    }
    if (!actions_len || nl_attr_type(actions) == OVS_ACTION_ATTR_DROP) {
        /* Nothing after an explicit drop runs, nor needs a decap. */
        rule->fate = HW_FATE_DROP;
        rule->src_vport = rule->src_vport_mask = 0;
        rule->reformat = HW_REFORMAT_NONE;
        rule->reformat_len = 0;
        memset(rule->reformat_data, 0, sizeof rule->reformat_data);
        return 0;
    }

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        if (output && nl_attr_type(a) != OVS_ACTION_ATTR_OUTPUT) {
            /* Every copy of a mirror is the same packet. */
            return esw_refuse(reason, "takes flows whose outputs come "
                              "last");
        }
        if (rule->reformat == HW_REFORMAT_L2_ENCAP
            && nl_attr_type(a) != OVS_ACTION_ATTR_OUTPUT) {
            /* The device runs them before the push. */
            return esw_refuse(reason, "takes outputs only after a "
                              "tnl_push");
        }
        switch (nl_attr_type(a)) {
        case OVS_ACTION_ATTR_POP_VLAN:
            if (rule->meter) {
                return esw_refuse(reason, "runs a meter before VLAN "
                                  "pushes and pops");
            }
            if (rw->pop_vlan || rw->push_vlan) {
                return esw_refuse(reason, "pops one VLAN tag, before a "
                                  "push");
            }
            rw->pop_vlan = true;
            break;
        case OVS_ACTION_ATTR_PUSH_VLAN:
            push = nl_attr_get(a);
            if (rule->meter) {
                return esw_refuse(reason, "runs a meter before VLAN "
                                  "pushes and pops");
            }
            if (rw->push_vlan) {
                return esw_refuse(reason, "pushes one VLAN tag");
            }
            if (push->vlan_tpid != htons(ETH_TYPE_VLAN_8021Q)
                && push->vlan_tpid != htons(ETH_TYPE_VLAN_8021AD)) {
                return esw_refuse(reason, "pushes 802.1Q and 802.1ad "
                                  "tags only");
            }
            rw->push_vlan = true;
            rw->push_tpid = push->vlan_tpid;
            /* OVS marks the tag present with the CFI bit; the tag on the
             * wire has it clear. */
            rw->push_tci = push->vlan_tci & htons(~VLAN_CFI);
            break;
        case OVS_ACTION_ATTR_SET:
        case OVS_ACTION_ATTR_SET_MASKED:
            if (rule->meter) {
                /* The metered rule ends in the meter's jump. */
                return esw_refuse(reason, "runs a meter without header "
                                  "rewrites");
            }
            error = esw_set(a, nl_attr_type(a) == OVS_ACTION_ATTR_SET_MASKED,
                            match, rule, reason);
            if (error) {
                return error;
            }
            break;
        case OVS_ACTION_ATTR_TUNNEL_PUSH:
            error = esw_push(a, rule, reason);
            if (error) {
                return error;
            }
            break;
        case OVS_ACTION_ATTR_TUNNEL_POP:
            /* The flow matches no tunnel header: its receive-side rule
             * lets the software pop, the vport's flows decapsulate. */
            return esw_refuse(reason, "decapsulates in the flows of the "
                              "tunnel's vport, not at tnl_pop");
        case OVS_ACTION_ATTR_METER:
            if (rule->reformat != HW_REFORMAT_NONE) {
                return esw_refuse(reason, "runs a meter without tunnel "
                                  "decap or push");
            }
            if (rule->meter) {
                return esw_refuse(reason, "runs one meter");
            }
            if (rw->pop_vlan || rw->push_vlan) {
                /* The device meters the packet after its VLAN actions,
                 * the datapath where the meter is: their sizes differ. */
                return esw_refuse(reason, "runs a meter before VLAN "
                                  "pushes and pops");
            }
            if (rw->set) {
                return esw_refuse(reason, "runs a meter without header "
                                  "rewrites");
            }
            rule->meter = true;
            rule->meter_id = nl_attr_get_u32(a);
            break;
        case OVS_ACTION_ATTR_OUTPUT:
            if (rule->n_out >= HW_MAX_OUTPUTS) {
                return esw_refuse(reason, "copies a packet to at most "
                                  OVS_STRINGIZE(HW_MAX_OUTPUTS) " ports");
            }
            rule->out_ports[rule->n_out++] = nl_attr_get_odp_port(a);
            output = true;
            break;
        default:
            return esw_refuse(reason, "takes outputs, VLAN pushes and pops, "
                              "sets of addresses, ports, TTL and DSCP, "
                              "a tnl_push and a meter only");
        }
    }
    if (!output) {
        return esw_refuse(reason, "takes flows that output or drop");
    }
    if (rule->reformat == HW_REFORMAT_L2_ENCAP && rule->n_out > 1) {
        return esw_refuse(reason, "sends a tnl_push to one port only");
    }
    rule->fate = HW_FATE_VPORT;
    return esw_check_rewrites(rule, reason);
}

int
hw_translate_eswitch_vlan(const struct match *match, struct hw_rule *rule,
                          struct ds *reason)
{
    ovs_be16 mask = match->wc.masks.vlans[0].tci;
    ovs_be16 tci = match->flow.vlans[0].tci & mask;
    struct hw_headers *outer = &rule->outer;

    if (rule->tunnel != HW_TUNNEL_NONE) {
        /* A vport flow's VLAN match is the inner frame's; the tunnel's
         * packets arrive untagged, as the tnl_pop flow of the underlay's
         * port wants them (its packets are not the VLAN's). */
        outer->vlan1 = HW_VLAN_NONE;
        outer = &rule->inner;
    }

    /* On the receive side the VLAN guard keeps tagged packets from the
     * rules of untagged flows (hw-rule.h); the FDB table has none, so its
     * rules say which packets they take.  OVS's CFI bit says "tagged". */
    if (outer->eth_mask.tci) {
        outer->vlan1 = HW_VLAN_CTAG;
    } else if (mask & htons(VLAN_CFI) && !(tci & htons(VLAN_CFI))) {
        outer->vlan1 = HW_VLAN_NONE;
    } else {
        outer->vlan1 = HW_VLAN_ANY;
    }
    if (rule->rewrite.pop_vlan && outer->vlan1 != HW_VLAN_CTAG) {
        /* Popping from a packet without a tag is not the datapath's. */
        return hw_translate_fail(reason, EOPNOTSUPP, "e-switch: the FDB "
                                 "pops a tag the flow requires only");
    }
    return 0;
}
