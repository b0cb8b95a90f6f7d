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
#include "hw-model-dr.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "hash.h"
#include "hw-hmap.h"
#include "hw-model-dr-private.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "packets.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_model_dr);

COVERAGE_DEFINE(hw_model_dr_reject);

/* How the model follows rdma-core 44 (providers/mlx5/dr_*.c).
 *
 * A table of level 0 is the root: libmlx5 hands its matchers and rules to
 * the kernel (mlx5dv_create_flow_matcher, mlx5dv_create_flow), which puts
 * them into the firmware's root table of the domain together with the
 * verbs rules.  Tables of level > 0 are software steered: libmlx5 checks
 * the masks, values and actions itself.  So the checks differ by level:
 *
 *   - Matchers: match_criteria_enable >= 1 << 7 and a mask above 448 bytes
 *     are EINVAL at every level.  Below the root, a mask's IP version must
 *     be 0, 4 or 6 (EOPNOTSUPP) and a mask with no field at all under a
 *     non-zero criteria is EINVAL.
 *   - Rules: a value above 448 bytes, not a multiple of 4 bytes, or with a
 *     bit outside the mask (in the sections the criteria enable) is EINVAL.
 *     Below the root the value's IP version must be the mask's
 *     (EOPNOTSUPP), identical values are allowed (libmlx5's default), and
 *     the actions must follow the action-order state machine (EOPNOTSUPP),
 *     each type at most once (VLAN push and pop twice; EINVAL), a
 *     destination table deeper than the rule's and of its domain (EINVAL).
 *     At the root the kernel refuses a priority above 15 (ENOMEM), an
 *     identical value under the same matcher (EEXIST), DROP with
 *     DEFAULT_MISS (EINVAL) and, as libmlx5 cannot pass them to it, VLAN
 *     push and pop and DEST_VPORT (EOPNOTSUPP); the firmware runs the
 *     actions in its own order whatever the list's.
 *   - Objects in use cannot be destroyed (EBUSY): a domain with tables or
 *     with actions that hold it, a table with matchers or that a
 *     DEST_TABLE action names, a matcher with rules, an action in a rule
 *     or in a DEST_ARRAY, a counter in a COUNTER action.  A QP that a
 *     DEST_QP action names is held the same way (the model's choice, as
 *     for verbs rules).
 *
 * Model assumptions, where the sources leave a choice:
 *   - A mask bit on a field the model does not implement (ESP, GTP-U,
 *     flex parser fields other than Geneve's, IPv4 IHL, the inner
 *     checksum-ok bits, source SQN, ...), or on one the device's parser
 *     lacks (caps.dr_parse), is refused with EOPNOTSUPP, libmlx5's errno
 *     for a mask its steering entries cannot consume.
 *   - The device holds one Geneve TLV option object
 *     (max_geneve_tlv_options 1): a second one is refused with ENOMEM
 *     (the firmware's exceeded-limit status); an option length of 0 or
 *     more than 31 words, EINVAL.  Once it is destroyed the option's data
 *     reads as absent.
 *   - The action types below carry the interface's arguments; those
 *     libmlx5 takes without a domain (tag, drop, ...) get the domain's
 *     checks when a rule uses them, as libmlx5 does.
 *   - Modify-header actions and reformats serve every level (libmlx5 makes
 *     a root-level variant with MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL).
 *   - A COUNTER action's counter is a single DevX flow counter: offset 0.
 *   - The e-switch has vports 0 (the PF, its manager) and the uplink
 *     (0xffff), and in switchdev mode one per VF (1 to N,
 *     hw-model/eswitch); DEST_VPORT to any other is EINVAL, as libmlx5
 *     finds no vport capabilities for it.
 *   - More than caps.dr_max_modify modify-header commands are refused with
 *     the kernel's EOPNOTSUPP (mlx5_cmd_modify_header_alloc), the device's
 *     max_modify_header_actions. */

static struct vlog_rate_limit dr_rl = VLOG_RATE_LIMIT_INIT(20, 20);

static const char *
dr_name(const struct hw_model_dr *dr)
{
    return dr->ctx->device->name;
}

int
dr_reject(const struct hw_model_dr *dr, int error, const char *format, ...)
{
    COVERAGE_INC(hw_model_dr_reject);
    if (!vlog_should_drop(&this_module, VLL_INFO, &dr_rl)) {
        va_list args;
        char *msg;

        va_start(args, format);
        msg = xvasprintf(format, args);
        va_end(args);
        VLOG_INFO("%s: %s (%s)", dr_name(dr), msg, ovs_strerror(error));
        free(msg);
    }
    return error;
}

/* Device state and objects. */

void
hw_model_dr_init_caps(struct hw_dev_caps *caps)
{
    uint32_t common = ((1u << HW_DR_ACTION_DROP)
                       | (1u << HW_DR_ACTION_DEFAULT_MISS)
                       | (1u << HW_DR_ACTION_DEST_TABLE)
                       | (1u << HW_DR_ACTION_COUNTER)
                       | (1u << HW_DR_ACTION_REFORMAT)
                       | (1u << HW_DR_ACTION_MODIFY_HEADER)
                       | (1u << HW_DR_ACTION_PUSH_VLAN)
                       | (1u << HW_DR_ACTION_POP_VLAN));

    caps->dr_domains = ((1u << MLX5DV_DR_DOMAIN_TYPE_NIC_RX)
                        | (1u << MLX5DV_DR_DOMAIN_TYPE_NIC_TX)
                        | (1u << MLX5DV_DR_DOMAIN_TYPE_FDB));
    caps->dr_max_level = 64;
    caps->dr_actions[MLX5DV_DR_DOMAIN_TYPE_NIC_RX]
        = (common | (1u << HW_DR_ACTION_TAG) | (1u << HW_DR_ACTION_DEST_QP)
           | (1u << HW_DR_ACTION_DEST_ARRAY));
    caps->dr_actions[MLX5DV_DR_DOMAIN_TYPE_NIC_TX] = common;
    caps->dr_actions[MLX5DV_DR_DOMAIN_TYPE_FDB]
        = (common | (1u << HW_DR_ACTION_DEST_VPORT)
           | (1u << HW_DR_ACTION_DEST_ARRAY));
    caps->dr_match_criteria = ((1u << HW_DR_MATCH_OUTER)
                               | (1u << HW_DR_MATCH_MISC)
                               | (1u << HW_DR_MATCH_INNER)
                               | (1u << HW_DR_MATCH_MISC2)
                               | (1u << HW_DR_MATCH_MISC3));
    caps->dr_parse = (HW_DR_PARSE_GENEVE | HW_DR_PARSE_GENEVE_OPT
                      | HW_DR_PARSE_CSUM_OK);
    caps->dr_max_modify = 32;
    caps->dr_max_rules = 1u << 20;
    caps->dr_max_meters = 128;
}

struct hw_model_dr *
hw_model_dr_create(struct ibv_context *ctx, const struct hw_dev_caps *caps)
{
    struct hw_model_dr *dr = xzalloc(sizeof *dr);

    dr->ctx = ctx;
    hmap_init(&dr->objects);
    dr->next_handle = 1;
    dr->caps = *caps;
    dr->max_rules = caps->dr_max_rules;
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        ovs_list_init(&dr->roots[i]);
    }
    return dr;
}

void
hw_model_dr_set_max_rules(struct hw_model_dr *dr, uint32_t max_rules)
{
    dr->max_rules = max_rules;
}

void
hw_model_dr_set_vfs(struct hw_model_dr *dr, unsigned int n_vfs)
{
    dr->n_vfs = n_vfs;
}

uint32_t
hw_model_vport_reg_c0(uint16_t vport)
{
    /* Model choice: the uplink's metadata is 0xff00, a vport's its number
     * plus one, never 0 (no metadata). */
    uint32_t meta = vport == HW_MODEL_DR_WIRE_VPORT ? 0xff00 : vport + 1u;

    return meta << 16;
}

void
dr_obj_add(struct hw_model_dr *dr, struct dr_obj *obj, enum dr_kind kind)
{
    obj->dr = dr;
    obj->kind = kind;
    obj->handle = dr->next_handle++;
    obj->users = 0;
    hmap_insert(&dr->objects, &obj->node, hash_pointer(obj, 0));
    dr->n_objs[kind]++;
}

void
dr_obj_remove(struct hw_model_dr *dr, struct dr_obj *obj)
{
    ovs_assert(!obj->users);
    hw_hmap_remove_shrink(&dr->objects, &obj->node);
    dr->n_objs[obj->kind]--;
}

void *
dr_find(const struct hw_model_dr *dr, const void *p, enum dr_kind kind)
{
    struct dr_obj *obj;

    if (!p) {
        return NULL;
    }
    HMAP_FOR_EACH_WITH_HASH (obj, node, hash_pointer(p, 0), &dr->objects) {
        if (obj == p && obj->kind == kind) {
            return obj;
        }
    }
    return NULL;
}

void
hw_model_dr_count(const struct hw_model_dr *dr,
                  struct hw_model_dr_objects *objs)
{
    objs->domain = dr->n_objs[DR_DOMAIN];
    objs->table = dr->n_objs[DR_TABLE];
    objs->matcher = dr->n_objs[DR_MATCHER];
    objs->rule = dr->n_objs[DR_RULE];
    objs->action = dr->n_objs[DR_ACTION];
    objs->counter = dr->n_objs[DR_COUNTER];
    objs->geneve_opt = dr->n_objs[DR_GENEVE_OPT];
}

size_t
hw_model_dr_n_objects(const struct hw_model_dr *dr)
{
    return hmap_count(&dr->objects);
}

/* Enters the device of the object 'p' (of any kind) for 'op'.  Like
 * libmlx5, it trusts 'p' to be an object of the model far enough to find
 * its device; the caller then checks that it is a live one. */
/* The names of the operations and of the kinds of objects, for refusals. */
static const char *const dr_op_names[HW_MODEL_DR_N_OPS] = {
#define DR_OP_NAME(ENUM, NAME) NAME,
    HW_MODEL_DR_OPS(DR_OP_NAME)
#undef DR_OP_NAME
};

static const char *const dr_kind_names[DR_N_KINDS] = {
    "domain", "table", "matcher", "rule", "action", "counter",
    "Geneve option"
};

void *
dr_enter(const void *p, enum hw_model_dr_op op, enum dr_kind kind,
         struct hw_model_dr **drp, int *errorp)
{
    const struct dr_obj *obj = p;
    void *found;

    *drp = NULL;
    if (!obj) {
        *errorp = EINVAL;
        return NULL;
    }
    /* Like libmlx5, this trusts 'p' to be an object of the model far enough
     * to find its device; then it checks that it is a live one. */
    *drp = hw_model_dr_lock(obj->dr->ctx, op, errorp);
    if (*errorp) {
        return NULL;
    }
    found = dr_find(*drp, p, kind);
    if (!found) {
        *errorp = dr_reject(*drp, EINVAL, "%s: not a %s of the device",
                            dr_op_names[op], dr_kind_names[kind]);
    }
    return found;
}

void *
dr_enter_destroy(const void *p, enum hw_model_dr_op op, enum dr_kind kind,
                 struct hw_model_dr **drp, int *errorp)
{
    struct dr_obj *obj = dr_enter(p, op, kind, drp, errorp);

    if (obj && obj->users) {
        *errorp = dr_reject(*drp, EBUSY, "%s: %s %"PRIu32" in use by %u "
                            "objects", dr_op_names[op], dr_kind_names[kind],
                            obj->handle, obj->users);
        return NULL;
    }
    return obj;
}

void
dr_leave(struct hw_model_dr *dr)
{
    if (dr) {
        hw_model_dr_unlock(dr->ctx);
    }
}

/* Domains. */

int
hw_model_dr_domain_create(struct ibv_context *ctx,
                          enum mlx5dv_dr_domain_type type,
                          struct mlx5dv_dr_domain **domainp)
{
    struct dr_domain *domain;
    struct hw_model_dr *dr;
    int error;

    *domainp = NULL;
    dr = hw_model_dr_lock(ctx, HW_MODEL_DR_DOMAIN_CREATE, &error);
    if (error) {
        goto out;
    }
    if ((unsigned int) type > MLX5DV_DR_DOMAIN_TYPE_FDB) {
        error = dr_reject(dr, EINVAL, "dr_domain_create: domain type %d",
                          (int) type);
        goto out;
    }
    if (!(dr->caps.dr_domains & (1u << type))) {
        error = dr_reject(dr, EOPNOTSUPP, "dr_domain_create: no %s "
                          "software steering", dr_domain_names[type]);
        goto out;
    }
    domain = xzalloc(sizeof *domain);
    domain->type = type;
    dr_obj_add(dr, &domain->obj, DR_DOMAIN);
    *domainp = (struct mlx5dv_dr_domain *) domain;
out:
    hw_model_dr_unlock(ctx);
    return error;
}

int
hw_model_dr_domain_sync(struct mlx5dv_dr_domain *domain_, uint32_t flags)
{
    struct hw_model_dr *dr;
    int error;

    if (dr_enter(domain_, HW_MODEL_DR_DOMAIN_SYNC, DR_DOMAIN, &dr, &error)
        && flags & ~(MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
                     | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW
                     | MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM)) {
        error = dr_reject(dr, EOPNOTSUPP, "dr_domain_sync: flags %#"PRIx32,
                          flags);
    }
    /* The model writes every rule synchronously: nothing to wait for. */
    dr_leave(dr);
    return error;
}

int
hw_model_dr_domain_destroy(struct mlx5dv_dr_domain *domain_)
{
    struct dr_domain *domain;
    struct hw_model_dr *dr;
    int error;

    domain = dr_enter_destroy(domain_, HW_MODEL_DR_DOMAIN_DESTROY, DR_DOMAIN,
                              &dr, &error);
    if (domain) {
        dr_obj_remove(dr, &domain->obj);
        free(domain);
    }
    dr_leave(dr);
    return error;
}

/* Tables. */

int
hw_model_dr_table_create(struct mlx5dv_dr_domain *domain_, uint32_t level,
                         struct mlx5dv_dr_table **tablep)
{
    struct dr_domain *domain;
    struct dr_table *table;
    struct hw_model_dr *dr;
    int error;

    *tablep = NULL;
    domain = dr_enter(domain_, HW_MODEL_DR_TABLE_CREATE, DR_DOMAIN, &dr,
                      &error);
    if (domain) {
        /* libmlx5 takes any level: every software-steered table is created
         * at the device's deepest firmware level, and only jumps compare
         * them. */
        table = xzalloc(sizeof *table);
        table->domain = domain;
        table->level = level;
        ovs_list_init(&table->matchers);
        domain->obj.users++;
        dr_obj_add(dr, &table->obj, DR_TABLE);
        *tablep = (struct mlx5dv_dr_table *) table;
    }
    dr_leave(dr);
    return error;
}

int
hw_model_dr_table_destroy(struct mlx5dv_dr_table *table_)
{
    struct dr_table *table;
    struct hw_model_dr *dr;
    int error;

    table = dr_enter_destroy(table_, HW_MODEL_DR_TABLE_DESTROY, DR_TABLE, &dr,
                             &error);
    if (table) {
        table->domain->obj.users--;
        dr_obj_remove(dr, &table->obj);
        free(table);
    }
    dr_leave(dr);
    return error;
}

/* Matchers. */

/* The mask bits of fte_match_param that the model's parser fills in.  A
 * matcher may mask nothing else. */
static uint8_t dr_supported[DR_MATCH_SIZE];

static void
dr_supported_init(void)
{
    static bool inited;
    uint8_t *s = dr_supported;

    if (inited) {
        return;
    }
    inited = true;
    for (int i = 0; i < 2; i++) {
        uint8_t *l24 = s + (i ? DR_INNER : DR_OUTER);

        memset(l24, 0xff, DR_SECTION_SIZE);
        /* Reserved, IPv4 IHL and the checksum-ok bits. */
        memset(l24 + 24, 0, 3);
    }
    /* The outer checksum-ok bits (HW_DR_PARSE_CSUM_OK). */
    s[DR_OUTER + DR_L24_OK_BITS] = 0x0f;
    s[DR_MISC + DR_MISC_GRE_FLAGS] = 0xb0;
    memset(s + DR_MISC + DR_MISC_SOURCE_PORT, 0xff, 2);
    memset(s + DR_MISC + DR_MISC_OUTER_SECOND_VLAN, 0xff, 4);
    s[DR_MISC + DR_MISC_SECOND_TAGS] = 0xf0;
    memset(s + DR_MISC + DR_MISC_GRE_PROTOCOL, 0xff, 2);
    memset(s + DR_MISC + DR_MISC_GRE_KEY, 0xff, 4);
    memset(s + DR_MISC + DR_MISC_VXLAN_VNI, 0xff, 3);
    /* Geneve (HW_DR_PARSE_GENEVE, the option with _GENEVE_OPT). */
    memset(s + DR_MISC + DR_MISC_GENEVE_VNI, 0xff, 3);
    s[DR_MISC + DR_MISC_GENEVE_FLAGS] = 0x03;
    s[DR_MISC + DR_MISC_GENEVE_OPT_LEN] = 0x3f;
    memset(s + DR_MISC + DR_MISC_GENEVE_PROTOCOL, 0xff, 2);
    memset(s + DR_MISC3 + DR_MISC3_GENEVE_OPT_DATA, 0xff, 4);
    for (int ofs = DR_MISC_OUTER_FLOW_LABEL; ofs <= DR_MISC_INNER_FLOW_LABEL;
         ofs += 4) {
        s[DR_MISC + ofs] = 0x0f;
        memset(s + DR_MISC + ofs + 1, 0xff, 3);
    }
    memset(s + DR_MISC2, 0xff, DR_MISC2_REG_A + 4);
    memset(s + DR_MISC3, 0xff, 16);
    memset(s + DR_MISC3 + DR_MISC3_ICMP_DATA, 0xff, 12);
}

/* Zeroes the sections of 'buf' that 'criteria' does not enable: the
 * device reads only the enabled ones. */
static void
dr_clear_disabled(uint8_t buf[DR_MATCH_SIZE], uint8_t criteria)
{
    for (int i = 0; i < DR_N_SECTIONS; i++) {
        if (!(criteria & (1u << i))) {
            memset(buf + i * DR_SECTION_SIZE, 0, DR_SECTION_SIZE);
        }
    }
}

static uint8_t
dr_ip_version(const uint8_t *l24)
{
    return (l24[DR_L24_FLAGS] >> 1) & 0xf;
}

static bool
dr_any_bits(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return true;
        }
    }
    return false;
}

/* Returns true if 'mask' masks a field that only a tunnelled packet has:
 * the inner headers, the tunnel keys, the inner second VLAN, MPLS or TCP
 * sequence numbers. */
static bool
dr_mask_needs_tunnel(const uint8_t *mask)
{
    const uint8_t *misc = mask + DR_MISC;

    return (dr_any_bits(mask + DR_INNER, DR_SECTION_SIZE)
            || (misc[DR_MISC_GRE_FLAGS] & 0xb0)
            || dr_any_bits(misc + DR_MISC_INNER_SECOND_VLAN, 2)
            || (misc[DR_MISC_SECOND_TAGS] & 0x50)
            || dr_any_bits(misc + DR_MISC_GRE_PROTOCOL, 9)
            || dr_any_bits(misc + DR_MISC_INNER_FLOW_LABEL, 4)
            || dr_any_bits(mask + DR_MISC2 + 4, 4)
            || dr_any_bits(mask + DR_MISC3 + DR_MISC3_INNER_TCP_SEQ, 4)
            || dr_any_bits(mask + DR_MISC3 + DR_MISC3_INNER_TCP_ACK, 4));
}

/* Inserts 'm' into 'list' after the matchers of the same or a lower
 * priority. */
static void
dr_matcher_insert(struct ovs_list *list, struct dr_matcher *m)
{
    struct dr_matcher *pos;

    LIST_FOR_EACH (pos, node, list) {
        if (pos->priority > m->priority) {
            ovs_list_insert(&pos->node, &m->node);
            return;
        }
    }
    ovs_list_push_back(list, &m->node);
}

static int
dr_matcher_check(struct hw_model_dr *dr, const struct dr_table *table,
                 uint8_t criteria, const struct mlx5dv_flow_match_parameters
                 *mask, uint8_t buf[DR_MATCH_SIZE])
{
    memset(buf, 0, DR_MATCH_SIZE);
    if (criteria >= 1u << DR_N_SECTIONS) {
        return dr_reject(dr, EINVAL, "dr_matcher_create: match criteria "
                         "%#x", criteria);
    }
    if (mask && mask->match_sz > DR_MATCH_SIZE) {
        return dr_reject(dr, EINVAL, "dr_matcher_create: %"PRIuSIZE"-byte "
                         "mask, at most %d", mask->match_sz, DR_MATCH_SIZE);
    }
    if (mask) {
        memcpy(buf, mask->match_buf, mask->match_sz);
    }
    dr_clear_disabled(buf, criteria);

    dr_supported_init();
    for (size_t i = 0; i < DR_MATCH_SIZE; i++) {
        if (buf[i] & ~dr_supported[i]) {
            return dr_reject(dr, EOPNOTSUPP, "dr_matcher_create: mask byte "
                             "%"PRIuSIZE" (section %"PRIuSIZE" byte %"
                             PRIuSIZE") has bits 0x%02x the device cannot "
                             "match", i, i / DR_SECTION_SIZE,
                             i % DR_SECTION_SIZE, buf[i] & ~dr_supported[i]);
        }
    }

    if (!(dr->caps.dr_parse & HW_DR_PARSE_CSUM_OK)
        && buf[DR_OUTER + DR_L24_OK_BITS]) {
        return dr_reject(dr, EOPNOTSUPP, "dr_matcher_create: checksum-ok "
                         "bits, which the device does not have");
    }
    if (!(dr->caps.dr_parse & HW_DR_PARSE_GENEVE)
        && (dr_any_bits(buf + DR_MISC + DR_MISC_GENEVE_VNI, 4)
            || dr_any_bits(buf + DR_MISC + DR_MISC_GENEVE_OPT_LEN, 3))) {
        return dr_reject(dr, EOPNOTSUPP, "dr_matcher_create: Geneve fields, "
                         "which the device's parser does not have");
    }
    if (!(dr->caps.dr_parse & HW_DR_PARSE_GENEVE_OPT)
        && (buf[DR_MISC + DR_MISC_GENEVE_FLAGS] & 0x02
            || dr_any_bits(buf + DR_MISC3 + DR_MISC3_GENEVE_OPT_DATA, 4))) {
        return dr_reject(dr, EOPNOTSUPP, "dr_matcher_create: Geneve option "
                         "fields, which the device's parser does not have");
    }

    if (table->level) {
        for (int i = 0; i < 2; i++) {
            uint8_t ipv = dr_ip_version(buf + (i ? DR_INNER : DR_OUTER));

            if (ipv && ipv != 4 && ipv != 6) {
                return dr_reject(dr, EOPNOTSUPP, "dr_matcher_create: %s IP "
                                 "version %d in the mask (0, 4 or 6)",
                                 i ? "inner" : "outer", ipv);
            }
        }
        if (criteria && !dr_any_bits(buf, DR_MATCH_SIZE)) {
            return dr_reject(dr, EINVAL, "dr_matcher_create: criteria %#x "
                             "with an empty mask", criteria);
        }
    }
    return 0;
}

int
hw_model_dr_matcher_create(struct mlx5dv_dr_table *table_, uint16_t priority,
                           uint8_t criteria,
                           struct mlx5dv_flow_match_parameters *mask,
                           struct mlx5dv_dr_matcher **matcherp)
{
    uint8_t buf[DR_MATCH_SIZE];
    struct dr_matcher *m;
    struct dr_table *table;
    struct hw_model_dr *dr;
    int error;

    *matcherp = NULL;
    table = dr_enter(table_, HW_MODEL_DR_MATCHER_CREATE, DR_TABLE, &dr,
                     &error);
    if (table) {
        error = dr_matcher_check(dr, table, criteria, mask, buf);
    }
    if (error) {
        goto out;
    }

    m = xzalloc(sizeof *m);
    m->table = table;
    m->priority = priority;
    m->criteria = criteria;
    m->seq = dr->next_seq++;
    memcpy(m->mask, buf, sizeof m->mask);
    if (table->level) {
        for (int i = 0; i < 2; i++) {
            uint8_t *l24 = m->mask + (i ? DR_INNER : DR_OUTER);

            m->ip_version[i] = dr_ip_version(l24);
            if (m->ip_version[i]) {
                l24[DR_L24_FLAGS] |= 0xf << 1;
            }
        }
    }
    m->lo = m->hi = 0;
    for (size_t i = 0; i < DR_MATCH_SIZE; i++) {
        if (buf[i]) {
            if (m->lo == m->hi) {
                m->lo = i;
            }
            m->hi = i + 1;
        }
    }
    m->needs_tunnel = dr_mask_needs_tunnel(buf);
    hmap_init(&m->rules);
    dr_matcher_insert(table->level ? &table->matchers
                      : &dr->roots[table->domain->type], m);
    table->obj.users++;
    dr_obj_add(dr, &m->obj, DR_MATCHER);
    *matcherp = (struct mlx5dv_dr_matcher *) m;
out:
    dr_leave(dr);
    return error;
}

int
hw_model_dr_matcher_destroy(struct mlx5dv_dr_matcher *matcher_)
{
    struct dr_matcher *m;
    struct hw_model_dr *dr;
    int error;

    m = dr_enter_destroy(matcher_, HW_MODEL_DR_MATCHER_DESTROY, DR_MATCHER,
                         &dr, &error);
    if (m) {
        ovs_list_remove(&m->node);
        m->table->obj.users--;
        hmap_destroy(&m->rules);
        dr_obj_remove(dr, &m->obj);
        free(m);
    }
    dr_leave(dr);
    return error;
}

/* Rules. */

static uint32_t
dr_rule_hash(const struct dr_matcher *m, const uint8_t *value)
{
    return hash_bytes(value + m->lo, m->hi - m->lo, 0);
}

static int
dr_rule_check_value(struct hw_model_dr *dr, const struct dr_matcher *m,
                    const struct mlx5dv_flow_match_parameters *value,
                    uint8_t buf[DR_MATCH_SIZE])
{
    memset(buf, 0, DR_MATCH_SIZE);
    if (value && value->match_sz) {
        if (value->match_sz > DR_MATCH_SIZE || value->match_sz % 4) {
            return dr_reject(dr, EINVAL, "dr_rule_create: %"PRIuSIZE"-byte "
                             "value (a multiple of 4, at most %d)",
                             value->match_sz, DR_MATCH_SIZE);
        }
        memcpy(buf, value->match_buf, value->match_sz);
    }
    dr_clear_disabled(buf, m->criteria);
    for (size_t i = 0; i < DR_MATCH_SIZE; i++) {
        if (buf[i] & ~m->mask[i]) {
            return dr_reject(dr, EINVAL, "dr_rule_create: value byte %"
                             PRIuSIZE" has bits 0x%02x outside the mask", i,
                             buf[i] & ~m->mask[i]);
        }
    }
    return 0;
}

static struct dr_rule *
dr_rule_find_value(const struct dr_matcher *m, const uint8_t *value,
                   uint32_t hash)
{
    struct dr_rule *rule;

    HMAP_FOR_EACH_WITH_HASH (rule, node, hash, &m->rules) {
        if (!memcmp(rule->value + m->lo, value + m->lo, m->hi - m->lo)) {
            return rule;
        }
    }
    return NULL;
}

static int
dr_rule_check(struct hw_model_dr *dr, const struct dr_matcher *m,
              const struct mlx5dv_flow_match_parameters *param,
              uint8_t value[DR_MATCH_SIZE], size_t n,
              struct dr_action **actions)
{
    int error;

    if (!m->table->level) {
        /* libmlx5 converts the actions for the kernel first. */
        error = dr_check_actions_root(dr, m, n, actions);
        if (!error) {
            error = dr_rule_check_value(dr, m, param, value);
        }
        if (error) {
            return error;
        }
        if (m->priority > dr->caps.max_flow_priority) {
            return dr_reject(dr, ENOMEM, "dr_rule_create: root matcher "
                             "priority %"PRIu16" above %"PRIu16, m->priority,
                             dr->caps.max_flow_priority);
        }
        if (dr_rule_find_value(m, value, dr_rule_hash(m, value))) {
            return dr_reject(dr, EEXIST, "dr_rule_create: same value as "
                             "another rule of this root matcher");
        }
        return 0;
    }

    error = dr_rule_check_value(dr, m, param, value);
    if (error) {
        return error;
    }
    for (int i = 0; i < 2; i++) {
        size_t ofs = i ? DR_INNER : DR_OUTER;
        uint8_t want = m->ip_version[i];

        if (want && dr_ip_version(value + ofs) != want) {
            return dr_reject(dr, EOPNOTSUPP, "dr_rule_create: %s IP "
                             "version %d in the value, %d in the mask",
                             i ? "inner" : "outer",
                             dr_ip_version(value + ofs), want);
        }
    }

    return dr_check_actions(dr, m, value, n, actions);
}

int
hw_model_dr_rule_create(struct mlx5dv_dr_matcher *matcher_,
                        struct mlx5dv_flow_match_parameters *value,
                        size_t n_actions, struct mlx5dv_dr_action *actions_[],
                        struct mlx5dv_dr_rule **rulep)
{
    struct dr_action **actions = NULL;
    uint8_t buf[DR_MATCH_SIZE];
    enum mlx5dv_dr_domain_type type;
    struct hw_model_dr *dr;
    struct dr_rule *rule;
    struct dr_matcher *m;
    int error;

    *rulep = NULL;
    m = dr_enter(matcher_, HW_MODEL_DR_RULE_CREATE, DR_MATCHER, &dr, &error);
    if (!m) {
        goto out;
    }
    actions = xmalloc(MAX(n_actions, 1) * sizeof *actions);
    for (size_t i = 0; i < n_actions; i++) {
        actions[i] = dr_find(dr, actions_[i], DR_ACTION);
        if (!actions[i]) {
            error = dr_reject(dr, EINVAL, "dr_rule_create: action %"PRIuSIZE
                              " is not an action of the device", i);
            goto out;
        }
    }
    error = dr_rule_check(dr, m, value, buf, n_actions, actions);
    if (error) {
        goto out;
    }
    type = m->table->domain->type;
    if (dr->n_rules[type] >= dr->max_rules) {
        error = dr_reject(dr, ENOMEM, "dr_rule_create: %s holds %"PRIuSIZE
                          " rules, its most", dr_domain_names[type],
                          dr->n_rules[type]);
        goto out;
    }

    rule = xzalloc(sizeof *rule);
    rule->matcher = m;
    rule->seq = dr->next_seq++;
    memcpy(rule->value, buf, sizeof rule->value);
    rule->n_actions = n_actions;
    rule->actions = actions;
    actions = NULL;
    /* The order the hardware runs them in (a stable insertion sort: the
     * state machine already keeps software-steered rules in it). */
    for (size_t i = 1; i < n_actions; i++) {
        struct dr_action *a = rule->actions[i];
        size_t j = i;

        for (; j > 0 && (dr_action_stage(rule->actions[j - 1])
                         > dr_action_stage(a)); j--) {
            rule->actions[j] = rule->actions[j - 1];
        }
        rule->actions[j] = a;
    }
    for (size_t i = 0; i < n_actions; i++) {
        rule->actions[i]->obj.users++;
    }
    hmap_insert(&m->rules, &rule->node, dr_rule_hash(m, rule->value));
    m->obj.users++;
    dr->n_rules[type]++;
    dr_obj_add(dr, &rule->obj, DR_RULE);
    *rulep = (struct mlx5dv_dr_rule *) rule;
out:
    free(actions);
    dr_leave(dr);
    return error;
}

int
hw_model_dr_rule_destroy(struct mlx5dv_dr_rule *rule_)
{
    struct hw_model_dr *dr;
    struct dr_rule *rule;
    int error;

    rule = dr_enter_destroy(rule_, HW_MODEL_DR_RULE_DESTROY, DR_RULE, &dr,
                            &error);
    if (rule) {
        for (size_t i = 0; i < rule->n_actions; i++) {
            rule->actions[i]->obj.users--;
        }
        hw_hmap_remove_shrink(&rule->matcher->rules, &rule->node);
        rule->matcher->obj.users--;
        dr->n_rules[rule->matcher->table->domain->type]--;
        dr_obj_remove(dr, &rule->obj);
        free(rule->actions);
        free(rule);
    }
    dr_leave(dr);
    return error;
}

/* Formatting. */

static void
dr_format_action(const struct dr_action *a, struct ds *s)
{
    ds_put_cstr(s, dr_action_name(a->type));
    switch (a->type) {
    case HW_DR_ACTION_TAG:
        ds_put_format(s, "(%"PRIu32")", a->tag);
        break;
    case HW_DR_ACTION_DEST_TABLE:
        ds_put_format(s, "(%"PRIu32")", a->table->obj.handle);
        break;
    case HW_DR_ACTION_DEST_QP:
        ds_put_format(s, "(qp %"PRIu32")", a->qp->qp_num);
        break;
    case HW_DR_ACTION_DEST_VPORT:
        ds_put_format(s, "(%"PRIu16")", a->vport);
        break;
    case HW_DR_ACTION_DEST_ARRAY:
        ds_put_format(s, "(%"PRIuSIZE")", a->array.n);
        break;
    case HW_DR_ACTION_COUNTER:
        ds_put_format(s, "(%"PRIu32")", a->counter->obj.handle);
        break;
    case HW_DR_ACTION_REFORMAT:
        ds_put_format(s, "(type %d, %"PRIuSIZE" bytes)",
                      (int) a->reformat.type, a->reformat.size);
        break;
    case HW_DR_ACTION_MODIFY_HEADER:
        ds_put_format(s, "(%"PRIuSIZE" commands)", a->modify.n);
        break;
    case HW_DR_ACTION_PUSH_VLAN:
        ds_put_format(s, "(%#010"PRIx32")", a->vlan_hdr);
        break;
    case HW_DR_ACTION_FLOW_METER:
        ds_put_format(s, "(table %"PRIu32", cir %"PRIu64" B/s, cbs %"
                      PRIu64" B, color to reg_c_%u%s)",
                      a->meter.next_table->obj.handle,
                      hw_meter_prm_cir(&a->meter.prm),
                      hw_meter_prm_cbs(&a->meter.prm),
                      a->meter.reg_c_index,
                      a->meter.active ? "" : ", inactive");
        break;
    case HW_DR_ACTION_DROP:
    case HW_DR_ACTION_DEFAULT_MISS:
    case HW_DR_ACTION_POP_VLAN:
    case HW_DR_N_ACTIONS:
    default:
        break;
    }
}

static void
dr_format_matchers(const struct ovs_list *matchers, struct ds *s)
{
    const struct dr_matcher *m;

    LIST_FOR_EACH (m, node, matchers) {
        const struct dr_rule *rule;

        ds_put_format(s, "  matcher %"PRIu32": table %"PRIu32" prio=%"PRIu16
                      " criteria=%#x rules=%u\n", m->obj.handle,
                      m->table->obj.handle, m->priority, m->criteria,
                      m->obj.users);
        HMAP_FOR_EACH (rule, node, &m->rules) {
            ds_put_format(s, "    rule %"PRIu32": hits=%"PRIu64" actions=",
                          rule->obj.handle, rule->n_hits);
            for (size_t i = 0; i < rule->n_actions; i++) {
                if (i) {
                    ds_put_char(s, ',');
                }
                dr_format_action(rule->actions[i], s);
            }
            ds_put_char(s, '\n');
        }
    }
}

void
hw_model_dr_format(const struct hw_model_dr *dr, struct ds *s)
{
    const struct dr_obj *obj;

    if (!hmap_count(&dr->objects)) {
        return;
    }
    for (int i = 0; i < HW_DR_N_DOMAINS; i++) {
        if (!ovs_list_is_empty(&dr->roots[i])) {
            ds_put_format(s, "dr %s root:\n", dr_domain_names[i]);
            dr_format_matchers(&dr->roots[i], s);
        }
    }
    HMAP_FOR_EACH (obj, node, &dr->objects) {
        if (obj->kind == DR_TABLE) {
            const struct dr_table *t = CONTAINER_OF(obj, struct dr_table,
                                                    obj);
            if (t->level) {
                ds_put_format(s, "dr %s table %"PRIu32" level=%"PRIu32":\n",
                              dr_domain_names[t->domain->type],
                              t->obj.handle, t->level);
                dr_format_matchers(&t->matchers, s);
            }
        }
    }
}
