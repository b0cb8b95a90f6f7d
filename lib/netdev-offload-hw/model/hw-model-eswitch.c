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

/* Switchdev mode: the e-switch's VFs (hw-model.h).
 *
 * As on an mlx5 PF in switchdev mode with SR-IOV VFs: VF K is vport K + 1;
 * its representor is verbs port K + 2 of the PF's device (port 1 is the
 * uplink), whose verbs rules the kernel matches on the VF's vport, so that
 * they take only what the VF sent and the FDB did not switch; what the
 * host sends on the representor's send queue reaches the VF (the kernel's
 * send-to-vport rule at the FDB's root, ahead of every other rule).
 * mlx5dv_query_port() gives a port's vport and the reg_c0 metadata the
 * e-switch writes into every packet from that vport.
 *
 * A VF's host side, where the VM is, has the far ends of a wire: a pcap
 * capture, a function (AF_PACKET attach) and hw_model_receive(). */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "dp-packet.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "openvswitch/vlog.h"
#include "pcap-file.h"
#include "seq.h"
#include "util.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

COVERAGE_DEFINE(hw_model_vf_rx);
COVERAGE_DEFINE(hw_model_vf_tx);

/* Parses "vf<K>" or "pf0vf<K>" at 's' into '*vfp'. */
static bool
model_parse_vf(const char *s, unsigned int *vfp)
{
    unsigned int vf = 0;

    if (!strncmp(s, "pf0", 3)) {
        s += 3;
    }
    if (strncmp(s, "vf", 2) || !s[2] || (s[2] == '0' && s[3])) {
        return false;
    }
    for (s += 2; *s; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        vf = vf * 10 + (*s - '0');
        if (vf >= HW_MODEL_MAX_VFS) {
            return false;
        }
    }
    *vfp = vf;
    return true;
}

struct model_dev *
model_end_lookup(const char *name, int *vfp)
{
    const char *slash = name ? strchr(name, '/') : NULL;
    struct model_dev *dev;
    unsigned int vf;
    char *devname;

    *vfp = -1;
    if (!slash) {
        return model_dev_lookup(name, false);
    }
    if (!model_parse_vf(slash + 1, &vf)) {
        return NULL;
    }
    devname = xmemdup0(name, slash - name);
    dev = model_dev_lookup(devname, false);
    free(devname);
    if (dev) {
        bool exists;

        ovs_mutex_lock(&dev->mutex);
        exists = vf < dev->n_vfs;
        ovs_mutex_unlock(&dev->mutex);
        if (!exists) {
            return NULL;
        }
        *vfp = vf;
    }
    return dev;
}

struct hw_model_steering *
model_port_steering(struct model_dev *dev, uint32_t port_num)
    OVS_REQUIRES(dev->mutex)
{
    if (port_num == 1) {
        return dev->steering;
    }
    if (port_num >= 2 && port_num - 2 < dev->n_vfs) {
        return dev->vfs[port_num - 2].steering;
    }
    return NULL;
}

static struct hw_model_steering *
model_vf_steering_create(const struct model_dev *dev, unsigned int n_vfs)
    OVS_REQUIRES(dev->mutex)
{
    uint16_t ports[HW_MODEL_MAX_VXLAN_PORTS];
    struct hw_model_steering *st;
    struct hw_model_limits limits;
    size_t n;

    memset(&limits, 0, sizeof limits);
    limits.phys_port_cnt = 1 + n_vfs;
    limits.max_priority = dev->caps.max_flow_priority;
    limits.max_specs = dev->caps.max_flow_specs;
    limits.max_rules = dev->caps.max_rules;
    limits.cap_net_raw = true;
    st = hw_model_steering_create(&limits);

    /* One parser for the device: the same VXLAN ports. */
    n = hw_model_steering_get_vxlan_ports(dev->steering, ports);
    for (size_t i = 0; i < n; i++) {
        hw_model_steering_add_vxlan_port(st, ports[i]);
    }
    return st;
}

int
hw_model_set_vfs(const char *devname, unsigned int n_vfs)
{
    struct model_dev *dev;
    int error = 0;

    if (n_vfs > HW_MODEL_MAX_VFS) {
        return EINVAL;
    }
    dev = model_dev_lookup(devname, true);
    if (!dev || dev->hbl) {
        return EINVAL;
    }

    ovs_mutex_lock(&dev->mutex);
    if (n_vfs == dev->n_vfs) {
        goto out;
    }
    if (dev->n_opens) {
        error = EBUSY;
        goto out;
    }
    for (unsigned int i = 0; i < dev->n_vfs; i++) {
        if (hw_model_steering_n_rules(dev->vfs[i].steering)) {
            /* Rules of a closed device stay, for the leak check. */
            error = EBUSY;
            goto out;
        }
    }

    for (unsigned int i = 0; i < dev->n_vfs; i++) {
        struct model_vf *vf = &dev->vfs[i];

        hw_model_steering_destroy(vf->steering);
        if (vf->end.pcap) {
            ovs_pcap_close(vf->end.pcap);
        }
        free(vf->end.pcap_name);
    }
    free(dev->vfs);
    dev->vfs = n_vfs ? xcalloc(n_vfs, sizeof *dev->vfs) : NULL;
    for (unsigned int i = 0; i < n_vfs; i++) {
        dev->vfs[i].steering = model_vf_steering_create(dev, n_vfs);
    }
    dev->n_vfs = n_vfs;
    dev->caps.phys_port_cnt = 1 + n_vfs;
    hw_model_dr_set_vfs(dev->dr, n_vfs);
    VLOG_DBG("%s: %u VF%s, %s mode", dev->name, n_vfs, n_vfs == 1 ? "" : "s",
             n_vfs ? "switchdev" : "legacy");
out:
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
hw_model_get_vf_stats(const char *devname, unsigned int vf,
                      unsigned int *n_vfs, struct hw_model_vf_stats *stats)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    int error = 0;

    *n_vfs = 0;
    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    *n_vfs = dev->n_vfs;
    if (stats) {
        if (vf < dev->n_vfs) {
            *stats = dev->vfs[vf].stats;
        } else {
            error = ENOENT;
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

void
model_vf_out(struct model_dev *dev, unsigned int vf, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct model_vf *v = &dev->vfs[vf];

    COVERAGE_INC(hw_model_vf_rx);
    v->stats.rx_packets++;
    v->stats.rx_bytes += dp_packet_size(packet);
    if (v->end.pcap) {
        ovs_pcap_write(v->end.pcap, packet);
    }
    if (v->end.tx) {
        v->end.tx(v->end.tx_aux, packet);
    }
}

int
model_dr_result_deliver(struct model_dev *dev,
                        struct hw_model_dr_result *result)
    OVS_REQUIRES(dev->mutex)
{
    bool delivered = false;
    int error = ENOENT;

    for (size_t i = 0; i < result->n; i++) {
        struct hw_model_dr_output *out = &result->out[i];
        struct hw_model_parsed parsed;

        if (out->fate == HW_MODEL_DR_WIRE) {
            model_wire_out(dev, out->packet);
            dp_packet_delete(out->packet);
            error = 0;
        } else if (out->fate == HW_MODEL_DR_VPORT) {
            /* The action was checked against the VFs when made, and VFs
             * change only while the device is closed. */
            ovs_assert(out->vport >= 1 && out->vport <= dev->n_vfs);
            model_vf_out(dev, out->vport - 1, out->packet);
            dp_packet_delete(out->packet);
            error = 0;
        } else {
            hw_model_steering_parse(dev->steering, out->packet, &parsed);
            error = model_deliver(dev, out->packet, &parsed, &out->verdict);
        }
        delivered |= !error;
    }
    return delivered ? 0 : error;
}

/* The host side of VF 'vf' sends 'packet' into the e-switch. */
int
model_vf_send(struct model_dev *dev, unsigned int vf,
              struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    struct model_vf *v = &dev->vfs[vf];
    struct hw_model_dr_result result;

    COVERAGE_INC(hw_model_vf_tx);
    v->stats.tx_packets++;
    v->stats.tx_bytes += dp_packet_size(packet);
    hw_model_dr_from_vport(dev->dr, v->steering, dev->steering, vf + 1,
                           packet, &dev->stats, &result);
    return model_dr_result_deliver(dev, &result);
}

int
model_end_set_pcap(struct model_dev *dev, int vf, struct pcap_file *pcap,
                   const char *file_name)
    OVS_REQUIRES(dev->mutex)
{
    struct model_end *end = &dev->vfs[vf].end;

    if (end->pcap) {
        ovs_pcap_close(end->pcap);
    }
    free(end->pcap_name);
    end->pcap = pcap;
    end->pcap_name = pcap ? xstrdup(file_name) : NULL;
    return 0;
}

int
model_end_set_tx(struct model_dev *dev, int vf, hw_model_wire_tx_func *func,
                 void *aux)
    OVS_REQUIRES(dev->mutex)
{
    struct model_end *end = &dev->vfs[vf].end;

    if (func && end->tx && (end->tx != func || end->tx_aux != aux)) {
        return EBUSY;
    }
    end->tx = func;
    end->tx_aux = func ? aux : NULL;
    return 0;
}

/* Device ops. */

int
model_representor_port(struct ibv_context *ctx, const char *name,
                       uint32_t *port_num)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    unsigned int vf;
    int error = 0;

    *port_num = 0;
    ovs_mutex_lock(&dev->mutex);
    if (!dev->n_vfs) {
        /* No representors outside switchdev mode. */
        error = EOPNOTSUPP;
    } else if (!model_parse_vf(name, &vf) || vf >= dev->n_vfs) {
        error = ENODEV;
    } else {
        *port_num = vf + 2;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_query_port(struct ibv_context *ctx, uint32_t port_num,
                 struct mlx5dv_port *info)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    int error = 0;

    memset(info, 0, sizeof *info);
    ovs_mutex_lock(&dev->mutex);
    if (!port_num || port_num > 1 + dev->n_vfs) {
        error = EINVAL;
    } else {
        uint16_t vport = (port_num == 1 ? HW_MODEL_DR_WIRE_VPORT
                          : port_num - 1);

        /* The uplink's vport is the wire port; without switchdev there is
         * no metadata. */
        info->flags = MLX5DV_QUERY_PORT_VPORT;
        info->vport = vport;
        if (dev->n_vfs) {
            info->flags |= MLX5DV_QUERY_PORT_VPORT_REG_C0;
            info->reg_c0.value = hw_model_vport_reg_c0(vport);
            info->reg_c0.mask = HW_MODEL_VPORT_REG_C0_MASK;
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
model_bind_qp_port(struct ibv_qp *ibv_qp, uint32_t port_num)
{
    struct model_dev *dev = model_dev_from_ctx(ibv_qp->context);
    struct model_qp *qp;
    int error = 0;

    ovs_mutex_lock(&dev->mutex);
    qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);
    if (!qp || qp->rss || !qp->max_send_wr) {
        /* Only a raw packet QP that sends has a port to move to. */
        error = model_reject(dev, EINVAL, "bind_qp_port: not a send QP");
    } else if (!port_num || port_num > 1 + dev->n_vfs) {
        error = model_reject(dev, EINVAL, "bind_qp_port: no port %"PRIu32,
                             port_num);
    } else {
        qp->port_num = port_num;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}
