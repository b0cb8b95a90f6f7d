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
#include "test-hw-frame.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>
#include <sys/socket.h>

#include "dp-packet.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "test-hw-check.h"
#include "util.h"

struct frame *
frame_new(void)
{
    return xzalloc(sizeof(struct frame));
}

uint8_t *
put(struct frame *f, const void *p, size_t n)
{
    uint8_t *dst = f->data + f->len;

    CHECK(f->len + n <= sizeof f->data);
    if (p) {
        memcpy(dst, p, n);
    } else {
        memset(dst, 0, n);
    }
    f->len += n;
    return dst;
}

void
put_u8(struct frame *f, uint8_t x)
{
    put(f, &x, 1);
}

void
put_be16(struct frame *f, uint16_t x)
{
    uint8_t b[2] = { x >> 8, x };

    put(f, b, 2);
}

void
put_be32(struct frame *f, uint32_t x)
{
    uint8_t b[4] = { x >> 24, x >> 16, x >> 8, x };

    put(f, b, 4);
}

void
set_be16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x;
}

uint16_t
get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

void
put_mac(struct frame *f, const char *s)
{
    struct eth_addr ea;

    CHECK(eth_addr_from_string(s, &ea));
    put(f, ea.ea, 6);
}

void
put_ip4(struct frame *f, const char *s)
{
    uint8_t a[4];

    CHECK(inet_pton(AF_INET, s, a) == 1);
    put(f, a, 4);
}

void
put_ip6(struct frame *f, const char *s)
{
    uint8_t a[16];

    CHECK(inet_pton(AF_INET6, s, a) == 1);
    put(f, a, 16);
}

/* The Internet checksum of 'n' bytes, as a value to store big-endian,
 * written here independently of OVS's csum(). */
uint16_t
inet_sum(const uint8_t *p, size_t n)
{
    uint32_t sum = 0;

    for (size_t i = 0; i + 1 < n; i += 2) {
        sum += (p[i] << 8) | p[i + 1];
    }
    if (n & 1) {
        sum += p[n - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum & 0xffff;
}

/* Ethernet header, with an 802.1Q tag 'tci' if it is not negative. */
void
put_eth(struct frame *f, const char *dst, const char *src, int tci,
        uint16_t type)
{
    put_mac(f, dst);
    put_mac(f, src);
    if (tci >= 0) {
        put_be16(f, ETH_TYPE_VLAN_8021Q);
        put_be16(f, tci);
    }
    put_be16(f, type);
}

/* An IPv4 header with total length 'tot_len' and, if 'csum', a correct
 * checksum (else 0).  Returns its offset. */
size_t
put_ipv4(struct frame *f, uint8_t proto, const char *src, const char *dst,
         uint16_t tot_len, bool csum)
{
    size_t ofs = f->len;

    put_u8(f, 0x45);
    put_u8(f, 0x02);            /* ECN ECT(0). */
    put_be16(f, tot_len);
    put_be16(f, 0x4242);        /* Identification. */
    put_be16(f, 0x4000);        /* DF. */
    put_u8(f, 64);
    put_u8(f, proto);
    put_be16(f, 0);
    put_ip4(f, src);
    put_ip4(f, dst);
    if (csum) {
        set_be16(f->data + ofs + 10, inet_sum(f->data + ofs, 20));
    }
    return ofs;
}

void
put_ipv6(struct frame *f, uint8_t next, const char *src, const char *dst,
         uint16_t payload_len)
{
    put_be32(f, 0x6a012345);    /* Traffic class 0xa0, flow label. */
    put_be16(f, payload_len);
    put_u8(f, next);
    put_u8(f, 255);
    put_ip6(f, src);
    put_ip6(f, dst);
}

void
put_udp(struct frame *f, uint16_t sport, uint16_t dport, uint16_t len,
        uint16_t csum)
{
    put_be16(f, sport);
    put_be16(f, dport);
    put_be16(f, len);
    put_be16(f, csum);
}

void
put_vxlan(struct frame *f, uint32_t vni)
{
    put_be32(f, 0x08000000);
    put_be32(f, vni << 8);
}

/* GRE with 'flags' (C 0x8000, K 0x2000, S 0x1000). */
void
put_gre(struct frame *f, uint16_t flags, uint16_t proto, uint32_t key)
{
    put_be16(f, flags);
    put_be16(f, proto);
    if (flags & 0x8000) {
        put_be32(f, 0);
    }
    if (flags & 0x2000) {
        put_be32(f, key);
    }
    if (flags & 0x1000) {
        put_be32(f, 0x01020304);
    }
}

/* A packet that holds 'f' from its byte 'skip' on, with headroom for the
 * outer headers an encapsulation pushes. */
struct dp_packet *
packet_from(const struct frame *f, size_t skip)
{
    struct dp_packet *packet = dp_packet_new_with_headroom(f->len, 128);

    dp_packet_put(packet, f->data + skip, f->len - skip);
    return packet;
}

void
check_bytes(const char *file, int line, const char *what, const void *got_,
            const void *want_, size_t n)
{
    const uint8_t *got = got_, *want = want_;

    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            struct ds s = DS_EMPTY_INITIALIZER;

            ds_put_format(&s, "%s:%d: %s differs at byte %"PRIuSIZE
                          " (%#04x, expected %#04x)\ngot:\n", file, line,
                          what, i, got[i], want[i]);
            ds_put_hex_dump(&s, got, n, 0, false);
            ds_put_cstr(&s, "expected:\n");
            ds_put_hex_dump(&s, want, n, 0, false);
            ovs_abort(0, "%s", ds_cstr(&s));
        }
    }
}

void
check_packet(const char *file, int line, const struct dp_packet *packet,
             const struct frame *want, size_t skip)
{
    size_t n = want->len - skip;

    if (dp_packet_size(packet) != n) {
        ovs_abort(0, "%s:%d: packet has %"PRIu32" bytes, expected %"PRIuSIZE,
                  file, line, dp_packet_size(packet), n);
    }
    check_bytes(file, line, "packet", dp_packet_data(packet),
                want->data + skip, n);
}
