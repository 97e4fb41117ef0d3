"""A speed-up, kept apart: garbage-collector settings for a request-serving process.

A page builds tens of thousands of short-lived objects (parsed items, entities, figures, template
output). With CPython's default thresholds (700, 10, 10) that triggers many collections a page,
and the occasional full collection walks every object Django, botocore and the templates loaded
at start-up: a large share of the 100-position document page. Freezing the
start-up objects (they live as long as the worker) takes them out of every collection, and a
larger first-generation threshold makes the young collections rare. Cycles are still
collected; only their timing changes.

Installed by `PerfConfig.ready()` only when `GC_GEN0_THRESHOLD` (env `DJANGO_GC_GEN0_THRESHOLD`)
is above 0: the tuning then runs once, when the process starts serving its first request (so
commands, which serve none, keep CPython's collector as it is). 0: nothing is frozen or changed.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

from django.conf import settings
from django.core.signals import request_started
from django.urls import get_resolver


def tune_for_requests(gen0_threshold: int) -> None:
    """Freeze what is loaded now and collect the youngest generation every `gen0_threshold`
    allocations (0 leaves the thresholds alone)."""
    gc.collect()
    gc.freeze()
    if gen0_threshold > 0:
        _, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(gen0_threshold, gen1, gen2)


def tune_on_first_request() -> None:
    """Run `tune_for_requests(GC_GEN0_THRESHOLD)` once, as the first request starts."""
    done = threading.Lock()

    def tune(**_: Any) -> None:
        if not done.acquire(blocking=False):
            return  # another thread got here first
        request_started.disconnect(dispatch_uid=__name__)
        # Load the URLconf and with it every view, selector and form, so the freeze covers them.
        get_resolver().url_patterns  # noqa: B018 (imports the views)
        tune_for_requests(settings.GC_GEN0_THRESHOLD)

    request_started.connect(tune, weak=False, dispatch_uid=__name__)
