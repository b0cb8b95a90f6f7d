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

#ifndef NETDEV_HW_PORTS_H
#define NETDEV_HW_PORTS_H 1

/* What the hw ports know of each other: which port drives which device.
 * Ports are named by their netdev names and devices by hw_dev_identify().
 * Thread-safe.
 *
 * Device claims.  Two ports on one device would each receive the other's
 * packets and install rules on the other's queues, so a device has one
 * port at most. */

struct hw_dev_ops;

/* Makes 'port' the port of the device that 'devname' names ('ops' drives
 * it), and no longer that of the device it had.  Returns 0, or EBUSY if
 * another port drives that device: then the reason is logged (once) and
 * stored in '*errp' (if nonnull) for the Interface's "error" column. */
int netdev_hw_ports_claim(const char *port, const struct hw_dev_ops *ops,
                          const char *devname, char **errp);

/* 'port' is destroyed and drives no device.  A port refused its device is
 * tried again. */
void netdev_hw_ports_release(const char *port);

#endif /* netdev-hw-ports.h */
