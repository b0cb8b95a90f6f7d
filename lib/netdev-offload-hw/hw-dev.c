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

const struct hw_dev_ops *
hw_dev_ops_find(const char *devname)
{
    if (!devname || !devname[0]) {
        return NULL;
    }

    for (size_t i = 0; i < ARRAY_SIZE(hw_dev_backends); i++) {
        const struct hw_dev_ops *ops = hw_dev_backends[i];

        if (ops->handles && ops->handles(devname)) {
            return ops;
        }
    }
    return NULL;
}
