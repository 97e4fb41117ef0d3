"""A speed-up, kept apart: the read API's bodies serialised as built, without ninja's check.

The endpoints build their bodies as plain dicts and lists, keys in their schema's order
(`api.schemas`). On the plain path ninja validates each body against the endpoint's response
schema (a pydantic object per nested value: 17 in a fund line, 1,700 in a page of 100) and
renders the validated copy with the API's renderer (`fundportal.web.json_bodies.RENDERER`). This
trick renders the body itself with that same renderer: the same bytes, less work.
What the check guarded (every field present, in order, of its type) is held by the tests instead:
`tests/web/api/test_exact_json.py` compares both paths byte for byte on every endpoint, and
schemathesis checks the responses against the OpenAPI schema.

On by default; `FUNDPORTAL_API_DIRECT_JSON=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) leaves
every body to ninja's check. `PerfConfig.ready()` installs it through
`fundportal.web.json_bodies.set_direct_sender`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from fundportal.web.json_bodies import CONTENT_TYPE, RENDERER, set_direct_sender


def send(request: HttpRequest, body: Any) -> HttpResponse:
    """`body` as the 200 response ninja would have made of its validated copy."""
    return HttpResponse(RENDERER.render(request, body, response_status=200), content_type=CONTENT_TYPE)


def install() -> None:
    set_direct_sender(send)
