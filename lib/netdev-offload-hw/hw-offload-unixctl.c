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

/* The unixctl commands of the flow API provider: netdev-hw/show,
 * netdev-hw/dump-rules and netdev-hw/not-offloaded. */

#include <config.h>
#include "hw-offload-unixctl.h"

#include <stdlib.h>
#include <string.h>

#include "hw-ct.h"
#include "hw-flow.h"
#include "hw-offload-egress.h"
#include "hw-offload-entries.h"
#include "hw-offload-private.h"
#include "hw-offload-refusals.h"
#include "hw-pipeline.h"
#include "hw-stale.h"
#include "netdev.h"
#include "netdev-hw.h"
#include "openvswitch/dynamic-string.h"
#include "sset.h"
#include "unixctl.h"
#include "util.h"
#include "uuid.h"

/* Opens the port 'name' for a command, replying with an error and returning
 * NULL if it is not a hw port. */
static struct netdev *
hw_offload_open_port(struct unixctl_conn *conn, const char *name)
{
    struct netdev *netdev = netdev_from_name(name);

    if (!netdev) {
        unixctl_command_reply_error(conn, "no such port");
        return NULL;
    }
    if (!netdev_is_hw(netdev)) {
        unixctl_command_reply_error(conn, "not a hw port");
        netdev_close(netdev);
        return NULL;
    }
    return netdev;
}

static void
hw_offload_format_port(struct netdev *netdev, struct ds *s)
{
    struct netdev_hw_device dev;

    ds_put_format(s, "%s:\n", netdev_get_name(netdev));
    netdev_hw_format(netdev, s);
    if (s->length && s->string[s->length - 1] != '\n') {
        ds_put_char(s, '\n');
    }

    if (hw_offload_is_ours(netdev) && hw_offload_port_get(netdev)) {
        struct hw_offload_port *port = hw_offload_port_get(netdev);

        uint64_t n_installed;

        ovs_mutex_lock(&port->mutex);
        n_installed = port->n_full + port->n_partial;
        ds_put_format(s, "  offload: %"PRIu64" rules (%"PRIu64" full, "
                      "%"PRIu64" partial), %"PRIu64" refused, "
                      "%"PRIu64" device errors",
                      n_installed, port->n_full, port->n_partial,
                      port->n_refused, port->n_device_errors);
        if (hmap_count(&port->entries) > n_installed + port->n_in_software) {
            ds_put_format(s, ", %"PRIu64" waiting for the device",
                          hmap_count(&port->entries) - n_installed
                          - port->n_in_software);
        }
        if (port->n_in_software) {
            ds_put_format(s, ", %"PRIu64" gone to software",
                          port->n_in_software);
        }
        ds_put_char(s, '\n');
        ovs_mutex_unlock(&port->mutex);
    } else {
        ds_put_cstr(s, "  offload: not enabled\n");
    }

    /* The rules the device refused to destroy, whoever created them. */
    if (netdev_hw_get_device(netdev, &dev)) {
        hw_stale_format(dev.devname, s);
    }
}

static void
hw_offload_unixctl_show(struct unixctl_conn *conn, int argc,
                        const char *argv[], void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct netdev *netdev = hw_offload_open_port(conn, argv[1]);

        if (!netdev) {
            return;
        }
        hw_offload_format_port(netdev, &s);
        netdev_close(netdev);
    } else {
        struct sset names = SSET_INITIALIZER(&names);
        const char *name;

        /* Names only: the netdevs are opened after the ports' mutex is
         * released, because uninit takes it with netdev_mutex held. */
        hw_offload_port_names(&names);

        SSET_FOR_EACH (name, &names) {
            struct netdev *netdev = netdev_from_name(name);

            if (netdev) {
                hw_offload_format_port(netdev, &s);
                netdev_close(netdev);
            }
        }
        sset_destroy(&names);
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static int
hw_offload_entry_compare(const void *a_, const void *b_)
{
    const struct hw_offload_entry *const *a = a_;
    const struct hw_offload_entry *const *b = b_;

    uint32_t mark_a = (*a)->params.flow_mark;
    uint32_t mark_b = (*b)->params.flow_mark;

    return mark_a < mark_b ? -1 : mark_a > mark_b;
}

/* Appends the objects of the pipelines of tables of 'dev' to 's', for
 * "netdev-hw/dump-rules --objects". */
static void
hw_offload_format_pipelines(const struct netdev_hw_device *dev, struct ds *s)
{
    if (dev && dev->pipeline) {
        ds_put_cstr(s, "pipeline of tables:\n");
        hw_pipeline_format(dev->pipeline, s);
    }
    if (dev && dev->fdb_pipeline && dev->fdb_pipeline != dev->pipeline) {
        ds_put_cstr(s, "e-switch pipeline of tables:\n");
        hw_pipeline_format(dev->fdb_pipeline, s);
    }
}

static void
hw_offload_unixctl_dump_rules(struct unixctl_conn *conn,
                              int argc, const char *argv[],
                              void *aux OVS_UNUSED)
{
    bool objects = argc > 2 && !strcmp(argv[1], "--objects");
    struct hw_offload_entry **entries, *entry;
    struct ds pipelines = DS_EMPTY_INITIALIZER;
    struct ds s = DS_EMPTY_INITIALIZER;
    const struct netdev_hw_device *dev;
    struct hw_offload_port *port;
    struct netdev *netdev;
    size_t n = 0;

    if (argc > 2 && !objects) {
        unixctl_command_reply_error(conn, "unknown option (--objects is)");
        return;
    }
    netdev = hw_offload_open_port(conn, argv[argc - 1]);
    if (!netdev) {
        return;
    }
    port = hw_offload_port_get(netdev);
    if (!hw_offload_is_ours(netdev) || !port) {
        unixctl_command_reply_error(conn, "offload not enabled on port");
        netdev_close(netdev);
        return;
    }

    ovs_mutex_lock(&port->mutex);
    dev = hw_offload_port_dev(port);
    entries = xmalloc(MAX(hmap_count(&port->entries), 1) * sizeof *entries);
    HMAP_FOR_EACH (entry, node, &port->entries) {
        if (entry->installed) {
            entries[n++] = entry;
        }
    }
    qsort(entries, n, sizeof *entries, hw_offload_entry_compare);

    for (size_t i = 0; i < n; i++) {
        uint64_t packets, bytes;
        struct hw_rule rule;

        entry = entries[i];
        ds_put_format(&s, "mega_ufid:"UUID_FMT", mode:%s, mark:%"PRIu32", ",
                      UUID_ARGS((const struct uuid *) &entry->ufid),
                      entry->full ? "full" : "partial",
                      entry->params.flow_mark);
        if (dev && !hw_flow_read(dev, &entry->flow, &packets, &bytes)) {
            ds_put_format(&s, "packets:%"PRIu64", bytes:%"PRIu64", ",
                          packets, bytes);
        } else {
            ds_put_cstr(&s, "packets:?, bytes:?, ");
        }
        ds_put_cstr(&s, "rule: ");
        if (!hw_offload_entry_rule(entry, dev, &rule, NULL)) {
            hw_flow_format(&entry->flow, &rule, &s);
        }
        ds_put_char(&s, '\n');
    }
    if (objects) {
        hw_offload_format_pipelines(dev, &pipelines);
    }
    ovs_mutex_unlock(&port->mutex);
    free(entries);
    hw_egress_format(netdev_get_name(netdev), &s);
    if (pipelines.length) {
        ds_put_buffer(&s, pipelines.string, pipelines.length);
    }
    ds_destroy(&pipelines);
    netdev_close(netdev);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

static void
hw_offload_unixctl_not_offloaded(struct unixctl_conn *conn, int argc,
                                 const char *argv[], void *aux OVS_UNUSED)
{
    const char *port = argc > 1 ? argv[1] : NULL;
    struct ds s = DS_EMPTY_INITIALIZER;

    if (port) {
        /* Any port: the flows of a tunnel vport are listed under its
         * name. */
        struct netdev *netdev = netdev_from_name(port);

        if (!netdev) {
            unixctl_command_reply_error(conn, "no such port");
            return;
        }
        netdev_close(netdev);
    }

    hw_offload_refusals_format(port, &s);

    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
hw_offload_unixctl_register(void)
{
    unixctl_command_register("netdev-hw/show", "[PORT]", 0, 1,
                             hw_offload_unixctl_show, NULL);
    unixctl_command_register("netdev-hw/dump-rules", "[--objects] PORT", 1, 2,
                             hw_offload_unixctl_dump_rules, NULL);
    unixctl_command_register("netdev-hw/not-offloaded", "[PORT]", 0, 1,
                             hw_offload_unixctl_not_offloaded, NULL);
    hw_ct_unixctl_register();
}
