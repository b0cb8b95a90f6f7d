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

#ifndef HW_DR_H
#define HW_DR_H 1

/* The pipeline of tables on a real mlx5 device: the dr_* operations of
 * hw-dev.h forwarded to rdma-core 44's mlx5dv_dr_* (software steering),
 * with no decision of their own.  Each returns 0 or the errno the library
 * set.  Built, like hw-rdma.c, only with HAVE_HW_RDMA; hw_rdma_ops uses
 * these functions as its dr_* members.
 *
 * Every action of struct hw_dr_action_attr maps to one
 * mlx5dv_dr_action_create_*() call.  Reformat and modify-header actions
 * are made for tables of level 1 and deeper (flags 0, not ROOT_LEVEL): the
 * root table is the verbs one.  Counters are DevX flow counter objects,
 * one counter each, created and read with the PRM commands of
 * hw-encode-dr.h.
 *
 * Which steering a device gets.  hw_dr_probe() gives a device the pipeline
 * (the 'dr_*' fields of struct hw_dev_caps) when it is an mlx5 device
 * whose context has DevX (hw_dr_open_device()) and whose domains accept a
 * software-steered (level 1) table: that is rdma-core's own test of
 * software steering support (the sw_owner capabilities), and the kernel
 * refuses the device memory such a table needs with EPERM without
 * CAP_SYS_RAWIO, which is therefore checked first (hw-privileges.h).
 * Without the pipeline the device is driven through verbs as before.  The
 * planned override, for later wiring in netdev-hw, is a port option
 * "options:steering=auto|verbs|dr": auto (the default) as above, verbs
 * ignores the pipeline, dr refuses to offload without it. */

#ifdef HAVE_HW_RDMA

#include "hw-dev.h"

struct svec;

/* Opens 'device' with DevX when it is an mlx5 device (the dr pipeline and
 * DevX counters need it), with plain verbs otherwise or if DevX is
 * refused.  Returns NULL with errno set on failure. */
struct ibv_context *hw_dr_open_device(struct ibv_device *device);

/* Fills the 'dr_*' fields of 'caps' for mlx5 device 'ctx' by creating and
 * destroying a domain and a level-1 table of each domain type.  If 'why'
 * is nonnull, appends one line per domain without the pipeline, with the
 * reason. */
void hw_dr_probe(struct ibv_context *ctx, struct hw_dev_caps *caps,
                 struct svec *why);

int hw_dr_domain_create(struct ibv_context *, enum mlx5dv_dr_domain_type,
                        struct mlx5dv_dr_domain **);
int hw_dr_domain_sync(struct mlx5dv_dr_domain *, uint32_t flags);
int hw_dr_domain_destroy(struct mlx5dv_dr_domain *);
int hw_dr_table_create(struct mlx5dv_dr_domain *, uint32_t level,
                       struct mlx5dv_dr_table **);
int hw_dr_table_destroy(struct mlx5dv_dr_table *);
int hw_dr_matcher_create(struct mlx5dv_dr_table *, uint16_t priority,
                         uint8_t match_criteria_enable,
                         struct mlx5dv_flow_match_parameters *mask,
                         struct mlx5dv_dr_matcher **);
int hw_dr_matcher_destroy(struct mlx5dv_dr_matcher *);
int hw_dr_rule_create(struct mlx5dv_dr_matcher *,
                      struct mlx5dv_flow_match_parameters *value,
                      size_t n_actions, struct mlx5dv_dr_action *[],
                      struct mlx5dv_dr_rule **);
int hw_dr_rule_destroy(struct mlx5dv_dr_rule *);
int hw_dr_action_create(struct mlx5dv_dr_domain *,
                        const struct hw_dr_action_attr *,
                        struct mlx5dv_dr_action **);
int hw_dr_action_destroy(struct mlx5dv_dr_action *);
int hw_dr_action_modify_meter(struct mlx5dv_dr_action *,
                              const struct hw_dr_action_attr *,
                              uint64_t modify_field_select);
int hw_dr_counter_create(struct ibv_context *, struct mlx5dv_devx_obj **);
int hw_dr_counter_query(struct mlx5dv_devx_obj *, uint64_t *packets,
                        uint64_t *bytes);
int hw_dr_counter_destroy(struct mlx5dv_devx_obj *);
int hw_dr_geneve_opt_create(struct ibv_context *, ovs_be16 opt_class,
                            uint8_t type, uint8_t len,
                            struct mlx5dv_devx_obj **);
int hw_dr_geneve_opt_destroy(struct mlx5dv_devx_obj *);

#endif /* HAVE_HW_RDMA */

#endif /* hw-dr.h */
