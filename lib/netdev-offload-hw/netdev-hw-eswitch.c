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
#include "netdev-hw-eswitch.h"

#include <errno.h>
#include <string.h>

#include "hw-dev.h"
#include "openvswitch/dynamic-string.h"
#include "util.h"

const char *
netdev_hw_eswitch_normalize(const char *name)
{
    return name && !strncmp(name, "pf0vf", 5) ? name + 3 : name;
}

int
netdev_hw_eswitch_open(const struct hw_dev_ops *ops, struct ibv_context *ctx,
                       const char *devname, const char *representor,
                       struct netdev_hw_eswitch *esw, char **reason)
{
    struct mlx5dv_port info;
    int error;

    memset(esw, 0, sizeof *esw);
    esw->port_num = 1;
    *reason = NULL;
    if (representor) {
        if (!ops->representor_port) {
            *reason = xasprintf("options:representor=%s: device %s (%s "
                                "backend) has no e-switch", representor,
                                devname, ops->name);
            return EOPNOTSUPP;
        }
        error = ops->representor_port(ctx, representor, &esw->port_num);
        if (error) {
            *reason = xasprintf("options:representor=%s: %s", representor,
                                (error == EOPNOTSUPP
                                 ? "the device is not in switchdev mode"
                                 : error == ENODEV
                                 ? "the device has no such representor"
                                 : ovs_strerror(error)));
            return error;
        }
    }
    if (!ops->query_port) {
        return 0;
    }
    error = ops->query_port(ctx, esw->port_num, &info);
    if (error) {
        *reason = xasprintf("device %s: query_port of port %"PRIu32
                            " failed: %s", devname, esw->port_num,
                            ovs_strerror(error));
        return error;
    }
    if (info.flags & MLX5DV_QUERY_PORT_VPORT) {
        esw->vport_valid = true;
        esw->vport = info.vport;
    }
    if (info.flags & MLX5DV_QUERY_PORT_VPORT_REG_C0 && info.reg_c0.mask) {
        esw->switchdev = true;
        esw->reg_c0 = info.reg_c0.value & info.reg_c0.mask;
        esw->reg_c0_mask = info.reg_c0.mask;
    } else if (representor) {
        /* A representor without metadata could not tell its packets from
         * the other vports' in the FDB. */
        *reason = xasprintf("options:representor=%s: device %s gives no "
                            "reg_c0 metadata for port %"PRIu32,
                            representor, devname, esw->port_num);
        return EOPNOTSUPP;
    }
    return 0;
}

void
netdev_hw_eswitch_format(const struct netdev_hw_eswitch *esw,
                         const char *representor, struct ds *s)
{
    if (!esw->switchdev) {
        return;
    }
    if (representor) {
        ds_put_format(s, "  representor %s: port %"PRIu32,
                      netdev_hw_eswitch_normalize(representor),
                      esw->port_num);
    } else {
        ds_put_format(s, "  uplink: port %"PRIu32, esw->port_num);
    }
    if (esw->vport_valid) {
        ds_put_format(s, ", vport %#"PRIx16, esw->vport);
    }
    ds_put_format(s, ", reg_c0 %#"PRIx32"/%#"PRIx32"\n", esw->reg_c0,
                  esw->reg_c0_mask);
}
