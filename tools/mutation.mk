# SPDX-License-Identifier: MPL-2.0
# tools/mutation.mk — mutation testing, coverage and the CLI's golden tests
# (included by the top Makefile).
#
#   make mutation N=60 SEED=7   N sampled mutants of impl/*.c (committed HEAD,
#                               copied to build/mutation/tree; the working
#                               tree is never touched), each run against the
#                               corpus and the golden tests; report in
#                               build/mutation/report.txt, survivors judged in
#                               tools/mutation-judgements.json (tools/mutate)
#   make mutation-report        the report again from the last run's results,
#                               with the current judgements
#   make coverage               line and branch coverage of impl/*.c by the
#                               corpus, + golden tests, + unit tests, per file:
#                               build/coverage/report.txt (tools/coverage)
#   make golden-test            the golden tests of the command line
#                               (impl/test/golden: tree printers, console
#                               rendering, type JSON, refs and functions text)

# N and SEED as given on the command line (difftest.mk has defaults of its own).
MUTATION_N    ?= $(if $(filter command environment%,$(origin N)),$(N),60)
MUTATION_SEED ?= $(if $(filter command environment%,$(origin SEED)),$(SEED),7)
MUTATION_JOBS ?= $(LINT_JOBS)
# IDS=id,id runs only those mutants (ids from a report); REV= mutates
# another committed revision (default HEAD); CASES_REV= takes the corpus
# cases and golden tests from another revision.
IDS ?=
REV ?= HEAD
CASES_REV ?=

.PHONY: mutation mutation-report coverage golden-test
mutation: | $(DEPS_OK)
	$(PYTHON) tools/mutate -n $(MUTATION_N) --seed $(MUTATION_SEED) --jobs $(MUTATION_JOBS) \
	  --rev $(REV) --build build/mutation $(if $(CASES_REV),--cases-rev $(CASES_REV)) $(if $(IDS),--ids $(IDS))

mutation-report:
	$(PYTHON) tools/mutate --report-only --build build/mutation

coverage: | $(DEPS_OK)
	$(PYTHON) tools/coverage --build build/coverage --jobs $(LINT_JOBS)

golden-test: $(BIN)/tfexpr
	$(PYTHON) impl/test/golden/run $(BIN)/tfexpr
