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

/* Fuzz target: translate, then the NIC model.
 *
 * The input is a datapath flow as dpif-netdev's flow_put() receives it,
 * and the port it is put on:
 *
 *   byte 0      bits 0-1: the port (0 or 3: a hw port; 1: a VXLAN vport;
 *               2: a GRE vport); bits 2-3: its steering (0 or 3: verbs
 *               root; 1: dr, the pipeline's flow table; 2: auto);
 *               bit 4: the flow mark is bytes 1-4 (else 5).
 *   u16, bytes  the flow key (OVS_KEY_ATTR_* netlink attributes);
 *   u16, bytes  its mask, as odp_flow_key_to_mask() reads it;
 *   the rest    the actions (OVS_ACTION_ATTR_* netlink attributes).
 *
 * The seeds in tests/fuzz/corpus/translate are written by the target
 * itself (FUZZ_WRITE_SEEDS, below).  The key and mask are taken as
 * dpif_netdev_flow_put() takes them; inputs
 * it refuses are skipped, as are actions it would never be given (not
 * padded, an output whose port is not 4 bytes).
 *
 * Invariants: translate refuses with EOPNOTSUPP or EINVAL and a reason;
 * what it accepts, the model device of that steering takes
 * (hw_flow_install()), as it takes the egress rule of a tunnel push that
 * hw_translate_push() accepts; everything installed is uninstalled, and the
 * device holds the objects it held before. */

#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-hw.h"
#include "hw-flow.h"
#include "hw-offload-entries.h"
#include "hw-pipeline.h"
#include "hw-translate.h"
#include "hw-tx-push.h"
#include "netdev-hw-base.h"
#include "netdev-hw.h"
#include "netlink.h"
#include "odp-util.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "util.h"

/* The hw port the flows are put on, or whose packets a vport flow's
 * arrive by. */
#define FUZZ_PORT 3
#define FUZZ_VPORT 4789
#define FUZZ_MARK 5

enum steering {
    STEER_VERBS,
    STEER_DR,
    STEER_AUTO,
    N_STEERINGS
};

struct device {
    struct fuzz_port port;
    struct netdev_hw_device dev;
};

static struct device devices[N_STEERINGS];

static void
device_init(struct device *d, const char *devname, enum steering steering)
{
    fuzz_port_create(&d->port, devname);
    fuzz_port_device(&d->port, &d->dev);
    if (steering != STEER_VERBS) {
        struct mlx5dv_dr_table *table;

        d->dev.pipeline = hw_pipeline_create(&d->dev);
        d->dev.pipeline_on_demand = steering == STEER_AUTO;
        /* The tables live as long as the pipeline: the flow table, and
         * the root, where a rule under steering=auto may put its jump. */
        CHECK(!hw_pipeline_table(d->dev.pipeline,
                                 MLX5DV_DR_DOMAIN_TYPE_NIC_RX,
                                 NETDEV_HW_FLOW_LEVEL, &table));
        CHECK(!hw_pipeline_table(d->dev.pipeline,
                                 MLX5DV_DR_DOMAIN_TYPE_NIC_RX, 0, &table));
        d->port.n_objects = fuzz_port_objects(&d->port);
    }
}

static void write_seeds(const char *dir);

static void
init(void)
{
    const char *seeds_dir = getenv("FUZZ_WRITE_SEEDS");

    if (seeds_dir) {
        write_seeds(seeds_dir);
    }
    fuzz_init();
    device_init(&devices[STEER_VERBS], "model2", STEER_VERBS);
    device_init(&devices[STEER_DR], "model3", STEER_DR);
    device_init(&devices[STEER_AUTO], "model4", STEER_AUTO);
}

/* Whether the 'len' bytes at 'actions' are actions that dpif-netdev may
 * hand a flow API: well-formed and padded netlink attributes, an output's
 * port 4 bytes, a clone's actions well-formed in turn.  The rest is
 * translate's to check. */
static bool
actions_ok(const struct nlattr *actions, size_t len, int depth)
{
    const struct nlattr *a;
    size_t left;

    /* Netlink pads every attribute, the last one and the nested ones
     * included: NL_ATTR_FOR_EACH relies on it. */
    if (len % NLA_ALIGNTO) {
        return false;
    }
    NL_ATTR_FOR_EACH (a, left, actions, len) {
        switch (nl_attr_type(a)) {
        case OVS_ACTION_ATTR_OUTPUT:
            if (nl_attr_get_size(a) != sizeof(uint32_t)) {
                return false;
            }
            break;
        case OVS_ACTION_ATTR_CLONE:
            if (depth > 4
                || !actions_ok(nl_attr_get(a), nl_attr_get_size(a),
                               depth + 1)) {
                return false;
            }
            break;
        default:
            break;
        }
    }
    return !left;
}

/* Reads a 16-bit length and that many bytes into 'buf', aligned for
 * netlink.  Returns false if the input is too short. */
static bool
read_attrs(struct fuzz_input *in, struct ofpbuf *buf)
{
    uint16_t len = fuzz_u16(in);
    const uint8_t *p = fuzz_bytes(in, len);

    if (!p) {
        return false;
    }
    ofpbuf_put(buf, p, len);
    return true;
}

/* Whether the fixed-size tunnel key attributes in 'attrs' have their sizes:
 * odp_flow_key_to_flow() and _to_mask() assert on some wrong sizes instead
 * of refusing them, and ofproto never makes one. */
static bool
tunnel_ok(const struct ofpbuf *attrs)
{
    static const int sizes[] = {
        [OVS_TUNNEL_KEY_ATTR_ID] = 8,
        [OVS_TUNNEL_KEY_ATTR_IPV4_SRC] = 4,
        [OVS_TUNNEL_KEY_ATTR_IPV4_DST] = 4,
        [OVS_TUNNEL_KEY_ATTR_TOS] = 1,
        [OVS_TUNNEL_KEY_ATTR_TTL] = 1,
        [OVS_TUNNEL_KEY_ATTR_TP_SRC] = 2,
        [OVS_TUNNEL_KEY_ATTR_TP_DST] = 2,
        [OVS_TUNNEL_KEY_ATTR_IPV6_SRC] = 16,
        [OVS_TUNNEL_KEY_ATTR_IPV6_DST] = 16,
    };
    const struct nlattr *a, *t;
    size_t left, tleft;

    NL_ATTR_FOR_EACH (a, left, attrs->data, attrs->size) {
        if (nl_attr_type(a) != OVS_KEY_ATTR_TUNNEL) {
            continue;
        }
        NL_NESTED_FOR_EACH (t, tleft, a) {
            uint16_t type = nl_attr_type(t);

            if (type < ARRAY_SIZE(sizes) && sizes[type]
                && nl_attr_get_size(t) != sizes[type]) {
                return false;
            }
        }
    }
    return true;
}

/* The flow as dpif_netdev_flow_put() makes it, or false if it refuses. */
static bool
read_match(struct fuzz_input *in, struct match *match)
{
    uint64_t key_stub[512 / 8], mask_stub[512 / 8];
    struct ofpbuf key, mask;
    bool ok = false;

    ofpbuf_use_stub(&key, key_stub, sizeof key_stub);
    ofpbuf_use_stub(&mask, mask_stub, sizeof mask_stub);
    memset(match, 0, sizeof *match);
    if (read_attrs(in, &key) && read_attrs(in, &mask)
        && tunnel_ok(&key) && tunnel_ok(&mask)
        && odp_flow_key_to_flow(key.data, key.size, &match->flow, NULL)
           == ODP_FIT_PERFECT
        && !(match->flow.ct_state
             & ~(CS_NEW | CS_ESTABLISHED | CS_RELATED | CS_INVALID
                 | CS_REPLY_DIR | CS_TRACKED | CS_SRC_NAT | CS_DST_NAT))
        && odp_flow_key_to_mask(mask.data, mask.size, &match->wc,
                                &match->flow, NULL) == ODP_FIT_PERFECT
        && match->wc.masks.in_port.odp_port == ODPP_NONE) {
        if (!match->wc.masks.vlans[0].tci) {
            match->wc.masks.vlans[0].tci = htons(VLAN_VID_MASK | VLAN_CFI);
        }
        ok = true;
    }
    ofpbuf_uninit(&key);
    ofpbuf_uninit(&mask);
    return ok;
}

static void
check_refusal(int error, const struct ds *reason)
{
    if (error != EOPNOTSUPP && error != EINVAL) {
        ovs_abort(0, "refused with %s: %s", ovs_strerror(error),
                  ds_cstr_ro(reason));
    }
    CHECK(reason->length);
}

/* Installs and uninstalls the egress rule of the tunnel push of 'rule'. */
static void
try_push(struct device *d, const struct hw_rule *rule,
         const struct ofpbuf *actions)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_tx_push *push;
    struct hw_push p;
    int error;

    error = hw_translate_push(rule, actions->data, actions->size, &p,
                              &reason);
    if (error == ENOENT) {
        CHECK(!reason.length);
    } else if (error) {
        check_refusal(error, &reason);
    } else {
        error = hw_tx_push_create(&d->dev,
                                  d->port.rss_qps[hw_rule_rss_type(rule)],
                                  &p.egress, &push, &reason);
        if (error) {
            ovs_abort(0, "the model refused the egress rule of a push "
                      "translate accepted: %s", ds_cstr(&reason));
        }
        hw_tx_push_destroy(push);
    }
    ds_destroy(&reason);
}

/* The seeds of tests/fuzz/corpus/translate: flags, then a flow and its
 * actions as ovs-appctl dpctl/dump-flows shows them. */
static const struct {
    uint8_t flags;
    const char *flow;
    const char *actions;
} seeds[] = {
    { 0, "in_port(3),eth(),eth_type(0x0800),ipv4(dst=10.0.0.2,proto=17,"
         "frag=no),udp(dst=53)", "4" },
    { 0, "in_port(3),eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02),"
         "eth_type(0x0800),ipv4(src=10.0.0.1,dst=10.0.0.2,proto=6,tos=0/0xfc,"
         "frag=no),tcp(src=1234,dst=80)", "drop" },
    { 4, "in_port(3),eth(),eth_type(0x0800),ipv4(proto=6,ttl=64,frag=no),"
         "tcp(dst=22),tcp_flags(0x002)", "4" },
    { 8, "in_port(3),eth(),eth_type(0x86dd),ipv6(dst=2001:db8::2,proto=17,"
         "frag=no),udp(dst=4789)", "drop" },
    { 0, "in_port(3),eth(),eth_type(0x8100),vlan(vid=10,pcp=0),"
         "encap(eth_type(0x0800),ipv4(dst=10.0.0.2,frag=no))",
      "pop_vlan,4" },
    { 0, "in_port(3),eth(dst=00:00:00:00:00:02),eth_type(0x0806)", "4" },
    { 0, "in_port(3),eth(),eth_type(0x0800),ipv4(dst=10.0.0.2,frag=no)",
      "tnl_push(tnl_port(4789),header(size=50,type=4,"
      "eth(dst=00:00:00:00:00:0b,src=00:00:00:00:00:0a,dl_type=0x0800),"
      "ipv4(src=192.0.2.1,dst=192.0.2.2,proto=17,tos=0,ttl=64,"
      "frag=0x4000),udp(src=0,dst=4789,csum=0x0),"
      "vxlan(flags=0x8000000,vni=0x7b)),out_port(100)),3" },
    { 1, "tunnel(tun_id=0x7b,src=192.0.2.1,dst=192.0.2.2,ttl=64/0,"
         "tp_dst=4789,flags(-df-csum+key)),in_port(4789),eth(),"
         "eth_type(0x0800),ipv4(dst=10.0.0.2,frag=no)", "5" },
    { 2, "tunnel(tun_id=0x7b,src=192.0.2.1,dst=192.0.2.2,ttl=64/0,"
         "flags(-df-csum+key)),in_port(4789),packet_type(ns=1,id=0x800),"
         "eth_type(0x0800),ipv4(dst=10.0.0.2,frag=no)", "5" },
    { 0, "recirc_id(0x1),in_port(3),eth(),eth_type(0x0800),"
         "ipv4(frag=no)", "push_vlan(vid=20,pcp=0),4,5" },
};

static void
put_attrs(struct ofpbuf *seed, const struct ofpbuf *attrs)
{
    uint8_t len[2] = { attrs->size >> 8, attrs->size };

    ofpbuf_put(seed, len, 2);
    ofpbuf_put(seed, attrs->data, attrs->size);
}

/* With FUZZ_WRITE_SEEDS=DIR in the environment, the first input makes the
 * target write the seeds to DIR (as seed-N) and exit. */
static void
write_seeds(const char *dir)
{
    for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
        struct ofpbuf key, mask, actions, seed;
        char *name;
        FILE *file;

        ofpbuf_init(&key, 0);
        ofpbuf_init(&mask, 0);
        ofpbuf_init(&actions, 0);
        ofpbuf_init(&seed, 0);
        CHECK(!odp_flow_from_string(seeds[i].flow, NULL, &key, &mask,
                                    NULL));
        if (odp_actions_from_string(seeds[i].actions, NULL, &actions)) {
            ovs_abort(0, "seed %"PRIuSIZE": bad actions", i);
        }
        ofpbuf_put(&seed, &seeds[i].flags, 1);
        put_attrs(&seed, &key);
        put_attrs(&seed, &mask);
        ofpbuf_put(&seed, actions.data, actions.size);

        name = xasprintf("%s/seed-%"PRIuSIZE, dir, i);
        file = fopen(name, "wb");
        CHECK(file && fwrite(seed.data, seed.size, 1, file) == 1);
        fclose(file);
        free(name);
        ofpbuf_uninit(&key);
        ofpbuf_uninit(&mask);
        ofpbuf_uninit(&actions);
        ofpbuf_uninit(&seed);
    }
    exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, size };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_translate_params params;
    uint64_t actions_stub[1024 / 8];
    struct flowmap mask_map;
    struct ofpbuf actions;
    struct hw_rule rule;
    struct hw_flow flow;
    struct device *d;
    struct match match;
    unsigned int steering;
    uint8_t flags;
    int error;

    if (!devices[0].port.ctx) {
        init();
    }

    flags = fuzz_u8(&in);
    memset(&params, 0, sizeof params);
    params.flow_mark = flags & 0x10 ? fuzz_u32(&in) : FUZZ_MARK;
    params.in_port = u32_to_odp(FUZZ_PORT);
    switch (flags & 3) {
    case 1:
        params.vport = HW_TUNNEL_VXLAN;
        params.vport_udp_port = htons(4789);
        params.in_port = u32_to_odp(FUZZ_VPORT);
        break;
    case 2:
        params.vport = HW_TUNNEL_GRE;
        params.in_port = u32_to_odp(FUZZ_VPORT);
        break;
    }
    steering = (flags >> 2) & 3;
    d = &devices[steering < N_STEERINGS ? steering : STEER_VERBS];

    if (!read_match(&in, &match)
        || match.flow.in_port.odp_port != params.in_port) {
        return 0;
    }
    ofpbuf_use_stub(&actions, actions_stub, sizeof actions_stub);
    ofpbuf_put(&actions, in.data, in.size);
    if (!actions_ok(actions.data, actions.size, 0)) {
        ofpbuf_uninit(&actions);
        return 0;
    }

    hw_translate_mask_map(&match.wc.masks, &mask_map);
    error = hw_offload_translate(&match, &mask_map, actions.data,
                                 actions.size, &params, &d->dev, &rule,
                                 &reason);
    if (error) {
        check_refusal(error, &reason);
        goto out;
    }

    error = hw_flow_install(&d->dev, d->port.rss_qps[hw_rule_rss_type(&rule)],
                            &rule, &flow, &reason);
    if (error) {
        struct ds s = DS_EMPTY_INITIALIZER;

        match_format(&match, NULL, &s, OFP_DEFAULT_PRIORITY);
        ovs_abort(0, "the model refused a rule translate accepted: %s\n"
                  "match: %s", ds_cstr(&reason), ds_cstr(&s));
    }
    if (!rule.full) {
        try_push(d, &rule, &actions);
    }
    CHECK(!hw_flow_uninstall(&d->dev, &flow, NULL));

out:
    ovsrcu_quiesce();
    CHECK_EQ(fuzz_port_objects(&d->port), d->port.n_objects);
    ofpbuf_uninit(&actions);
    ds_destroy(&reason);
    return 0;
}
