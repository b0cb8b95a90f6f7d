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
#include "hw-model-afpacket.h"

#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#endif

#include "csum.h"
#include "dp-packet.h"
#include "hash.h"
#include "hw-model.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/hmap.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "packets.h"
#include "socket-util.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_afpacket);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

/* How long the reader sleeps in poll() before it looks whether it should
 * stop. */
#define READER_POLL_MS 100

/* Largest frame read: a 64 kB IP packet in a tagged Ethernet frame. */
#define MAX_FRAME (UINT16_MAX + ETH_HEADER_LEN + 2 * VLAN_HEADER_LEN)

/* Room left in front of a received frame, for the model's reformats. */
#define RX_HEADROOM 128

struct afpacket_port {
    struct hmap_node node;      /* In 'ports', by hash of 'devname'. */
    char *devname;
    char *ifname;
    int ifindex;
    int fd;
    bool ignore_outgoing;       /* PACKET_IGNORE_OUTGOING took. */
    pthread_t reader;
    atomic_bool stop;

    struct ovs_mutex stats_mutex;
    struct hw_model_afpacket_stats stats OVS_GUARDED;
};

static struct ovs_mutex ports_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap ports OVS_GUARDED_BY(ports_mutex)
    = HMAP_INITIALIZER(&ports);

static struct afpacket_port *
port_find(const char *devname)
    OVS_REQUIRES(ports_mutex)
{
    struct afpacket_port *port;

    HMAP_FOR_EACH_WITH_HASH (port, node, hash_string(devname, 0), &ports) {
        if (!strcmp(port->devname, devname)) {
            return port;
        }
    }
    return NULL;
}

#ifdef __linux__
/* Completes a checksum the kernel left to offload: the field at
 * 'csum_start' + 'csum_offset' holds the pseudo-header sum, and the
 * checksum covers everything from 'csum_start' to the end. */
static bool
complete_csum(uint8_t *frame, size_t len, size_t csum_start,
              size_t csum_offset)
{
    ovs_be16 sum;

    if (csum_start >= len || csum_offset + 2 > len - csum_start) {
        return false;
    }
    sum = csum(frame + csum_start, len - csum_start);
    if (!sum) {
        /* 0 means "no checksum" to UDP; 0xffff is the same sum. */
        sum = OVS_BE16_MAX;
    }
    memcpy(frame + csum_start + csum_offset, &sum, 2);
    return true;
}

/* Reads one frame from 'port''s socket and hands it to the model.  Returns
 * false when there is nothing more to read. */
static bool
reader_one(struct afpacket_port *port, uint8_t *buf)
{
    union {
        struct cmsghdr cmsg;
        uint8_t data[CMSG_SPACE(sizeof (struct tpacket_auxdata))];
    } control;
    const struct tpacket_auxdata *aux = NULL;
    struct virtio_net_hdr vnet;
    struct sockaddr_ll sll;
    struct dp_packet *packet;
    struct iovec iov[2];
    struct msghdr msg;
    bool csum_done = false;
    uint32_t vlan = 0;
    ssize_t n;
    size_t len;

    memset(&vnet, 0, sizeof vnet);
    iov[0].iov_base = &vnet;
    iov[0].iov_len = sizeof vnet;
    iov[1].iov_base = buf;
    iov[1].iov_len = MAX_FRAME;
    memset(&msg, 0, sizeof msg);
    msg.msg_name = &sll;
    msg.msg_namelen = sizeof sll;
    msg.msg_iov = iov;
    msg.msg_iovlen = 2;
    msg.msg_control = &control;
    msg.msg_controllen = sizeof control;

    n = recvmsg(port->fd, &msg, MSG_DONTWAIT | MSG_TRUNC);
    if (n < 0) {
        if (errno != EAGAIN && errno != EINTR) {
            VLOG_WARN_RL(&rl, "%s: read from %s failed (%s)", port->devname,
                         port->ifname, ovs_strerror(errno));
        }
        return false;
    }
    if (!port->ignore_outgoing && sll.sll_pkttype == PACKET_OUTGOING) {
        return true;
    }

    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
         c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_PACKET && c->cmsg_type == PACKET_AUXDATA
            && c->cmsg_len >= CMSG_LEN(sizeof *aux)) {
            aux = ALIGNED_CAST(const struct tpacket_auxdata *, CMSG_DATA(c));
        }
    }

    if (n < (ssize_t) sizeof vnet || msg.msg_flags & MSG_TRUNC
        || vnet.gso_type != VIRTIO_NET_HDR_GSO_NONE
        || n - sizeof vnet < ETH_HEADER_LEN) {
        if (vnet.gso_type != VIRTIO_NET_HDR_GSO_NONE) {
            VLOG_WARN_RL(&rl, "%s: %s handed over a segmentation offload "
                         "frame (dropped): set gso_max_segs 1 or turn TSO "
                         "and GSO off on the peer", port->devname,
                         port->ifname);
        }
        ovs_mutex_lock(&port->stats_mutex);
        port->stats.rx_dropped++;
        ovs_mutex_unlock(&port->stats_mutex);
        return true;
    }
    len = n - sizeof vnet;

    if (vnet.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
        csum_done = complete_csum(buf, len, vnet.csum_start,
                                  vnet.csum_offset);
    }
    if (aux && aux->tp_status & TP_STATUS_VLAN_VALID) {
        vlan = ((uint32_t) (aux->tp_status & TP_STATUS_VLAN_TPID_VALID
                            ? aux->tp_vlan_tpid : ETH_TYPE_VLAN_8021Q) << 16)
               | aux->tp_vlan_tci;
    }

    packet = dp_packet_new_with_headroom(len + VLAN_HEADER_LEN,
                                         RX_HEADROOM);
    if (vlan) {
        /* The tag goes after the MAC addresses, as it was on the wire. */
        ovs_be32 tag = htonl(vlan);

        dp_packet_put(packet, buf, 2 * ETH_ADDR_LEN);
        dp_packet_put(packet, &tag, sizeof tag);
        dp_packet_put(packet, buf + 2 * ETH_ADDR_LEN,
                      len - 2 * ETH_ADDR_LEN);
    } else {
        dp_packet_put(packet, buf, len);
    }

    ovs_mutex_lock(&port->stats_mutex);
    port->stats.rx_frames++;
    port->stats.rx_bytes += dp_packet_size(packet);
    port->stats.rx_csum_done += csum_done;
    ovs_mutex_unlock(&port->stats_mutex);

    /* The model counts and explains its own drops. */
    hw_model_receive(port->devname, packet);
    return true;
}

static void *
reader_main(void *port_)
{
    struct afpacket_port *port = port_;
    uint8_t *buf = xmalloc(MAX_FRAME);

    for (;;) {
        struct pollfd pfd = { .fd = port->fd, .events = POLLIN };
        bool stop;
        int n;

        atomic_read_relaxed(&port->stop, &stop);
        if (stop) {
            break;
        }
        /* Waiting in poll() must not hold up RCU in the other threads. */
        ovsrcu_quiesce_start();
        n = poll(&pfd, 1, READER_POLL_MS);
        ovsrcu_quiesce_end();
        if (n > 0) {
            /* A bounded batch, so that a flood cannot delay stopping. */
            for (int i = 0; i < 256 && reader_one(port, buf); i++) {
                continue;
            }
        }
    }
    free(buf);
    return NULL;
}

/* The far end of the model's wire: sends 'packet' on the interface.  Runs
 * with the model device's lock held. */
static void
port_send(void *port_, const struct dp_packet *packet)
{
    struct afpacket_port *port = port_;
    struct virtio_net_hdr vnet;
    struct iovec iov[2];
    struct msghdr msg;
    ssize_t n;

    memset(&vnet, 0, sizeof vnet);
    iov[0].iov_base = &vnet;
    iov[0].iov_len = sizeof vnet;
    iov[1].iov_base = CONST_CAST(void *, dp_packet_data(packet));
    iov[1].iov_len = dp_packet_size(packet);
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = iov;
    msg.msg_iovlen = 2;

    n = sendmsg(port->fd, &msg, MSG_DONTWAIT);

    ovs_mutex_lock(&port->stats_mutex);
    if (n < 0) {
        port->stats.tx_errors++;
    } else {
        port->stats.tx_frames++;
        port->stats.tx_bytes += dp_packet_size(packet);
    }
    ovs_mutex_unlock(&port->stats_mutex);

    if (n < 0) {
        VLOG_WARN_RL(&rl, "%s: sending a %"PRIu32"-byte frame on %s failed "
                     "(%s)", port->devname, dp_packet_size(packet),
                     port->ifname, ovs_strerror(errno));
    }
}

static int OVS_PRINTF_FORMAT(3, 4)
attach_error(char **errorp, int error, const char *format, ...)
{
    if (errorp) {
        va_list args;

        va_start(args, format);
        *errorp = xvasprintf(format, args);
        va_end(args);
    }
    return error;
}

static int
setsockopt_int(int fd, int level, int option, int value)
{
    return setsockopt(fd, level, option, &value, sizeof value) ? errno : 0;
}

/* Opens the socket of 'port'. */
static int
port_open(struct afpacket_port *port, char **errorp)
{
    struct packet_mreq mreq;
    struct sockaddr_ll sll;
    int error;

    /* Protocol 0 until bound, so that no frame of another interface gets
     * queued in between. */
    port->fd = socket(AF_PACKET, SOCK_RAW, 0);
    if (port->fd < 0) {
        error = errno;
        return attach_error(errorp, error, "cannot open an AF_PACKET "
                            "socket (%s)%s", ovs_strerror(error),
                            error == EPERM || error == EACCES
                            ? ": it needs CAP_NET_RAW, run as root" : "");
    }

    error = setsockopt_int(port->fd, SOL_PACKET, PACKET_VNET_HDR, 1);
    if (!error) {
        error = setsockopt_int(port->fd, SOL_PACKET, PACKET_AUXDATA, 1);
    }
    if (error) {
        return attach_error(errorp, error, "cannot set up the AF_PACKET "
                            "socket (%s)", ovs_strerror(error));
    }
    /* Older kernels lack it: the reader then skips outgoing frames. */
    port->ignore_outgoing = !setsockopt_int(port->fd, SOL_PACKET,
                                            PACKET_IGNORE_OUTGOING, 1);

    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = port->ifindex;
    if (bind(port->fd, (struct sockaddr *) &sll, sizeof sll)) {
        error = errno;
        return attach_error(errorp, error, "cannot bind to %s (%s)",
                            port->ifname, ovs_strerror(error));
    }

    memset(&mreq, 0, sizeof mreq);
    mreq.mr_ifindex = port->ifindex;
    mreq.mr_type = PACKET_MR_PROMISC;
    if (setsockopt(port->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mreq,
                   sizeof mreq)) {
        error = errno;
        return attach_error(errorp, error, "cannot make %s promiscuous "
                            "(%s)", port->ifname, ovs_strerror(error));
    }
    return 0;
}
#endif /* __linux__ */

static void
port_free(struct afpacket_port *port)
{
    if (port->fd >= 0) {
        close(port->fd);
    }
    ovs_mutex_destroy(&port->stats_mutex);
    free(port->devname);
    free(port->ifname);
    free(port);
}

int
hw_model_afpacket_attach(const char *devname, const char *ifname,
                         char **errorp)
{
#ifdef __linux__
    struct hw_model_objects objs;
    struct afpacket_port *port;
    int error;

    if (errorp) {
        *errorp = NULL;
    }
    if (hw_model_count_objects(devname, &objs) == ENODEV) {
        return attach_error(errorp, ENODEV, "%s: no such model device%s",
                            devname, hw_model_handles(devname)
                            ? " (not opened yet)" : "");
    }

    ovs_mutex_lock(&ports_mutex);
    if (port_find(devname)) {
        ovs_mutex_unlock(&ports_mutex);
        return attach_error(errorp, EEXIST, "%s: has an interface already",
                            devname);
    }

    port = xzalloc(sizeof *port);
    port->devname = xstrdup(devname);
    port->ifname = xstrdup(ifname);
    port->fd = -1;
    ovs_mutex_init(&port->stats_mutex);
    atomic_init(&port->stop, false);

    port->ifindex = if_nametoindex(ifname);
    if (!port->ifindex) {
        error = attach_error(errorp, ENODEV, "%s: no such interface",
                             ifname);
        goto error;
    }
    error = port_open(port, errorp);
    if (error) {
        goto error;
    }
    error = hw_model_set_wire_tx(devname, port_send, port);
    if (error) {
        error = attach_error(errorp, error, "%s: the far end of its wire "
                             "is taken", devname);
        goto error;
    }
    port->reader = ovs_thread_create("hw_afpacket", reader_main, port);
    hmap_insert(&ports, &port->node, hash_string(devname, 0));
    ovs_mutex_unlock(&ports_mutex);

    VLOG_INFO("%s: wire attached to %s", devname, ifname);
    return 0;

error:
    ovs_mutex_unlock(&ports_mutex);
    port_free(port);
    return error;
#else
    return attach_error(errorp, EOPNOTSUPP, "AF_PACKET needs Linux");
#endif
}

int
hw_model_afpacket_detach(const char *devname)
{
    struct afpacket_port *port;

    ovs_mutex_lock(&ports_mutex);
    port = port_find(devname);
    if (port) {
        hmap_remove(&ports, &port->node);
    }
    ovs_mutex_unlock(&ports_mutex);
    if (!port) {
        return ENOENT;
    }

    /* No frame goes to the socket once this returns. */
    hw_model_set_wire_tx(devname, NULL, NULL);
    atomic_store_relaxed(&port->stop, true);
    xpthread_join(port->reader, NULL);

    VLOG_INFO("%s: wire detached from %s", devname, port->ifname);
    port_free(port);
    return 0;
}

int
hw_model_afpacket_get_stats(const char *devname,
                            struct hw_model_afpacket_stats *stats)
{
    struct afpacket_port *port;

    ovs_mutex_lock(&ports_mutex);
    port = port_find(devname);
    if (port) {
        ovs_mutex_lock(&port->stats_mutex);
        *stats = port->stats;
        ovs_mutex_unlock(&port->stats_mutex);
    } else {
        memset(stats, 0, sizeof *stats);
    }
    ovs_mutex_unlock(&ports_mutex);
    return port ? 0 : ENOENT;
}

static void
unixctl_attach(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[], void *aux OVS_UNUSED)
{
    char *msg;

    if (hw_model_afpacket_attach(argv[1], argv[2], &msg)) {
        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
unixctl_detach(struct unixctl_conn *conn, int argc OVS_UNUSED,
               const char *argv[], void *aux OVS_UNUSED)
{
    if (hw_model_afpacket_detach(argv[1])) {
        char *msg = xasprintf("%s: no interface attached", argv[1]);

        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static int
port_compare(const void *a_, const void *b_)
{
    const struct afpacket_port *const *a = a_;
    const struct afpacket_port *const *b = b_;

    return strcmp((*a)->devname, (*b)->devname);
}

static void
unixctl_attachments(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    struct afpacket_port **list;
    struct afpacket_port *port;
    size_t n = 0;

    ovs_mutex_lock(&ports_mutex);
    list = xmalloc(MAX(hmap_count(&ports), 1) * sizeof *list);
    HMAP_FOR_EACH (port, node, &ports) {
        list[n++] = port;
    }
    qsort(list, n, sizeof *list, port_compare);
    for (size_t i = 0; i < n; i++) {
        struct hw_model_afpacket_stats st;

        port = list[i];
        ovs_mutex_lock(&port->stats_mutex);
        st = port->stats;
        ovs_mutex_unlock(&port->stats_mutex);
        ds_put_format(&s, "%s: %s rx=%"PRIu64" rx_bytes=%"PRIu64
                      " rx_dropped=%"PRIu64" rx_csum_done=%"PRIu64
                      " tx=%"PRIu64" tx_bytes=%"PRIu64" tx_errors=%"PRIu64
                      "\n", port->devname, port->ifname, st.rx_frames,
                      st.rx_bytes, st.rx_dropped, st.rx_csum_done,
                      st.tx_frames, st.tx_bytes, st.tx_errors);
    }
    ovs_mutex_unlock(&ports_mutex);
    free(list);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
hw_model_afpacket_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("hw-model/attach", "DEV IFNAME", 2, 2,
                                 unixctl_attach, NULL);
        unixctl_command_register("hw-model/detach", "DEV", 1, 1,
                                 unixctl_detach, NULL);
        unixctl_command_register("hw-model/attachments", "", 0, 0,
                                 unixctl_attachments, NULL);
        ovsthread_once_done(&once);
    }
}
