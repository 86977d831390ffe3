"""Documents the shared error body on every operation of the OpenAPI document.

Every route can answer with the error shape of `error_bodies`, so the document lists it for the
statuses the API produces, whatever the route declares itself; a route's own entry for the same
status wins.
"""

from __future__ import annotations

from http import HTTPStatus

from genji_sdk.api_errors import ErrorBody
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.plugins import ReceiveRoutePlugin
from litestar.routes import BaseRoute, HTTPRoute

ERROR_STATUSES = (400, 401, 404, 409, 413, 500, 503)


__all__ = ("ERROR_RESPONSES", "FORBIDDEN", "ErrorBody", "ErrorResponsesPlugin", "document_errors")


def error_response(status: int) -> ResponseSpec:
    return ResponseSpec(
        data_container=ErrorBody, generate_examples=False, description=HTTPStatus(status).phrase
    )


ERROR_RESPONSES: dict[int, ResponseSpec] = {
    status: error_response(status) for status in ERROR_STATUSES
}
# Routes that check who acts, beyond the key's scopes, declare this one themselves.
FORBIDDEN: dict[int, ResponseSpec] = {403: error_response(403)}


def document_errors(handler: HTTPRouteHandler) -> None:
    handler.responses = {**ERROR_RESPONSES, **(handler.responses or {})}


class ErrorResponsesPlugin(ReceiveRoutePlugin):
    """Adds the error responses to each route handler as the app registers it."""

    def receive_route(self, route: BaseRoute) -> None:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                document_errors(handler)
