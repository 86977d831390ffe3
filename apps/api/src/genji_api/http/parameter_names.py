"""Validation errors name each parameter as the client sent it, not as the handler calls it.

Litestar reports a bad query, path, header or cookie value under the handler's argument name
(`job_state`); a route that publishes the parameter under another name (`state`) would then
answer with a name the client never used.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.params import ParameterKwarg


def _published_names(request: Request[Any, Any, Any]) -> dict[str, str]:
    names = {}
    for name, field in request.route_handler.parsed_fn_signature.parameters.items():
        kwarg = field.kwarg_definition
        if isinstance(kwarg, ParameterKwarg) and kwarg.name and kwarg.name != name:
            names[name] = kwarg.name
    return names


def named_as_sent(
    request: Request[Any, Any, Any], extra: dict[str, Any] | list[Any] | None
) -> dict[str, Any] | list[Any] | None:
    """`extra` of a validation error with every `key` renamed to the name the client sent."""
    if not isinstance(extra, list):
        return extra
    names = _published_names(request)
    if not names:
        return extra
    renamed: list[Any] = []
    for item in extra:
        if isinstance(item, dict) and (key := item.get("key")) in names:
            item = {**item, "key": names[key]}
        renamed.append(item)
    return renamed
