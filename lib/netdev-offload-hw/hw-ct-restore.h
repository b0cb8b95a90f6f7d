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

#ifndef HW_CT_RESTORE_H
#define HW_CT_RESTORE_H 1

/* Packets the device translated (NAT) and then sent to software.
 *
 * The connection table translates the packets of a connection with NAT
 * that a stage with ct(nat) sends it.  If the post-conntrack table then
 * has no rule for such a packet, software cannot run the stage again on
 * it: conntrack would not know the translated tuple.  The device tags it
 * with its stage's mark plus HW_TAG_CT_RESTORE (hw-rule.h) instead, and
 * hw_ct_restore_packet() gives it the metadata software conntrack would
 * have given it (recirc_id, ct_state, ct_zone, ct_mark, ct_label and the
 * original tuple), so that the datapath looks up the flow after
 * conntrack.  For that it keeps the stages with nat by mark and the
 * translated directions of connections by zone and tuple after NAT, in
 * tables the datapath threads read without a lock. */

#include <stdint.h>
#include "ct-dpif.h"
#include "openvswitch/types.h"

struct dp_packet;

/* A stage with nat, registered while its miss rules are in the device. */
struct hw_ct_restore_stage *hw_ct_restore_stage_add(uint32_t mark,
                                                    uint32_t recirc_id,
                                                    uint16_t zone);
void hw_ct_restore_stage_del(struct hw_ct_restore_stage *);

/* A direction of a connection whose packets the device translates to
 * 'nat_tuple', leaving the connection table with 'ct_state' (and the rest
 * of the connection's metadata): registered before its rule is in the
 * device, unregistered after the rule is destroyed. */
struct hw_ct_restore_dir *hw_ct_restore_dir_add(
    const struct ct_dpif_tuple *nat_tuple, uint16_t zone, uint8_t ct_state,
    uint32_t mark, ovs_u128 label, const struct ct_dpif_tuple *orig);
void hw_ct_restore_dir_del(struct hw_ct_restore_dir *);

/* Restores 'packet', tagged 'tag' (with HW_TAG_CT_RESTORE), and clears its
 * mark.  Returns 0, or ENOENT if the stage or the connection is gone (the
 * packet, translated, cannot go on in software: the caller drops it). */
int hw_ct_restore_packet(struct dp_packet *, uint32_t tag);

#endif /* hw-ct-restore.h */
