"""Human output of `gradcli run`: print output first and exact, the tensor table, panels for
warnings and errors (kind, file:line:col, source line and caret, hint), plain text when piped
or NO_COLOR, colour only when asked for a terminal."""

from __future__ import annotations

from cli_helpers import case_path, expected, header_options, run_installed

from gradcli.cli import app

ESC = "\x1b["


def test_print_output_comes_first_and_exact(runner):
    path = case_path("printing_first.py")
    r = runner.invoke(app, ["run", str(path)])
    want = expected("printing_first.py")["stdout"]
    assert r.exit_code == 0
    assert r.stdout.startswith(want)  # markup-like text is not eaten: "[bold]x[i][/bold]"
    rest = r.stdout[len(want):]
    assert "tensors" in rest and "MulBackward0" not in want


def test_table_shows_names_flags_values(runner):
    """x = [1, 2] leaf; y = sum(x*x) = 5; x.grad = 2x = [2, 4] (mathematics)."""
    r = runner.invoke(app, ["run", str(case_path("default_backward.py"))], env={"COLUMNS": "150"})
    lines = r.stdout.splitlines()
    header = next(i for i, l in enumerate(lines) if l.startswith("name"))
    assert all(h in lines[header - 1] + lines[header] for h in ("shape", "dtype", "grad_fn", "data", "grad"))
    x_row = next(l for l in lines if l.startswith("x "))
    y_row = next(l for l in lines if l.startswith("y "))
    assert "[2]" in x_row and "float32" in x_row and "[1., 2.]" in x_row and "[2., 4.]" in x_row
    assert "SumBackward0" in y_row and "5." in y_row
    assert lines[-1] == "ok"


def test_narrow_terminal_splits_flags_and_values(runner):
    r = runner.invoke(app, ["run", str(case_path("default_backward.py"))], env={"COLUMNS": "60"})
    assert r.exit_code == 0
    assert "\nvalues" in r.stdout
    assert max(len(l) for l in r.stdout.splitlines()) <= 60


def test_show_selects_columns(runner):
    src = str(case_path("default_backward.py"))
    r = runner.invoke(app, ["run", src, "--show", "data"], env={"COLUMNS": "150"})
    header = next(l for l in r.stdout.splitlines() if l.startswith("name"))
    assert "data" in header and "grad_fn" not in header and "grad " not in header + " "
    r = runner.invoke(app, ["run", src, "--show", "flags,grad"], env={"COLUMNS": "150"})
    text = r.stdout
    assert "grad_fn" in text and "[1., 2.]" not in text and "[2., 4.]" in text


def test_error_panel(runner):
    r = runner.invoke(app, ["run", str(case_path("second_backward_file.py"))], env={"COLUMNS": "100"})
    out = r.stdout
    assert r.exit_code == 1
    assert "error: second_backward" in out
    assert "second_backward_file.py:6:1" in out  # line 6, first column
    assert "6 | y.backward()" in out
    plain = [line.replace("│", " ").rstrip() for line in out.splitlines()]
    i = next(i for i, line in enumerate(plain) if line.endswith("6 | y.backward()"))
    assert plain[i + 1].endswith("| ^") and plain[i + 1].index("^") == plain[i].index("y.backward()")
    assert "hint:" in out and "retain_graph" in out
    assert out.rstrip().endswith("failed: second_backward at line 6")


def test_caret_under_the_column(runner):
    src = "x = torch.tensor([1.0, 2.0])\nif True:\n    y = x.item()\n"
    r = runner.invoke(app, ["run", "-"], input=src, env={"COLUMNS": "100"})
    lines = [l.replace("│", " ").rstrip() for l in r.stdout.splitlines()]
    i = next(i for i, l in enumerate(lines) if "3 |     y = x.item()" in l)
    src_col = lines[i].index("y = x.item()")
    col = (r.stdout.split("<stdin>:3:")[1].split()[0])
    assert lines[i + 1].rstrip().endswith("^")
    assert lines[i + 1].index("^") == src_col + int(col) - 5  # col is 1-based; the line is indented 4


def test_error_after_the_file_has_no_line(runner):
    r = runner.invoke(app, ["run", str(case_path("repeat_no_retain.py")), *header_options(case_path(
        "repeat_no_retain.py"))])
    assert r.exit_code == 1
    assert "error: second_backward" in r.stdout and "backward gradcli ran after the file" in r.stdout


def test_warning_panel(runner):
    src = "x = torch.tensor(2.0, requires_grad=True)\ny = x * 3\ny.backward()\nprint(y.grad)\n"
    r = runner.invoke(app, ["run", "-"], input=src, env={"COLUMNS": "100"})
    assert r.exit_code == 0
    assert r.stdout.startswith("None\n")
    assert "warning: non_leaf_grad" in r.stdout and "<stdin>:4" in r.stdout and "retain_grad" in r.stdout


def test_user_text_is_never_markup(runner):
    src = "x = torch.tensor([1.0])\ny = x[5]  # [red]not markup[/red]\n"
    r = runner.invoke(app, ["run", "-"], input=src, env={"COLUMNS": "120"})
    assert r.exit_code == 1
    assert "y = x[5]  # [red]not markup[/red]" in r.stdout


def test_unsupported_lists_no_tensor_table(runner):
    r = runner.invoke(app, ["run", "-"], input="import os\nx = torch.ones(2)\n")
    assert r.exit_code == 1 and "error: unsupported" in r.stdout and "tensors" not in r.stdout


def test_trace_option_is_accepted(runner):
    r = runner.invoke(app, ["run", str(case_path("default_backward.py")), "--trace"])
    assert r.exit_code == 0
    assert "tensors" in r.stdout and "backward trace" in r.stdout


def test_piped_output_is_plain_text():
    r = run_installed(["run", str(case_path("second_backward_file.py"))])
    assert r.returncode == 1
    assert ESC not in r.stdout and ESC not in r.stderr
    assert "error: second_backward" in r.stdout


def test_no_color_wins_over_force_color():
    path = str(case_path("second_backward_file.py"))
    coloured = run_installed(["run", path], env={"FORCE_COLOR": "1"})
    assert ESC in coloured.stdout  # a (forced) terminal gets colour
    plain = run_installed(["run", path], env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert ESC not in plain.stdout
    assert plain.stdout.startswith(expected("second_backward_file.py")["stdout"])


def test_stdin_through_the_installed_script():
    src = case_path("dtype64.py").read_text()
    r = run_installed(["run", "-", "--dtype", "float64"], stdin=src)
    assert r.returncode == 0
    assert r.stdout.startswith(expected("dtype64.py")["stdout"])
    r = run_installed(["run", "-", "--dtype", "float64", "--json"], stdin=src)
    assert r.returncode == 0 and '"file": "<stdin>"' in r.stdout


def test_every_unsupported_construct_is_listed(runner):
    """SPEC §2: the whole file is checked before anything runs; each construct is reported."""
    src = "import os\nx = torch.ones(2)\ntry:\n    pass\nexcept* Exception:\n    pass\ny = x.__class__\n"
    r = runner.invoke(app, ["run", "-"], input=src, env={"COLUMNS": "120"})
    assert r.exit_code == 1
    assert "error: unsupported" in r.stdout and "<stdin>:1:1" in r.stdout
    assert "2 more problems in the file:" in r.stdout
    assert "<stdin>:3:" in r.stdout and "<stdin>:7:" in r.stdout
