#!/bin/bash
# On the GPU machine: run every folder of prepared cubins (prepare_run.py) through
# run_kernels.py, restarting after sticky CUDA errors or hangs; disassemble the
# edited kernels with nvdisasm (the oracle for what the edits wrote).
# usage: run_all.sh PREP_DIR OUT_DIR
here=$(dirname "$0"); prep=$1; out=$2
for d in orig aster mlir edit ctrl; do
  [ -d "$prep/$d" ] || continue
  extra=""; [ -f "$prep/$d/edits.json" ] && extra="$prep/$d/edits.json"
  for i in $(seq 40); do
    timeout 120 python3 "$here/run_kernels.py" "$prep/$d" "$out/run_$d.json" $extra && break
  done
done
for f in "$prep"/edit/*.cubin; do echo "== $f"; nvdisasm -hex "$f" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -v '\.byte\|\.word\|\.short\|\.dword'; done > "$out/edit_sass.txt" 2>&1
