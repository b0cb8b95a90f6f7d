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

#ifndef HW_OFFLOAD_ESWITCH_H
#define HW_OFFLOAD_ESWITCH_H 1

/* Full offload in the e-switch (FDB).
 *
 * A flow whose input port is the uplink or a VF representor of a PF in
 * switchdev mode (netdev-hw-eswitch.h) and whose actions are an optional
 * VLAN pop and push, header rewrites (MAC and IP addresses, TCP and UDP
 * ports, TTL) and outputs to ports of the same e-switch (up to 4: a
 * mirror is a DEST_ARRAY) becomes one rule of the input port's FDB table:
 * its match (with the VLAN tag it requires or excludes: the FDB has no
 * VLAN guard), the input port's vport metadata in reg_c0, the VLAN
 * actions, a modify header, a counter and DEST_VPORT to the output port's
 * vport; a flow without actions, a counter and DROP.  Tunnels: the flow
 * of a VXLAN or GRE vport whose packets arrive by the uplink becomes a rule
 * of the uplink's table that matches the outer headers, the uplink as
 * source port, the VNI or key and the inner headers, and decapsulates
 * (L2_TUNNEL_TO_L2) before its outputs; a tnl_push before a VF flow's one
 * output becomes an L2_TO_L2_TUNNEL encap of the header tnl_push has (the
 * one an egress rule would push, hw-translate.h).  The tnl_pop flow of the
 * uplink stays a receive-side rule.  translate makes the
 * rule (HW_FATE_VPORT, pure: it knows the output's datapath port only);
 * this finds that port's vport.  A VF's flow may send its packets back to
 * the VF; the uplink's flows may not send theirs back out of the uplink
 * (hw_offload_eswitch_check_outputs()).  What the FDB cannot take is
 * translated again for the input port's receive side (partial offload),
 * with the reason. */

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct hw_rule;
struct hw_translate_params;
struct netdev_hw_device;

/* Whether flows put on the port of 'dev' may go to the FDB: its device's
 * e-switch is in switchdev mode and the port has an FDB table. */
bool hw_offload_eswitch_enabled(const struct netdev_hw_device *dev);

/* Fills in the FDB fields of 'params' for a flow on the port of 'dev'. */
void hw_offload_eswitch_params(const struct netdev_hw_device *dev,
                               struct hw_translate_params *params);

/* The uplink's vport, as mlx5dv_query_port() tells it (the kernel's
 * MLX5_VPORT_UPLINK). */
#define HW_ESWITCH_UPLINK_VPORT 0xffff

/* Whether the FDB can send the packets of 'rule', whose outputs' vports
 * are in 'fate_vports', that enter it from vport 'in_vport'.  The FDB takes
 * the uplink's packets on its receive side, where a jump to the uplink
 * vport is not allowed (rdma-core's dr_action.c, "Can't go to uplink vport
 * on RX rule": 50 writes a drop there, 44 the uplink's receive address,
 * which that commit calls illegal); the kernel sends a packet back out of
 * the uplink only through a termination table, which software steering
 * does not make.  A VF's packets cross the transmit side, which goes to
 * any vport, the VF's own too.  Returns 0, or EOPNOTSUPP with why appended
 * to 'reason'. */
int hw_offload_eswitch_check_outputs(uint16_t in_vport,
                                     const struct hw_rule *rule,
                                     struct ds *reason);

/* Finds the vports of the output ports of 'rule' (HW_FATE_VPORT; none for
 * HW_FATE_DROP), a flow
 * of the port of 'dev', among the datapath's ports of type 'dpif_type' and
 * stores them in the rule, with its meter's parameters if it has one
 * (hw-offload-meter.h).  Returns 0, or EOPNOTSUPP with why appended to
 * 'reason': an output is not a hw port, is on another device, or on no
 * e-switch; the packets would go back out of the uplink they came in by
 * (hw_offload_eswitch_check_outputs()); the device cannot run the meter. */
int hw_offload_eswitch_plan(const struct netdev_hw_device *dev,
                            const char *dpif_type, struct hw_rule *rule,
                            struct ds *reason);

#endif /* hw-offload-eswitch.h */
