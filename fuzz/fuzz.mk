# SPDX-License-Identifier: MPL-2.0
# fuzz/fuzz.mk — the fuzzing targets, included by the top Makefile.
#
#   make fuzz                 every harness with clang and libFuzzer + ASan + UBSan,
#                             in $(BUILD)/fuzz/
#   make fuzz-replay          every harness with fuzz/replay.c instead of libFuzzer
#                             (ASan + UBSan, $(CC): gcc or clang) over the seeds and
#                             fuzz/regressions/<harness>/; part of make check
#   make fuzz-smoke           each libFuzzer harness for FUZZ_SECONDS (default 60; the
#                             fast/deep pairs half that each: FUZZ_HALF_TIME below),
#                             FUZZ_JOBS (default 2) at a time; fails on any finding
#   make fuzz-speed           the exec/s of each harness, one at a time (fuzz/speed.sh)
#   make fuzz-seeds           the seed corpora, from the conformance cases
#   make oss-fuzz             OSS-Fuzz / ClusterFuzzLite build: $(CC) $(CFLAGS), linked
#                             with $(CXX) $(CXXFLAGS) $(LIB_FUZZING_ENGINE), into $(OUT)
#
# fuzz/README.md tells how to run one harness, reproduce, minimise and keep a
# finding as a regression input.  Every variable here starts with FUZZ_ but
# those OSS-Fuzz defines (OUT, LIB_FUZZING_ENGINE, CXX, CXXFLAGS, SRC).

.PHONY: fuzz fuzz-replay fuzz-smoke fuzz-speed fuzz-seeds oss-fuzz fuzz-clean

FUZZ_HARNESSES := fuzz_lex fuzz_parse_expr fuzz_parse_template fuzz_roundtrip fuzz_adapter fuzz_eval \
                  fuzz_collections fuzz_regex fuzz_deflate fuzz_rsakey fuzz_yaml fuzz_paths \
                  fuzz_parse_expr_fast fuzz_parse_template_fast fuzz_eval_fast fuzz_varfile
FUZZ_DIR       := $(BUILD)/fuzz
FUZZ_SECONDS   ?= 60
FUZZ_JOBS      ?= 2
# The compiler of the libFuzzer builds (make fuzz, fuzz-smoke).
FUZZ_CC        ?= clang

# Which seed directories of tools/corpus-to-seeds each harness starts from
# (fuzz/regressions/<harness>/ is always added).
FUZZ_SEEDS_fuzz_lex            := expression template
FUZZ_SEEDS_fuzz_parse_expr     := expression
FUZZ_SEEDS_fuzz_parse_template := template expression
FUZZ_SEEDS_fuzz_roundtrip      := roundtrip
FUZZ_SEEDS_fuzz_adapter        := adapter
FUZZ_SEEDS_fuzz_eval           := expression
FUZZ_SEEDS_fuzz_collections    := expression
# The fast harnesses read what their deep ones read.
FUZZ_SEEDS_fuzz_parse_expr_fast     := $(FUZZ_SEEDS_fuzz_parse_expr)
FUZZ_SEEDS_fuzz_parse_template_fast := $(FUZZ_SEEDS_fuzz_parse_template)
FUZZ_SEEDS_fuzz_eval_fast           := $(FUZZ_SEEDS_fuzz_eval)
# fuzz_regex reads pattern NUL subject NUL template: its seeds are the
# seed-* inputs of fuzz/regressions/fuzz_regex/.
FUZZ_SEEDS_fuzz_regex          :=
# fuzz_deflate reads a mode byte and data: its seeds are the seed-* inputs
# of fuzz/regressions/fuzz_deflate/.
FUZZ_SEEDS_fuzz_deflate        :=
# fuzz_rsakey reads a mode byte and a key (DER, openssh-key-v1 bytes or PEM
# text): its seeds are the seed-* inputs of fuzz/regressions/fuzz_rsakey/.
FUZZ_SEEDS_fuzz_rsakey         :=
# fuzz_yaml reads a YAML text: its seeds are the seed-* inputs of
# fuzz/regressions/fuzz_yaml/.
FUZZ_SEEDS_fuzz_yaml           :=
# fuzz_paths reads a selector byte, a flags byte and NUL-separated strings
# (path, pattern, link targets): its seeds are the seed-* inputs of
# fuzz/regressions/fuzz_paths/.
FUZZ_SEEDS_fuzz_paths          :=
# fuzz_varfile reads a form byte and a variable definitions file: its seeds
# are the seed-* inputs of fuzz/regressions/fuzz_varfile/.
FUZZ_SEEDS_fuzz_varfile        :=

# fuzz_varfile links the command line's variable-file reader and output
# writers (impl/cli/; not in the library) besides the library.
FUZZ_CLI_NAMES := cli/varfile cli/out cli/io cli/scan

FUZZ_CASES     := $(wildcard conformance/cases/*.json conformance/cases/*/*.json \
                             conformance/cases/*/*/*.json conformance/cases/*/*/*/*.json)
FUZZ_SEEDS     := $(FUZZ_DIR)/seeds
FUZZ_SEEDS_OK  := $(FUZZ_SEEDS)/.stamp
FUZZ_GEN       := $(FUZZ_DIR)/gen
FUZZ_CAT_H     := $(FUZZ_GEN)/categories.h
FUZZ_COMMON    := fuzz/fuzz_common.c
FUZZ_HEADERS   := fuzz/fuzz_common.h $(FUZZ_CAT_H) $(wildcard impl/*.h)

FUZZ_STD       := -std=c11 -D_POSIX_C_SOURCE=200809L
FUZZ_INC        = -Iimpl -Ifuzz -I$(FUZZ_GEN) $(DEP_CFLAGS)
FUZZ_WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
                  -Wold-style-definition -Wformat=2 -Wpointer-arith -Wcast-qual -Wvla \
                  -Wundef -Wwrite-strings -Wredundant-decls
FUZZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_RUN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
                  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# The library compiled again with each build's flags (never build/libtfexpr.a).
FUZZ_LIB_NAMES  = $(LIB_SRC:impl/%.c=%)

# ---------------------------------------------------------------------------
# Generated files: the category list, the seeds

$(FUZZ_CAT_H): conformance/categories.json fuzz/gen-categories
	@mkdir -p $(@D)
	$(Q)$(PYTHON) fuzz/gen-categories $< $@

fuzz-seeds: $(FUZZ_SEEDS_OK)
$(FUZZ_SEEDS_OK): tools/corpus-to-seeds $(FUZZ_CASES)
	@mkdir -p $(@D)
	$(Q)$(PYTHON) tools/corpus-to-seeds $(FUZZ_SEEDS)
	@touch $@

# ---------------------------------------------------------------------------
# make fuzz: clang, libFuzzer, ASan, UBSan

FUZZ_LF_CFLAGS  = $(FUZZ_STD) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(FUZZ_WARN) \
                  $(FUZZ_INC) $(CFLAGS)
FUZZ_LF_DIR    := $(FUZZ_DIR)/libfuzzer
FUZZ_LF_OBJ     = $(FUZZ_LIB_NAMES:%=$(FUZZ_LF_DIR)/impl/%.o) $(FUZZ_LF_DIR)/fuzz_common.o
FUZZ_LF_BINS   := $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/%)

fuzz: $(FUZZ_LF_BINS)

$(FUZZ_LF_DIR)/impl/%.o: impl/%.c $(wildcard impl/*.h) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (libFuzzer)"
	$(Q)$(FUZZ_CC) $(FUZZ_LF_CFLAGS) -c $< -o $@

$(FUZZ_LF_DIR)/%.o: fuzz/%.c $(FUZZ_HEADERS) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (libFuzzer)"
	$(Q)$(FUZZ_CC) $(FUZZ_LF_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz_%: $(FUZZ_LF_DIR)/fuzz_%.o $(FUZZ_LF_OBJ)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_LF_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(DEP_LIBS)

$(FUZZ_DIR)/fuzz_varfile: $(FUZZ_CLI_NAMES:%=$(FUZZ_LF_DIR)/impl/%.o)
$(FUZZ_CLI_NAMES:%=$(FUZZ_LF_DIR)/impl/%.o): impl/cli/cli.h

# The fast parse harnesses are built, library and all, without libFuzzer's
# comparison hooks (-fno-sanitize-coverage=trace-cmp): edge coverage, ASan
# and UBSan as every other harness.  The hooks were 41 % of their time
# while fuzzing, mostly on compares whose operands are not bytes of the
# input (token kinds, indices, sizes, pointers: nothing libFuzzer could
# write into an input); the byte compares of the lexer are what hcl.dict
# holds, and their deep twins (fuzz_parse_expr, fuzz_parse_template: the
# same entry points, seeds and dictionary) keep the hooks, and in
# fuzz-smoke hand their working corpora on (FUZZ_TWIN below).
# fuzz/README.md ("Speed") gives the figures.
FUZZ_NOCMP      := fuzz_parse_expr_fast fuzz_parse_template_fast
FUZZ_NC_CFLAGS  = $(FUZZ_LF_CFLAGS) -fno-sanitize-coverage=trace-cmp
FUZZ_NC_DIR    := $(FUZZ_DIR)/libfuzzer-nocmp
FUZZ_NC_OBJ     = $(FUZZ_LIB_NAMES:%=$(FUZZ_NC_DIR)/impl/%.o) $(FUZZ_NC_DIR)/fuzz_common.o

$(FUZZ_NC_DIR)/impl/%.o: impl/%.c $(wildcard impl/*.h) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (libFuzzer, no trace-cmp)"
	$(Q)$(FUZZ_CC) $(FUZZ_NC_CFLAGS) -c $< -o $@

$(FUZZ_NC_DIR)/%.o: fuzz/%.c $(FUZZ_HEADERS) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (libFuzzer, no trace-cmp)"
	$(Q)$(FUZZ_CC) $(FUZZ_NC_CFLAGS) -c $< -o $@

$(FUZZ_NOCMP:%=$(FUZZ_DIR)/%): $(FUZZ_DIR)/%: $(FUZZ_NC_DIR)/%.o $(FUZZ_NC_OBJ)
	@echo "  LD      $@ (no trace-cmp)"
	$(Q)$(FUZZ_CC) $(FUZZ_NC_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(DEP_LIBS)

# Objects are kept, not removed as intermediate files.
.SECONDARY: $(FUZZ_LF_OBJ) $(FUZZ_HARNESSES:%=$(FUZZ_LF_DIR)/%.o) $(FUZZ_CLI_NAMES:%=$(FUZZ_LF_DIR)/impl/%.o) \
            $(FUZZ_NC_OBJ) $(FUZZ_NOCMP:%=$(FUZZ_NC_DIR)/%.o)

# ---------------------------------------------------------------------------
# make fuzz-replay: the harnesses with replay.c, $(CC), ASan, UBSan

# FUZZ_JSON_CROSSCHECK: every JSON text checked by fuzz_json_scan is also
# parsed by jansson, and the two must agree (fuzz_common.c).
FUZZ_RP_CFLAGS  = $(ALL_CFLAGS) -O1 -g $(FUZZ_SAN) $(FUZZ_INC) -DFUZZ_JSON_CROSSCHECK
FUZZ_RP_DIR    := $(FUZZ_DIR)/replay
FUZZ_RP_OBJ     = $(FUZZ_LIB_NAMES:%=$(FUZZ_RP_DIR)/obj/impl/%.o) \
                  $(FUZZ_RP_DIR)/obj/fuzz_common.o $(FUZZ_RP_DIR)/obj/replay.o
FUZZ_RP_BINS   := $(FUZZ_HARNESSES:%=$(FUZZ_RP_DIR)/%)

$(FUZZ_RP_DIR)/obj/impl/%.o: impl/%.c $(wildcard impl/*.h) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (replay)"
	$(Q)$(CC) $(FUZZ_RP_CFLAGS) -c $< -o $@

$(FUZZ_RP_DIR)/obj/%.o: fuzz/%.c $(FUZZ_HEADERS) | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $< (replay)"
	$(Q)$(CC) $(FUZZ_RP_CFLAGS) -c $< -o $@

$(FUZZ_RP_DIR)/fuzz_%: $(FUZZ_RP_DIR)/obj/fuzz_%.o $(FUZZ_RP_OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(FUZZ_RP_CFLAGS) -o $@ $^ $(DEP_LIBS)

$(FUZZ_RP_DIR)/fuzz_varfile: $(FUZZ_CLI_NAMES:%=$(FUZZ_RP_DIR)/obj/impl/%.o)
$(FUZZ_CLI_NAMES:%=$(FUZZ_RP_DIR)/obj/impl/%.o): impl/cli/cli.h

.SECONDARY: $(FUZZ_RP_OBJ) $(FUZZ_HARNESSES:%=$(FUZZ_RP_DIR)/obj/%.o) $(FUZZ_CLI_NAMES:%=$(FUZZ_RP_DIR)/obj/impl/%.o)

# The seed directories and regression inputs of harness $(1).
FUZZ_INPUTS = $(addprefix $(FUZZ_SEEDS)/,$(FUZZ_SEEDS_$(1))) $(wildcard fuzz/regressions/$(1))

# Every harness runs even when one fails; a harness stops at its first
# failing input, whose name it prints.
fuzz-replay: $(FUZZ_RP_BINS) $(FUZZ_SEEDS_OK)
	$(Q)failed=; $(foreach h,$(FUZZ_HARNESSES),\
	  $(FUZZ_RUN_ENV) $(FUZZ_RP_DIR)/$(h) $(call FUZZ_INPUTS,$(h)) || failed="$$failed $(h)";) \
	if [ -n "$$failed" ]; then echo "fuzz-replay: FAILED:$$failed (the reports are above)"; exit 1; fi; \
	echo "fuzz-replay: every harness passed on its seeds and regression inputs"

# ---------------------------------------------------------------------------
# make fuzz-smoke: FUZZ_SECONDS of libFuzzer per harness, FUZZ_JOBS at a time
# (fuzz/smoke.sh runs one: fork mode, so that it goes on after a finding).
# Each harness's working corpus grows in $(FUZZ_DIR)/corpus/<harness> (kept
# between runs); findings land in $(FUZZ_DIR)/artifacts/<harness>/, its log
# in $(FUZZ_DIR)/logs/<harness>.log.

FUZZ_SMOKE_TARGETS := $(FUZZ_HARNESSES:%=fuzz-smoke-%)
.PHONY: $(FUZZ_SMOKE_TARGETS)

fuzz-smoke: $(FUZZ_LF_BINS) $(FUZZ_SEEDS_OK)
	@echo "fuzz-smoke: $(words $(FUZZ_HARNESSES)) harnesses, $(FUZZ_SECONDS) s each ($(words $(FUZZ_HALF_TIME)) of them half that), $(FUZZ_JOBS) at a time"
	$(Q)status=0; $(MAKE) --no-print-directory -k -j$(FUZZ_JOBS) FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  $(FUZZ_SMOKE_TARGETS) || status=$$?; \
	  echo "fuzz-smoke: the last status line of each harness (logs in $(FUZZ_DIR)/logs/):"; \
	  for h in $(FUZZ_HARNESSES); do \
	    printf '  %-20s %s\n' "$$h" "$$(grep -E '^#[0-9]+' $(FUZZ_DIR)/logs/$$h.log | tail -1)"; \
	    printf '  %-20s findings: %s\n' "" "$$(find $(FUZZ_DIR)/artifacts/$$h -type f | wc -l)"; \
	  done; \
	  if [ $$status -ne 0 ]; then \
	    echo "fuzz-smoke: FAILED: inputs in $(FUZZ_DIR)/artifacts/<harness>/ (each reported above)"; exit 1; \
	  fi; \
	  echo "fuzz-smoke: nothing found"

# The time each harness gets (the choice that keeps make check's
# fuzz-smoke within its time).  The three entry points with a fast and a
# deep harness (parse as an expression, parse as a template, evaluate) give
# each of the pair half of FUZZ_SECONDS (rounded up), so that the pair
# costs what the deep harness alone cost before the fast ones came: make
# check's fuzz-smoke stays at 12 x FUZZ_SECONDS harness-seconds, 2 at a
# time (about 3 minutes at check's 30 s).  Every other harness gets
# FUZZ_SECONDS.  What the halves buy (callgrind instructions per input,
# fuzz/README.md): the fast parse harnesses need 1/24 to 1/34 of what the
# deep ones needed before, and the deep parse harnesses themselves now
# need less than a quarter, so both of a parse pair run more inputs in
# their half than the deep one did in the whole; fuzz_eval's work is
# evaluation and did not get cheaper, so in its half it runs half the
# inputs it did, and fuzz_eval_fast (about half of fuzz_eval's work per
# input) runs about as many as fuzz_eval did in the whole.
FUZZ_HALF_TIME := fuzz_parse_expr fuzz_parse_expr_fast fuzz_parse_template \
                  fuzz_parse_template_fast fuzz_eval fuzz_eval_fast
FUZZ_TIME       = $(if $(filter $(1),$(FUZZ_HALF_TIME)),$$(( ($(FUZZ_SECONDS) + 1) / 2 )),$(FUZZ_SECONDS))

# A fast parse harness also reads the working corpus its deep twin kept
# from earlier runs: the inputs the twin's comparison hooks led to
# (FUZZ_NOCMP above).
FUZZ_TWIN_fuzz_parse_expr_fast     := fuzz_parse_expr
FUZZ_TWIN_fuzz_parse_template_fast := fuzz_parse_template
FUZZ_TWIN_CORPUS = $(if $(FUZZ_TWIN_$(1)),$(wildcard $(FUZZ_DIR)/corpus/$(FUZZ_TWIN_$(1))))

$(FUZZ_SMOKE_TARGETS): fuzz-smoke-%: $(FUZZ_DIR)/% $(FUZZ_SEEDS_OK) fuzz/smoke.sh fuzz/options.sh
	@echo "  FUZZ    $* ($(call FUZZ_TIME,$*) s, log $(FUZZ_DIR)/logs/$*.log)"
	$(Q)fuzz/smoke.sh $* $(call FUZZ_TIME,$*) $(FUZZ_DIR) $(call FUZZ_INPUTS,$*) $(call FUZZ_TWIN_CORPUS,$*)

# ---------------------------------------------------------------------------
# make fuzz-speed: the exec/s of each libFuzzer harness (fuzz/speed.sh), one
# at a time in one process each (one core): a pass over its seeds and
# regression inputs, then FUZZ_SPEED_SECONDS of fuzzing.  The figures of
# fuzz/README.md's table.  FUZZ_SPEED_BIN picks another directory of
# harness binaries (an older build, to compare); FUZZ_SPEED_HARNESSES a
# subset; FUZZ_SPEED_FLAGS (passed in the environment) more libFuzzer flags
# for the fuzzing run, e.g. -len_control=0.

FUZZ_SPEED_SECONDS   ?= 60
FUZZ_SPEED_BIN       ?= $(FUZZ_DIR)
FUZZ_SPEED_HARNESSES ?= $(FUZZ_HARNESSES)

fuzz-speed: $(if $(filter $(FUZZ_DIR),$(FUZZ_SPEED_BIN)),$(FUZZ_LF_BINS)) $(FUZZ_SEEDS_OK)
	$(Q)$(foreach h,$(FUZZ_SPEED_HARNESSES),\
	  fuzz/speed.sh $(h) $(FUZZ_SPEED_SECONDS) $(FUZZ_SPEED_BIN) $(call FUZZ_INPUTS,$(h));)

# ---------------------------------------------------------------------------
# make oss-fuzz: the build OSS-Fuzz and ClusterFuzzLite run
# (.clusterfuzzlite/build.sh).  Compiler, flags and engine come from their
# environment; the third-party libraries are linked statically, because the
# machines that run the fuzzers have none of them.  Always a clean build:
# each sanitizer comes with its own CFLAGS.

OUT                ?= $(FUZZ_DIR)/oss-fuzz-out
LIB_FUZZING_ENGINE ?= -fsanitize=fuzzer
FUZZ_OSS_DIR       := $(FUZZ_DIR)/oss
FUZZ_OSS_PKGS      := $(DEP_PKGS)
FUZZ_OSS_CFLAGS     = $(FUZZ_STD) $(CFLAGS) $(FUZZ_INC)
FUZZ_OSS_LIBS       = $(shell pkg-config --static --libs-only-L $(FUZZ_OSS_PKGS)) -Wl,-Bstatic \
                      $(shell pkg-config --static --libs-only-l $(FUZZ_OSS_PKGS)) -Wl,-Bdynamic -lm

oss-fuzz: $(FUZZ_CAT_H) $(FUZZ_SEEDS_OK)
	rm -rf $(FUZZ_OSS_DIR)
	mkdir -p $(FUZZ_OSS_DIR) $(OUT)
	set -e; for f in $(FUZZ_LIB_NAMES:%=impl/%.c) $(FUZZ_CLI_NAMES:%=impl/%.c) $(FUZZ_COMMON); do \
	  $(CC) $(FUZZ_OSS_CFLAGS) -c $$f -o $(FUZZ_OSS_DIR)/$$(basename $$f .c).o; \
	done
	set -e; for h in $(FUZZ_HARNESSES); do \
	  $(CC) $(FUZZ_OSS_CFLAGS) -c fuzz/$$h.c -o $(FUZZ_OSS_DIR)/$$h.main.o; \
	  $(CXX) $(CXXFLAGS) -o $(OUT)/$$h $(FUZZ_OSS_DIR)/$$h.main.o \
	    $(FUZZ_LIB_NAMES:%=$(FUZZ_OSS_DIR)/%.o) $(FUZZ_OSS_DIR)/fuzz_common.o \
	    $(FUZZ_CLI_NAMES:cli/%=$(FUZZ_OSS_DIR)/%.o) \
	    $(LIB_FUZZING_ENGINE) $(FUZZ_OSS_LIBS); \
	  cp fuzz/$$h.options $(OUT)/$$h.options; \
	done
	cp fuzz/*.dict $(OUT)/
	$(Q)set -e; $(foreach h,$(FUZZ_HARNESSES),\
	  rm -f $(OUT)/$(h)_seed_corpus.zip; \
	  find $(call FUZZ_INPUTS,$(h)) -type f ! -name '.*' | LC_ALL=C sort \
	    | zip -q -j -X $(OUT)/$(h)_seed_corpus.zip -@; \
	  echo "  ZIP     $(OUT)/$(h)_seed_corpus.zip";)

fuzz-clean:
	rm -rf $(FUZZ_DIR)
