"""Where an import's per-partition pacing is installed: `import_pacing()` wraps the writes of
`imports.services.import_apply` (the web job and `import_notice` alike) in the pacer the settings
ask for (`fundportal.store.pacing`): `DYNAMODB_IMPORT_PACING` = `adaptive` (the default: a
partition key is paced once DynamoDB throttles it, never above `DYNAMODB_PARTITION_WCU_PER_S`)
or `off` (no pacer: the writes go as fast as the table takes them)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from fundportal.store.pacing import PARTITION_WCU_PER_S, PartitionPacer, pacing

MODES = ("adaptive", "off")


def import_pacer() -> PartitionPacer | None:
    """The pacer of one import, as the settings ask (None: not paced)."""
    mode = str(getattr(settings, "DYNAMODB_IMPORT_PACING", "adaptive")).lower()
    if mode not in MODES:
        raise ImproperlyConfigured(f"DYNAMODB_IMPORT_PACING must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "off":
        return None
    return PartitionPacer(float(getattr(settings, "DYNAMODB_PARTITION_WCU_PER_S", PARTITION_WCU_PER_S)))


@contextmanager
def import_pacing() -> Iterator[PartitionPacer | None]:
    """The bulk writes inside the block are paced by one import's pacer (its own buckets)."""
    with pacing(import_pacer()) as pacer:
        yield pacer
