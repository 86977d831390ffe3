"""`python -m genji_api.jobs`: the operator commands (the `genji-jobs` script)."""

from genji_api.jobs.cli import main

main()
