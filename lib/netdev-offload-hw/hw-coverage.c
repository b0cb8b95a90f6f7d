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
#include "hw-coverage.h"

#include <limits.h>

#include "ovs-thread.h"
#include "openvswitch/poll-loop.h"
#include "seq.h"
#include "timeval.h"

/* Every HW_COVERAGE_DEFINE()d counter, registered by constructors. */
static struct hw_coverage *counters;

/* Changed when a counter's pending count leaves 0, to wake the main thread
 * up. */
static struct seq *pending_seq;
static uint64_t pending_seqno;

/* When the main thread's coverage_clear() will have taken what the last
 * hw_coverage_run() moved into its counts: it takes them at most a second
 * after the previous time it did, so the main thread wakes up then. */
static long long int flush_at = LLONG_MAX;

void
hw_coverage_register(struct hw_coverage *c)
{
    c->next = counters;
    counters = c;
}

static struct seq *
hw_coverage_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        pending_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return pending_seq;
}

void
hw_coverage_wake(void)
{
    seq_change(hw_coverage_seq());
}

/* Moves the pending counts into the calling (main) thread's counts. */
void
hw_coverage_run(void)
{
    bool moved = false;

    pending_seqno = seq_read(hw_coverage_seq());
    for (struct hw_coverage *c = counters; c; c = c->next) {
        unsigned int n, orig;

        atomic_read_relaxed(&c->pending, &n);
        if (n) {
            atomic_sub_relaxed(&c->pending, n, &orig);
            c->add(n);
            moved = true;
        }
    }
    if (moved) {
        flush_at = time_msec() + COVERAGE_CLEAR_INTERVAL;
    } else if (time_msec() >= flush_at) {
        flush_at = LLONG_MAX;
    }
}

void
hw_coverage_wait(void)
{
    seq_wait(hw_coverage_seq(), pending_seqno);
    if (flush_at != LLONG_MAX) {
        poll_timer_wait_until(flush_at);
    }
}
