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

#ifndef HW_RDMA_H
#define HW_RDMA_H 1

/* The rdma-core backend: the device ops of hw-dev.h forwarded to
 * libibverbs and libmlx5 (mlx5dv), with no decision of its own.
 *
 * Built only when configure found rdma-core (HAVE_HW_RDMA; configure
 * --without-rdma leaves it out and links neither library).
 *
 * Device names: options:device is an rdma-core device name ("mlx5_0", or
 * whatever udev renamed it to) or the name of a Linux network interface
 * whose PCI function has an RDMA device
 * (/sys/class/net/IF/device/infiniband/).  hw_rdma_ops.handles() accepts
 * every name of the kernel's mlx5 form "mlx5_*" and every name that
 * resolves, so that a missing NIC is reported by open() with the reason
 * rather than as "no backend".  open() of a name that resolves to nothing
 * returns ENODEV and logs why.
 *
 * Objects are rdma-core's own.  The backend keeps its buffer state in the
 * 'wq_context' of the WQs and the 'qp_context' of the send QPs it creates,
 * so a caller must not use those two fields.  Every CQ is an extended CQ
 * (ibv_create_cq_ex() with IBV_WC_EX_WITH_BYTE_LEN and
 * IBV_WC_EX_WITH_FLOW_TAG); a CQ serves one WQ or one send QP.
 *
 * Receive: each WQ owns a ring of registered buffers, posted when the WQ
 * moves to RDY and reposted as rx_burst() consumes completions; a received
 * frame is copied into a new dp_packet (OVS has no dp_packet source that
 * would give a buffer back to the ring when the packet is freed), and a
 * non-zero flow tag becomes the packet's flow mark.  The hash the device
 * computed is not reported (verbs has no reader for it), so OVS computes
 * its own.
 *
 * Send: a raw packet QP created with a send queue is moved to RTS at
 * creation, on port 1 (the device ops have no modify_qp: the NIC model
 * creates it ready to send); bind_qp_port() moves it to a representor's
 * port.  tx_burst() copies each frame into a registered slot,
 * posts the batch with one ibv_post_send() and asks for a completion every
 * HW_RDMA_TX_SIGNAL sends; slots come back as those completions arrive. */

#include "hw-dev.h"

extern const struct hw_dev_ops hw_rdma_ops;

/* Sends per requested send completion. */
#define HW_RDMA_TX_SIGNAL 16

/* Returns the name of the RDMA device of network interface 'ifname' found
 * under the sysfs tree 'sysfs' ("/sys" on a running system), or NULL if it
 * has none.  If the interface's PCI function has several, the one whose
 * port 1 is 'ifname' is preferred, else the first by name.  The caller
 * frees the result. */
char *hw_rdma_ifname_to_ibdev(const char *sysfs, const char *ifname);

/* Returns the name of the network interface of port 'port' of RDMA device
 * 'ibdev' under 'sysfs' (the port's RoCE GID netdev, else the only
 * interface of the device's PCI function), or NULL.  The caller frees the
 * result. */
char *hw_rdma_ibdev_to_ifname(const char *sysfs, const char *ibdev,
                              int port);

/* Internals that hw-rdma-eswitch.c shares with hw-rdma.c. */

/* Whether 'name' is a single path component. */
bool hw_rdma_name_is_safe(const char *name);

/* The first line of file 'path' without its newline, or NULL.  The caller
 * frees it. */
char *hw_rdma_read_line(const char *path);

/* Moves the raw packet send QP 'qp' from RESET through INIT, on verbs port
 * 'port_num', and RTR to RTS, where it sends. */
int hw_rdma_qp_to_rts(struct ibv_qp *qp, uint32_t port_num);

/* The e-switch (hw-rdma-eswitch.c): the device ops representor_port(),
 * query_port() and bind_qp_port() of hw-dev.h.
 *
 * A PF in switchdev mode has one RDMA device whose port 1 is the uplink
 * and whose other ports are the representors of its VFs, each with its
 * representor netdev, named by its phys_port_name "pf<P>vf<K>" (the
 * uplink's is "p<P>"); a PF in legacy mode has one port.  A representor
 * is asked for as DPDK's representor= argument does ("vf1", of this PF),
 * or by the phys_port_name ("pf0vf1"). */
int hw_rdma_representor_port(struct ibv_context *, const char *name,
                             uint32_t *port_num);
int hw_rdma_query_port(struct ibv_context *, uint32_t port_num,
                       struct mlx5dv_port *);
int hw_rdma_bind_qp_port(struct ibv_qp *, uint32_t port_num);

/* The verbs port, among ports 1 to 'n_ports' of RDMA device 'ibdev' under
 * the sysfs tree 'sysfs', of the representor 'name', into '*port_num':
 * 0, EOPNOTSUPP if the device has no representors (legacy mode), ENODEV
 * if it has no such one. */
int hw_rdma_find_representor(const char *sysfs, const char *ibdev,
                             uint32_t n_ports, const char *name,
                             uint32_t *port_num);

#endif /* hw-rdma.h */
