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

/* The compact record of a connection (hw-ct-conn.h): its size, the tuples
 * and label it gives back, and the table of reasons. */

#include <config.h>

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "flow.h"
#include "hw-ct-conn.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "util.h"

/* The most plugin state per connection (issue 12): the record, plus the
 * allocator's overhead (16 bytes at most) and the map's bucket (8). */
#define RECORD_BUDGET (256 - 16 - 8)

static void
put_addr(union ct_dpif_inet_addr *a, int af, const char *s)
{
    memset(a, 0, sizeof *a);
    CHECK(inet_pton(af, s, af == AF_INET ? (void *) &a->ip
                    : (void *) &a->in6) == 1);
}

/* A connection from 'src' port 1000 to 'dst' port 2000 ('proto' TCP or
 * UDP), or an ICMP echo with identifier 7, replied as it would be without
 * NAT. */
static void
make_info(struct hw_ct_conn_info *info, int af, uint8_t proto,
          const char *src, const char *dst)
{
    struct ct_dpif_tuple *o = &info->tuple[0];
    struct ct_dpif_tuple *r = &info->tuple[1];

    memset(info, 0, sizeof *info);
    info->id = info;
    info->zone = 5;
    info->mark = 0x12;
    info->label.u64.lo = 0xabcd;
    info->in_port[0] = u32_to_odp(1);
    info->in_port[1] = u32_to_odp(2);
    o->l3_type = r->l3_type = af;
    o->ip_proto = r->ip_proto = proto;
    put_addr(&o->src, af, src);
    put_addr(&o->dst, af, dst);
    r->src = o->dst;
    r->dst = o->src;
    if (proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) {
        bool v4 = proto == IPPROTO_ICMP;

        o->icmp_id = r->icmp_id = htons(7);
        o->icmp_type = v4 ? 8 : 128;
        r->icmp_type = v4 ? 0 : 129;
    } else {
        o->src_port = r->dst_port = htons(1000);
        o->dst_port = r->src_port = htons(2000);
    }
}

static void
check_tuples(const struct hw_ct_conn *conn,
             const struct hw_ct_conn_info *info)
{
    for (int d = 0; d < 2; d++) {
        struct ct_dpif_tuple t;

        hw_ct_conn_tuple(conn, d, &t);
        CHECK(!memcmp(&t, &info->tuple[d], sizeof t));
    }
}

static void
test_record_size(void)
{
    static const struct {
        int af;
        uint8_t proto;
        const char *src, *dst;
    } cases[] = {
        { AF_INET, IPPROTO_UDP, "10.0.0.1", "192.168.0.1" },
        { AF_INET, IPPROTO_TCP, "10.0.0.1", "192.168.0.1" },
        { AF_INET, IPPROTO_ICMP, "10.0.0.1", "192.168.0.1" },
        { AF_INET6, IPPROTO_TCP, "2001:db8::1", "2001:db8::2" },
        { AF_INET6, IPPROTO_ICMPV6, "2001:db8::1", "2001:db8::2" },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct hw_ct_conn_info info;
        struct hw_ct_conn *conn;

        make_info(&info, cases[i].af, cases[i].proto, cases[i].src,
                  cases[i].dst);
        conn = hw_ct_conn_create(&info);
        CHECK(!conn->ext);
        CHECK(hw_ct_conn_size(conn) <= RECORD_BUDGET);
        CHECK((hw_ct_conn_size(conn) == sizeof *conn + 8)
              == (cases[i].af == AF_INET));
        CHECK(!hw_ct_conn_nat(conn, 0) && !hw_ct_conn_nat(conn, 1));
        CHECK(!conn->dir[0].installed && !conn->dir[1].installed);
        CHECK(conn->zone == 5 && conn->mark == 0x12);
        CHECK(odp_to_u32(conn->in_port[1]) == 2);
        check_tuples(conn, &info);
        hw_ct_conn_free(conn);
    }
}

static void
test_label(void)
{
    struct hw_ct_conn_info info;
    struct hw_ct_conn *conn;
    ovs_u128 label;

    /* Without NAT, the device's low 32 bits only. */
    make_info(&info, AF_INET, IPPROTO_UDP, "10.0.0.1", "192.168.0.1");
    info.label.u64.lo = 0x1111222233334444ULL;
    info.label.u64.hi = 0x5555;
    conn = hw_ct_conn_create(&info);
    label = hw_ct_conn_label(conn);
    CHECK(label.u64.lo == 0x33334444 && !label.u64.hi);
    CHECK(conn->label == 0x33334444);
    hw_ct_conn_free(conn);

    /* With NAT, all of it (software gets it back for the packets the
     * device translated). */
    info.nat = HW_CT_NAT_SRC;
    put_addr(&info.tuple[1].dst, AF_INET, "172.16.0.9");
    info.tuple[1].dst_port = htons(3000);
    conn = hw_ct_conn_create(&info);
    CHECK(conn->ext && hw_ct_conn_nat(conn, 0) && hw_ct_conn_nat(conn, 1));
    label = hw_ct_conn_label(conn);
    CHECK(ovs_u128_equals(label, info.label));
    check_tuples(conn, &info);
    hw_ct_conn_free(conn);
}

static void
test_odd_reply(void)
{
    struct hw_ct_conn_info info;
    struct hw_ct_conn *conn;

    /* A reply that is not the original reversed keeps its own tuple. */
    make_info(&info, AF_INET6, IPPROTO_UDP, "2001:db8::1", "2001:db8::2");
    info.tuple[1].src_port = htons(2001);
    conn = hw_ct_conn_create(&info);
    CHECK(conn->ext && !hw_ct_conn_nat(conn, 0));
    check_tuples(conn, &info);
    hw_ct_conn_free(conn);
}

static void
test_reasons(void)
{
    uint16_t a = hw_ct_reason_index("connection table full");
    uint16_t b = hw_ct_reason_index("its port has no connection pipeline");
    char *copy = xstrdup("connection table full");

    CHECK(!hw_ct_reason_index(NULL) && !hw_ct_reason(0));
    CHECK(a && b && a != b);
    CHECK(hw_ct_reason_index(copy) == a);
    CHECK(!strcmp(hw_ct_reason(a), "connection table full"));
    CHECK(!strcmp(hw_ct_reason(b), "its port has no connection pipeline"));
    CHECK(!hw_ct_reason(UINT16_MAX));
    free(copy);
}

static void
test_hw_ct_conn_main(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
        { "record-size", test_record_size },
        { "label", test_label },
        { "odd-reply", test_odd_reply },
        { "reasons", test_reasons },
    };

    set_program_name(argv[0]);
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-ct-conn", test_hw_ct_conn_main);
