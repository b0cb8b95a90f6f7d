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
#include "hw-toeplitz.h"

#include <string.h>
#include <infiniband/verbs.h>
#include "hw-model-flow.h"

const uint8_t hw_toeplitz_default_key[HW_TOEPLITZ_KEY_LEN] = {
    0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7,
    0xfc, 0xa2, 0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94,
    0x6b, 0x9e, 0x38, 0xd9, 0x2c, 0x9c, 0x03, 0xd1,
    0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56, 0x3d, 0x59,
    0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
};

const uint8_t hw_toeplitz_ms_key[HW_TOEPLITZ_KEY_LEN] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
    0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
    0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
    0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
    0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* Bit 'n' of 'key', counting from the most significant bit of key[0]. */
static unsigned int
key_bit(const uint8_t *key, size_t key_len, size_t n)
{
    return n / 8 < key_len ? (key[n / 8] >> (7 - n % 8)) & 1 : 0;
}

uint32_t
hw_toeplitz_hash(const uint8_t *key, size_t key_len,
                 const uint8_t *input, size_t input_len)
{
    uint32_t window = 0;
    uint32_t result = 0;
    size_t next_bit;

    /* The 32-bit window starts as key bits 0..31 and slides one key bit to
     * the left for every input bit. */
    for (next_bit = 0; next_bit < 32; next_bit++) {
        window = (window << 1) | key_bit(key, key_len, next_bit);
    }

    for (size_t i = 0; i < input_len; i++) {
        for (int bit = 7; bit >= 0; bit--) {
            if (input[i] & (1u << bit)) {
                result ^= window;
            }
            window = (window << 1) | key_bit(key, key_len, next_bit++);
        }
    }
    return result;
}

int
hw_toeplitz_build_input(const struct hw_model_parsed *parsed,
                        uint64_t fields, uint8_t input[36])
{
    const uint64_t ipv4 = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4;
    const uint64_t ipv6 = IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6;
    const uint64_t tcp = IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP;
    const uint64_t udp = IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP;
    int len = 0;

    /* The model's parser does not classify tunnels yet, so no packet has
     * the inner headers an INNER QP hashes; it does not parse ESP either. */
    if (fields & (IBV_RX_HASH_INNER | IBV_RX_HASH_IPSEC_SPI)) {
        return -1;
    }
    if (!(fields & (ipv4 | ipv6 | tcp | udp))) {
        return 0;
    }
    /* Combinations that mlx5 refuses when the QP is created. */
    if (((fields & ipv4) && (fields & ipv6))
        || ((fields & tcp) && (fields & udp))) {
        return -1;
    }

    /* The TIR hashes one L3 type: IPv6 if an IPv6 field is selected, else
     * IPv4 (also when only ports are selected: mlx5's l3_prot_type 0). */
    if (parsed->ip_version != (fields & ipv6 ? 6 : 4)) {
        return -1;
    }
    if ((fields & tcp) && !(parsed->has_l4 && parsed->ip_proto == 6)) {
        return -1;
    }
    if ((fields & udp) && !(parsed->has_l4 && parsed->ip_proto == 17)) {
        return -1;
    }

    if (fields & IBV_RX_HASH_SRC_IPV4) {
        memcpy(&input[len], &parsed->ipv4_src, 4);
        len += 4;
    }
    if (fields & IBV_RX_HASH_DST_IPV4) {
        memcpy(&input[len], &parsed->ipv4_dst, 4);
        len += 4;
    }
    if (fields & IBV_RX_HASH_SRC_IPV6) {
        memcpy(&input[len], &parsed->ipv6_src, 16);
        len += 16;
    }
    if (fields & IBV_RX_HASH_DST_IPV6) {
        memcpy(&input[len], &parsed->ipv6_dst, 16);
        len += 16;
    }
    if (fields & (IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_SRC_PORT_UDP)) {
        memcpy(&input[len], &parsed->l4_src, 2);
        len += 2;
    }
    if (fields & (IBV_RX_HASH_DST_PORT_TCP | IBV_RX_HASH_DST_PORT_UDP)) {
        memcpy(&input[len], &parsed->l4_dst, 2);
        len += 2;
    }
    return len;
}

uint32_t
hw_toeplitz_hash_parsed(const uint8_t *key, size_t key_len,
                        const struct hw_model_parsed *parsed, uint64_t fields)
{
    uint8_t input[36];
    int len = hw_toeplitz_build_input(parsed, fields, input);

    return len < 0 ? 0 : hw_toeplitz_hash(key, key_len, input, len);
}
