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
#include <stdlib.h>
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

/* The unit-test programs' convention.
 *
 * Each unit-test program (an ovstest command, tests/test-hw-*.c) is a list
 * of sub-tests that its main function passes to test_hw_run(), after any
 * setup common to all of them and before any check common to all:
 *
 *   - "ovstest PROG" runs every sub-test, "ovstest PROG NAME..." the ones
 *     named, in the list's order, and each prints "NAME: ok" when it passes.
 *     A failed check aborts the process with its file and line.
 *
 *   - "ovstest PROG --list" prints the sub-tests' names, one per line, and
 *     runs nothing.
 *
 *   - A sub-test passes alone, in a process of its own (as hw-unit.at runs
 *     it), as well as after others in the same process: it needs nothing
 *     that another sub-test left behind (a model device in some state, a
 *     fixture set up on the way, a library initialized on the way).
 *
 *   - A sub-test this build leaves out (e.g. one that needs the rdma-core
 *     backend) stays in the list with a null 'function': it prints
 *     "NAME: skipped", and a run in which every sub-test selected is
 *     skipped exits with status 77, which autotest reports as a skip.
 *
 * tests/hw-unit.at runs each sub-test in an autotest of its own, and checks
 * that "--list" prints exactly its own list of them, so that a sub-test
 * added without its autotest fails.  A program may keep modes of its own
 * (e.g. "test-hw-hbl resolve DIR"), recognized before test_hw_run(). */

/* A sub-test, by name. */
struct test_hw_case {
    const char *name;
    void (*function)(void);     /* Null if left out of this build. */
};

/* Runs the sub-tests of 'tests' that argv[1] onward name, or all of them if
 * there is no argument, following the convention above.  An argument that
 * names no sub-test is an error. */
static inline void
test_hw_run(int argc, char *argv[], const struct test_hw_case tests[],
            size_t n_tests)
{
    size_t n_run = 0;
    size_t n_skipped = 0;

    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < n_tests; i++) {
            printf("%s\n", tests[i].name);
        }
        return;
    }
    for (int j = 1; j < argc; j++) {
        size_t i;

        for (i = 0; i < n_tests; i++) {
            if (!strcmp(argv[j], tests[i].name)) {
                break;
            }
        }
        if (i == n_tests) {
            ovs_fatal(0, "%s: no such test (--list lists them)", argv[j]);
        }
    }

    for (size_t i = 0; i < n_tests; i++) {
        bool selected = argc <= 1;

        for (int j = 1; j < argc && !selected; j++) {
            selected = !strcmp(argv[j], tests[i].name);
        }
        if (!selected) {
            continue;
        }
        n_run++;
        if (tests[i].function) {
            tests[i].function();
            printf("%s: ok\n", tests[i].name);
        } else {
            printf("%s: skipped\n", tests[i].name);
            n_skipped++;
        }
        fflush(stdout);
    }
    if (n_run && n_skipped == n_run) {
        exit(77);
    }
}

#endif /* test-hw-check.h */
