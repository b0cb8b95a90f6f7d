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

#ifndef HW_HBL_H
#define HW_HBL_H 1

/* Tunnel push on hbl (Habana/Intel Gaudi) devices: encapsulation per send
 * QP (hw-apis.md section 5).
 *
 * An hbl NIC has no steering rules and no packet reformat: it encapsulates
 * every packet one send QP sends, with the encapsulation object that
 * hbldv_modify_qp() attached to the QP.  The object (hbldv_create_encap())
 * holds the outer source IPv4 address, the kind of tunnel and the tunnel
 * header; the NIC puts them behind the packet's own IPv4 header:
 *
 *   ENC_OVER_UDP   ETH IPv4 | UDP(dst udp_dst_port) tnl_hdr | payload
 *   ENC_OVER_IPV4  ETH IPv4 | tnl_hdr                       | payload
 *
 * where "ETH IPv4" are the headers of the packet handed to the QP, whose
 * source address becomes 'ipv4_addr' and whose protocol becomes UDP or
 * 'ip_proto', "payload" is whatever followed that IPv4 header, and the NIC
 * fills the IPv4 total length and checksum and the UDP length.  The
 * tunnel header is at most HW_HBL_MAX_TNL_HDR bytes (the kernel driver's
 * limit).
 *
 * So a tnl_push header (ETH + IPv4 + [UDP] + tunnel header) is split in
 * two:
 *
 *   - the "head", its Ethernet and IPv4 headers, which the software still
 *     puts in front of the packet (the push hook does that instead of the
 *     whole push);
 *   - the encapsulation: ENC_OVER_UDP with the UDP destination port for a
 *     header whose IPv4 protocol is UDP (VXLAN), ENC_OVER_IPV4 with the IP
 *     protocol otherwise (GRE: 47), 'ipv4_addr' the IPv4 source, and
 *     'tnl_hdr' EXACTLY the bytes of the header after the outer UDP header
 *     (ENC_OVER_UDP: the 8-byte VXLAN header) or after the outer IPv4
 *     header (ENC_OVER_IPV4: the GRE header and its key), verbatim, in
 *     wire order.
 *
 * What the NIC builds is then the software push's result, except for the
 * UDP source port, which is the NIC's (the NIC model sends 0, like the
 * mlx5 path that copies the tnl_push header's 0): receivers ignore it.  An
 * IPv6 outer header, a UDP checksum or a GRE checksum or sequence number
 * (per-packet values the NIC does not compute) cannot be offloaded.
 *
 * Byte order.  The provider passes 'ipv4_addr' and 'udp_dst_port' to the
 * kernel unchanged and nothing documents their byte order (hw-apis.md
 * section 7, point 6).  HW_HBL_ORDER_NETWORK (the default) stores them as
 * they are on the wire (the uint32_t's bytes are the address's, the
 * uint16_t's the port's); HW_HBL_ORDER_HOST stores their numeric values.
 * 'ip_proto' is a plain number either way.  The NIC model has the same
 * switch (hw_model_hbl_set_byte_order()): both must agree.
 *
 * Sending.  The encapsulation belongs to a QP, not to a flow, so each
 * encapsulation gets its own send QP (struct hw_hbl_txq) and only the
 * packets whose push the hardware does may be sent on it.  The push hook
 * (hw_hbl_push_prepare()) pushes the head and marks the packet for that
 * queue: the head's IPv4 protocol becomes HW_HBL_PROTO_MARK and its source
 * address the queue's id, two fields the NIC overwrites anyway.  The hw
 * port's send function hands the batch to hw_hbl_tx_divert() first, which
 * sends the marked packets on their queues.  The hook and the send
 * function reach these through hw-tx-push.h, whose per-QP encapsulation
 * (hw-hbl-push.c) makes each push a queue. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-hbldv.h"
#include "openvswitch/types.h"
#include "ovs-atomic.h"

struct dp_packet;
struct dp_packet_batch;
struct ds;
struct hw_dev_ops;
struct netdev_hw_device;

/* Largest tunnel header the hbl kernel driver takes (NIC_MAX_TNL_HDR_SIZE);
 * it refuses a larger one with EINVAL. */
#define HW_HBL_MAX_TNL_HDR 32

/* The IPv4 protocol that marks a packet for an hbl send queue (RFC 3692's
 * experimental value 253). */
#define HW_HBL_PROTO_MARK 253

/* libhbl.so.1, resolved at run time. */
struct hw_hbl_lib {
    void *handle;                           /* From dlopen(). */
    hbldv_create_encap_func *create_encap;
    hbldv_destroy_encap_func *destroy_encap;
    hbldv_modify_qp_func *modify_qp;
    hbldv_is_supported_func *is_supported;  /* NULL if not exported. */
    hbldv_query_port_func *query_port;      /* NULL if not exported. */
};

/* Opens the library 'file_name' (NULL: "libhbl.so.1", searched the way
 * dlopen() searches) with RTLD_NOW | RTLD_LOCAL and resolves the hbldv_*
 * functions with symbol version HBL_1.0.  Returns 0, or an errno value and
 * a message in '*errorp' (which the caller frees) if the library cannot be
 * loaded (ENOENT) or lacks hbldv_create_encap, hbldv_destroy_encap or
 * hbldv_modify_qp at that version (ENOSYS); then 'lib' is zeroed. */
int hw_hbl_lib_open(const char *file_name, struct hw_hbl_lib *lib,
                    char **errorp);
void hw_hbl_lib_close(struct hw_hbl_lib *);

/* The process's libhbl.so.1, opened on the first call, or NULL if it is
 * not there: then hbl encapsulation is off, which the first call logs. */
const struct hw_hbl_lib *hw_hbl_lib_get(void);

/* Byte order of struct hbldv_encap_attr's 'ipv4_addr' and 'udp_dst_port'
 * (see above). */
enum hw_hbl_byte_order {
    HW_HBL_ORDER_NETWORK,
    HW_HBL_ORDER_HOST,
};
void hw_hbl_set_byte_order(enum hw_hbl_byte_order);
enum hw_hbl_byte_order hw_hbl_get_byte_order(void);

/* A tunnel push as an hbl encapsulation. */
struct hw_hbl_encap_spec {
    enum hbldv_encap_type type;     /* ENC_OVER_UDP or ENC_OVER_IPV4. */
    ovs_be32 ipv4_src;              /* Outer IPv4 source. */
    ovs_be16 udp_dst;               /* ENC_OVER_UDP: UDP destination. */
    uint8_t ip_proto;               /* ENC_OVER_IPV4: IP protocol. */
    uint8_t tnl_hdr[HW_HBL_MAX_TNL_HDR];
    size_t tnl_hdr_len;
    size_t head_len;                /* Bytes of the header the software
                                     * pushes: Ethernet + IPv4. */
    size_t nic_len;                 /* Bytes the NIC adds: UDP header (if
                                     * ENC_OVER_UDP) + tunnel header. */
};

/* Splits the tnl_push header 'header' of 'len' bytes (Ethernet, IPv4,
 * then UDP and the tunnel header or the tunnel header) into 'spec'.
 * Returns 0, or EOPNOTSUPP with a reason appended to 'reason' if the NIC
 * cannot do that push. */
int hw_hbl_encap_spec_from_header(const void *header, size_t len,
                                  struct hw_hbl_encap_spec *spec,
                                  struct ds *reason);

/* Fills 'attr' for hbldv_create_encap() from 'spec', for port 'port_num'
 * (from 1), with the byte order 'order'.  'attr->tnl_hdr_ptr' points into
 * 'spec', which must outlive the call that uses 'attr'. */
void hw_hbl_encap_attr_init(const struct hw_hbl_encap_spec *spec,
                            uint32_t port_num, enum hw_hbl_byte_order order,
                            struct hbldv_encap_attr *attr);

/* Attaches the encapsulation 'encap' (NULL: none) to the send QP 'qp' of a
 * device of 'ops', with hbldv_modify_qp() (RTS, caps |= HBLDV_QP_CAP_ENCAP,
 * encap_num).  Returns 0 or an errno value (EOPNOTSUPP if the backend has
 * no hbl_modify_qp, EOVERFLOW if the id does not fit 'encap_num'). */
int hw_hbl_qp_set_encap(const struct hw_dev_ops *ops, struct ibv_qp *qp,
                        const struct hbldv_encap *encap);

/* Returns true if tunnel push on 'dev' is done by encapsulation per send
 * QP (an hbl device) rather than by egress rules. */
bool hw_hbl_device_encaps(const struct netdev_hw_device *dev);

/* A send queue with an encapsulation: a PD, a CQ, a raw packet QP and the
 * encap object, on one device. */
struct hw_hbl_txq;

/* Creates on 'dev' the send queue that does the push of the tnl_push
 * header 'header' of 'header_len' bytes.  Returns 0, or an errno value
 * with a reason appended to 'reason' (EOPNOTSUPP if the device or the
 * header does not allow it; nothing is left on the device). */
int hw_hbl_txq_create(const struct netdev_hw_device *dev,
                      const void *header, size_t header_len,
                      struct hw_hbl_txq **txqp, struct ds *reason);

/* Destroys the device objects of 'txq' at once (packets marked for it are
 * dropped from now on) and frees it after an RCU grace period, so that a
 * datapath thread may still call hw_hbl_push_prepare() on it meanwhile.
 * Must be called before the device is closed. */
void hw_hbl_txq_destroy(struct hw_hbl_txq *txq);

/* The encapsulation of 'txq'. */
const struct hw_hbl_encap_spec *hw_hbl_txq_spec(const struct hw_hbl_txq *);

/* The push hook's part: instead of the push of the tnl_push header
 * 'header' (the one 'txq' was made from), puts the head in front of
 * 'packet' (an Ethernet frame, or an L3 packet for an L3 tunnel) and marks
 * it for 'txq'.  Returns true, or false if 'header' is not txq's (then
 * 'packet' is unchanged and the software must push). */
bool hw_hbl_push_prepare(const struct hw_hbl_txq *txq,
                         struct dp_packet *packet,
                         const void *header, size_t header_len);

/* Number of live hbl send queues in the process: hw_hbl_tx_divert() need
 * only be called when it is not zero. */
extern atomic_count hw_hbl_n_txqs;
static inline bool
hw_hbl_tx_active(void)
{
    return atomic_count_get(&hw_hbl_n_txqs) != 0;
}

/* Takes the packets of 'batch' that hw_hbl_push_prepare() marked out of
 * it and sends them on their queues, which must belong to the device
 * context 'ctx' (a packet marked for another device, or for a queue that
 * is gone, is dropped).  A packet that would be longer than
 * 'max_frame_len' once the NIC has added its part is dropped.  Adds the
 * packets sent and their bytes on the wire to '*n_sent' and '*n_bytes'
 * and returns the number dropped.  Unmarked packets stay in 'batch', in
 * order. */
size_t hw_hbl_tx_divert(const struct ibv_context *ctx, size_t max_frame_len,
                        struct dp_packet_batch *batch, uint64_t *n_sent,
                        uint64_t *n_bytes);

#ifdef HAVE_HW_RDMA
/* The real hbl backend: the rdma-core backend's verbs calls, plus the
 * encap ops through libhbl.so.1.  It drives devices named "hbl_<N>" when
 * the library is there.  Its members other than 'name' and 'handles' are
 * filled in by the first handles() call that accepts a device, so use it
 * only through hw_dev_ops_find(). */
extern struct hw_dev_ops hw_hbl_ops;
#endif

#endif /* hw-hbl.h */
