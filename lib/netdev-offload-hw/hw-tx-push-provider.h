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

#ifndef HW_TX_PUSH_PROVIDER_H
#define HW_TX_PUSH_PROVIDER_H 1

/* The ways a device can do a tunnel push, one class each (hw-tx-push.h).
 *
 * hw-tx-push.c asks its classes in order and takes the first one usable on
 * the device; the object that the class's create() returns is the push on
 * the device, which only that class reads.  The classes see only the
 * device interface (hw-dev.h): capabilities and ops, never which backend
 * drives the device.
 *
 * An object lives under RCU like the push that holds it: destroy()
 * destroys its device objects at once and frees it after a grace period,
 * so that a datapath thread may still call prepare() on it meanwhile. */

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

struct hw_tx_push_class {
    const char *name;               /* For the log. */

    /* Whether 'dev' can push this way, from its capabilities and ops. */
    bool (*usable)(const struct netdev_hw_device *dev);

    /* As hw_tx_push_create(), storing the push in '*objp'.  On error,
     * leaves nothing on the device. */
    int (*create)(const struct netdev_hw_device *dev, struct ibv_qp *qp,
                  const struct hw_rule *rule, void **objp,
                  struct ds *reason);
    void (*destroy)(void *obj);

    /* As hw_tx_push_prepare(). */
    bool (*prepare)(const void *obj, struct dp_packet *packet,
                    const void *header, size_t header_len);

    /* Reads what the push counted.  Returns 0 or an errno value.  NULL if
     * the way counts nothing. */
    int (*read)(const void *obj, uint64_t *packets, uint64_t *bytes);

    /* Appends the push's device rule to 's'.  NULL if it has none. */
    void (*format)(const void *obj, struct ds *s);

    /* The send path, for every hw port whatever its device.  NULL if the
     * way needs no such step. */

    /* As hw_tx_push_is_forged(), for the packets this way prepares. */
    bool (*is_forged)(const struct dp_packet *packet, struct eth_addr *dst);

    /* As hw_tx_push_divert(), for a way that sends on queues of its own:
     * hw-tx-push.c calls it only while such a push lives. */
    size_t (*divert)(const struct ibv_context *ctx, size_t max_frame_len,
                     struct dp_packet_batch *batch,
                     uint64_t *n_sent, uint64_t *n_bytes);
};

/* A send queue whose encapsulation adds the header (caps->qp_encap:
 * hbl/hw-hbl-push.c). */
extern const struct hw_tx_push_class hw_tx_push_qp_encap_class;

/* An egress rule that replaces a marker Ethernet header with the tunnel
 * header (hw-tx-push-rule.c). */
extern const struct hw_tx_push_class hw_tx_push_rule_class;

#endif /* hw-tx-push-provider.h */
