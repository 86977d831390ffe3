"""Sentry for the API and bot processes, only when SENTRY_DSN is set.

SENTRY_ENVIRONMENT and SENTRY_RELEASE are passed through when set. Every event goes through
`scrub_event`; personal data, headers, cookies, bodies, query strings, local variables and the
command line are not collected in the first place. Log records become breadcrumbs; only
CRITICAL ones (a dead worker) become events, so an outage or a failing job is one grouped issue
(genji_worker.sentry_reports) and never a storm of logged errors.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

import sentry_sdk
from sentry_sdk.integrations.argv import ArgvIntegration
from sentry_sdk.integrations.logging import LoggingIntegration
from sentry_sdk.transport import Transport

from genji_worker.sentry_scrub import scrub_event


def init_sentry(
    service: str,
    environ: Mapping[str, str] = os.environ,
    *,
    transport: Transport | None = None,
) -> bool:
    """Start reporting to SENTRY_DSN as `service` ("api" or "bot"); False when it is unset."""
    dsn = environ.get("SENTRY_DSN", "").strip()
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=environ.get("SENTRY_ENVIRONMENT") or None,
        release=environ.get("SENTRY_RELEASE") or None,
        server_name=f"genji-{service}",
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_headers": {"request": {"mode": "off"}},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
            "database_query_data": False,
            "stack_frame_variables": False,
        },
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub_event,
        before_send_transaction=scrub_event,
        integrations=[LoggingIntegration(level=logging.INFO, event_level=logging.CRITICAL)],
        # The command line may carry a connection string.
        disabled_integrations=[ArgvIntegration],
        transport=transport,
    )
    return True
