"""A speed-up, kept apart: the young-object collections a serving process owes run once a
response has gone out, not in the middle of the next page.

With `gc_tuning`'s threshold a young collection comes every few dozen pages, in whichever page is
allocating when the count crosses it: mostly mid-page, with that page's own objects (a
document's parsed items, its rows and figures) still alive, so the collection walks all of them
and adds tens of milliseconds to that one page. Here, while a request is served, the young
threshold is `REQUEST_FACTOR` times the setting (a runaway request still collects); when the
response has been sent (`request_finished`) the threshold is put back and the collector's own
rule runs at once: the oldest generation whose count is over its threshold is collected, after
the page's objects were freed by reference counting, so it walks only what outlived them. Which
objects are collected does not change, only when.

On with the tuning (`GC_GEN0_THRESHOLD` > 0) unless `FUNDPORTAL_GC_AFTER_RESPONSE=false` (or
`FUNDPORTAL_SPEED_TRICKS=off`): the collector then runs wherever its threshold falls.
`PerfConfig.ready()` installs it, after `gc_tuning`.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

from django.core.signals import request_finished, request_started

REQUEST_FACTOR = 10
_STARTED, _FINISHED = f"{__name__}.started", f"{__name__}.finished"


def due_generation(counts: Sequence[int], thresholds: Sequence[int]) -> int | None:
    """The generation CPython's collector takes when the young count is over its threshold: the
    oldest whose count is over its own; None while the young count is not. (CPython also puts a
    full collection off until enough long-lived objects are new; here it runs when its count is
    over, after a response, where its time costs no page.)"""
    if counts[0] <= thresholds[0]:
        return None
    return next(generation for generation in (2, 1, 0) if counts[generation] > thresholds[generation])


def collect_due(threshold: int) -> int | None:
    """Put the young threshold back to `threshold` and collect the generation now due (returned)."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(threshold, middle, oldest)
    generation = due_generation(gc.get_count(), (threshold, middle, oldest))
    if generation is not None:
        gc.collect(generation)
    return generation


def install(threshold: int) -> None:
    """Raise the young threshold while each request is served and collect what is due after it."""

    def started(**_: Any) -> None:
        gc.set_threshold(threshold * REQUEST_FACTOR, *gc.get_threshold()[1:])

    def finished(**_: Any) -> None:
        collect_due(threshold)

    request_started.connect(started, weak=False, dispatch_uid=_STARTED)
    request_finished.connect(finished, weak=False, dispatch_uid=_FINISHED)


def uninstall() -> bool:
    """Disconnect both receivers; whether they were installed."""
    started = request_started.disconnect(dispatch_uid=_STARTED)
    finished = request_finished.disconnect(dispatch_uid=_FINISHED)
    return started or finished
