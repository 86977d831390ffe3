"""The persistent views of this process, one per message id, shared by restoration and handlers.

Creation handlers register the view of a message they just posted; start-up restoration
registers the views listed by the API. Whichever comes first wins and the other is a no-op, so a
message never gets two views. A handler that resolves a message (the completion was verified,
the playtest closed, the edit resolved) retires its id: the view is detached and that id is never
registered again, so a restoration that read its list before the resolution cannot bring the
view back.

Every method is synchronous: on the bot's event loop each call is atomic with respect to the
others, which is what makes check-then-register safe without a lock.
"""

from __future__ import annotations

from typing import Literal, Protocol

from genji_sdk.views import OpenView

Registration = Literal["registered", "duplicate", "retired"]


class ViewSink(Protocol):
    """Where registered views go (discord.py's view store in production)."""

    def attach(self, view: OpenView) -> None: ...

    def detach(self, view: OpenView) -> None: ...


class ViewRegistry:
    def __init__(self, sink: ViewSink | None = None) -> None:
        self._sink = sink
        self._views: dict[int, OpenView] = {}
        self._retired: set[int] = set()

    def connect(self, sink: ViewSink) -> None:
        """Send every view registered so far to `sink`, and every later one as it comes."""
        self._sink = sink
        for view in self._views.values():
            sink.attach(view)

    def register(self, view: OpenView) -> Registration:
        if view.message_id in self._retired:
            return "retired"
        if view.message_id in self._views:
            return "duplicate"
        self._views[view.message_id] = view
        if self._sink is not None:
            self._sink.attach(view)
        return "registered"

    def retire(self, message_id: int) -> OpenView | None:
        """The message's record is resolved: detach its view for good (None if it had none)."""
        self._retired.add(message_id)
        view = self._views.pop(message_id, None)
        if view is not None and self._sink is not None:
            self._sink.detach(view)
        return view

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._views

    def views(self) -> list[OpenView]:
        return list(self._views.values())
