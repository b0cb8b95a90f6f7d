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

/* The model device's table of operations (hw-dev.h): one entry per op,
 * from the files that implement them (hw-model-private.h lists them).  It
 * sits on top of them and defines the log module they all use. */

#include <config.h>
#include "hw-model.h"

#include "hw-dev.h"
#include "hw-model-dr.h"
#include "hw-model-fwdump.h"
#include "hw-model-hbl.h"
#include "hw-model-private.h"
#include "openvswitch/vlog.h"

VLOG_DEFINE_THIS_MODULE(hw_model);

const struct hw_dev_ops hw_model_ops = {
    .name = "model",
    .fwdump_reg_addresses = true,
    .handles = model_op_handles,
    .identify = model_identify,
    .open = model_open,
    .close = model_close,
    .query_caps = model_query_caps,
    .get_async_event = model_get_async_event,
    .alloc_pd = model_alloc_pd,
    .dealloc_pd = model_dealloc_pd,
    .create_cq = model_create_cq,
    .destroy_cq = model_destroy_cq,
    .create_wq = model_create_wq,
    .modify_wq = model_modify_wq,
    .destroy_wq = model_destroy_wq,
    .create_rwq_ind_table = model_create_rwq_ind_table,
    .destroy_rwq_ind_table = model_destroy_rwq_ind_table,
    .create_qp = model_create_qp,
    .destroy_qp = model_destroy_qp,
    .create_flow = model_create_flow,
    .destroy_flow = model_destroy_flow,
    .create_counters = model_create_counters,
    .attach_counters = model_attach_counters,
    .read_counters = model_read_counters,
    .destroy_counters = model_destroy_counters,
    .create_reformat = model_create_reformat,
    .destroy_action = model_destroy_action,
    .rx_burst = model_rx_burst,
    .tx_burst = model_tx_burst,
    .fwdump_force = hw_model_fwdump_force,
    .fwdump_get = hw_model_fwdump_get,
    .fwdump_reset = hw_model_fwdump_reset,
    .create_encap = hw_model_hbl_create_encap,
    .destroy_encap = hw_model_hbl_destroy_encap,
    .hbl_modify_qp = hw_model_hbl_modify_qp,
    .hbl_query_port = hw_model_hbl_query_port,
    .dr_domain_create = hw_model_dr_domain_create,
    .dr_domain_sync = hw_model_dr_domain_sync,
    .dr_domain_destroy = hw_model_dr_domain_destroy,
    .dr_table_create = hw_model_dr_table_create,
    .dr_table_destroy = hw_model_dr_table_destroy,
    .dr_matcher_create = hw_model_dr_matcher_create,
    .dr_matcher_destroy = hw_model_dr_matcher_destroy,
    .dr_rule_create = hw_model_dr_rule_create,
    .dr_rule_destroy = hw_model_dr_rule_destroy,
    .dr_action_create = hw_model_dr_action_create,
    .dr_action_destroy = hw_model_dr_action_destroy,
    .dr_action_modify_meter = hw_model_dr_action_modify_meter,
    .dr_counter_create = hw_model_dr_counter_create,
    .dr_counter_query = hw_model_dr_counter_query,
    .dr_counter_destroy = hw_model_dr_counter_destroy,
    .dr_geneve_opt_create = hw_model_dr_geneve_opt_create,
    .dr_geneve_opt_destroy = hw_model_dr_geneve_opt_destroy,
    .representor_port = model_representor_port,
    .query_port = model_query_port,
    .bind_qp_port = model_bind_qp_port,
};
