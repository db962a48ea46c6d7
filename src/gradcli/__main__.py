"""``python -m gradcli``: the same entry point as the ``gradcli`` script."""

from gradcli.cli import script

if __name__ == "__main__":  # pragma: no cover - exercised by subprocess tests
    script()
