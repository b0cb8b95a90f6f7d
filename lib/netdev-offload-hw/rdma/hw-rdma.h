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
 * creation (the device ops have no modify_qp: the NIC model creates it
 * ready to send).  tx_burst() copies each frame into a registered slot,
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

#endif /* hw-rdma.h */
