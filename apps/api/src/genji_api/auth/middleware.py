"""Authenticates every request by its X-API-KEY header."""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.middleware import AbstractAuthenticationMiddleware, AuthenticationResult

from genji_api.auth.tokens import find_token
from genji_api.database import Database

API_KEY_HEADER = "X-API-KEY"
PUBLIC_PATHS = ("/schema", "/healthcheck")


class ApiKeyMiddleware(AbstractAuthenticationMiddleware):
    async def authenticate_request(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> AuthenticationResult:
        api_key = connection.headers.get(API_KEY_HEADER)
        if not api_key:
            raise NotAuthorizedException("An API key is required (X-API-KEY header).")
        database: Database = connection.app.state.database
        found = await database.read(lambda conn: find_token(conn, api_key))
        if found is None:
            raise NotAuthorizedException("Invalid API key.")
        user, token = found
        return AuthenticationResult(user=user, auth=token)
