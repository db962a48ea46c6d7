"""Exit statuses (SPEC §3): 0 ok, 1 the file failed / --expect-error not met, 2 bad invocation,
70 internal error (a short panel; the traceback only with --debug)."""

from __future__ import annotations

import sys
import types

import pytest
from cli_helpers import case_path

from gradcli.cli import app

OK = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n"
FAILS = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n"


def test_ok_is_0(runner):
    assert runner.invoke(app, ["run", "-"], input=OK).exit_code == 0


def test_file_error_is_1(runner):
    r = runner.invoke(app, ["run", "-"], input=FAILS)
    assert r.exit_code == 1
    assert "second_backward" in r.stdout


def test_failed_assert_is_1(runner):
    r = runner.invoke(app, ["run", "-", "--json"], input="x = torch.tensor(1.0)\nassert x.item() == 2.0\n")
    assert r.exit_code == 1 and '"kind": "assertion"' in r.stdout


@pytest.mark.parametrize("kind, source, status", [
    ("second_backward", FAILS, 0),        # the expected failure happened
    ("no_grad_fn", FAILS, 1),             # another kind happened
    ("second_backward", OK, 1),           # nothing failed
])
def test_expect_error(runner, kind, source, status):
    r = runner.invoke(app, ["run", "-", "--expect-error", kind], input=source)
    assert r.exit_code == status
    r = runner.invoke(app, ["run", "-", "--expect-error", kind, "--json"], input=source)
    assert r.exit_code == status


def test_expect_error_verdict_line(runner):
    r = runner.invoke(app, ["run", "-", "--expect-error", "second_backward"], input=FAILS)
    assert "as --expect-error asked" in r.stdout
    r = runner.invoke(app, ["run", "-", "--expect-error", "second_backward"], input=OK)
    assert "expected error second_backward, but the run succeeded" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["run", "missing_file.py"], "no such file: missing_file.py"),
    (["run", "-", "--set", "x"], "expected NAME=VALUE"),
    (["run", "-", "--set", "=3"], "NAME before '=' is empty"),
    (["run", "-", "--set", "1x=3"], "not a valid name"),
    (["run", "-", "--set", "x="], "VALUE after '=' is empty"),
    (["run", "-", "--expect-error", "no_such_kind"], "unknown error kind"),
    (["run", "-", "--show", "data,bogus"], "unknown value 'bogus'"),
    (["run", "-", "--inputs", "a,,b"], "expected NAME[,NAME...]"),
    (["run", "-", "--requires-grad", "not-a-name"], "not a valid name"),
    (["run", "-", "--backward", "x.y"], "not a valid name"),
])
def test_our_invocation_errors_are_2(runner, args, message):
    r = runner.invoke(app, args, input=OK)
    assert r.exit_code == 2, r.stdout + r.stderr
    assert message in r.stderr
    assert r.stdout == ""


def test_directory_is_2(runner, tmp_path):
    r = runner.invoke(app, ["run", str(tmp_path)])
    assert r.exit_code == 2 and "is a directory" in r.stderr


@pytest.mark.parametrize("args", [
    ["run", "-", "--no-such-option"],
    ["run", "-", "--dtype", "float16"],
    ["run", "-", "--repeat", "-1"],
    ["run", "-", "--repeat", "two"],
    ["run"],
    ["frobnicate"],
])
def test_parser_errors_are_2(runner, args):
    assert runner.invoke(app, args, input=OK).exit_code == 2


def test_bad_set_expression_is_2(runner):
    """The language layer refuses the VALUE (InvocationError) -> still an invocation error."""
    r = runner.invoke(app, ["run", "-", "--set", "x=torch.no_such_function(1)"], input=OK)
    assert r.exit_code == 2, r.stdout + r.stderr
    assert r.stdout == "" and "error" in r.stderr


def _break_run_file(monkeypatch):
    fake = types.ModuleType("gradcli.lang.run")

    def run_file(source, filename, options):
        raise ZeroDivisionError("a bug inside gradcli")

    fake.run_file = run_file
    monkeypatch.setitem(sys.modules, "gradcli.lang.run", fake)


def test_internal_error_is_70_with_short_panel(runner, monkeypatch):
    _break_run_file(monkeypatch)
    r = runner.invoke(app, ["run", str(case_path("default_backward.py"))])
    assert r.exit_code == 70
    assert "internal error" in r.stderr and "ZeroDivisionError: a bug inside gradcli" in r.stderr
    assert "Traceback" not in r.stderr and "--debug" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("exc", [TypeError("must be real number, not list"), IndexError("list index out of range")])
def test_engine_type_or_index_bug_is_internal_not_the_files_error(runner, monkeypatch, tmp_path, exc):
    # issue 16: the float64 normal fill's fallback passed rows to math.log on AVX-512 hosts, and the TypeError
    # was shown as the user's `type` error at their randn line; an exception of gradcli's own code is exit 70
    from gradcli.autograd import random as R

    def broken(name, x):
        raise exc

    monkeypatch.setattr(R, "_libm", broken)
    f = tmp_path / "f.py"
    f.write_text("x = torch.randn(100, dtype=torch.float64)\n")
    r = runner.invoke(app, ["run", str(f), "--json"])
    assert r.exit_code == 70, r.stdout
    assert "internal error" in r.stderr and type(exc).__name__ in r.stderr
    assert '"kind": "type"' not in r.stdout and '"kind": "index"' not in r.stdout


def test_internal_error_traceback_with_debug(runner, monkeypatch):
    _break_run_file(monkeypatch)
    r = runner.invoke(app, ["run", str(case_path("default_backward.py")), "--debug", "--json"])
    assert r.exit_code == 70
    assert "Traceback (most recent call last)" in r.stderr and "run_file" in r.stderr
    assert r.stdout == ""  # --json: nothing on stdout when there is no result


def test_interrupt_is_130(runner, monkeypatch):
    fake = types.ModuleType("gradcli.lang.run")

    def run_file(source, filename, options):
        raise KeyboardInterrupt

    fake.run_file = run_file
    monkeypatch.setitem(sys.modules, "gradcli.lang.run", fake)
    assert runner.invoke(app, ["run", str(case_path("default_backward.py"))]).exit_code == 130
