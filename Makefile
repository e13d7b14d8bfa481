# aster: the two commands of the README.
#   make demo   set up everything and run the demo
#   make test   set up everything and run all tests (lit, emulator checks, pytest,
#               fuzz, docs)
#   make test-long  the long property sweeps in full (CI runs it too)
# Other targets: deps, build, lit, pytest, fuzz, fuzz-long, docs, test-asan, bench,
# raise-aiter, install, clean.

SHELL := /bin/bash
PYTHON ?= python3
BUILD ?= build
JOBS ?= $(shell nproc)
LLVM_PKGS := llvm-22-dev libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev clang-22 llvm-22-tools libclang-rt-22-dev
AITER_WHEEL := amd-aiter==0.1.7.post2.dev18
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PYTHONPATH := $(CURDIR)/$(BUILD)/python_packages$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: deps build test test-long docs lit pytest pytest-long emulator-checks fuzz fuzz-long test-asan demo bench bench-fidelity install clean sass-corpus raise-aiter

deps:
	@missing=""; for p in $(LLVM_PKGS) ninja-build; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	$(PYTHON) -m pip install -q -r requirements-dev.txt
	@# AMD's code objects and interface code for the aiter tests (data only:
	@# no torch, nothing imported from it).
	$(PYTHON) -m pip install -q --no-deps $(AITER_WHEEL)

build: deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$$(command -v $(PYTHON)) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

lit:
	lit -sv tests/lit

# pytest in parallel (pytest-xdist): one worker per core, whole files per
# worker (tests/py/conftest.py says what the workers share). The property
# sweeps run a fixed sample; pytest-long runs them in full (ASTER_TEST_LONG=1).
PYTEST_WORKERS ?= auto
PYTEST_ARGS := -q -n $(PYTEST_WORKERS) --dist loadfile
LONG_SWEEPS := tests/py/test_regalloc_property.py tests/py/test_schedule_property.py \
  tests/py/test_waitcnt_property.py tests/py/test_lower_coverage.py
pytest:
	$(PYTHON) -m pytest $(PYTEST_ARGS) --ignore=tests/py/test_docs.py tests/py

# The instruction reference (generated from the table into build/docs/, not
# committed), then the docs' checks: relative links resolve, the python
# examples of README.md and docs/ run (tests/py/test_docs.py).
docs:
	$(PYTHON) tools/docs/instruction_reference.py --build $(BUILD)
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/py/test_docs.py

pytest-long:
	ASTER_TEST_LONG=1 $(PYTHON) -m pytest $(PYTEST_ARGS) $(LONG_SWEEPS)

# Emulator checks in C++: bad input/traps/LDS bounds/fuzzing, every table
# instruction has semantics and runs. (The HIP oracle corpus, MFMA layouts,
# number formats and strict-mode catches are pytest: tests/py/test_emu_*.py.)
emulator-checks:
	cmake --build $(BUILD) --target check-emulator check-emulator-isa check-emulator-sweep

# Every gfx942/gfx950 code object of the amd-aiter wheel raised (from its
# bytes and from LLVM's disassembly) and compiled back: N/N per way
# (tests/py/aiter_roundtrip.py; test_raise_aiter.py runs a fixed sample).
raise-aiter:
	$(PYTHON) tests/py/aiter_roundtrip.py --jobs $(JOBS)

# Fuzz targets (tests/fuzz/README.md): a short deterministic run of each
# target (seeds from the test corpus, fixed seed) in `make test`; fuzz-long
# runs each for FUZZ_SECONDS.
FUZZ_SECONDS ?= 600
fuzz:
	$(PYTHON) tests/fuzz/run.py --runs 400 --seed 1

fuzz-long:
	$(PYTHON) tests/fuzz/run.py --seconds $(FUZZ_SECONDS) --keep $(BUILD)/fuzz

test: build
	$(MAKE) --no-print-directory lit
	$(MAKE) --no-print-directory emulator-checks
	$(MAKE) --no-print-directory pytest
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory docs

test-long: build
	$(MAKE) --no-print-directory pytest-long

# The C++ core under AddressSanitizer + UndefinedBehaviorSanitizer (gcc): its
# own build in build-asan, then the emulator checks, lit and pytest against it
# (Python itself is not instrumented: the runtime is preloaded; leaks are not
# checked, CPython keeps its objects to the end; user poisoning is off: the
# uninstrumented lld libraries share LLVM's allocator templates with
# instrumented code, whose poisoning they do not know). ASAN_PYTEST picks the tests.
ASAN_BUILD ?= build-asan
ASAN_PYTEST ?= tests/py
# Deselected under ASan only: gcc 12's ASan runtime has no fork handler for its
# allocator lock, so a fork() while another thread allocates can hang the
# child inside ASan itself (the test passes in the normal build).
ASAN_DESELECT := --deselect tests/py/test_reliability.py::test_fork_while_another_thread_links
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1
SAN_ENV := ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
test-asan: deps
	cmake -G Ninja -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$$(command -v $(PYTHON)) \
	  -DCMAKE_CXX_FLAGS="$(SAN_FLAGS)" -DCMAKE_C_FLAGS="$(SAN_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
	  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
	  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	$(SAN_ENV) cmake --build $(ASAN_BUILD) --target check-emulator check-emulator-isa check-emulator-sweep
	$(SAN_ENV) ASTER_BUILD_DIR=$(CURDIR)/$(ASAN_BUILD) lit -sv tests/lit
	$(SAN_ENV) LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	  PYTHONPATH=$(CURDIR)/$(ASAN_BUILD)/python_packages $(PYTHON) -m pytest -q -p no:cacheprovider $(ASAN_DESELECT) $(ASAN_PYTEST)

# The examples run on the emulator with the timing model; mfma_10 also draws
# its timeline (build/mfma_10_timeline.png, the picture docs/emulator.md shows from
# docs/) and writes a Perfetto trace (build/mfma_10.json: open it in
# ui.perfetto.dev). The demo writes only under build/.
demo: build
	$(PYTHON) examples/add_10.py --run
	$(PYTHON) examples/mfma_10.py --run --timeline $(BUILD)/mfma_10_timeline.png --perfetto $(BUILD)/mfma_10.json
	$(PYTHON) examples/vector_add.py --run
	$(PYTHON) examples/gemm.py
	$(PYTHON) examples/schedule_demo.py --run

bench: build
	for b in bench/bench_*.py; do $(PYTHON) $$b || exit 1; done

# The timing model against AMD's measured kernel times (long: emulates every row).
bench-fidelity: build
	$(PYTHON) bench/bench_fidelity.py $(FIDELITY_ARGS)

install: deps
	$(PYTHON) -m pip install .

clean:
	rm -rf $(BUILD)

# aster.sass on the whole committed SASS corpus (the normal tests take a fixed sample).
sass-corpus:
	ASTER_SASS_FULL=1 $(PYTHON) -m pytest -q tests/py/sass
