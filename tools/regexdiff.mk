# SPDX-License-Identifier: MPL-2.0
# tools/regexdiff.mk — `make regexdiff`: tfexpr's regular expressions
# against Go's regexp on random patterns and subjects (tools/regexdiff),
# and the generated Unicode tables (tools/gen-regex-tables).  Included by
# the top Makefile.

$(BUILD)/regexdump: impl/test/regexdump.c impl/regex.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

$(BUILD)/go-regexdump: $(wildcard tools/go-regexdump/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/go-regexdump && $(GO_ENV) go build -o $(abspath $@) .

$(BUILD)/gen-regex-tables: $(wildcard tools/gen-regex-tables/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	$(Q)cd tools/gen-regex-tables && $(GO_ENV) go build -o $(abspath $@) .

# N and SEED from the command line (make regexdiff N=100000 SEED=1); the
# defaults are regexdiff's own (difftest.mk has its own N).
REGEXDIFF_N = $(if $(filter command line,$(origin N)),$(N),20000)
REGEXDIFF_SEED = $(if $(filter command line,$(origin SEED)),$(SEED),1)

.PHONY: regexdiff regexdiff-smoke regex-tables regex-tables-check
regexdiff: $(BUILD)/regexdump $(BUILD)/go-regexdump
	$(PYTHON) tools/regexdiff --n $(REGEXDIFF_N) --seed $(REGEXDIFF_SEED) $(BUILD)/regexdump $(BUILD)/go-regexdump

# A few seconds: part of `make check`, with the tables' freshness.
regexdiff-smoke: $(BUILD)/regexdump $(BUILD)/go-regexdump regex-tables-check
	$(PYTHON) tools/regexdiff --n 3000 --seed 7 $(BUILD)/regexdump $(BUILD)/go-regexdump

# Regenerates impl/regex_tables.h from the Go that builds the generator.
regex-tables: $(BUILD)/gen-regex-tables
	$(BUILD)/gen-regex-tables > impl/regex_tables.h

regex-tables-check: $(BUILD)/gen-regex-tables
	$(BUILD)/gen-regex-tables --check impl/regex_tables.h

# The regex cases, with the other generated case files (`make gen-cases`).
.PHONY: gen-regex-cases
gen-cases: gen-regex-cases
gen-regex-cases: $(BIN)/go-hcl-adapter
	$(PYTHON) tools/gen-regex-cases --record
