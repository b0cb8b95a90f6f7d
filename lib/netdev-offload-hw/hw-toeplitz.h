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

#ifndef HW_TOEPLITZ_H
#define HW_TOEPLITZ_H 1

/* The Toeplitz hash of the Microsoft RSS specification, bit exact, and the
 * way an mlx5 RSS QP (TIR) builds its input from a packet.
 *
 * Pure code: no state, safe to call from any thread. */

#include <stddef.h>
#include <stdint.h>

struct hw_model_parsed;

/* Length of the RSS key that mlx5 (and the kernel) accept. */
#define HW_TOEPLITZ_KEY_LEN 40

/* DPDK's mlx5 default RSS key (mlx5_rss_hash_default_key). */
extern const uint8_t hw_toeplitz_default_key[HW_TOEPLITZ_KEY_LEN];

/* The Microsoft verification key ("Verifying the RSS Hash Calculation"). */
extern const uint8_t hw_toeplitz_ms_key[HW_TOEPLITZ_KEY_LEN];

/* Returns the Toeplitz hash of the 'input_len' bytes at 'input' under the
 * 'key_len' bytes of 'key'.  Input bits are consumed left-most byte first,
 * most significant bit first; key bits past the end of 'key' read as 0. */
uint32_t hw_toeplitz_hash(const uint8_t *key, size_t key_len,
                          const uint8_t *input, size_t input_len);

/* Builds the hash input an RSS QP with IBV_RX_HASH_* 'fields' would build
 * from 'parsed' into 'input' (at least 36 bytes) and returns its length:
 * source IP, destination IP (4 + 4 or 16 + 16 bytes), source port,
 * destination port (2 + 2), each only if selected, in network byte order.
 *
 * Returns -1 if the packet's type does not match the hashed fields: an
 * IPv4 field on a packet that is not IPv4 (IPv6 likewise; with port fields
 * only, the QP's L3 type is IPv4, as mlx5 programs it), a TCP port field on
 * a packet without a TCP header (a UDP packet, a later fragment, a
 * truncated header; UDP likewise), IBV_RX_HASH_INNER on a packet that the
 * parser did not find tunnelled, and IBV_RX_HASH_IPSEC_SPI, which the model
 * does not parse. */
int hw_toeplitz_build_input(const struct hw_model_parsed *, uint64_t fields,
                            uint8_t input[36]);

/* The hash an RSS QP with 'fields' and 'key' computes for 'parsed': the
 * Toeplitz hash of hw_toeplitz_build_input(), or 0 when the packet's type
 * does not match the hashed fields (model assumption, hw-apis.md 2.2: the
 * packet then lands on indirection table entry 0). */
uint32_t hw_toeplitz_hash_parsed(const uint8_t *key, size_t key_len,
                                 const struct hw_model_parsed *,
                                 uint64_t fields);

#endif /* hw-toeplitz.h */
