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

/* What a physical port needs besides the flows' own rules, while it has
 * rules of a kind: the inner VLAN guards while it has tunnel rules (see
 * the comment below), and the base of its flow table while its pipeline
 * has rules (options:steering=auto). */

#include <config.h>
#include "hw-offload-guards.h"

#include <errno.h>
#include <string.h>

#include "hw-ct.h"
#include "hw-offload-entries.h"
#include "hw-rule.h"
#include "hw-stale.h"
#include "netdev-hw-base.h"
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
static int
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

static void
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

/* Stores the RSS QPs of 'netdev' into 'rss_qps' and returns true, or
 * returns false with a reason if the port is not configured. */
static bool
hw_port_rss_qps(const struct netdev *netdev,
                struct ibv_qp *rss_qps[HW_N_RSS_TYPES], struct ds *reason)
{
    for (int i = 0; i < HW_N_RSS_TYPES; i++) {
        rss_qps[i] = netdev_hw_rss_qp(netdev, i);
        if (!rss_qps[i]) {
            ds_put_cstr(reason, "no RSS QP: port not configured");
            return false;
        }
    }
    return true;
}

/* The flow table's base.
 *
 * On a port whose pipeline takes only the rules that need the mlx5 matcher
 * (options:steering=auto), the root has the verbs rules and its miss
 * rules, as without a pipeline, until the first such rule comes: then the
 * flow table gets its own miss rules and the root a jump there, after its
 * datapath rules (HW_PRIO_PIPELINE_JUMP), so that a packet no root rule
 * took meets the flow table's rules.  When the last one goes, so does the
 * base, and the port is as it was. */
static int
hw_flow_table_base_install(struct hw_offload_port *port,
                           struct netdev *netdev,
                           const struct netdev_hw_device *dev,
                           struct ds *reason)
    OVS_REQUIRES(port->mutex)
{
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];
    const char *step = NULL;
    int error;

    if (port->flow_table_base) {
        return 0;
    }
    if (!hw_port_rss_qps(netdev, rss_qps, reason)) {
        return ENODEV;
    }
    error = netdev_hw_base_build_flow_table(dev, rss_qps,
                                            &port->flow_table_base, &step);
    if (error) {
        ds_put_format(reason, "%s: %s (flow table base)", step,
                      ovs_strerror(error));
        return error;
    }
    hw_offload_port_set_dev(port, dev);
    return 0;
}

static void
hw_flow_table_base_uninstall(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    if (port->flow_table_base) {
        netdev_hw_base_destroy(port->flow_table_base,
                               hw_offload_port_dev(port));
        port->flow_table_base = NULL;
    }
}

/* The connection pipeline's base (netdev_hw_base_build_ct()). */
static int
hw_ct_base_install(struct hw_offload_port *port, struct netdev *netdev,
                   const struct netdev_hw_device *dev, struct ds *reason)
    OVS_REQUIRES(port->mutex)
{
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];
    const char *step = NULL;
    int error;

    if (port->ct_base) {
        return 0;
    }
    if (!hw_port_rss_qps(netdev, rss_qps, reason)) {
        return ENODEV;
    }
    error = netdev_hw_base_build_ct(dev, rss_qps, &port->ct_base, &step);
    if (error) {
        ds_put_format(reason, "%s: %s (connection table base)", step,
                      ovs_strerror(error));
        return error;
    }
    if (!port->ct_fdb) {
        hw_offload_port_set_dev(port, dev);
        hw_ct_port_ready(port, rss_qps);
    }
    return 0;
}

/* The FDB's connection pipeline: its misses take the FDB's default, so it
 * needs no base; the port's connections go to the FDB (hw-ct.c). */
static void
hw_ct_fdb_install(struct hw_offload_port *port,
                  const struct netdev_hw_device *dev)
    OVS_REQUIRES(port->mutex)
{
    if (!port->ct_fdb && !port->ct_base) {
        hw_offload_port_set_dev(port, dev);
        hw_ct_port_ready(port, NULL);
    }
    port->ct_fdb = true;
}

static void
hw_ct_base_uninstall(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    if (port->ct_base || port->ct_fdb) {
        /* The connections' rules jump to the post-conntrack table: they
         * go first. */
        hw_ct_port_release(port);
    }
    if (port->ct_base) {
        netdev_hw_base_destroy(port->ct_base, hw_offload_port_dev(port));
        port->ct_base = NULL;
    }
    port->ct_fdb = false;
}

int
hw_offload_needs_install(struct hw_offload_port *port, struct netdev *netdev,
                         const struct netdev_hw_device *dev,
                         const struct hw_rule *rule, struct ds *reason)
    OVS_REQUIRES(port->mutex)
{
    int error = 0;

    if (rule->tunnel != HW_TUNNEL_NONE && !rule->egress && !rule->fdb) {
        error = hw_tnl_guards_install(port, netdev, dev, reason);
    }
    if (!error && rule->pipeline && !rule->fdb && dev->pipeline_on_demand) {
        /* The receive side's flow table: an FDB rule has its own. */
        error = hw_flow_table_base_install(port, netdev, dev, reason);
    }
    if (!error && (rule->ct_stage || rule->table == HW_TABLE_POST_CT)) {
        if (rule->fdb) {
            hw_ct_fdb_install(port, dev);
        } else {
            error = hw_ct_base_install(port, netdev, dev, reason);
        }
    }
    if (error) {
        hw_offload_needs_release(port);
    }
    return error;
}

void
hw_offload_needs_release(struct hw_offload_port *port)
    OVS_REQUIRES(port->mutex)
{
    if (!port->n_tunnel_rules) {
        hw_tnl_guards_uninstall(port);
    }
    if (!port->n_ct_rules) {
        hw_ct_base_uninstall(port);
    }
    if (!port->n_flow_table_rules) {
        hw_flow_table_base_uninstall(port);
    }
}
