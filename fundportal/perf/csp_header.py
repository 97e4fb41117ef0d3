"""A speed-up, kept apart: the Content-Security-Policy header of the settings' policy built once
per process, not on every response.

django-csp's middleware builds the header from `CONTENT_SECURITY_POLICY` on every response (the
directives copied, merged, joined: a fixed cost of every page and API call). When a response asks
for nothing of its own (no `@csp`, `@csp_update` or `@csp_replace` on its view, no nonce used by
its template), the header is that of the settings alone: `csp.utils.build_policy()` with no
parts, the same function django-csp calls, so the same bytes. Those two texts (the policy and the
report-only one) are built once and kept until a setting changes (Django's `setting_changed`
signal). Any response that asks for more is handled by django-csp's own `process_response`,
unchanged.

On by default; `FUNDPORTAL_CSP_HEADER_CACHE=false` (or `FUNDPORTAL_SPEED_TRICKS=off`) leaves
django-csp's middleware. Installed through the `MIDDLEWARE` setting (`settings/base.py`, chosen by
`CSP_HEADER_CACHE`).
"""

from __future__ import annotations

import functools
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.exceptions import CSPNonceError
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

# django-csp leaves 404 and 500 responses without a header in DEBUG (its debug pages).
DEBUG_CODES = (404, 500)


@functools.cache
def settings_policies() -> tuple[str, str]:
    """(the policy, the report-only policy) of the settings alone, as django-csp builds them."""
    return build_policy(), build_policy(report_only=True)


@receiver(setting_changed)
def _forget_policies(**kwargs: Any) -> None:
    settings_policies.cache_clear()


def _excluded(request: HttpRequest, setting: str) -> bool:
    policy = getattr(settings, setting, None) or {}
    return request.path_info.startswith(tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ()))


def _nonce_written() -> None:
    raise CSPNonceError(
        "The 'csp_nonce' attribute is not available after the CSP header has been written. "
        "Consider adjusting your MIDDLEWARE order."
    )


class CSPMiddleware(DjangoCSPMiddleware):
    """django-csp's middleware; the settings' header texts reused while nothing asks for more."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if (
            (settings.DEBUG and response.status_code in DEBUG_CODES)
            # django-csp's decorators (`@csp`, `@csp_update`, `@csp_replace`, `@csp_exempt`) mark
            # the response with attributes named `_csp...`: such a response is django-csp's.
            or any(name.startswith("_csp") for name in vars(response))
            or self.get_policy_parts(request, response).nonce is not None
        ):
            return super().process_response(request, response)
        policy, report_only = settings_policies()
        # As django-csp sets them: only where not set already and not under an excluded prefix.
        if policy and HEADER not in response and not _excluded(request, "CONTENT_SECURITY_POLICY"):
            response[HEADER] = policy
        ro_excluded = report_only and _excluded(request, "CONTENT_SECURITY_POLICY_REPORT_ONLY")
        if report_only and HEADER_REPORT_ONLY not in response and not ro_excluded:
            response[HEADER_REPORT_ONLY] = report_only
        # The nonce can no longer reach the header: asking for it now is an error, as in django-csp.
        request.csp_nonce = CheckableLazyObject(_nonce_written)  # type: ignore[attr-defined]
        return response
