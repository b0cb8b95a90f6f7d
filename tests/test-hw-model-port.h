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

#ifndef TEST_HW_MODEL_PORT_H
#define TEST_HW_MODEL_PORT_H 1

/* For the plugin's unit tests: a port of the NIC model as netdev-hw builds
 * its receive side (one WQ behind an RSS QP), send QPs on it, what it puts
 * on the wire, and steering rules as libibverbs reads them (the attribute,
 * then the specs back to back), all through hw_model_ops. */

#include <stddef.h>
#include <stdint.h>

#include "hw-dev.h"
#include "hw-model.h"

struct dp_packet;
struct frame;

struct model_port {
    const char *devname;
    struct ibv_context *ctx;
    struct hw_dev_caps caps;
    struct ibv_pd *pd;
    struct ibv_cq_ex *cq;
    struct ibv_wq *wq;              /* Ready, 'depth' entries. */
    struct ibv_rwq_ind_table *table;
    struct ibv_qp *rss_qp;          /* Toeplitz, Microsoft key. */
};

void model_port_create(struct model_port *, const char *devname,
                       uint32_t depth, uint64_t rx_hash_fields);
struct ibv_qp *model_port_create_send_qp(struct model_port *);
struct ibv_qp *model_port_create_rss_qp(struct model_port *, uint32_t depth,
                                       uint64_t rx_hash_fields,
                                       struct ibv_wq **,
                                       struct ibv_rwq_ind_table **);
void model_port_destroy(struct model_port *);
struct hw_model_stats model_stats(const char *devname);

/* The number of live objects of model device 'devname'. */
size_t model_objects(const char *devname);

/* Puts 'f' on the wire of 'p' and checks that its WQ receives 'want' from
 * its byte 'want_skip' on, with flow mark 'tag' (0: none). */
void model_port_check_rx(const struct model_port *, const struct frame *f,
                         const struct frame *want, size_t want_skip,
                         uint32_t tag);

/* The far end of a model device's wire: a copy of every frame put on it,
 * with hw_model_set_wire_tx(devname, capture_tx, &capture). */
struct capture {
    struct dp_packet *packets[16];
    size_t n;
};

void capture_tx(void *capture, const struct dp_packet *);
void capture_clear(struct capture *);

struct rule {
    uint64_t buf[64];               /* Aligned like a malloc'd buffer. */
};

void rule_init(struct rule *, enum ibv_flow_attr_type, uint16_t priority,
               uint32_t flags);
struct ibv_flow_attr *rule_attr(struct rule *);
void rule_add(struct rule *, const void *spec, size_t size);
void rule_add_udp_dst(struct rule *, uint16_t dst);
void rule_add_tag(struct rule *, uint32_t tag);
void rule_add_handle(struct rule *, struct ibv_flow_action *);

#endif /* test-hw-model-port.h */
