#!/usr/bin/env python3
"""Start-up of gradcli, whole process: issue 3's import budget, issue 4's and issue 9's start-up targets.

    python benchmarks/startup.py [--runs N] [--json PATH] [--importtime]

Measures, each in a fresh process, interleaved round-robin so that load from
other processes falls on every command alike (medians of ``--runs``, default 15):

* ``python -c pass``: the interpreter's own start-up on this machine (the floor);
* ``python -c "import numpy"``;
* ``python -c "import <what gradcli run needs>"``: the language layer, the
  engine and the torch namespace (issue 3: under 50 ms over numpy's import);
* ``gradcli --help`` (issue 4: <= 0.2 s; issue 9: <= 0.12 s, no numpy import);
* ``gradcli run tiny.py`` and ``gradcli run tiny.py --json`` (issue 4: <= 0.25 s;
  issue 9: <= 0.2 s), ``tiny.py`` being ``benchmarks/workloads/tiny.py``.

The commands are started with this interpreter (``sys.executable``) and the
``gradcli`` script beside it, never a PATH shim (pyenv's bash shims add ~70 ms).
Every command runs once untimed first (writing the bytecode caches that a user's
first run writes), and ``PYTHONDONTWRITEBYTECODE`` is removed from their
environment: with it set, a source file newer than its cache is compiled again
on every import.  ``--importtime`` also prints ``python -X importtime``'s cumulative figure of the
top-level modules for the ``run`` import and for ``--help`` (one run each).
Each command's CPU time (user + system, from ``getrusage``) is reported beside
its wall time: it is less sensitive to load from other processes.
The load average at the start and the end is printed with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TINY = HERE / "workloads" / "tiny.py"
RUN_IMPORTS = "import gradcli.lang.run, gradcli.api, gradcli.ops, gradcli.autograd.engine; gradcli.api.make_globals()"


def gradcli_script() -> list[str]:
    """The ``gradcli`` console script of this interpreter, or ``python -m gradcli`` when there is none."""
    script = Path(sys.executable).with_name("gradcli")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gradcli"]


def commands() -> dict[str, list[str]]:
    """Name -> argv of every measured command."""
    py, g = sys.executable, gradcli_script()
    return {
        "python -c pass": [py, "-c", "pass"],
        "import numpy": [py, "-c", "import numpy"],
        "import run deps": [py, "-c", RUN_IMPORTS],
        "gradcli --help": g + ["--help"],
        "gradcli run tiny": g + ["run", str(TINY)],
        "gradcli run tiny --json": g + ["run", str(TINY), "--json"],
    }


def wall(argv: list[str]) -> tuple[float, float]:
    """(wall seconds from spawn to exit, CPU seconds user + system) of ``argv``, output discarded;
    exits with the child's stderr if it fails."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env())
    dt = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return dt, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's (and CI's) imports read cached bytecode
    env["NO_COLOR"] = "1"
    return env


def importtime(argv: list[str]) -> tuple[list[tuple[int, str]], set[str]]:
    """(cumulative µs, name) of the top-level imports of ``argv`` under ``-X importtime``, largest first,
    and the names of every module it imported."""
    p = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, env=_env())
    rows, every = [], set()
    for line in p.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            every.add(parts[2].strip())
            if not parts[2].startswith("  "):
                rows.append((int(parts[1].strip()), parts[2].strip()))
    return sorted(rows, reverse=True), every


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--json", dest="json_path")
    ap.add_argument("--importtime", action="store_true")
    args = ap.parse_args()
    cmds = commands()
    for argv in cmds.values():  # warm-up: writes the bytecode caches, fills the OS file cache
        wall(argv)
    load0 = os.getloadavg()
    times: dict[str, list[float]] = {name: [] for name in cmds}
    cpu: dict[str, list[float]] = {name: [] for name in cmds}
    names = list(cmds)
    for i in range(args.runs):
        order = names if i % 2 == 0 else names[::-1]
        for name in order:
            w, c = wall(cmds[name])
            times[name].append(w)
            cpu[name].append(c)
    load1 = os.getloadavg()
    med = {name: statistics.median(v) for name, v in times.items()}
    med_cpu = {name: statistics.median(v) for name, v in cpu.items()}
    print(f"python: {sys.executable}; load average: start {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, "
          f"end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}; {args.runs} runs each, interleaved")
    print(f"{'command':26} {'median s':>9} {'min s':>7} {'max s':>7} {'CPU s':>7}")
    for name in names:
        print(f"{name:26} {med[name]:9.3f} {min(times[name]):7.3f} {max(times[name]):7.3f} {med_cpu[name]:7.3f}")
    print(f"import run deps - import numpy: {1000 * (med['import run deps'] - med['import numpy']):.0f} ms wall, "
          f"{1000 * (med_cpu['import run deps'] - med_cpu['import numpy']):.0f} ms CPU (issue 3: < 50 ms)")
    if args.importtime:
        for label, argv in (("import run deps", cmds["import run deps"]), ("gradcli --help", cmds["gradcli --help"])):
            rows, every = importtime([sys.executable, "-m", "gradcli", "--help"] if label == "gradcli --help" else argv)
            print(f"\n-X importtime, {label}: top-level modules (cumulative ms)")
            for us, name in rows[:12]:
                print(f"  {us / 1000:7.1f}  {name}")
            print(f"  numpy imported: {'numpy' in every}; modules imported: {len(every)}")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps({"load_start": load0, "load_end": load1, "runs": times, "cpu": cpu, "median_cpu": med_cpu,
                                                    "median": med}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
