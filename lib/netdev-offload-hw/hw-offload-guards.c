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

/* The inner VLAN guard rules of a physical port, installed while it has
 * tunnel rules (see the comment below). */

#include <config.h>
#include "hw-offload-guards.h"

#include <string.h>

#include "hw-offload-entries.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "util.h"

/* Inner VLAN guards.
 *
 * A tunnel rule for a flow that wants an untagged inner frame cannot say
 * "untagged" (verbs has no such match), so while a physical port has tunnel
 * rules it also has these: for VXLAN (UDP port 4789) and GRE carrying
 * Ethernet, IPv4 and IPv6 outer, an inner C-VLAN tag with the CFI bit 0 or
 * 1: together they send every tunnelled packet with a tagged inner frame
 * to the miss path, ahead of the tunnel rules (HW_PRIO_TUNNEL_GUARD). */
#define HW_N_TNL_GUARDS 8

static void
hw_tnl_guard_rule(size_t i, struct hw_rule *rule)
{
    bool gre = i & 4;
    bool ipv6 = i & 2;
    bool cfi = i & 1;

    memset(rule, 0, sizeof *rule);
    rule->outer.present = ipv6 ? HW_HDR_IPV6 : HW_HDR_IPV4;
    if (gre) {
        rule->tunnel = HW_TUNNEL_GRE;
        rule->tnl.gre_protocol = htons(ETH_TYPE_TEB);
        rule->tnl_mask.gre_protocol = OVS_BE16_MAX;
    } else {
        rule->tunnel = HW_TUNNEL_VXLAN;
        rule->outer.present |= HW_HDR_UDP;
        rule->outer.l4.dst = htons(HW_VXLAN_PORT);
        rule->outer.l4_mask.dst = OVS_BE16_MAX;
    }
    rule->inner.present = HW_HDR_ETH;
    rule->inner.eth.tci = htons(cfi ? VLAN_CFI : 0);
    rule->inner.eth_mask.tci = htons(VLAN_CFI);
    rule->fate = HW_FATE_RSS;
}

/* Installs the guards of 'port' if they are not.  Returns 0 or an errno
 * value with a reason. */
int
hw_tnl_guards_install(struct hw_offload_port *port, struct netdev *netdev,
                      const struct netdev_hw_device *dev, struct ds *reason)
    OVS_REQUIRES(port->mutex)
{
    BUILD_ASSERT_DECL(HW_N_TNL_GUARDS == ARRAY_SIZE(port->tnl_guards));

    if (port->tnl_guards_installed) {
        return 0;
    }
    for (size_t i = 0; i < HW_N_TNL_GUARDS; i++) {
        struct hw_rule rule;
        int error;

        hw_tnl_guard_rule(i, &rule);
        error = hw_flow_install(dev,
                                netdev_hw_rss_qp(netdev,
                                                 hw_rule_rss_type(&rule)),
                                &rule, &port->tnl_guards[i], reason);
        if (error) {
            ds_put_cstr(reason, " (inner vlan guard)");
            while (i-- > 0) {
                hw_stale_uninstall_flow(dev, &port->tnl_guards[i],
                                        HW_STALE_NO_MARK);
            }
            return error;
        }
    }
    hw_offload_port_set_dev(port, dev);
    port->tnl_guards_installed = true;
    return 0;
}

void
hw_tnl_guards_uninstall(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    if (port->tnl_guards_installed) {
        for (size_t i = 0; i < HW_N_TNL_GUARDS; i++) {
            hw_stale_uninstall_flow(hw_offload_port_dev(port),
                                    &port->tnl_guards[i], HW_STALE_NO_MARK);
        }
        port->tnl_guards_installed = false;
    }
}
