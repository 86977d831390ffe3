"""/api/v3/completions: submit, verify, upvote, the bot's message ids and reads, and XP."""

from __future__ import annotations

from typing import Any

from genji_sdk.jobs import JobStatusResponse
from litestar import Controller, Request, get, patch, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.status_codes import HTTP_200_OK, HTTP_204_NO_CONTENT

from genji_api.auth import scopes
from genji_api.completions import service
from genji_api.completions.announcement import get_announcement, get_post_upvotes
from genji_api.completions.models import (
    CompletionAnnouncement,
    CompletionPatchRequest,
    CompletionSubmission,
    CompletionSubmissionResponse,
    CompletionSubmitRequest,
    CompletionXpRequest,
    CompletionXpResponse,
    PostUpvotes,
    UpvoteRequest,
    UpvoteResponse,
    VerificationRequest,
)
from genji_api.completions.rewards import reward_completion
from genji_api.completions.submission import submit_completion
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.tracing import request_trace
from genji_api.settings import ApiSettings


class CompletionsController(Controller):
    path = "/completions"
    tags = ["completions"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.COMPLETIONS_WRITE))
    async def submit(
        self,
        request: Request[Any, Any, Any],
        data: JSONBody[CompletionSubmitRequest],
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> CompletionSubmissionResponse:
        """Submit a run for verification; it goes to OCR (job_status null) or to manual review
        (its job)."""
        return await submit_completion(
            database, data, bot_user_id=settings.bot_user_id, trace=request_trace(request)
        )

    @put("/{completion_id:int}/verification", opt=scopes.required(scopes.COMPLETIONS_WRITE))
    async def set_verification(
        self,
        request: Request[Any, Any, Any],
        completion_id: FromPath[int],
        data: JSONBody[VerificationRequest],
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Verify or reject a completion; the job announces the verdict."""
        return await service.set_verification(
            database, completion_id, data, trace=request_trace(request)
        )

    @post("/upvoting", opt=scopes.required(scopes.COMPLETIONS_WRITE))
    async def upvote(
        self,
        request: Request[Any, Any, Any],
        data: JSONBody[UpvoteRequest],
        database: NamedDependency[Database],
    ) -> UpvoteResponse:
        """Upvote a verified-completion post; every tenth vote is announced."""
        return await service.upvote(database, data, trace=request_trace(request))

    @patch(
        "/{completion_id:int}",
        opt=scopes.required(scopes.COMPLETIONS_WRITE),
        status_code=HTTP_204_NO_CONTENT,
    )
    async def patch_messages(
        self,
        request: Request[Any, Any, Any],
        completion_id: FromPath[int],
        data: JSONBody[CompletionPatchRequest],
        database: NamedDependency[Database],
    ) -> None:
        """Store the Discord message ids the bot posted for the completion."""
        await service.patch_completion(
            database, completion_id, data, effect=effect_context(request)
        )

    @get("/{completion_id:int}/submission", opt=scopes.required(scopes.COMPLETIONS_READ))
    async def submission(
        self, completion_id: FromPath[int], database: NamedDependency[Database]
    ) -> CompletionSubmission:
        """The completion as the bot shows it on its review and announcement cards."""
        return await service.get_submission(database, completion_id)

    @get("/{completion_id:int}/announcement", opt=scopes.required(scopes.COMPLETIONS_READ))
    async def announcement(
        self, completion_id: FromPath[int], database: NamedDependency[Database]
    ) -> CompletionAnnouncement:
        """The completion's current state, verdict and rank, as the bot's workflow reads it."""
        return await get_announcement(database, completion_id)

    @get("/upvoting/{message_id:int}", opt=scopes.required(scopes.COMPLETIONS_READ))
    async def post_upvotes(
        self, message_id: FromPath[int], database: NamedDependency[Database]
    ) -> PostUpvotes:
        """The current upvote count of a verified-completion post."""
        return await get_post_upvotes(database, message_id)

    @post("/{completion_id:int}/xp", opt=scopes.required(scopes.XP_WRITE), status_code=HTTP_200_OK)
    async def reward(
        self,
        request: Request[Any, Any, Any],
        completion_id: FromPath[int],
        data: JSONBody[CompletionXpRequest],
        database: NamedDependency[Database],
    ) -> CompletionXpResponse:
        """Grant the XP a verified run earns (world record once per map and user); accepts the
        job context headers."""
        return await reward_completion(
            database,
            completion_id,
            data,
            effect=effect_context(request),
            trace=request_trace(request),
        )
