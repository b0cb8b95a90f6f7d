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

#ifndef NETDEV_HW_BASE_H
#define NETDEV_HW_BASE_H 1

/* The base rules of a hw port: they catch every packet no datapath rule
 * claimed and deliver it to the RSS QP that hashes its type (the upcall
 * queues).
 *
 * With verbs steering they sit in the root table: per-type L4 and L3 rules,
 * two VLAN guards and an ALL_DEFAULT rule.  With the pipeline of tables the
 * root holds one rule that sends every packet to the flow table (level 1),
 * where the same rules sit at the same priorities, each with its RSS QP as
 * destination and, for the last, an empty match (a table of level 1 drops
 * what it does not match, hw-apis.md 3.4); the datapath rules go to that
 * table too. */

#include <stdint.h>
#include "hw-rule.h"

struct ds;
struct hw_pipeline;
struct ibv_qp;
struct netdev_hw_base;
struct netdev_hw_device;

/* The level of the table datapath rules go to on a port with the
 * pipeline. */
#define NETDEV_HW_FLOW_LEVEL 1

/* Creates the base rules of the port whose device is 'dev' (with
 * 'dev->pipeline' for the pipeline of tables), delivering to 'rss_qps'.
 * Returns 0 and stores them in '*basep', or a positive errno value with
 * the failed step in '*stepp'; then nothing was left on the device. */
int netdev_hw_base_build(const struct netdev_hw_device *dev,
                         struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                         struct netdev_hw_base **basep, const char **stepp);

/* On a port whose pipeline takes only the rules that need it
 * ('dev->pipeline_on_demand'), the base of its flow table, made when the
 * first such rule comes: the flow table's miss rules, as with the
 * pipeline for all, and a root rule at HW_PRIO_PIPELINE_JUMP, after every
 * datapath rule of the root and before its miss rules, that sends the rest
 * there.  Returns 0 and stores it in '*basep' (destroyed with
 * netdev_hw_base_destroy()), or a positive errno value with the failed
 * step in '*stepp'; then nothing was left on the device. */
int netdev_hw_base_build_flow_table(
    const struct netdev_hw_device *dev,
    struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
    struct netdev_hw_base **basep, const char **stepp);

/* On a port whose pipeline runs the connection pipeline (hw-rule.h,
 * HW_REG_RECIRC), the miss rules of its connection and post-conntrack
 * tables, made when the port's first rule of that pipeline comes: they
 * send what no connection or post-conntrack rule takes to the RSS QPs, as
 * it left the stage (tagged with the stage's mark).  Returns 0 and stores
 * them in '*basep' (destroyed with netdev_hw_base_destroy()), or a
 * positive errno value with the failed step in '*stepp'; then nothing was
 * left on the device. */
int netdev_hw_base_build_ct(const struct netdev_hw_device *dev,
                            struct ibv_qp *const rss_qps[HW_N_RSS_TYPES],
                            struct netdev_hw_base **basep,
                            const char **stepp);

/* Destroys 'base' on 'dev' (rules in reverse order of creation).  A rule
 * the device refuses to destroy is handed to hw-stale.h (so its RSS QP
 * must stay).  NULL 'base' is a no-op. */
void netdev_hw_base_destroy(struct netdev_hw_base *base,
                            const struct netdev_hw_device *dev);

/* The number of base rules 'base' has created, in total. */
int netdev_hw_base_n_rules(const struct netdev_hw_base *base);

/* Appends "  miss rules: ..." lines to 's', for netdev-hw/show. */
void netdev_hw_base_format(const struct netdev_hw_base *base, struct ds *s);

#endif /* netdev-hw-base.h */
