"""The consoles of the human output (issue 19): piped output carries no trailing pad spaces, a terminal
gets rich's output as it is, and what the file printed is written exactly, spaces included."""

from __future__ import annotations

import io

from rich.table import Table

from gradcli.app.render.console import StripTrailing, make_console, write_verbatim


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _table() -> Table:
    t = Table(title="t")
    t.add_column("a")
    t.add_column("b")
    t.add_row("x", "a long cell")
    t.add_row("longer", "y")
    return t


def test_piped_output_has_no_trailing_spaces(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_INTERACTIVE", raising=False)
    buf = io.StringIO()
    out = make_console(buf, width=60)
    assert isinstance(out.file, StripTrailing)
    out.print(_table())
    text = buf.getvalue()
    assert text and all(line == line.rstrip(" ") for line in text.splitlines())


def test_a_terminal_gets_riches_output_as_it_is(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    tty = _Tty()
    out = make_console(tty, width=60)
    assert out.file is tty


def test_what_the_file_printed_is_written_exactly():
    buf = io.StringIO()
    out = make_console(buf, width=60)
    out.print("a line   ")
    write_verbatim(out, "printed with spaces   \n")
    assert buf.getvalue() == "a line\nprinted with spaces   \n"


def test_a_partial_line_is_kept_until_flushed():
    buf = io.StringIO()
    s = StripTrailing(buf)
    s.write("abc  ")
    assert buf.getvalue() == ""
    s.write("def  \nx")
    assert buf.getvalue() == "abc  def\n"
    s.flush()
    assert buf.getvalue() == "abc  def\nx"
