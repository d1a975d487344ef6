# SPDX-License-Identifier: MPL-2.0
# tools/pn.mk — the PN reference: the Go reference adapter built a second
# time (build tag "pn") against the HCL and cty versions that current
# Terraform pins, from upstream sources outside this repository (PN_SRC,
# prepared by tools/pn-fetch; see "The PN reference" in
# conformance/README.md).  Included by the top Makefile.  Nothing here
# runs unless asked for: `make check` neither needs PN_SRC nor builds it
# (its conformance-pn runs the PN cases against a PN reference already
# built, see the top Makefile).
#
#   make reference-pn PN_SRC=DIR              bin/go-hcl-adapter-pn
#   make reference-test-pn PN_SRC=DIR         go vet and go test, tag pn
#   make conformance-reference-pn PN_SRC=DIR  the corpus, profile PN
#   make lexdiff-pn PN_SRC=DIR                lexer and parser against the PN HCL
#   make conformance-pn-reference             the same, with the adapter as built

# cty 1.18 needs Go 1.23 or newer (iter, maps); Debian 12 has it in
# bookworm-backports (golang-1.23-go).  PN_GO: that toolchain's go.
PN_GO ?= $(or $(lastword $(sort $(wildcard /usr/lib/go-1.2[3-9]/bin/go))),go)
PN_GOPATH = $(abspath $(BUILD))/pn-gopath
PN_GO_ENV = GOPATH=$(PN_GOPATH):/usr/share/gocode GO111MODULE=off GOFLAGS=-tags=pn \
            GOTOOLCHAIN=local GOCACHE=$(abspath $(BUILD))/go-cache-pn CGO_ENABLED=0

.PHONY: reference-pn reference-test-pn conformance-reference-pn conformance-pn-reference pn-gopath

pn-gopath:
	@test -n "$(PN_SRC)" || { echo "PN_SRC=DIR is needed: the sources tools/pn-fetch prepares (conformance/README.md, 'The PN reference')" >&2; exit 2; }
	@mkdir -p $(PN_GOPATH) $(BUILD)/go-cache-pn
	tools/pn-gopath $(PN_SRC) $(PN_GOPATH)

reference-pn: pn-gopath | $(DEPS_OK)
	@mkdir -p $(BIN)
	cd conformance/adapters/go-hcl && $(PN_GO_ENV) $(PN_GO) build -o $(abspath $(BIN))/go-hcl-adapter-pn .

reference-test-pn: pn-gopath | $(DEPS_OK)
	cd conformance/adapters/go-hcl && $(PN_GO_ENV) $(PN_GO) vet . && $(PN_GO_ENV) $(PN_GO) test .

# Known failures of the PN reference, once recorded, in
# conformance/expectations/go-hcl-pn.json.
PN_EXPECTATIONS = $(wildcard conformance/expectations/go-hcl-pn.json)
conformance-reference-pn: reference-pn
	$(MAKE) --no-print-directory conformance-pn-reference

# The PN cases against a PN reference already built (make conformance-pn
# runs this when $(BIN)/go-hcl-adapter-pn exists).
conformance-pn-reference: $(BIN)/tfexpr-conformance
	$(BIN)/tfexpr-conformance --adapter '$(BIN)/go-hcl-adapter-pn' --profile PN \
	  --fail-on-unsupported --timeout 60 $(if $(PN_EXPECTATIONS),--expectations $(PN_EXPECTATIONS))

# The lexer and parser of profile PN against the PN HCL's (tools/lexdiff
# --profile PN): tools/go-lexdump built with the PN sources.
.PHONY: lexdiff-pn
$(BUILD)/go-lexdump-pn: $(wildcard tools/go-lexdump/*.go) pn-gopath | $(DEPS_OK)
	cd tools/go-lexdump && $(PN_GO_ENV) $(PN_GO) build -o $(abspath $@) .

lexdiff-pn: $(BUILD)/lexdump $(BUILD)/go-lexdump-pn
	$(PYTHON) tools/lexdiff --profile PN --what tokens --n $(LEXDIFF_N) $(BUILD)/lexdump $(BUILD)/go-lexdump-pn
	$(PYTHON) tools/lexdiff --profile PN --what parse --n $(LEXDIFF_N) $(BUILD)/lexdump $(BUILD)/go-lexdump-pn
