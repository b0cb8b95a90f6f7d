# netdev-offload-hw: the plugin's tests, added to OVS's testsuite and
# ovstest by vswitchd-patches/0001.

TESTSUITE_AT += \
	netdev-offload-hw/tests/hw-testsuite.at \
	netdev-offload-hw/tests/hw-macros.at \
	netdev-offload-hw/tests/hw-unit.at \
	netdev-offload-hw/tests/hw-offload.at \
	netdev-offload-hw/tests/hw-config.at \
	netdev-offload-hw/tests/hw-appctl.at \
	netdev-offload-hw/tests/hw-faults.at \
	netdev-offload-hw/tests/hw-reliability.at \
	netdev-offload-hw/tests/hw-pipeline.at \
	netdev-offload-hw/tests/hw-fwdump.at \
	netdev-offload-hw/tests/hw-hbl.at \
	netdev-offload-hw/tests/hw-tunnel.at \
	netdev-offload-hw/tests/hw-geneve.at \
	netdev-offload-hw/tests/hw-conntrack-nat.at \
	netdev-offload-hw/tests/hw-conntrack-size.at \
	netdev-offload-hw/tests/hw-conntrack-tunnel.at \
	netdev-offload-hw/tests/hw-conntrack.at \
	netdev-offload-hw/tests/hw-differential.at \
	netdev-offload-hw/tests/hw-system.at \
	netdev-offload-hw/tests/hw-qos.at \
	netdev-offload-hw/tests/hw-ovn.at \
	netdev-offload-hw/tests/hw-eswitch.at \
	netdev-offload-hw/tests/hw-eswitch-tunnel.at \
	netdev-offload-hw/tests/hw-eswitch-conntrack.at \
	netdev-offload-hw/tests/hw-meter.at \
	netdev-offload-hw/tests/hw-reset.at

tests_ovstest_SOURCES += \
	netdev-offload-hw/tests/test-hw-backend.c \
	netdev-offload-hw/tests/test-hw-check.h \
	netdev-offload-hw/tests/test-hw-ct-conn.c \
	netdev-offload-hw/tests/test-hw-ct-hooks.c \
	netdev-offload-hw/tests/test-hw-ct-restore.c \
	netdev-offload-hw/tests/test-hw-bench.c \
	netdev-offload-hw/tests/test-hw-bench.h \
	netdev-offload-hw/tests/test-hw-bench-common.c \
	netdev-offload-hw/tests/test-hw-bench-conns.c \
	netdev-offload-hw/tests/test-hw-bench-esw.c \
	netdev-offload-hw/tests/test-hw-bench-flows.c \
	netdev-offload-hw/tests/test-hw-bench-rss.c \
	netdev-offload-hw/tests/test-hw-ct.c \
	netdev-offload-hw/tests/test-hw-eswitch-ct.c \
	netdev-offload-hw/tests/test-hw-encode.c \
	netdev-offload-hw/tests/test-hw-encode-dr.c \
	netdev-offload-hw/tests/test-hw-flows.c \
	netdev-offload-hw/tests/test-hw-flows.h \
	netdev-offload-hw/tests/test-hw-frame.c \
	netdev-offload-hw/tests/test-hw-frame.h \
	netdev-offload-hw/tests/test-hw-fwdump.c \
	netdev-offload-hw/tests/test-hw-hbl.c \
	netdev-offload-hw/tests/test-hw-model.c \
	netdev-offload-hw/tests/test-hw-model-dr.c \
	netdev-offload-hw/tests/test-hw-model-dr-action.c \
	netdev-offload-hw/tests/test-hw-model-dr-objects.c \
	netdev-offload-hw/tests/test-hw-model-dr-path.c \
	netdev-offload-hw/tests/test-hw-model-dr-private.h \
	netdev-offload-hw/tests/test-hw-model-eswitch.c \
	netdev-offload-hw/tests/test-hw-model-flow.c \
	netdev-offload-hw/tests/test-hw-model-flow-counters.c \
	netdev-offload-hw/tests/test-hw-model-flow-match.c \
	netdev-offload-hw/tests/test-hw-model-flow-packet.c \
	netdev-offload-hw/tests/test-hw-model-flow-parse.c \
	netdev-offload-hw/tests/test-hw-model-flow-private.h \
	netdev-offload-hw/tests/test-hw-model-flow-rule.c \
	netdev-offload-hw/tests/test-hw-model-flow-spec.c \
	netdev-offload-hw/tests/test-hw-model-port.c \
	netdev-offload-hw/tests/test-hw-model-port.h \
	netdev-offload-hw/tests/test-hw-model-tunnel.c \
	netdev-offload-hw/tests/test-hw-recorder.c \
	netdev-offload-hw/tests/test-hw-recorder.h \
	netdev-offload-hw/tests/test-hw-pipeline.c \
	netdev-offload-hw/tests/test-hw-rss-predict.c \
	netdev-offload-hw/tests/test-hw-stale.c \
	netdev-offload-hw/tests/test-hw-meter.c \
	netdev-offload-hw/tests/test-hw-toeplitz.c \
	netdev-offload-hw/tests/test-hw-translate.c \
	netdev-offload-hw/tests/test-hw-translate-actions.c \
	netdev-offload-hw/tests/test-hw-translate-eswitch-tunnel.c \
	netdev-offload-hw/tests/test-hw-translate-geneve.c \
	netdev-offload-hw/tests/test-hw-translate-match.c \
	netdev-offload-hw/tests/test-hw-translate-private.h \
	netdev-offload-hw/tests/test-hw-translate-push.c \
	netdev-offload-hw/tests/test-hw-translate-rule.c \
	netdev-offload-hw/tests/test-hw-translate-vport.c
AM_CPPFLAGS += -I $(top_srcdir)/tests

# 'make check-system-hw': OVS's system-userspace tests, their files
# unchanged, with hw ports in place of the veth ports
# (system-hw-macros.at).  The tests use fixed namespace and interface
# names, so they run one at a time, as check-system-userspace does.
SYSTEM_HW_TESTSUITE_AT = \
	netdev-offload-hw/tests/system-hw-testsuite.at \
	netdev-offload-hw/tests/system-hw-macros.at
SYSTEM_HW_TESTSUITE = $(srcdir)/tests/system-hw-testsuite

$(SYSTEM_HW_TESTSUITE): package.m4 $(SYSTEM_TESTSUITE_AT) \
	$(SYSTEM_USERSPACE_TESTSUITE_AT) $(COMMON_MACROS_AT) \
	$(SYSTEM_HW_TESTSUITE_AT)
	$(AM_V_GEN)$(AUTOTEST) -I '$(srcdir)' -o $@.tmp \
	    $(srcdir)/netdev-offload-hw/tests/system-hw-testsuite.at
	$(AM_V_at)mv $@.tmp $@

check-system-hw: all $(SYSTEM_HW_TESTSUITE)
	rm -f tests/system-hw-offloads.txt
	set $(SHELL) '$(SYSTEM_HW_TESTSUITE)' -C tests \
	    AUTOTEST_PATH='$(AUTOTEST_PATH)'; \
	"$$@" $(TESTSUITEFLAGS) -j1 || \
	    (test X'$(RECHECK)' = Xyes && "$$@" --recheck)
