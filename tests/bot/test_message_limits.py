"""Every card reaches Discord within Discord's documented limits, and reads back as fingerprinted.

Each card builder is given over-long input (a 1,100-character video URL, a 5,000-character
reason, long names, more fields than an embed holds); the message is rendered as the Discord
port renders it, turned into the JSON body Discord would receive, checked against Discord's
limits (written out here, not taken from genji_bot.effects.limits), stored as Discord stores it
and read back into a `discord.Message`, whose `Outgoing` must have the card's fingerprint.
No database and no Discord connection are used.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import ModuleType
from typing import Any
from uuid import UUID

import discord
import msgspec
import pytest
from genji_bot.alerts import cards as alert_cards
from genji_bot.alerts.custom_ids import DetailsControl, RetryControl
from genji_bot.discord import readback, render
from genji_bot.effects.limits import fitted
from genji_bot.effects.port import NO_MENTIONS, Button, Embed, Field, Mentions, Outgoing
from genji_bot.features import (
    completions_cards,
    moderator_cards,
    newsfeed_cards,
    playtest_cards,
    tournament_cards,
    xp_cards,
)
from genji_sdk.alerts import AlertCard, AlertEffect, AlertEpisode
from genji_sdk.completions import CompletionAnnouncement
from genji_sdk.map_edits import MapEditResponse
from genji_sdk.payloads import (
    FailedAutoverifyEvent,
    TournamentCompletionCreatedEvent,
    TournamentCycleCompletedEvent,
    TournamentCycleStartedEvent,
    TournamentRolloverEvent,
    XpGrantEvent,
)
from genji_sdk.payloads.completions import ExtractedResult
from genji_sdk.payloads.tournaments import TournamentLeaderboardEntry
from genji_sdk.playtests import PlaytestCreator, PlaytestStateResponse, PlaytestVote
from genji_sdk.tournaments import TournamentCategoryResponse
from hypothesis import given, settings
from hypothesis import strategies as st

BOT_ID = 10**18 + 3
CHANNEL_ID = 10**18 + 4
USER = 10**18 + 11
BIG_ID = 2**63 - 1
NOW = datetime(2025, 1, 1, tzinfo=UTC)

VIDEO = "https://www.youtube.com/watch?v=" + "v" * (1100 - 32)
REASON = ("The finish line was moved behind the last wall. " * 110)[:5000]
NAME = "Very Long Name " * 40
WORDS = "lorem ipsum " * 900


def long_text(length: int) -> str:
    return (WORDS * (length // len(WORDS) + 1))[:length]


# -- Discord's side ----------------------------------------------------------------------------


def discord_body(message: Outgoing) -> dict[str, Any]:
    """The JSON body of the send the Discord port makes for `message`."""
    arguments = render.message_arguments(message)
    body: dict[str, Any] = {"content": arguments["content"] or ""}
    body["embeds"] = [arguments["embed"].to_dict()] if "embed" in arguments else []
    body["components"] = arguments["view"].to_components() if "view" in arguments else []
    body["allowed_mentions"] = arguments["allowed_mentions"].to_dict()
    decoded: dict[str, Any] = json.loads(json.dumps(body))
    return decoded


def assert_accepted(body: dict[str, Any]) -> None:
    """Discord's documented limits on a message, an embed and its components."""
    assert len(body["content"]) <= 2000
    assert len(body["embeds"]) <= 10
    for embed in body["embeds"]:
        title = embed.get("title", "")
        description = embed.get("description", "")
        footer = embed.get("footer", {}).get("text", "")
        fields = embed.get("fields", [])
        assert len(title) <= 256
        assert len(description) <= 4096
        assert len(footer) <= 2048
        assert len(fields) <= 25
        for item in fields:
            assert item["name"].strip(), "a field name must not be empty"
            assert item["value"].strip(), "a field value must not be empty"
            assert len(item["name"]) <= 256
            assert len(item["value"]) <= 1024
        texts = [title, description, footer]
        texts += [text for item in fields for text in (item["name"], item["value"])]
        assert sum(len(text) for text in texts) <= 6000
    assert len(body["components"]) <= 5
    ids: list[str] = []
    for row in body["components"]:
        assert row["type"] == 1
        assert len(row["components"]) <= 5
        for item in row["components"]:
            assert 1 <= len(item.get("label", "")) <= 80
            assert 1 <= len(item["custom_id"]) <= 100
            ids.append(item["custom_id"])
    assert len(ids) == len(set(ids)), "custom ids must be unique in a message"


def stored(body: dict[str, Any]) -> discord.Message:
    """The message Discord returns for `body`: content trimmed, allowed mentions not kept."""
    client = discord.Client(intents=discord.Intents.none())
    data = {
        "id": str(10**18 + 99),
        "channel_id": str(CHANNEL_ID),
        "type": 0,
        "content": body["content"].strip(),
        "author": {"id": str(BOT_ID), "username": "Genji", "discriminator": "0", "avatar": None},
        "embeds": body["embeds"],
        "components": body["components"],
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": NOW.isoformat(),
        "edited_timestamp": None,
    }
    return discord.Message(
        state=client._connection, channel=client.get_partial_messageable(CHANNEL_ID), data=data
    )


def read_back(message: Outgoing) -> Outgoing:
    return readback.outgoing_of(stored(discord_body(message)))


# -- the cards, fed over-long input ------------------------------------------------------------


def completion(**changes: Any) -> CompletionAnnouncement:
    view = CompletionAnnouncement(
        id=BIG_ID,
        code="ABCDE",
        map_name=NAME,
        official=True,
        difficulty="Hell " * 60,
        user_id=USER,
        name=NAME,
        time=12.34,
        screenshot="https://img.example/" + "s" * 1000 + ".png",
        video=VIDEO,
        state="verified",
        completion=False,
        verified_by=USER,
        verified_by_name=NAME * 4,
        reason=REASON,
        verification_id=BIG_ID,
        message_id=BIG_ID,
        latest_transition_id=None,
        rank=1,
        upvotes=10**12,
    )
    return msgspec.structs.replace(view, **changes)


def failed_autoverify() -> FailedAutoverifyEvent:
    return FailedAutoverifyEvent(
        completion_id=BIG_ID,
        submitted_code="ABCDE",
        submitted_time=12.34,
        submitted_user_names=[NAME] * 20,
        user_id=USER,
        extracted=ExtractedResult(name=NAME, time=12.3, code="ABCDF", texts={"raw": REASON}),
        code_match=False,
        time_match=False,
        user_match=False,
        screenshot="https://img.example/" + "s" * 1500,
    )


def map_edit() -> MapEditResponse:
    changes = {f"field_{n}": long_text(300) for n in range(10)}
    return MapEditResponse(
        id=BIG_ID,
        map_id=BIG_ID,
        code="ABCDE",
        proposed_changes=changes,
        reason=REASON,
        created_by=USER,
        created_at=NOW,
        message_id=None,
        accepted=None,
        resolved_by=None,
        resolved_at=None,
        rejection_reason=None,
    )


def playtest(**changes: Any) -> PlaytestStateResponse:
    state = PlaytestStateResponse(
        id=BIG_ID,
        map_id=BIG_ID,
        code="ABCDE",
        map_name=NAME,
        official=True,
        playtesting="In Progress",
        hidden=False,
        difficulty="Hard",
        initial_difficulty=5.5,
        thread_id=None,
        verification_id=None,
        completed=False,
        reset_generation=0,
        creators=[PlaytestCreator(id=USER + n, name=NAME, is_primary=n == 0) for n in range(30)],
        votes=[PlaytestVote(user_id=USER + n, name=NAME, difficulty=5.0) for n in range(200)],
        last_reset=None,
        verdict=None,
        finalizable_vote_id=None,
    )
    return msgspec.structs.replace(state, **changes)


def newsfeed_entries() -> list[dict[str, Any]]:
    common = {"code": "ABCDE", "map_name": NAME, "reason": REASON, "name": NAME}
    return [
        {**common, "type": "record", "time": 12.34, "rank_num": 1, "video": VIDEO},
        {**common, "type": "new_map", "creators": [NAME] * 30, "difficulty": "Hell"},
        {**common, "type": "archive"},
        {**common, "type": "unarchive"},
        {**common, "type": "bulk_archive", "codes": ["ABCDE"] * 1000},
        {**common, "type": "bulk_unarchive", "codes": ["ABCDE"] * 1000},
        {**common, "type": "guide", "guide_url": VIDEO},
        {**common, "type": "legacy_record", "affected_count": 10},
        {
            **common,
            "type": "map_edit",
            "changes": {f"{NAME}_{n}": [long_text(600), long_text(600)] for n in range(30)},
        },
        {**common, "type": "role", "added": [NAME] * 100},
        {**common, "type": "announcement", "title": NAME * 2, "content": long_text(5000)},
        {**common, "type": "linked_map", "official_code": "ABCDE", "unofficial_code": "FGHIJ"},
        {
            **common,
            "type": "unlinked_map",
            "official_code": "ABCDE",
            "unofficial_code": "FGHIJ",
        },
        {**common, "type": NAME * 30},
    ]


def categories() -> dict[int, TournamentCategoryResponse]:
    return {
        n: TournamentCategoryResponse(
            id=n,
            name=NAME * 2,
            champion_role_id=None,
            is_active=True,
            champion_user_id=None,
            champion_cycle_id=None,
            former_champion_user_ids=[],
        )
        for n in range(30)
    }


def cycle_results() -> list[TournamentCycleCompletedEvent]:
    standings = [
        TournamentLeaderboardEntry(
            rank=rank, user_id=USER + rank, name=NAME, time=99.99, verified=True, completion=False
        )
        for rank in (1, 2, 3)
    ]
    return [
        TournamentCycleCompletedEvent(
            cycle_id=n, category_id=n, standings=standings, winner_user_id=USER + n
        )
        for n in range(30)
    ]


def rollover() -> TournamentRolloverEvent:
    started = [
        TournamentCycleStartedEvent(
            cycle_id=n,
            category_id=n,
            map_id=n,
            map_code="ABCDE",
            map_name=NAME,
            started_at=NOW,
            ends_at=NOW + timedelta(days=7),
        )
        for n in range(30)
    ]
    return TournamentRolloverEvent(
        edition_id=1, results=cycle_results(), started=started, results_pending=True
    )


def xp_grant() -> XpGrantEvent:
    return XpGrantEvent(
        grant_id=BIG_ID,
        user_id=USER,
        amount=10**9,
        type="Completion",
        previous_amount=0,
        new_amount=10**9,
        reason=REASON,
    )


def alert(**changes: Any) -> AlertCard:
    effects = [
        AlertEffect(
            effect_key=f"announce:{NAME}:{n}", destination=f"channel:{BIG_ID}", state="pending"
        )
        for n in range(100)
    ]
    card = AlertCard(
        job_id=UUID("12345678-1234-5678-1234-567812345678"),
        event_name="api.completion.submitted",
        retry_generation=999_999_999,
        state="held",
        error=REASON,
        attempts=10**6,
        failed_at=NOW,
        completed_effects=effects,
        pending_effects=effects,
        retry_enabled=True,
        sentry_url="https://sentry.example/" + "e" * 3000,
        guild_id=None,
        channel_id=None,
        message_id=None,
        desired_version=1,
        rendered_version=0,
        episode=AlertEpisode(
            retry_generation=1, failed_at=NOW, notified=False, reply_message_id=None
        ),
    )
    return msgspec.structs.replace(card, **changes)


CARDS: dict[str, Callable[[], Outgoing]] = {
    "completions.verification_card": lambda: completions_cards.verification_card(completion()),
    "completions.verification_card short": lambda: completions_cards.verification_card(
        completion(video=None, difficulty=None, map_name="Hanamura", name="Genji")
    ),
    "completions.completion_card": lambda: completions_cards.completion_card(
        completion(), upvotes=10**12
    ),
    "completions.mastery_message": lambda: completions_cards.mastery_message(
        NAME * 3, NAME * 3, "Grandmaster " * 100
    ),
    "completions.autoverification_notice": lambda: completions_cards.autoverification_notice(
        failed_autoverify()
    ),
    "moderator.verification_card": lambda: moderator_cards.verification_card(map_edit()),
    "moderator.verification_card empty": lambda: moderator_cards.verification_card(
        msgspec.structs.replace(map_edit(), reason="", proposed_changes={})
    ),
    "playtest.placeholder": lambda: playtest_cards.placeholder(playtest(code="X" * 3000)),
    "playtest.playtest_view": lambda: playtest_cards.playtest_view(playtest()),
    "playtest.playtest_view completed": lambda: playtest_cards.playtest_view(
        playtest(
            completed=True, votes=[], creators=[PlaytestCreator(id=USER, name="", is_primary=True)]
        )
    ),
    "playtest.creator_ping": lambda: playtest_cards.creator_ping(playtest(code="X" * 3000)),
    "playtest.vote_cast": lambda: playtest_cards.vote_cast(USER, 7.25),
    "playtest.vote_removed": lambda: playtest_cards.vote_removed(USER),
    "playtest.finalizable": lambda: playtest_cards.finalizable(
        playtest(
            creators=[
                PlaytestCreator(id=USER + n, name=NAME, is_primary=n == 0) for n in range(100)
            ]
        )
    ),
    "playtest.thread_notice": lambda: playtest_cards.thread_notice(
        playtest(), *playtest_cards.denied_notice(playtest(), REASON)
    ),
    **{
        f"newsfeed.newsfeed_card {entry['type'][:20]}": (
            lambda entry=entry: newsfeed_cards.newsfeed_card(entry)
        )
        for entry in newsfeed_entries()
    },
    "tournament.review_card": lambda: tournament_cards.review_card(
        TournamentCompletionCreatedEvent(
            completion_id=BIG_ID,
            cycle_id=1,
            user_id=USER,
            time=12.34,
            video=VIDEO,
            screenshot="https://img.example/" + "s" * 1500,
        )
    ),
    "tournament.rollover_announcement": lambda: tournament_cards.rollover_announcement(
        rollover(), "tournament:rollover:1", categories(), 10**18 + 77
    ),
    "tournament.results_card": lambda: tournament_cards.results_card(
        cycle_results(), categories(), 10**18 + 77
    ),
    "xp.xp_gain": lambda: xp_cards.xp_gain(xp_grant(), mention=False),
    "xp.rank_up": lambda: xp_cards.rank_up(USER, NAME * 20, mention=True),
    "xp.prestige": lambda: xp_cards.prestige(USER, 10**9, 10**9, mention=False),
    "alerts.card": lambda: alert_cards.card(alert()),
    "alerts.card succeeded": lambda: alert_cards.card(
        alert(state="succeeded", error=None, completed_effects=[], pending_effects=[])
    ),
    "alerts.reply": lambda: alert_cards.reply(alert(event_name=NAME * 20), 999_999_999, USER),
}

CARD_MODULES: dict[str, ModuleType] = {
    "completions": completions_cards,
    "moderator": moderator_cards,
    "newsfeed": newsfeed_cards,
    "playtest": playtest_cards,
    "tournament": tournament_cards,
    "xp": xp_cards,
    "alerts": alert_cards,
}


def test_every_card_builder_is_covered() -> None:
    builders = {
        f"{prefix}.{name}"
        for prefix, module in CARD_MODULES.items()
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
        and function.__annotations__.get("return") == "Outgoing"
    }
    covered = {name.split(" ")[0] for name in CARDS}
    assert builders - covered == set()


@pytest.mark.parametrize("name", CARDS)
def test_every_card_reaches_discord_within_its_limits(name: str) -> None:
    assert_accepted(discord_body(CARDS[name]()))


@pytest.mark.parametrize("name", CARDS)
def test_every_card_reads_back_with_its_fingerprint(name: str) -> None:
    card = CARDS[name]()
    assert read_back(card).fingerprint() == card.fingerprint()


@pytest.mark.parametrize("name", CARDS)
def test_fitting_a_card_twice_changes_nothing(name: str) -> None:
    once = fitted(CARDS[name]())
    assert fitted(once) == once


def test_a_long_video_url_is_cut_at_the_end_of_its_field() -> None:
    card = completions_cards.verification_card(completion())
    body = discord_body(card)
    (video,) = (f for f in body["embeds"][0]["fields"] if f["name"] == "Video")
    assert len(video["value"]) == 1024
    assert video["value"] == VIDEO[:1023] + "…"


def test_a_long_map_edit_reason_keeps_its_wording_up_to_the_cut() -> None:
    body = discord_body(moderator_cards.verification_card(map_edit()))
    fields = {f["name"]: f["value"] for f in body["embeds"][0]["fields"]}
    assert fields["Map Code"] == "ABCDE"
    assert fields["Requested By"] == f"<@{USER}>"
    assert fields["Reason"].endswith("…")
    assert REASON.startswith(fields["Reason"][:-1])


def test_an_empty_map_edit_reason_shows_a_placeholder() -> None:
    card = moderator_cards.verification_card(
        msgspec.structs.replace(map_edit(), reason=" ", proposed_changes={})
    )
    fields = {f["name"]: f["value"] for f in discord_body(card)["embeds"][0]["fields"]}
    assert fields["Reason"] == "-"
    assert fields["Proposed Changes"] == "None"


def test_thirty_fields_keep_the_first_twenty_five() -> None:
    entry = next(e for e in newsfeed_entries() if e["type"] == "map_edit")
    card = newsfeed_cards.newsfeed_card(entry)
    assert card.embed is not None and len(card.embed.fields) == 31
    fields = discord_body(card)["embeds"][0]["fields"]
    assert len(fields) == 25
    for shown, item in zip(fields, card.embed.fields, strict=False):
        assert shown["name"].endswith("…")
        assert item.name.startswith(shown["name"].removesuffix("…"))


def test_a_forum_thread_name_fits_one_hundred_characters() -> None:
    name = playtest_cards.thread_name(playtest())
    assert len(name) == 100
    assert name.startswith("ABCDE | Very Long Name") and name.endswith("…")
    assert playtest_cards.thread_name(playtest(map_name="Hanamura")) == "ABCDE | Hanamura"


# -- custom ids --------------------------------------------------------------------------------

FEATURE_ID = re.compile(r"[a-z_]+:[a-z_]+:v1:[0-9]+")


@pytest.mark.parametrize("name", CARDS)
def test_custom_ids_of_the_largest_ids_stay_whole_and_parse(name: str) -> None:
    card = CARDS[name]()
    for item in card.buttons:
        assert len(item.custom_id) <= 100
        if item.custom_id.startswith("job:"):
            control = RetryControl.parse(item.custom_id) or DetailsControl.parse(item.custom_id)
            assert control is not None and control.custom_id == item.custom_id
        else:
            assert FEATURE_ID.fullmatch(item.custom_id), item.custom_id
            assert item.custom_id.endswith(f":{BIG_ID}")
    assert [b.custom_id for b in fitted(card).buttons] == [b.custom_id for b in card.buttons]


def test_a_custom_id_past_one_hundred_characters_is_refused_not_cut() -> None:
    message = Outgoing(buttons=(Button("completion:verify:v1:" + "9" * 80, "Accept"),))
    with pytest.raises(ValueError, match="custom id"):
        fitted(message)
    with pytest.raises(ValueError, match="custom id"):
        render.message_arguments(message)
    with pytest.raises(ValueError, match="custom id"):
        message.fingerprint()


def test_more_buttons_than_five_rows_or_repeated_ids_are_refused() -> None:
    many = tuple(Button(f"playtest:vote:v1:{n}", "Vote") for n in range(26))
    with pytest.raises(ValueError, match="26 buttons"):
        fitted(Outgoing(buttons=many))
    assert fitted(Outgoing(buttons=many[:25])).buttons == many[:25]
    with pytest.raises(ValueError, match="repeated"):
        fitted(Outgoing(buttons=(many[0], many[0])))


# -- fitted ------------------------------------------------------------------------------------


def test_a_message_within_the_limits_is_left_as_it_is() -> None:
    message = Outgoing(
        content="c" * 2000,
        embed=Embed(
            title="t" * 256,
            description="d" * 1990,
            fields=tuple(Field(f"name {n}", "v" * 130, inline=True) for n in range(25)),
            url="https://example.org/" + "u" * 1500,
            image_url="https://img.example/i.png",
            color=0x00FF00,
            footer="f" * 100,
        ),
        buttons=tuple(Button(f"playtest:vote:v1:{n}", "l" * 80) for n in range(25)),
    )
    assert fitted(message) is message
    # Without mentions, the fingerprint is still the digest of the whole message.
    assert message.fingerprint() == hashlib.sha256(msgspec.json.encode(message)).hexdigest()


def test_mentions_do_not_change_the_fingerprint() -> None:
    content = f"<@{USER}> voted 7.25"
    pinging = Outgoing(content=content, mentions=Mentions(users=(USER,)))
    silent = Outgoing(content=content, mentions=NO_MENTIONS)
    assert pinging.fingerprint() == silent.fingerprint()
    assert Outgoing(content="other").fingerprint() != silent.fingerprint()


def test_a_vote_message_that_pings_no_one_reads_back_with_its_fingerprint() -> None:
    vote = playtest_cards.vote_cast(USER, 7.25)
    assert vote.content.startswith(f"<@{USER}>") and vote.mentions == NO_MENTIONS
    body = discord_body(vote)
    assert body["allowed_mentions"] == {"parse": [], "users": [], "roles": []}
    back = readback.outgoing_of(stored(body))
    assert back.mentions == Mentions(users=(USER,))  # as read from the content
    assert back.fingerprint() == vote.fingerprint()


def test_an_embed_past_six_thousand_characters_cuts_its_longest_texts_alike() -> None:
    embed = Embed(
        title="Title",
        description=long_text(4096),
        fields=(Field("Short", "kept whole"), *(Field(f"F{n}", long_text(1024)) for n in range(6))),
        footer="Footer",
    )
    result = fitted(Outgoing(embed=embed)).embed
    assert result is not None
    texts = [result.title, result.description, result.footer]
    texts += [t for item in result.fields for t in (item.name, item.value)]
    assert 6000 - len(texts) < sum(len(t) for t in texts) <= 6000
    assert (result.title, result.footer, result.fields[0].value) == (
        "Title",
        "Footer",
        "kept whole",
    )
    cut = {len(result.description), *(len(item.value) for item in result.fields[1:])}
    assert len(cut) == 1 and cut.pop() < 1024
    assert result.description.endswith("…")
    assert embed.description.startswith(result.description[:-1])


# Short texts, blank ones, and long ones of every length up to past each limit.
texts = (
    st.text(alphabet=st.sampled_from("ab …\n"), max_size=20)
    | st.sampled_from(["", " "])
    | st.builds(str.__mul__, st.sampled_from(["a", "b …"]), st.integers(0, 3000))
)


@st.composite
def messages(draw: st.DrawFn) -> Outgoing:
    embed = None
    if draw(st.booleans()):
        fields = draw(st.lists(st.builds(Field, texts, texts, st.booleans()), max_size=30))
        embed = Embed(
            title=draw(texts),
            description=draw(st.text(alphabet="d…", max_size=5000)),
            fields=tuple(fields),
            footer=draw(texts),
        )
    count = draw(st.integers(min_value=0, max_value=25))
    buttons = tuple(Button(f"playtest:vote:v1:{n}", draw(texts)[:200]) for n in range(count))
    return Outgoing(content=draw(texts) * 2, embed=embed, buttons=buttons)


@settings(max_examples=60, deadline=None)
@given(messages())
def test_any_message_fits_once_and_for_all(message: Outgoing) -> None:
    once = fitted(message)
    assert fitted(once) == once
    assert_accepted(discord_body(message))
    assert once.fingerprint() == message.fingerprint()
