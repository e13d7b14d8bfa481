"""The timing model's trace: `aster.launch(..., timing=True).trace`.

    r = aster.launch(code, "k", grid, block, args, timing=True, device="mi300x")
    r.cycles                       # shader-clock cycles of the whole launch
    r.microseconds                 # wall time on the device, launch included
    r.trace.summary()              # where the time went, stalls, unit use
    aster.timing.devices()         # the device profiles: mi300x, mi308x, ...
    r.trace.save_perfetto("k.json")  # open in ui.perfetto.dev / chrome://tracing
    r.trace.plot("k.png")          # a timeline picture (matplotlib)

The model (cc/emulator/timing, parameters with sources in Params.h) is
cycle-approximate: the device profile's CUs with 4 SIMDs, per-SIMD issue,
MFMA passes from the instruction table, LDS bank conflicts, an
L1/L2/MALL/HBM memory model, workgroup dispatch per XCD, instruction and
scalar caches, atomics at L2, the launch's fixed cost and the engine clock
under MFMA load (docs/timing-fidelity.md: how far to trust it). Every issued instruction is an event: issue cycle, completion
(`dur` cycles later), the stall before it and its reason.
"""
import functools
import json

import numpy as np

from . import _emu

__all__ = ["Trace", "EVENT_DTYPE", "devices", "default_device"]


def devices():
    """The device profiles, name -> dict of its numbers (target, cus, xcds,
    clock_mhz, mfma_clock_mhz, launch_us, caches, bandwidths, latencies);
    each number's source is in cc/emulator/timing/Params.h."""
    return dict(_emu.timing_devices())


def default_device(target):
    """The profile a launch of `target` code uses without device=: the
    target's flagship (gfx942: "mi300x", gfx950: "mi355x")."""
    return _emu.timing_default_device(target)

EVENT_DTYPE = np.dtype([("issue", "<u8"), ("dur", "<u4"), ("stall", "<u4"), ("inst", "<u4"),
                        ("wave", "<u4"), ("busy", "<u2"), ("reason", "u1"), ("unit", "u1"),
                        ("pad", "<u4")])
STALLS = tuple(_emu.TimingResult.stall_names)
WAIT_ON = tuple(_emu.TimingResult.wait_on_names)
UNITS = tuple(_emu.TimingResult.unit_names)
_COLORS = {"valu": "#4e79a7", "trans": "#76b7b2", "mfma": "#e15759", "salu": "#59a14f",
           "smem": "#8cd17d", "vmem": "#f28e2b", "lds": "#b07aa1", "branch": "#9c755f",
           "internal": "#bab0ac"}


class Trace:
    """Events and wave records of a timed launch (see the module doc)."""

    def __init__(self, result, kernel):
        self.kernel = kernel
        self.cycles = int(result.cycles)
        self.clock_mhz = float(result.clock_mhz)
        self.device = result.device
        self.microseconds = float(result.microseconds)
        self.launch_us = float(result.launch_us)
        self.effective_mhz = float(result.effective_mhz)
        self.mfma_utilization = float(result.mfma_utilization)
        self.drain_cycles = int(result.drain_cycles)
        self.icache_misses = int(result.icache_misses)
        self.scalar_misses = int(result.scalar_misses)
        self._result = result
        self._events = None
        self.truncated = bool(result.events_truncated)
        self._waves = None
        # text, unit_busy, unit_count, lds_cycles, mem_lines and occupancy
        # are read from `result` when first asked for (cached properties
        # below): a small timed launch does not pay for converting them.

    @functools.cached_property
    def text(self):
        """The code object's instructions as text, by instruction index."""
        return self._result.text

    @functools.cached_property
    def unit_busy(self):
        return dict(zip(UNITS, self._result.unit_busy))

    @functools.cached_property
    def unit_count(self):
        return dict(zip(UNITS, self._result.unit_count))

    @property
    def lds_cycles(self):
        return self._result.lds_cycles

    @property
    def lds_ideal_cycles(self):
        return self._result.lds_ideal_cycles

    @functools.cached_property
    def mem_lines(self):
        return dict(zip(("l1", "l2", "mall", "hbm", "atomic"), self._result.mem_lines))

    @functools.cached_property
    def occupancy(self):
        r = self._result
        return dict(groups_per_cu=r.groups_per_cu, waves_per_simd=r.waves_per_simd,
                    limit=r.occupancy_limit, cus_used=r.cus_used)

    @property
    def waves(self):
        """Per wave: cu, simd, group, wave (in its group), start and end cycle,
        instructions, stalls (cycles by reason), waited_for (its `waitcnt`
        stall cycles by what it waited for: a vector-memory result from
        l1 / l2 / mall / hbm, the deepest level one of the instruction's
        lines came from, or an lds / smem result)."""
        if self._waves is None:
            self._waves = [dict(cu=w[0], simd=w[1], group=w[2], wave=w[3], start=w[4],
                                end=w[5], instructions=w[6], stalls=dict(zip(STALLS, w[7])),
                                waited_for=dict(zip(WAIT_ON, w[8])))
                           for w in self._result.waves]
        return self._waves

    @property
    def events(self):
        """All recorded events as a NumPy structured array (EVENT_DTYPE)."""
        if self._events is None:
            self._events = np.frombuffer(self._result.events, EVENT_DTYPE)
        return self._events

    def __repr__(self):
        return (f"<aster.timing.Trace {self.kernel} on {self.device}: {self.cycles} cycles, "
                f"{self.microseconds:.2f} us, "
                f"{len(self.waves)} waves, {len(self.events)} events>")

    def mnemonic(self, inst):
        return self.text[inst].split()[0] if inst < len(self.text) else "?"

    def wave_events(self, wave):
        """The events of wave index `wave` (into self.waves), in issue order."""
        return self.events[self.events["wave"] == wave]

    def issues(self, mnemonic_prefix, wave=None):
        """Issue cycles of the instructions whose mnemonic starts with the prefix."""
        ev = self.events if wave is None else self.wave_events(wave)
        keep = np.array([self.mnemonic(i).startswith(mnemonic_prefix) for i in ev["inst"]],
                        bool) if len(ev) else np.zeros(0, bool)
        return ev["issue"][keep].astype(np.int64)

    def time(self):
        """Where the launch's wall time went (microseconds): `launch` (the
        fixed cost of a launch), `cycles_at_peak` (the cycles at the peak
        clock), `clock` (what the lower clock under MFMA load adds), and
        the critical-path cycles of the last wave to end split by what it
        waited for (`dispatch`, `fetch`, `waitcnt`, `barrier`, ...;
        `issue` is what it spent issuing), plus the end-of-kernel `drain`."""
        peak_us = self.cycles / self.clock_mhz
        total_us = self.microseconds
        out = dict(device=self.device, total=total_us, launch=self.launch_us,
                   cycles_at_peak=peak_us, clock=total_us - self.launch_us - peak_us,
                   effective_mhz=self.effective_mhz, mfma_utilization=self.mfma_utilization)
        if self.waves:
            last = max(self.waves, key=lambda w: w["end"])
            waited = {s: int(c) / self.clock_mhz for s, c in last["stalls"].items()
                      if s != "none" and c}
            busy = last["end"] - last["start"] - sum(int(c) for c in last["stalls"].values())
            out["last_wave"] = dict(start=last["start"] / self.clock_mhz,
                                    issue=max(busy, 0) / self.clock_mhz, **waited)
        out["drain"] = self.drain_cycles / self.clock_mhz
        return out

    def where(self):
        """Where the launch's wall time went, in microseconds that add up to
        `microseconds`: `launch` (the fixed cost of a launch), `dispatch`
        (the workgroup dispatchers and wave start-up before the last wave to
        end issued its first instruction), `issue` (that wave issuing),
        `wait` (what it stalled on: `l1` / `l2` / `mall` / `hbm` / `lds` /
        `smem` for s_waitcnt by what it waited for, `fetch` for instruction
        -cache misses, `dependency`, `matrix_core`, `unit`, `arbitration`,
        `barrier`, `nop`, `branch`), `drain` (stores still in flight after
        it ended) and `clock` (what the engine clock under MFMA load adds to
        all of them, which run at the peak clock). The last wave to end is
        the launch's critical path; the other waves' stalls are in
        summary()["stalls"]."""
        mhz = self.clock_mhz
        out = dict(launch=self.launch_us, dispatch=0.0, issue=0.0, wait={})
        if self.waves:
            last = max(self.waves, key=lambda w: w["end"])
            st = {k: int(c) for k, c in last["stalls"].items() if k != "none"}
            stalled = sum(st.values())
            out["dispatch"] = (last["start"] + st.pop("dispatch", 0)) / mhz
            out["issue"] = max(last["end"] - last["start"] - stalled, 0) / mhz
            waited = st.pop("waitcnt", 0)
            by = {k: int(c) for k, c in last["waited_for"].items() if c}
            other = waited - sum(by.values())     # not attributed (never expected)
            wait = {k: c / mhz for k, c in by.items()}
            if other:
                wait["waitcnt"] = other / mhz
            wait.update({k: c / mhz for k, c in st.items() if c})
            out["wait"] = wait
            end = last["end"]
        else:
            end = 0
        out["drain"] = (self.cycles - end) / mhz
        out["clock"] = self.microseconds - self.launch_us - self.cycles / mhz
        return out

    def summary(self):
        """Per-wave cycles, stall cycles by reason, unit utilization (busy cycles
        per available cycles of the CUs in use), LDS bank-conflict factor,
        memory lines per level (and atomic lines at L2), instruction- and
        scalar-cache misses, occupancy, `where` (where the wall time went,
        in microseconds: launch, dispatch, issue, waits by memory level and
        reason, drain, clock; see where()) and `time` (see time()), as a
        dict."""
        stalls = {s: 0 for s in STALLS if s != "none"}
        for w in self.waves:
            for s, c in w["stalls"].items():
                if s != "none":
                    stalls[s] += int(c)
        simd_cycles = max(self.cycles, 1) * 4 * max(self.occupancy["cus_used"], 1)
        cu_cycles = max(self.cycles, 1) * max(self.occupancy["cus_used"], 1)
        util = {u: self.unit_busy[u] / (cu_cycles if u in ("lds", "vmem") else simd_cycles)
                for u in ("valu", "trans", "mfma", "lds", "vmem")}
        return dict(
            kernel=self.kernel, device=self.device, cycles=self.cycles,
            microseconds=self.microseconds, where=self.where(), time=self.time(),
            icache_misses=self.icache_misses, scalar_misses=self.scalar_misses,
            waves=[dict(cu=w["cu"], simd=w["simd"], group=w["group"], wave=w["wave"],
                        cycles=w["end"] - w["start"], instructions=w["instructions"])
                   for w in self.waves],
            stalls=stalls, utilization=util, instructions=dict(self.unit_count),
            lds_conflict_factor=(self.lds_cycles / self.lds_ideal_cycles
                                 if self.lds_ideal_cycles else 1.0),
            memory_lines=dict(self.mem_lines), occupancy=dict(self.occupancy))

    def perfetto(self, cus=None):
        """The Chrome/Perfetto trace-event JSON object. A process per CU with
        tracks per SIMD (its VALU, transcendental unit and matrix core busy
        time, and the issue of its other instructions) and per wave (each
        instruction from issue while its unit is busy, the stall before it
        named by its reason, and until completion as an async slice when the
        result arrives later: memory, MFMA). Times are cycles shown as
        microseconds (1 us in the viewer = 1 cycle). Slices on one track never
        partially overlap. `cus`: only these CUs (large launches: e.g. [0])."""
        meta, ev = [], []
        simd_tracks = {"valu": (0, "VALU"), "trans": (1, "transcendental"),
                       "mfma": (2, "matrix core")}
        keep = None if cus is None else set(cus)
        cus = sorted({w["cu"] for w in self.waves} if keep is None else keep)
        for cu in cus:
            meta.append(dict(ph="M", name="process_name", pid=cu, args=dict(name=f"CU {cu}")))
            for simd in range(4):
                for off, label in list(simd_tracks.values()) + [(3, "issue")]:
                    meta.append(dict(ph="M", name="thread_name", pid=cu, tid=10 * simd + off,
                                     args=dict(name=f"SIMD {simd} {label}")))
        for i, w in enumerate(self.waves):
            if keep is not None and w["cu"] not in keep:
                continue
            meta.append(dict(ph="M", name="thread_name", pid=w["cu"], tid=1000 + i,
                             args=dict(name=f"wave {w['wave']} of group {w['group']} "
                                            f"(SIMD {w['simd']})")))
        events = self.events
        if keep is not None and len(events):
            cu_of = np.array([w["cu"] for w in self.waves])
            events = events[np.isin(cu_of[events["wave"]], list(keep))]
        order = np.lexsort((events["issue"], events["wave"])) if len(events) else []
        prev_wave, prev_end = None, 0
        for j, k in enumerate(order):
            e = events[k]
            wi, issue = int(e["wave"]), int(e["issue"])
            w = self.waves[wi]
            pid, tid = w["cu"], 1000 + wi
            if wi != prev_wave:
                prev_wave, prev_end = wi, 0
            nxt = (int(events[order[j + 1]]["issue"])
                   if j + 1 < len(order) and int(events[order[j + 1]]["wave"]) == wi else None)
            name, unit = self.mnemonic(int(e["inst"])), UNITS[e["unit"]]
            busy, done = max(int(e["busy"]), 1), issue + int(e["dur"])
            end = issue + busy if nxt is None else min(issue + busy, max(nxt, issue + 1))
            if e["stall"]:
                start = max(issue - int(e["stall"]), prev_end)
                if start < issue:
                    ev.append(dict(ph="X", name=f"stall: {STALLS[e['reason']]}", cat="stall",
                                   pid=pid, tid=tid, ts=start, dur=issue - start))
            args = dict(inst=self.text[int(e["inst"])], unit=unit, issue=issue, complete=done,
                        busy=int(e["busy"]), stall=int(e["stall"]),
                        stall_reason=STALLS[e["reason"]])
            ev.append(dict(ph="X", name=name, cat=unit, pid=pid, tid=tid, ts=issue,
                           dur=end - issue, args=args))
            prev_end = end
            if done > end:
                ev.append(dict(ph="b", name=name, cat="in flight", id=int(k), pid=pid, tid=tid,
                               ts=issue))
                ev.append(dict(ph="e", name=name, cat="in flight", id=int(k), pid=pid, tid=tid,
                               ts=done))
            off = simd_tracks.get(unit, (3, ""))[0]
            ev.append(dict(ph="X", name=name, cat=unit, pid=pid, tid=10 * w["simd"] + off,
                           ts=issue, dur=busy if off < 3 else 1))
        return dict(traceEvents=meta + ev, displayTimeUnit="ns",
                    otherData=dict(kernel=self.kernel, cycles=self.cycles,
                                   clock_mhz=self.clock_mhz, time_unit="cycles"))

    def save_perfetto(self, path, cus=None):
        """Writes perfetto(cus) to `path` (open it in ui.perfetto.dev)."""
        with open(path, "w") as f:
            json.dump(self.perfetto(cus), f)
        return path

    def plot(self, path, max_waves=32, title=None):
        """A PNG timeline: a row per wave (first `max_waves`), each instruction
        a bar from issue over the cycles its unit was busy (at least 1),
        colored by unit, and under it the stall before each issue (hatched
        grey)."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
        n = min(len(self.waves), max_waves)
        fig, ax = plt.subplots(figsize=(12, 1.2 + 0.45 * n))
        for wi in range(n):
            ev = self.wave_events(wi)
            w = self.waves[wi]
            for e in ev:
                unit = UNITS[e["unit"]]
                issue = int(e["issue"])
                if e["stall"]:
                    ax.barh(wi + 0.3, int(e["stall"]), left=issue - int(e["stall"]), height=0.18,
                            color="#dddddd", hatch="////", edgecolor="#999999", linewidth=0)
                ax.barh(wi - 0.1, max(int(e["busy"]), 1), left=issue, height=0.5,
                        color=_COLORS.get(unit, "#888"), edgecolor="black", linewidth=0.3)
            ax.text(w["end"], wi, f"  {w['end'] - w['start']} cyc", va="center", fontsize=7)
        ax.set_yticks(range(n))
        ax.set_yticklabels([f"CU{w['cu']} S{w['simd']} g{w['group']} w{w['wave']}"
                            for w in self.waves[:n]], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("cycle")
        ax.set_title(title or f"{self.kernel}: {self.cycles} cycles "
                              f"({self.cycles / self.clock_mhz:.3f} us at {self.clock_mhz:.0f} MHz)")
        used = sorted({UNITS[u] for u in np.unique(self.events["unit"])}) if len(self.events) else []
        handles = [Patch(color=_COLORS[u], label=u) for u in used]
        handles.append(Patch(facecolor="#dddddd", hatch="//", label="stall"))
        ax.legend(handles=handles, loc="upper right", fontsize=7, ncol=len(handles))
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return path
