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

/* Stale rules: what a device refused to destroy, kept, its marks held, and
 * destroyed again later (see hw-stale.h). */

#include <config.h>
#include "hw-stale.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "hash.h"
#include "hw-coverage.h"
#include "hw-flow.h"
#include "hw-flow-dr.h"
#include "hw-rule.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/list.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_stale);

HW_COVERAGE_DEFINE(hw_stale_kept);
HW_COVERAGE_DEFINE(hw_stale_retry);
HW_COVERAGE_DEFINE(hw_stale_override);

#define RETRY_MIN_MS 1000
#define RETRY_MAX_MS 64000

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* One rule the device refused to destroy, with what it still holds. */
struct stale_rule {
    struct ovs_list node;       /* In its stale_dev's 'rules'. */
    bool dr;                    /* A rule of the pipeline of tables. */
    struct hw_flow flow;        /* Verbs: rule, reformat, counters. */
    struct hw_flow_dr dr_flow;  /* dr: rule, actions, matcher. */
    struct hw_pipeline *pipeline;   /* dr: the pipeline of 'dr_flow'. */
    uint32_t mark;              /* The tag of its rule, or
                                 * HW_STALE_NO_MARK. */

    /* A full rule runs its actions (a drop, say) on packets whose flow is
     * gone: 'override' sends them to the miss path instead, from ahead of
     * it, while it is in the device. */
    struct hw_rule *override_rule;  /* NULL if it needs none. */
    struct hw_flow override;    /* Installed if hw_flow_has_rule(). */
    unsigned int n_retries;
    const char *step;           /* The call that failed last, and why. */
    int error;
};

/* The stale rules of one device. */
struct stale_dev {
    struct hmap_node node;      /* In 'stale_devs', by devname. */
    char *devname;
    struct netdev_hw_device dev;    /* 'dev.devname' is 'devname'. */
    struct ovs_list rules;      /* Contains stale_rule, newest first, so
                                 * that retries go in reverse order. */
    unsigned int n_retries;     /* Since it had no stale rule. */
    const char *last_step;      /* The last failure, for show. */
    int last_error;
};

/* A release waiting for a mark to be free (hw_stale_hold()). */
struct stale_hold {
    struct ovs_list node;       /* In 'stale_holds' or a released list. */
    uint32_t mark;
    void (*release)(void *aux);
    void *aux;
};

static struct ovs_mutex stale_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap stale_devs OVS_GUARDED_BY(stale_mutex)
    = HMAP_INITIALIZER(&stale_devs);
static struct ovs_list stale_holds OVS_GUARDED_BY(stale_mutex)
    = OVS_LIST_INITIALIZER(&stale_holds);

/* The periodic retry: when, and how long after a retry that left rules. */
static long long int next_retry OVS_GUARDED_BY(stale_mutex);
static int backoff_ms OVS_GUARDED_BY(stale_mutex);

/* Stale rules on every device, so that the callers' fast paths need no
 * lock. */
static atomic_count n_stale = ATOMIC_COUNT_INIT(0);

struct seq *
hw_stale_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static struct seq *seq;

    if (ovsthread_once_start(&once)) {
        seq = seq_create();
        ovsthread_once_done(&once);
    }
    return seq;
}

bool
hw_stale_any(void)
{
    return atomic_count_get(&n_stale) > 0;
}

static struct stale_dev *
stale_dev_find(const char *devname)
    OVS_REQUIRES(stale_mutex)
{
    struct stale_dev *sd;

    HMAP_FOR_EACH_WITH_HASH (sd, node, hash_string(devname, 0),
                             &stale_devs) {
        if (!strcmp(sd->devname, devname)) {
            return sd;
        }
    }
    return NULL;
}

/* What 'r' is, for the log. */
static void
stale_rule_describe(const struct stale_rule *r, struct ds *s)
{
    if (r->mark != HW_STALE_NO_MARK) {
        ds_put_format(s, "rule of mark %"PRIu32, r->mark);
    } else if (r->dr) {
        ds_put_cstr(s, "pipeline rule");
    } else if (hw_flow_has_rule(&r->flow)) {
        ds_put_cstr(s, r->override_rule ? "full rule" : "rule");
    } else if (hw_flow_has_rule(&r->override)) {
        ds_put_cstr(s, "override of a removed rule");
    } else {
        ds_put_cstr(s, "counters or action of a removed rule");
    }
}

/* Logs that 'r' is kept, on 'dev'. */
static void
stale_rule_warn(const struct netdev_hw_device *dev,
                const struct stale_rule *r)
{
    struct ds what = DS_EMPTY_INITIALIZER;

    stale_rule_describe(r, &what);
    VLOG_WARN_RL(&rl, "%s: %s failed: %s: %s kept, its destroy is retried "
                 "later", dev->devname, r->step, ovs_strerror(r->error),
                 ds_cstr(&what));
    ds_destroy(&what);
    HW_COVERAGE_INC(hw_stale_kept);
}

/* Adds 'r' to the stale rules of 'dev'. */
static void
stale_rule_add(const struct netdev_hw_device *dev, struct stale_rule *r)
{
    struct stale_dev *sd;

    ovs_mutex_lock(&stale_mutex);
    sd = stale_dev_find(dev->devname);
    if (!sd) {
        sd = xzalloc(sizeof *sd);
        sd->devname = xstrdup(dev->devname);
        sd->dev = *dev;
        sd->dev.devname = sd->devname;
        ovs_list_init(&sd->rules);
        hmap_insert(&stale_devs, &sd->node, hash_string(sd->devname, 0));
    }
    ovs_list_push_front(&sd->rules, &r->node);
    sd->last_step = r->step;
    sd->last_error = r->error;
    if (!atomic_count_inc(&n_stale)) {
        /* The first one: the periodic retry starts. */
        backoff_ms = RETRY_MIN_MS;
        next_retry = time_msec() + backoff_ms;
    }
    ovs_mutex_unlock(&stale_mutex);
}

/* Installs the override of 'r' if it needs one and its rule is in the
 * device.  Called with or without 'stale_mutex': the override has no
 * counters and no action, so a failed install leaves nothing that would
 * come back here. */
static void
stale_rule_override(const struct netdev_hw_device *dev, struct stale_rule *r)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    int error;

    if (!r->override_rule || !hw_flow_has_rule(&r->flow)
        || hw_flow_has_rule(&r->override)) {
        return;
    }
    error = hw_flow_install(dev, r->flow.dest, r->override_rule,
                            &r->override, &reason);
    if (error) {
        VLOG_WARN_RL(&rl, "%s: cannot override a full rule the device "
                     "could not destroy (%s): the packets it matches keep "
                     "its actions until a retry destroys it",
                     dev->devname, ds_cstr(&reason));
    } else {
        HW_COVERAGE_INC(hw_stale_override);
        VLOG_INFO("%s: a full rule the device could not destroy is "
                  "overridden: the packets it matches go to software",
                  dev->devname);
    }
    ds_destroy(&reason);
}

void
hw_stale_add_flow(const struct netdev_hw_device *dev, struct hw_flow *flow,
                  uint32_t mark, const char *step, int error,
                  const struct hw_rule *override)
{
    struct stale_rule *r = xzalloc(sizeof *r);

    r->flow = *flow;
    /* Only a rule tags packets: its action and counters alone do not. */
    r->mark = hw_flow_has_rule(flow) ? mark : HW_STALE_NO_MARK;
    r->step = step;
    r->error = error;
    /* 'flow' keeps its final counter values for the caller's last read,
     * without what a stage's misses sent back to software, as an
     * uninstall would have done. */
    if (flow->extra) {
        flow->final_packets -= MIN(flow->final_packets,
                                   flow->extra->ct_miss_packets);
        flow->final_bytes -= MIN(flow->final_bytes,
                                 flow->extra->ct_miss_bytes);
    }
    hw_flow_forget_objects(flow);
    if (override && hw_flow_has_rule(&r->flow)) {
        r->override_rule = xmemdup(override, sizeof *override);
    }
    stale_rule_warn(dev, r);
    stale_rule_override(dev, r);
    stale_rule_add(dev, r);
}

void
hw_stale_uninstall_flow(const struct netdev_hw_device *dev,
                        struct hw_flow *flow, uint32_t mark)
{
    const char *step;
    int error;

    error = hw_flow_uninstall(dev, flow, &step);
    if (error) {
        hw_stale_add_flow(dev, flow, mark, step, error, NULL);
    }
}

void
hw_stale_add_dr(struct hw_pipeline *p, const struct netdev_hw_device *dev,
                struct hw_flow_dr *flow, const char *step, int error)
{
    struct stale_rule *r = xzalloc(sizeof *r);

    r->dr = true;
    r->dr_flow = *flow;
    r->pipeline = p;
    r->mark = HW_STALE_NO_MARK;
    r->step = step;
    r->error = error;
    memset(flow, 0, sizeof *flow);
    stale_rule_warn(dev, r);
    stale_rule_add(dev, r);
}

/* Frees 'r' and the memory its flows hold (the device objects are gone, or
 * left to a closed device). */
static void
stale_rule_free(struct stale_rule *r)
{
    hw_flow_uninstall(NULL, &r->flow, NULL);
    hw_flow_uninstall(NULL, &r->override, NULL);
    free(r->override_rule);
    free(r);
}

static bool
stale_mark_held__(uint32_t mark, const struct stale_rule **rp)
    OVS_REQUIRES(stale_mutex)
{
    const struct stale_dev *sd;

    if (mark == HW_STALE_NO_MARK) {
        return false;
    }
    HMAP_FOR_EACH (sd, node, &stale_devs) {
        const struct stale_rule *r;

        LIST_FOR_EACH (r, node, &sd->rules) {
            if (r->mark == mark) {
                if (rp) {
                    *rp = r;
                }
                return true;
            }
        }
    }
    return false;
}

/* Moves the holds of the marks that no stale rule tags any more to
 * 'released', and tells whoever waits for stale rules to go. */
static void
stale_rules_gone(struct ovs_list *released)
    OVS_REQUIRES(stale_mutex)
{
    struct stale_hold *h;

    LIST_FOR_EACH_SAFE (h, node, &stale_holds) {
        if (!stale_mark_held__(h->mark, NULL)) {
            ovs_list_remove(&h->node);
            ovs_list_push_back(released, &h->node);
        }
    }
    seq_change(hw_stale_seq());
}

static void
stale_run_releases(struct ovs_list *released)
    OVS_EXCLUDED(stale_mutex)
{
    struct stale_hold *h;

    LIST_FOR_EACH_POP (h, node, released) {
        h->release(h->aux);
        free(h);
    }
}

/* Tries to destroy the rules of 'sd' again.  Returns the number left;
 * sets '*gone' to true if a rule that tagged packets went. */
static size_t
stale_dev_retry(struct stale_dev *sd, bool *gone)
    OVS_REQUIRES(stale_mutex)
{
    struct stale_rule *r;
    size_t n = 0;

    sd->n_retries++;
    HW_COVERAGE_INC(hw_stale_retry);
    LIST_FOR_EACH_SAFE (r, node, &sd->rules) {
        struct ds what = DS_EMPTY_INITIALIZER;
        const char *step = NULL;
        int error;

        stale_rule_describe(r, &what);
        r->n_retries++;
        if (r->dr) {
            error = hw_flow_dr_uninstall(r->pipeline, &sd->dev, &r->dr_flow,
                                         &step);
        } else {
            error = hw_flow_uninstall(&sd->dev, &r->flow, &step);
            if (!hw_flow_has_rule(&r->flow) && r->mark != HW_STALE_NO_MARK) {
                /* The rule went: nothing tags packets with its mark any
                 * more, whatever became of its action and counters. */
                r->mark = HW_STALE_NO_MARK;
                *gone = true;
            }
            if (hw_flow_has_rule(&r->flow)) {
                /* Still there: an override that failed may work now. */
                stale_rule_override(&sd->dev, r);
            } else if (hw_flow_has_rule(&r->override)) {
                /* Only once the rule it overrides is gone. */
                const char *ostep = NULL;
                int oerror = hw_flow_uninstall(&sd->dev, &r->override,
                                               &ostep);

                if (oerror && !error) {
                    error = oerror;
                    step = ostep;
                }
            }
        }

        if (error) {
            r->step = sd->last_step = step;
            r->error = sd->last_error = error;
            VLOG_WARN_RL(&rl, "%s: %s failed: %s: %s still kept after "
                         "retry %u", sd->devname, step, ovs_strerror(error),
                         ds_cstr(&what), r->n_retries);
            n++;
        } else {
            VLOG_INFO("%s: %s destroyed on retry %u", sd->devname,
                      ds_cstr(&what), r->n_retries);
            ovs_list_remove(&r->node);
            atomic_count_dec(&n_stale);
            *gone = true;
            stale_rule_free(r);
        }
        ds_destroy(&what);
    }
    return n;
}

static void
stale_dev_free(struct stale_dev *sd)
    OVS_REQUIRES(stale_mutex)
{
    struct stale_rule *r;

    LIST_FOR_EACH_POP (r, node, &sd->rules) {
        atomic_count_dec(&n_stale);
        stale_rule_free(r);
    }
    hmap_remove(&stale_devs, &sd->node);
    free(sd->devname);
    free(sd);
}

size_t
hw_stale_retry(const char *devname)
{
    struct ovs_list released = OVS_LIST_INITIALIZER(&released);
    struct stale_dev *sd;
    bool gone = false;
    size_t n = 0;

    if (!hw_stale_any()) {
        return 0;
    }

    ovs_mutex_lock(&stale_mutex);
    HMAP_FOR_EACH_SAFE (sd, node, &stale_devs) {
        if (!devname || !strcmp(devname, sd->devname)) {
            n += stale_dev_retry(sd, &gone);
            if (ovs_list_is_empty(&sd->rules)) {
                stale_dev_free(sd);
            }
        }
    }
    if (gone) {
        stale_rules_gone(&released);
    }
    ovs_mutex_unlock(&stale_mutex);

    stale_run_releases(&released);
    return n;
}

size_t
hw_stale_count(const char *devname)
{
    const struct stale_dev *sd;
    size_t n = 0;

    if (!hw_stale_any()) {
        return 0;
    }
    ovs_mutex_lock(&stale_mutex);
    sd = stale_dev_find(devname);
    if (sd) {
        n = ovs_list_size(&sd->rules);
    }
    ovs_mutex_unlock(&stale_mutex);
    return n;
}

bool
hw_stale_mark_held(uint32_t mark, struct ds *reason)
{
    const struct stale_rule *r;
    bool held;

    if (!hw_stale_any()) {
        return false;
    }
    ovs_mutex_lock(&stale_mutex);
    held = stale_mark_held__(mark, &r);
    if (held && reason) {
        ds_put_format(reason, "%s: %s", r->step, ovs_strerror(r->error));
    }
    ovs_mutex_unlock(&stale_mutex);
    return held;
}

bool
hw_stale_hold(uint32_t mark, void (*release)(void *aux), void *aux)
{
    bool held;

    if (!hw_stale_any()) {
        return false;
    }
    ovs_mutex_lock(&stale_mutex);
    held = stale_mark_held__(mark, NULL);
    if (held) {
        struct stale_hold *h = xmalloc(sizeof *h);

        h->mark = mark;
        h->release = release;
        h->aux = aux;
        ovs_list_push_back(&stale_holds, &h->node);
    }
    ovs_mutex_unlock(&stale_mutex);
    return held;
}

void
hw_stale_forget(const char *devname)
{
    struct ovs_list released = OVS_LIST_INITIALIZER(&released);
    struct stale_dev *sd;

    if (!hw_stale_any()) {
        return;
    }

    ovs_mutex_lock(&stale_mutex);
    sd = stale_dev_find(devname);
    if (sd) {
        bool gone = false;
        size_t n = stale_dev_retry(sd, &gone);

        if (n) {
            VLOG_WARN("%s: device closed with %"PRIuSIZE" stale rule%s, "
                      "left to it", devname, n, n == 1 ? "" : "s");
        }
        stale_dev_free(sd);
        stale_rules_gone(&released);
    }
    ovs_mutex_unlock(&stale_mutex);

    stale_run_releases(&released);
}

static int
compare_marks(const void *a_, const void *b_)
{
    const uint32_t *a = a_;
    const uint32_t *b = b_;

    return *a < *b ? -1 : *a > *b;
}

void
hw_stale_format(const char *devname, struct ds *s)
{
    const struct stale_dev *sd;

    if (!hw_stale_any()) {
        return;
    }

    ovs_mutex_lock(&stale_mutex);
    sd = stale_dev_find(devname);
    if (sd) {
        size_t n = ovs_list_size(&sd->rules);
        uint32_t *marks = xmalloc(n * sizeof *marks);
        const struct stale_rule *r;
        size_t n_overridden = 0;
        size_t n_marks = 0;

        LIST_FOR_EACH (r, node, &sd->rules) {
            if (r->mark != HW_STALE_NO_MARK) {
                marks[n_marks++] = r->mark;
            }
            n_overridden += (hw_flow_has_rule(&r->flow)
                             && hw_flow_has_rule(&r->override));
        }
        qsort(marks, n_marks, sizeof *marks, compare_marks);

        ds_put_format(s, "  stale rules: %"PRIuSIZE" (", n);
        if (n_marks) {
            ds_put_cstr(s, "marks ");
            for (size_t i = 0; i < n_marks; i++) {
                ds_put_format(s, "%s%"PRIu32, i ? "," : "", marks[i]);
            }
        } else {
            ds_put_cstr(s, "no marks");
        }
        if (n_overridden) {
            ds_put_format(s, ", %"PRIuSIZE" overridden", n_overridden);
        }
        ds_put_format(s, "), destroy retried %u times, last error: %s: %s\n",
                      sd->n_retries, sd->last_step,
                      ovs_strerror(sd->last_error));
        free(marks);
    }
    ovs_mutex_unlock(&stale_mutex);
}

void
hw_stale_run(void)
{
    bool due;

    if (!hw_stale_any()) {
        return;
    }

    ovs_mutex_lock(&stale_mutex);
    due = time_msec() >= next_retry;
    ovs_mutex_unlock(&stale_mutex);

    if (due && hw_stale_retry(NULL)) {
        ovs_mutex_lock(&stale_mutex);
        backoff_ms = MIN(backoff_ms * 2, RETRY_MAX_MS);
        next_retry = time_msec() + backoff_ms;
        ovs_mutex_unlock(&stale_mutex);
    }
}

void
hw_stale_wait(void)
{
    if (hw_stale_any()) {
        ovs_mutex_lock(&stale_mutex);
        poll_timer_wait_until(next_retry);
        ovs_mutex_unlock(&stale_mutex);
    }
}
