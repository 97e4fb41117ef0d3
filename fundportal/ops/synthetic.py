"""Deterministic synthetic fund data at scale (seed_demo's synthetic mode).

Every document gets its own `random.Random` derived from (seed, document number), so a seed
always produces the same items, whatever order they are written in. Items are built by the
entities (`repository.document_items`), so keys and index keys come from the key codec.

Shape, for N documents, M positions per fund, K superseded versions and F funds:
- funds FUND_A, FUND_B, ... each with M positions (Fund + Investor); investors are shared
  across funds (INVESTOR_1 invests in every fund), positions are POSITION_<n>, numbered per fund;
- document n belongs to fund n mod F and holds a capital call, distribution and unfunded
  commitment for each of its fund's M positions;
- as-of dates are month ends spread over 24 months; K superseded copies of the document and
  its capital activity are kept under DOCUMENT#<date>#<rev> and CAPITAL_ACTIVITY#<date>#<rev>;
- one month-catalog entry per month that has documents;
- each position's entries in a document: a capital call, a distribution, an unfunded commitment
  and a NAV statement, coherent with the position's commitment: the calls of all of a
  fund's documents add up to at most the commitment (each calls 20-100 % of commitment / D, D =
  the fund's document count), unfunded = commitment minus the expected calls to that month, NAV
  around the expected paid-in to that month;
- after the documents, each position's register (with its commitment, in the investor index) and
  each fund's catalog entry, built by the same accumulator the writes use.
"""

from __future__ import annotations

import calendar
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any

from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.position_entries import (
    CapitalCall,
    Distribution,
    NetAssetValue,
    PositionEntry,
    UnfundedCommitment,
)
from fundportal.domain.position_register import PositionRegister
from fundportal.store.mapping.companions import FundCatalogEntry
from fundportal.store.mapping.entities import to_item
from fundportal.store.repositories.documents import document_items
from fundportal.store.repositories.summaries import shard_items, summary_shard_of

CENT = Decimal("0.01")
MONTHS_SPREAD = 24
LAST_MONTH = (2025, 12)
COMMITMENTS = (250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000)
FUND_CURRENCIES = ("USD", "USD", "USD", "EUR", "EUR", "GBP", "CHF")
DOCUMENT_KINDS = ("capital account statement", "capital call notice", "distribution notice", "quarterly report")
BY = "seed_demo --documents"  # not the sample's "seed_demo": seed_demo refuses to overwrite the sample


@dataclass(frozen=True)
class SyntheticSpec:
    documents: int
    positions: int
    versions: int = 2
    funds: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("documents", "positions", "funds"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name} must be at least 1")
        if self.versions < 0:
            raise ValueError("--versions must be 0 or more")
        if self.documents > 10**8 or self.positions > 10**6:
            raise ValueError("that is more data than this generator is meant for")

    @property
    def item_count(self) -> int:
        """Fund items plus month-catalog entries and summary shards, without generating them."""
        per_document = 2 * (1 + self.versions) + 4 * self.positions
        months = len({self.as_of(n).replace(day=1) for n in range(1, self.documents + 1)})
        funds = min(self.funds, self.documents)  # funds that have documents (and so positions)
        shards = sum(len(self.summary_shards(f)) for f in range(funds))
        return self.documents * per_document + months + funds * (1 + self.positions) + shards

    def summary_shards(self, fund: int) -> set[tuple[str, int]]:
        """The summary shards fund number `fund`'s positions fall in."""
        return {summary_shard_of(self.fund_id(fund), self.position_id(fund, i)) for i in range(1, self.positions + 1)}

    def fund_documents(self, fund: int) -> int:
        """How many documents fund number `fund` (0-based) has: documents n with (n - 1) % F == fund."""
        return len(range(fund + 1, self.documents + 1, self.funds))

    def document_id(self, n: int) -> str:
        return f"DOC{n:0{max(3, len(str(self.documents)))}d}"

    def fund_id(self, f: int) -> str:
        return f"FUND_{string.ascii_uppercase[f]}" if self.funds <= 26 else f"FUND_{f + 1:03d}"

    def position_id(self, f: int, i: int) -> str:
        return f"POSITION_{f * self.positions + i}"

    def as_of(self, n: int) -> date:
        """Month end, spread round-robin (then shuffled by seed) over MONTHS_SPREAD months."""
        offset = random.Random(f"{self.seed}:month:{n}").randrange(MONTHS_SPREAD)
        year, month = LAST_MONTH
        month -= offset
        while month < 1:
            year, month = year - 1, month + 12
        return date(year, month, calendar.monthrange(year, month)[1])


def _money(value: float | Decimal) -> Decimal:
    return Decimal(str(value)).quantize(CENT)


def _document_items(spec: SyntheticSpec, n: int, entries: list[PositionEntry] | None = None) -> list[dict[str, Any]]:
    rng = random.Random(f"{spec.seed}:document:{n}")
    fund = (n - 1) % spec.funds
    fund_id = spec.fund_id(fund)
    currency = random.Random(f"{spec.seed}:fund:{fund}").choice(FUND_CURRENCIES)
    document_id = spec.document_id(n)
    as_of = spec.as_of(n)
    loaded_at = datetime.combine(as_of + timedelta(days=1), time(9, 0), tzinfo=UTC)
    kind = rng.choice(DOCUMENT_KINDS)
    title = f"{fund_id} {kind}, {as_of:%B %Y}"
    revision = spec.versions + 1
    document = Document(
        document_id=document_id,
        title=title,
        fund_id=fund_id,
        as_of_date=as_of,
        status=rng.choices(("Active", "Final", "Draft"), weights=(70, 25, 5))[0],
        currency=currency,
        revision=revision,
        updated_at=loaded_at + timedelta(days=7 * spec.versions),
        updated_by=BY,
    )
    activity = CapitalActivity(
        document_id=document_id,
        amount=_money(rng.uniform(100_000, 20_000_000)),
        status=rng.choices(("Pending", "Completed", "Cancelled"), weights=(45, 50, 5))[0],
        currency=currency,
        as_of_date=as_of,
        revision=revision,
        updated_at=document.updated_at,
        updated_by=BY,
    )
    made: list[PositionEntry] = []
    for i in range(1, spec.positions + 1):
        made += _position_entries(spec, rng, document, fund, i, loaded_at)
    if entries is not None:
        entries.extend(made)
    items = document_items(document, activity, made)
    # K superseded copies, each archived a week after the previous revision was published.
    for k in range(1, spec.versions + 1):
        archived_on = as_of + timedelta(days=7 * k)
        earlier = loaded_at + timedelta(days=7 * (k - 1))
        old_document = replace(
            document, revision=k, title=f"{title} (rev {k})", updated_at=earlier, status="Historical"
        ).superseded(archived_on)
        old_activity = replace(
            activity,
            revision=k,
            amount=_money(activity.amount * Decimal(str(rng.uniform(0.8, 1.1)))),
            status=rng.choice(("Pending", "Completed")),
            updated_at=earlier,
        ).superseded(archived_on)
        items += [to_item(old_document), to_item(old_activity)]
    return items


def _position_entries(
    spec: SyntheticSpec, rng: random.Random, document: Document, fund: int, i: int, loaded_at: datetime
) -> list[PositionEntry]:
    commitment = _commitment(spec.seed, fund, i)
    share = Decimal(1) / spec.fund_documents(fund)  # the calls of all the fund's documents: <= commitment
    called = _money(commitment * share * Decimal(str(rng.uniform(0.2, 1.0))))
    distributed = _money(called * Decimal(str(rng.uniform(0.0, 0.9))))
    assert document.as_of_date is not None
    year, month = LAST_MONTH
    elapsed = MONTHS_SPREAD - ((year - document.as_of_date.year) * 12 + month - document.as_of_date.month)
    progress = Decimal(max(elapsed, 1)) / MONTHS_SPREAD  # how far into the fund's life this document is
    unfunded = _money(commitment * (1 - Decimal("0.6") * progress))
    nav = _money(commitment * Decimal("0.6") * progress * Decimal(str(rng.uniform(0.7, 1.4))))
    common = dict(
        document_id=document.document_id,
        position_id=spec.position_id(fund, i),
        fund_id=document.fund_id,
        investor_id=f"INVESTOR_{i}",
        currency=document.currency,
        as_of_date=document.as_of_date,
        document_title=document.title,  # the document's copies (`position_entries.of_document`)
        document_type=document.document_type,
        updated_at=loaded_at,
        updated_by=BY,
    )
    assert document.as_of_date is not None
    return [
        CapitalCall(
            **common,
            amount=called,
            status=rng.choices(("Completed", "Pending", "Cancelled"), weights=(65, 32, 3))[0],
            due_date=document.as_of_date + timedelta(days=rng.randint(10, 45)),
        ),
        Distribution(
            **common,
            amount=distributed,
            status=rng.choices(("Completed", "Pending", "Cancelled"), weights=(75, 23, 2))[0],
        ),
        UnfundedCommitment(**common, amount=unfunded, status="Active"),
        NetAssetValue(**common, amount=nav, status="Active"),
    ]


@lru_cache(maxsize=65536)
def _commitment(seed: int, fund: int, i: int) -> Decimal:
    """A position's commitment: the same in every document of its fund."""
    rng = random.Random(f"{seed}:position:{fund}:{i}")
    return Decimal(rng.choice(COMMITMENTS)) * _money(rng.uniform(0.5, 2.0))


def generate(spec: SyntheticSpec) -> Iterator[dict[str, Any]]:
    """Every item of the synthetic data set, document by document (month catalog entries once)."""
    seen_catalog: set[tuple[str, str]] = set()
    builders: dict[tuple[int, int], tuple[PositionEntry, FiguresBuilder]] = {}
    for n in range(1, spec.documents + 1):
        entries: list[PositionEntry] = []
        for item in _document_items(spec, n, entries):
            if item.get("EntityType") == "MonthCatalog":
                key = (item["PK"], item["SK"])
                if key in seen_catalog:
                    continue
                seen_catalog.add(key)
            yield item
        fund = (n - 1) % spec.funds
        for entry in entries:
            i = int(entry.investor_id.rpartition("_")[2])
            builders.setdefault((fund, i), (entry, FiguresBuilder(flows=True)))[1].add(entry)
    funds_seen: set[str] = set()
    registers: list[PositionRegister] = []
    for (fund, i), (first, builder) in sorted(builders.items()):
        register = PositionRegister(
            first.position_id,
            first.fund_id,
            first.investor_id,
            currency=first.currency,
            commitment=_commitment(spec.seed, fund, i),
            revision=1,
            updated_by=BY,
        ).with_builder(builder)
        registers.append(register)
        yield to_item(register)
        if first.fund_id not in funds_seen:
            funds_seen.add(first.fund_id)
            yield to_item(FundCatalogEntry(first.fund_id))
    yield from shard_items(registers)  # the funds' summaries, whole


def item_size(item: dict[str, Any]) -> int:
    """Approximate DynamoDB item size: names + UTF-8 strings + ~(digits/2 + 1) per number."""
    size = 0
    for name, value in item.items():
        if value is None:
            continue
        size += len(name.encode())
        if isinstance(value, str):
            size += len(value.encode())
        elif isinstance(value, (int, Decimal)):
            size += len(str(value).replace("-", "").replace(".", "")) // 2 + 1
        else:
            size += len(str(value).encode())
    return size
