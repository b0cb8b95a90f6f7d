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

#ifndef HW_FLOW_H
#define HW_FLOW_H 1

/* The device objects of one offloaded rule, created all or none.
 *
 * hw_flow_install() creates, in this order, the counters (when the rule
 * counts), the packet reformat action (when the rule decapsulates or
 * encapsulates), the encoded ibv_flow_attr and the steering rule itself;
 * if any step fails, what was already created is destroyed in reverse
 * order, so a failed install leaves nothing behind on the device.
 * hw_flow_uninstall() destroys a complete install in reverse order.
 *
 * Not thread-safe by itself: the caller makes sure that only one thread at a
 * time installs, reads or uninstalls a given struct hw_flow.  Calls for
 * different flows on one device may run concurrently (the backend serialises
 * its own state). */

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include "hw-flow-dr.h"
#include "openvswitch/ofpbuf.h"

struct ds;
struct hw_ct_restore_stage;
struct hw_flow_dr;
struct hw_meter_flow;
struct hw_pipeline;
struct hw_rule;
struct netdev_hw_device;

/* What only some rules of the pipeline of tables hold, allocated with the
 * first of them, so that the usual rule does not pay for it. */
struct hw_flow_extra {
    struct hw_flow_dr *root_jump;       /* A rule with 'root_jump': its
                                         * jump from the root, NULL if
                                         * none. */
    struct hw_flow_dr *ct_misses;       /* A stage of the connection
                                         * pipeline: its miss rules in the
                                         * connection and post-conntrack
                                         * tables (hw_translate_ct_misses()),
                                         * which count what went back to
                                         * software. */
    size_t n_ct_misses;
    struct hw_ct_restore_stage *ct_restore; /* A stage with nat. */
    struct hw_meter_flow *meter;        /* A metered FDB rule: its output
                                         * rule and device meter
                                         * (hw-offload-meter.h). */
    uint64_t ct_miss_packets;           /* What destroyed misses counted. */
    uint64_t ct_miss_bytes;
};

/* There is one per offloaded flow: a union of what verbs and the pipeline
 * of tables hold, and members in an order that leaves no holes. */
struct hw_flow {
    union {
        /* A verbs rule: 'pipeline' is NULL. */
        struct {
            struct ibv_counters *counters;  /* NULL if the rule counts
                                             * nothing. */
            struct ibv_flow_action *reformat;   /* Tunnel reformat, NULL
                                                 * if none. */
            struct ibv_flow *flow;          /* The steering rule. */
        };

        /* A receive rule on a port with a pipeline of tables (the device's
         * 'pipeline') goes to the port's flow table there instead: 'dr'
         * holds it, or, if it fits (most do), 'compact' and 'dr' is
         * NULL. */
        struct {
            struct hw_flow_dr *dr;
            struct hw_flow_dr_compact compact;
        };
    };
    struct ibv_qp *dest;                /* The QP the rule delivers to. */
    struct hw_pipeline *pipeline;
    struct hw_flow_extra *extra;        /* NULL if the rule has none. */

    /* Counter values read by hw_flow_uninstall() after the steering rule
     * was destroyed and before its counters were, so that no packet counted
     * by the device is lost to the caller's final statistics. */
    uint64_t final_packets;
    uint64_t final_bytes;

    /* The ibv_flow_attr buffer handed to create_flow() is not kept (it
     * would be most of the plugin's memory per flow): hw_flow_format()
     * encodes it again from the rule, with the same handles and port. */
    uint8_t port_num;
    bool counted;                       /* The rule had counters. */
    bool uninstalled;
    bool final_valid;                   /* The final read succeeded. */
};

/* The meter of a metered FDB rule, or NULL. */
static inline struct hw_meter_flow *
hw_flow_meter(const struct hw_flow *flow)
{
    return flow->extra ? flow->extra->meter : NULL;
}

/* Installs 'rule' on 'dev' with destination 'dest' (an RSS QP of the port)
 * and fills 'flow' with the objects created.  Returns 0 on success.  On
 * failure nothing the plugin tracks remains on the device (an object the
 * device refuses to destroy is handed to hw-stale.h), 'flow' holds nothing
 * to free, a
 * positive errno value is returned and 'reason' receives the failed step and
 * the error, e.g. "create_flow: No space left on device". */
int hw_flow_install(const struct netdev_hw_device *dev, struct ibv_qp *dest,
                    const struct hw_rule *rule, struct hw_flow *flow,
                    struct ds *reason);

/* Destroys the objects of 'flow', installed by hw_flow_install(), in reverse
 * order of creation.  Before the rule goes, its counters' last values are
 * kept in 'flow->final_packets' and 'flow->final_bytes'.  Returns 0, or the
 * first error, with the call that failed in '*stepp' if 'stepp' is nonnull
 * ("destroy_flow"): then 'flow' still holds the objects the device did not
 * destroy (a rule it refused to destroy, with its actions and counters),
 * and a later call destroys them; the caller hands them to hw-stale.h.  If
 * 'dev' is NULL the device has been closed, which destroyed its objects
 * with it: only the memory held by 'flow' is released. */
int hw_flow_uninstall(const struct netdev_hw_device *dev,
                      struct hw_flow *flow, const char **stepp);

/* Whether the steering rule of 'flow' (verbs or dr) is in the device. */
bool hw_flow_has_rule(const struct hw_flow *);

/* The level of the table of the pipeline of tables where 'flow' has its
 * rule, or 0 if it has none there. */
uint32_t hw_flow_level(const struct hw_flow *);

/* Forgets the device objects of 'flow', which someone else now holds
 * (hw-stale.h); its final counts stay. */
void hw_flow_forget_objects(struct hw_flow *);

/* Stores into '*packets' and '*bytes' the packets and bytes the device has
 * counted for 'flow' since it was installed (or the values kept at
 * uninstall); for a stage of the connection pipeline, those its miss rules
 * did not send back to software.  Returns 0, EOPNOTSUPP if the rule has no
 * counters, ENODEV if it was uninstalled without a final read, or the
 * device's errno; both values are 0 on error. */
int hw_flow_read(const struct netdev_hw_device *dev,
                 const struct hw_flow *flow,
                 uint64_t *packets, uint64_t *bytes);

/* Appends to 's' the ibv_flow_attr that 'flow', installed from 'rule',
 * handed to create_flow(), as hw_encode_format() shows it.  Encoding is
 * pure, so these are the bytes the device received.  Appends nothing if
 * 'flow' holds no rule. */
void hw_flow_format(const struct hw_flow *flow, const struct hw_rule *rule,
                    struct ds *s);

#endif /* hw-flow.h */
