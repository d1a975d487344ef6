# SPDX-License-Identifier: MPL-2.0
# tools/difftest.mk — `make difftest`: tfexpr against the reference adapter on
# random expressions and templates (tools/difftest; included by the top
# Makefile).  Disagreements not listed in tools/difftest-explained.json fail
# the target; their minimized cases are drafted in $(BUILD)/difftest/drafts/
# and the JSON summary is $(BUILD)/difftest/summary.json.  The functions of
# issue 10 and of function library II (the latter's file, path, time and
# random functions with a random host description per case) are called
# only when both adapters declare them; the summary says which ones were
# ("functions", "functions_missing"). So are OpenTofu's base64gunzip,
# urldecode and cidrcontains, in cases sent with "flavor": "opentofu" (with a
# twentieth of the others), when both adapters declare flavor.opentofu
# ("opentofu_cases" counts them).
#
# Both run profile P14, whatever tfexpr's default (PN): the reference every
# build has, bin/go-hcl-adapter, is P14's (tools/difftest --reference pn runs
# PN against bin/go-hcl-adapter-pn, when built; there it also calls the
# provider "terraform"'s functions, OpenTofu's twelve assume* functions,
# "assume_cases", and compares the refinements of unknown values).
#
#   make difftest N=100000 SEED=1     the long run (about 150-200 s on 2 cores)
#   make difftest-smoke               2,000 cases, for make check (about 4 s)

N    ?= 100000
SEED ?= 1
DIFFTEST_SMOKE_N ?= 2000
# The programs the targets build and depend on, not bin/'s.
DIFFTEST_ADAPTERS = --tfexpr '$(BIN)/tfexpr adapter' --adapter '$(BIN)/go-hcl-adapter'

.PHONY: difftest difftest-smoke
difftest: $(BIN)/tfexpr $(BIN)/go-hcl-adapter
	$(PYTHON) tools/difftest -n $(N) --seed $(SEED) $(DIFFTEST_ADAPTERS) --drafts $(BUILD)/difftest/drafts \
	  --summary $(BUILD)/difftest/summary.json > /dev/null
	@echo "difftest: summary in $(BUILD)/difftest/summary.json, drafts in $(BUILD)/difftest/drafts/"

difftest-smoke: $(BIN)/tfexpr $(BIN)/go-hcl-adapter
	$(PYTHON) tools/difftest -n $(DIFFTEST_SMOKE_N) --seed $(SEED) $(DIFFTEST_ADAPTERS) --quiet \
	  --drafts $(BUILD)/difftest/smoke-drafts --summary $(BUILD)/difftest/smoke-summary.json > /dev/null
	@echo "difftest-smoke: $(DIFFTEST_SMOKE_N) cases, no unexplained disagreement"
