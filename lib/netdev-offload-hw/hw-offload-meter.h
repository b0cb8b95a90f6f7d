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

#ifndef HW_OFFLOAD_METER_H
#define HW_OFFLOAD_METER_H 1

/* OVS meters in the e-switch (hw-rule.h HW_REG_METER).
 *
 * The flow API's meter_set, meter_get and meter_del keep each OVS meter's
 * configuration here, with the reason the device cannot run it, if any
 * (hw-meter.h).  A full FDB rule whose flow runs a meter the device can
 * run gets the meter in the device: one device meter per FDB domain and
 * OVS meter, made with the first rule that uses it and destroyed with the
 * last, with its two policy rules (red: count and drop; green: count and
 * go on in the output table), and one output rule per flow.  A partial
 * rule never gets one: its packets run the flow's actions, the meter with
 * them, in software.
 *
 * meter_get adds what the device meters counted to what software counted:
 * every packet a device meter saw to the meter's input counts, the red
 * ones to its band's.  A device meter that goes leaves its counts to the
 * OVS meter's.
 *
 * A modify changes the rate and burst of the device meters in place.  A
 * modify to a configuration the device cannot run (or one the device
 * refuses) sends the flows that meter in the device to software at once
 * (hw-offload-meter-fallback.c): their rules go, with the reason in
 * netdev-hw/not-offloaded, and their next put makes them partial.  Their
 * entries stay, with what the rules counted, so that a flow's statistics
 * never go back (hw_offload_entry_to_software()). */

#include <stdint.h>
#include "openvswitch/ofp-meter.h"

struct ds;
struct hw_flow_dr;
struct hw_meter_flow;
struct hw_pipeline;
struct hw_rule;
struct netdev_hw_device;

/* The flow API's hooks. */
int hw_offload_meter_set(ofproto_meter_id, struct ofputil_meter_config *);
int hw_offload_meter_get(ofproto_meter_id, struct ofputil_meter_stats *);
int hw_offload_meter_del(ofproto_meter_id, struct ofputil_meter_stats *);

/* For an FDB rule of 'dev' with a meter: fills its 'meter_params', or
 * returns EOPNOTSUPP with the reason appended to 'reason' ("meter 3:
 * unknown", "meter 3: 2 bands: a device flow meter has one", "meter 3:
 * the device has no flow meters"). */
int hw_offload_meter_plan(const struct netdev_hw_device *dev,
                          struct hw_rule *rule, struct ds *reason);

/* Installs the metered FDB rule 'rule' in table 'level' of 'p' into
 * 'flow', with its output rule and, if it is the meter's first rule in
 * 'p', the device meter and its policy rules; '*mfp' receives what the
 * flow holds of them.  Returns 0, or an errno value with the failed step
 * in 'reason'; then nothing remains. */
int hw_offload_meter_install(const struct netdev_hw_device *dev,
                             struct hw_pipeline *p, uint32_t level,
                             const struct hw_rule *rule,
                             struct hw_flow_dr *flow,
                             struct hw_meter_flow **mfp, struct ds *reason);

/* Gives back what 'mf' holds, after the flow's rule went: its output
 * rule, and the device meter with its policy rules if it was the last
 * rule to use it.  Rules the device refuses to destroy are hw-stale's.
 * 'dev' NULL: the device was closed with its objects. */
void hw_offload_meter_release(const struct netdev_hw_device *dev,
                              struct hw_meter_flow *mf);

/* The OVS meter id of 'mf'. */
uint32_t hw_offload_meter_flow_id(const struct hw_meter_flow *mf);

/* Removes the rules of every port that run meter 'meter_id' in the device,
 * recording 'reason' for their flows, which then run in software.  Main
 * thread; no port's or meter's mutex held. */
void hw_offload_meter_fallback(uint32_t meter_id, const char *reason);

/* Appends the output rule of 'mf' to 's'. */
void hw_offload_meter_format(const struct hw_meter_flow *mf, struct ds *s);

#endif /* hw-offload-meter.h */
