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

/* The device's wire: where a frame leaves (the tx counters, the pcap
 * capture, the far end that tests or AF_PACKET attach), the drop counters
 * that both directions share, and the read-out of the wire counters.
 * Below the receive and transmit paths, which both send to the wire. */

#include <config.h>
#include "hw-model-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "dp-packet.h"
#include "openvswitch/vlog.h"
#include "pcap-file.h"

COVERAGE_DEFINE(hw_model_drop);
COVERAGE_DEFINE(hw_model_tx);

struct vlog_rate_limit model_dp_rl = VLOG_RATE_LIMIT_INIT(5, 20);

void
model_count_drop(uint64_t *counter)
{
    (*counter)++;
    COVERAGE_INC(hw_model_drop);
}

/* 'packet' leaves on the wire of 'dev'. */
void
model_wire_out(struct model_dev *dev, struct dp_packet *packet)
    OVS_REQUIRES(dev->mutex)
{
    COVERAGE_INC(hw_model_tx);
    dev->stats.tx_packets++;
    dev->stats.tx_bytes += dp_packet_size(packet);
    if (dev->pcap) {
        ovs_pcap_write(dev->pcap, packet);
    }
    if (dev->wire_tx) {
        dev->wire_tx(dev->wire_tx_aux, packet);
    }
}

int
hw_model_set_pcap(const char *devname, const char *file_name)
{
    struct pcap_file *pcap = NULL;
    struct model_dev *dev;
    int vf;

    dev = model_end_lookup(devname, &vf);
    if (!dev) {
        return ENODEV;
    }
    if (file_name && file_name[0] && strcmp(file_name, "none")) {
        pcap = ovs_pcap_open(file_name, "wb");
        if (!pcap) {
            return errno ? errno : EIO;
        }
    }

    ovs_mutex_lock(&dev->mutex);
    if (vf >= 0) {
        model_end_set_pcap(dev, vf, pcap, file_name);
        ovs_mutex_unlock(&dev->mutex);
        return 0;
    }
    if (dev->pcap) {
        ovs_pcap_close(dev->pcap);
    }
    free(dev->pcap_name);
    dev->pcap = pcap;
    dev->pcap_name = pcap ? xstrdup(file_name) : NULL;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}

int
hw_model_set_wire_tx(const char *devname, hw_model_wire_tx_func *func,
                     void *aux)
{
    struct model_dev *dev;
    int error = 0;
    int vf;

    dev = model_end_lookup(devname, &vf);
    if (!dev) {
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    if (vf >= 0) {
        error = model_end_set_tx(dev, vf, func, aux);
    } else if (func && dev->wire_tx
        && (dev->wire_tx != func || dev->wire_tx_aux != aux)) {
        error = EBUSY;
    } else {
        dev->wire_tx = func;
        dev->wire_tx_aux = func ? aux : NULL;
    }
    ovs_mutex_unlock(&dev->mutex);
    return error;
}

int
hw_model_get_stats(const char *devname, struct hw_model_stats *stats)
{
    struct model_dev *dev = model_dev_lookup(devname, false);

    if (!dev) {
        memset(stats, 0, sizeof *stats);
        return ENODEV;
    }
    ovs_mutex_lock(&dev->mutex);
    *stats = dev->stats;
    ovs_mutex_unlock(&dev->mutex);
    return 0;
}
