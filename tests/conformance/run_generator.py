"""Batch runner of the program generator: many programs, every disagreement logged (no stop at the first).

    python tests/conformance/run_generator.py --count 2000 --seed 7 --out /tmp/gen7.jsonl

Each line of the log is a disagreement: the program (with its options as a
``# gradcli:`` header) and the differences.  The last line printed is
``generated: N programs, D disagreements`` (also appended to --tally when
given).  ``test_generated.py`` is the deterministic CI version, which stops at
the first disagreement and shrinks it.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from differential import check, describe  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from program_strategies import programs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="generator-disagreements.jsonl")
    p.add_argument("--tally", help="append 'seed count disagreements' to this file")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)

    stats: collections.Counter = collections.Counter()
    t0 = time.monotonic()
    out = open(args.out, "a", encoding="utf-8")

    @seed(args.seed)
    @settings(max_examples=args.count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def one(program):
        stats["programs"] += 1
        try:
            diffs, g, pt = check(program.source, program.options)
        except Exception as e:  # noqa: BLE001 - a crash of either side is a finding too
            stats["crash"] += 1
            out.write(json.dumps({"case": program.case_text(), "crash": repr(e)}) + "\n")
            out.flush()
            return
        stats["ok" if pt["ok"] else "error:" + pt["error"]["kind"]] += 1
        if diffs:
            stats["disagreements"] += 1
            out.write(json.dumps({"case": program.case_text(), "diffs": describe(diffs, g, pt)}) + "\n")
            out.flush()
            if args.verbose:
                print(program.case_text(), describe(diffs, g, pt), sep="\n", flush=True)
        if stats["programs"] % 200 == 0:
            print(f"... {stats['programs']} programs, {stats['disagreements']} disagreements, "
                  f"{time.monotonic() - t0:.0f} s", flush=True)

    try:
        one()
    except Exception:  # noqa: BLE001 - a bug of the generator itself: report it, keep the count
        import traceback

        stats["generator_error"] += 1
        traceback.print_exc()
    out.close()
    print(dict(stats))
    print(f"generated: {stats['programs']} programs, {stats['disagreements']} disagreements, "
          f"{stats['crash']} crashes in {time.monotonic() - t0:.0f} s")
    if args.tally:
        with open(args.tally, "a", encoding="utf-8") as fh:
            fh.write(f"{args.seed} {stats['programs']} {stats['disagreements']} {stats['crash']}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
