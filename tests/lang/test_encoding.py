"""Issue 19, must-have 7: a file that is not UTF-8, or has a NUL byte, is a clear ``syntax`` error naming the
byte offset and the problem, with a hint to save it as UTF-8; a PEP 263 coding line is honoured as Python
honours it, or refused clearly where Python refuses it."""

from __future__ import annotations

import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file


def run(data: bytes):
    return run_file(data, "f.py", RunOptions())


def test_a_latin1_byte_names_its_offset_line_and_the_problem():
    data = b"x = torch.tensor(1.0)\n# caf\xe9 au lait\ny = x * 2\n"
    r = run(data)
    e = r.error
    offset = data.index(b"\xe9")
    assert (e.kind, e.line, e.col) == ("syntax", 2, offset - data.index(b"#"))
    assert e.message == (f"the file is not valid UTF-8: the byte 0xe9 at byte offset {offset} cannot be decoded "
                         "(invalid continuation byte)")
    assert "Save the file as UTF-8" in e.hint and "coding: latin-1" in e.hint
    assert "Fix the Python syntax" not in e.hint
    assert r.stdout == "" and r.tensors == []


def test_a_coding_line_is_honoured_as_python_does():
    import contextlib
    import io

    data = b"# -*- coding: latin-1 -*-\ns = 'caf\xe9'\nprint(s, len(s))\n"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(data, "f.py", "exec"), {})  # what Python prints
    r = run(data)
    assert r.ok and r.stdout == out.getvalue() == "café 4\n"
    assert r.source.splitlines()[1] == "s = 'café'"  # shown decoded


def test_python_decodes_the_coding_line_the_same_way():
    data = b"# vim: set fileencoding=cp1252 :\ns = '\x80 \x93quoted\x94'\nprint(s)\n"
    expect = {}
    exec(compile(data, "f.py", "exec"), expect)
    assert run(data).stdout == expect["s"] + "\n"


@pytest.mark.parametrize("data, words", [
    (b"# coding: foo\nx = 1\n", "declares an unknown encoding: foo"),
    (b"\xef\xbb\xbf# coding: latin-1\nx = 1\n", "starts with a UTF-8 byte order mark, but its coding line"),
    (b"# coding: rot13\nx = 1\n", "which Python source cannot be written in"),
    (b"# coding: utf-16\nx = 1\n", "which Python source cannot be written in"),
])
def test_a_coding_line_python_refuses_is_refused_clearly(data, words):
    with pytest.raises(SyntaxError):
        compile(data, "f.py", "exec")  # Python refuses it too
    e = run(data).error
    assert e.kind == "syntax" and e.line == 1 and words in e.message
    assert "Save the file as UTF-8" in e.hint


def test_a_nul_byte_names_its_offset():
    data = b"x = 1\ny = 2\x00\n"
    e = run(data).error
    assert (e.kind, e.line, e.col) == ("syntax", 2, 5)
    assert e.message == "the file contains a NUL byte (0x00) at byte offset 11"
    assert "UTF-8" in e.hint and "cannot contain NUL" in e.hint


def test_a_utf16_file_is_recognised():
    data = "x = torch.ones(2)\n".encode("utf-16")
    e = run(data).error
    assert e.kind == "syntax" and e.message.endswith("it looks like UTF-16")
    assert "iconv -f UTF-16 -t UTF-8" in e.hint


def test_a_bom_is_still_dropped():
    r = run(b"\xef\xbb\xbfx = torch.ones(1)\nprint(x)\n")
    assert r.ok and r.stdout == "tensor([1.])\n"


def test_the_cli_shows_the_offset(tmp_path, capsys, monkeypatch):
    from gradcli.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    (tmp_path / "f.py").write_bytes(b"x = 1\n# \xff\n")
    code = main(["run", "f.py"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1 and "the byte 0xff at byte offset 8 cannot be decoded (invalid start byte)" in out
    assert "--> f.py:2:3" in out
