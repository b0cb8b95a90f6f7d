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
#include "hw-hbl.h"

#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmap.h"
#include "coverage.h"
#include "dp-packet.h"
#include "hash.h"
#include "hw-dev.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "packets.h"
#include "random.h"
#include "util.h"
#ifdef HAVE_HW_RDMA
#include "hw-rdma.h"
#endif

VLOG_DEFINE_THIS_MODULE(hw_hbl);

COVERAGE_DEFINE(hw_hbl_tx);
COVERAGE_DEFINE(hw_hbl_tx_drop);

/* Send queue size of an hbl encapsulation queue. */
#define HBL_TXQ_SIZE 1024

/* Longest tnl_push header a queue keeps: Ethernet, IPv4 with options, UDP
 * and the largest tunnel header. */
#define HBL_MAX_HEADER (ETH_HEADER_LEN + 60 + UDP_HEADER_LEN \
                        + HW_HBL_MAX_TNL_HDR)

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* libhbl.so.1. */

static void *
hbl_sym(void *handle, const char *name)
{
    return dlvsym(handle, name, HBLDV_SYMBOL_VERSION);
}

int
hw_hbl_lib_open(const char *file_name, struct hw_hbl_lib *lib, char **errorp)
{
    const char *name = file_name ? file_name : HBLDV_LIBRARY;
    const char *missing = NULL;
    void *handle;
    void *sym;

    memset(lib, 0, sizeof *lib);
    *errorp = NULL;

    dlerror();
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *msg = dlerror();

        *errorp = xasprintf("%s: %s", name, msg ? msg : "cannot be loaded");
        return ENOENT;
    }

    /* dlvsym() returns an object pointer; POSIX guarantees that it converts
     * to the function pointer it names. */
    sym = hbl_sym(handle, "hbldv_create_encap");
    lib->create_encap = (hbldv_create_encap_func *) sym;
    sym = hbl_sym(handle, "hbldv_destroy_encap");
    lib->destroy_encap = (hbldv_destroy_encap_func *) sym;
    sym = hbl_sym(handle, "hbldv_modify_qp");
    lib->modify_qp = (hbldv_modify_qp_func *) sym;
    sym = hbl_sym(handle, "hbldv_is_supported");
    lib->is_supported = (hbldv_is_supported_func *) sym;
    sym = hbl_sym(handle, "hbldv_query_port");
    lib->query_port = (hbldv_query_port_func *) sym;

    if (!lib->create_encap) {
        missing = "hbldv_create_encap";
    } else if (!lib->destroy_encap) {
        missing = "hbldv_destroy_encap";
    } else if (!lib->modify_qp) {
        missing = "hbldv_modify_qp";
    }
    if (missing) {
        *errorp = xasprintf("%s: no symbol %s@%s", name, missing,
                            HBLDV_SYMBOL_VERSION);
        dlclose(handle);
        memset(lib, 0, sizeof *lib);
        return ENOSYS;
    }
    lib->handle = handle;
    return 0;
}

void
hw_hbl_lib_close(struct hw_hbl_lib *lib)
{
    if (lib && lib->handle) {
        dlclose(lib->handle);
    }
    if (lib) {
        memset(lib, 0, sizeof *lib);
    }
}

const struct hw_hbl_lib *
hw_hbl_lib_get(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static struct hw_hbl_lib lib;
    static bool loaded;

    if (ovsthread_once_start(&once)) {
        char *error;

        loaded = !hw_hbl_lib_open(NULL, &lib, &error);
        if (loaded) {
            VLOG_INFO("%s loaded: hbl per-QP tunnel encapsulation on",
                      HBLDV_LIBRARY);
        } else {
            VLOG_INFO("%s: hbl per-QP tunnel encapsulation off", error);
            free(error);
        }
        ovsthread_once_done(&once);
    }
    return loaded ? &lib : NULL;
}

/* Byte order. */

static atomic_uint hbl_byte_order = ATOMIC_VAR_INIT(HW_HBL_ORDER_NETWORK);

void
hw_hbl_set_byte_order(enum hw_hbl_byte_order order)
{
    atomic_store_relaxed(&hbl_byte_order, order);
}

enum hw_hbl_byte_order
hw_hbl_get_byte_order(void)
{
    unsigned int order;

    atomic_read_relaxed(&hbl_byte_order, &order);
    return order;
}

/* Encapsulation specs. */

static int OVS_PRINTF_FORMAT(2, 3)
hbl_refuse(struct ds *reason, const char *format, ...)
{
    if (reason) {
        va_list args;

        va_start(args, format);
        ds_put_format_valist(reason, format, args);
        va_end(args);
    }
    return EOPNOTSUPP;
}

int
hw_hbl_encap_spec_from_header(const void *header, size_t len,
                              struct hw_hbl_encap_spec *spec,
                              struct ds *reason)
{
    const uint8_t *h = header;
    struct eth_header eth;
    struct ip_header ip;
    size_t ihl, ofs;

    memset(spec, 0, sizeof *spec);
    if (len < ETH_HEADER_LEN + IP_HEADER_LEN) {
        return hbl_refuse(reason, "hbl: tunnel header of %"PRIuSIZE" bytes "
                          "too short", len);
    }
    memcpy(&eth, h, sizeof eth);
    if (eth.eth_type == htons(ETH_TYPE_IPV6)) {
        return hbl_refuse(reason, "hbl: the NIC encapsulates over IPv4 "
                          "only, not IPv6");
    }
    if (eth.eth_type != htons(ETH_TYPE_IP)) {
        return hbl_refuse(reason, "hbl: outer ethertype %#06"PRIx16" not "
                          "supported", ntohs(eth.eth_type));
    }

    memcpy(&ip, h + ETH_HEADER_LEN, sizeof ip);
    ihl = IP_IHL(ip.ip_ihl_ver) * 4;
    if (IP_VER(ip.ip_ihl_ver) != 4 || ihl < IP_HEADER_LEN
        || ETH_HEADER_LEN + ihl > len) {
        return hbl_refuse(reason, "hbl: malformed outer IPv4 header");
    }
    ofs = ETH_HEADER_LEN + ihl;
    spec->head_len = ofs;
    spec->ipv4_src = get_16aligned_be32(&ip.ip_src);

    if (ip.ip_proto == IPPROTO_UDP) {
        struct udp_header udp;

        if (len < ofs + UDP_HEADER_LEN) {
            return hbl_refuse(reason, "hbl: outer UDP header truncated");
        }
        memcpy(&udp, h + ofs, sizeof udp);
        if (udp.udp_csum) {
            return hbl_refuse(reason, "hbl: outer UDP checksum not "
                              "supported: the NIC does not compute it");
        }
        spec->type = HBLDV_ENCAP_TYPE_ENC_OVER_UDP;
        spec->udp_dst = udp.udp_dst;
        ofs += UDP_HEADER_LEN;
        spec->nic_len = UDP_HEADER_LEN;
    } else {
        if (ip.ip_proto == IPPROTO_GRE) {
            struct gre_base_hdr gre;
            uint16_t flags;

            if (len < ofs + sizeof gre) {
                return hbl_refuse(reason, "hbl: GRE header truncated");
            }
            memcpy(&gre, h + ofs, sizeof gre);
            flags = ntohs(gre.flags);
            if (flags & (GRE_CSUM | GRE_SEQ)) {
                return hbl_refuse(reason, "hbl: GRE %s not supported: the "
                                  "NIC does not compute it",
                                  flags & GRE_CSUM ? "checksum"
                                                   : "sequence number");
            }
        }
        spec->type = HBLDV_ENCAP_TYPE_ENC_OVER_IPV4;
        spec->ip_proto = ip.ip_proto;
    }

    spec->tnl_hdr_len = len - ofs;
    if (spec->tnl_hdr_len > HW_HBL_MAX_TNL_HDR) {
        return hbl_refuse(reason, "hbl: tunnel header of %"PRIuSIZE" bytes "
                          "above the NIC's limit of %d", spec->tnl_hdr_len,
                          HW_HBL_MAX_TNL_HDR);
    }
    memcpy(spec->tnl_hdr, h + ofs, spec->tnl_hdr_len);
    spec->nic_len += spec->tnl_hdr_len;
    return 0;
}

void
hw_hbl_encap_attr_init(const struct hw_hbl_encap_spec *spec,
                       uint32_t port_num, enum hw_hbl_byte_order order,
                       struct hbldv_encap_attr *attr)
{
    bool host = order == HW_HBL_ORDER_HOST;

    memset(attr, 0, sizeof *attr);
    attr->tnl_hdr_ptr = (uintptr_t) spec->tnl_hdr;
    attr->tnl_hdr_size = spec->tnl_hdr_len;
    attr->ipv4_addr = (host
                       ? ntohl(spec->ipv4_src)
                       : (OVS_FORCE uint32_t) spec->ipv4_src);
    attr->port_num = port_num;
    attr->encap_type = spec->type;
    if (spec->type == HBLDV_ENCAP_TYPE_ENC_OVER_UDP) {
        attr->udp_dst_port = (host
                              ? ntohs(spec->udp_dst)
                              : (OVS_FORCE uint16_t) spec->udp_dst);
    } else {
        attr->ip_proto = spec->ip_proto;
    }
}

int
hw_hbl_qp_set_encap(const struct hw_dev_ops *ops, struct ibv_qp *qp,
                    const struct hbldv_encap *encap)
{
    struct hbldv_qp_attr hbl_attr;
    struct ibv_qp_attr attr;

    if (!ops->hbl_modify_qp) {
        return EOPNOTSUPP;
    }
    if (encap && encap->encap_num > UINT8_MAX) {
        return EOVERFLOW;
    }

    memset(&attr, 0, sizeof attr);
    attr.qp_state = IBV_QPS_RTS;
    memset(&hbl_attr, 0, sizeof hbl_attr);
    /* A given hbldv_qp_attr replaces the provider's RTS default of
     * priority 1, so give it. */
    hbl_attr.priority = 1;
    if (encap) {
        hbl_attr.caps = HBLDV_QP_CAP_ENCAP;
        hbl_attr.encap_num = encap->encap_num;
    }
    return ops->hbl_modify_qp(qp, &attr, IBV_QP_STATE, &hbl_attr);
}

bool
hw_hbl_device_encaps(const struct netdev_hw_device *dev)
{
    return (dev->caps && dev->caps->qp_encap
            && dev->ops->create_encap && dev->ops->destroy_encap
            && dev->ops->hbl_modify_qp);
}

/* Send queues. */

struct hw_hbl_txq {
    struct cmap_node node;          /* In 'hbl_txqs', by 'id'. */
    uint32_t id;                    /* What a marked packet carries. */

    const struct hw_dev_ops *ops;
    struct ibv_context *ctx;
    struct hw_hbl_encap_spec spec;
    uint8_t header[HBL_MAX_HEADER]; /* The tnl_push header. */
    size_t header_len;

    struct ovs_mutex mutex;         /* Serialises sends and destruction. */
    struct ibv_pd *pd;
    struct ibv_cq_ex *cq;
    struct ibv_qp *qp;              /* NULL once destroyed. */
    struct hbldv_encap *encap;
};

atomic_count hw_hbl_n_txqs = ATOMIC_COUNT_INIT(0);

static struct ovs_mutex hbl_txqs_mutex = OVS_MUTEX_INITIALIZER;
static struct cmap hbl_txqs = CMAP_INITIALIZER;
static uint32_t hbl_next_id OVS_GUARDED_BY(hbl_txqs_mutex);

static struct hw_hbl_txq *
hbl_txq_find(uint32_t id)
{
    struct hw_hbl_txq *txq;

    CMAP_FOR_EACH_WITH_HASH (txq, node, hash_int(id, 0), &hbl_txqs) {
        if (txq->id == id) {
            return txq;
        }
    }
    return NULL;
}

/* Gives 'txq' an id no live queue has and publishes it. */
static void
hbl_txq_register(struct hw_hbl_txq *txq)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    ovs_mutex_lock(&hbl_txqs_mutex);
    if (ovsthread_once_start(&once)) {
        /* Not a small number, so that a stray packet of protocol 253 is
         * unlikely to name a queue. */
        hbl_next_id = random_uint32();
        ovsthread_once_done(&once);
    }
    do {
        txq->id = hbl_next_id++;
    } while (!txq->id || hbl_txq_find(txq->id));
    cmap_insert(&hbl_txqs, &txq->node, hash_int(txq->id, 0));
    ovs_mutex_unlock(&hbl_txqs_mutex);
    atomic_count_inc(&hw_hbl_n_txqs);
}

static void
hbl_txq_unregister(struct hw_hbl_txq *txq)
{
    ovs_mutex_lock(&hbl_txqs_mutex);
    cmap_remove(&hbl_txqs, &txq->node, hash_int(txq->id, 0));
    ovs_mutex_unlock(&hbl_txqs_mutex);
    atomic_count_dec(&hw_hbl_n_txqs);
}

/* Destroys what exists of 'txq''s device objects, in the reverse order of
 * their creation (a QP holds its encap, CQ and PD). */
static void
hbl_txq_destroy_objects(struct hw_hbl_txq *txq)
{
    const struct hw_dev_ops *ops = txq->ops;
    int error;

    if (txq->qp) {
        error = ops->destroy_qp(txq->qp);
        if (error) {
            VLOG_WARN("hbl: destroy_qp of an encapsulation queue failed: %s",
                      ovs_strerror(error));
        }
        txq->qp = NULL;
    }
    if (txq->encap) {
        error = ops->destroy_encap(txq->encap);
        if (error) {
            VLOG_WARN("hbl: destroy_encap of encapsulation %"PRIu32" "
                      "failed: %s", txq->encap->encap_num,
                      ovs_strerror(error));
        }
        txq->encap = NULL;
    }
    if (txq->cq) {
        error = ops->destroy_cq(txq->cq);
        if (error) {
            VLOG_WARN("hbl: destroy_cq of an encapsulation queue failed: %s",
                      ovs_strerror(error));
        }
        txq->cq = NULL;
    }
    if (txq->pd) {
        error = ops->dealloc_pd(txq->pd);
        if (error) {
            VLOG_WARN("hbl: dealloc_pd of an encapsulation queue failed: %s",
                      ovs_strerror(error));
        }
        txq->pd = NULL;
    }
}

static void
hbl_txq_free(struct hw_hbl_txq *txq)
{
    ovs_mutex_destroy(&txq->mutex);
    free(txq);
}

int
hw_hbl_txq_create(const struct netdev_hw_device *dev,
                  const void *header, size_t header_len,
                  struct hw_hbl_txq **txqp, struct ds *reason)
{
    const struct hw_dev_ops *ops = dev->ops;
    struct ibv_qp_init_attr_ex qp_attr;
    struct hbldv_encap_attr attr;
    struct hw_hbl_txq *txq;
    const char *step;
    int error;

    *txqp = NULL;
    if (!hw_hbl_device_encaps(dev)) {
        return hbl_refuse(reason, "hbl: device %s has no per-QP "
                          "encapsulation", dev->devname);
    }
    if (header_len > HBL_MAX_HEADER) {
        return hbl_refuse(reason, "hbl: tunnel header of %"PRIuSIZE" bytes "
                          "too long", header_len);
    }

    txq = xzalloc(sizeof *txq);
    error = hw_hbl_encap_spec_from_header(header, header_len, &txq->spec,
                                          reason);
    if (error) {
        free(txq);
        return error;
    }
    txq->ops = ops;
    txq->ctx = dev->ctx;
    memcpy(txq->header, header, header_len);
    txq->header_len = header_len;
    if (txq->spec.type == HBLDV_ENCAP_TYPE_ENC_OVER_UDP
        && header_len >= txq->spec.head_len + 2) {
        /* The NIC builds the UDP header itself, so the UDP source port the
         * plugin gives an mlx5 encap header does not reach the wire; keep
         * OVS's 0 there, which the push hook compares against. */
        memset(txq->header + txq->spec.head_len, 0, 2);
    }
    ovs_mutex_init(&txq->mutex);

    step = "alloc_pd";
    error = ops->alloc_pd(dev->ctx, &txq->pd);
    if (error) {
        txq->pd = NULL;
        goto error;
    }

    step = "create_cq";
    error = ops->create_cq(dev->ctx, HBL_TXQ_SIZE, &txq->cq);
    if (error) {
        txq->cq = NULL;
        goto error;
    }

    step = "create_qp";
    memset(&qp_attr, 0, sizeof qp_attr);
    qp_attr.qp_type = IBV_QPT_RAW_PACKET;
    qp_attr.send_cq = ibv_cq_ex_to_cq(txq->cq);
    qp_attr.recv_cq = ibv_cq_ex_to_cq(txq->cq);
    qp_attr.cap.max_send_wr = HBL_TXQ_SIZE;
    qp_attr.cap.max_send_sge = 1;
    qp_attr.comp_mask = IBV_QP_INIT_ATTR_PD;
    qp_attr.pd = txq->pd;
    error = ops->create_qp(dev->ctx, &qp_attr, &txq->qp);
    if (error) {
        txq->qp = NULL;
        goto error;
    }

    step = "create_encap";
    hw_hbl_encap_attr_init(&txq->spec, dev->port_num,
                           hw_hbl_get_byte_order(), &attr);
    error = ops->create_encap(dev->ctx, &attr, &txq->encap);
    if (error) {
        txq->encap = NULL;
        goto error;
    }

    step = "modify_qp";
    error = hw_hbl_qp_set_encap(ops, txq->qp, txq->encap);
    if (error) {
        goto error;
    }

    hbl_txq_register(txq);
    VLOG_DBG("hbl: %s: encapsulation %"PRIu32" (%s, %"PRIuSIZE"-byte tunnel "
             "header) on send queue %"PRIu32, dev->devname,
             txq->encap->encap_num,
             txq->spec.type == HBLDV_ENCAP_TYPE_ENC_OVER_UDP
             ? "over UDP" : "over IPv4", txq->spec.tnl_hdr_len, txq->id);
    *txqp = txq;
    return 0;

error:
    if (reason) {
        ds_put_format(reason, "hbl: %s on %s failed: %s", step, dev->devname,
                      ovs_strerror(error));
    }
    hbl_txq_destroy_objects(txq);
    hbl_txq_free(txq);
    return error;
}

void
hw_hbl_txq_destroy(struct hw_hbl_txq *txq)
{
    if (!txq) {
        return;
    }
    hbl_txq_unregister(txq);
    ovs_mutex_lock(&txq->mutex);
    hbl_txq_destroy_objects(txq);
    ovs_mutex_unlock(&txq->mutex);
    ovsrcu_postpone(hbl_txq_free, txq);
}

const struct hw_hbl_encap_spec *
hw_hbl_txq_spec(const struct hw_hbl_txq *txq)
{
    return &txq->spec;
}

bool
hw_hbl_push_prepare(const struct hw_hbl_txq *txq, struct dp_packet *packet,
                    const void *header, size_t header_len)
{
    struct ip_header *ip;
    uint8_t *head;

    if (header_len != txq->header_len
        || memcmp(header, txq->header, header_len)) {
        return false;
    }

    head = dp_packet_push_uninit(packet, txq->spec.head_len);
    memcpy(head, header, txq->spec.head_len);
    packet->packet_type = htonl(PT_ETH);
    dp_packet_reset_offsets(packet);
    packet->l3_ofs = ETH_HEADER_LEN;

    /* The NIC sets both fields: the protocol from the encapsulation type,
     * the source from 'ipv4_addr'. */
    ip = ALIGNED_CAST(struct ip_header *, head + ETH_HEADER_LEN);
    ip->ip_proto = HW_HBL_PROTO_MARK;
    put_16aligned_be32(&ip->ip_src, htonl(txq->id));
    dp_packet_set_flow_mark(packet, HW_PUSH_PACKET_MARK);
    return true;
}

/* Returns true if 'packet' was marked by hw_hbl_push_prepare(), with the
 * queue id in '*idp'.  A received frame may have the same bytes: only the
 * flow mark the push hook gives tells them apart (hw-translate.h). */
static bool
hbl_packet_mark(const struct dp_packet *packet, uint32_t *idp)
{
    const uint8_t *p = dp_packet_data(packet);
    const struct ip_header *ip;
    uint32_t mark;

    if (!dp_packet_has_flow_mark(packet, &mark)
        || mark != HW_PUSH_PACKET_MARK
        || dp_packet_size(packet) < ETH_HEADER_LEN + IP_HEADER_LEN
        || p[12] != (ETH_TYPE_IP >> 8) || p[13] != (ETH_TYPE_IP & 0xff)) {
        return false;
    }
    ip = ALIGNED_CAST(const struct ip_header *, p + ETH_HEADER_LEN);
    if (ip->ip_proto != HW_HBL_PROTO_MARK
        || IP_VER(ip->ip_ihl_ver) != 4) {
        return false;
    }
    *idp = ntohl(get_16aligned_be32(&ip->ip_src));
    return true;
}

/* Sends 'batch' on 'txq' (if any) and empties it.  Returns the number of
 * packets dropped. */
static size_t
hbl_txq_send(struct hw_hbl_txq *txq, struct dp_packet_batch *batch,
             uint64_t *n_sent, uint64_t *n_bytes)
{
    size_t n = dp_packet_batch_size(batch);
    uint32_t sizes[NETDEV_MAX_BURST];
    struct dp_packet *packet;
    size_t dropped;
    int ret;

    if (!txq || !n) {
        return 0;
    }
    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        sizes[i] = dp_packet_size(packet) + txq->spec.nic_len;
    }

    ovs_mutex_lock(&txq->mutex);
    if (txq->qp) {
        ret = txq->ops->tx_burst(txq->qp, batch);
    } else {
        dp_packet_delete_batch(batch, true);
        ret = n;
    }
    ovs_mutex_unlock(&txq->mutex);
    dp_packet_batch_init(batch);

    /* A full send queue refuses the tail of the batch. */
    dropped = MIN((size_t) MAX(ret, 0), n);
    for (size_t i = 0; i < n - dropped; i++) {
        *n_bytes += sizes[i];
    }
    *n_sent += n - dropped;
    COVERAGE_ADD(hw_hbl_tx, n - dropped);
    COVERAGE_ADD(hw_hbl_tx_drop, dropped);
    return dropped;
}

size_t
hw_hbl_tx_divert(const struct ibv_context *ctx, size_t max_frame_len,
                 struct dp_packet_batch *batch, uint64_t *n_sent,
                 uint64_t *n_bytes)
{
    struct hw_hbl_txq *cur = NULL;
    struct dp_packet_batch out;
    struct dp_packet *packet;
    size_t n = dp_packet_batch_size(batch);
    size_t n_dropped = 0;
    size_t i;

    dp_packet_batch_init(&out);
    DP_PACKET_BATCH_REFILL_FOR_EACH (i, n, packet, batch) {
        struct hw_hbl_txq *txq;
        uint32_t id;

        if (!hbl_packet_mark(packet, &id)) {
            dp_packet_batch_refill(batch, packet, i);
            continue;
        }

        txq = hbl_txq_find(id);
        if (!txq || txq->ctx != ctx) {
            VLOG_WARN_RL(&rl, "hbl: dropped a packet for encapsulation "
                         "queue %#"PRIx32", which %s", id,
                         txq ? "is on another device" : "is gone");
            dp_packet_delete(packet);
            COVERAGE_INC(hw_hbl_tx_drop);
            n_dropped++;
            continue;
        }
        if (dp_packet_size(packet) + txq->spec.nic_len > max_frame_len) {
            VLOG_WARN_RL(&rl, "hbl: dropped a %"PRIu32"-byte frame, larger "
                         "than the MTU allows once encapsulated (%"PRIuSIZE
                         " bytes)", dp_packet_size(packet)
                         + (uint32_t) txq->spec.nic_len, max_frame_len);
            dp_packet_delete(packet);
            COVERAGE_INC(hw_hbl_tx_drop);
            n_dropped++;
            continue;
        }
        if (txq != cur) {
            n_dropped += hbl_txq_send(cur, &out, n_sent, n_bytes);
            cur = txq;
        }
        dp_packet_batch_add(&out, packet);
    }
    n_dropped += hbl_txq_send(cur, &out, n_sent, n_bytes);
    return n_dropped;
}

/* The real hbl backend. */

#ifdef HAVE_HW_RDMA
static bool hbl_handles(const char *devname);

struct hw_dev_ops hw_hbl_ops = {
    .name = "hbl",
    .kernel_checks_caps = true,
    .handles = hbl_handles,
};

/* hbl verbs device names: "hbl_" and a decimal number. */
static bool
hbl_name_is_hbl(const char *devname)
{
    const char *p;

    if (strncmp(devname, "hbl_", 4) || !devname[4]) {
        return false;
    }
    for (p = devname + 4; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
    }
    return true;
}

static int
hbl_query_caps(struct ibv_context *ctx, struct hw_dev_caps *caps)
{
    int error = hw_rdma_ops.query_caps(ctx, caps);

    if (!error) {
        /* No mlx5dv packet reformat on hbl: tunnel push goes per QP. */
        caps->reformat_types = 0;
        caps->max_encap_header = 0;
        caps->qp_encap = true;
    }
    return error;
}

static int
hbl_create_encap(struct ibv_context *ctx, struct hbldv_encap_attr *attr,
                 struct hbldv_encap **encapp)
{
    const struct hw_hbl_lib *lib = hw_hbl_lib_get();

    errno = 0;
    *encapp = lib ? lib->create_encap(ctx, attr) : NULL;
    if (!*encapp) {
        return !lib ? EOPNOTSUPP : errno ? errno : EIO;
    }
    return 0;
}

static int
hbl_destroy_encap(struct hbldv_encap *encap)
{
    const struct hw_hbl_lib *lib = hw_hbl_lib_get();

    return lib ? lib->destroy_encap(encap) : EOPNOTSUPP;
}

static int
hbl_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
              struct hbldv_qp_attr *hbl_attr)
{
    const struct hw_hbl_lib *lib = hw_hbl_lib_get();

    return lib ? lib->modify_qp(qp, attr, attr_mask, hbl_attr) : EOPNOTSUPP;
}

static int
hbl_query_port(struct ibv_context *ctx, uint32_t port_num,
               struct hbldv_query_port_attr *attr)
{
    const struct hw_hbl_lib *lib = hw_hbl_lib_get();

    return (lib && lib->query_port
            ? lib->query_port(ctx, port_num, attr)
            : EOPNOTSUPP);
}

static bool
hbl_handles(const char *devname)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    /* Ask for the library only for hbl names, so that other devices do not
     * log about it. */
    if (!devname || !hbl_name_is_hbl(devname) || !hw_hbl_lib_get()) {
        return false;
    }
    if (ovsthread_once_start(&once)) {
        /* The verbs calls are the rdma-core backend's. */
        struct hw_dev_ops ops = hw_rdma_ops;

        ops.name = "hbl";
        ops.handles = hbl_handles;
        ops.query_caps = hbl_query_caps;
        ops.create_encap = hbl_create_encap;
        ops.destroy_encap = hbl_destroy_encap;
        ops.hbl_modify_qp = hbl_modify_qp;
        ops.hbl_query_port = hbl_query_port;
        hw_hbl_ops = ops;
        ovsthread_once_done(&once);
    }
    return true;
}
#endif /* HAVE_HW_RDMA */
