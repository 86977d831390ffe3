"""A view sink that records what the registry sends to it (stands in for discord.py's store)."""

from __future__ import annotations

from dataclasses import dataclass, field

from genji_sdk.views import OpenView


@dataclass
class RecordingSink:
    attached: list[OpenView] = field(default_factory=list)
    detached: list[OpenView] = field(default_factory=list)

    def attach(self, view: OpenView) -> None:
        self.attached.append(view)

    def detach(self, view: OpenView) -> None:
        self.detached.append(view)

    def live(self) -> dict[int, OpenView]:
        gone = {view.message_id for view in self.detached}
        return {view.message_id: view for view in self.attached if view.message_id not in gone}
