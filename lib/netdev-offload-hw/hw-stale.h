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

#ifndef HW_STALE_H
#define HW_STALE_H 1

/* Stale rules: the device objects a device refused to destroy, kept and
 * destroyed again later.
 *
 * A rule that a failed destroy (EIO, say) leaves in the device keeps
 * working: it still tags its packets with its flow mark and still steers
 * them to its RSS QP.  Forgetting it would be wrong three times over:
 * dpif-netdev frees the flow's mark as soon as flow_del() returns, whatever
 * it returns, and soon gives it to another flow, whose actions the stale
 * rule's packets would then run; the same match could not be offloaded
 * again (the device refuses an identical rule with another tag); and the
 * rule's QP, which the device cannot destroy while a rule uses it, would be
 * lost to the next reconfiguration with the queues behind it.
 *
 * So whoever fails to destroy a rule hands what is left of it here: the
 * rule and then its actions and counters, destroyed in that order on each
 * retry.  While a rule is here:
 *   - its mark is "held": the provider refuses every flow_put() that comes
 *     with it (the flow stays in software, where it is correct), except the
 *     modify of the flow that still owns it, and the provider keeps what
 *     it published in the mark table for it (hw_stale_hold());
 *   - its device keeps its RSS QPs: netdev-hw defers a reconfiguration
 *     that would destroy them (netdev-hw.h);
 *   - a full rule (a drop, say) would go on running its actions on the
 *     packets of a flow that is gone, where no mark can help: the caller
 *     gives its override (hw_rule_make_override()), a rule of the same
 *     match at HW_PRIO_OVERRIDE, ahead of it, that sends those packets to
 *     the miss path, where software runs what the datapath says now.  It
 *     is installed on the stale rule's QP at once, again at each retry
 *     while that fails, and destroyed once the stale rule is gone.
 * Egress rules need no override: their marker ids are never reused.
 * Retries come at the provider's next flow_put(), flow_del() and
 * flow_flush(), before a reconfiguration, and from the hw netdev class's
 * run() with a back-off (1 s, doubling up to 64 s).  A retry that succeeds
 * logs INFO and releases the mark; one that fails logs a rate-limited WARN.
 * When the port closes its device, a last retry is made and what still
 * fails is left to the device (closing the verbs context destroys it).
 *
 * Devices are named by options:device (a device has one hw port at most).
 *
 * Thread-safe.  One mutex, taken after every lock of netdev-hw and of the
 * provider; device calls are made under it (the backends serialise their
 * own state) and release callbacks after it is released. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;
struct hw_flow;
struct hw_flow_dr;
struct hw_pipeline;
struct hw_rule;
struct netdev_hw_device;
struct seq;

/* Flow marks are never 0 (dpif-netdev allocates them from 1). */
#define HW_STALE_NO_MARK 0

/* Takes over the objects that 'flow' still holds after
 * hw_flow_uninstall() on 'dev' failed at 'step' (e.g. "destroy_flow") with
 * 'error'; 'flow' is left holding none.  'mark' is the flow mark the rule
 * tags packets with, or HW_STALE_NO_MARK.  'override', if nonnull, is the
 * override of a full rule (copied).  Logs a rate-limited WARN. */
void hw_stale_add_flow(const struct netdev_hw_device *dev,
                       struct hw_flow *flow, uint32_t mark,
                       const char *step, int error,
                       const struct hw_rule *override);

/* Uninstalls 'flow' from 'dev' with hw_flow_uninstall() and hands what the
 * device refuses to destroy to hw_stale_add_flow() (with no override). */
void hw_stale_uninstall_flow(const struct netdev_hw_device *dev,
                             struct hw_flow *flow, uint32_t mark);

/* The same for a rule of the pipeline of tables 'p', after
 * hw_flow_dr_uninstall() failed at 'step' with 'error'. */
void hw_stale_add_dr(struct hw_pipeline *p,
                     const struct netdev_hw_device *dev,
                     struct hw_flow_dr *flow, const char *step, int error);

/* Whether any device has a stale rule.  Cheap: no lock. */
bool hw_stale_any(void);

/* Retries destroying the stale rules of device 'devname', or of every
 * device if 'devname' is NULL.  Returns the number of stale rules left on
 * 'devname' (on every device if NULL). */
size_t hw_stale_retry(const char *devname);

/* The number of stale rules of device 'devname'. */
size_t hw_stale_count(const char *devname);

/* Returns true if a stale rule tags packets with 'mark', and then appends
 * to 'reason' (if nonnull) why it is stale ("destroy_flow: Input/output
 * error"). */
bool hw_stale_mark_held(uint32_t mark, struct ds *reason);

/* Once no stale rule tags packets with 'mark' any more, calls
 * 'release(aux)' (from whichever thread destroyed the last one, with no
 * hw-stale lock held).  Returns false, and does nothing, if no stale rule
 * tags packets with 'mark' now. */
bool hw_stale_hold(uint32_t mark, void (*release)(void *aux), void *aux);

/* Device 'devname' is being closed: retries its stale rules a last time and
 * forgets those that still fail (closing the device destroys them), with a
 * WARN. */
void hw_stale_forget(const char *devname);

/* Appends to 's', if device 'devname' has stale rules, the line of
 * netdev-hw/show about them:
 *   "  stale rules: 1 (marks 5), destroy retried 3 times, last error:
 *    destroy_flow: Input/output error", with ", N overridden" after the
 *    marks if N full rules are overridden. */
void hw_stale_format(const char *devname, struct ds *s);

/* Changes whenever stale rules go (destroyed or forgotten). */
struct seq *hw_stale_seq(void);

/* The periodic retry, from the main thread (the hw netdev class's run()
 * and wait()). */
void hw_stale_run(void);
void hw_stale_wait(void);

#endif /* hw-stale.h */
