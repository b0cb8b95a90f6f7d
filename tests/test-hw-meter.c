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

/* Unit tests of hw-meter.c: OVS meters as device flow meter parameters. */

#include <config.h>
#include "hw-meter.h"

#include <errno.h>
#include <string.h>
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofp-meter.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "util.h"

/* The PRM bytes, and the rounding of rate and burst. */
static void
test_prm(void)
{
    struct hw_meter_prm prm = {
        .valid = true, .cbs_exponent = 6, .cbs_mantissa = 157,
        .cir_exponent = 17, .cir_mantissa = 131,
    }, back;
    uint8_t buf[HW_METER_PARAMS_SIZE];
    uint8_t m, e;

    hw_meter_prm_encode(&prm, buf);
    CHECK_EQ(buf[0], 0xe0);     /* valid, bucket_overflow, green start. */
    CHECK_EQ(buf[8], 6);
    CHECK_EQ(buf[9], 157);
    CHECK_EQ(buf[10], 17);
    CHECK_EQ(buf[11], 131);
    CHECK_EQ(buf[16], 0);
    CHECK_EQ(buf[17], 0);
    hw_meter_prm_decode(buf, &back);
    CHECK(!memcmp(&prm, &back, sizeof prm));
    CHECK_EQ(hw_meter_prm_cbs(&prm), 157 * 64);
    CHECK_EQ(hw_meter_prm_cir(&prm), 999450);   /* 10^9 * 131 / 2^17. */

    /* 1,000,000 bytes/s is nearest 10^9 * 131 / 2^17. */
    hw_meter_cir_calc(1000000, &m, &e);
    CHECK_EQ(m, 131);
    CHECK_EQ(e, 17);
    /* Exact where it can be: 10^9 * 125 / 2^3. */
    hw_meter_cir_calc(15625000000ULL, &m, &e);
    CHECK_EQ((1000000000ULL * m) >> e, 15625000000ULL);

    /* Bursts round up: 10,000 bytes -> 157 * 2^6 = 10,048. */
    CHECK(hw_meter_cbs_calc(10000, &m, &e));
    CHECK_EQ(m, 157);
    CHECK_EQ(e, 6);
    CHECK(hw_meter_cbs_calc(255, &m, &e));
    CHECK_EQ(m, 255);
    CHECK_EQ(e, 0);
    CHECK(hw_meter_cbs_calc(256, &m, &e));
    CHECK_EQ(m, 128);
    CHECK_EQ(e, 1);
    CHECK(!hw_meter_cbs_calc(255ULL << 31 | 1, &m, &e));
}

static int
from_config(uint16_t flags, uint16_t n_bands, uint16_t type, uint32_t rate,
            uint32_t burst, struct hw_meter_prm *prm, const char *reason)
{
    struct ofputil_meter_band bands[2] = {
        { .type = type, .rate = rate, .burst_size = burst },
        { .type = type, .rate = rate, .burst_size = burst },
    };
    struct ofputil_meter_config config = {
        .meter_id = 1, .flags = flags, .n_bands = n_bands, .bands = bands,
    };
    struct ds s = DS_EMPTY_INITIALIZER;
    int error = hw_meter_from_config(&config, prm, &s);

    CHECK_STR(ds_cstr(&s), reason);
    ds_destroy(&s);
    return error;
}

/* OVS meter configurations: the ones a device meter can be, and the
 * reasons for the others. */
static void
test_from_config(void)
{
    struct hw_meter_prm prm;

    /* 8000 kbps = 10^6 B/s, burst 80 kbit = 10,000 bytes. */
    CHECK_ERR(from_config(OFPMF13_KBPS | OFPMF13_BURST, 1, OFPMBT13_DROP,
                          8000, 80, &prm, ""), 0);
    CHECK(prm.valid);
    CHECK_EQ(hw_meter_prm_cir(&prm), 999450);
    CHECK_EQ(hw_meter_prm_cbs(&prm), 10048);
    /* No burst: OVS takes the rate (1 s worth). */
    CHECK_ERR(from_config(OFPMF13_KBPS, 1, OFPMBT13_DROP, 8000, 0, &prm, ""),
              0);
    CHECK_EQ(hw_meter_prm_cbs(&prm), 245 * 4096);

    CHECK_ERR(from_config(OFPMF13_PKTPS, 1, OFPMBT13_DROP, 10, 0, &prm,
                          "rate in packets per second: the device's flow "
                          "meters count bytes"), EOPNOTSUPP);
    CHECK_ERR(from_config(OFPMF13_KBPS, 2, OFPMBT13_DROP, 10, 0, &prm,
                          "2 bands: a device flow meter has one"),
              EOPNOTSUPP);
    CHECK_ERR(from_config(OFPMF13_KBPS, 0, OFPMBT13_DROP, 10, 0, &prm,
                          "0 bands: a device flow meter has one"),
              EOPNOTSUPP);
    CHECK_ERR(from_config(OFPMF13_KBPS, 1, OFPMBT13_DSCP_REMARK, 10, 0, &prm,
                          "band type not drop"), EOPNOTSUPP);
    CHECK_ERR(from_config(OFPMF13_KBPS, 1, OFPMBT13_DROP, 0, 0, &prm,
                          "rate 0"), EOPNOTSUPP);
    CHECK_ERR(from_config(OFPMF13_KBPS, 1, OFPMBT13_DROP, UINT32_MAX, 1,
                          &prm, "rate 4294967295 kbps above the device's "
                          "most"), EOPNOTSUPP);
}

static void
test_hw_meter_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "prm", test_prm },
        { "from-config", test_from_config },
    };

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-meter", test_hw_meter_main);
