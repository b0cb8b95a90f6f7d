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

#ifndef NETDEV_HW_PRIVATE_H
#define NETDEV_HW_PRIVATE_H 1

/* The hw port's state, shared by the port (netdev-hw.c: configuration,
 * device objects, the class) and its datapath (netdev-hw-io.c: receive
 * and send, run by the PMD threads). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "hw-dev.h"
#include "hw-rule.h"
#include "netdev-hw-eswitch.h"
#include "netdev-hw-options.h"
#include "netdev-provider.h"
#include "openvswitch/thread.h"
#include "ovs-atomic.h"
#include "packets.h"

struct dp_packet_batch;
struct hw_pipeline;
struct netdev_hw_base;
struct netdev_hw_qos;

#define NETDEV_HW_RXQ_SIZE 512      /* Receive WQEs (and CQEs) per RX queue. */

/* One RX queue: a receive WQ and the CQ it completes to. */
struct netdev_hw_rxq_objs {
    struct ibv_cq_ex *cq;
    struct ibv_wq *wq;
};

/* One TX queue: a raw packet QP and its CQ. */
struct netdev_hw_txq {
    struct ovs_mutex mutex;     /* Taken when 'concurrent_txq'. */
    struct ibv_cq_ex *cq;
    struct ibv_qp *qp;
};

struct netdev_hw {
    struct netdev up;

    struct ovs_mutex mutex;

    /* Requested configuration (set_config, set_tx_multiq, set_mtu). */
    char *req_device;
    char *req_representor;      /* options:representor, or NULL. */
    int req_n_rxq;
    int req_n_txq;
    bool req_rss_key_set;       /* options:rss-key given. */
    enum netdev_hw_steering req_steering;
    int req_ct_size;            /* options:ct-size, -1 if none. */
    uint8_t req_rss_key[NETDEV_HW_RSS_KEY_LEN];
    char *config_warning;       /* Logged about the options, or NULL. */

    int mtu;
    bool mtu_set;               /* By set_mtu(), else the device's. */
    struct eth_addr mac;
    bool mac_set;               /* By set_etheraddr(), else the device's. */
    enum netdev_flags flags;

    /* Device objects.  'configured' is true when all of them exist. */
    bool configured;
    bool deferred;              /* The requested configuration waits for
                                 * stale rules (hw-stale.h) to go. */
    bool reset;                 /* The device had a fatal error: the next
                                 * reconfigure() re-opens it
                                 * (netdev-hw-reset.h). */
    char *fail_reason;          /* First failure of this reconfigure(). */
    const struct hw_dev_ops *ops;
    char *devname;              /* Device the objects belong to. */
    char *representor;          /* Their representor, or NULL. */
    struct netdev_hw_eswitch esw;   /* The port on the device's e-switch. */
    struct ibv_context *ctx;
    struct hw_dev_caps caps;
    struct ibv_pd *pd;

    int n_rxq;                  /* Entries in 'rxqs'. */
    struct netdev_hw_rxq_objs *rxqs;
    uint32_t ind_log;           /* log2 of the indirection table size. */
    struct ibv_wq **ind_wqs;    /* The table given to the device. */
    uint16_t *ind_queues;       /* Queue of each entry, for display. */
    struct ibv_rwq_ind_table *ind_tbl;
    uint8_t rss_key[NETDEV_HW_RSS_KEY_LEN];
    struct ibv_qp *rss_qps[HW_N_RSS_TYPES];

    int n_txq;                  /* Entries in 'txqs'. */
    struct netdev_hw_txq *txqs;

    enum netdev_hw_steering steering;   /* Of the objects below. */
    struct hw_pipeline *pipeline;       /* With steering=dr. */
    struct hw_pipeline *fdb_pipeline;   /* In switchdev mode. */
    struct netdev_hw_base *base;        /* The base rules. */

    /* Largest frame send() accepts, from 'mtu' at the last reconfigure. */
    size_t max_frame_len;

    /* QoS and ingress policing, in software (netdev-hw-qos.h). */
    struct netdev_hw_qos *qos;

    /* Statistics, updated by the PMD threads. */
    atomic_uint64_t rx_packets;
    atomic_uint64_t rx_bytes;
    atomic_uint64_t rx_errors;
    atomic_uint64_t rx_dropped;     /* By the ingress policer. */
    atomic_uint64_t tx_packets;
    atomic_uint64_t tx_bytes;
    atomic_uint64_t tx_dropped;
};

struct netdev_rxq_hw {
    struct netdev_rxq up;
};

struct netdev_hw *netdev_hw_cast(const struct netdev *);

/* netdev-hw-io.c: the class's datapath callbacks. */
int netdev_hw_send(struct netdev *, int qid, struct dp_packet_batch *,
                   bool concurrent_txq);
int netdev_hw_rxq_recv(struct netdev_rxq *, struct dp_packet_batch *,
                       int *qfill);
void netdev_hw_rxq_wait(struct netdev_rxq *);
int netdev_hw_rxq_drain(struct netdev_rxq *);

#endif /* netdev-hw-private.h */
