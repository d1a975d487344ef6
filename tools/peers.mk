# SPDX-License-Identifier: MPL-2.0
# tools/peers.mk — `make peers`: the conformance suite against other
# implementations, and conformance/RESULTS.md (tools/peers; included by the
# top Makefile).
#
#   make peers                        tfexpr, the reference adapter, hcl2json and
#                                     tree-sitter-hcl (npm packages installed by
#                                     npm ci when they are missing; without a
#                                     network they are not run and keep their
#                                     last rows)
#   make peers C_HCL2_DIR=/path       the same and c-hcl2, built from a checkout
#                                     of libhcl/c-hcl2 (at C_HCL2_COMMIT; another
#                                     commit is run with a warning)
#   make peers-smoke                  hcl2json on the syntax area (seconds); says
#                                     it skipped when Node or the packages are
#                                     missing, never fails for that
#
# C_HCL2_CFLAGS builds c-hcl2 and its adapter differently, e.g.
# C_HCL2_CFLAGS='-O1 -g -fsanitize=address,undefined' (its crashes are then
# recorded as crashed cases; the run goes on).

NODE_ADAPTERS_DIR := conformance/adapters/node
C_HCL2_DIR    ?=
C_HCL2_COMMIT := 8cc39055721bca504d375e38433738ba115828fc
C_HCL2_CFLAGS ?= -O2 -g
C_HCL2_SRC_NAMES := value.c lexer.c parser.c eval.c body.c convert.c json.c json_body.c
C_HCL2_ADAPTER := $(BUILD)/peers/c-hcl2-adapter
PEERS_ARGS ?=

.PHONY: peers peers-smoke peers-npm peers-c-hcl2

# npm ci only when a package is missing; its failure (no network) is a
# warning: those adapters are then not run.
peers-npm:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  echo "peers: node/npm not installed: the Node adapters are not run"; \
	elif [ -f $(NODE_ADAPTERS_DIR)/node_modules/@cdktf/hcl2json/package.json ] && \
	     [ -f $(NODE_ADAPTERS_DIR)/node_modules/@tree-sitter-grammars/tree-sitter-hcl/package.json ] && \
	     [ -f $(NODE_ADAPTERS_DIR)/node_modules/web-tree-sitter/package.json ]; then \
	  echo "peers: npm packages installed"; \
	else \
	  (cd $(NODE_ADAPTERS_DIR) && timeout 300 npm ci) || \
	    echo "peers: npm ci failed (no network?): the Node adapters are not run"; \
	fi

# The c-hcl2 adapter: c-hcl2's sources (the checkout's, untouched) with
# their own flags, the adapter with ours.
peers-c-hcl2:
	@if [ -n "$(C_HCL2_DIR)" ]; then \
	  commit=$$(git -C "$(C_HCL2_DIR)" rev-parse HEAD 2>/dev/null || echo unknown); \
	  if [ "$$commit" != "$(C_HCL2_COMMIT)" ]; then \
	    echo "peers: warning: $(C_HCL2_DIR) is at $$commit, not the pinned $(C_HCL2_COMMIT)"; fi; \
	  mkdir -p $(BUILD)/peers && \
	  echo "  CC      $(C_HCL2_ADAPTER) (c-hcl2 $$commit)" && \
	  $(CC) $(STD) $(OPT) $(WARN) $(DEP_CFLAGS) -I"$(C_HCL2_DIR)" -DC_HCL2_COMMIT="\"$$commit\"" \
	    $(filter-out -O% -g,$(C_HCL2_CFLAGS)) \
	    -c conformance/adapters/c-hcl2/adapter.c -o $(BUILD)/peers/c-hcl2-adapter.o && \
	  $(CC) $(C_HCL2_CFLAGS) -w -I"$(C_HCL2_DIR)" -o $(C_HCL2_ADAPTER) $(BUILD)/peers/c-hcl2-adapter.o \
	    $(addprefix "$(C_HCL2_DIR)"/,$(C_HCL2_SRC_NAMES)) "$(C_HCL2_DIR)"/builtin/*.c \
	    $(DEP_LIBS) -lm; \
	fi

peers: $(BIN)/tfexpr $(BIN)/tfexpr-conformance $(BIN)/go-hcl-adapter peers-npm peers-c-hcl2
	$(PYTHON) tools/peers --bin $(BIN) \
	  $(if $(C_HCL2_DIR),--c-hcl2-adapter $(C_HCL2_ADAPTER)) \
	  $(PEERS_ARGS)

peers-smoke: $(BIN)/tfexpr-conformance
	$(PYTHON) tools/peers --bin $(BIN) --smoke
