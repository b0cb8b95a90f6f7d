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

/* Fault injection: "the next N calls of an op fail with an errno", which
 * every device op checks first.  Apart from the rest of the device so that
 * the list of operations and the fault counters have one owner. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "coverage.h"
#include "hw-coverage.h"
#include "openvswitch/vlog.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

HW_COVERAGE_DEFINE(hw_model_fault);
COVERAGE_DEFINE(hw_model_reset);

const char *const model_op_names[MODEL_N_OPS] = {
#define MODEL_OP(ENUM, NAME) NAME,
    MODEL_OPS
#undef MODEL_OP
};

/* Whether 'op' destroys an object, which a dead device lets succeed. */
static bool
model_op_destroys(enum model_op op)
{
    const char *name = model_op_names[op];

    return strstr(name, "destroy") || !strncmp(name, "dealloc", 7);
}

int
model_fault_check(struct model_dev *dev, enum model_op op)
    OVS_REQUIRES(dev->mutex)
{
    struct model_fault *fault = &dev->faults[op];

    if (fault->count && fault->error) {
        fault->count--;
        HW_COVERAGE_INC(hw_model_fault);
        VLOG_DBG("%s: injected fault: %s fails with %s (%u more)",
                 dev->name, model_op_names[op], ovs_strerror(fault->error),
                 fault->count);
        return fault->error;
    }
    if (dev->fatal && !model_op_destroys(op)) {
        return EIO;
    }
    return 0;
}

int
hw_model_reset(const char *devname)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    int error = 0;

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    if (dev->fatal) {
        error = EALREADY;
    } else {
        dev->stats.resets++;
        COVERAGE_INC(hw_model_reset);
        if (dev->n_opens) {
            uint8_t event = IBV_EVENT_DEVICE_FATAL;
            struct model_obj *obj;

            /* What waits in the rings is never completed. */
            HMAP_FOR_EACH (obj, node, &dev->objects) {
                if (obj->kind == MODEL_WQ) {
                    struct model_wq *wq = CONTAINER_OF(obj, struct model_wq,
                                                       obj);

                    dev->stats.rx_lost_fatal += model_wq_n_queued(wq);
                }
            }
            dev->fatal = true;
            ignore(write(dev->async_fds[1], &event, 1));
        }
        VLOG_INFO("%s: firmware fatal error: device reset, %d context%s "
                  "dead", devname, dev->n_opens, dev->n_opens == 1 ? "" : "s");
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_get_async_event(struct ibv_context *ctx, enum ibv_event_type *event)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    uint8_t byte;
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = read(dev->async_fds[0], &byte, 1) == 1 ? 0 : EAGAIN;
    ovs_mutex_unlock(&dev->mutex);
    if (!error) {
        *event = byte;
    }
    return error;
}

void
model_fault_closed(struct model_dev *dev)
    OVS_REQUIRES(dev->mutex)
{
    uint8_t byte;

    while (read(dev->async_fds[0], &byte, 1) == 1) {
        continue;
    }
    if (dev->fatal) {
        dev->fatal = false;
        VLOG_INFO("%s: recovered from its fatal error: its last context "
                  "closed", dev->name);
    }
}

int
hw_model_set_fault(const char *devname, const char *op, int error,
                   unsigned int count)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        return ENODEV;
    }
    for (int i = 0; i < MODEL_N_OPS; i++) {
        if (!strcmp(op, model_op_names[i])) {
            if (!error || !count) {
                error = 0;
                count = 0;
            }
            ovs_mutex_lock(&dev->mutex);
            dev->faults[i].error = error;
            dev->faults[i].count = count;
            ovs_mutex_unlock(&dev->mutex);
            if (count) {
                VLOG_INFO("%s: next %u %s calls fail with %s", devname,
                          count, op, ovs_strerror(error));
            } else {
                VLOG_INFO("%s: %s fault cleared", devname, op);
            }
            return 0;
        }
    }
    return EINVAL;
}
