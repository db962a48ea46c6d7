#!/usr/bin/env python3
"""Interpreter overhead: a 100,000-iteration ``for`` loop of ``x = x * 1.0001`` on a shape-(4,) tensor.

Prints microseconds per iteration for:

* gradcli: the loop run by ``gradcli.lang.run.run_file`` (interpreter + engine);
* engine only: the same loop written in Python against gradcli's engine directly
  (so ``gradcli - engine`` is the interpreter's own overhead);
* interpreter only: the same loop on a Python float (no engine at all);
* PyTorch: the same loop in CPython + PyTorch, when torch is installed.

Usage: python benchmarks/interp_loop.py [N]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def best_of(fns: dict, repeat: int = 5) -> dict:
    """Minimum time of each function over ``repeat`` interleaved rounds (robust to a noisy machine)."""
    times: dict = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            times[k].append(timed(fn))
    return {k: min(v) for k, v in times.items()}


def main() -> None:
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import run_file

    src = f"x = torch.ones(4)\nfor i in range({N}):\n    x = x * 1.0001\n"
    src_def = (
        "def step(t):\n    return t * 1.0001\n"
        f"x = torch.ones(4)\nfor i in range({N}):\n    x = step(x)\n"
    )
    src_float = f"x = 1.0\nfor i in range({N}):\n    x = x * 1.0001\n"
    steps = max(1, N // 20)
    src_sgd = (
        "w = torch.tensor([0.5, -0.5], requires_grad=True)\n"
        "x = torch.tensor([1.0, 2.0])\ny = torch.tensor(3.0)\n"
        f"for i in range({steps}):\n"
        "    loss = ((w * x).sum() - y) ** 2\n"
        "    loss.backward()\n"
        "    with torch.no_grad():\n"
        "        w -= 0.01 * w.grad\n"
        "    w.grad.zero_()\n"
    )
    opts = RunOptions()
    for text in (src, src_float):
        r = run_file(text, "bench.py", opts)
        assert r.ok, r.error

    from gradcli.api import make_globals

    torch_ns = make_globals()["torch"]

    def engine_only():
        x = torch_ns.ones(4)
        for _ in range(N):
            x = x * 1.0001

    def python_float():
        x = 1.0
        for _ in range(N):
            x = x * 1.0001

    def engine_sgd():
        t = torch_ns
        w = t.tensor([0.5, -0.5], requires_grad=True)
        x = t.tensor([1.0, 2.0])
        y = t.tensor(3.0)
        for _ in range(steps):
            loss = ((w * x).sum() - y) ** 2
            loss.backward()
            with t.no_grad():
                w -= 0.01 * w.grad
            w.grad.zero_()

    fns = {
        "sgd": lambda: run_file(src_sgd, "bench.py", opts),
        "engine_sgd": engine_sgd,
        "gradcli": lambda: run_file(src, "bench.py", opts),
        "def": lambda: run_file(src_def, "bench.py", opts),
        "float": lambda: run_file(src_float, "bench.py", opts),
        "engine": engine_only,
        "py": python_float,
    }
    try:
        import torch

        def torch_loop():
            x = torch.ones(4)
            for _ in range(N):
                x = x * 1.0001

        fns["torch"] = torch_loop
    except ImportError:
        torch = None
    t = best_of(fns)
    t_gradcli, t_def, t_float, t_engine, t_py = t["gradcli"], t["def"], t["float"], t["engine"], t["py"]

    us = 1e6 / N
    print(f"loop of {N:,} iterations, x = x * 1.0001 (shape (4,) tensor)")
    print(f"  gradcli (run_file)          {t_gradcli * us:7.3f} us/iter")
    print(f"  gradcli, via a def call     {t_def * us:7.3f} us/iter")
    print(f"  engine only (Python loop)   {t_engine * us:7.3f} us/iter")
    print(f"  interpreter overhead        {(t_gradcli - t_engine) * us:7.3f} us/iter")
    print(f"  gradcli on a Python float   {t_float * us:7.3f} us/iter  (CPython: {t_py * us:.3f})")
    if torch is None:
        print("  CPython + PyTorch           (not installed)")
    else:
        print(f"  CPython + PyTorch           {t['torch'] * us:7.3f} us/iter")
    sus = 1e6 / steps
    print(f"SGD step loop ({steps:,} steps: forward, backward, no_grad update, zero_)")
    print(f"  gradcli (run_file)          {t['sgd'] * sus:7.1f} us/step")
    print(f"  engine only (Python loop)   {t['engine_sgd'] * sus:7.1f} us/step")


if __name__ == "__main__":
    main()
