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

#ifndef HW_OFFLOAD_GUARDS_H
#define HW_OFFLOAD_GUARDS_H 1

#include "hw-offload-private.h"

struct ds;
struct netdev;

int hw_tnl_guards_install(struct hw_offload_port *port, struct netdev *,
                          const struct netdev_hw_device *, struct ds *reason)
    OVS_REQUIRES(port->mutex);
void hw_tnl_guards_uninstall(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex);

#endif /* hw-offload-guards.h */
