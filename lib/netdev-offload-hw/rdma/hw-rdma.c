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

/* configure --without-rdma: nothing here is compiled. */
#ifdef HAVE_HW_RDMA

#include "hw-rdma.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "coverage.h"
#include "hw-dr.h"
#include "hw-fwdump.h"
#include "dp-packet.h"
#include "dpif-netdev.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "packets.h"
#include "svec.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_rdma);

COVERAGE_DEFINE(hw_rdma_rx_error);
COVERAGE_DEFINE(hw_rdma_tx_error);
COVERAGE_DEFINE(hw_rdma_tx_full);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

#define HW_RDMA_SYSFS "/sys"

/* The verbs port the plugin drives (netdev-hw uses port 1). */
#define HW_RDMA_PORT 1

/* One receive or send slot holds the largest frame netdev-hw allows: MTU
 * 9216 plus an Ethernet header and two VLAN tags. */
#define HW_RDMA_BUF_SIZE \
    ROUND_UP(9216 + ETH_HEADER_LEN + 2 * VLAN_HEADER_LEN, CACHE_LINE_SIZE)

/* Facts that verbs does not report (hw-apis.md 1.3, 1.4, 2.1, 3.1). */
#define HW_RDMA_MLX5_MAX_PRIO 15    /* MLX5_IB_FLOW_LAST_PRIO. */
#define HW_RDMA_MAX_SPECS 10        /* IB_FLOW_SPEC_SUPPORT_LAYERS, 6.1. */
#define HW_RDMA_MAX_RULES 65536     /* Per priority: min(2^16, FW size). */
#define HW_RDMA_MAX_LOG_IND 13      /* IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE. */
#define HW_RDMA_MAX_ENCAP 128       /* max_encap_header_size of ConnectX-5
                                     * and later; not exposed by verbs. */

/* Errors.
 *
 * rdma-core reports a failed create by returning NULL with errno set, and
 * a failed int call by returning a positive errno value, except for a few
 * provider paths that return it negated (libmlx5's mlx5_modify_wq() returns
 * -EINVAL) or return -1 with errno set. */

static int
rdma_errno(void)
{
    return errno > 0 ? errno : EIO;
}

static int
rdma_ret(int ret)
{
    if (ret >= 0) {
        return ret;
    }
    return ret == -1 ? rdma_errno() : -ret;
}

/* sysfs. */

bool
hw_rdma_name_is_safe(const char *name)
{
    return (name[0] && !strchr(name, '/') && strcmp(name, ".")
            && strcmp(name, ".."));
}

/* Returns the first line of file 'path' without its newline, or NULL. */
char *
hw_rdma_read_line(const char *path)
{
    char line[256];
    FILE *stream;
    char *result = NULL;

    stream = fopen(path, "r");
    if (!stream) {
        return NULL;
    }
    if (fgets(line, sizeof line, stream)) {
        line[strcspn(line, "\n")] = '\0';
        result = xstrdup(line);
    }
    fclose(stream);
    return result;
}

/* Fills 'names' with the entries of directory 'path', sorted, without "."
 * and "..".  Returns false if 'path' cannot be read. */
static bool
list_dir(const char *path, struct svec *names)
{
    struct dirent *de;
    DIR *dir;

    dir = opendir(path);
    if (!dir) {
        return false;
    }
    while ((de = readdir(dir)) != NULL) {
        if (hw_rdma_name_is_safe(de->d_name)) {
            svec_add(names, de->d_name);
        }
    }
    closedir(dir);
    svec_sort(names);
    return true;
}

char *
hw_rdma_ibdev_to_ifname(const char *sysfs, const char *ibdev, int port)
{
    struct svec names = SVEC_EMPTY_INITIALIZER;
    char *path, *ifname;

    if (!hw_rdma_name_is_safe(ibdev)) {
        return NULL;
    }

    /* RoCE: the GID table of the port names the port's interface. */
    path = xasprintf("%s/class/infiniband/%s/ports/%d/gid_attrs/ndevs/0",
                     sysfs, ibdev, port);
    ifname = hw_rdma_read_line(path);
    free(path);
    if (ifname && hw_rdma_name_is_safe(ifname)) {
        return ifname;
    }
    free(ifname);
    ifname = NULL;

    /* Else the only interface of the device's PCI function. */
    path = xasprintf("%s/class/infiniband/%s/device/net", sysfs, ibdev);
    if (list_dir(path, &names) && names.n == 1) {
        ifname = xstrdup(names.names[0]);
    }
    free(path);
    svec_destroy(&names);
    return ifname;
}

char *
hw_rdma_ifname_to_ibdev(const char *sysfs, const char *ifname)
{
    struct svec names = SVEC_EMPTY_INITIALIZER;
    char *path, *ibdev = NULL;

    if (!hw_rdma_name_is_safe(ifname)) {
        return NULL;
    }

    path = xasprintf("%s/class/net/%s/device/infiniband", sysfs, ifname);
    if (list_dir(path, &names) && names.n) {
        for (size_t i = 0; i < names.n && !ibdev; i++) {
            char *port_if = hw_rdma_ibdev_to_ifname(sysfs, names.names[i],
                                                    HW_RDMA_PORT);

            if (port_if && !strcmp(port_if, ifname)) {
                ibdev = xstrdup(names.names[i]);
            }
            free(port_if);
        }
        if (!ibdev) {
            ibdev = xstrdup(names.names[0]);
        }
    }
    free(path);
    svec_destroy(&names);
    return ibdev;
}

/* Reads the MAC address and MTU of network interface 'ifname'. */
static void
read_netdev(const char *ifname, struct eth_addr *mac, int *mtu)
{
    char *path, *line;

    path = xasprintf("%s/class/net/%s/address", HW_RDMA_SYSFS, ifname);
    line = hw_rdma_read_line(path);
    if (!line || !eth_addr_from_string(line, mac)) {
        *mac = eth_addr_zero;
    }
    free(line);
    free(path);

    path = xasprintf("%s/class/net/%s/mtu", HW_RDMA_SYSFS, ifname);
    line = hw_rdma_read_line(path);
    if (!line || !str_to_int(line, 10, mtu)) {
        *mtu = 0;
    }
    free(line);
    free(path);
}

/* Device. */

/* Finds device 'name' in 'list', of 'n' devices. */
static struct ibv_device *
find_device(struct ibv_device **list, int n, const char *name)
{
    for (int i = 0; i < n; i++) {
        if (!strcmp(ibv_get_device_name(list[i]), name)) {
            return list[i];
        }
    }
    return NULL;
}

/* Finds the device 'devname' names in 'list', of 'n' devices: a verbs
 * device, else the RDMA device of a network interface.  In the latter case
 * stores that device's name in '*ibdevp' (the caller frees it), otherwise
 * NULL. */
static struct ibv_device *
resolve_device(struct ibv_device **list, int n, const char *devname,
               char **ibdevp)
{
    struct ibv_device *device = find_device(list, n, devname);

    *ibdevp = NULL;
    if (!device) {
        *ibdevp = hw_rdma_ifname_to_ibdev(HW_RDMA_SYSFS, devname);
        device = *ibdevp ? find_device(list, n, *ibdevp) : NULL;
    }
    return device;
}

/* The device's place in sysfs (its PCI function) does not depend on the
 * name it is reached by, as the verbs name and the interface name do. */
static char *
rdma_identify(const char *devname)
{
    struct ibv_device **list;
    struct ibv_device *device;
    char *ibdev, *id = NULL;
    int n = 0;

    list = ibv_get_device_list(&n);
    if (!list) {
        return NULL;
    }
    device = resolve_device(list, n, devname, &ibdev);
    if (device) {
        char *link = xasprintf("%s/device", device->ibdev_path);
        char *path = realpath(link, NULL);

        id = (path
              ? xasprintf("RDMA device at %s", path)
              : xasprintf("RDMA device %s", ibv_get_device_name(device)));
        free(path);
        free(link);
    }
    free(ibdev);
    ibv_free_device_list(list);
    return id;
}

static bool
rdma_handles(const char *devname)
{
    struct ibv_device **list;
    char *ibdev;
    bool found;
    int n = 0;

    /* The names mlx5_ib gives its devices, present or not. */
    if (!strncmp(devname, "mlx5_", 5)) {
        return true;
    }

    list = ibv_get_device_list(&n);
    found = list && find_device(list, n, devname);
    if (list) {
        ibv_free_device_list(list);
    }
    if (found) {
        return true;
    }

    ibdev = hw_rdma_ifname_to_ibdev(HW_RDMA_SYSFS, devname);
    free(ibdev);
    return ibdev != NULL;
}

/* Probes.  verbs has no capability bit for ibv_counters or for each packet
 * reformat type, so the device is asked to create one and the object is
 * destroyed at once. */

static bool
probe_counters(struct ibv_context *ctx, struct svec *why)
{
    struct ibv_counters_init_attr init = { .comp_mask = 0 };
    struct ibv_counters *counters;

    errno = 0;
    counters = ibv_create_counters(ctx, &init);
    if (!counters) {
        if (why) {
            svec_add_nocopy(why, xasprintf(
                "flow counters unavailable (ibv_create_counters: %s): "
                "offloaded flows cannot be counted",
                ovs_strerror(rdma_errno())));
        }
        return false;
    }
    ibv_destroy_counters(counters);
    return true;
}

/* Headers for the reformat probes: documentation addresses (RFC 5737,
 * RFC 7042), VXLAN to port 4789, GRE carrying IPv4. */
#define PROBE_ETH \
    0x02, 0x00, 0x5e, 0x10, 0x00, 0x02, 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01, \
    0x08, 0x00
#define PROBE_IPV4(PROTO) \
    0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, PROTO, 0x00, 0x00, \
    0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02

static const uint8_t probe_vxlan[] = {
    PROBE_ETH, PROBE_IPV4(0x11),
    0xc0, 0x00, 0x12, 0xb5, 0x00, 0x00, 0x00, 0x00,     /* UDP. */
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,     /* VXLAN, VNI 1. */
};
static const uint8_t probe_gre[] = {
    PROBE_ETH, PROBE_IPV4(0x2f),
    0x00, 0x00, 0x08, 0x00,                             /* GRE, IPv4. */
};
static const uint8_t probe_l2[] = { PROBE_ETH };

static const struct {
    enum mlx5dv_flow_action_packet_reformat_type type;
    enum mlx5dv_flow_table_type ft_type;
    const uint8_t *data;
    size_t size;
    const char *what;
} reformat_probes[] = {
    { MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2,
      MLX5DV_FLOW_TABLE_TYPE_NIC_RX, NULL, 0, "L2 tunnel decap" },
    { MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
      MLX5DV_FLOW_TABLE_TYPE_NIC_TX, probe_vxlan, sizeof probe_vxlan,
      "L2 tunnel encap" },
    { MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2,
      MLX5DV_FLOW_TABLE_TYPE_NIC_RX, probe_l2, sizeof probe_l2,
      "L3 tunnel decap" },
    { MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL,
      MLX5DV_FLOW_TABLE_TYPE_NIC_TX, probe_gre, sizeof probe_gre,
      "L3 tunnel encap" },
};

static uint32_t
probe_reformats(struct ibv_context *ctx, struct svec *why)
{
    uint32_t types = 0;

    for (size_t i = 0; i < ARRAY_SIZE(reformat_probes); i++) {
        struct ibv_flow_action *action;

        errno = 0;
        action = mlx5dv_create_flow_action_packet_reformat(
            ctx, reformat_probes[i].size,
            CONST_CAST(uint8_t *, reformat_probes[i].data),
            reformat_probes[i].type, reformat_probes[i].ft_type);
        if (action) {
            types |= 1u << reformat_probes[i].type;
            ibv_destroy_flow_action(action);
        } else if (why) {
            svec_add_nocopy(why, xasprintf(
                "%s unavailable (mlx5dv_create_flow_action_packet_reformat:"
                " %s): such tunnel flows stay in software",
                reformat_probes[i].what, ovs_strerror(rdma_errno())));
        }
    }
    return types;
}

/* Fills 'caps' for 'ctx'.  If 'why' is nonnull, appends to it one line per
 * capability the plugin uses that the device lacks, with the consequence.
 * Returns 0 or the errno of the device or port query. */
static int
rdma_query(struct ibv_context *ctx, struct hw_dev_caps *caps,
           struct svec *why)
{
    const char *ibdev = ibv_get_device_name(ctx->device);
    bool mlx5 = mlx5dv_is_supported(ctx->device);
    struct ibv_device_attr_ex attr;
    struct ibv_port_attr port;
    uint32_t ind_size;
    char *ifname;
    int error;

    memset(caps, 0, sizeof *caps);

    memset(&attr, 0, sizeof attr);
    error = rdma_ret(ibv_query_device_ex(ctx, NULL, &attr));
    if (error) {
        return error;
    }
    memset(&port, 0, sizeof port);
    error = rdma_ret(ibv_query_port(ctx, HW_RDMA_PORT, &port));
    if (error) {
        return error;
    }

    caps->flow_steering = ((attr.orig_attr.device_cap_flags
                            | attr.device_cap_flags_ex)
                           & IBV_DEVICE_MANAGED_FLOW_STEERING) != 0;
    if (!caps->flow_steering && why) {
        svec_add(why, "no managed flow steering "
                 "(IBV_DEVICE_MANAGED_FLOW_STEERING): no steering rules");
    }

    /* Raw Ethernet QPs exist on Ethernet ports only. */
    caps->raw_packet_qp = port.link_layer == IBV_LINK_LAYER_ETHERNET;
    if (!caps->raw_packet_qp && why) {
        svec_add(why, "port 1 is not Ethernet: no raw packet QPs");
    }
    if (port.state != IBV_PORT_ACTIVE && why) {
        svec_add_nocopy(why, xasprintf("port 1 is %s",
                                       ibv_port_state_str(port.state)));
    }

    /* Priorities and reformat actions are mlx5's (libmlx5, mlx5_ib). */
    caps->max_flow_priority = mlx5 ? HW_RDMA_MLX5_MAX_PRIO : 0;
    if (!mlx5 && why) {
        svec_add(why, "not an mlx5 device: flow priorities and packet "
                 "reformat unknown");
    }
    caps->max_flow_specs = HW_RDMA_MAX_SPECS;
    caps->max_rules = HW_RDMA_MAX_RULES;

    caps->max_wqs = attr.max_wq_type_rq;
    ind_size = attr.rss_caps.max_rwq_indirection_table_size;
    caps->max_rwq_ind_log = (ind_size
                             ? MIN(log_2_floor(ind_size), HW_RDMA_MAX_LOG_IND)
                             : 0);
    if ((attr.rss_caps.supported_qpts & (1u << IBV_QPT_RAW_PACKET))
        && (attr.rss_caps.rx_hash_function & IBV_RX_HASH_FUNC_TOEPLITZ)) {
        caps->rx_hash_fields = attr.rss_caps.rx_hash_fields_mask;
    } else if (why) {
        svec_add(why, "no Toeplitz RSS on raw packet QPs (rss_caps): "
                 "no receive queues");
    }
    if ((!caps->max_wqs || !ind_size) && why) {
        svec_add(why, "no receive work queues or indirection tables "
                 "(max_wq_type_rq, rss_caps)");
    }

    caps->counters = probe_counters(ctx, why);
    if (mlx5) {
        caps->reformat_types = probe_reformats(ctx, why);
        hw_dr_probe(ctx, caps, why);
    }
    caps->max_encap_header =
        (caps->reformat_types
         & ((1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL)
            | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL))
         ? HW_RDMA_MAX_ENCAP : 0);

    caps->phys_port_cnt = attr.orig_attr.phys_port_cnt;
    ovs_strlcpy(caps->fw_ver, attr.orig_attr.fw_ver, sizeof caps->fw_ver);

    ifname = hw_rdma_ibdev_to_ifname(HW_RDMA_SYSFS, ibdev, HW_RDMA_PORT);
    if (ifname) {
        read_netdev(ifname, &caps->mac, &caps->mtu);
    } else if (why) {
        svec_add(why, "no network interface found for port 1: MAC and MTU "
                 "unknown");
    }
    free(ifname);
    return 0;
}

static int
rdma_open(const char *devname, struct ibv_context **ctxp)
{
    struct ibv_device **list;
    struct ibv_device *device;
    struct ibv_context *ctx;
    struct hw_dev_caps caps;
    struct svec why;
    char *ibdev = NULL;
    int n = 0, error;

    *ctxp = NULL;

    errno = 0;
    list = ibv_get_device_list(&n);
    if (!list) {
        error = rdma_errno();
        VLOG_WARN("%s: no such RDMA device: rdma-core cannot list devices "
                  "(%s%s)", devname, ovs_strerror(error),
                  error == ENOSYS ? ": no RDMA subsystem, is ib_uverbs "
                  "loaded?" : "");
        return ENODEV;
    }

    device = resolve_device(list, n, devname, &ibdev);
    if (!device) {
        if (ibdev) {
            VLOG_WARN("%s: interface's RDMA device %s is not known to "
                      "rdma-core (is its provider installed?)", devname,
                      ibdev);
        } else {
            VLOG_WARN("%s: no such RDMA device or network interface with "
                      "an RDMA device (%d RDMA device%s present)", devname,
                      n, n == 1 ? "" : "s");
        }
        free(ibdev);
        ibv_free_device_list(list);
        return ENODEV;
    }

    errno = 0;
    ctx = hw_dr_open_device(device);
    error = ctx ? 0 : rdma_errno();
    /* An open device keeps its own reference to the list entry. */
    ibv_free_device_list(list);
    if (error) {
        VLOG_WARN("%s: ibv_open_device(%s) failed: %s", devname,
                  ibdev ? ibdev : devname, ovs_strerror(error));
        free(ibdev);
        return error;
    }

    /* Say once, at open, what the device cannot do.  The caller reads
     * the capabilities through query_caps() and turns the matching
     * features off; the port itself keeps forwarding in software. */
    svec_init(&why);
    error = rdma_query(ctx, &caps, &why);
    if (error) {
        VLOG_WARN("%s: cannot query the device's capabilities: %s",
                  devname, ovs_strerror(error));
    } else {
        const char *reason;
        size_t i;

        VLOG_INFO("%s: opened RDMA device %s (firmware %s), %"PRIuSIZE" "
                  "capabilit%s missing", devname, ibdev ? ibdev : devname,
                  caps.fw_ver, why.n, why.n == 1 ? "y" : "ies");
        SVEC_FOR_EACH (i, reason, &why) {
            VLOG_WARN("%s: %s; forwarding continues in software", devname,
                      reason);
        }
    }
    svec_destroy(&why);
    free(ibdev);

    *ctxp = ctx;
    return 0;
}

static void
rdma_close(struct ibv_context *ctx)
{
    if (ctx) {
        int error = rdma_ret(ibv_close_device(ctx));

        if (error) {
            VLOG_WARN("ibv_close_device failed: %s", ovs_strerror(error));
        }
    }
}

static int
rdma_query_caps(struct ibv_context *ctx, struct hw_dev_caps *caps)
{
    return rdma_query(ctx, caps, NULL);
}

static int
rdma_get_async_event(struct ibv_context *ctx, enum ibv_event_type *event)
{
    struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
    struct ibv_async_event ev;

    /* ibv_get_async_event() blocks on an empty queue. */
    if (poll(&pfd, 1, 0) != 1 || ibv_get_async_event(ctx, &ev)) {
        return EAGAIN;
    }
    *event = ev.event_type;
    ibv_ack_async_event(&ev);
    return 0;
}

/* Protection domains and completion queues. */

static int
rdma_alloc_pd(struct ibv_context *ctx, struct ibv_pd **pdp)
{
    errno = 0;
    *pdp = ibv_alloc_pd(ctx);
    return *pdp ? 0 : rdma_errno();
}

static int
rdma_dealloc_pd(struct ibv_pd *pd)
{
    return rdma_ret(ibv_dealloc_pd(pd));
}

static int
rdma_create_cq(struct ibv_context *ctx, int cqe, struct ibv_cq_ex **cqp)
{
    struct ibv_cq_init_attr_ex attr = {
        .cqe = cqe,
        .wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_FLOW_TAG,
    };

    errno = 0;
    *cqp = ibv_create_cq_ex(ctx, &attr);
    return *cqp ? 0 : rdma_errno();
}

static int
rdma_destroy_cq(struct ibv_cq_ex *cq)
{
    return rdma_ret(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
}

/* Every CQ of this backend comes from ibv_create_cq_ex(), so the struct
 * ibv_cq a QP or WQ points to is the start of a struct ibv_cq_ex (the
 * inverse of ibv_cq_ex_to_cq()). */
static struct ibv_cq_ex *
cq_ex(struct ibv_cq *cq)
{
    return ALIGNED_CAST(struct ibv_cq_ex *, cq);
}

/* Receive work queues. */

struct rdma_rxq {
    struct ovs_mutex mutex;     /* rx_burst() against modify_wq(). */
    struct ibv_mr *mr;          /* Registers 'bufs'. */
    uint8_t *bufs;              /* 'n_slots' buffers of HW_RDMA_BUF_SIZE. */
    uint32_t n_slots;
    uint32_t *pending;          /* Slots to post. */
    uint32_t n_pending;
    enum ibv_wq_state state;    /* As last set by modify_wq(). */
};

static void
rdma_rxq_free(struct rdma_rxq *rxq)
{
    if (rxq->mr) {
        int error = rdma_ret(ibv_dereg_mr(rxq->mr));

        if (error) {
            VLOG_WARN_RL(&rl, "ibv_dereg_mr failed: %s",
                         ovs_strerror(error));
        }
    }
    free_pagealign(rxq->bufs);
    free(rxq->pending);
    ovs_mutex_destroy(&rxq->mutex);
    free(rxq);
}

/* Posts the pending receive buffers of 'wq'.  Returns 0 or the errno of
 * ibv_post_wq_recv(); the slots it did not take stay pending. */
static int
rdma_rxq_post(struct ibv_wq *wq, struct rdma_rxq *rxq)
    OVS_REQUIRES(rxq->mutex)
{
    enum { CHUNK = 64 };

    while (rxq->n_pending) {
        struct ibv_recv_wr wrs[CHUNK], *bad = NULL;
        struct ibv_sge sges[CHUNK];
        uint32_t n = MIN(rxq->n_pending, CHUNK);
        uint32_t *slots = &rxq->pending[rxq->n_pending - n];
        int error;

        for (uint32_t i = 0; i < n; i++) {
            sges[i].addr = (uintptr_t) (rxq->bufs
                                        + (size_t) slots[i]
                                          * HW_RDMA_BUF_SIZE);
            sges[i].length = HW_RDMA_BUF_SIZE;
            sges[i].lkey = rxq->mr->lkey;
            wrs[i].wr_id = slots[i];
            wrs[i].next = i + 1 < n ? &wrs[i + 1] : NULL;
            wrs[i].sg_list = &sges[i];
            wrs[i].num_sge = 1;
        }
        error = rdma_ret(ibv_post_wq_recv(wq, wrs, &bad));
        if (error) {
            /* The requests before 'bad' were posted. */
            uint32_t posted = bad ? bad - wrs : 0;

            memmove(slots, slots + posted, (n - posted) * sizeof *slots);
            rxq->n_pending -= posted;
            return error;
        }
        rxq->n_pending -= n;
    }
    return 0;
}

static int
rdma_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *attr,
               struct ibv_wq **wqp)
{
    /* The library rounds max_wr up; the caller sized the CQ for what it
     * asked, so that is what is posted. */
    uint32_t n_slots = attr->max_wr;
    size_t size = (size_t) n_slots * HW_RDMA_BUF_SIZE;
    struct rdma_rxq *rxq;
    struct ibv_wq *wq;
    int error, destroy_error;

    errno = 0;
    wq = ibv_create_wq(ctx, attr);
    if (!wq) {
        *wqp = NULL;
        return rdma_errno();
    }

    rxq = xzalloc(sizeof *rxq);
    ovs_mutex_init(&rxq->mutex);
    rxq->n_slots = n_slots;
    rxq->state = IBV_WQS_RESET;
    rxq->pending = xcalloc(MAX(n_slots, 1), sizeof *rxq->pending);
    if (size) {
        rxq->bufs = xmalloc_pagealign(size);
        errno = 0;
        rxq->mr = ibv_reg_mr(attr->pd, rxq->bufs, size,
                             IBV_ACCESS_LOCAL_WRITE);
        if (!rxq->mr) {
            error = rdma_errno();
            rdma_rxq_free(rxq);
            destroy_error = rdma_ret(ibv_destroy_wq(wq));
            if (destroy_error) {
                VLOG_WARN("ibv_destroy_wq failed: %s",
                          ovs_strerror(destroy_error));
            }
            *wqp = NULL;
            return error;
        }
    }

    wq->wq_context = rxq;
    *wqp = wq;
    return 0;
}

static int
rdma_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr)
{
    struct rdma_rxq *rxq = wq->wq_context;
    int error;

    ovs_mutex_lock(&rxq->mutex);
    error = rdma_ret(ibv_modify_wq(wq, attr));
    if (!error && attr->attr_mask & IBV_WQ_ATTR_STATE) {
        if (rxq->state == IBV_WQS_RESET && attr->wq_state == IBV_WQS_RDY) {
            /* libmlx5 empties the ring on RESET to RDY: every buffer is
             * to be posted. */
            for (uint32_t i = 0; i < rxq->n_slots; i++) {
                rxq->pending[i] = i;
            }
            rxq->n_pending = rxq->n_slots;
        }
        rxq->state = attr->wq_state;
        if (rxq->state == IBV_WQS_RDY) {
            error = rdma_rxq_post(wq, rxq);
        }
    }
    ovs_mutex_unlock(&rxq->mutex);
    return error;
}

static int
rdma_destroy_wq(struct ibv_wq *wq)
{
    struct rdma_rxq *rxq = wq->wq_context;
    int error;

    /* On failure (EBUSY: an indirection table still holds it) the WQ and
     * its buffers stay. */
    error = rdma_ret(ibv_destroy_wq(wq));
    if (!error && rxq) {
        rdma_rxq_free(rxq);
    }
    return error;
}

static int
rdma_create_rwq_ind_table(struct ibv_context *ctx,
                          struct ibv_rwq_ind_table_init_attr *attr,
                          struct ibv_rwq_ind_table **tablep)
{
    errno = 0;
    *tablep = ibv_create_rwq_ind_table(ctx, attr);
    return *tablep ? 0 : rdma_errno();
}

static int
rdma_destroy_rwq_ind_table(struct ibv_rwq_ind_table *table)
{
    return rdma_ret(ibv_destroy_rwq_ind_table(table));
}

/* Queue pairs. */

struct rdma_txq {
    struct ibv_mr *mr;          /* Registers 'bufs'. */
    uint8_t *bufs;              /* 'n_slots' buffers of HW_RDMA_BUF_SIZE. */
    uint32_t n_slots;
    uint32_t signal;            /* Completion every 'signal' sends. */
    uint64_t head;              /* Sends posted; the next one's wr_id. */
    uint64_t tail;              /* Sends known to be complete. */
};

static void
rdma_txq_free(struct rdma_txq *txq)
{
    if (txq->mr) {
        int error = rdma_ret(ibv_dereg_mr(txq->mr));

        if (error) {
            VLOG_WARN_RL(&rl, "ibv_dereg_mr failed: %s",
                         ovs_strerror(error));
        }
    }
    free_pagealign(txq->bufs);
    free(txq);
}

int
hw_rdma_qp_to_rts(struct ibv_qp *qp, uint32_t port_num)
{
    static const enum ibv_qp_state states[] = {
        IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
    };

    for (size_t i = 0; i < ARRAY_SIZE(states); i++) {
        struct ibv_qp_attr attr;
        int mask = IBV_QP_STATE;
        int error;

        memset(&attr, 0, sizeof attr);
        attr.qp_state = states[i];
        if (states[i] == IBV_QPS_INIT) {
            attr.port_num = port_num;
            mask |= IBV_QP_PORT;
        }
        error = rdma_ret(ibv_modify_qp(qp, &attr, mask));
        if (error) {
            return error;
        }
    }
    return 0;
}

static int
rdma_create_qp(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr,
               struct ibv_qp **qpp)
{
    /* As for WQs, the requested size is the one the CQ was sized for. */
    uint32_t n_slots = attr->cap.max_send_wr;
    bool sends = (attr->qp_type == IBV_QPT_RAW_PACKET && n_slots
                  && !(attr->comp_mask & (IBV_QP_INIT_ATTR_IND_TABLE
                                          | IBV_QP_INIT_ATTR_RX_HASH)));
    size_t size = (size_t) n_slots * HW_RDMA_BUF_SIZE;
    struct rdma_txq *txq;
    struct ibv_qp *qp;
    int error;

    *qpp = NULL;
    errno = 0;
    qp = ibv_create_qp_ex(ctx, attr);
    if (!qp) {
        return rdma_errno();
    }
    qp->qp_context = NULL;
    if (!sends) {
        *qpp = qp;
        return 0;
    }

    txq = xzalloc(sizeof *txq);
    txq->n_slots = n_slots;
    txq->signal = MIN(HW_RDMA_TX_SIGNAL, n_slots);
    txq->bufs = xmalloc_pagealign(size);
    errno = 0;
    txq->mr = ibv_reg_mr(qp->pd, txq->bufs, size, 0);
    error = (txq->mr ? hw_rdma_qp_to_rts(qp, HW_RDMA_PORT)
             : rdma_errno());
    if (error) {
        int destroy_error = rdma_ret(ibv_destroy_qp(qp));

        if (destroy_error) {
            VLOG_WARN("ibv_destroy_qp failed: %s",
                      ovs_strerror(destroy_error));
        }
        rdma_txq_free(txq);
        return error;
    }

    qp->qp_context = txq;
    *qpp = qp;
    return 0;
}

static int
rdma_destroy_qp(struct ibv_qp *qp)
{
    struct rdma_txq *txq = qp->qp_context;
    int error;

    /* On failure (EBUSY: a steering rule still points to it) the QP and
     * its buffers stay. */
    error = rdma_ret(ibv_destroy_qp(qp));
    if (!error && txq) {
        rdma_txq_free(txq);
    }
    return error;
}

/* Steering rules, counters, reformat actions. */

static int
rdma_create_flow(struct ibv_qp *qp, struct ibv_flow_attr *attr,
                 struct ibv_flow **flowp)
{
    errno = 0;
    *flowp = ibv_create_flow(qp, attr);
    return *flowp ? 0 : rdma_errno();
}

static int
rdma_destroy_flow(struct ibv_flow *flow)
{
    return rdma_ret(ibv_destroy_flow(flow));
}

static int
rdma_create_counters(struct ibv_context *ctx, struct ibv_counters **cp)
{
    struct ibv_counters_init_attr init = { .comp_mask = 0 };

    errno = 0;
    *cp = ibv_create_counters(ctx, &init);
    return *cp ? 0 : rdma_errno();
}

static int
rdma_attach_counters(struct ibv_counters *counters,
                     struct ibv_counter_attach_attr *attr)
{
    /* Static attach: no flow yet (mlx5 supports no other mode). */
    return rdma_ret(ibv_attach_counters_point_flow(counters, attr, NULL));
}

static int
rdma_read_counters(struct ibv_counters *counters, uint64_t *values,
                   uint32_t n_values)
{
    return rdma_ret(ibv_read_counters(counters, values, n_values, 0));
}

static int
rdma_destroy_counters(struct ibv_counters *counters)
{
    return rdma_ret(ibv_destroy_counters(counters));
}

static int
rdma_create_reformat(struct ibv_context *ctx, size_t data_sz, void *data,
                     enum mlx5dv_flow_action_packet_reformat_type type,
                     enum mlx5dv_flow_table_type ft_type,
                     struct ibv_flow_action **actionp)
{
    errno = 0;
    *actionp = mlx5dv_create_flow_action_packet_reformat(ctx, data_sz, data,
                                                         type, ft_type);
    return *actionp ? 0 : rdma_errno();
}

static int
rdma_destroy_action(struct ibv_flow_action *action)
{
    return rdma_ret(ibv_destroy_flow_action(action));
}

/* Datapath. */

static int
rdma_rx_burst(struct ibv_wq *wq, struct ibv_cq_ex *cq,
              struct dp_packet_batch *batch)
{
    struct ibv_poll_cq_attr poll_attr = { .comp_mask = 0 };
    struct rdma_rxq *rxq = wq->wq_context;
    int n_rx = 0, error;

    if (!cq) {
        cq = cq_ex(wq->cq);
    }

    ovs_mutex_lock(&rxq->mutex);
    error = (dp_packet_batch_is_full(batch)
             ? ENOENT : ibv_start_poll(cq, &poll_attr));
    if (!error) {
        do {
            uint64_t slot = cq->wr_id;

            if (slot >= rxq->n_slots) {
                /* Not one of ours: the CQ serves another queue too. */
                COVERAGE_INC(hw_rdma_rx_error);
                VLOG_WARN_RL(&rl, "rx_burst: completion for an unknown "
                             "buffer %"PRIu64, slot);
                continue;
            }
            if (cq->status == IBV_WC_SUCCESS) {
                const uint8_t *buf = rxq->bufs + slot * HW_RDMA_BUF_SIZE;
                uint32_t len = MIN(ibv_wc_read_byte_len(cq),
                                   HW_RDMA_BUF_SIZE);
                uint32_t tag = ibv_wc_read_flow_tag(cq);
                struct dp_packet *packet;

                packet = dp_packet_clone_data_with_headroom(
                    buf, len, DP_NETDEV_HEADROOM);
                if (tag) {
                    dp_packet_set_flow_mark(packet, tag);
                }
                dp_packet_batch_add(batch, packet);
                n_rx++;
            } else if (cq->status != IBV_WC_WR_FLUSH_ERR) {
                COVERAGE_INC(hw_rdma_rx_error);
                VLOG_WARN_RL(&rl, "rx_burst: receive completion error: %s",
                             ibv_wc_status_str(cq->status));
            }
            if (rxq->n_pending < rxq->n_slots) {
                rxq->pending[rxq->n_pending++] = slot;
            }
        } while (!dp_packet_batch_is_full(batch)
                 && !(error = ibv_next_poll(cq)));
        ibv_end_poll(cq);
    }
    /* ENOENT: no more completions. */
    error = error == ENOENT ? 0 : rdma_ret(error);

    /* A WQ that is not RDY gets its buffers back when it becomes RDY. */
    if (rxq->state == IBV_WQS_RDY && rxq->n_pending) {
        int post_error = rdma_rxq_post(wq, rxq);

        if (post_error) {
            COVERAGE_INC(hw_rdma_rx_error);
            VLOG_WARN_RL(&rl, "rx_burst: ibv_post_wq_recv failed: %s",
                         ovs_strerror(post_error));
            error = error ? error : post_error;
        }
    }
    ovs_mutex_unlock(&rxq->mutex);

    if (n_rx) {
        return 0;
    }
    return error ? error : EAGAIN;
}

/* Takes back the send slots whose completions have arrived.  Sends
 * complete in order, so a completion covers every earlier send. */
static void
rdma_txq_reclaim(struct ibv_qp *qp, struct rdma_txq *txq)
{
    struct ibv_poll_cq_attr poll_attr = { .comp_mask = 0 };
    struct ibv_cq_ex *cq = cq_ex(qp->send_cq);

    if (ibv_start_poll(cq, &poll_attr)) {
        return;
    }
    do {
        if (cq->status != IBV_WC_SUCCESS) {
            COVERAGE_INC(hw_rdma_tx_error);
            VLOG_WARN_RL(&rl, "tx_burst: send completion error: %s",
                         ibv_wc_status_str(cq->status));
        }
        if (cq->wr_id >= txq->tail && cq->wr_id < txq->head) {
            txq->tail = cq->wr_id + 1;
        }
    } while (!ibv_next_poll(cq));
    ibv_end_poll(cq);
}

static int
rdma_tx_burst(struct ibv_qp *qp, struct dp_packet_batch *batch)
{
    struct ibv_send_wr wrs[NETDEV_MAX_BURST], *bad = NULL;
    struct ibv_sge sges[NETDEV_MAX_BURST];
    size_t n_packets = dp_packet_batch_size(batch);
    struct rdma_txq *txq = qp->qp_context;
    struct dp_packet *packet;
    size_t n_wr = 0, n_posted = 0;

    if (!txq) {
        VLOG_WARN_RL(&rl, "tx_burst on a QP that cannot send");
        dp_packet_delete_batch(batch, true);
        return n_packets;
    }

    rdma_txq_reclaim(qp, txq);
    DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
        uint32_t size = dp_packet_size(packet);
        uint64_t seq = txq->head + n_wr;
        uint8_t *slot;

        if (seq - txq->tail >= txq->n_slots) {
            rdma_txq_reclaim(qp, txq);
            if (seq - txq->tail >= txq->n_slots) {
                /* The send queue is full: the rest of the batch is
                 * dropped. */
                COVERAGE_INC(hw_rdma_tx_full);
                break;
            }
        }
        if (size > HW_RDMA_BUF_SIZE) {
            continue;
        }

        slot = txq->bufs + (seq % txq->n_slots) * HW_RDMA_BUF_SIZE;
        memcpy(slot, dp_packet_data(packet), size);
        sges[n_wr].addr = (uintptr_t) slot;
        sges[n_wr].length = size;
        sges[n_wr].lkey = txq->mr->lkey;

        memset(&wrs[n_wr], 0, sizeof wrs[n_wr]);
        wrs[n_wr].wr_id = seq;
        wrs[n_wr].sg_list = &sges[n_wr];
        wrs[n_wr].num_sge = 1;
        wrs[n_wr].opcode = IBV_WR_SEND;
        wrs[n_wr].send_flags = (seq % txq->signal == txq->signal - 1
                                ? IBV_SEND_SIGNALED : 0);
        if (n_wr) {
            wrs[n_wr - 1].next = &wrs[n_wr];
        }
        n_wr++;
    }

    if (n_wr) {
        int error = rdma_ret(ibv_post_send(qp, wrs, &bad));

        if (error) {
            /* The requests before 'bad' were posted. */
            n_posted = bad ? bad - wrs : 0;
            COVERAGE_INC(hw_rdma_tx_error);
            VLOG_WARN_RL(&rl, "tx_burst: ibv_post_send failed: %s",
                         ovs_strerror(error));
        } else {
            n_posted = n_wr;
        }
        txq->head += n_posted;
    }

    dp_packet_delete_batch(batch, true);
    return n_packets - n_posted;
}

const struct hw_dev_ops hw_rdma_ops = {
    .name = "rdma",
    .kernel_checks_caps = true,
    .handles = rdma_handles,
    .identify = rdma_identify,
    .open = rdma_open,
    .close = rdma_close,
    .query_caps = rdma_query_caps,
    .get_async_event = rdma_get_async_event,
    .alloc_pd = rdma_alloc_pd,
    .dealloc_pd = rdma_dealloc_pd,
    .create_cq = rdma_create_cq,
    .destroy_cq = rdma_destroy_cq,
    .create_wq = rdma_create_wq,
    .modify_wq = rdma_modify_wq,
    .destroy_wq = rdma_destroy_wq,
    .create_rwq_ind_table = rdma_create_rwq_ind_table,
    .destroy_rwq_ind_table = rdma_destroy_rwq_ind_table,
    .create_qp = rdma_create_qp,
    .destroy_qp = rdma_destroy_qp,
    .create_flow = rdma_create_flow,
    .destroy_flow = rdma_destroy_flow,
    .create_counters = rdma_create_counters,
    .attach_counters = rdma_attach_counters,
    .read_counters = rdma_read_counters,
    .destroy_counters = rdma_destroy_counters,
    .create_reformat = rdma_create_reformat,
    .destroy_action = rdma_destroy_action,
    .rx_burst = rdma_rx_burst,
    .tx_burst = rdma_tx_burst,
    /* The firmware dump goes to the device's PCI function: devlink health
     * on Linux, /dev/mlx5ctl on FreeBSD. */
    .fwdump_force = hw_fwdump_verbs_force,
    .fwdump_get = hw_fwdump_verbs_get,
    .fwdump_reset = hw_fwdump_verbs_reset,
    /* The pipeline of tables: mlx5dv_dr, where hw_dr_probe() found it. */
    .dr_domain_create = hw_dr_domain_create,
    .dr_domain_sync = hw_dr_domain_sync,
    .dr_domain_destroy = hw_dr_domain_destroy,
    .dr_table_create = hw_dr_table_create,
    .dr_table_destroy = hw_dr_table_destroy,
    .dr_matcher_create = hw_dr_matcher_create,
    .dr_matcher_destroy = hw_dr_matcher_destroy,
    .dr_rule_create = hw_dr_rule_create,
    .dr_rule_destroy = hw_dr_rule_destroy,
    .dr_action_create = hw_dr_action_create,
    .dr_action_destroy = hw_dr_action_destroy,
    .dr_action_modify_meter = hw_dr_action_modify_meter,
    .dr_counter_create = hw_dr_counter_create,
    .dr_geneve_opt_create = hw_dr_geneve_opt_create,
    .dr_geneve_opt_destroy = hw_dr_geneve_opt_destroy,
    .dr_counter_query = hw_dr_counter_query,
    .dr_counter_destroy = hw_dr_counter_destroy,
    /* The e-switch (hw-rdma-eswitch.c). */
    .representor_port = hw_rdma_representor_port,
    .query_port = hw_rdma_query_port,
    .bind_qp_port = hw_rdma_bind_qp_port,
};

#endif /* HAVE_HW_RDMA */
