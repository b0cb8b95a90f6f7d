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

/* translate of a tunnel push: the tnl_push action of a flow that an
 * egress rule (or an hbl send queue) can do instead of the software, its
 * header parsed and checked, and the marker that ties the flow's packets to
 * the rule (hw-translate.h).  Pure code, apart from the rest of translate
 * for size. */

#include <config.h>
#include "hw-translate.h"

#include <errno.h>
#include <string.h>

#include "hw-rule.h"
#include "hw-translate-private.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "util.h"

/* Tunnel push. */

const char *
hw_translate_action_name(int type)
{
    switch (type) {
    case OVS_ACTION_ATTR_OUTPUT: return "output";
    case OVS_ACTION_ATTR_USERSPACE: return "userspace";
    case OVS_ACTION_ATTR_SET: return "set";
    case OVS_ACTION_ATTR_SET_MASKED: return "set";
    case OVS_ACTION_ATTR_PUSH_VLAN: return "push_vlan";
    case OVS_ACTION_ATTR_POP_VLAN: return "pop_vlan";
    case OVS_ACTION_ATTR_SAMPLE: return "sample";
    case OVS_ACTION_ATTR_RECIRC: return "recirc";
    case OVS_ACTION_ATTR_HASH: return "hash";
    case OVS_ACTION_ATTR_PUSH_MPLS: return "push_mpls";
    case OVS_ACTION_ATTR_POP_MPLS: return "pop_mpls";
    case OVS_ACTION_ATTR_CT: return "ct";
    case OVS_ACTION_ATTR_TRUNC: return "trunc";
    case OVS_ACTION_ATTR_PUSH_ETH: return "push_eth";
    case OVS_ACTION_ATTR_POP_ETH: return "pop_eth";
    case OVS_ACTION_ATTR_CT_CLEAR: return "ct_clear";
    case OVS_ACTION_ATTR_PUSH_NSH: return "push_nsh";
    case OVS_ACTION_ATTR_POP_NSH: return "pop_nsh";
    case OVS_ACTION_ATTR_METER: return "meter";
    case OVS_ACTION_ATTR_CLONE: return "clone";
    case OVS_ACTION_ATTR_CHECK_PKT_LEN: return "check_pkt_len";
    case OVS_ACTION_ATTR_ADD_MPLS: return "add_mpls";
    case OVS_ACTION_ATTR_DROP: return "drop";
    case OVS_ACTION_ATTR_TUNNEL_PUSH: return "tnl_push";
    case OVS_ACTION_ATTR_TUNNEL_POP: return "tnl_pop";
    case OVS_ACTION_ATTR_LB_OUTPUT: return "lb_output";
    default: return "unknown";
    }
}

static const char *
tnl_type_name(uint32_t type)
{
    switch (type) {
    case OVS_VPORT_TYPE_GRE: return "gre";
    case OVS_VPORT_TYPE_VXLAN: return "vxlan";
    case OVS_VPORT_TYPE_GENEVE: return "geneve";
    case OVS_VPORT_TYPE_ERSPAN: return "erspan";
    case OVS_VPORT_TYPE_IP6ERSPAN: return "ip6erspan";
    case OVS_VPORT_TYPE_IP6GRE: return "ip6gre";
    case OVS_VPORT_TYPE_GTPU: return "gtpu";
    case OVS_VPORT_TYPE_BAREUDP: return "bareudp";
    default: return "unknown";
    }
}

/* Counts the tnl_push actions in 'actions', clones included. */
static size_t
count_pushes(const struct nlattr *actions, size_t actions_len)
{
    const struct nlattr *a;
    size_t left, n = 0;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        if (nl_attr_type(a) == OVS_ACTION_ATTR_TUNNEL_PUSH) {
            n++;
        } else if (nl_attr_type(a) == OVS_ACTION_ATTR_CLONE) {
            n += count_pushes(nl_attr_get(a), nl_attr_get_size(a));
        }
    }
    return n;
}

#define PUSH_REFUSE(REASON, ...) \
    hw_translate_fail(REASON, EOPNOTSUPP, __VA_ARGS__)

/* Checks the header of the tnl_push 'data' and records it in 'push'.  The
 * NIC copies the header verbatim and fills in only the outer IPv4 total
 * length and checksum, IPv6 payload length and UDP length (hw-apis.md
 * 3.1), so whatever the software push computes per packet beyond those
 * (UDP or GRE checksum, GRE sequence number) rules the push out; OVS
 * always wants the UDP checksum of VXLAN over IPv6, so that push stays in
 * software.  The UDP source port is the exception: OVS derives it per
 * packet from the packet's hash for ECMP entropy, the NIC sends the
 * header's (OVS leaves 0 there); receivers do not look at it. */
static int
parse_push_header(const struct ovs_action_push_tnl *data, bool l3,
                  ovs_be16 inner_type, struct hw_push *push,
                  struct ds *reason)
{
    const uint8_t *h = (const uint8_t *) data->header;
    struct hw_headers *encap = &push->encap;
    struct eth_header eth;
    size_t ofs, need;
    uint8_t proto;

    if (data->tnl_type != OVS_VPORT_TYPE_VXLAN
        && data->tnl_type != OVS_VPORT_TYPE_GENEVE
        && data->tnl_type != OVS_VPORT_TYPE_GRE
        && data->tnl_type != OVS_VPORT_TYPE_IP6GRE) {
        return PUSH_REFUSE(reason, "tnl_push of tunnel type %s not supported",
                           tnl_type_name(data->tnl_type));
    }
    if (data->header_len > HW_REFORMAT_MAX_DATA
        || data->header_len > sizeof data->header) {
        return PUSH_REFUSE(reason, "tnl_push header of %"PRIu32" bytes too "
                           "long", data->header_len);
    }
    if (data->header_len < ETH_HEADER_LEN) {
        return PUSH_REFUSE(reason, "tnl_push header too short");
    }

    memset(encap, 0, sizeof *encap);
    memcpy(&eth, h, sizeof eth);
    encap->present = HW_HDR_ETH;
    encap->eth.dst = eth.eth_dst;
    encap->eth.src = eth.eth_src;
    encap->eth.type = eth.eth_type;
    memset(&encap->eth_mask.dst, 0xff, sizeof encap->eth_mask.dst);
    memset(&encap->eth_mask.src, 0xff, sizeof encap->eth_mask.src);
    encap->eth_mask.type = OVS_BE16_MAX;
    ofs = ETH_HEADER_LEN;

    if (eth.eth_type == htons(ETH_TYPE_IP)) {
        struct ip_header ip;

        if (data->header_len < ofs + IP_HEADER_LEN) {
            return PUSH_REFUSE(reason, "tnl_push header too short");
        }
        memcpy(&ip, h + ofs, sizeof ip);
        if (ip.ip_ihl_ver != IP_IHL_VER(5, 4)) {
            return PUSH_REFUSE(reason, "tnl_push outer IPv4 header with "
                               "options not supported");
        }
        proto = ip.ip_proto;
        encap->present |= HW_HDR_IPV4;
        encap->ipv4.src = get_16aligned_be32(&ip.ip_src);
        encap->ipv4.dst = get_16aligned_be32(&ip.ip_dst);
        encap->ipv4.proto = proto;
        encap->ipv4.tos = ip.ip_tos;
        encap->ipv4_mask.src = encap->ipv4_mask.dst = OVS_BE32_MAX;
        encap->ipv4_mask.proto = encap->ipv4_mask.tos = UINT8_MAX;
        ofs += IP_HEADER_LEN;
    } else if (eth.eth_type == htons(ETH_TYPE_IPV6)) {
        struct ovs_16aligned_ip6_hdr ip6;

        if (data->header_len < ofs + IPV6_HEADER_LEN) {
            return PUSH_REFUSE(reason, "tnl_push header too short");
        }
        memcpy(&ip6, h + ofs, sizeof ip6);
        proto = ip6.ip6_ctlun.ip6_un1.ip6_un1_nxt;
        encap->present |= HW_HDR_IPV6;
        memcpy(&encap->ipv6.src, &ip6.ip6_src, sizeof encap->ipv6.src);
        memcpy(&encap->ipv6.dst, &ip6.ip6_dst, sizeof encap->ipv6.dst);
        encap->ipv6.next_hdr = proto;
        encap->ipv6_mask.src = in6addr_exact;
        encap->ipv6_mask.dst = in6addr_exact;
        encap->ipv6_mask.next_hdr = UINT8_MAX;
        ofs += IPV6_HEADER_LEN;
    } else {
        return PUSH_REFUSE(reason, "tnl_push outer ethertype %#06"PRIx16
                           " not supported", ntohs(eth.eth_type));
    }

    if (data->tnl_type == OVS_VPORT_TYPE_VXLAN
        || data->tnl_type == OVS_VPORT_TYPE_GENEVE) {
        bool geneve = data->tnl_type == OVS_VPORT_TYPE_GENEVE;
        const char *name = geneve ? "Geneve" : "VXLAN";
        struct udp_header udp;
        size_t tnl_len = 8;

        /* Geneve: the fixed 8 bytes and the options, which the NIC copies
         * with the rest. */
        if (geneve && data->header_len > ofs + UDP_HEADER_LEN) {
            tnl_len += (h[ofs + UDP_HEADER_LEN] & 0x3f) * 4;
        }
        need = ofs + UDP_HEADER_LEN + tnl_len;
        if (proto != IPPROTO_UDP || data->header_len != need) {
            return PUSH_REFUSE(reason, "tnl_push %s header malformed", name);
        }
        if (l3) {
            return PUSH_REFUSE(reason, "tnl_push of an L3 packet into %s "
                               "not supported", name);
        }
        memcpy(&udp, h + ofs, sizeof udp);
        if (udp.udp_csum) {
            return PUSH_REFUSE(reason, "tnl_push with outer UDP checksum not "
                               "supported: the NIC does not compute it");
        }
        push->udp_ofs = ofs;
        encap->present |= HW_HDR_UDP;
        encap->l4.src = udp.udp_src;
        encap->l4.dst = udp.udp_dst;
        encap->l4_mask.src = encap->l4_mask.dst = OVS_BE16_MAX;
        /* The protocol is the UDP spec's. */
        encap->ipv4.proto = encap->ipv4_mask.proto = 0;
        encap->ipv6.next_hdr = encap->ipv6_mask.next_hdr = 0;
    } else {
        struct gre_base_hdr gre;
        uint16_t gre_flags;

        if (proto != IPPROTO_GRE
            || data->header_len < ofs + sizeof gre) {
            return PUSH_REFUSE(reason, "tnl_push GRE header malformed");
        }
        memcpy(&gre, h + ofs, sizeof gre);
        gre_flags = ntohs(gre.flags);
        if (gre_flags & (GRE_CSUM | GRE_SEQ)) {
            return PUSH_REFUSE(reason, "tnl_push of GRE with %s not "
                               "supported: the NIC does not compute it",
                               gre_flags & GRE_CSUM ? "checksum"
                                                    : "sequence number");
        }
        if (gre_flags & ~GRE_KEY) {
            return PUSH_REFUSE(reason, "tnl_push GRE flags %#06"PRIx16" not "
                               "supported", gre_flags);
        }
        need = ofs + sizeof gre + (gre_flags & GRE_KEY ? 4 : 0);
        if (data->header_len != need) {
            return PUSH_REFUSE(reason, "tnl_push GRE header malformed");
        }
        if (!l3 && gre.protocol != htons(ETH_TYPE_TEB)) {
            return PUSH_REFUSE(reason, "tnl_push of an Ethernet frame with "
                               "GRE protocol %#06"PRIx16" not supported",
                               ntohs(gre.protocol));
        }
        if (l3 && gre.protocol != inner_type) {
            return PUSH_REFUSE(reason, "tnl_push GRE protocol %#06"PRIx16
                               " does not fit the packet",
                               ntohs(gre.protocol));
        }
    }

    push->tnl_port = data->tnl_port;
    push->push_out_port = data->out_port;
    push->tnl_type = data->tnl_type;
    push->header_len = data->header_len;
    memset(push->header, 0, sizeof push->header);
    memcpy(push->header, h, data->header_len);
    push->l3 = l3;
    return 0;
}

/* The tnl_push action 'a'. */
static int
parse_push(const struct nlattr *a, bool l3, ovs_be16 inner_type,
           struct hw_push *push, struct ds *reason)
{
    /* The attribute holds struct ovs_action_push_tnl up to the end of the
     * header (odp_put_tnl_push_action()). */
    size_t hdr_ofs = offsetof(struct ovs_action_push_tnl, header);
    size_t size = nl_attr_get_size(a);
    struct ovs_action_push_tnl data;

    memset(&data, 0, sizeof data);
    if (size < hdr_ofs || size > sizeof data) {
        return hw_translate_fail(reason, EINVAL, "malformed tnl_push");
    }
    memcpy(&data, nl_attr_get(a), size);
    if (data.header_len != size - hdr_ofs) {
        return hw_translate_fail(reason, EINVAL, "malformed tnl_push");
    }
    return parse_push_header(&data, l3, inner_type, push, reason);
}

/* The header of 'push' as the device is to push it, into 'data'. */
static void
push_device_header(const struct hw_push *push, uint8_t *data)
{
    memcpy(data, push->header, push->header_len);
    if (push->udp_ofs) {
        /* OVS leaves the UDP source port 0 in the header and fills it per
         * packet from the packet's hash; the NIC copies the header as is.
         * Give every tunnel header its own port in the range OVS uses, so
         * the underlay still spreads different tunnels over its paths. */
        struct udp_header *udp = ALIGNED_CAST(struct udp_header *,
                                              data + push->udp_ofs);

        if (!udp->udp_src) {
            uint32_t hash = hash_bytes(push->header, push->header_len, 0);

            udp->udp_src = htons(32768 + hash % (61000 - 32768));
        }
    }
}

int
hw_translate_push_action(const struct nlattr *a, struct hw_push *push,
                         uint8_t data[HW_REFORMAT_MAX_DATA],
                         struct ds *reason)
{
    int error;

    memset(push, 0, sizeof *push);
    error = parse_push(a, false, htons(0), push, reason);
    if (!error) {
        push_device_header(push, data);
    }
    return error;
}

/* After the tnl_push: exactly one output, nothing else. */
static int
check_after_push(const struct nlattr *rest, size_t rest_len,
                 struct hw_push *push, struct ds *reason)
{
    const struct nlattr *a;
    size_t left, n = 0;

    NL_ATTR_FOR_EACH (a, left, rest, rest_len) {
        if (nl_attr_type(a) != OVS_ACTION_ATTR_OUTPUT) {
            return PUSH_REFUSE(reason, "%s after tnl_push not supported",
                               hw_translate_action_name(nl_attr_type(a)));
        }
        if (n++) {
            return PUSH_REFUSE(reason, "more than one output after tnl_push "
                               "not supported");
        }
        push->out_port = nl_attr_get_odp_port(a);
    }
    if (!n) {
        return PUSH_REFUSE(reason, "tnl_push without output");
    }
    return 0;
}

/* Walks one action list (the flow's, or a clone's) for the tnl_push.
 * Returns ENOENT if the list holds none. */
static int
push_walk(const struct nlattr *actions, size_t actions_len,
          ovs_be16 inner_type, struct hw_push *push, struct ds *reason)
{
    const struct nlattr *a;
    bool pop_eth = false;
    size_t left;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        int type = nl_attr_type(a);
        int error;

        if (pop_eth && type != OVS_ACTION_ATTR_TUNNEL_PUSH) {
            return PUSH_REFUSE(reason, "pop_eth not followed by tnl_push "
                               "not supported");
        }
        switch (type) {
        case OVS_ACTION_ATTR_OUTPUT:
        case OVS_ACTION_ATTR_USERSPACE:
            /* Copies of the packet as it is; they do not change it. */
            break;

        case OVS_ACTION_ATTR_SET:
        case OVS_ACTION_ATTR_SET_MASKED:
        case OVS_ACTION_ATTR_CT:
        case OVS_ACTION_ATTR_CT_CLEAR:
            /* Software runs them before it reaches the push, which the
             * device then does to the packet as they left it: its egress
             * rule matches only the marker (a routed flow's MAC rewrite and
             * TTL decrement, a ct(commit)).  Not the tunnel metadata, which
             * the userspace datapath's push ignores. */
            if (type != OVS_ACTION_ATTR_CT && type != OVS_ACTION_ATTR_CT_CLEAR
                && nl_attr_type(nl_attr_get(a)) == OVS_KEY_ATTR_TUNNEL) {
                return PUSH_REFUSE(reason, "set of the tunnel metadata "
                                   "before tnl_push not supported");
            }
            break;

        case OVS_ACTION_ATTR_CLONE:
            /* A clone works on a copy: unless the push is in it, it does not
             * matter what it does. */
            if (count_pushes(nl_attr_get(a), nl_attr_get_size(a))) {
                return push_walk(nl_attr_get(a), nl_attr_get_size(a),
                                 inner_type, push, reason);
            }
            break;

        case OVS_ACTION_ATTR_POP_ETH:
            pop_eth = true;
            break;

        case OVS_ACTION_ATTR_TUNNEL_PUSH:
            error = parse_push(a, pop_eth, inner_type, push, reason);
            if (!error) {
                error = check_after_push(nl_attr_next(a),
                                         left - NLA_ALIGN(a->nla_len), push,
                                         reason);
            }
            return error;

        default:
            return PUSH_REFUSE(reason, "%s before tnl_push not supported",
                               hw_translate_action_name(type));
        }
    }
    return ENOENT;
}

struct eth_addr
hw_push_marker(uint32_t id)
{
    return (struct eth_addr) { .ea = { 0x0e, 0x48, id >> 24, id >> 16,
                                       id >> 8, id } };
}

int
hw_translate_push(const struct hw_rule *ingress,
                  const struct nlattr *actions, size_t actions_len,
                  struct hw_push *push, struct ds *reason)
{
    const struct hw_headers *sent;
    ovs_be16 inner_type;
    size_t n_pushes;
    struct hw_rule *egress;
    int error;

    /* Most flows push nothing: they skip the clearing of 'push', which is
     * big. */
    n_pushes = count_pushes(actions, actions_len);
    if (!n_pushes) {
        return ENOENT;
    }
    memset(push, 0, sizeof *push);
    if (n_pushes > 1) {
        /* Each would need its own encap of the same packet on egress. */
        return PUSH_REFUSE(reason, "more than one tnl_push not supported");
    } else if (ingress->fate != HW_FATE_RSS) {
        return PUSH_REFUSE(reason, "tnl_push of a dropped packet");
    }

    /* The packet as the flow sends it: the inner one of a vport flow. */
    sent = ingress->tunnel != HW_TUNNEL_NONE ? &ingress->inner
                                              : &ingress->outer;
    inner_type = htons(sent->present & HW_HDR_IPV4 ? ETH_TYPE_IP
                       : sent->present & HW_HDR_IPV6 ? ETH_TYPE_IPV6 : 0);

    error = push_walk(actions, actions_len, inner_type, push, reason);
    if (error) {
        memset(push, 0, sizeof *push);
        return error;
    }

    /* The egress rule matches the marker and replaces it with the
     * header (see hw-translate.h). */
    egress = &push->egress;
    egress->outer.present = HW_HDR_ETH;
    egress->outer.eth.dst = hw_push_marker(0);
    egress->outer.eth_mask.dst = eth_addr_exact;
    egress->outer.eth.type = htons(HW_PUSH_MARKER_TYPE);
    egress->outer.eth_mask.type = OVS_BE16_MAX;
    egress->egress = true;
    egress->reformat = HW_REFORMAT_L3_ENCAP;
    push_device_header(push, egress->reformat_data);
    egress->reformat_len = push->header_len;
    egress->count = true;
    egress->fate = HW_FATE_RSS;
    egress->full = false;
    return 0;
}
