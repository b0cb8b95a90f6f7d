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

/* The OVS adapter of conntrack offload: the provider class of
 * vswitchd-patches/0010 (lib/conntrack-offload.h), handing each call to
 * the offload core (hw-ct.h).  Glue only. */

#include <config.h>
#include "hw-ct-hooks.h"

#include "conntrack-offload.h"
#include "hw-ct.h"

static bool
hw_ct_hooks_conn_add(const struct ct_offload_conn *conn)
{
    struct hw_ct_conn_info info = {
        .id = conn->id,
        .zone = conn->zone,
        .tuple = { conn->orig, conn->reply },
        .nat = ((conn->nat & CT_OFFLOAD_SNAT ? HW_CT_NAT_SRC : 0)
                | (conn->nat & CT_OFFLOAD_DNAT ? HW_CT_NAT_DST : 0)),
        .mark = conn->mark,
        .label = conn->label,
        .in_port = { conn->in_port[0], conn->in_port[1] },
    };

    return hw_ct_conn_add(&info);
}

static const struct ct_offload_class hw_ct_offload_class = {
    .conn_add = hw_ct_hooks_conn_add,
    .conn_del = hw_ct_conn_del,
    .conn_used = hw_ct_conn_used,
};

void
hw_ct_hooks_register(void)
{
    conntrack_offload_set_class(&hw_ct_offload_class);
    hw_ct_set_enabled(true);
}
