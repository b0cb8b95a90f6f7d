# netdev-offload-hw: the plugin's sources, built into libopenvswitch.
#
# The plugin's build copies this repository's lib/ and tests/ to
# netdev-offload-hw/ in the OVS tree; vswitchd-patches/0001 includes this
# file from OVS's Makefile.am.

# ALLOW_EXPERIMENTAL_API makes dpif-netdev call hw_miss_packet_recover().
AM_CPPFLAGS += -DHAVE_NETDEV_OFFLOAD_HW -DALLOW_EXPERIMENTAL_API
# One folder per layer (Documentation/architecture.rst); headers are
# included by name.
AM_CPPFLAGS += -I $(top_srcdir)/netdev-offload-hw/lib/netdev-offload-hw
AM_CPPFLAGS += -I $(top_srcdir)/netdev-offload-hw/lib/netdev-offload-hw/model
AM_CPPFLAGS += -I $(top_srcdir)/netdev-offload-hw/lib/netdev-offload-hw/rdma
AM_CPPFLAGS += -I $(top_srcdir)/netdev-offload-hw/lib/netdev-offload-hw/hbl
AM_CPPFLAGS += -I $(top_srcdir)/netdev-offload-hw/lib/netdev-offload-hw/diag

# The OVS-facing core: the flow API provider, translate, encode and
# install, the pipeline, the hw netdev class and the device interface.
lib_libopenvswitch_la_SOURCES += \
	netdev-offload-hw/lib/netdev-offload-hw/hw-coverage.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-coverage.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-conn.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-conn.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-hooks.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-hooks.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-restore.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct-restore.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-ct.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-dev.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-dev.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-encode-dr.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-encode-dr.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-encode.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-encode.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-flow-dr.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-flow-dr.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-flow.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-flow.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-hmap.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-egress.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-egress.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-eswitch.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-eswitch.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-entries.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-entries.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-guards.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-guards.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-meter.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-meter.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-marks.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-meter.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-meter-fallback.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-meter.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-marks.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-refusals.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-refusals.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-unixctl.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-offload-unixctl.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-pipeline.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-pipeline.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-rule.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-rule.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-stale.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-stale.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-toeplitz.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-toeplitz.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate-ct.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate-eswitch-ct.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate-eswitch.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate-push.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-translate.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-tx-push-provider.h \
	netdev-offload-hw/lib/netdev-offload-hw/hw-tx-push-rule.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-tx-push.c \
	netdev-offload-hw/lib/netdev-offload-hw/hw-tx-push.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-base.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-base.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-eswitch.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-eswitch.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-io.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-options.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-options.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-ports.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-ports.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-qos.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-qos.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-reset.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw-reset.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-hw.h \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-offload-hw.c \
	netdev-offload-hw/lib/netdev-offload-hw/netdev-offload-hw.h

# The NIC model, the default device.
lib_libopenvswitch_la_SOURCES += \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-afpacket.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-afpacket.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-counters.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dev.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr-action.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr-meter.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr-path.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-dr.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-eswitch.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-fault.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-flow-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-flow-spec.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-flow.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-flow.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-fwdump.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-fwdump.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-hbl.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-hbl.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-match.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-parse.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-private.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-queue.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-reformat.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-reformat.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-rule.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-rx.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-spec.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-spec.h \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-tx.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-unixctl.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model-wire.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model.c \
	netdev-offload-hw/lib/netdev-offload-hw/model/hw-model.h

# The rdma-core backend: verbs and mlx5dv (hw-rdma.c, the e-switch in
# hw-rdma-eswitch.c), mlx5dv_dr (hw-dr.c).
lib_libopenvswitch_la_SOURCES += \
	netdev-offload-hw/lib/netdev-offload-hw/rdma/hw-dr.c \
	netdev-offload-hw/lib/netdev-offload-hw/rdma/hw-dr.h \
	netdev-offload-hw/lib/netdev-offload-hw/rdma/hw-rdma-eswitch.c \
	netdev-offload-hw/lib/netdev-offload-hw/rdma/hw-rdma.c \
	netdev-offload-hw/lib/netdev-offload-hw/rdma/hw-rdma.h

# The hbl backend (per-QP encapsulation, libhbl.so.1 at run time) and its
# way of tunnel push (hw-hbl-push.c).
lib_libopenvswitch_la_SOURCES += \
	netdev-offload-hw/lib/netdev-offload-hw/hbl/hw-hbl-push.c \
	netdev-offload-hw/lib/netdev-offload-hw/hbl/hw-hbl.c \
	netdev-offload-hw/lib/netdev-offload-hw/hbl/hw-hbl.h \
	netdev-offload-hw/lib/netdev-offload-hw/hbl/hw-hbldv.h

# Diagnostics: firmware dumps, privileges.
lib_libopenvswitch_la_SOURCES += \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-fwdump-devlink.c \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-fwdump-freebsd.c \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-fwdump.c \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-fwdump.h \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-mlx5io.h \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-privileges.c \
	netdev-offload-hw/lib/netdev-offload-hw/diag/hw-privileges.h
