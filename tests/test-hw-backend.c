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

/* Unit tests of the device backends as the plugin selects them
 * (hw-dev.c) and of the rdma-core backend (hw-rdma.c) without a NIC:
 *
 *   - backend selection by device name, and opening an RDMA device that
 *     does not exist (ENODEV, a message that names it, nothing leaked);
 *
 *   - device discovery from a network interface, and the representors of
 *     a PF in switchdev mode, on a fake sysfs tree;
 *
 *   - encoding equality: every call the plugin's flow install path
 *     (hw_flow_install(), hw_flow_read(), hw_flow_uninstall()) makes on a
 *     device, with every byte it hands over, is the same whichever backend
 *     table the device uses.  Nothing above the device ops may depend on
 *     the backend, so the rdma-core shim and the NIC model receive the
 *     same steering rules;
 *
 *   - the same for the pipeline of tables: one sequence of dr calls (a
 *     domain, a level-1 table, a matcher, rules with tag, counter,
 *     destination QP, packet reformat and modify header) records the same
 *     arguments, mask and value bytes and modify-header commands included,
 *     on both tables; the rdma-core backend's dr operations exist and
 *     refuse what they can refuse without a device;
 *
 *   - CAP_SYS_RAWIO: without it no device gets the pipeline.
 *
 * Run as "ovstest test-hw-backend" (all tests) or "ovstest test-hw-backend
 * NAME...". */

#include <config.h>
#undef NDEBUG
#include "hw-dev.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flow.h"
#include "hw-encode-dr.h"
#include "hw-flow.h"
#include "hw-model.h"
#include "hw-privileges.h"
#include "hw-rule.h"
#include "hw-toeplitz.h"
#include "hw-translate.h"
#include "netdev-hw.h"
#include "netlink.h"
#include "odp-netlink.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/match.h"
#include "openvswitch/ofpbuf.h"
#include "openvswitch/vlog.h"
#include "ovstest.h"
#include "packets.h"
#include "svec.h"
#include "test-hw-check.h"
#include "test-hw-flows.h"
#include "test-hw-model-port.h"
#include "test-hw-recorder.h"
#include "util.h"
#ifdef HAVE_HW_RDMA
#include "hw-dr.h"
#include "hw-rdma.h"
#endif

/* Backend selection and a device that does not exist. */

static void
test_select(void)
{
    /* The model's names are the model's, whatever else is built. */
    CHECK(hw_dev_ops_find("model0") == &hw_model_ops);
    CHECK(hw_dev_ops_find("model7") == &hw_model_ops);
    CHECK(!hw_dev_ops_find(""));
    CHECK(!hw_dev_ops_find(NULL));
    /* The loopback interface never has an RDMA device. */
    CHECK(!hw_dev_ops_find("lo"));
    CHECK(!hw_dev_ops_find("model01"));

#ifdef HAVE_HW_RDMA
    /* mlx5_ib's device names are rdma-core's, present or not, so that
     * open() can say what is wrong. */
    CHECK(hw_dev_ops_find("mlx5_0") == &hw_rdma_ops);
    CHECK(hw_dev_ops_find("mlx5_nonexistent") == &hw_rdma_ops);
    CHECK_STR(hw_rdma_ops.name, "rdma");
#else
    /* Without rdma-core no backend drives them. */
    CHECK(!hw_dev_ops_find("mlx5_0"));
    CHECK(!hw_dev_ops_find("mlx5_nonexistent"));
#endif
}

#ifdef HAVE_HW_RDMA
#define FD_DIR "/proc/self/fd"

/* Returns the number of open file descriptors, or 0 if unknown. */
static size_t
count_open_fds(void)
{
    struct dirent *de;
    size_t n = 0;
    DIR *dir;

    dir = opendir(FD_DIR);
    if (!dir) {
        return 0;
    }
    while ((de = readdir(dir)) != NULL) {
        n += de->d_name[0] != '.';
    }
    closedir(dir);
    return n;
}

/* Reads the whole of 'file_name' into a new string. */
static char *
read_file(const char *file_name)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    FILE *stream = fopen(file_name, "r");

    CHECK(stream);
    for (int c; (c = getc(stream)) != EOF;) {
        ds_put_char(&s, c);
    }
    fclose(stream);
    return ds_steal_cstr(&s);
}

/* Returns the bytes of heap in use, or 0 if unknown. */
static size_t
heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}

static void
test_open_nonexistent(void)
{
    const char *log_name = "test-hw-backend.log";
    struct vlog_module *module = vlog_module_from_name("hw_rdma");
    struct vlog_module *vlog_module = vlog_module_from_name("vlog");
    static struct ibv_context not_set;
    struct ibv_context *ctx;
    size_t fds, heap;
    char *log;

    CHECK(module && vlog_module);

    /* The failure is logged once, with the name and the reason.  The test
     * reads it from a log file and keeps the console quiet. */
    unlink(log_name);
    vlog_set_levels(vlog_module, VLF_CONSOLE, VLL_WARN);
    vlog_set_levels(module, VLF_CONSOLE, VLL_OFF);
    CHECK_ERR(vlog_set_log_file(log_name), 0);
    vlog_set_levels(module, VLF_FILE, VLL_DBG);
    ctx = &not_set;
    CHECK_ERR(hw_rdma_ops.open("mlx5_nonexistent", &ctx), ENODEV);
    CHECK(!ctx);
    log = read_file(log_name);
    CHECK(strstr(log, "mlx5_nonexistent: no such RDMA device"));
    free(log);

    /* An interface name that does not exist either. */
    CHECK_ERR(hw_rdma_ops.open("hwtest-noif0", &ctx), ENODEV);
    CHECK(!ctx);

    /* Nothing leaks: repeated failures hold no more memory or descriptors.
     * What is in use is measured after 10 rounds of the calls: libibverbs
     * initialises itself on the first, and glibc keeps up to 7 freed
     * blocks of each size for reuse (its tcache), which mallinfo2() counts
     * as in use, so that the first rounds seem to leak. */
    vlog_set_levels(module, VLF_ANY_DESTINATION, VLL_OFF);
    fds = heap = 0;
    for (int i = 0; i < 10 + 200; i++) {
        if (i == 10) {
            fds = count_open_fds();
            heap = heap_in_use();
        }
        CHECK_ERR(hw_rdma_ops.open("mlx5_nonexistent", &ctx), ENODEV);
        CHECK(!ctx);
        CHECK(!hw_rdma_ops.handles("hwtest-noif0"));
    }
    CHECK(count_open_fds() == fds);
    /* A leak of even one small block per call would be 200 blocks. */
    CHECK(heap_in_use() <= heap + 1024);

    vlog_close_log_file();
    vlog_set_levels(module, VLF_ANY_DESTINATION, VLL_INFO);
    vlog_set_levels(vlog_module, VLF_CONSOLE, VLL_INFO);
    unlink(log_name);
}

/* Device discovery on a fake sysfs tree. */

static void
make_dirs(const char *root, const char *path)
{
    char *full = xasprintf("%s/%s", root, path);

    for (char *p = full + strlen(root) + 1; ; p++) {
        if (*p == '/' || !*p) {
            char save = *p;

            *p = '\0';
            CHECK(!mkdir(full, 0755) || errno == EEXIST);
            *p = save;
            if (!save) {
                break;
            }
        }
    }
    free(full);
}

static void
write_file(const char *root, const char *path, const char *content)
{
    char *full = xasprintf("%s/%s", root, path);
    FILE *stream;

    stream = fopen(full, "w");
    CHECK(stream);
    fputs(content, stream);
    CHECK(!fclose(stream));
    free(full);
}

static int
remove_entry(const char *path, const struct stat *st OVS_UNUSED,
             int flag OVS_UNUSED, struct FTW *ftw OVS_UNUSED)
{
    return remove(path);
}

static void
test_discovery(void)
{
    char root[] = "hw-backend-sysfs.XXXXXX";
    char *name;

    CHECK(mkdtemp(root));

    /* eth9's PCI function has two RDMA devices; mlx5_3's port 1 is eth9,
     * mlx5_2's is eth8. */
    make_dirs(root, "class/net/eth9/device/infiniband/mlx5_2");
    make_dirs(root, "class/net/eth9/device/infiniband/mlx5_3");
    make_dirs(root, "class/infiniband/mlx5_2/ports/1/gid_attrs/ndevs");
    make_dirs(root, "class/infiniband/mlx5_3/ports/1/gid_attrs/ndevs");
    write_file(root, "class/infiniband/mlx5_2/ports/1/gid_attrs/ndevs/0",
               "eth8\n");
    write_file(root, "class/infiniband/mlx5_3/ports/1/gid_attrs/ndevs/0",
               "eth9\n");
    /* eth7: one device, no RoCE GID table, found through its PCI
     * function. */
    make_dirs(root, "class/net/eth7/device/infiniband/mlx5_5");
    make_dirs(root, "class/infiniband/mlx5_5/device/net/eth7");
    /* lo: no device at all. */
    make_dirs(root, "class/net/lo");

    name = hw_rdma_ifname_to_ibdev(root, "eth9");
    CHECK_STR(name, "mlx5_3");
    free(name);
    name = hw_rdma_ifname_to_ibdev(root, "eth7");
    CHECK_STR(name, "mlx5_5");
    free(name);
    CHECK(!hw_rdma_ifname_to_ibdev(root, "lo"));
    CHECK(!hw_rdma_ifname_to_ibdev(root, "eth6"));
    CHECK(!hw_rdma_ifname_to_ibdev(root, ".."));
    CHECK(!hw_rdma_ifname_to_ibdev(root, "eth9/../eth7"));
    CHECK(!hw_rdma_ifname_to_ibdev(root, ""));

    name = hw_rdma_ibdev_to_ifname(root, "mlx5_2", 1);
    CHECK_STR(name, "eth8");
    free(name);
    name = hw_rdma_ibdev_to_ifname(root, "mlx5_5", 1);
    CHECK_STR(name, "eth7");
    free(name);
    CHECK(!hw_rdma_ibdev_to_ifname(root, "mlx5_9", 1));
    /* Two interfaces on the PCI function and no GID table: ambiguous. */
    make_dirs(root, "class/infiniband/mlx5_5/device/net/eth6");
    CHECK(!hw_rdma_ibdev_to_ifname(root, "mlx5_5", 1));

    CHECK(!nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS));
}

/* Port 'port' of mlx5_0 under 'root' is the netdev 'ifname', whose
 * phys_port_name is 'name' (none if NULL). */
static void
make_port(const char *root, int port, const char *ifname, const char *name)
{
    char *dir = xasprintf("class/infiniband/mlx5_0/ports/%d/gid_attrs/"
                          "ndevs", port);
    char *path = xasprintf("%s/0", dir);
    char *line = xasprintf("%s\n", ifname);

    make_dirs(root, dir);
    write_file(root, path, line);
    free(dir);
    free(path);
    free(line);

    dir = xasprintf("class/net/%s", ifname);
    make_dirs(root, dir);
    if (name) {
        path = xasprintf("%s/phys_port_name", dir);
        line = xasprintf("%s\n", name);
        write_file(root, path, line);
        free(path);
        free(line);
    }
    free(dir);
}

/* The representors of a PF in switchdev mode: the ports of its RDMA
 * device after the uplink, by their netdev's phys_port_name, asked for as
 * DPDK's representor= ("vf1") or by that name ("pf0vf1"); a PF in legacy
 * mode (one port, or no representor among its ports) has none. */
static void
test_representors(void)
{
    char root[] = "hw-backend-esw.XXXXXX";
    uint32_t port;

    CHECK(hw_rdma_ops.representor_port == hw_rdma_representor_port);
    CHECK(hw_rdma_ops.query_port == hw_rdma_query_port);
    CHECK(hw_rdma_ops.bind_qp_port == hw_rdma_bind_qp_port);

    CHECK(mkdtemp(root));
    make_port(root, 1, "enp1s0f0np0", "p0");

    /* Legacy mode: one port. */
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 1, "vf0", &port),
              EOPNOTSUPP);
    CHECK_EQ(port, 0);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 1, "bogus", &port),
              EOPNOTSUPP);

    /* Switchdev mode, VFs 0 to 2 (VF 1's port has no netdev name yet). */
    make_port(root, 2, "enp1s0f0npf0vf0", "pf0vf0");
    make_port(root, 3, "eth5", NULL);
    make_port(root, 4, "enp1s0f0npf0vf2", "pf0vf2");
    make_port(root, 5, "enp1s0f0npf0vf10", "pf0vf10");
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "vf0", &port), 0);
    CHECK_EQ(port, 2);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "pf0vf2", &port),
              0);
    CHECK_EQ(port, 4);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "vf10", &port),
              0);
    CHECK_EQ(port, 5);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "vf1", &port),
              ENODEV);
    CHECK_EQ(port, 0);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "pf1vf0", &port),
              ENODEV);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "vf01", &port),
              ENODEV);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "p0", &port),
              ENODEV);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 5, "vf", &port),
              ENODEV);
    CHECK_ERR(hw_rdma_find_representor(root, "..", 5, "vf0", &port),
              ENODEV);
    /* Only the ports the device has count. */
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 4, "vf10", &port),
              ENODEV);
    CHECK_ERR(hw_rdma_find_representor(root, "mlx5_0", 2, "vf0", &port), 0);
    CHECK_EQ(port, 2);

    CHECK(!nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS));
}
#endif /* HAVE_HW_RDMA */

/* Encoding equality across backends, through the recorders of
 * test-hw-recorder.h.
 *
 * The rules: what the translate and encode tests create. */

static void
in6(const char *s, struct in6_addr *addr)
{
    CHECK(inet_pton(AF_INET6, s, addr) == 1);
}

/* Appends to 'rules' the rule hw_translate_flow() makes of 'match', with
 * an output action if 'output' (tag and count) or none (counted drop). */
static void
add_translated(struct hw_rule **rules, size_t *n, const struct match *match,
               bool output)
{
    struct hw_translate_params params = {
        .flow_mark = TEST_MARK,
        .in_port = u32_to_odp(TEST_PORT),
    };
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct ofpbuf actions;
    struct hw_rule *rule;

    ofpbuf_init(&actions, 0);
    if (output) {
        nl_msg_put_u32(&actions, OVS_ACTION_ATTR_OUTPUT, 1);
    }
    *rules = xrealloc(*rules, (*n + 1) * sizeof **rules);
    rule = *rules + *n;
    if (hw_translate_flow(match, actions.data, actions.size, &params, rule,
                          &reason)) {
        ovs_abort(0, "translate refused a test flow: %s", ds_cstr(&reason));
    }
    (*n)++;
    ds_destroy(&reason);
    ofpbuf_uninit(&actions);
}

/* ETH, IPv4 1.1.2.92 -> 1.1.2.88, UDP to 4789, VXLAN VNI 123. */
static const uint8_t vxlan_header[] = {
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0x00, 0x01,
    0x08, 0x00,
    0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
    0x01, 0x01, 0x02, 0x5c, 0x01, 0x01, 0x02, 0x58,
    0xc0, 0x00, 0x12, 0xb5, 0x00, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7b, 0x00,
};

static size_t
build_rules(struct hw_rule **rulesp)
{
    struct eth_addr mac1 = ETH_ADDR_C(00, 11, 22, 33, 44, 55);
    struct eth_addr mac2 = ETH_ADDR_C(00, 66, 77, 88, 99, aa);
    struct eth_addr mcast = ETH_ADDR_C(01, 00, 00, 00, 00, 00);
    struct in6_addr a, m;
    struct hw_rule *rules = NULL, *r;
    struct match match;
    size_t n = 0;

    /* From datapath flows, through translate. */

    /* UDP to 10.0.0.1:53, output (tag + count) and drop. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IP));
    match_set_nw_dst(&match, htonl(0x0a000001));
    match_set_nw_proto(&match, IPPROTO_UDP);
    match_set_tp_dst(&match, htons(53));
    add_translated(&rules, &n, &match, true);
    add_translated(&rules, &n, &match, false);

    /* The same on VLAN 100. */
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci_masked(&match, htons(VLAN_CFI | 100),
                            htons(VLAN_CFI | VLAN_VID_MASK));
    add_translated(&rules, &n, &match, true);

    /* TCP with MACs, a source prefix, TOS and port masks. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IP));
    match_set_dl_dst(&match, mac1);
    match_set_dl_src_masked(&match, mac2, mcast);
    match_set_nw_src_masked(&match, htonl(0xc0a80100), htonl(0xffffff00));
    match_set_nw_tos_masked(&match, 0xb8, 0xfc);
    match_set_nw_proto(&match, IPPROTO_TCP);
    match_set_tp_src_masked(&match, htons(0x0400), htons(0xfc00));
    match_set_tp_dst(&match, htons(80));
    add_translated(&rules, &n, &match, true);

    /* IPv4 GRE: the protocol in the extended IPv4 spec. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IP));
    match_set_nw_proto(&match, IPPROTO_GRE);
    add_translated(&rules, &n, &match, true);

    /* IPv6 UDP with prefix, label and traffic class; IPv6 TCP. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IPV6));
    in6("2001:db8:1::", &a);
    in6("ffff:ffff:ffff:ffff::", &m);
    match_set_ipv6_src_masked(&match, &a, &m);
    in6("2001:db8:2::7", &a);
    match_set_ipv6_dst(&match, &a);
    match_set_ipv6_label(&match, htonl(0x12345));
    match_set_nw_tos_masked(&match, 0x03, 0x03);
    match_set_nw_proto(&match, IPPROTO_UDP);
    match_set_tp_src(&match, htons(4789));
    add_translated(&rules, &n, &match, true);
    dp_match_init_ip(&match, htons(ETH_TYPE_IPV6));
    match_set_nw_proto(&match, IPPROTO_TCP);
    add_translated(&rules, &n, &match, false);

    /* ARP to broadcast: Ethernet only. */
    dp_match_init(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_ARP));
    match_set_dl_dst(&match, eth_addr_broadcast);
    add_translated(&rules, &n, &match, true);

    /* PCP 5 VID 7, any IPv4. */
    dp_match_init_ip(&match, htons(ETH_TYPE_IP));
    match.flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    match_set_dl_tci(&match, htons((5 << VLAN_PCP_SHIFT) | VLAN_CFI | 7));
    add_translated(&rules, &n, &match, false);

    /* Nothing but the port. */
    dp_match_init(&match);
    add_translated(&rules, &n, &match, true);

    /* Rules built directly, as the encode tests build them. */
    rules = xrealloc(rules, (n + 6) * sizeof *rules);

    /* ETH + IPv4 prefix + UDP, tag and count. */
    r = &rules[n++];
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP;
    r->outer.eth.dst = mac1;
    r->outer.eth_mask.dst = eth_addr_exact;
    r->outer.ipv4.src = htonl(0x0a000000);
    r->outer.ipv4_mask.src = htonl(0xffffff00);
    r->outer.ipv4.dst = htonl(0x0a000001);
    r->outer.ipv4_mask.dst = OVS_BE32_MAX;
    r->outer.l4.dst = htons(53);
    r->outer.l4_mask.dst = OVS_BE16_MAX;
    r->has_tag = true;
    r->tag = 0xabcdef;
    r->count = true;

    /* IPv4 + TCP port masks, uncounted drop. */
    r = &rules[n++];
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    r->outer.ipv4.src = htonl(0xc0a80100);
    r->outer.ipv4_mask.src = htonl(0xffffff00);
    r->outer.l4.dst = htons(80);
    r->outer.l4_mask.dst = OVS_BE16_MAX;
    r->outer.l4.src = htons(0x0400);
    r->outer.l4_mask.src = htons(0xfc00);
    r->fate = HW_FATE_DROP;
    r->full = true;

    /* ETH + IPv6 + TCP, counted drop. */
    r = &rules[n++];
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_ETH | HW_HDR_IPV6 | HW_HDR_TCP;
    r->outer.eth.src = (struct eth_addr) ETH_ADDR_C(02, 00, 00, 00, 00, 01);
    r->outer.eth_mask.src = eth_addr_exact;
    in6("2001:db8::", &r->outer.ipv6.src);
    in6("ffff:ffff::", &r->outer.ipv6_mask.src);
    in6("2001:db8::7", &r->outer.ipv6.dst);
    r->outer.ipv6_mask.dst = in6addr_exact;
    r->outer.ipv6.label = htonl(0x12345);
    r->outer.ipv6_mask.label = htonl(0xfffff);
    r->outer.l4.src = htons(1000);
    r->outer.l4_mask.src = OVS_BE16_MAX;
    r->fate = HW_FATE_DROP;
    r->count = true;
    r->full = true;

    /* Values outside their masks (encode ANDs them), tagged. */
    r = &rules[n++];
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_TCP;
    r->outer.eth.src = eth_addr_broadcast;
    r->outer.eth.tci = htons(0xffff);
    r->outer.eth_mask.tci = htons(VLAN_VID_MASK);
    r->outer.ipv4.src = htonl(0x0a010203);
    r->outer.ipv4_mask.src = htonl(0xffffff00);
    r->outer.ipv4.tos = 0xff;
    r->outer.ipv4_mask.tos = 0x03;
    r->outer.l4.src = OVS_BE16_MAX;
    r->outer.l4_mask.src = htons(0xff00);
    r->has_tag = true;
    r->tag = 1;
    r->count = true;

    /* VXLAN decap: outer headers, VNI, inner headers, tag and count. */
    vxlan_decap_rule_init(&rules[n++]);

    /* Egress VXLAN encap of what software sends to 10.0.0.2, counted. */
    r = &rules[n++];
    memset(r, 0, sizeof *r);
    r->outer.present = HW_HDR_IPV4 | HW_HDR_TCP;
    r->outer.ipv4.dst = htonl(0x0a000002);
    r->outer.ipv4_mask.dst = OVS_BE32_MAX;
    r->egress = true;
    r->reformat = HW_REFORMAT_L2_ENCAP;
    r->reformat_len = sizeof vxlan_header;
    memcpy(r->reformat_data, vxlan_header, sizeof vxlan_header);
    r->count = true;
    r->full = true;

    *rulesp = rules;
    return n;
}

/* Installs, reads and uninstalls every rule of 'rules' on 'dev' through
 * recorder 'r', as the offload provider does. */
static void
run_rules(struct recorder *r, const struct netdev_hw_device *dev,
          const struct hw_rule *rules, size_t n)
{
    recorder_start(r);
    for (size_t i = 0; i < n; i++) {
        struct ds reason = DS_EMPTY_INITIALIZER;
        uint64_t packets, bytes;
        struct hw_flow flow;
        int error;

        ds_put_format(&r->log, "rule %"PRIuSIZE"\n", i);
        error = hw_flow_install(dev, r->dest, &rules[i], &flow, &reason);
        if (error) {
            ovs_abort(0, "%s: rule %"PRIuSIZE" not installed: %s\n%s",
                      r->name, i, ds_cstr(&reason), ds_cstr(&r->log));
        }
        error = hw_flow_read(dev, &flow, &packets, &bytes);
        ds_put_format(&r->log, "read -> %s\n",
                      error ? ovs_strerror(error) : "ok");
        hw_flow_uninstall(dev, &flow, NULL);
        ds_destroy(&reason);
    }
    recorder_stop();
    CHECK(!r->n_handles);
    CHECK(!r->n_fakes);
}

/* The two recorders compared: 'model' over the NIC model, forwarding, to
 * 'port''s RSS QP; 'other' over the rdma-core backend or, without
 * rdma-core, over 'null_ops', a copy of the model's table named "null",
 * neither forwarding, to 'other_qp'. */
static void
recorders_init(struct recorder *model, struct recorder *other,
               const struct model_port *port, struct ibv_qp *other_qp,
               struct hw_dev_ops *null_ops OVS_UNUSED)
{
    recorder_init(model, "model", &hw_model_ops, true);
    model->dest = port->rss_qp;
#ifdef HAVE_HW_RDMA
    recorder_init(other, "rdma", &hw_rdma_ops, false);
#else
    *null_ops = hw_model_ops;
    null_ops->name = "null";
    recorder_init(other, "null", null_ops, false);
#endif
    other->dest = other_qp;
}

static void
test_encoding_equality(void)
{
    static struct ibv_context other_ctx;
    struct ibv_qp other_qp = {
        .context = &other_ctx,
        .qp_type = IBV_QPT_RAW_PACKET,
    };
    struct netdev_hw_device model_dev, other_dev = { .pipeline = NULL };
    struct recorder model_rec, other_rec;
    /* The model device behind the model's recorder: a port's receive side
     * as netdev-hw builds it, whose RSS QP is the rules' destination. */
    struct model_port port;
    struct hw_dev_ops null_ops;
    struct hw_rule *rules;
    size_t n_rules, n_flows;
    const char *log;

    n_rules = build_rules(&rules);
    CHECK(n_rules >= 16);

    model_port_create(&port, "model31", 64,
                      IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4);
    recorders_init(&model_rec, &other_rec, &port, &other_qp, &null_ops);
    model_dev = (struct netdev_hw_device) {
        .ops = &model_rec.ops,
        .ctx = port.ctx,
        .caps = &port.caps,
        .devname = port.devname,
        .port_num = 1,
    };

#ifdef HAVE_HW_RDMA
    other_dev.devname = "mlx5_0";
#else
    other_dev.devname = "null0";
#endif
    other_dev.ops = &other_rec.ops;
    other_dev.ctx = &other_ctx;
    other_dev.caps = &port.caps;
    other_dev.port_num = 1;
    CHECK(strcmp(other_dev.ops->name, model_dev.ops->name));

    run_rules(&model_rec, &model_dev, rules, n_rules);
    run_rules(&other_rec, &other_dev, rules, n_rules);
    recorder_check_equal(&model_rec, &other_rec);

    /* The log holds what it should: every rule was created with its
     * bytes, the counted ones attached PACKETS at 0 and BYTES at 1, and
     * the tunnel rules created their reformat actions. */
    log = ds_cstr_ro(&model_rec.log);
    n_flows = 0;
    for (const char *p = log; (p = strstr(p, "create_flow\n")); p++) {
        n_flows++;
    }
    CHECK(n_flows == n_rules);
    CHECK(strstr(log, "attach_counters c1 desc=0 index=0 comp_mask=0\n"));
    CHECK(strstr(log, "attach_counters c1 desc=1 index=1 comp_mask=0\n"));
    /* The decap (NIC_RX, no data) and the encap (NIC_TX, the header). */
    CHECK(strstr(log, "create_reformat type=0 ft_type=0\n -> a1\n"));
    CHECK(strstr(log, "create_reformat type=1 ft_type=1\n00000000  00 11"));

    ds_destroy(&model_rec.log);
    ds_destroy(&other_rec.log);
    free(rules);
    model_port_destroy(&port);
}

/* Self-test of the comparison: a rule encoded differently for one backend
 * is caught.  Both recorders forward nothing here; the second device uses
 * another port number, as a backend-specific decision above the ops would
 * make it. */
static void
test_equality_detects_difference(void)
{
    static struct ibv_context ctx;
    struct ibv_qp qp = { .context = &ctx, .qp_type = IBV_QPT_RAW_PACKET };
    struct hw_dev_caps caps = { .max_flow_priority = 15 };
    struct netdev_hw_device dev_a, dev_b;
    struct recorder rec_a, rec_b;
    struct hw_rule *rules;
    size_t n_rules;

    n_rules = build_rules(&rules);
    CHECK(n_rules > 0);
    recorder_init(&rec_a, "a", &hw_model_ops, false);
    recorder_init(&rec_b, "b", &hw_model_ops, false);
    rec_a.dest = rec_b.dest = &qp;
    dev_a = (struct netdev_hw_device) {
        .ops = &rec_a.ops, .ctx = &ctx, .caps = &caps, .devname = "a",
        .port_num = 1,
    };
    dev_b = dev_a;
    dev_b.ops = &rec_b.ops;
    dev_b.port_num = 2;

    run_rules(&rec_a, &dev_a, rules, 1);
    run_rules(&rec_b, &dev_b, rules, 1);
    CHECK(strcmp(ds_cstr(&rec_a.log), ds_cstr(&rec_b.log)));

    /* With the same port they agree again. */
    ds_clear(&rec_b.log);
    dev_b.port_num = 1;
    memset(rec_b.next_ordinal, 0, sizeof rec_b.next_ordinal);
    run_rules(&rec_b, &dev_b, rules, 1);
    recorder_check_equal(&rec_a, &rec_b);

    ds_destroy(&rec_a.log);
    ds_destroy(&rec_b.log);
    free(rules);
}

/* The pipeline of tables. */

struct dr_objects {
    struct mlx5dv_dr_domain *domain;
    struct mlx5dv_dr_table *table;
    struct mlx5dv_dr_matcher *matcher;
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_dr_action *tag, *count, *qp, *decap, *modify;
    struct mlx5dv_dr_rule *rules[2];
};

static struct mlx5dv_dr_action *
dr_action(const struct hw_dev_ops *ops, struct mlx5dv_dr_domain *domain,
          const struct hw_dr_action_attr *attr)
{
    struct mlx5dv_dr_action *action;

    CHECK_ERR(ops->dr_action_create(domain, attr, &action), 0);
    return action;
}

/* What a plan makes of the VXLAN decap flow of the verbs tests, on NIC RX:
 * a level-1 table, a matcher of its mask, then two rules under it: VNI 123
 * tagged, counted and to 'qp'; VNI 124 decapsulated, rewritten (TTL
 * decrement, destination MAC), tagged, counted and to 'qp', sharing the
 * tag, counter and QP actions.  Then the counter is read and everything is
 * destroyed in reverse order.  Every call goes through recorder 'r'. */
static void
run_dr_sequence(struct recorder *r, struct ibv_context *ctx,
                struct ibv_qp *qp)
{
    const struct hw_dev_ops *ops = &r->ops;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct hw_dr_match mask, value;
    struct mlx5dv_dr_action *actions[5];
    struct hw_dr_action_attr attr;
    uint64_t packets, bytes;
    struct ofpbuf cmds;
    struct dr_objects o;
    struct hw_rule rule;

    recorder_start(r);
    vxlan_decap_rule_init(&rule);
    rule.inner.ext.ttl = 2;             /* Routed: TTL > 1 only. */
    rule.inner.ext_mask.ttl = 0xfe;
    CHECK_ERR(hw_encode_dr_match(&rule, false, &mask, &value, &reason), 0);

    CHECK_ERR(ops->dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_RX,
                                    &o.domain), 0);
    CHECK_ERR(ops->dr_table_create(o.domain, 1, &o.table), 0);
    CHECK_ERR(ops->dr_matcher_create(o.table, 2, mask.criteria,
                                     hw_dr_match_params(&mask), &o.matcher),
              0);
    CHECK_ERR(ops->dr_counter_create(ctx, &o.counter), 0);

    attr = (struct hw_dr_action_attr) { .type = HW_DR_ACTION_TAG,
                                        .tag = TEST_MARK };
    o.tag = dr_action(ops, o.domain, &attr);
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_COUNTER,
        .counter = { .obj = o.counter, .offset = 0 },
    };
    o.count = dr_action(ops, o.domain, &attr);
    attr = (struct hw_dr_action_attr) { .type = HW_DR_ACTION_DEST_QP,
                                        .qp = qp };
    o.qp = dr_action(ops, o.domain, &attr);
    actions[0] = o.tag;
    actions[1] = o.count;
    actions[2] = o.qp;
    CHECK_ERR(ops->dr_rule_create(o.matcher, hw_dr_match_params(&value), 3,
                                  actions, &o.rules[0]), 0);

    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_REFORMAT,
        .reformat = {
            .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2,
        },
    };
    o.decap = dr_action(ops, o.domain, &attr);
    ofpbuf_init(&cmds, 0);
    hw_dr_modify_add_ttl(&cmds, false, -1);
    hw_dr_modify_set_mac(&cmds, false,
                         (struct eth_addr) ETH_ADDR_C(02, 00, 5e, 00, 53, 01));
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_MODIFY_HEADER,
        .modify = { .size = cmds.size, .commands = cmds.data },
    };
    o.modify = dr_action(ops, o.domain, &attr);
    rule.tnl.vni = htonl(124);
    CHECK_ERR(hw_encode_dr_match(&rule, false, &mask, &value, &reason), 0);
    actions[0] = o.decap;
    actions[1] = o.modify;
    actions[2] = o.tag;
    actions[3] = o.count;
    actions[4] = o.qp;
    CHECK_ERR(ops->dr_rule_create(o.matcher, hw_dr_match_params(&value), 5,
                                  actions, &o.rules[1]), 0);
    CHECK_ERR(ops->dr_domain_sync(o.domain,
                                  MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
                                  | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW), 0);
    CHECK_ERR(ops->dr_counter_query(o.counter, &packets, &bytes), 0);
    CHECK_EQ(packets, 0);
    CHECK_EQ(bytes, 0);

    CHECK_ERR(ops->dr_rule_destroy(o.rules[1]), 0);
    CHECK_ERR(ops->dr_rule_destroy(o.rules[0]), 0);
    CHECK_ERR(ops->dr_action_destroy(o.modify), 0);
    CHECK_ERR(ops->dr_action_destroy(o.decap), 0);
    CHECK_ERR(ops->dr_action_destroy(o.qp), 0);
    CHECK_ERR(ops->dr_action_destroy(o.count), 0);
    CHECK_ERR(ops->dr_action_destroy(o.tag), 0);
    CHECK_ERR(ops->dr_counter_destroy(o.counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(o.matcher), 0);
    CHECK_ERR(ops->dr_table_destroy(o.table), 0);
    CHECK_ERR(ops->dr_domain_destroy(o.domain), 0);
    recorder_stop();

    CHECK(!r->n_handles);
    CHECK(!r->n_fakes);
    ofpbuf_uninit(&cmds);
    ds_destroy(&reason);
}

/* Runs 'seq' through a recorder over the model device 'devname' and
 * through one over the other backend, checks that both recorded the same
 * calls and bytes, and moves the model's log into 'log'. */
static void
dr_equality_run(const char *devname,
                void (*seq)(struct recorder *, struct ibv_context *,
                            struct ibv_qp *),
                struct ds *log)
{
    static struct ibv_context other_ctx;
    struct ibv_qp other_qp = {
        .context = &other_ctx,
        .qp_type = IBV_QPT_RAW_PACKET,
    };
    struct recorder model_rec, other_rec;
    struct hw_dev_ops null_ops;
    struct model_port port;

    model_port_create(&port, devname, 64,
                      IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4);
    recorders_init(&model_rec, &other_rec, &port, &other_qp, &null_ops);

    seq(&model_rec, port.ctx, port.rss_qp);
    seq(&other_rec, &other_ctx, &other_qp);
    recorder_check_equal(&model_rec, &other_rec);

    *log = model_rec.log;
    ds_destroy(&other_rec.log);
    model_port_destroy(&port);
}

static void
test_dr_equality(void)
{
    struct ds model_log;
    const char *log;

    dr_equality_run("model32", run_dr_sequence, &model_log);

    /* The log holds the calls with their arguments: the matcher's mask
     * with the VNI and the inner TTL, the two rules' values (VNI 123 and
     * 124) and action lists, the decap and the rewrite. */
    log = ds_cstr_ro(&model_log);
    CHECK(strstr(log, "dr_domain_create type=0 -> d1\n"
                 "dr_table_create d1 level=1 -> t1\n"
                 "dr_matcher_create t1 priority=2 criteria=0x7 size=192\n"));
    CHECK(strstr(log, "  outer(ip_protocol,ip_version,udp_dport,src_ipv4,"
                 "dst_ipv4) misc(vxlan_vni) inner(dmac,ip_protocol,"
                 "ip_version,tcp_dport,ttl_hoplimit/0xfe,dst_ipv4) -> m1\n"
                 "dr_counter_create -> o1\n"
                 "dr_action_create d1 tag tag=0x5 -> da1\n"
                 "dr_action_create d1 counter o1 offset=0 -> da2\n"
                 "dr_action_create d1 dest_qp -> da3\n"
                 "dr_rule_create m1 size=192\n"));
    CHECK(strstr(log, "  outer(ip_protocol=17,ip_version=4,udp_dport=4789,"
                 "src_ipv4=1.1.2.88,dst_ipv4=1.1.2.92) misc(vxlan_vni=123) "
                 "inner(dmac=aa:55:aa:55:00:01,ip_protocol=6,ip_version=4,"
                 "tcp_dport=80,ttl_hoplimit=0x2/0xfe,dst_ipv4=10.0.0.2)\n"
                 "  actions da1 da2 da3 -> r1\n"
                 "dr_action_create d1 reformat type=0 size=0 -> da4\n"
                 "dr_action_create d1 modify_header size=24\n"
                 "00000000  20 0a 00 00 00 00 00 ff-10 04 00 00 02 00 5e 00\n"
                 "00000010  10 05 00 10 00 00 53 01-\n"
                 "  add ipv4_ttl -1, set eth_dst=02:00:5e:00:53:01 -> da5\n"
                 "dr_rule_create m1 size=192\n"));
    CHECK(strstr(log, " misc(vxlan_vni=124) "));
    CHECK(strstr(log, "\n  actions da4 da5 da1 da2 da3 -> r2\n"
                 "dr_domain_sync d1 flags=0x3\n"
                 "dr_counter_query o1\n"
                 "rule_destroy r2\nrule_destroy r1\n"
                 "action_destroy da5\naction_destroy da4\n"
                 "action_destroy da3\naction_destroy da2\n"
                 "action_destroy da1\ncounter_destroy o1\n"
                 "matcher_destroy m1\ntable_destroy t1\n"
                 "domain_destroy d1\n"));

    ds_destroy(&model_log);
}

/* The e-switch's FDB: a VF's flow (its vport's reg_c0 metadata, in
 * misc2) that pushes a VXLAN header and goes to the uplink's vport, and
 * the uplink's decap action. */
static void
run_fdb_sequence(struct recorder *r, struct ibv_context *ctx,
                 struct ibv_qp *qp OVS_UNUSED)
{
    static const uint8_t vxlan[50] = {
        0xf8, 0xbc, 0x12, 0x44, 0x34, 0xb6, 0xaa, 0x55, 0xaa, 0x55, 0x00,
        0x00, 0x08, 0x00, 0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00,
        0x40, 0x11, 0x00, 0x00, 0x01, 0x01, 0x02, 0x58, 0x01, 0x01, 0x02,
        0x5c, 0x9c, 0x40, 0x12, 0xb5, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x7b, 0x00,
    };
    const struct hw_dev_ops *ops = &r->ops;
    struct ds reason = DS_EMPTY_INITIALIZER;
    struct mlx5dv_dr_action *actions[3], *encap, *decap, *count, *vport;
    struct hw_dr_match mask, value;
    struct hw_dr_action_attr attr;
    struct dr_objects o;
    struct hw_rule rule;

    recorder_start(r);
    memset(&rule, 0, sizeof rule);
    rule.outer.present = HW_HDR_ETH | HW_HDR_IPV4 | HW_HDR_UDP;
    rule.outer.l4.dst = htons(7);
    rule.outer.l4_mask.dst = OVS_BE16_MAX;
    rule.outer.vlan1 = HW_VLAN_NONE;
    rule.fdb = true;
    rule.reg_c[0] = 0x00020000;
    rule.reg_c_mask[0] = 0xffff0000;
    CHECK_ERR(hw_encode_dr_match(&rule, false, &mask, &value, &reason), 0);

    CHECK_ERR(ops->dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_FDB,
                                    &o.domain), 0);
    CHECK_ERR(ops->dr_table_create(o.domain, 1, &o.table), 0);
    CHECK_ERR(ops->dr_matcher_create(o.table, 9, mask.criteria,
                                     hw_dr_match_params(&mask), &o.matcher),
              0);
    CHECK_ERR(ops->dr_counter_create(ctx, &o.counter), 0);
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_REFORMAT,
        .reformat = {
            .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
            .size = sizeof vxlan,
            .data = vxlan,
        },
    };
    encap = dr_action(ops, o.domain, &attr);
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_REFORMAT,
        .reformat = {
            .type = MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2,
        },
    };
    decap = dr_action(ops, o.domain, &attr);
    attr = (struct hw_dr_action_attr) {
        .type = HW_DR_ACTION_COUNTER,
        .counter = { .obj = o.counter, .offset = 0 },
    };
    count = dr_action(ops, o.domain, &attr);
    attr = (struct hw_dr_action_attr) { .type = HW_DR_ACTION_DEST_VPORT,
                                        .vport = 0xffff };
    vport = dr_action(ops, o.domain, &attr);
    actions[0] = encap;
    actions[1] = count;
    actions[2] = vport;
    CHECK_ERR(ops->dr_rule_create(o.matcher, hw_dr_match_params(&value), 3,
                                  actions, &o.rules[0]), 0);

    CHECK_ERR(ops->dr_rule_destroy(o.rules[0]), 0);
    CHECK_ERR(ops->dr_action_destroy(vport), 0);
    CHECK_ERR(ops->dr_action_destroy(count), 0);
    CHECK_ERR(ops->dr_action_destroy(decap), 0);
    CHECK_ERR(ops->dr_action_destroy(encap), 0);
    CHECK_ERR(ops->dr_counter_destroy(o.counter), 0);
    CHECK_ERR(ops->dr_matcher_destroy(o.matcher), 0);
    CHECK_ERR(ops->dr_table_destroy(o.table), 0);
    CHECK_ERR(ops->dr_domain_destroy(o.domain), 0);
    recorder_stop();

    CHECK(!r->n_handles);
    CHECK(!r->n_fakes);
    ds_destroy(&reason);
}

static void
test_fdb_equality(void)
{
    struct ds model_log;
    const char *log;

    dr_equality_run("model33", run_fdb_sequence, &model_log);

    /* The source vport's metadata is reg_c0 of misc2, in the mask and in
     * the value; the encap header goes as it is. */
    log = ds_cstr_ro(&model_log);
    CHECK(strstr(log, "dr_domain_create type=2 -> d1\n"
                 "dr_table_create d1 level=1 -> t1\n"
                 "dr_matcher_create t1 priority=9 criteria=0x9 size=256\n"));
    CHECK(strstr(log, "000000e0  00 00 00 00 00 00 00 00-"
                 "00 00 00 00 ff ff 00 00\n"));
    CHECK(strstr(log, "  outer(ip_protocol,cvlan_tag,svlan_tag,ip_version,"
                 "udp_dport) misc2(reg_c0/0xffff0000) -> m1\n"));
    CHECK(strstr(log, "dr_action_create d1 reformat type=1 size=50\n"
                 "00000000  f8 bc 12 44 34 b6 aa 55-aa 55 00 00 08 00 45 00\n"
                 "00000010  00 00 00 00 40 00 40 11-00 00 01 01 02 58 01 01\n"
                 "00000020  02 5c 9c 40 12 b5 00 00-00 00 08 00 00 00 00 00\n"
                 "00000030  7b 00\n -> da1\n"
                 "dr_action_create d1 reformat type=0 size=0 -> da2\n"
                 "dr_action_create d1 counter o1 offset=0 -> da3\n"
                 "dr_action_create d1 dest_vport vport=65535 -> da4\n"
                 "dr_rule_create m1 size=256\n"));
    CHECK(strstr(log, "000000e0  00 00 00 00 00 00 00 00-"
                 "00 00 00 00 00 02 00 00\n"));
    CHECK(strstr(log, "  outer(ip_protocol=17,cvlan_tag=0,svlan_tag=0,"
                 "ip_version=4,udp_dport=7) "
                 "misc2(reg_c0=0x00020000/0xffff0000)\n"
                 "  actions da1 da3 da4 -> r1\n"));

    ds_destroy(&model_log);
}

/* CAP_SYS_RAWIO.  A device with the pipeline loses it without the
 * capability, whatever its backend; the rest of its capabilities stay. */
static void
test_dr_privileges(void)
{
    const struct hw_dev_caps with_dr = {
        .flow_steering = true,
        .max_flow_priority = 15,
        .dr_domains = 7,
        .dr_max_level = 64,
        .dr_actions = { 0x3ff, 0x2ff, 0x1ff },
        .dr_match_criteria = 0x1f,
        .dr_max_modify = 32,
        .dr_max_rules = 1000,
    };
    const struct hw_dev_caps without_dr = {
        .flow_steering = true,
        .max_flow_priority = 15,
    };
    struct vlog_module *module = vlog_module_from_name("hw_privileges");
    struct hw_dev_caps caps;
#ifdef HAVE_HW_RDMA
    const char *log_name = "test-hw-backend-dr.log";
#endif

    CHECK(module);
    CHECK_STR(hw_cap_name(HW_CAP_SYS_RAWIO), "CAP_SYS_RAWIO");

    hw_privileges_force(HW_CAP_SYS_RAWIO, HW_CAP_FORCE_PRESENT);
    caps = with_dr;
    CHECK(!hw_privileges_check_dr("p1", &hw_model_ops, &caps));
    CHECK(!memcmp(&caps, &with_dr, sizeof caps));

    hw_privileges_force(HW_CAP_SYS_RAWIO, HW_CAP_FORCE_MISSING);
    vlog_set_levels(module, VLF_CONSOLE, VLL_OFF);
#ifdef HAVE_HW_RDMA
    /* The warning names the port and the capability. */
    vlog_set_levels(vlog_module_from_name("vlog"), VLF_CONSOLE, VLL_WARN);
    unlink(log_name);
    CHECK_ERR(vlog_set_log_file(log_name), 0);
    vlog_set_levels(module, VLF_FILE, VLL_DBG);
#endif
    CHECK(hw_privileges_check_dr("p1", &hw_model_ops, &caps));
    CHECK(!memcmp(&caps, &without_dr, sizeof caps));
    /* Nothing to take from a device without the pipeline. */
    CHECK(!hw_privileges_check_dr("p1", &hw_model_ops, &caps));
    CHECK(!memcmp(&caps, &without_dr, sizeof caps));
    vlog_set_levels(module, VLF_ANY_DESTINATION, VLL_INFO);

#ifdef HAVE_HW_RDMA
    {
        struct svec why = SVEC_EMPTY_INITIALIZER;
        char *log = read_file(log_name);

        CHECK(strstr(log, "|WARN|p1: ovs-vswitchd lacks CAP_SYS_RAWIO "
                     "(forced by netdev-hw/privileges), needed for software "
                     "steering (mlx5dv_dr); the device has no pipeline of "
                     "tables, its flows use the verbs root table\n"));
        CHECK(!strstr(strstr(log, "|WARN|p1:") + 1, "|WARN|"));
        free(log);
        vlog_close_log_file();
        unlink(log_name);
        vlog_set_levels(vlog_module_from_name("vlog"), VLF_CONSOLE,
                        VLL_INFO);

        /* The rdma-core backend does not even ask the device, and says
         * why. */

        caps = with_dr;
        hw_dr_probe(NULL, &caps, &why);
        CHECK(!memcmp(&caps, &without_dr, sizeof caps));
        CHECK_EQ(why.n, 1);
        CHECK_STR(why.names[0], "ovs-vswitchd lacks CAP_SYS_RAWIO (forced "
                  "by netdev-hw/privileges), needed for software steering "
                  "(mlx5dv_dr): no pipeline of tables, flows use the verbs "
                  "root table");
        svec_destroy(&why);
    }
#endif
    hw_privileges_force(HW_CAP_SYS_RAWIO, HW_CAP_REAL);
}

#ifdef HAVE_HW_RDMA
/* The rdma-core backend has every dr operation, and those that can fail
 * without a device fail cleanly. */
static void
test_dr_ops(void)
{
    struct hw_dr_action_attr attr = { .type = HW_DR_N_ACTIONS };
    struct mlx5dv_dr_action *action = (struct mlx5dv_dr_action *) &attr;
    struct mlx5dv_devx_obj *unknown = (struct mlx5dv_devx_obj *) &attr;
    struct vlog_module *module = vlog_module_from_name("hw_rdma");
    struct ibv_context *ctx;
    uint64_t packets, bytes;

    CHECK(hw_rdma_ops.dr_domain_create == hw_dr_domain_create);
    CHECK(hw_rdma_ops.dr_domain_sync == hw_dr_domain_sync);
    CHECK(hw_rdma_ops.dr_domain_destroy == hw_dr_domain_destroy);
    CHECK(hw_rdma_ops.dr_table_create == hw_dr_table_create);
    CHECK(hw_rdma_ops.dr_table_destroy == hw_dr_table_destroy);
    CHECK(hw_rdma_ops.dr_matcher_create == hw_dr_matcher_create);
    CHECK(hw_rdma_ops.dr_matcher_destroy == hw_dr_matcher_destroy);
    CHECK(hw_rdma_ops.dr_rule_create == hw_dr_rule_create);
    CHECK(hw_rdma_ops.dr_rule_destroy == hw_dr_rule_destroy);
    CHECK(hw_rdma_ops.dr_action_create == hw_dr_action_create);
    CHECK(hw_rdma_ops.dr_action_destroy == hw_dr_action_destroy);
    CHECK(hw_rdma_ops.dr_counter_create == hw_dr_counter_create);
    CHECK(hw_rdma_ops.dr_counter_query == hw_dr_counter_query);
    CHECK(hw_rdma_ops.dr_counter_destroy == hw_dr_counter_destroy);
    CHECK(hw_rdma_ops.dr_geneve_opt_create == hw_dr_geneve_opt_create);
    CHECK(hw_rdma_ops.dr_geneve_opt_destroy == hw_dr_geneve_opt_destroy);

    /* No device here: opening one fails with ENODEV. */
    vlog_set_levels(module, VLF_ANY_DESTINATION, VLL_OFF);
    CHECK_ERR(hw_rdma_ops.open("mlx5_nonexistent", &ctx), ENODEV);
    CHECK(!ctx);
    vlog_set_levels(module, VLF_ANY_DESTINATION, VLL_INFO);

    /* An action type that does not exist, a counter it never made. */
    CHECK_ERR(hw_rdma_ops.dr_action_create(NULL, &attr, &action), EINVAL);
    CHECK(!action);
    CHECK_ERR(hw_rdma_ops.dr_counter_query(unknown, &packets, &bytes),
              EINVAL);
}
#endif

/* Test runner. */

#define TEST(NAME) { #NAME, test_##NAME }
/* The sub-tests of the rdma-core backend are listed in every build, and
 * skipped in one without it (test-hw-check.h). */
#ifdef HAVE_HW_RDMA
#define RDMA_TEST(NAME) TEST(NAME)
#else
#define RDMA_TEST(NAME) { #NAME, NULL }
#endif
static const struct test_hw_case tests[] = {
    TEST(select),
    RDMA_TEST(open_nonexistent),
    RDMA_TEST(discovery),
    RDMA_TEST(representors),
    TEST(encoding_equality),
    TEST(equality_detects_difference),
    TEST(dr_equality),
    TEST(fdb_equality),
    TEST(dr_privileges),
    RDMA_TEST(dr_ops),
};

static void
run_hw_backend_tests(int argc, char *argv[])
{
    test_hw_run(argc, argv, tests, ARRAY_SIZE(tests));
}

OVSTEST_REGISTER("test-hw-backend", run_hw_backend_tests);
