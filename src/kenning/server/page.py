"""The user's memory page: what is remembered about one end user, and why; edit, delete, export.

Reached with a signed, expiring page token (``POST /v1/users/{id}/page-token``).
Server-rendered HTML; ``static/page.js`` calls the same REST routes with the
same token. Memory text is untrusted (it may be an injection attempt), so
every value is escaped and the Content-Security-Policy allows no inline code.
"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kenning.errors import NotFound
from kenning.scoped import ScopedMemory
from kenning.server import wording
from kenning.server.auth import check_page_token
from kenning.types import Kind, Memory, Source, Status

STATIC = Path(__file__).parent / "static"
MAX_SHOWN = 300
KIND_TITLES = [
    (Kind.FACT, "Facts about you", "Things that stay true until they change."),
    (Kind.PREFERENCE, "What you prefer", "What you like and how you like it."),
    (Kind.PROCEDURE, "How you want things done", "Steps and standing instructions you gave."),
    (Kind.EPISODE, "Things that happened", "Events you mentioned; these fade with time."),
]
SOURCE_LABELS = {
    Source.USER_SAID: "You said this",
    Source.TOOL_RESULT: "From a tool or document",
    Source.INFERRED: "Worked out by your assistant",
    Source.CONSOLIDATED: "Summed up from several memories",
}
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
}

router = APIRouter(include_in_schema=False)
e = html.escape


def mount_static(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _scope_from_token(request: Request, token: str) -> ScopedMemory | None:
    state = request.app.state
    scope = check_page_token(state.system, state.page_secret, token, datetime.now(timezone.utc))
    return None if scope is None else request.app.state.system.scope(scope.tenant_id, scope.user_id)


@router.get("/", response_class=HTMLResponse)
def home() -> HTMLResponse:
    """Where a browser lands: what this server is, and the way to the docs and to a memory page."""
    body = (
        "<h1>Kenning memory server</h1>"
        "<p>This server keeps long-term memory for an assistant.</p>"
        "<ul><li>If you are a person using an assistant: ask it for a link to your memory page. "
        "The link opens the page where you see, correct and delete what is remembered about you.</li>"
        '<li>If you are a developer: the API is described at <a href="/docs">/docs</a> '
        '(the OpenAPI document is <a href="/openapi.json">/openapi.json</a>); agents connect over MCP at /mcp/.</li></ul>'
    )
    return HTMLResponse(_shell("Kenning", body), headers=HEADERS)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/page", name="memory_page", response_class=HTMLResponse)
def memory_page(request: Request, token: str = Query("", max_length=2000), q: str = Query("", max_length=500)) -> HTMLResponse:
    mem = _scope_from_token(request, token)
    if mem is None:
        return HTMLResponse(_shell("Link expired", _expired()), status_code=401, headers=HEADERS)
    return HTMLResponse(_shell("Your memory", render(mem, token, q.strip())), headers=HEADERS)


@router.get("/page/export")
def page_export(request: Request, token: str = Query("", max_length=2000)) -> JSONResponse:
    mem = _scope_from_token(request, token)
    if mem is None:
        return JSONResponse({"error": {"type": "Forbidden", "code": "unauthorized", "message": "link expired"}}, 401)
    return JSONResponse(
        mem.export(), headers={**HEADERS, "Content-Disposition": 'attachment; filename="my-memory.json"'}
    )


def render(mem: ScopedMemory, token: str, q: str) -> str:
    """The page body for one user: search box, memories grouped by kind, each with why it exists."""
    user = mem.scope.user_id
    shown = mem.list(statuses=(Status.ACTIVE, Status.PROVISIONAL), limit=MAX_SHOWN)
    total = mem.count(statuses=(Status.ACTIVE, Status.PROVISIONAL))
    name = wording.display_name(user)
    greeting = f"What your assistant remembers about you, {e(name)}" if name else "What your assistant remembers about you"
    head = f"""
<header class="top" id="top" data-user="{e(user)}">
  <div>
    <h1>{greeting}</h1>
    <p class="sub">You have {total} memor{'y' if total == 1 else 'ies'} here.
    Check them: correct what is wrong, and delete what you do not want kept.</p>
  </div>
  <div class="actions">
    <a class="btn" id="export" href="/page/export?token={quote(token)}" download="my-memory.json">Download everything</a>
    <button class="btn danger" id="delete-all" type="button">Delete everything</button>
  </div>
</header>
<form class="search" method="get" action="/page">
  <input type="hidden" name="token" value="{e(token)}">
  <input type="search" name="q" value="{e(q)}" placeholder="Search your memories" aria-label="Search your memories" maxlength="500">
  <button class="btn" type="submit">Search</button>
  {'<a class="clear" href="/page?token=' + quote(token) + '">Show all</a>' if q else ''}
</form>
<p id="status" class="status" role="status" aria-live="polite"></p>"""
    if q:
        hits = mem.search(q, k=20, refresh=False)
        body = f'<section class="kind"><h2>Results for “{e(q)}”</h2>'
        body += "".join(_card(mem, h.memory, score=h.score) for h in hits) or '<p class="empty">Nothing matches.</p>'
        return head + body + "</section>"
    if not shown:
        return head + '<p class="empty big">Nothing is remembered about you.</p>'
    parts = [head]
    for kind, title, blurb in KIND_TITLES:
        group = [m for m in shown if m.kind is kind]
        if group:
            parts.append(f'<section class="kind" id="kind-{kind.value}"><h2>{title} <span class="n">{len(group)}</span></h2>'
                         f'<p class="blurb">{blurb}</p>{"".join(_card(mem, m) for m in group)}</section>')
    if total > len(shown):
        parts.append(f'<p class="empty">Showing the newest {len(shown)} of {total}; download everything to see the rest.</p>')
    return "".join(parts)


def _card(mem: ScopedMemory, m: Memory, *, score: float | None = None) -> str:
    user = mem.scope.user_id
    older = [(wording.second_person(v.text, user) if v.text else "", v.created_at) for v in _older_versions(mem, m)]
    lines = wording.why(m.source.value, m.created_at, older, from_conversation=bool(m.source_refs))
    why = [f"<li>{e(line)}</li>" for line in lines]
    chips = [
        f'<span class="chip src-{m.source.value}">{e(SOURCE_LABELS[m.source])}</span>',
        f'<span class="chip" title="How sure the assistant is">confidence {round(m.confidence * 100)}%</span>',
        f'<span class="chip" title="How much it matters">importance {round(m.importance * 100)}%</span>',
    ]
    if m.status is Status.PROVISIONAL:
        chips.append('<span class="chip pending">still being checked against what you said before</span>')
    if m.sensitivity.value != "normal":
        chips.append(f'<span class="chip sens">{e(m.sensitivity.value)}</span>')
    if score is not None:
        chips.append(f'<span class="chip">match {score:.2f}</span>')
    dates = f"Remembered {wording.date(m.created_at)} · last used {wording.date(m.last_used_at)}"
    if m.expires_at:
        dates += f" · forgotten after {wording.date(m.expires_at)}"
    return f"""
<article class="memory" data-id="{e(m.id)}">
  <p class="text">{e(wording.second_person(m.text, user))}</p>
  <form class="edit" hidden>
    <textarea name="text" rows="3" maxlength="4000" aria-label="Corrected text">{e(wording.second_person(m.text, user))}</textarea>
    <div class="row"><button class="btn primary save" type="submit">Save correction</button>
    <button class="btn cancel" type="button">Cancel</button></div>
  </form>
  <div class="chips">{''.join(chips)}</div>
  <p class="dates">{dates}</p>
  <details class="why"><summary>Why is this remembered?</summary><ul>{''.join(why)}</ul><ul class="trail"></ul></details>
  <div class="row buttons">
    <button class="btn edit-btn" type="button">Edit</button>
    <button class="btn danger delete-btn" type="button">Delete</button>
  </div>
</article>"""


def _older_versions(mem: ScopedMemory, m: Memory, depth: int = 5) -> list[Memory]:
    """The versions ``m`` replaced, newest first, following ``supersedes`` (bounded; one indexed read each).

    The audit trail is fetched by the page's script when a card is opened, so
    rendering stays one read per shown memory rather than one audit scan each.
    """
    out: list[Memory] = []
    frontier = list(m.supersedes)
    seen: set[str] = set()
    while frontier and len(out) < depth:
        i = frontier.pop(0)
        if i in seen:
            continue
        seen.add(i)
        try:
            old = mem.get(i)
        except NotFound:
            continue
        out.append(old)
        frontier.extend(old.supersedes)
    return out


def _expired() -> str:
    return ('<section class="kind"><h1>This link has expired</h1>'
            '<p>Ask the application you use for a new link to your memory page.</p></section>')


def _shell(title: str, body: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{e(title)} · Kenning</title>
<link rel="stylesheet" href="/static/page.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/page.js" defer></script>
</head><body><main>{body}</main>
<footer>Kenning keeps these notes so your assistant remembers you. Nothing here is shared with other users.</footer>
</body></html>"""
