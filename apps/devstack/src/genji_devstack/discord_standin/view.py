"""GET /_standin/view: one self-contained page for developers that shows the stand-in's guild
(channels, threads, DMs and ephemeral answers with their messages, embeds and buttons), follows
it by polling GET /_standin/state, and presses buttons and submits modals as a chosen member
through POST /_standin/interactions.

The page is three package data files in `page/` (the document, its style and its script),
put together into one HTML document per request: nothing is loaded from anywhere else, and the
Content-Security-Policy says so.
"""

from __future__ import annotations

from importlib import resources

from aiohttp import web

from genji_devstack.discord_standin.report import CONTROL_PREFIX

VIEW_PATH = f"{CONTROL_PREFIX}/view"
_PAGE = resources.files("genji_devstack.discord_standin") / "page"
_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
)


def page() -> str:
    """The document with its style and script inlined."""
    document = (_PAGE / "view.html").read_text(encoding="utf-8")
    style = (_PAGE / "view.css").read_text(encoding="utf-8")
    script = (_PAGE / "view.js").read_text(encoding="utf-8")
    return document.replace("/*STYLE*/", style).replace("/*SCRIPT*/", script)


async def view(request: web.Request) -> web.Response:
    return web.Response(
        text=page(),
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": _POLICY, "Cache-Control": "no-store"},
    )


def routes(app: web.Application) -> None:
    app.router.add_get(VIEW_PATH, view)
