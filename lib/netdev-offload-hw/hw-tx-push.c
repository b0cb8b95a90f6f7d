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

/* The device's tunnel push (hw-tx-push.h): the dispatcher over the ways a
 * device can do it (hw-tx-push-provider.h). */

#include <config.h>
#include "hw-tx-push.h"

#include <errno.h>
#include <stdlib.h>

#include "hw-tx-push-provider.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-rcu.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_tx_push);

/* The ways, asked in order: the first usable on a device does its pushes.
 * Per-QP encapsulation comes first, because any device may try an egress
 * rule. */
static const struct hw_tx_push_class *const hw_tx_push_classes[] = {
    &hw_tx_push_qp_encap_class,
    &hw_tx_push_rule_class,
};

struct hw_tx_push {
    const struct hw_tx_push_class *class;
    void *obj;                      /* The class's push. */
};

/* Live pushes whose class sends on queues of its own, so that the send
 * path pays one atomic read while there are none. */
static atomic_count n_diverting = ATOMIC_COUNT_INIT(0);

static const struct hw_tx_push_class *
hw_tx_push_class_find(const struct netdev_hw_device *dev)
{
    for (size_t i = 0; i < ARRAY_SIZE(hw_tx_push_classes); i++) {
        if (hw_tx_push_classes[i]->usable(dev)) {
            return hw_tx_push_classes[i];
        }
    }
    return NULL;
}

int
hw_tx_push_create(const struct netdev_hw_device *dev, struct ibv_qp *qp,
                  const struct hw_rule *rule, struct hw_tx_push **pushp,
                  struct ds *reason)
{
    const struct hw_tx_push_class *class = hw_tx_push_class_find(dev);
    struct hw_tx_push *push;
    void *obj;
    int error;

    *pushp = NULL;
    if (!class) {
        ds_put_format(reason, "device %s cannot push a tunnel header",
                      dev->devname);
        return EOPNOTSUPP;
    }
    error = class->create(dev, qp, rule, &obj, reason);
    if (error) {
        return error;
    }

    push = xmalloc(sizeof *push);
    push->class = class;
    push->obj = obj;
    if (class->divert) {
        atomic_count_inc(&n_diverting);
    }
    VLOG_DBG("%s: tunnel push by %s", dev->devname, class->name);
    *pushp = push;
    return 0;
}

void
hw_tx_push_destroy(struct hw_tx_push *push)
{
    if (!push) {
        return;
    }
    push->class->destroy(push->obj);
    if (push->class->divert) {
        atomic_count_dec(&n_diverting);
    }
    ovsrcu_postpone(free, push);
}

bool
hw_tx_push_prepare(const struct hw_tx_push *push, struct dp_packet *packet,
                   const void *header, size_t header_len)
{
    return push->class->prepare(push->obj, packet, header, header_len);
}

void
hw_tx_push_format(const struct hw_tx_push *push, struct ds *s)
{
    const struct hw_tx_push_class *class = push->class;
    uint64_t packets, bytes;

    if (class->read && !class->read(push->obj, &packets, &bytes)) {
        ds_put_format(s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                      packets, bytes);
    } else {
        ds_put_cstr(s, "packets:?, bytes:?, ");
    }
    ds_put_cstr(s, "rule: ");
    if (class->format) {
        class->format(push->obj, s);
    }
}

bool
hw_tx_push_is_forged(const struct dp_packet *packet, struct eth_addr *dst)
{
    for (size_t i = 0; i < ARRAY_SIZE(hw_tx_push_classes); i++) {
        const struct hw_tx_push_class *class = hw_tx_push_classes[i];

        if (class->is_forged && class->is_forged(packet, dst)) {
            return true;
        }
    }
    return false;
}

bool
hw_tx_push_diverting(void)
{
    return atomic_count_get(&n_diverting) != 0;
}

size_t
hw_tx_push_divert(const struct ibv_context *ctx, size_t max_frame_len,
                  struct dp_packet_batch *batch,
                  uint64_t *n_sent, uint64_t *n_bytes)
{
    size_t n_dropped = 0;

    for (size_t i = 0; i < ARRAY_SIZE(hw_tx_push_classes); i++) {
        const struct hw_tx_push_class *class = hw_tx_push_classes[i];

        if (class->divert) {
            n_dropped += class->divert(ctx, max_frame_len, batch,
                                       n_sent, n_bytes);
        }
    }
    return n_dropped;
}
