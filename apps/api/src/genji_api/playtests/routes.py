"""Playtest routes under /api/v3/maps/playtests."""

from __future__ import annotations

from typing import Any

from genji_sdk.jobs import JobStatusResponse
from litestar import Controller, Request, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.tracing import request_trace
from genji_api.playtests import service
from genji_api.playtests.models import (
    ApproveRequest,
    ForceAcceptRequest,
    ForceDenyRequest,
    PlaytestResponse,
    PlaytestStateResponse,
    ResetRequest,
    ThreadBindRequest,
    VoteRequest,
)

_WRITE = scopes.required(scopes.PLAYTESTS_WRITE)
_READ = scopes.required(scopes.MAPS_READ)
AnyRequest = Request[Any, Any, Any]


class PlaytestsController(Controller):
    path = "/maps/playtests"
    tags = ["playtests"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @patch("/{playtest_id:int}", opt=_WRITE)
    async def bind_thread(
        self,
        playtest_id: FromPath[int],
        data: JSONBody[ThreadBindRequest],
        database: NamedDependency[Database],
    ) -> PlaytestResponse:
        """Bind the playtest to its forum thread (and verification message)."""
        return await service.bind_thread(database, playtest_id, data)

    @get("/{playtest_id:int}", opt=_READ)
    async def playtest_state(
        self, playtest_id: FromPath[int], database: NamedDependency[Database]
    ) -> PlaytestStateResponse:
        """The playtest as it stands: map, creators, current votes, reset generation, verdict."""
        return await service.current_state(database, playtest_id=playtest_id)

    @get("/threads/{thread_id:int}", opt=_READ)
    async def thread_state(
        self, thread_id: FromPath[int], database: NamedDependency[Database]
    ) -> PlaytestStateResponse:
        """The playtest of a forum thread, as it stands."""
        return await service.current_state(database, thread_id=thread_id)

    @post("/{thread_id:int}/vote/{user_id:int}", opt=_WRITE, status_code=202)
    async def cast_vote(
        self,
        thread_id: FromPath[int],
        user_id: FromPath[int],
        data: JSONBody[VoteRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Cast or change a user's difficulty vote on a playtest.

        Records the vote and enqueues the job that shows it in the thread; the vote that first
        reaches the count needed to finalize tells the map's creators once.
        """
        return await service.cast_vote(
            database, thread_id, user_id, data, trace=request_trace(request)
        )

    @delete("/{thread_id:int}/vote/{user_id:int}", opt=_WRITE, status_code=202)
    async def remove_vote(
        self,
        thread_id: FromPath[int],
        user_id: FromPath[int],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Withdraw a user's vote from a playtest.

        A 400 when the user has no vote on it; otherwise the removal is recorded and a job
        updates the thread.
        """
        return await service.remove_vote(database, thread_id, user_id, trace=request_trace(request))

    @post("/{thread_id:int}/approve", opt=_WRITE, status_code=202)
    async def approve(
        self,
        thread_id: FromPath[int],
        data: JSONBody[ApproveRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Approve a playtest at its voted difficulty.

        The map leaves playtesting as approved with the average of the votes as its difficulty,
        the playtest closes, and a job announces it. A 400 when nobody voted.
        """
        return await service.approve(database, thread_id, data, trace=request_trace(request))

    @post("/{thread_id:int}/force-accept", opt=_WRITE, status_code=202)
    async def force_accept(
        self,
        thread_id: FromPath[int],
        data: JSONBody[ForceAcceptRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Accept a playtest at a difficulty the verifier chooses.

        The map leaves playtesting as approved whatever the votes say, the playtest closes, and a
        job announces it.
        """
        return await service.force_accept(database, thread_id, data, trace=request_trace(request))

    @post("/{thread_id:int}/force-deny", opt=_WRITE, status_code=202)
    async def force_deny(
        self,
        thread_id: FromPath[int],
        data: JSONBody[ForceDenyRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Reject a playtest's map with a reason.

        The map is rejected and hidden, the playtest closes, and a job tells its thread and
        creators why.
        """
        return await service.force_deny(database, thread_id, data, trace=request_trace(request))

    @post("/{thread_id:int}/reset", opt=_WRITE, status_code=202)
    async def reset(
        self,
        thread_id: FromPath[int],
        data: JSONBody[ResetRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Reset a playtest and start a new round of it.

        Optionally removes the votes and the completions made since the playtest began, moves
        the playtest to its next reset generation and records the reset; a job tells the
        thread.
        """
        return await service.reset(database, thread_id, data, trace=request_trace(request))
