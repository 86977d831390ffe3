"""Print sql/payload_contracts.sql for the SDK registry (`just payload-contracts`)."""

import sys

from genji_sdk.contracts.sql import render_sql
from genji_sdk.registry import REGISTRY

sys.stdout.write(render_sql(REGISTRY))
