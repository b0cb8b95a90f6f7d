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

/* Tunnel push by per-QP encapsulation (hw-tx-push-provider.h): each push
 * is an hbl send queue whose encapsulation adds the header, and the send
 * path diverts the packets prepared for it there (hw-hbl.h). */

#include <config.h>
#include "hw-tx-push-provider.h"

#include "hw-hbl.h"
#include "hw-rule.h"
#include "util.h"

static bool
qp_encap_usable(const struct netdev_hw_device *dev)
{
    return hw_hbl_device_encaps(dev);
}

/* The queue has no use for 'qp', the port's: it sends on a QP of its own,
 * which holds the encapsulation. */
static int
qp_encap_create(const struct netdev_hw_device *dev,
                struct ibv_qp *qp OVS_UNUSED, const struct hw_rule *rule,
                void **objp, struct ds *reason)
{
    struct hw_hbl_txq *txq;
    int error;

    error = hw_hbl_txq_create(dev, rule->reformat_data, rule->reformat_len,
                              &txq, reason);
    *objp = txq;
    return error;
}

static void
qp_encap_destroy(void *txq)
{
    hw_hbl_txq_destroy(txq);
}

/* The queue's encap adds what follows the outer IPv4 header. */
static bool
qp_encap_prepare(const void *txq, struct dp_packet *packet,
                 const void *header, size_t header_len)
{
    return hw_hbl_push_prepare(txq, packet, header, header_len);
}

const struct hw_tx_push_class hw_tx_push_qp_encap_class = {
    .name = "per-QP encapsulation",
    .usable = qp_encap_usable,
    .create = qp_encap_create,
    .destroy = qp_encap_destroy,
    .prepare = qp_encap_prepare,
    .divert = hw_hbl_tx_divert,
};
