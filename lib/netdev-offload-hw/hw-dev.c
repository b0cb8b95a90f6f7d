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

#include <config.h>
#include "hw-dev.h"

#include <string.h>

#include "ovs-thread.h"
#include "util.h"

#ifdef HAVE_HW_RDMA
#include "hw-hbl.h"
#include "hw-rdma.h"
#endif

/* The backends, asked in order; the first whose handles() accepts a device
 * name drives it.  Backends that need a library at run time (rdma-core,
 * hbl) are added here and answer false when the library is missing. */
static const struct hw_dev_ops *const hw_dev_backends[] = {
    &hw_model_ops,
#ifdef HAVE_HW_RDMA
    &hw_hbl_ops,                /* Before rdma, which takes any name. */
    &hw_rdma_ops,
#endif
};

/* Backends registered at run time by hw_dev_register_backend(), asked
 * before the built-in ones. */
#define HW_DEV_MAX_EXTRA 4
static struct ovs_mutex hw_dev_extra_mutex = OVS_MUTEX_INITIALIZER;
static const struct hw_dev_ops *hw_dev_extra[HW_DEV_MAX_EXTRA]
    OVS_GUARDED_BY(hw_dev_extra_mutex);
static size_t hw_dev_n_extra OVS_GUARDED_BY(hw_dev_extra_mutex);

void
hw_dev_register_backend(const struct hw_dev_ops *ops)
{
    ovs_mutex_lock(&hw_dev_extra_mutex);
    ovs_assert(hw_dev_n_extra < HW_DEV_MAX_EXTRA);
    hw_dev_extra[hw_dev_n_extra++] = ops;
    ovs_mutex_unlock(&hw_dev_extra_mutex);
}

void
hw_dev_caps_clear_dr(struct hw_dev_caps *caps)
{
    caps->dr_domains = 0;
    caps->dr_max_level = 0;
    memset(caps->dr_actions, 0, sizeof caps->dr_actions);
    caps->dr_match_criteria = 0;
    caps->dr_parse = 0;
    caps->dr_max_modify = 0;
    caps->dr_max_rules = 0;
}

const struct hw_dev_ops *
hw_dev_ops_find(const char *devname)
{
    const struct hw_dev_ops *found = NULL;

    if (!devname || !devname[0]) {
        return NULL;
    }

    ovs_mutex_lock(&hw_dev_extra_mutex);
    for (size_t i = 0; i < hw_dev_n_extra && !found; i++) {
        if (hw_dev_extra[i]->handles(devname)) {
            found = hw_dev_extra[i];
        }
    }
    ovs_mutex_unlock(&hw_dev_extra_mutex);
    if (found) {
        return found;
    }

    for (size_t i = 0; i < ARRAY_SIZE(hw_dev_backends); i++) {
        const struct hw_dev_ops *ops = hw_dev_backends[i];

        if (ops->handles && ops->handles(devname)) {
            return ops;
        }
    }
    return NULL;
}

char *
hw_dev_identify(const struct hw_dev_ops *ops, const char *devname)
{
    char *id = ops->identify ? ops->identify(devname) : NULL;

    return id ? id : xasprintf("device %s", devname);
}
