"""One realistic payload per registered event, as a producer would build it."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
from genji_sdk import payloads as p

PLAYER = 1_045_678_901_234_567_890
MODERATOR = 1_098_765_432_109_876_543
BOT_USER = 1_200_000_000_000_000_001
THREAD = 1_301_234_567_890_123_456
QUEUE_MESSAGE = 1_312_345_678_901_234_567
STARTED = datetime(2026, 10, 5, 18, 0, tzinfo=UTC)
ENDS = datetime(2026, 10, 12, 18, 0, tzinfo=UTC)

_STANDINGS = p.TournamentCycleCompletedEvent(
    cycle_id=41,
    category_id=3,
    standings=[
        p.TournamentLeaderboardEntry(
            rank=1, user_id=PLAYER, name="Nebula", time=38.52, verified=True, completion=False
        ),
        p.TournamentLeaderboardEntry(
            rank=2, user_id=MODERATOR, name="Tracer", time=41.07, verified=True, completion=True
        ),
    ],
    winner_user_id=PLAYER,
)

_NEXT_CYCLE = p.TournamentCycleStartedEvent(
    cycle_id=44,
    category_id=3,
    map_id=812,
    map_code="K4Z9Q",
    map_name="Hanamura",
    started_at=STARTED,
    ends_at=ENDS,
)

SAMPLES: dict[str, msgspec.Struct] = {
    "api.completion.autoverification.failed": p.FailedAutoverifyEvent(
        completion_id=9001,
        submitted_code="ABC12",
        submitted_time=52.34,
        submitted_user_names=["NEBULA", "NEBULA#1234"],
        user_id=PLAYER,
        extracted=p.ExtractedResult(
            name="NEBULA",
            time=53.34,
            code="ABC12",
            sources={"time": "ocr-region-2"},
            texts={"raw": "ABC12 NEBULA 53.34"},
        ),
        code_match=True,
        time_match=False,
        user_match=True,
        screenshot="https://cdn.example.test/screens/9001.png",
    ),
    "api.completion.submission": p.CompletionCreatedEvent(completion_id=9001),
    "api.completion.upvote": p.UpvoteUpdateEvent(
        user_id=MODERATOR, message_id=1_320_000_000_000_000_010, milestone=20
    ),
    "api.completion.verification": p.VerificationChangedEvent(
        completion_id=9001,
        transition_id=77,
        verified=False,
        verified_by=MODERATOR,
        reason="Screenshot does not show the finish time.",
    ),
    "api.completion.verification.delete": p.VerificationMessageDeleteEvent(
        verification_id=QUEUE_MESSAGE
    ),
    "api.map_edit.created": p.MapEditCreatedEvent(edit_request_id=57),
    "api.map_edit.resolved": p.MapEditResolvedEvent(
        edit_request_id=57, accepted=False, resolved_by=MODERATOR, rejection_reason="Duplicate."
    ),
    "api.newsfeed.create": p.NewsfeedDispatchEvent(newsfeed_id=3344),
    "api.notification.delivery": p.NotificationDeliveryEvent(
        event_id=120_034,
        user_id=PLAYER,
        event_type="verification_approved",
        title="Completion verified",
        body="Your run on ABC12 was verified.",
        discord_message="Your run on **ABC12** was verified!",
        metadata={"map_code": "ABC12", "completion_id": 9001},
        channels_to_deliver=["discord_dm"],
    ),
    "api.playtest.create": p.PlaytestCreatedEvent(code="ZQ7WX", playtest_id=210),
    "api.playtest.vote.cast": p.PlaytestVoteCastEvent(
        voter_id=PLAYER, difficulty_value=6.25, thread_id=THREAD
    ),
    "api.playtest.vote.remove": p.PlaytestVoteRemovedEvent(voter_id=PLAYER, thread_id=THREAD),
    "api.playtest.approve": p.PlaytestApprovedEvent(
        verifier_id=MODERATOR,
        difficulty="Very Hard -",
        thread_id=THREAD,
        primary_creator_id=PLAYER,
        code="ZQ7WX",
    ),
    "api.playtest.force_accept": p.PlaytestForceAcceptedEvent(
        difficulty="Hell", verifier_id=MODERATOR, thread_id=THREAD
    ),
    "api.playtest.force_deny": p.PlaytestForceDeniedEvent(
        verifier_id=BOT_USER, reason="archived", thread_id=THREAD
    ),
    "api.playtest.reset": p.PlaytestResetEvent(
        transition_id=5,
        verifier_id=MODERATOR,
        reason="Checkpoint 4 was skippable.",
        remove_votes=True,
        remove_completions=False,
        thread_id=THREAD,
    ),
    "api.tournament.completion.created": p.TournamentCompletionCreatedEvent(
        completion_id=612,
        cycle_id=41,
        user_id=PLAYER,
        time=39.9,
        video="https://video.example.test/watch?v=run612",
        screenshot="https://cdn.example.test/screens/t612.png",
    ),
    "api.tournament.verification.changed": p.TournamentVerificationChangedEvent(
        tournament_completion_id=612,
        transition_id=901,
        cycle_id=41,
        user_id=PLAYER,
        verified=True,
        time=39.9,
    ),
    "api.tournament.rollover": p.TournamentRolloverEvent(
        edition_id=18, results=[_STANDINGS], started=[_NEXT_CYCLE], results_pending=False
    ),
    "api.tournament.results": p.TournamentEditionResultsEvent(edition_id=18, results=[_STANDINGS]),
    "api.xp.grant": p.XpGrantEvent(
        grant_id=44_021,
        user_id=PLAYER,
        amount=50,
        type="World Record",
        previous_amount=9_980,
        new_amount=10_080,
        reason="World record on ABC12",
    ),
    "completion.ocr.requested": p.OcrVerificationRequestedEvent(
        completion_id=9002,
        user_id=PLAYER,
        code="ABC12",
        time=51.2,
        screenshot="https://cdn.example.test/screens/9002.png",
    ),
    "tournament.ocr.requested": p.TournamentOcrVerificationRequestedEvent(
        tournament_completion_id=613,
        cycle_id=41,
        user_id=PLAYER,
        code="K4Z9Q",
        time=40.15,
        screenshot="https://cdn.example.test/screens/t613.png",
    ),
    "map.linked.newsfeed.requested": p.LinkedMapNewsfeedRequestedEvent(
        official_code="OFC1A", unofficial_code="UNOF2", official_map_id=913
    ),
}
