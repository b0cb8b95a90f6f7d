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

#ifndef HW_OFFLOAD_REFUSALS_H
#define HW_OFFLOAD_REFUSALS_H 1

#include <stdbool.h>
#include "openvswitch/types.h"

struct ds;
struct match;

bool hw_offload_refusal_record(const char *port_name, const struct match *,
                               const ovs_u128 *ufid, const char *reason);
void hw_offload_refusals_format(const char *port, struct ds *);

#endif /* hw-offload-refusals.h */
