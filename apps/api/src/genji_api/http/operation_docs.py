"""Gives every operation of the OpenAPI document a summary and a description.

Both come from the route handler's docstring, the one place a route explains itself: the
summary is the first sentence's main clause (up to a `;` or a parenthesis), the description
the whole docstring followed by the scopes the route requires. A handler that sets either
itself keeps it.
"""

from __future__ import annotations

import inspect

from litestar.handlers import HTTPRouteHandler
from litestar.plugins import ReceiveRoutePlugin
from litestar.routes import BaseRoute, HTTPRoute

_CLAUSE_ENDS = ("; ", " (")


def _paragraphs(handler: HTTPRouteHandler) -> list[str]:
    doc = inspect.cleandoc(handler.fn.__doc__ or "")
    return [" ".join(part.split()) for part in doc.split("\n\n") if part.strip()]


def summary_of(first_paragraph: str) -> str:
    sentence = first_paragraph.split(". ", 1)[0]
    for end in _CLAUSE_ENDS:
        sentence = sentence.split(end, 1)[0]
    return sentence.rstrip(".").strip()


def access_of(handler: HTTPRouteHandler) -> str:
    required = sorted(handler.opt.get("required_scopes") or ())
    if not required:
        return "Superuser keys only."
    names = ", ".join(f"`{scope}`" for scope in required)
    return f"Requires the scopes {names} (a superuser key passes every route)."


def describe(handler: HTTPRouteHandler) -> None:
    paragraphs = _paragraphs(handler)
    if not paragraphs:
        return  # left bare, so the document test names the route
    if handler.summary is None:
        handler.summary = summary_of(paragraphs[0])
    if handler.description is None:
        handler.description = "\n\n".join([*paragraphs, access_of(handler)])


class OperationTextPlugin(ReceiveRoutePlugin):
    """Describes each documented route handler as the app registers it."""

    def receive_route(self, route: BaseRoute) -> None:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                if handler.include_in_schema and not handler.opt.get("exclude_from_auth"):
                    describe(handler)
