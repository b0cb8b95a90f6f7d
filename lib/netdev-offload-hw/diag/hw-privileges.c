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
#include "hw-privileges.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__linux__) && defined(HAVE_LIBCAPNG)
#include <cap-ng.h>
#define HW_HAVE_CAPS 1
#else
#define HW_HAVE_CAPS 0
#endif

#include "hw-dev.h"
#include "netdev.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "smap.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_privileges);

static const char *const hw_cap_names[HW_N_CAPS] = {
    [HW_CAP_NET_RAW] = "CAP_NET_RAW",
    [HW_CAP_NET_ADMIN] = "CAP_NET_ADMIN",
    [HW_CAP_SYS_RAWIO] = "CAP_SYS_RAWIO",
};

/* libcap-ng keeps its state in globals: one caller at a time. */
static struct ovs_mutex hw_caps_mutex = OVS_MUTEX_INITIALIZER;
static enum hw_cap_force hw_caps_forced[HW_N_CAPS]
    OVS_GUARDED_BY(hw_caps_mutex);

const char *
hw_cap_name(enum hw_cap cap)
{
    return cap < HW_N_CAPS ? hw_cap_names[cap] : "CAP_?";
}

/* Asks the kernel (through libcap-ng) whether 'cap' is in the effective
 * set.  Read every time rather than once at start-up: ovs-vswitchd --user
 * changes user (and capabilities) after the plugin registers, and the
 * question is asked only when a port starts offloading. */
static bool
hw_caps_real(enum hw_cap cap)
    OVS_REQUIRES(hw_caps_mutex)
{
#if HW_HAVE_CAPS
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    static const unsigned int values[HW_N_CAPS] = {
        [HW_CAP_NET_RAW] = CAP_NET_RAW,
        [HW_CAP_NET_ADMIN] = CAP_NET_ADMIN,
        [HW_CAP_SYS_RAWIO] = CAP_SYS_RAWIO,
    };
    unsigned int value = values[cap];

    if (capng_get_caps_process()) {
        /* Let the kernel be the judge: it answers EPERM if need be. */
        VLOG_WARN_RL(&rl, "cannot read the process capabilities; assuming "
                     "%s is present", hw_cap_name(cap));
        return true;
    }
    return capng_have_capability(CAPNG_EFFECTIVE, value) != 0;
#else
    return true;
#endif
}

bool
hw_privileges_have(enum hw_cap cap, const struct hw_dev_ops *ops,
                   bool *forcedp)
{
    enum hw_cap_force forced;
    bool have;

    ovs_assert(cap < HW_N_CAPS);
    ovs_mutex_lock(&hw_caps_mutex);
    forced = hw_caps_forced[cap];
    if (forced != HW_CAP_REAL) {
        have = forced == HW_CAP_FORCE_PRESENT;
    } else if (ops && !ops->kernel_checks_caps) {
        /* A software device: nothing in the kernel to ask for permission. */
        have = true;
    } else {
        have = hw_caps_real(cap);
    }
    ovs_mutex_unlock(&hw_caps_mutex);

    if (forcedp) {
        *forcedp = forced != HW_CAP_REAL;
    }
    return have;
}

int
hw_privileges_check(enum hw_cap cap, const struct hw_dev_ops *ops,
                    const char *what, struct ds *reason)
{
    bool forced;

    if (hw_privileges_have(cap, ops, &forced)) {
        return 0;
    }
    ds_put_format(reason, "ovs-vswitchd lacks %s%s, needed for %s",
                  hw_cap_name(cap),
                  forced ? " (forced by netdev-hw/privileges)" : "", what);
    return EPERM;
}

int
hw_privileges_check_offload(const struct netdev *netdev)
{
    struct smap args = SMAP_INITIALIZER(&args);
    struct ds reason = DS_EMPTY_INITIALIZER;
    const struct hw_dev_ops *ops = NULL;
    int error;

    /* The port's device is opened later, at its first reconfiguration;
     * its backend is known from options:device already. */
    if (!netdev_get_config(netdev, &args)) {
        ops = hw_dev_ops_find(smap_get(&args, "device"));
    }
    smap_destroy(&args);

    error = hw_privileges_check(HW_CAP_NET_RAW, ops,
                                "steering rules (ibv_create_flow fails "
                                "with EPERM without it)", &reason);
    if (error) {
        VLOG_WARN("%s: hardware offload refused: %s; the port's flows stay "
                  "in software", netdev_get_name(netdev), ds_cstr(&reason));
    }
    ds_destroy(&reason);
    return error;
}

bool
hw_privileges_check_dr(const char *name, const struct hw_dev_ops *ops,
                       struct hw_dev_caps *caps)
{
    struct ds reason = DS_EMPTY_INITIALIZER;

    if (!caps->dr_domains
        || !hw_privileges_check(HW_CAP_SYS_RAWIO, ops,
                                "software steering (mlx5dv_dr)", &reason)) {
        return false;
    }
    VLOG_WARN("%s: %s; the device has no pipeline of tables, its flows use "
              "the verbs root table", name, ds_cstr(&reason));
    ds_destroy(&reason);

    hw_dev_caps_clear_dr(caps);
    return true;
}

void
hw_privileges_force(enum hw_cap cap, enum hw_cap_force force)
{
    ovs_assert(cap < HW_N_CAPS);
    ovs_mutex_lock(&hw_caps_mutex);
    hw_caps_forced[cap] = force;
    ovs_mutex_unlock(&hw_caps_mutex);
}

/* unixctl. */

static bool
hw_cap_from_name(const char *name, size_t len, enum hw_cap *capp)
{
    if (len > 4 && !strncasecmp(name, "CAP_", 4)) {
        name += 4;
        len -= 4;
    }
    for (int i = 0; i < HW_N_CAPS; i++) {
        const char *short_name = hw_cap_names[i] + 4;

        if (strlen(short_name) == len && !strncasecmp(name, short_name, len)) {
            *capp = i;
            return true;
        }
    }
    return false;
}

static void
hw_privileges_unixctl(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    enum hw_cap_force forces[HW_N_CAPS] = { HW_CAP_REAL };
    bool set[HW_N_CAPS] = { false };
    struct ds s = DS_EMPTY_INITIALIZER;

    /* Parse every argument before changing anything. */
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        enum hw_cap cap;

        if (!eq || !hw_cap_from_name(argv[i], eq - argv[i], &cap)) {
            ds_put_format(&s, "%s: expected CAP_NET_RAW=..., "
                          "CAP_NET_ADMIN=... or CAP_SYS_RAWIO=...", argv[i]);
            goto error;
        }
        if (!strcmp(eq + 1, "yes")) {
            forces[cap] = HW_CAP_FORCE_PRESENT;
        } else if (!strcmp(eq + 1, "no")) {
            forces[cap] = HW_CAP_FORCE_MISSING;
        } else if (!strcmp(eq + 1, "real")) {
            forces[cap] = HW_CAP_REAL;
        } else {
            ds_put_format(&s, "%s: the value must be yes, no or real",
                          argv[i]);
            goto error;
        }
        set[cap] = true;
    }
    for (int i = 0; i < HW_N_CAPS; i++) {
        if (set[i]) {
            hw_privileges_force(i, forces[i]);
            VLOG_INFO("%s %s", hw_cap_names[i],
                      forces[i] == HW_CAP_REAL ? "read from the process again"
                      : forces[i] == HW_CAP_FORCE_PRESENT ? "forced present"
                      : "forced missing");
        }
    }

    for (int i = 0; i < HW_N_CAPS; i++) {
        bool forced;
        bool have = hw_privileges_have(i, NULL, &forced);

        ds_put_format(&s, "%s: %s (%s)\n", hw_cap_names[i],
                      have ? "yes" : "no",
                      forced ? "forced"
                      : HW_HAVE_CAPS ? "effective set"
                      : "no capabilities on this system");
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
    return;

error:
    unixctl_command_reply_error(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
hw_privileges_register_commands(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("netdev-hw/privileges",
                                 "[CAP_NET_RAW|CAP_NET_ADMIN|CAP_SYS_RAWIO"
                                 "=yes|no|real]...",
                                 0, HW_N_CAPS, hw_privileges_unixctl, NULL);
        ovsthread_once_done(&once);
    }
}
