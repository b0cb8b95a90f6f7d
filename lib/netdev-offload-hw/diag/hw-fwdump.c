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
#include "hw-fwdump.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "hw-dev.h"
#include "hw-model-fwdump.h"
#include "hw-privileges.h"
#include "netdev.h"
#include "netdev-hw.h"
#include "netdev-provider.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "unixctl.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_fwdump);

int
hw_fwdump_write(const struct hw_fwdump_reg *regs, size_t n, FILE *stream)
{
    for (size_t i = 0; i < n; i++) {
        if (fprintf(stream, "0x%08"PRIx32"\t0x%08"PRIx32"\n",
                    regs[i].addr, regs[i].val) < 0) {
            return errno ? errno : EIO;
        }
    }
    return 0;
}

/* PCI addresses. */

/* Parses 1 to 'max_digits' digits of base 'base' (10 or 16) at '*sp' into
 * '*valuep', which must not exceed 'max', and advances '*sp'. */
static bool
pci_parse_number(const char **sp, int base, int max_digits, uint32_t max,
                 uint32_t *valuep)
{
    const char *s = *sp;
    uint64_t value = 0;
    int n;

    for (n = 0; n < max_digits; n++) {
        int digit;

        if (s[n] >= '0' && s[n] <= '9') {
            digit = s[n] - '0';
        } else if (base == 16 && s[n] >= 'a' && s[n] <= 'f') {
            digit = s[n] - 'a' + 10;
        } else if (base == 16 && s[n] >= 'A' && s[n] <= 'F') {
            digit = s[n] - 'A' + 10;
        } else {
            break;
        }
        value = value * base + digit;
    }
    if (!n || value > max) {
        return false;
    }
    *sp = s + n;
    *valuep = value;
    return true;
}

static bool
pci_parse_char(const char **sp, char c)
{
    const char *s = *sp;

    if (s[0] != c) {
        return false;
    }
    *sp = s + 1;
    return true;
}

bool
hw_pci_addr_parse(const char *s, struct hw_pci_addr *addr)
{
    uint32_t v[4];
    int n = 0;

    if (!s) {
        return false;
    }
    if (!strncmp(s, "pci", 3)) {
        /* mlx5tool: "pciD:B:S:F" or "pciB:S:F", decimal. */
        s += 3;
        for (n = 0; n < 4 && (!n || *s); n++) {
            if ((n && !pci_parse_char(&s, ':'))
                || !pci_parse_number(&s, 10, 10, UINT32_MAX, &v[n])) {
                return false;
            }
        }
        if (*s || n < 3) {
            return false;
        }
        if (n == 3) {
            memmove(&v[1], &v[0], 3 * sizeof v[0]);
            v[0] = 0;
        }
    } else {
        /* Linux: "DDDD:BB:SS.F" or "BB:SS.F", hexadecimal. */
        const char *p = s;

        if (pci_parse_number(&p, 16, 8, UINT32_MAX, &v[0])
            && pci_parse_char(&p, ':')
            && pci_parse_number(&p, 16, 2, 0xff, &v[1])
            && pci_parse_char(&p, ':')) {
            /* Domain given. */
            s = p;
        } else {
            v[0] = 0;
            p = s;
            if (!pci_parse_number(&p, 16, 2, 0xff, &v[1])
                || !pci_parse_char(&p, ':')) {
                return false;
            }
            s = p;
        }
        if (!pci_parse_number(&s, 16, 2, 0x1f, &v[2])
            || !pci_parse_char(&s, '.')
            || !pci_parse_number(&s, 16, 1, 7, &v[3])
            || *s) {
            return false;
        }
    }
    if (v[1] > 0xff || v[2] > 0x1f || v[3] > 7) {
        return false;
    }
    addr->domain = v[0];
    addr->bus = v[1];
    addr->slot = v[2];
    addr->func = v[3];
    return true;
}

void
hw_pci_addr_format(const struct hw_pci_addr *addr,
                   char buf[HW_PCI_ADDR_BUFSIZE])
{
    snprintf(buf, HW_PCI_ADDR_BUFSIZE, "%04"PRIx32":%02x:%02x.%x",
             addr->domain, addr->bus, addr->slot, addr->func);
}

/* The operating system's interface. */

#define HW_SYSFS_IB_DIR "/sys/class/infiniband"

int
hw_fwdump_pci_force(const struct hw_pci_addr *addr)
{
#if defined(__FreeBSD__)
    return hw_fwdump_mlx5ctl_force(addr);
#elif defined(__linux__)
    char name[HW_PCI_ADDR_BUFSIZE];

    hw_pci_addr_format(addr, name);
    return hw_fwdump_devlink_force(name);
#else
    return EOPNOTSUPP;
#endif
}

int
hw_fwdump_pci_get(const struct hw_pci_addr *addr, struct hw_fwdump_reg *buf,
                  size_t n, size_t *n_filled)
{
#if defined(__FreeBSD__)
    return hw_fwdump_mlx5ctl_get(addr, buf, n, n_filled);
#elif defined(__linux__)
    char name[HW_PCI_ADDR_BUFSIZE];

    hw_pci_addr_format(addr, name);
    return hw_fwdump_devlink_get(name, buf, n, n_filled);
#else
    *n_filled = 0;
    return EOPNOTSUPP;
#endif
}

int
hw_fwdump_pci_reset(const struct hw_pci_addr *addr)
{
#if defined(__FreeBSD__)
    return hw_fwdump_mlx5ctl_reset(addr);
#elif defined(__linux__)
    char name[HW_PCI_ADDR_BUFSIZE];

    hw_pci_addr_format(addr, name);
    return hw_fwdump_devlink_reset(name);
#else
    return EOPNOTSUPP;
#endif
}

bool
hw_fwdump_pci_has_addresses(void)
{
#ifdef __FreeBSD__
    return true;
#else
    return false;
#endif
}

int
hw_fwdump_pci_from_ibdev(const char *ibdev_name, struct hw_pci_addr *addr)
{
#ifdef __linux__
    char link[PATH_MAX], *path;
    const char *base;
    ssize_t len;

    if (!ibdev_name || !ibdev_name[0] || strchr(ibdev_name, '/')) {
        return ENOENT;
    }
    /* /sys/class/infiniband/mlx5_0/device -> ../../../0000:03:00.0 */
    path = xasprintf("%s/%s/device", HW_SYSFS_IB_DIR, ibdev_name);
    len = readlink(path, link, sizeof link - 1);
    free(path);
    if (len < 0) {
        return errno == ENOENT ? ENOENT : errno;
    }
    link[len] = '\0';
    base = strrchr(link, '/');
    base = base ? base + 1 : link;
    return hw_pci_addr_parse(base, addr) ? 0 : ENOENT;
#else
    return EOPNOTSUPP;
#endif
}

/* Device ops of kernel verbs devices. */

static int
fwdump_verbs_pci(const struct ibv_context *ctx, struct hw_pci_addr *pci)
{
    int error;

    if (!ctx || !ctx->device) {
        return ENODEV;
    }
    error = hw_fwdump_pci_from_ibdev(ctx->device->name, pci);
    if (error) {
        VLOG_DBG("%s: no PCI function found (%s)", ctx->device->name,
                 ovs_strerror(error));
        return error == ENOENT ? ENODEV : error;
    }
    return 0;
}

int
hw_fwdump_verbs_force(struct ibv_context *ctx)
{
    struct hw_pci_addr pci;
    int error = fwdump_verbs_pci(ctx, &pci);

    return error ? error : hw_fwdump_pci_force(&pci);
}

int
hw_fwdump_verbs_get(struct ibv_context *ctx, struct hw_fwdump_reg *buf,
                    size_t n, size_t *n_filled)
{
    struct hw_pci_addr pci;
    int error = fwdump_verbs_pci(ctx, &pci);

    *n_filled = 0;
    return error ? error : hw_fwdump_pci_get(&pci, buf, n, n_filled);
}

int
hw_fwdump_verbs_reset(struct ibv_context *ctx)
{
    struct hw_pci_addr pci;
    int error = fwdump_verbs_pci(ctx, &pci);

    return error ? error : hw_fwdump_pci_reset(&pci);
}

/* The diagnostic. */

enum fwdump_op {
    FWDUMP_CAPTURE,
    FWDUMP_FETCH,
    FWDUMP_CLEAR,
};

static const char *const fwdump_op_names[] = {
    [FWDUMP_CAPTURE] = "capture",
    [FWDUMP_FETCH] = "fetch",
    [FWDUMP_CLEAR] = "clear",
};

/* What a command acts on: a hw port's device, or a PCI function. */
struct fwdump_target {
    char *name;                     /* For messages: "p1 (model0)". */
    struct netdev *netdev;          /* Hw port, or NULL for 'pci'. */
    struct netdev_hw_device dev;    /* If 'netdev'. */
    struct hw_pci_addr pci;         /* If not 'netdev'. */
};

/* Opens 'arg' as a hw port or a PCI address.  Returns true, or false with
 * an error message in 'err'. */
static bool
fwdump_target_open(const char *arg, struct fwdump_target *t, struct ds *err)
{
    memset(t, 0, sizeof *t);
    t->netdev = netdev_from_name(arg);
    if (t->netdev) {
        if (!netdev_is_hw(t->netdev)) {
            ds_put_format(err, "%s: not a hw port", arg);
        } else if (!netdev_hw_get_device(t->netdev, &t->dev)) {
            ds_put_format(err, "%s: the port's device is not open", arg);
        } else {
            t->name = xasprintf("%s (%s)", arg, t->dev.devname);
            return true;
        }
        netdev_close(t->netdev);
        t->netdev = NULL;
        return false;
    }
    if (hw_pci_addr_parse(arg, &t->pci)) {
        char pci_name[HW_PCI_ADDR_BUFSIZE];

        hw_pci_addr_format(&t->pci, pci_name);
        t->name = xasprintf("pci/%s", pci_name);
        return true;
    }
    ds_put_format(err, "%s: no such port, and not a PCI address "
                  "(DDDD:BB:SS.F, or pciD:B:S:F as mlx5tool -d)", arg);
    return false;
}

static void
fwdump_target_close(struct fwdump_target *t)
{
    netdev_close(t->netdev);
    free(t->name);
}

static const struct hw_dev_ops *
fwdump_target_ops(const struct fwdump_target *t)
{
    return t->netdev ? t->dev.ops : NULL;
}

/* Whether the registers' 'addr' are crspace addresses rather than byte
 * offsets into a raw dump. */
static bool
fwdump_target_has_addresses(const struct fwdump_target *t)
{
    const struct hw_dev_ops *ops = fwdump_target_ops(t);

    return ops ? ops->fwdump_reg_addresses : hw_fwdump_pci_has_addresses();
}

static int
fwdump_target_force(const struct fwdump_target *t)
{
    if (!t->netdev) {
        return hw_fwdump_pci_force(&t->pci);
    }
    return (t->dev.ops->fwdump_force
            ? t->dev.ops->fwdump_force(t->dev.ctx) : EOPNOTSUPP);
}

static int
fwdump_target_get(const struct fwdump_target *t, struct hw_fwdump_reg *buf,
                  size_t n, size_t *n_filled)
{
    *n_filled = 0;
    if (!t->netdev) {
        return hw_fwdump_pci_get(&t->pci, buf, n, n_filled);
    }
    return (t->dev.ops->fwdump_get
            ? t->dev.ops->fwdump_get(t->dev.ctx, buf, n, n_filled)
            : EOPNOTSUPP);
}

static int
fwdump_target_reset(const struct fwdump_target *t)
{
    if (!t->netdev) {
        return hw_fwdump_pci_reset(&t->pci);
    }
    return (t->dev.ops->fwdump_reset
            ? t->dev.ops->fwdump_reset(t->dev.ctx) : EOPNOTSUPP);
}

/* Reads the whole dump as mlx5tool -w does: the size first, then the data.
 * Returns 0 with a malloc()ed array (possibly NULL and empty) or an errno
 * value. */
static int
fwdump_target_fetch(const struct fwdump_target *t,
                    struct hw_fwdump_reg **regsp, size_t *n_regsp)
{
    struct hw_fwdump_reg *regs;
    size_t total, filled;
    int error;

    *regsp = NULL;
    *n_regsp = 0;
    error = fwdump_target_get(t, NULL, 0, &total);
    if (error) {
        return error;
    }
    regs = xmalloc(MAX(total, 1) * sizeof *regs);
    error = fwdump_target_get(t, regs, total, &filled);
    if (error) {
        free(regs);
        return error;
    }
    *regsp = regs;
    *n_regsp = MIN(filled, total);
    return 0;
}

/* A hint for 'error' from 'op', or NULL. */
static const char *
fwdump_hint(enum fwdump_op op, int error)
{
    switch (error) {
    case EEXIST:
        return (op == FWDUMP_CAPTURE
                ? "a dump is already held (there is only one): fetch it, "
                  "then clear it" : NULL);
    case EIO:
        return (op == FWDUMP_CAPTURE
                ? "the device cannot dump (firmware dumps disabled)" : NULL);
    case ENOENT:
        return (op == FWDUMP_FETCH
                ? "no dump held (capture one first), or firmware dumps "
                  "disabled"
                : op == FWDUMP_CLEAR ? "firmware dumps disabled" : NULL);
    case EOPNOTSUPP:
        return "the device's backend cannot dump firmware";
    case EPERM:
    case EACCES:
#if defined(__FreeBSD__)
        return "permission denied (capturing and clearing need write "
               "access to /dev/mlx5ctl)";
#elif defined(__linux__)
        return "permission denied (devlink needs CAP_NET_ADMIN, and mlx5 "
               "dumps physical functions only)";
#else
        return "permission denied";
#endif
    case ENODEV:
        return "no such device";
    default:
        return NULL;
    }
}

static void
fwdump_put_error(struct ds *s, const struct fwdump_target *t,
                 enum fwdump_op op, int error)
{
    const char *hint = fwdump_hint(op, error);

    ds_put_format(s, "%s: %s failed: ", t->name, fwdump_op_names[op]);
    if (hint) {
        ds_put_format(s, "%s (%s)", hint, ovs_strerror(error));
    } else {
        ds_put_cstr(s, ovs_strerror(error));
    }
}

static int
fwdump_write_file(const char *file_name, const struct hw_fwdump_reg *regs,
                  size_t n)
{
    FILE *stream = fopen(file_name, "w");
    int error;

    if (!stream) {
        return errno;
    }
    error = hw_fwdump_write(regs, n, stream);
    if (fclose(stream) && !error) {
        error = errno;
    }
    if (error) {
        unlink(file_name);
    }
    return error;
}

static void
hw_fwdump_unixctl(struct unixctl_conn *conn, int argc, const char *argv[],
                  void *aux OVS_UNUSED)
{
    struct ds reply = DS_EMPTY_INITIALIZER;
    struct ds err = DS_EMPTY_INITIALIZER;
    struct fwdump_target t;
    enum fwdump_op op;
    int error;

    if (!strcmp(argv[2], "capture") && argc == 3) {
        op = FWDUMP_CAPTURE;
    } else if (!strcmp(argv[2], "fetch") && argc == 4) {
        op = FWDUMP_FETCH;
    } else if (!strcmp(argv[2], "clear") && argc == 3) {
        op = FWDUMP_CLEAR;
    } else {
        unixctl_command_reply_error(conn, "usage: netdev-hw/fw-dump "
                                    "PORT|PCI-ADDR capture|fetch FILE|clear");
        return;
    }

    if (!fwdump_target_open(argv[1], &t, &err)) {
        unixctl_command_reply_error(conn, ds_cstr(&err));
        ds_destroy(&err);
        return;
    }

    /* devlink is for CAP_NET_ADMIN holders only (GENL_ADMIN_PERM);
     * FreeBSD checks the open mode of /dev/mlx5ctl instead. */
    error = hw_privileges_check(HW_CAP_NET_ADMIN, fwdump_target_ops(&t),
                                "firmware dumps", &err);
    if (error) {
        ds_put_format(&reply, "%s: %s refused: %s", t.name,
                      fwdump_op_names[op], ds_cstr(&err));
        goto error;
    }

    switch (op) {
    case FWDUMP_CAPTURE: {
        size_t n = 0;

        error = fwdump_target_force(&t);
        if (error) {
            break;
        }
        ds_put_format(&reply, "%s: firmware dump captured", t.name);
        if (!fwdump_target_get(&t, NULL, 0, &n) && n) {
            ds_put_format(&reply, " (%"PRIuSIZE" registers)", n);
        }
        break;
    }

    case FWDUMP_FETCH: {
        struct hw_fwdump_reg *regs;
        size_t n;

        error = fwdump_target_fetch(&t, &regs, &n);
        if (error) {
            break;
        }
        error = fwdump_write_file(argv[3], regs, n);
        free(regs);
        if (error) {
            ds_put_format(&reply, "%s: fetch failed: %s: %s", t.name,
                          argv[3], ovs_strerror(error));
            goto error;
        }
        ds_put_format(&reply, "%s: wrote %"PRIuSIZE" registers to %s",
                      t.name, n, argv[3]);
        if (!fwdump_target_has_addresses(&t)) {
            ds_put_cstr(&reply, " (raw dump: the first column is the byte "
                        "offset)");
        }
        break;
    }

    case FWDUMP_CLEAR:
        error = fwdump_target_reset(&t);
        if (!error) {
            ds_put_format(&reply, "%s: firmware dump cleared", t.name);
        }
        break;

    default:
        OVS_NOT_REACHED();
    }

    if (error) {
        fwdump_put_error(&reply, &t, op, error);
        goto error;
    }
    VLOG_INFO("%s", ds_cstr(&reply));
    unixctl_command_reply(conn, ds_cstr(&reply));
    goto out;

error:
    VLOG_INFO("%s", ds_cstr(&reply));
    unixctl_command_reply_error(conn, ds_cstr(&reply));
out:
    fwdump_target_close(&t);
    ds_destroy(&reply);
    ds_destroy(&err);
}

void
hw_fwdump_register_commands(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        unixctl_command_register("netdev-hw/fw-dump",
                                 "PORT|PCI-ADDR capture|fetch FILE|clear",
                                 2, 3, hw_fwdump_unixctl, NULL);
        hw_model_fwdump_init();
        ovsthread_once_done(&once);
    }
}
