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

#ifndef HW_MODEL_FWDUMP_H
#define HW_MODEL_FWDUMP_H 1

/* The NIC model's register-dump personality: what FreeBSD's mlx5 driver
 * does for the MLX5_FWDUMP_* ioctls (mlx5_fwdump.c; hw-apis.md section
 * 6.1), for the device ops fwdump_force/get/reset of hw-dev.h.
 *
 * Each model device has a register map of a few hundred crspace addresses,
 * generated from its name (so it is the same in every run), built when the
 * device's dump state is first used (the driver builds it at attach).  A
 * capture reads every register; most hold constant values, the one at 0x4
 * counts captures and every 16th register changes with each capture, as
 * counters do.  With dumps disabled (hw.mlx5.fw_dump_enable=0) the device
 * has no map: the driver's dump_data is NULL.
 *
 * Thread-safe. */

#include <stdbool.h>
#include <stddef.h>

struct hw_fwdump_reg;
struct ibv_context;

/* Device ops (contract in hw-fwdump.h). */
int hw_model_fwdump_force(struct ibv_context *);
int hw_model_fwdump_get(struct ibv_context *, struct hw_fwdump_reg *buf,
                        size_t n, size_t *n_filled);
int hw_model_fwdump_reset(struct ibv_context *);

/* Enables or disables dumps on model device 'devname' (which need not be
 * open).  Disabling discards the map and any dump.  Returns 0, or ENODEV if
 * 'devname' is not a model device name. */
int hw_model_fwdump_set_enabled(const char *devname, bool enabled);

/* A firmware fatal error on 'devname': the driver captures a dump unless
 * one is held.  Returns 0, EEXIST (the held dump is kept), EIO (dumps
 * disabled) or ENODEV. */
int hw_model_fwdump_fatal(const char *devname);

/* Registers "hw-model/fwdump DEV enable|disable|fatal".  Idempotent. */
void hw_model_fwdump_init(void);

#endif /* hw-model-fwdump.h */
