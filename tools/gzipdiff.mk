# SPDX-License-Identifier: MPL-2.0
# tools/gzipdiff.mk — `make gzipdiff`: tfexpr's Go-compatible gzip writer
# (impl/deflate.c) against Go's compress/gzip on random inputs
# (tools/gzipdiff).  Included by the top Makefile.

$(BUILD)/gzipdump: impl/test/gzipdump.c impl/deflate.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/go-gzipdump: $(wildcard tools/go-gzipdump/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/go-gzipdump && $(GO_ENV) go build -o $(abspath $@) .

# N and SEED from the command line (make gzipdiff N=20000 SEED=1).
GZIPDIFF_N = $(if $(filter command line,$(origin N)),$(N),20000)
GZIPDIFF_SEED = $(if $(filter command line,$(origin SEED)),$(SEED),1)

.PHONY: gzipdiff gzipdiff-smoke
gzipdiff: $(BUILD)/gzipdump $(BUILD)/go-gzipdump
	$(PYTHON) tools/gzipdiff --n $(GZIPDIFF_N) --seed $(GZIPDIFF_SEED) $(BUILD)/gzipdump $(BUILD)/go-gzipdump

# A few seconds: part of `make check`.
gzipdiff-smoke: $(BUILD)/gzipdump $(BUILD)/go-gzipdump
	$(PYTHON) tools/gzipdiff --n 300 --seed 7 --max-bytes 200000 $(BUILD)/gzipdump $(BUILD)/go-gzipdump
