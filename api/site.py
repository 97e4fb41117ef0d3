"""The API itself: django-ninja's `NinjaAPI` at /api/v1/ with bearer-token auth, a throttle per
token (its state in Django's shared cache, so every worker counts the same calls), and every
error as problem details (`api.problems`)."""

from __future__ import annotations

import threading

from django.conf import settings
from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.security import HttpBearer
from ninja.throttling import AuthRateThrottle

from api import group_views, problems, tokens, views
from api.models import ApiToken


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`: the token's user becomes the request's user, so the
    request's access scope is that user's (`fundportal.access.scope.request_scope`)."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        record = tokens.authenticate(token)
        if record is not None:
            request.user = record.user
            request.api_token = record  # type: ignore[attr-defined]
        return record


class TokenThrottle(AuthRateThrottle):
    """Calls per token (`API_THROTTLE_RATE`, e.g. "120/min"), counted in the shared cache. One
    instance serves every request of a process: what ninja's throttle keeps between its check and
    its `wait()` (the key, the calls seen, the time) is kept per thread."""

    scope = "api-token"
    _state = threading.local()

    key = property(lambda self: self._state.key, lambda self, value: setattr(self._state, "key", value))
    history = property(lambda self: self._state.history, lambda self, value: setattr(self._state, "history", value))
    now = property(lambda self: self._state.now, lambda self, value: setattr(self._state, "now", value))

    def get_rate(self) -> str | None:
        return getattr(settings, "API_THROTTLE_RATE", "120/min")

    def allow_request(self, request: HttpRequest) -> bool:
        # The rate is read on each call (settings may change; tests override it).
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)

    def wait(self) -> float | None:
        """Seconds until the oldest call in the window leaves it (one more call is allowed then)."""
        if not self.history:
            return float(self.duration or 1)
        return max(1.0, float(self.duration - (self.now - self.history[-1])))


api = NinjaAPI(
    title="Fund portal read API",
    version="1",
    description=(
        "Read-only access to documents, positions, funds and investors with the portal's own figures "
        "and access scope. Authenticate with a personal token: `Authorization: Bearer <token>`. "
        "Money is `{amount, currency}` with the amount an exact decimal string. Lists are paged: follow `next`."
    ),
    auth=TokenAuth(),
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
