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

#include <config.h>
#include "hw-meter.h"

#include <errno.h>
#include <string.h>

#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofp-meter.h"
#include "util.h"

#define HW_METER_MAX_EXP 31         /* 5 bits. */
#define HW_METER_MAX_MAN 255        /* 8 bits. */
#define HW_METER_CIR_UNIT 1000000000ULL

void
hw_meter_prm_encode(const struct hw_meter_prm *prm,
                    uint8_t buf[HW_METER_PARAMS_SIZE])
{
    memset(buf, 0, HW_METER_PARAMS_SIZE);
    /* valid, bucket_overflow, start_color green. */
    buf[0] = (prm->valid ? 0x80 : 0) | 0x40 | (2 << 4);
    buf[8] = prm->cbs_exponent & 0x1f;
    buf[9] = prm->cbs_mantissa;
    buf[10] = prm->cir_exponent & 0x1f;
    buf[11] = prm->cir_mantissa;
    buf[16] = prm->ebs_exponent & 0x1f;
    buf[17] = prm->ebs_mantissa;
}

void
hw_meter_prm_decode(const uint8_t buf[HW_METER_PARAMS_SIZE],
                    struct hw_meter_prm *prm)
{
    prm->valid = buf[0] & 0x80;
    prm->cbs_exponent = buf[8] & 0x1f;
    prm->cbs_mantissa = buf[9];
    prm->cir_exponent = buf[10] & 0x1f;
    prm->cir_mantissa = buf[11];
    prm->ebs_exponent = buf[16] & 0x1f;
    prm->ebs_mantissa = buf[17];
}

uint64_t
hw_meter_prm_cir(const struct hw_meter_prm *prm)
{
    return (HW_METER_CIR_UNIT * prm->cir_mantissa) >> prm->cir_exponent;
}

uint64_t
hw_meter_prm_cbs(const struct hw_meter_prm *prm)
{
    return (uint64_t) prm->cbs_mantissa << prm->cbs_exponent;
}

void
hw_meter_cir_calc(uint64_t bytes_per_sec, uint8_t *mantissa,
                  uint8_t *exponent)
{
    uint64_t best = UINT64_MAX;

    *mantissa = *exponent = 0;
    for (unsigned int e = 0; e <= HW_METER_MAX_EXP; e++) {
        for (unsigned int m = 0; m <= HW_METER_MAX_MAN; m++) {
            uint64_t cir = (HW_METER_CIR_UNIT * m) >> e;
            uint64_t delta = (cir > bytes_per_sec ? cir - bytes_per_sec
                              : bytes_per_sec - cir);

            if (delta < best) {
                best = delta;
                *mantissa = m;
                *exponent = e;
            }
        }
    }
}

bool
hw_meter_cbs_calc(uint64_t bytes, uint8_t *mantissa, uint8_t *exponent)
{
    for (unsigned int e = 0; e <= HW_METER_MAX_EXP; e++) {
        uint64_t m = DIV_ROUND_UP(bytes, 1ULL << e);

        if (m <= HW_METER_MAX_MAN) {
            *mantissa = m;
            *exponent = e;
            return true;
        }
    }
    return false;
}

int
hw_meter_from_config(const struct ofputil_meter_config *config,
                     struct hw_meter_prm *prm, struct ds *reason)
{
    const struct ofputil_meter_band *band;
    uint64_t burst;

    memset(prm, 0, sizeof *prm);
    if (config->flags & OFPMF13_PKTPS) {
        ds_put_cstr(reason, "rate in packets per second: the device's flow "
                    "meters count bytes");
        return EOPNOTSUPP;
    }
    if (config->n_bands != 1) {
        ds_put_format(reason, "%"PRIu16" bands: a device flow meter has one",
                      config->n_bands);
        return EOPNOTSUPP;
    }
    band = &config->bands[0];
    if (band->type != OFPMBT13_DROP) {
        ds_put_cstr(reason, "band type not drop");
        return EOPNOTSUPP;
    }
    if (!band->rate) {
        ds_put_cstr(reason, "rate 0");
        return EOPNOTSUPP;
    }
    burst = band->burst_size ? band->burst_size : band->rate;
    if (band->rate * 125ULL > HW_METER_CIR_UNIT * HW_METER_MAX_MAN) {
        ds_put_format(reason, "rate %"PRIu32" kbps above the device's "
                      "most", band->rate);
        return EOPNOTSUPP;
    }
    hw_meter_cir_calc(band->rate * 125ULL, &prm->cir_mantissa,
                      &prm->cir_exponent);
    if (!prm->cir_mantissa) {
        ds_put_format(reason, "rate %"PRIu32" kbps below the device's "
                      "least", band->rate);
        return EOPNOTSUPP;
    }
    if (!hw_meter_cbs_calc(burst * 125ULL, &prm->cbs_mantissa,
                           &prm->cbs_exponent)) {
        ds_put_format(reason, "burst %"PRIu64" kbit above the device's "
                      "most", burst);
        return EOPNOTSUPP;
    }
    prm->valid = true;
    return 0;
}
