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

#ifndef HW_MLX5IO_H
#define HW_MLX5IO_H 1

/* The firmware dump part of FreeBSD's mlx5io(4) interface, the ioctls of
 * /dev/mlx5ctl (sys/dev/mlx5/mlx5io.h; hw-apis.md section 6.1), declared
 * here under our own names so that the plugin does not need FreeBSD's
 * kernel headers.  The layouts must stay those of the kernel's structs: the
 * ioctl numbers encode their sizes.
 *
 * The numbers are computed with FreeBSD's _IOC encoding on every system
 * (sys/ioccom.h: direction bits 0x80000000 in, 0x40000000 out, parameter
 * length << 16, group << 8, number), so that a unit test can check them on
 * Linux; on FreeBSD hw-fwdump-freebsd.c also checks them against
 * <sys/ioccom.h>. */

#include <stddef.h>
#include <stdint.h>

/* struct mlx5_fwdump_reg. */
struct hw_mlx5_fwdump_reg {
    uint32_t addr;
    uint32_t val;
};

/* struct mlx5_tool_addr (called mlx5_fwdump_addr before FreeBSD added the
 * firmware update ioctls; same layout).  Decimal in mlx5tool's -d. */
struct hw_mlx5_tool_addr {
    uint32_t domain;
    uint8_t bus;
    uint8_t slot;
    uint8_t func;
};

/* struct mlx5_fwdump_get, for MLX5_FWDUMP_GET. */
struct hw_mlx5_fwdump_get {
    struct hw_mlx5_tool_addr devaddr;
    struct hw_mlx5_fwdump_reg *buf; /* NULL: size query. */
    size_t reg_cnt;                 /* Room in 'buf', in registers. */
    size_t reg_filled;              /* Out: registers (or total). */
};

#define HW_MLX5_DEV_PATH "/dev/mlx5ctl"

/* FreeBSD's _IOC(inout, group, num, len). */
#define HW_MLX5_IOCPARM_MASK 0x1fffu
#define HW_MLX5_IOC_OUT      0x40000000u
#define HW_MLX5_IOC_IN       0x80000000u
#define HW_MLX5_IOC_INOUT    (HW_MLX5_IOC_IN | HW_MLX5_IOC_OUT)
#define HW_MLX5_IOC(INOUT, GROUP, NUM, LEN)                              \
    ((unsigned long) ((INOUT)                                           \
                      | (((uint32_t) (LEN) & HW_MLX5_IOCPARM_MASK) << 16) \
                      | ((uint32_t) (GROUP) << 8) | (uint32_t) (NUM)))

/* _IOWR('m', 1, struct mlx5_fwdump_get): 0xc0206d01 on amd64. */
#define HW_MLX5_FWDUMP_GET                                              \
    HW_MLX5_IOC(HW_MLX5_IOC_INOUT, 'm', 1, sizeof(struct hw_mlx5_fwdump_get))
/* _IOW('m', 2, struct mlx5_tool_addr): 0x80086d02. */
#define HW_MLX5_FWDUMP_RESET                                            \
    HW_MLX5_IOC(HW_MLX5_IOC_IN, 'm', 2, sizeof(struct hw_mlx5_tool_addr))
/* _IOW('m', 3, struct mlx5_tool_addr): 0x80086d03. */
#define HW_MLX5_FWDUMP_FORCE                                            \
    HW_MLX5_IOC(HW_MLX5_IOC_IN, 'm', 3, sizeof(struct hw_mlx5_tool_addr))

#endif /* hw-mlx5io.h */
