"""Payload contracts for the database, generated from the registry's msgspec payload types.

enqueue_job checks every payload against these contracts (sql/payload_check.sql), so a job
its worker could not decode is refused when it is enqueued instead of being held later.
`python -m genji_sdk.contracts` prints sql/payload_contracts.sql.
"""

from genji_sdk.contracts.model import (
    JSON_TYPES,
    ContractNode,
    UnsupportedContractError,
    contract_nodes,
)
from genji_sdk.contracts.patterns import UnsupportedPatternError, to_postgres
from genji_sdk.contracts.sql import render_sql

__all__ = (
    "JSON_TYPES",
    "ContractNode",
    "UnsupportedContractError",
    "UnsupportedPatternError",
    "contract_nodes",
    "render_sql",
    "to_postgres",
)
