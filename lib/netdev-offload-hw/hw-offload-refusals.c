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

/* The refusal records: the last flows that were not offloaded and why, for
 * netdev-hw/not-offloaded. */

#include <config.h>
#include "hw-offload-refusals.h"

#include <stdlib.h>
#include <string.h>

#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofp-port.h"
#include "openvswitch/ofp-util.h"
#include "openvswitch/thread.h"
#include "openvswitch/util.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"

/* The last flows that were not offloaded, newest at 'n_refusals - 1'. */
#define HW_REFUSALS_MAX 64
struct hw_refusal {
    long long int when;             /* time_wall_msec(). */
    char *port;
    ovs_u128 ufid;
    char *match;
    char *reason;
};
static struct ovs_mutex refusals_mutex = OVS_MUTEX_INITIALIZER;
static struct hw_refusal refusals[HW_REFUSALS_MAX]
    OVS_GUARDED_BY(refusals_mutex);
static uint64_t n_refusals OVS_GUARDED_BY(refusals_mutex);

/* Refusals. */

/* Records that the flow 'ufid' with 'match' was not offloaded on port
 * 'port_name' and why.  Returns false if the latest records already hold
 * this flow on this port for this reason: dpif-netdev asks again for the
 * same megaflow from each PMD thread that has it, and a refusal counts
 * once.  The record then gets the new time.  Another reason (the device
 * fails the flow, made again, with another error) is a new refusal. */
bool
hw_offload_refusal_record(const char *port_name, const struct match *match,
                          const ovs_u128 *ufid, const char *reason)
{
    struct ds match_s = DS_EMPTY_INITIALIZER;
    struct hw_refusal *r = NULL;
    bool is_new;

    ovs_mutex_lock(&refusals_mutex);
    for (size_t i = 0; i < MIN(n_refusals, HW_REFUSALS_MAX); i++) {
        struct hw_refusal *old = &refusals[i];

        if (ovs_u128_equals(old->ufid, *ufid)
            && !strcmp(old->port, port_name)) {
            r = old;
            break;
        }
    }
    is_new = !r || strcmp(r->reason, reason);
    if (!r) {
        r = &refusals[n_refusals++ % HW_REFUSALS_MAX];
        free(r->port);
        free(r->match);
        struct ofputil_port_map map = OFPUTIL_PORT_MAP_INITIALIZER(&map);
        uint32_t in_port = odp_to_u32(match->flow.in_port.odp_port);

        r->port = xstrdup(port_name);
        r->ufid = *ufid;
        /* The flow's in_port is the port it was put on: show its name, as
         * dpctl/dump-flows does, rather than a datapath port number. */
        if (in_port < ofp_to_u16(OFPP_MAX)) {
            ofputil_port_map_put(&map, u16_to_ofp(in_port), port_name);
        }
        match_format(match, &map, &match_s, OFP_DEFAULT_PRIORITY);
        ofputil_port_map_destroy(&map);
        r->match = ds_steal_cstr(&match_s);
    }
    free(r->reason);
    r->when = time_wall_msec();
    r->reason = xstrdup(reason);
    ovs_mutex_unlock(&refusals_mutex);
    return is_new;
}

/* Appends the records of port 'port', or of every port if 'port' is NULL,
 * to 's', oldest first. */
void
hw_offload_refusals_format(const char *port, struct ds *s)
{
    uint64_t first;

    ovs_mutex_lock(&refusals_mutex);
    first = n_refusals > HW_REFUSALS_MAX ? n_refusals - HW_REFUSALS_MAX : 0;
    for (uint64_t i = first; i < n_refusals; i++) {
        const struct hw_refusal *r = &refusals[i % HW_REFUSALS_MAX];

        if (port && strcmp(port, r->port)) {
            continue;
        }
        ds_put_strftime_msec(s, "%Y-%m-%dT%H:%M:%S.###Z", r->when, true);
        ds_put_format(s, " mega_ufid:"UUID_FMT" %s: %s: %s\n",
                      UUID_ARGS((const struct uuid *) &r->ufid), r->port,
                      r->reason, r->match);
    }
    ovs_mutex_unlock(&refusals_mutex);
}
