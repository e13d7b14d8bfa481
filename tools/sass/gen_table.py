"""Learn aster's SASS instruction table from nvdisasm's output (CuAssembler's idea: solve for
the bits each operand field controls; our own code).

usage: gen_table.py OUT.json SASS_FILE...   (files of `nvdisasm -hex X.cubin`)
Also writes control_stats.json beside OUT: per opcode family, how many corpus
instructions ptxas gave a write / read scoreboard barrier.

For each key (opcode with modifiers + operand kinds, aster/sass/syntax.py), the
corpus gives instructions that differ in their field values.  For each field
(register index, immediate, constant-bank offset, branch offset, guard) we find
the shift s at which its value sits: the bits (word >> s) agree with the value's
low bits in every sample, over at least as many bits as the largest value needs.
Where several shifts fit (a field that never varies), a prior learned from the
keys where the field is identified decides: same opcode family and slot first,
then same slot.  Floating-point literals take the conversion (f32, the high half
of f64, f16) under which a shift fits.  What no field explains is the key's base
word; samples whose base differs are counted (`bad`) and left to the residue
that raise keeps (none in the committed corpus: tests/py/sass/test_table.py).
Control bits (105-127, aster/sass/control.py) are not learned here.
Needs: nvdisasm text (the corpus).  Guarantees: OUT.json = {key: {base, fields:
[[class, shift, width, conv]], n, bad, reuse: {operand: bit}}}, deterministic.
"""
import collections
import json
import re
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from standalone import sass  # noqa: E402  (aster.sass without the compiled package)

control, nvdisasm_text, syntax = sass.control, sass.nvdisasm_text, sass.syntax
CAPS, convert = sass.table.CAPS, sass.table.convert

LOW = control.LOW_MASK


STATS = collections.defaultdict(lambda: [0, 0, 0])
WORDS = collections.Counter()  # (word, nvdisasm's key)
LATENCY = collections.defaultdict(collections.Counter)  # family -> {cycles ptxas left before a reader: count}


def _dst_src(text):
    """Registers of the first operand (written, for ALU instructions) and of the others."""
    t = text.split(None, 2 if text.startswith('@') else 1)
    ops = syntax.split_operands(t[-1]) if len(t) > (2 if text.startswith('@') else 1) else []
    regs = lambda s: set(re.findall(r'(?<![\w.])(?:R|UR|P|UP)\d+', s))
    return (regs(ops[0]) if ops else set()), set().union(*[regs(o) for o in ops[1:]]) if len(ops) > 1 else set()


def record_latencies(insts):
    """For each fixed-latency instruction (no write barrier), the cycles ptxas let pass
    (sum of stalls) before the first later instruction that reads its result."""
    for i, (off, txt, word) in enumerate(insts):
        c = control.unpack(word)
        if c.wrbar != 7:
            continue
        dst, _ = _dst_src(txt)
        if not dst:
            continue
        cyc = c.stall
        for off2, txt2, word2 in insts[i + 1:i + 12]:
            _, src = _dst_src(txt2)
            if src & dst:
                fam = txt.split()[1 if txt.startswith('@') else 0].split('.')[0]
                LATENCY[fam][min(cyc, 31)] += 1
                break
            if txt2.split()[-1] in ('EXIT',) or 'BRA' in txt2:
                break
            cyc += control.unpack(word2).stall  # opcode family -> [n, with wrbar, with rdbar]


def read_corpus(files):
    samples = collections.defaultdict(list)
    WORDS.clear()
    reuse = collections.defaultdict(collections.Counter)
    for f in files:
        for sec in nvdisasm_text.parse(open(f).read()).values():
            record_latencies(sec['insts'])
            for off, txt, word in sec['insts']:
                inst = syntax.tokenize(txt, off, sec['labels'])
                WORDS[(word, inst.key)] += 1
                samples[inst.key].append((inst.values(), [c for c, _ in inst.fields], word & LOW))
                c = control.unpack(word)
                st = STATS[inst.opcode.split('.')[0]]
                st[0] += 1
                st[1] += c.wrbar != 7
                st[2] += c.rdbar != 7
                r = c.reuse
                for op in inst.reuse:
                    reuse[inst.key][(op, r)] += 1
    return samples, reuse


def shift_candidates(vals, words, cap):
    """{shift: agreeing width} for shifts where every sample's value fits.

    Negative values (signed immediates, branch offsets) are two's complement:
    they need their sign bit inside the field, and agree with the word as far as
    the field's sign extension reaches."""
    need = max(v.bit_length() if v >= 0 else (~v).bit_length() + 1 for v in vals)
    out = {}
    for s in range(0, 105):
        lim = min(cap, 105 - s)
        if lim < need:
            break
        m = (1 << lim) - 1
        w = lim
        for v, wd in zip(vals, words):
            d = ((wd >> s) ^ v) & m
            if d:
                w = min(w, (d & -d).bit_length() - 1)
                if w < need:
                    break
        if w >= need:
            out[s] = w
    return out, need


def split_bits(cls, best, words, taken, hint=None):
    """A field in pieces: map each value bit that varies to the word bit that copies it
    (increasing word bits, so sign extensions map in order).  Bits that never vary
    in this key's samples take the hint's word bit (the layout of the same class in
    the key where it is most complete) when the samples agree with it."""
    _, conv, raw = best
    vals = [convert(conv, x) for x in raw]
    cap = CAPS.get(cls, CAPS[conv])
    pairs, last = [], -1
    if hint:
        for k, b in hint:
            if not taken >> b & 1 and all((w >> b & 1) == (v >> k & 1) for w, v in zip(words, vals)):
                pairs.append([k, b])
                taken |= 1 << b
        if len(pairs) == len(hint):
            return pairs, taken
        for k, b in pairs:
            taken &= ~(1 << b)
        pairs = []
    for k in range(cap):
        col = [v >> k & 1 for v in vals]
        if len(set(col)) < 2:
            continue
        for b in range(last + 1, 105):
            if not taken >> b & 1 and all((w >> b & 1) == c for w, c in zip(words, col)):
                pairs.append([k, b])
                taken |= 1 << b
                last = b
                break
        else:
            break
    return pairs, taken


def family(key):
    return key.split(' ')[0].split('.')[0]


def learn(samples, hints=None):
    """Two passes: identified fields give the priors, then every key is solved."""
    table, prior_fam, prior_slot = {}, collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    solved = {}
    for key, ss in samples.items():
        classes = ss[0][1]
        words = [w for _, _, w in ss]
        fields = []
        for j, cls in enumerate(classes):
            raw = [v[j] for v, _, _ in ss]
            best = None
            for conv in sass.table.CONVS.get(cls, ('int',)):
                try:
                    vals = [convert(conv, x) for x in raw]
                except (OverflowError, ValueError):
                    continue
                cands, need = shift_candidates(vals, words, CAPS.get(cls, CAPS[conv]))
                # the conversion that pins the field down best (fewest shifts) wins
                if cands and (best is None or len(cands) < len(best[1])):
                    best = (conv, cands, need)
            if best is None:  # no contiguous placement: solve bit by bit later
                conv0 = sass.table.CONVS.get(cls, ('int',))[0]
                fields.append((cls, -1, ('split', conv0, raw)))
                continue
            slot = sum(1 for c in classes[:j] if c == cls)
            fields.append((cls, slot, best))
            if best and len(best[1]) == 1 and best[2] > 0:
                s = next(iter(best[1]))
                prior_fam[(family(key), cls, slot)][s] += 1
                prior_slot[(cls, slot)][s] += 1
        solved[key] = fields
    for key, fields in solved.items():
        ss = samples[key]
        words = [w for _, _, w in ss]
        taken = 0
        out = []
        order = sorted(range(len(fields)), key=lambda j: len(fields[j][2][1]) if fields[j][2] and fields[j][2][0] != 'split' else 999)
        chosen = {}
        for j in order:
            cls, slot, best = fields[j]
            if not best or best[0] == 'split':
                chosen[j] = None
                continue
            conv, cands, need = best
            free = {s: w for s, w in cands.items() if not (((1 << max(need, 1)) - 1) << s) & taken}
            pick = None
            for pr in (prior_fam.get((family(key), cls, slot)), prior_slot.get((cls, slot))):
                if pr:
                    for s, _ in pr.most_common():
                        if s in free:
                            pick = s
                            break
                if pick is not None:
                    break
            if pick is None and free:
                pick = max(free, key=lambda s: (free[s], -s))
            if pick is None:
                chosen[j] = None
                continue
            w = free[pick]
            chosen[j] = (cls, pick, w, conv)
            taken |= ((1 << max(need, 1)) - 1) << pick
        # widths: stop at the next chosen field
        starts = sorted(c[1] for c in chosen.values() if c)
        for j in range(len(fields)):
            c = chosen[j]
            if c is None:
                if fields[j][2] and fields[j][2][0] == 'split':
                    pairs, taken = split_bits(fields[j][0], fields[j][2], words, taken, (hints or {}).get(fields[j][0]))
                    out.append([fields[j][0], 'split', 0, fields[j][2][1], pairs])
                else:
                    out.append([fields[j][0], None, 0, 'int'])
                continue
            cls, s, w, conv = c
            nxt = [t for t in starts if t > s]
            if nxt:
                w = max(min(w, nxt[0] - s), fields[j][2][2])
            out.append([cls, s, w, conv])
        fmask = 0
        for cls, s, w, conv, *pairs in out:
            if s == 'split':
                for _, b in pairs[0]:
                    fmask |= 1 << b
            elif s is not None:
                fmask |= ((1 << w) - 1) << s
        bases = collections.Counter(w & ~fmask & LOW for w in words)
        base, nb = bases.most_common(1)[0]
        table[key] = dict(base=hex(base), fields=out, n=len(ss), bad=len(ss) - nb)
    return table


def main():
    out, files = sys.argv[1], sys.argv[2:]
    samples, reuse = read_corpus(files)
    first = learn(samples)
    hints = {}   # per class, the most complete split layout (branch offsets)
    for row in first.values():
        for f in row['fields']:
            if f[1] == 'split' and len(f[4]) > len(hints.get(f[0], [])):
                hints[f[0]] = f[4]
    table = learn(samples, hints)
    # Where several rows fit the same bits, the row nvdisasm printed is preferred
    # over the others ('over': keys this row is tried before; decode follows it),
    # so decoded text reads like nvdisasm's.
    sass.table._TABLE, sass.table._INDEX = table, None
    prefer = collections.Counter()
    for (word, true), cnt in WORDS.items():
        for k, *_ in sass.table.candidates(word):
            if k != true:
                prefer[(true, k)] += cnt
    for (a, b), cnt in prefer.items():
        if cnt > prefer.get((b, a), 0):
            table[a].setdefault('over', []).append(b)
    for row in table.values():
        if 'over' in row:
            row['over'].sort()
    sass.table._INDEX = None
    for key, r in reuse.items():
        table[key]['reuse'] = {str(op): bit for (op, bit), _ in sorted(r.items())}
    json.dump(dict(sorted(table.items())), open(out, 'w'), indent=None, separators=(',', ':'))
    # ptxas's scoreboard use per opcode family (aster/sass/barriers.py reads it)
    with open(os.path.join(os.path.dirname(out), 'control_stats.json'), 'w') as f:
        json.dump({'families': dict(sorted(STATS.items())),
                   'read_after': {k: dict(sorted(v.items())) for k, v in sorted(LATENCY.items())}}, f, indent=0)
    n = sum(t['n'] for t in table.values())
    bad = sum(t['bad'] for t in table.values())
    unsolved = sum(1 for t in table.values() if any(f[1] is None for f in t['fields']))
    print(f'{len(table)} keys from {n} instructions; {bad} off their key\'s base; {unsolved} keys with an unplaced field')


if __name__ == '__main__':
    main()
