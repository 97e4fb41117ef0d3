"""How the read API writes JSON and sends a body it built (plain dicts and lists: `api.schemas`).

`RENDERER` is the API's renderer (`NinjaAPI(renderer=...)` in `api.site`) and writes every body,
on either path: orjson, compact UTF-8, each value as ninja's default `JSONRenderer` wrote it.
orjson writes strings, numbers, lists, dicts, None, booleans and string enums itself; everything
else goes to ninja's encoder (`NinjaJSONEncoder.default`, Django's `DjangoJSONEncoder` under it):
dates as `YYYY-MM-DD`, datetimes to the millisecond with `Z` for UTC, Decimals as strings,
pydantic models as their dump. orjson's own datetime format differs (microseconds, `+00:00`), so
dates and datetimes are passed to that encoder too (`OPT_PASSTHROUGH_DATETIME`).

The plain path hands the body back to django-ninja, which checks it against the endpoint's
response schema (a pydantic object for every nested value, 17 in a fund line) and renders the
checked copy. A speed trick (`fundportal.perf.direct_json`) may set a direct sender instead: the
body rendered as built, by the same renderer, unchecked. Either way the client gets the same bytes
(`tests/web/api/test_exact_json.py` compares the two paths)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from ninja.renderers import BaseRenderer
from ninja.responses import NinjaJSONEncoder

_ENCODE_OTHER = NinjaJSONEncoder().default  # stateless: one instance serves every call
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME


def dumps(data: Any) -> bytes:
    """`data` as the API's JSON (UTF-8 bytes, no spaces)."""
    return orjson.dumps(data, default=_ENCODE_OTHER, option=_OPTIONS)


class BodyRenderer(BaseRenderer):
    """ninja's renderer API over `dumps`."""

    media_type = "application/json"
    charset = "utf-8"

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> bytes:
        return dumps(data)


RENDERER = BodyRenderer()
CONTENT_TYPE = f"{RENDERER.media_type}; charset={RENDERER.charset}"

DirectSender = Callable[[HttpRequest, Any], HttpResponse]
_direct: list[DirectSender] = []


def set_direct_sender(sender: DirectSender | None) -> None:
    """Send every body through `sender` from now on (None: back to the plain path)."""
    _direct[:] = [] if sender is None else [sender]


def direct_sender() -> DirectSender | None:
    return _direct[0] if _direct else None


def respond(request: HttpRequest, body: Any) -> Any:
    """What an endpoint returns for `body`: the body itself (ninja checks and renders it),
    or the response the direct sender made of it."""
    return _direct[0](request, body) if _direct else body
