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
#include "hw-encode.h"

#include <string.h>

#include "hw-rule.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "packets.h"
#include "util.h"

/* The layouts libibverbs walks (hw-apis.md 1.1). */
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_attr) == 20);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_eth) == 40);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_ipv4) == 24);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_ipv4_ext) == 32);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_ipv6) == 88);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_tcp_udp) == 16);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_tunnel) == 16);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_gre) == 24);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_action_tag) == 12);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_action_drop) == 8);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_counter_action) == 16);
BUILD_ASSERT_DECL(sizeof(struct ibv_flow_spec_action_handle) == 16);

/* Every spec starts with this header. */
struct spec_hdr {
    enum ibv_flow_spec_type type;
    uint16_t size;
};

/* The rule being encoded. */
struct encode_ctx {
    struct ofpbuf *out;
    size_t n_specs;
};

/* Appends 'spec' right after the previous one.  libibverbs walks the specs
 * by their 'size' from byte 20 with no alignment padding (hw-apis.md 1.2),
 * so each spec is built in a properly aligned local struct and copied to
 * its byte offset. */
static void
put_spec(struct encode_ctx *ctx, const void *spec, size_t size)
{
    ofpbuf_put(ctx->out, spec, size);
    ctx->n_specs++;
}

static void
put_eth(struct encode_ctx *ctx, const struct hw_headers *h, uint32_t inner)
{
    struct ibv_flow_spec_eth spec;

    memset(&spec, 0, sizeof spec);
    spec.type = IBV_FLOW_SPEC_ETH | inner;
    spec.size = sizeof spec;
    for (size_t i = 0; i < ETH_ADDR_LEN; i++) {
        spec.mask.dst_mac[i] = h->eth_mask.dst.ea[i];
        spec.val.dst_mac[i] = h->eth.dst.ea[i] & h->eth_mask.dst.ea[i];
        spec.mask.src_mac[i] = h->eth_mask.src.ea[i];
        spec.val.src_mac[i] = h->eth.src.ea[i] & h->eth_mask.src.ea[i];
    }
    /* verbs keeps these two in network byte order in plain uint16_t. */
    spec.mask.ether_type = (OVS_FORCE uint16_t) h->eth_mask.type;
    spec.val.ether_type = (OVS_FORCE uint16_t) (h->eth.type
                                                & h->eth_mask.type);
    spec.mask.vlan_tag = (OVS_FORCE uint16_t) h->eth_mask.tci;
    spec.val.vlan_tag = (OVS_FORCE uint16_t) (h->eth.tci & h->eth_mask.tci);
    put_spec(ctx, &spec, sizeof spec);
}

static void
put_ipv4(struct encode_ctx *ctx, const struct hw_headers *h, uint32_t inner)
{
    const struct hw_ipv4_key *val = &h->ipv4, *mask = &h->ipv4_mask;

    if (mask->proto || mask->tos) {
        /* Only the extended spec carries proto and tos.  ttl and flags stay
         * zero: mlx5 refuses a mask on them. */
        struct ibv_flow_spec_ipv4_ext spec;

        memset(&spec, 0, sizeof spec);
        spec.type = IBV_FLOW_SPEC_IPV4_EXT | inner;
        spec.size = sizeof spec;
        spec.mask.src_ip = (OVS_FORCE uint32_t) mask->src;
        spec.val.src_ip = (OVS_FORCE uint32_t) (val->src & mask->src);
        spec.mask.dst_ip = (OVS_FORCE uint32_t) mask->dst;
        spec.val.dst_ip = (OVS_FORCE uint32_t) (val->dst & mask->dst);
        spec.mask.proto = mask->proto;
        spec.val.proto = val->proto & mask->proto;
        spec.mask.tos = mask->tos;
        spec.val.tos = val->tos & mask->tos;
        put_spec(ctx, &spec, sizeof spec);
    } else {
        struct ibv_flow_spec_ipv4 spec;

        memset(&spec, 0, sizeof spec);
        spec.type = IBV_FLOW_SPEC_IPV4 | inner;
        spec.size = sizeof spec;
        spec.mask.src_ip = (OVS_FORCE uint32_t) mask->src;
        spec.val.src_ip = (OVS_FORCE uint32_t) (val->src & mask->src);
        spec.mask.dst_ip = (OVS_FORCE uint32_t) mask->dst;
        spec.val.dst_ip = (OVS_FORCE uint32_t) (val->dst & mask->dst);
        put_spec(ctx, &spec, sizeof spec);
    }
}

static void
put_ipv6(struct encode_ctx *ctx, const struct hw_headers *h, uint32_t inner)
{
    const struct hw_ipv6_key *val = &h->ipv6, *mask = &h->ipv6_mask;
    struct ibv_flow_spec_ipv6 spec;

    memset(&spec, 0, sizeof spec);
    spec.type = IBV_FLOW_SPEC_IPV6 | inner;
    spec.size = sizeof spec;
    for (size_t i = 0; i < 16; i++) {
        spec.mask.src_ip[i] = mask->src.s6_addr[i];
        spec.val.src_ip[i] = val->src.s6_addr[i] & mask->src.s6_addr[i];
        spec.mask.dst_ip[i] = mask->dst.s6_addr[i];
        spec.val.dst_ip[i] = val->dst.s6_addr[i] & mask->dst.s6_addr[i];
    }
    /* Network byte order, 20 bits: the kernel refuses a larger label. */
    spec.mask.flow_label = (OVS_FORCE uint32_t) (mask->label
                                                 & htonl(IPV6_LABEL_MASK));
    spec.val.flow_label = (OVS_FORCE uint32_t) (val->label
                                                & mask->label
                                                & htonl(IPV6_LABEL_MASK));
    spec.mask.next_hdr = mask->next_hdr;
    spec.val.next_hdr = val->next_hdr & mask->next_hdr;
    spec.mask.traffic_class = mask->tclass;
    spec.val.traffic_class = val->tclass & mask->tclass;
    put_spec(ctx, &spec, sizeof spec);
}

static void
put_tcp_udp(struct encode_ctx *ctx, const struct hw_headers *h,
            uint32_t type)
{
    struct ibv_flow_spec_tcp_udp spec;

    memset(&spec, 0, sizeof spec);
    spec.type = type;
    spec.size = sizeof spec;
    /* The filter has dst_port first. */
    spec.mask.dst_port = (OVS_FORCE uint16_t) h->l4_mask.dst;
    spec.val.dst_port = (OVS_FORCE uint16_t) (h->l4.dst & h->l4_mask.dst);
    spec.mask.src_port = (OVS_FORCE uint16_t) h->l4_mask.src;
    spec.val.src_port = (OVS_FORCE uint16_t) (h->l4.src & h->l4_mask.src);
    put_spec(ctx, &spec, sizeof spec);
}

static bool
eth_spec_needed(const struct hw_headers *h)
{
    return (h->present & HW_HDR_ETH)
           || !eth_addr_is_zero(h->eth_mask.dst)
           || !eth_addr_is_zero(h->eth_mask.src)
           || h->eth_mask.type || h->eth_mask.tci;
}

/* Puts the specs of one layer of headers; 'inner' is 0 for the outer
 * headers and IBV_FLOW_SPEC_INNER for those behind a tunnel. */
static void
put_headers(struct encode_ctx *ctx, const struct hw_headers *h,
            uint32_t inner)
{
    if (eth_spec_needed(h)) {
        put_eth(ctx, h, inner);
    }
    if (h->present & HW_HDR_IPV4) {
        put_ipv4(ctx, h, inner);
    } else if (h->present & HW_HDR_IPV6) {
        put_ipv6(ctx, h, inner);
    }
    if (h->present & HW_HDR_TCP) {
        put_tcp_udp(ctx, h, IBV_FLOW_SPEC_TCP | inner);
    } else if (h->present & HW_HDR_UDP) {
        put_tcp_udp(ctx, h, IBV_FLOW_SPEC_UDP | inner);
    }
}

/* The tunnel spec, between the outer and the inner headers.  Neither has an
 * INNER form (hw-apis.md 1.2).  VXLAN_TUNNEL does not imply the UDP port:
 * the rule's outer UDP spec carries it. */
static void
put_tunnel(struct encode_ctx *ctx, const struct hw_rule *rule)
{
    if (rule->tunnel == HW_TUNNEL_VXLAN) {
        struct ibv_flow_spec_tunnel spec;

        memset(&spec, 0, sizeof spec);
        spec.type = IBV_FLOW_SPEC_VXLAN_TUNNEL;
        spec.size = sizeof spec;
        spec.mask.tunnel_id = (OVS_FORCE uint32_t) (rule->tnl_mask.vni
                                                    & htonl(0xffffff));
        spec.val.tunnel_id = (OVS_FORCE uint32_t) (rule->tnl.vni
                                                   & rule->tnl_mask.vni
                                                   & htonl(0xffffff));
        put_spec(ctx, &spec, sizeof spec);
    } else if (rule->tunnel == HW_TUNNEL_GRE) {
        struct ibv_flow_spec_gre spec;

        /* c_ks_res0_ver stays unmasked: mlx5 refuses a mask on it. */
        memset(&spec, 0, sizeof spec);
        spec.type = IBV_FLOW_SPEC_GRE;
        spec.size = sizeof spec;
        spec.mask.protocol = (OVS_FORCE uint16_t) rule->tnl_mask.gre_protocol;
        spec.val.protocol = (OVS_FORCE uint16_t) (rule->tnl.gre_protocol
                                                  & rule->tnl_mask
                                                    .gre_protocol);
        spec.mask.key = (OVS_FORCE uint32_t) rule->tnl_mask.gre_key;
        spec.val.key = (OVS_FORCE uint32_t) (rule->tnl.gre_key
                                             & rule->tnl_mask.gre_key);
        put_spec(ctx, &spec, sizeof spec);
    }
}

static void
put_actions(struct encode_ctx *ctx, const struct hw_rule *rule,
            const struct hw_encode_handles *handles)
{
    if (rule->has_tag) {
        struct ibv_flow_spec_action_tag tag;

        memset(&tag, 0, sizeof tag);
        tag.type = IBV_FLOW_SPEC_ACTION_TAG;
        tag.size = sizeof tag;
        tag.tag_id = rule->tag;         /* Host order, read back as is. */
        put_spec(ctx, &tag, sizeof tag);
    }
    if (rule->fate == HW_FATE_DROP) {
        struct ibv_flow_spec_action_drop drop;

        memset(&drop, 0, sizeof drop);
        drop.type = IBV_FLOW_SPEC_ACTION_DROP;
        drop.size = sizeof drop;
        put_spec(ctx, &drop, sizeof drop);
    }
    /* A COUNT spec needs the counters object; without one the rule simply
     * goes uncounted. */
    if (rule->count && handles && handles->counters) {
        struct ibv_flow_spec_counter_action count;

        memset(&count, 0, sizeof count);
        count.type = IBV_FLOW_SPEC_ACTION_COUNT;
        count.size = sizeof count;
        count.counters = handles->counters;
        put_spec(ctx, &count, sizeof count);
    }
    if (handles && handles->reformat) {
        struct ibv_flow_spec_action_handle handle;

        memset(&handle, 0, sizeof handle);
        handle.type = IBV_FLOW_SPEC_ACTION_HANDLE;
        handle.size = sizeof handle;
        handle.action = handles->reformat;
        put_spec(ctx, &handle, sizeof handle);
    }
}

void
hw_encode_flow(const struct hw_rule *rule,
               const struct hw_encode_handles *handles, uint8_t port,
               struct ofpbuf *out)
{
    struct encode_ctx ctx = { .out = out, .n_specs = 0 };
    size_t attr_ofs = out->size;
    struct ibv_flow_attr attr;

    ofpbuf_put_zeros(out, sizeof attr);
    put_headers(&ctx, &rule->outer, 0);
    if (rule->tunnel != HW_TUNNEL_NONE) {
        put_tunnel(&ctx, rule);
        put_headers(&ctx, &rule->inner, IBV_FLOW_SPEC_INNER);
    }
    put_actions(&ctx, rule, handles);

    /* The header is written last, when the spec count and size are known
     * (the buffer may have moved meanwhile). */
    memset(&attr, 0, sizeof attr);
    attr.comp_mask = 0;
    attr.type = IBV_FLOW_ATTR_NORMAL;
    attr.size = out->size - attr_ofs;
    attr.priority = hw_rule_priority(rule);
    attr.num_of_specs = ctx.n_specs;
    attr.port = port;
    attr.flags = rule->egress ? IBV_FLOW_ATTR_FLAGS_EGRESS : 0;
    memcpy(ofpbuf_at_assert(out, attr_ofs, sizeof attr), &attr, sizeof attr);
}

/* Formatting. */

static void
put_sep(struct ds *s, bool *first)
{
    if (!*first) {
        ds_put_char(s, ',');
    }
    *first = false;
}

static void
format_mac(struct ds *s, const char *name, const uint8_t val[ETH_ADDR_LEN],
           const uint8_t mask[ETH_ADDR_LEN], bool *first)
{
    struct eth_addr v, m;

    memcpy(v.ea, val, ETH_ADDR_LEN);
    memcpy(m.ea, mask, ETH_ADDR_LEN);
    if (eth_addr_is_zero(m)) {
        return;
    }
    put_sep(s, first);
    ds_put_format(s, "%s="ETH_ADDR_FMT, name, ETH_ADDR_ARGS(v));
    if (!eth_mask_is_exact(m)) {
        ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(m));
    }
}

/* Formats a network-order 16-bit field: decimal when 'decimal' and the mask
 * is exact, hex otherwise. */
static void
format_be16(struct ds *s, const char *name, uint16_t val, uint16_t mask,
            bool decimal, bool *first)
{
    uint16_t v = ntohs((OVS_FORCE ovs_be16) val);
    uint16_t m = ntohs((OVS_FORCE ovs_be16) mask);

    if (!m) {
        return;
    }
    put_sep(s, first);
    if (m == UINT16_MAX) {
        ds_put_format(s, decimal ? "%s=%"PRIu16 : "%s=0x%04"PRIx16, name, v);
    } else {
        ds_put_format(s, "%s=0x%04"PRIx16"/0x%04"PRIx16, name, v, m);
    }
}

static void
format_u8(struct ds *s, const char *name, uint8_t val, uint8_t mask,
          bool decimal, bool *first)
{
    if (!mask) {
        return;
    }
    put_sep(s, first);
    if (mask == UINT8_MAX) {
        ds_put_format(s, decimal ? "%s=%"PRIu8 : "%s=0x%02"PRIx8, name, val);
    } else {
        ds_put_format(s, "%s=0x%02"PRIx8"/0x%02"PRIx8, name, val, mask);
    }
}

static void
format_be32_hex(struct ds *s, const char *name, uint32_t val, uint32_t mask,
                uint32_t exact, bool *first)
{
    uint32_t v = ntohl((OVS_FORCE ovs_be32) val);
    uint32_t m = ntohl((OVS_FORCE ovs_be32) mask);

    if (!m) {
        return;
    }
    put_sep(s, first);
    ds_put_format(s, "%s=%#"PRIx32, name, v);
    if (m != exact) {
        ds_put_format(s, "/%#"PRIx32, m);
    }
}

static void
format_ip4(struct ds *s, const char *name, uint32_t val, uint32_t mask,
           bool *first)
{
    if (!mask) {
        return;
    }
    put_sep(s, first);
    ds_put_format(s, "%s=", name);
    ip_format_masked((OVS_FORCE ovs_be32) val, (OVS_FORCE ovs_be32) mask, s);
}

static void
format_ip6(struct ds *s, const char *name, const uint8_t val[16],
           const uint8_t mask[16], bool *first)
{
    struct in6_addr v, m;

    memcpy(&v, val, sizeof v);
    memcpy(&m, mask, sizeof m);
    if (ipv6_mask_is_any(&m)) {
        return;
    }
    put_sep(s, first);
    ds_put_format(s, "%s=", name);
    ipv6_format_masked(&v, &m, s);
}

static void
format_eth(struct ds *s, const struct ibv_flow_spec_eth *spec)
{
    bool first = true;

    format_mac(s, "dst", spec->val.dst_mac, spec->mask.dst_mac, &first);
    format_mac(s, "src", spec->val.src_mac, spec->mask.src_mac, &first);
    format_be16(s, "type", spec->val.ether_type, spec->mask.ether_type,
                false, &first);
    format_be16(s, "vlan", spec->val.vlan_tag, spec->mask.vlan_tag,
                false, &first);
}

static void
format_ipv4(struct ds *s, const struct ibv_flow_spec_ipv4 *spec)
{
    bool first = true;

    format_ip4(s, "src", spec->val.src_ip, spec->mask.src_ip, &first);
    format_ip4(s, "dst", spec->val.dst_ip, spec->mask.dst_ip, &first);
}

static void
format_ipv4_ext(struct ds *s, const struct ibv_flow_spec_ipv4_ext *spec)
{
    bool first = true;

    format_ip4(s, "src", spec->val.src_ip, spec->mask.src_ip, &first);
    format_ip4(s, "dst", spec->val.dst_ip, spec->mask.dst_ip, &first);
    format_u8(s, "proto", spec->val.proto, spec->mask.proto, true, &first);
    format_u8(s, "tos", spec->val.tos, spec->mask.tos, false, &first);
    format_u8(s, "ttl", spec->val.ttl, spec->mask.ttl, true, &first);
    format_u8(s, "flags", spec->val.flags, spec->mask.flags, false, &first);
}

static void
format_ipv6(struct ds *s, const struct ibv_flow_spec_ipv6 *spec)
{
    bool first = true;

    format_ip6(s, "src", spec->val.src_ip, spec->mask.src_ip, &first);
    format_ip6(s, "dst", spec->val.dst_ip, spec->mask.dst_ip, &first);
    format_be32_hex(s, "label", spec->val.flow_label, spec->mask.flow_label,
                    IPV6_LABEL_MASK, &first);
    format_u8(s, "proto", spec->val.next_hdr, spec->mask.next_hdr, true,
              &first);
    format_u8(s, "tclass", spec->val.traffic_class,
              spec->mask.traffic_class, false, &first);
    format_u8(s, "hlimit", spec->val.hop_limit, spec->mask.hop_limit, true,
              &first);
}

static void
format_tcp_udp(struct ds *s, const struct ibv_flow_spec_tcp_udp *spec)
{
    bool first = true;

    format_be16(s, "src", spec->val.src_port, spec->mask.src_port, true,
                &first);
    format_be16(s, "dst", spec->val.dst_port, spec->mask.dst_port, true,
                &first);
}

static void
format_tunnel(struct ds *s, const struct ibv_flow_spec_tunnel *spec)
{
    bool first = true;

    format_be32_hex(s, "vni", spec->val.tunnel_id, spec->mask.tunnel_id,
                    0xffffff, &first);
}

static void
format_gre(struct ds *s, const struct ibv_flow_spec_gre *spec)
{
    bool first = true;

    format_be16(s, "flags", spec->val.c_ks_res0_ver,
                spec->mask.c_ks_res0_ver, false, &first);
    format_be16(s, "proto", spec->val.protocol, spec->mask.protocol, false,
                &first);
    format_be32_hex(s, "key", spec->val.key, spec->mask.key, UINT32_MAX,
                    &first);
}

/* Formats one spec of 'size' bytes at 'p' (not necessarily aligned). */
static void
format_spec(struct ds *s, const uint8_t *p, const struct spec_hdr *hdr)
{
    struct ibv_flow_spec spec;
    uint32_t type = hdr->type & ~IBV_FLOW_SPEC_INNER;
    const char *inner = hdr->type & IBV_FLOW_SPEC_INNER ? "inner_" : "";
    size_t expected;
    const char *name;

    switch (type) {
    case IBV_FLOW_SPEC_ETH:
        name = "eth";
        expected = sizeof spec.eth;
        break;
    case IBV_FLOW_SPEC_IPV4:
        name = "ipv4";
        expected = sizeof spec.ipv4;
        break;
    case IBV_FLOW_SPEC_IPV4_EXT:
        name = "ipv4";
        expected = sizeof spec.ipv4_ext;
        break;
    case IBV_FLOW_SPEC_IPV6:
        name = "ipv6";
        expected = sizeof spec.ipv6;
        break;
    case IBV_FLOW_SPEC_TCP:
        name = "tcp";
        expected = sizeof spec.tcp_udp;
        break;
    case IBV_FLOW_SPEC_UDP:
        name = "udp";
        expected = sizeof spec.tcp_udp;
        break;
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        name = "vxlan";
        expected = sizeof spec.tunnel;
        break;
    case IBV_FLOW_SPEC_GRE:
        name = "gre";
        expected = sizeof spec.gre;
        break;
    case IBV_FLOW_SPEC_ACTION_TAG:
        name = "tag";
        expected = sizeof spec.flow_tag;
        break;
    case IBV_FLOW_SPEC_ACTION_DROP:
        name = "drop";
        expected = sizeof spec.drop;
        break;
    case IBV_FLOW_SPEC_ACTION_COUNT:
        name = "count";
        expected = sizeof spec.flow_count;
        break;
    case IBV_FLOW_SPEC_ACTION_HANDLE:
        name = "handle";
        expected = sizeof spec.handle;
        break;
    default:
        ds_put_format(s, "spec(type=%#x,size=%"PRIu16")",
                      (unsigned int) hdr->type, hdr->size);
        return;
    }

    if (hdr->size != expected) {
        ds_put_format(s, "%s%s(size=%"PRIu16"?)", inner, name, hdr->size);
        return;
    }

    memset(&spec, 0, sizeof spec);
    memcpy(&spec, p, expected);
    ds_put_format(s, "%s%s", inner, name);
    switch (type) {
    case IBV_FLOW_SPEC_ETH:
        ds_put_char(s, '(');
        format_eth(s, &spec.eth);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_IPV4:
        ds_put_char(s, '(');
        format_ipv4(s, &spec.ipv4);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_IPV4_EXT:
        ds_put_char(s, '(');
        format_ipv4_ext(s, &spec.ipv4_ext);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_IPV6:
        ds_put_char(s, '(');
        format_ipv6(s, &spec.ipv6);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_TCP:
    case IBV_FLOW_SPEC_UDP:
        ds_put_char(s, '(');
        format_tcp_udp(s, &spec.tcp_udp);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_VXLAN_TUNNEL:
        ds_put_char(s, '(');
        format_tunnel(s, &spec.tunnel);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_GRE:
        ds_put_char(s, '(');
        format_gre(s, &spec.gre);
        ds_put_char(s, ')');
        break;
    case IBV_FLOW_SPEC_ACTION_TAG:
        ds_put_format(s, "(%"PRIu32")", spec.flow_tag.tag_id);
        break;
    default:
        /* drop, count, handle: the pointers mean nothing to a reader. */
        break;
    }
}

void
hw_encode_format(const struct ibv_flow_attr *attr, struct ds *s)
{
    const uint8_t *base = (const uint8_t *) attr;
    size_t ofs = sizeof *attr;

    ds_put_format(s, "prio=%"PRIu16, attr->priority);
    if (attr->type != IBV_FLOW_ATTR_NORMAL) {
        ds_put_format(s, " type=%d", (int) attr->type);
    }
    if (attr->flags) {
        ds_put_format(s, " flags=%#"PRIx32, attr->flags);
    }
    if (attr->size < sizeof *attr) {
        ds_put_format(s, " size=%"PRIu16"?", attr->size);
        return;
    }

    /* Walk the specs as libibverbs does, by their 'size', within the
     * 'size' the header claims. */
    for (int i = 0; i < attr->num_of_specs; i++) {
        struct spec_hdr hdr;

        if (ofs + sizeof hdr > attr->size) {
            ds_put_cstr(s, " truncated");
            return;
        }
        memcpy(&hdr, base + ofs, sizeof hdr);
        if (hdr.size < sizeof hdr || ofs + hdr.size > attr->size) {
            ds_put_format(s, " bad-spec(type=%#x,size=%"PRIu16")",
                          (unsigned int) hdr.type, hdr.size);
            return;
        }
        ds_put_char(s, ' ');
        format_spec(s, base + ofs, &hdr);
        ofs += hdr.size;
    }
    if (ofs != attr->size) {
        ds_put_format(s, " trailing=%"PRIuSIZE, attr->size - ofs);
    }
}
