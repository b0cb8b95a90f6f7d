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

#ifndef NETDEV_HW_ESWITCH_H
#define NETDEV_HW_ESWITCH_H 1

/* A hw port's place on its device's e-switch.
 *
 * On a PF in switchdev mode every VF has a representor, a verbs port of
 * the PF's device (port 1 is the uplink), as mlx5 makes them.  A hw port
 * with options:representor=vf1 drives VF 1's representor: its verbs rules
 * (the RSS miss rules, the partially offloaded flows) go to that port,
 * which takes only what the VF sent and the e-switch did not switch; its
 * send queues are bound to the port, so what it sends reaches the VF.  The
 * port without options:representor is the uplink, as before.
 *
 * On a device in switchdev mode, the e-switch writes the metadata of a
 * packet's source vport into reg_c0 (mlx5dv_query_port() gives its value
 * and mask per port); the port's FDB rules match it, and so do the rules
 * of the pipeline's root, which sees the misses of every vport. */

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct hw_dev_ops;
struct ibv_context;

/* What a port is on its e-switch. */
struct netdev_hw_eswitch {
    uint32_t port_num;          /* Verbs port: 1, or the representor's. */
    bool vport_valid;           /* The backend told 'vport'. */
    uint16_t vport;
    bool switchdev;             /* 'reg_c0' and 'reg_c0_mask' name the
                                 * port's packets in the FDB. */
    uint32_t reg_c0;
    uint32_t reg_c0_mask;
};

/* The representor name 'name' as the port claims it: "pf0vf1" is "vf1". */
const char *netdev_hw_eswitch_normalize(const char *name);

/* Finds the port of 'representor' (NULL: the uplink, port 1) on the open
 * device 'ctx' that 'ops' drives and what the e-switch knows of it, into
 * 'esw'.  Returns 0, or an errno value with why in '*reason' (the caller
 * frees it). */
int netdev_hw_eswitch_open(const struct hw_dev_ops *ops,
                           struct ibv_context *ctx, const char *devname,
                           const char *representor,
                           struct netdev_hw_eswitch *esw, char **reason);

/* Appends "  representor vf1: port 3, vport 2, reg_c0 0x30000/0xffff0000"
 * or the uplink's line to 's', for netdev-hw/show; nothing outside
 * switchdev mode. */
void netdev_hw_eswitch_format(const struct netdev_hw_eswitch *esw,
                              const char *representor, struct ds *s);

#endif /* netdev-hw-eswitch.h */
