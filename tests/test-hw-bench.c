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

/* Microbenchmark of the plugin, in one process (tools/bench.sh runs it).
 *
 *   ovstest test-hw-bench flows [N,N,...] [REPS,REPS,...]
 *       The cost per flow of offloading N distinct datapath flows, and of
 *       deleting them, on hw ports of the NIC model, in these layers:
 *         null:  hw_translate_flow() + hw_flow_install() on a device-ops
 *                table that does nothing: translate, encode and the
 *                install bookkeeping alone (the plugin's own work);
 *         model: the same on the NIC model (hw_model_ops), with the RSS
 *                QPs a hw port sets up;
 *         put:   netdev_flow_put() through OVS's offload API into the
 *                provider, as dpif-netdev's offload thread calls it;
 *         pnull: the same put (and del) on hw ports whose device is driven
 *                by the no-op table of 'null' (a backend registered for
 *                device names "null:model<N>"): the plugin's own work of a
 *                flow_put(), measured directly;
 *         pdr:   the same as pnull on hw ports with options:steering=dr,
 *                whose rules go to the pipeline of tables (hw-flow-dr.c):
 *                the null table's per-rule dr operations do nothing too,
 *                and the objects rules share (tables, matchers, the
 *                destination QP's action) are the model's;
 *         pesw:  the same on representors of null devices in switchdev
 *                mode ("null-esw:model<N>", the model's e-switch with 2
 *                VFs): flows from VF 0's representor output to VF 1's,
 *                so they go to the FDB (dest_vport); fdb counts the rules
 *                the puts made in the FDB domain.
 *       The model's cost is model - null, so the plugin's own cost of a
 *       flow_put() is also put - (model - null), printed next to pnull;
 *       that difference charges the plugin with the cache misses the
 *       model's memory causes in the plugin's code.  Memory: the growth
 *       of the heap in use (mallinfo2() uordblks + hblkhd: every live malloc
 *       chunk with its header, mapped ones included) across the N installs,
 *       per flow; B_pnull, B_pdr and B_pesw are the plugin's alone.
 *       A model device holds at most 65536 rules per priority, as mlx5
 *       does, so the flows are spread over ceil(N / 50000) hw ports
 *       (round-robin), one model device each, and as many hw ports on
 *       null devices of each steering.
 *       Every figure of the summaries is the median [lowest-highest] of
 *       its REPS repetitions.
 *
 *   ovstest test-hw-bench eswitch [N,N,...] [REPS,REPS,...]
 *       The plugin's own work of 'flows' alone (pnull, pdr, pesw side by
 *       side), with the fdb count (tools/bench.sh section 9).
 *
 *   ovstest test-hw-bench puts N verbs|dr|esw [PUTS [ROUNDS]]
 *       The ports for N flows, the uncounted loop of 'flows', ROUNDS
 *       (default 0) uncounted puts and deletes of the N flows, then PUTS
 *       (default N) puts of the pnull (verbs), pdr (dr) or pesw (esw)
 *       layer, and nothing else: for valgrind's cachegrind, which counts
 *       the cache misses of the put loop as the difference of a run with
 *       PUTS = N and one with PUTS = 0 (tools/bench.sh section 6).
 *
 *   ovstest test-hw-bench conns [N,N,...] [REPS,REPS,...]
 *       Conntrack offload (hw-ct.c): N UDP connections offered with
 *       hw_ct_conn_add(), as OVS's conntrack offers an established one,
 *       until hw-ct.c's thread has installed both directions in the
 *       connection tables of their hw ports (two ports with
 *       options:steering=dr, each with the stage flow
 *       ct(zone=5),recirc(0x1) that gives it the connection pipeline),
 *       then hw_ct_conn_del() of all until their rules are gone.  On hw
 *       ports of null devices (the null table's dr rules and counters:
 *       the plugin's own work) and on the NIC model.  Per connection: the
 *       caller's time in hw_ct_conn_add(), the CPU time of the whole
 *       process (the caller and the thread) until both rules are in and
 *       until they are gone, the heap growth while the N are held (every
 *       thread allocates from the main arena here), and connections per
 *       second of wall time.
 *
 *   ovstest test-hw-bench rss [N_TUPLES] [REPS]
 *       Sends N_TUPLES random TCP and UDP 5-tuples into the wire of hw
 *       ports with 2, 4 and 8 receive queues, reads every queue, and
 *       prints the max/mean queue load (median [lowest-highest] of REPS
 *       seeds).
 *
 * Times are the CPU time of the benchmark's thread
 * (CLOCK_THREAD_CPUTIME_ID).  Every number printed is measured; nothing is
 * asserted except that the operations succeed.
 *
 * The modes are in test-hw-bench-flows.c (flows, eswitch, puts),
 * test-hw-bench-conns.c and test-hw-bench-rss.c; what they share in
 * test-hw-bench-common.c, the null e-switch in test-hw-bench-esw.c. */

#include <config.h>
#include "test-hw-bench.h"

#include <string.h>

#include "ovstest.h"
#include "util.h"

static void
test_hw_bench_main(int argc, char *argv[])
{
    const char *what = argc > 1 ? argv[1] : "flows";

    if (!strcmp(what, "flows")) {
        bench_flows(argc - 1, argv + 1);
    } else if (!strcmp(what, "eswitch")) {
        bench_eswitch(argc - 1, argv + 1);
    } else if (!strcmp(what, "puts")) {
        bench_puts(argc - 1, argv + 1);
    } else if (!strcmp(what, "rss")) {
        bench_rss(argc - 1, argv + 1);
    } else if (!strcmp(what, "conns")) {
        bench_conns(argc - 1, argv + 1);
    } else {
        ovs_fatal(0, "usage: ovstest test-hw-bench flows [N,...] [REPS,...]"
                  " | eswitch [N,...] [REPS,...]"
                  " | puts N verbs|dr|esw [PUTS [ROUNDS]]"
                  " | rss [N_TUPLES] [REPS]"
                  " | conns [N,...] [REPS,...]");
    }
}

OVSTEST_REGISTER("test-hw-bench", test_hw_bench_main);
