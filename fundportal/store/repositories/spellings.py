"""How ids are already spelled in the table, whatever their case (pattern 13's search items):
`POSITION_1` and `position_1` are different keys, so an id that differs only by case from an
existing one would silently start a second position, document, fund or investor. The search
items are keyed by the lower-cased id, so one Query per search partition finds every spelling."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from fundportal.domain.kinds import SearchKind, normalise_search

from ..gateway import TableGateway
from ..mapping import keys

Spellings = dict[tuple[SearchKind, str], set[str]]


class SpellingRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def existing(self, ids: Iterable[tuple[SearchKind, str]]) -> Spellings:
        """For each (kind, lower-cased id) among `ids`, the ids of that kind in the table that
        lower-case to it, as they are spelled. One Query per search partition (ids sharing their
        first characters share one), over the range between the partition's first and last id
        asked for: a file of new ids reads next to nothing."""
        wanted: set[tuple[SearchKind, str]] = {(kind, normalise_search(i)) for kind, i in ids}
        shards: dict[str, list[str]] = defaultdict(list)
        for _, normal in wanted:
            shards[keys.search_shard(normal)].append(normal)
        found: Spellings = defaultdict(set)
        for shard, normals in sorted(shards.items()):
            # SK = <lower-cased id>#<kind>#<id>: '#' sorts below every id character, '$' just above it.
            values = {":pk": shard, ":lo": min(normals), ":hi": max(normals) + "$"}
            for item in self.gateway.query("PK = :pk AND SK BETWEEN :lo AND :hi", values, projection="SK"):
                kind, target_id = keys.parse_search_sk(item["SK"])
                key = (kind, normalise_search(target_id))
                if key in wanted:
                    found[key].add(target_id)
        return dict(found)
