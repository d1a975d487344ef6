# SPDX-License-Identifier: MPL-2.0
# tools/numdiff.mk — `make numdiff`: tfexpr's numbers against cty's on
# random operations (tools/numdiff; included by the top Makefile).

$(BUILD)/numdump: impl/test/numdump.c impl/num.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/go-numdump: $(wildcard tools/go-numdump/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/go-numdump && $(GO_ENV) go build -o $(abspath $@) .

NUMDIFF_N ?= 20000
NUMDIFF_SEED ?= 1

.PHONY: numdiff
numdiff: $(BUILD)/numdump $(BUILD)/go-numdump
	$(PYTHON) tools/numdiff --n $(NUMDIFF_N) --seed $(NUMDIFF_SEED) $(BUILD)/numdump $(BUILD)/go-numdump
