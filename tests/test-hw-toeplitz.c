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
#undef NDEBUG
#include "hw-toeplitz.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "hw-model-flow.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "util.h"

#define CHECK_HASH(GOT, WANT, WHAT)                                     \
    do {                                                                \
        uint32_t got__ = (GOT);                                         \
        uint32_t want__ = (WANT);                                       \
        if (got__ != want__) {                                          \
            ovs_abort(0, "%s:%d: %s: hash 0x%08"PRIx32", expected "     \
                      "0x%08"PRIx32, __FILE__, __LINE__, (WHAT),        \
                      got__, want__);                                   \
        }                                                               \
    } while (0)

/* Microsoft "Verifying the RSS Hash Calculation" (hw-apis.md 2.4). */
struct rss_vector {
    const char *dst;
    uint16_t dst_port;
    const char *src;
    uint16_t src_port;
    uint32_t hash_ip;           /* Addresses only. */
    uint32_t hash_ports;        /* Addresses and ports (TCP or UDP). */
};

static const struct rss_vector ipv4_vectors[] = {
    { "161.142.100.80", 1766, "66.9.149.187", 2794,
      0x323e8fc2, 0x51ccc178 },
    { "65.69.140.83", 4739, "199.92.111.2", 14230,
      0xd718262a, 0xc626b0ea },
    { "12.22.207.184", 38024, "24.19.198.95", 12898,
      0xd2d0a5de, 0x5c2b394a },
    { "209.142.163.6", 2217, "38.27.205.30", 48228,
      0x82989176, 0xafc7327f },
    { "202.188.127.2", 1303, "153.39.163.191", 44251,
      0x5d1809c5, 0x10e828a2 },
};

static const struct rss_vector ipv6_vectors[] = {
    { "3ffe:2501:200:3::1", 1766, "3ffe:2501:200:1fff::7", 2794,
      0x2cc18cd5, 0x40207d3d },
    { "ff02::1", 4739, "3ffe:501:8::260:97ff:fe40:efab", 14230,
      0x0f0c461c, 0xdde51bbf },
    { "fe80::200:f8ff:fe21:67cf", 38024,
      "3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251,
      0x4b61e985, 0x02d1feef },
};

static void
parse_addr(int af, const char *s, void *dst)
{
    if (inet_pton(af, s, dst) != 1) {
        ovs_abort(0, "bad address %s", s);
    }
}

/* Fills 'p' as the parser would for a TCP or UDP packet of 'v'. */
static void
vector_to_parsed(const struct rss_vector *v, int af, uint8_t ip_proto,
                 struct hw_model_parsed *p)
{
    memset(p, 0, sizeof *p);
    if (af == AF_INET) {
        p->eth_type = htons(0x0800);
        p->ip_version = 4;
        parse_addr(af, v->src, &p->ipv4_src);
        parse_addr(af, v->dst, &p->ipv4_dst);
    } else {
        p->eth_type = htons(0x86dd);
        p->ip_version = 6;
        parse_addr(af, v->src, &p->ipv6_src);
        parse_addr(af, v->dst, &p->ipv6_dst);
    }
    p->ip_proto = ip_proto;
    p->has_l4 = true;
    p->l4_src = htons(v->src_port);
    p->l4_dst = htons(v->dst_port);
}

/* The raw algorithm on hand-built input: src, dst [, sport, dport]. */
static void
test_raw_vectors(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(ipv4_vectors); i++) {
        const struct rss_vector *v = &ipv4_vectors[i];
        uint8_t in[12];
        ovs_be16 port;

        parse_addr(AF_INET, v->src, &in[0]);
        parse_addr(AF_INET, v->dst, &in[4]);
        port = htons(v->src_port);
        memcpy(&in[8], &port, 2);
        port = htons(v->dst_port);
        memcpy(&in[10], &port, 2);
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 8),
                   v->hash_ip, v->dst);
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 12),
                   v->hash_ports, v->dst);
    }
    for (size_t i = 0; i < ARRAY_SIZE(ipv6_vectors); i++) {
        const struct rss_vector *v = &ipv6_vectors[i];
        uint8_t in[36];
        ovs_be16 port;

        parse_addr(AF_INET6, v->src, &in[0]);
        parse_addr(AF_INET6, v->dst, &in[16]);
        port = htons(v->src_port);
        memcpy(&in[32], &port, 2);
        port = htons(v->dst_port);
        memcpy(&in[34], &port, 2);
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 32),
                   v->hash_ip, v->dst);
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 36),
                   v->hash_ports, v->dst);
    }

    /* Swapped source and destination of IPv6 row 1: plain Toeplitz is not
     * symmetric. */
    {
        const struct rss_vector *v = &ipv6_vectors[0];
        uint8_t in[36];
        ovs_be16 port;

        parse_addr(AF_INET6, v->dst, &in[0]);
        parse_addr(AF_INET6, v->src, &in[16]);
        port = htons(v->dst_port);
        memcpy(&in[32], &port, 2);
        port = htons(v->src_port);
        memcpy(&in[34], &port, 2);
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 32),
                   0xbf3b2ab5, "swapped ipv6");
        CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_ms_key, 40, in, 36),
                   0x1ac0fcce, "swapped ipv6 ports");
    }

    /* Empty input hashes to 0 under any key. */
    CHECK_HASH(hw_toeplitz_hash(hw_toeplitz_default_key, 40, NULL, 0), 0,
               "empty input");
}

/* The same vectors through the parsed-packet helper, for every field set
 * that hashes them. */
static void
test_parsed_vectors(void)
{
    const uint64_t ip4 = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4;
    const uint64_t ip6 = IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6;
    const uint64_t tcp = IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP;
    const uint64_t udp = IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP;
    struct hw_model_parsed p;

    for (size_t i = 0; i < ARRAY_SIZE(ipv4_vectors); i++) {
        const struct rss_vector *v = &ipv4_vectors[i];

        vector_to_parsed(v, AF_INET, 6, &p);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p, ip4),
                   v->hash_ip, v->dst);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p,
                                           ip4 | tcp),
                   v->hash_ports, v->dst);
        /* A UDP-hashed QP gives the same value for the UDP packet. */
        vector_to_parsed(v, AF_INET, 17, &p);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p,
                                           ip4 | udp),
                   v->hash_ports, v->dst);
        /* An L3-only QP hashes a UDP packet by its addresses. */
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p, ip4),
                   v->hash_ip, v->dst);
    }
    for (size_t i = 0; i < ARRAY_SIZE(ipv6_vectors); i++) {
        const struct rss_vector *v = &ipv6_vectors[i];

        vector_to_parsed(v, AF_INET6, 6, &p);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p, ip6),
                   v->hash_ip, v->dst);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p,
                                           ip6 | tcp),
                   v->hash_ports, v->dst);
        vector_to_parsed(v, AF_INET6, 17, &p);
        CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_ms_key, 40, &p,
                                           ip6 | udp),
                   v->hash_ports, v->dst);
    }
}

/* Field selection order and subsets: the input is built in the fixed
 * order src IP, dst IP, src port, dst port whatever bits are set. */
static void
test_field_subsets(void)
{
    const struct rss_vector *v = &ipv4_vectors[0];
    struct hw_model_parsed p;
    uint8_t in[36], want[4];
    int len;

    vector_to_parsed(v, AF_INET, 6, &p);

    len = hw_toeplitz_build_input(&p, IBV_RX_HASH_DST_IPV4, in);
    parse_addr(AF_INET, v->dst, want);
    ovs_assert(len == 4 && !memcmp(in, want, 4));
    CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_default_key, 40, &p,
                                       IBV_RX_HASH_DST_IPV4),
               hw_toeplitz_hash(hw_toeplitz_default_key, 40, want, 4),
               "dst ip only");

    len = hw_toeplitz_build_input(&p, IBV_RX_HASH_DST_PORT_TCP
                                      | IBV_RX_HASH_SRC_IPV4, in);
    ovs_assert(len == 6);
    parse_addr(AF_INET, v->src, want);
    ovs_assert(!memcmp(in, want, 4));
    ovs_assert(in[4] == v->dst_port >> 8 && in[5] == (v->dst_port & 0xff));

    /* No fields: nothing hashed. */
    ovs_assert(hw_toeplitz_build_input(&p, 0, in) == 0);
    CHECK_HASH(hw_toeplitz_hash_parsed(hw_toeplitz_default_key, 40, &p, 0),
               0, "no fields");

    /* The default key differs from the verification key. */
    ovs_assert(hw_toeplitz_hash_parsed(hw_toeplitz_default_key, 40, &p,
                                       IBV_RX_HASH_SRC_IPV4
                                       | IBV_RX_HASH_DST_IPV4)
               != v->hash_ip);
}

/* A packet whose L3/L4 type differs from the hashed fields hashes to 0. */
static void
test_type_mismatch(void)
{
    const uint64_t ip4 = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4;
    const uint64_t ip6 = IBV_RX_HASH_SRC_IPV6 | IBV_RX_HASH_DST_IPV6;
    const uint64_t tcp = IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP;
    const uint64_t udp = IBV_RX_HASH_SRC_PORT_UDP | IBV_RX_HASH_DST_PORT_UDP;
    const uint8_t *key = hw_toeplitz_ms_key;
    struct hw_model_parsed p;
    uint8_t in[36];

    /* UDP packet into a TCP-port-hashed QP, and the reverse. */
    vector_to_parsed(&ipv4_vectors[0], AF_INET, 17, &p);
    ovs_assert(hw_toeplitz_build_input(&p, ip4 | tcp, in) < 0);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | tcp), 0,
               "udp into tcp qp");
    vector_to_parsed(&ipv4_vectors[0], AF_INET, 6, &p);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | udp), 0,
               "tcp into udp qp");

    /* Later fragment (no L4 header) into an L4 QP; it still has L3. */
    vector_to_parsed(&ipv4_vectors[0], AF_INET, 6, &p);
    p.is_fragment = p.is_later_fragment = true;
    p.has_l4 = false;
    p.l4_src = p.l4_dst = 0;
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | tcp), 0,
               "later fragment into tcp qp");
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4),
               ipv4_vectors[0].hash_ip, "later fragment into l3 qp");

    /* IPv6 into IPv4 fields and the reverse. */
    vector_to_parsed(&ipv6_vectors[0], AF_INET6, 6, &p);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | tcp), 0,
               "ipv6 into ipv4 qp");
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4), 0,
               "ipv6 into ipv4 l3 qp");
    /* Ports only: the TIR's L3 type is IPv4. */
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, tcp), 0,
               "ipv6 into ports-only qp");
    vector_to_parsed(&ipv4_vectors[0], AF_INET, 6, &p);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip6), 0,
               "ipv4 into ipv6 qp");

    /* Non-IP (ARP). */
    memset(&p, 0, sizeof p);
    p.eth_type = htons(0x0806);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4), 0, "arp");
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip6 | udp), 0, "arp v6");

    /* Inner hashing on a packet that is not tunnelled, and SPI. */
    vector_to_parsed(&ipv4_vectors[0], AF_INET, 6, &p);
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p,
                                       ip4 | IBV_RX_HASH_INNER), 0,
               "inner on plain packet");
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p,
                                       ip4 | IBV_RX_HASH_IPSEC_SPI), 0,
               "spi");

    /* Field sets mlx5 refuses on the QP hash nothing. */
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | ip6), 0,
               "ipv4 + ipv6 fields");
    CHECK_HASH(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | tcp | udp), 0,
               "tcp + udp fields");

    /* But the same packet hashes when the type matches. */
    ovs_assert(hw_toeplitz_hash_parsed(key, 40, &p, ip4 | tcp)
               == ipv4_vectors[0].hash_ports);
}

static void
test_hw_toeplitz_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
        TEST(raw_vectors),
        TEST(parsed_vectors),
        TEST(field_subsets),
        TEST(type_mismatch),
#undef TEST
    };

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-toeplitz", test_hw_toeplitz_main);
