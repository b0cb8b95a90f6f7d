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

/* Unit test of the NIC model (hw-model*.c) through its device ops: the RSS
 * set-up, steering rules given as byte buffers, packets on the wire, and
 * the errno of every validation the model shares with the hardware. */

#include <config.h>
#undef NDEBUG
#include "hw-model.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-dev.h"
#include "hw-toeplitz.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "test-hw-model-port.h"
#include "packets.h"
#include "util.h"

static const struct hw_dev_ops *ops;

/* Everything the RSS set-up of one device is made of. */
#define N_WQS 4
struct setup {
    const char *devname;
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq_ex *cqs[N_WQS];
    struct ibv_cq_ex *tx_cq;
    struct ibv_wq *wqs[N_WQS];
    struct ibv_rwq_ind_table *table;
    struct ibv_qp *rss_qp;      /* IPv4 + UDP ports. */
    struct ibv_qp *tx_qp;
};

static const uint64_t udp4_fields = (IBV_RX_HASH_SRC_IPV4
                                     | IBV_RX_HASH_DST_IPV4
                                     | IBV_RX_HASH_SRC_PORT_UDP
                                     | IBV_RX_HASH_DST_PORT_UDP);

static void
check_objects(const char *devname, size_t pd, size_t cq, size_t wq,
              size_t ind_table, size_t qp, size_t flow, size_t counters,
              size_t reformat)
{
    struct hw_model_objects objs;

    CHECK_ERR(hw_model_count_objects(devname, &objs), 0);
    CHECK_EQ(objs.pd, pd);
    CHECK_EQ(objs.cq, cq);
    CHECK_EQ(objs.wq, wq);
    CHECK_EQ(objs.ind_table, ind_table);
    CHECK_EQ(objs.qp, qp);
    CHECK_EQ(objs.flow, flow);
    CHECK_EQ(objs.counters, counters);
    CHECK_EQ(objs.reformat, reformat);
    CHECK_EQ(objs.total,
             pd + cq + wq + ind_table + qp + flow + counters + reformat);
}

static int
create_wq(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq_ex *cq,
          uint32_t max_wr, struct ibv_wq **wqp)
{
    struct ibv_wq_init_attr attr = {
        .wq_type = IBV_WQT_RQ,
        .max_wr = max_wr,
        .max_sge = 1,
        .pd = pd,
        .cq = cq ? ibv_cq_ex_to_cq(cq) : NULL,
    };

    return ops->create_wq(ctx, &attr, wqp);
}

static int
modify_wq_state(struct ibv_wq *wq, enum ibv_wq_state state)
{
    struct ibv_wq_attr attr = {
        .attr_mask = IBV_WQ_ATTR_STATE,
        .wq_state = state,
    };

    return ops->modify_wq(wq, &attr);
}

static int
create_table(struct ibv_context *ctx, uint32_t log_size,
             struct ibv_wq **wqs, struct ibv_rwq_ind_table **tablep)
{
    struct ibv_rwq_ind_table_init_attr attr = {
        .log_ind_tbl_size = log_size,
        .ind_tbl = wqs,
    };

    return ops->create_rwq_ind_table(ctx, &attr, tablep);
}

static void
rss_qp_attr(struct ibv_qp_init_attr_ex *attr, struct ibv_pd *pd,
            struct ibv_rwq_ind_table *table, uint64_t fields)
{
    memset(attr, 0, sizeof *attr);
    attr->qp_type = IBV_QPT_RAW_PACKET;
    attr->comp_mask = (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE
                       | IBV_QP_INIT_ATTR_RX_HASH);
    attr->pd = pd;
    attr->rwq_ind_tbl = table;
    attr->rx_hash_conf.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
    attr->rx_hash_conf.rx_hash_key_len = HW_TOEPLITZ_KEY_LEN;
    attr->rx_hash_conf.rx_hash_key = CONST_CAST(uint8_t *, hw_toeplitz_ms_key);
    attr->rx_hash_conf.rx_hash_fields_mask = fields;
}

static void
raw_qp_attr(struct ibv_qp_init_attr_ex *attr, struct ibv_pd *pd,
            struct ibv_cq_ex *cq)
{
    memset(attr, 0, sizeof *attr);
    attr->qp_type = IBV_QPT_RAW_PACKET;
    attr->comp_mask = IBV_QP_INIT_ATTR_PD;
    attr->pd = pd;
    attr->send_cq = ibv_cq_ex_to_cq(cq);
    attr->recv_cq = ibv_cq_ex_to_cq(cq);
    attr->cap.max_send_wr = 64;
    attr->cap.max_send_sge = 1;
}

static void
setup_create(struct setup *s, const char *devname)
{
    struct ibv_qp_init_attr_ex qp_attr;
    struct hw_dev_caps caps;

    memset(s, 0, sizeof *s);
    s->devname = devname;
    CHECK(hw_dev_ops_find(devname) == &hw_model_ops);
    CHECK_ERR(ops->open(devname, &s->ctx), 0);
    CHECK(s->ctx);

    CHECK_ERR(ops->query_caps(s->ctx, &caps), 0);
    CHECK(caps.flow_steering && caps.counters && caps.raw_packet_qp);
    CHECK_EQ(caps.max_flow_priority, 15);
    CHECK_EQ(caps.max_flow_specs, 10);
    CHECK_EQ(caps.max_rwq_ind_log, 9);
    CHECK_EQ(caps.phys_port_cnt, 1);
    CHECK_EQ(caps.mtu, 1500);
    CHECK_EQ(caps.rx_hash_fields, 0xff);
    CHECK_EQ(caps.reformat_types, 0xf);
    CHECK(!strcmp(caps.fw_ver, "model-1.0"));
    /* Locally administered unicast. */
    CHECK((caps.mac.ea[0] & 3) == 2);

    CHECK_ERR(ops->alloc_pd(s->ctx, &s->pd), 0);
    CHECK(s->pd->context == s->ctx);
    for (int i = 0; i < N_WQS; i++) {
        struct ibv_wq_init_attr attr = {
            .wq_type = IBV_WQT_RQ,
            .max_wr = 1000,
            .max_sge = 1,
            .pd = s->pd,
        };

        CHECK_ERR(ops->create_cq(s->ctx, 1024, &s->cqs[i]), 0);
        CHECK(s->cqs[i]->context == s->ctx && s->cqs[i]->cqe >= 1024);
        attr.cq = ibv_cq_ex_to_cq(s->cqs[i]);
        CHECK_ERR(ops->create_wq(s->ctx, &attr, &s->wqs[i]), 0);
        /* Sizes are written back, rounded up to a power of 2. */
        CHECK_EQ(attr.max_wr, 1024);
        CHECK_EQ(s->wqs[i]->state, IBV_WQS_RESET);
        CHECK(s->wqs[i]->context == s->ctx);
        CHECK(s->wqs[i]->wq_type == IBV_WQT_RQ);
        CHECK(s->wqs[i]->pd == s->pd);
        CHECK(s->wqs[i]->cq == ibv_cq_ex_to_cq(s->cqs[i]));
        CHECK_ERR(modify_wq_state(s->wqs[i], IBV_WQS_RDY), 0);
        CHECK_EQ(s->wqs[i]->state, IBV_WQS_RDY);
    }
    CHECK_ERR(create_table(s->ctx, 2, s->wqs, &s->table), 0);
    CHECK(s->table->context == s->ctx);

    rss_qp_attr(&qp_attr, s->pd, s->table, udp4_fields);
    CHECK_ERR(ops->create_qp(s->ctx, &qp_attr, &s->rss_qp), 0);
    CHECK(s->rss_qp->context == s->ctx);
    CHECK(s->rss_qp->qp_type == IBV_QPT_RAW_PACKET);

    CHECK_ERR(ops->create_cq(s->ctx, 256, &s->tx_cq), 0);
    raw_qp_attr(&qp_attr, s->pd, s->tx_cq);
    CHECK_ERR(ops->create_qp(s->ctx, &qp_attr, &s->tx_qp), 0);
    CHECK(s->tx_qp->send_cq == ibv_cq_ex_to_cq(s->tx_cq));

    check_objects(devname, 1, N_WQS + 1, N_WQS, 1, 2, 0, 0, 0);
}

static void
setup_destroy(struct setup *s)
{
    CHECK_ERR(ops->destroy_qp(s->tx_qp), 0);
    CHECK_ERR(ops->destroy_cq(s->tx_cq), 0);
    CHECK_ERR(ops->destroy_qp(s->rss_qp), 0);
    CHECK_ERR(ops->destroy_rwq_ind_table(s->table), 0);
    for (int i = 0; i < N_WQS; i++) {
        CHECK_ERR(ops->destroy_wq(s->wqs[i]), 0);
        CHECK_ERR(ops->destroy_cq(s->cqs[i]), 0);
    }
    CHECK_ERR(ops->dealloc_pd(s->pd), 0);
    check_objects(s->devname, 0, 0, 0, 0, 0, 0, 0, 0);
    ops->close(s->ctx);
}

static void
rule_add_eth_ipv4(struct rule *r)
{
    struct ibv_flow_spec_eth eth = {
        .type = IBV_FLOW_SPEC_ETH,
        .size = sizeof eth,
        .val.ether_type = htons(ETH_TYPE_IP),
        .mask.ether_type = OVS_BE16_MAX,
    };

    rule_add(r, &eth, sizeof eth);
}

static void
rule_add_ipv4(struct rule *r, const char *src, const char *dst)
{
    struct ibv_flow_spec_ipv4 ip = {
        .type = IBV_FLOW_SPEC_IPV4,
        .size = sizeof ip,
    };

    if (src) {
        ip.val.src_ip = inet_addr(src);
        ip.mask.src_ip = OVS_BE32_MAX;
    }
    if (dst) {
        ip.val.dst_ip = inet_addr(dst);
        ip.mask.dst_ip = OVS_BE32_MAX;
    }
    rule_add(r, &ip, sizeof ip);
}

static void
rule_add_drop(struct rule *r)
{
    struct ibv_flow_spec_action_drop spec = {
        .type = IBV_FLOW_SPEC_ACTION_DROP,
        .size = sizeof spec,
    };

    rule_add(r, &spec, sizeof spec);
}

static void
rule_add_count(struct rule *r, struct ibv_counters *counters)
{
    struct ibv_flow_spec_counter_action spec = {
        .type = IBV_FLOW_SPEC_ACTION_COUNT,
        .size = sizeof spec,
        .counters = counters,
    };

    rule_add(r, &spec, sizeof spec);
}

static struct ibv_counters *
create_counters(struct ibv_context *ctx)
{
    struct ibv_counter_attach_attr packets = {
        .counter_desc = IBV_COUNTER_PACKETS,
        .index = 0,
    };
    struct ibv_counter_attach_attr bytes = {
        .counter_desc = IBV_COUNTER_BYTES,
        .index = 1,
    };
    struct ibv_counters *counters;

    CHECK_ERR(ops->create_counters(ctx, &counters), 0);
    CHECK_ERR(ops->attach_counters(counters, &packets), 0);
    CHECK_ERR(ops->attach_counters(counters, &bytes), 0);
    return counters;
}

static void
check_counters(struct ibv_counters *counters, uint64_t packets,
               uint64_t bytes)
{
    uint64_t values[2];

    CHECK_ERR(ops->read_counters(counters, values, 2), 0);
    CHECK_EQ(values[0], packets);
    CHECK_EQ(values[1], bytes);
}

/* A UDP/IPv4 frame of 'size' bytes (at least 60). */
static struct dp_packet *
udp_packet(const char *src, uint16_t sport, const char *dst, uint16_t dport,
           size_t size)
{
    struct dp_packet *packet = dp_packet_new(0);
    struct flow flow;

    memset(&flow, 0, sizeof flow);
    flow.dl_src = (struct eth_addr) ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    flow.dl_dst = (struct eth_addr) ETH_ADDR_C(aa, 55, aa, 55, 00, 07);
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_src = inet_addr(src);
    flow.nw_dst = inet_addr(dst);
    flow.nw_proto = IPPROTO_UDP;
    flow.nw_ttl = 64;
    flow.tp_src = htons(sport);
    flow.tp_dst = htons(dport);
    flow_compose(packet, &flow, NULL, 0);
    CHECK(dp_packet_size(packet) <= size);
    packet_expand(packet, &flow, size);
    CHECK_EQ(dp_packet_size(packet), size);
    return packet;
}

/* The hash input of an RSS QP with IPv4 + UDP fields, built here
 * independently of the model: src IP, dst IP, src port, dst port. */
static uint32_t
expected_hash(const char *src, uint16_t sport, const char *dst,
              uint16_t dport)
{
    uint8_t input[12];
    ovs_be32 ip;
    ovs_be16 port;

    ip = inet_addr(src);
    memcpy(input, &ip, 4);
    ip = inet_addr(dst);
    memcpy(input + 4, &ip, 4);
    port = htons(sport);
    memcpy(input + 8, &port, 2);
    port = htons(dport);
    memcpy(input + 10, &port, 2);
    return hw_toeplitz_hash(hw_toeplitz_ms_key, HW_TOEPLITZ_KEY_LEN,
                            input, sizeof input);
}

/* Receives everything waiting on 'wq' (at most one batch). */
static int
rx_one_batch(const struct setup *s, int wq, struct dp_packet_batch *batch)
{
    dp_packet_batch_init(batch);
    return ops->rx_burst(s->wqs[wq], s->cqs[wq], batch);
}

/* Checks that exactly one packet waits, on WQ 'wq', of 'size' bytes, with
 * flow mark 'tag' (0: none) and RSS hash 'hash' (0: none), and frees it. */
static void
check_received(const struct setup *s, int want_wq, size_t size,
               uint32_t tag, uint32_t hash)
{
    for (int i = 0; i < N_WQS; i++) {
        struct dp_packet_batch batch;
        uint32_t mark;

        if (i != want_wq) {
            CHECK_ERR(rx_one_batch(s, i, &batch), EAGAIN);
            CHECK_EQ(dp_packet_batch_size(&batch), 0);
            continue;
        }
        CHECK_ERR(rx_one_batch(s, i, &batch), 0);
        CHECK_EQ(dp_packet_batch_size(&batch), 1);
        CHECK_EQ(dp_packet_size(batch.packets[0]), size);
        if (tag) {
            CHECK(dp_packet_has_flow_mark(batch.packets[0], &mark));
            CHECK_EQ(mark, tag);
        } else {
            CHECK(!dp_packet_has_flow_mark(batch.packets[0], &mark));
        }
        if (hash) {
            CHECK(dp_packet_rss_valid(batch.packets[0]));
            CHECK_EQ(dp_packet_get_rss_hash(batch.packets[0]), hash);
        } else {
            CHECK(!dp_packet_rss_valid(batch.packets[0]));
        }
        dp_packet_delete_batch(&batch, true);
    }
}

/* Microsoft RSS verification vectors (hw-apis.md 2.4), with ports. */
static const struct {
    const char *src;
    uint16_t sport;
    const char *dst;
    uint16_t dport;
    uint32_t hash;
} ms_vectors[] = {
    { "66.9.149.187", 2794, "161.142.100.80", 1766, 0x51ccc178 },
    { "199.92.111.2", 14230, "65.69.140.83", 4739, 0xc626b0ea },
    { "24.19.198.95", 12898, "12.22.207.184", 38024, 0x5c2b394a },
    { "38.27.205.30", 48228, "209.142.163.6", 2217, 0xafc7327f },
    { "153.39.163.191", 44251, "202.188.127.2", 1303, 0x10e828a2 },
};

/* RSS, tags, counters, drops and the miss rule. */
static void
test_datapath(void)
{
    struct ibv_counters *udp_counters, *drop_counters;
    struct ibv_flow *udp_flow, *drop_flow, *miss_flow;
    struct hw_model_stats stats;
    struct dp_packet *packet;
    struct setup s;
    struct rule r;
    uint32_t hash;

    setup_create(&s, "model7");
    udp_counters = create_counters(s.ctx);
    drop_counters = create_counters(s.ctx);

    /* UDP to 10.0.0.2:4000, tagged and counted. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 1, 0);
    rule_add_eth_ipv4(&r);
    rule_add_ipv4(&r, NULL, "10.0.0.2");
    rule_add_udp_dst(&r, 4000);
    rule_add_tag(&r, 0x42);
    rule_add_count(&r, udp_counters);
    CHECK_EQ(rule_attr(&r)->size, 20 + 40 + 24 + 16 + 12 + 16);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &udp_flow), 0);
    CHECK(udp_flow);

    /* Everything from 192.168.9.9 dropped, before the rule above. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_eth_ipv4(&r);
    rule_add_ipv4(&r, "192.168.9.9", NULL);
    rule_add_drop(&r);
    rule_add_count(&r, drop_counters);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &drop_flow), 0);

    /* Miss rule: the rest goes to the RSS QP untagged. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &miss_flow), 0);
    check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 3, 2, 0);

    /* Untagged packets through the miss rule: the hash is the Microsoft
     * vector's and the queue its low bits through the table. */
    for (size_t i = 0; i < ARRAY_SIZE(ms_vectors); i++) {
        hash = expected_hash(ms_vectors[i].src, ms_vectors[i].sport,
                             ms_vectors[i].dst, ms_vectors[i].dport);
        CHECK_EQ(hash, ms_vectors[i].hash);
        packet = udp_packet(ms_vectors[i].src, ms_vectors[i].sport,
                            ms_vectors[i].dst, ms_vectors[i].dport, 60);
        CHECK_ERR(hw_model_receive(s.devname, packet), 0);
        check_received(&s, hash & (N_WQS - 1), 60, 0, hash);
    }

    /* Tagged packets, spread over the queues by their source port. */
    for (uint16_t sport = 1000; sport < 1016; sport++) {
        hash = expected_hash("10.0.0.1", sport, "10.0.0.2", 4000);
        packet = udp_packet("10.0.0.1", sport, "10.0.0.2", 4000, 100);
        CHECK_ERR(hw_model_receive(s.devname, packet), 0);
        check_received(&s, hash & (N_WQS - 1), 100, 0x42, hash);
    }
    check_counters(udp_counters, 16, 16 * 100);
    check_counters(drop_counters, 0, 0);

    /* The drop rule wins over the tag rule and counts. */
    packet = udp_packet("192.168.9.9", 5, "10.0.0.2", 4000, 80);
    CHECK_ERR(hw_model_receive(s.devname, packet), EPERM);
    check_received(&s, -1, 0, 0, 0);
    check_counters(drop_counters, 1, 80);
    check_counters(udp_counters, 16, 16 * 100);
    stats = model_stats(s.devname);
    CHECK_EQ(stats.rx_drop_rule, 1);
    CHECK_EQ(stats.rx_packets, ARRAY_SIZE(ms_vectors) + 16 + 1);
    CHECK_EQ(stats.rx_delivered, ARRAY_SIZE(ms_vectors) + 16);

    /* A WQ that is not RDY drops what the table sends it.  Vector 0 goes
     * to queue 0. */
    CHECK_EQ(ms_vectors[0].hash & (N_WQS - 1), 0);
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_ERR), 0);
    packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                        ms_vectors[0].dst, ms_vectors[0].dport, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), ENETDOWN);
    check_received(&s, -1, 0, 0, 0);
    CHECK_EQ(model_stats(s.devname).rx_drop_wq_not_ready, 1);
    /* ERR -> RDY is not a transition; ERR -> RESET -> RDY is. */
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_RDY), EINVAL);
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_RESET), 0);
    packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                        ms_vectors[0].dst, ms_vectors[0].dport, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), ENETDOWN);
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_RDY), 0);
    packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                        ms_vectors[0].dst, ms_vectors[0].dport, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), 0);
    check_received(&s, 0, 60, 0, ms_vectors[0].hash);

    /* Packets waiting when the WQ leaves RDY are flushed. */
    packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                        ms_vectors[0].dst, ms_vectors[0].dport, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), 0);
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_RESET), 0);
    check_received(&s, -1, 0, 0, 0);
    CHECK_ERR(modify_wq_state(s.wqs[0], IBV_WQS_RDY), 0);

    /* A full ring drops; reading frees room. */
    for (int i = 0; i < 1024; i++) {
        packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                            ms_vectors[0].dst, ms_vectors[0].dport, 60);
        CHECK_ERR(hw_model_receive(s.devname, packet), 0);
    }
    packet = udp_packet(ms_vectors[0].src, ms_vectors[0].sport,
                        ms_vectors[0].dst, ms_vectors[0].dport, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), ENOBUFS);
    CHECK_EQ(model_stats(s.devname).rx_drop_wq_full, 1);
    {
        struct dp_packet_batch batch;
        int n = 0;

        while (!rx_one_batch(&s, 0, &batch)) {
            CHECK(dp_packet_batch_size(&batch) <= NETDEV_MAX_BURST);
            n += dp_packet_batch_size(&batch);
            dp_packet_delete_batch(&batch, true);
        }
        CHECK_EQ(n, 1024);
    }

    /* rx_burst() with the CQ of another WQ is refused. */
    {
        struct dp_packet_batch batch;

        dp_packet_batch_init(&batch);
        CHECK_ERR(ops->rx_burst(s.wqs[0], s.cqs[1], &batch), EINVAL);
    }

    /* EBUSY while in use, as the kernel's use counts. */
    CHECK_ERR(ops->destroy_wq(s.wqs[1]), EBUSY);
    CHECK_ERR(ops->destroy_rwq_ind_table(s.table), EBUSY);
    CHECK_ERR(ops->destroy_qp(s.rss_qp), EBUSY);
    CHECK_ERR(ops->destroy_counters(udp_counters), EBUSY);
    CHECK_ERR(ops->destroy_cq(s.cqs[0]), EBUSY);
    CHECK_ERR(ops->destroy_cq(s.tx_cq), EBUSY);
    CHECK_ERR(ops->dealloc_pd(s.pd), EBUSY);
    check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 3, 2, 0);

    /* Without the miss rule, unmatched packets have nowhere to go. */
    CHECK_ERR(ops->destroy_flow(miss_flow), 0);
    packet = udp_packet("10.1.1.1", 1, "10.1.1.2", 2, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), ENOENT);
    CHECK_EQ(model_stats(s.devname).rx_drop_no_rule, 1);

    /* A rule to the raw (send) QP steers to no RSS queue. */
    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r), &miss_flow), 0);
    packet = udp_packet("10.1.1.1", 1, "10.1.1.2", 2, 60);
    CHECK_ERR(hw_model_receive(s.devname, packet), EPROTOTYPE);
    CHECK_EQ(model_stats(s.devname).rx_drop_no_rq, 1);
    CHECK_ERR(ops->destroy_qp(s.tx_qp), EBUSY);
    CHECK_ERR(ops->destroy_flow(miss_flow), 0);

    CHECK_ERR(ops->destroy_flow(udp_flow), 0);
    CHECK_ERR(ops->destroy_flow(drop_flow), 0);
    /* Counters can go once no flow uses them. */
    CHECK_ERR(ops->destroy_counters(udp_counters), 0);
    CHECK_ERR(ops->destroy_counters(drop_counters), 0);
    CHECK_ERR(hw_model_receive("model999", udp_packet("1.1.1.1", 1,
                                                      "2.2.2.2", 2, 60)),
              ENODEV);
    setup_destroy(&s);
}

/* What leaves the wire: egress rules and the pcap capture. */
static void
test_tx(void)
{
    char pcap_name[] = "/tmp/test-hw-model-XXXXXX";
    struct dp_packet_batch batch;
    struct hw_model_stats stats;
    struct ibv_flow *flow;
    struct setup s;
    struct rule r;
    struct stat st;
    int fd;

    setup_create(&s, "model8");
    fd = mkstemp(pcap_name);
    CHECK(fd >= 0);
    close(fd);
    CHECK_ERR(hw_model_set_pcap(s.devname, pcap_name), 0);

    /* Egress: frames to 10.9.9.9 are dropped by the NIC. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_ipv4(&r);
    rule_add_ipv4(&r, NULL, "10.9.9.9");
    rule_add_drop(&r);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r), &flow), 0);

    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, udp_packet("10.0.0.1", 1, "10.0.0.2", 2,
                                           60));
    dp_packet_batch_add(&batch, udp_packet("10.0.0.1", 1, "10.9.9.9", 2,
                                           70));
    dp_packet_batch_add(&batch, udp_packet("10.0.0.1", 1, "10.0.0.3", 2,
                                           80));
    CHECK_EQ(ops->tx_burst(s.tx_qp, &batch), 1);
    CHECK_EQ(dp_packet_batch_size(&batch), 0);
    stats = model_stats(s.devname);
    CHECK_EQ(stats.tx_packets, 2);
    CHECK_EQ(stats.tx_bytes, 140);
    CHECK_EQ(stats.tx_drop_rule, 1);

    /* The RSS QP cannot send. */
    dp_packet_batch_add(&batch, udp_packet("10.0.0.1", 1, "10.0.0.2", 2,
                                           60));
    CHECK_EQ(ops->tx_burst(s.rss_qp, &batch), 1);
    CHECK_EQ(model_stats(s.devname).tx_drop_invalid, 1);

    /* The capture holds the two frames that left: a 24-byte file header,
     * then a 16-byte record header per frame. */
    CHECK_ERR(hw_model_set_pcap(s.devname, "none"), 0);
    CHECK(!stat(pcap_name, &st));
    CHECK_EQ(st.st_size, 24 + 16 + 60 + 16 + 80);
    unlink(pcap_name);
    CHECK_ERR(hw_model_set_pcap("model999", "none"), ENODEV);

    CHECK_ERR(ops->destroy_flow(flow), 0);
    setup_destroy(&s);
}

/* The errno of each validation the model shares with the hardware. */
static void
test_wq_validation(void)
{
    struct ibv_context *ctx, *other_ctx;
    struct ibv_cq_ex *cq, *other_cq;
    struct ibv_pd *pd, *other_pd;
    struct ibv_wq *wq, *other_wq, *bad_wq;
    struct ibv_wq *many[1024];
    struct ibv_rwq_ind_table *table;
    struct ibv_wq_init_attr wq_attr;
    struct ibv_wq_attr mod;
    struct ibv_rwq_ind_table_init_attr tbl_attr;
    size_t n_objects;

    CHECK_ERR(ops->open("model9", &ctx), 0);
    CHECK_ERR(ops->alloc_pd(ctx, &pd), 0);
    CHECK_ERR(ops->create_cq(ctx, 64, &cq), 0);
    CHECK_ERR(ops->create_cq(ctx, 0, &other_cq), EINVAL);
    n_objects = model_objects("model9");

    /* create_wq. */
    memset(&wq_attr, 0, sizeof wq_attr);
    wq_attr.wq_type = IBV_WQT_RQ;
    wq_attr.max_wr = 64;
    wq_attr.pd = pd;
    wq_attr.cq = ibv_cq_ex_to_cq(cq);
    wq_attr.wq_type = 1;
    CHECK_ERR(ops->create_wq(ctx, &wq_attr, &wq), EINVAL);
    CHECK(!wq);
    wq_attr.wq_type = IBV_WQT_RQ;
    CHECK_ERR(create_wq(ctx, NULL, cq, 64, &wq), EINVAL);
    CHECK_ERR(create_wq(ctx, pd, NULL, 64, &wq), EINVAL);
    CHECK_ERR(create_wq(ctx, pd, cq, 0, &wq), EINVAL);
    CHECK_ERR(create_wq(ctx, pd, cq, (1u << 15) + 1, &wq), EINVAL);
    wq_attr.comp_mask = IBV_WQ_INIT_ATTR_RESERVED;
    CHECK_ERR(ops->create_wq(ctx, &wq_attr, &wq), EINVAL);
    wq_attr.comp_mask = IBV_WQ_INIT_ATTR_FLAGS;
    wq_attr.create_flags = IBV_WQ_FLAGS_RESERVED;
    CHECK_ERR(ops->create_wq(ctx, &wq_attr, &wq), EOPNOTSUPP);
    wq_attr.create_flags = IBV_WQ_FLAGS_CVLAN_STRIPPING;
    CHECK_ERR(ops->create_wq(ctx, &wq_attr, &wq), EOPNOTSUPP);
    CHECK_EQ(model_objects("model9"), n_objects);
    wq_attr.create_flags = IBV_WQ_FLAGS_PCI_WRITE_END_PADDING;
    CHECK_ERR(ops->create_wq(ctx, &wq_attr, &wq), 0);
    CHECK_EQ(wq->state, IBV_WQS_RESET);

    /* modify_wq. */
    memset(&mod, 0, sizeof mod);
    CHECK_ERR(ops->modify_wq(wq, &mod), EINVAL);
    mod.attr_mask = IBV_WQ_ATTR_RESERVED;
    CHECK_ERR(ops->modify_wq(wq, &mod), EINVAL);
    mod.attr_mask = IBV_WQ_ATTR_STATE;
    mod.wq_state = IBV_WQS_UNKNOWN;
    CHECK_ERR(ops->modify_wq(wq, &mod), EINVAL);
    mod.attr_mask = IBV_WQ_ATTR_FLAGS;
    mod.flags_mask = IBV_WQ_FLAGS_RESERVED;
    CHECK_ERR(ops->modify_wq(wq, &mod), EOPNOTSUPP);
    /* RESET -> ERR is not a transition of the RQ state machine. */
    CHECK_ERR(modify_wq_state(wq, IBV_WQS_ERR), EINVAL);
    /* A wrong current state is refused. */
    memset(&mod, 0, sizeof mod);
    mod.attr_mask = IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_CURR_STATE;
    mod.curr_wq_state = IBV_WQS_RDY;
    mod.wq_state = IBV_WQS_ERR;
    CHECK_ERR(ops->modify_wq(wq, &mod), EINVAL);
    mod.curr_wq_state = IBV_WQS_RESET;
    mod.wq_state = IBV_WQS_RDY;
    CHECK_ERR(ops->modify_wq(wq, &mod), 0);
    CHECK_EQ(wq->state, IBV_WQS_RDY);
    CHECK_ERR(modify_wq_state(wq, IBV_WQS_ERR), 0);
    CHECK_EQ(wq->state, IBV_WQS_ERR);

    /* create_rwq_ind_table. */
    for (size_t i = 0; i < ARRAY_SIZE(many); i++) {
        many[i] = wq;
    }
    memset(&tbl_attr, 0, sizeof tbl_attr);
    tbl_attr.log_ind_tbl_size = 0;
    tbl_attr.ind_tbl = many;
    tbl_attr.comp_mask = 1;
    CHECK_ERR(ops->create_rwq_ind_table(ctx, &tbl_attr, &table), EINVAL);
    CHECK_ERR(create_table(ctx, 14, many, &table), EINVAL);
    CHECK_ERR(create_table(ctx, 10, many, &table), EINVAL);
    CHECK_ERR(create_table(ctx, 1, NULL, &table), EINVAL);
    /* A WQ of another device. */
    CHECK_ERR(ops->open("model10", &other_ctx), 0);
    CHECK_ERR(ops->alloc_pd(other_ctx, &other_pd), 0);
    CHECK_ERR(ops->create_cq(other_ctx, 64, &other_cq), 0);
    CHECK_ERR(create_wq(other_ctx, other_pd, other_cq, 64, &other_wq), 0);
    many[1] = other_wq;
    CHECK_ERR(create_table(ctx, 1, many, &table), EINVAL);
    /* Nor can a WQ use another device's PD or CQ. */
    CHECK_ERR(create_wq(ctx, other_pd, cq, 64, &bad_wq), EINVAL);
    CHECK_ERR(create_wq(ctx, pd, other_cq, 64, &bad_wq), EINVAL);
    CHECK(!bad_wq);
    many[1] = wq;
    CHECK_EQ(model_objects("model9"), n_objects + 1);
    /* Repeats are allowed and each entry holds the WQ. */
    CHECK_ERR(create_table(ctx, 9, many, &table), 0);
    CHECK_ERR(ops->destroy_wq(wq), EBUSY);
    CHECK_ERR(ops->destroy_rwq_ind_table(table), 0);

    /* The device has max_wqs WQs. */
    for (int i = 1; i < 64; i++) {
        CHECK_ERR(create_wq(ctx, pd, cq, 64, &many[i]), 0);
    }
    CHECK_ERR(create_wq(ctx, pd, cq, 64, &many[0]), ENOMEM);
    for (int i = 1; i < 64; i++) {
        CHECK_ERR(ops->destroy_wq(many[i]), 0);
    }

    CHECK_ERR(ops->destroy_wq(wq), 0);
    CHECK_ERR(ops->destroy_cq(cq), 0);
    CHECK_ERR(ops->dealloc_pd(pd), 0);
    check_objects("model9", 0, 0, 0, 0, 0, 0, 0, 0);
    ops->close(ctx);

    CHECK_ERR(ops->destroy_wq(other_wq), 0);
    CHECK_ERR(ops->destroy_cq(other_cq), 0);
    CHECK_ERR(ops->dealloc_pd(other_pd), 0);
    check_objects("model10", 0, 0, 0, 0, 0, 0, 0, 0);
    ops->close(other_ctx);
}

static void
test_qp_validation(void)
{
    struct ibv_rwq_ind_table *table, *table1;
    struct ibv_qp_init_attr_ex attr;
    struct ibv_qp *qp;
    struct setup s;
    uint8_t long_key[64];
    size_t n_objects;

    setup_create(&s, "model11");
    CHECK_ERR(create_table(s.ctx, 2, s.wqs, &table), 0);
    CHECK_ERR(create_table(s.ctx, 0, s.wqs, &table1), 0);
    n_objects = model_objects(s.devname);

    rss_qp_attr(&attr, s.pd, table, udp4_fields);
    attr.rx_hash_conf.rx_hash_function = 2;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EOPNOTSUPP);
    CHECK(!qp);

    rss_qp_attr(&attr, s.pd, table, udp4_fields);
    attr.rx_hash_conf.rx_hash_key_len = 39;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    memset(long_key, 0x5a, sizeof long_key);
    attr.rx_hash_conf.rx_hash_key = long_key;
    attr.rx_hash_conf.rx_hash_key_len = 41;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);

    /* No hash fields: only with a one-entry table. */
    rss_qp_attr(&attr, s.pd, table, 0);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, table1, 0);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), 0);
    CHECK_ERR(ops->destroy_rwq_ind_table(table1), EBUSY);
    CHECK_ERR(ops->destroy_qp(qp), 0);

    rss_qp_attr(&attr, s.pd, table, (IBV_RX_HASH_SRC_IPV4
                                     | IBV_RX_HASH_DST_IPV6));
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, table, (IBV_RX_HASH_SRC_IPV4
                                     | IBV_RX_HASH_SRC_PORT_TCP
                                     | IBV_RX_HASH_DST_PORT_UDP));
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, table, udp4_fields | IBV_RX_HASH_INNER);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EOPNOTSUPP);
    rss_qp_attr(&attr, s.pd, table, udp4_fields);
    attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    attr.send_ops_flags = IBV_QP_EX_WITH_SEND;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, table, udp4_fields);
    attr.comp_mask &= ~IBV_QP_INIT_ATTR_RX_HASH;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, table, udp4_fields);
    attr.send_cq = ibv_cq_ex_to_cq(s.tx_cq);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    rss_qp_attr(&attr, s.pd, NULL, udp4_fields);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);

    /* Raw packet QPs need both CQs; other QP types are not modelled. */
    raw_qp_attr(&attr, s.pd, s.tx_cq);
    attr.send_cq = NULL;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EINVAL);
    raw_qp_attr(&attr, s.pd, s.tx_cq);
    attr.qp_type = IBV_QPT_UD;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EOPNOTSUPP);
    raw_qp_attr(&attr, s.pd, s.tx_cq);
    attr.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
    attr.create_flags = IBV_QP_CREATE_SCATTER_FCS;
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), EOPNOTSUPP);
    CHECK_EQ(model_objects(s.devname), n_objects);

    CHECK_ERR(ops->destroy_rwq_ind_table(table1), 0);
    CHECK_ERR(ops->destroy_rwq_ind_table(table), 0);
    setup_destroy(&s);
}

static void
test_reformat(void)
{
    const enum mlx5dv_flow_table_type rx = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
    const enum mlx5dv_flow_table_type tx = MLX5DV_FLOW_TABLE_TYPE_NIC_TX;
    const enum mlx5dv_flow_action_packet_reformat_type l2_decap
        = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2;
    const enum mlx5dv_flow_action_packet_reformat_type l2_encap
        = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL;
    const enum mlx5dv_flow_action_packet_reformat_type l3_decap
        = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2;
    const enum mlx5dv_flow_action_packet_reformat_type l3_encap
        = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL;
    struct ibv_flow_action *decap, *encap, *l3, *action;
    struct ibv_flow *flow;
    struct setup s;
    struct rule r;
    uint8_t header[200];
    size_t n_objects;

    setup_create(&s, "model12");
    memset(header, 0xab, sizeof header);
    n_objects = model_objects(s.devname);

    CHECK_ERR(ops->create_reformat(s.ctx, 14, NULL, l3_decap, rx, &action),
              EINVAL);
    CHECK(!action);
    CHECK_ERR(ops->create_reformat(s.ctx, 0, header, l2_encap, tx, &action),
              EINVAL);
    CHECK_ERR(ops->create_reformat(s.ctx, 0, NULL, l2_decap, tx, &action),
              EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.ctx, 50, header, l2_encap, rx,
                                   &action), EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.ctx, 50, header, l3_encap,
                                   MLX5DV_FLOW_TABLE_TYPE_FDB, &action),
              EOPNOTSUPP);
    CHECK_ERR(ops->create_reformat(s.ctx, 16, header, l3_decap, rx,
                                   &action), EINVAL);
    CHECK_ERR(ops->create_reformat(s.ctx, 14, header, l2_decap, rx,
                                   &action), EINVAL);
    CHECK_ERR(ops->create_reformat(s.ctx, 129, header, l2_encap, tx,
                                   &action), EINVAL);
    CHECK_EQ(model_objects(s.devname), n_objects);

    CHECK_ERR(ops->create_reformat(s.ctx, 0, NULL, l2_decap, rx, &decap), 0);
    CHECK(decap && decap->context == s.ctx);
    CHECK_ERR(ops->create_reformat(s.ctx, 128, header, l2_encap, tx,
                                   &encap), 0);
    CHECK_ERR(ops->create_reformat(s.ctx, 18, header, l3_decap, rx, &l3), 0);
    CHECK_ERR(ops->destroy_action(l3), 0);
    CHECK_ERR(ops->create_reformat(s.ctx, 14, header, l3_decap, rx, &l3), 0);
    CHECK_ERR(ops->destroy_action(l3), 0);
    check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 0, 0, 2);

    /* An encap (NIC_TX) action on an ingress rule: refused, no trace. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 2, 0);
    rule_add_eth_ipv4(&r);
    rule_add_handle(&r, encap);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), EINVAL);
    check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 0, 0, 2);

    /* The encap on an egress rule holds the action. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 2, IBV_FLOW_ATTR_FLAGS_EGRESS);
    rule_add_eth_ipv4(&r);
    rule_add_handle(&r, encap);
    CHECK_ERR(ops->create_flow(s.tx_qp, rule_attr(&r), &flow), 0);
    CHECK_ERR(ops->destroy_action(encap), EBUSY);
    CHECK_ERR(ops->destroy_flow(flow), 0);

    /* A handle that is not an action of this device. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 2, 0);
    rule_add_eth_ipv4(&r);
    rule_add_handle(&r, (struct ibv_flow_action *) (void *) header);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), EINVAL);

    CHECK_ERR(ops->destroy_action(encap), 0);
    CHECK_ERR(ops->destroy_action(decap), 0);
    setup_destroy(&s);
}

/* Injected faults fail the next calls before anything happens, so a
 * caller's clean-up can be proven all-or-nothing. */
static void
test_faults(void)
{
    struct ibv_counters *counters;
    struct ibv_qp_init_attr_ex attr;
    struct ibv_context *ctx;
    struct ibv_flow *flow;
    struct ibv_wq *wq;
    struct ibv_qp *qp;
    struct setup s;
    struct rule r;
    size_t n_objects;

    setup_create(&s, "model13");
    n_objects = model_objects(s.devname);

    CHECK_ERR(hw_model_set_fault("model999", "create_flow", ENOSPC, 1),
              ENODEV);
    CHECK_ERR(hw_model_set_fault(s.devname, "no_such_op", ENOSPC, 1),
              EINVAL);

    rule_init(&r, IBV_FLOW_ATTR_ALL_DEFAULT, 0, 0);
    CHECK_ERR(hw_model_set_fault(s.devname, "create_flow", ENOSPC, 2), 0);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), ENOSPC);
    CHECK(!flow);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), ENOSPC);
    CHECK_EQ(model_objects(s.devname), n_objects);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), 0);
    CHECK_EQ(model_objects(s.devname), n_objects + 1);

    /* A failing destroy leaves the object in place. */
    CHECK_ERR(hw_model_set_fault(s.devname, "destroy_flow", EIO, 1), 0);
    CHECK_ERR(ops->destroy_flow(flow), EIO);
    CHECK_EQ(model_objects(s.devname), n_objects + 1);
    CHECK_ERR(ops->destroy_flow(flow), 0);

    CHECK_ERR(hw_model_set_fault(s.devname, "create_counters", ENOMEM, 1),
              0);
    CHECK_ERR(ops->create_counters(s.ctx, &counters), ENOMEM);
    counters = create_counters(s.ctx);
    CHECK_ERR(ops->destroy_counters(counters), 0);

    CHECK_ERR(hw_model_set_fault(s.devname, "create_wq", EIO, 1), 0);
    CHECK_ERR(create_wq(s.ctx, s.pd, s.cqs[0], 64, &wq), EIO);
    CHECK_ERR(create_wq(s.ctx, s.pd, s.cqs[0], 64, &wq), 0);
    CHECK_ERR(ops->destroy_wq(wq), 0);

    CHECK_ERR(hw_model_set_fault(s.devname, "create_qp", ENOMEM, 3), 0);
    raw_qp_attr(&attr, s.pd, s.tx_cq);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), ENOMEM);
    /* Clearing the fault ends it early. */
    CHECK_ERR(hw_model_set_fault(s.devname, "create_qp", 0, 0), 0);
    CHECK_ERR(ops->create_qp(s.ctx, &attr, &qp), 0);
    CHECK_ERR(ops->destroy_qp(qp), 0);

    CHECK_ERR(hw_model_set_fault(s.devname, "open", EACCES, 1), 0);
    CHECK_ERR(ops->open(s.devname, &ctx), EACCES);
    CHECK(!ctx);
    CHECK_EQ(model_objects(s.devname), n_objects);
    setup_destroy(&s);
}

/* Appends an ACTION_HANDLE or ACTION_COUNT spec naming 'object' whose header
 * says 'size' bytes.  All 16 bytes are in the buffer, so a parser that reads
 * past 'size' finds the object. */
static void
rule_add_object(struct rule *r, uint32_t type, uint16_t size,
                const void *object)
{
    uint8_t spec[16];

    memset(spec, 0, sizeof spec);
    memcpy(spec, &type, 4);
    memcpy(spec + 4, &size, 2);
    memcpy(spec + 8, &object, sizeof object);
    rule_add(r, spec, sizeof spec);
}

/* Appends a 6-byte TAG spec and, at its byte 6, where its padding is, an
 * ACTION_HANDLE or ACTION_COUNT spec naming 'object'. */
static void
rule_add_hidden_object(struct rule *r, uint32_t type, const void *object)
{
    uint32_t tag_type = IBV_FLOW_SPEC_ACTION_TAG;
    uint16_t tag_size = 6, size = 16;
    uint8_t bytes[6 + 16];

    memset(bytes, 0, sizeof bytes);
    memcpy(bytes, &tag_type, 4);
    memcpy(bytes + 4, &tag_size, 2);
    memcpy(bytes + 6, &type, 4);
    memcpy(bytes + 10, &size, 2);
    memcpy(bytes + 14, &object, sizeof object);
    rule_add(r, bytes, sizeof bytes);
    rule_attr(r)->num_of_specs++;
}

/* A rule whose ACTION_HANDLE or ACTION_COUNT spec is short, or hidden behind
 * a short spec, is refused with EINVAL and holds nothing.  Before, the rule
 * parser found the object that the device's lookup had skipped, the rule
 * held no reference, and a packet matching it after the action was
 * destroyed read freed memory. */
static void
test_malformed_handles(void)
{
    const enum mlx5dv_flow_table_type rx = MLX5DV_FLOW_TABLE_TYPE_NIC_RX;
    struct ibv_flow_action *decap;
    struct ibv_counters *counters;
    struct ibv_flow *flow;
    struct setup s;
    struct rule r;

    setup_create(&s, "model14");
    CHECK_ERR(ops->create_reformat(
                  s.ctx, 0, NULL,
                  MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2, rx,
                  &decap), 0);
    counters = create_counters(s.ctx);
    check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 0, 1, 1);

    /* Well formed, the rule holds the action and the counters. */
    rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
    rule_add_eth_ipv4(&r);
    rule_add_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE, 16, decap);
    rule_add_object(&r, IBV_FLOW_SPEC_ACTION_COUNT, 16, counters);
    CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), 0);
    CHECK_ERR(ops->destroy_action(decap), EBUSY);
    CHECK_ERR(ops->destroy_counters(counters), EBUSY);
    CHECK_ERR(ops->destroy_flow(flow), 0);

    /* Short HANDLE and COUNT specs, and both hidden behind a short TAG.  A
     * hidden HANDLE may name any object: a QP, a counters object. */
    for (int i = 0; i < 8; i++) {
        rule_init(&r, IBV_FLOW_ATTR_NORMAL, 0, 0);
        rule_add_eth_ipv4(&r);
        rule_add_ipv4(&r, NULL, "10.0.0.2");
        switch (i) {
        case 0:
            rule_add_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE, 12, decap);
            break;
        case 1:
            rule_add_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE, 0, decap);
            break;
        case 2:
            rule_add_object(&r, IBV_FLOW_SPEC_ACTION_COUNT, 8, counters);
            break;
        case 3:
            rule_add_object(&r, IBV_FLOW_SPEC_ACTION_COUNT, 0, counters);
            break;
        case 4:
            rule_add_hidden_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE, decap);
            break;
        case 5:
            rule_add_hidden_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE,
                                   s.rss_qp);
            break;
        case 6:
            rule_add_hidden_object(&r, IBV_FLOW_SPEC_ACTION_HANDLE,
                                   counters);
            break;
        case 7:
            rule_add_hidden_object(&r, IBV_FLOW_SPEC_ACTION_COUNT, counters);
            break;
        }
        CHECK_ERR(ops->create_flow(s.rss_qp, rule_attr(&r), &flow), EINVAL);
        CHECK(!flow);
        check_objects(s.devname, 1, N_WQS + 1, N_WQS, 1, 2, 0, 1, 1);
    }

    /* Nothing holds them: both go, and a packet the refused rules would
     * have matched finds no rule. */
    CHECK_ERR(ops->destroy_action(decap), 0);
    CHECK_ERR(ops->destroy_counters(counters), 0);
    CHECK_ERR(hw_model_receive(s.devname, udp_packet("10.0.0.1", 1,
                                                     "10.0.0.2", 4000, 100)),
              ENOENT);
    CHECK_EQ(model_stats(s.devname).rx_drop_no_rule, 1);
    check_received(&s, -1, 0, 0, 0);
    setup_destroy(&s);
}

static void
test_names(void)
{
    struct hw_model_objects objs;

    CHECK(hw_dev_ops_find("model0") == &hw_model_ops);
    CHECK(hw_dev_ops_find("model65535") == &hw_model_ops);
    CHECK(!hw_dev_ops_find("model65536"));
    CHECK(!hw_dev_ops_find("model"));
    CHECK(!hw_dev_ops_find("model01"));
    CHECK(!hw_dev_ops_find("model1a"));
    CHECK(hw_dev_ops_find("mlx5_0") != &hw_model_ops);
    CHECK(!hw_dev_ops_find(""));
    CHECK(!strcmp(hw_model_ops.name, "model"));

    /* Not opened yet: no device. */
    CHECK_ERR(hw_model_count_objects("model42", &objs), ENODEV);
}

static void
run_hw_model_tests(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
        TEST(names),
        TEST(datapath),
        TEST(tx),
        TEST(wq_validation),
        TEST(qp_validation),
        TEST(reformat),
        TEST(faults),
        TEST(malformed_handles),
#undef TEST
    };

    /* Initializing twice does no harm. */
    ops = &hw_model_ops;
    hw_model_init();
    hw_model_init();

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-model", run_hw_model_tests);
