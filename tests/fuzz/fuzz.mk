# netdev-offload-hw: the libFuzzer targets of tests/fuzz/ (GNU make).
#
# Invoked by the top-level 'make fuzz' (Makefile.am) with:
#   SRCDIR   the repository,
#   OVS_DIR  the OVS tree built by gcc (ovs-build/openvswitch),
#   BUILD    where the objects and the targets go.
#
# Every plugin source is compiled again with clang, with libFuzzer's
# coverage instrumentation, AddressSanitizer and UndefinedBehaviorSanitizer,
# and linked before OVS's libopenvswitch.a: the plugin's symbols resolve to
# these objects, so the archive's gcc-built copies of them are never pulled
# in, and the rest of OVS (uninstrumented) comes from the archive.

CLANG = clang
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CPPFLAGS = -DHAVE_CONFIG_H -I$(OVS_DIR) -I$(OVS_DIR)/include \
	-I$(OVS_DIR)/lib -DHAVE_NETDEV_OFFLOAD_HW -DALLOW_EXPERIMENTAL_API \
	$(addprefix -I$(SRCDIR)/lib/netdev-offload-hw, \
	            / /model /rdma /hbl /diag) \
	-I$(SRCDIR)/tests $(RDMA_CPPFLAGS)
# The libraries OVS's configure chose (its LIBS: e.g. -lunbound when
# libunbound-dev is installed) come from OVS's own Makefile.
OVS_LIBS := $(shell sed -n 's/^LIBS = //p' $(OVS_DIR)/Makefile)
FUZZ_LIBS = $(OVS_DIR)/lib/.libs/libopenvswitch.a \
	$(OVS_DIR)/lib/.libs/libopenvswitchavx512.a \
	-lssl -lcrypto -lcap-ng -latomic -lm -lpthread -lrt $(RDMA_LIBS) \
	$(OVS_LIBS)

TARGETS = translate flow-attr dr-match packet hbl

PLUGIN_SRCS = $(wildcard $(SRCDIR)/lib/netdev-offload-hw/*.c \
                         $(SRCDIR)/lib/netdev-offload-hw/*/*.c)
PLUGIN_OBJS = $(patsubst $(SRCDIR)/%.c,$(BUILD)/%.o,$(PLUGIN_SRCS))
HELPER_OBJS = $(BUILD)/tests/fuzz/fuzz-hw.o

all: $(addprefix $(BUILD)/fuzz-,$(TARGETS))

$(BUILD)/%.o: $(SRCDIR)/%.c
	@mkdir -p $(@D)
	@echo "  CC (fuzz) $*.c"
	@$(CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
	    -MMD -MP -c -o $@ $<

$(BUILD)/fuzz-%: $(BUILD)/tests/fuzz/fuzz-%.o $(HELPER_OBJS) \
		$(PLUGIN_OBJS) $(OVS_DIR)/lib/.libs/libopenvswitch.a
	@echo "  CCLD (fuzz) fuzz-$*"
	@$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ \
	    $(filter %.o,$^) $(FUZZ_LIBS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

.SECONDARY:
.PHONY: all
