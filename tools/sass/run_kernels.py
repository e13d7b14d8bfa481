"""Run corpus kernels (cubin files) on an NVIDIA GPU through CuPy and compare with NumPy.

usage: run_kernels.py CUBIN_DIR OUT_JSON [EDITS_JSON]
Each CUBIN_DIR/<name>.cubin holds kernel <name> of tools/sass/corpus_kernels.py;
a file <name>__<edit>.cubin is an edited kernel whose reference is the edit's
NumPy expression in EDITS_JSON ({file stem: python expression of the original
reference's result `r` and inputs `x`, `y`}).  Writes {stem: {ok, err, msg}}.
Needs: CuPy, a CUDA device.  Guarantees: one kernel's fault is recorded, not raised;
after a sticky CUDA error the process exits 3 and a rerun resumes (run_all.sh).
"""
import json
import os
import sys
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_kernels as ck  # noqa: E402


def run_one(cp, path, k, edit=None):
    ins = ck.inputs(k)
    args_np = [a for a in ins if a is not None]
    r = k['ref'](*args_np)
    if edit:
        x = args_np[0]
        y = args_np[1] if len(args_np) > 1 else None
        r = eval(edit, {'np': np, 'r': r, 'x': x, 'y': y})
    r = np.asarray(r)
    init = ck.out_init(k)
    dev, outs = [], []
    it = iter(ins)
    for t, role in k['args']:
        if role == 'n':
            dev.append(np.int32(k['n']))
            continue
        a = next(it)
        if role == 'in':
            dev.append(cp.asarray(a))
        else:
            o = cp.asarray(init if init is not None else np.zeros(r.shape, ck.NP_TYPES[t]))
            dev.append(o)
            outs.append(o)
    mod = cp.RawModule(path=path)
    fn = mod.get_function(k['name'])
    fn((k['grid'],), (k['block'],), tuple(dev), shared_mem=k['gen'].get('smem', 0))
    cp.cuda.runtime.deviceSynchronize()
    got = cp.asnumpy(outs[-1])
    if k['tol'] == 0:
        ok = bool(np.array_equal(got, r.astype(got.dtype)))
        err = float(np.abs(got.astype(np.float64) - r.astype(np.float64)).max())
    else:
        ok = bool(np.allclose(got.astype(np.float64), r.astype(np.float64), rtol=k['tol'], atol=k['tol']))
        err = float(np.abs(got.astype(np.float64) - r.astype(np.float64)).max())
    return dict(ok=ok, err=err)


def main():
    import cupy as cp
    d, out = sys.argv[1], sys.argv[2]
    edits = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else {}
    by_name = {k['name']: k for k in ck.KERNELS}
    # Resumable: a run killed by a sticky CUDA error or a hang restarts here and
    # records the kernel it was running as failed.
    res = json.load(open(out)) if os.path.exists(out) else {}
    cur = out + '.current'
    if os.path.exists(cur):
        stem = open(cur).read().strip()
        if stem and stem not in res:
            res[stem] = dict(ok=False, msg='crashed or hung the process')
    for f in sorted(os.listdir(d)):
        if not f.endswith('.cubin'):
            continue
        stem = f[:-6]
        name = stem.split('__')[0]
        if stem in res or name not in by_name or by_name[name]['ref'] is None:
            continue
        open(cur, 'w').write(stem)
        try:
            res[stem] = run_one(cp, os.path.join(d, f), by_name[name], edits.get(stem))
        except Exception as e:  # recorded per kernel
            res[stem] = dict(ok=False, msg=f'{type(e).__name__}: {e}'[:300])
        json.dump(res, open(out, 'w'), indent=0, sort_keys=True)
        try:
            cp.cuda.runtime.deviceSynchronize()
        except Exception:
            os.remove(cur)
            sys.exit(3)   # sticky error: the context is lost, restart the process
    if os.path.exists(cur):
        os.remove(cur)
    ok = sum(v['ok'] for v in res.values())
    print(f'{d}: {ok}/{len(res)} NumPy-correct; failing: {[k for k, v in res.items() if not v["ok"]][:40]}')


if __name__ == '__main__':
    main()
