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
#include "netdev-hw-reset.h"

#include <poll.h>

#include "coverage.h"
#include "netdev-hw-private.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "sset.h"

VLOG_DEFINE_THIS_MODULE(netdev_hw_reset);

COVERAGE_DEFINE(netdev_hw_device_fatal);
COVERAGE_DEFINE(netdev_hw_device_reopened);

/* Calls 'cb' for every hw port, with its lock held. */
static void
netdev_hw_reset_for_each(const struct netdev_class *class,
                         void (*cb)(struct netdev_hw *, void *aux),
                         void *aux)
{
    struct shash devices = SHASH_INITIALIZER(&devices);
    struct shash_node *node;

    netdev_get_devices(class, &devices);
    SHASH_FOR_EACH (node, &devices) {
        struct netdev_hw *dev = netdev_hw_cast(node->data);

        ovs_mutex_lock(&dev->mutex);
        cb(dev, aux);
        ovs_mutex_unlock(&dev->mutex);
        netdev_close(&dev->up);
    }
    shash_destroy(&devices);
}

/* Adds the name of the device of 'dev' to the sset 'dead_' if it reported
 * a fatal error. */
static void
netdev_hw_reset_read_events(struct netdev_hw *dev, void *dead_)
    OVS_REQUIRES(dev->mutex)
{
    struct sset *dead = dead_;
    enum ibv_event_type event;

    if (!dev->ctx || !dev->ops->get_async_event) {
        return;
    }
    while (!dev->ops->get_async_event(dev->ctx, &event)) {
        if (event == IBV_EVENT_DEVICE_FATAL) {
            sset_add(dead, dev->devname);
        } else {
            VLOG_DBG("hw port %s: device %s: async event %d",
                     netdev_get_name(&dev->up), dev->devname, (int) event);
        }
    }
}

/* Every port on a dead device re-opens it, not only the one whose context
 * read the event: the device lost the objects of every context. */
static void
netdev_hw_reset_mark(struct netdev_hw *dev, void *dead_)
    OVS_REQUIRES(dev->mutex)
{
    const struct sset *dead = dead_;

    if (!dev->reset && dev->ops && sset_contains(dead, dev->devname)) {
        dev->reset = true;
        COVERAGE_INC(netdev_hw_device_fatal);
        VLOG_WARN("hw port %s: device %s reports a fatal error: it lost "
                  "its queues and rules; the port re-opens it and installs "
                  "them again", netdev_get_name(&dev->up), dev->devname);
        netdev_request_reconfigure(&dev->up);
    }
}

void
netdev_hw_reset_run(const struct netdev_class *class)
{
    struct sset dead = SSET_INITIALIZER(&dead);

    netdev_hw_reset_for_each(class, netdev_hw_reset_read_events, &dead);
    if (!sset_is_empty(&dead)) {
        netdev_hw_reset_for_each(class, netdev_hw_reset_mark, &dead);
    }
    sset_destroy(&dead);
}

static void
netdev_hw_reset_wait_cb(struct netdev_hw *dev, void *aux OVS_UNUSED)
    OVS_REQUIRES(dev->mutex)
{
    if (dev->ctx && dev->ops->get_async_event && dev->ctx->async_fd >= 0) {
        poll_fd_wait(dev->ctx->async_fd, POLLIN);
    }
}

void
netdev_hw_reset_wait(const struct netdev_class *class)
{
    netdev_hw_reset_for_each(class, netdev_hw_reset_wait_cb, NULL);
}

void
netdev_hw_reset_done(struct netdev_hw *dev)
{
    ovs_mutex_lock(&dev->mutex);
    if (dev->reset) {
        dev->reset = false;
        COVERAGE_INC(netdev_hw_device_reopened);
        VLOG_INFO("hw port %s: device %s re-opened after its fatal error",
                  netdev_get_name(&dev->up), dev->devname);
    }
    ovs_mutex_unlock(&dev->mutex);
}
