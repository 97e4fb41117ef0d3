"""Garbage-collector settings for a request-serving process.

A page builds tens of thousands of short-lived objects (parsed items, entities, figures, template
output). With CPython's default thresholds (700, 10, 10) that triggers ~15 collections a page,
and the occasional full collection walks every object Django, botocore and the templates loaded
at start-up: measured in-process, ~6.5 ms of the 100-position document page. Freezing the
start-up objects (they live as long as the worker) takes them out of every collection, and a
larger first-generation threshold makes the young collections rare. Cycles are still
collected; only their timing changes.
"""

from __future__ import annotations

import gc


def tune_for_requests(gen0_threshold: int) -> None:
    """Freeze what is loaded now and collect the youngest generation every `gen0_threshold`
    allocations (0 leaves the thresholds alone)."""
    gc.collect()
    gc.freeze()
    if gen0_threshold > 0:
        _, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(gen0_threshold, gen1, gen2)
