"""API keys are random strings shown once; only their SHA-256 digest is stored."""

from __future__ import annotations

import hashlib
import secrets

KEY_PREFIX_CHARS = 8


def new_api_key() -> str:
    return "gjs_" + secrets.token_urlsafe(32)


def key_digest(api_key: str) -> bytes:
    return hashlib.sha256(api_key.encode()).digest()
