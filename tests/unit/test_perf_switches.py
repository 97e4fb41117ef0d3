"""Each speed trick (fundportal/perf/) is installed by PerfConfig.ready() when its setting is on,
and not at all when it is off: the portal is then plain Django + boto3."""

from __future__ import annotations

import gc
from datetime import date

import pytest
from django.apps import apps
from django.core.signals import request_finished, request_started
from django.templatetags.static import static
from django.urls import reverse
from markupsafe import escape

from fundportal import jinja2 as portal_jinja2
from fundportal.perf import (
    direct_json,
    escape_memo,
    fast_batch_get,
    fast_parse,
    filter_form_memo,
    gc_after_response,
    gc_tuning,
    static_cache,
    unescaped_figures,
    url_cache,
)
from fundportal.store import client as dynamo_client
from fundportal.web import json_bodies
from positions import document_filters


@pytest.fixture
def perf_ready(settings, db):
    """Run PerfConfig.ready() under the test's settings; put every hook back afterwards. (`db`:
    Django's own `request_started` receivers close stale database connections.)"""
    clients, environments = dynamo_client.client_customizers(), portal_jinja2.environment_customizers()
    for customizer in clients:
        dynamo_client.remove_client_customizer(customizer)
    for customizer in environments:
        portal_jinja2.remove_environment_customizer(customizer)
    waiting = request_started.disconnect(dispatch_uid=gc_tuning.__name__)  # not yet served a request
    collecting_after, threshold = gc_after_response.uninstall(), settings.GC_GEN0_THRESHOLD
    frozen_before, threshold_before = gc.get_freeze_count(), gc.get_threshold()
    sender = json_bodies.direct_sender()
    json_bodies.set_direct_sender(None)
    unasked = document_filters._unasked
    filter_form_memo.uninstall()
    gc.unfreeze()
    yield apps.get_app_config("perf").ready
    json_bodies.set_direct_sender(sender)
    document_filters.draw_unasked_with(unasked)
    request_started.disconnect(dispatch_uid=gc_tuning.__name__)
    gc_after_response.uninstall()
    if waiting:
        gc_tuning.tune_on_first_request()
    if collecting_after:
        gc_after_response.install(threshold)
    for customizer in dynamo_client.client_customizers():
        dynamo_client.remove_client_customizer(customizer)
    for customizer in portal_jinja2.environment_customizers():
        portal_jinja2.remove_environment_customizer(customizer)
    for customizer in clients:
        dynamo_client.add_client_customizer(customizer)
    for customizer in environments:
        portal_jinja2.add_environment_customizer(customizer)
    gc.unfreeze()
    if frozen_before:
        gc.freeze()
    gc.set_threshold(*threshold_before)


def all_tricks(settings, on: bool) -> None:
    settings.DYNAMODB_FAST_QUERY_PARSE = on
    settings.DYNAMODB_FAST_BATCH_GET_PARSE = on
    settings.TEMPLATE_URL_CACHE = on
    settings.TEMPLATE_UNESCAPED_FIGURES = on
    settings.API_DIRECT_JSON = on
    settings.TEMPLATE_ESCAPE_MEMO = on
    settings.TEMPLATE_STATIC_CACHE = on
    settings.FILTER_FORM_MEMO = on
    settings.GC_GEN0_THRESHOLD = 12_345 if on else 0
    settings.GC_AFTER_RESPONSE = on


def test_with_every_trick_off_nothing_is_installed(settings, perf_ready):
    all_tricks(settings, on=False)
    threshold = gc.get_threshold()
    perf_ready()
    assert dynamo_client.client_customizers() == ()
    assert portal_jinja2.environment().globals["url"] is portal_jinja2.url
    assert portal_jinja2.environment().filters["figure"] is escape
    assert json_bodies.direct_sender() is None
    assert portal_jinja2.environment().filters["escaped"] is escape
    assert portal_jinja2.environment().globals["static"] is static
    assert document_filters._unasked is document_filters.unasked_form
    request_started.send(sender=None)
    assert gc.get_freeze_count() == 0  # no gc.freeze() when the setting is off
    assert gc.get_threshold() == threshold
    request_finished.send(sender=None)
    assert gc.get_threshold() == threshold


def test_with_every_trick_on_each_is_installed_through_its_public_hook(settings, perf_ready):
    all_tricks(settings, on=True)
    perf_ready()
    assert dynamo_client.client_customizers() == (fast_parse.install, fast_batch_get.install)
    assert portal_jinja2.environment().globals["url"] is url_cache.cached_url
    assert portal_jinja2.environment().globals["url_for"] is url_cache.cached_url_for
    assert portal_jinja2.environment().filters["figure"] is str
    assert json_bodies.direct_sender() is direct_json.send
    assert portal_jinja2.environment().filters["escaped"] is escape_memo.escape_once
    assert portal_jinja2.environment().globals["static"] is static_cache.cached_static
    assert document_filters._unasked.__wrapped__ is document_filters.unasked_form  # type: ignore[attr-defined]
    assert portal_jinja2.environment_customizers() == (
        url_cache.install,
        unescaped_figures.install,
        static_cache.install,
        escape_memo.install,
    )
    assert gc.get_freeze_count() == 0  # nothing happens before the first request
    request_started.send(sender=None)
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == 12_345 * gc_after_response.REQUEST_FACTOR  # while serving
    request_finished.send(sender=None)
    assert gc.get_threshold()[0] == 12_345  # once the response has gone out


def test_each_trick_has_its_own_setting(settings, perf_ready):
    all_tricks(settings, on=False)
    settings.TEMPLATE_URL_CACHE = True
    perf_ready()
    assert dynamo_client.client_customizers() == ()
    assert portal_jinja2.environment().globals["url"] is url_cache.cached_url
    assert portal_jinja2.environment().filters["figure"] is escape
    assert portal_jinja2.environment().filters["escaped"] is escape
    assert json_bodies.direct_sender() is None


def test_a_body_is_returned_to_ninja_unless_the_direct_sender_is_installed(rf, settings, perf_ready):
    body = {"next": None, "as_of": date(2025, 9, 30), "amount": {"amount": "1.00", "currency": "USD"}}
    request = rf.get("/api/v1/funds")
    all_tricks(settings, on=False)
    perf_ready()
    assert json_bodies.respond(request, body) is body
    settings.API_DIRECT_JSON = True
    perf_ready()
    response = json_bodies.respond(request, body)
    assert response.status_code == 200 and response["Content-Type"] == "application/json; charset=utf-8"
    assert response.content == b'{"next":null,"as_of":"2025-09-30","amount":{"amount":"1.00","currency":"USD"}}'


@pytest.mark.parametrize(
    ("name", "args"),
    [("documents:list", ()), ("documents:position", ("DOC001", "POSITION_1")), ("funds:detail", ("FUND_1",))],
)
def test_the_cached_url_is_what_reverse_gives(name, args):
    assert url_cache.cached_url(name, *args) == portal_jinja2.url(name, *args) == reverse(name, args=args)
    assert url_cache.cached_url(name, *args) == reverse(name, args=args)  # the second time, from the cache


@pytest.mark.parametrize(
    ("name", "args"),
    [("documents:list", ()), ("documents:position", ("DOC001", "POSITION_1")), ("funds:detail", ("FUND_1",))],
)
def test_a_routes_url_builder_gives_what_reverse_gives_with_the_cache_and_without(name, args):
    for url_for in (url_cache.cached_url_for, portal_jinja2.url_for):
        assert url_for(name)(*args) == reverse(name, args=args)
        assert url_for(name)(*args) == reverse(name, args=args)  # the second time, from the cache


def test_a_template_builds_a_routes_urls_with_the_href_filter():
    template = portal_jinja2.environment().from_string(
        "{% set fund_url = url_for('funds:detail') %}{% for f in funds %}{{ fund_url|href(f) }} {% endfor %}"
    )
    assert template.render(funds=["FUND_1", "FUND_2"]) == "/funds/FUND_1/ /funds/FUND_2/ "


def test_a_routes_url_builder_reads_the_script_prefix_when_made():
    from django.urls import set_script_prefix

    try:
        set_script_prefix("/portal/")
        under_prefix = url_cache.cached_url_for("funds:detail")
    finally:
        set_script_prefix("/")
    assert under_prefix("FUND_1") == "/portal/funds/FUND_1/"
    assert url_cache.cached_url_for("funds:detail")("FUND_1") == "/funds/FUND_1/"


def test_the_cached_url_follows_the_script_prefix():
    from django.urls import set_script_prefix

    try:
        set_script_prefix("/portal/")
        assert url_cache.cached_url("documents:list") == "/portal/documents/"
    finally:
        set_script_prefix("/")
    assert url_cache.cached_url("documents:list") == "/documents/"
