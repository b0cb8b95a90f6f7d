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
#include "hw-translate.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "dp-packet.h"
#include "flow.h"
#include "hash.h"
#include "hw-dev.h"
#include "hw-rule.h"
#include "hw-translate-private.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "packets.h"
#include "util.h"

/* The field table below names every member of struct flow.  A new member
 * would be refused as "field at offset N" until it is added here. */
BUILD_ASSERT_DECL(FLOW_WC_SEQ == 42);

/* One flow being translated. */
struct xlate_ctx {
    const struct flow *key;         /* The match's values. */
    const struct flow *orig_mask;   /* The match's mask, untouched. */
    struct flow mask;               /* Mask bits not translated yet. */
    struct hw_rule *rule;           /* The rule being built. */
    struct hw_headers *outer;       /* Where the packet's own headers go:
                                     * the rule's outer headers, or its
                                     * inner ones for a vport flow. */
    bool inner;                     /* 'outer' is the rule's 'inner'. */
    struct ds *reason;              /* Why the flow was refused. */

    /* If 'nz_valid', the 64-bit words of 'orig_mask' that are not zero:
     * every other word of 'mask' is zero too (translating only clears mask
     * bits), so checks of those words can be skipped. */
    struct flowmap nz;
    bool nz_valid;

    bool has_nw_proto;              /* 'nw_proto' is matched exactly. */
    uint8_t nw_proto;

    bool pipeline;                  /* hw_translate_params' 'pipeline'. */
};

int
hw_translate_fail(struct ds *reason, int error, const char *format, ...)
{
    if (reason) {
        va_list args;

        va_start(args, format);
        ds_put_format_valist(reason, format, args);
        va_end(args);
    }
    return error;
}

#define REFUSE(CTX, ...) \
    hw_translate_fail((CTX)->reason, EOPNOTSUPP, __VA_ARGS__)

/* Clears the mask of the 'size' bytes at 'ofs' of struct flow and returns
 * true if the flow accepts zero there (every masked bit of the value is
 * zero); otherwise leaves the mask for the final check and returns
 * false. */
static bool
consume_if_zero__(struct xlate_ctx *ctx, size_t ofs, size_t size)
{
    const uint8_t *key = (const uint8_t *) ctx->key + ofs;
    uint8_t *mask = (uint8_t *) &ctx->mask + ofs;
    uint64_t any = 0;
    size_t i = 0;

    /* Eight bytes at a time: this runs over large, mostly unmasked members
     * (the tunnel is 344 bytes) for every flow, and clears only a mask that
     * has bits to clear. */
    for (; i + sizeof(uint64_t) <= size; i += sizeof(uint64_t)) {
        uint64_t k, m;

        memcpy(&k, key + i, sizeof k);
        memcpy(&m, mask + i, sizeof m);
        if (k & m) {
            return false;
        }
        any |= m;
    }
    for (; i < size; i++) {
        if (key[i] & mask[i]) {
            return false;
        }
        any |= mask[i];
    }
    if (any) {
        memset(mask, 0, size);
    }
    return true;
}

/* The same, inline so that for the usual member, which the flow does not
 * match at all, it is a test of the words' bits in 'ctx->nz'. */
static inline bool
consume_if_zero(struct xlate_ctx *ctx, size_t ofs, size_t size)
{
    if (ctx->nz_valid) {
        size_t first = ofs / sizeof(uint64_t);
        size_t last = (ofs + size - 1) / sizeof(uint64_t);

        BUILD_ASSERT(sizeof(struct flow_tnl) < MAP_T_BITS * 8);
        if (!flowmap_are_set(&ctx->nz, first, last - first + 1)) {
            return true;
        }
    }
    return consume_if_zero__(ctx, ofs, size);
}

#define CONSUME_IF_ZERO(CTX, MEMBER)                                    \
    consume_if_zero(CTX, offsetof(struct flow, MEMBER),                 \
                    MEMBER_SIZEOF(struct flow, MEMBER))

static struct eth_addr
eth_addr_bitand(const struct eth_addr a, const struct eth_addr b)
{
    struct eth_addr dst;

    for (size_t i = 0; i < ARRAY_SIZE(dst.be16); i++) {
        dst.be16[i] = a.be16[i] & b.be16[i];
    }
    return dst;
}

/* Metadata.
 *
 * A hardware rule only ever sees packets as they arrive on its own port,
 * before any recirculation, and dpif-netdev only looks at the mark of such
 * packets (recirc_id 0).  The datapath gives them zero metadata: no
 * tunnel, recirc_id 0, pkt_mark 0, skb_priority 0, dp_hash 0, and no
 * conntrack state.  A flow that requires those fields to be zero (as in
 * "ct_state(-trk)") therefore matches every such packet on them and the
 * match is consumed; a flow that wants a non-zero value can never match a
 * packet fresh from the port, and it is refused by the final check, which
 * names the field. */
static int
xlate_metadata(struct xlate_ctx *ctx, const struct hw_translate_params *p)
{
    const struct flow *key = ctx->key;
    struct flow *mask = &ctx->mask;
    uint32_t port_mask = odp_to_u32(mask->in_port.odp_port);
    uint32_t port = odp_to_u32(key->in_port.odp_port) & port_mask;

    /* The rule is installed on the device of port 'p->in_port', so it
     * already matches nothing else: the flow's in_port only has to accept
     * that port. */
    if (port != (odp_to_u32(p->in_port) & port_mask)) {
        return REFUSE(ctx, "match on in_port %"PRIu32" not supported", port);
    }
    memset(&mask->in_port, 0, sizeof mask->in_port);

    if (key->recirc_id & mask->recirc_id) {
        /* Consumes the conntrack fields too. */
        int error = hw_translate_ct_match(key, mask, p, ctx->rule,
                                          ctx->reason);
        if (error) {
            return error;
        }
    }
    mask->recirc_id = 0;

    /* The port is an Ethernet port.  Behind an L3 GRE tunnel the packets
     * are IPv4 or IPv6 without Ethernet header (xlate_tunnel() checks). */
    if (p->vport == HW_TUNNEL_GRE && mask->packet_type == OVS_BE32_MAX
        && (key->packet_type == htonl(PT_IPV4)
            || key->packet_type == htonl(PT_IPV6))) {
        /* Consumed by xlate_tunnel(). */
    } else if ((key->packet_type ^ htonl(PT_ETH)) & mask->packet_type) {
        return REFUSE(ctx, "match on packet_type %#"PRIx32" not supported",
                      ntohl(key->packet_type & mask->packet_type));
    } else {
        mask->packet_type = 0;
    }

    /* 'metadata.tab' says which Geneve option table the flow uses; it is
     * not a packet field. */
    mask->tunnel.metadata.tab = NULL;
    if (p->vport == HW_TUNNEL_NONE) {
        CONSUME_IF_ZERO(ctx, tunnel);
    }

    CONSUME_IF_ZERO(ctx, skb_priority);
    CONSUME_IF_ZERO(ctx, pkt_mark);
    CONSUME_IF_ZERO(ctx, dp_hash);
    CONSUME_IF_ZERO(ctx, ct_state);
    CONSUME_IF_ZERO(ctx, ct_nw_proto);
    CONSUME_IF_ZERO(ctx, ct_zone);
    CONSUME_IF_ZERO(ctx, ct_mark);
    CONSUME_IF_ZERO(ctx, ct_label);
    CONSUME_IF_ZERO(ctx, ct_nw_src);
    CONSUME_IF_ZERO(ctx, ct_nw_dst);
    CONSUME_IF_ZERO(ctx, ct_ipv6_src);
    CONSUME_IF_ZERO(ctx, ct_ipv6_dst);
    CONSUME_IF_ZERO(ctx, ct_tp_src);
    CONSUME_IF_ZERO(ctx, ct_tp_dst);
    return 0;
}

/* Tunnel vport flows.
 *
 * A flow put on a tunnel vport matches the tunnel metadata the software
 * tnl_pop extracted ("tunnel(tun_id=..,src=..,dst=..,flags(..))") and the
 * inner packet.  On the physical port its packets arrive by it becomes one
 * rule: the outer IP addresses and TOS, the UDP port (VXLAN) and the VNI or
 * GRE key, a decap, and the inner headers, tagged with the flow's mark.
 * The packets it takes arrive in software decapsulated, and
 * hw_miss_packet_recover() gives them back the metadata recorded for the
 * mark (hw_translate_tunnel_restore()).  That is only right if every packet
 * the rule takes has exactly that metadata, so every tunnel field the flow
 * matches must be matched exactly, and fields no verbs spec can match
 * (outer TTL, UDP source port, options) must not be matched at all.
 *
 * Flags.  The NIC sees neither the outer DF bit nor whether a VXLAN packet
 * carried a UDP checksum nor (through verbs) the GRE K bit:
 *   - DF is consumed: OpenFlow cannot match it, so the flows of both values
 *     have the same actions; the packet gets the flow's value back;
 *   - "+csum" is refused: the software verifies the outer checksum of such
 *     packets and drops bad ones, the NIC would not.  "-csum" is consumed,
 *     so a "-csum" rule also decapsulates packets that carry a checksum
 *     (without verifying it), as a NIC does;
 *   - the key flag is consumed: VXLAN always has it; a GRE flow's tun_id is
 *     matched as the GRE key (mlx5 reads a missing key as 0, which is what
 *     OVS's port lookup, keyed on tun_id only, does too);
 *   - "+oam" is refused.
 * With the mlx5 matcher (the pipeline of tables), "+csum" is taken
 * where the device has the checksum-ok bits: the rule then takes only the
 * packets whose outer checksums the device found right (the L4 one, and
 * the IPv4 header's), and the others go to software, which checks them.
 * Geneve, which only the mlx5 matcher has, matches the O bit exactly
 * (its OAM flag) and its options (xlate_geneve_opts()). */
static int xlate_geneve_opts(struct xlate_ctx *,
                             const struct hw_translate_params *);

static int
xlate_tunnel(struct xlate_ctx *ctx, const struct hw_translate_params *p)
{
    const struct flow_tnl *key = &ctx->key->tunnel;
    struct flow_tnl *mask = &ctx->mask.tunnel;
    struct hw_rule *rule = ctx->rule;
    struct hw_headers *outer = &rule->outer;
    bool l3 = (ctx->orig_mask->packet_type
               && ctx->key->packet_type != htonl(PT_ETH));
    uint16_t flags = key->flags & mask->flags;
    uint64_t tun_id = ntohll(key->tun_id & mask->tun_id);

    rule->tunnel = p->vport;
    if (p->vport == HW_TUNNEL_GENEVE) {
        if (!ctx->pipeline) {
            return REFUSE(ctx, "Geneve match needs the device's pipeline of "
                          "tables: verbs has no Geneve spec");
        } else if (!(p->parse & HW_DR_PARSE_GENEVE)) {
            return REFUSE(ctx, "the device's parser does not recognise "
                          "Geneve");
        }
    }

    /* Outer addresses. */
    if (mask->ip_dst) {
        if (mask->ip_dst != OVS_BE32_MAX) {
            return REFUSE(ctx, "partial match on tun_dst not supported");
        } else if (mask->ip_src != OVS_BE32_MAX) {
            return REFUSE(ctx, "%s match on tun_src not supported",
                          mask->ip_src ? "partial" : "missing");
        }
        outer->present |= HW_HDR_IPV4;
        outer->ipv4.src = key->ip_src;
        outer->ipv4_mask.src = OVS_BE32_MAX;
        outer->ipv4.dst = key->ip_dst;
        outer->ipv4_mask.dst = OVS_BE32_MAX;
        mask->ip_src = mask->ip_dst = htonl(0);
    } else if (!ipv6_mask_is_any(&mask->ipv6_dst)) {
        if (!ipv6_mask_is_exact(&mask->ipv6_dst)) {
            return REFUSE(ctx, "partial match on tun_ipv6_dst not supported");
        } else if (!ipv6_mask_is_exact(&mask->ipv6_src)) {
            return REFUSE(ctx, "%s match on tun_ipv6_src not supported",
                          ipv6_mask_is_any(&mask->ipv6_src)
                          ? "missing" : "partial");
        }
        outer->present |= HW_HDR_IPV6;
        outer->ipv6.src = key->ipv6_src;
        outer->ipv6_mask.src = in6addr_exact;
        outer->ipv6.dst = key->ipv6_dst;
        outer->ipv6_mask.dst = in6addr_exact;
        memset(&mask->ipv6_src, 0, sizeof mask->ipv6_src);
        memset(&mask->ipv6_dst, 0, sizeof mask->ipv6_dst);
    } else {
        return REFUSE(ctx, "vport flow without a tunnel destination");
    }

    /* Outer TOS: IPv4 TOS or IPv6 traffic class. */
    if (mask->ip_tos == UINT8_MAX) {
        if (outer->present & HW_HDR_IPV4) {
            outer->ipv4.tos = key->ip_tos;
            outer->ipv4_mask.tos = UINT8_MAX;
        } else {
            outer->ipv6.tclass = key->ip_tos;
            outer->ipv6_mask.tclass = UINT8_MAX;
        }
        mask->ip_tos = 0;
    } else if (mask->ip_tos) {
        return REFUSE(ctx, "partial match on tun_tos not supported");
    }
    /* ip_ttl, tp_src: verbs has no field for the outer TTL, and the UDP
     * source port cannot be restored; left for the final check. */

    /* Tunnel id, flags and the outer transport. */
    if (mask->tun_id != OVS_BE64_MAX) {
        return REFUSE(ctx, "%s match on tun_id not supported",
                      mask->tun_id ? "partial" : "missing");
    }
    if (p->vport == HW_TUNNEL_GENEVE) {
        if (mask->flags & FLOW_TNL_F_OAM) {
            rule->tnl.geneve_oam = !!(flags & FLOW_TNL_F_OAM);
            rule->tnl_mask.geneve_oam = 1;
        }
    } else if (flags & FLOW_TNL_F_OAM) {
        return REFUSE(ctx, "match on tunnel OAM flag not supported");
    }
    if (!(flags & FLOW_TNL_F_CSUM)) {
        /* Consumed, see above. */
    } else if (ctx->pipeline && p->parse & HW_DR_PARSE_CSUM_OK
               && (p->vport == HW_TUNNEL_VXLAN
                   || p->vport == HW_TUNNEL_GENEVE)) {
        /* The L4 bits cover the outer UDP checksum, not GRE's. */
        uint8_t ok = HW_CSUM_OK_L4 | HW_CSUM_OK_L4_CSUM;

        if (outer->present & HW_HDR_IPV4) {
            ok |= HW_CSUM_OK_L3 | HW_CSUM_OK_IPV4_CSUM;
        }
        outer->ext.csum_ok = ok;
        outer->ext_mask.csum_ok = ok;
    } else {
        return REFUSE(ctx, "tunnel with checksum not supported: the NIC "
                      "would not verify it");
    }
    mask->flags &= ~(FLOW_TNL_F_OAM | FLOW_TNL_F_DONT_FRAGMENT
                     | FLOW_TNL_F_CSUM | FLOW_TNL_F_KEY);

    if (p->vport == HW_TUNNEL_VXLAN || p->vport == HW_TUNNEL_GENEVE) {
        bool geneve = p->vport == HW_TUNNEL_GENEVE;
        const char *name = geneve ? "Geneve" : "VXLAN";

        if (l3) {
            return REFUSE(ctx, "match on packet_type %#"PRIx32" behind "
                          "%s not supported", ntohl(ctx->key->packet_type),
                          name);
        } else if (tun_id >= 1u << 24) {
            return REFUSE(ctx, "tun_id %#"PRIx64" is not a VNI", tun_id);
        } else if (!p->vport_udp_port) {
            return REFUSE(ctx, "%s vport without UDP port", name);
        }
        /* VNI in the low 24 bits, big-endian (hw-apis.md 1.4). */
        rule->tnl.vni = htonl(tun_id);
        rule->tnl_mask.vni = htonl((1u << 24) - 1);
        outer->present |= HW_HDR_UDP;
        outer->l4.dst = p->vport_udp_port;
        outer->l4_mask.dst = OVS_BE16_MAX;
        if ((key->tp_dst ^ p->vport_udp_port) & mask->tp_dst) {
            return REFUSE(ctx, "match on tun_tp_dst %"PRIu16" not supported",
                          ntohs(key->tp_dst & mask->tp_dst));
        }
        mask->tp_dst = htons(0);
        if (geneve) {
            int error;

            /* The software pop drops every other protocol. */
            rule->tnl.geneve_protocol = htons(ETH_TYPE_TEB);
            rule->tnl_mask.geneve_protocol = OVS_BE16_MAX;
            error = xlate_geneve_opts(ctx, p);
            if (error) {
                return error;
            }
        }
    } else if (p->vport == HW_TUNNEL_GRE) {
        ovs_be16 inner_type = htons(ETH_TYPE_TEB);

        if (tun_id > UINT32_MAX) {
            return REFUSE(ctx, "tun_id %#"PRIx64" is not a GRE key", tun_id);
        }
        if (l3) {
            inner_type = htons(pt_ns_type(ctx->key->packet_type));
            ctx->mask.packet_type = htonl(0);
        }
        rule->tnl.gre_protocol = inner_type;
        rule->tnl_mask.gre_protocol = OVS_BE16_MAX;
        rule->tnl.gre_key = htonl(tun_id);
        rule->tnl_mask.gre_key = OVS_BE32_MAX;
        CONSUME_IF_ZERO(ctx, tunnel.tp_dst);
    } else {
        return REFUSE(ctx, "vport of unknown tunnel type");
    }
    mask->tun_id = htonll(0);

    /* Options and the fields of other tunnel types: refused by the final
     * check, which names them, unless the flow wants them zero. */
    CONSUME_IF_ZERO(ctx, tunnel.gbp_id);
    CONSUME_IF_ZERO(ctx, tunnel.gbp_flags);
    CONSUME_IF_ZERO(ctx, tunnel.erspan_ver);
    CONSUME_IF_ZERO(ctx, tunnel.erspan_idx);
    CONSUME_IF_ZERO(ctx, tunnel.erspan_dir);
    CONSUME_IF_ZERO(ctx, tunnel.erspan_hwid);
    CONSUME_IF_ZERO(ctx, tunnel.gtpu_flags);
    CONSUME_IF_ZERO(ctx, tunnel.gtpu_msgtype);
    CONSUME_IF_ZERO(ctx, tunnel.metadata);

    /* The decap.  An L3 decap needs the Ethernet header it puts in front of
     * the inner packet: recovery removes it again. */
    if (l3) {
        struct eth_header eth;

        memset(&eth, 0, sizeof eth);
        eth.eth_type = rule->tnl.gre_protocol;
        rule->reformat = HW_REFORMAT_L3_DECAP;
        memcpy(rule->reformat_data, &eth, sizeof eth);
        rule->reformat_len = sizeof eth;
    } else {
        rule->reformat = HW_REFORMAT_L2_DECAP;
        rule->reformat_len = 0;
    }
    return 0;
}

/* Geneve options.
 *
 * dpif-netdev keeps a Geneve packet's options as they were on the wire
 * (FLOW_TNL_F_UDPIF) and a flow matches their whole length exactly and
 * each option's class, type and length exactly, its data under a mask.
 * The device matches the options' length and the data of one option of 4
 * bytes, the one its parser is set to (struct hw_geneve_opt); OVN sends
 * exactly one such option.  So a flow is taken with no option or with
 * one 4-byte option.  Its rule matches the option's data in full, what the
 * flow leaves unmasked as 0: the packets it takes then carry exactly the
 * options hw_translate_tunnel_restore() gives back, and the others go to
 * software. */
static int
xlate_geneve_opts(struct xlate_ctx *ctx, const struct hw_translate_params *p)
{
    const struct flow_tnl *key = &ctx->key->tunnel;
    struct flow_tnl *mask = &ctx->mask.tunnel;
    struct hw_rule *rule = ctx->rule;
    const struct geneve_opt *opt = key->metadata.opts.gnv;
    const struct geneve_opt *opt_mask = mask->metadata.opts.gnv;
    size_t len = key->metadata.present.len;
    ovs_be32 data, data_mask;
    size_t n_opts = 0;

    if (!(key->flags & FLOW_TNL_F_UDPIF)) {
        return REFUSE(ctx, "Geneve options not in wire format");
    } else if (mask->metadata.present.len != UINT8_MAX) {
        return REFUSE(ctx, "Geneve options matched in part: the NIC could "
                      "not restore them");
    }
    for (size_t ofs = 0; ofs < len; n_opts++) {
        const struct geneve_opt *o = (const void *) ((const uint8_t *) opt
                                                     + ofs);

        ofs += sizeof *o + o->length * 4;
    }

    rule->tnl_mask.geneve_opt_len = 0x3f;
    if (is_all_zeros(opt_mask, len)) {
        /* No OpenFlow flow looks at the options: the megaflow matches
         * their length only, and so does the rule, whatever they are.
         * hw_translate_tunnel_restore() gives back that many zero bytes
         * (options of class 0, type 0, no data: no flow matches them). */
        if (len > HW_GENEVE_MAX_OPTS) {
            return REFUSE(ctx, "%"PRIuSIZE" bytes of Geneve options: "
                          "recovery gives back %d at most", len,
                          HW_GENEVE_MAX_OPTS);
        }
    } else if (n_opts > 1) {
        return REFUSE(ctx, "%"PRIuSIZE" Geneve options: the device's parser "
                      "matches one", n_opts);
    } else if (n_opts == 1) {
        if (len != sizeof *opt + 4) {
            return REFUSE(ctx, "Geneve option of %"PRIuSIZE" bytes: the "
                          "device's parser matches 4", len - sizeof *opt);
        } else if (opt_mask->opt_class != OVS_BE16_MAX
                   || opt_mask->type != UINT8_MAX
                   || opt_mask->length != 0x1f) {
            return REFUSE(ctx, "Geneve option class, type or length "
                          "matched in part");
        }
        memcpy(&data, opt + 1, sizeof data);
        memcpy(&data_mask, opt_mask + 1, sizeof data_mask);
        if (!data_mask) {
            return REFUSE(ctx, "Geneve option class %#"PRIx16" type %#"PRIx8
                          " data not matched: the NIC could not restore it",
                          ntohs(opt->opt_class), opt->type);
        } else if (!(p->parse & HW_DR_PARSE_GENEVE_OPT)) {
            return REFUSE(ctx, "Geneve option class %#"PRIx16" type %#"PRIx8
                          ": the device's parser matches no Geneve option",
                          ntohs(opt->opt_class), opt->type);
        }
        rule->geneve_opt.opt_class = opt->opt_class;
        rule->geneve_opt.type = opt->type;
        rule->geneve_opt.len = 1;
        rule->tnl.geneve_opt_exist = 1;
        rule->tnl_mask.geneve_opt_exist = 1;
        rule->tnl.geneve_opt_data = data & data_mask;
        rule->tnl_mask.geneve_opt_data = OVS_BE32_MAX;
    }
    rule->tnl.geneve_opt_len = len / 4;

    mask->flags &= ~FLOW_TNL_F_UDPIF;
    memset(&mask->metadata, 0, sizeof mask->metadata);
    return 0;
}

/* The first VLAN header.
 *
 * OVS keeps the TPID and TCI of the outermost tag in vlans[0] and sets the
 * TCI's CFI bit to say "a tag is present" (an untagged packet has TCI 0,
 * and the packet's real DEI bit is never visible in a flow).  The verbs ETH
 * spec's vlan_tag is the packet's real TCI, and a non-zero mask on it also
 * requires a C-VLAN (0x8100) tag (hw-apis.md 1.4). */
static int
xlate_vlan(struct xlate_ctx *ctx)
{
    struct hw_headers *outer = ctx->outer;
    struct flow *mask = &ctx->mask;
    uint16_t tci_mask = ntohs(mask->vlans[0].tci);
    uint16_t tci = ntohs(ctx->key->vlans[0].tci) & tci_mask;
    ovs_be16 tpid_mask = mask->vlans[0].tpid;
    ovs_be16 tpid = ctx->key->vlans[0].tpid & tpid_mask;
    bool untagged_ok = !tci && !tpid;
    bool ctag_ok = (htons(ETH_TYPE_VLAN_8021Q) & tpid_mask) == tpid
                   && (!(tci_mask & VLAN_CFI) || tci & VLAN_CFI);

    if (untagged_ok) {
        /* The flow accepts untagged packets ("vlan_tci=0/0x1000", the usual
         * datapath match for them, or no VLAN match at all).  Verbs cannot
         * say "untagged only" (a zero vlan_tag mask matches tagged packets
         * too), so the rule gets no TCI match and lands in the untagged
         * band.  That is only safe because the plugin installs a VLAN guard
         * rule at HW_PRIO_VLAN_GUARD, ahead of the untagged band, which
         * sends every tagged packet not taken by a tagged rule to the miss
         * path: an untagged-band rule never sees a tagged packet.  When the
         * flow would also take tagged packets, the hardware rule is merely
         * narrower than the flow, and software handles the rest. */
    } else if (ctag_ok && ctx->inner) {
        /* Tunnel rules sit behind the inner VLAN guard (hw-rule.h), which
         * sends every packet with a tagged inner frame to the miss path. */
        return REFUSE(ctx, "match on inner vlan_tci %#06"PRIx16"/%#06"PRIx16
                      " not supported", tci, tci_mask);
    } else if (ctag_ok) {
        /* A tag is required.  Match the VID and PCP bits the flow matches;
         * the CFI bit is OVS's "tag present" and is implied by any non-zero
         * vlan_tag mask.  If the flow matches neither VID nor PCP, some TCI
         * bit must still be masked to require the tag: use the packet's DEI
         * bit with value 0.  Tagged packets with DEI set then miss to
         * software, which is safe. */
        uint16_t hw_mask = tci_mask & (VLAN_VID_MASK | VLAN_PCP_MASK);
        uint16_t hw_tci = tci & hw_mask;

        if (!hw_mask) {
            hw_mask = VLAN_CFI;
            hw_tci = 0;
        }
        outer->eth.tci = htons(hw_tci);
        outer->eth_mask.tci = htons(hw_mask);
    } else if (tpid != (htons(ETH_TYPE_VLAN_8021Q) & tpid_mask)) {
        /* verbs matches C-VLAN tags only. */
        return REFUSE(ctx, "match on vlan tpid %#06"PRIx16" not supported",
                      ntohs(tpid));
    } else {
        return REFUSE(ctx, "match on vlan_tci %#06"PRIx16"/%#06"PRIx16
                      " not supported", tci, tci_mask);
    }
    memset(&mask->vlans[0], 0, sizeof mask->vlans[0]);
    return 0;
}

static int
xlate_dl_type(struct xlate_ctx *ctx, ovs_be16 *dl_type)
{
    struct hw_headers *outer = ctx->outer;
    struct flow *mask = &ctx->mask;
    ovs_be16 type = ctx->key->dl_type & mask->dl_type;

    *dl_type = htons(0);
    if (!mask->dl_type) {
        return 0;
    } else if (mask->dl_type != OVS_BE16_MAX) {
        return REFUSE(ctx, "partial match on dl_type not supported");
    } else if (ntohs(type) < ETH_TYPE_MIN) {
        /* An 802.3 frame (OVS says FLOW_DL_TYPE_NONE): the hardware would
         * take its length field for an ethertype. */
        return REFUSE(ctx, "match on dl_type %#06"PRIx16" not supported",
                      ntohs(type));
    } else if (eth_type_vlan(type)) {
        /* OVS stopped parsing at its VLAN limit; the hardware's ethertype
         * is the one after the last tag, so the two disagree. */
        return REFUSE(ctx, "match on dl_type %#06"PRIx16" not supported",
                      ntohs(type));
    }
    mask->dl_type = htons(0);
    *dl_type = type;

    if (type != htons(ETH_TYPE_IP) && type != htons(ETH_TYPE_IPV6)) {
        outer->eth.type = type;
        outer->eth_mask.type = OVS_BE16_MAX;
    }
    /* Otherwise the IP spec implies the ethertype (ip_version, or
     * ethertype on devices without that capability); verbs would insist on
     * a full mask and the same value if the ETH spec carried it too
     * (is_valid_ethertype), so leave it out. */
    return 0;
}

static int
xlate_l2(struct xlate_ctx *ctx, ovs_be16 *dl_type)
{
    struct hw_headers *outer = ctx->outer;
    const struct flow *key = ctx->key;
    struct flow *mask = &ctx->mask;
    int error;

    outer->eth_mask.dst = mask->dl_dst;
    outer->eth.dst = eth_addr_bitand(key->dl_dst, mask->dl_dst);
    outer->eth_mask.src = mask->dl_src;
    outer->eth.src = eth_addr_bitand(key->dl_src, mask->dl_src);
    memset(&mask->dl_dst, 0, sizeof mask->dl_dst);
    memset(&mask->dl_src, 0, sizeof mask->dl_src);

    error = xlate_vlan(ctx);
    if (!error) {
        error = xlate_dl_type(ctx, dl_type);
    }
    if (error) {
        return error;
    }

    if (!eth_addr_is_zero(outer->eth_mask.dst)
        || !eth_addr_is_zero(outer->eth_mask.src)
        || outer->eth_mask.type || outer->eth_mask.tci) {
        outer->present |= HW_HDR_ETH;
    }
    return 0;
}

/* Consumes an exact match on nw_proto and remembers it for L4. */
static int
xlate_nw_proto(struct xlate_ctx *ctx, uint8_t *proto, uint8_t *proto_mask)
{
    struct flow *mask = &ctx->mask;

    if (!mask->nw_proto) {
        return 0;
    } else if (mask->nw_proto != UINT8_MAX) {
        return REFUSE(ctx, "partial match on nw_proto not supported");
    }
    mask->nw_proto = 0;
    ctx->has_nw_proto = true;
    ctx->nw_proto = ctx->key->nw_proto;
    *proto = ctx->nw_proto;
    *proto_mask = UINT8_MAX;
    return 0;
}

/* Fragments.  verbs cannot match the fragment state (a non-zero IPv4_EXT
 * 'flags' mask is EOPNOTSUPP, and IPv6 has no such field), so a match on
 * "not a fragment", which dpif-netdev puts in almost every IP flow, is
 * consumed: the hardware rule then also matches fragments of the same
 * addresses.  Later fragments carry no L4 header, so the hardware (and the
 * NIC model) never matches them against a TCP/UDP spec; only first
 * fragments and rules without an L4 spec are affected.  A match on "first"
 * or "later" fragment is left for the final check, which refuses it as
 * "nw_frag". */
static void
xlate_nw_frag(struct xlate_ctx *ctx)
{
    struct flow *mask = &ctx->mask;
    bool is_frag = ctx->key->nw_frag & FLOW_NW_FRAG_ANY;

    if (!(mask->nw_frag & FLOW_NW_FRAG_ANY)) {
        return;
    }
    if (ctx->pipeline
        && (!is_frag || !(mask->nw_frag & FLOW_NW_FRAG_LATER))) {
        /* The mlx5 matcher's one bit says "a fragment, first or later":
         * enough for "not a fragment" and for "any fragment", not for
         * "first" or "later". */
        ctx->outer->ext_mask.frag = 1;
        ctx->outer->ext.frag = is_frag;
        mask->nw_frag = 0;
    } else if (!is_frag) {
        mask->nw_frag = 0;
    }
}

/* TTL or hop limit: only the mlx5 matcher has it (a non-zero ttl mask in a
 * verbs spec is EOPNOTSUPP on mlx5); without the pipeline it is left for
 * the final check. */
static void
xlate_nw_ttl(struct xlate_ctx *ctx)
{
    struct flow *mask = &ctx->mask;

    if (ctx->pipeline && mask->nw_ttl) {
        ctx->outer->ext_mask.ttl = mask->nw_ttl;
        ctx->outer->ext.ttl = ctx->key->nw_ttl & mask->nw_ttl;
        mask->nw_ttl = 0;
    }
}

/* ICMP and ICMPv6 type and code (OVS keeps them in tp_src and tp_dst): the
 * mlx5 matcher has one set of ICMP fields, for the outer headers. */
static void
xlate_icmp(struct xlate_ctx *ctx)
{
    struct flow *mask = &ctx->mask;
    const struct flow *key = ctx->key;
    bool icmp = (ctx->outer->present & HW_HDR_IPV4
                 ? ctx->nw_proto == IPPROTO_ICMP
                 : ctx->nw_proto == IPPROTO_ICMPV6);

    /* OVS keeps the 8-bit type and code in 16-bit fields under 16-bit
     * masks; the upper byte of a value is always zero. */
    if (!ctx->pipeline || ctx->inner || !ctx->has_nw_proto || !icmp
        || (ntohs(key->tp_src & mask->tp_src)
            | ntohs(key->tp_dst & mask->tp_dst)) > UINT8_MAX) {
        return;
    }
    ctx->outer->ext_mask.icmp_type = ntohs(mask->tp_src) & UINT8_MAX;
    ctx->outer->ext.icmp_type = ntohs(key->tp_src & mask->tp_src);
    ctx->outer->ext_mask.icmp_code = ntohs(mask->tp_dst) & UINT8_MAX;
    ctx->outer->ext.icmp_code = ntohs(key->tp_dst & mask->tp_dst);
    mask->tp_src = htons(0);
    mask->tp_dst = htons(0);
}

/* TCP and UDP.  The L4 spec implies ip_protocol 6 or 17 itself; carrying
 * the protocol in the IP spec as well would set it twice (verbs' set_proto
 * refuses that with EINVAL), so the caller's IP spec protocol is cleared
 * through 'proto' and 'proto_mask'. */
static void
xlate_l4(struct xlate_ctx *ctx, uint8_t *proto, uint8_t *proto_mask)
{
    struct hw_headers *outer = ctx->outer;
    const struct flow *key = ctx->key;
    struct flow *mask = &ctx->mask;

    if (!ctx->has_nw_proto
        || (ctx->nw_proto != IPPROTO_TCP && ctx->nw_proto != IPPROTO_UDP)) {
        /* Other protocols stay in the IP spec; any L4 field they match is
         * left for the final check. */
        return;
    }

    outer->present |= ctx->nw_proto == IPPROTO_TCP ? HW_HDR_TCP : HW_HDR_UDP;
    outer->l4_mask.src = mask->tp_src;
    outer->l4.src = key->tp_src & mask->tp_src;
    outer->l4_mask.dst = mask->tp_dst;
    outer->l4.dst = key->tp_dst & mask->tp_dst;
    mask->tp_src = htons(0);
    mask->tp_dst = htons(0);
    /* tcp_flags: verbs has no field for them, the mlx5 matcher has the low
     * 9; anything else is left for the final check. */
    if (ctx->pipeline && ctx->nw_proto == IPPROTO_TCP && mask->tcp_flags
        && !(mask->tcp_flags & ~htons(0x1ff))) {
        outer->ext_mask.tcp_flags = mask->tcp_flags;
        outer->ext.tcp_flags = key->tcp_flags & mask->tcp_flags;
        mask->tcp_flags = htons(0);
    }

    *proto = 0;
    *proto_mask = 0;
}

static int
xlate_ipv4(struct xlate_ctx *ctx)
{
    struct hw_headers *outer = ctx->outer;
    struct hw_ipv4_key *ipv4 = &outer->ipv4, *ipv4_mask = &outer->ipv4_mask;
    const struct flow *key = ctx->key;
    struct flow *mask = &ctx->mask;
    int error;

    outer->present |= HW_HDR_IPV4;
    ipv4_mask->src = mask->nw_src;
    ipv4->src = key->nw_src & mask->nw_src;
    ipv4_mask->dst = mask->nw_dst;
    ipv4->dst = key->nw_dst & mask->nw_dst;
    ipv4_mask->tos = mask->nw_tos;
    ipv4->tos = key->nw_tos & mask->nw_tos;
    mask->nw_src = htonl(0);
    mask->nw_dst = htonl(0);
    mask->nw_tos = 0;
    xlate_nw_ttl(ctx);

    error = xlate_nw_proto(ctx, &ipv4->proto, &ipv4_mask->proto);
    if (error) {
        return error;
    }
    xlate_nw_frag(ctx);
    xlate_l4(ctx, &ipv4->proto, &ipv4_mask->proto);
    xlate_icmp(ctx);
    return 0;
}

static int
xlate_ipv6(struct xlate_ctx *ctx)
{
    struct hw_headers *outer = ctx->outer;
    struct hw_ipv6_key *ipv6 = &outer->ipv6, *ipv6_mask = &outer->ipv6_mask;
    const struct flow *key = ctx->key;
    struct flow *mask = &ctx->mask;
    ovs_be32 label_mask = mask->ipv6_label & htonl(IPV6_LABEL_MASK);
    int error;

    outer->present |= HW_HDR_IPV6;
    ipv6_mask->src = mask->ipv6_src;
    ipv6->src = ipv6_addr_bitand(&key->ipv6_src, &mask->ipv6_src);
    ipv6_mask->dst = mask->ipv6_dst;
    ipv6->dst = ipv6_addr_bitand(&key->ipv6_dst, &mask->ipv6_dst);
    ipv6_mask->tclass = mask->nw_tos;
    ipv6->tclass = key->nw_tos & mask->nw_tos;
    /* The flow label is 20 bits and OVS keeps the bits above them zero
     * (match_set_ipv6_label() masks all 32): those are consumed when the
     * flow wants them zero, and left for the final check otherwise (no
     * packet matches, and the kernel refuses such a label with EINVAL). */
    ipv6_mask->label = label_mask;
    ipv6->label = key->ipv6_label & label_mask;
    memset(&mask->ipv6_src, 0, sizeof mask->ipv6_src);
    memset(&mask->ipv6_dst, 0, sizeof mask->ipv6_dst);
    mask->nw_tos = 0;
    mask->ipv6_label &= ~label_mask;
    CONSUME_IF_ZERO(ctx, ipv6_label);
    xlate_nw_ttl(ctx);

    error = xlate_nw_proto(ctx, &ipv6->next_hdr, &ipv6_mask->next_hdr);
    if (error) {
        return error;
    }
    xlate_nw_frag(ctx);
    xlate_l4(ctx, &ipv6->next_hdr, &ipv6_mask->next_hdr);
    xlate_icmp(ctx);
    return 0;
}

/* What remains.
 *
 * Every member of struct flow, in order, with the name a refusal uses.  The
 * 'ctx_names' bits let the name follow the protocol, since OVS reuses some
 * fields (nw_src is the ARP SPA, tp_src the ICMP type...). */
enum {
    FN_ARP = 1 << 0,            /* An ARP field for ARP and RARP. */
    FN_PORTS = 1 << 1,          /* tp_src/tp_dst. */
    FN_ND = 1 << 2,             /* An ICMPv6 neighbour discovery field. */
    FN_IGMP = 1 << 3,           /* An IGMP field. */
};

struct flow_field_name {
    const char *name;
    uint16_t ofs;
    uint16_t len;
    uint8_t ctx_names;          /* FN_* */
};

#define FIELD(MEMBER, NAME, CTX_NAMES)                          \
    { NAME, offsetof(struct flow, MEMBER),                      \
      MEMBER_SIZEOF(struct flow, MEMBER), CTX_NAMES }

static const struct flow_field_name flow_fields[] = {
    FIELD(tunnel.ip_dst, "tun_dst", 0),
    FIELD(tunnel.ipv6_dst, "tun_ipv6_dst", 0),
    FIELD(tunnel.ip_src, "tun_src", 0),
    FIELD(tunnel.ipv6_src, "tun_ipv6_src", 0),
    FIELD(tunnel.tun_id, "tun_id", 0),
    FIELD(tunnel.flags, "tun_flags", 0),
    FIELD(tunnel.ip_tos, "tun_tos", 0),
    FIELD(tunnel.ip_ttl, "tun_ttl", 0),
    FIELD(tunnel.tp_src, "tun_tp_src", 0),
    FIELD(tunnel.tp_dst, "tun_tp_dst", 0),
    FIELD(tunnel.gbp_id, "tun_gbp_id", 0),
    FIELD(tunnel.gbp_flags, "tun_gbp_flags", 0),
    FIELD(tunnel.erspan_ver, "tun_erspan_ver", 0),
    FIELD(tunnel.erspan_idx, "tun_erspan_idx", 0),
    FIELD(tunnel.erspan_dir, "tun_erspan_dir", 0),
    FIELD(tunnel.erspan_hwid, "tun_erspan_hwid", 0),
    FIELD(tunnel.gtpu_flags, "tun_gtpu_flags", 0),
    FIELD(tunnel.gtpu_msgtype, "tun_gtpu_msgtype", 0),
    FIELD(tunnel.pad1, "tunnel pad", 0),
    FIELD(tunnel.metadata, "tunnel options", 0),
    FIELD(metadata, "metadata", 0),
    FIELD(regs, "regs", 0),
    FIELD(skb_priority, "skb_priority", 0),
    FIELD(pkt_mark, "pkt_mark", 0),
    FIELD(dp_hash, "dp_hash", 0),
    FIELD(in_port, "in_port", 0),
    FIELD(recirc_id, "recirc_id", 0),
    FIELD(ct_state, "ct_state", 0),
    FIELD(ct_nw_proto, "ct_nw_proto", 0),
    FIELD(ct_zone, "ct_zone", 0),
    FIELD(ct_mark, "ct_mark", 0),
    FIELD(packet_type, "packet_type", 0),
    FIELD(ct_label, "ct_label", 0),
    FIELD(conj_id, "conj_id", 0),
    FIELD(actset_output, "actset_output", 0),
    FIELD(dl_dst, "dl_dst", 0),
    FIELD(dl_src, "dl_src", 0),
    FIELD(dl_type, "dl_type", 0),
    FIELD(pad1, "pad1", 0),
    FIELD(vlans[0], "vlan_tci", 0),
    FIELD(vlans[1], "vlan[1] (QinQ)", 0),
    FIELD(mpls_lse, "mpls", 0),
    FIELD(nw_src, "nw_src", FN_ARP),
    FIELD(nw_dst, "nw_dst", FN_ARP),
    FIELD(ct_nw_src, "ct_nw_src", 0),
    FIELD(ct_nw_dst, "ct_nw_dst", 0),
    FIELD(ipv6_src, "ipv6_src", 0),
    FIELD(ipv6_dst, "ipv6_dst", 0),
    FIELD(ct_ipv6_src, "ct_ipv6_src", 0),
    FIELD(ct_ipv6_dst, "ct_ipv6_dst", 0),
    FIELD(ipv6_label, "ipv6_label", 0),
    FIELD(nw_frag, "nw_frag", 0),
    FIELD(nw_tos, "nw_tos", 0),
    FIELD(nw_ttl, "nw_ttl", 0),
    FIELD(nw_proto, "nw_proto", FN_ARP),
    FIELD(nd_target, "nd_target", FN_ND),
    FIELD(arp_sha, "arp_sha", FN_ARP | FN_ND),
    FIELD(arp_tha, "arp_tha", FN_ARP | FN_ND),
    FIELD(tcp_flags, "tcp_flags", FN_ND),
    FIELD(pad2, "pad2", 0),
    FIELD(nsh, "nsh", 0),
    FIELD(tp_src, "tp_src", FN_PORTS | FN_IGMP),
    FIELD(tp_dst, "tp_dst", FN_PORTS | FN_IGMP),
    FIELD(ct_tp_src, "ct_tp_src", 0),
    FIELD(ct_tp_dst, "ct_tp_dst", 0),
    FIELD(igmp_group_ip4, "igmp_group_ip4", FN_ND | FN_IGMP),
    FIELD(pad3, "pad3", 0),
};

/* The name of 'field' in the context of the flow's protocols. */
static const char *
field_name(const struct xlate_ctx *ctx, const struct flow_field_name *field)
{
    const struct flow *key = ctx->key;
    const struct flow *mask = ctx->orig_mask;
    ovs_be16 dl_type = mask->dl_type == OVS_BE16_MAX ? key->dl_type : 0;
    int proto = mask->nw_proto == UINT8_MAX ? key->nw_proto : -1;
    bool ipv4 = dl_type == htons(ETH_TYPE_IP);
    bool ipv6 = dl_type == htons(ETH_TYPE_IPV6);

    if (field->ctx_names & FN_ARP
        && (dl_type == htons(ETH_TYPE_ARP)
            || dl_type == htons(ETH_TYPE_RARP))) {
        return "arp fields";
    }
    if (field->ctx_names & FN_PORTS
        && ((ipv4 && proto == IPPROTO_ICMP)
            || (ipv6 && proto == IPPROTO_ICMPV6))) {
        return "icmp type/code";
    }
    if (field->ctx_names & FN_ND && ipv6 && proto == IPPROTO_ICMPV6) {
        return "icmpv6 nd fields";
    }
    if (field->ctx_names & FN_IGMP && ipv4 && proto == IPPROTO_IGMP) {
        return "igmp fields";
    }
    if (field->ctx_names & FN_PORTS && (ipv4 || ipv6)
        && proto == IPPROTO_SCTP) {
        return "sctp ports";
    }
    return field->name;
}

/* Refuses the flow, naming the first field, if any mask bit was left
 * untranslated. */
static int
check_leftover(struct xlate_ctx *ctx)
{
    const uint8_t *mask = (const uint8_t *) &ctx->mask;
    size_t ofs;

    /* The first non-zero word, then its first non-zero byte. */
    if (ctx->nz_valid) {
        const uint64_t *words = (const uint64_t *) &ctx->mask;
        size_t idx;

        BUILD_ASSERT(sizeof(struct flow) == FLOW_U64S * sizeof(uint64_t));
        ofs = sizeof ctx->mask;
        FLOWMAP_FOR_EACH_INDEX (idx, ctx->nz) {
            if (words[idx]) {
                ofs = idx * sizeof(uint64_t);
                break;
            }
        }
    } else {
        for (ofs = 0; ofs + sizeof(uint64_t) <= sizeof ctx->mask;
             ofs += sizeof(uint64_t)) {
            uint64_t m;

            memcpy(&m, mask + ofs, sizeof m);
            if (m) {
                break;
            }
        }
    }
    for (; ofs < sizeof ctx->mask; ofs++) {
        if (mask[ofs]) {
            break;
        }
    }
    if (ofs == sizeof ctx->mask) {
        return 0;
    }

    for (size_t i = 0; i < ARRAY_SIZE(flow_fields); i++) {
        const struct flow_field_name *field = &flow_fields[i];

        if (ofs >= field->ofs && ofs < field->ofs + field->len) {
            return REFUSE(ctx, "match on %s not supported",
                          field_name(ctx, field));
        }
    }
    return REFUSE(ctx, "match on field at offset %"PRIuSIZE" not supported",
                  ofs);
}

/* Actions.
 *
 * A flow whose actions drop every packet (no action at all, or an explicit
 * drop first) is executed by the hardware entirely.  Any other flow is
 * offloaded partially: the hardware tags its packets with the flow mark and
 * delivers them to the RSS QP, and dpif-netdev finds the flow by the mark
 * and runs the actions in software. */
static int
xlate_actions(const struct match *match,
              const struct nlattr *actions, size_t actions_len,
              const struct hw_translate_params *params,
              struct hw_rule *rule, struct ds *reason)
{
    const struct nlattr *a;
    size_t n_actions = 0;
    int first_type = OVS_ACTION_ATTR_UNSPEC;
    size_t left;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        if (!n_actions++) {
            first_type = nl_attr_type(a);
        }
    }
    if (left) {
        return hw_translate_fail(reason, EINVAL, "malformed actions");
    }

    rule->count = true;
    if (params->eswitch) {
        return hw_translate_eswitch_actions(match, actions, actions_len,
                                            params, rule, reason);
    }
    if (!n_actions || first_type == OVS_ACTION_ATTR_DROP) {
        /* An explicit drop ends the action list: nothing after it runs.  A
         * dropped packet needs no decap (and a DROP rule takes no other
         * action). */
        rule->fate = HW_FATE_DROP;
        rule->full = true;
        rule->reformat = HW_REFORMAT_NONE;
        rule->reformat_len = 0;
        memset(rule->reformat_data, 0, sizeof rule->reformat_data);
        return 0;
    }

    if (!params->flow_mark || params->flow_mark > HW_TAG_MAX) {
        /* An ACTION_TAG carries 24 bits (hw-apis.md 1.6); the highest
         * marks the packets conntrack must restore (hw-rule.h). */
        return hw_translate_fail(reason, EINVAL,
                          "flow mark %"PRIu32" does not fit the tag "
                          "(1 to %"PRIu32")", params->flow_mark, HW_TAG_MAX);
    }
    if (rule->table == HW_TABLE_POST_CT) {
        int error = hw_translate_ct_post_actions(actions, actions_len,
                                                 reason);
        if (error) {
            return error;
        }
    } else if (params->conntrack) {
        /* A ct() the device cannot stand for leaves a plain partial rule,
         * whose mark skips the first lookup only, and the reason as a
         * note. */
        int error = hw_translate_ct_stage(actions, actions_len, params,
                                          rule, reason);
        if (!error) {
            return 0;
        }
    }
    rule->fate = HW_FATE_RSS;
    rule->has_tag = true;
    rule->tag = params->flow_mark;
    rule->full = false;
    return 0;
}

void
hw_translate_mask_map(const struct flow *mask, struct flowmap *map)
{
    const uint64_t *words = (const uint64_t *) mask;

    /* A flow's mask is mostly zero: test four words at a time.  Four
     * words never straddle two map units. */
    BUILD_ASSERT(FLOW_U64S % 4 == 0 && MAP_T_BITS % 4 == 0);
    memset(map, 0, sizeof *map);
    for (size_t i = 0; i < FLOW_U64S; i += 4) {
        uint64_t w0 = words[i], w1 = words[i + 1];
        uint64_t w2 = words[i + 2], w3 = words[i + 3];

        if (w0 | w1 | w2 | w3) {
            map_t bits = ((map_t) !!w0 | (map_t) !!w1 << 1
                          | (map_t) !!w2 << 2 | (map_t) !!w3 << 3);

            map->bits[i / MAP_T_BITS] |= bits << (i % MAP_T_BITS);
        }
    }
}

int
hw_translate_flow(const struct match *match, const struct nlattr *actions,
                  size_t actions_len,
                  const struct hw_translate_params *params,
                  struct hw_rule *rule, struct ds *reason)
{
    struct flowmap mask_map;

    hw_translate_mask_map(&match->wc.masks, &mask_map);
    return hw_translate_flow_mapped(match, &mask_map, actions, actions_len,
                                    params, rule, reason);
}

int
hw_translate_flow_mapped(const struct match *match,
                         const struct flowmap *mask_map,
                         const struct nlattr *actions, size_t actions_len,
                         const struct hw_translate_params *params,
                         struct hw_rule *rule, struct ds *reason)
{
    struct xlate_ctx ctx = {
        .key = &match->flow,
        .orig_mask = &match->wc.masks,
        .mask = match->wc.masks,
        .rule = rule,
        .outer = &rule->outer,
        .inner = false,
        .reason = reason,
        .pipeline = params->pipeline || params->eswitch,
    };
    ovs_be16 dl_type;
    int error;

    memset(rule, 0, sizeof *rule);
    ctx.nz = *mask_map;
    ctx.nz_valid = true;

    error = xlate_metadata(&ctx, params);
    if (!error && params->vport != HW_TUNNEL_NONE) {
        /* The packet's headers are the inner ones behind the tunnel. */
        error = xlate_tunnel(&ctx, params);
        ctx.outer = &rule->inner;
        ctx.inner = true;
    }
    if (!error) {
        error = xlate_l2(&ctx, &dl_type);
    }
    if (!error) {
        if (dl_type == htons(ETH_TYPE_IP)) {
            error = xlate_ipv4(&ctx);
        } else if (dl_type == htons(ETH_TYPE_IPV6)) {
            error = xlate_ipv6(&ctx);
        }
    }
    if (!error) {
        error = check_leftover(&ctx);
    }
    if (!error) {
        error = xlate_actions(match, actions, actions_len, params, rule,
                              reason);
    }
    if (!error && rule->fdb) {
        error = hw_translate_eswitch_vlan(match, rule, reason);
    }

    if (error) {
        /* Leave no half-translated rule behind. */
        memset(rule, 0, sizeof *rule);
    }
    return error;
}

void
hw_translate_tunnel_restore(const struct match *match,
                            const struct hw_translate_params *params,
                            struct hw_tunnel_restore *restore)
{
    const struct flow_tnl *key = &match->flow.tunnel;
    const struct flow_tnl *mask = &match->wc.masks.tunnel;
    struct flow_tnl *tnl = &restore->tunnel;
    uint16_t flags;

    memset(restore, 0, sizeof *restore);
    tnl->ip_dst = key->ip_dst & mask->ip_dst;
    tnl->ip_src = key->ip_src & mask->ip_src;
    tnl->ipv6_dst = ipv6_addr_bitand(&key->ipv6_dst, &mask->ipv6_dst);
    tnl->ipv6_src = ipv6_addr_bitand(&key->ipv6_src, &mask->ipv6_src);
    tnl->tun_id = key->tun_id & mask->tun_id;
    tnl->ip_tos = key->ip_tos & mask->ip_tos;
    tnl->ip_ttl = key->ip_ttl & mask->ip_ttl;

    /* The flags as the software pop sets them: the flow's values where it
     * matches them, otherwise what the tunnel type implies. */
    flags = key->flags & mask->flags & FLOW_TNL_F_MASK;
    if (!(mask->flags & FLOW_TNL_F_KEY)
        && (params->vport == HW_TUNNEL_VXLAN
            || params->vport == HW_TUNNEL_GENEVE || tnl->tun_id)) {
        flags |= FLOW_TNL_F_KEY;
    }

    /* Geneve: the options the rule matched, with the option's data as
     * the rule matched it (xlate_geneve_opts()). */
    if (params->vport == HW_TUNNEL_GENEVE
        && key->flags & FLOW_TNL_F_UDPIF
        && key->metadata.present.len <= sizeof restore->opts) {
        const uint8_t *k = (const uint8_t *) key->metadata.opts.gnv;
        const uint8_t *m = (const uint8_t *) mask->metadata.opts.gnv;
        size_t len = key->metadata.present.len;

        flags |= FLOW_TNL_F_UDPIF;
        restore->udpif = true;
        restore->opts_len = len;
        if (!is_all_zeros(m, len)) {
            memcpy(restore->opts, k, len);
            for (size_t i = sizeof(struct geneve_opt); i < len; i++) {
                restore->opts[i] &= m[i];
            }
        }
    }
    tnl->flags = flags;

    /* The UDP source port is lost with the header; no flow matches it. */
    tnl->tp_src = htons(0);
    tnl->tp_dst = (params->vport == HW_TUNNEL_VXLAN
                   || params->vport == HW_TUNNEL_GENEVE
                   ? params->vport_udp_port : htons(0));

    restore->packet_type = (match->wc.masks.packet_type
                            ? match->flow.packet_type : htonl(PT_ETH));
}

/* Reads the big-endian 16 bits at 'p', which may be unaligned. */
static ovs_be16
read_be16(const uint8_t *p)
{
    ovs_be16 value;

    memcpy(&value, p, sizeof value);
    return value;
}

bool
hw_translate_mark_is_exact(const struct dp_packet *packet)
{
    const uint8_t *data = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);
    size_t ofs = 2 * ETH_ADDR_LEN;
    ovs_be16 type;

    if (size < ETH_HEADER_LEN) {
        return false;
    }
    type = read_be16(data + ofs);
    if (type == htons(ETH_TYPE_VLAN_8021AD)) {
        return false;
    }
    if (type == htons(ETH_TYPE_VLAN_8021Q)) {
        ofs += VLAN_HEADER_LEN;
        if (size < ofs + 2) {
            return false;
        }
        type = read_be16(data + ofs);
        if (eth_type_vlan(type)) {
            return false;
        }
    }
    ofs += 2;

    if (type == htons(ETH_TYPE_IP)) {
        /* Flags and fragment offset are at byte 6 of the IPv4 header. */
        if (size < ofs + IP_HEADER_LEN) {
            return false;
        }
        return !(read_be16(data + ofs + 6)
                 & htons(IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK));
    } else if (type == htons(ETH_TYPE_IPV6)) {
        uint8_t nxt;

        /* Next header is at byte 6 of the IPv6 header. */
        if (size < ofs + IPV6_HEADER_LEN) {
            return false;
        }
        nxt = data[ofs + 6];
        /* A fragment header may follow any extension header. */
        return nxt != IPPROTO_FRAGMENT && nxt != IPPROTO_HOPOPTS
               && nxt != IPPROTO_ROUTING && nxt != IPPROTO_DSTOPTS;
    }
    return true;
}

bool
hw_translate_still_encapsulated(const struct dp_packet *packet,
                                const struct hw_tunnel_restore *restore)
{
    const struct flow_tnl *tnl = &restore->tunnel;
    const uint8_t *data = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);
    size_t ofs = 2 * ETH_ADDR_LEN;
    uint8_t proto;
    ovs_be16 type;

    if (size < ETH_HEADER_LEN) {
        return false;
    }
    type = read_be16(data + ofs);
    if (type == htons(ETH_TYPE_VLAN_8021Q)) {
        ofs += VLAN_HEADER_LEN;
        if (size < ofs + 2) {
            return false;
        }
        type = read_be16(data + ofs);
    }
    ofs += 2;

    if (type == htons(ETH_TYPE_IP) && tnl->ip_dst) {
        ovs_be32 src, dst;

        if (size < ofs + IP_HEADER_LEN) {
            return false;
        }
        memcpy(&src, data + ofs + 12, sizeof src);
        memcpy(&dst, data + ofs + 16, sizeof dst);
        if (src != tnl->ip_src || dst != tnl->ip_dst) {
            return false;
        }
        proto = data[ofs + 9];
        ofs += (data[ofs] & 0x0f) * 4;
    } else if (type == htons(ETH_TYPE_IPV6)
               && !ipv6_mask_is_any(&tnl->ipv6_dst)) {
        if (size < ofs + IPV6_HEADER_LEN
            || memcmp(data + ofs + 8, &tnl->ipv6_src, 16)
            || memcmp(data + ofs + 24, &tnl->ipv6_dst, 16)) {
            return false;
        }
        proto = data[ofs + 6];
        ofs += IPV6_HEADER_LEN;
    } else {
        return false;
    }

    if (!tnl->tp_dst) {
        return proto == IPPROTO_GRE;
    }
    return (proto == IPPROTO_UDP && size >= ofs + UDP_HEADER_LEN
            && read_be16(data + ofs + 2) == tnl->tp_dst);
}
