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

/* Fuzz target: the NIC model's dr matchers and rules.
 *
 * The input is a matcher and a rule under it, as the plugin hands them to
 * mlx5dv_dr_matcher_create() and mlx5dv_dr_rule_create():
 *
 *   byte 0      the domain (0 NIC RX, 1 NIC TX, 2 FDB; 3 as 0) in bits 0-1
 *               and the table (bit 2: the root, else level 1);
 *   u16         the matcher's priority;
 *   u8          its match_criteria_enable;
 *   u16, bytes  the mask: match_sz, then that many bytes;
 *   u16, bytes  the rule's value: match_sz, then that many bytes;
 *   u8, bytes   the number of actions (at most 8), then one byte each
 *               naming one of the actions made at start-up, of every
 *               domain (an action of another domain included).
 *
 * A rule made gets a VLAN-tagged VXLAN frame from the wire, or from the
 * host on NIC TX, before it is destroyed.
 *
 * Invariants: no crash; refusals are EINVAL, EOPNOTSUPP, EEXIST or ENOMEM
 * (a root rule above the kernel's priorities), a matcher's EINVAL or
 * EOPNOTSUPP only; what is made is destroyed, and leaves no object
 * behind. */

#include <config.h>
#include <errno.h>
#include <string.h>

#include "dp-packet.h"
#include "fuzz-hw.h"
#include "hw-encode-dr.h"
#include "hw-model.h"
#include "openvswitch/ofpbuf.h"
#include "util.h"

#define MAX_ACTIONS 8

#define L2_TUNNEL_TO_L2 MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
#define L3_TUNNEL_TO_L2 MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
#define L2_TO_L2_TUNNEL MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL
#define L2_TO_L3_TUNNEL MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL

static const struct hw_dev_ops *ops = &hw_model_ops;
static struct fuzz_port port;
static struct mlx5dv_dr_domain *domains[HW_DR_N_DOMAINS];
static struct mlx5dv_dr_table *tables[HW_DR_N_DOMAINS][2];
static struct mlx5dv_dr_action *actions[64];
static size_t n_actions;
static struct mlx5dv_devx_obj *counter;

/* A VXLAN frame with an 802.1Q tag, for the rules made. */
static const uint8_t frame[] = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x81, 0x00, 0x00, 0x0a, 0x08, 0x00,
    0x45, 0x00, 0x00, 0x4e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x80, 0x00, 0x12, 0xb5, 0x00, 0x3a, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7b, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
    0x08, 0x00,
    0x45, 0x00, 0x00, 0x1c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x0a, 0x01, 0x00, 0x01, 0x0a, 0x01, 0x00, 0x02,
    0x04, 0xd2, 0x00, 0x50, 0x00, 0x08, 0x00, 0x00,
};

/* Makes the action 'attr' in 'domain' if the model takes it there. */
static void
add_action(int domain, struct hw_dr_action_attr attr)
{
    struct mlx5dv_dr_action *a;

    if (!ops->dr_action_create(domains[domain], &attr, &a)) {
        ovs_assert(n_actions < ARRAY_SIZE(actions));
        actions[n_actions++] = a;
    }
}

static void
init(void)
{
    static const uint8_t l2[14] = { 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1,
                                    0x08, 0x00 };
    static uint8_t encap[50];
    struct ofpbuf modify;

    fuzz_init();
    fuzz_port_create(&port, "model6");
    CHECK(!ops->dr_counter_create(port.ctx, &counter));
    memcpy(encap, frame, 12);
    encap[12] = 0x08;
    memcpy(encap + 14, frame + 18, sizeof encap - 14);

    ofpbuf_init(&modify, 0);
    hw_dr_modify_set_ttl(&modify, false, 7);
    hw_dr_modify_set_mac(&modify, false,
                         (struct eth_addr) ETH_ADDR_C(00, 00, 5e, 00, 53, 01));
    hw_dr_modify_set_reg_c(&modify, 1, 0x1234);

    for (int d = 0; d < HW_DR_N_DOMAINS; d++) {
        CHECK(!ops->dr_domain_create(port.ctx, d, &domains[d]));
        for (int l = 0; l < 2; l++) {
            CHECK(!ops->dr_table_create(domains[d], l, &tables[d][l]));
        }
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_TAG, .tag = 5 });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_DEST_QP,
                       .qp = port.rss_qps[HW_RSS_IPV4_UDP] });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_DROP });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_DEFAULT_MISS });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_DEST_TABLE,
                       .table = tables[d][1] });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_DEST_VPORT, .vport = 0xffff });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_COUNTER,
                       .counter = { .obj = counter } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_REFORMAT,
                       .reformat = {
                           .type = L2_TUNNEL_TO_L2 } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_REFORMAT,
                       .reformat = {
                           .type = L3_TUNNEL_TO_L2,
                           .size = sizeof l2, .data = l2 } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_REFORMAT,
                       .reformat = {
                           .type = L2_TO_L2_TUNNEL,
                           .size = sizeof encap, .data = encap } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_REFORMAT,
                       .reformat = {
                           .type = L2_TO_L3_TUNNEL,
                           .size = sizeof encap, .data = encap } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_MODIFY_HEADER,
                       .modify = { .size = modify.size,
                                   .commands = modify.data } });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_PUSH_VLAN,
                       .vlan_hdr = htonl(0x81000014) });
        add_action(d, (struct hw_dr_action_attr) {
                       .type = HW_DR_ACTION_POP_VLAN });
    }
    ofpbuf_uninit(&modify);
    port.n_objects = fuzz_port_objects(&port);
}

/* Reads a match_sz and that many bytes into 'm'.  Returns NULL if the
 * input is too short. */
static struct mlx5dv_flow_match_parameters *
read_params(struct fuzz_input *in, uint64_t *buf, size_t buf_size)
{
    struct mlx5dv_flow_match_parameters *params = (void *) buf;
    size_t size = fuzz_u16(in) % (buf_size - sizeof *params + 1);
    const uint8_t *p = fuzz_bytes(in, size);

    if (!p) {
        return NULL;
    }
    params->match_sz = size;
    memcpy(params->match_buf, p, size);
    return params;
}

static void
drain(void)
{
    struct dp_packet_batch batch;

    do {
        dp_packet_batch_init(&batch);
        ops->rx_burst(port.wq, port.cq, &batch);
        dp_packet_delete_batch(&batch, true);
    } while (dp_packet_batch_size(&batch));
}

/* Runs the test frame through the device: from the wire, or sent. */
static void
run_frame(int domain)
{
    struct dp_packet *packet = dp_packet_new(sizeof frame);

    dp_packet_put(packet, frame, sizeof frame);
    if (domain == MLX5DV_DR_DOMAIN_TYPE_NIC_TX) {
        struct dp_packet_batch batch;

        dp_packet_batch_init_packet(&batch, packet);
        ops->tx_burst(port.send_qp, &batch);
    } else {
        hw_model_receive(port.devname, packet);
        drain();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t mask_buf[(8 + 512) / 8], value_buf[(8 + 512) / 8];
    struct mlx5dv_flow_match_parameters *mask, *value;
    struct mlx5dv_dr_action *rule_actions[MAX_ACTIONS];
    struct fuzz_input in = { data, size };
    struct mlx5dv_dr_matcher *matcher;
    struct mlx5dv_dr_rule *rule;
    uint8_t table, criteria;
    uint16_t priority;
    size_t n;
    int domain;
    int error;

    if (!port.ctx) {
        init();
    }
    table = fuzz_u8(&in);
    domain = table & 3 ? (table & 3) - 1 : 0;
    if ((table & 3) == 0 || (table & 3) == 1) {
        domain = MLX5DV_DR_DOMAIN_TYPE_NIC_RX;
    }
    priority = fuzz_u16(&in);
    criteria = fuzz_u8(&in);
    mask = read_params(&in, mask_buf, sizeof mask_buf);
    value = read_params(&in, value_buf, sizeof value_buf);
    n = fuzz_u8(&in);
    if (!mask || !value || n > MAX_ACTIONS || in.size < n) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        rule_actions[i] = actions[fuzz_u8(&in) % n_actions];
    }

    error = ops->dr_matcher_create(tables[domain][table & 4 ? 0 : 1],
                                   priority, criteria, mask, &matcher);
    if (error) {
        if (error != EINVAL && error != EOPNOTSUPP) {
            ovs_abort(0, "dr_matcher_create: %s", ovs_strerror(error));
        }
        CHECK(!matcher);
        goto out;
    }

    error = ops->dr_rule_create(matcher, value, n, rule_actions, &rule);
    if (error) {
        if (error != EINVAL && error != EOPNOTSUPP && error != EEXIST
            && error != ENOMEM) {
            ovs_abort(0, "dr_rule_create: %s", ovs_strerror(error));
        }
        CHECK(!rule);
    } else {
        run_frame(domain);
        CHECK(!ops->dr_rule_destroy(rule));
    }
    CHECK(!ops->dr_matcher_destroy(matcher));

out:
    CHECK_EQ(fuzz_port_objects(&port), port.n_objects);
    return 0;
}
