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

#ifndef HW_MODEL_DR_H
#define HW_MODEL_DR_H 1

/* The NIC model's pipeline of tables, with the semantics of rdma-core 44's
 * mlx5dv_dr (hw-apis.md 3.1-3.4): domains, tables with levels, matchers,
 * rules, actions and DevX flow counters, every refusal with the errno
 * libmlx5 (or, for the root table, the kernel) returns, and the packet path
 * through them.
 *
 * hw-model-dr.c owns the objects and their validation, hw-model-dr-path.c
 * runs packets through them.  hw-model-dev.c owns the device: the dr_*
 * members of hw_model_ops are the functions below, which enter the device
 * through hw_model_dr_lock() (its mutex and its fault injection), and its
 * receive and send paths (hw-model-rx.c, hw-model-tx.c) hand packets to
 * hw_model_dr_receive() and hw_model_dr_send().
 *
 * The model stands for a ConnectX-6 Dx (STE format v1) whose PF is the
 * e-switch manager, with software steering in all three domains. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-dev.h"
#include "hw-model-flow.h"

struct dp_packet;
struct ds;
struct hw_model_stats;

/* The dr operations faults can be injected into, by hw_dev_ops name, as a
 * list for the device's table of operations (hw-model-private.h):
 * OP(ENUM, NAME). */
#define HW_MODEL_DR_OPS(OP)                                 \
    OP(DR_DOMAIN_CREATE, "dr_domain_create")                \
    OP(DR_DOMAIN_SYNC, "dr_domain_sync")                    \
    OP(DR_DOMAIN_DESTROY, "dr_domain_destroy")              \
    OP(DR_TABLE_CREATE, "dr_table_create")                  \
    OP(DR_TABLE_DESTROY, "dr_table_destroy")                \
    OP(DR_MATCHER_CREATE, "dr_matcher_create")              \
    OP(DR_MATCHER_DESTROY, "dr_matcher_destroy")            \
    OP(DR_RULE_CREATE, "dr_rule_create")                    \
    OP(DR_RULE_DESTROY, "dr_rule_destroy")                  \
    OP(DR_ACTION_CREATE, "dr_action_create")                \
    OP(DR_ACTION_DESTROY, "dr_action_destroy")              \
    OP(DR_ACTION_MODIFY_METER, "dr_action_modify_meter")    \
    OP(DR_COUNTER_CREATE, "dr_counter_create")              \
    OP(DR_COUNTER_QUERY, "dr_counter_query")                \
    OP(DR_COUNTER_DESTROY, "dr_counter_destroy")            \
    OP(DR_GENEVE_OPT_CREATE, "dr_geneve_opt_create")        \
    OP(DR_GENEVE_OPT_DESTROY, "dr_geneve_opt_destroy")

enum hw_model_dr_op {
#define HW_MODEL_DR_OP_ENUM(ENUM, NAME) HW_MODEL_##ENUM,
    HW_MODEL_DR_OPS(HW_MODEL_DR_OP_ENUM)
#undef HW_MODEL_DR_OP_ENUM
    HW_MODEL_DR_N_OPS
};

/* The uplink's vport number (rdma-core's WIRE_PORT); vport 0 is the PF,
 * the e-switch manager; VF k (from 0) is vport k + 1. */
#define HW_MODEL_DR_WIRE_VPORT 0xffff

/* The metadata the e-switch writes into reg_c0 of every packet that enters
 * it in switchdev mode, naming its source vport, as mlx5dv_query_port()
 * gives it (value under mask HW_MODEL_VPORT_REG_C0_MASK): the kernel's
 * vport metadata, 16 bits at the top of the register. */
#define HW_MODEL_VPORT_REG_C0_MASK 0xffff0000u
uint32_t hw_model_vport_reg_c0(uint16_t vport);

/* One device's pipeline. */
struct hw_model_dr;

struct hw_model_dr *hw_model_dr_create(struct ibv_context *,
                                       const struct hw_dev_caps *);

/* Fills the dr_* fields of 'caps': what the model's pipeline offers. */
void hw_model_dr_init_caps(struct hw_dev_caps *caps);

/* Puts the e-switch in switchdev mode with 'n_vfs' VFs (vports 1 to
 * 'n_vfs'), or back in legacy mode with 0: what DEST_VPORT may name and
 * whether packets carry their source vport's metadata in reg_c0. */
void hw_model_dr_set_vfs(struct hw_model_dr *, unsigned int n_vfs);

/* Sets the number of rules each domain type holds at most; a rule beyond
 * it fails with ENOMEM (the ICM pool is full). */
void hw_model_dr_set_max_rules(struct hw_model_dr *, uint32_t max_rules);

/* Provided by hw-model-dev.c: locks the device of 'ctx' and runs the fault
 * injection of 'op'.  Returns the device's pipeline and stores in '*errorp'
 * 0 or the injected errno; in both cases the caller calls
 * hw_model_dr_unlock() next. */
struct hw_model_dr *hw_model_dr_lock(struct ibv_context *,
                                     enum hw_model_dr_op, int *errorp);
void hw_model_dr_unlock(struct ibv_context *);

/* Provided by hw-model-dev.c, with the device locked: checks that 'qp' is
 * a QP of the device and adds 'delta' to its users (a QP with users cannot
 * be destroyed: EBUSY).  Returns 0 or EINVAL. */
int hw_model_dr_qp_ref(struct ibv_context *, struct ibv_qp *qp, int delta);

/* The operations, with the signatures and semantics of hw_dev_ops's dr_*
 * members. */
int hw_model_dr_domain_create(struct ibv_context *,
                              enum mlx5dv_dr_domain_type,
                              struct mlx5dv_dr_domain **);
int hw_model_dr_domain_sync(struct mlx5dv_dr_domain *, uint32_t flags);
int hw_model_dr_domain_destroy(struct mlx5dv_dr_domain *);
int hw_model_dr_table_create(struct mlx5dv_dr_domain *, uint32_t level,
                             struct mlx5dv_dr_table **);
int hw_model_dr_table_destroy(struct mlx5dv_dr_table *);
int hw_model_dr_matcher_create(struct mlx5dv_dr_table *, uint16_t priority,
                               uint8_t match_criteria_enable,
                               struct mlx5dv_flow_match_parameters *mask,
                               struct mlx5dv_dr_matcher **);
int hw_model_dr_matcher_destroy(struct mlx5dv_dr_matcher *);
int hw_model_dr_rule_create(struct mlx5dv_dr_matcher *,
                            struct mlx5dv_flow_match_parameters *value,
                            size_t n_actions, struct mlx5dv_dr_action *[],
                            struct mlx5dv_dr_rule **);
int hw_model_dr_rule_destroy(struct mlx5dv_dr_rule *);
int hw_model_dr_action_create(struct mlx5dv_dr_domain *,
                              const struct hw_dr_action_attr *,
                              struct mlx5dv_dr_action **);
int hw_model_dr_action_destroy(struct mlx5dv_dr_action *);
int hw_model_dr_action_modify_meter(struct mlx5dv_dr_action *,
                                    const struct hw_dr_action_attr *,
                                    uint64_t modify_field_select);

/* The clock flow meters refill by, in microseconds: OVS's time_usec()
 * (which time/stop and time/warp drive), or 'clock' for unit tests (NULL
 * restores time_usec()). */
void hw_model_dr_meter_set_clock(long long int (*clock)(void));
int hw_model_dr_counter_create(struct ibv_context *,
                               struct mlx5dv_devx_obj **);
int hw_model_dr_counter_query(struct mlx5dv_devx_obj *, uint64_t *packets,
                              uint64_t *bytes);
int hw_model_dr_counter_destroy(struct mlx5dv_devx_obj *);
int hw_model_dr_geneve_opt_create(struct ibv_context *, ovs_be16 opt_class,
                                  uint8_t type, uint8_t len,
                                  struct mlx5dv_devx_obj **);
int hw_model_dr_geneve_opt_destroy(struct mlx5dv_devx_obj *);

/* Live objects, per kind. */
struct hw_model_dr_objects {
    size_t domain;
    size_t table;
    size_t matcher;
    size_t rule;
    size_t action;
    size_t counter;
    size_t geneve_opt;
};

void hw_model_dr_count(const struct hw_model_dr *,
                       struct hw_model_dr_objects *);
size_t hw_model_dr_n_objects(const struct hw_model_dr *);

/* Appends the domains, tables, matchers and rules, with hit counts. */
void hw_model_dr_format(const struct hw_model_dr *, struct ds *);

/* The packet path (hw-model-dr-path.c). */

/* What the pipeline does with one copy of a packet. */
enum hw_model_dr_fate {
    HW_MODEL_DR_DELIVER,        /* As 'verdict' says, as of a verbs rule: to
                                 * its QP with its tag; dropped ('drop': a
                                 * DROP action, or an action the packet
                                 * cannot take); or, unmatched, a miss
                                 * (NIC RX drops, NIC TX sends). */
    HW_MODEL_DR_WIRE,           /* Leaves on the wire. */
    HW_MODEL_DR_VPORT,          /* Goes to the host side of the VF of
                                 * vport 'vport'. */
};

#define HW_MODEL_DR_MAX_OUTPUTS 16

struct hw_model_dr_output {
    struct dp_packet *packet;   /* Owned by the caller. */
    enum hw_model_dr_fate fate;
    uint16_t vport;                     /* HW_MODEL_DR_VPORT. */
    struct hw_model_verdict verdict;    /* HW_MODEL_DR_DELIVER. */
};

struct hw_model_dr_result {
    size_t n;
    struct hw_model_dr_output out[HW_MODEL_DR_MAX_OUTPUTS];
};

/* Returns true if the device has a rule in the domains that packets from
 * the wire ('receive') or from the host (!receive) cross: without one the
 * caller keeps to the verbs rules alone. */
bool hw_model_dr_active(const struct hw_model_dr *, bool receive);

/* A frame arrives from the wire: the FDB (source vport: the uplink), then
 * NIC RX, whose root it shares with the verbs ingress rules of 'steering'.
 * Takes 'packet' and fills 'result' with every copy of it and its fate. */
void hw_model_dr_receive(struct hw_model_dr *, struct hw_model_steering *,
                         struct dp_packet *packet, struct hw_model_stats *,
                         struct hw_model_dr_result *);

/* The host side of the VF of 'vport' sends a frame: the FDB (source
 * vport: 'vport'), and on a miss the e-switch manager's NIC RX, whose root
 * holds the verbs rules of the VF's representor, 'rep' (the kernel matches
 * them on the source vport); 'manager' has the verbs rules of the uplink
 * port, where a DEST_VPORT to vport 0 delivers. */
void hw_model_dr_from_vport(struct hw_model_dr *,
                            struct hw_model_steering *rep,
                            struct hw_model_steering *manager,
                            uint16_t vport, struct dp_packet *packet,
                            struct hw_model_stats *,
                            struct hw_model_dr_result *);

/* The host sends a frame: NIC TX, whose root it shares with the verbs
 * egress rules. */
void hw_model_dr_send(struct hw_model_dr *, struct hw_model_steering *,
                      struct dp_packet *packet, struct hw_model_stats *,
                      struct hw_model_dr_result *);

#endif /* hw-model-dr.h */
