"""Exceptions a handler raises to tell the worker how a failure should be treated.

Any other exception is an ordinary handler failure: it consumes the job's bounded failure
budget and follows the retry schedule until the job is held for the operator.
"""

from __future__ import annotations


class DependencyUnavailable(Exception):
    """A required dependency (API, Discord, database) is down for everyone, not for this job.

    The job is deferred without consuming its failure budget and the worker stops claiming
    until the dependency has had time to return.
    """

    def __init__(self, dependency: str, detail: str = "", retry_after: float | None = None):
        super().__init__(f"{dependency} unavailable" + (f": {detail}" if detail else ""))
        self.dependency = dependency
        self.retry_after = retry_after


class RateLimited(Exception):
    """The dependency asked us to wait; the job is deferred for exactly `retry_after` seconds."""

    def __init__(self, retry_after: float, detail: str = ""):
        super().__init__(f"rate limited for {retry_after:.1f}s" + (f": {detail}" if detail else ""))
        self.retry_after = retry_after


class ConfigurationFailure(Exception):
    """Credentials or configuration are wrong: an operator must act.

    Reported once as an actionable error; the job is deferred without consuming its budget and
    the worker backs off to its longest reconnect delay instead of looping.
    """


class EffectUncertain(Exception):
    """An external effect may or may not have happened, and no evidence settles it.

    The job is held at once (no automatic retry) naming the effect, its destination and the
    last stage reached, until an operator reconciles it.
    """

    def __init__(self, effect: str, destination: str, stage: str, detail: str = ""):
        super().__init__(
            f"effect {effect!r} to {destination} is uncertain (last stage: {stage})"
            + (f": {detail}" if detail else "")
            + "; reconcile it before the job is retried"
        )
        self.effect = effect
        self.destination = destination
        self.stage = stage


class EffectRefused(Exception):
    """An external service refused an effect definitely, for a reason no retry can change
    (missing permissions, a message it will not accept): nothing was done.

    The job is held at once, naming the effect, its destination and the service's own reason,
    until an operator fixes the cause and retries it; the retry performs the effect.
    """

    def __init__(self, effect: str, destination: str, reason: str):
        super().__init__(
            f"effect {effect!r} to {destination} was refused: {reason}; "
            "fix the cause, then retry the job"
        )
        self.effect = effect
        self.destination = destination
        self.reason = reason


class OwnershipLost(Exception):
    """The execution's claim is no longer active: a newer owner runs the job.

    The execution stops and writes nothing to the queue; the newer owner finishes the job.
    """
