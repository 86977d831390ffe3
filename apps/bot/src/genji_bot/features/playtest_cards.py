"""What the playtest feature shows: the playtest as read from the API, and its messages.

The starter message of a playtest's forum thread carries the playtest view; it is always
rendered from the votes the API holds now, never from a job's payload.
"""

from __future__ import annotations

from typing import Any

import msgspec

from genji_bot.effects import limits
from genji_bot.effects.port import Button, Embed, Field, Mentions, Outgoing

# Base XP of a playtest verdict (the API applies the current multiplier).
MAP_SUBMISSION_XP = 30
PLAYTEST_XP = 35


class Creator(msgspec.Struct, frozen=True):
    id: int
    name: str
    is_primary: bool


class Vote(msgspec.Struct, frozen=True):
    user_id: int
    name: str
    difficulty: float


class Transition(msgspec.Struct, frozen=True):
    id: int
    kind: str
    actor_id: int | None
    details: dict[str, Any]


class PlaytestState(msgspec.Struct, frozen=True):
    """GET /maps/playtests/{id} and /maps/playtests/threads/{thread_id}."""

    id: int
    map_id: int
    code: str
    map_name: str
    official: bool
    playtesting: str
    hidden: bool
    difficulty: str | None
    initial_difficulty: float | None
    thread_id: int | None
    verification_id: int | None
    completed: bool
    reset_generation: int
    creators: list[Creator]
    votes: list[Vote]
    last_reset: Transition | None
    verdict: Transition | None
    finalizable_vote_id: int | None

    @property
    def primary(self) -> Creator:
        return self.creators[0]

    @property
    def label(self) -> str:
        return self.difficulty or "Unranked"


def thread_name(state: PlaytestState) -> str:
    return limits.thread_name(f"{state.code} | {state.map_name}")


def thread_tags(state: PlaytestState, status: str) -> tuple[str, ...]:
    return (state.label, status)


def placeholder(state: PlaytestState) -> Outgoing:
    return Outgoing(content=f"Setting up the playtest of {state.code}...")


def _average(state: PlaytestState) -> str:
    if not state.votes:
        return "No votes yet"
    return f"{sum(v.difficulty for v in state.votes) / len(state.votes):.2f}"


def playtest_view(state: PlaytestState) -> Outgoing:
    creators = ", ".join(c.name for c in state.creators)
    initial = "-" if state.initial_difficulty is None else f"{state.initial_difficulty:.2f}"
    votes = "\n".join(f"{v.name}: {v.difficulty:.2f}" for v in state.votes) or "-"
    embed = Embed(
        title=f"{state.map_name} ({state.code})",
        fields=(
            Field("Creators", creators),
            Field("Initial difficulty", initial, inline=True),
            Field("Votes", str(len(state.votes)), inline=True),
            Field("Average difficulty", _average(state), inline=True),
            Field("Votes cast", votes),
        ),
    )
    buttons = () if state.completed else (Button(f"playtest:vote:v1:{state.id}", "Vote"),)
    return Outgoing(embed=embed, buttons=buttons)


def creator_ping(state: PlaytestState) -> Outgoing:
    primary = state.primary.id
    return Outgoing(
        content=f"<@{primary}>, your map {state.code} is now in playtesting.",
        mentions=Mentions(users=(primary,)),
    )


def vote_cast(voter_id: int, difficulty: float) -> Outgoing:
    return Outgoing(content=f"<@{voter_id}> voted {difficulty:.2f}")


def vote_removed(voter_id: int) -> Outgoing:
    return Outgoing(content=f"<@{voter_id}> removed their vote")


def finalizable(state: PlaytestState) -> Outgoing:
    ids = tuple(c.id for c in state.creators)
    mentions = " ".join(f"<@{i}>" for i in ids)
    return Outgoing(
        content=f"{mentions} {state.code} has enough votes to be finalized.",
        mentions=Mentions(users=ids),
    )


def approved_notice(state: PlaytestState, difficulty: str) -> tuple[str, str]:
    """Title and body of the creator's playtest_update notification."""
    return (
        "Playtest approved",
        f"Your map {state.code} has been approved with the difficulty {difficulty}.",
    )


def denied_notice(state: PlaytestState, reason: str) -> tuple[str, str]:
    return ("Playtest denied", f"Your map {state.code} has been denied. Reason: {reason}")


def reset_notice(state: PlaytestState, reason: str) -> tuple[str, str]:
    return ("Playtest reset", f"The playtest of your map {state.code} was reset. Reason: {reason}")


def thread_notice(state: PlaytestState, title: str, body: str) -> Outgoing:
    """The notice posted in the thread when the creator does not take Discord notifications."""
    primary = state.primary.id
    return Outgoing(content=f"<@{primary}> {title}: {body}", mentions=Mentions(users=(primary,)))
