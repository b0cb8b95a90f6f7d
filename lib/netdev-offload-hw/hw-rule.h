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

#ifndef HW_RULE_H
#define HW_RULE_H 1

/* The plugin's intermediate representation of one offloaded datapath flow.
 *
 * translate (OVS match + actions -> hw_rule) fills it; encode (hw_rule ->
 * ibv_flow_attr bytes) reads it.  It knows nothing of OVS's struct match nor
 * of verbs structs, so either side can change without the other.  Header
 * values and masks are in network byte order, metadata (registers, vport)
 * in host byte order, and every value is already ANDed with its mask.
 *
 * Some fields (struct hw_ext_key, registers, source vport) exist only for
 * the mlx5 matcher of the pipeline of tables (hw-encode-dr.h): verbs cannot
 * match them, hw-encode.c never reads them, and translate sets them only
 * for a device that has the pipeline. */

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>
#include "openvswitch/types.h"
#include "packets.h"

/* Which header specs a layer carries.  A header may be present with an
 * all-zero mask: that still restricts the rule to packets that have the
 * header (an IPv4 spec implies ip_version == 4, a TCP spec ip_proto == 6). */
enum hw_hdr_bits {
    HW_HDR_ETH  = 1 << 0,
    HW_HDR_IPV4 = 1 << 1,
    HW_HDR_IPV6 = 1 << 2,
    HW_HDR_TCP  = 1 << 3,
    HW_HDR_UDP  = 1 << 4,
};

struct hw_eth_key {
    struct eth_addr dst;
    struct eth_addr src;
    ovs_be16 type;              /* Ethertype after the last VLAN tag. */
    ovs_be16 tci;               /* 802.1Q TCI: pcp 3, dei 1, vid 12.  A
                                 * non-zero mask requires a C-VLAN tag. */
};

struct hw_ipv4_key {
    ovs_be32 src;
    ovs_be32 dst;
    uint8_t proto;
    uint8_t tos;
};

struct hw_ipv6_key {
    struct in6_addr src;
    struct in6_addr dst;
    ovs_be32 label;             /* Low 20 bits. */
    uint8_t next_hdr;
    uint8_t tclass;
};

struct hw_l4_key {
    ovs_be16 src;
    ovs_be16 dst;
};

/* VLAN tag kinds, for the mlx5 matcher's cvlan_tag and svlan_tag bits. */
enum hw_vlan_kind {
    HW_VLAN_ANY,                /* No match on the tag's presence, except
                                 * that a non-zero TCI mask requires a
                                 * C-VLAN tag, as with verbs. */
    HW_VLAN_NONE,               /* No such tag. */
    HW_VLAN_CTAG,               /* An 802.1Q C-VLAN tag (TPID 0x8100). */
    HW_VLAN_STAG,               /* An 802.1ad S-VLAN tag (TPID 0x88a8). */
};

/* What one layer can match beyond verbs' specs (dr only). */
struct hw_ext_key {
    uint8_t ttl;                /* IPv4 TTL or IPv6 hop limit. */
    uint8_t frag;               /* 1: an IP fragment, first or later (the
                                 * matcher has one bit: only bit 0). */
    ovs_be16 tcp_flags;         /* TCP flags, low 9 bits (NS to FIN). */
    uint8_t icmp_type;          /* ICMP, or ICMPv6 with an IPv6 header;
                                 * outer headers only (the matcher has one
                                 * set of ICMP fields). */
    uint8_t icmp_code;
    ovs_be32 icmp_data;         /* ICMP header bytes 4 to 7: an echo's
                                 * identifier and sequence number. */
    ovs_be16 tci2;              /* The second VLAN tag's TCI (behind the
                                 * one of 'eth.tci'). */
    uint8_t csum_ok;            /* HW_CSUM_OK_* bits the device sets when
                                 * its checks of the packet pass. */
};

/* The integrity bits of the mlx5 matcher (outer or inner layer). */
enum hw_csum_ok_bits {
    HW_CSUM_OK_L4_CSUM = 1 << 0,    /* TCP or UDP checksum right. */
    HW_CSUM_OK_IPV4_CSUM = 1 << 1,  /* IPv4 header checksum right. */
    HW_CSUM_OK_L4 = 1 << 2,         /* L4 header and length sane. */
    HW_CSUM_OK_L3 = 1 << 3,         /* L3 header and length sane. */
};

/* One layer of headers (the outer ones; the inner ones behind a tunnel). */
struct hw_headers {
    uint32_t present;           /* HW_HDR_* bits. */
    struct hw_eth_key eth, eth_mask;
    struct hw_ipv4_key ipv4, ipv4_mask;
    struct hw_ipv6_key ipv6, ipv6_mask;
    struct hw_l4_key l4, l4_mask;

    /* dr only. */
    struct hw_ext_key ext, ext_mask;
    enum hw_vlan_kind vlan1;    /* The first (outermost) tag, 'eth.tci'. */
    enum hw_vlan_kind vlan2;    /* The second tag, 'ext.tci2'. */
};

/* The tunnel a rule matches behind its outer headers. */
enum hw_tunnel_type {
    HW_TUNNEL_NONE,
    HW_TUNNEL_VXLAN,            /* UDP to a VXLAN port, VXLAN_TUNNEL spec. */
    HW_TUNNEL_GRE,              /* IP protocol 47, GRE spec. */
    HW_TUNNEL_GENEVE,           /* UDP to the Geneve port: the mlx5 matcher
                                 * only (verbs has no Geneve spec). */
};

struct hw_tunnel_key {
    ovs_be32 vni;               /* VXLAN, Geneve: VNI in the low 24 bits. */
    ovs_be16 gre_protocol;      /* GRE: 0x6558 (L2), 0x0800, 0x86dd. */
    ovs_be32 gre_key;           /* GRE key. */

    /* Geneve (dr only). */
    ovs_be16 geneve_protocol;   /* Protocol type (0x6558). */
    uint8_t geneve_opt_len;     /* Length of the options, in 4-byte words
                                 * (6 bits). */
    uint8_t geneve_oam;         /* The O bit (1 bit). */
    uint8_t geneve_opt_exist;   /* 1: the packet has the option the
                                 * device's parser is set to (1 bit). */
    ovs_be32 geneve_opt_data;   /* That option's 4 data bytes. */
};

/* The Geneve option the device's parser must be set to for a rule that
 * matches 'geneve_opt_exist' or 'geneve_opt_data': mlx5 samples the data
 * of one option, chosen per device by a Geneve TLV option object. */
struct hw_geneve_opt {
    ovs_be16 opt_class;
    uint8_t type;
    uint8_t len;                /* Data length in 4-byte words; 0: the
                                 * rule needs no option parser. */
};

/* Packet reformat, as mlx5dv_create_flow_action_packet_reformat() types:
 * decaps apply on ingress rules, encaps on egress rules. */
enum hw_reformat_type {
    HW_REFORMAT_NONE,
    HW_REFORMAT_L2_DECAP,       /* L2_TUNNEL_TO_L2, no data. */
    HW_REFORMAT_L2_ENCAP,       /* L2_TO_L2_TUNNEL, data = outer header. */
    HW_REFORMAT_L3_DECAP,       /* L3_TUNNEL_TO_L2, data = new L2 (14/18). */
    HW_REFORMAT_L3_ENCAP,       /* L2_TO_L3_TUNNEL, data = outer header. */
};

#define HW_REFORMAT_MAX_DATA 128

/* Header rewrites a rule makes before its fate, in the device's order: pop
 * VLAN, then the set fields, then push VLAN (hw-apis.md 3.4).  Only the
 * pipeline of tables can do them; verbs has no such action. */
enum hw_set_field {
    HW_SET_ETH_SRC,
    HW_SET_ETH_DST,
    HW_SET_IPV4_SRC,
    HW_SET_IPV4_DST,
    HW_SET_IPV6_SRC,
    HW_SET_IPV6_DST,
    HW_SET_TTL,                 /* IPv4 TTL or IPv6 hop limit. */
    HW_SET_L4_SRC,              /* TCP or UDP, as the rule's outer L4. */
    HW_SET_L4_DST,
    HW_SET_TOS,                 /* IPv4 TOS or IPv6 traffic class: its DSCP
                                 * bits (7:2) only, the device has no ECN
                                 * field (hw-apis.md 3.2). */
    HW_N_SET_FIELDS
};

/* The bits of a field a rewrite sets: 'n_bits' from bit 'ofs', counting
 * from the field's least significant bit; 'n_bits' 0 means all the bits
 * the device sets of it.  A modify-header SET command writes one such run
 * of a device field (its offset and length). */
struct hw_set_bits {
    uint8_t ofs;
    uint8_t n_bits;
};

/* Metadata registers reg_c_0 to reg_c_7 (dr only). */
#define HW_N_REG_C 8

struct hw_rewrite {
    bool pop_vlan;              /* Pop the outermost VLAN tag. */
    uint32_t set;               /* 1 << enum hw_set_field. */
    struct eth_addr eth_src, eth_dst;
    ovs_be32 ipv4_src, ipv4_dst;
    struct in6_addr ipv6_src, ipv6_dst;
    uint8_t ttl;
    bool l4_tcp;                /* The L4 ports are TCP's, else UDP's. */
    ovs_be16 l4_src, l4_dst;
    uint8_t tos;                /* HW_SET_TOS: the whole byte. */
    struct hw_set_bits bits[HW_N_SET_FIELDS];   /* Of the fields in 'set'. */
    bool push_vlan;             /* Push a tag of 'push_tpid' and 'push_tci'. */
    ovs_be16 push_tpid;
    ovs_be16 push_tci;
    uint8_t set_regs;           /* 1 << N: set reg_c_N to 'regs[N]'. */
    uint32_t regs[HW_N_REG_C];
};

/* Whether 'rw' changes anything. */
static inline bool
hw_rewrite_is_empty(const struct hw_rewrite *rw)
{
    return !rw->pop_vlan && !rw->set && !rw->push_vlan && !rw->set_regs;
}

/* What the hardware does with a matching packet. */
enum hw_fate {
    HW_FATE_RSS,                /* Deliver to the port's RSS QP (upcall
                                 * queues), with the tag if any. */
    HW_FATE_DROP,               /* Drop in hardware. */
    HW_FATE_TABLE,              /* Go on in the table of 'fate_level' of the
                                 * rule's domain (the pipeline only). */
    HW_FATE_VPORT,              /* To the 'n_out' e-switch vports
                                 * 'fate_vports', in the FDB ('fdb'): the
                                 * flow's output ports 'out_ports' (the
                                 * pipeline only); to several, a copy to
                                 * each (DEST_ARRAY, a mirror). */
    HW_FATE_MISS,               /* The domain's default (DEFAULT_MISS): in
                                 * the FDB, to the manager's NIC RX, where
                                 * the input port's representor takes the
                                 * packet (the FDB has no tag and no QP). */
};

/* The connection pipeline (dr only, hw-ct.h).
 *
 * A recirc_id 0 flow whose actions are ct() and recirc(X) sets HW_REG_RECIRC
 * to X, HW_REG_CT to the zone and HW_REG_STAGE to its mark, tags the packet
 * with its mark and jumps to the connection table (HW_LEVEL_CT).  There a
 * connection's rule sets HW_REG_CT to zone | ct_state << 16, HW_REG_CT_MARK
 * and HW_REG_CT_LABEL and jumps to the post-conntrack table
 * (HW_LEVEL_POST_CT), which holds the flows of recirc_id != 0 and matches
 * them on those registers.  A packet that misses either table goes to
 * software as it arrived, with the first flow's tag: software runs that
 * flow's ct() and recirc() itself.  reg_c_0 is left to the e-switch's
 * source vport. */
#define HW_REG_RECIRC   1
#define HW_REG_CT       2
#define HW_REG_CT_MARK  3
#define HW_REG_CT_LABEL 4
#define HW_REG_STAGE    5

#define HW_LEVEL_CT      2
#define HW_LEVEL_POST_CT 3

/* Meters (hw-offload-meter.h), in the FDB only.  A metered FDB rule sets
 * HW_REG_METER to its meter's slot << 24 | its own slot << 8, counts, and
 * ends with the device meter, which writes the packet's color into the low
 * 8 bits and goes on in the policy table (HW_LEVEL_METER): per meter, a red
 * rule counts and drops, a green rule counts and goes on in the output
 * table (HW_LEVEL_METER_OUT), where the rule of the flow's slot sends the
 * packet to the flow's outputs.  It shares HW_REG_STAGE's register
 * (rdma-core 44 modifies reg_c_0 to reg_c_5 only): an FDB stage
 * (hw-translate-eswitch-ct.c) writes it, its misses in the connection and
 * post-conntrack tables read it, and a metered flow after conntrack
 * overwrites it only on its way to the meter's tables, which never read
 * the stage. */
#define HW_REG_METER       HW_REG_STAGE
#define HW_LEVEL_METER     4
#define HW_LEVEL_METER_OUT 5

/* NAT (hw-ct-restore.h).  The stage of a ct() with nat sets this bit of
 * HW_REG_CT besides the zone: the connection table then translates the
 * packets of a connection with NAT, and sets CS_SRC_NAT or CS_DST_NAT in
 * the state.  A translated packet that misses the post-conntrack table
 * cannot run its stage again in software: it leaves the device tagged
 * with its stage's mark plus HW_TAG_CT_RESTORE, and software restores the
 * metadata it had after conntrack.  Flow marks stay below that bit. */
#define HW_CT_REG_NAT      (1u << 31)
#define HW_TAG_CT_RESTORE  (1u << 23)
#define HW_TAG_MAX         (HW_TAG_CT_RESTORE - 1)

/* The table of the pipeline a datapath rule goes to. */
enum hw_table {
    HW_TABLE_FLOW,              /* recirc_id 0: the port's flow table. */
    HW_TABLE_POST_CT,           /* recirc_id != 0. */
};

/* The most outputs of a rule to e-switch vports (HW_FATE_VPORT). */
#define HW_MAX_OUTPUTS 4

struct hw_rule {
    struct hw_headers outer;

    enum hw_tunnel_type tunnel;
    struct hw_tunnel_key tnl, tnl_mask;
    struct hw_geneve_opt geneve_opt;
    struct hw_headers inner;    /* Behind the tunnel, if 'tunnel'. */

    /* dr only. */
    uint32_t reg_c[HW_N_REG_C], reg_c_mask[HW_N_REG_C];
    uint16_t src_vport, src_vport_mask;     /* E-switch source vport. */

    bool egress;                /* IBV_FLOW_ATTR_FLAGS_EGRESS: matches what
                                 * software sends on the port. */
    enum hw_reformat_type reformat;
    uint8_t reformat_data[HW_REFORMAT_MAX_DATA];
    size_t reformat_len;

    struct hw_rewrite rewrite;  /* Header rewrites (dr only). */

    bool has_tag;               /* ACTION_TAG with 'tag' (the flow mark). */
    uint32_t tag;               /* 1 .. 2^24 - 1. */
    bool count;                 /* ACTION_COUNT. */
    enum hw_fate fate;
    uint32_t fate_level;        /* HW_FATE_TABLE: the table's level. */
    uint8_t n_out;              /* HW_FATE_VPORT: the flow's outputs. */
    odp_port_t out_ports[HW_MAX_OUTPUTS];
    uint16_t fate_vports[HW_MAX_OUTPUTS];   /* Their vports, once the
                                             * offload core found them. */
    bool fdb;                   /* Goes to the e-switch's FDB, matching the
                                 * input port's vport in reg_c0 (dr
                                 * only). */
    bool full;                  /* The hardware executes all of the flow's
                                 * actions (offloaded:yes); otherwise the
                                 * software still runs them (partial). */
    bool override;              /* Goes ahead of every other rule
                                 * (HW_PRIO_OVERRIDE). */
    bool pipeline;              /* Needs the mlx5 matcher: on a port whose
                                 * pipeline takes only such rules
                                 * (options:steering=auto), it goes to the
                                 * flow table, the others to the root. */
    bool root_jump;             /* With 'pipeline' on such a port: the root
                                 * keeps its packets from the flow table (a
                                 * tagged or tunnel rule, hw-rule.h's bands
                                 * 1-8), so a root rule of the same match,
                                 * in its band, sends them there. */

    /* The connection pipeline (see HW_REG_RECIRC above). */
    enum hw_table table;
    bool ct_stage;              /* Jumps to the connection table. */
    uint16_t ct_zone;           /* With 'ct_stage': the ct() zone... */
    uint32_t ct_recirc;         /* ...and the recirc_id after it. */
    bool ct_nat;                /* With 'ct_stage': the ct() has nat. */

    /* An FDB rule whose flow runs meter 'meter_id' before its outputs
     * (see HW_REG_METER above); the offload core fills 'meter_params'
     * (struct hw_meter_prm, hw-meter.h, encoded) from the meter's
     * configuration, as it fills 'fate_vports'. */
    bool meter;
    uint32_t meter_id;
    uint8_t meter_params[32];
};

/* Verbs priorities used by the plugin (0 is matched first, 15 is the last
 * the device accepts).  Overlapping rules of one priority have no defined
 * order, so wherever two rules can match one packet the more specific one
 * gets the lower number:
 *
 *   0      overrides: a full rule the device refused to destroy goes on
 *          running its actions (a drop, say) for packets whose flow is
 *          gone; a rule of the same match here sends them to the miss
 *          path instead until a retry destroys it (hw-stale.h);
 *   1-3    rules that need an outer VLAN tag, by outer L4 (1), L3 (2), L2 (3);
 *   4      the VLAN guard: every other tagged packet goes to the miss path,
 *          so that rules placed after it, which verbs cannot restrict to
 *          untagged packets, never see a tagged one;
 *   5      the inner VLAN guard of tunnel rules: the same for the frame
 *          behind a VXLAN or GRE (TEB) header, installed while a port has
 *          tunnel rules;
 *   6-8    tunnel rules (outer headers + tunnel + decap + inner headers), by
 *          inner L4 (6), L3 (7), L2 (8).  A tunnel rule overlaps the
 *          outer-only rule of the flow that pops that tunnel (tnl_pop) and is
 *          more specific, so it comes first;
 *   9-11   untagged rules, by outer L4, L3, L2;
 *   12     on a port whose pipeline of tables takes only the rules that
 *          need it (options:steering=auto), the jump to its flow table,
 *          whose own miss rules then deliver what it does not match;
 *   13-14  the per-packet-type RSS miss rules of netdev-hw.c.
 *
 * Egress rules live in their own table; they use the same computation. */
#define HW_PRIO_OVERRIDE      0
#define HW_PRIO_TAGGED        1   /* + 0 (L4), 1 (L3), 2 (L2). */
#define HW_PRIO_VLAN_GUARD    4
#define HW_PRIO_TUNNEL_GUARD  5
#define HW_PRIO_TUNNEL        6   /* + 0 (inner L4), 1 (inner L3), 2 (L2). */
#define HW_PRIO_UNTAGGED      9   /* + 0 (L4), 1 (L3), 2 (L2). */
#define HW_PRIO_PIPELINE_JUMP 12
#define HW_PRIO_MISS_L4       13  /* Per-type RSS miss rules. */
#define HW_PRIO_MISS_L3       14

/* The RSS QP a rule delivers to: the hash QP whose hashed packet type
 * matches what the rule matches. */
enum hw_rss_type {
    HW_RSS_IPV4_TCP,
    HW_RSS_IPV4_UDP,
    HW_RSS_IPV4,
    HW_RSS_IPV6_TCP,
    HW_RSS_IPV6_UDP,
    HW_RSS_IPV6,
    HW_N_RSS_TYPES
};

/* Turns 'rule' into its override: the same match, no action, delivered to
 * the miss path ahead of every other rule (HW_PRIO_OVERRIDE). */
void hw_rule_make_override(struct hw_rule *);

/* A rule is "tagged" when its outer Ethernet spec masks part of the TCI:
 * verbs then requires a C-VLAN tag, so the rule belongs before the VLAN
 * guard.  Every other rule matches tagged and untagged packets alike and
 * relies on the guard to keep tagged packets away from it. */
bool hw_rule_is_tagged(const struct hw_rule *);

/* Verbs priority of 'rule', from the bands above. */
uint16_t hw_rule_priority(const struct hw_rule *);

/* The RSS QP type that fits what 'rule' delivers (HW_RSS_IPV4 when it
 * matches no IP header): the inner headers of a rule that decapsulates, the
 * outer ones otherwise. */
enum hw_rss_type hw_rule_rss_type(const struct hw_rule *);

/* Returns true if some packet could match both 'a' and 'b' (one layer of
 * headers each), false if their matches are disjoint.  Header presence
 * counts: an IPv4 spec and an IPv6 spec never match one packet, nor do a TCP
 * spec and a protocol-17 match. */
bool hw_headers_overlap(const struct hw_headers *a,
                        const struct hw_headers *b);

/* Returns true if some packet could match both rules: their outer headers,
 * and their tunnels and inner headers when both have a tunnel. */
bool hw_rule_overlaps(const struct hw_rule *a, const struct hw_rule *b);

#endif /* hw-rule.h */
