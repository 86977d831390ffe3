"""Discord's error answers: an HTTP status with a JSON body of `message`, `code` and, for
invalid form bodies, the nested `errors` object discord.py flattens into its exception text."""

from __future__ import annotations

from typing import Any


class DiscordError(Exception):
    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        shaped: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            shaped["errors"] = self.errors
        return shaped


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def not_found_route() -> DiscordError:
    return DiscordError(404, 0, "404: Not Found")


def unknown_channel() -> DiscordError:
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def unknown_member() -> DiscordError:
    return DiscordError(404, 10007, "Unknown Member")


def unknown_role() -> DiscordError:
    return DiscordError(404, 10011, "Unknown Role")


def unknown_user() -> DiscordError:
    return DiscordError(404, 10013, "Unknown User")


def unknown_guild() -> DiscordError:
    return DiscordError(404, 10004, "Unknown Guild")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, 10062, "Unknown interaction")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, 10015, "Unknown Webhook")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def empty_message() -> DiscordError:
    return DiscordError(400, 50006, "Cannot send an empty message")


def cannot_dm() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def denied(code: int) -> DiscordError:
    if code == 50013:
        return DiscordError(403, 50013, "Missing Permissions")
    return DiscordError(403, 50001, "Missing Access")


def invalid_form(errors: dict[str, Any]) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors)
