"""Payload contracts as rows: one node per position a payload value can take.

The nodes are read from `msgspec.inspect`, the decoder's own model of each payload type, rather
than from its JSON Schema: the schema drops facts the decoder enforces (in msgspec 0.23 a
`datetime` field is a bare string there). Constructs without a faithful database rule are
refused with the event and path, so the generator never emits a contract laxer or stricter
than the worker's decoder.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

import msgspec.inspect as mi

from genji_sdk.contracts.patterns import UnsupportedPatternError, to_postgres
from genji_sdk.registry import EventRegistry, EventSpec

__all__ = ("JSON_TYPES", "ContractNode", "UnsupportedContractError", "contract_nodes")

# The JSON kinds a node can accept, in the order they are stored. `integer` is a number
# written without a fraction; `number` (a float field) accepts integers too.
JSON_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
Role = Literal["payload", "field", "item", "value"]


class UnsupportedContractError(ValueError):
    """A payload type uses a construct the database contract cannot express faithfully."""


@dataclass
class ContractNode:
    """One node of a contract (a row of the view payload_contract_nodes); None is NULL, no
    constraint."""

    event_name: str
    payload_version: int
    node: int
    parent: int | None
    role: Role
    field_name: str | None = None
    required: bool = False
    # None accepts any JSON value (a field or an array item typed Any).
    json_types: tuple[str, ...] | None = None
    enum_values: tuple[str, ...] | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    pg_pattern: str | None = None
    format: Literal["date-time"] | None = None
    minimum: int | None = None
    exclusive_minimum: int | None = None
    maximum: int | None = None
    exclusive_maximum: int | None = None
    multiple_of: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    object_kind: Literal["struct", "map"] | None = None
    extra_fields: Literal["ignore", "forbid"] | None = None


@dataclass
class _Walk:
    spec: EventSpec
    nodes: list[ContractNode] = field(default_factory=list)
    structs: list[type] = field(default_factory=list)

    def fail(self, path: str, why: str) -> UnsupportedContractError:
        return UnsupportedContractError(f"{self.spec.name} {path}: {why}")

    def add(
        self,
        kind: mi.Type,
        path: str,
        parent: int | None,
        role: Role,
        field_name: str | None = None,
        required: bool = False,
    ) -> None:
        node = ContractNode(
            event_name=self.spec.name,
            payload_version=self.spec.payload_version,
            node=len(self.nodes),
            parent=parent,
            role=role,
            field_name=field_name,
            required=required,
        )
        self.nodes.append(node)
        members = kind.types if isinstance(kind, mi.UnionType) else (kind,)
        if any(isinstance(m, mi.AnyType) for m in members):
            return
        accepted: dict[str, mi.Type] = {}
        for member in members:
            json_type = self.json_type(member, path)
            if json_type in accepted:
                raise self.fail(path, f"union has two {json_type} members")
            accepted[json_type] = member
        if "integer" in accepted and "number" in accepted:
            raise self.fail(path, "int | float unions are not supported")
        if "array" in accepted and "object" in accepted:
            raise self.fail(path, "unions of an array and an object type are not supported")
        node.json_types = tuple(t for t in JSON_TYPES if t in accepted)
        for json_type, member in accepted.items():
            self.constrain(node, json_type, member, path)

    def json_type(self, kind: mi.Type, path: str) -> str:
        if isinstance(kind, mi.NoneType):
            return "null"
        if isinstance(kind, mi.BoolType):
            return "boolean"
        if isinstance(kind, mi.IntType):
            return "integer"
        if isinstance(kind, mi.FloatType):
            return "number"
        if isinstance(kind, mi.StrType | mi.DateTimeType):
            return "string"
        if isinstance(kind, mi.LiteralType):
            if not all(isinstance(v, str) for v in kind.values):
                raise self.fail(path, "only Literal values that are strings are supported")
            return "string"
        if isinstance(kind, mi.ListType):
            return "array"
        if isinstance(kind, mi.StructType | mi.DictType):
            return "object"
        raise self.fail(path, f"{type(kind).__name__} is not supported by the database contract")

    def constrain(self, node: ContractNode, json_type: str, kind: mi.Type, path: str) -> None:
        if isinstance(kind, mi.StrType):
            node.min_length, node.max_length = kind.min_length, kind.max_length
            if kind.pattern is not None:
                try:
                    node.pg_pattern = to_postgres(kind.pattern)
                except UnsupportedPatternError as exc:
                    raise self.fail(path, str(exc)) from exc
                node.pattern = kind.pattern
        elif isinstance(kind, mi.LiteralType):
            node.enum_values = tuple(str(v) for v in kind.values)
        elif isinstance(kind, mi.DateTimeType):
            if kind.tz is not None:
                raise self.fail(path, "datetime fields requiring or forbidding a UTC offset")
            node.format = "date-time"
        elif isinstance(kind, mi.IntType):
            node.minimum, node.exclusive_minimum = kind.ge, kind.gt
            node.maximum, node.exclusive_maximum = kind.le, kind.lt
            node.multiple_of = kind.multiple_of
        elif isinstance(kind, mi.FloatType):
            if any(v is not None for v in (kind.ge, kind.gt, kind.le, kind.lt, kind.multiple_of)):
                raise self.fail(path, "bounds on float fields are not supported")
        elif isinstance(kind, mi.ListType):
            node.min_items, node.max_items = kind.min_length, kind.max_length
            self.add(kind.item_type, f"{path}[]", node.node, "item")
        elif isinstance(kind, mi.DictType):
            self.constrain_map(node, kind, path)
        elif isinstance(kind, mi.StructType):
            self.constrain_struct(node, kind, path)

    def constrain_map(self, node: ContractNode, kind: mi.DictType, path: str) -> None:
        key = kind.key_type
        if not isinstance(key, mi.StrType) or (key.min_length, key.max_length, key.pattern) != (
            None,
            None,
            None,
        ):
            raise self.fail(path, "only dict keys of plain str are supported")
        node.object_kind = "map"
        node.min_items, node.max_items = kind.min_length, kind.max_length
        if not isinstance(kind.value_type, mi.AnyType):
            self.add(kind.value_type, f"{path}[*]", node.node, "value")

    def constrain_struct(self, node: ContractNode, kind: mi.StructType, path: str) -> None:
        if kind.array_like or kind.tag_field is not None:
            raise self.fail(path, "array-like and tagged structs are not supported")
        if kind.cls in self.structs:
            raise self.fail(path, f"{kind.cls.__qualname__} refers to itself")
        node.object_kind = "struct"
        node.extra_fields = "forbid" if kind.forbid_unknown_fields else "ignore"
        self.structs.append(kind.cls)
        for struct_field in kind.fields:
            name = struct_field.encode_name
            self.add(
                struct_field.type, f"{path}.{name}", node.node, "field", name, struct_field.required
            )
        self.structs.pop()


def contract_nodes(registry: EventRegistry) -> Iterator[ContractNode]:
    """Every node of every event's contract, events in registry order, nodes in walk order."""
    for spec in registry:
        walk = _Walk(spec)
        root = mi.type_info(spec.payload_type)
        if not isinstance(root, mi.StructType):
            raise walk.fail("$", "the payload type must be a msgspec.Struct")
        walk.add(root, "$", None, "payload")
        yield from walk.nodes
