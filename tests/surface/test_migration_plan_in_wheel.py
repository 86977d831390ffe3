"""The genji-api wheel carries the migration plan, and the migrator finds that copy with no
checkout around it: the wheel is built, unpacked away from the repository, and its own
genji_api reads the plan."""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from genji_api.migrations.location import db_dir
from genji_api.migrations.plan import read_plan

API_PROJECT = Path(__file__).resolve().parents[2] / "apps" / "api"
READ_PLAN = """
import json
from genji_api.migrations.location import db_dir
from genji_api.migrations.plan import read_plan
print(json.dumps({"db": str(db_dir()), "keys": [c.key for c in read_plan(db_dir()).changes]}))
"""


def test_the_wheel_carries_the_plan_and_reads_it_without_a_checkout(tmp_path: Path) -> None:
    uv = shutil.which("uv")
    assert uv, "uv is needed to build the wheel"
    subprocess.run(
        [uv, "build", "--wheel", "--offline", "--quiet", "-o", str(tmp_path), str(API_PROJECT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("genji_api-*.whl")
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    # -I: no PYTHONPATH or user site; the unpacked wheel goes ahead of the editable checkout.
    script = f"import sys\nsys.path.insert(0, {str(unpacked)!r})\n{READ_PLAN}"
    shown = subprocess.run(
        [sys.executable, "-I", "-c", script],
        env={k: v for k, v in os.environ.items() if k != "GENJI_DB_DIR"},
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert shown.returncode == 0, shown.stderr[-600:]
    found = json.loads(shown.stdout)
    assert found["db"] == str(unpacked / "genji_api" / "migrations" / "db")
    assert found["keys"] == [change.key for change in read_plan(db_dir()).changes]
