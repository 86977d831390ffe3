"""Domain payloads carried by queue jobs, one module per domain."""

from genji_sdk.payloads.common import (
    DifficultyAll,
    NotificationChannel,
    NotificationEventType,
    OverwatchCode,
    XpType,
)
from genji_sdk.payloads.completions import (
    CompletionCreatedEvent,
    ExtractedResult,
    FailedAutoverifyEvent,
    UpvoteUpdateEvent,
    VerificationChangedEvent,
    VerificationMessageDeleteEvent,
)
from genji_sdk.payloads.continuations import (
    LinkedMapNewsfeedRequestedEvent,
    OcrVerificationRequestedEvent,
    TournamentOcrVerificationRequestedEvent,
)
from genji_sdk.payloads.maps import (
    MapEditCreatedEvent,
    MapEditResolvedEvent,
    PlaytestApprovedEvent,
    PlaytestCreatedEvent,
    PlaytestForceAcceptedEvent,
    PlaytestForceDeniedEvent,
    PlaytestResetEvent,
    PlaytestVoteCastEvent,
    PlaytestVoteRemovedEvent,
)
from genji_sdk.payloads.newsfeed import NewsfeedDispatchEvent
from genji_sdk.payloads.notifications import NotificationDeliveryEvent
from genji_sdk.payloads.tournaments import (
    TournamentCompletionCreatedEvent,
    TournamentCycleCompletedEvent,
    TournamentCycleStartedEvent,
    TournamentEditionResultsEvent,
    TournamentLeaderboardEntry,
    TournamentRolloverEvent,
    TournamentVerificationChangedEvent,
)
from genji_sdk.payloads.xp import XpGrantEvent

__all__ = (
    "CompletionCreatedEvent",
    "DifficultyAll",
    "ExtractedResult",
    "FailedAutoverifyEvent",
    "LinkedMapNewsfeedRequestedEvent",
    "MapEditCreatedEvent",
    "MapEditResolvedEvent",
    "NewsfeedDispatchEvent",
    "NotificationChannel",
    "NotificationDeliveryEvent",
    "NotificationEventType",
    "OcrVerificationRequestedEvent",
    "OverwatchCode",
    "PlaytestApprovedEvent",
    "PlaytestCreatedEvent",
    "PlaytestForceAcceptedEvent",
    "PlaytestForceDeniedEvent",
    "PlaytestResetEvent",
    "PlaytestVoteCastEvent",
    "PlaytestVoteRemovedEvent",
    "TournamentCompletionCreatedEvent",
    "TournamentCycleCompletedEvent",
    "TournamentCycleStartedEvent",
    "TournamentEditionResultsEvent",
    "TournamentLeaderboardEntry",
    "TournamentOcrVerificationRequestedEvent",
    "TournamentRolloverEvent",
    "TournamentVerificationChangedEvent",
    "UpvoteUpdateEvent",
    "VerificationChangedEvent",
    "VerificationMessageDeleteEvent",
    "XpGrantEvent",
    "XpType",
)
