"""Packaging and start-up: the script, python -m, --help without numpy, --version."""

from __future__ import annotations

import subprocess
import sys

from cli_helpers import run_installed

from gradcli import __version__
from gradcli.cli import app, main
from gradcli.status import ExitStatus


def test_exit_status_values_are_the_spec_ones():
    assert [int(s) for s in (ExitStatus.SUCCESS, ExitStatus.ERROR, ExitStatus.USAGE, ExitStatus.INTERNAL)] == \
        [0, 1, 2, 70]


def test_help_lists_the_commands(runner):
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0
    for cmd in ("run", "ops", "graph"):
        assert f"  {cmd} " in r.stdout


def test_no_arguments_shows_help_as_a_usage_error(runner):
    r = runner.invoke(app, [])
    assert r.exit_code == 2
    assert "Usage: gradcli" in r.stdout + r.stderr


def test_run_help_names_every_spec_option(runner):
    r = runner.invoke(app, ["run", "--help"])
    assert r.exit_code == 0
    for opt in ("--set", "--requires-grad", "--retain-grad", "--no-grad", "--backward", "--gradient", "--inputs",
                "--retain-graph", "--create-graph", "--repeat", "--dtype", "--seed", "--json", "--expect-error",
                "--max-elements", "--max-steps", "--timeout", "--max-call-depth", "--max-output", "--max-source",
                "--max-depth", "--max-memory", "--json-max-elements", "--trace", "--show",
                "--debug"):
        assert opt in r.stdout, opt


def test_version(runner):
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.stdout.strip() == f"gradcli {__version__}"


def test_main_returns_the_status_instead_of_exiting():
    assert main(["--version"]) == 0
    assert main(["run", "--no-such-option", "x.py"]) == 2


def test_help_does_not_import_numpy_or_the_engine():
    code = ("import sys\n"
            "from gradcli.cli import main\n"
            "rc = main(['--help'])\n"
            "bad = [m for m in ('numpy', 'gradcli.autograd', 'gradcli.lang.run', 'gradcli.api', 'rich.table')"
            " if m in sys.modules]\n"
            "print('LOADED', bad, rc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().endswith("LOADED [] 0"), out.stdout + out.stderr


def test_installed_script_and_python_m_agree():
    a = run_installed(["--help"])
    b = subprocess.run([sys.executable, "-m", "gradcli", "--help"], capture_output=True, text=True, timeout=60)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    assert a.stdout.startswith("Usage: gradcli ")


def test_python_m_gradcli_help_imports_neither_numpy_nor_rich():
    # the real entry point (script(), as the console script), seen by the interpreter's own import log
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "gradcli", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("Usage: gradcli ")
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.count("|") == 2}
    assert "typer" in imported  # the log is the one we think it is
    assert not {m for m in imported if m.split(".")[0] in ("numpy", "rich")}, sorted(imported)


def test_script_exit_keeps_output_status_and_atexit(tmp_path):
    # script() ends the process with os._exit after flushing and running atexit handlers: nothing may be lost
    f = tmp_path / "big.py"
    f.write_text("for i in range(30000):\n    print(i)\nassert False, 'last'\n", encoding="utf-8")
    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write('ATEXIT-RAN\\n'))\n"
            "from gradcli.cli import script\n"
            "sys.argv = ['gradcli', 'run', %r, '--json']\n"
            "script()\n" % str(f))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1  # the file failed: exit status 1 (SPEC)
    doc = __import__("json").loads(out.stdout)
    assert doc["stdout"].splitlines() == [str(i) for i in range(30000)]
    assert doc["error"]["kind"] == "assertion" and doc["error"]["message"] == "last"
    assert out.stderr.strip().endswith("ATEXIT-RAN")
