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

#ifndef HW_TRANSLATE_H
#define HW_TRANSLATE_H 1

/* translate: an OVS datapath flow (struct match + netlink actions) becomes a
 * struct hw_rule, or is refused with EOPNOTSUPP and a reason.
 *
 * Pure code: no device, no locks, no global state.  Every match field it
 * translates is cleared from a copy of the mask; any mask bit left at the
 * end refuses the flow and the reason names the field, so nothing is ever
 * silently ignored. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ct-dpif.h"
#include "hw-rule.h"
#include "openvswitch/packets.h"
#include "openvswitch/types.h"

struct flow;
struct flowmap;
struct match;
struct nlattr;
struct ds;

struct hw_translate_params {
    uint32_t flow_mark;         /* From struct offload_info. */
    odp_port_t in_port;         /* The port the flow is put on: a hw port,
                                 * or a tunnel vport (see below). */

    /* A flow put on a tunnel vport (a "tunnel(...)" match, in_port the
     * vport) is offloaded on the physical port its packets arrive by, as
     * one rule: outer headers from the tunnel metadata, the tunnel, a decap
     * and the inner headers.  'vport' is the vport's tunnel type
     * (HW_TUNNEL_NONE for a flow on a hw port) and 'vport_udp_port' its
     * UDP destination port (VXLAN). */
    enum hw_tunnel_type vport;
    ovs_be16 vport_udp_port;

    /* The device has the mlx5 matcher of the pipeline of tables: the flow
     * may match the TTL or hop limit, the fragment bit, TCP flags and ICMP
     * type and code, which verbs cannot. */
    bool pipeline;

    /* With 'pipeline': the port runs the connection pipeline (hw-rule.h,
     * HW_REG_RECIRC): ct() and recirc() of a recirc_id 0 flow become a
     * jump to the connection table, and flows of recirc_id != 0 go to the
     * post-conntrack table. */
    bool conntrack;

    /* With 'pipeline': what the device's parser recognises
     * (HW_DR_PARSE_* of hw-dev.h): Geneve, one Geneve option, the
     * checksum-ok bits. */
    uint32_t parse;

    /* The input port is a port of an e-switch in switchdev mode, whose
     * FDB the device can program, and its packets carry 'esw_reg_c0'
     * under 'esw_reg_c0_mask' there: a flow whose actions are an optional
     * VLAN pop and push and header rewrites, then one to four outputs
     * (one after a tnl_push, which becomes an encap), becomes a full FDB
     * rule (HW_FATE_VPORT, 'fdb', the mlx5 matcher,
     * hw-translate-eswitch.c), whose vport the offload core then finds
     * (hw-offload-eswitch.h); a flow without actions, an FDB drop.  The
     * flow of a VXLAN or GRE vport decapsulates there too, on the port its
     * packets arrive by.  Any other flow is refused with the reason the
     * FDB cannot take it, for the caller to translate it again without
     * 'eswitch'.  (The members are in this order so that the struct,
     * one per offloaded flow, has no holes.) */
    uint32_t esw_reg_c0, esw_reg_c0_mask;
    uint16_t esw_vport;         /* The input port's vport. */
    bool eswitch;

    /* The datapath type of the flow's ports, for finding an output port's
     * netdev (netdev_ports_get()). */
    const char *dpif_type;
};

/* Translates 'match' and 'actions' into 'rule'.  Returns 0 on success.  On
 * EOPNOTSUPP (or EINVAL for a mark the tag cannot carry) 'reason' receives
 * a one-line explanation such as "match on recirc_id 0x1 not supported".
 * On success 'reason' may receive a note of what the device leaves to
 * software although the flow is offloaded, e.g. "ct(helper) stays in
 * software" for a ct() and recirc() flow that is a plain partial rule
 * instead of a stage of the connection pipeline. */
int hw_translate_flow(const struct match *, const struct nlattr *actions,
                      size_t actions_len,
                      const struct hw_translate_params *,
                      struct hw_rule *, struct ds *reason);

/* hw_translate_flow() of a match whose mask's nonzero 64-bit words are
 * 'mask_map' (hw_translate_mask_map()), for a caller that has it. */
int hw_translate_flow_mapped(const struct match *,
                             const struct flowmap *mask_map,
                             const struct nlattr *actions, size_t actions_len,
                             const struct hw_translate_params *,
                             struct hw_rule *, struct ds *reason);

/* The connection pipeline (hw-translate-ct.c).
 *
 * hw_translate_ct_match() translates the recirc_id of a flow and, for
 * recirc_id != 0, its ct_state, ct_zone, ct_mark and the low 32 bits of
 * its ct_label into register matches of the post-conntrack table,
 * clearing them from 'mask'.  Does nothing for recirc_id 0.
 *
 * hw_translate_ct_stage() makes 'rule' a stage if 'actions' are ct() and
 * recirc() (after an optional ct_clear): returns 0, ENOENT if they are
 * something else, or EOPNOTSUPP with a reason for a ct() the device
 * cannot stand for (setting ct_mark, a helper...); 'rule' is
 * unchanged unless it returns 0.
 *
 * hw_translate_ct_post_actions() checks that the actions of a flow of the
 * post-conntrack table may run in software on a packet the device tagged
 * after the stages: none of them may read the recirc_id or conntrack
 * state the packet then lacks. */
int hw_translate_ct_match(const struct flow *key, struct flow *mask,
                          const struct hw_translate_params *,
                          struct hw_rule *, struct ds *reason);
int hw_translate_ct_stage(const struct nlattr *actions, size_t actions_len,
                          const struct hw_translate_params *,
                          struct hw_rule *, struct ds *reason);
int hw_translate_ct_post_actions(const struct nlattr *actions,
                                 size_t actions_len, struct ds *reason);

/* Which stages' packets a rule of the connection table takes: a
 * connection without NAT has one rule for all; one with NAT a rule for
 * the stages without nat and one, that translates, for those with nat. */
enum hw_ct_stages {
    HW_CT_STAGES_ALL,
    HW_CT_STAGES_PLAIN,             /* ct() without nat. */
    HW_CT_STAGES_NAT,               /* ct(nat). */
};

/* One direction of a connection, as the connection table matches it. */
struct hw_ct_conn_key {
    struct ct_dpif_tuple tuple;     /* As that direction's packets carry
                                     * it. */
    uint16_t zone;
    enum hw_tunnel_type tunnel;     /* Behind this tunnel: the tuple is the
                                     * inner headers'. */
    enum hw_ct_stages stages;
    uint8_t ct_state;               /* CS_* the packets leave with. */
    uint32_t mark;
    uint32_t label;                 /* Low 32 bits of the ct_label. */
    bool nat;                       /* Translate the packets (NAT stages
                                     * only)... */
    struct ct_dpif_tuple nat_tuple; /* ...to this tuple. */
};

/* Fills 'rule' for the connection table: the tuple (a TCP packet with
 * SYN, FIN or RST goes on to software) and the stage's zone, setting the
 * state registers and jumping to the post-conntrack table.  Behind a
 * tunnel, the inner headers carry the tuple (the stage kept the outer
 * ones).  Returns 0 or EOPNOTSUPP with a reason (protocols other than TCP,
 * UDP and ICMP, ICMP or NAT behind a tunnel). */
int hw_translate_ct_conn(const struct hw_ct_conn_key *, struct hw_rule *,
                         struct ds *reason);

/* The miss rules of the stage 'stage' (hw_translate_ct_stage()): fills
 * 'misses' and the levels of their tables, and returns how many.  The
 * first HW_N_CT_PLAIN_MISSES send packets to software as they arrived,
 * in the connection and post-conntrack tables: software runs the stage
 * again, so what they count is not the device's share of the stage's
 * statistics.  A stage with nat has two more, in the post-conntrack table,
 * for packets the connection table translated: they leave with the
 * restore tag (hw-rule.h, HW_TAG_CT_RESTORE). */
#define HW_N_CT_PLAIN_MISSES 2
#define HW_MAX_CT_MISSES 4
size_t hw_translate_ct_misses(const struct hw_rule *stage,
                              struct hw_rule misses[HW_MAX_CT_MISSES],
                              uint32_t levels[HW_MAX_CT_MISSES]);

/* The connection pipeline in the e-switch's FDB
 * (hw-translate-eswitch-ct.c).
 *
 * hw_translate_eswitch_ct_stage() makes 'rule', an FDB rule being
 * translated ('params->eswitch'), a stage as hw_translate_ct_stage() does,
 * without a tag: returns 0, ENOENT if 'actions' are no stage, or
 * EOPNOTSUPP with a reason (a ct() the device cannot stand for, or one
 * with nat).
 *
 * hw_translate_eswitch_ct_misses() is hw_translate_ct_misses() for such a
 * stage: its misses take the FDB's default (HW_FATE_MISS), to the input
 * port's representor.
 *
 * hw_translate_eswitch_ct_miss() makes 'rule', a rule of the connection
 * table or one to put ahead of it, send its packets to the FDB's
 * default. */
int hw_translate_eswitch_ct_stage(const struct nlattr *actions,
                                  size_t actions_len,
                                  const struct hw_translate_params *,
                                  struct hw_rule *, struct ds *reason);
size_t hw_translate_eswitch_ct_misses(const struct hw_rule *stage,
                                      struct hw_rule misses[HW_MAX_CT_MISSES],
                                      uint32_t levels[HW_MAX_CT_MISSES]);
void hw_translate_eswitch_ct_miss(struct hw_rule *);

/* Stores into 'map' the 64-bit words of 'mask' that are not zero, the map
 * miniflow_map_init() makes, faster for a flow's mostly zero mask. */
void hw_translate_mask_map(const struct flow *mask, struct flowmap *map);

/* What a packet decapsulated by the rule of a vport flow must get back in
 * hw_miss_packet_recover() so that the datapath sees it as the software
 * tnl_pop would have left it. */
/* The most Geneve option bytes a rule can restore: one option of 4 data
 * bytes, what the device's parser matches. */
#define HW_GENEVE_MAX_OPTS 8

struct hw_tunnel_restore {
    struct flow_tnl tunnel;     /* Up to, not including, 'metadata'. */
    bool udpif;                 /* Geneve: 'opts' are the packet's options
                                 * as they were on the wire
                                 * (FLOW_TNL_F_UDPIF). */
    uint8_t opts_len;           /* Bytes of 'opts'. */
    uint8_t opts[HW_GENEVE_MAX_OPTS];
    ovs_be32 packet_type;       /* PT_ETH, or the L3 type of an L3 decap
                                 * (whose 14-byte placeholder Ethernet
                                 * header recovery removes). */
};

/* Fills 'restore' for the vport flow 'match', which hw_translate_flow()
 * translated with 'params'.  Every tunnel field the flow matches was matched
 * exactly (translate refuses anything else), so these are the values of
 * every packet the rule decapsulates, except for the fields no flow can
 * match: the outer UDP source port (restored as 0) and TTL (as the flow's
 * masked value, 0). */
void hw_translate_tunnel_restore(const struct match *,
                                 const struct hw_translate_params *,
                                 struct hw_tunnel_restore *restore);

/* Tunnel push.
 *
 * A flow whose actions push a tunnel header ("tnl_push(...)") and send the
 * result to a hw port can leave the push to the NIC.  Instead of the header
 * the software puts a 14-byte marker Ethernet header in front of the
 * packet (vswitchd-patches/0004 and the plugin's push hook): destination
 * hw_push_marker(id), source zero, ethertype HW_PUSH_MARKER_TYPE.  An
 * egress rule on the port matches exactly that marker and applies an
 * L2_TO_L3_TUNNEL reformat whose data is the header OVS would have pushed:
 * the NIC removes the marker, which is the packet's L2 header as far as it
 * is concerned, and puts the tunnel header in its place, leaving behind it
 * the frame (or, after a pop_eth, the L3 packet) the flow sends, which is
 * what the software push would have sent.
 *
 * A rule that matched the packets themselves could not tell them from the
 * other packets the port sends, the encapsulated ones included (a megaflow
 * typically matches little more than "ip"); nothing else carries the
 * marker. */
#define HW_PUSH_MARKER_TYPE 0x88b5  /* IEEE 802 Local Experimental 1. */

/* The flow mark the push hook gives the packets it prepared for a push by
 * the NIC (a marker in front, or an hbl send queue's head).  A hw port
 * sends a frame with a marker header only with this mark, and an hbl
 * queue takes only packets with it: any port of a bridge may receive a
 * frame that looks like either, which the NIC would then encapsulate into a
 * tenant's tunnel.  Hardware tags have 24 bits and dpif-netdev never
 * allocates UINT32_MAX, so no received packet has this mark. */
#define HW_PUSH_PACKET_MARK UINT32_MAX

/* The marker destination address of egress rule 'id': locally
 * administered, unicast. */
struct eth_addr hw_push_marker(uint32_t id);

struct hw_push {
    struct hw_rule egress;      /* Egress rule: the marker of id 0 (the
                                 * caller sets the id) and the encap. */
    odp_port_t out_port;        /* The port the flow outputs to after the
                                 * push, where the egress rule goes. */

    /* The tnl_push action, as struct ovs_action_push_tnl has it. */
    odp_port_t tnl_port;
    odp_port_t push_out_port;
    uint32_t tnl_type;          /* OVS_VPORT_TYPE_*. */
    uint32_t header_len;
    uint8_t header[HW_REFORMAT_MAX_DATA];

    bool l3;                    /* A pop_eth comes before the push: the
                                 * packet is an L3 one. */
    size_t udp_ofs;             /* Offset of the outer UDP header in
                                 * 'header', 0 if none. */
    struct hw_headers encap;    /* The outer headers the encap adds, under
                                 * exact masks. */
};

/* Looks for a tunnel push in 'actions' of a flow whose ingress rule
 * hw_translate_flow() made as 'ingress'.  Returns 0 and fills 'push' if the
 * NIC can do the push: exactly one tnl_push of a VXLAN, Geneve or GRE header
 * (IPv4 or IPv6 outer, no UDP checksum, no GRE checksum or sequence number),
 * no action before it that changes the packet (but a pop_eth right before
 * it, for GRE carrying L3), and exactly one output after it, to
 * 'push->out_port'.
 * Returns ENOENT if the actions push no tunnel header, or EOPNOTSUPP with a
 * reason in 'reason'. */
int hw_translate_push(const struct hw_rule *ingress,
                      const struct nlattr *actions, size_t actions_len,
                      struct hw_push *push, struct ds *reason);

/* Parses the tnl_push action 'a' as hw_translate_push() does (the header
 * the device can push, not the actions around it) into 'push', and the
 * header the device is to push, the UDP source port filled in, into
 * 'data'.  Returns 0, or EOPNOTSUPP or EINVAL with a reason in
 * 'reason'. */
int hw_translate_push_action(const struct nlattr *a, struct hw_push *push,
                             uint8_t data[HW_REFORMAT_MAX_DATA],
                             struct ds *reason);

/* Returns false if the tag (flow mark) the NIC gave 'packet' may name a
 * flow that does not match it, because the packet differs from the flow in
 * something verbs specs cannot express: an IP fragment (flows match
 * "not a fragment", verbs cannot), an 802.1ad S-tag that the VLAN guard
 * cannot catch, or a second VLAN tag (the NIC matches the ethertype after
 * the last tag, OVS the one after the first).  The caller then clears the
 * mark so that the classifier decides.  Reads only the packet's headers. */
struct dp_packet;
bool hw_translate_mark_is_exact(const struct dp_packet *);

/* Returns true if 'packet', tagged by a rule that decapsulates the tunnel
 * 'restore' describes, still has that tunnel's outer headers: the tunnel's
 * IP addresses, and UDP to the tunnel's port or GRE.  A device that could
 * not apply the decap (an inner frame cut short, say) delivers the frame
 * so, and giving it the tunnel's metadata would run the vport flow's
 * actions on the encapsulated frame.  Reads only the packet's headers. */
bool hw_translate_still_encapsulated(const struct dp_packet *,
                                     const struct hw_tunnel_restore *);

#endif /* hw-translate.h */
