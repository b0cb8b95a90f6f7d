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

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

#define CHECK_STR(GOT, WANT)                                            \
    do {                                                                \
        const char *got__ = (GOT);                                      \
        const char *want__ = (WANT);                                    \
        if (!got__ || strcmp(got__, want__)) {                          \
            ovs_abort(0, "%s:%d: %s is \"%s\", expected \"%s\"",        \
                      __FILE__, __LINE__, #GOT,                         \
                      got__ ? got__ : "(null)", want__);                \
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

/* A unit test, by name. */
struct test_hw_case {
    const char *name;
    void (*function)(void);
};

/* Runs the tests of 'tests' that argv[1] onward name, all of them if there
 * is no argument, and prints "NAME: ok" after each if 'verbose'.  It is an
 * error if no test matches. */
static inline void
test_hw_run(int argc, char *argv[], const struct test_hw_case tests[],
            size_t n_tests, bool verbose)
{
    size_t n_run = 0;

    for (size_t i = 0; i < n_tests; i++) {
        bool selected = argc <= 1;

        for (int j = 1; j < argc && !selected; j++) {
            selected = !strcmp(argv[j], tests[i].name);
        }
        if (selected) {
            tests[i].function();
            if (verbose) {
                printf("%s: ok\n", tests[i].name);
            }
            n_run++;
        }
    }
    if (!n_run) {
        ovs_fatal(0, "no test matches");
    }
}

#endif /* test-hw-check.h */
