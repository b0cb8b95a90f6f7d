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
#include "hw-model-fwdump.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "hw-fwdump.h"
#include "hw-model.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_fwdump);

/* The register map: MODEL_FWDUMP_BLOCKS runs of consecutive 32-bit
 * registers, 64 KiB apart, of 32 to 79 registers each. */
#define MODEL_FWDUMP_BLOCKS     6
#define MODEL_FWDUMP_MIN_RUN    32
#define MODEL_FWDUMP_RUN_SPREAD 48

/* Registers with a meaning tests can check. */
#define MODEL_FWDUMP_ID_ADDR      0x0       /* Device and vendor id. */
#define MODEL_FWDUMP_ID_VALUE     0x101715b3u   /* ConnectX-5, Mellanox. */
#define MODEL_FWDUMP_CAPTURE_ADDR 0x4       /* Captures so far. */

/* The dump state of one device: the driver's dump_rege (addresses),
 * dump_data (values) and dump_valid. */
struct model_fwdump {
    uint32_t seed;                  /* From the device name. */
    struct hw_fwdump_reg *regs;     /* NULL: dumps disabled. */
    size_t n_regs;
    bool valid;                     /* A dump is held. */
    uint32_t n_captures;
};

static struct ovs_mutex model_fwdump_mutex = OVS_MUTEX_INITIALIZER;
static struct shash model_fwdumps OVS_GUARDED_BY(model_fwdump_mutex)
    = SHASH_INITIALIZER(&model_fwdumps);

/* A 32-bit integer hash with good avalanche, fixed here rather than taken
 * from hash.h, whose results depend on the CPU features the build uses: the
 * dump of a device must be the same on every machine. */
static uint32_t
model_fwdump_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static uint32_t
model_fwdump_seed(const char *name)
{
    uint32_t h = 2166136261u;       /* FNV-1a. */

    for (const char *p = name; *p; p++) {
        h = (h ^ (uint8_t) *p) * 16777619u;
    }
    return h;
}

/* Builds the register map (addresses in ascending order, values 0): what
 * the driver's scan of the crspace finds at attach. */
static void
model_fwdump_build_map(struct model_fwdump *fd)
{
    uint32_t runs[MODEL_FWDUMP_BLOCKS];
    size_t n = 0;

    for (int b = 0; b < MODEL_FWDUMP_BLOCKS; b++) {
        runs[b] = (MODEL_FWDUMP_MIN_RUN
                   + model_fwdump_mix(fd->seed + b) % MODEL_FWDUMP_RUN_SPREAD);
        n += runs[b];
    }
    fd->regs = xcalloc(n, sizeof *fd->regs);
    fd->n_regs = n;

    n = 0;
    for (int b = 0; b < MODEL_FWDUMP_BLOCKS; b++) {
        /* Block 0 starts at 0, the others somewhere in their 64 KiB. */
        uint32_t base = b * 0x10000u;

        if (b) {
            base += (model_fwdump_mix(fd->seed ^ b) & 0xf) * 0x100;
        }
        for (uint32_t i = 0; i < runs[b]; i++) {
            fd->regs[n++].addr = base + 4 * i;
        }
    }
    fd->valid = false;
}

/* Reads every register, as mlx5_fwdump() does through the VSC. */
static void
model_fwdump_capture(struct model_fwdump *fd)
{
    fd->n_captures++;
    for (size_t i = 0; i < fd->n_regs; i++) {
        struct hw_fwdump_reg *reg = &fd->regs[i];

        if (reg->addr == MODEL_FWDUMP_ID_ADDR) {
            reg->val = MODEL_FWDUMP_ID_VALUE;
        } else if (reg->addr == MODEL_FWDUMP_CAPTURE_ADDR) {
            reg->val = fd->n_captures;
        } else if (i % 16 == 15) {
            reg->val = model_fwdump_mix(fd->seed ^ reg->addr
                                        ^ (fd->n_captures * 0x9e3779b9u));
        } else {
            reg->val = model_fwdump_mix(fd->seed ^ reg->addr);
        }
    }
    fd->valid = true;
}

/* Returns the dump state of model device 'name', creating it (dumps
 * enabled, the driver's default) on first use, or NULL if 'name' is not a
 * model device name. */
static struct model_fwdump *
model_fwdump_get_state(const char *name)
    OVS_REQUIRES(model_fwdump_mutex)
{
    struct model_fwdump *fd;

    if (!hw_model_handles(name)) {
        return NULL;
    }
    fd = shash_find_data(&model_fwdumps, name);
    if (!fd) {
        fd = xzalloc(sizeof *fd);
        fd->seed = model_fwdump_seed(name);
        model_fwdump_build_map(fd);
        shash_add(&model_fwdumps, name, fd);
    }
    return fd;
}

static struct model_fwdump *
model_fwdump_from_ctx(const struct ibv_context *ctx)
    OVS_REQUIRES(model_fwdump_mutex)
{
    return ctx && ctx->device ? model_fwdump_get_state(ctx->device->name)
                              : NULL;
}

int
hw_model_fwdump_force(struct ibv_context *ctx)
{
    struct model_fwdump *fd;
    int error;

    ovs_mutex_lock(&model_fwdump_mutex);
    fd = model_fwdump_from_ctx(ctx);
    if (!fd) {
        error = EINVAL;
    } else if (!fd->regs) {
        error = EIO;
    } else if (fd->valid) {
        /* Only one dump: the driver keeps the first. */
        VLOG_DBG("%s: only one firmware dump can be held",
                 ctx->device->name);
        error = EEXIST;
    } else {
        model_fwdump_capture(fd);
        VLOG_INFO("%s: firmware dump captured (%"PRIuSIZE" registers)",
                  ctx->device->name, fd->n_regs);
        error = 0;
    }
    ovs_mutex_unlock(&model_fwdump_mutex);
    return error;
}

int
hw_model_fwdump_get(struct ibv_context *ctx, struct hw_fwdump_reg *buf,
                    size_t n, size_t *n_filled)
{
    struct model_fwdump *fd;
    int error = 0;

    *n_filled = 0;
    ovs_mutex_lock(&model_fwdump_mutex);
    fd = model_fwdump_from_ctx(ctx);
    if (!fd) {
        error = EINVAL;
    } else if (!fd->regs) {
        error = ENOENT;
    } else if (!buf) {
        /* The size query works with or without a dump. */
        *n_filled = fd->n_regs;
    } else if (!fd->valid) {
        error = ENOENT;
    } else {
        *n_filled = MIN(n, fd->n_regs);
        memcpy(buf, fd->regs, *n_filled * sizeof *buf);
    }
    ovs_mutex_unlock(&model_fwdump_mutex);
    return error;
}

int
hw_model_fwdump_reset(struct ibv_context *ctx)
{
    struct model_fwdump *fd;
    int error = 0;

    ovs_mutex_lock(&model_fwdump_mutex);
    fd = model_fwdump_from_ctx(ctx);
    if (!fd) {
        error = EINVAL;
    } else if (!fd->regs) {
        error = ENOENT;
    } else {
        fd->valid = false;
    }
    ovs_mutex_unlock(&model_fwdump_mutex);
    return error;
}

int
hw_model_fwdump_set_enabled(const char *devname, bool enabled)
{
    struct model_fwdump *fd;

    ovs_mutex_lock(&model_fwdump_mutex);
    fd = model_fwdump_get_state(devname);
    if (fd) {
        if (enabled && !fd->regs) {
            model_fwdump_build_map(fd);
        } else if (!enabled && fd->regs) {
            free(fd->regs);
            fd->regs = NULL;
            fd->n_regs = 0;
            fd->valid = false;
        }
    }
    ovs_mutex_unlock(&model_fwdump_mutex);

    if (!fd) {
        return ENODEV;
    }
    VLOG_INFO("%s: firmware dumps %s", devname,
              enabled ? "enabled" : "disabled");
    return 0;
}

int
hw_model_fwdump_fatal(const char *devname)
{
    struct model_fwdump *fd;
    int error;

    ovs_mutex_lock(&model_fwdump_mutex);
    fd = model_fwdump_get_state(devname);
    if (!fd) {
        error = ENODEV;
    } else if (!fd->regs) {
        error = EIO;
    } else if (fd->valid) {
        error = EEXIST;
    } else {
        model_fwdump_capture(fd);
        error = 0;
    }
    ovs_mutex_unlock(&model_fwdump_mutex);

    if (error != ENODEV) {
        VLOG_INFO("%s: firmware fatal error%s", devname,
                  !error ? ": firmware dump captured"
                  : error == EEXIST ? " (a dump is already held)"
                  : " (firmware dumps are disabled)");
    }
    return error;
}

static void
model_fwdump_unixctl(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[], void *aux OVS_UNUSED)
{
    const char *devname = argv[1];
    const char *op = argv[2];
    char *msg = NULL;
    int error;

    if (!strcmp(op, "enable") || !strcmp(op, "disable")) {
        error = hw_model_fwdump_set_enabled(devname, op[0] == 'e');
    } else if (!strcmp(op, "fatal")) {
        error = hw_model_fwdump_fatal(devname);
        if (error == EEXIST) {
            /* What the driver does then is not an error of the command. */
            msg = xasprintf("%s: a firmware dump is already held, kept",
                            devname);
            error = 0;
        } else if (error == EIO) {
            msg = xasprintf("%s: firmware dumps are disabled, nothing "
                            "captured", devname);
            error = 0;
        }
    } else {
        unixctl_command_reply_error(conn, "operation must be enable, "
                                    "disable or fatal");
        return;
    }

    if (error) {
        msg = xasprintf("%s: not a model device name", devname);
        unixctl_command_reply_error(conn, msg);
    } else {
        unixctl_command_reply(conn, msg);
    }
    free(msg);
}

void
hw_model_fwdump_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("hw-model/fwdump",
                                 "DEV enable|disable|fatal", 2, 2,
                                 model_fwdump_unixctl, NULL);
        ovsthread_once_done(&once);
    }
}
