"""The bounded, seeded share of the fuzzing that runs in CI (issue 8, Must have 1).

Every input -- generated from the language's grammar, mutated from the samples and conformance
cases, or mutated byte by byte -- must end as SPEC says: a result (ok, or an error of a SPEC §4 kind)
that the CLI's renderers can show, nothing on the real stdout/stderr, no exception, no hang
(fuzzlib.check_source); through the ``gradcli`` command: exit status 0, 1 or 2, no traceback, valid
JSON (fuzzlib.check_cli).

Hypothesis drives the in-process share (``derandomize=True``: the same inputs on every run, so CI is
reproducible; a failure shrinks and prints a seed).  The whole file takes about two minutes here;
``GRADCLI_FUZZ_SCALE=10`` multiplies every budget for a longer local run.  The long run (millions of
inputs) is ``tests/fuzz/long_run.py``, see docs/FUZZING.md.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fuzzlib  # noqa: E402

SCALE = max(1, int(os.environ.get("GRADCLI_FUZZ_SCALE", "1")))


def _settings(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


def _check(src, rnd) -> None:
    opts = fuzzlib.random_options(rnd)
    problem = fuzzlib.check_source(src, opts, rnd=rnd)
    assert problem is None, f"input {src!r}\noptions {opts!r}\n{problem}"


@_settings(400)
@given(st.randoms(use_true_random=False))
def test_generated_programs(rnd):
    """Grammar-aware generation: valid programs and almost-valid ones (one token-level mutation)."""
    _check(fuzzlib.gen_program(rnd), rnd)


@_settings(400)
@given(st.randoms(use_true_random=False))
def test_mutated_real_programs(rnd):
    """AST- and text-level mutants of samples/ and the conformance cases."""
    _check(fuzzlib.mutate_program(rnd), rnd)


@_settings(250)
@given(st.randoms(use_true_random=False))
def test_byte_mutations(rnd):
    """Byte-level mutants: flips, NUL/BOM/invalid UTF-8/CR, truncation, splices, repeated chunks."""
    _check(fuzzlib.mutate_bytes(rnd), rnd)


@_settings(150)
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data):
    """Bytes straight from hypothesis (no corpus): the decoder and parser guards."""
    problem = fuzzlib.check_source(data)
    assert problem is None, f"input {data!r}\n{problem}"


@pytest.mark.parametrize("seed", range(3 * SCALE))
def test_seeded_mix(seed):
    """Plain seeded random mix of the three sources (the long run's generator, 300 inputs per seed)."""
    failures = fuzzlib.run_many(1000 + seed, 300)
    assert not failures, "\n\n".join(f"#{i} ({kind}) {src!r}\n{problem}" for i, kind, src, _, problem in failures[:3])


def test_corpus_is_loaded():
    assert len(fuzzlib.corpus()) >= 100  # samples + conformance cases + language test data


# --- through the command line -------------------------------------------------------------------------
def _cli_inputs(n: int, seed: int) -> list:
    rnd = random.Random(seed)
    return [fuzzlib.make_input(rnd)[1] for _ in range(n)]


@pytest.mark.parametrize("chunk", range(2 * SCALE))
def test_cli_subprocess_share(tmp_path, chunk):
    """A share through the real ``python -m gradcli run --json`` process: exit 0/1/2, no traceback, JSON."""
    problems = []
    for i, src in enumerate(_cli_inputs(8, 77 + chunk)):
        path = tmp_path / f"in{i}.py"
        path.write_bytes(src if isinstance(src, bytes) else src.encode("utf-8", "surrogatepass"))
        args = ["run", "--json", "--max-steps", "20000", "--timeout", "3", "--max-elements", "200000"]
        if i % 3 == 1:
            args = ["run", "--max-steps", "20000", "--timeout", "3"]  # the human report too
        elif i % 3 == 2:
            args = ["graph", "--max-steps", "20000", "--timeout", "3", "--show-saved"]
        problem = fuzzlib.check_cli(path, args, timeout=60, env={"NO_COLOR": "1", "COLUMNS": "100"})
        if problem is not None:
            problems.append(f"{src!r}\n{problem}")
    assert not problems, "\n\n".join(problems)


def test_cli_in_process_share(tmp_path):
    """More inputs through the CLI's code (typer app, renderers, exit status) in process."""
    from typer.testing import CliRunner

    from gradcli.cli import app

    runner = CliRunner()
    problems = []
    for i, src in enumerate(_cli_inputs(40 * SCALE, 4242)):
        path = tmp_path / "in.py"
        path.write_bytes(src if isinstance(src, bytes) else src.encode("utf-8", "surrogatepass"))
        cmd = ["run", str(path), "--max-steps", "20000", "--timeout", "3", "--max-elements", "200000"]
        if i % 2:
            cmd.append("--json")
        r = runner.invoke(app, cmd)
        text = r.output + (r.stderr if r.stderr_bytes is not None else "")
        if r.exit_code not in (0, 1, 2) or "Traceback (most recent call last)" in text or (r.exception and not isinstance(
                r.exception, SystemExit)):
            problems.append(f"{src!r}\nexit {r.exit_code}: {text[-1500:]}\n{r.exception!r}")
    assert not problems, "\n\n".join(problems[:3])


def test_cli_other_commands_share(tmp_path):
    """The other commands on fuzz inputs, in process: why, lint, modes, check, graph in each format,
    run --explain-vjp --trace; exit 0/1/2 and no traceback."""
    from typer.testing import CliRunner

    from gradcli.cli import app

    runner = CliRunner()
    rnd = random.Random(9090)
    limits = ["--max-steps", "20000", "--timeout", "3", "--max-elements", "200000"]
    problems = []
    for i, src in enumerate(_cli_inputs(20 * SCALE, 9091)):
        path = tmp_path / "in.py"
        path.write_bytes(src if isinstance(src, bytes) else src.encode("utf-8", "surrogatepass"))
        for cmd in (["why", str(path), rnd.choice(["x", "y", "z", "loss", "a"])], ["lint", str(path)],
                    ["modes", str(path), *limits], ["check", str(path), *limits],
                    ["graph", str(path), "--format", rnd.choice(["tree", "dot", "mermaid", "json"]), "--show-saved",
                     *limits],
                    ["run", str(path), "--explain-vjp", "--trace", *limits]):
            if rnd.random() < 0.3 and cmd[0] != "graph":  # graph has --format json instead
                cmd.append("--json")
            r = runner.invoke(app, cmd)
            text = r.output + (r.stderr if r.stderr_bytes is not None else "")
            if r.exit_code not in (0, 1, 2) or "Traceback (most recent call last)" in text or (r.exception and not isinstance(
                    r.exception, SystemExit)):
                problems.append(f"{cmd[0]} {src!r}\nexit {r.exit_code}: {text[-1500:]}\n{r.exception!r}")
    assert not problems, "\n\n".join(problems[:3])
