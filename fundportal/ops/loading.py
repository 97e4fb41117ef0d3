"""Loading demo data (`seed_demo`): the seed article's sample, or deterministic synthetic data at
scale, by BatchWriteItem. Each function takes plain arguments (and a progress callback for the
long one) and returns what it did; the command parses options and prints.

Both loads are bulk writes of constant items: re-running one overwrites the same keys. The
search items of the ids a load names (documents, positions, funds, investors) go in after its
fund items, each once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from fundportal.store.mapping.companions import MonthCatalogEntry
from fundportal.store.mapping.entities import search_items_of_item, to_item
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_list import DocumentListRepository

from .sample import sample_entities, sample_items, sample_register_items
from .synthetic import BY as SYNTHETIC_BY
from .synthetic import SyntheticSpec, generate, item_size


@dataclass(frozen=True, slots=True)
class SampleLoad:
    """What loading the seed sample wrote."""

    fund_items: int  # DOC001's and DOC002's items, exactly the seed's
    month_entries: int
    search_keys: int


@dataclass(frozen=True, slots=True)
class SyntheticLoad:
    """What loading synthetic data wrote, and how long it took."""

    items: int
    search_keys: int
    seconds: float


@dataclass(frozen=True, slots=True)
class SyntheticSize:
    """What loading synthetic data would write (a dry run)."""

    items: int
    size: int  # bytes, about


def has_documents(repository: DocumentRepository | None = None) -> bool:
    """The table has had current documents (one Query on the month catalog)."""
    return bool((repository or DocumentRepository()).months())


def foreign_documents(spec: SyntheticSpec, repository: DocumentRepository | None = None) -> list[str]:
    """The ids among `spec`'s documents that exist and were not made by a synthetic load (the
    seed sample's DOC001, an analyst's document): synthetic data must never overwrite them."""
    ids = [spec.document_id(n) for n in range(1, spec.documents + 1)]
    existing = (repository or DocumentRepository()).existing(ids).values()
    return sorted(d.document_id for d in existing if d.updated_by != SYNTHETIC_BY)


def load_sample(repository: DocumentRepository | None = None) -> SampleLoad:
    """The seed sample's 14 fund items, its month-catalog entries, registers and fund catalog
    entry (one BatchWriteItem each 25), then its search items."""
    repository = repository or DocumentRepository()
    items = sample_items()
    months = {e.as_of_date for e in sample_entities() if getattr(e, "latest", False) and e.as_of_date}
    catalog_items = [to_item(MonthCatalogEntry(month)) for month in sorted(months)]
    repository.bulk_load(items + catalog_items + sample_register_items(), workers=1)
    searched = DocumentListRepository().put_search_items(s for item in items for s in search_items_of_item(item))
    return SampleLoad(len(items), len(catalog_items), searched)


def measure_synthetic(spec: SyntheticSpec) -> SyntheticSize:
    """The items `spec` generates and their size, without writing anything."""
    count = size = 0
    for item in generate(spec):
        count += 1
        size += item_size(item)
    return SyntheticSize(count, size)


def load_synthetic(
    spec: SyntheticSpec,
    *,
    workers: int,
    progress: Callable[[int], None] | None = None,
    repository: DocumentRepository | None = None,
) -> SyntheticLoad:
    """`spec`'s items by BatchWriteItem over `workers` threads (`progress(n)` after each batch of
    n items), then the search items they name."""
    repository = repository or DocumentRepository()
    started = time.perf_counter()
    search: list[Any] = []
    written = repository.bulk_load(_collecting_search_items(generate(spec), search), workers=workers, progress=progress)
    searched = DocumentListRepository().put_search_items(search, workers=workers)
    return SyntheticLoad(written, searched, time.perf_counter() - started)


def _collecting_search_items(items: Iterator[dict[str, Any]], found: list[Any]) -> Iterator[dict[str, Any]]:
    """Pass items through, noting the search items they name (written after the bulk load)."""
    seen: set[Any] = set()
    for item in items:
        for search in search_items_of_item(item):
            if search not in seen:
                seen.add(search)
                found.append(search)
        yield item
