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

#ifndef HW_FLOW_DR_H
#define HW_FLOW_DR_H 1

/* The pipeline objects of one offloaded rule, created all or none: the
 * dr twin of hw-flow.h.
 *
 * hw_flow_dr_install() encodes the rule's match into a mask and a value
 * (hw-encode-dr.h), takes references to the shared matcher and actions of
 * the pipeline (hw-pipeline.h), creates a counter if the rule counts, and
 * then the rule, with its actions in the device's order: decap, pop VLAN,
 * modify header, push VLAN, encap, tag, counter, and the fate (the RSS QP,
 * drop, or the domain's default for egress rules).  On any failure,
 * everything taken or created for the rule is given back. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct hw_pipeline;
struct hw_pipe_action;
struct hw_pipe_matcher;
struct hw_rule;
struct ibv_qp;
struct mlx5dv_devx_obj;
struct mlx5dv_dr_rule;
struct netdev_hw_device;

#define HW_FLOW_DR_MAX_ACTIONS 8

struct hw_flow_dr {
    struct hw_pipe_matcher *matcher;
    struct hw_pipe_action *actions[HW_FLOW_DR_MAX_ACTIONS];
    size_t n_actions;
    struct hw_pipe_action *dests[HW_FLOW_DR_MAX_ACTIONS];  /* A
                                         * DEST_ARRAY's destinations, held
                                         * for it, not in the rule. */
    size_t n_dests;
    struct mlx5dv_devx_obj *counter;    /* NULL if the rule counts nothing. */
    struct mlx5dv_dr_rule *rule;
    uint32_t level;                     /* Its table's level. */
    bool geneve_opt;                    /* Holds a reference to the
                                         * device's Geneve option parser. */

    /* Counter values read just before the rule went. */
    bool final_valid;
    uint64_t final_packets;
    uint64_t final_bytes;
};

/* An installed rule in less memory, for the rules of connections, which
 * are many and alike: a matcher, two shared actions at most, a counter
 * with its own action (kept without the pipeline's wrapper) and the
 * rule. */
#define HW_FLOW_DR_SMALL_SHARED 2

struct hw_flow_dr_small {
    struct hw_pipe_matcher *matcher;
    struct hw_pipe_action *shared[HW_FLOW_DR_SMALL_SHARED];
    struct mlx5dv_dr_action *counter_action;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_rule *rule;
};

/* An installed rule in less memory again, for the usual rule of an
 * offloaded flow: its own tag and counter actions without their wrappers,
 * between at most one shared action before them and one after (the
 * fate).  It is kept in struct hw_flow itself. */
struct hw_flow_dr_compact {
    struct hw_pipe_matcher *matcher;
    struct hw_pipe_action *before;      /* A shared action, or NULL. */
    struct hw_pipe_action *fate;        /* A shared action, or NULL. */
    struct mlx5dv_dr_action *tag_action;
    struct mlx5dv_dr_action *counter_action;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_rule *rule;
};

/* Installs 'rule' in the table of 'level' of the pipeline 'p' of 'dev',
 * delivering to 'dest' (an RSS QP of the port) if its fate is RSS.
 * Returns 0, or a positive errno value with the failed step appended to
 * 'reason', e.g. "dr_rule_create: No space left on device"; then nothing
 * remains on the device. */
int hw_flow_dr_install(struct hw_pipeline *p,
                       const struct netdev_hw_device *dev, uint32_t level,
                       struct ibv_qp *dest, const struct hw_rule *rule,
                       struct hw_flow_dr *flow, struct ds *reason);

/* The same, at matcher priority 'priority' instead of the rule's band
 * (hw_rule_priority()). */
int hw_flow_dr_install_at(struct hw_pipeline *p,
                          const struct netdev_hw_device *dev, uint32_t level,
                          uint16_t priority, struct ibv_qp *dest,
                          const struct hw_rule *rule,
                          struct hw_flow_dr *flow, struct ds *reason);

/* hw_flow_dr_install(), into 'c' if the rule fits the compact form (then
 * 'c->rule' is set and 'flow' holds nothing), else into 'flow' (then 'c'
 * is zeroed).  It does not fit with a DEST_ARRAY, a Geneve option or more
 * than one shared action before the tag and counter. */
int hw_flow_dr_install_compact(struct hw_pipeline *p,
                               const struct netdev_hw_device *dev,
                               uint32_t level, struct ibv_qp *dest,
                               const struct hw_rule *rule,
                               struct hw_flow_dr *flow,
                               struct hw_flow_dr_compact *c,
                               struct ds *reason);

/* The same for a metered FDB rule (hw-rule.h HW_REG_METER): the rule ends
 * with the flow meter action 'meter' of 'p', on which it takes a
 * reference, instead of its fate. */
int hw_flow_dr_install_meter(struct hw_pipeline *p,
                             const struct netdev_hw_device *dev,
                             uint32_t level, struct hw_pipe_action *meter,
                             const struct hw_rule *rule,
                             struct hw_flow_dr *flow, struct ds *reason);

/* Destroys the rule of 'flow', reading its counter first, then gives back
 * its actions and matcher and destroys its counter.  Returns 0, or the
 * errno of the first destroy the device refused, with the call in
 * '*stepp' ("dr_rule_destroy", "dr_counter_destroy"): then 'flow' still
 * owns what is left (all of it if the rule is still live) and a later call
 * retries. */
int hw_flow_dr_uninstall(struct hw_pipeline *p,
                         const struct netdev_hw_device *dev,
                         struct hw_flow_dr *flow, const char **stepp);

/* Reads the packets and bytes counted for 'flow' (or kept at uninstall).
 * EOPNOTSUPP if it counts nothing. */
/* Appends 'flow', installed for 'rule', to 's' in readable form: its
 * matcher, the match fields with their values and the shared actions, e.g.
 * "matcher #2 (nic_rx level 1 priority 8) outer(ip_protocol=17,ttl_hoplimit
 * =64,...) actions tag#3 counter dest_qp#1". */
void hw_flow_dr_format(const struct hw_flow_dr *flow,
                       const struct hw_rule *rule, struct ds *s);

int hw_flow_dr_read(const struct netdev_hw_device *dev,
                    const struct hw_flow_dr *flow,
                    uint64_t *packets, uint64_t *bytes);

/* Moves the installed 'flow' into 'small' and returns true, or returns
 * false, leaving it as it was, if it holds more than 'small' can: more
 * shared actions, a private action other than its counter's, a
 * DEST_ARRAY, the Geneve option parser. */
bool hw_flow_dr_shrink(struct hw_pipeline *p, struct hw_flow_dr *flow,
                       struct hw_flow_dr_small *small);

/* Moves 'small', a rule in the table of 'level', back into 'flow', e.g.
 * for hw_flow_dr_uninstall(). */
void hw_flow_dr_expand(struct hw_pipeline *p, struct hw_flow_dr_small *small,
                       uint32_t level, struct hw_flow_dr *flow);

/* Moves 'c' back into 'flow', e.g. for its uninstall. */
void hw_flow_dr_uncompact(struct hw_pipeline *p, struct hw_flow_dr_compact *c,
                          struct hw_flow_dr *flow);

/* hw_flow_dr_read() and hw_flow_dr_format() of 'c'. */
int hw_flow_dr_compact_read(const struct netdev_hw_device *dev,
                            const struct hw_flow_dr_compact *c,
                            uint64_t *packets, uint64_t *bytes);
void hw_flow_dr_compact_format(const struct hw_flow_dr_compact *c,
                               const struct hw_rule *rule, struct ds *s);

/* hw_flow_dr_read() of 'small'. */
int hw_flow_dr_small_read(const struct netdev_hw_device *dev,
                          const struct hw_flow_dr_small *small,
                          uint64_t *packets, uint64_t *bytes);

#endif /* hw-flow-dr.h */
