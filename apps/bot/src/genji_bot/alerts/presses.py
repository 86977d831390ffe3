"""What pressing Retry job or Details does, without Discord: the operator check on the real
actor, the request built from the press, the API call, and the sentence to answer with.

`Press` holds the facts of the interaction itself (who pressed, where, which interaction); the
custom id only names the job and the generation the card was rendered for.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable

import msgspec
from genji_sdk.failures import ConfigurationFailure
from genji_sdk.recovery import OperatorContext, RetryRequest

from genji_bot.alerts.custom_ids import DetailsControl, RetryControl
from genji_bot.alerts.explain import clean, details_text, retry_sentence, retry_unanswered
from genji_bot.alerts.recovery_client import Unanswered, read_details, request_retry
from genji_bot.api import ApiClient, ApiError, ApiNotFound

log = logging.getLogger("genji.bot.alerts")

NOT_AN_OPERATOR = "Only queue operators may use the job alert controls."
UNREADABLE = "The API's answer could not be read; press Details to see the job's current state."


@dataclasses.dataclass(frozen=True)
class Press:
    actor_id: int
    """interaction.user.id: who really pressed, never an id from the custom id."""
    interaction_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    """The alert card the button is on."""


def is_operator(operator_ids: Iterable[int], actor_id: int) -> bool:
    return actor_id in frozenset(operator_ids)


def retry_request(control: RetryControl, press: Press) -> RetryRequest:
    return RetryRequest(
        expected_generation=control.generation,
        idempotency_key=str(press.interaction_id),
        actor_id=press.actor_id,
        context=OperatorContext(
            source="discord",
            guild_id=press.guild_id,
            channel_id=press.channel_id,
            message_id=press.message_id,
            interaction_id=press.interaction_id,
        ),
    )


def _refused(control: RetryControl | DetailsControl, error: Exception) -> str:
    if isinstance(error, ApiNotFound):
        return f"No job `{control.job_id}` is known to the API."
    if isinstance(error, ConfigurationFailure):
        return (
            "The API refused this request: the presser is not an allowed operator, or this "
            "message is not the job's alert card."
        )
    assert isinstance(error, ApiError)
    return f"The API answered {error.status} ({clean(error.message, 200)}); nothing was confirmed."


async def press_retry(
    api: ApiClient,
    operator_ids: Iterable[int],
    control: RetryControl,
    press: Press,
    on_accepted: Callable[[], Awaitable[None]],
) -> str:
    """Ask the API to retry; `on_accepted` (refreshing the card) runs only after an accepted
    retry, and its failure never changes the answer: the durable card catches up later."""
    if not is_operator(operator_ids, press.actor_id):
        return NOT_AN_OPERATOR
    try:
        result = await request_retry(api, control.job_id, retry_request(control, press))
    except Unanswered:
        return retry_unanswered()
    except (ApiError, ConfigurationFailure) as error:
        return _refused(control, error)
    except msgspec.ValidationError as error:
        log.error("job %s: unreadable retry answer: %s", control.job_id, error)
        return UNREADABLE
    if result.outcome == "accepted" or result.recorded_outcome == "accepted":
        try:
            await on_accepted()
        except Exception as error:
            log.warning("job %s: retry accepted, card not refreshed: %r", control.job_id, error)
    return retry_sentence(result)


async def press_details(
    api: ApiClient, operator_ids: Iterable[int], control: DetailsControl, press: Press
) -> str:
    if not is_operator(operator_ids, press.actor_id):
        return NOT_AN_OPERATOR
    try:
        details = await read_details(api, control.job_id)
    except Unanswered:
        return "The API did not answer in time; press Details again in a moment."
    except (ApiError, ConfigurationFailure) as error:
        return _refused(control, error)
    except msgspec.ValidationError as error:
        log.error("job %s: unreadable details: %s", control.job_id, error)
        return UNREADABLE
    return details_text(details)
