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

#ifndef NETDEV_HW_H
#define NETDEV_HW_H 1

/* The "hw" netdev class: a userspace (PMD) port whose RX queues are the WQs
 * behind the device's RSS indirection table and whose TX is a raw packet
 * QP.  The device is chosen with options:device (e.g. "model0" for the NIC
 * model, "mlx5_0" for a real NIC). */

#include <stdbool.h>
#include <stdint.h>
#include "hw-dev.h"
#include "hw-rule.h"

struct netdev;
struct ds;
struct hw_pipeline;

/* Registers the netdev class.  Called once from netdev_hw_register(). */
void netdev_hw_register_class(void);

/* Returns true if 'netdev' is of the hw class. */
bool netdev_is_hw(const struct netdev *);

/* The device behind a hw port, valid while the caller holds a reference to
 * 'netdev' and the port is configured (after the first reconfigure).
 * Returns false if the device is not open. */
struct netdev_hw_device {
    const struct hw_dev_ops *ops;
    struct ibv_context *ctx;
    const struct hw_dev_caps *caps;
    const char *devname;         /* options:device. */
    uint8_t port_num;            /* Verbs port number, from 1: the
                                  * representor's with
                                  * options:representor. */
    bool switchdev;              /* The device's e-switch is in switchdev
                                  * mode: 'reg_c0' under 'reg_c0_mask'
                                  * names the port's packets in the FDB
                                  * and the pipeline's roots. */
    uint32_t reg_c0, reg_c0_mask;
    uint16_t vport;              /* The port's e-switch vport, if
                                  * 'switchdev'. */
    struct hw_pipeline *fdb_pipeline;   /* With 'switchdev', if the device
                                         * has an FDB: where the port's FDB
                                         * rules go (hw-offload-eswitch.h). */
    struct hw_pipeline *pipeline;   /* The pipeline of tables the port's
                                     * rules go to (options:steering=dr),
                                     * NULL for the verbs root table. */
    bool pipeline_on_demand;    /* 'pipeline' takes only the rules that
                                 * need it (struct hw_rule's 'pipeline',
                                 * options:steering=auto); the others go
                                 * to the root. */
    bool after_reset;           /* The device was re-opened after a fatal
                                 * error: it lost every rule. */
};
bool netdev_hw_get_device(const struct netdev *, struct netdev_hw_device *);

/* The RSS QP of 'type' that rules of a hw port deliver to, or NULL if the
 * port is not configured. */
struct ibv_qp *netdev_hw_rss_qp(const struct netdev *, enum hw_rss_type);

/* netdev_hw_get_device() and netdev_hw_rss_qp() in one: what a flow put
 * asks for every rule, under one lock of the port. */
bool netdev_hw_get_device_rss(const struct netdev *, enum hw_rss_type,
                              struct netdev_hw_device *, struct ibv_qp **);

/* Appends a description of the port's device, capabilities, queues, RSS key
 * and hash fields to 'ds' (for ovs-appctl hw-offload/show). */
void netdev_hw_format(const struct netdev *, struct ds *);

/* Reconfiguration notifier, for the flow API provider.
 *
 * A verbs QP cannot be destroyed while steering rules point to it (EBUSY),
 * and the RSS QPs must be rebuilt when n_rxq, the RSS key or the device
 * change.  So reconfigure(), in the main thread and without holding any
 * netdev-hw lock, first makes netdev_hw_get_device() and netdev_hw_rss_qp()
 * fail for the port, then calls the notifier with 'configured' false: the
 * provider must then destroy every object it created on the port's device
 * (rules, counters, reformat actions), serialised with its offload threads
 * (hold the same lock from netdev_hw_rss_qp() until the rule is created).
 * Once the objects are rebuilt it calls the notifier with 'configured'
 * true.  It is not called from destruct: OVS runs uninit_flow_api first. */
typedef void netdev_hw_reconfigure_cb(struct netdev *, bool configured);
void netdev_hw_set_reconfigure_cb(netdev_hw_reconfigure_cb *);

#endif /* netdev-hw.h */
