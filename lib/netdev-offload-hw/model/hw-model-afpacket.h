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


#ifndef HW_MODEL_AFPACKET_H
#define HW_MODEL_AFPACKET_H 1

/* A Linux interface as the wire of a NIC model device, so that real peers
 * (a kernel VXLAN device in a network namespace behind a veth, another
 * ovs-vswitchd) can talk to a model port.
 *
 * Attaching opens an AF_PACKET socket bound to the interface (all
 * protocols, promiscuous).  A thread reads every frame the interface
 * receives and hands it to hw_model_receive(), as if it had arrived on the
 * device's wire; every frame leaving the device's wire (after the egress
 * rules and their encap) is sent on the interface.  Frames the socket sends
 * are not read back.
 *
 * The kernel may hand over frames whose checksum it left for offload
 * (CHECKSUM_PARTIAL): the reader completes it.  VLAN tags the kernel keeps
 * out of band are put back in the frame.  Segmentation offload (GSO/GRO
 * super-frames, which a real wire never carries) is not undone: such frames
 * are dropped and counted.  Keep the peer from making them: "ip link set
 * DEV gso_max_segs 1" on the devices the peer's TCP sends through (its
 * tunnel device), or ethtool -K DEV tso off gso off.
 *
 * Needs CAP_NET_RAW. */

#include <stdint.h>

/* Registers hw-model/attach, hw-model/detach and hw-model/attachments.
 * hw_model_init() calls it. */
void hw_model_afpacket_init(void);

/* Makes interface 'ifname' the wire of model device 'devname', which must
 * exist (be opened once).  Returns 0 or an errno value, with a message in
 * '*errorp' (if not NULL; the caller frees it): ENODEV no such device or
 * interface, EEXIST the device has an interface already, EBUSY the wire's
 * far end is taken, EPERM/EACCES no CAP_NET_RAW. */
int hw_model_afpacket_attach(const char *devname, const char *ifname,
                             char **errorp);

/* Stops using the interface of 'devname'.  Returns 0 or ENOENT if it has
 * none.  When it returns, the reader thread is gone. */
int hw_model_afpacket_detach(const char *devname);

struct hw_model_afpacket_stats {
    uint64_t rx_frames;         /* Read from the interface, handed over. */
    uint64_t rx_bytes;
    uint64_t rx_dropped;        /* Unusable: truncated, GSO, runt. */
    uint64_t rx_csum_done;      /* Checksums the reader completed. */
    uint64_t tx_frames;         /* Sent on the interface. */
    uint64_t tx_bytes;
    uint64_t tx_errors;         /* send() failed (e.g. above the MTU). */
};

/* Fills 'stats' for the interface of 'devname'.  Returns 0 or ENOENT. */
int hw_model_afpacket_get_stats(const char *devname,
                                struct hw_model_afpacket_stats *stats);

#endif /* hw-model-afpacket.h */
