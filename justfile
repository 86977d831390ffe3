set shell := ["bash", "-euo", "pipefail", "-c"]

# uv must never try to download an interpreter: only the package registries are reachable.
export UV_PYTHON_DOWNLOADS := "never"

# pytest-xdist workers for the suite recipes: most tests wait on processes and PostgreSQL, so
# three keep two cores busy. TEST_WORKERS=N overrides (0 runs everything in one process).
# loadgroup keeps tests marked with the same xdist_group on one worker.
workers := env_var_or_default("TEST_WORKERS", "3")
parallel := "-n " + workers + " --dist loadgroup"

# The project's interpreter runs the stack directly: `just` forwards SIGTERM to it, and no `uv run`
# in between delivers Ctrl-C a second time.
[doc('Install everything, start PostgreSQL (or use DATABASE_URL), migrate, run the stack until Ctrl-C.')]
up: deps
    exec "$(uv run --frozen python -c 'import sys; print(sys.executable)')" -m genji_devstack.local_stack

# Install everything and run every test, lint and type check.
test: deps check-lock lint
    uv run --frozen pytest {{parallel}} --acceptance-gate=full --junitxml=test-results/junit.xml

# All queue acceptance groups, fault injection included.
test-queue: deps
    uv run --frozen pytest {{parallel}} -m "queue or queue_fault" --acceptance-gate=full

# Queue acceptance without process or cluster fault injection.
test-queue-fast: deps
    uv run --frozen pytest {{parallel}} -m "queue and not queue_fault" --acceptance-gate=fast

# Schemathesis over every operation of the served OpenAPI document, verbosely, with its summary.
fuzz-api: deps
    uv run --frozen pytest tests/api/test_openapi_contract.py -v -s -p no:cacheprovider

deps:
    @ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-client >/dev/null)
    @command -v pg_dump >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null)
    @command -v sqitch >/dev/null && perl -MDBD::Pg -e1 2>/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqitch libdbd-pg-perl >/dev/null)
    @command -v docker-compose >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null)
    @command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null)
    uv sync --frozen --all-packages --quiet

lint:
    uv run --frozen ruff check .
    uv run --frozen ruff format --check .
    uv run --frozen mypy

# uv.lock is the source of truth; requirements.lock is its pip-readable export.
lock:
    uv lock
    uv export --frozen --all-packages --all-groups --no-emit-workspace --no-header --quiet -o requirements.lock

check-lock:
    uv lock --check
    uv export --frozen --all-packages --all-groups --no-emit-workspace --no-header --quiet | diff -q - requirements.lock

# Rewrite db/schema.sql from a freshly migrated database (review the diff with the migration).
schema-dump: deps
    uv run --frozen python -m genji_devstack.schema_dump > db/schema.sql

# --retag-unreleased rewrites the last tag's lines: only while that tag was never deployed.
[doc("Copy sql/ into unreleased plan changes and pin every tag's scripts in db/released (db/README.md).")]
release-plan *args: deps
    uv run --frozen python -m genji_devstack.release_plan {{args}}

# Rewrite sql/payload_contracts.sql from the SDK's payload types (ship it with a plan change).
payload-contracts: deps
    uv run --frozen python -m genji_sdk.contracts > sql/payload_contracts.sql

# Apply the migration plan to DATABASE_URL.
migrate: deps
    uv run --frozen python -m genji_api.migrate

# `just bench --quick` is a shorter smoke run.
[doc("Queue benchmarks, durable and with fsync off, then every target's verdict (bench/README.md).")]
bench *args: deps
    uv run --frozen python bench/run_all.py {{args}}

# Chaos soak of the whole stack on a private durable cluster (docs/soak.md); `just soak --short`.
soak *args: deps
    uv run --frozen python -m genji_devstack.soak {{args}}
