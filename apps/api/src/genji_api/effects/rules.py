"""Which effects an endpoint performs for queue handlers, and which jobs may ask for each.

An effect key is `<name>` or `<name>:<qualifier>`: the name says what the effect is (`xp`,
`keys`, `notification`), the qualifier tells apart several effects of one job (`xp:record`,
`keys:prestige:7`). Each endpoint that accepts job context declares its rule: the effect names
it performs and, for each, the events whose handlers may request it. The job's event is checked
in the database (effect_action_check) in the transaction that reads or begins the receipt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from genji_sdk import REGISTRY

from genji_api.errors import BadRequestError


def effect_name(effect_key: str) -> str:
    return effect_key.split(":", 1)[0]


@dataclass(frozen=True)
class EffectRule:
    effects: Mapping[str, frozenset[str]]
    """Effect name -> the events whose handlers may request it."""

    def __post_init__(self) -> None:
        for name, events in self.effects.items():
            unknown = set(events) - set(REGISTRY.names())
            if unknown or not events or ":" in name:
                raise ValueError(f"effect {name!r}: bad rule (unknown events {sorted(unknown)})")

    def allowed_events(self, effect_key: str) -> frozenset[str]:
        """The events that may request `effect_key`; a 400 when this endpoint never performs it."""
        events = self.effects.get(effect_name(effect_key))
        if events is None:
            raise BadRequestError(
                f"Effect {effect_key!r} is not performed here; "
                f"this endpoint performs {', '.join(sorted(self.effects))}."
            )
        return events


def rule(**effects: Iterable[str]) -> EffectRule:
    """`rule(xp=["api.completion.verification", ...])`; write a dash as an underscore."""
    return EffectRule(
        {name.replace("_", "-"): frozenset(events) for name, events in effects.items()}
    )
