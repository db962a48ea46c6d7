"""The long fuzz run (issue 8): millions of inputs through ``run_file`` and the CLI's renderers.

    python tests/fuzz/long_run.py --inputs 1000000 --jobs 2 --seed 1 --out /tmp/gradcli-fuzz

Inputs come from fuzzlib (grammar-aware generation, mutation of the samples and conformance cases,
byte-level mutation) with random run options; each must end as SPEC says (fuzzlib.check_source).
Work is split into chunks of ``--chunk`` inputs, one fresh worker process per chunk (so a hang or a
crash costs one chunk, and state cannot leak between chunks).  A chunk is reproducible from
``(seed, chunk index)``.  Failures are written to ``OUT/failures/`` (one file per distinct
signature: last gradcli frame + exception line), progress to ``OUT/progress.json`` every few seconds;
the last line printed is ``fuzz: N inputs, F failures (D distinct), H hangs, C crashes, ...``.
``--cli-every K`` also sends every K-th input through the real ``gradcli run --json`` subprocess.
Failures are counted by class in ``classes`` ("exception": one escaped ``run_file``/the renderers -- the CLI
would show an internal error, exit 70; "traceback": the CLI printed one; "hang"; ...); inputs slower than
10 s are kept in ``OUT/slow/``.

docs/FUZZING.md explains the choice of this runner over atheris (measured).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _signature(problem: str) -> str:
    lines = [ln for ln in problem.splitlines() if ln.strip()]
    frames = [ln.strip() for ln in lines if ln.strip().startswith("File ") and "/gradcli/" in ln]
    last = lines[-1][:160] if lines else problem[:160]
    if problem.startswith("hang"):
        return "hang"
    return (frames[-1] if frames else "") + " | " + last


def run_chunk(args: tuple) -> dict:
    """Worker: run one chunk; returns counts and the distinct failures (signature -> example)."""
    seed, index, n, cli_every, render = args
    import fuzzlib

    fuzzlib.RENDER_HUMAN, fuzzlib.RENDER_GRAPH = render, render / 2

    rnd = random.Random(seed * 1_000_003 + index)
    out: dict = {"index": index, "inputs": 0, "failures": 0, "hangs": 0, "slow": 0, "cli": 0, "distinct": {},
                 "kinds": {}, "classes": {}, "slow_inputs": [], "seconds": 0.0}
    t0 = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="gradcli-fuzz-"))
    try:
        for i in range(n):
            kind, src = fuzzlib.make_input(rnd)
            opts = fuzzlib.random_options(rnd)
            t1 = time.monotonic()
            problem = fuzzlib.check_source(src, opts, rnd=rnd, hang_seconds=60)
            if time.monotonic() - t1 > 10:
                out["slow"] += 1
                if len(out["slow_inputs"]) < 3:  # kept to look at: a slow input may be a near-hang
                    out["slow_inputs"].append({"source": src if isinstance(src, str) else src.decode("latin-1"),
                                               "options": repr(opts), "seconds": round(time.monotonic() - t1, 1),
                                               "chunk": index, "input": i})
            out["inputs"] += 1
            out["kinds"][kind] = out["kinds"].get(kind, 0) + 1
            if problem is None and cli_every and i % cli_every == 0:
                path = tmp / "fuzz.py"
                path.write_bytes(src if isinstance(src, bytes) else src.encode("utf-8", "surrogatepass"))
                problem = fuzzlib.check_cli(path, ["run", "--json", "--max-steps", "20000", "--timeout", "3",
                                                   "--max-elements", "200000"], timeout=60)
                out["cli"] += 1
                if problem is None and i % (2 * cli_every) == 0:  # issue 20: an output naming the input
                    problem = fuzzlib.check_cli_paths(rnd, path, timeout=60)
                    out["cli"] += 1
            if problem is not None:
                out["failures"] += 1
                # the class of failure: "exception" (escaped: exit 70 at the CLI), "traceback" (printed by the
                # CLI), "hang", "exit status", "wrote to the real stdout/stderr", "unknown error kind" ...
                cls = problem.split(":", 1)[0][:40]
                out["classes"][cls] = out["classes"].get(cls, 0) + 1
                sig = _signature(problem)
                if sig not in out["distinct"]:
                    out["distinct"][sig] = {"source": src if isinstance(src, str) else src.decode("latin-1"),
                                            "bytes": isinstance(src, bytes), "options": repr(opts),
                                            "problem": problem, "chunk": index, "input": i}
                if problem.startswith("hang"):
                    out["hangs"] += 1
                    if problem.startswith("hang: no result"):
                        break  # a hung in-process run may still hold the engine: end this worker
    finally:
        out["seconds"] = time.monotonic() - t0
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--first-chunk", type=int, default=0, help="resume: index of the first chunk to run")
    ap.add_argument("--cli-every", type=int, default=0)
    ap.add_argument("--render", type=float, default=0.1,
                    help="share of results also rendered as the human report (half that: the graph)")
    ap.add_argument("--out", default="fuzz-out")
    a = ap.parse_args(argv)
    out = Path(a.out)
    (out / "failures").mkdir(parents=True, exist_ok=True)
    chunks = -(-a.inputs // a.chunk)
    tasks = [(a.seed, a.first_chunk + c, min(a.chunk, a.inputs - c * a.chunk), a.cli_every, a.render)
             for c in range(chunks)]
    total = {"inputs": 0, "failures": 0, "hangs": 0, "crashes": 0, "slow": 0, "cli": 0, "kinds": {}, "classes": {},
             "distinct": 0, "chunks_done": 0, "chunks": chunks, "seed": a.seed, "started": time.time()}
    seen: set = set()
    t0 = time.monotonic()
    ctx = mp.get_context("spawn")
    with ctx.Pool(a.jobs, maxtasksperchild=1) as pool:
        results = pool.imap_unordered(run_chunk, tasks)
        done = 0
        while done < chunks:
            try:
                r = results.next(timeout=3600)
            except mp.TimeoutError:
                total["crashes"] += 1  # a worker that neither returned nor died in an hour
                break
            except Exception as e:  # noqa: BLE001 - a worker died (segfault): count it and go on
                total["crashes"] += 1
                print(f"worker crashed: {e!r}", flush=True)
                done += 1
                continue
            done += 1
            for k in ("inputs", "failures", "hangs", "slow", "cli"):
                total[k] += r[k]
            for k, v in r["kinds"].items():
                total["kinds"][k] = total["kinds"].get(k, 0) + v
            for k, v in r["classes"].items():
                total["classes"][k] = total["classes"].get(k, 0) + v
            for j, ex in enumerate(r["slow_inputs"]):
                (out / "slow").mkdir(exist_ok=True)
                (out / "slow" / f"chunk{r['index']:05d}-{j}.json").write_text(json.dumps(ex, indent=1))
            for sig, ex in r["distinct"].items():
                if sig not in seen:
                    seen.add(sig)
                    name = f"{len(seen):04d}.json"
                    (out / "failures" / name).write_text(json.dumps({"signature": sig, **ex}, indent=1))
                    print(f"NEW FAILURE {name}: {sig}", flush=True)
            total["distinct"] = len(seen)
            total["chunks_done"] = done
            total["seconds"] = round(time.monotonic() - t0, 1)
            total["rate"] = round(total["inputs"] / max(total["seconds"], 1e-9), 1)
            (out / "progress.json").write_text(json.dumps(total, indent=1))
            print(f"chunk {r['index']} done: {total['inputs']} inputs, {total['failures']} failures "
                  f"({total['distinct']} distinct), {total['rate']}/s", flush=True)
    print(f"fuzz: failure classes {total['classes']}", flush=True)
    print(f"fuzz: {total['inputs']} inputs, {total['failures']} failures ({total['distinct']} distinct), "
          f"{total['hangs']} hangs, {total['crashes']} crashes, {total['slow']} slow, {total['cli']} through the CLI, "
          f"{total.get('seconds', 0)} s", flush=True)
    return 0 if total["failures"] == 0 and total["crashes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
