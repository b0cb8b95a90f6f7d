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

#ifndef HW_TX_PUSH_H
#define HW_TX_PUSH_H 1

/* The tunnel push a device does for the packets a hw port sends.
 *
 * Devices do it one of two ways, each a class of hw-tx-push-provider.h,
 * and their capabilities say which:
 *
 *   - an egress rule (verbs, dr; hw-tx-push-rule.c): a rule on the port's
 *     send side matches the marker Ethernet header that
 *     hw_tx_push_prepare() puts in front of a packet and replaces it with
 *     the tunnel header (a packet reformat, hw-translate.h);
 *   - a send queue whose encapsulation adds the header (hbl, per-QP
 *     encapsulation, caps->qp_encap; hbl/hw-hbl-push.c):
 *     hw_tx_push_prepare() puts the head of the header in front of the
 *     packet and marks it for that queue, and the port's send path hands
 *     such packets to hw_tx_push_divert(), which sends them there.
 *
 * This file picks the way and dispatches to it; nothing above it knows
 * which way a device takes: the offload core creates, destroys and shows a
 * push, the push hook prepares packets for it, and the port's send path
 * diverts them and drops forged markers.
 *
 * A push is read by the datapath threads under RCU: hw_tx_push_destroy()
 * destroys its device objects at once and frees it after a grace
 * period. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;
struct ds;
struct eth_addr;
struct hw_rule;
struct ibv_context;
struct ibv_qp;
struct netdev_hw_device;

struct hw_tx_push;

/* Creates on 'dev' the push that 'rule' describes: the egress rule of a
 * marker (its outer Ethernet destination, hw_push_marker()) with the
 * encap reformat of the tunnel header.  'qp' is a QP of the port (an
 * egress rule's only names the device).  Returns 0, or an errno value with
 * a reason appended to 'reason' and nothing left on the device. */
int hw_tx_push_create(const struct netdev_hw_device *dev, struct ibv_qp *qp,
                      const struct hw_rule *rule, struct hw_tx_push **pushp,
                      struct ds *reason);

/* Destroys the device objects of 'push' (what the device refuses to destroy
 * goes to hw-stale.h) and frees it after an RCU grace period.  Packets
 * prepared for it meanwhile are dropped.  Must be called before its device
 * is closed. */
void hw_tx_push_destroy(struct hw_tx_push *push);

/* The push hook's part (in an RCU reader): instead of pushing the tunnel
 * header 'header' of 'header_len' bytes (the one 'push' adds), prepares
 * 'packet' (an Ethernet frame, or an L3 packet after a pop_eth) for the
 * device's push and gives it the flow mark HW_PUSH_PACKET_MARK.  Returns
 * false, with 'packet' unchanged, if the software must push. */
bool hw_tx_push_prepare(const struct hw_tx_push *push,
                        struct dp_packet *packet,
                        const void *header, size_t header_len);

/* Appends to 's' what 'push' counted and does, for dump-rules:
 * "packets:N, bytes:N, rule: ..." ("packets:?, bytes:?" if the device has
 * no counter for it). */
void hw_tx_push_format(const struct hw_tx_push *push, struct ds *s);

/* The send path.  Returns true if 'packet', about to leave a hw port,
 * looks like a prepared packet (the marker ethertype, behind VLAN tags or
 * not, as the egress rule matches it) that the push hook did not prepare:
 * the device would push a tenant's tunnel header on a frame that any port
 * of the bridge may have received.  Stores its destination in '*dst'. */
bool hw_tx_push_is_forged(const struct dp_packet *packet,
                          struct eth_addr *dst);

/* Whether any push of the process sends on queues of its own: only then
 * need the send path call hw_tx_push_divert(). */
bool hw_tx_push_diverting(void);

/* Takes out of 'batch' the packets prepared for a push that sends on a
 * queue of its own, and sends them there; they must belong to device
 * context 'ctx' (one prepared for another device, or for a push that is
 * gone, is dropped), and be no longer than 'max_frame_len' once the device
 * has pushed.  Adds the packets sent and their bytes on the wire to
 * '*n_sent' and '*n_bytes' and returns the number dropped.  The other
 * packets stay in 'batch', in order. */
size_t hw_tx_push_divert(const struct ibv_context *ctx, size_t max_frame_len,
                         struct dp_packet_batch *batch,
                         uint64_t *n_sent, uint64_t *n_bytes);

#endif /* hw-tx-push.h */
