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

/* Fuzz target: tunnel push by hbl per-QP encapsulation.
 *
 * The input is a tnl_push header and the packet it is pushed onto:
 *
 *   byte 0      bits 0-6: the header's length (at most the 128 bytes of
 *               TNL_PUSH_HEADER_SIZE); bit 7: the packet is an L3 one (a
 *               pop_eth came before the push), else an Ethernet frame;
 *   bytes       the header;
 *   the rest    the packet.
 *
 * The header gets what OVS's tnl_push header always has: an IPv4 total
 * length of 0 with a valid header checksum, and a UDP source port of 0.
 *
 * Invariants: hw_hbl_encap_spec_from_header() and hw_hbl_txq_create()
 * agree on what they refuse, with EOPNOTSUPP and a reason; a queue made
 * for a header takes the packets prepared for that header, and the hbl
 * model device puts on the wire exactly what OVS's software push builds
 * (UDP source port 0: the NIC's); the queue leaves no object behind. */

#include <config.h>
#include <errno.h>
#include <string.h>

#include "csum.h"
#include "dp-packet.h"
#include "fuzz-hw.h"
#include "hw-hbl.h"
#include "hw-model.h"
#include "netdev-hw.h"
#include "netdev-native-tnl.h"
#include "openvswitch/dynamic-string.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "util.h"

static struct fuzz_port port;
static struct netdev_hw_device dev;
static struct dp_packet *wire;  /* What the device sent. */
static size_t n_wire;

static void
capture(void *aux OVS_UNUSED, const struct dp_packet *packet)
{
    n_wire++;
    dp_packet_delete(wire);
    wire = dp_packet_clone(packet);
}

static void
init(void)
{
    fuzz_init();
    fuzz_port_create(&port, "hbl_model5");
    fuzz_port_device(&port, &dev);
    CHECK(!hw_model_set_wire_tx(port.devname, capture, NULL));
}

/* Gives 'header' what OVS's header builders give every tnl_push header. */
static void
normalize(uint8_t *header, size_t len)
{
    struct ip_header *ip = (struct ip_header *) (header + ETH_HEADER_LEN);
    size_t ihl;

    if (len < ETH_HEADER_LEN + IP_HEADER_LEN
        || header[12] != 0x08 || header[13] != 0x00) {
        return;
    }
    ihl = IP_IHL(ip->ip_ihl_ver) * 4;
    if (ihl < IP_HEADER_LEN || ETH_HEADER_LEN + ihl > len) {
        return;
    }
    ip->ip_tot_len = htons(0);
    ip->ip_csum = htons(0);
    ip->ip_csum = csum(ip, ihl);
    if (ip->ip_proto == IPPROTO_UDP && ETH_HEADER_LEN + ihl + 2 <= len) {
        memset(header + ETH_HEADER_LEN + ihl, 0, 2);
    }
}

/* What OVS's software push of 'header' onto 'packet' sends, with UDP
 * source port 0.  OVS's push assumes an IPv4 header of 20 bytes, as every
 * header it builds has. */
static struct dp_packet *
software_push(const uint8_t *header, size_t len, const struct dp_packet *p)
{
    struct ovs_action_push_tnl data;
    struct dp_packet *packet = dp_packet_clone(p);
    const struct ip_header *ip;

    memset(&data, 0, sizeof data);
    memcpy(data.header, header, len);
    data.header_len = len;
    ip = (const struct ip_header *) (header + ETH_HEADER_LEN);
    if (ip->ip_proto == IPPROTO_UDP) {
        dp_packet_set_rss_hash(packet, 0);
        netdev_tnl_push_udp_header(NULL, packet, &data);
        memset((uint8_t *) dp_packet_data(packet)
               + ETH_HEADER_LEN + IP_HEADER_LEN, 0, 2);
    } else {
        int ip_tot_size;

        netdev_tnl_push_ip_header(packet, header, len, &ip_tot_size);
    }
    return packet;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, size };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ds reason2 = DS_EMPTY_INITIALIZER;
    struct hw_hbl_encap_spec spec;
    union {
        uint8_t header[TNL_PUSH_HEADER_SIZE];
        ovs_be32 align_;
    } u;
    uint8_t *header = u.header;
    struct dp_packet_batch batch;
    struct dp_packet *packet;
    struct hw_hbl_txq *txq;
    uint64_t n_sent, n_bytes;
    const uint8_t *p;
    size_t len;
    bool l3;
    int error, error2;

    if (!port.ctx) {
        init();
    }
    len = fuzz_u8(&in);
    l3 = len & 0x80;
    len &= 0x7f;
    p = fuzz_bytes(&in, len);
    if (!p) {
        return 0;
    }
    memcpy(header, p, len);
    normalize(header, len);

    error = hw_hbl_encap_spec_from_header(header, len, &spec, &reason);
    error2 = hw_hbl_txq_create(&dev, header, len, &txq, &reason2);
    CHECK_EQ(error2, error);
    if (error) {
        CHECK_EQ(error, EOPNOTSUPP);
        CHECK(reason.length && reason2.length);
        goto out;
    }
    CHECK(spec.head_len + spec.nic_len == len);

    packet = dp_packet_new(in.size);
    dp_packet_put(packet, in.data, in.size);
    packet->packet_type = l3 ? htonl(PT_IPV4) : htonl(PT_ETH);
    struct dp_packet *want = software_push(header, len, packet);

    CHECK(hw_hbl_push_prepare(txq, packet, header, len));
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, packet);
    n_sent = n_bytes = 0;
    n_wire = 0;
    CHECK_EQ(hw_hbl_tx_divert(port.ctx, SIZE_MAX, &batch, &n_sent, &n_bytes),
             0);
    CHECK_EQ(dp_packet_batch_size(&batch), 0);
    CHECK_EQ(n_sent, 1);
    CHECK_EQ(n_wire, 1);
    CHECK_EQ(n_bytes, dp_packet_size(wire));
    if (IP_IHL(((struct ip_header *) (header + ETH_HEADER_LEN))->ip_ihl_ver)
        == 5) {
        CHECK_EQ(dp_packet_size(wire), dp_packet_size(want));
        CHECK(!memcmp(dp_packet_data(wire), dp_packet_data(want),
                      dp_packet_size(want)));
    }
    dp_packet_delete(want);
    hw_hbl_txq_destroy(txq);

out:
    ovsrcu_quiesce();
    CHECK_EQ(fuzz_port_objects(&port), port.n_objects);
    ds_destroy(&reason);
    ds_destroy(&reason2);
    return 0;
}
