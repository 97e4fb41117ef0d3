"""Fund and investor records: read one (GetItem), and the name search items a record's name
brings along. The fund and investor pages read the records in their own Query
(`RegisterRepository.fund_page`, `investor_page`): the record sorts first in each partition."""

from __future__ import annotations

from collections.abc import Iterable

from fundportal.domain.kinds import SearchKind
from fundportal.domain.records import FundRecord, InvestorRecord, RecordNames, name_search_terms

from ..gateway import Key, TableGateway
from ..mapping import keys
from ..mapping.companions import NameSearchItem
from ..mapping.entities import from_item

BATCH_KEYS = 100  # BatchGetItem's limit


class RecordRepository:
    def __init__(self, gateway: TableGateway | None = None) -> None:
        self.gateway = gateway or TableGateway()

    def fund(self, fund_id: str, *, consistent: bool = False) -> FundRecord | None:
        item = self.gateway.get(keys.fund_record_keys(fund_id), consistent=consistent)
        return from_item(FundRecord, item) if item else None

    def investor(self, investor_id: str, *, consistent: bool = False) -> InvestorRecord | None:
        item = self.gateway.get(keys.investor_record_keys(investor_id), consistent=consistent)
        return from_item(InvestorRecord, item) if item else None

    def records_of(
        self, fund_ids: Iterable[str], investor_ids: Iterable[str]
    ) -> tuple[dict[str, FundRecord], dict[str, InvestorRecord]]:
        """The records of these funds and investors (a statement's names): one BatchGetItem per
        100 keys; a fund or investor with no record is left out."""
        wanted: dict[Key, tuple[str, str]] = {}
        for fund_id in sorted(set(fund_ids)):
            wanted[keys.fund_record_keys(fund_id)] = ("fund", fund_id)
        for investor_id in sorted(set(investor_ids)):
            wanted[keys.investor_record_keys(investor_id)] = ("investor", investor_id)
        funds: dict[str, FundRecord] = {}
        investors: dict[str, InvestorRecord] = {}
        listed = list(wanted)
        for start in range(0, len(listed), BATCH_KEYS):
            for key, item in self.gateway.batch_get(listed[start : start + BATCH_KEYS]).items():
                subject, subject_id = wanted[key]
                if subject == "fund":
                    funds[subject_id] = from_item(FundRecord, item)
                else:
                    investors[subject_id] = from_item(InvestorRecord, item)
        return funds, investors

    def names(self, fund_ids: Iterable[str], investor_ids: Iterable[str]) -> RecordNames:
        """The names of the funds' and investors' records (one without a record is left out):
        one BatchGetItem per 100 keys, none when there is nothing to look up (the exports' names
        beside ids: a request per 100 names, never one per row)."""
        wanted = {keys.fund_record_keys(f): ("fund", f) for f in dict.fromkeys(fund_ids)}
        wanted.update({keys.investor_record_keys(i): ("investor", i) for i in dict.fromkeys(investor_ids)})
        listed = list(wanted)
        names = RecordNames()
        for start in range(0, len(listed), BATCH_KEYS):
            found = self.gateway.batch_get(listed[start : start + BATCH_KEYS])
            for key, item in found.items():
                subject, subject_id = wanted[key]
                if subject == "fund":
                    names.funds[subject_id] = from_item(FundRecord, item).name
                else:
                    names.investors[subject_id] = from_item(InvestorRecord, item).name
        return names


def name_items(record: FundRecord | InvestorRecord | None) -> list[NameSearchItem]:
    """The search items of a record's name (none for no record): one per term it is found by."""
    if record is None:
        return []
    if isinstance(record, FundRecord):
        kind, target, fund_id, investor_id = SearchKind.FUND, record.fund_id, record.fund_id, ""
    else:
        kind, target, fund_id, investor_id = SearchKind.INVESTOR, record.investor_id, "", record.investor_id
    return [NameSearchItem(kind, target, term, fund_id, investor_id) for term in name_search_terms(record.name)]
