#!/usr/bin/env python3
"""One engine-view measurement, in a fresh process: ``benchmarks/run.py`` starts one per run.

    python benchmarks/engine_probe.py {gradcli|torch} FILE OUT.json [--timeout S] [--max-steps N]
                                      [--profile OUT.prof] [--top N]

Untimed set-up, then the timed execution only:

* gradcli: import the language layer and the engine (numpy), read FILE,
  ``gradcli.lang.run.prepare`` (parse + validate), then time
  ``gradcli.lang.run.run_prepared`` (compile to closures, reset the engine,
  run the body, backward, collect the tensors) -- default limits and options,
  as ``gradcli run FILE`` has them, unless ``--timeout``/``--max-steps`` say
  otherwise (the scaling table raises them; the workloads never do);
* torch: ``import torch`` and ``torch.nn.functional as F``, ``compile`` FILE,
  then time ``exec`` of the code object in a namespace holding the prelude.

Around the timed part the probe also records: the CPU time of the process (all threads), the peak RSS *during* execution
(``/proc/self/clear_refs`` resets the high-water mark after set-up; falls back
to the whole process's peak), the RSS before it, the cyclic garbage collector's
work during it (collections, seconds, objects collected, via ``gc.callbacks``),
then the teardown: time to drop the namespace (reference counting frees the
graph) and the objects a final ``gc.collect()`` still finds (cyclic garbage
left by the run).  It writes one JSON object to OUT.json and exits with
``os._exit`` (interpreter shutdown is the whole-process view's business).

``--profile OUT.prof`` runs the timed part under cProfile (so its time is not
comparable) and prints the top ``--top`` entries by internal time to stderr.
gradcli runs a file on a worker thread (a big C stack), which cProfile on the
main thread would not see, so the probe then has the run made inline on the
main thread (``lang.run._start_thread`` answering None, its no-thread fallback).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import time


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak() -> bool:
    """Reset the RSS high-water mark (Linux >= 4.0); False when it cannot be."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


class _GcMeter:
    """Collections, seconds and objects collected by the cyclic GC while installed."""

    def __init__(self) -> None:
        self.collections = 0
        self.seconds = 0.0
        self.collected = 0
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._t0
            self.collections += 1
            self.collected += info.get("collected", 0)


def _scalar(ns: dict, skip: frozenset) -> float | None:
    """The value of the last single-element tensor the file bound (a cross-check between the two)."""
    value = None
    for name, v in ns.items():
        if name in skip or name.startswith("__"):
            continue
        numel = getattr(v, "numel", None)
        if not callable(numel):
            continue
        try:
            if numel() == 1:
                value = float(v.detach().reshape(-1)[0].item())
        except Exception:  # noqa: BLE001,S110 - no cross-check value for this one
            pass
    return value


def _setup_gradcli(path: str, timeout: float | None, max_steps: int | None):
    import importlib

    import gradcli.api
    from gradcli.lang.limits import DEFAULT_LIMITS
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import prepare, run_prepared

    # import the whole engine, as `import torch` does on the other side: the
    # namespaces the file sees (some of their modules load lazily on first use)
    # and the modules whose state a run resets
    gradcli.api.make_globals()
    for name in ("dtypes", "random", "limits", "grad_mode", "engine", "anomaly"):
        try:
            importlib.import_module(f"gradcli.autograd.{name}")
        except ImportError:
            pass

    options = RunOptions(timeout=timeout, max_steps=max_steps)
    # what gradcli loads lazily on first use (numpy.random and the RNG's engine check, the op
    # modules' first calls) is loaded by `import torch` on the other side: one untimed tiny run
    warm = prepare(b"x = torch.randn(16, requires_grad=True)\n(x * 2).sum().backward()\n", "<warm-up>",
                   DEFAULT_LIMITS.with_options(options))
    run_prepared(warm, options)

    with open(path, "rb") as fh:
        source = fh.read()
    parsed = prepare(source, path, DEFAULT_LIMITS.with_options(options))

    def execute():
        result = run_prepared(parsed, options)
        error = None
        if not result.ok:
            e = result.error
            error = f"{e.kind}: {e.message}" + (f" (line {e.line})" if e.line else "")
        return result, result.namespace or {}, error

    return execute


def _setup_torch(path: str):
    import torch
    import torch.nn.functional as F

    with open(path) as fh:
        code = compile(fh.read(), path, "exec")

    def execute():
        ns = {"__name__": "__main__", "__builtins__": __builtins__, "torch": torch, "F": F}
        error = None
        try:
            exec(code, ns)
        except Exception as e:  # the file's own error: a failure row, not a crash
            error = f"{type(e).__name__}: {e}"
        return ns, ns, error

    return execute


def main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("tool", choices=("gradcli", "torch"))
    ap.add_argument("file")
    ap.add_argument("out")
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--max-steps", type=int, default=None)
    ap.add_argument("--profile", default=None, help="cProfile the timed part into this file")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        if args.tool == "gradcli":
            import gradcli.lang.run as run_mod

            if hasattr(run_mod, "_start_thread"):
                run_mod._start_thread = lambda target, stack: None  # run inline, where cProfile sees it

    rec: dict = {"tool": args.tool, "file": args.file, "ok": False}
    try:
        t0 = time.perf_counter()
        if args.tool == "gradcli":
            execute = _setup_gradcli(args.file, args.timeout, args.max_steps)
            skip = frozenset({"torch", "F"})
        else:
            execute = _setup_torch(args.file)
            skip = frozenset({"torch", "F"})
        rec["setup_seconds"] = time.perf_counter() - t0
        gc.collect()
        rec["rss_before_kb"] = _status_kb("VmRSS")
        rec["peak_reset"] = _reset_peak()
        meter = _GcMeter()
        gc.callbacks.append(meter)
        c0 = time.process_time()
        t0 = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        holder, ns, error = execute()
        if profiler is not None:
            profiler.disable()
        t1 = time.perf_counter()
        c1 = time.process_time()
        gc.callbacks.remove(meter)
        rec["seconds"] = t1 - t0
        rec["cpu_seconds"] = c1 - c0
        rec["exec_peak_rss_kb"] = _status_kb("VmHWM") if rec["peak_reset"] else None
        rec["gc"] = {"collections": meter.collections, "seconds": meter.seconds, "collected": meter.collected}
        rec["error"] = error
        rec["ok"] = error is None
        rec["value"] = _scalar(ns, skip)
        # teardown: reference counting alone, then what only the cyclic collector finds
        del ns
        t0 = time.perf_counter()
        del holder
        rec["teardown_seconds"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        rec["gc_after"] = gc.collect()
        rec["gc_after_seconds"] = time.perf_counter() - t0
    except BaseException as e:  # noqa: BLE001 - reported as a failure row
        rec["error"] = f"{type(e).__name__}: {e}"
        rec["ok"] = False
    rec["maxrss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if profiler is not None:
        import pstats

        profiler.dump_stats(args.profile)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(args.top)
    with open(args.out, "w") as fh:
        json.dump(rec, fh)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
