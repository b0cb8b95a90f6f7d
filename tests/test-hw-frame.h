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

#ifndef TEST_HW_FRAME_H
#define TEST_HW_FRAME_H 1

/* Frames for the plugin's unit tests, built byte by byte, field by field,
 * with a checksum routine of their own: the expected bytes never come from
 * the model's or the plugin's code. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;

struct frame {
    uint8_t data[70000];
    size_t len;
};

struct frame *frame_new(void);

/* Appends 'n' bytes from 'p' (zeros if 'p' is null); returns where. */
uint8_t *put(struct frame *, const void *p, size_t n);
void put_u8(struct frame *, uint8_t);
void put_be16(struct frame *, uint16_t);
void put_be32(struct frame *, uint32_t);
void set_be16(uint8_t *, uint16_t);
uint16_t get_be16(const uint8_t *);

/* Addresses in their usual text form. */
void put_mac(struct frame *, const char *);
void put_ip4(struct frame *, const char *);
void put_ip6(struct frame *, const char *);

uint16_t inet_sum(const uint8_t *, size_t n);

void put_eth(struct frame *, const char *dst, const char *src, int tci,
             uint16_t type);
size_t put_ipv4(struct frame *, uint8_t proto, const char *src,
                const char *dst, uint16_t tot_len, bool csum);
void put_ipv6(struct frame *, uint8_t next, const char *src,
              const char *dst, uint16_t payload_len);
void put_udp(struct frame *, uint16_t sport, uint16_t dport, uint16_t len,
             uint16_t csum);
void put_vxlan(struct frame *, uint32_t vni);
void put_gre(struct frame *, uint16_t flags, uint16_t proto, uint32_t key);

struct dp_packet *packet_from(const struct frame *, size_t skip);

/* Checks that the 'n' bytes at 'GOT' are those at 'WANT'; on a difference,
 * prints both in hex and aborts. */
#define CHECK_BYTES(GOT, WANT, N)                                       \
    check_bytes(__FILE__, __LINE__, #GOT, GOT, WANT, N)
void check_bytes(const char *file, int line, const char *what,
                 const void *got, const void *want, size_t n);

/* Checks that 'PACKET' holds exactly 'WANT' from its byte 'SKIP' on. */
#define CHECK_PACKET(PACKET, WANT, SKIP)                                \
    check_packet(__FILE__, __LINE__, PACKET, WANT, SKIP)
void check_packet(const char *file, int line,
                  const struct dp_packet *packet, const struct frame *want,
                  size_t skip);

#endif /* test-hw-frame.h */
