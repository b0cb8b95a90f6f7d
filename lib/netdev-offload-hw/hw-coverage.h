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

#ifndef HW_COVERAGE_H
#define HW_COVERAGE_H 1

/* Coverage counters for dpif-netdev's offload threads.
 *
 * COVERAGE_INC() counts in the calling thread, and coverage/show sees the
 * count once that thread has called coverage_clear() or
 * coverage_try_clear() a second after its previous one.  Offload threads
 * sleep without calling either, so the counts of the last flows they put
 * before going idle would never show.  HW_COVERAGE_INC() counts in an
 * atomic instead, and the main thread moves it into the counter
 * (hw_coverage_run(), from the hw netdev class's run()). */

#include "coverage.h"
#include "ovs-atomic.h"
#include "util.h"

struct hw_coverage {
    atomic_uint pending;            /* Not yet in the coverage counter. */
    void (*add)(unsigned int n);    /* The counter's COUNTER_add(). */
    struct hw_coverage *next;
};

void hw_coverage_register(struct hw_coverage *);
void hw_coverage_wake(void);

#define HW_COVERAGE_DEFINE(COUNTER)                                     \
        COVERAGE_DEFINE(COUNTER);                                       \
        static struct hw_coverage hw_coverage_##COUNTER                 \
            = { ATOMIC_VAR_INIT(0), COUNTER##_add, NULL };              \
        OVS_CONSTRUCTOR(hw_coverage_init_##COUNTER) {                   \
            hw_coverage_register(&hw_coverage_##COUNTER);               \
        }

#define HW_COVERAGE_INC(COUNTER) hw_coverage_inc(&hw_coverage_##COUNTER)

static inline void
hw_coverage_inc(struct hw_coverage *c)
{
    unsigned int orig;

    atomic_add_relaxed(&c->pending, 1, &orig);
    if (!orig) {
        hw_coverage_wake();
    }
}

void hw_coverage_run(void);
void hw_coverage_wait(void);

#endif /* hw-coverage.h */
