"""bench/backend_profile.py charges each sampled stack to the innermost stage on it, from the
text `perf script` prints."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

# Three samples as `perf script` prints them: a header line, frames innermost first, a blank line.
PERF_SCRIPT = """\
postgres 4242 100.000001:    1001001 cpu-clock:ppp:
\t    5f1a2b palloc0+0x1b (/usr/lib/postgresql/15/bin/postgres)
\t    4c2d10 ExecInitNode+0x40 (/usr/lib/postgresql/15/bin/postgres)
\t    4c0a00 standard_ExecutorStart+0x120 (/usr/lib/postgresql/15/bin/postgres)
\t    7f0a10 [unknown] (/usr/lib/postgresql/15/lib/plpgsql.so)
\t    7f0b20 plpgsql_exec_function+0x230 (/usr/lib/postgresql/15/lib/plpgsql.so)
\t    4c1b00 standard_ExecutorRun+0x90 (/usr/lib/postgresql/15/bin/postgres)
\t    472bf6 PostgresMain+0x236 (/usr/lib/postgresql/15/bin/postgres)

postgres 4242 100.001002:    1001001 cpu-clock:ppp:
\t    61aa00 json_build_object+0x10 (/usr/lib/postgresql/15/bin/postgres)
\t    4c1b00 standard_ExecutorRun+0x90 (/usr/lib/postgresql/15/bin/postgres)
\t    7f0b20 plpgsql_exec_trigger+0x130 (/usr/lib/postgresql/15/lib/plpgsql.so)
\t    4d0000 AfterTriggerEndQuery+0x70 (/usr/lib/postgresql/15/bin/postgres)
\t    4c1c00 standard_ExecutorFinish+0x50 (/usr/lib/postgresql/15/bin/postgres)
\t    472bf6 PostgresMain+0x236 (/usr/lib/postgresql/15/bin/postgres)

postgres 4242 100.002003:    1001001 cpu-clock:ppp:
\t    10ab59 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t    472bf6 PostgresMain+0x236 (/usr/lib/postgresql/15/bin/postgres)
"""


@pytest.fixture
def backend_profile(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("backend_profile")


def test_a_sample_goes_to_the_innermost_stage_on_its_stack(backend_profile: ModuleType) -> None:
    profile = backend_profile.parse_perf_script(iter(PERF_SCRIPT.splitlines()))

    assert profile.samples == 3
    # The statement started inside the function is start-up, not the caller's run; the
    # trigger's statement is a run, and counted as in triggers too.
    assert dict(profile.stages) == {
        "executor start-up": 1,
        "statement run": 1,
        backend_profile.OTHER: 1,
    }
    assert profile.in_triggers == 1
