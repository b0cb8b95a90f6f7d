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

#ifndef NETDEV_HW_QOS_H
#define NETDEV_HW_QOS_H 1

/* QoS and ingress policing of a hw port, run in software by the PMD
 * threads, as OVS-DPDK runs them for its ports: the QoS types
 * "egress-policer" (a single-rate two-colour marker) and "trtcm-policer"
 * (RFC 4115's two-rate three-colour marker, per queue and then per port),
 * and the Interface's ingress_policing_rate and ingress_policing_burst.
 * The NIC's own rate limiters are not used.  Any other QoS type (tc's
 * linux-htb, linux-hfsc, ...) is refused with a warning in the log and in
 * the Interface's status ("qos_error").
 *
 * Rates and bursts become OVS token buckets (token-bucket.h) of bits, on
 * OVS's clock: time/stop and time/warp make them deterministic in tests. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet_batch;
struct netdev;
struct netdev_queue_stats;
struct smap;
struct sset;

struct netdev_hw_qos *netdev_hw_qos_create(void);
void netdev_hw_qos_destroy(struct netdev_hw_qos *);

/* The netdev class callbacks. */
int netdev_hw_get_qos_types(const struct netdev *, struct sset *types);
int netdev_hw_get_qos(const struct netdev *, const char **typep,
                      struct smap *details);
int netdev_hw_set_qos(struct netdev *, const char *type,
                      const struct smap *details);
int netdev_hw_get_queue(const struct netdev *, unsigned int queue_id,
                        struct smap *details);
int netdev_hw_set_queue(struct netdev *, unsigned int queue_id,
                        const struct smap *details);
int netdev_hw_delete_queue(struct netdev *, unsigned int queue_id);
int netdev_hw_get_queue_stats(const struct netdev *, unsigned int queue_id,
                              struct netdev_queue_stats *);
int netdev_hw_queue_dump_start(const struct netdev *, void **statep);
int netdev_hw_queue_dump_next(const struct netdev *, void *state,
                              unsigned int *queue_id, struct smap *details);
int netdev_hw_queue_dump_done(const struct netdev *, void *state);
int netdev_hw_set_policing(struct netdev *, unsigned int kbits_rate,
                           unsigned int kbits_burst, unsigned int kpkts_rate,
                           unsigned int kpkts_burst);

/* Adds the refusal of the last QoS type asked for, if any, to 'status'. */
void netdev_hw_qos_get_status(const struct netdev_hw_qos *,
                              struct smap *status);

/* The PMD threads' side: remove from 'batch' (and free) the packets the
 * ingress policer or the egress QoS drops, and return how many. */
size_t netdev_hw_qos_police_rx(struct netdev_hw_qos *,
                               struct dp_packet_batch *);
size_t netdev_hw_qos_police_tx(struct netdev_hw_qos *,
                               struct dp_packet_batch *);

#endif /* netdev-hw-qos.h */
