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

#ifndef HW_MODEL_HBL_H
#define HW_MODEL_HBL_H 1

/* The NIC model's hbl personality.
 *
 * Model devices named "hbl_model<N>" are hbl devices: besides what every
 * model device does, they implement hbldv_create_encap(),
 * hbldv_destroy_encap(), hbldv_modify_qp() and hbldv_query_port() with the
 * semantics of the hbl provider and kernel driver (hw-apis.md section 5;
 * hw-hbl.h describes what the encapsulation does to a packet), and they
 * have no mlx5dv packet reformat (create_reformat is EOPNOTSUPP), so tunnel
 * push on them has to go per QP.  On any other model device the four calls
 * fail with EOPNOTSUPP, as libhbl's do on a device of another provider.
 *
 * Semantics ([A]: the model's choice where nothing is documented):
 *
 *   create_encap: EOPNOTSUPP if the device is not hbl; EINVAL for a NULL
 *     attr or a port other than 1; EBUSY if every id 1..max_num_of_encaps
 *     is taken (the driver's id allocation); EINVAL for an unknown
 *     encap_type or, unless NO_ENC, a tunnel header above 32 bytes; EFAULT
 *     for a header size without a pointer; EINVAL for an ip_proto above 255
 *     [A].  The id is the lowest free one.  The header is copied.
 *   destroy_encap: EINVAL if NULL or not a live encap; EBUSY while a QP
 *     uses it [A].
 *   modify_qp: EOPNOTSUPP if the device is not hbl; EINVAL without attr.
 *     The model's send QPs are created in RTS and have no address vector,
 *     so it takes only the RTS to RTS modify (attr_mask IBV_QP_STATE,
 *     qp_state RTS; anything else EINVAL [A]) of a live send QP of the
 *     device (EINVAL otherwise).  caps bits other than HBLDV_QP_CAP_ENCAP
 *     (loopback, congestion control, compression) are EOPNOTSUPP: the model
 *     does not do them [A].  With HBLDV_QP_CAP_ENCAP, encap_num must be a
 *     live encap of the device (EINVAL); without it, or with a NULL
 *     hbldv_qp_attr (the provider's defaults), the QP loses its encap.
 *   query_port: EOPNOTSUPP if not hbl, EINVAL for a NULL attr or a port
 *     other than 1; reports max_num_of_encaps (the rest is 0).
 *   Sending on a QP with an encap: the frame must be Ethernet (VLAN tags
 *     allowed) carrying IPv4, else it is dropped (the NIC only builds
 *     IPv4 tunnels) [A].  The encap puts a UDP header (source port 0 [A],
 *     destination 'udp_dst_port', checksum 0) and the tunnel header
 *     (ENC_OVER_UDP) or the tunnel header (ENC_OVER_IPV4) after the IPv4
 *     header and its options, sets the IPv4 protocol (UDP or 'ip_proto';
 *     UDP for NO_ENC) and source ('ipv4_addr'), and fills the IPv4 total
 *     length and checksum and the UDP length; a total length above 65535
 *     drops the frame.  Everything after the IPv4 header, Ethernet padding
 *     included, is the payload.  The hw_model_stats count it as tx_encap
 *     or tx_drop_encap.
 *
 * 'ipv4_addr' and 'udp_dst_port' are read in network byte order (their
 * bytes are the wire's) unless hw_model_hbl_set_byte_order() says host
 * order: hw-hbl.h explains why this is a switch. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw-hbldv.h"

struct dp_packet;

/* Device names of the hbl personality start with this. */
#define HW_MODEL_HBL_PREFIX "hbl_"

/* Registers the hw-model/hbl unixctl command.  Idempotent. */
void hw_model_hbl_init(void);

/* The device ops (hw_model_ops' create_encap, destroy_encap,
 * hbl_modify_qp and hbl_query_port). */
int hw_model_hbl_create_encap(struct ibv_context *, struct hbldv_encap_attr *,
                              struct hbldv_encap **);
int hw_model_hbl_destroy_encap(struct hbldv_encap *);
int hw_model_hbl_modify_qp(struct ibv_qp *, struct ibv_qp_attr *,
                           int attr_mask, struct hbldv_qp_attr *);
int hw_model_hbl_query_port(struct ibv_context *, uint32_t port_num,
                            struct hbldv_query_port_attr *);

/* Hooks of the model device (hw-model-tx.c, hw-model-queue.c), called with
 * the QP's device mutex held.
 *
 * hw_model_hbl_tx() applies the encap of send QP 'qp' (if it has one) to
 * 'packet'.  Returns 0 and sets '*encapped', or an errno value if the
 * packet must be dropped.  hw_model_hbl_qp_destroyed() is called when a QP
 * of an hbl device is destroyed. */
int hw_model_hbl_tx(const struct ibv_qp *qp, struct dp_packet *packet,
                    bool *encapped);
void hw_model_hbl_qp_destroyed(const struct ibv_qp *qp);

/* Defined in hw-model-tx.c: calls 'func' with 'qp' and 'aux' while holding
 * the mutex of qp's device, if 'qp' is a live send QP of it, and returns
 * what 'func' returns (which must not be ENOENT); returns ENOENT if it is
 * not. */
typedef int hw_model_qp_func(struct ibv_qp *qp, void *aux);
int hw_model_with_send_qp(struct ibv_qp *qp, hw_model_qp_func *func,
                          void *aux);

/* Settings of hbl model device 'devname' (which need not be open yet).
 * Return 0, ENODEV if 'devname' is not an hbl model device name, or
 * EINVAL for a value out of range (max_num_of_encaps is 1..255) or, for
 * the maximum, below the number of encaps alive. */
int hw_model_hbl_set_max_encaps(const char *devname, unsigned int max);
int hw_model_hbl_set_byte_order(const char *devname, bool host_order);

/* What an hbl model device holds. */
struct hw_model_hbl_info {
    unsigned int max_encaps;    /* max_num_of_encaps. */
    bool host_order;            /* Byte order switch. */
    size_t n_encaps;            /* Live encaps. */
    size_t n_encap_qps;         /* QPs with an encap. */
};
int hw_model_hbl_get_info(const char *devname, struct hw_model_hbl_info *);

#endif /* hw-model-hbl.h */
