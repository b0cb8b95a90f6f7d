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

/* Unit tests of the conntrack offload hooks that vswitchd-patches/0010 adds
 * to OVS's userspace conntrack (lib/conntrack-offload.h): a recording
 * provider sees exactly which connections are offered, with which tuples,
 * zone, mark, label, NAT flag and in_ports, and when they are taken back.
 *
 * The packets carry a time 'now' an hour ahead of the clock, so that the
 * clean thread (which expires by time_msec()) expires none of them while a
 * sub-test runs; only "expiry" waits for it. */

#include <config.h>

#include <errno.h>
#include <string.h>

#include "conntrack.h"
#include "conntrack-offload.h"
#include "conntrack-private.h"
#include "conntrack-tp.h"
#include "csum.h"
#include "ct-dpif.h"
#include "dp-packet.h"
#include "flow.h"
#include "netdev-offload.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/poll-loop.h"
#include "openvswitch/vlog.h"
#include "ovstest.h"
#include "packets.h"
#include "seq.h"
#include "smap.h"
#include "test-hw-check.h"
#include "timeval.h"

/* The recording provider. */

#define MAX_EVENTS 32

static struct ovs_mutex rec_mutex = OVS_MUTEX_INITIALIZER;
static struct seq *rec_seq;             /* Changes at every hook call. */
static char *rec_events[MAX_EVENTS] OVS_GUARDED_BY(rec_mutex);
static const void *rec_ids[MAX_EVENTS] OVS_GUARDED_BY(rec_mutex);
static size_t rec_n OVS_GUARDED_BY(rec_mutex);   /* Events recorded. */
static size_t rec_next;                 /* Next event to check. */
static bool rec_take = true;            /* conn_add()'s answer. */
static const void *used_id OVS_GUARDED_BY(rec_mutex);
static long long used_value OVS_GUARDED_BY(rec_mutex);
static unsigned int used_calls OVS_GUARDED_BY(rec_mutex);

static void
record(const void *id, char *event)
{
    ovs_mutex_lock(&rec_mutex);
    CHECK(rec_n < MAX_EVENTS);
    rec_ids[rec_n] = id;
    rec_events[rec_n++] = event;
    ovs_mutex_unlock(&rec_mutex);
    seq_change(rec_seq);
}

static void
format_u128(struct ds *s, ovs_u128 v)
{
    ds_put_format(s, "%#"PRIx64":%#"PRIx64, v.u64.hi, v.u64.lo);
}

static bool
rec_conn_add(const struct ct_offload_conn *c)
{
    const struct conn *conn = c->id;
    struct ds s = DS_EMPTY_INITIALIZER;

    /* Always the connection itself, never its NAT reverse entry. */
    CHECK_EQ(conn->conn_type, CT_CONN_TYPE_DEFAULT);

    ds_put_format(&s, "add zone=%"PRIu16" proto=%u orig=(", c->zone,
                  c->orig.ip_proto);
    ct_dpif_format_tuple(&s, &c->orig);
    ds_put_format(&s, ") reply=(");
    ct_dpif_format_tuple(&s, &c->reply);
    ds_put_format(&s, ") nat=%d mark=%#"PRIx32" label=", c->nat, c->mark);
    format_u128(&s, c->label);
    ds_put_format(&s, " in_port=%"PRIu32",%"PRIu32,
                  odp_to_u32(c->in_port[0]), odp_to_u32(c->in_port[1]));
    record(c->id, ds_steal_cstr(&s));
    return rec_take;
}

static void
rec_conn_del(const void *id)
{
    record(id, xstrdup("del"));
}

static long long
rec_conn_used(const void *id)
{
    long long used = 0;

    ovs_mutex_lock(&rec_mutex);
    if (id == used_id) {
        used = used_value;
        used_calls++;
    }
    ovs_mutex_unlock(&rec_mutex);
    seq_change(rec_seq);
    return used;
}

static const struct ct_offload_class rec_class = {
    .conn_add = rec_conn_add,
    .conn_del = rec_conn_del,
    .conn_used = rec_conn_used,
};

/* Creates a conntrack with hw-offload on and the recording provider. */
static struct conntrack *
setup(void)
{
    struct smap config = SMAP_INITIALIZER(&config);

    if (!rec_seq) {
        rec_seq = seq_create();
    }
    smap_add(&config, "hw-offload", "true");
    netdev_set_flow_api_enabled(&config);
    smap_destroy(&config);
    CHECK(netdev_is_flow_api_enabled());

    ovs_mutex_lock(&rec_mutex);
    for (size_t i = 0; i < rec_n; i++) {
        free(rec_events[i]);
    }
    rec_n = 0;
    used_id = NULL;
    used_value = 0;
    used_calls = 0;
    ovs_mutex_unlock(&rec_mutex);
    rec_next = 0;
    rec_take = true;

    conntrack_offload_set_class(&rec_class);
    return conntrack_init();
}

/* Checks that the next event recorded is 'want', and returns its
 * connection. */
#define expect(WANT) expect__(WANT, __LINE__)
static const void *
expect__(const char *want, int line)
{
    const void *id;
    char *event;

    ovs_mutex_lock(&rec_mutex);
    if (rec_next >= rec_n) {
        ovs_mutex_unlock(&rec_mutex);
        ovs_abort(0, "line %d: expected \"%s\", no more events", line,
                  want);
    }
    event = xstrdup(rec_events[rec_next]);
    id = rec_ids[rec_next++];
    ovs_mutex_unlock(&rec_mutex);
    if (strcmp(event, want)) {
        ovs_abort(0, "line %d: event \"%s\", expected \"%s\"", line,
                  event, want);
    }
    free(event);
    return id;
}

/* Checks that the next event is a conn_del() of 'id'. */
#define expect_del(ID) expect_del__(ID, __LINE__)
static void
expect_del__(const void *id, int line)
{
    if (expect__("del", line) != id) {
        ovs_abort(0, "line %d: conn_del() of another connection", line);
    }
}

/* Checks that the next two events are conn_del()s of 'a' and 'b', in any
 * order. */
static void
expect_dels(const void *a, const void *b)
{
    const void *first = expect("del");

    CHECK(first == a || first == b);
    expect_del(first == a ? b : a);
}

/* Checks that no event was recorded after the ones checked. */
#define expect_none() expect_none__(__LINE__)
static void
expect_none__(int line)
{
    ovs_mutex_lock(&rec_mutex);
    if (rec_next < rec_n) {
        ovs_abort(0, "line %d: unexpected event \"%s\"", line,
                  rec_events[rec_next]);
    }
    ovs_mutex_unlock(&rec_mutex);
}

static void
teardown(struct conntrack *ct)
{
    conntrack_destroy(ct);
    conntrack_offload_set_class(NULL);
}

/* Packets. */

#define A "10.0.0.1"
#define B "10.0.0.2"

static ovs_be32
ip(const char *s)
{
    ovs_be32 addr;

    CHECK(ip_parse(s, &addr));
    return addr;
}

/* An IPv4 packet from 'src' to 'dst' received on 'in_port', with the L4
 * header and payload 'l4', whose checksum it computes. */
static struct dp_packet *
packet(uint8_t proto, const char *src, const char *dst, const void *l4,
       size_t l4_len, uint32_t in_port)
{
    struct dp_packet *pkt = dp_packet_new(128);
    struct eth_header *eth = dp_packet_put_zeros(pkt, sizeof *eth);
    struct ip_header *iph = dp_packet_put_zeros(pkt, sizeof *iph);
    void *l4p = dp_packet_put(pkt, l4, l4_len);
    struct flow flow;

    eth->eth_dst = (struct eth_addr) { { { 0x50, 0x54, 0, 0, 0, 2 } } };
    eth->eth_src = (struct eth_addr) { { { 0x50, 0x54, 0, 0, 0, 1 } } };
    eth->eth_type = htons(ETH_TYPE_IP);
    iph->ip_ihl_ver = IP_IHL_VER(5, 4);
    iph->ip_tot_len = htons(sizeof *iph + l4_len);
    iph->ip_ttl = 64;
    iph->ip_proto = proto;
    put_16aligned_be32(&iph->ip_src, ip(src));
    put_16aligned_be32(&iph->ip_dst, ip(dst));
    iph->ip_csum = csum(iph, sizeof *iph);

    if (proto == IPPROTO_ICMP) {
        struct icmp_header *icmp = l4p;

        icmp->icmp_csum = csum(l4p, l4_len);
    } else {
        uint32_t pseudo = packet_csum_pseudoheader(iph);
        ovs_be16 sum = csum_finish(csum_continue(pseudo, l4p, l4_len));

        if (proto == IPPROTO_TCP) {
            struct tcp_header *th = l4p;

            th->tcp_csum = sum;
        } else {
            struct udp_header *uh = l4p;

            uh->udp_csum = sum ? sum : OVS_BE16_MAX;
        }
    }

    pkt_metadata_init(&pkt->md, u32_to_odp(in_port));
    flow_extract(pkt, &flow);
    return pkt;
}

static struct dp_packet *
udp(const char *src, const char *dst, uint16_t sport, uint16_t dport,
    uint32_t in_port)
{
    struct udp_header h = {
        .udp_src = htons(sport),
        .udp_dst = htons(dport),
        .udp_len = htons(sizeof h),
    };

    return packet(IPPROTO_UDP, src, dst, &h, sizeof h, in_port);
}

/* A TCP segment with 'flags', 'seq', 'ack', a window of 65535 and
 * 'payload' bytes of data. */
static struct dp_packet *
tcp(const char *src, const char *dst, uint16_t sport, uint16_t dport,
    uint16_t flags, uint32_t seq, uint32_t ack, size_t payload,
    uint32_t in_port)
{
    struct {
        struct tcp_header h;
        uint8_t data[64];
    } seg;
    struct tcp_header *h = &seg.h;

    ovs_assert(payload <= sizeof seg.data);
    memset(&seg, 0, sizeof seg);
    h->tcp_src = htons(sport);
    h->tcp_dst = htons(dport);
    put_16aligned_be32(&h->tcp_seq, htonl(seq));
    put_16aligned_be32(&h->tcp_ack, htonl(ack));
    h->tcp_ctl = TCP_CTL(flags, 5);
    h->tcp_winsz = htons(65535);
    return packet(IPPROTO_TCP, src, dst, &seg, sizeof *h + payload,
                  in_port);
}

static struct dp_packet *
icmp_echo(const char *src, const char *dst, uint8_t type, uint16_t id,
          uint32_t in_port)
{
    struct icmp_header h = {
        .icmp_type = type,
        .icmp_fields.echo.id = htons(id),
        .icmp_fields.echo.seq = htons(1),
    };

    return packet(IPPROTO_ICMP, src, dst, &h, sizeof h, in_port);
}

/* An ICMP port unreachable from 'src' to 'dst' about the UDP datagram
 * that 'dst' sent to 'src' from 'dport' to 'sport'. */
static struct dp_packet *
icmp_unreach_udp(const char *src, const char *dst, uint16_t sport,
                 uint16_t dport, uint32_t in_port)
{
    struct {
        struct icmp_header icmp;
        struct ip_header ip;
        struct udp_header udp;
    } h;

    memset(&h, 0, sizeof h);
    h.icmp.icmp_type = ICMP4_DST_UNREACH;
    h.icmp.icmp_code = 3;       /* Port unreachable. */
    h.ip.ip_ihl_ver = IP_IHL_VER(5, 4);
    h.ip.ip_tot_len = htons(sizeof h.ip + sizeof h.udp);
    h.ip.ip_ttl = 64;
    h.ip.ip_proto = IPPROTO_UDP;
    put_16aligned_be32(&h.ip.ip_src, ip(dst));
    put_16aligned_be32(&h.ip.ip_dst, ip(src));
    h.ip.ip_csum = csum(&h.ip, sizeof h.ip);
    h.udp.udp_src = htons(dport);
    h.udp.udp_dst = htons(sport);
    h.udp.udp_len = htons(sizeof h.udp);
    return packet(IPPROTO_ICMP, src, dst, &h, sizeof h, in_port);
}

/* Runs 'pkt' through 'ct' in 'zone', committing, at time 'now', with
 * 'setmark' (value, mask) and 'nat' if nonnull, frees it and returns its
 * ct_state. */
static uint32_t
run_full(struct conntrack *ct, struct dp_packet *pkt, uint16_t zone,
         const uint32_t *setmark, const struct ovs_key_ct_labels *setlabel,
         const struct nat_action_info_t *nat, long long now, uint32_t tp_id)
{
    struct dp_packet_batch batch;
    uint32_t state;

    dp_packet_batch_init_packet(&batch, pkt);
    conntrack_execute(ct, &batch, htons(ETH_TYPE_IP), false, true, zone,
                      setmark, setlabel, 0, 0, NULL, nat, now, tp_id);
    state = pkt->md.ct_state;
    dp_packet_delete(pkt);
    return state;
}

/* The time of the packets: an hour ahead, so that nothing expires. */
static long long
later(void)
{
    return time_msec() + 3600 * 1000;
}

static uint32_t
run(struct conntrack *ct, struct dp_packet *pkt, uint16_t zone)
{
    return run_full(ct, pkt, zone, NULL, NULL, NULL, later(), 0);
}

#define EST (CS_TRACKED | CS_ESTABLISHED)
#define EST_REPLY (EST | CS_REPLY_DIR)
#define NEW (CS_TRACKED | CS_NEW)

#define UDP_ADD(ZONE, IN1, IN2, MARK)                                   \
    "add zone=" #ZONE " proto=17 "                                      \
    "orig=(src=10.0.0.1,dst=10.0.0.2,sport=1000,dport=2000) "           \
    "reply=(src=10.0.0.2,dst=10.0.0.1,sport=2000,dport=1000) "          \
    "nat=0 mark=" MARK " label=0:0 in_port=" #IN1 "," #IN2

/* Establishes the UDP flow 10.0.0.1:1000 <-> 10.0.0.2:2000 in 'zone':
 * nothing is offered before the first reply, the reply offers it. */
static void
udp_established(struct conntrack *ct, uint16_t zone)
{
    CHECK_EQ(run(ct, udp(A, B, 1000, 2000, 1), zone), NEW);
    expect_none();
    CHECK_EQ(run(ct, udp(A, B, 1000, 2000, 3), zone), NEW);
    expect_none();
    CHECK_EQ(run(ct, udp(B, A, 2000, 1000, 2), zone), EST_REPLY);
}

/* UDP: offered on the first reply, with the in_port of the first packet
 * each way, once. */
static void
test_udp(void)
{
    struct conntrack *ct = setup();
    const void *id;

    udp_established(ct, 5);
    id = expect(UDP_ADD(5, 1, 2, "0"));
    CHECK_EQ(run(ct, udp(B, A, 2000, 1000, 4), 5), EST_REPLY);
    CHECK_EQ(run(ct, udp(A, B, 1000, 2000, 1), 5), EST);
    expect_none();

    /* Another zone, another connection. */
    udp_established(ct, 6);
    CHECK(expect(UDP_ADD(6, 1, 2, "0")) != id);
    expect_none();
    teardown(ct);
}

/* NAT: the reply tuple is the translated one, through the reverse entry
 * to the connection itself. */
static void
test_udp_nat(void)
{
    struct nat_action_info_t snat = {
        .nat_action = NAT_ACTION_SRC | NAT_ACTION_SRC_PORT,
        .min_port = 40000,
        .max_port = 40000,
    };
    struct conntrack *ct = setup();
    long long now = later();
    const void *id;

    snat.min_addr.ipv4 = snat.max_addr.ipv4 = ip("10.0.0.99");
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, NULL, &snat,
                      now, 0), NEW | CS_SRC_NAT);
    expect_none();
    CHECK_EQ(run_full(ct, udp(B, "10.0.0.99", 2000, 40000, 2), 0, NULL,
                      NULL, &snat, now, 0), EST_REPLY | CS_DST_NAT);
    id = expect("add zone=0 proto=17 "
                "orig=(src=10.0.0.1,dst=10.0.0.2,sport=1000,dport=2000) "
                "reply=(src=10.0.0.2,dst=10.0.0.99,sport=2000,dport=40000) "
                "nat=1 mark=0 label=0:0 in_port=1,2");
    expect_none();
    conntrack_flush(ct, NULL);
    expect_del(id);
    expect_none();
    teardown(ct);
}

#define TCP_ADD(SPORT, IN1, IN2)                                        \
    "add zone=0 proto=6 "                                               \
    "orig=(src=10.0.0.1,dst=10.0.0.2,sport=" #SPORT ",dport=80) "       \
    "reply=(src=10.0.0.2,dst=10.0.0.1,sport=80,dport=" #SPORT ") "      \
    "nat=0 mark=0 label=0:0 in_port=" #IN1 "," #IN2

/* Runs the handshake of 10.0.0.1:'sport' -> 10.0.0.2:80 (initial sequence
 * numbers 1000 and 5000), checking that nothing is offered before its
 * last ACK. */
static void
tcp_handshake(struct conntrack *ct, uint16_t sport)
{
    CHECK_EQ(run(ct, tcp(A, B, sport, 80, TCP_SYN, 1000, 0, 0, 1), 0), NEW);
    expect_none();
    CHECK_EQ(run(ct, tcp(B, A, 80, sport, TCP_SYN | TCP_ACK, 5000, 1001, 0,
                         2), 0), EST_REPLY);
    expect_none();
    CHECK_EQ(run(ct, tcp(A, B, sport, 80, TCP_ACK, 1001, 5001, 0, 1), 0),
             EST);
}

/* A data segment 100 MB ahead of the window: invalid for software's
 * sequence tracking. */
static uint32_t
tcp_far(struct conntrack *ct, uint16_t sport)
{
    return run(ct, tcp(A, B, sport, 80, TCP_ACK, 1001 + 100000000, 5001,
                       10, 1), 0);
}

/* TCP: offered when established; FIN or RST from either side takes it
 * back for good; once offered, the sequence window is not checked. */
static void
test_tcp(void)
{
    struct conntrack *ct = setup();
    const void *id;

    tcp_handshake(ct, 1000);
    id = expect(TCP_ADD(1000, 1, 2));
    CHECK_EQ(tcp_far(ct, 1000), EST);
    CHECK_EQ(run(ct, tcp(B, A, 80, 1000, TCP_ACK, 5001 + 200000000, 1011,
                         10, 2), 0), EST_REPLY);
    expect_none();

    /* FIN from the server, then the client's FIN and last ACK. */
    CHECK_EQ(run(ct, tcp(B, A, 80, 1000, TCP_FIN | TCP_ACK, 5001, 1011, 0,
                         2), 0), EST_REPLY);
    expect_del(id);
    CHECK_EQ(run(ct, tcp(A, B, 1000, 80, TCP_FIN | TCP_ACK, 1011, 5002, 0,
                         1), 0), EST);
    CHECK_EQ(run(ct, tcp(B, A, 80, 1000, TCP_ACK, 5002, 1012, 0, 2), 0),
             EST_REPLY);
    CHECK_EQ(run(ct, tcp(A, B, 1000, 80, TCP_ACK, 1012, 5002, 0, 1), 0),
             EST);
    expect_none();

    /* FIN from the client. */
    tcp_handshake(ct, 1001);
    id = expect(TCP_ADD(1001, 1, 2));
    CHECK_EQ(run(ct, tcp(A, B, 1001, 80, TCP_FIN | TCP_ACK, 1001, 5001, 0,
                         1), 0), EST);
    expect_del(id);
    CHECK_EQ(run(ct, tcp(B, A, 80, 1001, TCP_ACK, 5001, 1002, 0, 2), 0),
             EST_REPLY);
    expect_none();

    /* RST. */
    tcp_handshake(ct, 1002);
    id = expect(TCP_ADD(1002, 1, 2));
    CHECK_EQ(run(ct, tcp(B, A, 80, 1002, TCP_RST | TCP_ACK, 5001, 1001, 0,
                         2), 0), EST_REPLY);
    expect_del(id);
    expect_none();

    conntrack_flush(ct, NULL);
    expect_none();
    teardown(ct);
}

/* ICMP: echo is offered on the reply; ICMP errors related to a connection
 * offer nothing, and are not the first packet of the reply direction. */
static void
test_icmp(void)
{
    struct conntrack *ct = setup();
    const void *echo, *id;

    CHECK_EQ(run(ct, icmp_echo(A, B, ICMP4_ECHO_REQUEST, 77, 1), 0), NEW);
    expect_none();
    CHECK_EQ(run(ct, icmp_echo(B, A, ICMP4_ECHO_REPLY, 77, 2), 0),
             EST_REPLY);
    echo = expect("add zone=0 proto=1 "
           "orig=(src=10.0.0.1,dst=10.0.0.2,id=77,type=8,code=0) "
           "reply=(src=10.0.0.2,dst=10.0.0.1,id=77,type=0,code=0) "
           "nat=0 mark=0 label=0:0 in_port=1,2");
    expect_none();

    /* An error before the first reply: related, not the reply. */
    CHECK_EQ(run(ct, udp(A, B, 1000, 2000, 1), 0), NEW);
    CHECK_EQ(run(ct, icmp_unreach_udp(B, A, 2000, 1000, 7), 0),
             CS_TRACKED | CS_RELATED | CS_REPLY_DIR);
    expect_none();
    CHECK_EQ(run(ct, udp(B, A, 2000, 1000, 2), 0), EST_REPLY);
    id = expect(UDP_ADD(0, 1, 2, "0"));

    /* And after it. */
    CHECK_EQ(run(ct, icmp_unreach_udp(B, A, 2000, 1000, 7), 0),
             CS_TRACKED | CS_RELATED | CS_REPLY_DIR);
    expect_none();
    conntrack_flush(ct, NULL);
    expect_dels(echo, id);
    expect_none();
    teardown(ct);
}

/* A new mark or label takes the connection back and offers it again with
 * the new value; setting the same value does nothing. */
static void
test_mark(void)
{
    static const uint32_t mark42[2] = { 0x42, UINT32_MAX };
    static const uint32_t mark7[2] = { 0x7, UINT32_MAX };
    ovs_u128 value = { .u64.lo = 0x99 };
    struct ovs_key_ct_labels label[2];
    struct conntrack *ct = setup();
    long long now = later();
    const void *id, *id2;

    udp_established(ct, 0);
    id = expect(UDP_ADD(0, 1, 2, "0"));
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, mark42, NULL, NULL,
                      now, 0), EST);
    expect_del(id);
    CHECK(expect(UDP_ADD(0, 1, 2, "0x42")) == id);
    CHECK_EQ(run_full(ct, udp(B, A, 2000, 1000, 2), 0, mark42, NULL, NULL,
                      now, 0), EST_REPLY);
    expect_none();

    memcpy(&label[0], &value, sizeof label[0]);
    memset(&label[1], 0xff, sizeof label[1]);
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, label, NULL,
                      now, 0), EST);
    expect_del(id);
    CHECK(expect("add zone=0 proto=17 "
                 "orig=(src=10.0.0.1,dst=10.0.0.2,sport=1000,dport=2000) "
                 "reply=(src=10.0.0.2,dst=10.0.0.1,sport=2000,dport=1000) "
                 "nat=0 mark=0x42 label=0:0x99 in_port=1,2") == id);
    expect_none();

    /* A mark set by the packet that establishes the connection: offered
     * once, with it. */
    CHECK_EQ(run(ct, udp(A, B, 1001, 2000, 1), 0), NEW);
    CHECK_EQ(run_full(ct, udp(B, A, 2000, 1001, 2), 0, mark7, NULL, NULL,
                      now, 0), EST_REPLY);
    id2 = expect("add zone=0 proto=17 "
                 "orig=(src=10.0.0.1,dst=10.0.0.2,sport=1001,dport=2000) "
                 "reply=(src=10.0.0.2,dst=10.0.0.1,sport=2000,dport=1001) "
                 "nat=0 mark=0x7 label=0:0 in_port=1,2");
    expect_none();

    conntrack_destroy(ct);
    expect_dels(id, id2);
    expect_none();
    conntrack_offload_set_class(NULL);
}

/* Flushing a zone takes its connections back, only them. */
static void
test_flush(void)
{
    struct conntrack *ct = setup();
    uint16_t zone = 6;
    const void *id5, *id6;

    udp_established(ct, 5);
    id5 = expect(UDP_ADD(5, 1, 2, "0"));
    udp_established(ct, 6);
    id6 = expect(UDP_ADD(6, 1, 2, "0"));
    conntrack_flush(ct, &zone);
    expect_del(id6);
    expect_none();

    zone = 7;
    conntrack_flush(ct, &zone);
    expect_none();
    conntrack_flush(ct, NULL);
    expect_del(id5);
    expect_none();
    teardown(ct);
}

/* A connection the provider refuses is never taken back, nor offered
 * again (not even with a new mark), and software keeps checking its TCP
 * sequence numbers. */
static void
test_refused(void)
{
    static const uint32_t mark42[2] = { 0x42, UINT32_MAX };
    struct conntrack *ct = setup();

    rec_take = false;
    udp_established(ct, 0);
    expect(UDP_ADD(0, 1, 2, "0"));
    CHECK_EQ(run(ct, udp(B, A, 2000, 1000, 2), 0), EST_REPLY);
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, mark42, NULL, NULL,
                      later(), 0), EST);
    expect_none();

    tcp_handshake(ct, 1000);
    expect(TCP_ADD(1000, 1, 2));
    CHECK_EQ(tcp_far(ct, 1000), CS_INVALID | CS_TRACKED);
    CHECK_EQ(run(ct, tcp(A, B, 1000, 80, TCP_FIN | TCP_ACK, 1001, 5001, 0,
                         1), 0), EST);
    expect_none();

    conntrack_flush(ct, NULL);
    expect_none();
    teardown(ct);
}

/* Waits until the clean thread has called conn_used() more than 'calls'
 * times for the connection set_used() names. */
static void
wait_used(unsigned int calls)
{
    long long deadline = time_msec() + 90 * 1000;

    for (;;) {
        uint64_t seqno = seq_read(rec_seq);
        unsigned int n;

        ovs_mutex_lock(&rec_mutex);
        n = used_calls;
        ovs_mutex_unlock(&rec_mutex);
        if (n > calls) {
            return;
        }
        if (time_msec() > deadline) {
            ovs_abort(0, "conn_used() not called in 90 s");
        }
        seq_wait(rec_seq, seqno);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

static unsigned int
used_calls_get(void)
{
    unsigned int n;

    ovs_mutex_lock(&rec_mutex);
    n = used_calls;
    ovs_mutex_unlock(&rec_mutex);
    return n;
}

/* Waits until an event is recorded after the ones checked. */
static void
wait_event(void)
{
    long long deadline = time_msec() + 90 * 1000;

    for (;;) {
        uint64_t seqno = seq_read(rec_seq);
        bool done;

        ovs_mutex_lock(&rec_mutex);
        done = rec_n > rec_next;
        ovs_mutex_unlock(&rec_mutex);
        if (done) {
            return;
        }
        if (time_msec() > deadline) {
            ovs_abort(0, "no event in 90 s");
        }
        seq_wait(rec_seq, seqno);
        poll_timer_wait_until(deadline);
        poll_block();
    }
}

static void
set_used(const void *id, long long used)
{
    ovs_mutex_lock(&rec_mutex);
    used_id = id;
    used_value = used;
    ovs_mutex_unlock(&rec_mutex);
}

/* The expiration of connection 'id', once the clean thread is done with
 * it. */
static long long
expiration(const void *id)
{
    struct conn *conn = CONST_CAST(struct conn *, id);
    long long exp;

    ovs_mutex_lock(&conn->lock);
    atomic_read_relaxed(&conn->expiration, &exp);
    ovs_mutex_unlock(&conn->lock);
    return exp;
}

/* Expiry: the clean thread asks the provider when the hardware last saw a
 * packet of an offloaded connection, and a time later than the last packet
 * seen keeps it alive as if software had seen a packet then: its timeout
 * (from its timeout policy) starts again from that time.
 *
 * The clean thread runs on its own schedule: once at conntrack_init(), then
 * 20 s later, then, because the connection limit is lowered to 1, every
 * 200 ms on the list that holds the only connection.  The test waits for
 * its calls (up to 90 s each), never for a time, and gives the packets the
 * times it wants: a packet from 100 s ago leaves the connection expired in
 * software. */
static void
test_expiry(void)
{
    struct timeout_policy tp;
    struct conntrack *ct = setup();
    long long real = time_msec();
    long long past = real - 100 * 1000;
    long long u = real + 5000;
    const void *id;

    /* UDP with a reply times out after CT_DPIF_TP_ATTR_UDP_MULTIPLE. */
    memset(&tp, 0, sizeof tp);
    tp.policy.id = 9;
    tp.policy.present = 1u << CT_DPIF_TP_ATTR_UDP_MULTIPLE;
    tp.policy.attrs[CT_DPIF_TP_ATTR_UDP_MULTIPLE] = 77;
    CHECK_ERR(timeout_policy_update(ct, &tp), 0);

    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, NULL, NULL,
                      real, 9), NEW);
    CHECK_EQ(run_full(ct, udp(B, A, 2000, 1000, 2), 0, NULL, NULL, NULL,
                      real, 9), EST_REPLY);
    id = expect(UDP_ADD(0, 1, 2, "0"));
    CHECK_EQ(expiration(id), real + 77 * 1000);
    conntrack_set_maxconns(ct, 1);

    /* Expired in software, seen by the hardware at 'u': refreshed.  (A
     * call before the packet may refresh it too, which the packet
     * undoes.) */
    set_used(id, u);
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, NULL, NULL,
                      past, 9), EST);
    CHECK_EQ(expiration(id), past + 77 * 1000);
    wait_used(used_calls_get());
    CHECK_EQ(expiration(id), u + 77 * 1000);
    expect_none();

    /* Software saw a packet after 'u': 'u' again changes nothing. */
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, NULL, NULL,
                      u + 1000, 9), EST);
    wait_used(used_calls_get());
    CHECK_EQ(expiration(id), u + 1000 + 77 * 1000);

    /* A later time refreshes it again. */
    set_used(id, u + 9000);
    wait_used(used_calls_get());
    CHECK_EQ(expiration(id), u + 9000 + 77 * 1000);
    expect_none();

    /* Not seen by the hardware since, expired in software: deleted, and
     * taken back. */
    set_used(id, 0);
    CHECK_EQ(run_full(ct, udp(A, B, 1000, 2000, 1), 0, NULL, NULL, NULL,
                      past, 9), EST);
    wait_event();
    expect_del(id);
    expect_none();
    teardown(ct);
}

static void
test_hw_ct_hooks_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "udp", test_udp },
        { "udp_nat", test_udp_nat },
        { "tcp", test_tcp },
        { "icmp", test_icmp },
        { "mark", test_mark },
        { "flush", test_flush },
        { "refused", test_refused },
        { "expiry", test_expiry },
    };

    /* Enabling the flow API logs at INFO level: no news here. */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_WARN);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-ct-hooks", test_hw_ct_hooks_main);
