"""The expression language: a safe subset of Python + torch (SPEC §2).

limits -> parse -> validate -> interpreter (closures) -> run.run_file.
Importing this package imports nothing heavy (no engine, no rich/typer);
:func:`gradcli.lang.run.run_file` loads the engine when it runs a file.
"""
