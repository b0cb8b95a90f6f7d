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

#ifndef HW_MODEL_H
#define HW_MODEL_H 1

/* The software NIC model: devices "model0", "model1", ... that implement
 * the device ops of hw-dev.h (hw_model_ops) with the hardware's semantics
 * and errnos, plus a "wire" that tests and unixctl drive.
 *
 * A device is created on its first open and lives as long as the process,
 * so that its objects and counters can be inspected after it is closed.
 * Every function here is thread-safe. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct seq;

/* Registers the hw-model/... unixctl commands.  Idempotent. */
void hw_model_init(void);

/* Returns true if 'devname' names a model device ("model" followed by a
 * decimal number without leading zeros, at most 65535). */
bool hw_model_handles(const char *devname);

/* A frame arrives on the wire of device 'devname': the device parses it,
 * looks it up in its ingress rules and delivers it to a receive queue or
 * drops it.  Takes ownership of 'packet' in every case.  Returns 0 if the
 * packet was delivered to a WQ (or sent back to the wire by the e-switch),
 * ENODEV if there is no such device (the packet is freed), or a positive
 * value naming why the device dropped it:
 * EPERM (drop rule), ENOENT (no rule matched), ENETDOWN (WQ not ready,
 * or the device had a fatal error and is not back yet),
 * ENOBUFS (WQ ring full), EPROTOTYPE (destination QP has no receive
 * queue). */
int hw_model_receive(const char *devname, struct dp_packet *packet);

/* Makes the next 'count' calls of the operation 'op' (an hw_dev_ops member
 * name such as "create_flow", "create_counters", "create_wq", "create_qp",
 * "open") on device 'devname' fail with 'error' before doing anything.
 * 'error' 0 or 'count' 0 clears the fault.  Returns 0, ENODEV for an
 * unknown device, or EINVAL for an unknown operation. */
int hw_model_set_fault(const char *devname, const char *op, int error,
                       unsigned int count);

/* A firmware fatal error on device 'devname', as mlx5 reports it and its
 * health recovery handles it: the device loses every object its users
 * made (rules, queues, counters, ...) and every packet from then on, and
 * reports IBV_EVENT_DEVICE_FATAL on the async event queue of every open
 * context.  Those contexts are dead: each call on them fails with EIO,
 * except those that destroy an object, which succeed (the kernel already
 * destroyed it; rdma-core turns their EIO into success), and so does
 * open().  Once the last context is closed the device is back, empty.
 * Returns 0, ENODEV for no such device, or EALREADY if it is dead
 * already. */
int hw_model_reset(const char *devname);

/* Captures every frame that leaves the wire of 'devname' into the pcap file
 * 'file_name' (truncated), or stops capturing if 'file_name' is NULL, "" or
 * "none".  Returns 0 or an errno value. */
int hw_model_set_pcap(const char *devname, const char *file_name);

/* Live objects of one device, per kind. */
struct hw_model_objects {
    size_t pd;
    size_t cq;
    size_t wq;
    size_t ind_table;
    size_t qp;
    size_t flow;
    size_t counters;
    size_t reformat;
    size_t dr_domain;           /* The pipeline (hw-model-dr.h). */
    size_t dr_table;
    size_t dr_matcher;
    size_t dr_rule;
    size_t dr_action;
    size_t dr_counter;
    size_t dr_geneve_opt;
    size_t total;
};

/* Fills 'objs' for device 'devname'.  Returns 0 or ENODEV. */
int hw_model_count_objects(const char *devname, struct hw_model_objects *);

/* Wire counters of one device. */
struct hw_model_stats {
    uint64_t rx_packets;        /* Frames that arrived on the wire. */
    uint64_t rx_bytes;
    uint64_t rx_delivered;      /* Enqueued on a WQ. */
    uint64_t rx_drop_rule;      /* Dropped by an ACTION_DROP rule. */
    uint64_t rx_drop_no_rule;   /* No rule matched (no default path). */
    uint64_t rx_drop_no_rq;     /* Steered to a QP without receive queue. */
    uint64_t rx_drop_wq_not_ready;  /* Target WQ not in RDY state. */
    uint64_t rx_drop_wq_full;   /* Target WQ ring full. */
    uint64_t tx_packets;        /* Frames that left on the wire. */
    uint64_t tx_bytes;
    uint64_t tx_drop_rule;      /* Dropped by an egress ACTION_DROP rule. */
    uint64_t tx_drop_invalid;   /* Sent on a QP that cannot send, or not
                                 * an Ethernet frame. */
    uint64_t rx_decap;          /* Decapsulated by an ingress rule. */
    uint64_t rx_decap_skipped;  /* A decap rule matched a packet without
                                 * that tunnel: delivered unchanged. */
    uint64_t tx_encap;          /* Encapsulated by an egress rule. */
    uint64_t tx_drop_encap;     /* Encap would overflow a length field. */
    uint64_t dr_rule_hits;      /* Pipeline rules that matched a packet. */
    uint64_t dr_drop_miss;      /* Dropped by NIC RX's default: a miss below
                                 * the root. */
    uint64_t dr_modify_skipped; /* Modify-header commands, VLAN pops and
                                 * pushes on a header the packet lacks. */
    uint64_t dr_hairpin;        /* Sent out to the wire by the FDB. */
    uint64_t dr_uplink_drop;    /* From the wire, sent back to the uplink
                                 * by an FDB rule: dropped. */
    uint64_t resets;            /* Fatal errors (hw_model_reset()). */
    uint64_t rx_drop_fatal;     /* Arrived while the device was dead. */
    uint64_t rx_lost_fatal;     /* Waiting in a WQ when it died. */
    uint64_t tx_drop_fatal;     /* Sent while the device was dead. */
};

/* Fills 'stats' for device 'devname'.  Returns 0 or ENODEV. */
int hw_model_get_stats(const char *devname, struct hw_model_stats *);

/* Makes each pipeline domain of 'devname' hold at most 'max_rules' rules
 * (dr_rule_create() fails with ENOMEM beyond).  Returns 0 or ENODEV. */
int hw_model_set_dr_max_rules(const char *devname, uint32_t max_rules);

/* Changes whenever a model device queues a received packet on a WQ, so
 * that a thread that polls receive queues can wait on it. */
struct seq *hw_model_rx_seq(void);

/* The parser of 'devname' takes UDP destination port 'port' for VXLAN
 * ('add') or no longer does.  Returns 0, ENODEV, or the errors of
 * hw_model_steering_add_vxlan_port() and _del_vxlan_port(). */
int hw_model_set_vxlan_port(const char *devname, bool add, uint16_t port);

/* A function that gets every frame leaving the wire of a device, after the
 * egress rules (and their encap) applied.  It is called with the device's
 * lock held: it must not call into the model, and must not keep
 * 'packet'. */
typedef void hw_model_wire_tx_func(void *aux, const struct dp_packet *packet);

/* Makes 'func' (with 'aux') the far end of the wire of 'devname', or
 * removes it if 'func' is NULL.  Once this returns, the previous function
 * is no longer called.  Returns 0, ENODEV, or EBUSY if another function is
 * set already. */
int hw_model_set_wire_tx(const char *devname, hw_model_wire_tx_func *func,
                         void *aux);

/* The most VFs a model e-switch has. */
#define HW_MODEL_MAX_VFS 64

/* Switchdev mode.
 *
 * A device in switchdev mode has 'n_vfs' VFs besides its uplink: VF K
 * (from 0) is e-switch vport K + 1, and its representor is verbs port
 * K + 2 of the device (port 1 is the uplink), "vfK" to
 * hw_dev_ops.representor_port().  The host side of VF K, where a VM would
 * be, is named "model<N>/vf<K>" wherever a device's wire is named:
 * hw_model_receive() makes the VF send a frame, hw_model_set_pcap() and
 * hw_model_set_wire_tx() get the frames that reach it.
 *
 * Sets the number of VFs of 'devname' (created if need be), 0 for legacy
 * mode.  Returns 0, EINVAL if 'n_vfs' is above HW_MODEL_MAX_VFS or the
 * name is not a model device's, or EBUSY if the device is open and the
 * number changes (SR-IOV VFs cannot change while the PF is in use). */
int hw_model_set_vfs(const char *devname, unsigned int n_vfs);

/* The counters of one VF's host side. */
struct hw_model_vf_stats {
    uint64_t tx_packets;        /* Frames the VF sent into the e-switch. */
    uint64_t tx_bytes;
    uint64_t rx_packets;        /* Frames that reached the VF. */
    uint64_t rx_bytes;
};

/* Stores the number of VFs of 'devname' into '*n_vfs' and, if 'stats' is
 * nonnull, the counters of VF 'vf' into it.  Returns 0, ENODEV for no such
 * device or ENOENT for no such VF. */
int hw_model_get_vf_stats(const char *devname, unsigned int vf,
                          unsigned int *n_vfs, struct hw_model_vf_stats *);

#endif /* hw-model.h */
