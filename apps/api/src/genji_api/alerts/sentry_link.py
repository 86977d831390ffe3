"""The alert card's Sentry link: the issues search for the job's UUID.

SENTRY_ISSUE_URL_TEMPLATE (ApiSettings.sentry_issue_url_template) is an issues search URL with
`{job_uuid}` where the UUID goes, for example
`https://sentry.io/organizations/<org>/issues/?project=<id>&query=job_uuid%3A{job_uuid}`: held
jobs are reported with a `job_uuid` tag (genji_worker.sentry_reports), so the search finds the
issue the job's failure was grouped into. No template, no link.
"""

from __future__ import annotations

from urllib.parse import urlsplit
from uuid import UUID

PLACEHOLDER = "{job_uuid}"


def sentry_link(template: str | None, job_id: UUID) -> str | None:
    if not template:
        return None
    if PLACEHOLDER not in template or urlsplit(template).scheme not in ("http", "https"):
        raise ValueError(f"SENTRY_ISSUE_URL_TEMPLATE must be an http(s) URL with {PLACEHOLDER}")
    return template.replace(PLACEHOLDER, str(job_id))
