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

/* Unit tests of the NIC model's tunnel support: the packet reformat engine
 * (hw-model-reformat.c) byte for byte on crafted VXLAN over IPv4 and IPv6,
 * GRE with key and L3 GRE frames, and decap/encap through the device ops
 * (ingress rules with a decap, egress rules with an encap seen at the far
 * end of the wire and in a pcap file, the device's VXLAN ports).
 *
 * Expected frames are built here, field by field, with a checksum routine
 * of this file's own, never with the model's code.
 *
 * "ovstest test-hw-model-tunnel [NAME]..." runs the sub-tests as
 * test-hw-check.h says.  "ovstest test-hw-model-tunnel afpacket IF PEER"
 * (root) also checks the AF_PACKET wire on the veth pair IF/PEER. */

#include <config.h>
#undef NDEBUG
#include "hw-model-reformat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#endif

#include "dp-packet.h"
#include "hw-dev.h"
#include "hw-model.h"
#include "hw-model-afpacket.h"
#include "hw-model-flow.h"
#include "hw-toeplitz.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "test-hw-frame.h"
#include "test-hw-model-port.h"
#include "packets.h"
#include "pcap-file.h"
#include "timeval.h"
#include "util.h"

#define L2_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
#define L2_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define L3_DECAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define L3_ENCAP MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL

/* ---------------------------------------------------------------------- */
/* Frames, built byte by byte.                                            */
/* ---------------------------------------------------------------------- */

/* An inner frame: Ethernet (tagged if 'tci' >= 0) + IPv4 + UDP + payload,
 * 'size' bytes in all, or Ethernet + IPv6 + UDP if 'ip6'. */
static struct frame *
inner_frame(size_t size, int tci, bool ip6)
{
    struct frame *f = frame_new();
    size_t l2 = tci >= 0 ? 18 : 14;
    size_t l3 = ip6 ? 40 : 20;

    CHECK(size >= l2 + l3 + 8);
    put_eth(f, "0a:00:00:00:00:02", "0a:00:00:00:00:01", tci,
            ip6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);
    if (ip6) {
        put_ipv6(f, IPPROTO_UDP, "fd00::1", "fd00::2", size - l2 - l3);
    } else {
        put_ipv4(f, IPPROTO_UDP, "10.0.0.1", "10.0.0.2", size - l2, true);
    }
    put_udp(f, 1234, 5678, size - l2 - l3, 0);
    for (size_t i = f->len; i < size; i++) {
        put_u8(f, i * 7);
    }
    return f;
}

static void
parse(const struct frame *f, struct hw_model_parsed *parsed)
{
    struct dp_packet *packet = packet_from(f, 0);

    hw_model_parse(packet, parsed);
    dp_packet_delete(packet);
}

/* ---------------------------------------------------------------------- */
/* Outer headers.                                                         */
/* ---------------------------------------------------------------------- */

/* What an encap header template looks like for the outer headers of each
 * test: the same function builds the template (lengths and checksum 0, as
 * the plugin hands them to the NIC) and the expected result (filled for a
 * payload of 'payload' bytes). */
enum outer_kind {
    VXLAN4,
    VXLAN6_VLAN,
    GRE4_KEY,
    GRE4_CKS,
    GRE6_L3,
    GRE4_L3,
    GRE6_KEY,
    GRE6_SEQ,
};

/* The outer headers of each kind.  The tunnel header's length counts UDP
 * and VXLAN, or GRE with its checksum, key and sequence number (ip6gre's
 * IPv6 payload length covers those and the inner frame). */
struct outer_def {
    bool ip6;
    int tci;                    /* 802.1Q tag if not negative. */
    size_t tnl_len;
    uint16_t udp_src;           /* VXLAN. */
    uint32_t vni;
    uint16_t gre_flags;         /* GRE. */
    uint16_t gre_proto;
    uint32_t gre_key;
};

static const struct outer_def outer_defs[] = {
    [VXLAN4] = { .tci = -1, .tnl_len = 16, .udp_src = 0xd00d,
                 .vni = 0x123456 },
    [VXLAN6_VLAN] = { .ip6 = true, .tci = 0x2064, .tnl_len = 16,
                      .udp_src = 0xd00e, .vni = 0xfffffe },
    [GRE4_KEY] = { .tci = -1, .tnl_len = 8, .gre_flags = 0x2000,
                   .gre_proto = ETH_TYPE_TEB, .gre_key = 0xdeadbeef },
    [GRE4_CKS] = { .tci = -1, .tnl_len = 16, .gre_flags = 0xb000,
                   .gre_proto = ETH_TYPE_TEB, .gre_key = 0x0badcafe },
    [GRE6_L3] = { .ip6 = true, .tci = -1, .tnl_len = 4,
                  .gre_proto = ETH_TYPE_IP },
    [GRE4_L3] = { .tci = -1, .tnl_len = 8, .gre_flags = 0x2000,
                  .gre_proto = ETH_TYPE_IPV6, .gre_key = 77 },
    [GRE6_KEY] = { .ip6 = true, .tci = -1, .tnl_len = 8,
                   .gre_flags = 0x2000, .gre_proto = ETH_TYPE_TEB,
                   .gre_key = 0x0badcafe },
    [GRE6_SEQ] = { .ip6 = true, .tci = -1, .tnl_len = 12,
                   .gre_flags = 0x3000, .gre_proto = ETH_TYPE_TEB,
                   .gre_key = 0x0badcafe },
};

static void
put_outer(struct frame *f, enum outer_kind kind, bool fill, size_t payload,
          uint16_t udp_csum)
{
    const struct outer_def *def = &outer_defs[kind];
    uint8_t proto = def->udp_src ? IPPROTO_UDP : IPPROTO_GRE;
    size_t l4_len = fill ? def->tnl_len + payload : 0;

    put_eth(f, "02:00:00:00:00:bb", "02:00:00:00:00:aa", def->tci,
            def->ip6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);
    if (def->ip6) {
        put_ipv6(f, proto, "2001:db8::1", "2001:db8::2", l4_len);
    } else {
        put_ipv4(f, proto, "192.168.1.1", "192.168.1.2",
                 fill ? 20 + l4_len : 0, fill);
    }
    if (def->udp_src) {
        put_udp(f, def->udp_src, 4789, l4_len, udp_csum);
        put_vxlan(f, def->vni);
    } else {
        put_gre(f, def->gre_flags, def->gre_proto, def->gre_key);
    }
}

/* The template of 'kind'. */
static struct frame *
outer_template(enum outer_kind kind, uint16_t udp_csum)
{
    struct frame *f = frame_new();

    put_outer(f, kind, false, 0, udp_csum);
    return f;
}

/* The expected encapsulation of 'inner' (from byte 'skip') with 'kind'. */
static struct frame *
encapsulated(enum outer_kind kind, const struct frame *inner, size_t skip,
             uint16_t udp_csum)
{
    struct frame *f = frame_new();

    put_outer(f, kind, true, inner->len - skip, udp_csum);
    put(f, inner->data + skip, inner->len - skip);
    return f;
}

/* Encaps 'inner' with 'kind' and checks the result byte by byte, then
 * checks that the outer IPv4 header checksum (if any) verifies. */
static void
check_encap(enum outer_kind kind,
            enum mlx5dv_flow_action_packet_reformat_type type,
            const struct frame *inner,
            size_t skip, uint16_t udp_csum)
{
    struct frame *tmpl = outer_template(kind, udp_csum);
    struct frame *want = encapsulated(kind, inner, skip, udp_csum);
    struct dp_packet *packet = packet_from(inner, 0);

    CHECK_ERR(hw_model_reformat_encap(packet, type, tmpl->data, tmpl->len),
              0);
    CHECK_PACKET(packet, want, 0);
    if (get_be16(want->data + 12) == ETH_TYPE_IP) {
        CHECK_EQ(inet_sum((const uint8_t *) dp_packet_data(packet) + 14, 20),
                 0);
    }
    dp_packet_delete(packet);
    free(tmpl);
    free(want);
}

/* ---------------------------------------------------------------------- */
/* The reformat engine.                                                   */
/* ---------------------------------------------------------------------- */

static const size_t inner_sizes[] = { 60, 71, 100, 1500, 9000 };

/* Checks that an L2 decap of 'OUTER', parsed as 'PARSED', gives 'INNER'. */
#define CHECK_L2_DECAP(OUTER, PARSED, INNER)                            \
    check_l2_decap(__FILE__, __LINE__, OUTER, PARSED, INNER)
static void
check_l2_decap(const char *file, int line, const struct frame *outer,
               const struct hw_model_parsed *parsed,
               const struct frame *inner)
{
    struct dp_packet *packet = packet_from(outer, 0);
    int error = hw_model_reformat_decap(packet, parsed, L2_DECAP, NULL, 0);

    if (error) {
        ovs_abort(0, "%s:%d: L2 decap returned %d (%s), expected 0", file,
                  line, error, ovs_strerror(error));
    }
    check_packet(file, line, packet, inner, 0);
    dp_packet_delete(packet);
}

static void
test_vxlan_ipv4(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(inner_sizes); i++) {
        struct frame *inner = inner_frame(inner_sizes[i], -1, false);
        struct frame *outer = encapsulated(VXLAN4, inner, 0, 0);
        struct hw_model_parsed parsed;

        check_encap(VXLAN4, L2_ENCAP, inner, 0, 0);
        /* A UDP checksum in the template is copied, not computed. */
        check_encap(VXLAN4, L2_ENCAP, inner, 0, 0xbeef);

        parse(outer, &parsed);
        CHECK(parsed.tunnel == HW_MODEL_TUNNEL_VXLAN);
        CHECK(parsed.vxlan_vni == htonl(0x123456));
        CHECK_L2_DECAP(outer, &parsed, inner);

        free(outer);
        free(inner);
    }
}

static void
test_vxlan_ipv6(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(inner_sizes); i++) {
        struct frame *inner = inner_frame(inner_sizes[i], 5, i & 1);
        struct frame *outer = encapsulated(VXLAN6_VLAN, inner, 0, 0);
        struct hw_model_parsed parsed;

        check_encap(VXLAN6_VLAN, L2_ENCAP, inner, 0, 0x1234);

        parse(outer, &parsed);
        CHECK(parsed.has_cvlan && parsed.ip_version == 6);
        CHECK(parsed.tunnel == HW_MODEL_TUNNEL_VXLAN);
        CHECK(parsed.vxlan_vni == htonl(0xfffffe));
        CHECK(parsed.inner.has_cvlan);
        CHECK_L2_DECAP(outer, &parsed, inner);

        free(outer);
        free(inner);
    }
}

static void
test_gre_key(void)
{
    static const enum outer_kind kinds[] = {
        GRE4_KEY, GRE4_CKS, GRE6_KEY, GRE6_SEQ,
    };

    for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
        for (size_t i = 0; i < ARRAY_SIZE(inner_sizes); i++) {
            struct frame *inner = inner_frame(inner_sizes[i], -1, i & 1);
            struct frame *outer = encapsulated(kinds[k], inner, 0, 0);
            struct hw_model_parsed parsed;

            check_encap(kinds[k], L2_ENCAP, inner, 0, 0);

            parse(outer, &parsed);
            CHECK(parsed.tunnel == HW_MODEL_TUNNEL_GRE);
            CHECK(parsed.gre_protocol == htons(ETH_TYPE_TEB));
            CHECK(parsed.gre_key == htonl(kinds[k] == GRE4_KEY
                                          ? 0xdeadbeef : 0x0badcafe));
            CHECK(parsed.ip_version
                  == (kinds[k] == GRE6_KEY || kinds[k] == GRE6_SEQ ? 6 : 4));
            CHECK(parsed.inner_type == HW_MODEL_INNER_L2);
            CHECK_L2_DECAP(outer, &parsed, inner);

            free(outer);
            free(inner);
        }
    }
}

/* L2_TO_L3_TUNNEL drops the inner Ethernet header (and VLAN tag);
 * L3_TUNNEL_TO_L2 drops everything up to the inner IP header and puts the
 * new Ethernet header there. */
static void
test_l3_gre(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(inner_sizes); i++) {
        bool ip6 = i & 1;
        int tci = i & 2 ? 0x0fff : -1;
        size_t l2 = tci >= 0 ? 18 : 14;
        struct frame *inner = inner_frame(inner_sizes[i], tci, ip6);
        enum outer_kind kind = ip6 ? GRE4_L3 : GRE6_L3;
        struct frame *outer = encapsulated(kind, inner, l2, 0);
        struct frame *new_l2 = frame_new();
        struct frame *want = frame_new();
        struct hw_model_parsed parsed;
        struct dp_packet *packet;

        check_encap(kind, L3_ENCAP, inner, l2, 0);

        /* Decap with an untagged and a tagged new Ethernet header. */
        for (int tagged = 0; tagged < 2; tagged++) {
            new_l2->len = want->len = 0;
            put_eth(new_l2, "0a:00:00:00:00:99", "0a:00:00:00:00:98",
                    tagged ? 0x0123 : -1, ip6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);
            put(want, new_l2->data, new_l2->len);
            put(want, inner->data + l2, inner->len - l2);

            parse(outer, &parsed);
            CHECK(parsed.tunnel == HW_MODEL_TUNNEL_GRE);
            CHECK(parsed.inner_type == HW_MODEL_INNER_L3);
            CHECK(parsed.inner.ip_version == (ip6 ? 6 : 4));
            packet = packet_from(outer, 0);
            CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_DECAP,
                                              new_l2->data, new_l2->len), 0);
            CHECK_PACKET(packet, want, 0);
            dp_packet_delete(packet);
        }

        /* An L3 decap of a VXLAN packet drops the inner Ethernet header
         * too. */
        free(outer);
        outer = encapsulated(VXLAN4, inner, 0, 0);
        parse(outer, &parsed);
        packet = packet_from(outer, 0);
        CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_DECAP,
                                          new_l2->data, new_l2->len), 0);
        CHECK_PACKET(packet, want, 0);
        dp_packet_delete(packet);

        free(want);
        free(new_l2);
        free(outer);
        free(inner);
    }
}

static void
test_reformat_errors(void)
{
    struct frame *inner = inner_frame(100, -1, false);
    struct frame *vxlan = encapsulated(VXLAN4, inner, 0, 0);
    struct frame *l3gre = encapsulated(GRE6_L3, inner, 14, 0);
    struct frame *tmpl = outer_template(VXLAN4, 0);
    struct hw_model_parsed parsed;
    struct dp_packet *packet;
    uint8_t l2[18];

    memset(l2, 0x11, sizeof l2);

    CHECK(hw_model_reformat_is_decap(L2_DECAP));
    CHECK(hw_model_reformat_is_decap(L3_DECAP));
    CHECK(!hw_model_reformat_is_decap(L2_ENCAP));
    CHECK(!hw_model_reformat_is_decap(L3_ENCAP));

    /* Each direction's function refuses the other's types and bad data;
     * the packet is left as it was. */
    parse(vxlan, &parsed);
    packet = packet_from(vxlan, 0);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L2_ENCAP, tmpl->data,
                                      tmpl->len), EINVAL);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_ENCAP, tmpl->data,
                                      tmpl->len), EINVAL);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L2_DECAP, l2, 14),
              EINVAL);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_DECAP, l2, 16),
              EINVAL);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_DECAP, NULL, 0),
              EINVAL);
    CHECK_ERR(hw_model_reformat_encap(packet, L2_DECAP, NULL, 0), EINVAL);
    CHECK_ERR(hw_model_reformat_encap(packet, L3_DECAP, l2, 14), EINVAL);
    CHECK_ERR(hw_model_reformat_encap(packet, L2_ENCAP, NULL, 0), EINVAL);
    CHECK_ERR(hw_model_reformat_encap(packet, L3_ENCAP, tmpl->data, 0),
              EINVAL);
    CHECK_PACKET(packet, vxlan, 0);
    dp_packet_delete(packet);

    /* Decaps of packets without the tunnel they remove. */
    parse(inner, &parsed);
    packet = packet_from(inner, 0);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L2_DECAP, NULL, 0),
              ENOENT);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L3_DECAP, l2, 14),
              ENOENT);
    CHECK_PACKET(packet, inner, 0);
    dp_packet_delete(packet);

    parse(l3gre, &parsed);
    packet = packet_from(l3gre, 0);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L2_DECAP, NULL, 0),
              ENOENT);
    CHECK_PACKET(packet, l3gre, 0);
    dp_packet_delete(packet);

    /* A VXLAN frame whose inner frame is cut short of its Ethernet
     * header. */
    vxlan->len = 14 + 20 + 8 + 8 + 13;
    parse(vxlan, &parsed);
    CHECK(parsed.tunnel == HW_MODEL_TUNNEL_VXLAN);
    packet = packet_from(vxlan, 0);
    CHECK_ERR(hw_model_reformat_decap(packet, &parsed, L2_DECAP, NULL, 0),
              ENOENT);
    dp_packet_delete(packet);

    /* An encap whose IPv4 total length would pass 65535. */
    free(inner);
    inner = inner_frame(65535 - 20 - 8 - 8 + 1, -1, false);
    packet = packet_from(inner, 0);
    CHECK_ERR(hw_model_reformat_encap(packet, L2_ENCAP, tmpl->data,
                                      tmpl->len), EMSGSIZE);
    CHECK_PACKET(packet, inner, 0);
    dp_packet_delete(packet);
    free(inner);
    inner = inner_frame(65535 - 20 - 8 - 8, -1, false);
    check_encap(VXLAN4, L2_ENCAP, inner, 0, 0);

    /* Headers that are not IP are copied as they are. */
    {
        struct frame *odd = frame_new();

        put_eth(odd, "02:00:00:00:00:01", "02:00:00:00:00:02", -1, 0x88b5);
        put_be32(odd, 0x01020304);
        packet = packet_from(inner, 0);
        CHECK_ERR(hw_model_reformat_encap(packet, L2_ENCAP, odd->data,
                                          odd->len), 0);
        CHECK(!memcmp(dp_packet_data(packet), odd->data, odd->len));
        CHECK_EQ(dp_packet_size(packet), odd->len + inner->len);
        dp_packet_delete(packet);
        free(odd);
    }

    free(tmpl);
    free(l3gre);
    free(vxlan);
    free(inner);
}

/* ---------------------------------------------------------------------- */
/* Through the device.                                                    */
/* ---------------------------------------------------------------------- */

static const struct hw_dev_ops *ops;

struct setup {
    struct model_port port;
    struct ibv_qp *tx_qp;
    struct ibv_flow *miss;
};

/* One WQ behind an RSS QP that hashes nothing, a send QP, and a miss rule
 * for everything no other rule takes. */
static void
setup_create(struct setup *s, const char *devname)
{
    struct ibv_flow_attr miss = {
        .type = IBV_FLOW_ATTR_ALL_DEFAULT,
        .size = sizeof miss,
        .port = 1,
    };

    memset(s, 0, sizeof *s);
    model_port_create(&s->port, devname, 256, 0);
    s->tx_qp = model_port_create_send_qp(&s->port);
    CHECK_ERR(ops->create_flow(s->port.rss_qp, &miss, &s->miss), 0);
}

static void
setup_destroy(struct setup *s)
{
    CHECK_ERR(ops->destroy_flow(s->miss), 0);
    CHECK_ERR(ops->destroy_qp(s->tx_qp), 0);
    model_port_destroy(&s->port);
}

static void
rule_add_vni(struct rule *r, uint32_t vni)
{
    struct ibv_flow_spec_tunnel spec = {
        .type = IBV_FLOW_SPEC_VXLAN_TUNNEL,
        .size = sizeof spec,
        .val.tunnel_id = htonl(vni),
        .mask.tunnel_id = htonl(0xffffff),
    };

    rule_add(r, &spec, sizeof spec);
}

static void
rule_add_gre(struct rule *r, uint16_t proto, uint32_t key, uint32_t mask)
{
    struct ibv_flow_spec_gre spec = {
        .type = IBV_FLOW_SPEC_GRE,
        .size = sizeof spec,
        .val.protocol = htons(proto),
        .mask.protocol = OVS_BE16_MAX,
        .val.key = htonl(key),
        .mask.key = htonl(mask),
    };

    rule_add(r, &spec, sizeof spec);
}

static void
rule_add_inner_ipv4_dst(struct rule *r, const char *dst)
{
    struct ibv_flow_spec_ipv4 ip = {
        .type = IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER,
        .size = sizeof ip,
        .val.dst_ip = inet_addr(dst),
        .mask.dst_ip = OVS_BE32_MAX,
    };

    rule_add(r, &ip, sizeof ip);
}

static void
rule_add_eth_dst(struct rule *r, const char *dst)
{
    struct ibv_flow_spec_eth eth = {
        .type = IBV_FLOW_SPEC_ETH,
        .size = sizeof eth,
        .mask.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
    };
    struct eth_addr ea;

    CHECK(eth_addr_from_string(dst, &ea));
    memcpy(eth.val.dst_mac, ea.ea, ETH_ADDR_LEN);
    rule_add(r, &eth, sizeof eth);
}

/* Puts 'f' on the wire of 's' and checks what the one WQ receives: 'want'
 * with flow mark 'tag' (0: none). */
static void
check_rx(const struct setup *s, const struct frame *f,
         const struct frame *want, size_t want_skip, uint32_t tag)
{
    model_port_check_rx(&s->port, f, want, want_skip, tag);
}

static void
test_device_decap(void)
{
    struct ibv_flow_action *decap, *l3_decap;
    struct frame *inner = inner_frame(200, -1, false);
    struct frame *vxlan = encapsulated(VXLAN4, inner, 0, 0);
    struct frame *gre = encapsulated(GRE4_KEY, inner, 0, 0);
    struct frame *l3gre = encapsulated(GRE6_L3, inner, 14, 0);
    struct frame *new_l2 = frame_new();
    struct frame *want = frame_new();
    struct hw_model_stats stats;
    struct ibv_flow *flows[3];
    struct setup s;
    struct rule r;

    setup_create(&s, "model41");
    CHECK_ERR(ops->create_reformat(s.port.ctx, 0, NULL, L2_DECAP,
                                   MLX5DV_FLOW_TABLE_TYPE_NIC_RX, &decap), 0);
    put_eth(new_l2, "0a:00:00:00:00:99", "0a:00:00:00:00:98", -1,
            ETH_TYPE_IP);
    CHECK_ERR(ops->create_reformat(s.port.ctx, new_l2->len, new_l2->data,
                                   L3_DECAP, MLX5DV_FLOW_TABLE_TYPE_NIC_RX,
                                   &l3_decap), 0);

    /* VXLAN VNI 0x123456 to 4789: decap, tag 1. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_udp_dst(&r, 4789);
    rule_add_vni(&r, 0x123456);
    rule_add_handle(&r, decap);
    rule_add_tag(&r, 1);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[0]), 0);

    /* GRE TEB key 0xdeadbeef: decap, tag 2. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_gre(&r, ETH_TYPE_TEB, 0xdeadbeef, 0xffffffff);
    rule_add_handle(&r, decap);
    rule_add_tag(&r, 2);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[1]), 0);

    /* L3 GRE carrying IPv4 to 10.0.0.2: L3 decap, tag 3. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_gre(&r, ETH_TYPE_IP, 0, 0);
    rule_add_inner_ipv4_dst(&r, "10.0.0.2");
    rule_add_handle(&r, l3_decap);
    rule_add_tag(&r, 3);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[2]), 0);

    check_rx(&s, vxlan, inner, 0, 1);
    check_rx(&s, gre, inner, 0, 2);
    put(want, new_l2->data, new_l2->len);
    put(want, inner->data + 14, inner->len - 14);
    check_rx(&s, l3gre, want, 0, 3);
    stats = model_stats(s.port.devname);
    CHECK_EQ(stats.rx_decap, 3);
    CHECK_EQ(stats.rx_decap_skipped, 0);

    /* Another VNI or key: the miss rule, bytes untouched. */
    vxlan->data[14 + 20 + 8 + 6] ^= 1;
    check_rx(&s, vxlan, vxlan, 0, 0);
    gre->data[14 + 20 + 4] ^= 1;
    check_rx(&s, gre, gre, 0, 0);
    CHECK_EQ(model_stats(s.port.devname).rx_decap, 3);
    vxlan->data[14 + 20 + 8 + 6] ^= 1;

    /* VXLAN to port 8472 is no tunnel until the device knows the port; the
     * rule for it then matches and decaps. */
    set_be16(vxlan->data + 14 + 20 + 2, 8472);
    ops->destroy_flow(flows[0]);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_udp_dst(&r, 8472);
    rule_add_vni(&r, 0x123456);
    rule_add_handle(&r, decap);
    rule_add_tag(&r, 4);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[0]), 0);
    check_rx(&s, vxlan, vxlan, 0, 0);
    CHECK_ERR(hw_model_set_vxlan_port(s.port.devname, true, 8472), 0);
    check_rx(&s, vxlan, inner, 0, 4);
    CHECK_ERR(hw_model_set_vxlan_port(s.port.devname, true, 8472), EEXIST);
    CHECK_ERR(hw_model_set_vxlan_port(s.port.devname, false, 8472), 0);
    check_rx(&s, vxlan, vxlan, 0, 0);
    CHECK_ERR(hw_model_set_vxlan_port(s.port.devname, false, 8472), ENOENT);
    CHECK_ERR(hw_model_set_vxlan_port(s.port.devname, false, 4789), EPERM);
    CHECK_ERR(hw_model_set_vxlan_port("model9999", true, 8472), ENODEV);

    /* A decap rule that matches a packet without that tunnel: delivered
     * unchanged, counted. */
    CHECK_ERR(ops->destroy_flow(flows[2]), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_inner_ipv4_dst(&r, "10.0.0.2");
    rule_add_handle(&r, decap);
    rule_add_tag(&r, 5);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[2]), 0);
    check_rx(&s, l3gre, l3gre, 0, 5);
    stats = model_stats(s.port.devname);
    CHECK_EQ(stats.rx_decap, 4);
    CHECK_EQ(stats.rx_decap_skipped, 1);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(ops->destroy_flow(flows[i]), 0);
    }
    CHECK_ERR(ops->destroy_action(decap), 0);
    CHECK_ERR(ops->destroy_action(l3_decap), 0);
    setup_destroy(&s);
    free(want);
    free(new_l2);
    free(l3gre);
    free(gre);
    free(vxlan);
    free(inner);
}

/* Sends 'f' on the send QP of 's', marked as ending with 'pad' bytes of
 * Ethernet padding as a received frame would be. */
static void
send_padded(const struct setup *s, const struct frame *f, size_t pad,
            int want_dropped)
{
    struct dp_packet *packet = packet_from(f, 0);
    struct dp_packet_batch batch;

    dp_packet_set_l2_pad_size(packet, pad);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    CHECK_EQ(ops->tx_burst(s->tx_qp, &batch), want_dropped);
}

static void
send_frame(const struct setup *s, const struct frame *f, int want_dropped)
{
    send_padded(s, f, 0, want_dropped);
}

static void
dummy_tx(void *aux OVS_UNUSED, const struct dp_packet *packet OVS_UNUSED)
{
}

static void
test_device_encap(void)
{
    struct ibv_flow_action *vxlan_encap, *l3_encap, *gre_encap;
    struct frame *vxlan_tmpl = outer_template(VXLAN6_VLAN, 0);
    struct frame *gre_tmpl = outer_template(GRE4_KEY, 0);
    struct frame *l3_tmpl = outer_template(GRE6_L3, 0);
    struct frame *inner = inner_frame(300, -1, false);
    struct frame *tagged = inner_frame(301, 7, false);
    struct frame *want;
    struct hw_model_stats stats;
    struct capture cap = { .n = 0 };
    struct ibv_flow *flows[3];
    struct setup s;
    struct rule r;

    setup_create(&s, "model42");
    CHECK_ERR(ops->create_reformat(s.port.ctx, vxlan_tmpl->len,
                                   vxlan_tmpl->data, L2_ENCAP,
                                   MLX5DV_FLOW_TABLE_TYPE_NIC_TX,
                                   &vxlan_encap), 0);
    CHECK_ERR(ops->create_reformat(s.port.ctx, gre_tmpl->len, gre_tmpl->data,
                                   L2_ENCAP, MLX5DV_FLOW_TABLE_TYPE_NIC_TX,
                                   &gre_encap), 0);
    CHECK_ERR(ops->create_reformat(s.port.ctx, l3_tmpl->len, l3_tmpl->data,
                                   L3_ENCAP, MLX5DV_FLOW_TABLE_TYPE_NIC_TX,
                                   &l3_encap), 0);
    /* The caller's buffers are not the device's. */
    memset(vxlan_tmpl->data, 0xee, 6);
    free(vxlan_tmpl);
    vxlan_tmpl = outer_template(VXLAN6_VLAN, 0);

    /* Egress: frames to 0a:..:02 get VXLAN over IPv6; the tagged frame
     * (another destination) L3 GRE; a third destination GRE. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_dst(&r, "0a:00:00:00:00:02");
    rule_add_handle(&r, vxlan_encap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r),
                               &flows[0]), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_dst(&r, "0a:00:00:00:00:03");
    rule_add_handle(&r, l3_encap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r),
                               &flows[1]), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_dst(&r, "0a:00:00:00:00:04");
    rule_add_handle(&r, gre_encap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r),
                               &flows[2]), 0);

    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, capture_tx, &cap), 0);
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, dummy_tx, NULL), EBUSY);
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, capture_tx, &cap), 0);
    CHECK_ERR(hw_model_set_wire_tx("model9998", capture_tx, &cap), ENODEV);
    CHECK_ERR(hw_model_set_pcap(s.port.devname, "test-hw-model-tunnel.pcap"),
              0);

    /* 1: VXLAN. */
    send_frame(&s, inner, 0);
    CHECK_EQ(cap.n, 1);
    want = encapsulated(VXLAN6_VLAN, inner, 0, 0);
    CHECK_PACKET(cap.packets[0], want, 0);
    free(want);

    /* 2: L3 GRE, the frame's Ethernet header and tag removed. */
    memcpy(tagged->data, "\x0a\x00\x00\x00\x00\x03", 6);
    send_frame(&s, tagged, 0);
    CHECK_EQ(cap.n, 2);
    want = encapsulated(GRE6_L3, tagged, 18, 0);
    CHECK_PACKET(cap.packets[1], want, 0);
    free(want);

    /* 3: GRE with key, of a frame that ends with Ethernet padding: the
     * hardware sends the whole buffer. */
    {
        struct frame *padded = inner_frame(50, -1, false);

        put(padded, NULL, 10);
        memcpy(padded->data, "\x0a\x00\x00\x00\x00\x04", 6);
        send_padded(&s, padded, 10, 0);
        CHECK_EQ(cap.n, 3);
        want = encapsulated(GRE4_KEY, padded, 0, 0);
        CHECK_PACKET(cap.packets[2], want, 0);
        CHECK_EQ(inet_sum((const uint8_t *) dp_packet_data(cap.packets[2])
                          + 14, 20), 0);
        free(want);
        free(padded);
    }

    /* 4: no egress rule matches: unchanged. */
    memcpy(inner->data, "\x0a\x00\x00\x00\x00\x05", 6);
    send_frame(&s, inner, 0);
    CHECK_EQ(cap.n, 4);
    CHECK_PACKET(cap.packets[3], inner, 0);

    /* A frame the encap would make too long is dropped. */
    {
        struct frame *big = inner_frame(65535 - 8 - 8 + 1, -1, false);

        send_frame(&s, big, 1);
        free(big);
    }
    CHECK_EQ(cap.n, 4);

    stats = model_stats(s.port.devname);
    CHECK_EQ(stats.tx_encap, 3);
    CHECK_EQ(stats.tx_packets, 4);
    CHECK_EQ(stats.tx_drop_encap, 1);

    /* The pcap file holds what the wire got. */
    CHECK_ERR(hw_model_set_pcap(s.port.devname, NULL), 0);
    {
        struct pcap_file *pcap = ovs_pcap_open("test-hw-model-tunnel.pcap",
                                               "rb");
        size_t n = 0;

        CHECK(pcap);
        for (;;) {
            struct dp_packet *packet;
            int error = ovs_pcap_read(pcap, &packet, NULL);

            if (error == EOF) {
                break;
            }
            CHECK_ERR(error, 0);
            CHECK(n < cap.n);
            CHECK(dp_packet_equal(packet, cap.packets[n]));
            dp_packet_delete(packet);
            n++;
        }
        CHECK_EQ(n, 4);
        ovs_pcap_close(pcap);
        unlink("test-hw-model-tunnel.pcap");
    }

    /* Once the far end is gone, it gets nothing. */
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, NULL, NULL), 0);
    send_frame(&s, inner, 0);
    CHECK_EQ(cap.n, 4);
    capture_clear(&cap);

    for (int i = 0; i < 3; i++) {
        CHECK_ERR(ops->destroy_flow(flows[i]), 0);
    }
    CHECK_ERR(ops->destroy_action(vxlan_encap), 0);
    CHECK_ERR(ops->destroy_action(gre_encap), 0);
    CHECK_ERR(ops->destroy_action(l3_encap), 0);
    setup_destroy(&s);
    free(tagged);
    free(inner);
    free(l3_tmpl);
    free(gre_tmpl);
    free(vxlan_tmpl);
}

/* Reformats valid only on their direction, and their sizes. */
static void
test_device_reformat_errors(void)
{
    const enum mlx5dv_flow_table_type rx = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
    const enum mlx5dv_flow_table_type tx = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
    struct ibv_flow_action *action, *decap, *encap;
    struct frame *tmpl = outer_template(VXLAN4, 0);
    struct hw_model_objects objs;
    struct ibv_flow *flow;
    struct hw_dev_caps caps;
    uint8_t big[256];
    struct setup s;
    struct rule r;
    size_t n;

    setup_create(&s, "model43");
    CHECK_ERR(ops->query_caps(s.port.ctx, &caps), 0);
    CHECK_ERR(hw_model_count_objects(s.port.devname, &objs), 0);
    n = objs.total;
    memset(big, 0, sizeof big);
    memcpy(big, tmpl->data, tmpl->len);

    CHECK_ERR(ops->create_reformat(s.port.ctx, 0, NULL, L2_DECAP, tx, &action),
              EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.port.ctx, 14, big, L3_DECAP, tx, &action),
              EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.port.ctx, tmpl->len, tmpl->data, L2_ENCAP,
                                   rx, &action), EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.port.ctx, tmpl->len, tmpl->data, L3_ENCAP,
                                   rx, &action), EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.port.ctx, 17, big, L3_DECAP, rx, &action),
              EINVAL);
    CHECK_ERR(ops->create_reformat(s.port.ctx, caps.max_encap_header + 1, big,
                                   L2_ENCAP, tx, &action), EINVAL);
    CHECK_ERR(ops->create_reformat(s.port.ctx, caps.max_encap_header + 1, big,
                                   L3_ENCAP, tx, &action), EINVAL);
    CHECK(!action);
    CHECK_ERR(hw_model_count_objects(s.port.devname, &objs), 0);
    CHECK_EQ(objs.total, n);
    CHECK_ERR(ops->create_reformat(s.port.ctx, caps.max_encap_header, big,
                                   L2_ENCAP, tx, &encap), 0);
    CHECK_ERR(ops->create_reformat(s.port.ctx, 0, NULL, L2_DECAP, rx,
                                   &decap), 0);

    /* An encap on an ingress rule and a decap on an egress rule. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_udp_dst(&r, 4789);
    rule_add_handle(&r, encap);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flow), EINVAL);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_udp_dst(&r, 4789);
    rule_add_handle(&r, decap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r),
                               &flow), EINVAL);

    /* VXLAN and GRE specs have no INNER form. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    {
        struct ibv_flow_spec_tunnel spec = {
            .type = IBV_FLOW_SPEC_VXLAN_TUNNEL | IBV_FLOW_SPEC_INNER,
            .size = sizeof spec,
        };

        rule_add(&r, &spec, sizeof spec);
    }
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flow), EINVAL);

    CHECK_ERR(hw_model_count_objects(s.port.devname, &objs), 0);
    CHECK_EQ(objs.total, n + 2);
    CHECK_ERR(ops->destroy_action(encap), 0);
    CHECK_ERR(ops->destroy_action(decap), 0);
    setup_destroy(&s);
    free(tmpl);
}

/* ---------------------------------------------------------------------- */
/* The AF_PACKET wire (root, a veth pair).                                */
/* ---------------------------------------------------------------------- */

#ifdef __linux__
static int
open_peer(const char *ifname)
{
    struct sockaddr_ll sll;
    int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

    CHECK(fd >= 0);
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = if_nametoindex(ifname);
    CHECK(sll.sll_ifindex);
    CHECK(!bind(fd, (struct sockaddr *) &sll, sizeof sll));
    return fd;
}

/* Waits up to 5 s for a frame on 'fd' that is 'want'; other frames (the
 * kernel's own) are skipped. */
static bool
peer_receive(int fd, const struct frame *want)
{
    long long int deadline = time_msec() + 5000;
    static uint8_t buf[70000];

    while (time_msec() < deadline) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;

        if (poll(&pfd, 1, 100) <= 0) {
            continue;
        }
        n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n == want->len && !memcmp(buf, want->data, n)) {
            return true;
        }
    }
    return false;
}

/* Waits up to 5 s for 'want' on the WQ of 's'; other frames are
 * skipped. */
static bool
model_receive_wait(const struct setup *s, const struct frame *want,
                   uint32_t tag)
{
    long long int deadline = time_msec() + 5000;

    while (time_msec() < deadline) {
        struct dp_packet_batch batch;
        bool found = false;

        dp_packet_batch_init(&batch);
        if (ops->rx_burst(s->port.wq, s->port.cq, &batch)) {
            xnanosleep(10 * 1000 * 1000);
            continue;
        }
        for (size_t i = 0; i < dp_packet_batch_size(&batch); i++) {
            struct dp_packet *p = batch.packets[i];
            uint32_t mark = 0;

            dp_packet_has_flow_mark(p, &mark);
            if (dp_packet_size(p) == want->len
                && !memcmp(dp_packet_data(p), want->data, want->len)
                && mark == tag) {
                found = true;
            }
        }
        dp_packet_delete_batch(&batch, true);
        if (found) {
            return true;
        }
    }
    return false;
}

static void
test_afpacket(const char *ifname, const char *peer_name)
{
    struct hw_model_afpacket_stats st;
    struct ibv_flow_action *decap, *encap;
    struct frame *inner = inner_frame(120, -1, false);
    struct frame *vxlan = encapsulated(VXLAN4, inner, 0, 0);
    struct frame *tmpl = outer_template(VXLAN4, 0);
    struct ibv_flow *flows[2];
    struct setup s;
    struct rule r;
    char *msg;
    int peer;

    setup_create(&s, "model44");
    CHECK_ERR(hw_model_afpacket_attach("model9997", ifname, &msg), ENODEV);
    free(msg);
    CHECK_ERR(hw_model_afpacket_attach(s.port.devname, "no-such-if0", &msg),
              ENODEV);
    CHECK(strstr(msg, "no-such-if0"));
    free(msg);
    CHECK_ERR(hw_model_afpacket_detach(s.port.devname), ENOENT);
    CHECK_ERR(hw_model_afpacket_attach(s.port.devname, ifname, NULL), 0);
    CHECK_ERR(hw_model_afpacket_attach(s.port.devname, ifname, &msg), EEXIST);
    free(msg);
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, dummy_tx, NULL), EBUSY);

    CHECK_ERR(ops->create_reformat(s.port.ctx, 0, NULL, L2_DECAP,
                                   MLX5DV_FLOW_TABLE_TYPE_NIC_RX, &decap), 0);
    CHECK_ERR(ops->create_reformat(s.port.ctx, tmpl->len, tmpl->data, L2_ENCAP,
                                   MLX5DV_FLOW_TABLE_TYPE_NIC_TX, &encap), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_udp_dst(&r, 4789);
    rule_add_vni(&r, 0x123456);
    rule_add_handle(&r, decap);
    rule_add_tag(&r, 9);
    CHECK_ERR(ops->create_flow(s.port.rss_qp, rule_attr(&r),
                               &flows[0]), 0);
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_dst(&r, "0a:00:00:00:00:02");
    rule_add_handle(&r, encap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r),
                               &flows[1]), 0);

    /* Peer -> model: decapsulated by the ingress rule. */
    peer = open_peer(peer_name);
    CHECK(send(peer, vxlan->data, vxlan->len, 0) == vxlan->len);
    CHECK(model_receive_wait(&s, inner, 9));

    /* Model -> peer: encapsulated by the egress rule; the model does not
     * read back its own frame. */
    send_frame(&s, inner, 0);
    CHECK(peer_receive(peer, vxlan));
    CHECK_ERR(hw_model_afpacket_get_stats(s.port.devname, &st), 0);
    CHECK(st.rx_frames >= 1 && st.tx_frames == 1 && !st.tx_errors);
    CHECK_EQ(model_stats(s.port.devname).tx_encap, 1);
    CHECK_EQ(model_stats(s.port.devname).rx_decap, 1);

    CHECK_ERR(hw_model_afpacket_detach(s.port.devname), 0);
    CHECK_ERR(hw_model_afpacket_get_stats(s.port.devname, &st), ENOENT);
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, dummy_tx, NULL), 0);
    CHECK_ERR(hw_model_set_wire_tx(s.port.devname, NULL, NULL), 0);
    close(peer);

    CHECK_ERR(ops->destroy_flow(flows[0]), 0);
    CHECK_ERR(ops->destroy_flow(flows[1]), 0);
    CHECK_ERR(ops->destroy_action(decap), 0);
    CHECK_ERR(ops->destroy_action(encap), 0);
    setup_destroy(&s);
    free(tmpl);
    free(vxlan);
    free(inner);
}
#endif

static void
test_hw_model_tunnel_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "vxlan-ipv4", test_vxlan_ipv4 },
        { "vxlan-ipv6", test_vxlan_ipv6 },
        { "gre-key", test_gre_key },
        { "l3-gre", test_l3_gre },
        { "reformat-errors", test_reformat_errors },
        { "device-decap", test_device_decap },
        { "device-encap", test_device_encap },
        { "device-reformat-errors", test_device_reformat_errors },
    };

    ops = &hw_model_ops;
    if (argc == 4 && !strcmp(argv[1], "afpacket")) {
#ifdef __linux__
        test_afpacket(argv[2], argv[3]);
        printf("afpacket: ok\n");
        return;
#else
        ovs_fatal(0, "afpacket needs Linux");
#endif
    }
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-model-tunnel", test_hw_model_tunnel_main);
