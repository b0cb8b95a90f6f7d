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

/* A rule's specs after the walk of hw-model-spec.h: each converted to the
 * kernel's fixed layout as libibverbs does (step 2 of ibv_create_flow()),
 * translated into the match and actions as mlx5_ib does (step 3, with its
 * errnos), and formatted for hw-model/rules.  Apart from the engine, which
 * decides where the rule goes. */

#include <config.h>
#include "hw-model-flow-private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hw-model-spec.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "packets.h"

/* The engine's log module, defined in hw-model-flow.c. */
extern struct vlog_module *VLM_hw_model_flow;
#define this_module (*VLM_hw_model_flow)

/* ---------------------------------------------------------------------- */
/* ibv_create_flow(): step 2, libibverbs' conversion of the specs.        */
/* ---------------------------------------------------------------------- */

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* Logs why a rule is refused and returns 'error'. */
int
reject(int error, const char *format, ...)
{
    if (!VLOG_DROP_DBG(&rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_DBG("ibv_create_flow: %s (%s)", msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

/* libibverbs get_filters_size() for the specs whose size may differ from
 * the struct libibverbs was built with: the filter size is (size - 8) / 2,
 * the mask follows the value, and mask bytes past the kernel's filter must
 * be zero (EOPNOTSUPP).  The walker refused a filter shorter than the
 * kernel's. */
static int
spec_filter_size(const struct hw_model_spec *s, size_t *filter_len)
{
    size_t min_len = (hw_model_spec_min_size(s->type)
                      - HW_MODEL_SPEC_HDR_LEN) / 2;
    size_t len = (s->size - HW_MODEL_SPEC_HDR_LEN) / 2;

    if (!bytes_are_zero(s->data + HW_MODEL_SPEC_HDR_LEN + len + min_len,
                        len - min_len)) {
        return reject(EOPNOTSUPP, "spec 0x%"PRIx32" has mask bits past the "
                      "fields the kernel knows", s->type);
    }
    *filter_len = len;
    return 0;
}

/* Converts 's' as ib_spec_to_kern_spec() does. */
int
spec_to_kspec(const struct hw_model_spec *s, struct kspec *k)
{
    const uint8_t *spec = s->data;
    uint32_t type = s->type;
    size_t flen;
    int error;

    memset(k, 0, sizeof *k);
    k->type = type;
    switch (type) {
    case IBV_FLOW_SPEC_ETH:
    case IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 6, KF_ETH_LEN);
        memcpy(k->mask, spec + 6 + KF_ETH_LEN, KF_ETH_LEN);
        break;

    case IBV_FLOW_SPEC_IPV4:
    case IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_IP4_BASIC_LEN);
        memcpy(k->mask, spec + 8 + KF_IP4_BASIC_LEN, KF_IP4_BASIC_LEN);
        break;

    case IBV_FLOW_SPEC_IPV4_EXT:
    case IBV_FLOW_SPEC_IPV4_EXT | IBV_FLOW_SPEC_INNER:
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        k->type = IBV_FLOW_SPEC_IPV4 | (type & IBV_FLOW_SPEC_INNER);
        memcpy(k->val, spec + 8, KF_IP4_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_IP4_LEN);
        break;

    case IBV_FLOW_SPEC_IPV6:
    case IBV_FLOW_SPEC_IPV6 | IBV_FLOW_SPEC_INNER:
        /* The kernel's filter ends at hop_limit: the padding byte of the
         * 40-byte verbs filter is the first "extra" byte. */
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        memcpy(k->val, spec + 8, KF_IP6_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_IP6_LEN);
        break;

    case IBV_FLOW_SPEC_ESP:
    case IBV_FLOW_SPEC_ESP | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_ESP_LEN);
        memcpy(k->mask, spec + 8 + KF_ESP_LEN, KF_ESP_LEN);
        break;

    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
    case IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER:
    case IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 6, KF_L4_LEN);
        memcpy(k->mask, spec + 6 + KF_L4_LEN, KF_L4_LEN);
        break;

    case IBV_FLOW_SPEC_GRE:
        memcpy(k->val, spec + 8, KF_GRE_LEN);
        memcpy(k->mask, spec + 8 + KF_GRE_LEN, KF_GRE_LEN);
        break;

    case IBV_FLOW_SPEC_MPLS:
    case IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER:
        memcpy(k->val, spec + 8, KF_MPLS_LEN);
        memcpy(k->mask, spec + 8 + KF_MPLS_LEN, KF_MPLS_LEN);
        break;

    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        error = spec_filter_size(s, &flen);
        if (error) {
            return error;
        }
        memcpy(k->val, spec + 8, KF_TUN_LEN);
        memcpy(k->mask, spec + 8 + flen, KF_TUN_LEN);
        break;

    case IBV_FLOW_SPEC_ACTION_TAG:
        memcpy(&k->tag_id, spec + 8, 4);
        break;

    case IBV_FLOW_SPEC_ACTION_DROP:
        break;

    case IBV_FLOW_SPEC_ACTION_HANDLE:
        k->action = hw_model_spec_object(s);
        break;

    case IBV_FLOW_SPEC_ACTION_COUNT:
        k->counters = CONST_CAST(struct ibv_counters *,
                                 hw_model_spec_object(s));
        break;

    default:
        /* The walker refused every other type. */
        OVS_NOT_REACHED();
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Step 3: mlx5_ib's translation of kernel specs into the match.          */
/* ---------------------------------------------------------------------- */

/* ft_field_support for MPLS positions.  Model assumption: a device without
 * a flex parser profile for MPLS over UDP/GRE, where only the plain first
 * MPLS label entry (outer, or inner behind a tunnel) is matchable. */
enum {
    MPLS_FIELD_LABEL = 1 << 0,
    MPLS_FIELD_EXP = 1 << 1,
    MPLS_FIELD_S_BOS = 1 << 2,
    MPLS_FIELD_TTL = 1 << 3,
    MPLS_FIELDS_ALL = 0xf,
};
#define MPLS_SUPPORT_OUTER      MPLS_FIELDS_ALL
#define MPLS_SUPPORT_INNER      MPLS_FIELDS_ALL
#define MPLS_SUPPORT_OVER_UDP   0
#define MPLS_SUPPORT_OVER_GRE   0

static bool
mpls_fields_supported(unsigned int support, const uint8_t mask[4])
{
    uint32_t m = get_be32(mask);

    return !(((m >> 12) && !(support & MPLS_FIELD_LABEL))
             || ((m >> 9 & 7) && !(support & MPLS_FIELD_EXP))
             || ((m >> 8 & 1) && !(support & MPLS_FIELD_S_BOS))
             || ((m & 0xff) && !(support & MPLS_FIELD_TTL)));
}

/* mlx5 set_proto(): the first spec that masks ip_protocol sets it; a later
 * one must agree on both value and mask. */
static int
set_proto(struct fte_hdrs *val, struct fte_hdrs *mask,
          uint8_t proto_mask, uint8_t proto_val)
{
    if (!proto_mask) {
        return 0;
    }
    if (!mask->ip_protocol) {
        mask->ip_protocol = proto_mask;
        val->ip_protocol = proto_val;
        return 0;
    }
    if (mask->ip_protocol != proto_mask || val->ip_protocol != proto_val) {
        return reject(EINVAL, "ip protocol %#x/%#x conflicts with %#x/%#x "
                      "set by an earlier spec", proto_val, proto_mask,
                      val->ip_protocol, mask->ip_protocol);
    }
    return 0;
}

static void
set_tos(struct fte_hdrs *val, struct fte_hdrs *mask, uint8_t tos_mask,
        uint8_t tos_val)
{
    mask->ip_ecn = tos_mask & 3;
    val->ip_ecn = tos_val & 3;
    mask->ip_dscp = tos_mask >> 2;
    val->ip_dscp = tos_val >> 2;
}

/* mlx5_ib parse_flow_attr() for one spec. */
int
parse_kspec(const struct kspec *k, uint32_t prev_type, struct rule_build *b)
{
    bool inner = k->type & IBV_FLOW_SPEC_INNER;
    struct fte_hdrs *hv = inner ? &b->value.inner : &b->value.outer;
    struct fte_hdrs *hm = inner ? &b->mask.inner : &b->mask.outer;
    struct fte_misc *mv = &b->value.misc;
    struct fte_misc *mm = &b->mask.misc;
    int error;

    switch (k->type & ~IBV_FLOW_SPEC_INNER) {
    case IBV_FLOW_SPEC_ETH: {
        uint16_t vlan_mask = get_be16(&k->mask[KF_ETH_VLAN]);
        uint16_t vlan_val = get_be16(&k->val[KF_ETH_VLAN]);

        memcpy(hm->dmac, &k->mask[KF_ETH_DMAC], 6);
        memcpy(hv->dmac, &k->val[KF_ETH_DMAC], 6);
        memcpy(hm->smac, &k->mask[KF_ETH_SMAC], 6);
        memcpy(hv->smac, &k->val[KF_ETH_SMAC], 6);
        if (vlan_mask) {
            /* Any VLAN mask requires an 802.1Q first tag. */
            hm->cvlan_tag = hv->cvlan_tag = 1;
            put_be16(hm->first_vid, vlan_mask & 0xfff);
            put_be16(hv->first_vid, vlan_val & 0xfff);
            hm->first_cfi = (vlan_mask >> 12) & 1;
            hv->first_cfi = (vlan_val >> 12) & 1;
            hm->first_prio = vlan_mask >> 13;
            hv->first_prio = vlan_val >> 13;
        }
        memcpy(hm->ethertype, &k->mask[KF_ETH_TYPE], 2);
        memcpy(hv->ethertype, &k->val[KF_ETH_TYPE], 2);
        break;
    }

    case IBV_FLOW_SPEC_IPV4:
        if (k->mask[KF_IP4_TTL] || k->mask[KF_IP4_FLAGS]) {
            return reject(EOPNOTSUPP, "ipv4 ttl and flags cannot be "
                          "matched");
        }
        /* Model assumption: the device has ft_field_support.ip_version
         * (ConnectX-5 and later), so the spec matches the IP version
         * rather than forcing the ethertype. */
        hm->ip_version = 0xf;
        hv->ip_version = 4;
        memcpy(&hm->src_ip[12], &k->mask[KF_IP4_SRC], 4);
        memcpy(&hv->src_ip[12], &k->val[KF_IP4_SRC], 4);
        memcpy(&hm->dst_ip[12], &k->mask[KF_IP4_DST], 4);
        memcpy(&hv->dst_ip[12], &k->val[KF_IP4_DST], 4);
        set_tos(hv, hm, k->mask[KF_IP4_TOS], k->val[KF_IP4_TOS]);
        return set_proto(hv, hm, k->mask[KF_IP4_PROTO], k->val[KF_IP4_PROTO]);

    case IBV_FLOW_SPEC_IPV6:
        if (k->mask[KF_IP6_HLIM]) {
            return reject(EOPNOTSUPP, "ipv6 hop limit cannot be matched");
        }
        hm->ip_version = 0xf;
        hv->ip_version = 6;
        memcpy(hm->src_ip, &k->mask[KF_IP6_SRC], 16);
        memcpy(hv->src_ip, &k->val[KF_IP6_SRC], 16);
        memcpy(hm->dst_ip, &k->mask[KF_IP6_DST], 16);
        memcpy(hv->dst_ip, &k->val[KF_IP6_DST], 16);
        set_tos(hv, hm, k->mask[KF_IP6_TCLASS], k->val[KF_IP6_TCLASS]);
        error = set_proto(hv, hm, k->mask[KF_IP6_NEXT], k->val[KF_IP6_NEXT]);
        if (error) {
            return error;
        }
        /* A 20-bit field: MLX5_SET() drops higher bits. */
        put_be32(inner ? mm->inner_ipv6_flow_label
                 : mm->outer_ipv6_flow_label,
                 get_be32(&k->mask[KF_IP6_LABEL]) & 0xfffff);
        put_be32(inner ? mv->inner_ipv6_flow_label
                 : mv->outer_ipv6_flow_label,
                 get_be32(&k->val[KF_IP6_LABEL]) & 0xfffff);
        break;

    case IBV_FLOW_SPEC_ESP:
        /* Linux 6.1 mlx5_ib no longer matches ESP through verbs (its IPsec
         * flow steering was removed in 5.17). */
        return reject(EOPNOTSUPP, "esp specs are not supported");

    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP: {
        bool tcp = (k->type & ~IBV_FLOW_SPEC_INNER) == IBV_FLOW_SPEC_TCP;

        error = set_proto(hv, hm, 0xff, tcp ? IPPROTO_TCP : IPPROTO_UDP);
        if (error) {
            return error;
        }
        hm->l4_type = 0xff;
        hv->l4_type = tcp ? L4_TYPE_TCP : L4_TYPE_UDP;
        memcpy(tcp ? hm->tcp_sport : hm->udp_sport, &k->mask[KF_L4_SRC], 2);
        memcpy(tcp ? hv->tcp_sport : hv->udp_sport, &k->val[KF_L4_SRC], 2);
        memcpy(tcp ? hm->tcp_dport : hm->udp_dport, &k->mask[KF_L4_DST], 2);
        memcpy(tcp ? hv->tcp_dport : hv->udp_dport, &k->val[KF_L4_DST], 2);
        break;
    }

    case IBV_FLOW_SPEC_GRE:
        if (get_be16(&k->mask[KF_GRE_FLAGS])) {
            return reject(EOPNOTSUPP, "gre c/k/s flags and version cannot "
                          "be matched");
        }
        error = set_proto(hv, hm, 0xff, IPPROTO_GRE);
        if (error) {
            return error;
        }
        memcpy(mm->gre_protocol, &k->mask[KF_GRE_PROTO], 2);
        memcpy(mv->gre_protocol, &k->val[KF_GRE_PROTO], 2);
        memcpy(mm->gre_key, &k->mask[KF_GRE_KEY], 4);
        memcpy(mv->gre_key, &k->val[KF_GRE_KEY], 4);
        break;

    case IBV_FLOW_SPEC_MPLS: {
        uint8_t *pos_v, *pos_m;
        unsigned int support;

        /* The position depends on the spec before it. */
        if (prev_type == IBV_FLOW_SPEC_UDP) {
            support = MPLS_SUPPORT_OVER_UDP;
            pos_v = mv->outer_first_mpls_over_udp;
            pos_m = mm->outer_first_mpls_over_udp;
        } else if (prev_type == IBV_FLOW_SPEC_GRE) {
            support = MPLS_SUPPORT_OVER_GRE;
            pos_v = mv->outer_first_mpls_over_gre;
            pos_m = mm->outer_first_mpls_over_gre;
        } else if (inner) {
            support = MPLS_SUPPORT_INNER;
            pos_v = mv->inner_first_mpls;
            pos_m = mm->inner_first_mpls;
        } else {
            support = MPLS_SUPPORT_OUTER;
            pos_v = mv->outer_first_mpls;
            pos_m = mm->outer_first_mpls;
        }
        if (!mpls_fields_supported(support, k->mask)) {
            return reject(EOPNOTSUPP, "mpls fields not matchable at this "
                          "position");
        }
        memcpy(pos_v, k->val, 4);
        memcpy(pos_m, k->mask, 4);
        break;
    }

    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        put_be32(mm->vxlan_vni, get_be32(&k->mask[KF_TUN_ID]) & 0xffffff);
        put_be32(mv->vxlan_vni, get_be32(&k->val[KF_TUN_ID]) & 0xffffff);
        break;

    case IBV_FLOW_SPEC_ACTION_TAG:
        if (k->tag_id >= 1u << 24) {
            return reject(EINVAL, "flow tag %"PRIu32" does not fit 24 bits",
                          k->tag_id);
        }
        b->action.has_tag = true;
        b->action.tag = k->tag_id;
        break;

    case IBV_FLOW_SPEC_ACTION_DROP:
        b->action.drop = true;
        break;

    case IBV_FLOW_SPEC_ACTION_HANDLE:
        /* mlx5 allows one action of each kind (decap, reformat, modify
         * header); the model cannot tell the kinds of the caller's objects
         * apart and allows one handle. */
        if (b->n_handles++) {
            return reject(EINVAL, "a second action handle");
        }
        b->action.reformat = k->action;
        break;

    case IBV_FLOW_SPEC_ACTION_COUNT:
        if (b->action.count) {
            return reject(EINVAL, "a second ACTION_COUNT");
        }
        b->action.count = true;
        break;

    default:
        OVS_NOT_REACHED();
    }
    return 0;
}

/* mlx5_ib is_valid_ethertype() for one layer: if an ETH spec of that layer
 * masks the ethertype and an IP spec of that layer exists, the mask must be
 * full and the ethertype must be that IP version's (or MPLS). */
bool
ethertype_valid(const struct kspec *ks, size_t n, bool inner)
{
    uint32_t inner_bit = inner ? IBV_FLOW_SPEC_INNER : 0;
    uint32_t ip_type = 0;
    bool has_ethertype = false;
    bool mask_full = true;
    uint16_t eth_type = 0;

    for (size_t i = 0; i < n; i++) {
        uint16_t mask = get_be16(&ks[i].mask[KF_ETH_TYPE]);

        if (ks[i].type == (IBV_FLOW_SPEC_ETH | inner_bit) && mask) {
            mask_full = mask == 0xffff;
            has_ethertype = true;
            eth_type = get_be16(&ks[i].val[KF_ETH_TYPE]);
        } else if (ks[i].type == (IBV_FLOW_SPEC_IPV4 | inner_bit)
                   || ks[i].type == (IBV_FLOW_SPEC_IPV6 | inner_bit)) {
            ip_type = ks[i].type;
        }
    }

    if (!has_ethertype || !ip_type) {
        return true;
    }
    if (!mask_full) {
        return false;
    }
    return ((eth_type == ETH_TYPE_IP
             && ip_type == (IBV_FLOW_SPEC_IPV4 | inner_bit))
            || (eth_type == ETH_TYPE_IPV6
                && ip_type == (IBV_FLOW_SPEC_IPV6 | inner_bit))
            || eth_type == ETH_TYPE_MPLS || eth_type == ETH_TYPE_MPLS_MCAST);
}

/* mlx5_ib flow_is_multicast_only(): such rules (unless DONT_TRAP) go to the
 * multicast priority, after every regular one. */
bool
flow_is_multicast_only(const struct kspec *ks, size_t n)
{
    if (!n) {
        return false;
    }
    if (ks[0].type == IBV_FLOW_SPEC_IPV4) {
        ovs_be32 dst;

        memcpy(&dst, &ks[0].val[KF_IP4_DST], 4);
        return ip_is_multicast(dst);
    }
    if (ks[0].type == IBV_FLOW_SPEC_ETH) {
        return (ks[0].mask[KF_ETH_DMAC] & 1) && (ks[0].val[KF_ETH_DMAC] & 1);
    }
    return false;
}

/* ---------------------------------------------------------------------- */
/* Readable form of specs.                                                */
/* ---------------------------------------------------------------------- */

static void
format_sep(struct ds *s, bool *first)
{
    if (!*first) {
        ds_put_char(s, ',');
    }
    *first = false;
}

/* Formats the 'n'-byte big-endian field as "name=0xval[/0xmask]" if its
 * mask is non-zero. */
static void
format_hex_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask, size_t n,
                 uint32_t full)
{
    uint32_t v = 0, m = 0;

    for (size_t i = 0; i < n; i++) {
        v = (v << 8) | val[i];
        m = (m << 8) | mask[i];
    }
    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=%#"PRIx32, name, v);
    if (m != full) {
        ds_put_format(s, "/%#"PRIx32, m);
    }
}

static void
format_dec_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    uint16_t v = get_be16(val), m = get_be16(mask);

    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=%"PRIu16, name, v);
    if (m != 0xffff) {
        ds_put_format(s, "/%#"PRIx16, m);
    }
}

static void
format_mac_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    struct eth_addr v, m;

    memcpy(v.ea, val, 6);
    memcpy(m.ea, mask, 6);
    if (eth_addr_is_zero(m)) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s="ETH_ADDR_FMT, name, ETH_ADDR_ARGS(v));
    if (!eth_addr_equals(m, eth_addr_exact)) {
        ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(m));
    }
}

static void
format_ip4_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    ovs_be32 v, m;

    memcpy(&v, val, 4);
    memcpy(&m, mask, 4);
    if (!m) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s="IP_FMT, name, IP_ARGS(v));
    if (m != OVS_BE32_MAX) {
        ds_put_format(s, "/"IP_FMT, IP_ARGS(m));
    }
}

static void
format_ip6_field(struct ds *s, bool *first, const char *name,
                 const uint8_t *val, const uint8_t *mask)
{
    struct in6_addr v, m;

    memcpy(&v, val, 16);
    memcpy(&m, mask, 16);
    if (ipv6_mask_is_any(&m)) {
        return;
    }
    format_sep(s, first);
    ds_put_format(s, "%s=", name);
    ipv6_format_addr(&v, s);
    if (!ipv6_mask_is_exact(&m)) {
        ds_put_char(s, '/');
        ipv6_format_addr(&m, s);
    }
}

void
format_kspec(const struct kspec *k, struct ds *s)
{
    bool first = true;

    if (k->type & IBV_FLOW_SPEC_INNER) {
        ds_put_cstr(s, "inner_");
    }
    switch (k->type & ~IBV_FLOW_SPEC_INNER) {
    case IBV_FLOW_SPEC_ETH:
        ds_put_cstr(s, "eth(");
        format_mac_field(s, &first, "dst", &k->val[KF_ETH_DMAC],
                         &k->mask[KF_ETH_DMAC]);
        format_mac_field(s, &first, "src", &k->val[KF_ETH_SMAC],
                         &k->mask[KF_ETH_SMAC]);
        format_hex_field(s, &first, "type", &k->val[KF_ETH_TYPE],
                         &k->mask[KF_ETH_TYPE], 2, 0xffff);
        format_hex_field(s, &first, "vlan", &k->val[KF_ETH_VLAN],
                         &k->mask[KF_ETH_VLAN], 2, 0xffff);
        break;
    case IBV_FLOW_SPEC_IPV4:
        ds_put_cstr(s, "ipv4(");
        format_ip4_field(s, &first, "src", &k->val[KF_IP4_SRC],
                         &k->mask[KF_IP4_SRC]);
        format_ip4_field(s, &first, "dst", &k->val[KF_IP4_DST],
                         &k->mask[KF_IP4_DST]);
        format_hex_field(s, &first, "proto", &k->val[KF_IP4_PROTO],
                         &k->mask[KF_IP4_PROTO], 1, 0xff);
        format_hex_field(s, &first, "tos", &k->val[KF_IP4_TOS],
                         &k->mask[KF_IP4_TOS], 1, 0xff);
        break;
    case IBV_FLOW_SPEC_IPV6:
        ds_put_cstr(s, "ipv6(");
        format_ip6_field(s, &first, "src", &k->val[KF_IP6_SRC],
                         &k->mask[KF_IP6_SRC]);
        format_ip6_field(s, &first, "dst", &k->val[KF_IP6_DST],
                         &k->mask[KF_IP6_DST]);
        format_hex_field(s, &first, "label", &k->val[KF_IP6_LABEL],
                         &k->mask[KF_IP6_LABEL], 4, 0xfffff);
        format_hex_field(s, &first, "next", &k->val[KF_IP6_NEXT],
                         &k->mask[KF_IP6_NEXT], 1, 0xff);
        format_hex_field(s, &first, "tclass", &k->val[KF_IP6_TCLASS],
                         &k->mask[KF_IP6_TCLASS], 1, 0xff);
        break;
    case IBV_FLOW_SPEC_ESP:
        ds_put_cstr(s, "esp(");
        format_hex_field(s, &first, "spi", &k->val[KF_ESP_SPI],
                         &k->mask[KF_ESP_SPI], 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
        ds_put_cstr(s, (k->type & ~IBV_FLOW_SPEC_INNER) == IBV_FLOW_SPEC_TCP
                       ? "tcp(" : "udp(");
        format_dec_field(s, &first, "src", &k->val[KF_L4_SRC],
                         &k->mask[KF_L4_SRC]);
        format_dec_field(s, &first, "dst", &k->val[KF_L4_DST],
                         &k->mask[KF_L4_DST]);
        break;
    case IBV_FLOW_SPEC_GRE:
        ds_put_cstr(s, "gre(");
        format_hex_field(s, &first, "proto", &k->val[KF_GRE_PROTO],
                         &k->mask[KF_GRE_PROTO], 2, 0xffff);
        format_hex_field(s, &first, "key", &k->val[KF_GRE_KEY],
                         &k->mask[KF_GRE_KEY], 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_MPLS:
        ds_put_cstr(s, "mpls(");
        format_hex_field(s, &first, "lse", k->val, k->mask, 4, UINT32_MAX);
        break;
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        ds_put_cstr(s, "vxlan(");
        format_hex_field(s, &first, "vni", &k->val[KF_TUN_ID],
                         &k->mask[KF_TUN_ID], 4, 0xffffff);
        break;
    case IBV_FLOW_SPEC_ACTION_TAG:
        ds_put_format(s, "tag(%"PRIu32, k->tag_id);
        break;
    case IBV_FLOW_SPEC_ACTION_DROP:
        ds_put_cstr(s, "drop(");
        break;
    case IBV_FLOW_SPEC_ACTION_HANDLE:
        ds_put_cstr(s, "reformat(");
        break;
    case IBV_FLOW_SPEC_ACTION_COUNT:
        ds_put_cstr(s, "count(");
        break;
    default:
        ds_put_format(s, "spec_%#"PRIx32"(", k->type);
        break;
    }
    ds_put_char(s, ')');
}

bool
kspec_is_action(const struct kspec *k)
{
    return k->type >= IBV_FLOW_SPEC_ACTION_TAG;
}

const char *
attr_type_name(uint32_t type)
{
    switch (type) {
    case IBV_FLOW_ATTR_NORMAL:
        return "normal";
    case IBV_FLOW_ATTR_ALL_DEFAULT:
        return "all_default";
    case IBV_FLOW_ATTR_MC_DEFAULT:
        return "mc_default";
    case IBV_FLOW_ATTR_SNIFFER:
        return "sniffer";
    default:
        return "unknown";
    }
}
