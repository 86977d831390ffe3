"""The soak's output: a progress line while it runs, and at the end the entrypoints reached,
the findings and one row per fault class (injected, survived, and the losses and duplicates
found in the time around its injections)."""

from __future__ import annotations

from collections import Counter

from genji_devstack.soak.checks import DUPLICATED, LOST, Finding, Results
from genji_devstack.soak.faults import CLASSES, Injection
from genji_devstack.soak.operator import Recovery

# A finding belongs to a fault when its time span meets the fault's, widened by this much on
# each side (the fault's effects outlive it by about one stale-heartbeat reclaim and a retry).
ATTRIBUTION_SLACK = 10.0


def progress(
    elapsed: float,
    submitted: int,
    total: int,
    counts: tuple[int, int, int],
    faults: int,
    planned: int,
) -> str:
    committed, unknown, refused = counts
    return (
        f"[soak {elapsed:6.1f}s] submissions {submitted}/{total} (committed {committed}, "
        f"unanswered {unknown}, refused {refused}); faults {faults}/{planned}"
    )


def _meets(finding: Finding, injection: Injection) -> bool:
    if finding.at is None:
        return False
    start, end = finding.at
    return (
        start <= injection.ended + ATTRIBUTION_SLACK
        and end >= injection.started - ATTRIBUTION_SLACK
    )


def fault_table(injections: list[Injection], results: Results) -> list[str]:
    header = f"{'fault class':<22}{'injected':>9}{'survived':>9}{'lost':>6}{'duplicated':>11}"
    lines = [header, "-" * len(header)]
    for fault in CLASSES:
        mine = [i for i in injections if i.fault == fault]
        lost = sum(
            1 for f in results.findings if f.kind == LOST and any(_meets(f, i) for i in mine)
        )
        duplicated = sum(
            1 for f in results.findings if f.kind == DUPLICATED and any(_meets(f, i) for i in mine)
        )
        survived = sum(1 for i in mine if i.survived)
        lines.append(f"{fault:<22}{len(mine):>9}{survived:>9}{lost:>6}{duplicated:>11}")
    lines.append("-" * len(header))
    lines.append(
        f"{'all (any time)':<22}{len(injections):>9}{sum(i.survived for i in injections):>9}"
        f"{results.count(LOST):>6}{results.count(DUPLICATED):>11}"
    )
    return lines


def final_report(
    injections: list[Injection],
    results: Results,
    recovery: Recovery,
    counts: tuple[int, int, int],
    restarts: dict[str, int],
    refusals: Counter[int],
) -> list[str]:
    committed, unknown, refused = counts
    statuses = ", ".join(f"{status} x{n}" for status, n in sorted(refusals.items())) or "none"
    lines = [
        f"submissions: {committed} committed, {unknown} unanswered, {refused} refused "
        f"(statuses: {statuses})",
        f"entrypoints reached ({len(results.reached)}):",
    ]
    lines += [f"  {name:<40}{n:>6} jobs" for name, n in sorted(results.reached.items())]
    lines.append(f"job states: {dict(sorted(results.states.items()))}")
    holds = ", ".join(f"{reason} x{n}" for reason, n in recovery.held.most_common()) or "none"
    lines.append(
        f"held and recovered: {sum(recovery.held.values())} holds ({holds}); "
        f"{recovery.retries} retries, {len(recovery.located)} sends located, "
        f"{len(recovery.resent)} resent"
        + (f"; channels allowed: {len(recovery.allowed)}" if recovery.allowed else "")
    )
    lines.append(
        f"messages Discord holds: {results.messages} ({results.sends} of bound sends); "
        f"repeated sends surfaced to the operator: {results.duplicate_sends_surfaced}"
    )
    if results.lost_replies is not None:
        settled, injected = results.lost_replies
        share = f"{100 * settled / injected:.1f}%" if injected else "n/a"
        lines.append(f"lost replies settled without an operator: {settled} of {injected} ({share})")
        for send in results.lost_replies_unsettled[:10]:
            lines.append(f"  lost reply not settled without an operator: {send}")
    notes = Counter(
        f"{i.fault}: {i.note}" for i in injections if i.note and " " not in i.note.strip(":")
    )
    if notes:
        lines.append("fault moments: " + ", ".join(f"{k} x{n}" for k, n in sorted(notes.items())))
    if restarts:
        lines.append(f"services restarted after dying on their own: {restarts}")
    for finding in results.findings:
        lines.append(f"FINDING {finding.kind}: {finding.detail}")
    lines += fault_table(injections, results)
    return lines
