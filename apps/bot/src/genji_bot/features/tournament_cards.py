"""Tournament cards: the manual-review card, the rollover announcement and the results card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from genji_sdk.payloads import (
    TournamentCompletionCreatedEvent,
    TournamentCycleCompletedEvent,
    TournamentCycleStartedEvent,
    TournamentRolloverEvent,
)
from genji_sdk.tournaments import TournamentCategoryResponse

from genji_bot.effects.port import NO_MENTIONS, Button, Embed, Field, Mentions, Outgoing

PODIUM = ("🥇", "🥈", "🥉")
REROLL_KEY_PREFIX = "tournament:active-reroll:"


def review_card(event: TournamentCompletionCreatedEvent) -> Outgoing:
    fields = [
        Field("User", f"<@{event.user_id}>", inline=True),
        Field("Time", f"{event.time:.2f}", inline=True),
    ]
    if event.video:
        fields.append(Field("Video", event.video))
    return Outgoing(
        embed=Embed(
            title="Tournament Submission",
            fields=tuple(fields),
            image_url=event.screenshot,
            footer=f"Tournament completion {event.completion_id}",
        ),
        buttons=(
            Button(f"tournament:verify:v1:{event.completion_id}", "Accept", "success"),
            Button(f"tournament:reject:v1:{event.completion_id}", "Reject", "danger"),
        ),
        mentions=NO_MENTIONS,
    )


def _name(categories: Mapping[int, TournamentCategoryResponse], category_id: int) -> str:
    category = categories.get(category_id)
    return category.name if category else f"Category {category_id}"


def _podium(result: TournamentCycleCompletedEvent) -> str:
    lines = [
        f"{PODIUM[entry.rank - 1]} <@{entry.user_id}> — {entry.time:.2f}"
        for entry in result.standings
        if entry.rank <= len(PODIUM)
    ]
    return "\n".join(lines) or "No verified runs."


def _started(started: TournamentCycleStartedEvent) -> str:
    ends = int(started.ends_at.timestamp())
    return f"**{started.map_name}** (`{started.map_code}`)\nEnds <t:{ends}:R>"


def _result_fields(
    results: Sequence[TournamentCycleCompletedEvent],
    categories: Mapping[int, TournamentCategoryResponse],
) -> list[Field]:
    return [Field(_name(categories, r.category_id), _podium(r)) for r in results]


def _mentions(
    results: Sequence[TournamentCycleCompletedEvent], ping_role_id: int | None
) -> tuple[str, Mentions]:
    winners = sorted({r.winner_user_id for r in results if r.winner_user_id is not None})
    parts = ([f"<@&{ping_role_id}>"] if ping_role_id else []) + [f"<@{w}>" for w in winners]
    roles = (ping_role_id,) if ping_role_id else ()
    return " ".join(parts), Mentions(users=tuple(winners), roles=roles)


def _rollover_title(event: TournamentRolloverEvent, event_key: str) -> str:
    ended = bool(event.results) or event.results_pending
    if event_key.startswith(REROLL_KEY_PREFIX):
        return "Tournament Map Rerolled"
    if ended and event.started:
        return "Tournament Ended — New Tournament Started"
    if ended:
        return "Tournament Ended"
    return "New Tournament Started"


def rollover_announcement(
    event: TournamentRolloverEvent,
    event_key: str,
    categories: Mapping[int, TournamentCategoryResponse],
    ping_role_id: int | None,
) -> Outgoing:
    fields = _result_fields(event.results, categories)
    if event.results_pending:
        fields.append(
            Field("Results", "Results will be posted once every submission has been verified.")
        )
    fields += [
        Field(f"{_name(categories, s.category_id)} — New Map", _started(s)) for s in event.started
    ]
    content, mentions = _mentions(event.results, ping_role_id)
    return Outgoing(
        content=content,
        embed=Embed(title=_rollover_title(event, event_key), fields=tuple(fields)),
        mentions=mentions,
    )


def results_card(
    results: Sequence[TournamentCycleCompletedEvent],
    categories: Mapping[int, TournamentCategoryResponse],
    ping_role_id: int | None,
) -> Outgoing:
    content, mentions = _mentions(results, ping_role_id)
    return Outgoing(
        content=content,
        embed=Embed(title="Tournament Results", fields=tuple(_result_fields(results, categories))),
        mentions=mentions,
    )
