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

#ifndef TEST_HW_RECORDER_H
#define TEST_HW_RECORDER_H 1

#include <stdbool.h>
#include <stddef.h>

#include "hw-dev.h"
#include "openvswitch/dynamic-string.h"

/* A recorder of device calls, for the encoding-equality tests of
 * test-hw-backend.c.
 *
 * A recorder is a copy of a backend's ops table whose steering-rule,
 * counter and reformat entries first write what they are given to a log,
 * then forward to the backend.  Handles of objects the device created
 * (counters, flows, actions) are written as ordinals ("c1"), both in the
 * log and inside the rule bytes (the ACTION_COUNT and ACTION_HANDLE
 * pointers), so that two backends' logs compare byte for byte.
 *
 * The device's answers are not logged: they are not what the plugin hands
 * over, and only the model gives real ones.  The model's recorder forwards
 * every call, so the model also checks that every rule is one the
 * hardware accepts (an install that fails stops the test).  The rdma-core
 * recorder cannot forward (there is no NIC here, and
 * hw_rdma_ops.create_flow() passes the buffer unchanged to
 * ibv_create_flow()); it answers with objects of its own.  It is built from
 * the real hw_rdma_ops table, so code that looked at the table (its name,
 * its functions) would see the rdma backend.  Without rdma-core the second
 * table is a copy of the model's under another name that does not
 * forward.
 *
 * The pipeline of tables (the dr_* entries) is recorded the same way, its
 * objects' handles as "d1" (domain), "t1" (table), "m1" (matcher), "r1"
 * (rule), "da1" (action) and "o1" (DevX counter); masks, values and
 * modify-header commands as bytes and in readable form. */

enum handle_kind {
    H_COUNTERS, H_FLOW, H_ACTION,
    /* The pipeline of tables. */
    H_DOMAIN, H_TABLE, H_MATCHER, H_RULE, H_DR_ACTION, H_DEVX,
    N_HANDLE_KINDS
};

struct hw_dr_match;

struct handle {
    const void *ptr;
    enum handle_kind kind;
    int ordinal;
    struct hw_dr_match *mask;   /* A matcher's mask, to show its rules. */
};

struct recorder {
    const char *name;
    const struct hw_dev_ops *base;
    bool forward;
    bool dr_forward;            /* 'forward' and the backend has dr ops. */
    struct hw_dev_ops ops;
    struct ibv_qp *dest;        /* The only destination QP expected. */
    struct ds log;
    struct handle handles[32];  /* Live objects. */
    size_t n_handles;
    int next_ordinal[N_HANDLE_KINDS];
    size_t n_fakes;             /* Objects made up and not yet freed. */
};

/* Makes 'r' a recorder over 'base' named 'name' that forwards each call to
 * 'base' if 'forward' (the dr calls only if 'base' has them). */
void recorder_init(struct recorder *r, const char *name,
                   const struct hw_dev_ops *base, bool forward);

/* Makes the entries of 'r.ops' record into 'r', until recorder_stop(). */
void recorder_start(struct recorder *r);
void recorder_stop(void);

/* Aborts, showing where, if the logs of 'a' and 'b' differ. */
void recorder_check_equal(const struct recorder *a, const struct recorder *b);

#endif /* test-hw-recorder.h */
