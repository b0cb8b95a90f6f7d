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

#ifndef NETDEV_OFFLOAD_HW_H
#define NETDEV_OFFLOAD_HW_H 1

/* Entry point called from OVS's netdev_initialize() (vswitchd patch 0001):
 * registers the "hw" netdev class, the "hw" flow API provider, the NIC
 * model and the unixctl commands. */
void netdev_hw_register(void);

#endif /* netdev-offload-hw.h */
