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


#ifndef HW_MODEL_REFORMAT_H
#define HW_MODEL_REFORMAT_H 1

/* The NIC model's packet reformat engine: what the hardware does to a
 * packet when a rule's ACTION_HANDLE names an mlx5dv packet reformat
 * (hw-apis.md section 3.1).  Pure functions of the packet, the parse of it
 * and the reformat's type and data; hw-model-rule.c owns the objects.
 *
 *   L2_TUNNEL_TO_L2 (decap, NIC RX): removes the outer L2, L3, L4 and
 *     tunnel headers, leaving the inner Ethernet frame (VXLAN, GRE with
 *     protocol 0x6558).
 *   L3_TUNNEL_TO_L2 (decap, NIC RX): removes everything up to the inner L3
 *     header and puts the 14 or 18 bytes of data in front of it.
 *   L2_TO_L2_TUNNEL (encap, NIC TX): puts the data (outer headers) in front
 *     of the frame.
 *   L2_TO_L3_TUNNEL (encap, NIC TX): removes the frame's Ethernet header and
 *     its VLAN tags, then puts the data in front.
 *
 * An encap copies its data verbatim except for what the hardware fills in:
 * the outer IPv4 total length and header checksum, the IPv6 payload length
 * and the UDP length.  The UDP checksum and source port, the IPv4
 * identification and everything else stay as given. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/mlx5dv.h>

struct dp_packet;
struct hw_model_parsed;

/* Returns true if 'type' is a decap (NIC RX) type, false for an encap. */
bool hw_model_reformat_is_decap(enum mlx5dv_flow_action_packet_reformat_type);

/* Applies the decap 'type' with its 'data' of 'size' bytes to 'packet',
 * which 'parsed' describes (hw_model_parse()).  Returns 0 if done, EINVAL
 * if 'type' is not a decap or 'data'/'size' do not fit it (nothing for
 * L2_TUNNEL_TO_L2, 14 or 18 bytes for L3_TUNNEL_TO_L2), or ENOENT if the
 * packet has no tunnel whose inner headers that decap leaves (no inner
 * Ethernet frame for L2_TUNNEL_TO_L2, no inner IP header for
 * L3_TUNNEL_TO_L2).  On error 'packet' is unchanged.  The packet's layer
 * offsets are reset. */
int hw_model_reformat_decap(struct dp_packet *packet,
                            const struct hw_model_parsed *parsed,
                            enum mlx5dv_flow_action_packet_reformat_type,
                            const void *data, size_t size);

/* Applies the encap 'type' with its 'data' (the outer headers) of 'size'
 * bytes to 'packet'.  Returns 0 if done, EINVAL if 'type' is not an encap
 * or there is no data, ENOENT if an L2_TO_L3_TUNNEL packet is shorter than
 * its Ethernet header, or EMSGSIZE if a length to fill would not fit its
 * 16-bit field.  On error 'packet' is unchanged.  The packet's layer
 * offsets are reset. */
int hw_model_reformat_encap(struct dp_packet *packet,
                            enum mlx5dv_flow_action_packet_reformat_type,
                            const void *data, size_t size);

/* Fills in the lengths and the IPv4 header checksum of the outer headers
 * 'hdr' of 'hdr_len' bytes (Ethernet, VLAN tags, IPv4 or IPv6, UDP), that
 * carry 'payload_len' bytes after them, as the hardware does on encap.
 * Fields the headers do not hold whole are left alone.  Returns 0 or
 * EMSGSIZE (nothing changed). */
int hw_model_reformat_fill_lengths(uint8_t *hdr, size_t hdr_len,
                                   size_t payload_len);

#endif /* hw-model-reformat.h */
