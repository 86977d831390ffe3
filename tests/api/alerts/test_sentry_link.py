"""The alert card's Sentry link searches for the job's UUID, the tag its issue carries."""

from uuid import UUID

import pytest
from genji_api.alerts.sentry_link import sentry_link
from genji_api.settings import SettingsError, settings_from_env

JOB = UUID("3ddf00d4-1f16-45b5-84f4-c070500ed083")


def test_the_sentry_link_searches_for_the_job_uuid() -> None:
    template = "https://sentry.io/organizations/genji/issues/?query=job_uuid%3A{job_uuid}"
    assert sentry_link(template, JOB) == (
        f"https://sentry.io/organizations/genji/issues/?query=job_uuid%3A{JOB}"
    )
    assert sentry_link(None, JOB) is None
    with pytest.raises(ValueError, match="job_uuid"):
        sentry_link("https://sentry.io/organizations/genji/issues/", JOB)


def test_a_template_without_the_job_uuid_stops_the_api_at_start() -> None:
    with pytest.raises(SettingsError, match="job_uuid"):
        settings_from_env(
            {
                "DATABASE_URL": "postgresql://x@h/d",
                "SENTRY_ISSUE_URL_TEMPLATE": "ftp://x/{job_uuid}",
            }
        )
