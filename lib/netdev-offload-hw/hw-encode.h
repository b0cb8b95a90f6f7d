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

#ifndef HW_ENCODE_H
#define HW_ENCODE_H 1

/* encode: a struct hw_rule becomes the byte buffer libibverbs consumes for
 * ibv_create_flow(): a 20-byte struct ibv_flow_attr followed by the specs
 * back to back, with no alignment padding, values ANDed with masks.
 *
 * Pure code: the device objects the rule refers to (counters, reformat
 * action) are created first by the caller and passed in as handles. */

#include <stdint.h>
#include <infiniband/verbs.h>

struct hw_rule;
struct ofpbuf;

struct hw_encode_handles {
    struct ibv_counters *counters;      /* For ACTION_COUNT, or NULL. */
    struct ibv_flow_action *reformat;   /* For ACTION_HANDLE, or NULL. */
};

/* Appends to 'out' the ibv_flow_attr (type NORMAL, port 'port', priority
 * hw_rule_priority(rule)) and the specs of 'rule'.  On return 'out->data'
 * points to the struct ibv_flow_attr (ofpbuf data is suitably aligned). */
void hw_encode_flow(const struct hw_rule *, const struct hw_encode_handles *,
                    uint8_t port, struct ofpbuf *out);

/* Formats the ibv_flow_attr buffer 'attr' in human-readable form, one spec
 * after another, e.g. "prio 4 eth(type=0x0800) ipv4(dst=10.0.0.1) tag(5)". */
struct ds;
void hw_encode_format(const struct ibv_flow_attr *, struct ds *);

#endif /* hw-encode.h */
