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

/* The ports of one dead device.  They re-open it one at a time, each in
 * its own reconfiguration, and a device recovers only once every context
 * of it is closed: a port that closed its context waits, unconfigured,
 * until the last one closed its own.  Their rules go back only once every
 * port is open again, because a rule of one port may send to another
 * (the e-switch's FDB rules). */
struct reset_group {
    struct sset closing;        /* Ports that still hold a dead context. */
    struct sset pending;        /* Ports not open again yet. */
    struct sset held;           /* Ports open again, rules not installed. */
};
static struct ovs_mutex reset_mutex = OVS_MUTEX_INITIALIZER;
static struct shash groups OVS_GUARDED_BY(reset_mutex)
    = SHASH_INITIALIZER(&groups);

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
        struct reset_group *group;

        dev->reset = true;
        ovs_mutex_lock(&reset_mutex);
        group = shash_find_data(&groups, dev->devname);
        if (!group) {
            group = xmalloc(sizeof *group);
            sset_init(&group->closing);
            sset_init(&group->pending);
            sset_init(&group->held);
            shash_add(&groups, dev->devname, group);
        }
        sset_add(&group->closing, netdev_get_name(&dev->up));
        sset_add(&group->pending, netdev_get_name(&dev->up));
        ovs_mutex_unlock(&reset_mutex);
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

bool
netdev_hw_reset_wait_others(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    struct reset_group *group;
    bool wait = false;

    if (!dev->reset || !dev->devname) {
        return false;
    }
    ovs_mutex_lock(&reset_mutex);
    group = shash_find_data(&groups, dev->devname);
    if (group) {
        sset_find_and_delete(&group->closing, netdev_get_name(&dev->up));
        wait = !sset_is_empty(&group->closing);
    }
    ovs_mutex_unlock(&reset_mutex);

    if (wait) {
        VLOG_INFO("hw port %s: device %s: waits until the other ports on it "
                  "closed it", netdev_get_name(&dev->up), dev->devname);
    } else {
        /* The last one: the others, which closed it, open it again in the
         * next reconfiguration, once this one has.  (Only the main thread
         * writes 'reset' and 'ops', and this runs in it.) */
        struct shash devices = SHASH_INITIALIZER(&devices);
        struct shash_node *node;

        netdev_get_devices(dev->up.netdev_class, &devices);
        SHASH_FOR_EACH (node, &devices) {
            struct netdev_hw *other = netdev_hw_cast(node->data);

            if (other != dev && other->reset && !other->ops) {
                netdev_request_reconfigure(&other->up);
            }
            netdev_close(&other->up);
        }
        shash_destroy(&devices);
    }
    return wait;
}

/* Forgets the fatal error of port 'name', which is open again and has its
 * rules back. */
static void
netdev_hw_reset_clear(const char *name)
{
    struct netdev *netdev = netdev_from_name(name);

    if (netdev) {
        struct netdev_hw *dev = netdev_hw_cast(netdev);

        ovs_mutex_lock(&dev->mutex);
        if (dev->reset) {
            dev->reset = false;
            COVERAGE_INC(netdev_hw_device_reopened);
            VLOG_INFO("hw port %s: device %s re-opened after its fatal "
                      "error", name, dev->devname);
        }
        ovs_mutex_unlock(&dev->mutex);
        netdev_close(netdev);
    }
}

/* Removes from 'ports' the ports that no longer exist. */
static void
netdev_hw_reset_prune(struct sset *ports)
{
    const char *name;

    SSET_FOR_EACH_SAFE (name, ports) {
        struct netdev *netdev = netdev_from_name(name);

        if (netdev) {
            netdev_close(netdev);
        } else {
            sset_delete(ports, SSET_NODE_FROM_NAME(name));
        }
    }
}

bool
netdev_hw_reset_done(struct netdev_hw *dev, netdev_hw_reconfigure_cb *cb)
{
    struct sset held = SSET_INITIALIZER(&held);
    const char *name = netdev_get_name(&dev->up);
    struct reset_group *group;
    struct shash_node *node;
    bool reset;

    ovs_mutex_lock(&dev->mutex);
    reset = dev->reset;
    ovs_mutex_unlock(&dev->mutex);
    if (!reset) {
        return false;
    }

    ovs_mutex_lock(&reset_mutex);
    node = shash_find(&groups, dev->devname);
    group = node ? node->data : NULL;
    if (group) {
        sset_find_and_delete(&group->pending, name);
        sset_add(&group->held, name);
        netdev_hw_reset_prune(&group->pending);
        if (!sset_is_empty(&group->pending)) {
            ovs_mutex_unlock(&reset_mutex);
            return true;
        }
        sset_swap(&held, &group->held);
        sset_destroy(&group->closing);
        sset_destroy(&group->pending);
        sset_destroy(&group->held);
        free(group);
        shash_delete(&groups, node);
    } else {
        sset_add(&held, name);
    }
    ovs_mutex_unlock(&reset_mutex);

    /* Every port is open again: each installs its rules, then forgets. */
    SSET_FOR_EACH (name, &held) {
        struct netdev *netdev = netdev_from_name(name);

        if (netdev && cb) {
            cb(netdev, true);
        }
        netdev_close(netdev);
        netdev_hw_reset_clear(name);
    }
    sset_destroy(&held);
    return true;
}
