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

#ifndef HW_HBLDV_H
#define HW_HBLDV_H 1

/* Our own declarations of the part of the hbl ("Habana Labs", Intel Gaudi)
 * direct-verbs ABI that the plugin uses: hbldv_create_encap(),
 * hbldv_destroy_encap(), hbldv_modify_qp() and hbldv_query_port() of
 * libhbl.so.1, symbol version HBL_1.0 (hw-apis.md section 5).
 *
 * The provider was posted to rdma-core (pull request 1472) but never
 * merged, so no distribution ships <infiniband/hbldv.h>: the layouts below
 * are those of the pull request's head, on x86-64 (LP64), and the build
 * asserts every size and offset the plugin relies on.  Never include this
 * header together with <infiniband/hbldv.h>.
 *
 * The functions are resolved at run time (hw-hbl.c), so only the function
 * pointer types are declared here. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include "util.h"

/* Symbol version node of every hbldv_* function in libhbl.so.1. */
#define HBLDV_SYMBOL_VERSION "HBL_1.0"

/* The library's name, for dlopen(). */
#define HBLDV_LIBRARY "libhbl.so.1"

/* Encapsulation types (struct hbldv_encap_attr's 'encap_type'). */
enum hbldv_encap_type {
    HBLDV_ENCAP_TYPE_NO_ENC = 0,        /* Only sets the source IPv4. */
    HBLDV_ENCAP_TYPE_ENC_OVER_IPV4 = 1, /* Tunnel header after the IPv4
                                         * header, IP protocol 'ip_proto'. */
    HBLDV_ENCAP_TYPE_ENC_OVER_UDP = 2,  /* UDP header to 'udp_dst_port',
                                         * then the tunnel header. */
};

/* hbldv_create_encap()'s input.  32 bytes. */
struct hbldv_encap_attr {
    uint64_t tnl_hdr_ptr;       /* User pointer to the tunnel header. */
    uint32_t tnl_hdr_size;      /* Its size in bytes. */
    uint32_t ipv4_addr;         /* Source IPv4 address, every type. */
    uint32_t port_num;          /* Port, from 1. */
    union {
        uint16_t udp_dst_port;  /* ENC_OVER_UDP. */
        uint16_t ip_proto;      /* ENC_OVER_IPV4. */
    };
    enum hbldv_encap_type encap_type;
};

/* What hbldv_create_encap() returns: the hardware encapsulation id, for
 * struct hbldv_qp_attr's 'encap_num'.  4 bytes. */
struct hbldv_encap {
    uint32_t encap_num;
};

/* struct hbldv_qp_attr's 'caps' bits. */
enum hbldv_qp_caps {
    HBLDV_QP_CAP_LOOPBACK = 0x1,
    HBLDV_QP_CAP_CONG_CTRL = 0x2,
    HBLDV_QP_CAP_COMPRESSION = 0x4,
    HBLDV_QP_CAP_ENCAP = 0x10,
};

/* struct hbldv_qp_attr's 'wq_type' bits. */
enum hbldv_qp_wq_types {
    HBLDV_WQ_WRITE = 0x1,
    HBLDV_WQ_RECV_RDV = 0x2,
    HBLDV_WQ_READ_RDV = 0x4,
    HBLDV_WQ_SEND_RDV = 0x8,
    HBLDV_WQ_READ_RDV_ENDP = 0x10,
};

/* Send WQE size. */
enum hbldv_swq_granularity {
    HBLDV_SWQE_GRAN_32B = 0,
    HBLDV_SWQE_GRAN_64B = 1,
};

/* hbldv_modify_qp()'s hbl part.  48 bytes.  The provider copies every
 * field into each modify; 'caps' & HBLDV_QP_CAP_ENCAP enables the
 * encapsulation 'encap_num' (only 8 bits: ids above 255 cannot be
 * selected), which the man page lists as needed for RTS.  A NULL
 * hbldv_qp_attr gives the defaults: WRITE and 32-byte WQEs for INIT,
 * priority 1 for RTS, no encapsulation. */
struct hbldv_qp_attr {
    uint64_t caps;              /* HBLDV_QP_CAP_* bits. */
    uint32_t local_key;         /* Needed for RTR. */
    uint32_t remote_key;        /* Needed for RTS. */
    uint32_t congestion_wnd;    /* Needed for RTS. */
    uint32_t reserved0;
    uint32_t dest_wq_size;      /* RDV, needed for RTS. */
    enum hbldv_qp_wq_types wq_type;             /* Needed for INIT. */
    enum hbldv_swq_granularity wq_granularity;  /* Needed for INIT. */
    uint8_t priority;           /* Needed for RTR and RTS. */
    uint8_t reserved1;
    uint8_t reserved2;
    uint8_t encap_num;          /* Needed for RTS. */
    uint8_t reserved3;
};

/* hbldv_query_port()'s output.  44 bytes. */
struct hbldv_query_port_attr {
    uint32_t max_num_of_qps;
    uint32_t num_allocated_qps;
    uint32_t max_allocated_qp_num;
    uint32_t max_cq_size;
    uint32_t reserved0;
    uint32_t reserved1;
    uint32_t reserved2;
    uint32_t reserved3;
    uint32_t reserved4;
    uint8_t advanced;
    uint8_t max_num_of_cqs;
    uint8_t max_num_of_usr_fifos;
    uint8_t max_num_of_encaps;
    uint8_t nic_macro_idx;
    uint8_t nic_phys_port_idx;
};

/* The functions, as the library exports them (version HBL_1.0).  Like the
 * rest of rdma-core, create returns NULL with errno set; the others return
 * 0 or a positive errno value. */
typedef struct hbldv_encap *hbldv_create_encap_func(
    struct ibv_context *, struct hbldv_encap_attr *);
typedef int hbldv_destroy_encap_func(struct hbldv_encap *);
typedef int hbldv_modify_qp_func(struct ibv_qp *, struct ibv_qp_attr *,
                                 int attr_mask, struct hbldv_qp_attr *);
typedef bool hbldv_is_supported_func(struct ibv_device *);
typedef int hbldv_query_port_func(struct ibv_context *, uint32_t port_num,
                                  struct hbldv_query_port_attr *);

/* The layouts the ABI fixes (x86-64 and every other LP64 target with
 * 4-byte enums). */
BUILD_ASSERT_DECL(sizeof(enum hbldv_encap_type) == 4);
BUILD_ASSERT_DECL(sizeof(struct hbldv_encap_attr) == 32);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, tnl_hdr_ptr) == 0);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, tnl_hdr_size) == 8);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, ipv4_addr) == 12);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, port_num) == 16);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, udp_dst_port) == 20);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, ip_proto) == 20);
BUILD_ASSERT_DECL(offsetof(struct hbldv_encap_attr, encap_type) == 24);
BUILD_ASSERT_DECL(sizeof(struct hbldv_encap) == 4);
BUILD_ASSERT_DECL(sizeof(struct hbldv_qp_attr) == 48);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, local_key) == 8);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, dest_wq_size) == 24);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, wq_type) == 28);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, wq_granularity) == 32);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, priority) == 36);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, encap_num) == 39);
BUILD_ASSERT_DECL(offsetof(struct hbldv_qp_attr, reserved3) == 40);
BUILD_ASSERT_DECL(sizeof(struct hbldv_query_port_attr) == 44);
BUILD_ASSERT_DECL(offsetof(struct hbldv_query_port_attr, advanced) == 36);
BUILD_ASSERT_DECL(offsetof(struct hbldv_query_port_attr, max_num_of_encaps)
                  == 39);

#endif /* hw-hbldv.h */
