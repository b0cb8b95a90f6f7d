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

/* The hw-model/... unixctl commands (receive, set-pcap, objects, rules,
 * stats, fault, reset, vxlan-port) and hw_model_init(), which registers them:
 * the test and management interface, over the public functions of
 * hw-model.h and the device's internals. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-model-afpacket.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "hw-model-hbl.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/shash.h"
#include "packets.h"
#include "unixctl.h"

static struct model_dev *
model_unixctl_dev(struct unixctl_conn *conn, const char *devname)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        char *msg = xasprintf("%s: no such model device%s", devname,
                              (hw_model_handles(devname)
                               ? " (not opened yet)" : ""));
        unixctl_command_reply_error(conn, msg);
        free(msg);
    }
    return dev;
}

/* The device of 'name', a wire ("model0") or a VF's host side
 * ("model0/vf1", whose number goes to '*vfp'), or NULL after replying with
 * an error. */
static struct model_dev *
model_unixctl_end(struct unixctl_conn *conn, const char *name, int *vfp)
{
    struct model_dev *dev = model_end_lookup(name, vfp);

    if (!dev && strchr(name, '/')) {
        char *msg = xasprintf("%s: no such VF of a model device", name);

        unixctl_command_reply_error(conn, msg);
        free(msg);
        return NULL;
    }
    return dev ? dev : model_unixctl_dev(conn, name);
}

/* Builds a frame from 'hex' bytes or, failing that, from an ODP flow
 * string padded to 'size' bytes (0: the minimum).  Returns NULL and an
 * error message in '*errorp' on failure. */
static struct dp_packet *
model_packet_from_string(const char *s, size_t size, char **errorp)
{
    struct dp_packet *packet;
    struct ofpbuf odp_key;
    struct flow flow;

    *errorp = NULL;
    if (!size && !eth_from_hex(s, &packet)) {
        return packet;
    }

    ofpbuf_init(&odp_key, 0);
    if (odp_flow_from_string(s, NULL, &odp_key, NULL, errorp)) {
        goto error;
    }
    if (odp_flow_key_to_flow(odp_key.data, odp_key.size, &flow, errorp)
        == ODP_FIT_ERROR) {
        goto error;
    }
    packet = dp_packet_new(0);
    flow_compose(packet, &flow, NULL, 0);
    if (size) {
        if (dp_packet_size(packet) > size) {
            dp_packet_delete(packet);
            *errorp = xasprintf("packet of %"PRIu32" bytes is longer than "
                                "--len %"PRIuSIZE, dp_packet_size(packet),
                                size);
            goto error;
        }
        packet_expand(packet, &flow, size);
    } else if (dp_packet_size(packet) < ETH_TOTAL_MIN) {
        packet_expand(packet, &flow, ETH_TOTAL_MIN);
    }
    ofpbuf_uninit(&odp_key);
    return packet;

error:
    if (!*errorp) {
        *errorp = xasprintf("cannot parse \"%s\" as a packet", s);
    }
    ofpbuf_uninit(&odp_key);
    return NULL;
}

static void
model_unixctl_receive(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    struct dp_packet **packets;
    struct model_dev *dev;
    size_t n_packets = 0;
    char *error = NULL;
    int vf;

    dev = model_unixctl_end(conn, argv[1], &vf);
    if (!dev) {
        return;
    }

    /* Build every packet first, so that a bad argument injects nothing. */
    packets = xmalloc(argc * sizeof *packets);
    for (int i = 2; i < argc && !error; i++) {
        const char *s = argv[i];
        unsigned int size = 0;

        if (i + 1 < argc && !strcmp(argv[i + 1], "--len")) {
            if (i + 2 >= argc || !str_to_uint(argv[i + 2], 10, &size)
                || size < ETH_TOTAL_MIN || size > UINT16_MAX) {
                error = xasprintf("--len needs a length from %d to %d",
                                  ETH_TOTAL_MIN, UINT16_MAX);
                break;
            }
            i += 2;
        }
        packets[n_packets] = model_packet_from_string(s, size, &error);
        if (packets[n_packets]) {
            n_packets++;
        }
    }

    if (error) {
        for (size_t i = 0; i < n_packets; i++) {
            dp_packet_delete(packets[i]);
        }
        unixctl_command_reply_error(conn, error);
        free(error);
    } else {
        model_receive_burst(dev, vf, packets, n_packets);
        unixctl_command_reply(conn, NULL);
    }
    free(packets);
}

static void
model_unixctl_set_pcap(struct unixctl_conn *conn, int argc OVS_UNUSED,
                       const char *argv[], void *aux OVS_UNUSED)
{
    int error, vf;

    if (!model_unixctl_end(conn, argv[1], &vf)) {
        return;
    }
    error = hw_model_set_pcap(argv[1], argv[2]);
    if (error) {
        char *msg = xasprintf("%s: %s", argv[2], ovs_strerror(error));
        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
model_format_objects(struct model_dev *dev, struct ds *s)
{
    struct hw_model_objects objs;

    ovs_mutex_lock(&dev->mutex);
    model_fill_objects(dev, &objs);
    ovs_mutex_unlock(&dev->mutex);

    ds_put_format(s, "%s: pd=%"PRIuSIZE" cq=%"PRIuSIZE" wq=%"PRIuSIZE
                  " ind_table=%"PRIuSIZE" qp=%"PRIuSIZE" flow=%"PRIuSIZE
                  " counters=%"PRIuSIZE" reformat=%"PRIuSIZE, dev->name,
                  objs.pd, objs.cq, objs.wq, objs.ind_table, objs.qp,
                  objs.flow, objs.counters, objs.reformat);
    /* The pipeline's objects, when there are any. */
    if (objs.dr_domain + objs.dr_table + objs.dr_matcher + objs.dr_rule
        + objs.dr_action + objs.dr_counter) {
        ds_put_format(s, " dr_domain=%"PRIuSIZE" dr_table=%"PRIuSIZE
                      " dr_matcher=%"PRIuSIZE" dr_rule=%"PRIuSIZE
                      " dr_action=%"PRIuSIZE" dr_counter=%"PRIuSIZE,
                      objs.dr_domain, objs.dr_table, objs.dr_matcher,
                      objs.dr_rule, objs.dr_action, objs.dr_counter);
    }
    if (objs.dr_geneve_opt) {
        ds_put_format(s, " dr_geneve_opt=%"PRIuSIZE, objs.dr_geneve_opt);
    }
    ds_put_format(s, " total=%"PRIuSIZE"\n", objs.total);
}

static void
model_unixctl_objects(struct unixctl_conn *conn, int argc, const char *argv[],
                      void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct model_dev *dev = model_unixctl_dev(conn, argv[1]);

        if (!dev) {
            return;
        }
        model_format_objects(dev, &s);
    } else {
        const struct shash_node **nodes;
        size_t n;

        nodes = model_dev_sort(&n);
        for (size_t i = 0; i < n; i++) {
            model_format_objects(nodes[i]->data, &s);
        }
        free(nodes);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
model_unixctl_rules(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    struct ds s = DS_EMPTY_INITIALIZER;

    if (!dev) {
        return;
    }
    ovs_mutex_lock(&dev->mutex);
    hw_model_steering_format(dev->steering, &s);
    for (unsigned int i = 0; i < dev->n_vfs; i++) {
        if (hw_model_steering_n_rules(dev->vfs[i].steering)) {
            ds_put_format(&s, "representor vf%u (port %u):\n", i, i + 2);
            hw_model_steering_format(dev->vfs[i].steering, &s);
        }
    }
    hw_model_dr_format(dev->dr, &s);
    ovs_mutex_unlock(&dev->mutex);
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static int
model_wq_compare(const void *a_, const void *b_)
{
    const struct model_wq *const *a = a_;
    const struct model_wq *const *b = b_;

    return ((*a)->obj.handle > (*b)->obj.handle
            ? 1 : (*a)->obj.handle < (*b)->obj.handle ? -1 : 0);
}

static void
model_unixctl_stats(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct hw_model_stats *st;
    struct model_wq **wqs;
    struct model_obj *obj;
    size_t n_wqs = 0;

    if (!dev) {
        return;
    }

    ovs_mutex_lock(&dev->mutex);
    st = &dev->stats;
    ds_put_format(&s, "%s:\n", dev->name);
    ds_put_format(&s, "  rx: packets=%"PRIu64" bytes=%"PRIu64
                  " delivered=%"PRIu64"\n", st->rx_packets, st->rx_bytes,
                  st->rx_delivered);
    ds_put_format(&s, "  rx drops: rule=%"PRIu64" no_rule=%"PRIu64
                  " no_rq=%"PRIu64" wq_not_ready=%"PRIu64" wq_full=%"PRIu64
                  "\n", st->rx_drop_rule, st->rx_drop_no_rule,
                  st->rx_drop_no_rq, st->rx_drop_wq_not_ready,
                  st->rx_drop_wq_full);
    ds_put_format(&s, "  tx: packets=%"PRIu64" bytes=%"PRIu64"\n",
                  st->tx_packets, st->tx_bytes);
    ds_put_format(&s, "  tx drops: rule=%"PRIu64" invalid=%"PRIu64
                  " encap=%"PRIu64"\n", st->tx_drop_rule,
                  st->tx_drop_invalid, st->tx_drop_encap);
    ds_put_format(&s, "  tunnel: decap=%"PRIu64" decap_skipped=%"PRIu64
                  " encap=%"PRIu64"\n", st->rx_decap, st->rx_decap_skipped,
                  st->tx_encap);
    ds_put_format(&s, "  pipeline: hits=%"PRIu64" drop_miss=%"PRIu64
                  " skipped=%"PRIu64" hairpin=%"PRIu64" uplink_drop=%"PRIu64
                  "\n", st->dr_rule_hits, st->dr_drop_miss,
                  st->dr_modify_skipped, st->dr_hairpin, st->dr_uplink_drop);
    if (st->resets) {
        ds_put_format(&s, "  fatal errors: %"PRIu64" (%s) rx_drop=%"PRIu64
                      " rx_lost=%"PRIu64" tx_drop=%"PRIu64"\n", st->resets,
                      dev->fatal ? "dead" : "recovered", st->rx_drop_fatal,
                      st->rx_lost_fatal, st->tx_drop_fatal);
    }

    wqs = xmalloc(MAX(dev->n_objs[MODEL_WQ], 1) * sizeof *wqs);
    HMAP_FOR_EACH (obj, node, &dev->objects) {
        if (obj->kind == MODEL_WQ) {
            wqs[n_wqs++] = CONTAINER_OF(obj, struct model_wq, obj);
        }
    }
    qsort(wqs, n_wqs, sizeof *wqs, model_wq_compare);
    for (size_t i = 0; i < n_wqs; i++) {
        const struct model_wq *wq = wqs[i];

        ds_put_format(&s, "  wq %"PRIu32": state=%s ring=%"PRIu32
                      " waiting=%"PRIu32" queued=%"PRIu64" bytes=%"PRIu64
                      " read=%"PRIu64" flushed=%"PRIu64
                      " drop_not_ready=%"PRIu64" drop_full=%"PRIu64"\n",
                      wq->obj.handle, model_wq_state_name(wq->wq.state),
                      wq->ring_size, model_wq_n_queued(wq), wq->n_queued,
                      wq->n_bytes, wq->n_read, wq->n_flushed,
                      wq->drop_not_ready, wq->drop_full);
    }
    free(wqs);
    if (dev->pcap_name) {
        ds_put_format(&s, "  pcap: %s\n", dev->pcap_name);
    }
    for (unsigned int i = 0; i < dev->n_vfs; i++) {
        const struct model_vf *vf = &dev->vfs[i];

        ds_put_format(&s, "  vf%u (vport %u): sent=%"PRIu64" bytes=%"PRIu64
                      " received=%"PRIu64" bytes=%"PRIu64"%s%s\n", i, i + 1,
                      vf->stats.tx_packets, vf->stats.tx_bytes,
                      vf->stats.rx_packets, vf->stats.rx_bytes,
                      vf->end.pcap_name ? " pcap=" : "",
                      vf->end.pcap_name ? vf->end.pcap_name : "");
    }
    ovs_mutex_unlock(&dev->mutex);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static const struct {
    const char *name;
    int value;
} model_errno_names[] = {
#define MODEL_ERRNO(E) { #E, E }
    MODEL_ERRNO(EPERM), MODEL_ERRNO(ENOENT), MODEL_ERRNO(EIO),
    MODEL_ERRNO(ENXIO), MODEL_ERRNO(E2BIG), MODEL_ERRNO(EAGAIN),
    MODEL_ERRNO(ENOMEM), MODEL_ERRNO(EACCES), MODEL_ERRNO(EFAULT),
    MODEL_ERRNO(EBUSY), MODEL_ERRNO(EEXIST), MODEL_ERRNO(ENODEV),
    MODEL_ERRNO(EINVAL), MODEL_ERRNO(ENOSPC), MODEL_ERRNO(ERANGE),
    MODEL_ERRNO(ENOSYS), MODEL_ERRNO(EOPNOTSUPP), MODEL_ERRNO(ENOTSUP),
    MODEL_ERRNO(ENOBUFS), MODEL_ERRNO(ETIMEDOUT), MODEL_ERRNO(EDQUOT),
    MODEL_ERRNO(ENETDOWN), MODEL_ERRNO(ECONNRESET), MODEL_ERRNO(EPROTO),
#undef MODEL_ERRNO
};

static bool
model_parse_errno(const char *s, int *errorp)
{
    for (size_t i = 0; i < ARRAY_SIZE(model_errno_names); i++) {
        if (!strcasecmp(s, model_errno_names[i].name)) {
            *errorp = model_errno_names[i].value;
            return true;
        }
    }
    return str_to_int(s, 10, errorp) && *errorp >= 0;
}

static void
model_unixctl_fault(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *aux OVS_UNUSED)
{
    unsigned int count = 1;
    int error, value;
    char *msg;

    if (!model_unixctl_dev(conn, argv[1])) {
        return;
    }
    if (!model_parse_errno(argv[3], &value)) {
        msg = xasprintf("%s: not an errno name or number", argv[3]);
        goto error;
    }
    if (argc > 4 && !str_to_uint(argv[4], 10, &count)) {
        msg = xasprintf("%s: not a count", argv[4]);
        goto error;
    }
    error = hw_model_set_fault(argv[1], argv[2], value, count);
    if (error) {
        struct ds ops = DS_EMPTY_INITIALIZER;

        for (int i = 0; i < MODEL_N_OPS; i++) {
            ds_put_format(&ops, " %s", model_op_names[i]);
        }
        msg = xasprintf("%s: unknown operation (one of:%s)", argv[2],
                        ds_cstr(&ops));
        ds_destroy(&ops);
        goto error;
    }
    unixctl_command_reply(conn, NULL);
    return;

error:
    unixctl_command_reply_error(conn, msg);
    free(msg);
}

/* "hw-model/vxlan-port DEV [add|del PORT]": changes the device's VXLAN
 * ports, then replies with them. */
static void
model_unixctl_vxlan_port(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *aux OVS_UNUSED)
{
    struct model_dev *dev = model_unixctl_dev(conn, argv[1]);
    uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS];
    struct ds s = DS_EMPTY_INITIALIZER;
    size_t n_ports;

    if (!dev) {
        return;
    }
    if (argc > 2) {
        bool add = !strcmp(argv[2], "add");
        unsigned int port;
        int error;

        if ((!add && strcmp(argv[2], "del")) || argc != 4) {
            unixctl_command_reply_error(conn, "usage: hw-model/vxlan-port "
                                        "DEV [add|del PORT]");
            return;
        }
        if (!str_to_uint(argv[3], 10, &port) || !port || port > 65535) {
            unixctl_command_reply_error(conn, "PORT must be a UDP port "
                                        "from 1 to 65535");
            return;
        }
        error = hw_model_set_vxlan_port(argv[1], add, port);
        if (error) {
            char *msg = xasprintf("%s: cannot %s VXLAN port %u: %s%s",
                                  argv[1], argv[2], port,
                                  ovs_strerror(error),
                                  error == EPERM
                                  ? " (the device always has 4789)"
                                  : error == ENOSPC
                                  ? " (the device has 4 VXLAN ports)" : "");
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }

    ovs_mutex_lock(&dev->mutex);
    n_ports = hw_model_steering_get_vxlan_ports(dev->steering, ports);
    ovs_mutex_unlock(&dev->mutex);
    ds_put_format(&s, "%s: vxlan ports:", dev->name);
    for (size_t i = 0; i < n_ports; i++) {
        ds_put_format(&s, " %"PRIu16, ports[i]);
    }
    ds_put_char(&s, '\n');
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
model_unixctl_reset(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[], void *aux OVS_UNUSED)
{
    int error = hw_model_reset(argv[1]);

    if (error == ENODEV) {
        model_unixctl_dev(conn, argv[1]);
    } else if (error) {
        char *msg = xasprintf("%s: the device is dead already: close its "
                              "contexts first", argv[1]);

        unixctl_command_reply_error(conn, msg);
        free(msg);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
model_unixctl_eswitch(struct unixctl_conn *conn, int argc,
                      const char *argv[], void *aux OVS_UNUSED)
{
    unsigned int n_vfs;
    int error;

    if (argc > 2) {
        if (!str_to_uint(argv[2], 10, &n_vfs)) {
            unixctl_command_reply_error(conn, "bad number of VFs");
            return;
        }
        error = hw_model_set_vfs(argv[1], n_vfs);
        if (error) {
            char *msg = xasprintf("%s: %s", argv[1],
                                  (error == EBUSY
                                   ? "device in use: close its ports first"
                                   : error == EINVAL
                                   ? "not a model device, or too many VFs"
                                   : ovs_strerror(error)));

            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    } else if (!model_unixctl_dev(conn, argv[1])) {
        return;
    }
    if (hw_model_get_vf_stats(argv[1], 0, &n_vfs, NULL)) {
        unixctl_command_reply_error(conn, "no such device");
        return;
    }

    char *reply = xasprintf("%s: %s mode, %u VF%s\n", argv[1],
                            n_vfs ? "switchdev" : "legacy", n_vfs,
                            n_vfs == 1 ? "" : "s");
    unixctl_command_reply(conn, reply);
    free(reply);
}

void
hw_model_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    model_global_init();
    if (!ovsthread_once_start(&once)) {
        return;
    }
    unixctl_command_register("hw-model/receive",
                             "DEV PACKET|FLOW [--len LEN]...", 2, INT_MAX,
                             model_unixctl_receive, NULL);
    unixctl_command_register("hw-model/set-pcap", "DEV FILE|none", 2, 2,
                             model_unixctl_set_pcap, NULL);
    unixctl_command_register("hw-model/objects", "[DEV]", 0, 1,
                             model_unixctl_objects, NULL);
    unixctl_command_register("hw-model/rules", "DEV", 1, 1,
                             model_unixctl_rules, NULL);
    unixctl_command_register("hw-model/stats", "DEV", 1, 1,
                             model_unixctl_stats, NULL);
    unixctl_command_register("hw-model/fault", "DEV OP ERRNO [COUNT]", 3, 4,
                             model_unixctl_fault, NULL);
    unixctl_command_register("hw-model/reset", "DEV", 1, 1,
                             model_unixctl_reset, NULL);
    unixctl_command_register("hw-model/eswitch", "DEV [N_VFS]", 1, 2,
                             model_unixctl_eswitch, NULL);
    unixctl_command_register("hw-model/vxlan-port", "DEV [add|del PORT]", 1,
                             3, model_unixctl_vxlan_port, NULL);
    hw_model_afpacket_init();
    hw_model_hbl_init();
    ovsthread_once_done(&once);
}
