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

/* The model's flow meters: mlx5dv_dr_action_create_flow_meter() and
 * mlx5dv_dr_action_modify_flow_meter(), and the token bucket a packet goes
 * through (hw-dev.h HW_DR_ACTION_FLOW_METER).
 *
 * What the model checks, each with the errno it gives:
 *   - next_table unknown (EINVAL), a root table (EOPNOTSUPP, libmlx5's
 *     "Next table cannot be root"), of another domain type (EINVAL);
 *   - reg_c_index above 7 (EINVAL: the object's return_reg_id);
 *   - parameters not 32 bytes or not valid (EINVAL), a zero committed rate
 *     (EINVAL), an excess bucket (EOPNOTSUPP: single rate, committed
 *     bucket only);
 *   - more meter objects than caps.dr_max_meters (ENOSPC);
 *   - modify of an action that is not a meter, or unknown
 *     modify_field_select bits (EINVAL).
 *
 * The bucket starts full.  It is refilled at each packet by the time since
 * the last refill, read from the model clock (time_usec(), which OVS's
 * time/stop and time/warp make deterministic), in units of 1/2^cir_exponent
 * bytes so that 10^9 * cir_mantissa / 2^cir_exponent bytes per second is
 * exact: 1000 * cir_mantissa units per microsecond.  A packet of N bytes is
 * green if the bucket holds N bytes, which it then loses, red otherwise.  A
 * modify keeps the tokens, down to the new burst.  An inactive meter
 * colors every packet green. */

#include <config.h>
#include "hw-model-dr.h"

#include <errno.h>
#include <string.h>

#include "hw-model-dr-private.h"
#include "timeval.h"
#include "util.h"

static long long int (*dr_meter_clock)(void) = time_usec;

void
hw_model_dr_meter_set_clock(long long int (*clock)(void))
{
    dr_meter_clock = clock ? clock : time_usec;
}

static uint64_t
dr_meter_shift(uint64_t x, unsigned int shift)
{
    return x > (UINT64_MAX >> shift) ? UINT64_MAX : x << shift;
}

/* Checks the parameters 'attr' and stores them into 'm'. */
static int
dr_meter_params(struct hw_model_dr *dr, const char *op,
                const struct hw_dr_action_attr *attr, struct dr_meter *m)
{
    struct hw_meter_prm prm;

    if (attr->meter.size != HW_METER_PARAMS_SIZE || !attr->meter.params) {
        return dr_reject(dr, EINVAL, "%s: meter parameters of %"PRIuSIZE
                         " bytes", op, attr->meter.size);
    }
    hw_meter_prm_decode(attr->meter.params, &prm);
    if (!prm.valid) {
        return dr_reject(dr, EINVAL, "%s: meter parameters not valid", op);
    }
    if (!prm.cir_mantissa) {
        return dr_reject(dr, EINVAL, "%s: committed rate 0", op);
    }
    if (prm.ebs_mantissa) {
        return dr_reject(dr, EOPNOTSUPP, "%s: excess burst (single rate "
                         "meters only)", op);
    }
    m->prm = prm;
    m->cap = dr_meter_shift(hw_meter_prm_cbs(&prm), prm.cir_exponent);
    return 0;
}

int
dr_meter_init(struct hw_model_dr *dr, struct dr_domain *domain,
              const struct hw_dr_action_attr *attr, struct dr_action *a)
{
    struct dr_meter *m = &a->meter;
    int error;

    m->next_table = dr_find(dr, attr->meter.next_table, DR_TABLE);
    if (!m->next_table) {
        return dr_reject(dr, EINVAL, "dr_action_create: meter to an unknown "
                         "table");
    }
    if (!m->next_table->level) {
        return dr_reject(dr, EOPNOTSUPP, "dr_action_create: meter to a root "
                         "table");
    }
    if (m->next_table->domain->type != domain->type) {
        return dr_reject(dr, EINVAL, "dr_action_create: meter to a %s "
                         "table from a %s domain",
                         dr_domain_names[m->next_table->domain->type],
                         dr_domain_names[domain->type]);
    }
    if (attr->meter.reg_c_index >= DR_N_REG_C) {
        return dr_reject(dr, EINVAL, "dr_action_create: meter color to "
                         "reg_c_%u", attr->meter.reg_c_index);
    }
    error = dr_meter_params(dr, "dr_action_create", attr, m);
    if (error) {
        return error;
    }
    if (dr->n_meters >= dr->caps.dr_max_meters) {
        return dr_reject(dr, ENOSPC, "dr_action_create: %"PRIu32" flow "
                         "meters, the most the device has",
                         dr->caps.dr_max_meters);
    }
    m->active = attr->meter.active;
    m->reg_c_index = attr->meter.reg_c_index;
    m->tokens = m->cap;
    m->last = dr_meter_clock();
    return 0;
}

int
dr_meter_color(struct dr_action *a, size_t size)
{
    struct dr_meter *m = &a->meter;
    long long int now = dr_meter_clock();
    uint64_t cost;

    if (now > m->last) {
        uint64_t per_usec = 1000ULL * m->prm.cir_mantissa;
        uint64_t elapsed = now - m->last;
        uint64_t room = m->cap - m->tokens;

        m->tokens = (elapsed > room / per_usec ? m->cap
                     : m->tokens + elapsed * per_usec);
    }
    m->last = MAX(m->last, now);
    if (!m->active) {
        return HW_METER_COLOR_GREEN;
    }
    cost = dr_meter_shift(size, m->prm.cir_exponent);
    if (m->tokens >= cost) {
        m->tokens -= cost;
        return HW_METER_COLOR_GREEN;
    }
    return HW_METER_COLOR_RED;
}

int
hw_model_dr_action_modify_meter(struct mlx5dv_dr_action *action_,
                                const struct hw_dr_action_attr *attr,
                                uint64_t select)
{
    const uint64_t known = (HW_METER_MODIFY_ACTIVE | HW_METER_MODIFY_CBS
                            | HW_METER_MODIFY_CIR | HW_METER_MODIFY_EBS
                            | HW_METER_MODIFY_EIR);
    struct hw_model_dr *dr;
    struct dr_action *a;
    struct dr_meter m;
    int error;

    a = dr_enter(action_, HW_MODEL_DR_ACTION_MODIFY_METER, DR_ACTION, &dr,
                 &error);
    if (!a) {
        goto out;
    }
    if (a->type != HW_DR_ACTION_FLOW_METER) {
        error = dr_reject(dr, EINVAL, "dr_action_modify_meter: a %s action",
                          dr_action_name(a->type));
        goto out;
    }
    if (select & ~known) {
        error = dr_reject(dr, EINVAL, "dr_action_modify_meter: "
                          "modify_field_select %#"PRIx64, select);
        goto out;
    }
    m = a->meter;
    if (select & (HW_METER_MODIFY_CBS | HW_METER_MODIFY_CIR
                  | HW_METER_MODIFY_EBS | HW_METER_MODIFY_EIR)) {
        struct dr_meter new = m;
        uint64_t bytes;

        error = dr_meter_params(dr, "dr_action_modify_meter", attr, &new);
        if (error) {
            goto out;
        }
        /* The tokens, in bytes, stay (down to the new burst). */
        bytes = m.tokens >> m.prm.cir_exponent;
        if (!(select & HW_METER_MODIFY_CIR)) {
            new.prm.cir_exponent = m.prm.cir_exponent;
            new.prm.cir_mantissa = m.prm.cir_mantissa;
        }
        if (!(select & HW_METER_MODIFY_CBS)) {
            new.prm.cbs_exponent = m.prm.cbs_exponent;
            new.prm.cbs_mantissa = m.prm.cbs_mantissa;
        }
        new.cap = dr_meter_shift(hw_meter_prm_cbs(&new.prm),
                                 new.prm.cir_exponent);
        new.tokens = MIN(dr_meter_shift(bytes, new.prm.cir_exponent),
                         new.cap);
        m = new;
    }
    if (select & HW_METER_MODIFY_ACTIVE) {
        m.active = attr->meter.active;
    }
    a->meter = m;
out:
    dr_leave(dr);
    return error;
}
