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

/* QoS and ingress policing of hw ports, in software (netdev-hw-qos.h). */

#include <config.h>
#include "netdev-hw-qos.h"

#include <errno.h>
#include <limits.h>

#include "coverage.h"
#include "dp-packet.h"
#include "hash.h"
#include "netdev-hw-private.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/token-bucket.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "smap.h"
#include "sset.h"
#include "timeval.h"
#include "util.h"

/* The port's log module (netdev-hw.c): its QoS logs as the port does. */
extern struct vlog_module *VLM_netdev_hw;
#define this_module (*VLM_netdev_hw)

COVERAGE_DEFINE(netdev_hw_qos_drop);
COVERAGE_DEFINE(netdev_hw_policing_drop);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

enum hw_qos_kind {
    HW_QOS_NONE,
    HW_QOS_EGRESS_POLICER,      /* "egress-policer": cir, cbs. */
    HW_QOS_TRTCM_POLICER,       /* "trtcm-policer": cir, cbs, eir, ebs. */
};

static const char *const hw_qos_names[] = {
    [HW_QOS_NONE] = "",
    [HW_QOS_EGRESS_POLICER] = "egress-policer",
    [HW_QOS_TRTCM_POLICER] = "trtcm-policer",
};

/* Rates in bytes per second, bursts in bytes, as OVS-DPDK takes them. */
struct hw_qos_rates {
    uint64_t cir, cbs;          /* Committed. */
    uint64_t eir, ebs;          /* Excess (trtcm-policer only). */
};

/* RFC 4115's marker over two buckets of bits.  With an empty excess
 * bucket it is a single-rate two-colour marker. */
struct hw_meter {
    struct token_bucket committed;
    struct token_bucket excess;
};

enum hw_color { HW_GREEN, HW_YELLOW, HW_RED };

/* A trtcm-policer queue, chosen by the packet's skb_priority (the queue of
 * OpenFlow's set_queue in the userspace datapath). */
struct hw_qos_queue {
    struct hmap_node node;      /* In 'queues', by hash of 'id'. */
    uint32_t id;
    bool follows_port;          /* Queue 0 without configuration of its
                                 * own: the port's rates. */
    struct hw_qos_rates rates;
    struct hw_meter meter;
    uint64_t tx_packets;
    uint64_t tx_bytes;
    uint64_t tx_errors;
    long long int created;
};

struct netdev_hw_qos {
    struct ovs_mutex mutex;
    atomic_bool egress_on;      /* 'kind' is not HW_QOS_NONE. */
    atomic_bool ingress_on;     /* 'ingress_kbits_rate' is not 0. */

    enum hw_qos_kind kind OVS_GUARDED;
    struct hw_qos_rates rates OVS_GUARDED;
    struct hw_meter meter OVS_GUARDED;
    struct hmap queues OVS_GUARDED;     /* HW_QOS_TRTCM_POLICER's. */
    char *error OVS_GUARDED;    /* Why the last QoS asked for was refused. */

    unsigned int ingress_kbits_rate OVS_GUARDED;
    unsigned int ingress_kbits_burst OVS_GUARDED;
    unsigned int ingress_kpkts_rate OVS_GUARDED;    /* Refused if set. */
    struct token_bucket ingress OVS_GUARDED;
};

static struct netdev_hw_qos *
qos_of(const struct netdev *netdev)
{
    return netdev_hw_cast(netdev)->qos;
}

/* A bucket of 'burst' bits filled at 'rate' bits per millisecond, full from
 * now on, as a DPDK meter is when configured.  The burst stays below
 * UINT_MAX for hw_bucket_take(). */
static void
hw_bucket_init(struct token_bucket *tb, uint64_t rate, uint64_t burst)
{
    token_bucket_init(tb, MIN(rate, UINT_MAX), MIN(burst, UINT_MAX - 1));
    tb->tokens = tb->burst;
    tb->last_fill = time_msec();
}

/* Takes 'n' bits from 'tb' if it has them.  token_bucket_withdraw() refills
 * only a bucket that is short, and then with all the time since its last
 * fill, so a bucket that stayed full for a while would then pass a second
 * burst.  An impossible withdrawal first refills it up to now. */
static bool
hw_bucket_take(struct token_bucket *tb, unsigned int n)
{
    if (tb->tokens >= n) {
        token_bucket_withdraw(tb, UINT_MAX);
    }
    return token_bucket_withdraw(tb, n);
}

/* Bytes per second become bits per millisecond: exact for rates in whole
 * kbit/s (multiples of 125 bytes per second), rounded down otherwise. */
static void
hw_meter_init(struct hw_meter *meter, const struct hw_qos_rates *rates)
{
    hw_bucket_init(&meter->committed, rates->cir * 8 / 1000, rates->cbs * 8);
    hw_bucket_init(&meter->excess, rates->eir * 8 / 1000, rates->ebs * 8);
}

/* RFC 4115: a green packet takes committed tokens, or else excess tokens
 * and turns yellow; a yellow one can only take excess tokens; a packet
 * that gets none is red.  Colour-blind marking starts from green. */
static enum hw_color
hw_meter_mark(struct hw_meter *meter, unsigned int bits, enum hw_color color)
{
    if (color == HW_GREEN && hw_bucket_take(&meter->committed, bits)) {
        return HW_GREEN;
    }
    if (color != HW_RED && hw_bucket_take(&meter->excess, bits)) {
        return HW_YELLOW;
    }
    return HW_RED;
}

/* The length a policer charges: the frame without its Ethernet header, as
 * OVS-DPDK's policers count it, in bits. */
static unsigned int
hw_policed_bits(const struct dp_packet *packet)
{
    uint32_t size = dp_packet_size(packet);

    return (size > ETH_HEADER_LEN ? size - ETH_HEADER_LEN : 0) * 8;
}

struct netdev_hw_qos *
netdev_hw_qos_create(void)
{
    struct netdev_hw_qos *qos = xzalloc(sizeof *qos);

    ovs_mutex_init(&qos->mutex);
    atomic_init(&qos->egress_on, false);
    atomic_init(&qos->ingress_on, false);
    qos->kind = HW_QOS_NONE;
    hmap_init(&qos->queues);
    return qos;
}

static void
hw_qos_clear_queues(struct netdev_hw_qos *qos)
    OVS_REQUIRES(qos->mutex)
{
    struct hw_qos_queue *queue;

    HMAP_FOR_EACH_POP (queue, node, &qos->queues) {
        free(queue);
    }
}

void
netdev_hw_qos_destroy(struct netdev_hw_qos *qos)
{
    if (qos) {
        ovs_mutex_lock(&qos->mutex);
        hw_qos_clear_queues(qos);
        hmap_destroy(&qos->queues);
        free(qos->error);
        ovs_mutex_unlock(&qos->mutex);
        ovs_mutex_destroy(&qos->mutex);
        free(qos);
    }
}

static enum hw_qos_kind
hw_qos_kind_from_name(const char *type)
{
    for (size_t i = 0; i < ARRAY_SIZE(hw_qos_names); i++) {
        if (!strcmp(type, hw_qos_names[i])) {
            return i;
        }
    }
    return -1;
}

static void
hw_qos_rates_parse(const struct smap *details, enum hw_qos_kind kind,
                   struct hw_qos_rates *rates)
{
    memset(rates, 0, sizeof *rates);
    rates->cir = smap_get_ullong(details, "cir", 0);
    rates->cbs = smap_get_ullong(details, "cbs", 0);
    if (kind == HW_QOS_TRTCM_POLICER) {
        rates->eir = smap_get_ullong(details, "eir", 0);
        rates->ebs = smap_get_ullong(details, "ebs", 0);
    }
}

/* Returns NULL if 'rates' can meter packets, else why not. */
static const char *
hw_qos_rates_refusal(const struct hw_qos_rates *rates, enum hw_qos_kind kind)
{
    if (kind == HW_QOS_EGRESS_POLICER) {
        return (!rates->cir || !rates->cbs
                ? "needs other_config:cir and other_config:cbs above 0"
                : NULL);
    }
    return (!(rates->cir || rates->eir) || !(rates->cbs || rates->ebs)
            ? "needs other_config:cir or eir, and cbs or ebs, above 0"
            : NULL);
}

static void
hw_qos_rates_format(const struct hw_qos_rates *rates, enum hw_qos_kind kind,
                    struct smap *details)
{
    smap_add_format(details, "cir", "%"PRIu64, rates->cir);
    smap_add_format(details, "cbs", "%"PRIu64, rates->cbs);
    if (kind == HW_QOS_TRTCM_POLICER) {
        smap_add_format(details, "eir", "%"PRIu64, rates->eir);
        smap_add_format(details, "ebs", "%"PRIu64, rates->ebs);
    }
}

static struct hw_qos_queue *
hw_qos_queue_find(const struct netdev_hw_qos *qos, uint32_t id)
    OVS_REQUIRES(qos->mutex)
{
    struct hw_qos_queue *queue;

    HMAP_FOR_EACH_WITH_HASH (queue, node, hash_int(id, 0), &qos->queues) {
        if (queue->id == id) {
            return queue;
        }
    }
    return NULL;
}

/* Sets queue 'id' to 'rates' (the port's if 'follows_port'), keeping its
 * buckets if the rates did not change. */
static void
hw_qos_queue_set(struct netdev_hw_qos *qos, uint32_t id, bool follows_port,
                 const struct hw_qos_rates *rates)
    OVS_REQUIRES(qos->mutex)
{
    struct hw_qos_queue *queue = hw_qos_queue_find(qos, id);

    if (!queue) {
        queue = xzalloc(sizeof *queue);
        queue->id = id;
        queue->created = time_msec();
        hmap_insert(&qos->queues, &queue->node, hash_int(id, 0));
    } else if (!memcmp(&queue->rates, rates, sizeof *rates)) {
        queue->follows_port = follows_port;
        return;
    }
    queue->follows_port = follows_port;
    queue->rates = *rates;
    hw_meter_init(&queue->meter, rates);
}

/* Records 'error' (which it takes) as the reason the port's QoS is not
 * what was asked for, and logs it unless it was the reason already, since
 * the bridge asks again at each reconfiguration. */
static void
hw_qos_refuse(struct netdev *netdev, struct netdev_hw_qos *qos, char *error)
    OVS_REQUIRES(qos->mutex)
{
    if (!qos->error || strcmp(qos->error, error)) {
        VLOG_WARN("hw port %s: %s", netdev_get_name(netdev), error);
        free(qos->error);
        qos->error = error;
        /* The bridge refreshes the Interface's status on a change. */
        netdev_change_seq_changed(netdev);
    } else {
        free(error);
    }
}

static void
hw_qos_accept(struct netdev *netdev, struct netdev_hw_qos *qos)
    OVS_REQUIRES(qos->mutex)
{
    if (qos->error) {
        free(qos->error);
        qos->error = NULL;
        netdev_change_seq_changed(netdev);
    }
}

int
netdev_hw_get_qos_types(const struct netdev *netdev OVS_UNUSED,
                        struct sset *types)
{
    for (size_t i = HW_QOS_NONE + 1; i < ARRAY_SIZE(hw_qos_names); i++) {
        sset_add(types, hw_qos_names[i]);
    }
    return 0;
}

int
netdev_hw_get_qos(const struct netdev *netdev, const char **typep,
                  struct smap *details)
{
    struct netdev_hw_qos *qos = qos_of(netdev);

    ovs_mutex_lock(&qos->mutex);
    *typep = hw_qos_names[qos->kind];
    if (qos->kind != HW_QOS_NONE) {
        hw_qos_rates_format(&qos->rates, qos->kind, details);
    }
    ovs_mutex_unlock(&qos->mutex);
    return 0;
}

/* On an error, the port keeps the QoS it had, as the netdev interface
 * asks. */
int
netdev_hw_set_qos(struct netdev *netdev, const char *type,
                  const struct smap *details)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    int kind = hw_qos_kind_from_name(type);
    struct hw_qos_rates rates;
    const char *refusal;
    int error = 0;

    ovs_mutex_lock(&qos->mutex);
    if (kind < 0) {
        struct ds types = DS_EMPTY_INITIALIZER;

        for (size_t i = HW_QOS_NONE + 1; i < ARRAY_SIZE(hw_qos_names); i++) {
            ds_put_format(&types, "%s%s", i > 1 ? ", " : "", hw_qos_names[i]);
        }
        hw_qos_refuse(netdev, qos, xasprintf(
                          "QoS type %s is not supported on hw ports (they "
                          "support %s, in software): the port keeps %s%s",
                          type, ds_cstr(&types),
                          qos->kind == HW_QOS_NONE ? "no QoS"
                          : hw_qos_names[qos->kind],
                          qos->kind == HW_QOS_NONE ? "" : " QoS"));
        ds_destroy(&types);
        error = EOPNOTSUPP;
        goto out;
    }

    hw_qos_rates_parse(details, kind, &rates);
    refusal = kind == HW_QOS_NONE ? NULL : hw_qos_rates_refusal(&rates, kind);
    if (refusal) {
        hw_qos_refuse(netdev, qos, xasprintf("QoS type %s %s", type,
                                             refusal));
        error = EINVAL;
        goto out;
    }
    hw_qos_accept(netdev, qos);

    if (kind == qos->kind && !memcmp(&rates, &qos->rates, sizeof rates)) {
        goto out;
    }
    if (kind != qos->kind) {
        /* A new type starts with the queues' defaults. */
        hw_qos_clear_queues(qos);
    }
    qos->kind = kind;
    qos->rates = rates;
    hw_meter_init(&qos->meter, &rates);
    if (kind == HW_QOS_TRTCM_POLICER) {
        /* Queue 0, the default queue, has the port's rates unless it is
         * configured. */
        struct hw_qos_queue *q0 = hw_qos_queue_find(qos, 0);

        if (!q0 || q0->follows_port) {
            hw_qos_queue_set(qos, 0, true, &rates);
        }
    }
    atomic_store_relaxed(&qos->egress_on, kind != HW_QOS_NONE);

out:
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

/* The error of a missing queue: only trtcm-policer has queues. */
static int
hw_qos_no_queue(const struct netdev_hw_qos *qos)
    OVS_REQUIRES(qos->mutex)
{
    return qos->kind == HW_QOS_TRTCM_POLICER ? ENOENT : EOPNOTSUPP;
}

int
netdev_hw_get_queue(const struct netdev *netdev, unsigned int queue_id,
                    struct smap *details)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    const struct hw_qos_queue *queue;
    int error = 0;

    ovs_mutex_lock(&qos->mutex);
    queue = hw_qos_queue_find(qos, queue_id);
    if (queue) {
        hw_qos_rates_format(&queue->rates, qos->kind, details);
    } else {
        error = hw_qos_no_queue(qos);
    }
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

int
netdev_hw_set_queue(struct netdev *netdev, unsigned int queue_id,
                    const struct smap *details)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    struct hw_qos_rates rates;
    const char *refusal;
    int error = 0;

    ovs_mutex_lock(&qos->mutex);
    if (qos->kind != HW_QOS_TRTCM_POLICER) {
        /* egress-policer has no queues. */
        error = EOPNOTSUPP;
    } else if (queue_id == 0 && smap_is_empty(details)) {
        hw_qos_queue_set(qos, 0, true, &qos->rates);
    } else {
        hw_qos_rates_parse(details, qos->kind, &rates);
        refusal = hw_qos_rates_refusal(&rates, qos->kind);
        if (refusal) {
            VLOG_WARN_RL(&rl, "hw port %s: trtcm-policer queue %u %s",
                         netdev_get_name(netdev), queue_id, refusal);
            error = EINVAL;
        } else {
            hw_qos_queue_set(qos, queue_id, false, &rates);
        }
    }
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

int
netdev_hw_delete_queue(struct netdev *netdev, unsigned int queue_id)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    struct hw_qos_queue *queue;
    int error = 0;

    ovs_mutex_lock(&qos->mutex);
    queue = hw_qos_queue_find(qos, queue_id);
    if (!queue) {
        error = hw_qos_no_queue(qos);
    } else if (queue_id == 0) {
        /* The default queue stays, with the port's rates. */
        hw_qos_queue_set(qos, 0, true, &qos->rates);
    } else {
        hmap_remove(&qos->queues, &queue->node);
        free(queue);
    }
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

int
netdev_hw_get_queue_stats(const struct netdev *netdev, unsigned int queue_id,
                          struct netdev_queue_stats *stats)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    const struct hw_qos_queue *queue;

    ovs_mutex_lock(&qos->mutex);
    queue = hw_qos_queue_find(qos, queue_id);
    if (queue) {
        stats->tx_packets = queue->tx_packets;
        stats->tx_bytes = queue->tx_bytes;
        stats->tx_errors = queue->tx_errors;
        stats->created = queue->created;
    }
    int error = queue ? 0 : hw_qos_no_queue(qos);
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

/* A queue dump walks a copy of the queue numbers, sorted: the bridge
 * deletes queues while it dumps. */
struct hw_qos_dump {
    uint32_t *ids;
    size_t n, next;
};

static int
hw_qos_cmp_ids(const void *a_, const void *b_)
{
    uint32_t a = *(const uint32_t *) a_, b = *(const uint32_t *) b_;

    return a < b ? -1 : a > b;
}

int
netdev_hw_queue_dump_start(const struct netdev *netdev, void **statep)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    struct hw_qos_dump *dump = xzalloc(sizeof *dump);
    const struct hw_qos_queue *queue;

    ovs_mutex_lock(&qos->mutex);
    dump->ids = xmalloc(MAX(hmap_count(&qos->queues), 1) * sizeof *dump->ids);
    HMAP_FOR_EACH (queue, node, &qos->queues) {
        dump->ids[dump->n++] = queue->id;
    }
    ovs_mutex_unlock(&qos->mutex);
    qsort(dump->ids, dump->n, sizeof *dump->ids, hw_qos_cmp_ids);
    *statep = dump;
    return 0;
}

int
netdev_hw_queue_dump_next(const struct netdev *netdev, void *state,
                          unsigned int *queue_id, struct smap *details)
{
    struct hw_qos_dump *dump = state;

    while (dump->next < dump->n) {
        uint32_t id = dump->ids[dump->next++];

        if (!netdev_hw_get_queue(netdev, id, details)) {
            *queue_id = id;
            return 0;
        }
    }
    return EOF;
}

int
netdev_hw_queue_dump_done(const struct netdev *netdev OVS_UNUSED,
                          void *state)
{
    struct hw_qos_dump *dump = state;

    free(dump->ids);
    free(dump);
    return 0;
}

/* As OVS-DPDK: a rate of 0 turns policing off, and a burst of 0 means
 * 8000 kbit. */
int
netdev_hw_set_policing(struct netdev *netdev, unsigned int kbits_rate,
                       unsigned int kbits_burst, unsigned int kpkts_rate,
                       unsigned int kpkts_burst OVS_UNUSED)
{
    struct netdev_hw_qos *qos = qos_of(netdev);
    int error = 0;

    kbits_burst = !kbits_rate ? 0 : !kbits_burst ? 8000 : kbits_burst;

    ovs_mutex_lock(&qos->mutex);
    if (kpkts_rate != qos->ingress_kpkts_rate) {
        qos->ingress_kpkts_rate = kpkts_rate;
        if (kpkts_rate) {
            VLOG_WARN("hw port %s: ingress_policing_kpkts_rate is not "
                      "supported on hw ports and is ignored (only "
                      "ingress_policing_rate and ingress_policing_burst "
                      "are)", netdev_get_name(netdev));
        }
    }
    if (kpkts_rate) {
        error = EOPNOTSUPP;
    }
    if (kbits_rate != qos->ingress_kbits_rate
        || kbits_burst != qos->ingress_kbits_burst) {
        qos->ingress_kbits_rate = kbits_rate;
        qos->ingress_kbits_burst = kbits_burst;
        /* kbit/s are bits per millisecond. */
        hw_bucket_init(&qos->ingress, kbits_rate,
                       (uint64_t) kbits_burst * 1000);
        atomic_store_relaxed(&qos->ingress_on, kbits_rate != 0);
    }
    ovs_mutex_unlock(&qos->mutex);
    return error;
}

void
netdev_hw_qos_get_status(const struct netdev_hw_qos *qos_,
                         struct smap *status)
{
    struct netdev_hw_qos *qos = CONST_CAST(struct netdev_hw_qos *, qos_);

    ovs_mutex_lock(&qos->mutex);
    if (qos->error) {
        smap_add(status, "qos_error", qos->error);
    }
    ovs_mutex_unlock(&qos->mutex);
}

static bool
hw_qos_pass_tx(struct netdev_hw_qos *qos, const struct dp_packet *packet)
    OVS_REQUIRES(qos->mutex)
{
    unsigned int bits = hw_policed_bits(packet);
    enum hw_color color = HW_GREEN;

    if (qos->kind == HW_QOS_TRTCM_POLICER) {
        /* Colour-blind in the packet's queue (the default queue if it has
         * none), then colour-aware for the port. */
        struct hw_qos_queue *queue;

        queue = hw_qos_queue_find(qos, packet->md.skb_priority);
        if (!queue) {
            queue = hw_qos_queue_find(qos, 0);
        }
        if (!queue) {
            return false;
        }
        color = hw_meter_mark(&queue->meter, bits, HW_GREEN);
        if (color == HW_RED) {
            queue->tx_errors++;
        } else {
            queue->tx_packets++;
            queue->tx_bytes += bits / 8;
        }
    }
    return hw_meter_mark(&qos->meter, bits, color) != HW_RED;
}

static bool
hw_qos_pass_rx(struct netdev_hw_qos *qos, const struct dp_packet *packet)
    OVS_REQUIRES(qos->mutex)
{
    return hw_bucket_take(&qos->ingress, hw_policed_bits(packet));
}

/* Removes from 'batch', and frees, the packets 'pass' refuses, if 'on', and
 * returns how many. */
static size_t
hw_qos_police(struct netdev_hw_qos *qos, atomic_bool *on,
              bool (*pass)(struct netdev_hw_qos *, const struct dp_packet *),
              struct dp_packet_batch *batch)
{
    struct dp_packet *packet;
    size_t n_dropped = 0;
    bool is_on;

    atomic_read_relaxed(on, &is_on);
    if (OVS_LIKELY(!is_on)) {
        return 0;
    }

    ovs_mutex_lock(&qos->mutex);
    /* 'on' may have gone off since: then nothing is dropped. */
    atomic_read_relaxed(on, &is_on);
    size_t n = dp_packet_batch_size(batch);
    size_t i;
    DP_PACKET_BATCH_REFILL_FOR_EACH (i, n, packet, batch) {
        if (!is_on || pass(qos, packet)) {
            dp_packet_batch_refill(batch, packet, i);
        } else {
            dp_packet_delete(packet);
            n_dropped++;
        }
    }
    ovs_mutex_unlock(&qos->mutex);
    return n_dropped;
}

size_t
netdev_hw_qos_police_tx(struct netdev_hw_qos *qos,
                        struct dp_packet_batch *batch)
{
    size_t n_dropped = hw_qos_police(qos, &qos->egress_on, hw_qos_pass_tx,
                                     batch);

    COVERAGE_ADD(netdev_hw_qos_drop, n_dropped);
    return n_dropped;
}

size_t
netdev_hw_qos_police_rx(struct netdev_hw_qos *qos,
                        struct dp_packet_batch *batch)
{
    size_t n_dropped = hw_qos_police(qos, &qos->ingress_on, hw_qos_pass_rx,
                                     batch);

    COVERAGE_ADD(netdev_hw_policing_drop, n_dropped);
    return n_dropped;
}
