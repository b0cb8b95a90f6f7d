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

#ifndef FUZZ_HW_H
#define FUZZ_HW_H 1

/* What the plugin's libFuzzer targets (tests/fuzz/fuzz-*.c) share: a
 * reader of the fuzzer's bytes, and a port of the NIC model as netdev-hw
 * builds it, through hw_model_ops.
 *
 * A target checks its invariants with CHECK() (test-hw-check.h), which
 * aborts: libFuzzer reports that as a crash, with the input. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw-dev.h"
#include "hw-rule.h"
#include "test-hw-check.h"

/* The fuzzer's bytes, consumed from the front. */
struct fuzz_input {
    const uint8_t *data;
    size_t size;
};

/* Each returns 0 (or copies nothing) once the input is used up. */
uint8_t fuzz_u8(struct fuzz_input *);
uint16_t fuzz_u16(struct fuzz_input *);
uint32_t fuzz_u32(struct fuzz_input *);

/* Returns the next 'n' bytes and consumes them, or NULL (consuming
 * nothing) if fewer are left. */
const uint8_t *fuzz_bytes(struct fuzz_input *, size_t n);

/* Turns off logging: the model logs every refusal. */
void fuzz_init(void);

/* A port of a model device: a WQ behind an indirection table and one RSS
 * QP per hw_rss_type, and a send QP. */
struct fuzz_port {
    const char *devname;
    struct ibv_context *ctx;
    struct hw_dev_caps caps;
    struct ibv_pd *pd;
    struct ibv_cq_ex *cq;
    struct ibv_wq *wq;
    struct ibv_rwq_ind_table *ind_tbl;
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];
    struct ibv_qp *send_qp;
    size_t n_objects;           /* Live objects of the device once made. */
};

void fuzz_port_create(struct fuzz_port *, const char *devname);

/* Fills 'dev' as netdev-hw describes the port's device to the offload
 * code: verbs steering (no pipeline). */
struct netdev_hw_device;
void fuzz_port_device(const struct fuzz_port *, struct netdev_hw_device *);

/* The number of live objects of the port's device. */
size_t fuzz_port_objects(const struct fuzz_port *);

#endif /* fuzz-hw.h */
