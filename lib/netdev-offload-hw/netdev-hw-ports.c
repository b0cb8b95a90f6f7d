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
#include "netdev-hw-ports.h"

#include <errno.h>
#include <string.h>

#include "coverage.h"
#include "hw-dev.h"
#include "if-notifier.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_hw_ports);

COVERAGE_DEFINE(netdev_hw_device_in_use);

/* A device and the port that drives it, in 'devices' by device id. */
struct device_claim {
    char *port;
    char *refused;              /* The last port refused it, or NULL. */
};

/* A port's device, in 'ports' by port name. */
struct port_claim {
    char *devname;              /* options:device. */
    char *id;                   /* Its hw_dev_identify(). */
};

/* Device id -> device_claim, port name -> port_claim.  Touched from the
 * main thread, except that a port is released by whichever thread closes
 * its netdev last. */
static struct ovs_mutex ports_mutex = OVS_MUTEX_INITIALIZER;
static struct shash devices OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&devices);
static struct shash ports OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&ports);

/* Removes the claim of 'port' on device 'id'.  Returns true if another port
 * was refused that device. */
static bool
device_claim_drop(const char *id, const char *port)
    OVS_REQUIRES(ports_mutex)
{
    struct device_claim *dc = shash_find_data(&devices, id);
    bool refused = false;

    if (dc && !strcmp(dc->port, port)) {
        refused = dc->refused != NULL;
        shash_find_and_delete(&devices, id);
        free(dc->refused);
        free(dc->port);
        free(dc);
    }
    return refused;
}

static void
port_claim_destroy(struct port_claim *pc)
{
    if (pc) {
        free(pc->devname);
        free(pc->id);
        free(pc);
    }
}

int
netdev_hw_ports_claim(const char *port, const struct hw_dev_ops *ops,
                      const char *devname, char **errp)
{
    struct device_claim *dc;
    struct port_claim *pc;
    bool refused = false;
    char *id;
    int error = 0;

    /* A backend may list its devices to identify one: not every time the
     * bridge reconfigures. */
    ovs_mutex_lock(&ports_mutex);
    pc = shash_find_data(&ports, port);
    if (pc && !strcmp(pc->devname, devname)) {
        ovs_mutex_unlock(&ports_mutex);
        return 0;
    }
    ovs_mutex_unlock(&ports_mutex);

    id = hw_dev_identify(ops, devname);

    ovs_mutex_lock(&ports_mutex);
    dc = shash_find_data(&devices, id);
    if (dc && strcmp(dc->port, port)) {
        /* Its rules and queues would take the other port's packets. */
        char *msg = xasprintf("%s: options:device=%s: %s is already used "
                              "by port %s", port, devname, id, dc->port);

        /* Said once: the bridge tries again at each reconfiguration. */
        if (!dc->refused || strcmp(dc->refused, port)) {
            VLOG_WARN("%s", msg);
            free(dc->refused);
            dc->refused = xstrdup(port);
        }
        if (errp) {
            *errp = msg;
        } else {
            free(msg);
        }
        COVERAGE_INC(netdev_hw_device_in_use);
        error = EBUSY;
    } else {
        if (!dc) {
            dc = xzalloc(sizeof *dc);
            dc->port = xstrdup(port);
            shash_add(&devices, id, dc);
        }
        pc = shash_find_data(&ports, port);
        if (!pc) {
            pc = xzalloc(sizeof *pc);
            shash_add(&ports, port, pc);
        } else if (strcmp(pc->id, id)) {
            refused = device_claim_drop(pc->id, port);
        }
        free(pc->devname);
        pc->devname = xstrdup(devname);
        free(pc->id);
        pc->id = xstrdup(id);
    }
    ovs_mutex_unlock(&ports_mutex);
    free(id);

    /* The bridge creates a refused interface again only when it
     * reconfigures. */
    if (refused) {
        if_notifier_manual_report();
    }
    return error;
}

void
netdev_hw_ports_release(const char *port)
{
    struct port_claim *pc;
    bool refused = false;

    ovs_mutex_lock(&ports_mutex);
    pc = shash_find_and_delete(&ports, port);
    if (pc) {
        refused = device_claim_drop(pc->id, port);
    }
    ovs_mutex_unlock(&ports_mutex);
    port_claim_destroy(pc);

    if (refused) {
        if_notifier_manual_report();
    }
}
