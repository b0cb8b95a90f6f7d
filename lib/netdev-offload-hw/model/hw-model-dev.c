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

/* The model's devices: the registry that creates a device on its first open
 * and keeps it for the life of the process, a device's name, capabilities
 * and lifecycle (open, close, query_caps), and the accounting of the
 * objects it holds (hw-model/objects, the leak check on close).  Every
 * other file of the device finds the device and its objects here. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hw-hmap.h"
#include "hw-model-dr.h"
#include "hw-model-flow.h"
#include "hw-model-hbl.h"
#include "openvswitch/shash.h"
#include "openvswitch/vlog.h"
#include "seq.h"
#include "socket-util.h"

/* The device's log module, defined in hw-model.c. */
extern struct vlog_module *VLM_hw_model;
#define this_module (*VLM_hw_model)

/* All devices, never freed. */
static struct ovs_mutex model_registry_mutex = OVS_MUTEX_INITIALIZER;
static struct shash model_devs OVS_GUARDED_BY(model_registry_mutex)
    = SHASH_INITIALIZER(&model_devs);

struct seq *model_rx_seq;

void
model_global_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        model_rx_seq = seq_create();
        ovsthread_once_done(&once);
    }
}

struct seq *
hw_model_rx_seq(void)
{
    model_global_init();
    return model_rx_seq;
}

/* Names and devices. */

static bool
model_parse_name(const char *devname, unsigned int *numberp)
{
    const char *digits;
    unsigned int number = 0;

    /* "hbl_model<N>" is a model device with the hbl personality
     * (hw-model-hbl.h). */
    if (devname && !strncmp(devname, HW_MODEL_HBL_PREFIX,
                            strlen(HW_MODEL_HBL_PREFIX))) {
        devname += strlen(HW_MODEL_HBL_PREFIX);
    }
    if (!devname || strncmp(devname, "model", 5)) {
        return false;
    }
    digits = devname + 5;
    if (!digits[0] || (digits[0] == '0' && digits[1])) {
        return false;
    }
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        number = number * 10 + (*p - '0');
        if (number > MODEL_MAX_NUMBER) {
            return false;
        }
    }
    if (numberp) {
        *numberp = number;
    }
    return true;
}

bool
hw_model_handles(const char *devname)
{
    return model_parse_name(devname, NULL);
}

static void
model_dev_init_caps(struct model_dev *dev)
{
    struct hw_dev_caps *caps = &dev->caps;

    memset(caps, 0, sizeof *caps);
    caps->flow_steering = true;
    caps->counters = true;
    caps->raw_packet_qp = true;
    caps->max_flow_priority = 15;
    caps->max_flow_specs = 10;
    caps->max_rules = 65536;
    caps->max_rwq_ind_log = 9;
    caps->max_wqs = 64;
    caps->rx_hash_fields = (IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
                            | IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6
                            | IBV_RX_HASH_SRC_PORT_TCP
                            | IBV_RX_HASH_DST_PORT_TCP
                            | IBV_RX_HASH_SRC_PORT_UDP
                            | IBV_RX_HASH_DST_PORT_UDP);
    caps->reformat_types =
        ((1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2)
         | (1u << MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL));
    caps->max_encap_header = 128;
    caps->phys_port_cnt = 1;
    /* Locally administered unicast MAC derived from the device number. */
    caps->mac = (struct eth_addr) ETH_ADDR_C(aa, 55, aa, 55, 00, 00);
    caps->mac.ea[4] = dev->number >> 8;
    caps->mac.ea[5] = dev->number & 0xff;
    if (dev->hbl) {
        /* hbl has no mlx5dv packet reformat: it encapsulates per send QP.
         * Its MAC differs from the plain model device of the same number. */
        caps->reformat_types = 0;
        caps->max_encap_header = 0;
        caps->qp_encap = true;
        caps->mac.ea[3] = 0x56;
    } else {
        hw_model_dr_init_caps(caps);
    }
    caps->mtu = 1500;
    ovs_strlcpy(caps->fw_ver, "model-1.0", sizeof caps->fw_ver);
}

static struct model_dev *
model_dev_create(const char *devname, unsigned int number)
{
    struct hw_model_limits limits;
    struct model_dev *dev = xzalloc(sizeof *dev);

    dev->name = xstrdup(devname);
    dev->number = number;
    dev->hbl = !strncmp(devname, HW_MODEL_HBL_PREFIX,
                        strlen(HW_MODEL_HBL_PREFIX));
    dev->ibdev.node_type = IBV_NODE_CA;
    dev->ibdev.transport_type = IBV_TRANSPORT_IB;
    ovs_strlcpy(dev->ibdev.name, devname, sizeof dev->ibdev.name);
    snprintf(dev->ibdev.dev_name, sizeof dev->ibdev.dev_name, "uverbs-%s",
             devname);
    dev->ctx.device = &dev->ibdev;
    dev->ctx.cmd_fd = -1;
    xpipe_nonblocking(dev->async_fds);
    dev->ctx.async_fd = dev->async_fds[0];
    dev->ctx.num_comp_vectors = 1;

    ovs_mutex_init(&dev->mutex);
    model_dev_init_caps(dev);
    hmap_init(&dev->objects);
    dev->next_handle = 1;

    memset(&limits, 0, sizeof limits);
    limits.phys_port_cnt = dev->caps.phys_port_cnt;
    limits.max_priority = dev->caps.max_flow_priority;
    limits.max_specs = dev->caps.max_flow_specs;
    limits.max_rules = dev->caps.max_rules;
    limits.sniffer = false;
    limits.cap_net_raw = true;
    dev->steering = hw_model_steering_create(&limits);
    dev->dr = hw_model_dr_create(&dev->ctx, &dev->caps);

    /* Not INFO: OVS's autotest start-up check rejects any INFO line it
     * does not expect, and a device is created when its port is added. */
    VLOG_DBG("%s: created model NIC, MAC "ETH_ADDR_FMT, devname,
              ETH_ADDR_ARGS(dev->caps.mac));
    return dev;
}

/* Returns the device named 'devname', creating it if 'create' is true and
 * the name is a valid model device name, or NULL. */
struct model_dev *
model_dev_lookup(const char *devname, bool create)
{
    struct model_dev *dev;
    unsigned int number;

    if (!model_parse_name(devname, &number)) {
        return NULL;
    }

    model_global_init();
    ovs_mutex_lock(&model_registry_mutex);
    dev = shash_find_data(&model_devs, devname);
    if (!dev && create) {
        dev = model_dev_create(devname, number);
        shash_add(&model_devs, devname, dev);
    }
    ovs_mutex_unlock(&model_registry_mutex);
    return dev;
}

/* Returns the devices sorted by name, as 'n' nodes of an array that the
 * caller frees.  Devices are never freed, so the nodes stay valid. */
const struct shash_node **
model_dev_sort(size_t *n)
{
    const struct shash_node **nodes;

    ovs_mutex_lock(&model_registry_mutex);
    nodes = shash_sort(&model_devs);
    *n = shash_count(&model_devs);
    ovs_mutex_unlock(&model_registry_mutex);
    return nodes;
}

int OVS_PRINTF_FORMAT(3, 4)
model_reject(const struct model_dev *dev, int error, const char *format, ...)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(20, 20);

    if (!vlog_should_drop(&this_module, VLL_INFO, &rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_INFO("%s: %s (%s)", dev->name, msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

/* Objects. */

void
model_obj_add(struct model_dev *dev, struct model_obj *obj,
              const void *verbs, enum model_kind kind)
    OVS_REQUIRES(dev->mutex)
{
    obj->verbs = verbs;
    obj->kind = kind;
    obj->handle = dev->next_handle++;
    obj->users = 0;
    hmap_insert(&dev->objects, &obj->node, hash_pointer(verbs, 0));
    dev->n_objs[kind]++;
}

void
model_obj_remove(struct model_dev *dev, struct model_obj *obj)
    OVS_REQUIRES(dev->mutex)
{
    ovs_assert(!obj->users);
    hw_hmap_remove_shrink(&dev->objects, &obj->node);
    dev->n_objs[obj->kind]--;
}

struct model_obj *
model_obj_find(const struct model_dev *dev, const void *verbs,
               enum model_kind kind)
    OVS_REQUIRES(dev->mutex)
{
    struct model_obj *obj;

    if (!verbs) {
        return NULL;
    }
    HMAP_FOR_EACH_WITH_HASH (obj, node, hash_pointer(verbs, 0),
                             &dev->objects) {
        if (obj->verbs == verbs && obj->kind == kind) {
            return obj;
        }
    }
    return NULL;
}

void *
model_obj_find_container(const struct model_dev *dev, const void *verbs,
                         enum model_kind kind, size_t offset)
    OVS_REQUIRES(dev->mutex)
{
    struct model_obj *obj = model_obj_find(dev, verbs, kind);

    return obj ? (char *) obj - offset : NULL;
}

static size_t
model_total_objects(const struct model_dev *dev)
    OVS_REQUIRES(dev->mutex)
{
    size_t total = 0;

    for (int i = 0; i < MODEL_N_KINDS; i++) {
        total += dev->n_objs[i];
    }
    return total + hw_model_dr_n_objects(dev->dr);
}

/* The pipeline's way into its device (hw-model-dr.h). */

BUILD_ASSERT_DECL(MODEL_OP_DR_GENEVE_OPT_DESTROY
                  - MODEL_OP_DR_DOMAIN_CREATE + 1 == HW_MODEL_DR_N_OPS);

struct hw_model_dr *
hw_model_dr_lock(struct ibv_context *ctx, enum hw_model_dr_op op,
                 int *errorp)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    struct model_dev *dev = model_dev_from_ctx(ctx);

    ovs_mutex_lock(&dev->mutex);
    *errorp = model_fault_check(dev, MODEL_OP_DR_DOMAIN_CREATE + op);
    return dev->dr;
}

void
hw_model_dr_unlock(struct ibv_context *ctx)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    ovs_mutex_unlock(&model_dev_from_ctx(ctx)->mutex);
}

int
hw_model_dr_qp_ref(struct ibv_context *ctx, struct ibv_qp *ibv_qp, int delta)
    OVS_NO_THREAD_SAFETY_ANALYSIS
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    struct model_qp *qp = MODEL_FIND(dev, ibv_qp, MODEL_QP, struct model_qp);

    if (!qp) {
        return EINVAL;
    }
    qp->obj.users += delta;
    return 0;
}

/* Device. */

bool
model_op_handles(const char *devname)
{
    return hw_model_handles(devname);
}

/* A model device has one name: "model0" and "hbl_model0" are two. */
char *
model_identify(const char *devname)
{
    return (model_parse_name(devname, NULL)
            ? xasprintf("model device %s", devname) : NULL);
}

int
model_open(const char *devname, struct ibv_context **ctxp)
{
    struct model_dev *dev;
    int error;

    *ctxp = NULL;
    dev = model_dev_lookup(devname, true);
    if (!dev) {
        return ENODEV;
    }

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_OPEN);
    if (!error) {
        dev->n_opens++;
        *ctxp = &dev->ctx;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

void
model_close(struct ibv_context *ctx)
{
    struct model_dev *dev;

    if (!ctx) {
        return;
    }
    dev = model_dev_from_ctx(ctx);
    ovs_mutex_lock(&dev->mutex);
    ovs_assert(dev->n_opens > 0);
    dev->n_opens--;
    if (!dev->n_opens) {
        size_t total = model_total_objects(dev);

        /* The kernel would destroy them when the last file descriptor
         * closes; the model keeps them so that a test can see the leak. */
        if (total) {
            VLOG_WARN("%s: closed with %"PRIuSIZE" objects still alive",
                      dev->name, total);
        }
        model_fault_closed(dev);
    }
    ovs_mutex_unlock(&dev->mutex);
}

int
model_query_caps(struct ibv_context *ctx, struct hw_dev_caps *caps)
{
    struct model_dev *dev = model_dev_from_ctx(ctx);
    int error;

    ovs_mutex_lock(&dev->mutex);
    error = model_fault_check(dev, MODEL_OP_QUERY_CAPS);
    if (!error) {
        *caps = dev->caps;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
hw_model_set_vxlan_port(const char *devname, bool add, uint16_t port)
{
    struct model_dev *dev = model_dev_lookup(devname, false);
    int error;

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    error = (add
             ? hw_model_steering_add_vxlan_port(dev->steering, port)
             : hw_model_steering_del_vxlan_port(dev->steering, port));
    /* One parser for every port of the device. */
    for (unsigned int i = 0; !error && i < dev->n_vfs; i++) {
        struct hw_model_steering *st = dev->vfs[i].steering;

        if (add) {
            hw_model_steering_add_vxlan_port(st, port);
        } else {
            hw_model_steering_del_vxlan_port(st, port);
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

void
model_fill_objects(struct model_dev *dev, struct hw_model_objects *objs)
    OVS_REQUIRES(dev->mutex)
{
    struct hw_model_dr_objects dr;

    hw_model_dr_count(dev->dr, &dr);
    objs->dr_domain = dr.domain;
    objs->dr_table = dr.table;
    objs->dr_matcher = dr.matcher;
    objs->dr_rule = dr.rule;
    objs->dr_action = dr.action;
    objs->dr_counter = dr.counter;
    objs->dr_geneve_opt = dr.geneve_opt;
    objs->pd = dev->n_objs[MODEL_PD];
    objs->cq = dev->n_objs[MODEL_CQ];
    objs->wq = dev->n_objs[MODEL_WQ];
    objs->ind_table = dev->n_objs[MODEL_IND_TABLE];
    objs->qp = dev->n_objs[MODEL_QP];
    objs->flow = dev->n_objs[MODEL_FLOW];
    objs->counters = dev->n_objs[MODEL_COUNTERS];
    objs->reformat = dev->n_objs[MODEL_REFORMAT];
    objs->total = model_total_objects(dev);
}

int
hw_model_count_objects(const char *devname, struct hw_model_objects *objs)
{
    int vf;
    struct model_dev *dev = model_end_lookup(devname, &vf);

    if (!dev) {
        memset(objs, 0, sizeof *objs);
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    model_fill_objects(dev, objs);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

int
hw_model_set_dr_max_rules(const char *devname, uint32_t max_rules)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    hw_model_dr_set_max_rules(dev->dr, max_rules);
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}
