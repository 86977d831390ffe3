"""The presses without Discord: the moderator check before any request, the API's refusals as
sentences, a verdict job that outlives the wait, and the answer that always follows."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

import discord
import httpx
import msgspec
import pytest
from genji_bot.api import ApiAnswerLost, ApiClient
from genji_bot.discord import presses
from genji_bot.discord.presses import FAILED, NOT_A_MODERATOR, Presser, deferred_press
from genji_bot.features.completions_buttons import press_verdict
from genji_bot.features.moderator_buttons import press_resolve
from genji_bot.features.playtest_buttons import press_vote
from genji_bot.settings import BotSettings
from genji_sdk.completions import CompletionSubmission
from genji_sdk.failures import DependencyUnavailable
from genji_sdk.playtests import PlaytestStateResponse

MODERATOR_ROLE = 77
SETTINGS = BotSettings(api_url="http://api", api_key="k", moderator_role_ids=(MODERATOR_ROLE,))


# The API's answers as it serves them (the SDK types the bot decodes).
PENDING_RUN = msgspec.to_builtins(
    CompletionSubmission(
        id=4,
        code="ABCDE",
        user_id=5,
        time=12.5,
        screenshot="https://example.com/run.png",
        video=None,
        state="pending",
        completion=False,
        verified_by=None,
        reason=None,
        verification_id=None,
        message_id=None,
    )
)
OPEN_PLAYTEST = msgspec.to_builtins(
    PlaytestStateResponse(
        id=6,
        map_id=16,
        code="ABCDE",
        map_name="Hanamura",
        official=True,
        playtesting="In Progress",
        hidden=True,
        difficulty=None,
        initial_difficulty=5.0,
        thread_id=60,
        verification_id=None,
        completed=False,
        reset_generation=0,
        creators=[],
        votes=[],
        last_reset=None,
        verdict=None,
        finalizable_vote_id=None,
    )
)


def who(user_id: int = 5, roles: frozenset[int] = frozenset({MODERATOR_ROLE})) -> Presser:
    return Presser(user_id, roles, interaction_id=1, channel_id=2, message_id=3)


def api(answers: dict[str, tuple[int, Any, dict[str, str]]], seen: list[str]) -> ApiClient:
    """An ApiClient whose requests `METHOD path` get the given (status, body, headers)."""

    def handle(request: httpx.Request) -> httpx.Response:
        key = f"{request.method} {request.url.path.removeprefix('/api/v3')}"
        seen.append(key)
        status, body, headers = answers[key]
        return httpx.Response(status, json=body, headers=headers)

    return ApiClient("http://api", "k", transport=httpx.MockTransport(handle))


def failing(failure: Exception | httpx.Response) -> ApiClient:
    """An ApiClient whose every request fails with `failure`, or gets it as its answer."""

    def handle(request: httpx.Request) -> httpx.Response:
        if isinstance(failure, httpx.Response):
            return failure
        raise failure

    return ApiClient("http://api", "k", transport=httpx.MockTransport(handle))


@pytest.mark.parametrize(
    ("status", "body", "headers", "expected"),
    [
        (409, {"error": "This edit request has already been resolved."}, {}, "already resolved"),
        (404, {"error": "Edit request not found."}, {}, "no longer exists"),
        (400, {"error": "No changes"}, {}, "The API refused this: No changes"),
        (403, {"error": "missing scope"}, {}, "lacks the permission"),
        (429, {"error": "slow down"}, {"retry-after": "3"}, "Try again in 3 s"),
        (503, {"error": "unavailable"}, {"retry-after": "5"}, "unavailable right now"),
        (500, {"error": "boom"}, {}, "The API answered 500 (boom); nothing is confirmed."),
    ],
)
async def test_each_refusal_is_a_sentence(
    status: int, body: Any, headers: dict[str, str], expected: str
) -> None:
    seen: list[str] = []
    client = api({"PUT /maps/map-edits/9/resolve": (status, body, headers)}, seen)
    text = await press_resolve(client, SETTINGS, 9, who(), accepted=True)
    assert expected in text


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (httpx.ConnectError("refused"), "unavailable right now; nothing was changed"),
        (httpx.ReadTimeout("no answer"), "may have been done already"),
        (httpx.RemoteProtocolError("dropped"), "may have been done already"),
        (httpx.Response(504, json={"error": "gateway timeout"}), "may have been done already"),
    ],
    ids=["not-sent", "read-timeout", "dropped", "gateway-timeout"],
)
async def test_a_press_whose_answer_was_lost_does_not_say_nothing_was_changed(
    failure: Exception | httpx.Response, expected: str
) -> None:
    text = await press_resolve(failing(failure), SETTINGS, 9, who(), accepted=True)
    assert expected in text


@pytest.mark.parametrize(
    "failure", [httpx.ReadTimeout("no answer"), httpx.Response(504)], ids=["timeout", "504"]
)
async def test_a_read_whose_answer_was_lost_leaves_nothing_in_doubt(
    failure: Exception | httpx.Response,
) -> None:
    with pytest.raises(DependencyUnavailable) as raised:
        await failing(failure).get("/maps/map-edits/9")
    assert not isinstance(raised.value, ApiAnswerLost)


async def test_a_non_moderator_is_refused_before_any_request() -> None:
    seen: list[str] = []
    client = api({}, seen)
    outsider = who(roles=frozenset({1}))
    assert await press_resolve(client, SETTINGS, 9, outsider, accepted=True) == NOT_A_MODERATOR
    assert await press_verdict(client, SETTINGS, 4, outsider, verified=True) == NOT_A_MODERATOR
    by_id = BotSettings(api_url="http://api", api_key="k", moderator_ids=(outsider.user_id,))
    assert presses.may_moderate(by_id, outsider)
    assert seen == []


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("processing", "Verified; the announcement is still running"),
        ("failed", "Verified, but announcing it failed; the operator was alerted"),
        ("succeeded", "Verified."),
    ],
)
async def test_accept_says_how_its_job_ended_within_the_wait(status: str, expected: str) -> None:
    job = str(uuid4())
    seen: list[str] = []
    client = api(
        {
            "GET /completions/4/submission": (200, PENDING_RUN, {}),
            "PUT /completions/4/verification": (200, {"id": job, "status": "queued"}, {}),
            f"GET /internal/jobs/{job}": (200, {"id": job, "status": status}, {}),
        },
        seen,
    )
    text = await press_verdict(client, SETTINGS, 4, who(), verified=True, wait=0.4)
    assert text.startswith(expected), text


async def test_a_verdict_refused_for_an_unknown_presser_names_the_presser_not_the_run() -> None:
    seen: list[str] = []
    missing = {"error": "No user found with id: 5"}
    client = api(
        {
            "GET /completions/4/submission": (200, PENDING_RUN, {}),
            "PUT /completions/4/verification": (404, missing, {}),
        },
        seen,
    )
    text = await press_verdict(client, SETTINGS, 4, who(), verified=True)
    assert text == "The API refused this: No user found with id: 5"


async def test_a_vote_is_the_pressers_own_and_a_bad_difficulty_sends_nothing() -> None:
    seen: list[str] = []
    client = api(
        {
            "GET /maps/playtests/6": (200, OPEN_PLAYTEST, {}),
            "POST /maps/playtests/60/vote/5": (202, {"id": str(uuid4()), "status": "queued"}, {}),
        },
        seen,
    )
    assert await press_vote(client, 6, who(), "eleven") == (
        "Give a difficulty from 0 to 10 (for example 6.5); nothing was recorded."
    )
    assert seen == []
    assert await press_vote(client, 6, who(), "7,5") == "Your vote (7.5) was recorded."
    assert seen == ["GET /maps/playtests/6", "POST /maps/playtests/60/vote/5"]


@dataclass
class Response:
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **options: Any) -> None:
        assert options == {"ephemeral": True, "thinking": True}
        self.done = True


@dataclass
class Followup:
    sent: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def send(self, text: str, **options: Any) -> None:
        self.sent.append((text, options))


@dataclass
class User:
    id: int = 5


class Acknowledged(Response):
    async def defer(self, **options: Any) -> None:
        raise discord.HTTPException(
            SimpleNamespace(status=400, reason="Bad Request"),  # type: ignore[arg-type]
            {"code": 40060, "message": "Interaction has already been acknowledged."},
        )


@dataclass
class FakeInteraction:
    response: Response = field(default_factory=Response)
    followup: Followup = field(default_factory=Followup)
    user: User = field(default_factory=User)
    id: int = 11


async def test_an_unexpected_exception_is_still_answered() -> None:
    interaction = FakeInteraction()

    async def broken() -> str:
        raise KeyError("unexpected")

    await deferred_press(interaction, broken, "test")  # type: ignore[arg-type]
    assert interaction.response.done
    [(text, options)] = interaction.followup.sent
    assert text == FAILED
    assert options["ephemeral"] is True
    assert json.dumps(options["allowed_mentions"].to_dict()) == json.dumps({"parse": []})


async def test_an_interaction_delivered_again_is_not_pressed_twice() -> None:
    interaction = FakeInteraction(response=Acknowledged())
    pressed: list[str] = []

    async def press() -> str:
        pressed.append("pressed")
        return "Verified."

    await deferred_press(interaction, press, "test")  # type: ignore[arg-type]
    assert pressed == []
    assert interaction.followup.sent == []
