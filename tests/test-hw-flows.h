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

#ifndef TEST_HW_FLOWS_H
#define TEST_HW_FLOWS_H 1

/* Flows for the plugin's unit tests: datapath matches as dpif-netdev hands
 * them to a netdev flow API, and rules in the plugin's IR. */

#include "openvswitch/types.h"

struct hw_rule;
struct match;

/* The port the flows arrive on, and the flow mark they get. */
#define TEST_PORT 3
#define TEST_MARK 5

void dp_match_init(struct match *);
void dp_match_init_ip(struct match *, ovs_be16 dl_type);

void vxlan_decap_rule_init(struct hw_rule *);

#endif /* test-hw-flows.h */
