"""`python -m genji_devstack.effects_report <recorder dir>`: what the recorded bot did to Discord.

One line per effect: each (event, job, effect, destination) with how many messages were
delivered (more than one means a duplicate; two jobs of one event are two effects), each
message's edits and deletion, each thread update and each role change, read from the
recorder's discord.jsonl. For operators watching a local stack and for evidence of a run; it
never changes the directory.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from genji_devstack.recorder_port import DISCORD, RecorderPort


def _sends(port: RecorderPort) -> Iterator[str]:
    delivered: Counter[tuple[str, str, str, str]] = Counter()
    for entry in port.operations("send"):
        key = (
            str(entry["event"]),
            str(entry["job_id"]),
            str(entry["effect"]),
            entry["destination"],
        )
        delivered[key] += 1
    for (event, job_id, effect, destination), count in sorted(delivered.items()):
        flag = "" if count == 1 else "  (DUPLICATE)"
        yield f"send    {event}  job {job_id[:8]}  {effect}  -> {destination}  x{count}{flag}"


def _message_changes(port: RecorderPort) -> Iterator[str]:
    edits: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    deleted: dict[int, dict[str, Any]] = {}
    for entry in port.operations():
        if entry["op"] == "edit":
            edits[entry["message_id"]].append(entry)
        elif entry["op"] == "delete":
            deleted[entry["message_id"]] = entry
    for message_id, entries in sorted(edits.items()):
        effects = sorted({str(entry["effect"]) for entry in entries})
        yield f"edit    message {message_id}  x{len(entries)}  by {', '.join(effects)}"
    for message_id, entry in sorted(deleted.items()):
        yield f"delete  message {message_id}  by {entry['event']}  {entry['effect']}"


def _threads(port: RecorderPort) -> Iterator[str]:
    for entry in port.operations("thread"):
        state = {
            name: entry[name] for name in ("archived", "locked", "tags") if entry[name] is not None
        }
        yield f"thread  {entry['thread_id']}  {state}  by {entry['event']}  {entry['effect']}"


def _roles(port: RecorderPort) -> Iterator[str]:
    for entry in port.operations("roles"):
        yield (
            f"roles   user {entry['user_id']}  +{entry['add']} -{entry['remove']}  "
            f"by {entry['event']}  {entry['effect']}"
        )


def report(directory: Path) -> list[str]:
    port = RecorderPort(directory)
    lines = [*_sends(port), *_message_changes(port), *_threads(port), *_roles(port)]
    return lines or ["no Discord effects recorded"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("directory", type=Path, help="the recorder directory (GENJI_RECORDER_DIR)")
    directory = parser.parse_args(argv).directory
    if not directory.is_dir():
        print(f"{directory} is not a recorder directory", file=sys.stderr)
        return 2
    if not (directory / DISCORD).exists():
        print(f"no {DISCORD} in {directory} yet", file=sys.stderr)
    for line in report(directory):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
