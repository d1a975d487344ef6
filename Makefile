# SPDX-License-Identifier: MPL-2.0
# Makefile — the only build entry point of tfexpr.
#
#   make                       libtfexpr.a, libtfexpr.so, bin/tfexpr, bin/tfexpr-conformance
#   make conformance           the conformance suite against tfexpr, with a report:
#                              the default profile PN, then P14
#   make check                 every test: unit, runner self-tests, corpus lint,
#                              reference run, tfexpr run, ASan+UBSan+LSan, lint
#   make help                  all targets
#
# Missing Debian packages are installed by tools/install-deps (as root), so a
# fresh machine needs nothing by hand.

ifeq ($(origin CC),default)
CC = gcc
endif
PYTHON   ?= /usr/bin/python3
PREFIX   ?= /usr/local
DESTDIR  ?=
LIBDIR   ?= $(PREFIX)/lib
BUILD    ?= build
BIN      ?= bin
# Extra flags for variant builds (make asan sets them).
SANFLAGS ?=

SHELL := /bin/bash
# V=1 shows the full commands.
V ?= 0
ifeq ($(V),0)
Q := @
else
Q :=
endif
.DELETE_ON_ERROR:
.SUFFIXES:

VERSION := $(shell sed -n 's/^\#define TFX_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' impl/tfexpr.h | paste -sd.)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))

# ---------------------------------------------------------------------------
# Flags

IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -c clang)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wold-style-definition -Wformat=2 -Wpointer-arith -Wcast-qual -Wvla \
        -Wundef -Wwrite-strings -Wredundant-decls -Wnull-dereference
ifeq ($(IS_CLANG),0)
WARN += -Wduplicated-cond -Wduplicated-branches -Wlogical-op
else
WARN += -Wunreachable-code -Wcomma
endif
STD      := -std=c11 -D_POSIX_C_SOURCE=200809L
OPT      ?= -O2 -g
# pkg-config runs when a recipe needs it, after the dependency check.
# The libraries libtfexpr links: JSON, Unicode, numbers, then hashes and
# RSA (Nettle and its hogweed, on the same GMP), YAML, bcrypt (libxcrypt's
# libcrypt) and inflate (zlib).
DEP_PKGS   := jansson libutf8proc mpfr gmp nettle hogweed yaml-0.1 libcrypt zlib
DEP_CFLAGS = $(shell pkg-config --cflags $(DEP_PKGS))
DEP_LIBS   = $(shell pkg-config --libs $(DEP_PKGS))
ALL_CFLAGS = $(STD) $(OPT) $(WARN) $(SANFLAGS) $(DEP_CFLAGS) $(CFLAGS)
LIB_CFLAGS = $(ALL_CFLAGS) -fPIC -fvisibility=hidden -Iimpl

# ---------------------------------------------------------------------------
# Sources

LIB_SRC    := $(filter-out impl/main.c,$(wildcard impl/*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC   := $(wildcard impl/test/test_*.c)
TOOL_SRC   := impl/test/lexdump.c impl/test/bench_parse.c impl/test/bench_lex.c impl/test/bench_eval.c impl/test/bench_rusage.c impl/test/numdump.c impl/test/regexdump.c impl/test/gzipdump.c
UNIT_BIN   := $(UNIT_SRC:impl/test/%.c=$(BUILD)/test/%)
RUNNER_SRC := $(wildcard conformance/runner/*.c)
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(BUILD)/obj/%.o)
GO_SRC     := $(wildcard conformance/adapters/go-hcl/*.go)

DEPS_OK    := $(BUILD)/.deps-ok


.PHONY: gen-cases
.PHONY: all help deps reference reference-test lexdiff test unit-test cli-test runner-test corpus-lint \
        conformance conformance-pn conformance-p14 conformance-reference asan lint lint-tidy lint-cppcheck \
        lint-scan check install install-test uninstall clean

all: $(BUILD)/libtfexpr.a $(BUILD)/libtfexpr.so $(BIN)/tfexpr $(BIN)/tfexpr-conformance

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile
	@echo "other targets: reference (the Go reference adapter), test, runner-test,"
	@echo "  corpus-lint, conformance-reference (PROFILE=P14|PN), asan, lint, install, uninstall, clean,"
	@echo "  lexdiff, numdiff, difftest (N= SEED=), difftest-smoke, fuzz, fuzz-smoke, bench"
	@echo "variables: CC=gcc|clang PREFIX=$(PREFIX) DESTDIR= CFLAGS="

# ---------------------------------------------------------------------------
# Dependencies: installs what is missing (tools/install-deps), once per build dir.

deps: $(DEPS_OK)
$(DEPS_OK): tools/install-deps
	@tools/install-deps
	@mkdir -p $(@D) && touch $@

# ---------------------------------------------------------------------------
# The library and the command line tool

$(BUILD)/obj/impl/%.o: impl/%.c impl/*.h | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/libtfexpr.a: $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/libtfexpr.so: $(LIB_OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libtfexpr.so.$(SOMAJOR) -o $@ $^ $(DEP_LIBS)

# The tool's own sources (not in the library); only it links libedit, for
# `tfexpr console`'s line editing.
CLI_SRC := impl/main.c $(wildcard impl/cli/*.c)
$(BIN)/tfexpr: $(CLI_SRC) impl/cli/cli.h impl/tfexpr.h $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl $$(pkg-config --cflags libedit) -o $@ $(CLI_SRC) $(BUILD)/libtfexpr.a $(DEP_LIBS) $$(pkg-config --libs libedit)

# ---------------------------------------------------------------------------
# The conformance runner, its fake adapter, and the reference adapter

$(BUILD)/obj/conformance/runner/%.o: conformance/runner/%.c conformance/runner/*.h | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -pthread -c $< -o $@

# The runner loads case files on threads (--jobs).
$(BIN)/tfexpr-conformance: $(RUNNER_OBJ)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -pthread -o $@ $^ $(DEP_LIBS)

$(BUILD)/fake-adapter: conformance/runner/test/fake-adapter.c | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(DEP_LIBS)

# Go programs build offline in GOPATH mode against Debian's HCL 2.14.1 and
# cty 1.12.1 (profile P14).
GO_ENV = GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= \
         GOCACHE=$(abspath $(BUILD))/go-cache CGO_ENABLED=0

reference: $(BIN)/go-hcl-adapter
$(BIN)/go-hcl-adapter: $(GO_SRC) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	cd conformance/adapters/go-hcl && $(GO_ENV) go build -o $(abspath $@) .

reference-test: | $(DEPS_OK)
	@mkdir -p $(BUILD)/go-cache
	cd conformance/adapters/go-hcl && $(GO_ENV) go vet . && $(GO_ENV) go test .

# The lexer and parser against upstream's on random inputs (tools/lexdiff):
# token streams, and parse diagnostics with their ranges.
$(BUILD)/go-lexdump: $(wildcard tools/go-lexdump/*.go) | $(DEPS_OK)
	@mkdir -p $(@D) $(BUILD)/go-cache
	cd tools/go-lexdump && $(GO_ENV) go build -o $(abspath $@) .

$(BUILD)/lexdump: impl/test/lexdump.c $(BUILD)/libtfexpr.a
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< $(BUILD)/libtfexpr.a $(DEP_LIBS)

LEXDIFF_N ?= 50000
lexdiff: $(BUILD)/lexdump $(BUILD)/go-lexdump
	$(PYTHON) tools/lexdiff --what tokens --n $(LEXDIFF_N) $(BUILD)/lexdump $(BUILD)/go-lexdump
	$(PYTHON) tools/lexdiff --what parse --n $(LEXDIFF_N) $(BUILD)/lexdump $(BUILD)/go-lexdump

# ---------------------------------------------------------------------------
# Tests

$(BUILD)/test/%: impl/test/%.c impl/test/check.h impl/test/testval.c impl/test/testval.h \
                 $(BUILD)/libtfexpr.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Iimpl -o $@ $< impl/test/testval.c $(BUILD)/libtfexpr.a $(DEP_LIBS)

test: unit-test cli-test

unit-test: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

cli-test: $(BIN)/tfexpr
	impl/test/test_cli.sh $(BIN)/tfexpr

runner-test: $(BIN)/tfexpr-conformance $(BUILD)/fake-adapter
	conformance/runner/test/selftest.sh $(BIN)/tfexpr-conformance $(BUILD)/fake-adapter

corpus-lint: | $(DEPS_OK)
	$(PYTHON) tools/corpus lint
	$(PYTHON) tools/spec-ids check

# The main job: the whole corpus against tfexpr in the default profile PN
# (spec/profiles.md, profile.default), with a report; then again in profile
# P14 (make conformance-p14), with its own report.  The cases tfexpr does
# not meet yet are each profile's known failures, reported as expected
# failures (xfail): expectations/tfexpr-pn.json for PN, tfexpr.json for P14.
CONFORMANCE_TFEXPR = $(BIN)/tfexpr-conformance --adapter '$(BIN)/tfexpr adapter'
CONFORMANCE_PN  = $(CONFORMANCE_TFEXPR) --profile PN --expectations conformance/expectations/tfexpr-pn.json
CONFORMANCE_P14 = $(CONFORMANCE_TFEXPR) --profile P14 --expectations conformance/expectations/tfexpr.json
conformance: all
	$(CONFORMANCE_PN)
	$(CONFORMANCE_P14)

conformance-p14: all
	$(CONFORMANCE_P14)

# The PN run of make conformance alone; with the PN reference built (make
# reference-pn PN_SRC=DIR), every PN case against it too (tools/pn.mk); the
# output says whether it ran.
conformance-pn: all
	$(CONFORMANCE_PN)
	@$(if $(wildcard $(BIN)/go-hcl-adapter-pn),$(MAKE) --no-print-directory conformance-pn-reference,\
	  echo "conformance-pn: tfexpr only; the PN reference $(BIN)/go-hcl-adapter-pn is not built")

# The whole corpus against the reference (upstream HCL 2.14.1 and cty 1.12.1
# with Terraform's function table, profile P14): every applicable case must
# pass. It declares
# fn:<name> for every Terraform function, so no case is left to a
# from-reference check.  Upstream takes seconds on a few cases (numbers of
# a million digits), more on a loaded machine: 60 s per case.
# PROFILE=PN: every PN case against the PN reference instead (tools/pn.mk),
# built first from PN_SRC when it is given, else the one built before.
PROFILE ?= P14
conformance-reference: $(BIN)/tfexpr-conformance $(if $(filter PN,$(PROFILE)),,$(BIN)/go-hcl-adapter)
ifeq ($(PROFILE),PN)
	$(MAKE) --no-print-directory $(if $(PN_SRC),conformance-reference-pn,conformance-pn-reference)
else ifeq ($(PROFILE),P14)
	$(BIN)/tfexpr-conformance --adapter '$(BIN)/go-hcl-adapter' --profile P14 --fail-on-unsupported --timeout 60 \
	  --expectations conformance/expectations/go-hcl.json
else
	@echo "conformance-reference: PROFILE must be P14 or PN, not '$(PROFILE)'" >&2; exit 2
endif

# Regenerates the generated case files (expectations recorded from the
# reference adapter); re-running without changes rewrites nothing.
gen-cases: $(BIN)/go-hcl-adapter
	$(PYTHON) tools/gen-syntax-cases
	$(PYTHON) tools/gen-eval-cases --record
	$(PYTHON) tools/gen-conversion-matrix --record
	$(PYTHON) tools/gen-collection-matrix --record
	$(PYTHON) tools/gen-refs-cases --record
	$(PYTHON) tools/gen-format-cases --record
	$(PYTHON) tools/gen-tf-function-cases --record
	$(PYTHON) tools/gen-closure-cases --record
	$(PYTHON) tools/gen-yaml-cases --record
	$(PYTHON) tools/gen-gzip-cases --record
	$(PYTHON) tools/gen-crypto-cases --record
	$(PYTHON) tools/gen-cidr-cases --record
	$(PYTHON) tools/gen-encoding-cases --record
	$(PYTHON) tools/gen-console-cases --record
	$(PYTHON) tools/gen-opentofu-cases --record
	$(PYTHON) tools/gen-nfc-cases --record

# The tests again under AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, in a build directory of their own.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
            UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
asan:
	$(ASAN_ENV) $(MAKE) --no-print-directory BUILD=build/asan BIN=build/asan/bin \
	  OPT='-O1 -g -fno-omit-frame-pointer' \
	  SANFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all' \
	  test runner-test conformance

# ---------------------------------------------------------------------------
# Static analysis: clang-tidy (.clang-tidy), cppcheck, clang's analyzer.

C_SRC := $(LIB_SRC) $(CLI_SRC) $(UNIT_SRC) impl/test/testval.c $(TOOL_SRC) $(RUNNER_SRC) conformance/runner/test/fake-adapter.c

lint: lint-tidy lint-cppcheck lint-scan

# One file per run (clang-tidy 14's va_list check misfires on the second
# and later files of a run), as many runs at a time as there are cores.
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
lint-tidy: | $(DEPS_OK)
	$(Q)printf '%s\n' $(C_SRC) | xargs -P $(LINT_JOBS) -I{} sh -c \
	  'out=$$(clang-tidy --quiet --warnings-as-errors="*" {} -- $(STD) -Iimpl $(DEP_CFLAGS) 2>&1) \
	    || { printf "%s\n" "$$out" | grep -v "warnings generated"; exit 1; }' \
	  && echo "clang-tidy: no findings"

lint-cppcheck: | $(DEPS_OK)
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,style,performance,portability \
	  --inline-suppr --suppressions-list=.cppcheck-suppressions -D__GNUC__ -Iimpl $(C_SRC)

lint-scan: | $(DEPS_OK)
	rm -rf build/scan
	scan-build --status-bugs --use-cc=clang -o build/scan/report \
	  $(MAKE) --no-print-directory BUILD=build/scan BIN=build/scan/bin CC=clang \
	  build/scan/libtfexpr.a build/scan/bin/tfexpr build/scan/bin/tfexpr-conformance \
	  build/scan/fake-adapter

# ---------------------------------------------------------------------------
# Fuzzing and benchmarks have their own makefiles.

-include fuzz/fuzz.mk
-include tools/bench.mk
-include tools/numdiff.mk
-include tools/difftest.mk
-include tools/regexdiff.mk
-include tools/gzipdiff.mk
-include tools/peers.mk
-include tools/mutation.mk
-include tools/pn.mk

# ---------------------------------------------------------------------------

# make check runs in two rounds.  First the tests that are one process
# each, CHECK_JOBS at a time (output grouped per target; the round goes on
# past a failure, so that one run shows every failing target); then fuzz-smoke
# and clang-tidy, which run as many processes of their own as there are
# cores, alone, so that the fuzzers' timeouts do not meet a loaded machine.
# Fuzzing in check: CHECK_FUZZ_SECONDS per harness (make fuzz-smoke alone:
# FUZZ_SECONDS, 60).  make conformance's two runs are conformance-pn and
# conformance-p14 here, each a target of its own.
CHECK_JOBS ?= $(LINT_JOBS)
CHECK_FUZZ_SECONDS ?= 15
CHECK_PARALLEL := all test install-test runner-test reference-test lexdiff numdiff corpus-lint \
                  conformance-reference conformance-pn conformance-p14 difftest-smoke regexdiff-smoke gzipdiff-smoke \
                  fuzz-replay asan lint-cppcheck lint-scan golden-test peers-smoke
.PHONY: check-parallel
check: | $(DEPS_OK)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -Otarget check-parallel && \
	$(MAKE) --no-print-directory FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS) fuzz-smoke lint-tidy && \
	echo "make check: all passed in $$(( $$(date +%s) - start )) s"
check-parallel: $(CHECK_PARALLEL)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 755 $(BIN)/tfexpr $(DESTDIR)$(PREFIX)/bin/tfexpr
	install -m 644 impl/tfexpr.h $(DESTDIR)$(PREFIX)/include/tfexpr.h
	install -m 644 $(BUILD)/libtfexpr.a $(DESTDIR)$(LIBDIR)/libtfexpr.a
	install -m 755 $(BUILD)/libtfexpr.so $(DESTDIR)$(LIBDIR)/libtfexpr.so.$(VERSION)
	ln -sf libtfexpr.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtfexpr.so.$(SOMAJOR)
	ln -sf libtfexpr.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libtfexpr.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	  -e 's|@VERSION@|$(VERSION)|g' impl/tfexpr.pc.in \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/tfexpr.pc

# Installs into a scratch DESTDIR and builds a program against the result
# through its pkg-config file.
install-test: all
	$(Q)rm -rf $(BUILD)/install-test
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(abspath $(BUILD))/install-test PREFIX=/usr >/dev/null
	$(Q)printf '#include <tfexpr.h>\n#include <stdio.h>\nint main(void) { puts(tfx_version()); return 0; }\n' \
	  > $(BUILD)/install-test/use.c
	$(Q)PKG_CONFIG_SYSROOT_DIR=$(abspath $(BUILD))/install-test \
	  PKG_CONFIG_PATH=$(abspath $(BUILD))/install-test/usr/lib/pkgconfig \
	  $(CC) -o $(BUILD)/install-test/use $(BUILD)/install-test/use.c \
	  $$(PKG_CONFIG_SYSROOT_DIR=$(abspath $(BUILD))/install-test \
	     PKG_CONFIG_PATH=$(abspath $(BUILD))/install-test/usr/lib/pkgconfig \
	     pkg-config --cflags --libs --static tfexpr)
	$(Q)test "$$(LD_LIBRARY_PATH=$(abspath $(BUILD))/install-test/usr/lib $(BUILD)/install-test/use)" = "$(VERSION)"
	$(Q)test -x $(BUILD)/install-test/usr/bin/tfexpr
	@echo "install-test: the installed library, header, pkg-config file and tfexpr work"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tfexpr $(DESTDIR)$(PREFIX)/include/tfexpr.h \
	  $(DESTDIR)$(LIBDIR)/libtfexpr.a $(DESTDIR)$(LIBDIR)/libtfexpr.so \
	  $(DESTDIR)$(LIBDIR)/libtfexpr.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libtfexpr.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/tfexpr.pc

clean:
	rm -rf build bin
