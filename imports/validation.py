"""The one validation of a notice file, shared by the web import and `import_notice`.

Pure: it reads nothing. `validate(rows, known, token)` gets the file's rows and what the table
holds (`Known`: the documents named, their entries, the position register) and returns every
row's result and, when no row is bad, what to write. Rules:

- each cell (`imports.row_parsing`): ids (keys.validate_id), dates (YYYY-MM-DD only, 1900-2100), currency, kind
  (`capital_call`, `distribution`, `unfunded_commitment`, `nav`, `management_fee`,
  `partnership_expense`, `realized_gain`, `unrealized_gain`, `carried_interest`), status, amount
  (digits 0-9, thousands separators allowed, exactly the currency's decimals; an XLSX number cell
  is taken only when exact within 18 digits, padded: `amounts.number_cell_amount`; negative only
  for gains and carry);
- a kind's own columns (a call's fee and expense parts, a distribution's split and recallable
  part, a fee line, a carry stage) and the kind's rules: `imports.entry_columns`;
- an id that differs only by case from one in the table or an earlier row: "did you mean";
- a new document whose partition holds another write's entries (never adopted);
- a document's header columns (title, fund, as-of date, currency) are the same on all its rows
  and agree with the document when it exists;
- a position's fund and investor are the same on all its rows and agree with the position
  register; a row's fund is its document's fund;
- a row's position is registered in the row's fund unless the file opens it (`new_position`
  = yes on one of its rows); otherwise "X is not a position of FUND; did you mean Y?" (`guards`);
- a row's `document_type` (optional) is a known type, the same on all its document's rows, and
  an existing document's own;
- an existing approved document, or one whose restatement awaits approval, is refused (first
  row of it): its amounts change only through approval;
- a (document, kind, position) appears once in the file, and not already in the table, unless an
  earlier run of this same file wrote it (its RequestToken is this import's token): then it is
  "already imported" and skipped, so an interrupted import re-run completes and never duplicates.
"""

from __future__ import annotations

from collections.abc import Callable

from fundportal.domain.kinds import DOCUMENT_TYPES, SUBMITTED, Kind, SearchKind, normalise_search
from fundportal.domain.model import Document
from fundportal.domain.position_entries import ENTRY_CLASSES, of_document

from . import guards
from .reader import RawRow
from .row_parsing import Parsed, parse_row
from .totals import control_totals
from .validation_values import DocumentPlan, Known, RowError, RowResult, Validation

MAX_DOCUMENTS = 25  # one publishing transaction holds every document of the file
HEADER_COLUMNS = ("title", "fund_id", "as_of_date", "currency")
# The id columns and what the table's search items call them (an id differing only by case
# from one already spelled otherwise is refused: "did you mean ...?").
ID_COLUMNS = (
    ("document_id", SearchKind.DOCUMENT, "document id"),
    ("position_id", SearchKind.POSITION, "position id"),
    ("fund_id", SearchKind.FUND, "fund id"),
    ("investor_id", SearchKind.INVESTOR, "investor id"),
)


def validate(rows: list[RawRow], known: Known, token: str) -> Validation:
    """Every row's result, and the plans (what to write per document) when all rows are good."""
    results = [RowResult(row) for row in rows]
    parsed: list[tuple[RowResult, Parsed]] = []
    for result in results:
        value, errors = parse_row(result.row)
        result.errors.extend(errors)
        if value is not None:
            parsed.append((result, value))
    headers: dict[str, tuple[int, Parsed]] = {}
    positions: dict[str, tuple[int, Parsed]] = {}
    seen: dict[tuple[str, Kind, str], int] = {}
    spelled: dict[tuple[SearchKind, str], tuple[int, str]] = {}
    for result, p in parsed:
        n = result.row.number

        def bad(column: str, reason: str, result: RowResult = result) -> None:
            result.errors.append(RowError(result.row.number, column, reason))

        _check_spelling(p, n, known, spelled, bad)

        first = headers.setdefault(p.document_id, (n, p))
        for column in HEADER_COLUMNS:
            if getattr(p, column) != getattr(first[1], column):
                bad(column, f"{p.document_id}'s {column} differs from row {first[0]} ('{getattr(first[1], column)}').")
        stored = known.documents.get(p.document_id)
        if stored is not None:
            for column in HEADER_COLUMNS:
                if getattr(p, column) != getattr(stored, column):
                    bad(column, f"{p.document_id} exists with {column} '{getattr(stored, column)}'.")
        earlier = positions.setdefault(p.position_id, (n, p))
        for column in ("fund_id", "investor_id"):
            if getattr(p, column) != getattr(earlier[1], column):
                bad(
                    column,
                    f"{p.position_id}'s {column} differs from row {earlier[0]} ('{getattr(earlier[1], column)}').",
                )
        registered = known.registers.get(p.position_id)
        if registered is not None:
            for column in ("fund_id", "investor_id"):
                if getattr(p, column) != getattr(registered, column):
                    bad(column, f"{p.position_id} is registered with {column} '{getattr(registered, column)}'.")
        key = (p.document_id, p.kind, p.position_id)
        if key in seen:
            bad("position_id", f"Duplicate: row {seen[key]} has the same document, kind and position.")
        else:
            seen[key] = n
        existing = known.entries.get(p.document_id, {}).get((p.kind, p.position_id))
        if existing is not None:
            if existing.token == token:
                result.already = True
            else:
                bad("position_id", f"{p.document_id} already has a {p.kind.slug} for {p.position_id}.")
    _check_guards(parsed, known)
    file_errors = [e for d in headers if d not in known.documents and (e := _leftover(d, known, token)) is not None]
    file_errors += [
        _counted(d, document, n)
        for d, (n, _) in headers.items()
        if (document := known.documents.get(d)) is not None and (document.approved or document.restating)
    ]
    if len(headers) > MAX_DOCUMENTS:
        file_errors.append(RowError(0, "document_id", f"A file may hold at most {MAX_DOCUMENTS} documents."))
    validation = Validation(results, file_errors, [], [])
    if validation.ok:
        validation.plans = _plans(parsed, headers, known)
        validation.totals = control_totals(parsed)
    return validation


def _check_guards(parsed: list[tuple[RowResult, Parsed]], known: Known) -> None:
    """A position neither registered nor opened by the file, a document type that disagrees."""
    by_number = {result.row.number: result for result, _ in parsed}
    claims = [(result.row.number, p.position_id, p.fund_id, p.new_position) for result, p in parsed]
    for number, reason in guards.unregistered_rows(claims, known.registers, known.fund_positions).items():
        by_number[number].errors.append(RowError(number, "position_id", reason))
    stored = {d: document.document_type for d, document in known.documents.items()}
    types = [(result.row.number, p.document_id, p.document_type) for result, p in parsed]
    for number, reason in guards.document_type_reasons(types, stored).items():
        by_number[number].errors.append(RowError(number, "document_type", reason))


def _counted(document_id: str, document: Document, row: int) -> RowError:
    """An existing document whose approved amounts count takes no imported rows: its amounts
    change only through approval (`documents.approved_edits`), one entry at a time on its page,
    or in a new document the import creates (awaiting approval)."""
    if document.restating:
        reason = f"{document_id} has a restatement awaiting approval: import into it once the restatement is approved."
    else:
        reason = (
            f"{document_id} is approved: its amounts change only through approval. Import the rows into a new"
            " document, or change its entries on its page (each change awaits approval)."
        )
    return RowError(row, "document_id", reason)


def _leftover(document_id: str, known: Known, token: str) -> RowError | None:
    """A new document whose partition holds entries another write left there (an import that
    never finished, or entries without a document): publishing it would adopt them."""
    foreign = sum(1 for e in known.entries.get(document_id, {}).values() if e.token != token)
    if not foreign:
        return None
    return RowError(
        0,
        "document_id",
        f"{document_id} already holds {foreign} position entries of an import that never finished (or left "
        "without a document); choose another document id, or have an operator clear them "
        "(manage.py verify_positions --repair).",
    )


def _check_spelling(
    p: Parsed,
    n: int,
    known: Known,
    spelled: dict[tuple[SearchKind, str], tuple[int, str]],
    bad: Callable[[str, str], None],
) -> None:
    """An id that differs only by case from one in the table, or from an earlier row's, would be
    a second document, position, fund or investor: refused, naming the spelling meant."""
    for column, kind, what in ID_COLUMNS:
        given = getattr(p, column)
        key = (kind, normalise_search(given))
        existing = known.spellings.get(key, set())
        others = sorted(existing - {given})
        if others and given not in existing:  # an id the table holds as spelled is always fine
            bad(
                column,
                f"The {what} '{given}' differs only by case from the existing {others[0]}; did you mean {others[0]}?",
            )
            continue
        row, first = spelled.setdefault(key, (n, given))
        if first != given:
            bad(column, f"The {what} '{given}' differs only by case from {first} on row {row}; did you mean {first}?")


def _plans(
    parsed: list[tuple[RowResult, Parsed]], headers: dict[str, tuple[int, Parsed]], known: Known
) -> list[DocumentPlan]:
    plans: dict[str, DocumentPlan] = {}
    for document_id, (_, p) in headers.items():
        stored = known.documents.get(document_id)
        document = stored or Document(
            document_id=document_id,
            title=p.title,
            fund_id=p.fund_id,
            as_of_date=p.as_of_date,
            currency=p.currency,
            status="Active",
            approval=SUBMITTED,  # an imported document awaits another user's approval
            document_type=next(
                (q.document_type for _, q in parsed if q.document_id == document_id and q.document_type), None
            )
            or _document_type([q.kind for _, q in parsed if q.document_id == document_id]),
        )
        plans[document_id] = DocumentPlan(document, is_new=stored is None)
    for result, p in parsed:
        plan = plans[p.document_id]
        plan.rows += 1
        if result.already:
            plan.already += 1
            plan.landed.append(known.entries[p.document_id][(p.kind, p.position_id)].entry)
            continue
        entry = ENTRY_CLASSES[p.kind](
            document_id=p.document_id,
            position_id=p.position_id,
            fund_id=p.fund_id,
            investor_id=p.investor_id,
            amount=p.amount,
            status=p.status,
            due_date=p.due_date,
            **p.parts,
        )
        plan.entries.append(of_document(entry, plan.document))  # its as-of date, currency, title, type
    return list(plans.values())


def _document_type(kinds: list[Kind]) -> str:
    """A new document's type from what it holds: a notice of calls or distributions."""
    only = set(kinds)
    if only == {Kind.CAPITAL_CALL} and "capital_call_notice" in DOCUMENT_TYPES:
        return "capital_call_notice"
    if only == {Kind.DISTRIBUTION} and "distribution_notice" in DOCUMENT_TYPES:
        return "distribution_notice"
    return "other"
