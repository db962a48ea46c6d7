"""``python -m gradcli``: the same entry point as the ``gradcli`` script."""

from gradcli.cli import main

if __name__ == "__main__":  # pragma: no cover - exercised by subprocess tests
    raise SystemExit(main(prog_name="gradcli"))
