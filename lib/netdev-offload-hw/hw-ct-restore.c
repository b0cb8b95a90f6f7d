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
#include "hw-ct-restore.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "cmap.h"
#include "coverage.h"
#include "dp-packet.h"
#include "flow.h"
#include "hash.h"
#include "hw-rule.h"
#include "openvswitch/vlog.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "packets.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_ct_restore);

COVERAGE_DEFINE(hw_ct_restored);
COVERAGE_DEFINE(hw_ct_restore_lost);

/* A packet's tuple as the tables key it: addresses IPv4-mapped, and for
 * an ICMP echo its identifier in 'src_port' (the type differs between a
 * request and the reply tuple that names it). */
struct hw_ct_restore_key {
    struct in6_addr src;
    struct in6_addr dst;
    ovs_be16 src_port;
    ovs_be16 dst_port;
    uint16_t zone;
    uint8_t ip_proto;
    uint8_t pad;
};
BUILD_ASSERT_DECL(sizeof(struct hw_ct_restore_key) == 40);

struct hw_ct_restore_stage {
    struct cmap_node node;              /* In 'hw_ct_restore_stages'. */
    uint32_t mark;
    uint32_t recirc_id;
    uint16_t zone;
};

struct hw_ct_restore_dir {
    struct cmap_node node;              /* In 'hw_ct_restore_dirs'. */
    struct hw_ct_restore_key key;
    uint8_t ct_state;
    uint32_t mark;
    ovs_u128 label;
    struct ct_dpif_tuple orig;
};

/* Writers hold the mutex; the datapath threads read without it. */
static struct ovs_mutex hw_ct_restore_mutex = OVS_MUTEX_INITIALIZER;
static struct cmap hw_ct_restore_stages = CMAP_INITIALIZER;
static struct cmap hw_ct_restore_dirs = CMAP_INITIALIZER;

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

static bool
hw_ct_is_icmp(uint8_t proto)
{
    return proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6;
}

static uint32_t
hw_ct_restore_key_hash(const struct hw_ct_restore_key *key)
{
    return hash_bytes(key, sizeof *key, 0);
}

static void
hw_ct_restore_key_from_tuple(const struct ct_dpif_tuple *t, uint16_t zone,
                             struct hw_ct_restore_key *key)
{
    memset(key, 0, sizeof *key);
    if (t->l3_type == AF_INET) {
        in6_addr_set_mapped_ipv4(&key->src, t->src.ip);
        in6_addr_set_mapped_ipv4(&key->dst, t->dst.ip);
    } else {
        key->src = t->src.in6;
        key->dst = t->dst.in6;
    }
    key->ip_proto = t->ip_proto;
    key->zone = zone;
    if (hw_ct_is_icmp(t->ip_proto)) {
        key->src_port = t->icmp_id;
    } else {
        key->src_port = t->src_port;
        key->dst_port = t->dst_port;
    }
}

/* The key of 'packet', parsed into 'flow'; false if it has no tuple
 * conntrack could have translated. */
static bool
hw_ct_restore_key_from_packet(const struct dp_packet *packet,
                              const struct flow *flow, uint16_t zone,
                              struct hw_ct_restore_key *key)
{
    memset(key, 0, sizeof *key);
    if (flow->dl_type == htons(ETH_TYPE_IP)) {
        in6_addr_set_mapped_ipv4(&key->src, flow->nw_src);
        in6_addr_set_mapped_ipv4(&key->dst, flow->nw_dst);
    } else if (flow->dl_type == htons(ETH_TYPE_IPV6)) {
        key->src = flow->ipv6_src;
        key->dst = flow->ipv6_dst;
    } else {
        return false;
    }
    key->ip_proto = flow->nw_proto;
    key->zone = zone;
    if (hw_ct_is_icmp(flow->nw_proto)) {
        const uint8_t *l4 = dp_packet_l4(packet);
        ovs_be16 id;

        /* The echo identifier, the first half of the second word. */
        if (!l4 || dp_packet_l4_size(packet) < 6) {
            return false;
        }
        memcpy(&id, l4 + 4, sizeof id);
        key->src_port = id;
    } else if (flow->nw_proto == IPPROTO_TCP
               || flow->nw_proto == IPPROTO_UDP) {
        key->src_port = flow->tp_src;
        key->dst_port = flow->tp_dst;
    } else {
        return false;
    }
    return true;
}

struct hw_ct_restore_stage *
hw_ct_restore_stage_add(uint32_t mark, uint32_t recirc_id, uint16_t zone)
{
    struct hw_ct_restore_stage *stage = xzalloc(sizeof *stage);

    stage->mark = mark;
    stage->recirc_id = recirc_id;
    stage->zone = zone;
    ovs_mutex_lock(&hw_ct_restore_mutex);
    cmap_insert(&hw_ct_restore_stages, &stage->node, hash_int(mark, 0));
    ovs_mutex_unlock(&hw_ct_restore_mutex);
    return stage;
}

void
hw_ct_restore_stage_del(struct hw_ct_restore_stage *stage)
{
    if (stage) {
        ovs_mutex_lock(&hw_ct_restore_mutex);
        cmap_remove(&hw_ct_restore_stages, &stage->node,
                    hash_int(stage->mark, 0));
        ovs_mutex_unlock(&hw_ct_restore_mutex);
        ovsrcu_postpone(free, stage);
    }
}

struct hw_ct_restore_dir *
hw_ct_restore_dir_add(const struct ct_dpif_tuple *nat_tuple, uint16_t zone,
                      uint8_t ct_state, uint32_t mark, ovs_u128 label,
                      const struct ct_dpif_tuple *orig)
{
    struct hw_ct_restore_dir *dir = xzalloc(sizeof *dir);

    hw_ct_restore_key_from_tuple(nat_tuple, zone, &dir->key);
    dir->ct_state = ct_state;
    dir->mark = mark;
    dir->label = label;
    dir->orig = *orig;
    ovs_mutex_lock(&hw_ct_restore_mutex);
    cmap_insert(&hw_ct_restore_dirs, &dir->node,
                hw_ct_restore_key_hash(&dir->key));
    ovs_mutex_unlock(&hw_ct_restore_mutex);
    return dir;
}

void
hw_ct_restore_dir_del(struct hw_ct_restore_dir *dir)
{
    if (dir) {
        ovs_mutex_lock(&hw_ct_restore_mutex);
        cmap_remove(&hw_ct_restore_dirs, &dir->node,
                    hw_ct_restore_key_hash(&dir->key));
        ovs_mutex_unlock(&hw_ct_restore_mutex);
        ovsrcu_postpone(free, dir);
    }
}

static const struct hw_ct_restore_stage *
hw_ct_restore_find_stage(uint32_t mark)
{
    const struct hw_ct_restore_stage *stage;

    CMAP_FOR_EACH_WITH_HASH (stage, node, hash_int(mark, 0),
                             &hw_ct_restore_stages) {
        if (stage->mark == mark) {
            return stage;
        }
    }
    return NULL;
}

static const struct hw_ct_restore_dir *
hw_ct_restore_find_dir(const struct hw_ct_restore_key *key)
{
    const struct hw_ct_restore_dir *dir;

    CMAP_FOR_EACH_WITH_HASH (dir, node, hw_ct_restore_key_hash(key),
                             &hw_ct_restore_dirs) {
        if (!memcmp(&dir->key, key, sizeof *key)) {
            return dir;
        }
    }
    return NULL;
}

/* The original tuple conntrack puts in the metadata of every packet of a
 * connection (ct_nw_src and the rest). */
static void
hw_ct_restore_orig_tuple(struct pkt_metadata *md,
                         const struct ct_dpif_tuple *t)
{
    bool icmp = hw_ct_is_icmp(t->ip_proto);
    ovs_be16 src_port = icmp ? htons(t->icmp_type) : t->src_port;
    ovs_be16 dst_port = icmp ? htons(t->icmp_code) : t->dst_port;

    if (t->l3_type == AF_INET) {
        md->ct_orig_tuple_ipv6 = false;
        md->ct_orig_tuple.ipv4 = (struct ovs_key_ct_tuple_ipv4) {
            .ipv4_src = t->src.ip,
            .ipv4_dst = t->dst.ip,
            .src_port = src_port,
            .dst_port = dst_port,
            .ipv4_proto = t->ip_proto,
        };
    } else {
        md->ct_orig_tuple_ipv6 = true;
        md->ct_orig_tuple.ipv6 = (struct ovs_key_ct_tuple_ipv6) {
            .ipv6_src = t->src.in6,
            .ipv6_dst = t->dst.in6,
            .src_port = src_port,
            .dst_port = dst_port,
            .ipv6_proto = t->ip_proto,
        };
    }
}

int
hw_ct_restore_packet(struct dp_packet *packet, uint32_t tag)
{
    uint32_t mark = tag & ~HW_TAG_CT_RESTORE;
    const struct hw_ct_restore_stage *stage;
    const struct hw_ct_restore_dir *dir = NULL;
    struct hw_ct_restore_key key;
    struct pkt_metadata *md;
    struct flow flow;

    stage = hw_ct_restore_find_stage(mark);
    if (stage) {
        flow_extract(packet, &flow);
        if (hw_ct_restore_key_from_packet(packet, &flow, stage->zone,
                                          &key)) {
            dir = hw_ct_restore_find_dir(&key);
        }
    }
    if (!dir) {
        /* Its connection's rule went after the device translated it. */
        COVERAGE_INC(hw_ct_restore_lost);
        VLOG_WARN_RL(&rl, "a packet the device translated (stage mark "
                     "%"PRIu32") has no %s any more: dropped", mark,
                     stage ? "connection" : "stage");
        return ENOENT;
    }

    md = &packet->md;
    md->recirc_id = stage->recirc_id;
    md->ct_state = dir->ct_state;
    md->ct_zone = stage->zone;
    md->ct_mark = dir->mark;
    md->ct_label = dir->label;
    hw_ct_restore_orig_tuple(md, &dir->orig);
    *dp_packet_ol_flags_ptr(packet) &= ~DP_PACKET_OL_FLOW_MARK;
    COVERAGE_INC(hw_ct_restored);
    return 0;
}
