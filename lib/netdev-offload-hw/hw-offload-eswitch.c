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

#include <config.h>
#include "hw-offload-eswitch.h"

#include <errno.h>

#include "hw-ct.h"
#include "hw-offload-meter.h"
#include "hw-rule.h"
#include "hw-translate.h"
#include "netdev.h"
#include "netdev-hw.h"
#include "netdev-offload.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

bool
hw_offload_eswitch_enabled(const struct netdev_hw_device *dev)
{
    return dev && dev->switchdev && dev->fdb_pipeline;
}

void
hw_offload_eswitch_params(const struct netdev_hw_device *dev,
                          struct hw_translate_params *params)
{
    /* The flows of VXLAN and GRE vports decapsulate in the FDB of the
     * port their packets arrive by. */
    params->eswitch = (hw_offload_eswitch_enabled(dev)
                       && (params->vport == HW_TUNNEL_NONE
                           || params->vport == HW_TUNNEL_VXLAN
                           || params->vport == HW_TUNNEL_GRE));
    /* The FDB's own connection pipeline (hw-translate-eswitch-ct.c), for
     * the flows of representors, not of tunnel vports. */
    params->conntrack = (params->eswitch && params->vport == HW_TUNNEL_NONE
                         && hw_ct_enabled());
    params->esw_reg_c0 = dev ? dev->reg_c0 : 0;
    params->esw_reg_c0_mask = dev ? dev->reg_c0_mask : 0;
    params->esw_vport = dev ? dev->vport : 0;
    if (params->eswitch) {
        params->parse = dev->caps->dr_parse;
    }
}

/* Stores in '*vportp' the vport of datapath port 'port', if it is a port
 * of the e-switch of 'dev'. */
static int
hw_offload_eswitch_vport(const struct netdev_hw_device *dev,
                         const char *dpif_type, odp_port_t port,
                         uint16_t *vportp, struct ds *reason)
{
    struct netdev_hw_device out;
    struct netdev *netdev;
    int error = 0;

    netdev = dpif_type ? netdev_ports_get(port, dpif_type) : NULL;
    if (!netdev) {
        ds_put_format(reason, "e-switch: output port %"PRIu32" not found",
                      odp_to_u32(port));
        return EOPNOTSUPP;
    }
    if (!netdev_hw_get_device(netdev, &out)) {
        ds_put_format(reason, "e-switch: output to %s, not a configured hw "
                      "port", netdev_get_name(netdev));
        error = EOPNOTSUPP;
    } else if (out.ctx != dev->ctx || !out.switchdev) {
        ds_put_format(reason, "e-switch: output to %s, not a port of the "
                      "e-switch of %s", netdev_get_name(netdev),
                      dev->devname);
        error = EOPNOTSUPP;
    } else {
        *vportp = out.vport;
    }
    netdev_close(netdev);
    return error;
}

int
hw_offload_eswitch_check_outputs(uint16_t in_vport,
                                 const struct hw_rule *rule,
                                 struct ds *reason)
{
    if (in_vport != HW_ESWITCH_UPLINK_VPORT) {
        /* The FDB's transmit side sends a VF's packets to any vport, its
         * own too. */
        return 0;
    }
    for (size_t i = 0; i < rule->n_out; i++) {
        if (rule->fate_vports[i] == in_vport) {
            ds_put_cstr(reason, "e-switch: the FDB does not send packets "
                        "from the uplink back out of it");
            return EOPNOTSUPP;
        }
    }
    return 0;
}

int
hw_offload_eswitch_plan(const struct netdev_hw_device *dev,
                        const char *dpif_type, struct hw_rule *rule,
                        struct ds *reason)
{
    /* A drop has no output, nor a stage of the connection pipeline. */
    ovs_assert(rule->fate == HW_FATE_VPORT || rule->fate == HW_FATE_DROP
               || (rule->ct_stage && rule->fate == HW_FATE_TABLE));
    for (size_t i = 0; i < rule->n_out; i++) {
        int error = hw_offload_eswitch_vport(dev, dpif_type,
                                             rule->out_ports[i],
                                             &rule->fate_vports[i], reason);
        if (error) {
            return error;
        }
    }
    if (hw_offload_eswitch_check_outputs(dev->vport, rule, reason)) {
        return EOPNOTSUPP;
    }
    return hw_offload_meter_plan(dev, rule, reason);
}
