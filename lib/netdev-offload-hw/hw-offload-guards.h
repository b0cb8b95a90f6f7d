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

struct hw_rule;

/* What a port needs besides the flows' own rules, while it has rules of a
 * kind: the inner VLAN guards in front of tunnel rules, and, on a port
 * whose pipeline takes only the rules that need it, the base of its flow
 * table (miss rules, and the root's jump there).
 *
 * hw_offload_needs_install() installs what 'rule' needs, if it is not
 * installed; 0 or an errno value with a reason.
 * hw_offload_needs_release() uninstalls what no installed rule needs
 * any more (all of it when the port's rules are gone). */
int hw_offload_needs_install(struct hw_offload_port *port, struct netdev *,
                             const struct netdev_hw_device *,
                             const struct hw_rule *rule, struct ds *reason)
    OVS_REQUIRES(port->mutex);
void hw_offload_needs_release(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex);

#endif /* hw-offload-guards.h */
