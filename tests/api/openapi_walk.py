"""Reads the app's own OpenAPI document: its operations with a JSON body, and sample values.

Only the document is consulted, so every route the app serves is covered as it lands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from genji_api.app import create_app
from genji_api.settings import ApiSettings

JSON = "application/json"
METHODS = ("get", "put", "post", "delete", "patch")
SAMPLE_UUID = UUID("00000000-0000-4000-8000-000000000000")


def served_document() -> dict[str, Any]:
    """The document the app serves; building it opens no database connection."""
    app = create_app(ApiSettings(database_url="postgresql://unused.invalid/unused"))
    return app.openapi_schema.to_schema()


@dataclass(frozen=True)
class Operation:
    method: str
    path_template: str
    parameters: tuple[dict[str, Any], ...]
    body_schema: dict[str, Any] | None
    """The JSON request body's schema, if the operation takes one."""

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path_template}"


def operations(document: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            content = (operation.get("requestBody") or {}).get("content", {})
            found.append(
                Operation(
                    method=method,
                    path_template=path,
                    parameters=tuple(operation.get("parameters", ())),
                    body_schema=content[JSON].get("schema", {}) if JSON in content else None,
                )
            )
    return found


def json_body_operations(document: dict[str, Any]) -> list[Operation]:
    return [op for op in operations(document) if op.body_schema is not None]


def integer_path_parameters(document: dict[str, Any], operation: Operation) -> list[str]:
    return [
        p["name"]
        for p in operation.parameters
        if p.get("in") == "path" and resolve(document, p.get("schema", {})).get("type") == "integer"
    ]


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = document["components"]["schemas"][name]
    return schema


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    options = schema.get("oneOf") or schema.get("anyOf") or []
    return [s for s in options if s.get("type") != "null"] or options


def sample(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A small value the schema accepts (its required properties only, for an object)."""
    schema = resolve(document, schema)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if variants := _variants(schema):
        return sample(document, variants[0])
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = sample(document, part)
            if isinstance(value, dict):
                merged.update(value)
        return merged
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: sample(document, props.get(name, {})) for name in schema.get("required", [])}
    if kind == "array":
        return [sample(document, schema.get("items", {}))] * schema.get("minItems", 0)
    if kind == "string":
        if schema.get("format") == "uuid":
            return str(SAMPLE_UUID)
        if schema.get("format") == "date-time":
            return "2024-01-01T00:00:00Z"
        return "x" * max(schema.get("minLength", 1), 1)
    if kind == "integer":
        return max(schema.get("minimum", 1), 1)
    if kind == "number":
        return float(max(schema.get("minimum", 1), 1))
    if kind == "boolean":
        return False
    return None


def wrong_type(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A value of a JSON type the schema does not allow."""
    schema = resolve(document, schema)
    kinds = {schema.get("type")} if isinstance(schema.get("type"), str) else set()
    kinds |= set(schema.get("type") or []) if isinstance(schema.get("type"), list) else set()
    for variant in _variants(schema):
        kinds |= {resolve(document, variant).get("type")}
    if "string" in kinds:
        return {"not": "a string"}
    return "not-the-declared-type"


def concrete_path(
    document: dict[str, Any], operation: Operation, overrides: dict[str, Any] | None = None
) -> str:
    path = operation.path_template
    for parameter in operation.parameters:
        if parameter.get("in") == "path":
            name = parameter["name"]
            value = (overrides or {}).get(name, sample(document, parameter.get("schema", {})))
            path = path.replace("{" + name + "}", str(value))
    return path
