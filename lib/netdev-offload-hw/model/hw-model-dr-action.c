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

/* The actions of the model's pipeline and their DevX flow counters: the
 * checks mlx5dv_dr_action_create_*() make, the action-order state machine
 * a rule's actions go through, and the modify-header fields. */

#include <config.h>
#include "hw-model-dr.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "hw-model-dr-private.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "unaligned.h"
#include "util.h"

const char *const dr_domain_names[HW_DR_N_DOMAINS] = {
    "nic_rx", "nic_tx", "fdb"
};

const char *
dr_action_name(enum hw_dr_action_type type)
{
    static const char *const names[HW_DR_N_ACTIONS] = {
        [HW_DR_ACTION_DROP] = "drop",
        [HW_DR_ACTION_DEFAULT_MISS] = "default_miss",
        [HW_DR_ACTION_TAG] = "tag",
        [HW_DR_ACTION_DEST_QP] = "dest_qp",
        [HW_DR_ACTION_DEST_TABLE] = "dest_table",
        [HW_DR_ACTION_DEST_VPORT] = "dest_vport",
        [HW_DR_ACTION_DEST_ARRAY] = "dest_array",
        [HW_DR_ACTION_COUNTER] = "counter",
        [HW_DR_ACTION_REFORMAT] = "reformat",
        [HW_DR_ACTION_MODIFY_HEADER] = "modify_header",
        [HW_DR_ACTION_PUSH_VLAN] = "push_vlan",
        [HW_DR_ACTION_POP_VLAN] = "pop_vlan",
        [HW_DR_ACTION_FLOW_METER] = "flow_meter",
    };

    return (unsigned int) type < HW_DR_N_ACTIONS ? names[type] : "unknown";
}

/* Actions: the action-order state machine (dr_action.c
 * next_action_state), written as rules rather than as libmlx5's table.
 *
 * A rule's actions go through the stages decap, pop VLAN, modify header,
 * push VLAN, encap, each reached at most from an earlier one (pop and push
 * may repeat; on NIC RX a push may not follow a pop), then one terminal
 * action.  DROP and DEFAULT_MISS end a rule that changed no header; a
 * destination (table, QP, vport, array) may end any.  A tag (NIC RX only)
 * may come anywhere before the terminal, a counter anywhere.  Decap exists
 * only where packets come from the wire (NIC RX, the FDB's receive side),
 * QP and tag only on NIC RX, vport only in the FDB, an array on NIC RX and
 * in the FDB.  The FDB checks a rule for both of its sides, receive (from
 * the uplink) and transmit (from the vports), except for a side that its
 * source port match excludes. */

enum dr_side {
    DR_SIDE_NIC_RX,
    DR_SIDE_NIC_TX,
    DR_SIDE_FDB_RX,
    DR_SIDE_FDB_TX,
};

enum dr_state {
    DR_STATE_NONE,              /* No action yet, or only tags/counters. */
    DR_STATE_DECAP,
    DR_STATE_POP,
    DR_STATE_MODIFY,
    DR_STATE_PUSH,
    DR_STATE_ENCAP,
    DR_STATE_TERM,
};

/* libmlx5's action types, which tell the reformat types apart. */
enum dr_typ {
    DR_TYP_DROP,
    DR_TYP_MISS,
    DR_TYP_TAG,
    DR_TYP_QP,
    DR_TYP_FT,
    DR_TYP_VPORT,
    DR_TYP_ARRAY,
    DR_TYP_CTR,
    DR_TYP_DECAP_L2,
    DR_TYP_DECAP_L3,
    DR_TYP_ENCAP_L2,
    DR_TYP_ENCAP_L3,
    DR_TYP_MODIFY,
    DR_TYP_PUSH,
    DR_TYP_POP,
    DR_TYP_METER,
    DR_N_TYPS
};

static enum dr_typ
dr_typ(const struct dr_action *a)
{
    switch (a->type) {
    case HW_DR_ACTION_DROP:
        return DR_TYP_DROP;
    case HW_DR_ACTION_DEFAULT_MISS:
        return DR_TYP_MISS;
    case HW_DR_ACTION_TAG:
        return DR_TYP_TAG;
    case HW_DR_ACTION_DEST_QP:
        return DR_TYP_QP;
    case HW_DR_ACTION_DEST_TABLE:
        return DR_TYP_FT;
    case HW_DR_ACTION_DEST_VPORT:
        return DR_TYP_VPORT;
    case HW_DR_ACTION_DEST_ARRAY:
        return DR_TYP_ARRAY;
    case HW_DR_ACTION_COUNTER:
        return DR_TYP_CTR;
    case HW_DR_ACTION_MODIFY_HEADER:
        return DR_TYP_MODIFY;
    case HW_DR_ACTION_PUSH_VLAN:
        return DR_TYP_PUSH;
    case HW_DR_ACTION_POP_VLAN:
        return DR_TYP_POP;
    case HW_DR_ACTION_FLOW_METER:
        return DR_TYP_METER;
    case HW_DR_ACTION_REFORMAT:
        switch (a->reformat.type) {
        case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2:
            return DR_TYP_DECAP_L2;
        case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2:
            return DR_TYP_DECAP_L3;
        case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL:
            return DR_TYP_ENCAP_L2;
        case MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL:
        default:
            return DR_TYP_ENCAP_L3;
        }
    case HW_DR_N_ACTIONS:
    default:
        OVS_NOT_REACHED();
    }
}

int
dr_action_stage(const struct dr_action *a)
{
    switch (dr_typ(a)) {
    case DR_TYP_DECAP_L2:
    case DR_TYP_DECAP_L3:
        return DR_STATE_DECAP;
    case DR_TYP_POP:
        return DR_STATE_POP;
    case DR_TYP_MODIFY:
        return DR_STATE_MODIFY;
    case DR_TYP_PUSH:
        return DR_STATE_PUSH;
    case DR_TYP_ENCAP_L2:
    case DR_TYP_ENCAP_L3:
        return DR_STATE_ENCAP;
    case DR_TYP_TAG:
    case DR_TYP_CTR:
        return DR_STATE_ENCAP + 1;
    case DR_TYP_DROP:
    case DR_TYP_MISS:
    case DR_TYP_QP:
    case DR_TYP_FT:
    case DR_TYP_METER:
    case DR_TYP_VPORT:
    case DR_TYP_ARRAY:
    case DR_N_TYPS:
    default:
        return DR_STATE_TERM + 1;
    }
}

/* Returns the state after 'typ' in 'state' on 'side', or -1 if the
 * sequence is invalid. */
static int
dr_next_state(enum dr_side side, enum dr_state state, enum dr_typ typ)
{
    bool nic_rx = side == DR_SIDE_NIC_RX;
    bool fdb = side == DR_SIDE_FDB_RX || side == DR_SIDE_FDB_TX;
    bool from_wire = nic_rx || side == DR_SIDE_FDB_RX;

    if (state == DR_STATE_TERM) {
        return typ == DR_TYP_CTR ? DR_STATE_TERM : -1;
    }
    switch (typ) {
    case DR_TYP_CTR:
        return state;
    case DR_TYP_TAG:
        return nic_rx ? (int) state : -1;
    case DR_TYP_DROP:
    case DR_TYP_MISS:
        return state == DR_STATE_NONE ? DR_STATE_TERM : -1;
    case DR_TYP_FT:
    case DR_TYP_METER:
        return DR_STATE_TERM;
    case DR_TYP_QP:
        return nic_rx ? DR_STATE_TERM : -1;
    case DR_TYP_VPORT:
        return fdb ? DR_STATE_TERM : -1;
    case DR_TYP_ARRAY:
        return nic_rx || fdb ? DR_STATE_TERM : -1;
    case DR_TYP_DECAP_L2:
    case DR_TYP_DECAP_L3:
        return from_wire && state == DR_STATE_NONE ? DR_STATE_DECAP : -1;
    case DR_TYP_POP:
        return state <= DR_STATE_POP ? DR_STATE_POP : -1;
    case DR_TYP_MODIFY:
        return state < DR_STATE_MODIFY ? DR_STATE_MODIFY : -1;
    case DR_TYP_PUSH:
        if (nic_rx && state == DR_STATE_POP) {
            return -1;
        }
        return state <= DR_STATE_PUSH ? DR_STATE_PUSH : -1;
    case DR_TYP_ENCAP_L2:
    case DR_TYP_ENCAP_L3:
        return state < DR_STATE_ENCAP ? DR_STATE_ENCAP : -1;
    case DR_N_TYPS:
    default:
        return -1;
    }
}

static const char *const dr_side_names[] = {
    "NIC RX", "NIC TX", "FDB receive side", "FDB transmit side"
};

/* dr_actions_build_ste_arr(): the checks of a software-steered rule's
 * actions on one side. */
static int
dr_check_actions_side(struct hw_model_dr *dr, const struct dr_matcher *m,
                      enum dr_side side, size_t n, struct dr_action **actions)
{
    const struct dr_domain *domain = m->table->domain;
    uint8_t count[DR_N_TYPS] = { 0 };
    int state = DR_STATE_NONE;

    for (size_t i = 0; i < n; i++) {
        const struct dr_action *a = actions[i];
        enum dr_typ typ = dr_typ(a);
        int max = 1;

        switch (a->type) {
        case HW_DR_ACTION_DEST_TABLE:
            if (a->table->domain != domain) {
                return dr_reject(dr, EINVAL, "dr_rule_create: action %"
                                 PRIuSIZE": table %"PRIu32" of another "
                                 "domain", i, a->table->obj.handle);
            }
            if (a->table->level <= m->table->level) {
                return dr_reject(dr, EINVAL, "dr_rule_create: action %"
                                 PRIuSIZE": jump from level %"PRIu32" to "
                                 "level %"PRIu32" (must go deeper)", i,
                                 m->table->level, a->table->level);
            }
            break;
        case HW_DR_ACTION_FLOW_METER:
            if (a->meter.next_table->domain != domain) {
                return dr_reject(dr, EINVAL, "dr_rule_create: action %"
                                 PRIuSIZE": meter to a table of another "
                                 "domain", i);
            }
            if (a->meter.next_table->level <= m->table->level) {
                return dr_reject(dr, EINVAL, "dr_rule_create: action %"
                                 PRIuSIZE": meter from level %"PRIu32" to "
                                 "level %"PRIu32" (must go deeper)", i,
                                 m->table->level,
                                 a->meter.next_table->level);
            }
            break;
        case HW_DR_ACTION_DEST_VPORT:
        case HW_DR_ACTION_DEST_ARRAY:
            if (a->domain != domain) {
                return dr_reject(dr, EINVAL, "dr_rule_create: action %"
                                 PRIuSIZE": %s of another domain", i,
                                 dr_action_name(a->type));
            }
            break;
        case HW_DR_ACTION_PUSH_VLAN:
            if (count[typ] == 2) {
                return dr_reject(dr, EOPNOTSUPP, "dr_rule_create: action %"
                                 PRIuSIZE": third VLAN push", i);
            }
            max = 2;
            break;
        case HW_DR_ACTION_POP_VLAN:
            max = 2;
            break;
        case HW_DR_ACTION_DROP:
        case HW_DR_ACTION_DEFAULT_MISS:
        case HW_DR_ACTION_TAG:
        case HW_DR_ACTION_DEST_QP:
        case HW_DR_ACTION_COUNTER:
        case HW_DR_ACTION_REFORMAT:
        case HW_DR_ACTION_MODIFY_HEADER:
        case HW_DR_N_ACTIONS:
        default:
            break;
        }
        if (++count[typ] > max) {
            return dr_reject(dr, EINVAL, "dr_rule_create: action %"PRIuSIZE
                             ": %s more than %d time%s", i,
                             dr_action_name(a->type), max,
                             max > 1 ? "s" : "");
        }
        state = dr_next_state(side, state, typ);
        if (state < 0) {
            return dr_reject(dr, EOPNOTSUPP, "dr_rule_create: action %"
                             PRIuSIZE": %s out of order or not valid on "
                             "the %s", i, dr_action_name(a->type),
                             dr_side_names[side]);
        }
    }
    return 0;
}

/* dr_actions_build_attr() and the kernel: the checks of a root rule's
 * actions. */
int
dr_check_actions_root(struct hw_model_dr *dr, const struct dr_matcher *m,
                      size_t n, struct dr_action **actions)
{
    const struct dr_domain *domain = m->table->domain;
    uint32_t valid = dr->caps.dr_actions[domain->type];
    uint8_t count[DR_N_TYPS] = { 0 };

    for (size_t i = 0; i < n; i++) {
        const struct dr_action *a = actions[i];

        if ((a->type == HW_DR_ACTION_DEST_TABLE && a->table->domain != domain)
            || (a->type == HW_DR_ACTION_DEST_ARRAY && a->domain != domain)) {
            return dr_reject(dr, EINVAL, "dr_rule_create: action %"PRIuSIZE
                             ": %s of another domain", i,
                             dr_action_name(a->type));
        }
        if (a->type == HW_DR_ACTION_PUSH_VLAN
            || a->type == HW_DR_ACTION_POP_VLAN
            || a->type == HW_DR_ACTION_DEST_VPORT
            || a->type == HW_DR_ACTION_FLOW_METER) {
            return dr_reject(dr, EOPNOTSUPP, "dr_rule_create: action %"
                             PRIuSIZE": %s in a root table", i,
                             dr_action_name(a->type));
        }
    }
    for (size_t i = 0; i < n; i++) {
        const struct dr_action *a = actions[i];
        enum dr_typ typ = dr_typ(a);

        if (!(valid & (1u << a->type))) {
            return dr_reject(dr, EOPNOTSUPP, "dr_rule_create: action %"
                             PRIuSIZE": %s in a %s root table", i,
                             dr_action_name(a->type),
                             dr_domain_names[domain->type]);
        }
        if (++count[typ] > 1) {
            return dr_reject(dr, EINVAL, "dr_rule_create: action %"PRIuSIZE
                             ": second %s", i, dr_action_name(a->type));
        }
    }
    if (count[DR_TYP_DROP] && count[DR_TYP_MISS]) {
        return dr_reject(dr, EINVAL, "dr_rule_create: DROP with "
                         "DEFAULT_MISS");
    }
    return 0;
}

/* The checks of a software-steered rule's actions, 'value' being the
 * rule's match bytes. */
int
dr_check_actions(struct hw_model_dr *dr, const struct dr_matcher *m,
                 const uint8_t *value, size_t n, struct dr_action **actions)
{
    const struct dr_table *table = m->table;
    int error;

    if (table->domain->type == MLX5DV_DR_DOMAIN_TYPE_FDB) {
        /* dr_rule_skip(): a source port match makes the rule one side's. */
        bool by_port = dr_match_get16(m->mask + DR_MISC
                                      + DR_MISC_SOURCE_PORT) != 0;
        bool wire = (dr_match_get16(value + DR_MISC + DR_MISC_SOURCE_PORT)
                     == HW_MODEL_DR_WIRE_VPORT);

        if (!by_port || wire) {
            error = dr_check_actions_side(dr, m, DR_SIDE_FDB_RX, n, actions);
            if (error) {
                return error;
            }
        }
        if (!by_port || !wire) {
            return dr_check_actions_side(dr, m, DR_SIDE_FDB_TX, n, actions);
        }
        return 0;
    }
    return dr_check_actions_side(dr, m, (table->domain->type
                                         == MLX5DV_DR_DOMAIN_TYPE_NIC_RX
                                         ? DR_SIDE_NIC_RX : DR_SIDE_NIC_TX),
                                 n, actions);
}

/* Modify-header field ids (hw-apis.md 3.2) that rdma-core 44's STE v1
 * converts, with their widths.  REG_C_6 and REG_C_7 are not among them. */
const struct dr_field *
dr_field_lookup(uint16_t id)
{
    static const struct dr_field fields[0x74] = {
        [0x01] = { 32, DR_FIELD_L2, 0, 0 },     /* SMAC_47_16 */
        [0x02] = { 16, DR_FIELD_L2, 0, 0 },     /* SMAC_15_0 */
        [0x03] = { 16, DR_FIELD_L2, 0, 0 },     /* ETHERTYPE */
        [0x04] = { 32, DR_FIELD_L2, 0, 0 },     /* DMAC_47_16 */
        [0x05] = { 16, DR_FIELD_L2, 0, 0 },     /* DMAC_15_0 */
        [0x06] = { 6, DR_FIELD_IP, 0, 0 },      /* IP_DSCP */
        [0x07] = { 9, DR_FIELD_TCP, 0, IPPROTO_TCP },   /* TCP_FLAGS */
        [0x08] = { 16, DR_FIELD_TCP, 0, IPPROTO_TCP },  /* TCP_SPORT */
        [0x09] = { 16, DR_FIELD_TCP, 0, IPPROTO_TCP },  /* TCP_DPORT */
        [0x0a] = { 8, DR_FIELD_IPV4, 4, 0 },    /* IPV4_TTL */
        [0x0b] = { 16, DR_FIELD_UDP, 0, IPPROTO_UDP },  /* UDP_SPORT */
        [0x0c] = { 16, DR_FIELD_UDP, 0, IPPROTO_UDP },  /* UDP_DPORT */
        [0x0d] = { 32, DR_FIELD_IPV6, 6, 0 },   /* SIPV6_127_96 */
        [0x0e] = { 32, DR_FIELD_IPV6, 6, 0 },
        [0x0f] = { 32, DR_FIELD_IPV6, 6, 0 },
        [0x10] = { 32, DR_FIELD_IPV6, 6, 0 },   /* SIPV6_31_0 */
        [0x11] = { 32, DR_FIELD_IPV6, 6, 0 },   /* DIPV6_127_96 */
        [0x12] = { 32, DR_FIELD_IPV6, 6, 0 },
        [0x13] = { 32, DR_FIELD_IPV6, 6, 0 },
        [0x14] = { 32, DR_FIELD_IPV6, 6, 0 },   /* DIPV6_31_0 */
        [0x15] = { 32, DR_FIELD_IPV4, 4, 0 },   /* SIPV4 */
        [0x16] = { 32, DR_FIELD_IPV4, 4, 0 },   /* DIPV4 */
        [0x17] = { 16, DR_FIELD_VLAN, 0, 0 },   /* FIRST_VID */
        [0x47] = { 8, DR_FIELD_IPV6, 6, 0 },    /* IPV6_HOPLIMIT */
        [0x49] = { 32, DR_FIELD_META, 0, 0 },   /* REG_A */
        [0x50] = { 32, DR_FIELD_META, 0, 0 },   /* REG_B */
        [0x51] = { 32, DR_FIELD_META, 0, 0 },   /* REG_C_0 */
        [0x52] = { 32, DR_FIELD_META, 0, 0 },
        [0x53] = { 32, DR_FIELD_META, 0, 0 },
        [0x54] = { 32, DR_FIELD_META, 0, 0 },
        [0x55] = { 32, DR_FIELD_META, 0, 0 },
        [0x56] = { 32, DR_FIELD_META, 0, 0 },   /* REG_C_5 */
        [0x59] = { 32, DR_FIELD_TCP, 0, 0 },    /* TCP_SEQ_NUM */
        [0x5b] = { 32, DR_FIELD_TCP, 0, 0 },    /* TCP_ACK_NUM */
        [0x73] = { 2, DR_FIELD_IP, 0, 0 },      /* IP_ECN */
    };

    return id < ARRAY_SIZE(fields) && fields[id].width ? &fields[id] : NULL;
}

#define DR_FIELD_REG_A 0x49
#define DR_FIELD_REG_B 0x50

/* dr_actions_convert_modify_header(): the checks of one command, 'word'
 * (its first 32 bits) and 'dst' (COPY's second 32 bits); updates the
 * L3 and L4 types the list modifies. */
static int
dr_check_modify_command(struct hw_model_dr *dr, enum mlx5dv_dr_domain_type
                        type, size_t i, uint32_t word, uint32_t dst,
                        uint8_t *l3_type, uint8_t *l4_type)
{
    unsigned int op = word >> 28;
    uint16_t field = (word >> 16) & 0xfff;
    unsigned int offset = (word >> 8) & 0x1f;
    unsigned int length = (word & 0x1f) ? (word & 0x1f) : 32;
    uint16_t dst_field = (dst >> 16) & 0xfff;
    unsigned int dst_offset = (dst >> 8) & 0x1f;
    const struct dr_field *f, *df;

    if (op != DR_MODIFY_SET && op != DR_MODIFY_ADD && op != DR_MODIFY_COPY) {
        return dr_reject(dr, EOPNOTSUPP, "dr_action_create: modify "
                         "command %"PRIuSIZE": type %u", i, op);
    }
    /* Field limitations: REG_A only on NIC TX, REG_B only on NIC RX, ADD
     * only on TTL, hop limit and TCP sequence numbers. */
    for (int j = 0; j < (op == DR_MODIFY_COPY ? 2 : 1); j++) {
        uint16_t id = j ? dst_field : field;

        if ((op == DR_MODIFY_SET || op == DR_MODIFY_COPY)
            && ((id == DR_FIELD_REG_A
                 && type != MLX5DV_DR_DOMAIN_TYPE_NIC_TX)
                || (id == DR_FIELD_REG_B
                    && type != MLX5DV_DR_DOMAIN_TYPE_NIC_RX))) {
            return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                             PRIuSIZE": field %#x in a %s domain", i, id,
                             dr_domain_names[type]);
        }
    }
    if (op == DR_MODIFY_ADD && field != 0x0a && field != 0x47
        && field != 0x59 && field != 0x5b) {
        return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                         PRIuSIZE": ADD to field %#x", i, field);
    }

    f = dr_field_lookup(field);
    df = op == DR_MODIFY_COPY ? dr_field_lookup(dst_field) : f;
    if (!f || !df) {
        return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                         PRIuSIZE": unknown field %#x", i, f ? dst_field
                         : field);
    }
    if (op == DR_MODIFY_SET && offset + length > f->width) {
        return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                         PRIuSIZE": bits %u..%u of the %u-bit field %#x", i,
                         offset, offset + length - 1, f->width, field);
    }
    if (op == DR_MODIFY_COPY && (offset + length > f->width
                                 || dst_offset + length > df->width)) {
        return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                         PRIuSIZE": %u bits do not fit", i, length);
    }

    /* The hardware modifies one L3 and one L4 type per list. */
    if (df->l3_type) {
        if (*l3_type && *l3_type != df->l3_type) {
            return dr_reject(dr, EOPNOTSUPP, "dr_action_create: modify "
                             "command %"PRIuSIZE": IPv4 and IPv6 fields", i);
        }
        *l3_type = df->l3_type;
    }
    if (df->l4_type) {
        if (*l4_type && *l4_type != df->l4_type) {
            return dr_reject(dr, EINVAL, "dr_action_create: modify command %"
                             PRIuSIZE": TCP and UDP fields", i);
        }
        *l4_type = df->l4_type;
    }
    return 0;
}

static int
dr_check_modify(struct hw_model_dr *dr, enum mlx5dv_dr_domain_type type,
                size_t size, const ovs_be64 *commands)
{
    uint8_t l3_type = 0, l4_type = 0;
    size_t n = size / 8;

    if (!size || size % 8) {
        return dr_reject(dr, EINVAL, "dr_action_create: %"PRIuSIZE"-byte "
                         "modify-header buffer (a non-zero multiple of 8)",
                         size);
    }
    if (!commands) {
        return dr_reject(dr, EINVAL, "dr_action_create: no modify-header "
                         "commands");
    }
    if (n > dr->caps.dr_max_modify) {
        return dr_reject(dr, EOPNOTSUPP, "dr_action_create: %"PRIuSIZE
                         " modify-header commands, at most %"PRIu32, n,
                         dr->caps.dr_max_modify);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t cmd = ntohll(get_unaligned_be64(&commands[i]));
        int error = dr_check_modify_command(dr, type, i, cmd >> 32, cmd,
                                            &l3_type, &l4_type);
        if (error) {
            return error;
        }
    }
    return 0;
}

static int
dr_check_reformat(struct hw_model_dr *dr, const struct dr_domain *domain,
                  const struct hw_dr_action_attr *attr)
{
    enum mlx5dv_flow_action_packet_reformat_type type = attr->reformat.type;
    bool decap = (type
                  == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2
                  || type
                  == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2);
    size_t size = attr->reformat.size;

    if ((attr->reformat.data == NULL) != (size == 0)
        || (unsigned int) type
           > MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL) {
        return dr_reject(dr, EINVAL, "dr_action_create: reformat type %d "
                         "with %"PRIuSIZE" bytes of data %s", (int) type,
                         size, attr->reformat.data ? "given" : "missing");
    }
    if ((domain->type == MLX5DV_DR_DOMAIN_TYPE_NIC_RX && !decap)
        || (domain->type == MLX5DV_DR_DOMAIN_TYPE_NIC_TX && decap)) {
        return dr_reject(dr, EINVAL, "dr_action_create: %s reformat in a "
                         "%s domain", decap ? "decap" : "encap",
                         dr_domain_names[domain->type]);
    }
    if (type == MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2
        && size != ETH_HEADER_LEN
        && size != ETH_HEADER_LEN + VLAN_HEADER_LEN) {
        return dr_reject(dr, EINVAL, "dr_action_create: L3 decap needs a 14 "
                         "or 18-byte L2 header, not %"PRIuSIZE, size);
    }
    if (!decap && (!size || size > dr->caps.max_encap_header)) {
        return dr_reject(dr, EINVAL, "dr_action_create: %"PRIuSIZE"-byte "
                         "encap header (1 to %"PRIu32")", size,
                         dr->caps.max_encap_header);
    }
    return 0;
}

/* The dests of a DEST_ARRAY (dr_action_create_dest_array_tbl()), looked up
 * into 'dests'. */
static int
dr_check_array(struct hw_model_dr *dr, const struct dr_domain *domain,
               const struct hw_dr_action_attr *attr, struct dr_dest *dests)
{
    if (attr->array.n <= 1) {
        return dr_reject(dr, EINVAL, "dr_action_create: array of %"PRIuSIZE
                         " destinations", attr->array.n);
    }
    if (domain->type == MLX5DV_DR_DOMAIN_TYPE_NIC_TX) {
        return dr_reject(dr, EOPNOTSUPP, "dr_action_create: array in a "
                         "nic_tx domain");
    }
    for (size_t i = 0; i < attr->array.n; i++) {
        const struct mlx5dv_dr_action_dest_attr *d = attr->array.dests[i];
        const void *dest, *reformat = NULL;
        struct dr_action *a;

        if (!d || (d->type != MLX5DV_DR_ACTION_DEST
                   && d->type != MLX5DV_DR_ACTION_DEST_REFORMAT)) {
            return dr_reject(dr, EINVAL, "dr_action_create: array "
                             "destination %"PRIuSIZE": bad type", i);
        }
        if (d->type == MLX5DV_DR_ACTION_DEST) {
            dest = d->dest;
        } else {
            dest = d->dest_reformat ? d->dest_reformat->dest : NULL;
            reformat = d->dest_reformat ? d->dest_reformat->reformat : NULL;
        }
        a = dr_find(dr, dest, DR_ACTION);
        if (!a) {
            return dr_reject(dr, EINVAL, "dr_action_create: array "
                             "destination %"PRIuSIZE": unknown action", i);
        }
        if (a->type != HW_DR_ACTION_DEFAULT_MISS
            && a->type != HW_DR_ACTION_DEST_VPORT
            && a->type != HW_DR_ACTION_DEST_QP
            && a->type != HW_DR_ACTION_COUNTER
            && a->type != HW_DR_ACTION_DEST_TABLE) {
            return dr_reject(dr, EOPNOTSUPP, "dr_action_create: array "
                             "destination %"PRIuSIZE": %s", i,
                             dr_action_name(a->type));
        }
        dests[i].dest = a;
        dests[i].reformat = NULL;
        if (d->type == MLX5DV_DR_ACTION_DEST_REFORMAT) {
            a = dr_find(dr, reformat, DR_ACTION);
            if (!a || a->type != HW_DR_ACTION_REFORMAT) {
                return dr_reject(dr, EINVAL, "dr_action_create: array "
                                 "destination %"PRIuSIZE": not a reformat",
                                 i);
            }
            dests[i].reformat = a;
        }
    }
    return 0;
}

/* Checks 'attr' for an action on 'domain' and fills in 'a' (whose 'dests'
 * the caller frees on error). */
static int
dr_action_init(struct hw_model_dr *dr, struct dr_domain *domain,
               const struct hw_dr_action_attr *attr, struct dr_action *a)
{
    a->type = attr->type;
    switch (attr->type) {
    case HW_DR_ACTION_DROP:
    case HW_DR_ACTION_DEFAULT_MISS:
    case HW_DR_ACTION_POP_VLAN:
        return 0;

    case HW_DR_ACTION_TAG:
        /* libmlx5 keeps the low 24 bits. */
        a->tag = attr->tag & 0xffffff;
        return 0;

    case HW_DR_ACTION_DEST_QP:
        if (hw_model_dr_qp_ref(dr->ctx, attr->qp, 0)) {
            return dr_reject(dr, EINVAL, "dr_action_create: unknown QP");
        }
        if (attr->qp->qp_type != IBV_QPT_RAW_PACKET) {
            return dr_reject(dr, EINVAL, "dr_action_create: QP type %d, not "
                             "RAW_PACKET", (int) attr->qp->qp_type);
        }
        a->qp = attr->qp;
        return 0;

    case HW_DR_ACTION_DEST_TABLE:
        a->table = dr_find(dr, attr->table, DR_TABLE);
        if (!a->table) {
            return dr_reject(dr, EINVAL, "dr_action_create: unknown table");
        }
        if (!a->table->level) {
            return dr_reject(dr, EINVAL, "dr_action_create: a root table "
                             "cannot be a destination");
        }
        return 0;

    case HW_DR_ACTION_DEST_VPORT:
        if (domain->type != MLX5DV_DR_DOMAIN_TYPE_FDB) {
            return dr_reject(dr, EOPNOTSUPP, "dr_action_create: vport in a "
                             "%s domain", dr_domain_names[domain->type]);
        }
        if (attr->vport != 0 && attr->vport != HW_MODEL_DR_WIRE_VPORT
            && attr->vport > dr->n_vfs) {
            return dr_reject(dr, EINVAL, "dr_action_create: no vport %"
                             PRIu32, attr->vport);
        }
        a->domain = domain;
        a->vport = attr->vport;
        return 0;

    case HW_DR_ACTION_DEST_ARRAY:
        a->array.dests = xcalloc(MAX(attr->array.n, 1),
                                 sizeof *a->array.dests);
        a->array.n = attr->array.n;
        return dr_check_array(dr, domain, attr, a->array.dests);

    case HW_DR_ACTION_COUNTER:
        a->counter = dr_find(dr, attr->counter.obj, DR_COUNTER);
        if (!a->counter) {
            return dr_reject(dr, EINVAL, "dr_action_create: not a flow "
                             "counter");
        }
        if (attr->counter.offset) {
            return dr_reject(dr, EINVAL, "dr_action_create: counter offset "
                             "%"PRIu32" in a single counter",
                             attr->counter.offset);
        }
        return 0;

    case HW_DR_ACTION_REFORMAT:
        return dr_check_reformat(dr, domain, attr);

    case HW_DR_ACTION_MODIFY_HEADER:
        return dr_check_modify(dr, domain->type, attr->modify.size,
                               attr->modify.commands);

    case HW_DR_ACTION_PUSH_VLAN: {
        uint16_t tpid = ntohl(attr->vlan_hdr) >> 16;

        if (tpid != ETH_TYPE_VLAN_8021Q && tpid != ETH_TYPE_VLAN_8021AD) {
            return dr_reject(dr, EINVAL, "dr_action_create: VLAN ethertype "
                             "%#"PRIx16, tpid);
        }
        a->vlan_hdr = ntohl(attr->vlan_hdr);
        return 0;
    }

    case HW_DR_ACTION_FLOW_METER:
        return dr_meter_init(dr, domain, attr, a);

    case HW_DR_N_ACTIONS:
    default:
        return dr_reject(dr, EINVAL, "dr_action_create: action type %d",
                         (int) attr->type);
    }
}

/* Takes (delta 1) or releases (delta -1) what 'a' refers to. */
static void
dr_action_hold(struct hw_model_dr *dr, struct dr_action *a, int delta)
{
    switch (a->type) {
    case HW_DR_ACTION_DEST_QP:
        ovs_assert(!hw_model_dr_qp_ref(dr->ctx, a->qp, delta));
        break;
    case HW_DR_ACTION_DEST_TABLE:
        a->table->obj.users += delta;
        break;
    case HW_DR_ACTION_COUNTER:
        a->counter->obj.users += delta;
        break;
    case HW_DR_ACTION_FLOW_METER:
        a->meter.next_table->obj.users += delta;
        dr->n_meters += delta;
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        for (size_t i = 0; i < a->array.n; i++) {
            a->array.dests[i].dest->obj.users += delta;
            if (a->array.dests[i].reformat) {
                a->array.dests[i].reformat->obj.users += delta;
            }
        }
        a->domain->obj.users += delta;
        break;
    case HW_DR_ACTION_REFORMAT:
    case HW_DR_ACTION_MODIFY_HEADER:
        a->domain->obj.users += delta;
        break;
    case HW_DR_ACTION_DROP:
    case HW_DR_ACTION_DEFAULT_MISS:
    case HW_DR_ACTION_TAG:
    case HW_DR_ACTION_DEST_VPORT:
    case HW_DR_ACTION_PUSH_VLAN:
    case HW_DR_ACTION_POP_VLAN:
    case HW_DR_N_ACTIONS:
    default:
        break;
    }
}

static void
dr_action_free(struct dr_action *a)
{
    if (a->type == HW_DR_ACTION_DEST_ARRAY) {
        free(a->array.dests);
    } else if (a->type == HW_DR_ACTION_REFORMAT) {
        free(a->reformat.data);
    } else if (a->type == HW_DR_ACTION_MODIFY_HEADER) {
        free(a->modify.commands);
    }
    free(a);
}

int
hw_model_dr_action_create(struct mlx5dv_dr_domain *domain_,
                          const struct hw_dr_action_attr *attr,
                          struct mlx5dv_dr_action **actionp)
{
    struct dr_domain *domain;
    struct hw_model_dr *dr;
    struct dr_action *a;
    int error;

    *actionp = NULL;
    if (!attr) {
        return EINVAL;
    }
    domain = dr_enter(domain_, HW_MODEL_DR_ACTION_CREATE, DR_DOMAIN, &dr,
                      &error);
    if (!domain) {
        goto out;
    }
    a = xzalloc(sizeof *a);
    error = dr_action_init(dr, domain, attr, a);
    if (error) {
        dr_action_free(a);
        goto out;
    }
    if (a->type == HW_DR_ACTION_REFORMAT) {
        a->reformat.type = attr->reformat.type;
        a->reformat.size = attr->reformat.size;
        a->reformat.data = (attr->reformat.size
                            ? xmemdup(attr->reformat.data,
                                      attr->reformat.size)
                            : NULL);
    } else if (a->type == HW_DR_ACTION_MODIFY_HEADER) {
        a->modify.n = attr->modify.size / 8;
        a->modify.commands = xmemdup(attr->modify.commands,
                                     attr->modify.size);
    }
    if (a->type == HW_DR_ACTION_REFORMAT
        || a->type == HW_DR_ACTION_MODIFY_HEADER
        || a->type == HW_DR_ACTION_DEST_ARRAY) {
        a->domain = domain;
    }
    dr_action_hold(dr, a, 1);
    dr_obj_add(dr, &a->obj, DR_ACTION);
    *actionp = (struct mlx5dv_dr_action *) a;
out:
    dr_leave(dr);
    return error;
}

int
hw_model_dr_action_destroy(struct mlx5dv_dr_action *action_)
{
    struct hw_model_dr *dr;
    struct dr_action *a;
    int error;

    a = dr_enter_destroy(action_, HW_MODEL_DR_ACTION_DESTROY, DR_ACTION, &dr,
                         &error);
    if (a) {
        dr_action_hold(dr, a, -1);
        dr_obj_remove(dr, &a->obj);
        dr_action_free(a);
    }
    dr_leave(dr);
    return error;
}

/* DevX flow counters. */

int
hw_model_dr_counter_create(struct ibv_context *ctx,
                           struct mlx5dv_devx_obj **objp)
{
    struct dr_counter *counter;
    struct hw_model_dr *dr;
    int error;

    *objp = NULL;
    dr = hw_model_dr_lock(ctx, HW_MODEL_DR_COUNTER_CREATE, &error);
    if (!error) {
        counter = xzalloc(sizeof *counter);
        dr_obj_add(dr, &counter->obj, DR_COUNTER);
        *objp = (struct mlx5dv_devx_obj *) counter;
    }
    hw_model_dr_unlock(ctx);
    return error;
}

int
hw_model_dr_counter_query(struct mlx5dv_devx_obj *obj, uint64_t *packets,
                          uint64_t *bytes)
{
    struct dr_counter *counter;
    struct hw_model_dr *dr;
    int error;

    counter = dr_enter(obj, HW_MODEL_DR_COUNTER_QUERY, DR_COUNTER, &dr,
                       &error);
    *packets = counter ? counter->packets : 0;
    *bytes = counter ? counter->bytes : 0;
    dr_leave(dr);
    return error;
}

int
hw_model_dr_counter_destroy(struct mlx5dv_devx_obj *obj)
{
    struct dr_counter *counter;
    struct hw_model_dr *dr;
    int error;

    counter = dr_enter_destroy(obj, HW_MODEL_DR_COUNTER_DESTROY, DR_COUNTER,
                               &dr, &error);
    if (counter) {
        dr_obj_remove(dr, &counter->obj);
        free(counter);
    }
    dr_leave(dr);
    return error;
}

/* The Geneve TLV option object. */

int
hw_model_dr_geneve_opt_create(struct ibv_context *ctx, ovs_be16 opt_class,
                              uint8_t type, uint8_t len,
                              struct mlx5dv_devx_obj **objp)
{
    struct dr_geneve_opt *opt;
    struct hw_model_dr *dr;
    int error;

    *objp = NULL;
    dr = hw_model_dr_lock(ctx, HW_MODEL_DR_GENEVE_OPT_CREATE, &error);
    if (!error && !(dr->caps.dr_parse & HW_DR_PARSE_GENEVE_OPT)) {
        error = dr_reject(dr, EOPNOTSUPP, "dr_geneve_opt_create: the "
                          "parser has no Geneve option");
    } else if (!error && (!len || len > 31)) {
        error = dr_reject(dr, EINVAL, "dr_geneve_opt_create: option length "
                          "%"PRIu8" words (1 to 31)", len);
    } else if (!error && dr->geneve_opt) {
        error = dr_reject(dr, ENOMEM, "dr_geneve_opt_create: the device "
                          "holds one Geneve option object");
    }
    if (!error) {
        opt = xzalloc(sizeof *opt);
        opt->opt_class = opt_class;
        opt->type = type;
        opt->len = len;
        dr_obj_add(dr, &opt->obj, DR_GENEVE_OPT);
        dr->geneve_opt = opt;
        *objp = (struct mlx5dv_devx_obj *) opt;
    }
    hw_model_dr_unlock(ctx);
    return error;
}

int
hw_model_dr_geneve_opt_destroy(struct mlx5dv_devx_obj *obj)
{
    struct dr_geneve_opt *opt;
    struct hw_model_dr *dr;
    int error;

    opt = dr_enter_destroy(obj, HW_MODEL_DR_GENEVE_OPT_DESTROY, DR_GENEVE_OPT,
                           &dr, &error);
    if (opt) {
        dr->geneve_opt = NULL;
        dr_obj_remove(dr, &opt->obj);
        free(opt);
    }
    dr_leave(dr);
    return error;
}
