#!/usr/bin/env python3
"""gradcli against PyTorch on the workloads of ``benchmarks/workloads/`` (issue 9).

    python benchmarks/run.py [--only NAME[,NAME]] [--runs N] [--json PATH] [--markdown PATH]
                             [--scaling] [--no-workloads] [--timeout S]

Two views of every workload, each run in a fresh process of its own:

* **whole process** -- ``gradcli run W --json`` against ``python -c "import torch;
  import torch.nn.functional as F; exec(W)"``: wall time from spawn to exit and
  the peak RSS of that one child (``os.wait4``);
* **engine** -- ``benchmarks/engine_probe.py``: set-up untimed (gradcli: import,
  parse and validate with ``lang.run.prepare``; PyTorch: ``import torch``,
  ``compile``), then only the execution is timed (``lang.run.run_prepared`` /
  ``exec``), with the peak RSS during execution and the cyclic GC's work.

gradcli and PyTorch runs are interleaved (the order alternates from one run to
the next), so load from other processes falls on both.  Reported: medians, the
median of the per-run ratios gradcli/PyTorch, peak RSS of both, each issue-9
target met or missed -- as tables (rich on a terminal, or Markdown) and as JSON.
Without PyTorch installed, gradcli is measured alone.

``--scaling``: a 0-d ``y = y * c`` chain + backward at 1k, 10k, 100k and 1M
nodes in the engine view: time, memory growth during execution, cyclic garbage,
and the growth factor from one size to the next (linear: ~10x).

Also measured: ``gradcli --help`` (whole process; must not import numpy) and the
tiny workload's whole process, i.e. start-up.

The benchmark processes get this environment less ``OPENBLAS_CORETYPE`` and
``OPENBLAS_L2_SIZE`` (set on some machines of this workplace for old OpenBLAS
builds; they slow a current numpy): both are unset together, in the benchmark
subprocesses only.  A gradcli process then pins numpy and OpenBLAS itself
(``gradcli.host``: AVX2 loops, Haswell kernels, one BLAS thread), so its
figures include what the pin costs; PyTorch runs the kernels it picks for the
machine.  The BLAS numpy then runs (threadpoolctl, if installed) is reported
with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORKLOAD_DIR = HERE / "workloads"
PROBE = HERE / "engine_probe.py"

#: unset together in every benchmark subprocess (see the module docstring)
BLAS_ENV_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
PRELUDE = "import torch\nimport torch.nn.functional as F\n"
SCALING_SIZES = (1_000, 10_000, 100_000, 1_000_000)
HELP_TARGET_S = 0.12
DEFAULT_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class Target:
    """One issue-9 target: ``metric`` of ``view`` must be <= ``limit``."""

    view: str  # "whole" | "engine" | "scaling" | "startup"
    metric: str  # "ratio" | "gradcli_s" | "rss_ratio" | ...
    limit: float
    label: str


@dataclass(frozen=True)
class Workload:
    """One expression file in ``workloads/`` and how it is measured.

    ``command``: the gradcli command and the arguments after the file (``("why", "w")`` runs
    ``gradcli why W w``); only ``run`` workloads have the engine view.  ``torch_file``: for another
    command, the PyTorch side that does the same work (``workloads/torch/NAME.py``), or None when
    PyTorch has no counterpart (then gradcli is measured alone).
    """

    name: str
    stresses: str
    targets: tuple[Target, ...] = ()
    command: tuple[str, ...] = ("run",)
    torch_file: Optional[str] = None

    @property
    def path(self) -> Path:
        return WORKLOAD_DIR / f"{FILE_OF.get(self.name, self.name)}.py"

    @property
    def torch_path(self) -> Optional[Path]:
        """The file PyTorch runs: the workload itself for ``run``, else ``torch_file`` (or None)."""
        if self.command[0] == "run":
            return self.path
        return WORKLOAD_DIR / self.torch_file if self.torch_file else None

    @property
    def views(self) -> tuple[str, ...]:
        return ("whole", "engine") if self.command[0] == "run" else ("whole",)


WORKLOADS: tuple[Workload, ...] = (
    Workload("tiny", "start-up (3 ops + backward)", (
        Target("whole", "ratio", 0.1, "whole process <= 0.1x"),
        Target("whole", "gradcli_s", 0.2, "whole process <= 0.2 s"),
    )),
    Workload("chain_100k", "per-op cost: 100,000 ops on shape (4,) in a for loop + backward", (
        Target("engine", "ratio", 0.7, "engine <= 0.7x"),
    )),
    Workload("chain_1m", "depth: 1,000,000-node 0-d chain + backward", (
        Target("engine", "ratio", 0.7, "engine <= 0.7x"),
        Target("engine", "gc_garbage_per_node", 0.001, "no cyclic garbage per node"),
    )),
    Workload("fanout_10k", "fan-out/fan-in: 10,000 branches of one leaf, summed", (
        Target("engine", "ratio", 0.8, "engine <= 0.8x"),
    )),
    Workload("mlp", "BLAS: 3-layer MLP, batch 512, width 1024, 5 SGD steps", (
        Target("engine", "ratio", 1.3, "engine <= 1.3x"),
        Target("engine", "ratio", 1.1, "engine <= 1.1x (issue 21)"),
        Target("whole", "rss_ratio", 0.5, "whole-process peak RSS <= 0.5x"),
    )),
    Workload("elementwise_10m", "bandwidth: 10M-element elementwise chain (forward)", (
        Target("engine", "ratio", 1.5, "engine <= 1.5x"),
        Target("whole", "rss_ratio", 1.0, "whole-process peak RSS <= 1.0x"),
    )),
    Workload("cross_entropy", "fused numerics: cross_entropy on 4096 x 1000 + backward", (
        Target("engine", "ratio", 1.5, "engine <= 1.5x (issues 9, 21)"),
    )),
    Workload("randn_4m", "RNG: manual_seed(0); randn(4_000_000) + backward", (
        Target("engine", "ratio", 2.0, "engine <= 2.0x"),
        Target("engine", "ratio", 1.5, "engine <= 1.5x (issue 21)"),
    )),
    Workload("train_adam", "training loop: MLP 64-128-10, CrossEntropyLoss, Adam, DataLoader(shuffle), 500 steps", (
        Target("engine", "ratio", 1.0, "engine <= 1.0x (issues 17, 21)"),
    )),
    # issue 21: workloads shaped like use
    Workload("mixed_chain_25k", "per-op cost, op mix: 25,000 x tanh(y * 1.01 + w) * 0.99 on (4,), shared leaf, backward", (
        Target("engine", "ratio", 1.0, "engine <= 1.0x (issue 21)"),
    )),
    Workload("running_total_10k", "fan-out into a running total: 10,000 x tanh(x * c + 0.5).sum(), backward", (
        Target("engine", "ratio", 1.0, "engine <= 1.0x (issue 21)"),
    )),
    Workload("no_grad_100k", "100,000 small ops under no_grad"),
    Workload("elementwise_bwd_10m", "bandwidth with backward: sigmoid(exp(a) * b).sum() of two 10M leaves", (
        Target("engine", "ratio", 1.5, "engine <= 1.5x (issue 21)"),
    )),
    Workload("check_50", "gradcli check of a 50-parameter function (100 reruns) vs torch.autograd.gradcheck",
             command=("check",), torch_file="torch/check_50.py"),
    Workload("graph_10k", "gradcli graph (tree) of a 10,000-node graph", command=("graph",)),
    Workload("why_10k", "gradcli why of a leaf cut off by detach() in a 10,000-node graph", command=("why", "w")),
)

#: files of a workload whose name differs from its file (several commands over one expression file)
FILE_OF = {"why_10k": "graph_10k"}

#: nodes of the 1M workload's graph (for the garbage-per-node target)
NODES = {"chain_1m": 1_000_000, "chain_100k": 100_001, "fanout_10k": 20_001, "mixed_chain_25k": 100_003,
         "running_total_10k": 50_001}

SCALING_SOURCE = (
    "# scaling: {n:,}-node 0-d chain + backward (generated by benchmarks/run.py)\n"
    "x = torch.tensor(1.0, requires_grad=True)\n"
    "y = x\n"
    "for i in range({n}):\n"
    "    y = y * 1.0000001\n"
    "y.backward()\n"
)


# ---------------------------------------------------------------------------------------------
# environment and commands
# ---------------------------------------------------------------------------------------------
#: ``--torch-threads``: PyTorch's intra-op threads in its benchmark processes (None: its default, one per core)
TORCH_THREADS: Optional[int] = None


def bench_env(tool: str = "gradcli") -> dict[str, str]:
    """This environment, less the OpenBLAS overrides and PYTHONDONTWRITEBYTECODE, with this checkout's src first on the path;
    for ``tool == "torch"`` with ``--torch-threads N``, ``OMP_NUM_THREADS=N`` (PyTorch's intra-op pool)."""
    env = dict(os.environ)
    # a user's Python caches bytecode; without it every gradcli start recompiles the package (~0.3 s CPU)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tool == "torch" and TORCH_THREADS is not None:
        env["OMP_NUM_THREADS"] = str(TORCH_THREADS)
    for var in BLAS_ENV_VARS:
        env.pop(var, None)
    src = str(REPO / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def gradcli_command() -> list[str]:
    """How a user starts gradcli: the console script beside this Python (not a shim), else ``-m``."""
    script = Path(sys.executable).parent / "gradcli"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "gradcli"]


def torch_available() -> bool:
    r = subprocess.run([sys.executable, "-c", "import importlib.util as u; print(u.find_spec('torch') is not None)"],
                       capture_output=True, text=True, env=bench_env(), timeout=60)
    return r.stdout.strip() == "True"


def whole_command(tool: str, path: Path, command: tuple[str, ...] = ("run",)) -> list[str]:
    """The user's command line: ``gradcli COMMAND FILE ARGS`` (``--json`` for run and check, whose
    documents say whether the file ran), or the PyTorch prelude and ``exec`` of ``path``."""
    if tool == "gradcli":
        json_flag = ["--json"] if command[0] in ("run", "check") else []
        return gradcli_command() + [command[0], str(path), *command[1:], *json_flag]
    code = PRELUDE + f"exec(compile(open({str(path)!r}).read(), {str(path)!r}, 'exec'))\n"
    return [sys.executable, "-c", code]


# ---------------------------------------------------------------------------------------------
# one measured child process
# ---------------------------------------------------------------------------------------------
@dataclass
class Proc:
    returncode: Optional[int]
    seconds: float
    cpu_seconds: float
    maxrss_kb: int
    stdout: str
    stderr: str
    timed_out: bool = False


def spawn(cmd: list[str], timeout: float, env: Optional[dict] = None, cwd: Optional[Path] = None,
          keep_stdout: int = 2_000_000) -> Proc:
    """Run ``cmd`` in its own session; wall time spawn-to-exit and that child's peak RSS (os.wait4).

    Past ``timeout`` seconds the child's process group is killed.  stdout and
    stderr go to temporary files (no pipe to fill up while we wait); at most
    ``keep_stdout`` characters of stdout are kept.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        timed_out = threading.Event()
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                             cwd=str(cwd) if cwd else None, start_new_session=True)

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.daemon = True
        timer.start()
        try:
            while True:
                try:
                    _, status, ru = os.wait4(p.pid, 0)
                    break
                except InterruptedError:  # pragma: no cover - PEP 475 retries already
                    continue
        finally:
            timer.cancel()
        seconds = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Proc(p.returncode, seconds, ru.ru_utime + ru.ru_stime, int(ru.ru_maxrss), out.read(keep_stdout).decode("utf-8", "replace"),
                    err.read(20_000).decode("utf-8", "replace"), timed_out.is_set())


_BOX = str.maketrans("", "", "│╭╮╰╯─┌┐└┘├┤")


def _tail(text: str, n: int = 300) -> str:
    """The end of a process's stderr on one line (rich's box drawing removed)."""
    text = " ".join(text.translate(_BOX).split())
    return text[-n:]


def measure_whole(tool: str, path: Path, timeout: float = DEFAULT_TIMEOUT_S,
                  command: tuple[str, ...] = ("run",)) -> dict:
    """One whole-process run of ``path`` by ``tool`` ("gradcli" | "torch"); ``command``: gradcli's."""
    cmd = whole_command(tool, path, command)
    p = spawn(cmd, timeout, env=bench_env(tool), cwd=REPO)
    rec: dict[str, Any] = {"seconds": p.seconds, "cpu_seconds": p.cpu_seconds, "maxrss_kb": p.maxrss_kb, "returncode": p.returncode,
                           "ok": p.returncode == 0 and not p.timed_out, "error": None}
    if p.timed_out:
        rec["error"] = f"timed out after {timeout:g} s (runner's per-run timeout)"
    elif tool == "gradcli" and "--json" not in cmd:
        if p.returncode != 0:
            rec["error"] = f"exit {p.returncode}: {_tail(p.stderr or p.stdout)}"
    elif tool == "gradcli":
        try:
            doc = json.loads(p.stdout)
            if not doc.get("ok", False):
                e = doc.get("error") or {}
                rec["ok"] = False
                rec["error"] = f"{e.get('kind')}: {e.get('message')}" + (f" (line {e['line']})" if e.get("line") else "")
        except ValueError:
            rec["ok"] = False
            rec["error"] = f"exit {p.returncode}, no JSON on stdout: {_tail(p.stderr or p.stdout)}"
    elif p.returncode != 0:
        rec["error"] = f"exit {p.returncode}: {_tail(p.stderr)}"
    return rec


def measure_engine(tool: str, path: Path, timeout: float = DEFAULT_TIMEOUT_S,
                   extra: tuple[str, ...] = ()) -> dict:
    """One engine-view run (a fresh ``engine_probe.py`` process)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "probe.json"
        p = spawn([sys.executable, str(PROBE), tool, str(path), str(out), *extra], timeout, env=bench_env(tool), cwd=REPO)
        rec: dict[str, Any]
        try:
            rec = json.loads(out.read_text())
        except (OSError, ValueError):
            rec = {"ok": False, "error": None}
        rec["process_seconds"] = p.seconds
        rec.setdefault("maxrss_kb", p.maxrss_kb)
        if p.timed_out:
            rec["ok"] = False
            rec["error"] = f"timed out after {timeout:g} s (runner's per-run timeout)"
        elif rec.get("error") is None and not rec.get("ok"):
            rec["error"] = f"probe exit {p.returncode}: {_tail(p.stderr)}"
        rec.setdefault("seconds", None)
        return rec


# ---------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------
def _median(xs: list) -> Optional[float]:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summarize(gradcli_runs: list[dict], torch_runs: list[dict]) -> dict:
    """Medians of one view of one workload; ratios are medians of per-run (paired) ratios."""
    g_ok = [r for r in gradcli_runs if r.get("ok")]
    t_ok = [r for r in torch_runs if r.get("ok")]
    pairs = [(g, t) for g, t in zip(gradcli_runs, torch_runs) if g.get("ok") and t.get("ok")]

    def ratio(key: str) -> Optional[float]:
        return _median([g[key] / t[key] for g, t in pairs if g.get(key) and t.get(key)])

    errors = sorted({r["error"] for r in gradcli_runs + torch_runs if r.get("error")})
    s: dict[str, Any] = {
        "runs": len(gradcli_runs),
        "torch_runs": len(torch_runs),
        "gradcli_ok": len(g_ok),
        "torch_ok": len(t_ok),
        "gradcli_s": _median([r.get("seconds") for r in g_ok]),
        "torch_s": _median([r.get("seconds") for r in t_ok]),
        "ratio": ratio("seconds"),
        "gradcli_cpu_s": _median([r.get("cpu_seconds") for r in g_ok]),
        "torch_cpu_s": _median([r.get("cpu_seconds") for r in t_ok]),
        "cpu_ratio": ratio("cpu_seconds"),
        "gradcli_rss_mb": _mb(_median([r.get("maxrss_kb") for r in g_ok])),
        "torch_rss_mb": _mb(_median([r.get("maxrss_kb") for r in t_ok])),
        "rss_ratio": ratio("maxrss_kb"),
        "errors": errors,
    }
    if any("exec_peak_rss_kb" in r for r in gradcli_runs + torch_runs):
        s["gradcli_exec_peak_mb"] = _mb(_median([r.get("exec_peak_rss_kb") for r in g_ok]))
        s["torch_exec_peak_mb"] = _mb(_median([r.get("exec_peak_rss_kb") for r in t_ok]))
        s["gradcli_exec_growth_mb"] = _mb(_median([_growth(r) for r in g_ok]))
        s["torch_exec_growth_mb"] = _mb(_median([_growth(r) for r in t_ok]))
        s["gradcli_gc_s"] = _median([(r.get("gc") or {}).get("seconds") for r in g_ok])
        s["gradcli_gc_collected"] = _median([(r.get("gc") or {}).get("collected") for r in g_ok])
        s["gradcli_gc_after"] = _median([r.get("gc_after") for r in g_ok])
        s["gradcli_teardown_s"] = _median([r.get("teardown_seconds") for r in g_ok])
        s["torch_teardown_s"] = _median([r.get("teardown_seconds") for r in t_ok])
        s["gradcli_value"] = _median([r.get("value") for r in g_ok])
        s["torch_value"] = _median([r.get("value") for r in t_ok])
        gv, tv = s["gradcli_value"], s["torch_value"]
        s["values_agree"] = None if gv is None or tv is None else abs(gv - tv) <= 1e-3 * max(1.0, abs(tv))
    return s


def _growth(r: dict) -> Optional[float]:
    peak, before = r.get("exec_peak_rss_kb"), r.get("rss_before_kb")
    return None if peak is None or before is None else max(0, peak - before)


def _mb(kb: Optional[float]) -> Optional[float]:
    return None if kb is None else kb / 1024.0


def target_value(t: Target, summary: dict, nodes: Optional[int] = None) -> Optional[float]:
    if t.metric == "gc_garbage_per_node":
        if not nodes or summary.get("gradcli_ok", 0) == 0:
            return None
        cyclic = (summary.get("gradcli_gc_collected") or 0) + (summary.get("gradcli_gc_after") or 0)
        return cyclic / nodes
    return summary.get(t.metric)


# ---------------------------------------------------------------------------------------------
# the suite
# ---------------------------------------------------------------------------------------------
def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run_workload(w: Workload, runs: int, tools: tuple[str, ...], timeout: float,
                 views: tuple[str, ...] = ("whole", "engine"), load: Optional[list] = None) -> dict:
    """``runs`` interleaved runs of each view of ``w``; raw runs and summaries."""
    views = tuple(v for v in views if v in w.views)
    if w.torch_path is None:
        tools = tuple(t for t in tools if t != "torch")
    raw: dict = {v: {t: [] for t in tools} for v in views}
    for i in range(runs):
        order = tools if i % 2 == 0 else tuple(reversed(tools))
        for view in views:
            for tool in order:
                path = w.path if tool == "gradcli" else w.torch_path
                assert path is not None
                if view == "whole":
                    rec = measure_whole(tool, path, timeout, w.command)
                else:
                    rec = measure_engine(tool, path, timeout)
                raw[view][tool].append(rec)
                if load is not None:
                    load.append(os.getloadavg()[0])
                secs = rec.get("seconds")
                _progress(f"  {w.name:16s} {view:6s} {tool:7s} run {i + 1}/{runs}: "
                          + (f"{secs:8.3f} s" if secs is not None else "   -    ")
                          + f"  rss {rec.get('maxrss_kb', 0) / 1024:7.1f} MB"
                          + ("" if rec.get("ok") else f"  FAILED: {rec.get('error')}"))
    out: dict = {"name": w.name, "stresses": w.stresses, "file": str(w.path.relative_to(REPO)),
                 "command": list(w.command), "views": {}}
    for view in views:
        out["views"][view] = {"summary": summarize(raw[view].get("gradcli", []), raw[view].get("torch", [])),
                              "runs": raw[view]}
    out["targets"] = []
    for t in w.targets:
        if t.view not in out["views"]:
            continue
        value = target_value(t, out["views"][t.view]["summary"], NODES.get(w.name))
        if t.metric.startswith("ratio") or t.metric == "rss_ratio":
            if "torch" not in tools:
                value = None
        out["targets"].append({"label": t.label, "view": t.view, "metric": t.metric, "limit": t.limit,
                               "value": value, "met": None if value is None else value <= t.limit})
    return out


def run_startup(runs: int, timeout: float) -> dict:
    """``gradcli --help``: whole-process time (median) and whether it imports numpy."""
    times, rss = [], []
    for _ in range(max(runs, 5)):
        p = spawn(gradcli_command() + ["--help"], timeout, env=bench_env(), cwd=REPO)
        if p.returncode == 0:
            times.append(p.seconds)
            rss.append(p.maxrss_kb)
    p = spawn([sys.executable, "-X", "importtime", "-m", "gradcli", "--help"], timeout, env=bench_env(), cwd=REPO)
    modules = []
    for line in p.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            modules.append((int(parts[1].strip()), parts[2].rstrip()))
    imports_numpy = any(name.strip() == "numpy" for _, name in modules)
    top = sorted(((us, name.strip()) for us, name in modules if not name.startswith("  ")), reverse=True)[:8]
    value = _median(times)
    return {
        "command": " ".join(gradcli_command() + ["--help"]),
        "help_s": value,
        "help_rss_mb": _mb(_median(rss)),
        "runs": len(times),
        "imports_numpy": imports_numpy,
        "imported_modules": len(modules),
        "top_imports_us": [{"module": name, "cumulative_us": us} for us, name in top],
        "targets": [{
            "label": f"gradcli --help <= {HELP_TARGET_S} s, no numpy import", "view": "startup", "metric": "help_s",
            "limit": HELP_TARGET_S, "value": value,
            "met": None if value is None else (value <= HELP_TARGET_S and not imports_numpy),
        }],
    }


def run_scaling(runs: int, tools: tuple[str, ...], timeout: float, sizes=SCALING_SIZES,
                load: Optional[list] = None) -> dict:
    """Engine view of the 0-d chain at each size; growth factor from one size to the next."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"chain_{n}.py"
            path.write_text(SCALING_SOURCE.format(n=n))
            raw: dict = {t: [] for t in tools}
            for i in range(runs):
                for tool in (tools if i % 2 == 0 else tuple(reversed(tools))):
                    extra = ("--timeout", "3600", "--max-steps", str(10 * n + 1000)) if tool == "gradcli" else ()
                    rec = measure_engine(tool, path, timeout, extra)
                    raw[tool].append(rec)
                    if load is not None:
                        load.append(os.getloadavg()[0])
                    secs = rec.get("seconds")
                    _progress(f"  scaling {n:>9,} {tool:7s} run {i + 1}/{runs}: "
                              + (f"{secs:8.3f} s" if secs is not None else "   -    ")
                              + ("" if rec.get("ok") else f"  FAILED: {rec.get('error')}"))
            s = summarize(raw.get("gradcli", []), raw.get("torch", []))
            rows.append({"nodes": n, "summary": s, "runs": raw})
    for prev, row in zip([None] + rows[:-1], rows):
        s = row["summary"]
        for tool in tools:
            secs = s.get(f"{tool}_s")
            row[f"{tool}_us_per_node"] = None if secs is None else secs * 1e6 / row["nodes"]
            growth = s.get(f"{tool}_exec_growth_mb")
            row[f"{tool}_bytes_per_node"] = None if growth is None else growth * 2**20 / row["nodes"]
            p = None if prev is None else prev["summary"].get(f"{tool}_s")
            row[f"{tool}_time_growth"] = None if (p is None or secs is None or p == 0) else secs / p
        cyc = (s.get("gradcli_gc_collected") or 0) + (s.get("gradcli_gc_after") or 0)
        row["gradcli_cyclic_garbage_per_node"] = cyc / row["nodes"] if s.get("gradcli_ok") else None
    last = rows[-1] if rows and rows[-1]["nodes"] == 1_000_000 else None
    growth = last.get("gradcli_time_growth") if last else None
    targets = [{"label": "engine time(1M)/time(100k) <= 11", "view": "scaling", "metric": "time_growth",
                "limit": 11.0, "value": growth, "met": None if growth is None else growth <= 11.0}]
    return {"source": SCALING_SOURCE.replace("{n:,}", "N").replace("{n}", "N"), "rows": rows, "targets": targets}


def machine_info(has_torch: bool) -> dict:
    """The machine, and the BLAS each side runs in a benchmark process (threadpoolctl if installed)."""
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "cpu_model": None,
        "memory_gb": None,
        "blas_env_unset": {v: os.environ.get(v) for v in BLAS_ENV_VARS},
        "gradcli_command": " ".join(gradcli_command()),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and info["cpu_model"] is None:
                info["cpu_model"] = line.split(":", 1)[1].strip()
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                info["cpu_simd"] = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "SSE/other"
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory_gb"] = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "src"], cwd=REPO,
                               capture_output=True, text=True, timeout=30).stdout.split("\n")
        info["git"] = {"head": head, "modified_src_files": sorted(x[3:] for x in dirty if x.strip())}
    except (OSError, subprocess.SubprocessError):
        pass
    code = (
        "import json, numpy\n"
        "d = {'numpy': numpy.__version__}\n"
        "try:\n"
        "    import threadpoolctl\n"
        "    d['numpy_blas'] = [{k: i.get(k) for k in ('internal_api', 'version', 'architecture', 'num_threads',"
        " 'threading_layer')} for i in threadpoolctl.threadpool_info()]\n"
        "except ImportError:\n"
        "    d['numpy_blas'] = 'threadpoolctl not installed (pip install threadpoolctl)'\n"
    )
    if has_torch:
        code += (
            "import torch\n"
            "d['torch'] = torch.__version__\n"
            "d['torch_threads'] = torch.get_num_threads()\n"
            "d['torch_mkl'] = torch.backends.mkl.is_available()\n"
            "d['torch_cpu_capability'] = torch.backends.cpu.get_cpu_capability()\n"
        )
    code += "print(json.dumps(d))\n"
    p = spawn([sys.executable, "-c", code], 120, env=bench_env("torch"), cwd=REPO)
    try:
        info.update(json.loads(p.stdout))
    except ValueError:
        info["probe_error"] = _tail(p.stderr)
    return info


# ---------------------------------------------------------------------------------------------
# rendering
# ---------------------------------------------------------------------------------------------
def _f(x: Optional[float], fmt: str = "{:.3f}") -> str:
    return "-" if x is None else fmt.format(x)


def _x(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.2f}x"


def _target_text(t: dict) -> str:
    return {"ratio": f"<= {t['limit']:g}x", "rss_ratio": f"RSS <= {t['limit']:g}x",
            "gradcli_s": f"<= {t['limit']:g} s"}.get(t["metric"], "no cyclic garbage" if "garbage" in t["metric"] else "")


def _status(s: dict) -> str:
    torch_runs = s.get("torch_runs", s["runs"])
    if not s["errors"] and s["gradcli_ok"] == s["runs"]:
        return "ok"
    head = "FAIL" if s["gradcli_ok"] == 0 else f"gradcli {s['gradcli_ok']}/{s['runs']} ok"
    if torch_runs and s["torch_ok"] < torch_runs:
        head += f", torch {s['torch_ok']}/{torch_runs} ok"
    return head + ": " + "; ".join(" ".join(e.translate(_BOX).split()) for e in s["errors"])[:200]


def tables(doc: dict) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of every table of a run document."""
    out = []
    wl = doc.get("workloads", [])
    for view, title in (("whole", "Whole process (gradcli run W --json, or the named command, vs python -c prelude + exec of the PyTorch side)"),
                        ("engine", "Engine (execution only, in a fresh process per run)")):
        header = ["workload", "gradcli s", "torch s", "ratio", "CPU ratio", "target", "gradcli RSS MB", "torch RSS MB",
                  "RSS ratio"]
        if view == "engine":
            header += ["gradcli exec MB", "torch exec MB", "gradcli GC s"]
        header += ["status"]
        rows = []
        for w in wl:
            v = w["views"].get(view)
            if v is None:
                continue
            s = v["summary"]
            tgt = ", ".join(_target_text(t) for t in w["targets"] if t["view"] == view) or "-"
            row = [w["name"], _f(s["gradcli_s"]), _f(s["torch_s"]), _x(s["ratio"]), _x(s["cpu_ratio"]), tgt,
                   _f(s["gradcli_rss_mb"], "{:.0f}"), _f(s["torch_rss_mb"], "{:.0f}"), _x(s["rss_ratio"])]
            if view == "engine":
                row += [_f(s.get("gradcli_exec_growth_mb"), "{:.0f}"), _f(s.get("torch_exec_growth_mb"), "{:.0f}"),
                        _f(s.get("gradcli_gc_s"), "{:.2f}")]
            status = _status(s)
            if view == "engine" and s.get("values_agree") is False:
                status += f" (values differ: {s['gradcli_value']:.6g} vs {s['torch_value']:.6g})"
            row.append(status)
            rows.append(row)
        if rows:
            out.append((title, header, rows))
    sc = doc.get("scaling")
    if sc:
        header = ["nodes", "gradcli s", "us/node", "x prev", "exec MB", "B/node", "GC s", "cyclic/node",
                  "teardown s", "torch s", "torch x prev", "torch exec MB", "status"]
        rows = []
        for r in sc["rows"]:
            s = r["summary"]
            rows.append([f"{r['nodes']:,}", _f(s["gradcli_s"]), _f(r.get("gradcli_us_per_node"), "{:.2f}"),
                         _x(r.get("gradcli_time_growth")), _f(s.get("gradcli_exec_growth_mb"), "{:.1f}"),
                         _f(r.get("gradcli_bytes_per_node"), "{:.0f}"), _f(s.get("gradcli_gc_s"), "{:.2f}"),
                         _f(r.get("gradcli_cyclic_garbage_per_node"), "{:.3f}"), _f(s.get("gradcli_teardown_s")),
                         _f(s["torch_s"]), _x(r.get("torch_time_growth")), _f(s.get("torch_exec_growth_mb"), "{:.1f}"),
                         _status(s)])
        out.append(("Scaling: 0-d chain y = y * c + backward, engine view", header, rows))
    st = doc.get("startup")
    targets = [t for w in wl for t in w["targets"]] + (st["targets"] if st else []) + (sc["targets"] if sc else [])
    names = [w["name"] for w in wl for _ in w["targets"]] + (["startup"] if st else []) + (["scaling"] if sc else [])
    if targets:
        rows = [[n, t["label"], _f(t["value"], "{:.3g}"), "-" if t["met"] is None else ("met" if t["met"] else "MISSED")]
                for n, t in zip(names, targets)]
        out.append(("Targets", ["workload", "target", "measured", "result"], rows))
    return out


def markdown(doc: dict) -> str:
    lines = []
    m = doc.get("machine", {})
    lines.append(f"Machine: {m.get('cpu_model')}, {m.get('cpus')} cores ({m.get('cpu_simd', '?')}), {m.get('memory_gb')} GiB; "
                 f"Python {m.get('python')}, numpy {m.get('numpy')} ({_blas(m)}), "
                 f"PyTorch {m.get('torch', 'not installed')} ({_torch_side(m)}); {doc.get('runs')} runs each, medians; "
                 f"load average during the run {_load(doc)}.")
    for r in doc.get("reruns", []):
        la = r.get("load") or {}
        lines.append(f"Re-measured later ({r.get('started')}, load {la.get('min', 0):.2f}-{la.get('max', 0):.2f}): "
                     + ", ".join(r.get("workloads", [])) + ".")
    st = doc.get("startup")
    if st:
        lines.append(f"\n`gradcli --help`: {_f(st['help_s'])} s (median of {st['runs']}), "
                     f"imports numpy: {'yes' if st['imports_numpy'] else 'no'}.")
    for title, header, rows in tables(doc):
        lines.append(f"\n**{title}**\n")
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    return "\n".join(lines) + "\n"


def _blas(m: dict) -> str:
    blas = m.get("numpy_blas")
    if isinstance(blas, list) and blas:
        b = blas[0]
        return f"{b.get('internal_api')} {b.get('version')} {b.get('architecture')} kernel, {b.get('num_threads')} threads"
    return str(blas)


def _torch_side(m: dict) -> str:
    """PyTorch's kernels and threads in the benchmark processes (``--torch-threads`` sets the threads)."""
    return f"{m.get('torch_cpu_capability', '?')} kernels, {m.get('torch_threads', '?')} threads"


def _load(doc: dict) -> str:
    la = doc.get("load")
    if not la:
        return "-"
    return f"{la['min']:.2f}-{la['max']:.2f} (median {la['median']:.2f}; 1-min, {doc['machine'].get('cpus')} cores)"


def render(doc: dict) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(markdown(doc))
        return
    console = Console()
    if not console.is_terminal:
        print(markdown(doc))
        return
    m = doc.get("machine", {})
    console.print(f"{m.get('cpu_model')}, {m.get('cpus')} cores ({m.get('cpu_simd', '?')}); numpy {m.get('numpy')} "
                  f"({_blas(m)}); PyTorch {m.get('torch', 'not installed')} ({_torch_side(m)}); load {_load(doc)}")
    st = doc.get("startup")
    if st:
        console.print(f"gradcli --help: {_f(st['help_s'])} s, imports numpy: {st['imports_numpy']}")
    for title, header, rows in tables(doc):
        t = Table(title=title)
        for h in header:
            t.add_column(h, overflow="fold")
        for r in rows:
            t.add_row(*r)
        console.print(t)


# ---------------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------------
def select(only: Optional[str]) -> tuple[Workload, ...]:
    if not only:
        return WORKLOADS
    names = [n.strip() for n in only.split(",") if n.strip()]
    known = {w.name: w for w in WORKLOADS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown workload(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return tuple(known[n] for n in names)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated workload names (default: all): " + ", ".join(w.name for w in WORKLOADS))
    ap.add_argument("--runs", type=int, default=5, help="runs of each tool per view (default 5)")
    ap.add_argument("--json", dest="json_path", help="write the full results (every run) as JSON here")
    ap.add_argument("--markdown", help="write the tables as Markdown here")
    ap.add_argument("--scaling", action="store_true", help="also the scaling table (1k..1M-node chain)")
    ap.add_argument("--scaling-runs", type=int, default=None, help="runs per size (default: min(--runs, 3))")
    ap.add_argument("--no-workloads", action="store_true", help="skip the workloads (e.g. with --scaling)")
    ap.add_argument("--no-torch", action="store_true", help="measure gradcli alone even if PyTorch is installed")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="runner's timeout per process, s")
    ap.add_argument("--render", metavar="JSON", help="print the tables of a saved --json file (no measuring)")
    ap.add_argument("--torch-threads", type=int, default=None, metavar="N",
                    help="PyTorch's intra-op threads (OMP_NUM_THREADS=N in its processes; default: its own, one per core)")
    args = ap.parse_args(argv)
    global TORCH_THREADS
    TORCH_THREADS = args.torch_threads
    if args.render:
        doc = json.loads(Path(args.render).read_text())
        if args.markdown:
            Path(args.markdown).write_text(markdown(doc))
        render(doc)
        return 0
    if args.runs < 1:
        ap.error("--runs must be >= 1")

    has_torch = not args.no_torch and torch_available()
    tools = ("gradcli", "torch") if has_torch else ("gradcli",)
    if not has_torch:
        _progress("PyTorch not found: measuring gradcli alone")
    load: list[float] = [os.getloadavg()[0]]
    started = time.time()
    doc: dict[str, Any] = {"started": time.strftime("%Y-%m-%d %H:%M:%S %z"), "runs": args.runs, "tools": list(tools),
                           "torch_threads": args.torch_threads,
                           "machine": machine_info(has_torch), "loadavg_start": list(os.getloadavg())}
    # warm the page cache (the first import of torch from disk is not what we measure)
    for tool in tools:
        measure_whole(tool, WORKLOADS[0].path, args.timeout)

    if not args.no_workloads:
        doc["startup"] = run_startup(args.runs, args.timeout)
        _progress(f"  gradcli --help {_f(doc['startup']['help_s'])} s; imports numpy: {doc['startup']['imports_numpy']}")
        doc["workloads"] = [run_workload(w, args.runs, tools, args.timeout, load=load) for w in select(args.only)]
    if args.scaling:
        runs = args.scaling_runs or min(args.runs, 3)
        doc["scaling"] = run_scaling(runs, tools, args.timeout, load=load)
    load.append(os.getloadavg()[0])
    doc["loadavg_end"] = list(os.getloadavg())
    doc["load"] = {"min": min(load), "max": max(load), "median": statistics.median(load), "samples": len(load)}
    doc["elapsed_s"] = time.time() - started

    if args.json_path:
        Path(args.json_path).write_text(json.dumps(doc, indent=1))
    if args.markdown:
        Path(args.markdown).write_text(markdown(doc))
    render(doc)
    failed = any(not w["views"][v]["summary"]["gradcli_ok"] for w in doc.get("workloads", []) for v in w["views"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
