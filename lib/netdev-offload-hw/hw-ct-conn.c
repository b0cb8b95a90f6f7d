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
#include "hw-ct-conn.h"

#include <string.h>
#include <sys/socket.h>

#include "openvswitch/shash.h"
#include "ovs-thread.h"
#include "util.h"

/* The number of 32-bit words of addresses of a record. */
static size_t
hw_ct_conn_n_words(uint8_t flags)
{
    return flags & HW_CT_CONN_IPV6 ? 8 : 2;
}

size_t
hw_ct_conn_size(const struct hw_ct_conn *conn)
{
    return (sizeof *conn
            + hw_ct_conn_n_words(conn->flags) * sizeof conn->addr[0]
            + (conn->ext ? sizeof *conn->ext : 0));
}

static void
hw_ct_conn_put_addr(ovs_be32 *words, const struct ct_dpif_tuple *t,
                    bool ipv6)
{
    if (ipv6) {
        memcpy(words, &t->src.in6, 16);
        memcpy(words + 4, &t->dst.in6, 16);
    } else {
        words[0] = t->src.ip;
        words[1] = t->dst.ip;
    }
}

/* Whether 'reply' is 'orig' reversed: addresses and ports swapped (an
 * ICMP echo keeps its identifier and has its own type and code, which the
 * record keeps for each direction). */
static bool
hw_ct_tuple_is_reverse(const struct ct_dpif_tuple *orig,
                       const struct ct_dpif_tuple *reply)
{
    bool icmp = (orig->ip_proto == IPPROTO_ICMP
                 || orig->ip_proto == IPPROTO_ICMPV6);

    return (orig->l3_type == reply->l3_type
            && orig->ip_proto == reply->ip_proto
            && !memcmp(&orig->src, &reply->dst, sizeof orig->src)
            && !memcmp(&orig->dst, &reply->src, sizeof orig->dst)
            && (icmp ? orig->icmp_id == reply->icmp_id
                : (orig->src_port == reply->dst_port
                   && orig->dst_port == reply->src_port)));
}

struct hw_ct_conn *
hw_ct_conn_create(const struct hw_ct_conn_info *info)
{
    const struct ct_dpif_tuple *orig = &info->tuple[0];
    bool ipv6 = orig->l3_type == AF_INET6;
    uint8_t flags = ipv6 ? HW_CT_CONN_IPV6 : 0;
    size_t n_words = hw_ct_conn_n_words(flags);
    struct hw_ct_conn *conn;

    conn = xmalloc(sizeof *conn + n_words * sizeof conn->addr[0]);
    memset(conn, 0, sizeof *conn);
    conn->id = info->id;
    conn->mark = info->mark;
    conn->label = info->label.u64.lo;
    conn->zone = info->zone;
    conn->nat = info->nat;
    conn->ip_proto = orig->ip_proto;
    conn->flags = flags;
    for (int d = 0; d < 2; d++) {
        conn->in_port[d] = info->in_port[d];
        conn->ports[d][0] = info->tuple[d].src_port;
        conn->ports[d][1] = info->tuple[d].dst_port;
    }
    hw_ct_conn_put_addr(conn->addr, orig, ipv6);
    if (info->nat || !hw_ct_tuple_is_reverse(orig, &info->tuple[1])) {
        conn->ext = xzalloc(sizeof *conn->ext);
        conn->ext->reply = info->tuple[1];
        conn->ext->label = info->label;
    }
    return conn;
}

void
hw_ct_conn_free(struct hw_ct_conn *conn)
{
    if (conn) {
        free(conn->ext);
        free(conn);
    }
}

void
hw_ct_conn_tuple(const struct hw_ct_conn *conn, int d,
                 struct ct_dpif_tuple *t)
{
    bool ipv6 = conn->flags & HW_CT_CONN_IPV6;
    union ct_dpif_inet_addr src, dst;

    if (d && conn->ext) {
        *t = conn->ext->reply;
        return;
    }
    memset(&src, 0, sizeof src);
    memset(&dst, 0, sizeof dst);
    if (ipv6) {
        memcpy(&src.in6, conn->addr, 16);
        memcpy(&dst.in6, conn->addr + 4, 16);
    } else {
        src.ip = conn->addr[0];
        dst.ip = conn->addr[1];
    }
    memset(t, 0, sizeof *t);
    t->l3_type = ipv6 ? AF_INET6 : AF_INET;
    t->ip_proto = conn->ip_proto;
    t->src = d ? dst : src;
    t->dst = d ? src : dst;
    t->src_port = conn->ports[d][0];
    t->dst_port = conn->ports[d][1];
}

ovs_u128
hw_ct_conn_label(const struct hw_ct_conn *conn)
{
    ovs_u128 label = { .u64 = { .lo = conn->label } };

    return conn->ext ? conn->ext->label : label;
}

struct hw_ct_nat_rule *
hw_ct_conn_nat(const struct hw_ct_conn *conn, int d)
{
    return conn->nat && conn->ext ? &conn->ext->nat[d] : NULL;
}

/* The reasons: 'hw_ct_reasons' maps each to its index + 1 in
 * 'hw_ct_reason_list'. */
static struct ovs_mutex hw_ct_reason_mutex = OVS_MUTEX_INITIALIZER;
static struct shash hw_ct_reasons OVS_GUARDED_BY(hw_ct_reason_mutex)
    = SHASH_INITIALIZER(&hw_ct_reasons);
static const char **hw_ct_reason_list OVS_GUARDED_BY(hw_ct_reason_mutex);
static size_t hw_ct_n_reasons OVS_GUARDED_BY(hw_ct_reason_mutex);
static size_t hw_ct_reasons_allocated OVS_GUARDED_BY(hw_ct_reason_mutex);

/* What a reason beyond the table's capacity becomes. */
#define HW_CT_REASON_OVERFLOW "too many distinct reasons to keep them"

uint16_t
hw_ct_reason_index(const char *reason)
{
    struct shash_node *node;
    uintptr_t index;

    if (!reason) {
        return 0;
    }
    ovs_mutex_lock(&hw_ct_reason_mutex);
    node = shash_find(&hw_ct_reasons, reason);
    if (!node && hw_ct_n_reasons >= UINT16_MAX - 1) {
        node = shash_find(&hw_ct_reasons, HW_CT_REASON_OVERFLOW);
        reason = HW_CT_REASON_OVERFLOW;
    }
    if (node) {
        index = (uintptr_t) node->data;
    } else {
        if (hw_ct_n_reasons >= hw_ct_reasons_allocated) {
            hw_ct_reason_list = x2nrealloc(hw_ct_reason_list,
                                           &hw_ct_reasons_allocated,
                                           sizeof *hw_ct_reason_list);
        }
        index = ++hw_ct_n_reasons;
        node = shash_add(&hw_ct_reasons, reason, (void *) index);
        hw_ct_reason_list[index - 1] = node->name;
    }
    ovs_mutex_unlock(&hw_ct_reason_mutex);
    return index;
}

const char *
hw_ct_reason(uint16_t index)
{
    const char *reason = NULL;

    if (index) {
        ovs_mutex_lock(&hw_ct_reason_mutex);
        if (index <= hw_ct_n_reasons) {
            reason = hw_ct_reason_list[index - 1];
        }
        ovs_mutex_unlock(&hw_ct_reason_mutex);
    }
    return reason;
}
