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

#ifndef HW_PRIVILEGES_H
#define HW_PRIVILEGES_H 1

/* The Linux capabilities the plugin needs, read with libcap-ng.
 *
 *   CAP_NET_RAW    ibv_create_flow() and raw packet QPs (the kernel answers
 *                  EPERM without it, hw-apis.md section 1.4): offload.
 *   CAP_NET_ADMIN  devlink health dumps (GENL_ADMIN_PERM, section 6.2):
 *                  netdev-hw/fw-dump on Linux.
 *   CAP_SYS_RAWIO  software steering, the pipeline of tables (mlx5dv_dr):
 *                  the kernel allocates its device memory (SW ICM) only
 *                  with CAP_SYS_RAWIO and CAP_NET_RAW, else EPERM.
 *                  Without it a device is driven through verbs only.
 *
 * ovs-vswitchd --user keeps the first two: ovs-vswitchd calls
 * daemonize_start(true), and with 'access_datapath' true lib/daemon-unix.c
 * keeps CAP_NET_ADMIN, CAP_NET_RAW and CAP_NET_BROADCAST (besides
 * CAP_IPC_LOCK and CAP_NET_BIND_SERVICE) in the effective and permitted
 * sets when it switches user, so nothing needs patching; it drops
 * CAP_SYS_RAWIO.  A process started some other way (a unit file with a
 * restricted CapabilityBoundingSet, a container) may lack them, and the
 * plugin then says so once instead of failing flow by flow.
 *
 * The NIC model talks to no kernel and needs no capability, but a
 * capability forced missing (or present) with hw_privileges_force() or
 * "ovs-appctl netdev-hw/privileges CAP_NET_RAW=no" counts for every
 * backend, the model included, so that tests can run the refusal path.
 * Where these capabilities do not exist (not Linux, or no libcap-ng) they
 * count as present. */

#include <stdbool.h>

struct ds;
struct hw_dev_caps;
struct hw_dev_ops;
struct netdev;

enum hw_cap {
    HW_CAP_NET_RAW,
    HW_CAP_NET_ADMIN,
    HW_CAP_SYS_RAWIO,
    HW_N_CAPS
};

/* "CAP_NET_RAW", "CAP_NET_ADMIN", "CAP_SYS_RAWIO". */
const char *hw_cap_name(enum hw_cap);

/* Whether the process may use 'cap' with a device of backend 'ops' (NULL:
 * the operating system's own interfaces, such as devlink).  If 'forced' is
 * nonnull, stores whether the answer was forced. */
bool hw_privileges_have(enum hw_cap, const struct hw_dev_ops *ops,
                        bool *forced);

/* For the flow API's init_flow_api(): returns 0 if hw port 'netdev' may
 * offload, or EPERM after logging a warning that names the missing
 * capability (the port's flows then stay in software). */
int hw_privileges_check_offload(const struct netdev *);

/* For hw port 'name' whose device, driven by backend 'ops', has the
 * capabilities 'caps': if the device has the pipeline of tables
 * ('caps->dr_domains') and the process lacks CAP_SYS_RAWIO, logs a warning
 * that says so and clears the pipeline's capabilities from 'caps', so that
 * the device is driven through the verbs root table only.  Returns true if
 * it cleared them. */
bool hw_privileges_check_dr(const char *name, const struct hw_dev_ops *ops,
                            struct hw_dev_caps *caps);

/* Returns 0 if 'cap' is usable with backend 'ops', otherwise EPERM with
 * the reason in 'reason': "ovs-vswitchd lacks CAP_..., needed for
 * <what>". */
int hw_privileges_check(enum hw_cap, const struct hw_dev_ops *ops,
                        const char *what, struct ds *reason);

/* Forcing the answer, for tests. */
enum hw_cap_force {
    HW_CAP_REAL,                /* Ask libcap-ng (the default). */
    HW_CAP_FORCE_MISSING,
    HW_CAP_FORCE_PRESENT,
};
void hw_privileges_force(enum hw_cap, enum hw_cap_force);

/* Registers "netdev-hw/privileges [CAP=yes|no|real]...".  Idempotent. */
void hw_privileges_register_commands(void);

#endif /* hw-privileges.h */
