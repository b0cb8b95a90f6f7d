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
#include "hw-model-hbl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "hash.h"
#include "hw-model.h"
#include "hw-model-reformat.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_hbl);

/* Defaults of a device ([A]: the kernel driver reads them from firmware). */
#define HBL_DEFAULT_MAX_ENCAPS 8
#define HBL_MAX_ENCAPS 255          /* encap_num is 8 bits. */
#define HBL_MAX_TNL_HDR 32          /* NIC_MAX_TNL_HDR_SIZE. */
#define HBL_PORT_CNT 1              /* Like every model device. */

struct hbl_dev;

struct hbl_encap {
    struct hmap_node node;          /* In 'hbl_encaps', by 'pub' address. */
    struct hbldv_encap pub;         /* What the caller holds. */
    struct hbl_dev *dev;
    enum hbldv_encap_type type;
    uint32_t ipv4_addr;             /* As given. */
    uint16_t udp_dst_port;          /* As given, ENC_OVER_UDP. */
    uint8_t ip_proto;               /* ENC_OVER_IPV4. */
    uint8_t tnl_hdr[HBL_MAX_TNL_HDR];
    size_t tnl_hdr_len;
    unsigned int users;             /* QPs with this encap. */
};

/* A QP with an encap. */
struct hbl_qp {
    struct hmap_node node;          /* In 'hbl_qps', by 'qp' address. */
    const struct ibv_qp *qp;
    struct hbl_encap *encap;
};

struct hbl_dev {
    char *name;
    unsigned int max_encaps;
    bool host_order;
    struct hbl_encap *by_id[HBL_MAX_ENCAPS + 1];    /* [0] unused. */
    size_t n_encaps;
    size_t n_qps;
};

/* Taken after a model device's mutex, never before. */
static struct ovs_mutex hbl_mutex = OVS_MUTEX_INITIALIZER;
static struct shash hbl_devs OVS_GUARDED_BY(hbl_mutex)
    = SHASH_INITIALIZER(&hbl_devs);
static struct hmap hbl_encaps OVS_GUARDED_BY(hbl_mutex)
    = HMAP_INITIALIZER(&hbl_encaps);
static struct hmap hbl_qps OVS_GUARDED_BY(hbl_mutex)
    = HMAP_INITIALIZER(&hbl_qps);

static bool
hbl_name_is_hbl(const char *devname)
{
    return (devname
            && !strncmp(devname, HW_MODEL_HBL_PREFIX,
                        strlen(HW_MODEL_HBL_PREFIX))
            && hw_model_handles(devname));
}

/* Returns the hbl state of 'devname', created if needed, or NULL if it is
 * not an hbl model device name. */
static struct hbl_dev *
hbl_dev_get(const char *devname)
    OVS_REQUIRES(hbl_mutex)
{
    struct hbl_dev *dev;

    if (!hbl_name_is_hbl(devname)) {
        return NULL;
    }
    dev = shash_find_data(&hbl_devs, devname);
    if (!dev) {
        dev = xzalloc(sizeof *dev);
        dev->name = xstrdup(devname);
        dev->max_encaps = HBL_DEFAULT_MAX_ENCAPS;
        shash_add(&hbl_devs, devname, dev);
    }
    return dev;
}

static struct hbl_dev *
hbl_dev_from_ctx(const struct ibv_context *ctx)
    OVS_REQUIRES(hbl_mutex)
{
    return ctx && ctx->device ? hbl_dev_get(ctx->device->name) : NULL;
}

static int OVS_PRINTF_FORMAT(3, 4)
hbl_reject(const char *devname, int error, const char *format, ...)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(20, 20);

    if (!vlog_should_drop(&this_module, VLL_INFO, &rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_INFO("%s: %s (%s)", devname ? devname : "(unknown device)",
                  msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

static const char *
hbl_ctx_name(const struct ibv_context *ctx)
{
    return ctx && ctx->device ? ctx->device->name : NULL;
}

static struct hbl_encap *
hbl_encap_find(const struct hbldv_encap *pub)
    OVS_REQUIRES(hbl_mutex)
{
    struct hbl_encap *encap;

    HMAP_FOR_EACH_WITH_HASH (encap, node, hash_pointer(pub, 0),
                             &hbl_encaps) {
        if (&encap->pub == pub) {
            return encap;
        }
    }
    return NULL;
}

static struct hbl_qp *
hbl_qp_find(const struct ibv_qp *qp)
    OVS_REQUIRES(hbl_mutex)
{
    struct hbl_qp *hqp;

    HMAP_FOR_EACH_WITH_HASH (hqp, node, hash_pointer(qp, 0), &hbl_qps) {
        if (hqp->qp == qp) {
            return hqp;
        }
    }
    return NULL;
}

/* Device ops. */

int
hw_model_hbl_create_encap(struct ibv_context *ctx,
                          struct hbldv_encap_attr *attr,
                          struct hbldv_encap **encapp)
{
    const char *name = hbl_ctx_name(ctx);
    struct hbl_encap *encap;
    struct hbl_dev *dev;
    uint32_t id;
    int error = 0;

    *encapp = NULL;
    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_from_ctx(ctx);
    if (!dev) {
        error = hbl_reject(name, EOPNOTSUPP, "create_encap: not an hbl "
                           "device");
        goto out;
    }
    if (!attr) {
        error = hbl_reject(name, EINVAL, "create_encap: no attributes");
        goto out;
    }
    if (attr->port_num < 1 || attr->port_num > HBL_PORT_CNT) {
        error = hbl_reject(name, EINVAL, "create_encap: no port %"PRIu32,
                           attr->port_num);
        goto out;
    }

    /* The driver allocates the id before it looks at the rest. */
    for (id = 1; id <= dev->max_encaps && dev->by_id[id]; id++) {
        continue;
    }
    if (id > dev->max_encaps) {
        error = hbl_reject(name, EBUSY, "create_encap: all %u encap ids "
                           "taken", dev->max_encaps);
        goto out;
    }

    switch (attr->encap_type) {
    case HBLDV_ENCAP_TYPE_NO_ENC:
    case HBLDV_ENCAP_TYPE_ENC_OVER_IPV4:
    case HBLDV_ENCAP_TYPE_ENC_OVER_UDP:
        break;
    default:
        error = hbl_reject(name, EINVAL, "create_encap: encap type %d",
                           (int) attr->encap_type);
        goto out;
    }
    if (attr->encap_type != HBLDV_ENCAP_TYPE_NO_ENC) {
        if (attr->tnl_hdr_size > HBL_MAX_TNL_HDR) {
            error = hbl_reject(name, EINVAL, "create_encap: %"PRIu32"-byte "
                               "tunnel header, the limit is %d",
                               attr->tnl_hdr_size, HBL_MAX_TNL_HDR);
            goto out;
        }
        if (attr->tnl_hdr_size && !attr->tnl_hdr_ptr) {
            error = hbl_reject(name, EFAULT, "create_encap: no tunnel "
                               "header at address 0");
            goto out;
        }
        if (attr->encap_type == HBLDV_ENCAP_TYPE_ENC_OVER_IPV4
            && attr->ip_proto > UINT8_MAX) {
            error = hbl_reject(name, EINVAL, "create_encap: IP protocol "
                               "%"PRIu16, attr->ip_proto);
            goto out;
        }
    }

    encap = xzalloc(sizeof *encap);
    encap->pub.encap_num = id;
    encap->dev = dev;
    encap->type = attr->encap_type;
    encap->ipv4_addr = attr->ipv4_addr;
    if (encap->type == HBLDV_ENCAP_TYPE_ENC_OVER_UDP) {
        encap->udp_dst_port = attr->udp_dst_port;
    } else if (encap->type == HBLDV_ENCAP_TYPE_ENC_OVER_IPV4) {
        encap->ip_proto = attr->ip_proto;
    }
    if (encap->type != HBLDV_ENCAP_TYPE_NO_ENC && attr->tnl_hdr_size) {
        memcpy(encap->tnl_hdr, (const void *) (uintptr_t) attr->tnl_hdr_ptr,
               attr->tnl_hdr_size);
        encap->tnl_hdr_len = attr->tnl_hdr_size;
    }
    dev->by_id[id] = encap;
    dev->n_encaps++;
    hmap_insert(&hbl_encaps, &encap->node, hash_pointer(&encap->pub, 0));
    VLOG_DBG("%s: encap %"PRIu32": type %d, %"PRIuSIZE"-byte tunnel header",
             name, id, (int) encap->type, encap->tnl_hdr_len);
    *encapp = &encap->pub;

out:
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

int
hw_model_hbl_destroy_encap(struct hbldv_encap *pub)
{
    struct hbl_encap *encap;
    int error = 0;

    ovs_mutex_lock(&hbl_mutex);
    encap = pub ? hbl_encap_find(pub) : NULL;
    if (!encap) {
        error = hbl_reject(NULL, EINVAL, "destroy_encap: unknown encap");
    } else if (encap->users) {
        error = hbl_reject(encap->dev->name, EBUSY, "destroy_encap: encap "
                           "%"PRIu32" used by %u QPs", encap->pub.encap_num,
                           encap->users);
    } else {
        encap->dev->by_id[encap->pub.encap_num] = NULL;
        encap->dev->n_encaps--;
        hmap_remove(&hbl_encaps, &encap->node);
        free(encap);
    }
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

struct hbl_modify_args {
    const struct hbldv_qp_attr *hbl_attr;
};

static int
hbl_modify_qp_locked(struct ibv_qp *qp, void *args_)
{
    const struct hbl_modify_args *args = args_;
    const struct hbldv_qp_attr *hbl_attr = args->hbl_attr;
    const char *name = hbl_ctx_name(qp->context);
    struct hbl_encap *encap = NULL;
    struct hbl_dev *dev;
    struct hbl_qp *hqp;
    int error = 0;

    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_from_ctx(qp->context);
    ovs_assert(dev);
    if (hbl_attr && hbl_attr->caps & HBLDV_QP_CAP_ENCAP) {
        unsigned int id = hbl_attr->encap_num;

        encap = id && id <= HBL_MAX_ENCAPS ? dev->by_id[id] : NULL;
        if (!encap) {
            error = hbl_reject(name, EINVAL, "modify_qp: no encap %u", id);
            goto out;
        }
    }

    hqp = hbl_qp_find(qp);
    if (hqp) {
        hqp->encap->users--;
        if (encap) {
            hqp->encap = encap;
        } else {
            hmap_remove(&hbl_qps, &hqp->node);
            dev->n_qps--;
            free(hqp);
        }
    } else if (encap) {
        hqp = xzalloc(sizeof *hqp);
        hqp->qp = qp;
        hqp->encap = encap;
        hmap_insert(&hbl_qps, &hqp->node, hash_pointer(qp, 0));
        dev->n_qps++;
    }
    if (encap) {
        encap->users++;
        VLOG_DBG("%s: QP %"PRIu32" sends with encap %"PRIu32, name,
                 qp->qp_num, encap->pub.encap_num);
    }
out:
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

int
hw_model_hbl_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
                       int attr_mask, struct hbldv_qp_attr *hbl_attr)
{
    struct hbl_modify_args args;
    const char *name;
    bool is_hbl;
    int error;

    if (!qp) {
        return hbl_reject(NULL, EINVAL, "modify_qp: no QP");
    }
    name = hbl_ctx_name(qp->context);
    ovs_mutex_lock(&hbl_mutex);
    is_hbl = hbl_dev_from_ctx(qp->context) != NULL;
    ovs_mutex_unlock(&hbl_mutex);
    if (!is_hbl) {
        return hbl_reject(name, EOPNOTSUPP, "modify_qp: not an hbl device");
    }
    if (!attr) {
        return hbl_reject(name, EINVAL, "modify_qp: no attributes");
    }
    if (attr_mask != IBV_QP_STATE || attr->qp_state != IBV_QPS_RTS) {
        return hbl_reject(name, EINVAL, "modify_qp: attr_mask %#x, state "
                          "%d: the model takes only the RTS to RTS modify",
                          (unsigned int) attr_mask, (int) attr->qp_state);
    }
    if (hbl_attr && hbl_attr->caps & ~(uint64_t) HBLDV_QP_CAP_ENCAP) {
        return hbl_reject(name, EOPNOTSUPP, "modify_qp: caps %#"PRIx64" "
                          "not modelled", hbl_attr->caps);
    }

    args.hbl_attr = hbl_attr;
    error = hw_model_with_send_qp(qp, hbl_modify_qp_locked, &args);
    if (error == ENOENT) {
        /* The kernel's handle lookup. */
        return hbl_reject(name, EINVAL, "modify_qp: not a send QP of the "
                          "device");
    }
    return error;
}

int
hw_model_hbl_query_port(struct ibv_context *ctx, uint32_t port_num,
                        struct hbldv_query_port_attr *attr)
{
    const char *name = hbl_ctx_name(ctx);
    struct hbl_dev *dev;
    int error = 0;

    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_from_ctx(ctx);
    if (!dev) {
        error = hbl_reject(name, EOPNOTSUPP, "query_port: not an hbl "
                           "device");
    } else if (!attr) {
        error = hbl_reject(name, EINVAL, "query_port: no attributes");
    } else if (port_num < 1 || port_num > HBL_PORT_CNT) {
        error = hbl_reject(name, EINVAL, "query_port: no port %"PRIu32,
                           port_num);
    } else {
        memset(attr, 0, sizeof *attr);
        attr->max_num_of_encaps = dev->max_encaps;
    }
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

/* Datapath. */

/* Offset of the IPv4 header of the 'size'-byte 'frame' (after Ethernet and
 * VLAN tags), or 0 if it does not carry a whole IPv4 header. */
static size_t
hbl_ipv4_offset(const uint8_t *frame, size_t size)
{
    size_t ofs = 2 * ETH_ADDR_LEN;
    size_t ihl;
    uint16_t type;

    if (size < ETH_HEADER_LEN) {
        return 0;
    }
    type = frame[ofs] << 8 | frame[ofs + 1];
    while (type == ETH_TYPE_VLAN_8021Q || type == ETH_TYPE_VLAN_8021AD) {
        ofs += VLAN_HEADER_LEN;
        if (size < ofs + 2) {
            return 0;
        }
        type = frame[ofs] << 8 | frame[ofs + 1];
    }
    ofs += 2;
    if (type != ETH_TYPE_IP || size < ofs + IP_HEADER_LEN
        || frame[ofs] >> 4 != 4) {
        return 0;
    }
    ihl = (frame[ofs] & 0x0f) * 4;
    return ihl >= IP_HEADER_LEN && size >= ofs + ihl ? ofs : 0;
}

/* What the NIC does to a frame sent with 'encap'. */
static int
hbl_encapsulate(const struct hbl_encap *encap, bool host_order,
                struct dp_packet *packet)
{
    uint8_t hdr[ETH_HEADER_LEN + 2 * VLAN_HEADER_LEN + 60 + UDP_HEADER_LEN
                + HBL_MAX_TNL_HDR];
    const uint8_t *frame = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);
    size_t l3 = hbl_ipv4_offset(frame, size);
    size_t ihl, hdr_len;
    ovs_be32 src;
    int error;

    if (!l3) {
        return EPROTONOSUPPORT;
    }
    ihl = (frame[l3] & 0x0f) * 4;
    hdr_len = l3 + ihl;
    if (hdr_len > ETH_HEADER_LEN + 2 * VLAN_HEADER_LEN + 60) {
        /* More VLAN tags than the NIC parses. */
        return EPROTONOSUPPORT;
    }
    memcpy(hdr, frame, hdr_len);

    src = host_order ? htonl(encap->ipv4_addr)
                     : (OVS_FORCE ovs_be32) encap->ipv4_addr;
    memcpy(hdr + l3 + 12, &src, sizeof src);

    switch (encap->type) {
    case HBLDV_ENCAP_TYPE_NO_ENC:
        hdr[l3 + 9] = IPPROTO_UDP;
        break;
    case HBLDV_ENCAP_TYPE_ENC_OVER_UDP: {
        struct udp_header udp;

        hdr[l3 + 9] = IPPROTO_UDP;
        memset(&udp, 0, sizeof udp);
        udp.udp_dst = (host_order
                       ? htons(encap->udp_dst_port)
                       : (OVS_FORCE ovs_be16) encap->udp_dst_port);
        memcpy(hdr + hdr_len, &udp, sizeof udp);
        hdr_len += sizeof udp;
        memcpy(hdr + hdr_len, encap->tnl_hdr, encap->tnl_hdr_len);
        hdr_len += encap->tnl_hdr_len;
        break;
    }
    case HBLDV_ENCAP_TYPE_ENC_OVER_IPV4:
        hdr[l3 + 9] = encap->ip_proto;
        memcpy(hdr + hdr_len, encap->tnl_hdr, encap->tnl_hdr_len);
        hdr_len += encap->tnl_hdr_len;
        break;
    default:
        OVS_NOT_REACHED();
    }

    error = hw_model_reformat_fill_lengths(hdr, hdr_len, size - l3 - ihl);
    if (error) {
        return error;
    }
    dp_packet_reset_offsets(packet);
    dp_packet_pull(packet, l3 + ihl);
    dp_packet_push(packet, hdr, hdr_len);
    return 0;
}

int
hw_model_hbl_tx(const struct ibv_qp *qp, struct dp_packet *packet,
                bool *encapped)
{
    struct hbl_qp *hqp;
    int error = 0;

    *encapped = false;
    ovs_mutex_lock(&hbl_mutex);
    hqp = hbl_qp_find(qp);
    if (hqp) {
        error = hbl_encapsulate(hqp->encap, hqp->encap->dev->host_order,
                                packet);
        *encapped = !error;
    }
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

void
hw_model_hbl_qp_destroyed(const struct ibv_qp *qp)
{
    struct hbl_qp *hqp;

    ovs_mutex_lock(&hbl_mutex);
    hqp = hbl_qp_find(qp);
    if (hqp) {
        hqp->encap->users--;
        hqp->encap->dev->n_qps--;
        hmap_remove(&hbl_qps, &hqp->node);
        free(hqp);
    }
    ovs_mutex_unlock(&hbl_mutex);
}

/* Settings and state. */

int
hw_model_hbl_set_max_encaps(const char *devname, unsigned int max)
{
    struct hbl_dev *dev;
    int error = 0;

    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_get(devname);
    if (!dev) {
        error = ENODEV;
    } else if (!max || max > HBL_MAX_ENCAPS) {
        error = EINVAL;
    } else {
        for (unsigned int id = max + 1; id <= dev->max_encaps; id++) {
            if (dev->by_id[id]) {
                error = EINVAL;
                break;
            }
        }
        if (!error) {
            dev->max_encaps = max;
        }
    }
    ovs_mutex_unlock(&hbl_mutex);
    return error;
}

int
hw_model_hbl_set_byte_order(const char *devname, bool host_order)
{
    struct hbl_dev *dev;

    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_get(devname);
    if (dev) {
        dev->host_order = host_order;
    }
    ovs_mutex_unlock(&hbl_mutex);
    return dev ? 0 : ENODEV;
}

int
hw_model_hbl_get_info(const char *devname, struct hw_model_hbl_info *info)
{
    struct hbl_dev *dev;

    memset(info, 0, sizeof *info);
    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_get(devname);
    if (dev) {
        info->max_encaps = dev->max_encaps;
        info->host_order = dev->host_order;
        info->n_encaps = dev->n_encaps;
        info->n_encap_qps = dev->n_qps;
    }
    ovs_mutex_unlock(&hbl_mutex);
    return dev ? 0 : ENODEV;
}

/* unixctl. */

static const char *
hbl_encap_type_name(enum hbldv_encap_type type)
{
    switch (type) {
    case HBLDV_ENCAP_TYPE_NO_ENC:
        return "none";
    case HBLDV_ENCAP_TYPE_ENC_OVER_IPV4:
        return "over-ipv4";
    case HBLDV_ENCAP_TYPE_ENC_OVER_UDP:
        return "over-udp";
    default:
        return "unknown";
    }
}

/* "hw-model/hbl DEV [max-encaps N] [byte-order network|host]": sets what
 * is given, then shows the device's settings and encaps. */
static void
hbl_unixctl(struct unixctl_conn *conn, int argc, const char *argv[],
            void *aux OVS_UNUSED)
{
    const char *devname = argv[1];
    struct ds s = DS_EMPTY_INITIALIZER;
    struct hbl_dev *dev;

    for (int i = 2; i < argc; i += 2) {
        int error = 0;

        if (i + 1 >= argc) {
            unixctl_command_reply_error(conn, "missing value");
            return;
        }
        if (!strcmp(argv[i], "max-encaps")) {
            unsigned int max;

            error = (str_to_uint(argv[i + 1], 10, &max)
                     ? hw_model_hbl_set_max_encaps(devname, max) : EINVAL);
        } else if (!strcmp(argv[i], "byte-order")
                   && (!strcmp(argv[i + 1], "network")
                       || !strcmp(argv[i + 1], "host"))) {
            error = hw_model_hbl_set_byte_order(devname,
                                                !strcmp(argv[i + 1], "host"));
        } else {
            error = EINVAL;
        }
        if (error) {
            char *msg = xasprintf("%s %s %s: %s", devname, argv[i],
                                  argv[i + 1], ovs_strerror(error));
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    ovs_mutex_lock(&hbl_mutex);
    dev = hbl_dev_get(devname);
    if (dev) {
        ds_put_format(&s, "%s: max-encaps %u, byte-order %s\n", dev->name,
                      dev->max_encaps, dev->host_order ? "host" : "network");
        for (unsigned int id = 1; id <= HBL_MAX_ENCAPS; id++) {
            const struct hbl_encap *encap = dev->by_id[id];

            if (!encap) {
                continue;
            }
            /* As the device reads them. */
            ovs_be32 src = (dev->host_order
                            ? htonl(encap->ipv4_addr)
                            : (OVS_FORCE ovs_be32) encap->ipv4_addr);
            ovs_be16 port = (dev->host_order
                             ? htons(encap->udp_dst_port)
                             : (OVS_FORCE ovs_be16) encap->udp_dst_port);

            ds_put_format(&s, "  encap %u: %s", id,
                          hbl_encap_type_name(encap->type));
            if (encap->type == HBLDV_ENCAP_TYPE_ENC_OVER_UDP) {
                ds_put_format(&s, " udp_dst_port %"PRIu16, ntohs(port));
            } else if (encap->type == HBLDV_ENCAP_TYPE_ENC_OVER_IPV4) {
                ds_put_format(&s, " ip_proto %"PRIu8, encap->ip_proto);
            }
            ds_put_format(&s, " ipv4_addr "IP_FMT" tnl_hdr ", IP_ARGS(src));
            for (size_t i = 0; i < encap->tnl_hdr_len; i++) {
                ds_put_format(&s, "%02"PRIx8, encap->tnl_hdr[i]);
            }
            ds_put_format(&s, " qps %u\n", encap->users);
        }
    }
    ovs_mutex_unlock(&hbl_mutex);

    if (!dev) {
        unixctl_command_reply_error(conn, "not an hbl model device");
    } else {
        unixctl_command_reply(conn, ds_cstr(&s));
    }
    ds_destroy(&s);
}

void
hw_model_hbl_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("hw-model/hbl",
                                 "DEV [max-encaps N] [byte-order "
                                 "network|host]", 1, 5, hbl_unixctl, NULL);
        ovsthread_once_done(&once);
    }
}
