"""The young collections a serving process owes run once each response has gone out
(fundportal/perf/gc_after_response.py), by CPython's own rule for which generation is due."""

from __future__ import annotations

import gc

import pytest
from django.conf import settings
from django.core.signals import request_finished, request_started

from fundportal.perf import gc_after_response
from fundportal.perf.gc_after_response import REQUEST_FACTOR, due_generation


@pytest.mark.parametrize(
    ("counts", "due"),
    [
        ((999, 9, 9), None),  # the young count not over its threshold: nothing, whatever the others say
        ((1_000, 30, 30), None),
        ((1_001, 0, 0), 0),
        ((1_001, 11, 0), 1),
        ((1_001, 11, 11), 2),
        ((1_001, 0, 11), 2),  # the oldest generation over its threshold is the one taken
    ],
)
def test_the_generation_due_is_the_oldest_over_its_threshold_once_the_young_count_is(counts, due):
    assert due_generation(counts, (1_000, 10, 10)) == due


@pytest.fixture
def collections(db):
    """The generations collected while the test runs, with the collector's settings put back.
    (`db`: Django's own request signal receivers close stale database connections.)"""
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    threshold, installed = gc.get_threshold(), gc_after_response.uninstall()
    gc.collect()
    gc.callbacks.append(record)
    yield seen
    gc.callbacks.remove(record)
    gc_after_response.uninstall()
    gc.set_threshold(*threshold)
    if installed:
        gc_after_response.install(settings.GC_GEN0_THRESHOLD)


def test_a_request_collects_nothing_below_the_raised_threshold_and_what_is_due_after_its_response(collections):
    gc_after_response.install(2_000)
    request_started.send(sender=None)
    assert gc.get_threshold()[0] == 2_000 * REQUEST_FACTOR
    collections.clear()  # (the first request's receivers load the URLconf: collections at 700 before ours)
    page = [[n] for n in range(5_000)]  # a page's objects, alive while it is served
    assert collections == []  # over the setting, under the raised threshold: no collection mid-page
    del page
    kept = [[n] for n in range(3_000)]  # what outlives the page (say, a cache's entries)
    request_finished.send(sender=None)
    assert gc.get_threshold()[0] == 2_000
    assert collections[:1] == [0]  # the young generation, due, collected once the response went out
    assert gc.get_count()[0] < 2_000
    assert len(kept) == 3_000


def test_nothing_is_collected_after_a_response_when_nothing_is_due(collections):
    gc_after_response.install(50_000)
    request_started.send(sender=None)
    collections.clear()
    request_finished.send(sender=None)
    assert collections == []
    assert gc.get_threshold()[0] == 50_000


def test_uninstalled_the_collector_keeps_its_threshold_through_a_request(collections):
    gc_after_response.install(2_000)
    assert gc_after_response.uninstall() is True
    before = gc.get_threshold()
    request_started.send(sender=None)
    request_finished.send(sender=None)
    assert gc.get_threshold() == before
    assert gc_after_response.uninstall() is False
