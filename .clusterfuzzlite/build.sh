#!/bin/bash -eu
# SPDX-License-Identifier: MPL-2.0
# ClusterFuzzLite (and, later, OSS-Fuzz) build script.  Everything is in the
# project's own makefile (fuzz/fuzz.mk, target oss-fuzz): it compiles the
# library and the harnesses with $CC $CFLAGS, links them with $CXX $CXXFLAGS
# $LIB_FUZZING_ENGINE, and puts the fuzzers, their .options files, the
# dictionary and the seed corpora (<harness>_seed_corpus.zip) into $OUT.
cd "$SRC/tfexpr"
make oss-fuzz OUT="$OUT" PYTHON=python3 BUILD=build/oss-fuzz
