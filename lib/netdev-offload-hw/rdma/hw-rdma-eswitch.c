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

/* The rdma-core backend's e-switch ops (hw-rdma.h): the representors of a
 * PF in switchdev mode found in sysfs, their vport and reg_c0 metadata
 * from mlx5dv_query_port(), and a send QP moved to a representor's
 * port. */

#include <config.h>

/* configure --without-rdma: nothing here is compiled. */
#ifdef HAVE_HW_RDMA

#include "hw-rdma.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "util.h"

#define HW_RDMA_SYSFS "/sys"

/* Parses "pf<P>vf<K>" (with 'pf' nonnull) or "vf<K>" at 's'; stores P and
 * K.  No leading zeros. */
static bool
parse_representor(const char *s, int *pf, int *vf)
{
    int *fields[2] = { pf, vf };
    const char *prefixes[2] = { "pf", "vf" };

    for (size_t i = pf ? 0 : 1; i < 2; i++) {
        int n = 0;

        if (strncmp(s, prefixes[i], 2)) {
            return false;
        }
        s += 2;
        if (*s < '0' || *s > '9' || (*s == '0' && s[1] >= '0'
                                     && s[1] <= '9')) {
            return false;
        }
        for (; *s >= '0' && *s <= '9'; s++) {
            n = n * 10 + (*s - '0');
            if (n > 65535) {
                return false;
            }
        }
        *fields[i] = n;
    }
    return !*s;
}

/* The phys_port_name of port 'port' of 'ibdev': its representor netdev's,
 * found through the port's GID table.  The caller frees it. */
static char *
port_name(const char *sysfs, const char *ibdev, uint32_t port)
{
    char *path, *ifname, *name = NULL;

    path = xasprintf("%s/class/infiniband/%s/ports/%"PRIu32
                     "/gid_attrs/ndevs/0", sysfs, ibdev, port);
    ifname = hw_rdma_read_line(path);
    free(path);
    if (ifname && hw_rdma_name_is_safe(ifname)) {
        path = xasprintf("%s/class/net/%s/phys_port_name", sysfs, ifname);
        name = hw_rdma_read_line(path);
        free(path);
    }
    free(ifname);
    return name;
}

int
hw_rdma_find_representor(const char *sysfs, const char *ibdev,
                         uint32_t n_ports, const char *name,
                         uint32_t *port_num)
{
    int want_pf = -1, want_vf;
    bool any = false;

    *port_num = 0;
    if (!hw_rdma_name_is_safe(ibdev)) {
        return ENODEV;
    }
    if (!parse_representor(name, &want_pf, &want_vf)) {
        want_pf = -1;
        if (!parse_representor(name, NULL, &want_vf)) {
            return n_ports < 2 ? EOPNOTSUPP : ENODEV;
        }
    }

    /* Port 1 is the uplink. */
    for (uint32_t port = 2; port <= n_ports; port++) {
        char *s = port_name(sysfs, ibdev, port);
        int pf, vf;

        if (s && parse_representor(s, &pf, &vf)) {
            any = true;
            if (vf == want_vf && (want_pf < 0 || pf == want_pf)) {
                *port_num = port;
                free(s);
                return 0;
            }
        }
        free(s);
    }
    return any ? ENODEV : EOPNOTSUPP;
}

int
hw_rdma_representor_port(struct ibv_context *ctx, const char *name,
                         uint32_t *port_num)
{
    struct ibv_device_attr attr;
    int error;

    *port_num = 0;
    memset(&attr, 0, sizeof attr);
    error = ibv_query_device(ctx, &attr);
    if (error) {
        return error < 0 ? -error : error;
    }
    return hw_rdma_find_representor(HW_RDMA_SYSFS,
                                    ibv_get_device_name(ctx->device),
                                    attr.phys_port_cnt, name, port_num);
}

int
hw_rdma_query_port(struct ibv_context *ctx, uint32_t port_num,
                   struct mlx5dv_port *info)
{
    int error;

    memset(info, 0, sizeof *info);
    error = mlx5dv_query_port(ctx, port_num, info);
    return error < 0 ? -error : error;
}

int
hw_rdma_bind_qp_port(struct ibv_qp *qp, uint32_t port_num)
{
    struct ibv_qp_attr attr;
    int error;

    /* Back to RESET, which forgets the port, then up on the new one. */
    memset(&attr, 0, sizeof attr);
    attr.qp_state = IBV_QPS_RESET;
    error = ibv_modify_qp(qp, &attr, IBV_QP_STATE);
    if (error) {
        return error < 0 ? -error : error;
    }
    return hw_rdma_qp_to_rts(qp, port_num);
}

#endif /* HAVE_HW_RDMA */
