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

/* The packets of the NIC model's steering tests (test-hw-model-flow*.c):
 * frames built from a description, tunnel packets (VXLAN, GRE) around an
 * inner frame, and their parse and lookup through a steering engine. */

#include <config.h>
#undef NDEBUG
#include "test-hw-model-flow-private.h"

#include <string.h>
#include "dp-packet.h"
#include "packets.h"

/* ---------------------------------------------------------------------- */
/* Packets.                                                               */
/* ---------------------------------------------------------------------- */

struct pkt
pkt_tcp4(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    return (struct pkt) {
        .dst = "00:00:00:00:00:02", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_IP, .ip = 4, .ip_src = src, .ip_dst = dst,
        .proto = IPPROTO_TCP, .sport = sport, .dport = dport,
        .payload = 10,
    };
}

struct pkt
pkt_udp4(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    struct pkt p = pkt_tcp4(src, dst, sport, dport);

    p.proto = IPPROTO_UDP;
    return p;
}

struct pkt
pkt_tcp6(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
    return (struct pkt) {
        .dst = "00:00:00:00:00:02", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_IPV6, .ip = 6, .ip_src = src, .ip_dst = dst,
        .proto = IPPROTO_TCP, .sport = sport, .dport = dport,
        .payload = 10,
    };
}

struct pkt
pkt_arp(void)
{
    return (struct pkt) {
        .dst = "ff:ff:ff:ff:ff:ff", .src = "00:00:00:00:00:01",
        .eth_type = ETH_TYPE_ARP, .payload = 28,
    };
}

size_t
build_frame(const struct pkt *p, uint8_t *buf)
{
    size_t ofs = 0, l3;

    put_mac(buf, p->dst);
    put_mac(buf + 6, p->src);
    ofs = 12;
    for (int i = 0; i < p->n_tags; i++) {
        put_be16(buf + ofs, p->tpid[i]);
        put_be16(buf + ofs + 2, p->tci[i]);
        ofs += 4;
    }
    put_be16(buf + ofs, p->eth_type);
    ofs += 2;
    l3 = ofs;

    if (p->ip == 4) {
        size_t ihl = 20 + 4 * p->ip_opt_words;

        memset(buf + ofs, 0, ihl);
        buf[ofs] = 0x40 | (ihl / 4);
        buf[ofs + 1] = p->tos;
        put_be16(buf + ofs + 6, p->frag);
        buf[ofs + 8] = 64;
        buf[ofs + 9] = p->proto;
        put_ip4(buf + ofs + 12, p->ip_src);
        put_ip4(buf + ofs + 16, p->ip_dst);
        for (size_t i = 20; i < ihl; i++) {
            buf[ofs + i] = 1;       /* NOP options. */
        }
        ofs += ihl;
    } else if (p->ip == 6) {
        put_be32(buf + ofs, (6u << 28) | ((uint32_t) p->tos << 20)
                 | p->label);
        put_be16(buf + ofs + 4, 0);
        buf[ofs + 6] = p->frag6 ? 44 : p->proto;
        buf[ofs + 7] = 64;
        put_ip6(buf + ofs + 8, p->ip_src);
        put_ip6(buf + ofs + 24, p->ip_dst);
        ofs += 40;
        if (p->frag6) {
            buf[ofs] = p->proto;
            buf[ofs + 1] = 0;
            put_be16(buf + ofs + 2, p->frag);
            put_be32(buf + ofs + 4, 0x1234);
            ofs += 8;
        }
    }

    if (p->ip) {
        if (p->proto == IPPROTO_TCP) {
            memset(buf + ofs, 0, 20);
            put_be16(buf + ofs, p->sport);
            put_be16(buf + ofs + 2, p->dport);
            buf[ofs + 12] = 5 << 4;
            ofs += 20;
        } else if (p->proto == IPPROTO_UDP) {
            memset(buf + ofs, 0, 8);
            put_be16(buf + ofs, p->sport);
            put_be16(buf + ofs + 2, p->dport);
            ofs += 8;
        }
        if (p->ip == 4) {
            put_be16(buf + l3 + 2, ofs - l3 + p->payload);
        }
    }
    if (p->payload_data) {
        memcpy(buf + ofs, p->payload_data, p->payload);
    } else {
        memset(buf + ofs, 0xa5, p->payload);
    }
    ofs += p->payload;
    return p->trunc && p->trunc < ofs ? p->trunc : ofs;
}

void
parse_pkt(const struct pkt *p, struct hw_model_parsed *parsed, size_t *lenp)
{
    uint8_t buf[512];
    size_t len = build_frame(p, buf);
    struct dp_packet *packet = dp_packet_new(len);

    dp_packet_put(packet, buf, len);
    hw_model_parse(packet, parsed);
    dp_packet_delete(packet);
    if (lenp) {
        *lenp = len;
    }
}

struct hw_model_verdict
run_dir(struct hw_model_steering *st, const struct pkt *p, bool egress)
{
    struct hw_model_verdict verdict;
    struct hw_model_parsed parsed;
    size_t len;

    parse_pkt(p, &parsed, &len);
    hw_model_steering_lookup(st, &parsed, len, egress, &verdict);
    return verdict;
}

struct hw_model_verdict
run(struct hw_model_steering *st, const struct pkt *p)
{
    return run_dir(st, p, false);
}

size_t
frame_len(const struct pkt *p)
{
    uint8_t buf[512];

    return build_frame(p, buf);
}

/* ---------------------------------------------------------------------- */
/* Tunnels.                                                               */
/* ---------------------------------------------------------------------- */

void
tnl_pkt_init(struct tnl_pkt *t, const struct pkt *outer, const uint8_t *hdr,
             size_t hdr_len, const struct pkt *inner, size_t inner_skip)
{
    uint8_t frame[400];
    size_t n = inner ? build_frame(inner, frame) : 0;

    CHECK(n >= inner_skip && hdr_len + n - inner_skip <= sizeof t->data);
    memcpy(t->data, hdr, hdr_len);
    if (n) {
        memcpy(t->data + hdr_len, frame + inner_skip, n - inner_skip);
    }
    t->p = *outer;
    t->p.payload = hdr_len + n - inner_skip;
    t->p.payload_data = t->data;
}

size_t
vxlan_hdr(uint8_t *buf, uint32_t vni)
{
    memset(buf, 0, 8);
    buf[0] = 0x08;                  /* I: the VNI is valid. */
    put_be32(buf + 4, vni << 8);
    return 8;
}

/* A GRE header with 'flags' (C 0x8000, K 0x2000, S 0x1000, version). */
static size_t
gre_hdr(uint8_t *buf, uint16_t flags, uint16_t proto, uint32_t key)
{
    size_t n = 4;

    put_be16(buf, flags);
    put_be16(buf + 2, proto);
    if (flags & 0x8000) {
        put_be32(buf + n, 0xc5c50000);  /* Checksum (not checked). */
        n += 4;
    }
    if (flags & 0x2000) {
        put_be32(buf + n, key);
        n += 4;
    }
    if (flags & 0x1000) {
        put_be32(buf + n, 77);          /* Sequence number. */
        n += 4;
    }
    return n;
}

/* VXLAN over IPv4 to 'port', VNI 'vni', carrying 'inner'. */
void
vxlan4_pkt(struct tnl_pkt *t, uint16_t port, uint32_t vni,
           const struct pkt *inner)
{
    struct pkt outer = pkt_udp4("192.168.0.1", "192.168.0.2", 49152, port);
    uint8_t hdr[8];

    tnl_pkt_init(t, &outer, hdr, vxlan_hdr(hdr, vni), inner, 0);
}

/* GRE over IPv4 (or IPv6 if 'ip6'), carrying 'inner' as an Ethernet frame
 * if 'proto' is 0x6558, else its L3 packet. */
void
gre_pkt(struct tnl_pkt *t, bool ip6, uint16_t flags, uint16_t proto,
        uint32_t key, const struct pkt *inner)
{
    struct pkt outer = (ip6
                        ? pkt_tcp6("2001:db8::1", "2001:db8::2", 0, 0)
                        : pkt_tcp4("192.168.0.1", "192.168.0.2", 0, 0));
    uint8_t hdr[16];
    size_t skip = 0;

    outer.proto = IPPROTO_GRE;
    if (inner && proto != ETH_TYPE_TEB) {
        skip = 14 + 4 * inner->n_tags;
    }
    tnl_pkt_init(t, &outer, hdr, gre_hdr(hdr, flags, proto, key), inner,
                 skip);
}

/* Looks 'p' up with the parser of 'st' (its VXLAN ports). */
struct hw_model_verdict
run_st(struct hw_model_steering *st, const struct pkt *p)
{
    struct hw_model_verdict verdict;
    struct hw_model_parsed parsed;
    uint8_t buf[512];
    size_t len = build_frame(p, buf);
    struct dp_packet *packet = dp_packet_new(len);

    dp_packet_put(packet, buf, len);
    hw_model_steering_parse(st, packet, &parsed);
    dp_packet_delete(packet);
    hw_model_steering_lookup(st, &parsed, len, false, &verdict);
    return verdict;
}
