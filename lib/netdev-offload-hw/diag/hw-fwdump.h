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

#ifndef HW_FWDUMP_H
#define HW_FWDUMP_H 1

/* Firmware dump diagnostic (hw-apis.md section 6).
 *
 * A NIC's firmware dump is a snapshot of its configuration register space
 * ("crspace").  Every source is normalised to the contract of FreeBSD's
 * mlx5io(4) ioctls (section 6.1), which the device ops fwdump_force(),
 * fwdump_get() and fwdump_reset() of hw-dev.h follow:
 *
 *   force:  capture a dump now.  EEXIST if one is already held (there is
 *           only one), EIO if the device cannot dump (dumps disabled).
 *   get:    with 'buf' NULL, store the number of registers a dump holds in
 *           '*n_filled' and return 0, even when no dump is held.  Otherwise
 *           ENOENT if no dump is held, else copy min(n, total) registers in
 *           address-map order and store the number copied.  ENOENT in both
 *           cases if the device cannot dump.
 *   reset:  discard the dump.  ENOENT if the device cannot dump.
 *
 * The sources are the NIC model (hw-model-fwdump.c), FreeBSD's
 * /dev/mlx5ctl (hw-fwdump-freebsd.c) and, on Linux, mlx5's devlink health
 * reporter "fw_fatal" (hw-fwdump-devlink.c), whose dump is raw 32-bit words
 * without addresses: there the 'addr' of each register is its byte offset in
 * the dump.
 *
 * ovs-appctl netdev-hw/fw-dump PORT|PCI-ADDR capture|fetch FILE|clear drives
 * it for a hw port (through its device's backend) or a PCI function
 * (through the operating system's interface). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ds;
struct ofpbuf;

/* One register of a dump: FreeBSD's struct mlx5_fwdump_reg. */
struct hw_fwdump_reg {
    uint32_t addr;
    uint32_t val;
};

/* Writes 'n' registers to 'stream' as FreeBSD's mlx5tool prints them, one
 * "0x%08x\t0x%08x\n" line (address, value) per register.  Returns 0 or an
 * errno value. */
int hw_fwdump_write(const struct hw_fwdump_reg *, size_t n, FILE *stream);

/* PCI function addresses. */
struct hw_pci_addr {
    uint32_t domain;
    uint8_t bus;
    uint8_t slot;                   /* 0..31. */
    uint8_t func;                   /* 0..7. */
};

/* Parses "DDDD:BB:SS.F" or "BB:SS.F" (hexadecimal, Linux's form) or
 * "pciD:B:S:F" (decimal, mlx5tool's -d form).  Returns true on success. */
bool hw_pci_addr_parse(const char *, struct hw_pci_addr *);

/* Formats 'addr' as Linux's "0000:03:00.0" into 'buf'. */
#define HW_PCI_ADDR_BUFSIZE 32
void hw_pci_addr_format(const struct hw_pci_addr *,
                        char buf[HW_PCI_ADDR_BUFSIZE]);

/* Firmware dump of a PCI function through the operating system: FreeBSD's
 * /dev/mlx5ctl, Linux's devlink, EOPNOTSUPP elsewhere.  Same contract as
 * above.  For the rdma-core backend's device ops. */
int hw_fwdump_pci_force(const struct hw_pci_addr *);
int hw_fwdump_pci_get(const struct hw_pci_addr *, struct hw_fwdump_reg *buf,
                      size_t n, size_t *n_filled);
int hw_fwdump_pci_reset(const struct hw_pci_addr *);

/* True if hw_fwdump_pci_get() reports register addresses (FreeBSD), false
 * if it reports byte offsets into a raw dump (Linux). */
bool hw_fwdump_pci_has_addresses(void);

/* Finds the PCI function of the verbs device 'ibdev_name' ("mlx5_0") in
 * sysfs.  Returns 0, ENOENT or EOPNOTSUPP (no sysfs). */
int hw_fwdump_pci_from_ibdev(const char *ibdev_name, struct hw_pci_addr *);

/* Device ops fwdump_force/get/reset for a kernel verbs device, for the
 * rdma-core backend's ops table: the dump of the PCI function behind the
 * verbs device of 'ctx' (found with hw_fwdump_pci_from_ibdev()), through
 * hw_fwdump_pci_*().  ENODEV if the PCI function cannot be found. */
struct ibv_context;
int hw_fwdump_verbs_force(struct ibv_context *);
int hw_fwdump_verbs_get(struct ibv_context *, struct hw_fwdump_reg *buf,
                        size_t n, size_t *n_filled);
int hw_fwdump_verbs_reset(struct ibv_context *);

/* FreeBSD /dev/mlx5ctl (hw-fwdump-freebsd.c, built on FreeBSD only). */
#ifdef __FreeBSD__
int hw_fwdump_mlx5ctl_force(const struct hw_pci_addr *);
int hw_fwdump_mlx5ctl_get(const struct hw_pci_addr *,
                          struct hw_fwdump_reg *buf, size_t n,
                          size_t *n_filled);
int hw_fwdump_mlx5ctl_reset(const struct hw_pci_addr *);
#endif

/* Linux devlink health reporter "fw_fatal" (hw-fwdump-devlink.c).
 *
 * The message builder and the reply parser are portable, so that a unit
 * test checks them anywhere; the functions that talk to the kernel return
 * EOPNOTSUPP off Linux.  'dev_name' is the PCI device name, e.g.
 * "0000:03:00.0" (bus "pci"). */
#define HW_DEVLINK_REPORTER "fw_fatal"
#define HW_DEVLINK_CRDUMP_PAIR "crdump_data"

/* Generic netlink commands of family "devlink" (linux/devlink.h). */
#define HW_DEVLINK_CMD_HEALTH_REPORTER_GET        52
#define HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_GET   56
#define HW_DEVLINK_CMD_HEALTH_REPORTER_DUMP_CLEAR 57

/* Puts into the empty 'buf' a request 'cmd' for the "fw_fatal" reporter of
 * "pci"/'dev_name' to the devlink family 'family', with the flags the
 * command is sent with (DUMP_GET: NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK,
 * DUMP_CLEAR: NLM_F_REQUEST | NLM_F_ACK, REPORTER_GET: NLM_F_REQUEST) and
 * nlmsg_len set.  nlmsg_seq and nlmsg_pid are left 0 for the socket. */
void hw_devlink_put_request(struct ofpbuf *buf, int family, uint8_t cmd,
                            const char *dev_name);

/* Parses a HEALTH_REPORTER_GET reply: '*has_dump' tells whether the
 * reporter holds a dump (DUMP_TS present).  Returns 0 or EPROTO. */
int hw_devlink_parse_reporter(const struct ofpbuf *reply, bool *has_dump);

/* Reassembles the binary values of the "crdump_data" pair from the
 * DEVLINK_ATTR_FMSG items of a dump, which the kernel spreads over as many
 * messages as it needs. */
#define HW_DEVLINK_FMSG_MAX_DEPTH 16
struct hw_devlink_fmsg {
    struct ofpbuf *data;            /* The concatenated crdump bytes. */
    bool found;                     /* A "crdump_data" pair was seen. */
    int depth;                      /* Open nests. */
    struct {
        int kind;                   /* DEVLINK_ATTR_FMSG_*_NEST_START. */
        bool named;                 /* Pair: its OBJ_NAME was seen. */
        bool crdump;                /* In the "crdump_data" pair. */
    } stack[HW_DEVLINK_FMSG_MAX_DEPTH];
    int value_type;                 /* Of the next value, -1 if unknown. */
};

void hw_devlink_fmsg_init(struct hw_devlink_fmsg *);
void hw_devlink_fmsg_destroy(struct hw_devlink_fmsg *);

/* Feeds one reply message (nlmsghdr + genlmsghdr + attributes).  Returns 0
 * or EPROTO with a reason in 'reason' (if nonnull). */
int hw_devlink_fmsg_parse(struct hw_devlink_fmsg *, const struct ofpbuf *,
                          struct ds *reason);

/* Once every message is fed: turns the crdump bytes into registers whose
 * 'addr' is the byte offset and 'val' the 32-bit word in host order (the
 * kernel copies the words it read without conversion).  Returns 0 and a
 * malloc()ed array in '*regsp' (NULL if empty), ENOENT if there was no
 * "crdump_data" pair, or EPROTO if the nests are unbalanced or the length
 * is not a multiple of 4. */
int hw_devlink_fmsg_finish(struct hw_devlink_fmsg *,
                           struct hw_fwdump_reg **regsp, size_t *n_regsp,
                           struct ds *reason);

/* The contract above, over devlink: force asks HEALTH_REPORTER_GET whether
 * a dump is held (EEXIST) and else has DUMP_GET capture one (EIO if it holds
 * no crdump); get reads the dump with DUMP_GET (ENOENT without one; a size
 * query without a dump answers 0, since the size is unknown until a dump
 * exists); reset is DUMP_CLEAR.  ENODEV if there is no devlink at all. */
int hw_fwdump_devlink_force(const char *dev_name);
int hw_fwdump_devlink_get(const char *dev_name, struct hw_fwdump_reg *buf,
                          size_t n, size_t *n_filled);
int hw_fwdump_devlink_reset(const char *dev_name);

/* Registers the netdev-hw/fw-dump unixctl command (and the NIC model's
 * hw-model/fwdump).  Idempotent. */
void hw_fwdump_register_commands(void);

#endif /* hw-fwdump.h */
