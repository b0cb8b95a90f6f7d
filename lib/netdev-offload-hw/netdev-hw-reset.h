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

struct netdev_class;
struct netdev_hw;

/* Reads the async events of every hw port's device and marks the ports of
 * a dead device for a re-open (netdev_hw's 'reset'). */
void netdev_hw_reset_run(const struct netdev_class *);
void netdev_hw_reset_wait(const struct netdev_class *);

/* The reconfiguration of 'dev' succeeded: if it re-opened a dead device,
 * logs it and forgets the fatal error. */
void netdev_hw_reset_done(struct netdev_hw *dev);

#endif /* netdev-hw-reset.h */
