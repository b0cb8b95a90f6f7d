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

/* Unit test of the firmware dump diagnostic (hw-fwdump*.c): the devlink
 * request bytes, the reassembly of a crdump from devlink fmsg replies, the
 * FreeBSD mlx5io layouts and ioctl numbers, PCI addresses, the mlx5tool
 * output format, the NIC model's register-dump personality (FreeBSD
 * mlx5_fwdump.c semantics) and the capability checks of hw-privileges.c. */

#include <config.h>
#undef NDEBUG
#include "hw-fwdump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw-dev.h"
#include "hw-mlx5io.h"
#include "hw-model-fwdump.h"
#include "hw-privileges.h"
#include "netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "ovstest.h"
#include "test-hw-check.h"
#include "util.h"

#define CHECK_STREQ(GOT, WANT)                                          \
    do {                                                                \
        const char *got__ = (GOT);                                      \
        const char *want__ = (WANT);                                    \
        if (strcmp(got__, want__)) {                                    \
            ovs_abort(0, "%s:%d: %s is \"%s\", expected \"%s\"",        \
                      __FILE__, __LINE__, #GOT, got__, want__);         \
        }                                                               \
    } while (0)

/* devlink values, from linux/devlink.h (the plugin keeps its own copy). */
#define DL_FAMILY 0x1b                  /* Any generic netlink family id. */
#define DL_ATTR_BUS_NAME 1
#define DL_ATTR_DEV_NAME 2
#define DL_ATTR_FMSG 106
#define DL_FMSG_OBJ_NEST_START 107
#define DL_FMSG_PAIR_NEST_START 108
#define DL_FMSG_ARR_NEST_START 109
#define DL_FMSG_NEST_END 110
#define DL_FMSG_OBJ_NAME 111
#define DL_FMSG_OBJ_VALUE_TYPE 112
#define DL_FMSG_OBJ_VALUE_DATA 113
#define DL_ATTR_HEALTH_REPORTER 114
#define DL_ATTR_HEALTH_REPORTER_NAME 115
#define DL_ATTR_HEALTH_REPORTER_STATE 116
#define DL_ATTR_HEALTH_REPORTER_ERR_COUNT 117
#define DL_ATTR_HEALTH_REPORTER_DUMP_TS 119
#define DL_ATTR_PAD 61
#define NLA_U8_TYPE 1
#define NLA_U32_TYPE 3
#define NLA_BINARY_TYPE 11

static void
hexdump_mismatch(const char *what, const uint8_t *got, size_t got_len,
                 const uint8_t *want, size_t want_len)
{
    fprintf(stderr, "%s: %"PRIuSIZE" bytes, expected %"PRIuSIZE"\n", what,
            got_len, want_len);
    for (size_t i = 0; i < MAX(got_len, want_len); i++) {
        fprintf(stderr, "  %3"PRIuSIZE": got %s%02x  want %s%02x%s\n", i,
                i < got_len ? "" : "-", i < got_len ? got[i] : 0,
                i < want_len ? "" : "-", i < want_len ? want[i] : 0,
                (i < got_len && i < want_len && got[i] == want[i])
                ? "" : "  <--");
    }
}

/* The expected bytes are written for a little-endian host; the netlink
 * header fields are in host order, so swap them on a big-endian one. */
static void
fix_host_order(uint8_t *msg, const size_t *u32_offsets, size_t n32,
               const size_t *u16_offsets, size_t n16)
{
#ifdef WORDS_BIGENDIAN
    for (size_t i = 0; i < n32; i++) {
        uint8_t *p = msg + u32_offsets[i];
        uint8_t t = p[0];

        p[0] = p[3];
        p[3] = t;
        t = p[1];
        p[1] = p[2];
        p[2] = t;
    }
    for (size_t i = 0; i < n16; i++) {
        uint8_t *p = msg + u16_offsets[i];
        uint8_t t = p[0];

        p[0] = p[1];
        p[1] = t;
    }
#else
    (void) msg;
    (void) u32_offsets;
    (void) n32;
    (void) u16_offsets;
    (void) n16;
#endif
}

static void
check_request(uint8_t cmd, uint16_t flags)
{
    /* nlmsghdr (16) + genlmsghdr (4) + BUS_NAME "pci" (8) + DEV_NAME
     * "0000:03:00.0" (17, padded to 20) + HEALTH_REPORTER_NAME "fw_fatal"
     * (13, padded to 16): 64 bytes. */
    uint8_t want[] = {
        0x40, 0x00, 0x00, 0x00,         /* nlmsg_len 64 */
        DL_FAMILY, 0x00,                /* nlmsg_type: the family */
        flags & 0xff, flags >> 8,       /* nlmsg_flags */
        0x00, 0x00, 0x00, 0x00,         /* nlmsg_seq: the socket sets it */
        0x00, 0x00, 0x00, 0x00,         /* nlmsg_pid: the socket sets it */
        cmd, 0x01, 0x00, 0x00,          /* cmd, version 1, reserved */
        0x08, 0x00, 0x01, 0x00,         /* nla_len 8, DEVLINK_ATTR_BUS_NAME */
        'p', 'c', 'i', 0x00,
        0x11, 0x00, 0x02, 0x00,         /* nla_len 17, DEVLINK_ATTR_DEV_NAME */
        '0', '0', '0', '0', ':', '0', '3', ':', '0', '0', '.', '0',
        0x00, 0x00, 0x00, 0x00,         /* NUL, 3 bytes of padding */
        0x0d, 0x00, 0x73, 0x00,         /* nla_len 13, REPORTER_NAME (115) */
        'f', 'w', '_', 'f', 'a', 't', 'a', 'l',
        0x00, 0x00, 0x00, 0x00,         /* NUL, 3 bytes of padding */
    };
    static const size_t u32s[] = { 0, 8, 12 };
    static const size_t u16s[] = { 4, 6, 20, 22, 28, 30, 48, 50 };
    struct ofpbuf buf;

    fix_host_order(want, u32s, ARRAY_SIZE(u32s), u16s, ARRAY_SIZE(u16s));
    ofpbuf_init(&buf, 0);
    hw_devlink_put_request(&buf, DL_FAMILY, cmd, "0000:03:00.0");
    if (buf.size != sizeof want || memcmp(buf.data, want, sizeof want)) {
        hexdump_mismatch("devlink request", buf.data, buf.size, want,
                         sizeof want);
        ovs_abort(0, "%s:%d: devlink request for command %d differs",
                  __FILE__, __LINE__, cmd);
    }
    ofpbuf_uninit(&buf);
}

static void
test_devlink_request(void)
{
    /* NLM_F_REQUEST 0x1, NLM_F_ACK 0x4, NLM_F_DUMP 0x300. */
    check_request(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, 0x305);
    check_request(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR, 0x005);
    check_request(HW_DEVLINK_CMD_HEALTH_REPORTER_GET, 0x001);
    CHECK_EQ(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, 56);
    CHECK_EQ(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR, 57);
    CHECK_EQ(HW_DEVLINK_CMD_HEALTH_REPORTER_GET, 52);
}

/* Kernel-style reply messages. */

static struct ofpbuf *
reply_start(uint8_t cmd, size_t *fmsg_ofs)
{
    struct ofpbuf *msg = ofpbuf_new(0);

    nl_msg_put_genlmsghdr(msg, 0, DL_FAMILY, NLM_F_MULTI, cmd, 1);
    nl_msg_put_string(msg, DL_ATTR_BUS_NAME, "pci");
    nl_msg_put_string(msg, DL_ATTR_DEV_NAME, "0000:03:00.0");
    if (fmsg_ofs) {
        *fmsg_ofs = nl_msg_start_nested(msg, DL_ATTR_FMSG);
    }
    return msg;
}

static void
reply_end(struct ofpbuf *msg, size_t fmsg_ofs)
{
    nl_msg_end_nested(msg, fmsg_ofs);
    nl_msg_nlmsghdr(msg)->nlmsg_len = msg->size;
}

static void
fmsg_flag(struct ofpbuf *msg, uint16_t type)
{
    nl_msg_put_flag(msg, type);
}

static void
fmsg_name(struct ofpbuf *msg, const char *name)
{
    nl_msg_put_string(msg, DL_FMSG_OBJ_NAME, name);
}

static void
fmsg_value(struct ofpbuf *msg, uint8_t type, const void *data, size_t size)
{
    nl_msg_put_u8(msg, DL_FMSG_OBJ_VALUE_TYPE, type);
    nl_msg_put_unspec(msg, DL_FMSG_OBJ_VALUE_DATA, data, size);
}

/* A pair with one u8 value, as mlx5 puts the fw reporter's context. */
static void
fmsg_u8_pair(struct ofpbuf *msg, const char *name, uint8_t value)
{
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, name);
    fmsg_value(msg, NLA_U8_TYPE, &value, 1);
    fmsg_flag(msg, DL_FMSG_NEST_END);
}

/* 'n' bytes of crdump starting at byte 'ofs' of the pattern: word i is
 * 0xa5000000 | i in host order. */
static void
fmsg_crdump_chunk(struct ofpbuf *msg, size_t ofs, size_t n)
{
    uint8_t *bytes = xmalloc(n);

    for (size_t i = 0; i < n; i++) {
        uint32_t word = 0xa5000000u | ((ofs + i) / 4);

        bytes[i] = ((const uint8_t *) &word)[(ofs + i) % 4];
    }
    fmsg_value(msg, NLA_BINARY_TYPE, bytes, n);
    free(bytes);
}

/* Feeds 'msg' to 'fmsg' and frees it. */
static int
feed(struct hw_devlink_fmsg *fmsg, struct ofpbuf *msg, struct ds *reason)
{
    int error = hw_devlink_fmsg_parse(fmsg, msg, reason);

    ofpbuf_delete(msg);
    return error;
}

static void
test_devlink_fmsg(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_devlink_fmsg fmsg;
    struct hw_fwdump_reg *regs;
    struct ofpbuf *msg;
    size_t ofs, n;
    uint8_t other[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

    /* A 6.1 kernel's fw_fatal dump, spread over three messages: an object
     * holding the reporter context pairs, a binary pair that is not the
     * crdump, then "crdump_data" as an array of 256-byte binary values. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_OBJ_NEST_START);
    fmsg_u8_pair(msg, "Syndrome", 0x7);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, "other_data");
    fmsg_flag(msg, DL_FMSG_ARR_NEST_START);
    fmsg_value(msg, NLA_BINARY_TYPE, other, sizeof other);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    fmsg_flag(msg, DL_FMSG_ARR_NEST_START);
    fmsg_crdump_chunk(msg, 0, 256);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);

    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_crdump_chunk(msg, 256, 256);
    fmsg_crdump_chunk(msg, 512, 256);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);

    /* A message without FMSG changes nothing. */
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, NULL);
    nl_msg_nlmsghdr(msg)->nlmsg_len = msg->size;
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);

    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_crdump_chunk(msg, 768, 40);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);

    CHECK_ERR(hw_devlink_fmsg_finish(&fmsg, &regs, &n, &reason), 0);
    CHECK_EQ(n, (3 * 256 + 40) / 4);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ(regs[i].addr, 4 * i);
        CHECK_EQ(regs[i].val, 0xa5000000u | i);
    }
    free(regs);
    hw_devlink_fmsg_destroy(&fmsg);
    CHECK_EQ(reason.length, 0);

    /* A crdump that is not whole words. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    fmsg_crdump_chunk(msg, 0, 42);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);
    CHECK_ERR(hw_devlink_fmsg_finish(&fmsg, &regs, &n, &reason), EPROTO);
    CHECK(!regs && !n);
    CHECK(strstr(ds_cstr(&reason), "42 bytes"));
    hw_devlink_fmsg_destroy(&fmsg);
    ds_clear(&reason);

    /* A dump without "crdump_data": nothing to fetch. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_OBJ_NEST_START);
    fmsg_u8_pair(msg, "Syndrome", 0x7);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);
    CHECK_ERR(hw_devlink_fmsg_finish(&fmsg, &regs, &n, &reason), ENOENT);
    hw_devlink_fmsg_destroy(&fmsg);

    /* An empty crdump is a dump of 0 registers. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    fmsg_flag(msg, DL_FMSG_ARR_NEST_START);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);
    CHECK_ERR(hw_devlink_fmsg_finish(&fmsg, &regs, &n, &reason), 0);
    CHECK(!regs && !n);
    hw_devlink_fmsg_destroy(&fmsg);

    /* Unbalanced nests. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), EPROTO);
    hw_devlink_fmsg_destroy(&fmsg);

    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    fmsg_crdump_chunk(msg, 0, 8);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), 0);
    CHECK_ERR(hw_devlink_fmsg_finish(&fmsg, &regs, &n, &reason), EPROTO);
    hw_devlink_fmsg_destroy(&fmsg);

    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    for (int i = 0; i <= HW_DEVLINK_FMSG_MAX_DEPTH; i++) {
        fmsg_flag(msg, DL_FMSG_OBJ_NEST_START);
    }
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), EPROTO);
    hw_devlink_fmsg_destroy(&fmsg);

    /* crdump values must be binary. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_PAIR_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    fmsg_value(msg, NLA_U32_TYPE, other, 4);
    fmsg_flag(msg, DL_FMSG_NEST_END);
    reply_end(msg, ofs);
    ds_clear(&reason);
    CHECK_ERR(feed(&fmsg, msg, &reason), EPROTO);
    CHECK(strstr(ds_cstr(&reason), "expected binary"));
    hw_devlink_fmsg_destroy(&fmsg);

    /* Names belong to pairs. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_OBJ_NEST_START);
    fmsg_name(msg, HW_DEVLINK_CRDUMP_PAIR);
    reply_end(msg, ofs);
    CHECK_ERR(feed(&fmsg, msg, &reason), EPROTO);
    hw_devlink_fmsg_destroy(&fmsg);

    /* A truncated attribute inside FMSG. */
    hw_devlink_fmsg_init(&fmsg);
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, &ofs);
    fmsg_flag(msg, DL_FMSG_OBJ_NEST_START);
    fmsg_name(msg, "x");
    reply_end(msg, ofs);
    {
        /* Make the name's nla_len run past the end of FMSG. */
        char *fmsg_attr = ofpbuf_at_assert(msg, ofs, NLA_HDRLEN);
        struct nlattr *name = ALIGNED_CAST(struct nlattr *,
                                           fmsg_attr + 2 * NLA_HDRLEN);

        name->nla_len = 64;
    }
    CHECK_ERR(feed(&fmsg, msg, &reason), EPROTO);
    hw_devlink_fmsg_destroy(&fmsg);

    ds_destroy(&reason);
}

static void
test_devlink_reporter(void)
{
    struct ofpbuf *msg;
    size_t ofs;
    bool has_dump;

    for (int with_dump = 0; with_dump < 2; with_dump++) {
        msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_GET, NULL);
        ofs = nl_msg_start_nested(msg, DL_ATTR_HEALTH_REPORTER);
        nl_msg_put_string(msg, DL_ATTR_HEALTH_REPORTER_NAME, "fw_fatal");
        nl_msg_put_u8(msg, DL_ATTR_HEALTH_REPORTER_STATE, 0);
        nl_msg_put_u64(msg, DL_ATTR_HEALTH_REPORTER_ERR_COUNT, 3);
        if (with_dump) {
            nl_msg_put_flag(msg, DL_ATTR_PAD);
            nl_msg_put_u64(msg, DL_ATTR_HEALTH_REPORTER_DUMP_TS, 123456);
        }
        nl_msg_end_nested(msg, ofs);
        nl_msg_nlmsghdr(msg)->nlmsg_len = msg->size;
        has_dump = !with_dump;
        CHECK_ERR(hw_devlink_parse_reporter(msg, &has_dump), 0);
        CHECK_EQ(has_dump, with_dump);
        ofpbuf_delete(msg);
    }

    /* No reporter nest. */
    msg = reply_start(HW_DEVLINK_CMD_HEALTH_REPORTER_GET, NULL);
    nl_msg_nlmsghdr(msg)->nlmsg_len = msg->size;
    CHECK_ERR(hw_devlink_parse_reporter(msg, &has_dump), EPROTO);
    ofpbuf_delete(msg);
}

static void
test_mlx5io(void)
{
    /* Register structs are passed to the kernel as they are. */
    CHECK_EQ(sizeof(struct hw_fwdump_reg), 8);
    CHECK_EQ(sizeof(struct hw_mlx5_fwdump_reg), 8);
    CHECK_EQ(offsetof(struct hw_mlx5_fwdump_reg, val), 4);
    CHECK_EQ(sizeof(struct hw_mlx5_tool_addr), 8);
    CHECK_EQ(offsetof(struct hw_mlx5_tool_addr, bus), 4);
    CHECK_EQ(offsetof(struct hw_mlx5_tool_addr, slot), 5);
    CHECK_EQ(offsetof(struct hw_mlx5_tool_addr, func), 6);

    if (sizeof(void *) == 8 && sizeof(size_t) == 8) {
        /* hw-apis.md section 6.1, amd64 values. */
        CHECK_EQ(sizeof(struct hw_mlx5_fwdump_get), 32);
        CHECK_EQ(offsetof(struct hw_mlx5_fwdump_get, buf), 8);
        CHECK_EQ(offsetof(struct hw_mlx5_fwdump_get, reg_cnt), 16);
        CHECK_EQ(offsetof(struct hw_mlx5_fwdump_get, reg_filled), 24);
        CHECK_EQ(HW_MLX5_FWDUMP_GET, 0xc0206d01ul);
    }
    CHECK_EQ(HW_MLX5_FWDUMP_RESET, 0x80086d02ul);
    CHECK_EQ(HW_MLX5_FWDUMP_FORCE, 0x80086d03ul);
}

static void
test_pci_addr(void)
{
    static const struct {
        const char *s;
        bool ok;
        uint32_t domain;
        uint8_t bus, slot, func;
        const char *formatted;
    } cases[] = {
        { "0000:03:00.0", true, 0, 3, 0, 0, "0000:03:00.0" },
        { "0000:af:1f.7", true, 0, 0xaf, 0x1f, 7, "0000:af:1f.7" },
        { "10000:AF:1F.7", true, 0x10000, 0xaf, 0x1f, 7, "10000:af:1f.7" },
        { "03:00.1", true, 0, 3, 0, 1, "0000:03:00.1" },
        { "pci0:3:0:0", true, 0, 3, 0, 0, "0000:03:00.0" },
        { "pci1:130:31:7", true, 1, 130, 31, 7, "0001:82:1f.7" },
        { "pci3:0:1", true, 0, 3, 0, 1, "0000:03:00.1" },
        { "0000:03:00.8", false, 0, 0, 0, 0, NULL },
        { "0000:03:20.0", false, 0, 0, 0, 0, NULL },
        { "0000:103:00.0", false, 0, 0, 0, 0, NULL },
        { "0000:03:00", false, 0, 0, 0, 0, NULL },
        { "0000:03:00.0x", false, 0, 0, 0, 0, NULL },
        { "pci0:256:0:0", false, 0, 0, 0, 0, NULL },
        { "pci0:3:0:0:", false, 0, 0, 0, 0, NULL },
        { "pci0:3:0:", false, 0, 0, 0, 0, NULL },
        { "pci0:3", false, 0, 0, 0, 0, NULL },
        { "pci0:3:0:8", false, 0, 0, 0, 0, NULL },
        { "p1", false, 0, 0, 0, 0, NULL },
        { "", false, 0, 0, 0, 0, NULL },
        { "-1:03:00.0", false, 0, 0, 0, 0, NULL },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct hw_pci_addr addr;
        bool ok = hw_pci_addr_parse(cases[i].s, &addr);

        if (ok != cases[i].ok) {
            ovs_abort(0, "%s:%d: \"%s\" parsed %s", __FILE__, __LINE__,
                      cases[i].s, ok ? "as a PCI address" : "as invalid");
        }
        if (ok) {
            char buf[HW_PCI_ADDR_BUFSIZE];

            CHECK_EQ(addr.domain, cases[i].domain);
            CHECK_EQ(addr.bus, cases[i].bus);
            CHECK_EQ(addr.slot, cases[i].slot);
            CHECK_EQ(addr.func, cases[i].func);
            hw_pci_addr_format(&addr, buf);
            CHECK_STREQ(buf, cases[i].formatted);
        }
    }
    CHECK(!hw_pci_addr_parse(NULL, NULL));
}

static void
test_write(void)
{
    static const struct hw_fwdump_reg regs[] = {
        { 0x0, 0x101715b3 }, { 0x4, 0x1 }, { 0x10040, 0xdeadbeef },
    };
    static const char want[] = "0x00000000\t0x101715b3\n"
                               "0x00000004\t0x00000001\n"
                               "0x00010040\t0xdeadbeef\n";
    char got[128];
    FILE *stream = tmpfile();
    size_t n;

    CHECK(stream);
    CHECK_ERR(hw_fwdump_write(regs, ARRAY_SIZE(regs), stream), 0);
    rewind(stream);
    n = fread(got, 1, sizeof got - 1, stream);
    got[n] = '\0';
    CHECK_STREQ(got, want);
    fclose(stream);
}

/* The model's register dump. */

static void
get_dump(const struct hw_dev_ops *ops, struct ibv_context *ctx,
         struct hw_fwdump_reg **regsp, size_t *np)
{
    size_t total, filled;

    CHECK_ERR(ops->fwdump_get(ctx, NULL, 0, &total), 0);
    *regsp = xmalloc(total * sizeof **regsp);
    CHECK_ERR(ops->fwdump_get(ctx, *regsp, total, &filled), 0);
    CHECK_EQ(filled, total);
    *np = total;
}

static void
test_model_fwdump(void)
{
    const struct hw_dev_ops *ops = &hw_model_ops;
    struct hw_fwdump_reg *first, *second, *other, small[5];
    struct ibv_context *ctx, *ctx2;
    size_t n, n2, n_other, filled;
    size_t n_changed = 0;

    CHECK(ops->fwdump_force && ops->fwdump_get && ops->fwdump_reset);
    CHECK_ERR(ops->open("model90", &ctx), 0);
    CHECK_ERR(ops->open("model91", &ctx2), 0);

    /* Size query without a dump; no data without a dump. */
    filled = 0;
    CHECK_ERR(ops->fwdump_get(ctx, NULL, 0, &filled), 0);
    n = filled;
    CHECK(n >= 6 * 32 && n < 6 * 80);
    CHECK_ERR(ops->fwdump_get(ctx, small, ARRAY_SIZE(small), &filled),
              ENOENT);
    CHECK_ERR(ops->fwdump_reset(ctx), 0);

    /* Capture; only one dump. */
    CHECK_ERR(ops->fwdump_force(ctx), 0);
    CHECK_ERR(ops->fwdump_force(ctx), EEXIST);
    CHECK_ERR(hw_model_fwdump_fatal("model90"), EEXIST);

    /* A short buffer gets the first registers. */
    CHECK_ERR(ops->fwdump_get(ctx, small, ARRAY_SIZE(small), &filled), 0);
    CHECK_EQ(filled, ARRAY_SIZE(small));
    CHECK_ERR(ops->fwdump_get(ctx, small, 0, &filled), 0);
    CHECK_EQ(filled, 0);

    get_dump(ops, ctx, &first, &n2);
    CHECK_EQ(n2, n);
    CHECK_EQ(first[0].addr, 0);
    CHECK_EQ(first[0].val, 0x101715b3);
    CHECK_EQ(first[1].addr, 4);
    CHECK_EQ(first[1].val, 1);           /* First capture. */
    for (size_t i = 1; i < n; i++) {
        CHECK(first[i].addr > first[i - 1].addr);
        CHECK_EQ(first[i].addr % 4, 0);
    }
    for (size_t i = 0; i < ARRAY_SIZE(small); i++) {
        CHECK_EQ(small[i].addr, first[i].addr);
        CHECK_EQ(small[i].val, first[i].val);
    }

    /* Fetching does not consume the dump. */
    get_dump(ops, ctx, &second, &n2);
    CHECK(!memcmp(first, second, n * sizeof *first));
    free(second);

    /* Clear, then a new capture: same map, new counter values. */
    CHECK_ERR(ops->fwdump_reset(ctx), 0);
    CHECK_ERR(ops->fwdump_get(ctx, small, ARRAY_SIZE(small), &filled),
              ENOENT);
    CHECK_ERR(ops->fwdump_force(ctx), 0);
    get_dump(ops, ctx, &second, &n2);
    CHECK_EQ(n2, n);
    CHECK_EQ(second[1].val, 2);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ(second[i].addr, first[i].addr);
        if (second[i].val != first[i].val) {
            n_changed++;
        }
    }
    CHECK(n_changed > 1 && n_changed <= n / 16 + 1);
    free(second);

    /* Another device has another map, the same every time. */
    CHECK_ERR(ops->fwdump_force(ctx2), 0);
    get_dump(ops, ctx2, &other, &n_other);
    CHECK(n_other != n || memcmp(other, first, n * sizeof *first));
    free(other);

    /* A fatal error captures a dump when none is held. */
    CHECK_ERR(ops->fwdump_reset(ctx), 0);
    CHECK_ERR(hw_model_fwdump_fatal("model90"), 0);
    CHECK_ERR(ops->fwdump_force(ctx), EEXIST);
    get_dump(ops, ctx, &second, &n2);
    CHECK_EQ(second[1].val, 3);
    free(second);

    /* Dumps disabled: the driver's dump_data is NULL. */
    CHECK_ERR(hw_model_fwdump_set_enabled("model90", false), 0);
    CHECK_ERR(ops->fwdump_force(ctx), EIO);
    CHECK_ERR(ops->fwdump_get(ctx, NULL, 0, &filled), ENOENT);
    CHECK_ERR(ops->fwdump_get(ctx, small, ARRAY_SIZE(small), &filled),
              ENOENT);
    CHECK_ERR(ops->fwdump_reset(ctx), ENOENT);
    CHECK_ERR(hw_model_fwdump_fatal("model90"), EIO);
    /* The other device is not affected. */
    CHECK_ERR(ops->fwdump_get(ctx2, small, ARRAY_SIZE(small), &filled), 0);

    /* Enabled again: the same map, no dump held. */
    CHECK_ERR(hw_model_fwdump_set_enabled("model90", true), 0);
    CHECK_ERR(ops->fwdump_get(ctx, NULL, 0, &filled), 0);
    CHECK_EQ(filled, n);
    CHECK_ERR(ops->fwdump_get(ctx, small, ARRAY_SIZE(small), &filled),
              ENOENT);
    CHECK_ERR(ops->fwdump_force(ctx), 0);
    get_dump(ops, ctx, &second, &n2);
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ(second[i].addr, first[i].addr);
    }
    free(second);

    CHECK_ERR(hw_model_fwdump_set_enabled("mlx5_0", false), ENODEV);
    CHECK_ERR(hw_model_fwdump_fatal("model007"), ENODEV);

    free(first);
    ops->close(ctx);
    ops->close(ctx2);
}

static void
test_privileges(void)
{
    struct ds reason = DS_EMPTY_INITIALIZER;
    bool forced;

    CHECK_STREQ(hw_cap_name(HW_CAP_NET_RAW), "CAP_NET_RAW");
    CHECK_STREQ(hw_cap_name(HW_CAP_NET_ADMIN), "CAP_NET_ADMIN");

    /* The model needs no capability... */
    CHECK(hw_privileges_have(HW_CAP_NET_RAW, &hw_model_ops, &forced));
    CHECK(!forced);
    CHECK_ERR(hw_privileges_check(HW_CAP_NET_RAW, &hw_model_ops, "x",
                                  &reason), 0);
    CHECK_EQ(reason.length, 0);

    /* ...unless one is forced missing, which counts for every backend. */
    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_FORCE_MISSING);
    CHECK(!hw_privileges_have(HW_CAP_NET_RAW, &hw_model_ops, &forced));
    CHECK(forced);
    CHECK(!hw_privileges_have(HW_CAP_NET_RAW, NULL, NULL));
    CHECK(hw_privileges_have(HW_CAP_NET_ADMIN, &hw_model_ops, NULL));
    CHECK_ERR(hw_privileges_check(HW_CAP_NET_RAW, &hw_model_ops,
                                  "steering rules", &reason),
              EPERM);
    CHECK_STREQ(ds_cstr(&reason), "ovs-vswitchd lacks CAP_NET_RAW (forced "
                "by netdev-hw/privileges), needed for steering rules");

    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_FORCE_PRESENT);
    CHECK(hw_privileges_have(HW_CAP_NET_RAW, NULL, &forced));
    CHECK(forced);

    hw_privileges_force(HW_CAP_NET_RAW, HW_CAP_REAL);
    CHECK(hw_privileges_have(HW_CAP_NET_RAW, &hw_model_ops, &forced));
    CHECK(!forced);
    /* For a kernel device the answer is the process's own; whatever it is,
     * it is not forced and the check agrees with it. */
    ds_clear(&reason);
    CHECK_ERR(hw_privileges_check(HW_CAP_NET_ADMIN, NULL, "x", &reason),
              hw_privileges_have(HW_CAP_NET_ADMIN, NULL, NULL) ? 0 : EPERM);
    ds_destroy(&reason);
}

static void
test_pci_from_ibdev(void)
{
    struct ibv_device ibdev;
    struct ibv_context ctx;
    struct hw_pci_addr addr;
    struct hw_fwdump_reg reg;
    size_t filled = 1;
    int error;

    error = hw_fwdump_pci_from_ibdev("no_such_ibdev", &addr);
#ifdef __linux__
    CHECK_ERR(error, ENOENT);
    CHECK_ERR(hw_fwdump_pci_from_ibdev("../../x", &addr), ENOENT);
    CHECK_ERR(hw_fwdump_pci_from_ibdev("", &addr), ENOENT);
#else
    CHECK_ERR(error, EOPNOTSUPP);
#endif

    /* The verbs device ops refuse a device without a PCI function before
     * asking the operating system anything. */
    memset(&ibdev, 0, sizeof ibdev);
    ovs_strlcpy(ibdev.name, "no_such_ibdev", sizeof ibdev.name);
    memset(&ctx, 0, sizeof ctx);
    ctx.device = &ibdev;
#ifdef __linux__
    CHECK_ERR(hw_fwdump_verbs_force(&ctx), ENODEV);
    CHECK_ERR(hw_fwdump_verbs_get(&ctx, &reg, 1, &filled), ENODEV);
    CHECK_EQ(filled, 0);
    CHECK_ERR(hw_fwdump_verbs_reset(&ctx), ENODEV);
#else
    CHECK_ERR(hw_fwdump_verbs_force(&ctx), EOPNOTSUPP);
#endif
    CHECK_ERR(hw_fwdump_verbs_force(NULL), ENODEV);
}

static void
run_hw_fwdump_tests(int argc, char *argv[])
{
    static const struct test_hw_case tests[] = {
#define TEST(NAME) { #NAME, test_##NAME }
        TEST(devlink_request),
        TEST(devlink_fmsg),
        TEST(devlink_reporter),
        TEST(mlx5io),
        TEST(pci_addr),
        TEST(write),
        TEST(model_fwdump),
        TEST(privileges),
        TEST(pci_from_ibdev),
#undef TEST
    };

    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-fwdump", run_hw_fwdump_tests);
