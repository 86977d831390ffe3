"""Messages of the xp feature: the XP gain and rank/prestige posts in the xp channel, and the
notification texts. A user is mentioned only when their ping preference for the event is on."""

from __future__ import annotations

from genji_sdk.payloads import XpGrantEvent

from genji_bot.effects.port import NO_MENTIONS, Mentions, Outgoing


def _who(user_id: int, mention: bool) -> tuple[str, Mentions]:
    if mention:
        return f"<@{user_id}>", Mentions(users=(user_id,))
    return f"<@{user_id}>", NO_MENTIONS


def gained_amount(grant: XpGrantEvent) -> int:
    """The XP the grant added, multiplier applied."""
    return grant.new_amount - grant.previous_amount


def xp_gain_text(grant: XpGrantEvent) -> tuple[str, str]:
    title = "XP gained"
    body = f"You gained {gained_amount(grant)} XP ({grant.type})."
    return title, body


def xp_gain(grant: XpGrantEvent, *, mention: bool) -> Outgoing:
    who, mentions = _who(grant.user_id, mention)
    return Outgoing(
        content=f"{who} has gained **{gained_amount(grant)} XP** ({grant.type})!",
        mentions=mentions,
    )


def rank_up_text(rank_name: str) -> tuple[str, str]:
    return "Rank up", f"You ranked up to {rank_name}!"


def prestige_text(prestige: int) -> tuple[str, str]:
    return "Prestige", f"You reached prestige {prestige}!"


def lootbox_text(keys: int) -> tuple[str, str]:
    noun = "key" if keys == 1 else "keys"
    return "Lootbox earned", f"You earned {keys} lootbox {noun}."


def rank_up(user_id: int, rank_name: str, *, mention: bool) -> Outgoing:
    who, mentions = _who(user_id, mention)
    return Outgoing(
        content=f"{who} has ranked up to **{rank_name}** and earned a lootbox key!",
        mentions=mentions,
    )


def prestige(user_id: int, level: int, keys: int, *, mention: bool) -> Outgoing:
    who, mentions = _who(user_id, mention)
    return Outgoing(
        content=f"{who} has reached **prestige {level}** and earned {keys} lootbox keys!",
        mentions=mentions,
    )
