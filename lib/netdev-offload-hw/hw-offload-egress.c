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

/* Egress rules (struct hw_egress): the rules on a hw port's transmit side
 * that do the tunnel push of the flows whose packets the push hook marks,
 * shared by the flows that push the same header on one port, and
 * destroyed a grace period after their last flow goes. */

#include <config.h>
#include "hw-offload-egress.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hw-offload-private.h"
#include "hw-translate.h"
#include "hw-tx-push.h"
#include "netdev.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_offload_egress);

static struct ovs_mutex hw_egress_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap hw_egresses OVS_GUARDED_BY(hw_egress_mutex)
    = HMAP_INITIALIZER(&hw_egresses);
static uint32_t hw_egress_next_id OVS_GUARDED_BY(hw_egress_mutex) = 1;
static uint64_t hw_egress_graces_requested OVS_GUARDED_BY(hw_egress_mutex);
static uint64_t hw_egress_graces_done OVS_GUARDED_BY(hw_egress_mutex);

/* An egress rule that no flow uses any more must stay until no datapath
 * thread can be about to send a packet whose push it skipped for it, or
 * that packet would leave unencapsulated.  ovsrcu_synchronize() could
 * deadlock in the offload threads (they hold dpif-netdev's port_rwlock), so
 * the rule is destroyed later, once an RCU grace period has passed, by the
 * RCU thread's callback below.  (Left to the next egress operation, the
 * last rule of a port would stay in the device as long as no flow pushes
 * a header again.) */
struct hw_egress_grace {
    uint64_t seq;
};

static void hw_egress_drain(void) OVS_REQUIRES(hw_egress_mutex);

static void
hw_egress_grace_done(struct hw_egress_grace *grace)
{
    ovs_mutex_lock(&hw_egress_mutex);
    hw_egress_graces_done = MAX(hw_egress_graces_done, grace->seq);
    hw_egress_drain();
    ovs_mutex_unlock(&hw_egress_mutex);
    free(grace);
}

static void
hw_egress_uninstall(struct hw_egress *egress)
    OVS_REQUIRES(hw_egress_mutex)
{
    atomic_store_relaxed(&egress->active, false);
    if (egress->installed) {
        struct hw_tx_push *push = ovsrcu_get_protected(struct hw_tx_push *,
                                                       &egress->push);

        ovsrcu_set(&egress->push, NULL);
        hw_tx_push_destroy(push);
        egress->installed = false;
    }
}

static int
hw_egress_install(struct hw_egress *egress, struct netdev *netdev,
                  const struct netdev_hw_device *dev, struct ds *reason)
    OVS_REQUIRES(hw_egress_mutex)
{
    /* The QP of an egress rule only names the device (hw-apis.md 1.5). */
    struct ibv_qp *qp = netdev_hw_rss_qp(netdev,
                                         hw_rule_rss_type(&egress->rule));
    struct hw_tx_push *push;
    int error;

    error = hw_tx_push_create(dev, qp, &egress->rule, &push, reason);
    if (!error) {
        ovsrcu_set(&egress->push, push);
        egress->installed = true;
        atomic_store_relaxed(&egress->active, egress->n_users > 0);
    }
    return error;
}

/* Destroys the egress rules no flow has used for a grace period. */
static void
hw_egress_drain(void)
    OVS_REQUIRES(hw_egress_mutex)
{
    struct hw_egress *egress;

    HMAP_FOR_EACH_SAFE (egress, node, &hw_egresses) {
        if (!egress->n_users && egress->death <= hw_egress_graces_done) {
            hmap_remove(&hw_egresses, &egress->node);
            hw_egress_uninstall(egress);
            free(egress->port_name);
            free(egress);
        }
    }
}

static bool
hw_egress_same_encap(const struct hw_egress *egress,
                     const struct hw_rule *rule)
{
    return (egress->rule.reformat == rule->reformat
            && egress->rule.reformat_len == rule->reformat_len
            && !memcmp(egress->rule.reformat_data, rule->reformat_data,
                       rule->reformat_len));
}

/* Finds or installs the egress rule of 'push' on its output port and takes
 * a reference to it.  'in_netdev' is the port the flow was put on.  Returns
 * NULL with a reason if the push cannot be done by the NIC. */
struct hw_egress *
hw_egress_acquire(const struct netdev *in_netdev, const struct hw_push *push,
                  struct ds *reason)
{
    struct hw_egress *egress, *found = NULL;
    struct hw_offload_port *qport;
    struct netdev_hw_device dev;
    struct netdev *q;
    const char *name;
    uint32_t hash;
    bool closing;

    q = netdev_ports_get(push->out_port, netdev_get_dpif_type(in_netdev));
    if (!q) {
        ds_put_format(reason, "output port %"PRIu32" not found",
                      odp_to_u32(push->out_port));
        return NULL;
    }
    name = netdev_get_name(q);
    qport = (netdev_is_hw(q) && hw_offload_is_ours(q)
             ? hw_offload_port_get(q) : NULL);
    if (!qport || qport->vport) {
        ds_put_format(reason, "output port %s is not a hw port", name);
        netdev_close(q);
        return NULL;
    }

    ovs_mutex_lock(&qport->dev_mutex);
    ovs_mutex_lock(&qport->mutex);
    closing = qport->closing;
    ovs_mutex_unlock(&qport->mutex);
    if (closing || !netdev_hw_get_device(q, &dev)) {
        ds_put_format(reason, "device of %s not open", name);
        ovs_mutex_unlock(&qport->dev_mutex);
        netdev_close(q);
        return NULL;
    }

    hash = hash_string(name, 0);
    ovs_mutex_lock(&hw_egress_mutex);
    hw_egress_drain();
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash, &hw_egresses) {
        if (!strcmp(egress->port_name, name) && !egress->dead
            && hw_egress_same_encap(egress, &push->egress)) {
            /* One in use, or unused but not destroyed yet. */
            found = egress;
            break;
        }
    }

    if (!found) {
        struct hw_rule rule = push->egress;

        rule.outer.eth.dst = hw_push_marker(hw_egress_next_id);
        /* Markers make egress rules disjoint; check it anyway, as two
         * overlapping rules of different encaps would give a packet
         * either. */
        HMAP_FOR_EACH_WITH_HASH (egress, node, hash, &hw_egresses) {
            if (!strcmp(egress->port_name, name) && !egress->dead
                && hw_rule_overlaps(&egress->rule, &rule)) {
                ds_put_format(reason, "egress rule overlaps another on %s",
                              name);
                goto refuse;
            }
        }

        found = xzalloc(sizeof *found);
        found->port_name = xstrdup(name);
        found->id = hw_egress_next_id++;
        found->rule = rule;
        atomic_init(&found->active, false);
        if (hw_egress_install(found, q, &dev, reason)) {
            free(found->port_name);
            free(found);
            goto refuse;
        }
        hmap_insert(&hw_egresses, &found->node, hash);
    }
    found->n_users++;
    atomic_store_relaxed(&found->active, found->installed);
    ovs_mutex_unlock(&hw_egress_mutex);
    ovs_mutex_unlock(&qport->dev_mutex);
    netdev_close(q);
    return found;

refuse:
    ovs_mutex_unlock(&hw_egress_mutex);
    ovs_mutex_unlock(&qport->dev_mutex);
    netdev_close(q);
    return NULL;
}

/* Drops a flow's reference to 'egress'.  The hook stops using an unused
 * rule at once; the rule goes after a grace period (hw_egress_drain()). */
void
hw_egress_release(struct hw_egress *egress)
{
    struct hw_egress_grace *grace = NULL;

    if (!egress) {
        return;
    }
    ovs_mutex_lock(&hw_egress_mutex);
    ovs_assert(egress->n_users > 0);
    if (!--egress->n_users) {
        atomic_store_relaxed(&egress->active, false);
        grace = xmalloc(sizeof *grace);
        grace->seq = egress->death = ++hw_egress_graces_requested;
    }
    hw_egress_drain();
    ovs_mutex_unlock(&hw_egress_mutex);

    if (grace) {
        ovsrcu_postpone(hw_egress_grace_done, grace);
    }
}

/* The device of port 'name' is going away ('gone': for good): destroys its
 * egress rules, whose flows' pushes go back to the software. */
void
hw_egress_port_down(const char *name, bool gone)
{
    struct hw_egress *egress;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        if (!strcmp(egress->port_name, name)) {
            hw_egress_uninstall(egress);
            egress->dead |= gone;
        }
    }
    hw_egress_drain();
    ovs_mutex_unlock(&hw_egress_mutex);
}

/* The device of 'netdev' is back: reinstalls the egress rules in use.
 * Returns the number reinstalled and adds those that failed (their flows
 * push in software) to '*n_failed'. */
size_t
hw_egress_port_up(struct netdev *netdev, const struct netdev_hw_device *dev,
                  size_t *n_failed)
{
    const char *name = netdev_get_name(netdev);
    struct hw_egress *egress;
    size_t n = 0;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        struct ds reason = DS_EMPTY_INITIALIZER;

        if (strcmp(egress->port_name, name) || egress->dead
            || egress->installed || !egress->n_users) {
            continue;
        }
        if (hw_egress_install(egress, netdev, dev, &reason)) {
            VLOG_WARN("%s: egress rule not reinstalled, tunnel pushes go "
                      "back to software: %s", name, ds_cstr(&reason));
            (*n_failed)++;
        } else {
            n++;
        }
        ds_destroy(&reason);
    }
    ovs_mutex_unlock(&hw_egress_mutex);
    return n;
}

/* Appends the egress rules of port 'name' to 's', for dump-rules. */
void
hw_egress_format(const char *name, struct ds *s)
{
    struct hw_egress *egress;

    ovs_mutex_lock(&hw_egress_mutex);
    HMAP_FOR_EACH_WITH_HASH (egress, node, hash_string(name, 0),
                             &hw_egresses) {
        if (strcmp(egress->port_name, name) || !egress->installed) {
            continue;
        }
        ds_put_format(s, "egress, flows:%u, ", egress->n_users);
        hw_tx_push_format(ovsrcu_get_protected(struct hw_tx_push *,
                                               &egress->push), s);
        ds_put_char(s, '\n');
    }
    ovs_mutex_unlock(&hw_egress_mutex);
}
