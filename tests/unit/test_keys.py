"""Property tests of the one key codec (fundportal/store/mapping/keys/).

Every key of DESIGN.md's table is built from validated ids and parses back to them; ids
that could break a key are refused with InvalidId before any request; no SK prefix used
with `begins_with` can match another kind's keys.
"""

from __future__ import annotations

import string
from datetime import date, timedelta

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import (
    POSITION_KINDS,
    VERSIONED_KINDS,
    Kind,
    parse_month,
    parse_version_id,
    validate_id,
    version_id,
)
from fundportal.messages import describe
from fundportal.store.mapping import keys

ID_ALPHABET = string.ascii_letters + string.digits + "_.-"
# Not only dots: '.' and '..' are path segments no URL can address.
valid_ids = st.text(alphabet=ID_ALPHABET, min_size=1, max_size=64).filter(lambda s: s.strip("."))
kinds = st.sampled_from(list(Kind))
position_kinds = st.sampled_from(POSITION_KINDS)
versioned_kinds = st.sampled_from(VERSIONED_KINDS)
dates = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))
revisions = st.none() | st.integers(min_value=1, max_value=999_999)

invalid_ids = st.one_of(
    st.just(""),
    st.text(alphabet=".", min_size=1, max_size=64),
    st.text(alphabet=ID_ALPHABET, min_size=65, max_size=80),
    # a valid id with one forbidden character ('#', space, unicode, control...) spliced in
    st.tuples(
        st.text(alphabet=ID_ALPHABET, max_size=30),
        st.sampled_from(["#", " ", "\t", "\n", "/", "é", "Ω", "٣", "\u200b", "\x00", "'", '"', "%", "+"]),
        st.text(alphabet=ID_ALPHABET, max_size=30),
    ).map("".join),
    st.text(min_size=1, max_size=20).filter(lambda s: any(c not in ID_ALPHABET for c in s)),
)
non_strings = st.one_of(st.none(), st.integers(), st.floats(), st.binary(min_size=1), st.lists(st.just("A")))


def position_entry_sks(kind: Kind, position_id: str, document_id: str) -> list[str]:
    """Every sort key (base table and position index) an entry of `kind` can have."""
    return [keys.entry_sk(kind, position_id), keys.position_index_keys(kind, position_id, document_id)[1]]


def every_sk(kind: Kind, some_id: str, on: date, revision: int | None) -> list[str]:
    if kind.is_position_entry:
        return position_entry_sks(kind, some_id, some_id)
    return [keys.latest_sk(kind), keys.historical_sk(kind, on, revision)]


# --- valid ids round-trip -----------------------------------------------------------------------


@given(valid_ids)
def test_valid_ids_are_accepted_unchanged(value):
    assert validate_id(value) == value
    assert keys.document_pk(value) == value
    assert keys.position_index_pk(value) == value


@given(position_kinds, valid_ids)
def test_entry_sk_round_trips(kind, position_id):
    parsed = keys.parse_sk(keys.entry_sk(kind, position_id))
    assert (parsed.kind, parsed.position_id, parsed.latest) == (kind, position_id, True)


@given(versioned_kinds)
def test_latest_sk_round_trips(kind):
    parsed = keys.parse_sk(keys.latest_sk(kind))
    assert (parsed.kind, parsed.latest, parsed.version_date, parsed.position_id) == (kind, True, None, None)


@given(versioned_kinds, dates, revisions)
def test_historical_sk_round_trips(kind, on, revision):
    parsed = keys.parse_sk(keys.historical_sk(kind, on, revision))
    assert (parsed.kind, parsed.latest, parsed.version_date, parsed.revision) == (kind, False, on, revision)


@given(valid_ids)
def test_document_entity_index_key_round_trips(document_id):
    gsi_pk, gsi_sk = keys.entity_index_keys(Kind.DOCUMENT, document_id)
    assert gsi_sk == keys.METADATA
    assert keys.parse_entity_index_pk(gsi_pk) == (Kind.DOCUMENT, None, document_id)


@given(position_kinds, valid_ids, valid_ids)
def test_entry_entity_index_key_round_trips(kind, position_id, document_id):
    gsi_pk, gsi_sk = keys.entity_index_keys(kind, document_id, position_id)
    assert gsi_sk == keys.LATEST
    assert keys.parse_entity_index_pk(gsi_pk) == (kind, position_id, document_id)


@given(position_kinds, valid_ids, valid_ids)
def test_position_index_keys_round_trip(kind, position_id, document_id):
    gsi2_pk, gsi2_sk = keys.position_index_keys(kind, position_id, document_id)
    assert gsi2_pk == keys.position_index_pk(position_id) == position_id
    assert keys.parse_position_index_sk(gsi2_sk) == (kind, document_id)


@given(dates, valid_ids)
def test_month_index_keys_round_trip(as_of, document_id):
    gsi3_pk, gsi3_sk = keys.month_index_keys(as_of, document_id)
    assert gsi3_pk == keys.month_shard(as_of)
    assert keys.parse_month_shard(gsi3_pk) == (as_of.year, as_of.month)
    assert keys.parse_month_index_sk(gsi3_sk) == (as_of, document_id)
    # The catalog row of the month names the same 'YYYY-MM' the shard carries.
    catalog_pk, month = keys.month_catalog_keys(as_of)
    assert catalog_pk == keys.MONTH_CATALOG_PK
    assert parse_month(month) == (as_of.year, as_of.month)
    assert gsi3_pk.endswith(month)


@given(dates, st.integers(0, 30), st.integers(0, 30), valid_ids, valid_ids)
def test_month_index_sorts_by_date_within_a_shard(day, shift_a, shift_b, doc_a, doc_b):
    assume(day < date(9999, 12, 1))
    start = day.replace(day=1)
    first, second = start + timedelta(min(shift_a, shift_b)), start + timedelta(max(shift_a, shift_b))
    assume(first < second and second.month == first.month)
    assert keys.month_shard(first) == keys.month_shard(second)
    assert keys.month_index_keys(first, doc_a)[1] < keys.month_index_keys(second, doc_b)[1]


@given(valid_ids, st.datetimes(), st.text(alphabet=string.hexdigits, min_size=32, max_size=32))
def test_audit_keys_round_trip(document_id, at, token):
    assert keys.parse_audit_sk(keys.audit_sk(at.isoformat(), token)) == (at.isoformat(), token)
    assert keys.audit_pk(document_id) != document_id


@given(valid_ids)
def test_non_document_partitions_never_collide_with_a_document(document_id):
    """Audit and catalog partitions carry '#', which no valid document id can contain."""
    assert keys.audit_pk(document_id) != keys.document_pk(document_id)
    assert keys.document_pk(document_id) != keys.MONTH_CATALOG_PK
    with pytest.raises(InvalidId):
        validate_id(keys.audit_pk(document_id))
    with pytest.raises(InvalidId):
        validate_id(keys.MONTH_CATALOG_PK)


@given(st.sampled_from(list(Kind)))
def test_kind_slug_round_trips(kind):
    assert Kind.from_slug(kind.slug) is kind
    assert Kind.from_entity_type(kind.entity_type) is kind


# --- invalid ids are refused -------------------------------------------------------------------


BUILDERS_TAKING_AN_ID = {
    "document_pk": keys.document_pk,
    "position_index_pk": keys.position_index_pk,
    "audit_pk": keys.audit_pk,
    "entry_sk(position)": lambda bad: keys.entry_sk(Kind.CAPITAL_CALL, bad),
    "entity_index_keys(document)": lambda bad: keys.entity_index_keys(Kind.DOCUMENT, bad),
    "entity_index_keys(position)": lambda bad: keys.entity_index_keys(Kind.DISTRIBUTION, "DOC001", bad),
    "entity_index_keys(entry document)": lambda bad: keys.entity_index_keys(Kind.DISTRIBUTION, bad, "POSITION_1"),
    "position_index_keys(position)": lambda bad: keys.position_index_keys(Kind.CAPITAL_CALL, bad, "DOC001"),
    "position_index_keys(document)": lambda bad: keys.position_index_keys(Kind.CAPITAL_CALL, "POSITION_1", bad),
    "month_index_keys": lambda bad: keys.month_index_keys(date(2025, 9, 30), bad),
}


@pytest.mark.parametrize("builder", BUILDERS_TAKING_AN_ID.values(), ids=BUILDERS_TAKING_AN_ID.keys())
@given(bad=st.one_of(invalid_ids, non_strings))
def test_every_builder_refuses_invalid_ids(builder, bad):
    with pytest.raises(InvalidId):
        builder(bad)


@pytest.mark.parametrize(
    "bad",
    ["", "A" * 65, "DOC#001", "DOC 001", "DOC\u00e9", "POSITION_1\n", "../etc", None, 42, b"DOC001"],
)
def test_examples_of_invalid_ids(bad):
    with pytest.raises(InvalidId) as raised:
        validate_id(bad, "document id")
    assert "1-64 letters, digits" in describe(raised.value)


def test_boundary_lengths():
    assert validate_id("A") == "A"
    assert validate_id("A" * 64) == "A" * 64
    with pytest.raises(InvalidId):
        validate_id("A" * 65)


@given(st.text(max_size=12))
def test_parse_month_accepts_only_yyyy_mm(value):
    try:
        year, month = parse_month(value)
    except InvalidId:
        return
    assert value == f"{year:04d}-{month:02d}" and year >= 1 and 1 <= month <= 12


@pytest.mark.parametrize("bad", ["", "2025-13", "2025-00", "0000-01", "2025-9", "25-09", "٢٠٢٥-٠٩", "2025-09#", None])
def test_parse_month_refuses_malformed_months(bad):
    with pytest.raises(InvalidId):
        parse_month(bad)


def test_unknown_entity_slug_is_an_invalid_id():
    with pytest.raises(InvalidId):
        Kind.from_slug("capital_call#x")


# --- begins_with prefixes -------------------------------------------------------------------------


@given(kinds, kinds, valid_ids, dates, revisions)
def test_each_kind_prefix_matches_only_its_own_keys(prefix_kind, key_kind, some_id, on, revision):
    """`begins_with(SK, kind.prefix)` selects exactly that kind: CAPITAL_CALL# never matches
    CAPITAL_ACTIVITY#..., DOCUMENT# never matches anything else."""
    for sk in every_sk(key_kind, some_id, on, revision):
        assert sk.startswith(keys.kind_prefix(prefix_kind)) == (prefix_kind is key_kind), (prefix_kind, sk)


@given(kinds, valid_ids, dates, revisions)
def test_capital_prefix_selects_activity_and_calls_only(kind, some_id, on, revision):
    """Pattern 4: begins_with(SK, 'CAPITAL_') is capital activity and capital calls, nothing else."""
    expected = kind in (Kind.CAPITAL_ACTIVITY, Kind.CAPITAL_CALL)
    for sk in every_sk(kind, some_id, on, revision):
        assert sk.startswith(keys.CAPITAL_PREFIX) == expected


def test_no_kind_value_is_a_prefix_of_another_without_the_delimiter():
    """The prefix includes '#', so even kinds whose names share a stem stay apart."""
    for a in Kind:
        for b in Kind:
            if a is not b:
                assert not keys.kind_prefix(b).startswith(keys.kind_prefix(a))
    assert keys.kind_prefix(Kind.CAPITAL_ACTIVITY) == "CAPITAL_ACTIVITY#"
    assert keys.kind_prefix(Kind.CAPITAL_CALL) == "CAPITAL_CALL#"


# --- history ranges ------------------------------------------------------------------------------


def _inside(sk: str, bounds: tuple[str, str]) -> bool:
    lo, hi = bounds
    return lo <= sk <= hi


@given(versioned_kinds, dates, revisions, dates, dates)
def test_history_range_contains_exactly_the_versions_between_its_dates(kind, on, revision, a, b):
    start, end = min(a, b), max(a, b)
    sk = keys.historical_sk(kind, on, revision)
    assert _inside(sk, keys.history_range(kind, start, end)) == (start <= on <= end)


@given(versioned_kinds, dates, revisions, st.none() | dates, st.none() | dates)
def test_history_range_with_open_bounds(kind, on, revision, start, end):
    assume(start is None or end is None)
    sk = keys.historical_sk(kind, on, revision)
    expected = (start is None or start <= on) and (end is None or on <= end)
    assert _inside(sk, keys.history_range(kind, start, end)) == expected


@given(versioned_kinds, st.none() | dates, st.none() | dates)
def test_history_range_never_contains_the_current_copy_or_another_kind(kind, start, end):
    bounds = keys.history_range(kind, start, end)
    assert not _inside(keys.latest_sk(kind), bounds)
    for other in Kind:
        if other is not kind:
            for sk in every_sk(other, "X", start or date(2025, 1, 1), 2):
                assert not _inside(sk, bounds)


@given(versioned_kinds, dates, st.integers(min_value=1, max_value=999_998))
def test_same_day_restatements_sort_after_the_bare_date_and_in_revision_order(kind, on, revision):
    bare = keys.historical_sk(kind, on)
    first = keys.historical_sk(kind, on, revision)
    second = keys.historical_sk(kind, on, revision + 1)
    assert bare < first < second
    assert all(_inside(sk, keys.history_range(kind, on, on)) for sk in (bare, first, second))


def test_seed_keys_exactly():
    """The seed article's key shapes (seeds/000_*.txt, 'The Single Table Structure', 'GSI Design')."""
    assert keys.latest_sk(Kind.DOCUMENT) == "DOCUMENT#LATEST"
    assert keys.historical_sk(Kind.DOCUMENT, date(2025, 9, 1)) == "DOCUMENT#2025-09-01"
    assert keys.historical_sk(Kind.CAPITAL_ACTIVITY, date(2025, 8, 15)) == "CAPITAL_ACTIVITY#2025-08-15"
    assert keys.entry_sk(Kind.UNFUNDED_COMMITMENT, "POSITION_1") == "UNFUNDED_COMMITMENT#POSITION_1"
    assert keys.entity_index_keys(Kind.DOCUMENT, "DOC001") == ("DOCUMENT#LATEST#DOC001", "METADATA")
    assert keys.entity_index_keys(Kind.CAPITAL_CALL, "DOC001", "POSITION_1") == (
        "CAPITAL_CALL#POSITION_1#DOC001",
        "LATEST",
    )
    assert keys.position_index_keys(Kind.DISTRIBUTION, "POSITION_1", "DOC001") == (
        "POSITION_1",
        "DISTRIBUTION#DOC001",
    )
    assert keys.month_index_keys(date(2025, 9, 30), "DOC001") == ("LATEST_DOCS#2025-09", "2025-09-30#DOC001")


@given(dates, revisions)
def test_public_version_id_round_trips(on, revision):
    """The URL-safe id of a superseded copy ('2025-09-01' or '2025-09-01.2') names its SK."""
    version = version_id(on, revision)
    assert validate_id(version) == version
    assert parse_version_id(version) == (on, revision)


@pytest.mark.parametrize("bad", ["", "2025-9-1", "2025-09-01.", "2025-09-01#2", "2025-02-30", "2025-09-01.٢", None])
def test_malformed_version_ids_are_invalid(bad):
    with pytest.raises(InvalidId):
        parse_version_id(bad)


@pytest.mark.parametrize("value", [".", "..", "...", "." * 64])
def test_ids_of_only_dots_are_refused(value):
    """A document '.' or '..' could be created but never opened (the URL collapses)."""
    with pytest.raises(InvalidId) as raised:
        validate_id(value, "document id")
    assert "not only dots" in describe(raised.value)


@pytest.mark.parametrize("value", [".a", "a.", "1.2", "DOC.001"])
def test_ids_with_dots_and_more_are_accepted(value):
    assert validate_id(value) == value


def test_a_publishing_part_sits_beside_its_import_run_numbered_in_order():
    run_pk, _ = keys.import_run_keys("0123456789abcdef")
    assert keys.import_part_keys("0123456789abcdef", 0) == (run_pk, "PART#000")
    assert keys.import_part_keys("0123456789abcdef", 12)[1] > keys.import_part_keys("0123456789abcdef", 2)[1]
    with pytest.raises(ValueError, match="numbered from 0"):
        keys.import_part_keys("0123456789abcdef", -1)
