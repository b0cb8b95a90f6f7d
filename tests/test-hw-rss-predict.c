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

/* Predicts the receive queue a hw port's RSS puts a packet on, for the
 * autotests (hw-offload.at), independently of the NIC model's code path:
 * the hash input is built here from the tuple as the Microsoft RSS
 * specification defines it, hashed with hw_toeplitz_hash() (checked against
 * the specification's vectors by test-hw-toeplitz), and looked up in the
 * indirection table that netdev-hw documents: 2^ceil(log2(n_rxq)) entries,
 * entry i holding queue i % n_rxq, indexed by the hash's low bits.
 *
 * Usage: ovstest test-hw-rss-predict [--key=HEX] N_RXQ < TUPLES
 *
 * Each input line is "PROTO SRC DST [SPORT DPORT]": PROTO is "tcp" or "udp"
 * (hashed on addresses and ports) or "ip" (addresses only, as for ICMP);
 * the addresses are both IPv4 or both IPv6.  Each line is printed back with
 * " queue=N" appended. */

#include <config.h>
#undef NDEBUG
#include "hw-toeplitz.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "openvswitch/dynamic-string.h"
#include "ovstest.h"
#include "util.h"

/* Appends the address 's' to 'input' at '*len', in network byte order, and
 * returns its family, AF_INET or AF_INET6. */
static int
put_addr(const char *s, uint8_t input[36], size_t *len)
{
    if (inet_pton(AF_INET, s, input + *len) == 1) {
        *len += 4;
        return AF_INET;
    }
    if (inet_pton(AF_INET6, s, input + *len) == 1) {
        *len += 16;
        return AF_INET6;
    }
    ovs_fatal(0, "%s: not an IPv4 or IPv6 address", s);
}

static void
put_port(const char *s, uint8_t input[36], size_t *len)
{
    int port;

    if (!str_to_int(s, 10, &port) || port < 0 || port > 65535) {
        ovs_fatal(0, "%s: not a port number", s);
    }
    input[(*len)++] = port >> 8;
    input[(*len)++] = port & 0xff;
}

/* Returns the queue the tuple 'line' lands on. */
static int
predict(const char *line, const uint8_t key[HW_TOEPLITZ_KEY_LEN], int n_rxq)
{
    char *copy = xstrdup(line);
    char *save_ptr = NULL;
    char *proto, *src, *dst, *sport, *dport;
    uint8_t input[36];
    size_t len = 0;
    int family;
    uint32_t hash, n_entries, entry;

    proto = strtok_r(copy, " ", &save_ptr);
    src = strtok_r(NULL, " ", &save_ptr);
    dst = strtok_r(NULL, " ", &save_ptr);
    sport = strtok_r(NULL, " ", &save_ptr);
    dport = strtok_r(NULL, " ", &save_ptr);
    if (!proto || !src || !dst) {
        ovs_fatal(0, "\"%s\": expected PROTO SRC DST [SPORT DPORT]", line);
    }

    /* Two statements: the source address goes first. */
    family = put_addr(src, input, &len);
    if (put_addr(dst, input, &len) != family) {
        ovs_fatal(0, "\"%s\": address families differ", line);
    }
    if (!strcmp(proto, "tcp") || !strcmp(proto, "udp")) {
        if (!sport || !dport) {
            ovs_fatal(0, "\"%s\": %s needs ports", line, proto);
        }
        put_port(sport, input, &len);
        put_port(dport, input, &len);
    } else if (strcmp(proto, "ip") || sport) {
        ovs_fatal(0, "\"%s\": PROTO must be tcp, udp or ip (no ports)",
                  line);
    }
    free(copy);

    hash = hw_toeplitz_hash(key, HW_TOEPLITZ_KEY_LEN, input, len);
    n_entries = 1u << log_2_ceil(n_rxq);
    entry = hash & (n_entries - 1);
    return entry % n_rxq;
}

static void
test_hw_rss_predict_main(int argc, char *argv[])
{
    uint8_t key[HW_TOEPLITZ_KEY_LEN];
    struct ds line = DS_EMPTY_INITIALIZER;
    int n_rxq;

    set_program_name(argv[0]);
    memcpy(key, hw_toeplitz_default_key, sizeof key);
    if (argc > 1 && !strncmp(argv[1], "--key=", 6)) {
        const char *hex = argv[1] + 6;

        if (strlen(hex) != 2 * HW_TOEPLITZ_KEY_LEN) {
            ovs_fatal(0, "--key needs %d hex digits", 2 * HW_TOEPLITZ_KEY_LEN);
        }
        for (size_t i = 0; i < HW_TOEPLITZ_KEY_LEN; i++) {
            bool ok;

            key[i] = hexits_value(&hex[2 * i], 2, &ok);
            if (!ok) {
                ovs_fatal(0, "--key=%s: not hexadecimal", hex);
            }
        }
        argc--;
        argv++;
    }
    if (argc != 2 || !str_to_int(argv[1], 10, &n_rxq) || n_rxq < 1
        || n_rxq > 1024) {
        ovs_fatal(0, "usage: test-hw-rss-predict [--key=HEX] N_RXQ "
                  "< TUPLES");
    }

    while (!ds_get_line(&line, stdin)) {
        if (line.length) {
            printf("%s queue=%d\n", ds_cstr(&line),
                   predict(ds_cstr(&line), key, n_rxq));
        }
    }
    ds_destroy(&line);
}

OVSTEST_REGISTER("test-hw-rss-predict", test_hw_rss_predict_main);
