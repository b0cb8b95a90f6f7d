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

/* The spread of RSS over receive queues: the "rss" mode of the
 * microbenchmark (test-hw-bench.c). */

#include <config.h>
#undef NDEBUG
#include "test-hw-bench.h"

#include <stdio.h>
#include <string.h>

#include "dp-packet.h"
#include "flow.h"
#include "hw-model.h"
#include "netdev.h"
#include "openvswitch/dynamic-string.h"
#include "packets.h"
#include "random.h"
#include "test-hw-check.h"
#include "util.h"

/* RSS spread. */

static struct dp_packet *
random_packet(void)
{
    struct dp_packet *packet = dp_packet_new(128);
    struct flow flow;

    memset(&flow, 0, sizeof flow);
    flow.dl_src = (struct eth_addr) ETH_ADDR_C(00, 00, 00, 00, 00, 01);
    flow.dl_dst = (struct eth_addr) ETH_ADDR_C(00, 00, 00, 00, 00, 02);
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_src = htonl(random_uint32());
    flow.nw_dst = htonl(random_uint32());
    flow.nw_proto = random_uint32() & 1 ? IPPROTO_TCP : IPPROTO_UDP;
    flow.nw_ttl = 64;
    flow.tp_src = htons(random_uint32());
    flow.tp_dst = htons(random_uint32());
    flow_compose(packet, &flow, NULL, 18);
    return packet;
}

/* Reads every packet queued on 'port', adding per-queue counts to
 * 'counts'. */
static void
drain_port(struct bench_port *port, uint64_t *counts)
{
    for (int q = 0; q < port->n_rxq; q++) {
        struct dp_packet_batch batch;

        dp_packet_batch_init(&batch);
        while (!netdev_rxq_recv(port->rxqs[q], &batch, NULL)) {
            counts[q] += dp_packet_batch_size(&batch);
            dp_packet_delete_batch(&batch, true);
            dp_packet_batch_init(&batch);
        }
    }
}

void
bench_rss(int argc, char *argv[])
{
    static const int queue_counts[] = { 2, 4, 8 };
    unsigned int n_tuples = argc > 1 ? atoi(argv[1]) : 65536;
    unsigned int n_reps = argc > 2 ? atoi(argv[2]) : 5;

    n_reps = MIN(MAX(n_reps, 1), MAX_REPS);
    bench_init();
    printf("# 5 RSS spread: %u random IPv4 TCP/UDP 5-tuples into the NIC "
           "model's wire, read from every receive queue; max/mean queue "
           "load (1.00 is perfect); MED: median [lowest-highest] of the "
           "seeds\n", n_tuples);

    for (size_t k = 0; k < ARRAY_SIZE(queue_counts); k++) {
        int n_rxq = queue_counts[k];
        struct bench_port port;
        char name[32], devname[32];
        double v[MAX_REPS];
        struct spread sp;

        snprintf(name, sizeof name, "rss%d", n_rxq);
        snprintf(devname, sizeof devname, "model%d", 1000 + n_rxq);
        bench_port_open(&port, name, devname, NULL, NULL, n_rxq);

        for (unsigned int r = 0; r < n_reps; r++) {
            uint64_t counts[64], total = 0, max = 0;
            struct ds s = DS_EMPTY_INITIALIZER;

            memset(counts, 0, sizeof counts);
            random_set_seed(r + 1);
            for (unsigned int i = 0; i < n_tuples; i++) {
                CHECK(!hw_model_receive(devname, random_packet()));
                if (i % 256 == 255) {
                    drain_port(&port, counts);
                }
            }
            drain_port(&port, counts);
            for (int q = 0; q < n_rxq; q++) {
                total += counts[q];
                max = MAX(max, counts[q]);
                ds_put_format(&s, " %"PRIu64, counts[q]);
            }
            CHECK(total == n_tuples);
            v[r] = (double) max / ((double) total / n_rxq);
            printf("rep queues=%d seed=%u max/mean=%.4f per-queue:%s\n",
                   n_rxq, r + 1, v[r], ds_cstr(&s));
            ds_destroy(&s);
        }
        sp = bench_spread_of(v, n_reps);
        printf("MED queues=%d reps=%u max/mean=%.4f [%.4f-%.4f]\n", n_rxq,
               n_reps, sp.med, sp.min, sp.max);

        bench_port_close(&port);
    }
}
