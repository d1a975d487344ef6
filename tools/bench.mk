# SPDX-License-Identifier: MPL-2.0
# tools/bench.mk — `make bench`: lexer throughput of tfexpr, parse
# throughput, and parse+evaluate throughput, of tfexpr against upstream HCL
# on the same generated workloads (included by the top Makefile).

BENCH_DIR := $(BUILD)/bench

$(BUILD)/bench_parse: impl/test/bench_parse.c impl/test/bench_alloc.h impl/test/bench_input.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/bench_lex: impl/test/bench_lex.c impl/test/bench_input.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/bench_eval: impl/test/bench_eval.c impl/test/bench_alloc.h impl/test/bench_input.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/bench_rusage: impl/test/bench_rusage.c
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $<

$(BUILD)/go-parse-bench: $(wildcard tools/bench/go-parse-bench/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/bench/go-parse-bench && $(GO_ENV) go build -o $(abspath $@) .

$(BUILD)/go-eval-bench: $(wildcard tools/bench/go-eval-bench/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/bench/go-eval-bench && $(GO_ENV) go build -o $(abspath $@) .

$(BENCH_DIR)/.workloads: tools/bench/gen-workloads tools/bench/gen-eval-workloads
	@mkdir -p $(@D)
	$(Q)$(PYTHON) tools/bench/gen-workloads $(BENCH_DIR)
	$(Q)$(PYTHON) tools/bench/gen-eval-workloads $(BENCH_DIR)
	@touch $@

.PHONY: bench bench-lex bench-parse bench-eval
bench: bench-lex bench-parse bench-eval

bench-lex: $(BUILD)/bench_lex $(BENCH_DIR)/.workloads
	$(Q)$(PYTHON) tools/bench/run-lex $(BUILD)/bench_lex $(BENCH_DIR)

bench-parse: $(BUILD)/bench_parse $(BUILD)/go-parse-bench $(BENCH_DIR)/.workloads
	$(Q)$(PYTHON) tools/bench/run $(BUILD)/bench_parse $(BUILD)/go-parse-bench $(BENCH_DIR)

bench-eval: $(BUILD)/bench_eval $(BUILD)/go-eval-bench $(BENCH_DIR)/.workloads
	$(Q)$(PYTHON) tools/bench/run-eval $(BUILD)/bench_eval $(BUILD)/go-eval-bench $(BENCH_DIR)

# bench-scale: variables of 10^4, 10^5 and 10^6 elements (numbers, strings,
# objects; tools/bench/gen-scale-vars) through for, grouping, toset, sort,
# distinct, flatten and splat, one process per run (tfexpr the fastest of
# three), tfexpr eval --vars
# against the reference adapter: wall time and peak memory (issue 12's
# "Scale").  SCALE_SIZES, SCALE_ROWS and SCALE_TIMEOUT narrow it down.
.PHONY: bench-scale
bench: bench-scale
bench-scale: $(BUILD)/bench_rusage $(BIN)/tfexpr $(BIN)/go-hcl-adapter
	$(Q)$(PYTHON) tools/bench/run-scale $(BUILD)/bench_rusage $(BIN)/tfexpr $(BIN)/go-hcl-adapter $(BENCH_DIR)/scale
