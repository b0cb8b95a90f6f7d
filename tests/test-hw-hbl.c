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

/* Unit tests of the hbl path (hw-hbl.c, hw-model-hbl.c):
 *
 *   ovstest test-hw-hbl [NAME]...
 *       the encapsulation attributes built from VXLAN and GRE tunnel
 *       headers, field by field and byte by byte; the NIC model's hbl
 *       personality (create_encap, destroy_encap, modify_qp, query_port)
 *       with its errors, and the frames a QP with an encap puts on the
 *       wire; the plugin's encapsulation send queues end to end.  The
 *       sub-tests run as test-hw-check.h says.
 *
 *   ovstest test-hw-hbl resolve DIR
 *       run-time resolution with dlopen() and dlvsym(..., "HBL_1.0") of
 *       DIR/libhbl.so.1 (the fake library of tests/hbl-fake-lib.c), and the
 *       refusal of DIR/wrongver/libhbl.so.1 (same symbols, another version)
 *       and of a missing DIR/missing/libhbl.so.1.
 *
 *   ovstest test-hw-hbl lib-get
 *       prints whether the process-wide libhbl.so.1 (found through
 *       LD_LIBRARY_PATH) is there, and checks the real backend's handles()
 *       agrees.
 *
 * Expected frames are built here, with a checksum routine of this file's
 * own, never with the model's or the plugin's code. */

#include <config.h>
#undef NDEBUG
#include "hw-hbl.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "hw-dev.h"
#include "hw-model.h"
#include "hw-model-hbl.h"
#include "hw-rule.h"
#include "hw-tx-push.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-rcu.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "test-hw-frame.h"
#include "test-hw-model-port.h"
#include "packets.h"
#include "util.h"

/* ---------------------------------------------------------------------- */
/* Frames, built byte by byte.                                            */
/* ---------------------------------------------------------------------- */

/* An IPv4 header with 'n_opt' bytes of options (NOPs); returns its start
 * so that the caller can fill the length and checksum. */
static uint8_t *
put_ipv4_opt(struct frame *f, uint8_t proto, uint32_t src, uint32_t dst,
             size_t n_opt)
{
    uint8_t *ip = f->data + f->len;

    put_u8(f, 0x40 | (5 + n_opt / 4));
    put_u8(f, 0x00);                /* TOS. */
    put_be16(f, 0);                 /* Total length: later. */
    put_be16(f, 0);                 /* ID. */
    put_be16(f, 0x4000);            /* DF. */
    put_u8(f, 64);                  /* TTL. */
    put_u8(f, proto);
    put_be16(f, 0);                 /* Checksum: later. */
    put_be32(f, src);
    put_be32(f, dst);
    for (size_t i = 0; i < n_opt; i++) {
        put_u8(f, 1);
    }
    return ip;
}

/* Fills the total length and checksum of the IPv4 header at 'ip' for a
 * packet whose IPv4 part is 'ip_len' bytes. */
static void
fix_ipv4(uint8_t *ip, size_t ip_len)
{
    size_t ihl = (ip[0] & 0x0f) * 4;

    set_be16(ip + 2, ip_len);
    set_be16(ip + 10, 0);
    set_be16(ip + 10, inet_sum(ip, ihl));
}

#define OUTER_DMAC "00:11:22:33:44:55"
#define OUTER_SMAC "02:aa:bb:cc:dd:01"
#define INNER_DMAC "00:11:22:33:44:66"
#define INNER_SMAC "02:aa:bb:cc:dd:77"
#define VXLAN_VNI 0x123456
#define GRE_KEY_VALUE 0x01020304
#define OUTER_SRC 0xac1f0101        /* 172.31.1.1 */
#define OUTER_DST 0xac1f0164        /* 172.31.1.100 */

/* The Ethernet and IPv4 headers of a tnl_push header for 'proto': OVS
 * leaves the length for the push and keeps a partial checksum. */
static struct frame *
outer_head(uint8_t proto)
{
    struct frame *f = frame_new();
    uint8_t *ip;

    put_eth(f, OUTER_DMAC, OUTER_SMAC, -1, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, proto, OUTER_SRC, OUTER_DST, 0);
    fix_ipv4(ip, IP_HEADER_LEN);
    return f;
}

/* The tnl_push header OVS builds for VXLAN over IPv4: the outer head, UDP
 * to 4789 (source port and length left for the push), VXLAN. */
static struct frame *
vxlan_header(void)
{
    struct frame *f = outer_head(IPPROTO_UDP);

    put_udp(f, 0, 4789, 0, 0);
    put_vxlan(f, VXLAN_VNI);
    return f;
}

/* The tnl_push header for GRE (TEB) with a key, or without one if
 * 'key' is false. */
static struct frame *
gre_header(bool key)
{
    struct frame *f = outer_head(IPPROTO_GRE);

    put_gre(f, key ? 0x2000 : 0, ETH_TYPE_TEB, GRE_KEY_VALUE);
    return f;
}

/* An inner Ethernet frame carrying IPv4 and UDP, 'size' bytes long. */
static struct frame *
inner_frame(size_t size)
{
    struct frame *f = frame_new();
    uint8_t *ip;

    put_eth(f, INNER_DMAC, INNER_SMAC, -1, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, IPPROTO_UDP, 0x0a000001, 0x0a000002, 0);
    put_udp(f, 1234, 5678, size - ETH_HEADER_LEN - IP_HEADER_LEN, 0);
    while (f->len < size) {
        put_u8(f, f->len & 0xff);
    }
    fix_ipv4(ip, size - ETH_HEADER_LEN);
    return f;
}

/* What the software push of 'header' (of 'len' bytes) onto 'inner'
 * produces, with UDP source port 0 (the NIC's). */
static struct frame *
pushed(const struct frame *header, const struct frame *inner)
{
    struct frame *f = frame_new();
    uint8_t *ip;

    put(f, header->data, header->len);
    put(f, inner->data, inner->len);
    ip = f->data + ETH_HEADER_LEN;
    fix_ipv4(ip, f->len - ETH_HEADER_LEN);
    if (ip[9] == IPPROTO_UDP) {
        uint8_t *udp = ip + (ip[0] & 0x0f) * 4;

        set_be16(udp, 0);
        set_be16(udp + 4, f->len - (udp - f->data));
    }
    return f;
}

/* What software hands to an encap QP for 'header': its head (Ethernet and
 * IPv4) with protocol and source the NIC overwrites, then 'inner'. */
static struct frame *
headed(const struct frame *header, size_t head_len,
       const struct frame *inner, uint8_t proto, uint32_t src)
{
    struct frame *f = frame_new();
    uint8_t *ip;

    put(f, header->data, head_len);
    put(f, inner->data, inner->len);
    ip = f->data + ETH_HEADER_LEN;
    ip[9] = proto;
    ip[12] = src >> 24;
    ip[13] = src >> 16;
    ip[14] = src >> 8;
    ip[15] = src;
    return f;
}

/* ---------------------------------------------------------------------- */
/* Encapsulation attributes from tunnel headers.                          */
/* ---------------------------------------------------------------------- */

static void
test_spec_vxlan(void)
{
    struct frame *h = vxlan_header();
    struct hw_hbl_encap_spec spec;
    struct hbldv_encap_attr attr;
    const uint8_t *raw = (const uint8_t *) &attr;
    static const uint8_t vxlan[8] = { 0x08, 0, 0, 0, 0x12, 0x34, 0x56, 0 };
    static const uint8_t src_net[4] = { 0xac, 0x1f, 0x01, 0x01 };
    static const uint8_t port_net[2] = { 0x12, 0xb5 };
    uint32_t u32;
    uint16_t u16;

    CHECK_EQ(h->len, 50);
    CHECK_ERR(hw_hbl_encap_spec_from_header(h->data, h->len, &spec, NULL),
              0);
    CHECK_EQ(spec.type, HBLDV_ENCAP_TYPE_ENC_OVER_UDP);
    CHECK_EQ(ntohl(spec.ipv4_src), OUTER_SRC);
    CHECK_EQ(ntohs(spec.udp_dst), 4789);
    CHECK_EQ(spec.head_len, ETH_HEADER_LEN + IP_HEADER_LEN);
    CHECK_EQ(spec.tnl_hdr_len, 8);
    CHECK_BYTES(spec.tnl_hdr, vxlan, 8);
    CHECK_EQ(spec.nic_len, UDP_HEADER_LEN + 8);

    /* Network order: the fields' bytes are the wire's. */
    hw_hbl_encap_attr_init(&spec, 1, HW_HBL_ORDER_NETWORK, &attr);
    CHECK_EQ(attr.tnl_hdr_ptr, (uintptr_t) spec.tnl_hdr);
    CHECK_EQ(attr.tnl_hdr_size, 8);
    CHECK_BYTES(&attr.ipv4_addr, src_net, 4);
    CHECK_EQ(attr.port_num, 1);
    CHECK_BYTES(&attr.udp_dst_port, port_net, 2);
    CHECK_EQ(attr.encap_type, HBLDV_ENCAP_TYPE_ENC_OVER_UDP);
    /* The same bytes where the ABI puts them. */
    CHECK_BYTES(raw + 12, src_net, 4);
    CHECK_BYTES(raw + 20, port_net, 2);
    memcpy(&u32, raw + 8, 4);
    CHECK_EQ(u32, 8);
    memcpy(&u32, raw + 16, 4);
    CHECK_EQ(u32, 1);
    memcpy(&u32, raw + 24, 4);
    CHECK_EQ(u32, 2);

    /* Host order: numeric values. */
    hw_hbl_encap_attr_init(&spec, 1, HW_HBL_ORDER_HOST, &attr);
    CHECK_EQ(attr.ipv4_addr, OUTER_SRC);
    CHECK_EQ(attr.udp_dst_port, 4789);
    memcpy(&u16, raw + 20, 2);
    CHECK_EQ(u16, 4789);

    free(h);
}

static void
test_spec_gre(void)
{
    struct frame *h = gre_header(true);
    struct frame *h4 = gre_header(false);
    struct hw_hbl_encap_spec spec;
    struct hbldv_encap_attr attr;
    static const uint8_t gre[8] = { 0x20, 0x00, 0x65, 0x58,
                                    0x01, 0x02, 0x03, 0x04 };
    static const uint8_t src_net[4] = { 0xac, 0x1f, 0x01, 0x01 };

    CHECK_ERR(hw_hbl_encap_spec_from_header(h->data, h->len, &spec, NULL),
              0);
    CHECK_EQ(spec.type, HBLDV_ENCAP_TYPE_ENC_OVER_IPV4);
    CHECK_EQ(spec.ip_proto, 47);
    CHECK_EQ(ntohl(spec.ipv4_src), OUTER_SRC);
    CHECK_EQ(spec.head_len, ETH_HEADER_LEN + IP_HEADER_LEN);
    CHECK_EQ(spec.tnl_hdr_len, 8);
    CHECK_BYTES(spec.tnl_hdr, gre, 8);
    CHECK_EQ(spec.nic_len, 8);

    hw_hbl_encap_attr_init(&spec, 1, HW_HBL_ORDER_NETWORK, &attr);
    CHECK_EQ(attr.encap_type, HBLDV_ENCAP_TYPE_ENC_OVER_IPV4);
    CHECK_EQ(attr.ip_proto, 47);        /* A number in either order. */
    CHECK_BYTES(&attr.ipv4_addr, src_net, 4);
    CHECK_EQ(attr.tnl_hdr_size, 8);
    CHECK_EQ(attr.port_num, 1);
    hw_hbl_encap_attr_init(&spec, 1, HW_HBL_ORDER_HOST, &attr);
    CHECK_EQ(attr.ip_proto, 47);
    CHECK_EQ(attr.ipv4_addr, OUTER_SRC);

    /* Without a key: the 4-byte base header. */
    CHECK_ERR(hw_hbl_encap_spec_from_header(h4->data, h4->len, &spec, NULL),
              0);
    CHECK_EQ(spec.tnl_hdr_len, 4);
    CHECK_BYTES(spec.tnl_hdr, h4->data + 34, 4);
    CHECK_EQ(spec.nic_len, 4);

    free(h);
    free(h4);
}

static void
check_refused(const struct frame *h, const char *why)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_hbl_encap_spec spec;

    CHECK_ERR(hw_hbl_encap_spec_from_header(h->data, h->len, &spec,
                                            &reason), EOPNOTSUPP);
    if (!strstr(ds_cstr(&reason), why)) {
        ovs_abort(0, "reason \"%s\" does not say \"%s\"", ds_cstr(&reason),
                  why);
    }
    ds_destroy(&reason);
}

static void
test_spec_errors(void)
{
    struct hw_hbl_encap_spec spec;
    struct frame *f;
    uint8_t *ip;

    /* IPv6 outer. */
    f = frame_new();
    put_eth(f, "00:11:22:33:44:01", "02:aa:bb:cc:dd:02", -1,
            ETH_TYPE_IPV6);
    put(f, NULL, 40 + 16);
    check_refused(f, "IPv4 only");
    free(f);

    /* UDP checksum. */
    f = vxlan_header();
    set_be16(f->data + 34 + 6, 0x1234);
    check_refused(f, "UDP checksum");
    free(f);

    /* GRE checksum, sequence number. */
    f = gre_header(true);
    set_be16(f->data + 34, 0xa000);
    check_refused(f, "GRE checksum");
    set_be16(f->data + 34, 0x3000);
    check_refused(f, "GRE sequence number");
    free(f);

    /* A tunnel header above 32 bytes. */
    f = vxlan_header();
    put(f, NULL, 25);
    check_refused(f, "limit of 32");
    free(f);
    f = vxlan_header();
    put(f, NULL, 24);               /* 32 exactly. */
    CHECK_ERR(hw_hbl_encap_spec_from_header(f->data, f->len, &spec, NULL),
              0);
    CHECK_EQ(spec.tnl_hdr_len, 32);
    free(f);

    /* Truncated. */
    f = vxlan_header();
    f->len = 30;
    check_refused(f, "too short");
    f->len = 38;
    check_refused(f, "UDP header truncated");
    free(f);

    /* IPv4 options: the head carries them. */
    f = frame_new();
    put_eth(f, "00:11:22:33:44:01", "02:aa:bb:cc:dd:02", -1, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, IPPROTO_GRE, OUTER_SRC, OUTER_DST, 4);
    fix_ipv4(ip, 24);
    put_be16(f, 0);
    put_be16(f, ETH_TYPE_TEB);
    CHECK_ERR(hw_hbl_encap_spec_from_header(f->data, f->len, &spec, NULL),
              0);
    CHECK_EQ(spec.head_len, ETH_HEADER_LEN + 24);
    CHECK_EQ(spec.tnl_hdr_len, 4);
    free(f);
}

/* ---------------------------------------------------------------------- */
/* The NIC model's hbl personality.                                       */
/* ---------------------------------------------------------------------- */

static const struct hw_dev_ops *ops;

/* A device with send QPs, and an RSS QP (which cannot send). */
struct setup {
    struct model_port port;
    struct ibv_qp *tx_qp;
    struct ibv_qp *tx_qp2;
    struct capture capture;
};

static void
setup_create(struct setup *s, const char *devname)
{
    memset(s, 0, sizeof *s);
    model_port_create(&s->port, devname, 256, 0);
    s->tx_qp = model_port_create_send_qp(&s->port);
    s->tx_qp2 = model_port_create_send_qp(&s->port);
    CHECK_ERR(hw_model_set_wire_tx(devname, capture_tx, &s->capture), 0);
}

static void
setup_destroy(struct setup *s)
{
    CHECK_ERR(hw_model_set_wire_tx(s->port.devname, NULL, NULL), 0);
    capture_clear(&s->capture);
    CHECK_ERR(ops->destroy_qp(s->tx_qp2), 0);
    CHECK_ERR(ops->destroy_qp(s->tx_qp), 0);
    model_port_destroy(&s->port);
}

/* Sends 'f' on 'qp'; checks the number the device dropped. */
static void
send_frame(struct ibv_qp *qp, const struct frame *f, int want_dropped)
{
    struct dp_packet_batch batch;

    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet_from(f, 0));
    CHECK_EQ(ops->tx_burst(qp, &batch), want_dropped);
}

/* Sends 'F' on 'QP' of setup 'S' and checks that the wire gets 'WANT'
 * alone. */
#define CHECK_SENT(S, QP, F, WANT)                                      \
    check_sent(__FILE__, __LINE__, S, QP, F, WANT)
static void
check_sent(const char *file, int line, struct setup *s, struct ibv_qp *qp,
           const struct frame *f, const struct frame *want)
{
    send_frame(qp, f, 0);
    if (s->capture.n != 1) {
        ovs_abort(0, "%s:%d: %"PRIuSIZE" frames on the wire, expected 1",
                  file, line, s->capture.n);
    }
    check_packet(file, line, s->capture.packets[0], want, 0);
    capture_clear(&s->capture);
}

static struct hbldv_encap *
create_encap(struct setup *s, const struct frame *header,
             enum hw_hbl_byte_order order)
{
    struct hw_hbl_encap_spec spec;
    struct hbldv_encap_attr attr;
    struct hbldv_encap *encap;

    CHECK_ERR(hw_hbl_encap_spec_from_header(header->data, header->len,
                                            &spec, NULL), 0);
    hw_hbl_encap_attr_init(&spec, 1, order, &attr);
    CHECK_ERR(ops->create_encap(s->port.ctx, &attr, &encap), 0);
    CHECK(encap);
    return encap;
}

static struct hw_model_hbl_info
hbl_info(const char *devname)
{
    struct hw_model_hbl_info info;

    CHECK_ERR(hw_model_hbl_get_info(devname, &info), 0);
    return info;
}

static void
test_model_errors(void)
{
    static uint8_t hdr[40];
    struct hbldv_encap_attr attr;
    struct hbldv_encap *encaps[4], *encap;
    struct hbldv_query_port_attr port_attr;
    struct hbldv_qp_attr hbl_attr;
    struct ibv_qp_attr qp_attr;
    struct setup s, plain;

    setup_create(&plain, "model0");
    setup_create(&s, "hbl_model0");
    CHECK(!plain.port.caps.qp_encap);
    CHECK(plain.port.caps.reformat_types != 0);
    CHECK(s.port.caps.qp_encap);
    CHECK_EQ(s.port.caps.reformat_types, 0);
    CHECK_EQ(s.port.caps.max_encap_header, 0);
    CHECK(!eth_addr_equals(s.port.caps.mac, plain.port.caps.mac));

    memset(&attr, 0, sizeof attr);
    attr.tnl_hdr_ptr = (uintptr_t) hdr;
    attr.tnl_hdr_size = 8;
    attr.port_num = 1;
    attr.udp_dst_port = 4789;
    attr.encap_type = HBLDV_ENCAP_TYPE_ENC_OVER_UDP;
    memset(&qp_attr, 0, sizeof qp_attr);
    qp_attr.qp_state = IBV_QPS_RTS;
    memset(&hbl_attr, 0, sizeof hbl_attr);

    /* Not an hbl device: libhbl's answer for another provider. */
    encap = (struct hbldv_encap *) &attr;
    CHECK_ERR(ops->create_encap(plain.port.ctx, &attr, &encap), EOPNOTSUPP);
    CHECK(!encap);
    CHECK_ERR(ops->hbl_modify_qp(plain.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EOPNOTSUPP);
    CHECK_ERR(ops->hbl_query_port(plain.port.ctx, 1, &port_attr), EOPNOTSUPP);
    CHECK_ERR(hw_model_hbl_set_max_encaps("model0", 4), ENODEV);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_mlx5_0", 4), ENODEV);

    /* create_encap arguments. */
    CHECK_ERR(ops->create_encap(s.port.ctx, NULL, &encap), EINVAL);
    attr.port_num = 2;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EINVAL);
    attr.port_num = 0;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EINVAL);
    attr.port_num = 1;
    attr.encap_type = 3;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EINVAL);
    attr.encap_type = HBLDV_ENCAP_TYPE_ENC_OVER_UDP;
    attr.tnl_hdr_size = 33;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EINVAL);
    attr.tnl_hdr_size = 8;
    attr.tnl_hdr_ptr = 0;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EFAULT);
    attr.tnl_hdr_ptr = (uintptr_t) hdr;
    attr.encap_type = HBLDV_ENCAP_TYPE_ENC_OVER_IPV4;
    attr.ip_proto = 256;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), EINVAL);
    attr.ip_proto = 47;
    CHECK_EQ(hbl_info("hbl_model0").n_encaps, 0);
    /* NO_ENC ignores the header. */
    attr.encap_type = HBLDV_ENCAP_TYPE_NO_ENC;
    attr.tnl_hdr_size = 100;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap), 0);
    CHECK_EQ(encap->encap_num, 1);
    CHECK_ERR(ops->destroy_encap(encap), 0);
    attr.encap_type = HBLDV_ENCAP_TYPE_ENC_OVER_IPV4;
    attr.tnl_hdr_size = 8;

    /* Ids: the lowest free, up to max_num_of_encaps, then EBUSY. */
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model0", 256), EINVAL);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model0", 0), EINVAL);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model0", 3), 0);
    CHECK_ERR(ops->hbl_query_port(s.port.ctx, 1, &port_attr), 0);
    CHECK_EQ(port_attr.max_num_of_encaps, 3);
    CHECK_ERR(ops->hbl_query_port(s.port.ctx, 2, &port_attr), EINVAL);
    CHECK_ERR(ops->hbl_query_port(s.port.ctx, 1, NULL), EINVAL);
    for (int i = 0; i < 3; i++) {
        CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encaps[i]), 0);
        CHECK_EQ(encaps[i]->encap_num, i + 1);
    }
    /* Even an invalid request fails on the id first, as the driver's. */
    attr.encap_type = 3;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encaps[3]), EBUSY);
    attr.encap_type = HBLDV_ENCAP_TYPE_ENC_OVER_IPV4;
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encaps[3]), EBUSY);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model0", 2), EINVAL);
    CHECK_ERR(ops->destroy_encap(encaps[1]), 0);
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encaps[1]), 0);
    CHECK_EQ(encaps[1]->encap_num, 2);
    CHECK_EQ(hbl_info("hbl_model0").n_encaps, 3);
    CHECK_ERR(ops->destroy_encap(NULL), EINVAL);

    /* modify_qp. */
    hbl_attr.caps = HBLDV_QP_CAP_ENCAP;
    hbl_attr.encap_num = 2;
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, NULL, IBV_QP_STATE, &hbl_attr),
              EINVAL);
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, 0, &hbl_attr), EINVAL);
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr,
                                 IBV_QP_STATE | IBV_QP_AV, &hbl_attr),
              EINVAL);
    qp_attr.qp_state = IBV_QPS_RTR;
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EINVAL);
    qp_attr.qp_state = IBV_QPS_RTS;
    hbl_attr.caps = HBLDV_QP_CAP_ENCAP | HBLDV_QP_CAP_LOOPBACK;
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EOPNOTSUPP);
    hbl_attr.caps = HBLDV_QP_CAP_ENCAP;
    hbl_attr.encap_num = 4;         /* Not allocated. */
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EINVAL);
    hbl_attr.encap_num = 0;
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EINVAL);
    hbl_attr.encap_num = 2;
    CHECK_ERR(ops->hbl_modify_qp(s.port.rss_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), EINVAL);
    CHECK_EQ(hbl_info("hbl_model0").n_encap_qps, 0);
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), 0);
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp2, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), 0);
    CHECK_EQ(hbl_info("hbl_model0").n_encap_qps, 2);

    /* An encap in use cannot go; moving the QPs off it frees it. */
    CHECK_ERR(ops->destroy_encap(encaps[1]), EBUSY);
    hbl_attr.encap_num = 3;
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp, &qp_attr, IBV_QP_STATE,
                                 &hbl_attr), 0);
    CHECK_ERR(ops->destroy_encap(encaps[1]), EBUSY);
    CHECK_ERR(ops->hbl_modify_qp(s.tx_qp2, &qp_attr, IBV_QP_STATE, NULL),
              0);
    CHECK_EQ(hbl_info("hbl_model0").n_encap_qps, 1);
    CHECK_ERR(ops->destroy_encap(encaps[1]), 0);
    CHECK_ERR(ops->destroy_encap(encaps[2]), EBUSY);

    /* Destroying the QP releases its encap. */
    CHECK_ERR(ops->destroy_qp(s.tx_qp), 0);
    s.tx_qp = model_port_create_send_qp(&s.port);
    CHECK_EQ(hbl_info("hbl_model0").n_encap_qps, 0);
    CHECK_ERR(ops->destroy_encap(encaps[2]), 0);
    CHECK_ERR(ops->destroy_encap(encaps[0]), 0);
    CHECK_EQ(hbl_info("hbl_model0").n_encaps, 0);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model0", 8), 0);

    setup_destroy(&s);
    setup_destroy(&plain);
}

static void
test_model_encap(void)
{
    struct frame *vxlan = vxlan_header();
    struct frame *gre = gre_header(true);
    struct frame *inner = inner_frame(100);
    struct frame *in, *want, *f;
    struct hbldv_encap *encap_vxlan, *encap_gre, *encap_none;
    struct hw_model_stats before, after;
    struct hbldv_encap_attr attr;
    struct setup s;
    uint8_t *ip;

    setup_create(&s, "hbl_model1");

    /* VXLAN: the NIC puts UDP + VXLAN after the IPv4 header and fills the
     * rest; the result is the software push, UDP source port 0. */
    encap_vxlan = create_encap(&s, vxlan, HW_HBL_ORDER_NETWORK);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, encap_vxlan), 0);
    in = headed(vxlan, 34, inner, HW_HBL_PROTO_MARK, 0x01020304);
    want = pushed(vxlan, inner);
    before = model_stats("hbl_model1");
    send_frame(s.tx_qp, in, 0);
    after = model_stats("hbl_model1");
    CHECK_EQ(s.capture.n, 1);
    CHECK_PACKET(s.capture.packets[0], want, 0);
    CHECK_EQ(after.tx_encap - before.tx_encap, 1);
    CHECK_EQ(after.tx_packets - before.tx_packets, 1);
    CHECK_EQ(after.tx_bytes - before.tx_bytes, want->len);
    capture_clear(&s.capture);
    free(in);
    free(want);

    /* The other QP has no encap: its frames leave unchanged. */
    CHECK_SENT(&s, s.tx_qp2, inner, inner);

    /* GRE over IPv4 on the second QP. */
    encap_gre = create_encap(&s, gre, HW_HBL_ORDER_NETWORK);
    CHECK_EQ(encap_gre->encap_num, 2);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp2, encap_gre), 0);
    in = headed(gre, 34, inner, 17, 0);
    want = pushed(gre, inner);
    CHECK_SENT(&s, s.tx_qp2, in, want);
    free(in);
    free(want);

    /* A VLAN-tagged frame keeps its tag in front of the IPv4 header. */
    f = frame_new();
    put_eth(f, OUTER_DMAC, OUTER_SMAC, 0x2064, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, 99, 0, OUTER_DST, 0);
    put(f, inner->data, inner->len);
    want = frame_new();
    put_eth(want, OUTER_DMAC, OUTER_SMAC, 0x2064, ETH_TYPE_IP);
    ip = put_ipv4_opt(want, IPPROTO_GRE, OUTER_SRC, OUTER_DST, 0);
    put(want, gre->data + 34, 8);
    put(want, inner->data, inner->len);
    fix_ipv4(ip, want->len - 18);
    CHECK_SENT(&s, s.tx_qp2, f, want);
    free(f);
    free(want);

    /* Not IPv4: the NIC cannot encapsulate it, and drops it. */
    f = frame_new();
    put_eth(f, OUTER_DMAC, OUTER_SMAC, -1, ETH_TYPE_ARP);
    put(f, NULL, 28);
    before = model_stats("hbl_model1");
    send_frame(s.tx_qp2, f, 1);
    after = model_stats("hbl_model1");
    CHECK_EQ(s.capture.n, 0);
    CHECK_EQ(after.tx_drop_encap - before.tx_drop_encap, 1);
    CHECK_EQ(after.tx_packets, before.tx_packets);
    free(f);

    /* A total length above 65535 once encapsulated. */
    f = frame_new();
    put_eth(f, OUTER_DMAC, OUTER_SMAC, -1, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, 17, 0, OUTER_DST, 0);
    put(f, NULL, 65535 - 20 - 4);
    fix_ipv4(ip, 65535 - 4);
    send_frame(s.tx_qp2, f, 1);
    f->len -= 4;
    fix_ipv4(ip, 65535 - 8);
    send_frame(s.tx_qp2, f, 0);
    CHECK_EQ(s.capture.n, 1);
    CHECK_EQ(dp_packet_size(s.capture.packets[0]), f->len + 8);
    capture_clear(&s.capture);
    free(f);

    /* NO_ENC only sets the source address and UDP (a RoCEv2 packet). */
    memset(&attr, 0, sizeof attr);
    attr.port_num = 1;
    attr.encap_type = HBLDV_ENCAP_TYPE_NO_ENC;
    attr.ipv4_addr = (OVS_FORCE uint32_t) htonl(0xc0a80001);
    CHECK_ERR(ops->create_encap(s.port.ctx, &attr, &encap_none), 0);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp2, encap_none), 0);
    f = frame_new();
    put_eth(f, OUTER_DMAC, OUTER_SMAC, -1, ETH_TYPE_IP);
    ip = put_ipv4_opt(f, 17, 0x0a0a0a0a, OUTER_DST, 0);
    put_be16(f, 49152);
    put_be16(f, 4791);
    put_be16(f, 20);
    put_be16(f, 0);
    put(f, NULL, 12);
    fix_ipv4(ip, f->len - 14);
    want = frame_new();
    put(want, f->data, f->len);
    want->data[14 + 12] = 0xc0;
    want->data[14 + 13] = 0xa8;
    want->data[14 + 14] = 0x00;
    want->data[14 + 15] = 0x01;
    fix_ipv4(want->data + 14, want->len - 14);
    CHECK_SENT(&s, s.tx_qp2, f, want);
    free(f);
    free(want);

    /* Taking the encap off: frames leave as they are. */
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, NULL), 0);
    in = headed(vxlan, 34, inner, 17, OUTER_SRC);
    CHECK_SENT(&s, s.tx_qp, in, in);
    free(in);

    /* Byte order: the device and the attributes must agree.  In host
     * order on both sides the frame is right; a device in host order
     * given network-order values swaps the source address and port. */
    CHECK_ERR(hw_model_hbl_set_byte_order("hbl_model1", true), 0);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, NULL), 0);
    CHECK_ERR(ops->destroy_encap(encap_vxlan), 0);
    encap_vxlan = create_encap(&s, vxlan, HW_HBL_ORDER_HOST);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, encap_vxlan), 0);
    in = headed(vxlan, 34, inner, HW_HBL_PROTO_MARK, 0);
    want = pushed(vxlan, inner);
    CHECK_SENT(&s, s.tx_qp, in, want);

    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, NULL), 0);
    CHECK_ERR(ops->destroy_encap(encap_vxlan), 0);
    encap_vxlan = create_encap(&s, vxlan, HW_HBL_ORDER_NETWORK);
    CHECK_ERR(hw_hbl_qp_set_encap(ops, s.tx_qp, encap_vxlan), 0);
    send_frame(s.tx_qp, in, 0);
    CHECK_EQ(s.capture.n, 1);
    {
        const uint8_t *got = dp_packet_data(s.capture.packets[0]);
        static const uint8_t swapped_src[4] = { 0x01, 0x01, 0x1f, 0xac };
        static const uint8_t swapped_port[2] = { 0xb5, 0x12 };

        CHECK_BYTES(got + 14 + 12, swapped_src, 4);
        CHECK_BYTES(got + 34 + 2, swapped_port, 2);
    }
    capture_clear(&s.capture);
    CHECK_ERR(hw_model_hbl_set_byte_order("hbl_model1", false), 0);
    free(in);
    free(want);

    /* Clean up: the QPs go with their encaps still set. */
    CHECK_EQ(hbl_info("hbl_model1").n_encap_qps, 2);
    CHECK_ERR(ops->destroy_qp(s.tx_qp), 0);
    CHECK_ERR(ops->destroy_qp(s.tx_qp2), 0);
    s.tx_qp = model_port_create_send_qp(&s.port);
    s.tx_qp2 = model_port_create_send_qp(&s.port);
    CHECK_ERR(ops->destroy_encap(encap_vxlan), 0);
    CHECK_ERR(ops->destroy_encap(encap_gre), 0);
    CHECK_ERR(ops->destroy_encap(encap_none), 0);
    CHECK_EQ(hbl_info("hbl_model1").n_encaps, 0);
    CHECK_EQ(hbl_info("hbl_model1").n_encap_qps, 0);

    setup_destroy(&s);
    free(vxlan);
    free(gre);
    free(inner);
}

/* ---------------------------------------------------------------------- */
/* The plugin's encapsulation send queues.                                */
/* ---------------------------------------------------------------------- */

static void
device_of(const struct setup *s, struct netdev_hw_device *dev)
{
    memset(dev, 0, sizeof *dev);
    dev->ops = ops;
    dev->ctx = s->port.ctx;
    dev->caps = &s->port.caps;
    dev->devname = s->port.devname;
    dev->port_num = 1;
}

static void
test_txq(void)
{
    struct frame *vxlan = vxlan_header();
    struct frame *gre = gre_header(false);
    struct frame *inner = inner_frame(200);
    struct frame *other = inner_frame(80);
    struct netdev_hw_device dev, plain_dev;
    struct hw_model_objects objs_before, objs;
    struct hw_hbl_txq *txq, *txq_gre, *txq2;
    struct dp_packet_batch batch;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct dp_packet *packet;
    struct frame *want;
    struct setup s, plain;
    uint64_t n_sent, n_bytes;

    setup_create(&s, "hbl_model2");
    setup_create(&plain, "model2");
    device_of(&s, &dev);
    device_of(&plain, &plain_dev);
    CHECK(hw_hbl_device_encaps(&dev));
    CHECK(!hw_hbl_device_encaps(&plain_dev));
    CHECK(!hw_hbl_tx_active());
    CHECK_ERR(hw_model_count_objects("hbl_model2", &objs_before), 0);

    /* Refusals leave nothing behind. */
    CHECK_ERR(hw_hbl_txq_create(&plain_dev, vxlan->data, vxlan->len, &txq,
                                &reason), EOPNOTSUPP);
    CHECK(strstr(ds_cstr(&reason), "no per-QP encapsulation"));
    ds_clear(&reason);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model2", 1), 0);
    CHECK_ERR(hw_hbl_txq_create(&dev, vxlan->data, vxlan->len, &txq,
                                &reason), 0);
    CHECK_ERR(hw_hbl_txq_create(&dev, gre->data, gre->len, &txq_gre,
                                &reason), EBUSY);
    CHECK(strstr(ds_cstr(&reason), "create_encap"));
    ds_clear(&reason);
    CHECK_ERR(hw_model_count_objects("hbl_model2", &objs), 0);
    /* One PD, CQ and QP for the queue that exists. */
    CHECK_EQ(objs.total, objs_before.total + 3);
    CHECK_ERR(hw_model_hbl_set_max_encaps("hbl_model2", 8), 0);
    CHECK_ERR(hw_hbl_txq_create(&dev, gre->data, gre->len, &txq_gre,
                                &reason), 0);
    CHECK_EQ(hbl_info("hbl_model2").n_encaps, 2);
    CHECK_EQ(hbl_info("hbl_model2").n_encap_qps, 2);
    CHECK(hw_hbl_tx_active());
    CHECK_EQ(hw_hbl_txq_spec(txq)->type, HBLDV_ENCAP_TYPE_ENC_OVER_UDP);
    CHECK_EQ(hw_hbl_txq_spec(txq_gre)->type, HBLDV_ENCAP_TYPE_ENC_OVER_IPV4);

    /* The hook's part: the head and the queue's mark.  Another header is
     * not this queue's. */
    packet = packet_from(inner, 0);
    CHECK(!hw_hbl_push_prepare(txq, packet, gre->data, gre->len));
    CHECK_PACKET(packet, inner, 0);
    CHECK(hw_hbl_push_prepare(txq, packet, vxlan->data, vxlan->len));
    CHECK_EQ(dp_packet_size(packet), inner->len + 34);
    CHECK_EQ(((uint8_t *) dp_packet_data(packet))[14 + 9],
             HW_HBL_PROTO_MARK);
    CHECK_EQ(packet->packet_type, htonl(PT_ETH));

    /* tx_divert takes the marked packet out of the batch and sends it on
     * its queue; the others stay, in order. */
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet_from(other, 0));
    dp_packet_batch_add(&batch, packet);
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq_gre, packet, gre->data, gre->len));
    dp_packet_batch_add(&batch, packet);
    dp_packet_batch_add(&batch, packet_from(vxlan, 0));
    n_sent = n_bytes = 0;
    CHECK_EQ(hw_hbl_tx_divert(s.port.ctx, 1518, &batch, &n_sent, &n_bytes), 0);
    CHECK_EQ(n_sent, 2);
    CHECK_EQ(dp_packet_batch_size(&batch), 2);
    CHECK_PACKET(batch.packets[0], other, 0);
    CHECK_PACKET(batch.packets[1], vxlan, 0);
    dp_packet_delete_batch(&batch, true);

    CHECK_EQ(s.capture.n, 2);
    want = pushed(vxlan, inner);
    CHECK_PACKET(s.capture.packets[0], want, 0);
    CHECK_EQ(n_bytes, want->len + inner->len + 34 + 4);
    free(want);
    want = pushed(gre, inner);
    CHECK_PACKET(s.capture.packets[1], want, 0);
    free(want);
    capture_clear(&s.capture);

    /* A received frame with the same bytes as a prepared packet, but not
     * the push hook's mark, is not the queue's: it stays in the batch and
     * is sent as it is, never encapsulated. */
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq, packet, vxlan->data, vxlan->len));
    struct dp_packet *forged = dp_packet_clone(packet);
    dp_packet_delete(packet);
    dp_packet_set_flow_mark(forged, 7);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, forged);
    dp_packet_batch_add(&batch, dp_packet_clone(forged));
    dp_packet_reset_offload(batch.packets[1]);
    n_sent = n_bytes = 0;
    CHECK_EQ(hw_hbl_tx_divert(s.port.ctx, 1518, &batch, &n_sent, &n_bytes), 0);
    CHECK_EQ(n_sent, 0);
    CHECK_EQ(dp_packet_batch_size(&batch), 2);
    CHECK_EQ(s.capture.n, 0);
    dp_packet_delete_batch(&batch, true);

    /* The MTU counts what the NIC adds. */
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq, packet, vxlan->data, vxlan->len));
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    n_sent = n_bytes = 0;
    CHECK_EQ(hw_hbl_tx_divert(s.port.ctx, inner->len + 34 + 15, &batch,
                              &n_sent, &n_bytes), 1);
    CHECK_EQ(n_sent, 0);
    CHECK_EQ(dp_packet_batch_size(&batch), 0);
    CHECK_EQ(s.capture.n, 0);

    /* A packet marked for a queue of another device is dropped. */
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq, packet, vxlan->data, vxlan->len));
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    CHECK_EQ(hw_hbl_tx_divert(plain.port.ctx, 1518, &batch, &n_sent, &n_bytes),
             1);
    CHECK_EQ(dp_packet_batch_size(&batch), 0);

    /* So is one whose queue is gone; the mark of a live queue still works
     * afterwards. */
    CHECK_ERR(hw_hbl_txq_create(&dev, vxlan->data, vxlan->len, &txq2,
                                &reason), 0);
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq2, packet, vxlan->data, vxlan->len));
    hw_hbl_txq_destroy(txq2);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    packet = packet_from(inner, 0);
    CHECK(hw_hbl_push_prepare(txq, packet, vxlan->data, vxlan->len));
    dp_packet_batch_add(&batch, packet);
    n_sent = 0;
    CHECK_EQ(hw_hbl_tx_divert(s.port.ctx, 1518, &batch, &n_sent, &n_bytes), 1);
    CHECK_EQ(n_sent, 1);
    CHECK_EQ(s.capture.n, 1);
    capture_clear(&s.capture);

    hw_hbl_txq_destroy(txq);
    hw_hbl_txq_destroy(txq_gre);
    CHECK(!hw_hbl_tx_active());
    CHECK_EQ(hbl_info("hbl_model2").n_encaps, 0);
    CHECK_ERR(hw_model_count_objects("hbl_model2", &objs), 0);
    CHECK_EQ(objs.total, objs_before.total);
    ovsrcu_quiesce();

    setup_destroy(&plain);
    setup_destroy(&s);
    ds_destroy(&reason);
    free(vxlan);
    free(gre);
    free(inner);
    free(other);
}

/* A push through the device interface (hw-tx-push.h) on an hbl device is
 * a send queue of its own, and the send path diverts only while one
 * lives. */
static void
test_push(void)
{
    struct frame *vxlan = vxlan_header();
    struct frame *inner = inner_frame(200);
    struct hw_model_objects objs_before, objs;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct netdev_hw_device dev;
    struct dp_packet_batch batch;
    struct dp_packet *packet;
    struct hw_tx_push *push;
    uint64_t n_sent, n_bytes;
    struct hw_rule rule;
    struct frame *want;
    struct setup s;

    setup_create(&s, "hbl_model3");
    device_of(&s, &dev);
    CHECK_ERR(hw_model_count_objects("hbl_model3", &objs_before), 0);
    CHECK(!hw_tx_push_diverting());

    /* The queue needs only the tnl_push header of the rule. */
    memset(&rule, 0, sizeof rule);
    memcpy(rule.reformat_data, vxlan->data, vxlan->len);
    rule.reformat_len = vxlan->len;
    CHECK_ERR(hw_tx_push_create(&dev, s.tx_qp, &rule, &push, &reason), 0);
    CHECK_EQ(hbl_info("hbl_model3").n_encaps, 1);
    CHECK_EQ(hbl_info("hbl_model3").n_encap_qps, 1);
    CHECK(hw_tx_push_diverting());

    packet = packet_from(inner, 0);
    CHECK(hw_tx_push_prepare(push, packet, vxlan->data, vxlan->len));
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    n_sent = n_bytes = 0;
    CHECK_EQ(hw_tx_push_divert(s.port.ctx, 1518, &batch, &n_sent, &n_bytes),
             0);
    CHECK_EQ(n_sent, 1);
    CHECK_EQ(dp_packet_batch_size(&batch), 0);
    CHECK_EQ(s.capture.n, 1);
    want = pushed(vxlan, inner);
    CHECK_PACKET(s.capture.packets[0], want, 0);
    CHECK_EQ(n_bytes, want->len);
    free(want);
    capture_clear(&s.capture);

    hw_tx_push_destroy(push);
    CHECK(!hw_tx_push_diverting());
    CHECK_EQ(hbl_info("hbl_model3").n_encaps, 0);
    CHECK_ERR(hw_model_count_objects("hbl_model3", &objs), 0);
    CHECK_EQ(objs.total, objs_before.total);
    ovsrcu_quiesce();

    setup_destroy(&s);
    ds_destroy(&reason);
    free(vxlan);
    free(inner);
}

/* ---------------------------------------------------------------------- */
/* Run-time resolution.                                                   */
/* ---------------------------------------------------------------------- */

/* The fake library's record (tests/hbl-fake-lib.c). */
struct hbl_fake_state {
    unsigned int n_create, n_destroy, n_modify, n_query;
    struct hbldv_encap_attr last_attr;
    uint8_t last_tnl_hdr[64];
    int last_attr_mask;
    uint64_t last_caps;
    uint8_t last_encap_num;
    uint8_t last_priority;
    const struct ibv_qp *last_qp;
};

static void
test_resolve(const char *dir)
{
    struct frame *vxlan = vxlan_header();
    const struct hbl_fake_state *(*get_state)(void);
    const struct hbl_fake_state *st;
    struct hbldv_query_port_attr port_attr;
    struct hw_hbl_encap_spec spec;
    struct hbldv_encap_attr attr;
    static uint64_t qp_storage[16];
    struct ibv_qp *qp = (struct ibv_qp *) qp_storage;
    struct hbldv_encap *encap, big;
    struct hw_dev_ops fake_ops;
    struct hw_hbl_lib lib;
    char *file, *error;
    void *sym;

    /* The real thing: every function at version HBL_1.0. */
    file = xasprintf("%s/libhbl.so.1", dir);
    CHECK_ERR(hw_hbl_lib_open(file, &lib, &error), 0);
    CHECK(!error);
    CHECK(lib.handle);
    CHECK(lib.create_encap && lib.destroy_encap && lib.modify_qp);
    CHECK(lib.is_supported && lib.query_port);
    sym = dlsym(lib.handle, "hbl_fake_state");
    CHECK(sym);
    get_state = (const struct hbl_fake_state *(*)(void)) sym;
    st = get_state();
    free(file);

    /* Calls go through with the ABI's layout. */
    CHECK_ERR(hw_hbl_encap_spec_from_header(vxlan->data, vxlan->len, &spec,
                                            NULL), 0);
    hw_hbl_encap_attr_init(&spec, 1, HW_HBL_ORDER_NETWORK, &attr);
    encap = lib.create_encap(NULL, &attr);
    CHECK(encap);
    CHECK_EQ(encap->encap_num, 108);
    CHECK_EQ(st->n_create, 1);
    CHECK_EQ(st->last_attr.tnl_hdr_size, 8);
    CHECK_EQ(st->last_attr.port_num, 1);
    CHECK_EQ(st->last_attr.encap_type, HBLDV_ENCAP_TYPE_ENC_OVER_UDP);
    CHECK_EQ(st->last_attr.ipv4_addr, attr.ipv4_addr);
    CHECK_EQ(st->last_attr.udp_dst_port, attr.udp_dst_port);
    CHECK_BYTES(st->last_tnl_hdr, vxlan->data + 42, 8);
    errno = 0;
    CHECK(!lib.create_encap(NULL, NULL));
    CHECK_EQ(errno, EINVAL);

    memset(&fake_ops, 0, sizeof fake_ops);
    fake_ops.hbl_modify_qp = lib.modify_qp;
    CHECK_ERR(hw_hbl_qp_set_encap(&fake_ops, qp, encap), 0);
    CHECK_EQ(st->n_modify, 1);
    CHECK(st->last_qp == qp);
    CHECK_EQ(st->last_attr_mask, IBV_QP_STATE);
    CHECK_EQ(st->last_caps, HBLDV_QP_CAP_ENCAP);
    CHECK_EQ(st->last_encap_num, 108);
    CHECK_EQ(st->last_priority, 1);
    CHECK_ERR(hw_hbl_qp_set_encap(&fake_ops, qp, NULL), 0);
    CHECK_EQ(st->last_caps, 0);
    big.encap_num = 300;            /* Does not fit encap_num. */
    CHECK_ERR(hw_hbl_qp_set_encap(&fake_ops, qp, &big), EOVERFLOW);
    CHECK_EQ(st->n_modify, 2);

    CHECK_ERR(lib.query_port(NULL, 1, &port_attr), 0);
    CHECK_EQ(port_attr.max_num_of_encaps, 7);
    CHECK_EQ(port_attr.nic_phys_port_idx, 3);
    CHECK_ERR(lib.destroy_encap(encap), 0);
    CHECK_EQ(st->n_destroy, 1);
    hw_hbl_lib_close(&lib);
    CHECK(!lib.handle && !lib.create_encap);

    /* The same symbols at another version are not the ABI we know. */
    file = xasprintf("%s/wrongver/libhbl.so.1", dir);
    CHECK_ERR(hw_hbl_lib_open(file, &lib, &error), ENOSYS);
    CHECK(error && strstr(error, "hbldv_create_encap@HBL_1.0"));
    CHECK(!lib.handle && !lib.create_encap && !lib.modify_qp);
    printf("wrong version: %s\n", strstr(error, "no symbol"));
    free(error);
    free(file);

    /* No library: the feature is off, with the reason. */
    file = xasprintf("%s/missing/libhbl.so.1", dir);
    CHECK_ERR(hw_hbl_lib_open(file, &lib, &error), ENOENT);
    CHECK(error && strstr(error, "missing/libhbl.so.1"));
    CHECK(!lib.handle && !lib.create_encap);
    free(error);
    free(file);

    free(vxlan);
    printf("resolve: ok\n");
}

/* Whether the process finds libhbl.so.1 by itself. */
static void
test_lib_get(void)
{
    const struct hw_hbl_lib *lib = hw_hbl_lib_get();

    /* Looked up once. */
    CHECK(hw_hbl_lib_get() == lib);
    if (lib) {
        CHECK(lib->create_encap && lib->destroy_encap && lib->modify_qp);
    }
#ifdef HAVE_HW_RDMA
    /* The real backend drives hbl devices only when the library is
     * there, and never model or mlx5 devices. */
    CHECK(hw_hbl_ops.handles("hbl_0") == (lib != NULL));
    CHECK(!hw_hbl_ops.handles("hbl_model0"));
    CHECK(!hw_hbl_ops.handles("hbl_"));
    CHECK(!hw_hbl_ops.handles("mlx5_0"));
    if (lib) {
        CHECK(hw_hbl_ops.create_encap && hw_hbl_ops.hbl_modify_qp);
        CHECK(hw_hbl_ops.open && hw_hbl_ops.create_qp);
        CHECK(!strcmp(hw_hbl_ops.name, "hbl"));
    }
#endif
    CHECK(hw_dev_ops_find("hbl_model0") == &hw_model_ops);
    printf("libhbl: %s\n", lib ? "found" : "absent");
}

static void
test_hw_hbl_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "spec-vxlan", test_spec_vxlan },
        { "spec-gre", test_spec_gre },
        { "spec-errors", test_spec_errors },
        { "model-errors", test_model_errors },
        { "model-encap", test_model_encap },
        { "txq", test_txq },
        { "push", test_push },
    };

    /* "-vSPEC" arguments set log levels, as OVS programs' do. */
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "-v", 2)) {
            char *error = vlog_set_levels_from_string(argv[i] + 2);

            if (error) {
                ovs_fatal(0, "%s", error);
            }
        } else {
            argv[n++] = argv[i];
        }
    }
    argc = n;

    ops = &hw_model_ops;
    if (argc == 3 && !strcmp(argv[1], "resolve")) {
        test_resolve(argv[2]);
        return;
    }
    if (argc == 2 && !strcmp(argv[1], "lib-get")) {
        test_lib_get();
        return;
    }
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-hbl", test_hw_hbl_main);
