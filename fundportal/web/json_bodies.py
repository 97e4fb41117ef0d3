"""How the read API sends a body it built (plain dicts and lists: `api.schemas`).

The plain path hands the body back to django-ninja, which checks it against the endpoint's
response schema (a pydantic object for every nested value, 17 in a fund line) and serialises the
checked copy with its JSON renderer. A speed trick (`fundportal.perf.direct_json`) may set a
direct sender instead: the body serialised as built, by the same renderer, unchecked. Either way
the client gets the same bytes (`tests/web/api/test_exact_json.py` compares the two paths)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

DirectSender = Callable[[HttpRequest, Any], HttpResponse]
_direct: list[DirectSender] = []


def set_direct_sender(sender: DirectSender | None) -> None:
    """Send every body through `sender` from now on (None: back to the plain path)."""
    _direct[:] = [] if sender is None else [sender]


def direct_sender() -> DirectSender | None:
    return _direct[0] if _direct else None


def respond(request: HttpRequest, body: Any) -> Any:
    """What an endpoint returns for `body`: the body itself (ninja checks and serialises it),
    or the response the direct sender made of it."""
    return _direct[0](request, body) if _direct else body
