"""A served page's data is freed by reference counting when the request ends (no cycle left for
the garbage collector: every page is a Jinja2 template), and a serving process tunes the collector
when its setting is on (fundportal/perf/gc_tuning.py)."""

from __future__ import annotations

import gc
import weakref

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.test import RequestFactory

from fundportal.perf.gc_tuning import tune_for_requests


class Row:
    """Stands for a page's view model (a weakref-able object in the template's context)."""

    def __init__(self, text: str) -> None:
        self.text = text


@pytest.fixture
def no_collector():
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def test_a_page_in_the_layout_frees_its_context_without_the_garbage_collector(no_collector):
    source = '{% extends "layout.html" %}{% block content %}{{ row.text }}{% endblock %}'
    template = engines["jinja2"].from_string(source)  # every page's engine
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    row = Row("the page's data")
    alive = weakref.ref(row)
    html = template.render({"row": row}, request)
    assert "the page&#39;s data" in html
    del row
    assert alive() is None


def test_tuning_freezes_start_up_objects_and_raises_the_young_threshold():
    before = gc.get_threshold()
    try:
        tune_for_requests(12_345)
        assert gc.get_threshold() == (12_345, before[1], before[2])
        assert gc.get_freeze_count() > 0
        tune_for_requests(0)  # 0 keeps the thresholds
        assert gc.get_threshold()[0] == 12_345
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
