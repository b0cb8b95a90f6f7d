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

#ifndef HW_CT_H
#define HW_CT_H 1

/* Connections in the device: the offload core's side of conntrack
 * offload.
 *
 * Software conntrack offers each connection once it is established
 * (hw-ct-hooks.c adapts OVS's hooks to these calls).  Each direction whose
 * packets arrive by a hw port with the connection pipeline (hw-rule.h,
 * HW_REG_RECIRC) gets a rule in that port's connection table: its tuple and
 * zone set the conntrack registers and jump to the post-conntrack table
 * (hw_translate_ct_conn()); a connection with NAT has a second rule per
 * direction, for the stages with nat, that translates the packets
 * (hw-ct-restore.h).  The calls from conntrack never block on the
 * device: a thread of this module installs and destroys the rules.
 * Conntrack asks how recently the device saw a connection's packets
 * (hw_ct_conn_used()) before it expires it; the thread reads every
 * connection's counters once a second, so that answer is never more than
 * a second late.
 *
 * Lock order: a port's 'dev_mutex', then its 'mutex', then this module's
 * own (hw-ct.c). */

#include <stdbool.h>
#include <stdint.h>
#include "ct-dpif.h"
#include "hw-rule.h"
#include "openvswitch/types.h"

struct ds;
struct hw_offload_port;
struct ibv_qp;

#define HW_CT_NAT_SRC 1
#define HW_CT_NAT_DST 2

/* What the core needs of a connection. */
struct hw_ct_conn_info {
    const void *id;                 /* Conntrack's, until hw_ct_conn_del(). */
    uint16_t zone;
    struct ct_dpif_tuple tuple[2];  /* Original, reply direction, as their
                                     * packets carry them. */
    uint8_t nat;                    /* HW_CT_NAT_SRC or HW_CT_NAT_DST: what
                                     * a ct() with nat does to the original
                                     * direction (the reply gets the
                                     * opposite); 0 for nothing. */
    uint32_t mark;
    ovs_u128 label;
    odp_port_t in_port[2];          /* ODPP_NONE if not seen yet. */
};

/* Whether conntrack offers connections (the hooks are registered and
 * hw-offload is on): then translate makes stages of ct() flows. */
bool hw_ct_enabled(void);
void hw_ct_set_enabled(bool);

/* Conntrack's calls.  hw_ct_conn_add() returns false, and counts the
 * reason, for a connection the device cannot have (a protocol other than
 * TCP, UDP, ICMP and ICMPv6): it is then not this module's and no
 * hw_ct_conn_del() follows. */
bool hw_ct_conn_add(const struct hw_ct_conn_info *);
void hw_ct_conn_del(const void *id);
long long int hw_ct_conn_used(const void *id);

/* From the offload core, with the port's 'mutex' held: the port's
 * connection pipeline base is in (its connections may go in), or is about
 * to go (its connections' rules are destroyed first).  The connections of
 * a port of an e-switch go to the FDB's connection table
 * (hw-translate-eswitch-ct.c), which sends no packet to a QP: 'rss_qps'
 * may then be NULL. */
void hw_ct_port_ready(struct hw_offload_port *,
                      struct ibv_qp *const rss_qps[HW_N_RSS_TYPES]);
void hw_ct_port_release(struct hw_offload_port *);

/* From the offload core, after it installed on the hw port 'port' a ct()
 * stage of a flow of the tunnel vport 'vport' (behind 'tunnel'): the
 * connections whose packets come out of 'vport' get their rules in
 * 'port''s connection table, which matches the inner headers.  Unless
 * another port has them already. */
void hw_ct_port_add_vport(const struct hw_offload_port *, odp_port_t vport,
                          enum hw_tunnel_type tunnel);

/* options:ct-size of the hw port 'name': the most connection rules its
 * connection table takes (a direction's plain rule and its NAT rule are
 * two), or a negative 'size' for as many as the device takes.  Beyond it, a
 * direction's rules stay in software, with the reason "connection table
 * full: options:ct-size=N".  Lowering it leaves the rules in the device as
 * they are; raising it retries the connections that miss a rule. */
void hw_ct_set_port_size(const char *name, long long int size);

/* Waits until every connection offered so far is in the device or has a
 * reason not to be (tests and netdev-hw/dump-conns). */
void hw_ct_flush_pending(void);

/* Registers netdev-hw/dump-conns. */
void hw_ct_unixctl_register(void);

#endif /* hw-ct.h */
