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

/* Firmware dump on Linux: mlx5's devlink health reporter "fw_fatal"
 * (hw-apis.md section 6.2), spoken over generic netlink with OVS's netlink
 * library, what "devlink health dump show/clear pci/... reporter fw_fatal"
 * does.
 *
 * The reporter's dump is a devlink "fmsg": a flat list of items (nest
 * start/end flags, pair names, typed values) that the kernel spreads over
 * the messages of a netlink dump.  mlx5 puts the crspace words into the
 * array pair "crdump_data" as binary values of up to 256 bytes each.
 *
 * Mapping to the FreeBSD contract of hw-fwdump.h: devlink captures a dump
 * itself when DUMP_GET finds none, so "force" first asks HEALTH_REPORTER_GET
 * whether one is held (EEXIST) and "get" refuses with ENOENT when none is,
 * rather than capturing one behind the caller's back. */

#include <config.h>
#include "hw-fwdump.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "util.h"

#ifdef __linux__
#include <linux/devlink.h>
#include "netlink-socket.h"
#endif

VLOG_DEFINE_THIS_MODULE(hw_fwdump_devlink);

/* The family and the attributes we use: kernel ABI, defined here so that
 * the message code builds and is tested anywhere, and checked against
 * linux/devlink.h on Linux. */
#define HW_DEVLINK_GENL_NAME    "devlink"
#define HW_DEVLINK_GENL_VERSION 1
#define HW_DEVLINK_ATTR_BUS_NAME                   1
#define HW_DEVLINK_ATTR_DEV_NAME                   2
#define HW_DEVLINK_ATTR_FMSG                       106
#define HW_DEVLINK_ATTR_FMSG_OBJ_NEST_START        107
#define HW_DEVLINK_ATTR_FMSG_PAIR_NEST_START       108
#define HW_DEVLINK_ATTR_FMSG_ARR_NEST_START        109
#define HW_DEVLINK_ATTR_FMSG_NEST_END              110
#define HW_DEVLINK_ATTR_FMSG_OBJ_NAME              111
#define HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE        112
#define HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA        113
#define HW_DEVLINK_ATTR_HEALTH_REPORTER            114
#define HW_DEVLINK_ATTR_HEALTH_REPORTER_NAME       115
#define HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS    119
#define HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS 137

/* The type of an fmsg value is the kernel's netlink policy type: NLA_BINARY
 * (include/net/netlink.h; DEVLINK_VAR_ATTR_TYPE_BINARY in newer headers). */
#define HW_DEVLINK_NLA_BINARY 11

#ifdef __linux__
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_BUS_NAME == DEVLINK_ATTR_BUS_NAME);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_DEV_NAME == DEVLINK_ATTR_DEV_NAME);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG == DEVLINK_ATTR_FMSG);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_OBJ_NEST_START
                  == DEVLINK_ATTR_FMSG_OBJ_NEST_START);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_PAIR_NEST_START
                  == DEVLINK_ATTR_FMSG_PAIR_NEST_START);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_ARR_NEST_START
                  == DEVLINK_ATTR_FMSG_ARR_NEST_START);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_NEST_END == DEVLINK_ATTR_FMSG_NEST_END);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_OBJ_NAME == DEVLINK_ATTR_FMSG_OBJ_NAME);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE
                  == DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA
                  == DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_HEALTH_REPORTER
                  == DEVLINK_ATTR_HEALTH_REPORTER);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_HEALTH_REPORTER_NAME
                  == DEVLINK_ATTR_HEALTH_REPORTER_NAME);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS
                  == DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS);
BUILD_ASSERT_DECL(HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS
                  == DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS);
BUILD_ASSERT_DECL(HW_DEVLINK_CMD_HEALTH_REPORTER_GET
                  == DEVLINK_CMD_HEALTH_REPORTER_GET);
BUILD_ASSERT_DECL(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET
                  == DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET);
BUILD_ASSERT_DECL(HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR
                  == DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR);
BUILD_ASSERT_DECL(HW_DEVLINK_GENL_VERSION == DEVLINK_GENL_VERSION);
#endif

/* Messages. */

void
hw_devlink_put_request(struct ofpbuf *buf, int family, uint8_t cmd,
                       const char *dev_name)
{
    uint32_t flags = NLM_F_REQUEST;

    if (cmd == HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET) {
        /* nl_dump_start() adds these two: set them here so that the bytes
         * are those that go out. */
        flags |= NLM_F_DUMP | NLM_F_ACK;
    } else if (cmd == HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR) {
        /* No reply otherwise: the ack is the answer. */
        flags |= NLM_F_ACK;
    }

    nl_msg_put_genlmsghdr(buf, 0, family, flags, cmd,
                          HW_DEVLINK_GENL_VERSION);
    nl_msg_put_string(buf, HW_DEVLINK_ATTR_BUS_NAME, "pci");
    nl_msg_put_string(buf, HW_DEVLINK_ATTR_DEV_NAME, dev_name);
    nl_msg_put_string(buf, HW_DEVLINK_ATTR_HEALTH_REPORTER_NAME,
                      HW_DEVLINK_REPORTER);
    nl_msg_nlmsghdr(buf)->nlmsg_len = buf->size;
}

int
hw_devlink_parse_reporter(const struct ofpbuf *reply, bool *has_dump)
{
    static const struct nl_policy policy[] = {
        [HW_DEVLINK_ATTR_HEALTH_REPORTER] = { .type = NL_A_NESTED },
    };
    static const struct nl_policy reporter_policy[] = {
        [HW_DEVLINK_ATTR_HEALTH_REPORTER_NAME] = { .type = NL_A_STRING },
        [HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS] = { .type = NL_A_U64,
                                                      .optional = true },
        [HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS] = { .type = NL_A_U64,
                                                         .optional = true },
    };
    struct nlattr *reporter[ARRAY_SIZE(reporter_policy)];
    struct nlattr *attrs[ARRAY_SIZE(policy)];

    *has_dump = false;
    if (!nl_policy_parse(reply, NLMSG_HDRLEN + GENL_HDRLEN, policy, attrs,
                         ARRAY_SIZE(policy))
        || !nl_parse_nested(attrs[HW_DEVLINK_ATTR_HEALTH_REPORTER],
                            reporter_policy, reporter,
                            ARRAY_SIZE(reporter_policy))) {
        return EPROTO;
    }
    *has_dump = (reporter[HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS]
                 || reporter[HW_DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS_NS]);
    return 0;
}

void
hw_devlink_fmsg_init(struct hw_devlink_fmsg *fmsg)
{
    memset(fmsg, 0, sizeof *fmsg);
    fmsg->data = ofpbuf_new(0);
    fmsg->value_type = -1;
}

void
hw_devlink_fmsg_destroy(struct hw_devlink_fmsg *fmsg)
{
    if (fmsg) {
        ofpbuf_delete(fmsg->data);
        fmsg->data = NULL;
    }
}

static int OVS_PRINTF_FORMAT(2, 3)
fmsg_error(struct ds *reason, const char *format, ...)
{
    if (reason) {
        va_list args;

        va_start(args, format);
        ds_put_format_valist(reason, format, args);
        va_end(args);
    }
    return EPROTO;
}

int
hw_devlink_fmsg_parse(struct hw_devlink_fmsg *fmsg, const struct ofpbuf *msg,
                      struct ds *reason)
{
    static const struct nl_policy policy[] = {
        [HW_DEVLINK_ATTR_FMSG] = { .type = NL_A_NESTED, .optional = true },
    };
    struct nlattr *attrs[ARRAY_SIZE(policy)];
    const struct nlattr *nla;
    size_t left;

    if (!nl_policy_parse(msg, NLMSG_HDRLEN + GENL_HDRLEN, policy, attrs,
                         ARRAY_SIZE(policy))) {
        return fmsg_error(reason, "malformed devlink dump message");
    }
    if (!attrs[HW_DEVLINK_ATTR_FMSG]) {
        return 0;
    }

    NL_NESTED_FOR_EACH (nla, left, attrs[HW_DEVLINK_ATTR_FMSG]) {
        int type = nl_attr_type(nla);
        int top = fmsg->depth - 1;

        switch (type) {
        case HW_DEVLINK_ATTR_FMSG_OBJ_NEST_START:
        case HW_DEVLINK_ATTR_FMSG_PAIR_NEST_START:
        case HW_DEVLINK_ATTR_FMSG_ARR_NEST_START:
            if (fmsg->depth >= HW_DEVLINK_FMSG_MAX_DEPTH) {
                return fmsg_error(reason, "fmsg nested deeper than %d",
                                  HW_DEVLINK_FMSG_MAX_DEPTH);
            }
            fmsg->stack[fmsg->depth].kind = type;
            fmsg->stack[fmsg->depth].named = false;
            /* Objects and arrays belong to the pair they are in; a pair is
             * "crdump_data" only once its name says so. */
            fmsg->stack[fmsg->depth].crdump
                = (type != HW_DEVLINK_ATTR_FMSG_PAIR_NEST_START && top >= 0
                   && fmsg->stack[top].crdump);
            fmsg->depth++;
            break;

        case HW_DEVLINK_ATTR_FMSG_NEST_END:
            if (!fmsg->depth) {
                return fmsg_error(reason, "fmsg nest end without a start");
            }
            fmsg->depth--;
            break;

        case HW_DEVLINK_ATTR_FMSG_OBJ_NAME: {
            size_t size = nl_attr_get_size(nla);
            const char *name = nl_attr_get(nla);

            if (!size || name[size - 1] != '\0') {
                return fmsg_error(reason, "fmsg name not a string");
            }
            if (top < 0 || fmsg->stack[top].named
                || (fmsg->stack[top].kind
                    != HW_DEVLINK_ATTR_FMSG_PAIR_NEST_START)) {
                return fmsg_error(reason, "fmsg name \"%s\" outside a pair",
                                  name);
            }
            fmsg->stack[top].named = true;
            if (!strcmp(name, HW_DEVLINK_CRDUMP_PAIR)) {
                fmsg->stack[top].crdump = true;
                fmsg->found = true;
            }
            break;
        }

        case HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_TYPE:
            if (nl_attr_get_size(nla) != 1) {
                return fmsg_error(reason, "fmsg value type of %"PRIuSIZE
                                  " bytes", nl_attr_get_size(nla));
            }
            fmsg->value_type = nl_attr_get_u8(nla);
            break;

        case HW_DEVLINK_ATTR_FMSG_OBJ_VALUE_DATA:
            if (top >= 0 && fmsg->stack[top].crdump) {
                if (fmsg->value_type != HW_DEVLINK_NLA_BINARY) {
                    return fmsg_error(reason, "\"%s\" value of type %d, "
                                      "expected binary (%d)",
                                      HW_DEVLINK_CRDUMP_PAIR,
                                      fmsg->value_type,
                                      HW_DEVLINK_NLA_BINARY);
                }
                ofpbuf_put(fmsg->data, nl_attr_get(nla),
                           nl_attr_get_size(nla));
            }
            fmsg->value_type = -1;
            break;

        default:
            /* Newer kernels may add items; they cannot be crdump data. */
            break;
        }
    }
    if (left) {
        return fmsg_error(reason, "truncated fmsg attribute");
    }
    return 0;
}

int
hw_devlink_fmsg_finish(struct hw_devlink_fmsg *fmsg,
                       struct hw_fwdump_reg **regsp, size_t *n_regsp,
                       struct ds *reason)
{
    const uint8_t *bytes = fmsg->data->data;
    struct hw_fwdump_reg *regs;
    size_t n;

    *regsp = NULL;
    *n_regsp = 0;
    if (fmsg->depth) {
        return fmsg_error(reason, "fmsg ended inside %d nests", fmsg->depth);
    }
    if (!fmsg->found) {
        return ENOENT;
    }
    if (fmsg->data->size % 4) {
        return fmsg_error(reason, "\"%s\" of %"PRIu32" bytes, not whole "
                          "32-bit words", HW_DEVLINK_CRDUMP_PAIR,
                          fmsg->data->size);
    }

    n = fmsg->data->size / 4;
    regs = n ? xmalloc(n * sizeof *regs) : NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t word;

        memcpy(&word, bytes + 4 * i, sizeof word);
        regs[i].addr = 4 * i;
        regs[i].val = word;
    }
    *regsp = regs;
    *n_regsp = n;
    return 0;
}

/* Talking to the kernel. */

#ifdef __linux__
static int
devlink_family(int *family)
{
    int error;

    /* Looked up every time: the family appears when a driver that uses
     * devlink is loaded, and this is a rare diagnostic. */
    *family = 0;
    error = nl_lookup_genl_family(HW_DEVLINK_GENL_NAME, family);
    if (error) {
        /* mlx5_core selects NET_DEVLINK: without the family there is no
         * mlx5 device to dump. */
        VLOG_DBG("no \"%s\" generic netlink family (%s)",
                 HW_DEVLINK_GENL_NAME, ovs_strerror(error));
        return error == ENOENT ? ENODEV : error;
    }
    return 0;
}

static int
devlink_has_dump(const char *dev_name, bool *has_dump)
{
    struct ofpbuf request, *reply;
    int family, error;

    *has_dump = false;
    error = devlink_family(&family);
    if (error) {
        return error;
    }
    ofpbuf_init(&request, 0);
    hw_devlink_put_request(&request, family,
                           HW_DEVLINK_CMD_HEALTH_REPORTER_GET, dev_name);
    error = nl_transact(NETLINK_GENERIC, &request, &reply);
    ofpbuf_uninit(&request);
    if (!error) {
        error = hw_devlink_parse_reporter(reply, has_dump);
        ofpbuf_delete(reply);
    }
    VLOG_DBG("pci/%s reporter %s: %s", dev_name, HW_DEVLINK_REPORTER,
             error ? ovs_strerror(error)
             : *has_dump ? "holds a dump" : "no dump");
    return error;
}

/* Reads the reporter's dump (the kernel captures one if it has none). */
static int
devlink_read_dump(const char *dev_name, struct hw_fwdump_reg **regsp,
                  size_t *n_regsp)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    uint64_t reply_stub[NL_DUMP_BUFSIZE / 8];
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf request, reply, buf;
    struct hw_devlink_fmsg fmsg;
    struct nl_dump dump;
    int family, error, done_error;

    *regsp = NULL;
    *n_regsp = 0;
    error = devlink_family(&family);
    if (error) {
        return error;
    }

    ofpbuf_init(&request, 0);
    hw_devlink_put_request(&request, family,
                           HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET, dev_name);
    nl_dump_start(&dump, NETLINK_GENERIC, &request);
    ofpbuf_uninit(&request);

    hw_devlink_fmsg_init(&fmsg);
    ofpbuf_use_stub(&buf, reply_stub, sizeof reply_stub);
    while (nl_dump_next(&dump, &reply, &buf)) {
        if (!error) {
            error = hw_devlink_fmsg_parse(&fmsg, &reply, &reason);
        }
    }
    done_error = nl_dump_done(&dump);
    ofpbuf_uninit(&buf);

    if (done_error) {
        error = done_error;
    } else if (!error) {
        error = hw_devlink_fmsg_finish(&fmsg, regsp, n_regsp, &reason);
    }
    if (error == EPROTO) {
        VLOG_WARN_RL(&rl, "pci/%s reporter %s: bad dump: %s", dev_name,
                     HW_DEVLINK_REPORTER, ds_cstr(&reason));
    }
    hw_devlink_fmsg_destroy(&fmsg);
    ds_destroy(&reason);
    return error;
}

int
hw_fwdump_devlink_force(const char *dev_name)
{
    struct hw_fwdump_reg *regs;
    bool has_dump;
    size_t n;
    int error;

    error = devlink_has_dump(dev_name, &has_dump);
    if (error) {
        return error;
    }
    if (has_dump) {
        return EEXIST;
    }
    error = devlink_read_dump(dev_name, &regs, &n);
    free(regs);
    /* A dump without crspace data: the device cannot dump. */
    return error == ENOENT ? EIO : error;
}

int
hw_fwdump_devlink_get(const char *dev_name, struct hw_fwdump_reg *buf,
                      size_t n, size_t *n_filled)
{
    struct hw_fwdump_reg *regs;
    bool has_dump;
    size_t total;
    int error;

    *n_filled = 0;
    error = devlink_has_dump(dev_name, &has_dump);
    if (error) {
        return error;
    }
    if (!has_dump) {
        /* The size of a dump is only known once one exists: report 0 for
         * a size query, as the contract allows no better. */
        return buf ? ENOENT : 0;
    }
    error = devlink_read_dump(dev_name, &regs, &total);
    if (!error) {
        if (buf) {
            *n_filled = MIN(n, total);
            memcpy(buf, regs, *n_filled * sizeof *buf);
        } else {
            *n_filled = total;
        }
        free(regs);
    }
    return error;
}

int
hw_fwdump_devlink_reset(const char *dev_name)
{
    struct ofpbuf request;
    int family, error;

    error = devlink_family(&family);
    if (error) {
        return error;
    }
    ofpbuf_init(&request, 0);
    hw_devlink_put_request(&request, family,
                           HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR,
                           dev_name);
    error = nl_transact(NETLINK_GENERIC, &request, NULL);
    ofpbuf_uninit(&request);
    return error;
}

#else  /* !__linux__ */

int
hw_fwdump_devlink_force(const char *dev_name OVS_UNUSED)
{
    return EOPNOTSUPP;
}

int
hw_fwdump_devlink_get(const char *dev_name OVS_UNUSED,
                      struct hw_fwdump_reg *buf OVS_UNUSED,
                      size_t n OVS_UNUSED, size_t *n_filled)
{
    *n_filled = 0;
    return EOPNOTSUPP;
}

int
hw_fwdump_devlink_reset(const char *dev_name OVS_UNUSED)
{
    return EOPNOTSUPP;
}
#endif /* !__linux__ */
