"""`python -m genji_api.queue.report --help` names the command as it is run, describes every
option and documents the exit status."""

from __future__ import annotations

import subprocess
import sys


def test_the_report_help_names_itself_and_documents_options_and_exit_codes() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "genji_api.queue.report", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"COLUMNS": "100", "PATH": ""},
    )
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert text.startswith("usage: python -m genji_api.queue.report "), text
    for option in (
        "--database URL the queue database",
        "--alive-within SECONDS a worker whose last beat",
        "--timeout SECONDS at most this long",
    ):
        assert option in text, text
    assert (
        'exit status: 0 nothing needs attention ("all clear") '
        '1 something needs attention: each reason is printed under "needs attention" '
        "2 the health cannot be read"
    ) in text, text
