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


/* A meter modified to what the device cannot run: the rules that meter in
 * the device go, and their flows to software (hw-offload-meter.h). */

#include <config.h>
#include "hw-offload-meter.h"

#include "coverage.h"
#include "hw-offload-entries.h"
#include "hw-offload-private.h"
#include "hw-offload-refusals.h"
#include "netdev.h"
#include "openvswitch/match.h"
#include "openvswitch/vlog.h"
#include "sset.h"

VLOG_DEFINE_THIS_MODULE(hw_offload_meter_fallback);

/* The main thread counts: meter_set runs there. */
COVERAGE_DEFINE(hw_offload_meter_fallback);

/* Removes the rules of 'port' that run meter 'meter_id' in the device,
 * recording 'reason' for their flows.  Returns how many went. */
static size_t
meter_fallback_port(struct hw_offload_port *port, uint32_t meter_id,
                    const char *reason)
{
    struct hw_offload_entry *entry;
    size_t n = 0;

    ovs_mutex_lock(&port->dev_mutex);
    ovs_mutex_lock(&port->mutex);
    HMAP_FOR_EACH (entry, node, &port->entries) {
        struct hw_meter_flow *mf = hw_flow_meter(&entry->flow);
        struct match match;

        if (!entry->installed || !mf
            || hw_offload_meter_flow_id(mf) != meter_id) {
            continue;
        }
        /* Its packets, untagged, run the flow's actions, the meter's new
         * configuration with them, in software; the entry keeps what the
         * rule counted, which software's counts add to. */
        hw_offload_entry_to_software(port, entry);
        minimatch_expand(&entry->match, &match);
        hw_offload_refusal_record(port->name, &match, &entry->ufid, reason);
        n++;
    }
    ovs_mutex_unlock(&port->mutex);
    ovs_mutex_unlock(&port->dev_mutex);
    return n;
}

void
hw_offload_meter_fallback(uint32_t meter_id, const char *reason)
{
    struct sset names = SSET_INITIALIZER(&names);
    const char *name;
    size_t n = 0;

    /* Names first, as the unixctl commands do: the netdevs are opened
     * after the ports' mutex is released. */
    hw_offload_port_names(&names);
    SSET_FOR_EACH (name, &names) {
        struct netdev *netdev = netdev_from_name(name);
        struct hw_offload_port *port;

        if (!netdev) {
            continue;
        }
        port = hw_offload_port_get(netdev);
        if (port && hw_offload_is_ours(netdev) && !port->vport) {
            n += meter_fallback_port(port, meter_id, reason);
        }
        netdev_close(netdev);
    }
    sset_destroy(&names);

    if (n) {
        COVERAGE_ADD(hw_offload_meter_fallback, n);
        VLOG_INFO("meter %"PRIu32": %s: %"PRIuSIZE" flows that metered in "
                  "the device went to software", meter_id, reason, n);
    }
}
