"""The server's web page: plain HTTP on the game's own port, beside the WebSockets.

``sos-tui server`` (and ``host``) answer a browser's ``GET /`` with the lobby page and ``GET /CODE``
with that room's page (the browser twin of ``ws://HOST:PORT/CODE``); the page is a few plain files
of ``sos_tui/net/page/`` (HTML, CSS, JavaScript modules: no build step, nothing fetched from
elsewhere) and speaks docs/protocol.md over a WebSocket to the same host and port.

``answer(request)`` is called by the server before the WebSocket handshake (its
``process_request``, after the per-address limits): None for a WebSocket upgrade (the game goes
on), else the whole HTTP response. Bounded: GET and HEAD only, a short path, small headers (the
``websockets`` library already refuses long lines, many headers and any body), and the connection
closes after each answer.

- ``/`` and ``/CODE``: ``index.html``, never cached without asking (ETag);
- ``/static/VERSION/NAME``: the files, ``VERSION`` a hash of all of them, so they are cached for
  good (``immutable``) and a new release has new addresses;
- ``/healthz`` and ``/metrics`` on ``sos-tui server`` and ``host``: the server's ``routes``
  (``metrics.py``), made afresh for each request, never cached;
- ``/i18n/LANG.json``: the page's words in a language, read at run time from the same gettext
  catalog as the terminal's (``i18n.py``): the msgids the page's scripts mark with ``_("...")``
  and ``ngettext("...", "...", n)``, and the server's message templates (``SERVER_MESSAGES``).

Every answer carries a strict Content-Security-Policy (scripts, styles and connections to this
origin only, no inline code, no framing), ``X-Content-Type-Options: nosniff`` and no referrer.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from email.utils import formatdate
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from sos_tui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE

from .errors import SERVER_MESSAGES
from .protocol import normal_code

Route = Callable[[], tuple[HTTPStatus, bytes, str]]
"""An answer made for each request: (status, body, content type)."""
FILES = Path(__file__).with_name("page")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json; charset=utf-8",
}
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self'; "
    "style-src 'self'; script-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""Sent with every answer, 404s too."""
MAX_PATH = 200
MAX_HEADERS = 8 * 1024
"""A request whose path or headers are longer is refused (414, 431): a page needs no more."""
FOREVER = "public, max-age=31536000, immutable"
ASK = "no-cache"
MARKED = re.compile(r'\b(?:_|ngettext)\("((?:[^"\\]|\\.)*)"(?:,\s*"((?:[^"\\]|\\.)*)")?')
"""The page's marked words, as tools/catalog.py extracts them (double quotes, one line each)."""


def answer(request: Request, routes: Mapping[str, Route] | None = None) -> Response | None:
    """The HTTP response to ``request``, or None when it is a WebSocket handshake. ``routes``:
    answers made afresh for each request, by path (the server's ``/healthz`` and ``/metrics``:
    ``metrics.py``), under the same bounds as the page and never cached."""
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None
    if request.method not in ("GET", "HEAD"):
        return _response(
            HTTPStatus.METHOD_NOT_ALLOWED,
            b"only GET and HEAD\n",
            "text/plain; charset=utf-8",
            extra={"Allow": "GET, HEAD"},
        )
    if len(request.path) > MAX_PATH:
        return _response(HTTPStatus.REQUEST_URI_TOO_LONG, b"address too long\n", "text/plain; charset=utf-8")
    if sum(len(k) + len(v) + 4 for k, v in request.headers.raw_items()) > MAX_HEADERS:
        return _response(
            HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, b"request too large\n", "text/plain; charset=utf-8"
        )
    path = request.path.split("?")[0].split("#")[0]
    route = (routes or {}).get(path)
    found = None if route is not None else _find(path)
    if route is not None:
        status, body, kind = route()
        response = _response(status, body, kind, extra={"Cache-Control": "no-store"})
    elif found is None:
        response = _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
    else:
        body, kind, cache = found
        tag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
        if tag in request.headers.get("If-None-Match", ""):
            response = _response(
                HTTPStatus.NOT_MODIFIED, b"", None, extra={"ETag": tag, "Cache-Control": cache}
            )
        else:
            response = _response(HTTPStatus.OK, body, kind, extra={"ETag": tag, "Cache-Control": cache})
    if request.method == "HEAD":
        response = Response(response.status_code, response.reason_phrase, response.headers, b"")
    return response


def _find(path: str) -> tuple[bytes, str, str] | None:
    """(body, content type, cache control) of ``path``, or None: not found."""
    parts = path.strip("/").split("/")
    if path == "/" or (len(parts) == 1 and normal_code(parts[0]) is not None):
        return index(), TYPES[".html"], ASK
    if len(parts) == 3 and parts[0] == "static" and parts[1] == version():
        body = files().get(parts[2])
        return None if body is None else (body, TYPES[Path(parts[2]).suffix], FOREVER)
    if len(parts) == 2 and parts[0] == "i18n" and parts[1].endswith(".json") and parts[1][:-5] in LANGUAGES:
        return words(parts[1][:-5]), TYPES[".json"], ASK
    return None


def _response(status: HTTPStatus, body: bytes, kind: str | None, extra: dict | None = None) -> Response:
    headers = Headers()
    headers["Date"] = formatdate(usegmt=True)
    headers["Connection"] = "close"
    if status is not HTTPStatus.NOT_MODIFIED:
        headers["Content-Length"] = str(len(body))
    if kind is not None:
        headers["Content-Type"] = kind
    for name, value in {**SECURITY, **(extra or {})}.items():
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)


@functools.cache
def files() -> dict[str, bytes]:
    """The page's files by name (read once)."""
    return {
        path.name: path.read_bytes()
        for path in sorted(FILES.iterdir())
        if path.suffix in TYPES and path.name != "index.html"
    }


@functools.cache
def version() -> str:
    """A hash of every file of the page: the part of their addresses that changes with them."""
    digest = hashlib.sha256()
    for name, body in files().items():
        digest.update(name.encode() + b"\0" + body + b"\0")
    return digest.hexdigest()[:12]


@functools.cache
def index() -> bytes:
    return (FILES / "index.html").read_bytes().replace(b"VERSION", version().encode())


def marked() -> list[tuple[str, str | None]]:
    """Every (msgid, plural or None) the page's scripts mark, in order, once each."""
    seen: dict[tuple[str, str | None], None] = {}
    for name, body in files().items():
        if name.endswith(".js"):
            for match in MARKED.finditer(body.decode()):
                seen[json.loads(f'"{match[1]}"'), json.loads(f'"{match[2]}"') if match[2] else None] = None
    return list(seen)


@functools.cache
def words(language: str) -> bytes:
    """``{"language", "messages": {msgid: text or [one, other]}, "server": [templates]}``: the page's
    words in ``language`` from the installed catalog (untranslated ones left out: the page keeps
    its English). ``server`` lists the templates of the server's messages the page may say in its
    own words (any other it shows as the English text)."""
    translation = (
        gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)
        if language != SOURCE
        else gettext.NullTranslations()
    )
    messages: dict[str, str | list[str]] = {}
    for msgid, plural in [*marked(), *((t, None) for t in SERVER_MESSAGES)]:
        if plural is None:
            text = translation.gettext(msgid)
            if text != msgid:
                messages[msgid] = text
        else:
            forms = [translation.ngettext(msgid, plural, n) for n in (1, 2)]
            if forms != [msgid, plural]:
                messages[msgid] = forms
    body = {"language": language, "messages": messages, "server": list(dict.fromkeys(SERVER_MESSAGES))}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
