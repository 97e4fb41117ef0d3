"""The API itself: django-ninja's `NinjaAPI` at /api/v1/ with bearer-token auth, a throttle per
token (an atomic counter on the token's row in Django's database, so every worker counts the same
calls: `api.throttle`), every body written by orjson (`fundportal.web.json_bodies.RENDERER`) and
every error as problem details (`api.problems`)."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from api import group_views, problems, throttle, tokens, views
from api.models import ApiToken
from fundportal.web.json_bodies import RENDERER


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`: the token's user becomes the request's user, so the
    request's access scope is that user's (`fundportal.access.scope.request_scope`)."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        record = tokens.authenticate(token)
        if record is not None:
            request.user = record.user
            request.api_token = record  # type: ignore[attr-defined]
        return record


class TokenThrottle(BaseThrottle):
    """`API_THROTTLE_RATE` calls per token (e.g. "120/min"; empty: no limit) in a fixed window,
    counted by `api.throttle.take_call` (one atomic UPDATE of the token's row). One instance
    serves every request of a process: the wait ninja asks for after a refusal is kept per thread."""

    _state = threading.local()

    def allow_request(self, request: HttpRequest) -> bool:
        token = getattr(request, "api_token", None)
        rate = getattr(settings, "API_THROTTLE_RATE", "120/min")  # read each call: tests change it
        if token is None or not rate:
            return True
        self._state.wait = throttle.take_call(token.pk, throttle.parse_rate(rate), time.time())
        return self._state.wait is None

    def wait(self) -> float | None:
        """Seconds until the window ends (one more call is allowed then)."""
        return getattr(self._state, "wait", None)


api = NinjaAPI(
    title="Fund portal read API",
    version="1",
    description=(
        "Read-only access to documents, positions, funds and investors with the portal's own figures "
        "and access scope. Authenticate with a personal token: `Authorization: Bearer <token>`. "
        "Money is `{amount, currency}` with the amount an exact decimal string. Lists are paged: follow `next`."
    ),
    auth=TokenAuth(),
    renderer=RENDERER,  # orjson, each value as ninja's default renderer writes it
    throttle=[TokenThrottle()],
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
)
api.add_router("/", views.router)
api.add_router("/", group_views.router)
api.add_exception_handler(ValidationError, problems.validation_error)  # type: ignore[arg-type]
api.add_exception_handler(AuthenticationError, problems.authentication_error)  # type: ignore[arg-type]
api.add_exception_handler(Throttled, problems.throttled)  # type: ignore[arg-type]
api.add_exception_handler(HttpError, problems.http_error)  # type: ignore[arg-type]
api.add_exception_handler(Exception, problems.domain_error)  # type: ignore[arg-type]
