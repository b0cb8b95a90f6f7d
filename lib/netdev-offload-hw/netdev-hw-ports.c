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
#include "hw-stale.h"
#include "if-notifier.h"
#include "netdev-hw-eswitch.h"
#include "netdev-provider.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "seq.h"
#include "sset.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(netdev_hw_ports);

COVERAGE_DEFINE(netdev_hw_device_in_use);
COVERAGE_DEFINE(netdev_hw_reconfigure_retry);

#define RETRY_MIN_MS 1000
#define RETRY_MAX_MS 64000

/* A device and the port that drives it, in 'devices' by device id. */
struct device_claim {
    char *port;
    char *refused;              /* The last port refused it, or NULL. */
};

/* A port's device, in 'ports' by port name. */
struct port_claim {
    char *devname;              /* options:device. */
    char *representor;          /* options:representor, or NULL. */
    char *id;                   /* Its hw_dev_identify(), and the
                                 * representor's name. */
};

struct port_failure {
    char *config;               /* The configuration that failed. */
    char *reason;               /* Why, for the "error" column. */
    int error;
    unsigned int n_failures;    /* In a row, with 'config'. */
    int backoff_ms;
    long long int retry_at;     /* set_config() refuses the port until. */
    bool reported;              /* Bridge asked to retry after 'retry_at'. */
};

/* Device id -> device_claim, port name -> port_claim, port name ->
 * port_failure, port name -> devname of a deferred reconfiguration.
 * Touched from the main thread, except that a port is released by
 * whichever thread closes its netdev last. */
static struct ovs_mutex ports_mutex = OVS_MUTEX_INITIALIZER;
static struct shash devices OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&devices);
static struct shash ports OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&ports);
static struct shash failures OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&failures);
static struct shash deferred OVS_GUARDED_BY(ports_mutex)
    = SHASH_INITIALIZER(&deferred);
static uint64_t deferred_seqno OVS_GUARDED_BY(ports_mutex);

/* Forgets the deferred reconfiguration of 'port', if any. */
static void
port_deferred_drop(const char *port)
    OVS_REQUIRES(ports_mutex)
{
    free(shash_find_and_delete(&deferred, port));
}

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
        free(pc->representor);
        free(pc->id);
        free(pc);
    }
}

int
netdev_hw_ports_claim(const char *port, const struct hw_dev_ops *ops,
                      const char *devname, const char *representor,
                      char **errp)
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
    if (pc && !strcmp(pc->devname, devname)
        && nullable_string_is_equal(pc->representor, representor)) {
        ovs_mutex_unlock(&ports_mutex);
        return 0;
    }
    ovs_mutex_unlock(&ports_mutex);

    id = hw_dev_identify(ops, devname);
    if (representor) {
        /* A representor is a port of the device, claimed on its own. */
        char *rep_id = xasprintf("%s representor %s", id,
                                 netdev_hw_eswitch_normalize(representor));

        free(id);
        id = rep_id;
    }

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
        free(pc->representor);
        pc->representor = nullable_xstrdup(representor);
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
    port_deferred_drop(port);
    ovs_mutex_unlock(&ports_mutex);
    port_claim_destroy(pc);

    if (refused) {
        if_notifier_manual_report();
    }
}

static void
port_failure_destroy(struct port_failure *f)
{
    if (f) {
        free(f->config);
        free(f->reason);
        free(f);
    }
}

void
netdev_hw_ports_failed(const char *port, const char *config, int error,
                       const char *reason)
{
    struct port_failure *f;

    ovs_mutex_lock(&ports_mutex);
    f = shash_find_data(&failures, port);
    if (!f) {
        f = xzalloc(sizeof *f);
        shash_add(&failures, port, f);
    }
    if (!f->config || strcmp(f->config, config)) {
        free(f->config);
        f->config = xstrdup(config);
        f->n_failures = 0;
        f->backoff_ms = RETRY_MIN_MS;
    } else {
        f->backoff_ms = MIN(f->backoff_ms * 2, RETRY_MAX_MS);
    }
    f->n_failures++;
    free(f->reason);
    f->reason = xstrdup(reason);
    f->error = error;
    f->retry_at = time_msec() + f->backoff_ms;
    f->reported = false;
    VLOG_WARN("hw port %s: out of the datapath after %u failed "
              "reconfiguration%s, retrying in %d s", port, f->n_failures,
              f->n_failures == 1 ? "" : "s", f->backoff_ms / 1000);
    ovs_mutex_unlock(&ports_mutex);

    /* Then set_config() refuses the port with the reason, which vswitchd
     * writes into the Interface's "error" column. */
    if_notifier_manual_report();
}

void
netdev_hw_ports_configured(const char *port)
{
    struct port_failure *f;

    ovs_mutex_lock(&ports_mutex);
    f = shash_find_and_delete(&failures, port);
    if (f) {
        VLOG_INFO("hw port %s: configured after %u failed "
                  "reconfiguration%s", port, f->n_failures,
                  f->n_failures == 1 ? "" : "s");
    }
    port_deferred_drop(port);
    ovs_mutex_unlock(&ports_mutex);
    port_failure_destroy(f);
}

int
netdev_hw_ports_check_retry(const char *port, const char *config,
                            char **errp)
{
    struct port_failure *f;
    int error = 0;

    ovs_mutex_lock(&ports_mutex);
    f = shash_find_data(&failures, port);
    if (!f || strcmp(f->config, config)) {
        /* A new configuration is tried at once. */
    } else if (time_msec() >= f->retry_at) {
        COVERAGE_INC(netdev_hw_reconfigure_retry);
    } else {
        /* Logged at the failure: the bridge asks again at each of its
         * reconfigurations. */
        if (errp) {
            *errp = xasprintf("%s: %s; retrying in %d s", port, f->reason,
                              f->backoff_ms / 1000);
        }
        error = f->error;
    }
    ovs_mutex_unlock(&ports_mutex);
    return error;
}

void
netdev_hw_ports_deferred(const char *port, const char *devname,
                         size_t n_stale)
{
    VLOG_WARN("hw port %s: reconfiguration deferred: %"PRIuSIZE" rule%s "
              "the device could not destroy use%s its receive queues",
              port, n_stale, n_stale == 1 ? "" : "s",
              n_stale == 1 ? "s" : "");

    ovs_mutex_lock(&ports_mutex);
    port_deferred_drop(port);
    shash_add(&deferred, port, xstrdup(devname));
    ovs_mutex_unlock(&ports_mutex);
}

/* Asks the datapath to reconfigure the ports whose reconfiguration waited
 * for stale rules that are now gone. */
static void
ports_deferred_run(void)
{
    struct sset ready = SSET_INITIALIZER(&ready);
    struct shash_node *node;
    const char *name;

    ovs_mutex_lock(&ports_mutex);
    /* Read before the counts, so that wait() misses no change. */
    deferred_seqno = seq_read(hw_stale_seq());
    SHASH_FOR_EACH_SAFE (node, &deferred) {
        if (!hw_stale_count(node->data)) {
            sset_add(&ready, node->name);
            free(node->data);
            shash_delete(&deferred, node);
        }
    }
    ovs_mutex_unlock(&ports_mutex);

    SSET_FOR_EACH (name, &ready) {
        struct netdev *netdev = netdev_from_name(name);

        if (netdev) {
            netdev_request_reconfigure(netdev);
            netdev_close(netdev);
        }
    }
    sset_destroy(&ready);
}

void
netdev_hw_ports_run(const struct netdev_class *class OVS_UNUSED)
{
    long long int now = time_msec();
    struct shash_node *node;
    bool report = false;

    ports_deferred_run();

    ovs_mutex_lock(&ports_mutex);
    SHASH_FOR_EACH_SAFE (node, &failures) {
        struct port_failure *f = node->data;

        if (!f->reported && now >= f->retry_at) {
            f->reported = true;
            report = true;
        } else if (f->reported && now >= f->retry_at + RETRY_MAX_MS) {
            /* Asked long ago, and the port neither failed nor came up
             * again: it is gone. */
            shash_delete(&failures, node);
            port_failure_destroy(f);
        }
    }
    ovs_mutex_unlock(&ports_mutex);

    if (report) {
        if_notifier_manual_report();
    }
}

void
netdev_hw_ports_wait(const struct netdev_class *class OVS_UNUSED)
{
    struct shash_node *node;

    ovs_mutex_lock(&ports_mutex);
    SHASH_FOR_EACH (node, &failures) {
        const struct port_failure *f = node->data;

        poll_timer_wait_until(f->reported ? f->retry_at + RETRY_MAX_MS
                              : f->retry_at);
    }
    if (!shash_is_empty(&deferred)) {
        seq_wait(hw_stale_seq(), deferred_seqno);
    }
    ovs_mutex_unlock(&ports_mutex);
}
