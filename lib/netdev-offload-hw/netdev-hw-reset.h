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

#ifndef NETDEV_HW_RESET_H
#define NETDEV_HW_RESET_H 1

/* Fatal device errors.  A device that reports IBV_EVENT_DEVICE_FATAL on
 * its async event queue (mlx5 does on a firmware fatal error, before its
 * health recovery reloads it) has lost every object the ports made on it:
 * queues, RSS QPs, steering rules, counters.  Every hw port on that device
 * then asks for a reconfiguration that closes the device and opens it
 * again, so that netdev-hw builds its queues anew and the offload provider
 * installs every rule of the port again (a full re-sync: the provider's
 * entries are the source of truth, the device's state is discarded).
 *
 * The class's run() and wait() call these from the main thread. */

#include <stdbool.h>
#include "netdev-hw.h"

struct netdev_class;
struct netdev_hw;

/* Reads the async events of every hw port's device and marks the ports of
 * a dead device for a re-open (netdev_hw's 'reset'). */
void netdev_hw_reset_run(const struct netdev_class *);
void netdev_hw_reset_wait(const struct netdev_class *);

/* The reconfiguration of 'dev' is about to close its dead device: returns
 * true if 'dev' must not open it again yet, because other ports still hold
 * contexts of it (a device recovers once every context of it is closed);
 * the last port to close it asks for the others' reconfiguration. */
bool netdev_hw_reset_wait_others(struct netdev_hw *dev);

/* The reconfiguration of 'dev' succeeded.  If it re-opened a dead device,
 * returns true: once every port on that device is open again, calls 'cb'
 * (the provider's, which installs the port's rules again) for each of
 * them, logs it and forgets the fatal error.  Returns false otherwise:
 * the caller calls 'cb' itself. */
bool netdev_hw_reset_done(struct netdev_hw *dev, netdev_hw_reconfigure_cb *);

#endif /* netdev-hw-reset.h */
