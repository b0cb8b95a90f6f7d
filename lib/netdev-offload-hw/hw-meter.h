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

#ifndef HW_METER_H
#define HW_METER_H 1

/* OVS meters as device flow meters: pure code, no device.
 *
 * A device flow meter (mlx5dv_dr_action_create_flow_meter(), hw-dev.h
 * HW_DR_ACTION_FLOW_METER) takes its rate and burst as PRM
 * flow_meter_parameters (32 bytes, big-endian bit fields, the layout of
 * mlx5_ifc's struct mlx5_ifc_flow_meter_parameters_bits as DPDK's mlx5 PMD
 * fills it):
 *
 *   bit 0 valid, 1 bucket_overflow, 2-3 start_color, 4
 *   both_buckets_on_green, 6-7 meter_mode;
 *   byte 8 cbs_exponent (5 bits), 9 cbs_mantissa, 10 cir_exponent (5 bits),
 *   11 cir_mantissa; byte 16 ebs_exponent, 17 ebs_mantissa, 18
 *   eir_exponent, 19 eir_mantissa.
 *
 *   cir = 10^9 * cir_mantissa / 2^cir_exponent bytes per second;
 *   cbs = cbs_mantissa * 2^cbs_exponent bytes.
 *
 * An OVS meter of one drop band in kbps (rate R kbit/s, burst B kbit; OVS
 * takes B = R when none is given) becomes cir = R * 125 bytes/s rounded to
 * the nearest value the device has, and cbs = B * 125 bytes rounded up. */

#include <stdbool.h>
#include <stdint.h>

struct ds;
struct ofputil_meter_config;

#define HW_METER_PARAMS_SIZE 32

struct hw_meter_prm {
    bool valid;
    uint8_t cbs_exponent, cbs_mantissa;
    uint8_t cir_exponent, cir_mantissa;
    uint8_t ebs_exponent, ebs_mantissa;
};

void hw_meter_prm_encode(const struct hw_meter_prm *,
                         uint8_t buf[HW_METER_PARAMS_SIZE]);
void hw_meter_prm_decode(const uint8_t buf[HW_METER_PARAMS_SIZE],
                         struct hw_meter_prm *);

/* The committed rate in bytes per second (rounded down) and burst in
 * bytes. */
uint64_t hw_meter_prm_cir(const struct hw_meter_prm *);
uint64_t hw_meter_prm_cbs(const struct hw_meter_prm *);

/* The mantissa and exponent whose rate is nearest to 'bytes_per_sec'
 * (the smaller exponent on a tie), and those of the smallest burst of at
 * least 'bytes' (false if there is none: more than 255 * 2^31 bytes). */
void hw_meter_cir_calc(uint64_t bytes_per_sec, uint8_t *mantissa,
                       uint8_t *exponent);
bool hw_meter_cbs_calc(uint64_t bytes, uint8_t *mantissa, uint8_t *exponent);

/* Fills 'prm' for the OVS meter 'config'.  Returns 0, or EOPNOTSUPP with
 * the reason in 'reason' ("rate in packets per second: the device's flow
 * meters count bytes", "2 bands: a device flow meter has one", ...). */
int hw_meter_from_config(const struct ofputil_meter_config *,
                         struct hw_meter_prm *, struct ds *reason);

#endif /* hw-meter.h */
