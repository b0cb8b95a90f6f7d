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

#ifndef TEST_HW_CHECK_H
#define TEST_HW_CHECK_H 1

/* Checks shared by the plugin's unit tests: a failure prints where and
 * what, and aborts. */

#include "util.h"

#define CHECK(COND)                                                     \
    do {                                                                \
        if (!(COND)) {                                                  \
            ovs_abort(0, "%s:%d: check failed: %s", __FILE__, __LINE__, \
                      #COND);                                           \
        }                                                               \
    } while (0)

#define CHECK_EQ(GOT, WANT)                                             \
    do {                                                                \
        long long int got__ = (GOT);                                    \
        long long int want__ = (WANT);                                  \
        if (got__ != want__) {                                          \
            ovs_abort(0, "%s:%d: %s is %lld (%#llx), expected %lld "    \
                      "(%#llx)", __FILE__, __LINE__, #GOT, got__,       \
                      (unsigned long long) got__, want__,               \
                      (unsigned long long) want__);                     \
        }                                                               \
    } while (0)

/* Checks that an op returns errno 'WANT' (0 for success). */
#define CHECK_ERR(EXPR, WANT)                                           \
    do {                                                                \
        int err__ = (EXPR);                                             \
        int want__ = (WANT);                                            \
        if (err__ != want__) {                                          \
            ovs_abort(0, "%s:%d: %s returned %d (%s), expected %d (%s)", \
                      __FILE__, __LINE__, #EXPR, err__,                 \
                      ovs_strerror(err__), want__,                      \
                      ovs_strerror(want__));                            \
        }                                                               \
    } while (0)

#endif /* test-hw-check.h */
