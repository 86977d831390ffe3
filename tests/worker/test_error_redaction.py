"""Failure summaries never carry credentials: what the worker stores and shows is redacted."""

import pytest
from genji_worker.errors import redact

pytestmark = pytest.mark.queue


@pytest.mark.parametrize(
    ("message", "secret"),
    [
        ("401 for Authorization: Bearer abc.def-ghi", "abc.def-ghi"),
        ("headers={'Authorization': 'Bot MTIz.secret.token'}", "MTIz.secret.token"),
        ('sent "authorization": "Bearer xyz" to discord', "xyz"),
        ("X-API-KEY=k3y-value failed", "k3y-value"),
        ("connect postgresql://genji:p@ss@db:5432/app refused", "p@ss"),
        ("connect postgresql://genji:plain@db/app refused", "plain"),
        ("password=hunter2 rejected", "hunter2"),
        ("token: tok_123", "tok_123"),
    ],
    ids=[
        "bearer",
        "bot-token-dict",
        "json-header",
        "api-key",
        "url-at-in-password",
        "url",
        "password",
        "token",
    ],
)
def test_secrets_are_redacted(message: str, secret: str) -> None:
    redacted = redact(message)
    assert secret not in redacted
    assert "***" in redacted


def test_ordinary_messages_are_kept() -> None:
    message = "announce failed: 503 from discord for user 7 at https://discord.com/api/x"
    assert redact(message) == message
