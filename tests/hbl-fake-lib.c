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

/* A stand-in for libhbl.so.1, for tests/hw-hbl.at: it exports the hbldv_*
 * functions the plugin resolves, under whatever symbol version the version
 * script it is linked with names (HBL_1.0 like the real library, or
 * another one to check that the plugin refuses it), and records what it
 * was called with for hbl_fake_state().
 *
 * It is built on its own with the compiler OVS was built with, outside the
 * OVS tree, so it declares the ABI itself (from the hbl provider's
 * hbldv.h of rdma-core pull request 1472), independently of the plugin's
 * hw-hbldv.h: a layout mismatch between the two shows up as wrong values
 * in the test. */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct ibv_context;
struct ibv_device;
struct ibv_qp;
struct ibv_qp_attr;

struct hbldv_encap_attr {
    uint64_t tnl_hdr_ptr;
    uint32_t tnl_hdr_size;
    uint32_t ipv4_addr;
    uint32_t port_num;
    union {
        uint16_t udp_dst_port;
        uint16_t ip_proto;
    };
    int encap_type;
};

struct hbldv_encap {
    uint32_t encap_num;
};

struct hbldv_qp_attr {
    uint64_t caps;
    uint32_t local_key;
    uint32_t remote_key;
    uint32_t congestion_wnd;
    uint32_t reserved0;
    uint32_t dest_wq_size;
    int wq_type;
    int wq_granularity;
    uint8_t priority;
    uint8_t reserved1;
    uint8_t reserved2;
    uint8_t encap_num;
    uint8_t reserved3;
};

struct hbldv_query_port_attr {
    uint32_t max_num_of_qps;
    uint32_t num_allocated_qps;
    uint32_t max_allocated_qp_num;
    uint32_t max_cq_size;
    uint32_t reserved[5];
    uint8_t advanced;
    uint8_t max_num_of_cqs;
    uint8_t max_num_of_usr_fifos;
    uint8_t max_num_of_encaps;
    uint8_t nic_macro_idx;
    uint8_t nic_phys_port_idx;
};

/* What the test reads back. */
struct hbl_fake_state {
    unsigned int n_create, n_destroy, n_modify, n_query;
    struct hbldv_encap_attr last_attr;
    uint8_t last_tnl_hdr[64];
    int last_attr_mask;
    uint64_t last_caps;
    uint8_t last_encap_num;
    uint8_t last_priority;
    const struct ibv_qp *last_qp;
};

static struct hbl_fake_state state;
static struct hbldv_encap encap_pool[16];

const struct hbl_fake_state *hbl_fake_state(void);
bool hbldv_is_supported(struct ibv_device *);
struct hbldv_encap *hbldv_create_encap(struct ibv_context *,
                                       struct hbldv_encap_attr *);
int hbldv_destroy_encap(struct hbldv_encap *);
int hbldv_modify_qp(struct ibv_qp *, struct ibv_qp_attr *, int,
                    struct hbldv_qp_attr *);
int hbldv_query_port(struct ibv_context *, uint32_t,
                     struct hbldv_query_port_attr *);

const struct hbl_fake_state *
hbl_fake_state(void)
{
    return &state;
}

bool
hbldv_is_supported(struct ibv_device *device)
{
    return device != NULL;
}

/* Returns an encap whose id is 100 + the tunnel header size, so that the
 * test sees the call went through. */
struct hbldv_encap *
hbldv_create_encap(struct ibv_context *context,
                   struct hbldv_encap_attr *attr)
{
    struct hbldv_encap *encap;

    (void) context;
    state.n_create++;
    if (!attr) {
        errno = EINVAL;
        return NULL;
    }
    if (attr->tnl_hdr_size > sizeof state.last_tnl_hdr) {
        errno = EINVAL;
        return NULL;
    }
    state.last_attr = *attr;
    if (attr->tnl_hdr_size) {
        memcpy(state.last_tnl_hdr, (const void *) (uintptr_t)
               attr->tnl_hdr_ptr, attr->tnl_hdr_size);
    }
    /* No allocator of OVS's here: the test makes few encaps. */
    if (state.n_create > sizeof encap_pool / sizeof encap_pool[0]) {
        errno = ENOMEM;
        return NULL;
    }
    encap = &encap_pool[state.n_create - 1];
    encap->encap_num = 100 + attr->tnl_hdr_size;
    return encap;
}

int
hbldv_destroy_encap(struct hbldv_encap *encap)
{
    state.n_destroy++;
    if (!encap) {
        return EINVAL;
    }
    encap->encap_num = 0;
    return 0;
}

int
hbldv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
                struct hbldv_qp_attr *hbl_attr)
{
    state.n_modify++;
    if (!attr) {
        return EINVAL;
    }
    state.last_qp = qp;
    state.last_attr_mask = attr_mask;
    state.last_caps = hbl_attr ? hbl_attr->caps : 0;
    state.last_encap_num = hbl_attr ? hbl_attr->encap_num : 0;
    state.last_priority = hbl_attr ? hbl_attr->priority : 0;
    return 0;
}

int
hbldv_query_port(struct ibv_context *context, uint32_t port_num,
                 struct hbldv_query_port_attr *attr)
{
    (void) context;
    state.n_query++;
    if (!attr || port_num != 1) {
        return EINVAL;
    }
    memset(attr, 0, sizeof *attr);
    attr->max_num_of_encaps = 7;
    attr->nic_phys_port_idx = 3;
    return 0;
}
