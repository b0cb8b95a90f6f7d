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

#ifndef NETDEV_HW_PORTS_H
#define NETDEV_HW_PORTS_H 1

/* What the hw ports know of each other: which port drives which device,
 * and which ports wait to retry a failed reconfiguration.  Ports are named
 * by their netdev names and devices by hw_dev_identify().  Thread-safe.
 *
 * Device claims.  Two ports on one device would each receive the other's
 * packets and install rules on the other's queues, so a device has one
 * port at most.
 *
 * Failed reconfigurations.  dpif-netdev removes a port whose reconfigure()
 * fails from the datapath, and vswitchd writes an Interface's "error"
 * column only when it cannot create the interface.  So after a failure the
 * port asks the bridge to look at its interfaces again
 * (if_notifier_manual_report(), as netdev-dpdk does after a device reset):
 * the bridge re-creates the interface, and set_config() refuses it with the
 * reason until the back-off (1 s, doubling up to 64 s) has passed; then the
 * bridge is asked again and the port is re-created and reconfigured.  A
 * new configuration is tried at once.
 *
 * Deferred reconfigurations.  A reconfiguration that would destroy the RSS
 * QPs while a rule the device could not destroy still delivers to them
 * (hw-stale.h) keeps the port as it is, in the datapath, instead; once the
 * device has no stale rule left, the port is asked to reconfigure again
 * (netdev_request_reconfigure()). */

#include <stddef.h>

struct hw_dev_ops;
struct netdev_class;

/* Makes 'port' the port of the device that 'devname' names ('ops' drives
 * it), or of its representor 'representor' if nonnull, and no longer that
 * of the device it had.  Returns 0, or EBUSY if another port drives that
 * device (or representor): then the reason is logged (once) and stored in
 * '*errp' (if nonnull) for the Interface's "error" column. */
int netdev_hw_ports_claim(const char *port, const struct hw_dev_ops *ops,
                          const char *devname, const char *representor,
                          char **errp);

/* 'port' is destroyed and drives no device.  A port refused its device is
 * tried again. */
void netdev_hw_ports_release(const char *port);

/* The reconfiguration of 'port' to 'config' (a string that differs when
 * the options do) failed with 'error' for 'reason' ("device model0:
 * create_qp failed: ...").  Schedules the retry and logs it. */
void netdev_hw_ports_failed(const char *port, const char *config, int error,
                            const char *reason);

/* The reconfiguration of 'port' waits for the 'n_stale' stale rules of its
 * device 'devname' to go.  Logs it, and asks the port to reconfigure once
 * they are gone. */
void netdev_hw_ports_deferred(const char *port, const char *devname,
                              size_t n_stale);

/* 'port' is configured: its failures and deferral are forgotten. */
void netdev_hw_ports_configured(const char *port);

/* Returns 0 if 'port' may be configured with 'config' now, or the errno of
 * its last failure while it waits for its retry, with the reason in '*errp'
 * (if 'errp' is nonnull) for the Interface's "error" column. */
int netdev_hw_ports_check_retry(const char *port, const char *config,
                                char **errp);

/* The hw netdev class's run() and wait(): ask the bridge again when a retry
 * is due, and a deferred port to reconfigure once its stale rules are
 * gone. */
void netdev_hw_ports_run(const struct netdev_class *);
void netdev_hw_ports_wait(const struct netdev_class *);

#endif /* netdev-hw-ports.h */
