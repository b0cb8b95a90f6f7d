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

/* The mark table (struct hw_mark_rec): what the datapath threads need to
 * know about a flow mark, published by the offload threads and read
 * without a lock by hw_miss_packet_recover() and the tunnel push hook. */

#include <config.h>
#include "hw-offload-marks.h"

#include <stdlib.h>

#include "hw-stale.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "util.h"

static struct ovs_mutex hw_marks_mutex = OVS_MUTEX_INITIALIZER;
struct cmap hw_marks = CMAP_INITIALIZER;
atomic_count hw_n_decap_marks = ATOMIC_COUNT_INIT(0);

static struct hw_mark_rec *
hw_mark_find_protected(uint32_t mark)
    OVS_REQUIRES(hw_marks_mutex)
{
    return CONST_CAST(struct hw_mark_rec *, hw_mark_find(mark));
}

/* Publishes 'rec' in the mark table, in place of whatever its mark had,
 * which it returns (still allocated: the caller either puts it back with
 * hw_mark_unpublish() or frees it with hw_mark_retire()). */
struct hw_mark_rec *
hw_mark_publish(struct hw_mark_rec *rec)
{
    uint32_t hash = hash_int(rec->mark, 0);
    struct hw_mark_rec *old;

    ovs_mutex_lock(&hw_marks_mutex);
    old = hw_mark_find_protected(rec->mark);
    if (old) {
        cmap_replace(&hw_marks, &old->node, &rec->node, hash);
        if (old->decap) {
            atomic_count_dec(&hw_n_decap_marks);
        }
    } else {
        cmap_insert(&hw_marks, &rec->node, hash);
    }
    if (rec->decap) {
        atomic_count_inc(&hw_n_decap_marks);
    }
    ovs_mutex_unlock(&hw_marks_mutex);
    return old;
}

static void
hw_mark_rec_free(struct hw_mark_rec *rec)
{
    free(rec);
}

/* Frees 'rec', which is no longer in the table, once no datapath thread can
 * still be reading it. */
void
hw_mark_retire(struct hw_mark_rec *rec)
{
    if (rec) {
        ovsrcu_postpone(hw_mark_rec_free, rec);
    }
}

/* Removes 'rec' from the mark table if it is still there (a later publish
 * of the same mark may have replaced it) and puts 'old' back in its place,
 * if nonnull. */
void
hw_mark_unpublish(struct hw_mark_rec *rec, struct hw_mark_rec *old)
{
    uint32_t hash;

    if (!rec) {
        return;
    }
    hash = hash_int(rec->mark, 0);

    ovs_mutex_lock(&hw_marks_mutex);
    if (hw_mark_find_protected(rec->mark) == rec) {
        if (old) {
            cmap_replace(&hw_marks, &rec->node, &old->node, hash);
            if (old->decap) {
                atomic_count_inc(&hw_n_decap_marks);
            }
        } else {
            cmap_remove(&hw_marks, &rec->node, hash);
        }
        if (rec->decap) {
            atomic_count_dec(&hw_n_decap_marks);
        }
        ovsrcu_postpone(hw_mark_rec_free, rec);
    } else {
        hw_mark_retire(old);
    }
    ovs_mutex_unlock(&hw_marks_mutex);
}

static void
hw_mark_stale_release(void *rec)
{
    hw_mark_unpublish(rec, NULL);
}

/* The flow of 'rec' goes, but the device refused to destroy its rule
 * (hw-stale.h), which still tags packets with the mark.  If the rule also
 * decapsulates them (a vport flow's), replaces 'rec' in the mark table by a
 * copy without the egress rule (whose reference goes with the flow) and
 * keeps it there until the rule is destroyed: hw_offload_recover_tagged()
 * then still gives those packets the tunnel metadata the software pop
 * would, and the classifier picks their flow, no flow having the mark.
 * Returns true if it did; otherwise the caller unpublishes 'rec'. */
bool
hw_mark_keep_for_stale(struct hw_mark_rec *rec)
{
    struct hw_mark_rec *copy = NULL;

    if (!rec || !rec->decap || !hw_stale_mark_held(rec->mark, NULL)) {
        return false;
    }

    ovs_mutex_lock(&hw_marks_mutex);
    if (hw_mark_find_protected(rec->mark) == rec) {
        copy = xmemdup(rec, sizeof *rec);
        copy->egress = NULL;
        cmap_replace(&hw_marks, &rec->node, &copy->node,
                     hash_int(rec->mark, 0));
        ovsrcu_postpone(hw_mark_rec_free, rec);
    }
    ovs_mutex_unlock(&hw_marks_mutex);

    if (copy && !hw_stale_hold(copy->mark, hw_mark_stale_release, copy)) {
        /* A retry destroyed the rule meanwhile. */
        hw_mark_unpublish(copy, NULL);
    }
    return copy != NULL;
}
