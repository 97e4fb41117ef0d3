"""The Jinja2 `static()` global through a process-wide cache (fundportal/perf/static_cache.py)
gives what Django's `static()` gives, for the script prefix in force, and follows a settings
change."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.urls import set_script_prefix

from fundportal.perf.static_cache import cached_static


@pytest.fixture
def script_prefix():
    yield set_script_prefix
    set_script_prefix("/")


def test_a_cached_url_is_what_static_gives():
    for path in ("css/portal.css", "js/table-sort.js", "a b/ü.css"):
        assert cached_static(path) == static(path)
        assert cached_static(path) == static(path)  # the second time from the cache


def test_a_changed_static_url_holds_at_once(settings):
    assert cached_static("css/portal.css") == "/static/css/portal.css"
    settings.STATIC_URL = "https://cdn.example.com/assets/"
    assert (
        cached_static("css/portal.css") == static("css/portal.css") == "https://cdn.example.com/assets/css/portal.css"
    )


def test_under_another_script_prefix_the_url_is_what_static_gives(script_prefix):
    assert cached_static("css/portal.css") == "/static/css/portal.css"
    script_prefix("/portal/")
    assert cached_static("css/portal.css") == static("css/portal.css")
