"""Keys of the search partitions: ids and names found by prefix without a Scan."""

from __future__ import annotations

from fundportal.domain.kinds import SearchKind, normalise_search, validate_id

from .parts import SEP, _join

# --- search keys (case-insensitive id search without a Scan) -----------------------

SEARCH_PREFIX = "SEARCH"
# The search partition is the first SEARCH_SHARD_CHARS characters of the lower-cased id: a
# prefix query of at least that many characters is one Query on one partition.
SEARCH_SHARD_CHARS = 3


def search_shard(text: str) -> str:
    """PK of the search partition holding ids that start with `text` (already normalised)."""
    return _join(SEARCH_PREFIX, text[:SEARCH_SHARD_CHARS])


def search_keys(kind: SearchKind, target_id: str) -> tuple[str, str]:
    """(PK, SK) of the search item of an id: SEARCH#doc / doc001#document#DOC001.
    The SK starts with the lower-cased id, so `begins_with(SK, query)` is a prefix search and
    an exact match sorts first ('#' sorts below every id character)."""
    validate_id(target_id, f"{kind.value} id")
    normal = normalise_search(target_id)
    return search_shard(normal), _join(normal, kind.value, target_id)


def parse_search_sk(sk: str) -> tuple[SearchKind, str]:
    """(kind, id in its own case) of a search item's SK."""
    _normal, kind, target_id = sk.split(SEP)
    return SearchKind(kind), target_id


def name_search_keys(kind: SearchKind, target_id: str, term: str) -> tuple[str, str]:
    """(PK, SK) of a name's search item: in the id search's partitions, so one Query finds ids
    and names alike. `term` is normalised (`fundportal.domain.records.normalise_name`)."""
    validate_id(target_id, f"{kind.value} id")
    if not term or SEP in term:
        raise ValueError(f"not a search term: {term!r}")
    return search_shard(term), _join(term, kind.value, target_id)
