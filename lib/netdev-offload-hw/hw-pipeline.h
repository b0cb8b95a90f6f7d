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

#ifndef HW_PIPELINE_H
#define HW_PIPELINE_H 1

/* The pipeline objects of one device, shared by its rules.
 *
 * A device's dr domains and tables live as long as the pipeline.  Matchers
 * and actions are made once and reference counted: one matcher per table,
 * priority and mask, one action per distinct attribute (one packet reformat
 * per header, one modify header per rewrite list, one push VLAN per tag, one
 * destination per QP, table or vport), except the counter and the tag
 * actions, which are each one rule's own.  A rule takes a reference on each
 * object it uses and gives it back when it goes; the last reference
 * destroys the object on the device.
 *
 * Thread-safe: offload threads of several ports may share a pipeline. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-dev.h"

struct ds;
struct netdev_hw_device;
struct hw_pipeline;
struct hw_pipe_matcher;
struct hw_pipe_action;

/* Returns a new pipeline for 'dev', whose backend must have the dr
 * operations ('dev->caps->dr_domains' not 0).  Domains and tables are
 * created when first asked for. */
struct hw_pipeline *hw_pipeline_create(const struct netdev_hw_device *dev);

/* Destroys 'p', its tables and domains.  Every matcher and action should
 * have been released (the device refuses to destroy a table with
 * matchers); what is left is logged and forgotten, as closing the device
 * destroys it. */
void hw_pipeline_destroy(struct hw_pipeline *p);

/* Stores into '*tablep' the table of 'level' in 'domain', created if need
 * be.  Returns 0 or the device's errno. */
int hw_pipeline_table(struct hw_pipeline *p, enum mlx5dv_dr_domain_type,
                      uint32_t level, struct mlx5dv_dr_table **tablep);

/* Takes a reference to the matcher of 'priority', 'criteria' and 'mask'
 * ('mask_size' bytes of fte_match_param) in the table of 'level' in
 * 'domain', created if need be.  Returns 0 or the device's errno. */
int hw_pipeline_matcher_ref(struct hw_pipeline *p,
                            enum mlx5dv_dr_domain_type domain,
                            uint32_t level, uint16_t priority,
                            uint8_t criteria, const void *mask,
                            size_t mask_size,
                            struct hw_pipe_matcher **matcherp);
void hw_pipeline_matcher_unref(struct hw_pipeline *p,
                               struct hw_pipe_matcher *);
struct mlx5dv_dr_matcher *hw_pipe_matcher_dr(const struct hw_pipe_matcher *);
uint32_t hw_pipe_matcher_level(const struct hw_pipe_matcher *);

/* Takes a reference to the action 'attr' of 'domain', created if need be.
 * Counter, tag and flow meter actions are never shared: each counter
 * action has its own counter object, each tag is one flow's mark, and each
 * flow meter has its own token bucket.
 * Returns 0 or the device's errno. */
int hw_pipeline_action_ref(struct hw_pipeline *p,
                           enum mlx5dv_dr_domain_type domain,
                           const struct hw_dr_action_attr *attr,
                           struct hw_pipe_action **actionp);
void hw_pipeline_action_unref(struct hw_pipeline *p, struct hw_pipe_action *);

/* Takes one more reference to 'a': a flow meter action (which is private,
 * one per meter) held by each rule that jumps through it. */
void hw_pipeline_action_hold(struct hw_pipeline *p, struct hw_pipe_action *);
struct mlx5dv_dr_action *hw_pipe_action_dr(const struct hw_pipe_action *);
enum hw_dr_action_type hw_pipe_action_type(const struct hw_pipe_action *);

/* A rule's own counter action 'a' without its wrapper, for a rule kept in
 * less memory (hw_flow_dr_shrink()): frees the wrapper and returns the
 * device's action, which the pipeline goes on counting.  'a' must have
 * one reference.  hw_pipeline_action_wrap() gives it a wrapper again, in
 * the domain of 'm', the matcher of its rule, for the rule's uninstall. */
/* A rule's own action (a tag, a counter) without a wrapper, for a rule
 * kept compact (hw_flow_dr_install_compact()): the pipeline counts it as
 * one hw_pipeline_action_ref() made, and it has no id. */
int hw_pipeline_own_action_create(struct hw_pipeline *p,
                                  const struct hw_pipe_matcher *m,
                                  const struct hw_dr_action_attr *attr,
                                  struct mlx5dv_dr_action **actionp);
void hw_pipeline_own_action_destroy(struct hw_pipeline *p,
                                    enum hw_dr_action_type type,
                                    struct mlx5dv_dr_action *action);

struct mlx5dv_dr_action *hw_pipeline_action_unwrap(struct hw_pipeline *p,
                                                   struct hw_pipe_action *a);
struct hw_pipe_action *hw_pipeline_action_wrap(
    struct hw_pipeline *p, const struct hw_pipe_matcher *m,
    enum hw_dr_action_type type, struct mlx5dv_dr_action *dr);

/* Takes a reference to the device's Geneve option parser set to 'opt',
 * creating its object (dr_geneve_opt_create) with the first reference.
 * The device has one: while it is set to another option, returns EBUSY.
 * Returns 0, or an errno value with a reason appended to 'reason'. */
struct hw_geneve_opt;
int hw_pipeline_geneve_opt_ref(struct hw_pipeline *p,
                               const struct hw_geneve_opt *opt,
                               struct ds *reason);
void hw_pipeline_geneve_opt_unref(struct hw_pipeline *p);

/* Append "matcher #ID (DOMAIN level L priority P)" and "ACTION#ID" (for an
 * action rules may share; a rule's own is "ACTION") to 's', for
 * netdev-hw/dump-rules. */
void hw_pipe_matcher_format(const struct hw_pipe_matcher *, struct ds *s);
void hw_pipe_action_format(const struct hw_pipe_action *, struct ds *s);

/* Counts of the objects 'p' holds, for tests and netdev-hw/dump-rules. */
struct hw_pipeline_counts {
    size_t domains;
    size_t tables;
    size_t matchers;
    size_t actions;
    size_t refs;        /* References held on matchers and actions. */
};
void hw_pipeline_counts(const struct hw_pipeline *p,
                        struct hw_pipeline_counts *);

/* Appends the shared objects of 'p', with their reference counts, to 's'. */
void hw_pipeline_format(const struct hw_pipeline *p, struct ds *s);

/* The name of 'domain' ("nic_rx", "nic_tx", "fdb") and of action 'type'
 * ("tag", "drop", ...). */
const char *hw_pipe_domain_name(enum mlx5dv_dr_domain_type domain);
const char *hw_pipe_action_name(enum hw_dr_action_type type);

#endif /* hw-pipeline.h */
