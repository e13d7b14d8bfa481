# aster: the two commands of the README.
#   make demo   set up everything and run the demo
#   make test   set up everything and run all tests (lit + pytest)
# Other targets: deps, build, lit, pytest, bench, install, clean.

SHELL := /bin/bash
PYTHON ?= python3
BUILD ?= build
JOBS ?= $(shell nproc)
LLVM_PKGS := llvm-22-dev libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev clang-22 llvm-22-tools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PYTHONPATH := $(CURDIR)/$(BUILD)/python_packages$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: deps build test lit pytest emulator-checks demo bench install clean

deps:
	@missing=""; for p in $(LLVM_PKGS) ninja-build; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	$(PYTHON) -m pip install -q -r requirements-dev.txt

build: deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$$(command -v $(PYTHON)) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

lit:
	lit -sv tests/lit

pytest:
	$(PYTHON) -m pytest -q tests/py

# Emulator checks in C++: bad input/traps/LDS bounds/fuzzing, every table
# instruction has semantics and runs. (The HIP oracle corpus, MFMA layouts,
# number formats and strict-mode catches are pytest: tests/py/test_emu_*.py.)
emulator-checks:
	cmake --build $(BUILD) --target check-emulator check-emulator-isa check-emulator-sweep

test: build
	$(MAKE) --no-print-directory lit
	$(MAKE) --no-print-directory emulator-checks
	$(MAKE) --no-print-directory pytest

# The examples run on the emulator with the timing model; mfma_10 also draws
# its timeline (docs/mfma_10_timeline.png, shown in the README) and writes a
# Perfetto trace (build/mfma_10.json: open it in ui.perfetto.dev).
demo: build
	$(PYTHON) examples/add_10.py --run
	$(PYTHON) examples/mfma_10.py --run --timeline docs/mfma_10_timeline.png --perfetto $(BUILD)/mfma_10.json
	$(PYTHON) examples/vector_add.py --run

bench: build
	for b in bench/bench_*.py; do $(PYTHON) $$b || exit 1; done

install: deps
	$(PYTHON) -m pip install .

clean:
	rm -rf $(BUILD)
