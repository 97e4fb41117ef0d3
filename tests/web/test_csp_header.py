"""The Content-Security-Policy header built once per process (fundportal/perf/csp_header.py) is
django-csp's header byte for byte; a response that asks for its own policy or a nonce gets
django-csp's own handling; the setting chooses the middleware, off with the speed tricks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE, SELF
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from fundportal.perf.csp_header import CSPMiddleware

BASE_DIR = Path(__file__).resolve().parents[2]


def _both(view, path: str = "/positions/POSITION_1/", *, touch_nonce: bool = False) -> list[HttpResponse]:
    """The response of `view` through the cached middleware and through django-csp's."""
    responses = []
    for middleware_class in (CSPMiddleware, DjangoCSPMiddleware):
        request = RequestFactory().get(path)

        def handler(request: HttpRequest) -> HttpResponse:
            if touch_nonce:
                str(request.csp_nonce)
            return view(request)

        responses.append(middleware_class(handler)(request))
    return responses


def _page(request: HttpRequest) -> HttpResponse:
    return HttpResponse("page")


def test_a_page_gets_django_csps_header_byte_for_byte():
    cached, plain = _both(_page)
    assert cached[HEADER] == plain[HEADER]
    assert "script-src 'self'" in cached[HEADER] and "frame-ancestors 'none'" in cached[HEADER]
    assert HEADER_REPORT_ONLY not in cached and HEADER_REPORT_ONLY not in plain


def test_a_view_asking_for_more_gets_its_own_policy():
    view = csp_update({"img-src": ["https://charts.example"]})(_page)
    cached, plain = _both(view)
    assert cached[HEADER] == plain[HEADER]
    assert "https://charts.example" in cached[HEADER]


def test_an_exempt_view_gets_no_header():
    cached, plain = _both(csp_exempt()(_page))
    assert HEADER not in cached and HEADER not in plain


def test_a_nonce_used_by_the_page_is_in_the_header(settings):
    directives = dict(settings.CONTENT_SECURITY_POLICY["DIRECTIVES"], **{"script-src": [SELF, NONCE]})
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": directives}
    cached, plain = _both(_page, touch_nonce=True)
    assert "'nonce-" in cached[HEADER] and "'nonce-" in plain[HEADER]


def test_the_nonce_cannot_be_asked_for_after_the_header_is_written():
    request = RequestFactory().get("/")
    CSPMiddleware(_page)(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


def test_a_changed_setting_changes_the_header_and_report_only_is_kept(settings):
    before = _both(_page)[0][HEADER]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": [SELF], "img-src": [SELF, "data:"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    cached, plain = _both(_page)
    assert cached[HEADER] != before
    assert (cached[HEADER], cached[HEADER_REPORT_ONLY]) == (plain[HEADER], plain[HEADER_REPORT_ONLY])


def test_an_excluded_prefix_gets_no_header(settings):
    settings.CONTENT_SECURITY_POLICY = dict(settings.CONTENT_SECURITY_POLICY, EXCLUDE_URL_PREFIXES=["/static/"])
    cached, plain = _both(_page, "/static/css/portal.css")
    assert HEADER not in cached and HEADER not in plain


@pytest.mark.django_db
def test_the_served_pages_carry_the_same_header_as_django_csp_builds(analyst_client):
    from csp.utils import build_policy

    assert analyst_client.get("/accounts/login/")[HEADER] == build_policy()


def _middleware_under(environment: dict[str, str]) -> list[str]:
    code = "from django.conf import settings; print(*[m for m in settings.MIDDLEWARE if 'CSP' in m])"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "fundportal.settings.test", **environment}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


def test_the_setting_chooses_the_middleware_and_the_speed_tricks_switch_turns_it_off():
    assert _middleware_under({"FUNDPORTAL_SPEED_TRICKS": "on"}) == ["fundportal.perf.csp_header.CSPMiddleware"]
    plain = ["csp.middleware.CSPMiddleware"]
    assert _middleware_under({"FUNDPORTAL_SPEED_TRICKS": "off"}) == plain
    assert _middleware_under({"FUNDPORTAL_SPEED_TRICKS": "on", "FUNDPORTAL_CSP_HEADER_CACHE": "false"}) == plain
