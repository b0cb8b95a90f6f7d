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
#include "netdev-hw.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "coverage.h"
#include "dp-packet.h"
#include "hw-coverage.h"
#include "hw-ct.h"
#include "hw-pipeline.h"
#include "hw-privileges.h"
#include "hw-stale.h"
#include "hw-toeplitz.h"
#include "hw-translate.h"
#include "netdev-hw-base.h"
#include "netdev-hw-options.h"
#include "netdev-hw-private.h"
#include "netdev-hw-ports.h"
#include "netdev-hw-reset.h"
#include "netdev-hw-qos.h"
#include "netdev-provider.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

/* The "hw" netdev class.
 *
 * Device objects of a configured port, in the order reconfigure() creates
 * them (a full teardown runs in exactly the reverse order; a change of
 * n_txq only rebuilds the TX queues, a change of n_rxq or of the RSS key
 * only the RX side and the miss rules):
 *
 *   open -> query_caps -> alloc_pd
 *   -> per RX queue: extended CQ, WQ (created, then moved to RDY)
 *   -> indirection table (2^ceil(log2(n_rxq)) entries, queues repeated)
 *   -> one Toeplitz RSS QP per enum hw_rss_type
 *   -> per TX queue: CQ, raw packet QP
 *   -> with options:steering=dr, the pipeline of tables (hw-pipeline.h)
 *   -> the base rules (netdev-hw-base.h): per-type L4 and L3 rules to the
 *      matching RSS QP, two VLAN guard rules and a default rule.
 *
 * Each TX queue has its own raw packet QP, as a multi-queue NIC has one send
 * queue per ring, so that senders on different queues never share a QP; a
 * TX queue's mutex is only taken when OVS says the queue is shared
 * ('concurrent_txq').
 *
 * Thread safety.  'mutex' protects the configuration and the device
 * objects.  The datapath callbacks (rxq_recv, send, in netdev-hw-io.c; the
 * state they share is in netdev-hw-private.h) read the device objects
 * without it: OVS stops the port's PMD threads before it calls reconfigure()
 * and restarts them afterwards, and reconfigure() is the only place the
 * objects change.  The flow API provider reads them from its offload
 * threads with netdev_hw_get_device() and netdev_hw_rss_qp(), which take
 * 'mutex'; what they return stays valid until the port's next
 * reconfigure(), which first makes them fail and calls the provider's
 * reconfigure notifier (see netdev-hw.h) without holding 'mutex'. */

VLOG_DEFINE_THIS_MODULE(netdev_hw);

COVERAGE_DEFINE(netdev_hw_reconfigure_error);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define NETDEV_HW_MAX_TXQ 1024
#define NETDEV_HW_TXQ_SIZE 512      /* Send WQEs (and CQEs) per TX queue. */
#define NETDEV_HW_MTU_MIN 68
#define NETDEV_HW_MTU_MAX 9216
#define NETDEV_HW_PORT_NUM 1        /* Verbs port the rules apply to. */

/* Default RSS key: the mlx5 default (DPDK mlx5_rss_hash_default_key). */

/* What each RSS QP hashes.  A TIR hashes one packet type, so the miss
 * rules send each type to the QP that hashes it. */
static const struct {
    const char *name;
    uint64_t fields;
} rss_types[HW_N_RSS_TYPES] = {
    [HW_RSS_IPV4_TCP] = {
        "ipv4-tcp", (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                     | IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP) },
    [HW_RSS_IPV4_UDP] = {
        "ipv4-udp", (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                     | IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP) },
    [HW_RSS_IPV4] = {
        "ipv4", IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 },
    [HW_RSS_IPV6_TCP] = {
        "ipv6-tcp", (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                     | IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP) },
    [HW_RSS_IPV6_UDP] = {
        "ipv6-udp", (IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                     | IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP) },
    [HW_RSS_IPV6] = {
        "ipv6", IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6 },
};


/* Set once at start-up by the flow API provider. */
static netdev_hw_reconfigure_cb *reconfigure_cb;

static int netdev_hw_construct(struct netdev *);

static bool
is_netdev_hw_class(const struct netdev_class *class)
{
    return class->construct == netdev_hw_construct;
}

struct netdev_hw *
netdev_hw_cast(const struct netdev *netdev)
{
    ovs_assert(is_netdev_hw_class(netdev_get_class(netdev)));
    return CONTAINER_OF(netdev, struct netdev_hw, up);
}

static size_t
netdev_hw_frame_len(int mtu)
{
    /* Room for an Ethernet header and two VLAN tags (QinQ). */
    return mtu + ETH_HEADER_LEN + 2 * VLAN_HEADER_LEN;
}

static const char *
netdev_hw_devname(const struct netdev_hw *dev)
{
    return dev->devname ? dev->devname
           : dev->req_device ? dev->req_device
           : "(none)";
}

/* Logs why the port cannot be configured, keeps the first reason of a
 * reconfigure() for the Interface's "error" column, and returns 'error'. */
static int OVS_PRINTF_FORMAT(3, 4)
netdev_hw_fail(struct netdev_hw *dev, int error, const char *format, ...)
{
    va_list args;
    char *reason;

    va_start(args, format);
    reason = xvasprintf(format, args);
    va_end(args);
    VLOG_WARN("hw port %s: %s", netdev_get_name(&dev->up), reason);
    if (!dev->fail_reason) {
        dev->fail_reason = reason;
    } else {
        free(reason);
    }
    return error;
}

/* Logs that 'step' failed with 'error' and returns 'error'. */
static int
netdev_hw_step_failed(struct netdev_hw *dev, const char *step, int error)
{
    return netdev_hw_fail(dev, error, "device %s: %s failed: %s",
                          netdev_hw_devname(dev), step, ovs_strerror(error));
}

/* A destroy call failing leaks the object: say so, and go on tearing down
 * the rest. */
static void
netdev_hw_check_destroy(struct netdev_hw *dev, const char *step,
                        int error)
{
    if (error) {
        netdev_hw_step_failed(dev, step, error);
    }
}

/* Teardown, in the reverse order of creation. */

/* The device of 'dev' as the base rules and the pipeline see it. */
static void
netdev_hw_device_of(const struct netdev_hw *dev,
                    struct netdev_hw_device *device)
    OVS_REQUIRES(dev->mutex)
{
    device->ops = dev->ops;
    device->ctx = dev->ctx;
    device->caps = &dev->caps;
    device->devname = dev->devname;
    device->port_num = dev->esw.port_num ? dev->esw.port_num
                       : NETDEV_HW_PORT_NUM;
    device->switchdev = dev->esw.switchdev;
    device->reg_c0 = dev->esw.reg_c0;
    device->reg_c0_mask = dev->esw.reg_c0_mask;
    device->vport = dev->esw.vport;
    device->fdb_pipeline = dev->fdb_pipeline;
    device->pipeline = dev->pipeline;
    device->pipeline_on_demand = dev->steering == NETDEV_HW_STEERING_AUTO;
    device->after_reset = dev->reset;
}

static void
netdev_hw_destroy_miss_rules(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    struct netdev_hw_device device;

    netdev_hw_device_of(dev, &device);
    netdev_hw_base_destroy(dev->base, &device);
    dev->base = NULL;
}

static void
netdev_hw_destroy_tx(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    for (int i = dev->n_txq - 1; i >= 0; i--) {
        struct netdev_hw_txq *txq = &dev->txqs[i];

        if (txq->qp) {
            netdev_hw_check_destroy(dev, "destroy_qp",
                                    dev->ops->destroy_qp(txq->qp));
        }
        if (txq->cq) {
            netdev_hw_check_destroy(dev, "destroy_cq",
                                    dev->ops->destroy_cq(txq->cq));
        }
        ovs_mutex_destroy(&txq->mutex);
    }
    free(dev->txqs);
    dev->txqs = NULL;
    dev->n_txq = 0;
}

static void
netdev_hw_destroy_rx(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    for (int i = HW_N_RSS_TYPES - 1; i >= 0; i--) {
        if (dev->rss_qps[i]) {
            netdev_hw_check_destroy(dev, "destroy_qp",
                                    dev->ops->destroy_qp(dev->rss_qps[i]));
            dev->rss_qps[i] = NULL;
        }
    }
    if (dev->ind_tbl) {
        netdev_hw_check_destroy(dev, "destroy_rwq_ind_table",
                                dev->ops->destroy_rwq_ind_table(
                                    dev->ind_tbl));
        dev->ind_tbl = NULL;
    }
    free(dev->ind_wqs);
    dev->ind_wqs = NULL;
    free(dev->ind_queues);
    dev->ind_queues = NULL;
    dev->ind_log = 0;

    for (int i = dev->n_rxq - 1; i >= 0; i--) {
        struct netdev_hw_rxq_objs *q = &dev->rxqs[i];

        if (q->wq) {
            netdev_hw_check_destroy(dev, "destroy_wq",
                                    dev->ops->destroy_wq(q->wq));
        }
        if (q->cq) {
            netdev_hw_check_destroy(dev, "destroy_cq",
                                    dev->ops->destroy_cq(q->cq));
        }
    }
    free(dev->rxqs);
    dev->rxqs = NULL;
    dev->n_rxq = 0;
}

static void
netdev_hw_close_device(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    hw_pipeline_destroy(dev->pipeline);
    dev->pipeline = NULL;
    hw_pipeline_destroy(dev->fdb_pipeline);
    dev->fdb_pipeline = NULL;
    if (dev->ops) {
        if (dev->pd) {
            netdev_hw_check_destroy(dev, "dealloc_pd",
                                    dev->ops->dealloc_pd(dev->pd));
        }
        if (dev->ctx) {
            dev->ops->close(dev->ctx);
        }
    }
    dev->pd = NULL;
    dev->ctx = NULL;
    dev->ops = NULL;
    free(dev->devname);
    dev->devname = NULL;
    free(dev->representor);
    dev->representor = NULL;
    memset(&dev->esw, 0, sizeof dev->esw);
    memset(&dev->caps, 0, sizeof dev->caps);
}

/* Destroys every device object of 'dev'.  The caller has unpublished them
 * (see netdev_hw_publish()). */
static void
netdev_hw_teardown(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    ovs_assert(!dev->configured);
    if (dev->ops) {
        netdev_hw_destroy_miss_rules(dev);
        /* A last retry of the rules the device refused to destroy, which
         * hold the QPs they deliver to; the device keeps what is left. */
        hw_stale_forget(dev->devname);
        netdev_hw_destroy_tx(dev);
        netdev_hw_destroy_rx(dev);
    }
    netdev_hw_close_device(dev);
}

/* Makes the provider-visible state of 'dev' 'configured' or not and tells
 * the provider: unconfigured, so that it removes what it created on the
 * RSS QPs; configured, so that it creates it again.  Releases 'dev->mutex'
 * around the notifier, because the provider holds its own lock while it
 * calls netdev_hw_rss_qp(). */
static void
netdev_hw_publish(struct netdev_hw *dev, bool configured)
    OVS_REQUIRES(dev->mutex)
{
    if (dev->configured != configured) {
        dev->configured = configured;
        if (reconfigure_cb) {
            ovs_mutex_unlock(&dev->mutex);
            reconfigure_cb(&dev->up, configured);
            ovs_mutex_lock(&dev->mutex);
        }
    }
}

/* Set-up. */

static int
netdev_hw_check_caps(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    const struct hw_dev_caps *caps = &dev->caps;

    if (!caps->flow_steering) {
        return netdev_hw_fail(dev, EOPNOTSUPP, "device %s has no managed "
                              "flow steering "
                              "(IBV_DEVICE_MANAGED_FLOW_STEERING): cannot "
                              "steer packets to the port's queues",
                              dev->devname);
    }
    if (!caps->raw_packet_qp) {
        return netdev_hw_fail(dev, EOPNOTSUPP, "device %s does not support "
                              "raw packet QPs (IBV_QPT_RAW_PACKET): cannot "
                              "receive or send Ethernet frames",
                              dev->devname);
    }
    if (caps->max_flow_priority < HW_PRIO_MISS_L3) {
        return netdev_hw_fail(dev, EOPNOTSUPP, "device %s has flow "
                              "priorities 0..%"PRIu16", the port needs "
                              "0..%d", dev->devname, caps->max_flow_priority,
                              HW_PRIO_MISS_L3);
    }
    if (caps->max_flow_specs < 3) {
        return netdev_hw_fail(dev, EOPNOTSUPP, "device %s accepts %"PRIu16
                              " specs per rule, the miss rules need 3",
                              dev->devname, caps->max_flow_specs);
    }
    if (caps->phys_port_cnt < NETDEV_HW_PORT_NUM) {
        return netdev_hw_fail(dev, ENODEV, "device %s has no port %d",
                              dev->devname, NETDEV_HW_PORT_NUM);
    }
    return 0;
}

static int
netdev_hw_open_device(struct netdev_hw *dev, const char *devname)
    OVS_REQUIRES(dev->mutex)
{
    const struct hw_dev_ops *ops = hw_dev_ops_find(devname);
    char *reason;
    int error;

    dev->devname = xstrdup(devname);
    if (!ops) {
        return netdev_hw_fail(dev, ENODEV, "device %s: no backend drives it",
                              devname);
    }
    dev->ops = ops;

    error = ops->open(devname, &dev->ctx);
    if (error) {
        dev->ctx = NULL;
        return netdev_hw_step_failed(dev, "open", error);
    }
    error = ops->query_caps(dev->ctx, &dev->caps);
    if (error) {
        return netdev_hw_step_failed(dev, "query_caps", error);
    }
    hw_privileges_check_dr(netdev_get_name(&dev->up), ops, &dev->caps);
    error = netdev_hw_check_caps(dev);
    if (error) {
        return error;
    }
    dev->representor = nullable_xstrdup(dev->req_representor);
    error = netdev_hw_eswitch_open(ops, dev->ctx, devname, dev->representor,
                                   &dev->esw, &reason);
    if (error) {
        netdev_hw_fail(dev, error, "%s", reason);
        free(reason);
        return error;
    }
    error = ops->alloc_pd(dev->ctx, &dev->pd);
    if (error) {
        dev->pd = NULL;
        return netdev_hw_step_failed(dev, "alloc_pd", error);
    }

    if (!dev->mac_set && !eth_addr_is_zero(dev->caps.mac)) {
        dev->mac = dev->caps.mac;
    }
    if (!dev->mtu_set && dev->caps.mtu >= NETDEV_HW_MTU_MIN
        && dev->caps.mtu <= NETDEV_HW_MTU_MAX) {
        dev->mtu = dev->caps.mtu;
    }
    return 0;
}

/* What the open device of 'dev' cannot do.  reconfigure() finds it when
 * the port is already torn down; set_config() asks first, so that a port
 * that runs on the device keeps running.  Each returns why, for the caller
 * to free, or NULL. */

static char *
netdev_hw_refuse_n_rxq(const struct netdev_hw *dev, int n_rxq)
    OVS_REQUIRES(dev->mutex)
{
    uint32_t log = log_2_ceil(n_rxq);

    if ((uint32_t) n_rxq > dev->caps.max_wqs) {
        return xasprintf("device %s: n_rxq %d exceeds the device's "
                         "%"PRIu32" receive work queues", dev->devname,
                         n_rxq, dev->caps.max_wqs);
    }
    if (log > dev->caps.max_rwq_ind_log) {
        return xasprintf("device %s: n_rxq %d needs an indirection table of "
                         "%"PRIuSIZE" entries, the device allows %llu",
                         dev->devname, n_rxq, (size_t) 1 << log,
                         1ULL << MIN(dev->caps.max_rwq_ind_log, 63));
    }
    return NULL;
}

static char *
netdev_hw_refuse_steering(const struct netdev_hw *dev,
                          enum netdev_hw_steering steering)
    OVS_REQUIRES(dev->mutex)
{
    if (steering == NETDEV_HW_STEERING_DR
        && (!(dev->caps.dr_domains & (1u << MLX5DV_DR_DOMAIN_TYPE_NIC_RX))
            || dev->caps.dr_max_level < NETDEV_HW_FLOW_LEVEL)) {
        return xasprintf("options:steering=dr: device %s has no pipeline "
                         "of tables (software steering) on receive",
                         dev->devname);
    }
    return NULL;
}

/* Fails the reconfiguration of 'dev' with 'error' for 'refusal', if
 * nonnull (and frees it); returns 0 otherwise. */
static int
netdev_hw_fail_refused(struct netdev_hw *dev, int error, char *refusal)
    OVS_REQUIRES(dev->mutex)
{
    if (!refusal) {
        return 0;
    }
    netdev_hw_fail(dev, error, "%s", refusal);
    free(refusal);
    return error;
}

static int
netdev_hw_build_rx(struct netdev_hw *dev, int n_rxq, const uint8_t *key)
    OVS_REQUIRES(dev->mutex)
{
    const struct hw_dev_ops *ops = dev->ops;
    uint32_t log = log_2_ceil(n_rxq);
    size_t n_entries = (size_t) 1 << log;
    int error;

    error = netdev_hw_fail_refused(dev, EINVAL,
                                   netdev_hw_refuse_n_rxq(dev, n_rxq));
    if (error) {
        return error;
    }
    for (int t = 0; t < HW_N_RSS_TYPES; t++) {
        uint64_t missing = rss_types[t].fields & ~dev->caps.rx_hash_fields;

        if (missing) {
            return netdev_hw_fail(dev, EOPNOTSUPP, "device %s cannot hash %s "
                                  "packets (unsupported hash fields 0x%"
                                  PRIx64")", dev->devname, rss_types[t].name,
                                  missing);
        }
    }

    /* One CQ and one WQ per queue. */
    dev->rxqs = xcalloc(n_rxq, sizeof *dev->rxqs);
    dev->n_rxq = n_rxq;
    for (int i = 0; i < n_rxq; i++) {
        struct netdev_hw_rxq_objs *q = &dev->rxqs[i];
        struct ibv_wq_init_attr wq_attr;
        struct ibv_wq_attr mod_attr;

        error = ops->create_cq(dev->ctx, NETDEV_HW_RXQ_SIZE, &q->cq);
        if (error) {
            q->cq = NULL;
            return netdev_hw_step_failed(dev, "create_cq", error);
        }

        memset(&wq_attr, 0, sizeof wq_attr);
        wq_attr.wq_type = IBV_WQT_RQ;
        wq_attr.max_wr = NETDEV_HW_RXQ_SIZE;
        wq_attr.max_sge = 1;
        wq_attr.pd = dev->pd;
        wq_attr.cq = ibv_cq_ex_to_cq(q->cq);
        error = ops->create_wq(dev->ctx, &wq_attr, &q->wq);
        if (error) {
            q->wq = NULL;
            return netdev_hw_step_failed(dev, "create_wq", error);
        }

        /* A new WQ is in RESET and receives nothing until RDY. */
        memset(&mod_attr, 0, sizeof mod_attr);
        mod_attr.attr_mask = IBV_WQ_ATTR_STATE;
        mod_attr.wq_state = IBV_WQS_RDY;
        error = ops->modify_wq(q->wq, &mod_attr);
        if (error) {
            return netdev_hw_step_failed(dev, "modify_wq", error);
        }
    }

    /* The indirection table: the hash's low 'log' bits index it, so with
     * a power-of-two table every queue appears equally often when n_rxq is
     * a power of two; otherwise the first queues repeat. */
    struct ibv_rwq_ind_table_init_attr ind_attr;

    dev->ind_log = log;
    dev->ind_wqs = xmalloc(n_entries * sizeof *dev->ind_wqs);
    dev->ind_queues = xmalloc(n_entries * sizeof *dev->ind_queues);
    for (size_t i = 0; i < n_entries; i++) {
        dev->ind_queues[i] = i % n_rxq;
        dev->ind_wqs[i] = dev->rxqs[i % n_rxq].wq;
    }
    memset(&ind_attr, 0, sizeof ind_attr);
    ind_attr.log_ind_tbl_size = log;
    ind_attr.ind_tbl = dev->ind_wqs;
    error = ops->create_rwq_ind_table(dev->ctx, &ind_attr, &dev->ind_tbl);
    if (error) {
        dev->ind_tbl = NULL;
        return netdev_hw_step_failed(dev, "create_rwq_ind_table", error);
    }

    /* One Toeplitz RSS QP per packet type. */
    memcpy(dev->rss_key, key, NETDEV_HW_RSS_KEY_LEN);
    for (int t = 0; t < HW_N_RSS_TYPES; t++) {
        struct ibv_qp_init_attr_ex qp_attr;

        memset(&qp_attr, 0, sizeof qp_attr);
        qp_attr.qp_type = IBV_QPT_RAW_PACKET;
        qp_attr.comp_mask = (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE
                             | IBV_QP_INIT_ATTR_RX_HASH);
        qp_attr.pd = dev->pd;
        qp_attr.rwq_ind_tbl = dev->ind_tbl;
        qp_attr.rx_hash_conf.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
        qp_attr.rx_hash_conf.rx_hash_key_len = NETDEV_HW_RSS_KEY_LEN;
        qp_attr.rx_hash_conf.rx_hash_key = dev->rss_key;
        qp_attr.rx_hash_conf.rx_hash_fields_mask = rss_types[t].fields;
        error = ops->create_qp(dev->ctx, &qp_attr, &dev->rss_qps[t]);
        if (error) {
            dev->rss_qps[t] = NULL;
            return netdev_hw_step_failed(dev, "create_qp", error);
        }
    }
    return 0;
}

static int
netdev_hw_build_tx(struct netdev_hw *dev, int n_txq)
    OVS_REQUIRES(dev->mutex)
{
    const struct hw_dev_ops *ops = dev->ops;
    int error;

    dev->txqs = xcalloc(n_txq, sizeof *dev->txqs);
    dev->n_txq = n_txq;
    for (int i = 0; i < n_txq; i++) {
        ovs_mutex_init(&dev->txqs[i].mutex);
    }

    for (int i = 0; i < n_txq; i++) {
        struct netdev_hw_txq *txq = &dev->txqs[i];
        struct ibv_qp_init_attr_ex qp_attr;

        error = ops->create_cq(dev->ctx, NETDEV_HW_TXQ_SIZE, &txq->cq);
        if (error) {
            txq->cq = NULL;
            return netdev_hw_step_failed(dev, "create_cq", error);
        }

        memset(&qp_attr, 0, sizeof qp_attr);
        qp_attr.qp_type = IBV_QPT_RAW_PACKET;
        qp_attr.send_cq = ibv_cq_ex_to_cq(txq->cq);
        qp_attr.recv_cq = ibv_cq_ex_to_cq(txq->cq);
        qp_attr.cap.max_send_wr = NETDEV_HW_TXQ_SIZE;
        qp_attr.cap.max_send_sge = 1;
        qp_attr.comp_mask = IBV_QP_INIT_ATTR_PD;
        qp_attr.pd = dev->pd;
        error = ops->create_qp(dev->ctx, &qp_attr, &txq->qp);
        if (error) {
            txq->qp = NULL;
            return netdev_hw_step_failed(dev, "create_qp", error);
        }
        /* A representor's sends go to its VF. */
        if (dev->esw.port_num > 1) {
            error = (ops->bind_qp_port
                     ? ops->bind_qp_port(txq->qp, dev->esw.port_num)
                     : EOPNOTSUPP);
            if (error) {
                return netdev_hw_step_failed(dev, "bind_qp_port", error);
            }
        }
    }
    return 0;
}

/* With options:steering=dr, the pipeline of tables the port's rules go
 * to. */
static int
netdev_hw_open_pipeline(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    struct netdev_hw_device device;
    int error;

    dev->steering = dev->req_steering;
    if (dev->esw.switchdev
        && dev->caps.dr_domains & (1u << MLX5DV_DR_DOMAIN_TYPE_FDB)
        && dev->caps.dr_max_level >= NETDEV_HW_FLOW_LEVEL) {
        /* The port's table in the e-switch, for full offload there. */
        netdev_hw_device_of(dev, &device);
        dev->fdb_pipeline = hw_pipeline_create(&device);
    }
    if (dev->steering == NETDEV_HW_STEERING_AUTO) {
        char *no_pipeline = netdev_hw_refuse_steering(
            dev, NETDEV_HW_STEERING_DR);

        if (!no_pipeline && !dev->representor) {
            /* The rules that need the mlx5 matcher go to the pipeline's
             * flow table, the others to the root (hw-offload-guards.c).
             * A representor's rules go to the root, where the kernel
             * matches them on the VF's vport. */
            netdev_hw_device_of(dev, &device);
            dev->pipeline = hw_pipeline_create(&device);
        }
        free(no_pipeline);
        return 0;
    }
    if (dev->steering != NETDEV_HW_STEERING_DR) {
        return 0;
    }
    if (dev->representor) {
        return netdev_hw_fail(dev, EOPNOTSUPP, "options:steering=dr: the "
                              "rules of representor %s go to the root "
                              "table (steering=verbs or auto)",
                              dev->representor);
    }
    error = netdev_hw_fail_refused(dev, EOPNOTSUPP,
                                   netdev_hw_refuse_steering(dev,
                                                             dev->steering));
    if (error) {
        return error;
    }
    netdev_hw_device_of(dev, &device);
    dev->pipeline = hw_pipeline_create(&device);
    return 0;
}

static int
netdev_hw_build_miss_rules(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    struct netdev_hw_device device;
    const char *step = NULL;
    int error;

    netdev_hw_device_of(dev, &device);
    error = netdev_hw_base_build(&device, dev->rss_qps, &dev->base, &step);
    return error ? netdev_hw_step_failed(dev, step, error) : 0;
}

/* Gets the receive side of 'dev' ready to be destroyed: removes the
 * provider's rules (the notifier), then the base rules.  The device refuses
 * to destroy a QP that a rule delivers to (EBUSY), so if it refused to
 * destroy one of those rules (hw-stale.h), puts back what was removed and
 * returns false: the receive side, and the port's configuration, must stay
 * until a retry destroys that rule. */
static bool
netdev_hw_release_rx(struct netdev_hw *dev)
    OVS_REQUIRES(dev->mutex)
{
    if (!dev->configured) {
        return true;
    }
    if (hw_stale_retry(dev->devname)) {
        return false;
    }
    netdev_hw_publish(dev, false);
    if (!hw_stale_count(dev->devname)) {
        netdev_hw_destroy_miss_rules(dev);
        if (!hw_stale_count(dev->devname)
            || netdev_hw_build_miss_rules(dev)) {
            /* Without its miss rules the port cannot stay as it was: go
             * on, and lose the QPs in use to the device (logged). */
            return true;
        }
    }
    netdev_hw_publish(dev, true);
    return false;
}

/* netdev class callbacks. */

static struct netdev *
netdev_hw_alloc(void)
{
    struct netdev_hw *dev = xzalloc(sizeof *dev);

    return &dev->up;
}

static int
netdev_hw_construct(struct netdev *netdev)
{
    struct netdev_hw *dev = CONTAINER_OF(netdev, struct netdev_hw, up);

    ovs_mutex_init(&dev->mutex);
    dev->req_device = NULL;
    dev->req_n_rxq = 1;
    dev->req_n_txq = MAX(netdev->n_txq, 1);
    dev->req_rss_key_set = false;
    dev->req_steering = NETDEV_HW_STEERING_AUTO;
    dev->req_ct_size = -1;
    memcpy(dev->req_rss_key, hw_toeplitz_default_key,
           NETDEV_HW_RSS_KEY_LEN);
    dev->mtu = ETH_PAYLOAD_MAX;
    dev->mtu_set = false;
    dev->mac = eth_addr_zero;
    dev->mac_set = false;
    dev->flags = NETDEV_UP;
    dev->configured = false;
    dev->max_frame_len = netdev_hw_frame_len(dev->mtu);
    atomic_init(&dev->rx_packets, 0);
    atomic_init(&dev->rx_bytes, 0);
    atomic_init(&dev->rx_errors, 0);
    atomic_init(&dev->rx_dropped, 0);
    atomic_init(&dev->tx_packets, 0);
    atomic_init(&dev->tx_bytes, 0);
    atomic_init(&dev->tx_dropped, 0);
    dev->qos = netdev_hw_qos_create();
    return 0;
}

static void
netdev_hw_destruct(struct netdev *netdev)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    /* No notifier here: OVS calls the provider's uninit_flow_api before
     * destruct, and the netdev is no longer usable by anyone. */
    ovs_mutex_lock(&dev->mutex);
    dev->configured = false;
    netdev_hw_teardown(dev);
    free(dev->req_device);
    dev->req_device = NULL;
    free(dev->req_representor);
    dev->req_representor = NULL;
    free(dev->fail_reason);
    dev->fail_reason = NULL;
    free(dev->config_warning);
    dev->config_warning = NULL;
    ovs_mutex_unlock(&dev->mutex);
    ovs_mutex_destroy(&dev->mutex);
    netdev_hw_qos_destroy(dev->qos);
    netdev_hw_ports_release(netdev_get_name(netdev));
}

static void
netdev_hw_dealloc(struct netdev *netdev)
{
    free(netdev_hw_cast(netdev));
}

static int
netdev_hw_get_config(const struct netdev *netdev, struct smap *args)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    if (dev->req_device) {
        smap_add(args, "device", dev->req_device);
    }
    if (dev->req_representor) {
        smap_add(args, "representor", dev->req_representor);
    }
    smap_add_format(args, "n_rxq", "%d", dev->req_n_rxq);
    if (dev->req_ct_size >= 0) {
        smap_add_format(args, "ct-size", "%d", dev->req_ct_size);
    }
    if (dev->req_steering != NETDEV_HW_STEERING_AUTO) {
        smap_add(args, "steering",
                 netdev_hw_steering_name(dev->req_steering));
    }
    if (dev->req_rss_key_set) {
        struct ds key = DS_EMPTY_INITIALIZER;

        netdev_hw_format_key(&key, dev->req_rss_key);
        smap_add(args, "rss-key", ds_cstr(&key));
        ds_destroy(&key);
    }
    smap_add_format(args, "configured_rx_queues", "%d", netdev->n_rxq);
    smap_add_format(args, "requested_tx_queues", "%d", dev->req_n_txq);
    smap_add_format(args, "configured_tx_queues", "%d", netdev->n_txq);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

/* Logs 'warning', about the options set_config() was given, unless it is
 * the one logged for the options before (vswitchd calls set_config() at
 * each of its reconfigurations), and hands it to '*errp': vswitchd shows
 * it in the Interface's "error" column (vswitchd-patches/0006).  A null
 * 'warning' forgets the one before. */
static void
netdev_hw_config_warn(struct netdev_hw *dev, char *warning, char **errp)
    OVS_REQUIRES(dev->mutex)
{
    static struct vlog_rate_limit warn_rl = VLOG_RATE_LIMIT_INIT(5, 20);

    if (!nullable_string_is_equal(warning, dev->config_warning)) {
        if (warning) {
            VLOG_WARN_RL(&warn_rl, "%s", warning);
        }
        free(dev->config_warning);
        dev->config_warning = nullable_xstrdup(warning);
    }
    if (warning && errp) {
        *errp = warning;
    } else {
        free(warning);
    }
}

static int
netdev_hw_set_config(struct netdev *netdev, const struct smap *args,
                     char **errp)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);
    const char *name = netdev_get_name(netdev);
    struct netdev_hw_options opts;
    bool logged = false;
    bool waiting = false;
    char *reason = NULL;
    int error;

    /* Check everything before changing anything. */
    error = netdev_hw_check_options(name, args, &opts, &reason);
    if (!error) {
        char *config = netdev_hw_config_string(opts.device, opts.representor,
                                               opts.n_rxq, opts.key,
                                               opts.steering);

        /* Both log their refusals themselves. */
        logged = true;
        error = netdev_hw_ports_check_retry(name, config, &reason);
        waiting = error != 0;
        if (!error) {
            error = netdev_hw_ports_claim(name, opts.ops, opts.device,
                                          opts.representor, &reason);
        }
        free(config);
    }

    ovs_mutex_lock(&dev->mutex);
    if (!error && dev->configured && !strcmp(dev->devname, opts.device)
        && nullable_string_is_equal(dev->representor, opts.representor)) {
        /* What the device cannot do, reconfigure() would find with the port
         * torn down: out of the datapath. */
        char *refusal = netdev_hw_refuse_steering(dev, opts.steering);

        if (!refusal) {
            refusal = netdev_hw_refuse_n_rxq(dev, opts.n_rxq);
        }
        if (refusal) {
            reason = xasprintf("%s: %s", name, refusal);
            free(refusal);
            error = EINVAL;
        }
    }
    if (error && !waiting && dev->req_device) {
        /* vswitchd deletes an interface whose set_config() fails, which
         * would take a running port out of the datapath for a bad value:
         * the port goes on with the options it has, and warns. */
        netdev_hw_config_warn(dev, xasprintf("%s; the port keeps its "
                                             "previous configuration",
                                             reason), errp);
        ovs_mutex_unlock(&dev->mutex);
        free(reason);
        return 0;
    }
    if (error) {
        /* A new port is refused, and vswitchd tries it again at each of
         * its reconfigurations. */
        ovs_mutex_unlock(&dev->mutex);
        if (!logged) {
            VLOG_WARN("%s", reason);
        }
        if (errp) {
            *errp = reason;
        } else {
            free(reason);
        }
        return error;
    }

    if (!dev->req_device || strcmp(dev->req_device, opts.device)
        || !nullable_string_is_equal(dev->req_representor,
                                     opts.representor)
        || dev->req_n_rxq != opts.n_rxq
        || dev->req_steering != opts.steering
        || memcmp(dev->req_rss_key, opts.key, NETDEV_HW_RSS_KEY_LEN)) {
        free(dev->req_device);
        dev->req_steering = opts.steering;
        dev->req_device = xstrdup(opts.device);
        free(dev->req_representor);
        dev->req_representor = nullable_xstrdup(opts.representor);
        dev->req_n_rxq = opts.n_rxq;
        memcpy(dev->req_rss_key, opts.key, NETDEV_HW_RSS_KEY_LEN);
        netdev_request_reconfigure(netdev);
    }
    dev->req_rss_key_set = opts.key_set;
    dev->req_ct_size = opts.ct_size;
    netdev_hw_config_warn(dev, netdev_hw_unknown_options(name, args), errp);
    ovs_mutex_unlock(&dev->mutex);
    hw_ct_set_port_size(name, opts.ct_size);
    return 0;
}

static int
netdev_hw_get_numa_id(const struct netdev *netdev OVS_UNUSED)
{
    /* The backends do not report the device's NUMA node. */
    return 0;
}

static int
netdev_hw_set_tx_multiq(struct netdev *netdev, unsigned int n_txq)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    if (n_txq < 1 || n_txq > NETDEV_HW_MAX_TXQ) {
        return EINVAL;
    }
    ovs_mutex_lock(&dev->mutex);
    if (dev->req_n_txq != (int) n_txq) {
        dev->req_n_txq = n_txq;
        netdev_request_reconfigure(netdev);
    }
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_reconfigure(struct netdev *netdev)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);
    bool reopen, rebuild_rx, rebuild_tx, notify;
    int error = 0;

    ovs_mutex_lock(&dev->mutex);

    /* OVS sizes the port's queue arrays from these after we return, even on
     * error (the port is then removed from the datapath). */
    netdev->n_rxq = dev->req_n_rxq;
    netdev->n_txq = dev->req_n_txq;
    dev->max_frame_len = netdev_hw_frame_len(dev->mtu);

    free(dev->fail_reason);
    dev->fail_reason = NULL;
    if (!dev->req_device) {
        error = netdev_hw_fail(dev, EINVAL, "options:device is not set");
        goto error;
    }

    reopen = (!dev->ops || strcmp(dev->devname, dev->req_device)
              || !nullable_string_is_equal(dev->representor,
                                           dev->req_representor)
              || dev->steering != dev->req_steering || dev->reset);
    rebuild_rx = (reopen || !dev->configured
                  || dev->n_rxq != dev->req_n_rxq
                  || memcmp(dev->rss_key, dev->req_rss_key,
                            NETDEV_HW_RSS_KEY_LEN));
    rebuild_tx = reopen || !dev->configured || dev->n_txq != dev->req_n_txq;
    if (!rebuild_rx && !rebuild_tx) {
        /* Back to what it has: a deferred request is void. */
        dev->deferred = false;
        ovs_mutex_unlock(&dev->mutex);
        return 0;
    }

    /* The TX queues are invisible to the provider; the RSS QPs are not. */
    if (rebuild_rx && !netdev_hw_release_rx(dev)) {
        size_t n_stale = hw_stale_count(dev->devname);
        char *devname = xstrdup(dev->devname);

        /* The port goes on with what it has: OVS reads these back. */
        netdev->n_rxq = dev->n_rxq;
        netdev->n_txq = dev->n_txq;
        dev->deferred = true;
        ovs_mutex_unlock(&dev->mutex);

        /* Asks for the reconfiguration again once the rules are gone. */
        netdev_hw_ports_deferred(netdev_get_name(netdev), devname, n_stale);
        free(devname);
        return 0;
    }

    if (reopen) {
        bool wait = netdev_hw_reset_wait_others(dev);

        netdev_hw_teardown(dev);
        if (wait) {
            ovs_mutex_unlock(&dev->mutex);
            return 0;
        }
        error = netdev_hw_open_device(dev, dev->req_device);
        if (!error) {
            error = netdev_hw_open_pipeline(dev);
        }
        if (error) {
            goto error;
        }
        /* The device may have changed the MTU: apply it now. */
        dev->max_frame_len = netdev_hw_frame_len(dev->mtu);
    } else {
        if (rebuild_rx) {
            netdev_hw_destroy_rx(dev);
        }
        if (rebuild_tx) {
            netdev_hw_destroy_tx(dev);
        }
    }

    if (rebuild_rx) {
        error = netdev_hw_build_rx(dev, dev->req_n_rxq, dev->req_rss_key);
        if (error) {
            goto error;
        }
    }
    if (rebuild_tx) {
        error = netdev_hw_build_tx(dev, dev->req_n_txq);
        if (error) {
            goto error;
        }
    }
    if (rebuild_rx) {
        error = netdev_hw_build_miss_rules(dev);
        if (error) {
            goto error;
        }
    }

    notify = !dev->configured;
    dev->configured = true;
    dev->deferred = false;
    VLOG_DBG("hw port %s: device %s (%s): %d rx queues, %d tx queues, "
             "%d miss rules, %s steering", netdev_get_name(netdev),
             dev->devname, dev->ops->name, dev->n_rxq, dev->n_txq,
             netdev_hw_base_n_rules(dev->base),
             netdev_hw_steering_name(dev->steering));
    netdev_change_seq_changed(netdev);
    ovs_mutex_unlock(&dev->mutex);

    netdev_hw_ports_configured(netdev_get_name(netdev));
    if (!netdev_hw_reset_done(dev, notify ? reconfigure_cb : NULL)
        && notify && reconfigure_cb) {
        reconfigure_cb(netdev, true);
    }
    return 0;

error:
    /* All or nothing: the port is left without device objects. */
    COVERAGE_INC(netdev_hw_reconfigure_error);
    netdev_hw_publish(dev, false);
    netdev_hw_teardown(dev);
    netdev_change_seq_changed(netdev);
    char *config = netdev_hw_config_string(dev->req_device,
                                           dev->req_representor,
                                           dev->req_n_rxq, dev->req_rss_key,
                                           dev->req_steering);
    char *reason = dev->fail_reason;
    dev->fail_reason = NULL;
    ovs_mutex_unlock(&dev->mutex);

    /* dpif-netdev removes the port from the datapath: have it retried. */
    netdev_hw_ports_failed(netdev_get_name(netdev), config, error,
                           reason ? reason : ovs_strerror(error));
    free(reason);
    free(config);
    return error;
}

static int
netdev_hw_set_etheraddr(struct netdev *netdev, const struct eth_addr mac)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    dev->mac_set = true;
    if (!eth_addr_equals(dev->mac, mac)) {
        dev->mac = mac;
        netdev_change_seq_changed(netdev);
    }
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_get_etheraddr(const struct netdev *netdev, struct eth_addr *mac)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    *mac = dev->mac;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_get_mtu(const struct netdev *netdev, int *mtup)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    *mtup = dev->mtu;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_set_mtu(struct netdev *netdev, int mtu)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    if (mtu < NETDEV_HW_MTU_MIN || mtu > NETDEV_HW_MTU_MAX) {
        VLOG_WARN_RL(&rl, "hw port %s: MTU %d is outside %d..%d",
                     netdev_get_name(netdev), mtu, NETDEV_HW_MTU_MIN,
                     NETDEV_HW_MTU_MAX);
        return EINVAL;
    }

    ovs_mutex_lock(&dev->mutex);
    dev->mtu_set = true;
    if (dev->mtu != mtu) {
        /* send() reads the frame limit without a lock: it changes in
         * reconfigure(), with the PMD threads stopped. */
        dev->mtu = mtu;
        netdev_request_reconfigure(netdev);
        netdev_change_seq_changed(netdev);
    }
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_get_ifindex(const struct netdev *netdev OVS_UNUSED)
{
    /* No kernel interface: this also keeps linux_tc from claiming the port
     * for flow offload. */
    return -EOPNOTSUPP;
}

static int
netdev_hw_get_carrier(const struct netdev *netdev, bool *carrier)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    *carrier = dev->configured;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_get_stats(const struct netdev *netdev, struct netdev_stats *stats)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    atomic_read_relaxed(&dev->rx_packets, &stats->rx_packets);
    atomic_read_relaxed(&dev->rx_bytes, &stats->rx_bytes);
    atomic_read_relaxed(&dev->rx_errors, &stats->rx_errors);
    atomic_read_relaxed(&dev->tx_packets, &stats->tx_packets);
    atomic_read_relaxed(&dev->tx_bytes, &stats->tx_bytes);
    atomic_read_relaxed(&dev->tx_dropped, &stats->tx_dropped);
    /* Packets the device drops on receive are counted by the device, not
     * by the port: the port counts those of its ingress policer. */
    atomic_read_relaxed(&dev->rx_dropped, &stats->rx_dropped);
    stats->tx_errors = 0;
    return 0;
}

static int
netdev_hw_get_status(const struct netdev *netdev, struct smap *smap)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    smap_add(smap, "device", netdev_hw_devname(dev));
    smap_add(smap, "configured", dev->configured ? "true" : "false");
    if (dev->configured) {
        struct ds key = DS_EMPTY_INITIALIZER;

        smap_add(smap, "backend", dev->ops->name);
        smap_add(smap, "firmware_version", dev->caps.fw_ver);
        smap_add_format(smap, "n_rxq", "%d", dev->n_rxq);
        smap_add_format(smap, "n_txq", "%d", dev->n_txq);
        netdev_hw_format_key(&key, dev->rss_key);
        smap_add(smap, "rss_key", ds_cstr(&key));
        ds_destroy(&key);
    }
    netdev_hw_qos_get_status(dev->qos, smap);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static int
netdev_hw_update_flags(struct netdev *netdev, enum netdev_flags off,
                       enum netdev_flags on, enum netdev_flags *old_flagsp)
{
    struct netdev_hw *dev = netdev_hw_cast(netdev);

    /* No logging: this may run in a signal handler. */
    if ((off | on) & ~(NETDEV_UP | NETDEV_PROMISC)) {
        return EINVAL;
    }

    ovs_mutex_lock(&dev->mutex);
    *old_flagsp = dev->flags;
    dev->flags = (dev->flags | on) & ~off;
    if (*old_flagsp != dev->flags) {
        netdev_change_seq_changed(netdev);
    }
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

static struct netdev_rxq *
netdev_hw_rxq_alloc(void)
{
    struct netdev_rxq_hw *rx = xzalloc(sizeof *rx);

    return &rx->up;
}

static int
netdev_hw_rxq_construct(struct netdev_rxq *rxq OVS_UNUSED)
{
    return 0;
}

static void
netdev_hw_rxq_destruct(struct netdev_rxq *rxq OVS_UNUSED)
{
}

static void
netdev_hw_rxq_dealloc(struct netdev_rxq *rxq)
{
    free(CONTAINER_OF(rxq, struct netdev_rxq_hw, up));
}

/* The class's run() and wait().  The periodic retry of stale rules comes
 * first, so that a port whose reconfiguration waits for them is asked to
 * reconfigure in the same pass.  The main thread also takes the offload
 * threads' coverage counts (hw-coverage.h). */
static void
netdev_hw_run(const struct netdev_class *class)
{
    hw_stale_run();
    netdev_hw_reset_run(class);
    netdev_hw_ports_run(class);
    hw_coverage_run();
}

static void
netdev_hw_wait(const struct netdev_class *class)
{
    hw_stale_wait();
    netdev_hw_reset_wait(class);
    netdev_hw_ports_wait(class);
    hw_coverage_wait();
}

static const struct netdev_class netdev_hw_class = {
    .type = "hw",
    .is_pmd = true,
    .run = netdev_hw_run,
    .wait = netdev_hw_wait,
    .alloc = netdev_hw_alloc,
    .construct = netdev_hw_construct,
    .destruct = netdev_hw_destruct,
    .dealloc = netdev_hw_dealloc,
    .get_config = netdev_hw_get_config,
    .set_config = netdev_hw_set_config,
    .get_numa_id = netdev_hw_get_numa_id,
    .set_tx_multiq = netdev_hw_set_tx_multiq,
    .send = netdev_hw_send,
    .set_etheraddr = netdev_hw_set_etheraddr,
    .get_etheraddr = netdev_hw_get_etheraddr,
    .get_mtu = netdev_hw_get_mtu,
    .set_mtu = netdev_hw_set_mtu,
    .get_ifindex = netdev_hw_get_ifindex,
    .get_carrier = netdev_hw_get_carrier,
    .get_stats = netdev_hw_get_stats,
    .get_status = netdev_hw_get_status,
    .update_flags = netdev_hw_update_flags,
    .set_policing = netdev_hw_set_policing,
    .get_qos_types = netdev_hw_get_qos_types,
    .get_qos = netdev_hw_get_qos,
    .set_qos = netdev_hw_set_qos,
    .get_queue = netdev_hw_get_queue,
    .set_queue = netdev_hw_set_queue,
    .delete_queue = netdev_hw_delete_queue,
    .get_queue_stats = netdev_hw_get_queue_stats,
    .queue_dump_start = netdev_hw_queue_dump_start,
    .queue_dump_next = netdev_hw_queue_dump_next,
    .queue_dump_done = netdev_hw_queue_dump_done,
    .reconfigure = netdev_hw_reconfigure,
    .rxq_alloc = netdev_hw_rxq_alloc,
    .rxq_construct = netdev_hw_rxq_construct,
    .rxq_destruct = netdev_hw_rxq_destruct,
    .rxq_dealloc = netdev_hw_rxq_dealloc,
    .rxq_recv = netdev_hw_rxq_recv,
    .rxq_wait = netdev_hw_rxq_wait,
    .rxq_drain = netdev_hw_rxq_drain,
};

/* Public functions. */

void
netdev_hw_register_class(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        netdev_register_provider(&netdev_hw_class);
        ovsthread_once_done(&once);
    }
}

void
netdev_hw_set_reconfigure_cb(netdev_hw_reconfigure_cb *cb)
{
    reconfigure_cb = cb;
}

bool
netdev_is_hw(const struct netdev *netdev)
{
    return is_netdev_hw_class(netdev_get_class(netdev));
}

bool
netdev_hw_get_device(const struct netdev *netdev,
                     struct netdev_hw_device *device)
{
    return netdev_hw_get_device_rss(netdev, HW_N_RSS_TYPES, device, NULL);
}

bool
netdev_hw_get_device_rss(const struct netdev *netdev, enum hw_rss_type type,
                         struct netdev_hw_device *device,
                         struct ibv_qp **qpp)
{
    struct netdev_hw *dev;
    bool ok;

    if (!netdev_is_hw(netdev)) {
        return false;
    }
    dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    ok = dev->configured;
    if (ok) {
        netdev_hw_device_of(dev, device);
        if (qpp) {
            *qpp = ((int) type >= 0 && type < HW_N_RSS_TYPES
                    ? dev->rss_qps[type] : NULL);
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    return ok;
}

void
netdev_hw_format(const struct netdev *netdev, struct ds *ds)
{
    struct netdev_hw *dev;

    if (!netdev_is_hw(netdev)) {
        ds_put_format(ds, "%s: not a hw port\n", netdev_get_name(netdev));
        return;
    }
    dev = netdev_hw_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    if (!dev->configured) {
        ds_put_format(ds, "device %s: not configured (requested n_rxq %d)\n",
                      netdev_hw_devname(dev), dev->req_n_rxq);
        ovs_mutex_unlock(&dev->mutex);
        return;
    }

    const struct hw_dev_caps *caps = &dev->caps;
    size_t n_entries = (size_t) 1 << dev->ind_log;

    ds_put_format(ds, "device %s: backend %s, firmware %s, port %d, "
                  "mac "ETH_ADDR_FMT", mtu %d\n",
                  dev->devname, dev->ops->name,
                  caps->fw_ver[0] ? caps->fw_ver : "unknown",
                  (int) dev->esw.port_num, ETH_ADDR_ARGS(dev->mac), dev->mtu);
    netdev_hw_eswitch_format(&dev->esw, dev->representor, ds);

    ds_put_format(ds, "  caps: priorities 0-%"PRIu16", specs %"PRIu16
                  ", rules/priority %"PRIu32", counters %s, rx wqs %"PRIu32
                  ", ind table max %llu, hash fields ",
                  caps->max_flow_priority, caps->max_flow_specs,
                  caps->max_rules, caps->counters ? "yes" : "no",
                  caps->max_wqs, 1ULL << MIN(caps->max_rwq_ind_log, 63));
    netdev_hw_format_hash_fields(ds, caps->rx_hash_fields);
    ds_put_cstr(ds, ", reformat ");
    netdev_hw_format_reformat_types(ds, caps->reformat_types);
    ds_put_format(ds, " (encap header max %"PRIu32")\n",
                  caps->max_encap_header);

    ds_put_format(ds, "  queues: rx %d, tx %d\n", dev->n_rxq, dev->n_txq);
    if (dev->deferred) {
        ds_put_format(ds, "  reconfiguration deferred: rx %d, tx %d "
                      "requested, waiting for stale rules\n",
                      dev->req_n_rxq, dev->req_n_txq);
    }

    ds_put_format(ds, "  indirection table (%"PRIuSIZE" entries): ",
                  n_entries);
    netdev_hw_format_ind_table(ds, dev->ind_queues, n_entries);
    ds_put_cstr(ds, "\n");

    ds_put_cstr(ds, "  rss key: ");
    netdev_hw_format_key(ds, dev->rss_key);
    ds_put_cstr(ds, "\n");

    for (int t = 0; t < HW_N_RSS_TYPES; t++) {
        ds_put_format(ds, "  rss qp %s: toeplitz ", rss_types[t].name);
        netdev_hw_format_hash_fields(ds, rss_types[t].fields);
        ds_put_cstr(ds, "\n");
    }

    netdev_hw_base_format(dev->base, ds);
    ovs_mutex_unlock(&dev->mutex);
}
