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

# Profile PN's: the same programs built with PN's Go (PN_GO, tools/pn.mk:
# Go 1.23, whose regexp has Unicode 15.0.0 tables).  They use the standard
# library only.
PN_STD_GO_ENV = GO111MODULE=off GOFLAGS= GOTOOLCHAIN=local CGO_ENABLED=0 \
                GOCACHE=$(abspath $(BUILD))/go-cache-pn
$(BUILD)/go-regexdump-pn: $(wildcard tools/go-regexdump/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache-pn
	$(Q)cd tools/go-regexdump && $(PN_STD_GO_ENV) $(PN_GO) build -o $(abspath $@) .

$(BUILD)/gen-regex-tables-pn: $(wildcard tools/gen-regex-tables/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache-pn
	$(Q)cd tools/gen-regex-tables && $(PN_STD_GO_ENV) $(PN_GO) build -o $(abspath $@) .

# N and SEED from the command line (make regexdiff N=100000 SEED=1); the
# defaults are regexdiff's own (difftest.mk has its own N).
REGEXDIFF_N = $(if $(filter command line,$(origin N)),$(N),20000)
REGEXDIFF_SEED = $(if $(filter command line,$(origin SEED)),$(SEED),1)

.PHONY: regexdiff regexdiff-smoke regex-tables regex-tables-check regexdiff-pn regex-tables-pn \
        regex-tables-pn-check
regexdiff: $(BUILD)/regexdump $(BUILD)/go-regexdump
	$(PYTHON) tools/regexdiff --n $(REGEXDIFF_N) --seed $(REGEXDIFF_SEED) $(BUILD)/regexdump $(BUILD)/go-regexdump

# The same in profile PN: regexdump --pn against Go 1.23's regexp.
regexdiff-pn: $(BUILD)/regexdump $(BUILD)/go-regexdump-pn regex-tables-pn-check
	$(PYTHON) tools/regexdiff --pn --n $(REGEXDIFF_N) --seed $(REGEXDIFF_SEED) $(BUILD)/regexdump $(BUILD)/go-regexdump-pn

# A few seconds: part of `make check`, with the tables' freshness.
regexdiff-smoke: $(BUILD)/regexdump $(BUILD)/go-regexdump regex-tables-check
	$(PYTHON) tools/regexdiff --n 3000 --seed 7 $(BUILD)/regexdump $(BUILD)/go-regexdump

# Regenerates impl/regex_tables.h from the Go that builds the generator.
regex-tables: $(BUILD)/gen-regex-tables
	$(BUILD)/gen-regex-tables > impl/regex_tables.h

regex-tables-check: $(BUILD)/gen-regex-tables
	$(BUILD)/gen-regex-tables --check impl/regex_tables.h
	@if $(PN_GO) version 2>/dev/null | grep -q 'go1\.2[3-9]'; then \
	  $(MAKE) --no-print-directory regex-tables-pn-check; \
	else echo "regex-tables-check: impl/regex_tables_pn.h not checked (no Go 1.23: tools/install-deps --pn)"; fi

# impl/regex_tables_pn.h, profile PN's tables, from PN's Go.
regex-tables-pn: $(BUILD)/gen-regex-tables-pn
	$(BUILD)/gen-regex-tables-pn --pn > impl/regex_tables_pn.h

regex-tables-pn-check: $(BUILD)/gen-regex-tables-pn
	$(BUILD)/gen-regex-tables-pn --pn --check impl/regex_tables_pn.h

# The regex cases, with the other generated case files (`make gen-cases`).
.PHONY: gen-regex-cases
gen-cases: gen-regex-cases
gen-regex-cases: $(BIN)/go-hcl-adapter
	$(PYTHON) tools/gen-regex-cases --record
