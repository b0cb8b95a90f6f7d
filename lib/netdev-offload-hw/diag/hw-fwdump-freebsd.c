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

/* Firmware dump on FreeBSD: the MLX5_FWDUMP_* ioctls of /dev/mlx5ctl
 * (hw-apis.md section 6.1), what mlx5tool -e / -w / -r do.  The whole file
 * compiles away elsewhere. */

#include <config.h>
#include "hw-fwdump.h"

#ifdef __FreeBSD__
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hw-mlx5io.h"
#include "openvswitch/vlog.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(hw_fwdump_freebsd);

/* Our register struct is copied to and from the kernel's as is. */
BUILD_ASSERT_DECL(sizeof(struct hw_fwdump_reg)
                  == sizeof(struct hw_mlx5_fwdump_reg));
BUILD_ASSERT_DECL(offsetof(struct hw_fwdump_reg, val)
                  == offsetof(struct hw_mlx5_fwdump_reg, val));

#ifdef IOCPARM_MASK
/* Our encoding of the numbers is FreeBSD's own. */
BUILD_ASSERT_DECL(HW_MLX5_FWDUMP_GET
                  == _IOWR('m', 1, struct hw_mlx5_fwdump_get));
BUILD_ASSERT_DECL(HW_MLX5_FWDUMP_RESET
                  == _IOW('m', 2, struct hw_mlx5_tool_addr));
BUILD_ASSERT_DECL(HW_MLX5_FWDUMP_FORCE
                  == _IOW('m', 3, struct hw_mlx5_tool_addr));
#endif

static void
mlx5ctl_addr(const struct hw_pci_addr *pci, struct hw_mlx5_tool_addr *addr)
{
    memset(addr, 0, sizeof *addr);
    addr->domain = pci->domain;
    addr->bus = pci->bus;
    addr->slot = pci->slot;
    addr->func = pci->func;
}

/* Issues 'cmd' on /dev/mlx5ctl opened with 'flags'.  The driver checks the
 * open mode (GET needs FREAD, FORCE and RESET FWRITE: EBADF otherwise), and
 * the node is root:operator 0640, so a process in group operator can fetch
 * a dump but not capture or discard one.  Returns 0 or an errno value. */
static int
mlx5ctl_ioctl(int flags, unsigned long cmd, void *arg)
{
    int fd, error;

    fd = open(HW_MLX5_DEV_PATH, flags);
    if (fd < 0) {
        error = errno;
        VLOG_DBG("%s: open failed (%s)", HW_MLX5_DEV_PATH,
                 ovs_strerror(error));
        return error;
    }
    error = ioctl(fd, cmd, arg) < 0 ? errno : 0;
    close(fd);
    return error;
}

int
hw_fwdump_mlx5ctl_force(const struct hw_pci_addr *pci)
{
    struct hw_mlx5_tool_addr addr;

    mlx5ctl_addr(pci, &addr);
    return mlx5ctl_ioctl(O_RDWR, HW_MLX5_FWDUMP_FORCE, &addr);
}

int
hw_fwdump_mlx5ctl_get(const struct hw_pci_addr *pci,
                      struct hw_fwdump_reg *buf, size_t n, size_t *n_filled)
{
    struct hw_mlx5_fwdump_get get;
    int error;

    memset(&get, 0, sizeof get);
    mlx5ctl_addr(pci, &get.devaddr);
    get.buf = (struct hw_mlx5_fwdump_reg *) buf;
    get.reg_cnt = buf ? n : 0;
    error = mlx5ctl_ioctl(O_RDONLY, HW_MLX5_FWDUMP_GET, &get);
    *n_filled = error ? 0 : get.reg_filled;
    return error;
}

int
hw_fwdump_mlx5ctl_reset(const struct hw_pci_addr *pci)
{
    struct hw_mlx5_tool_addr addr;

    mlx5ctl_addr(pci, &addr);
    return mlx5ctl_ioctl(O_RDWR, HW_MLX5_FWDUMP_RESET, &addr);
}

#endif /* __FreeBSD__ */
