"""What the playtest feature shows: the playtest as read from the API, and its messages.

The starter message of a playtest's forum thread carries the playtest view; it is always
rendered from the votes the API holds now, never from a job's payload.
"""

from __future__ import annotations

from genji_sdk.playtests import PlaytestStateResponse

from genji_bot.effects import limits
from genji_bot.effects.port import Button, Embed, Field, Mentions, Outgoing

# Base XP of a playtest verdict (the API applies the current multiplier).
MAP_SUBMISSION_XP = 30
PLAYTEST_XP = 35


def thread_name(state: PlaytestStateResponse) -> str:
    return limits.thread_name(f"{state.code} | {state.map_name}")


def thread_tags(state: PlaytestStateResponse, status: str) -> tuple[str, ...]:
    return (state.label, status)


def placeholder(state: PlaytestStateResponse) -> Outgoing:
    return Outgoing(content=f"Setting up the playtest of {state.code}...")


def _average(state: PlaytestStateResponse) -> str:
    if not state.votes:
        return "No votes yet"
    return f"{sum(v.difficulty for v in state.votes) / len(state.votes):.2f}"


def playtest_view(state: PlaytestStateResponse) -> Outgoing:
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


def creator_ping(state: PlaytestStateResponse) -> Outgoing:
    primary = state.primary.id
    return Outgoing(
        content=f"<@{primary}>, your map {state.code} is now in playtesting.",
        mentions=Mentions(users=(primary,)),
    )


def vote_cast(voter_id: int, difficulty: float) -> Outgoing:
    return Outgoing(content=f"<@{voter_id}> voted {difficulty:.2f}")


def vote_removed(voter_id: int) -> Outgoing:
    return Outgoing(content=f"<@{voter_id}> removed their vote")


def finalizable(state: PlaytestStateResponse) -> Outgoing:
    ids = tuple(c.id for c in state.creators)
    mentions = " ".join(f"<@{i}>" for i in ids)
    return Outgoing(
        content=f"{mentions} {state.code} has enough votes to be finalized.",
        mentions=Mentions(users=ids),
    )


def approved_notice(state: PlaytestStateResponse, difficulty: str) -> tuple[str, str]:
    """Title and body of the creator's playtest_update notification."""
    return (
        "Playtest approved",
        f"Your map {state.code} has been approved with the difficulty {difficulty}.",
    )


def denied_notice(state: PlaytestStateResponse, reason: str) -> tuple[str, str]:
    return ("Playtest denied", f"Your map {state.code} has been denied. Reason: {reason}")


def reset_notice(state: PlaytestStateResponse, reason: str) -> tuple[str, str]:
    return ("Playtest reset", f"The playtest of your map {state.code} was reset. Reason: {reason}")


def thread_notice(state: PlaytestStateResponse, title: str, body: str) -> Outgoing:
    """The notice posted in the thread when the creator does not take Discord notifications."""
    primary = state.primary.id
    return Outgoing(content=f"<@{primary}> {title}: {body}", mentions=Mentions(users=(primary,)))
