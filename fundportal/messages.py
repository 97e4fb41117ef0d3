"""What a user reads when something goes wrong: the one place an error becomes words.

Errors carry data only (`fundportal.domain.errors`, `fundportal.store.errors`); middleware,
views, forms, admin and commands show `describe(error)`. The most specific registered class of
an error chooses its wording.
"""

from __future__ import annotations

from functools import singledispatch

from moneyed import Money

from fundportal.domain.commitments import REASON_MAX_LENGTH
from fundportal.domain.dates import EARLIEST, LATEST
from fundportal.domain.errors import (
    AllocationRefused,
    AlreadyExists,
    AlreadyImported,
    ApprovalRefused,
    BadCursor,
    Conflict,
    CursorExpired,
    DatedAfter,
    IdempotencyMismatch,
    ImportConflict,
    ImportUnfinished,
    InvalidCommitmentChange,
    InvalidEntry,
    InvalidId,
    InvalidPeriod,
    InvalidRecord,
    InvalidTimeParameter,
    ItemTooLarge,
    LeftoverEntries,
    NotFound,
    NotPermitted,
    PositionChangeRefused,
    PositionMismatch,
    RestatementRefused,
    SpelledOtherwise,
)
from fundportal.domain.money import format_money
from fundportal.domain.reconciliation import Flag, FlagKind
from fundportal.store.errors import (
    ConditionFailed,
    DataLayerError,
    StoreUnavailable,
    TableInUse,
    TransactionCancelled,
    UnprocessedItems,
)
from fundportal.store.uow import RegisterChanged

ID_RULE = "use 1-64 letters, digits, '_', '-' or '.' (not only dots)"


@singledispatch
def describe(error: Exception) -> str:
    """The sentence a user is shown for `error` (an error of no known kind: its own text)."""
    return str(error)


@describe.register
def _(error: SpelledOtherwise) -> str:
    return (
        f"The {error.what} '{str(error.value)[:80]}' differs only by case from the existing "
        f"{error.existing}; did you mean {error.existing}?"
    )


@describe.register
def _(error: LeftoverEntries) -> str:
    return (
        f"{error.document_id} already holds {error.count} position entries of an import that never finished "
        "(or left without a document); creating it would adopt them. Choose another id, or have an operator "
        "finish that import or clear it with `manage.py verify_positions --repair --abandon <import>`."
    )


@describe.register
def _(error: InvalidId) -> str:
    value = error.value
    shown = repr(value) if not isinstance(value, str) else f"'{value[:80]}'"
    if error.what.endswith("id"):
        return f"Invalid {error.what} {shown}: {ID_RULE}"
    return f"Invalid {error.what} {shown}."


@describe.register
def _(error: DatedAfter) -> str:
    return (
        f"{error.what} {error.key} is dated {error.dated.isoformat()}, after {error.as_of.isoformat()}: "
        f"it was not part of the figures as of that date. Choose a later date or today."
    )


TIME_FORMATS = {"as_of": "a date, YYYY-MM-DD", "known_at": "an ISO date or date-time"}


@describe.register
def _(error: InvalidTimeParameter) -> str:
    if error.problem == "range":
        return f"{error.parameter} must be between {EARLIEST.isoformat()} and {LATEST.isoformat()}"
    return f"{error.parameter} must be {TIME_FORMATS.get(error.parameter, 'a date, YYYY-MM-DD')}"


PERIOD_PROBLEMS = {
    "format": "{parameter} must be {form}",
    "range": "{parameter} must be between {earliest} and {latest}",
    "order": "start must be on or before end",
    "incomplete": "give both start and end (YYYY-MM-DD), or a period",
    "both": "give either period or start and end, not both",
}
PERIOD_FORMS = {
    "period": "a quarter (2025Q4) or a year (2025)",
    "start": "a date, YYYY-MM-DD",
    "end": "a date, YYYY-MM-DD",
}


@describe.register
def _(error: InvalidPeriod) -> str:
    return PERIOD_PROBLEMS[error.problem].format(
        parameter=error.parameter,
        form=PERIOD_FORMS.get(error.parameter, "a date, YYYY-MM-DD"),
        earliest=EARLIEST.isoformat(),
        latest=LATEST.isoformat(),
    )


# The words of an entry's fields in a refusal (`InvalidEntry.field`).
ENTRY_FIELD_WORDS = {
    "amount": "amount",
    "management_fee": "management fee part",
    "partnership_expense": "partnership expense part",
    "return_of_capital": "return of capital",
    "gain": "gain",
    "income": "income",
    "recallable": "recallable amount",
    "fee_line": "fee line",
    "carry_stage": "carry stage",
}
ENTRY_KIND_WORDS = {
    "capital_call": "capital call",
    "distribution": "distribution",
    "management_fee": "management fee",
    "partnership_expense": "partnership expense",
    "carried_interest": "carried interest",
}


@describe.register
def _(error: InvalidEntry) -> str:
    nothing = " Nothing was written."
    kind = ENTRY_KIND_WORDS.get(error.kind, error.kind.replace("_", " "))
    field = ENTRY_FIELD_WORDS.get(error.field, error.field.replace("_", " "))
    if error.problem == InvalidEntry.SPLIT_MISMATCH:
        return (
            f"Return of capital, gain and income add up to {error.given}, not the distribution's "
            f"{error.expected}; give the parts that make up the whole amount." + nothing
        )
    if error.problem == InvalidEntry.UNKNOWN:
        return f"The {field} of a {kind} is one of {error.expected}, not '{error.given[:40]}'." + nothing
    if error.problem == InvalidEntry.ABOVE_AMOUNT:
        what = "management fee and partnership expense parts" if error.field == "partnership_expense" else field
        return f"The {what} ({error.given}) cannot exceed the {kind}'s amount ({error.expected})." + nothing
    if error.field == "amount" and error.kind == "carried_interest":
        return "Carried interest paid is zero or more (only accrued carry may be negative: a reversal)." + nothing
    return f"The {field} of a {kind} is zero or more, not {error.given}." + nothing


@describe.register
def _(error: InvalidCommitmentChange) -> str:
    if error.field == "effective_on":
        return "A commitment change takes effect on or before today; record a later one on its date."
    if error.problem == "too_long":
        return f"Keep the reason of a commitment change to {REASON_MAX_LENGTH} characters."
    return "Give the reason of the commitment change (a side letter, a transfer, a correction...)."


@describe.register
def _(error: PositionMismatch) -> str:
    if error.holder == "document":
        return f"{error.key} is a document of fund {error.expected}; an entry in it cannot be for fund {error.given}."
    if error.field == "investor_id":
        return f"{error.key} is held by investor {error.expected}, not {error.given}."
    return f"{error.key} is a position in fund {error.expected}, not {error.given}."


@describe.register
def _(error: NotFound) -> str:
    return f"{error.what} '{error.key}' was not found."


@describe.register
def _(error: NotPermitted) -> str:
    return f"You may read fund {error.fund_id} but not {error.action} it; ask for {error.action} rights on it."


@describe.register
def _(error: AlreadyExists) -> str:
    return f"{error.what} '{error.key}' already exists."


@describe.register
def _(error: Conflict) -> str:
    who = f" by {error.updated_by}" if error.updated_by else ""
    when = f" at {error.updated_at:%Y-%m-%d %H:%M:%S} UTC" if error.updated_at else ""
    revisions = (
        f" (now revision {error.current_revision}, you loaded revision {error.expected_revision})"
        if error.expected_revision is not None
        else ""
    )
    return f"{error.what} '{error.key}' was changed{who}{when}{revisions}. Reload and apply your change again."


@describe.register
def _(error: ApprovalRefused) -> str:
    document = f"Document '{error.document_id}'"
    if error.reason == ApprovalRefused.OWN_CHANGE:
        return (
            f"{document} was last changed by {error.user}: another user must approve it (four eyes). Nothing was saved."
        )
    if error.reason == ApprovalRefused.ALREADY_APPROVED:
        return f"{document} is already approved. Nothing was saved."
    if error.reason == ApprovalRefused.NOT_SUBMITTED:
        return f"{document} is a draft: submit it for approval first. Nothing was saved."
    return f"{document} is already {error.state.lower()}. Nothing was saved."


@describe.register
def _(error: PositionChangeRefused) -> str:
    position, other, detail = error.position_id, error.other_id, error.detail
    if error.reason == PositionChangeRefused.HAS_ENTRIES:
        return (
            f"{position} still has {detail} entries: only a position with no entries can be removed. "
            "Merge it into the right position instead. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.SAME_POSITION:
        return f"A position cannot be merged into itself ({position}). Nothing was changed."
    if error.reason == PositionChangeRefused.CLASHING_ENTRIES:
        return (
            f"{position} and {other} both have an entry of the same kind in {detail}: remove or correct one "
            "of them first. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.IMPORT_UNFINISHED:
        return (
            f"An unfinished import still writes into {position}: finish it (run the same file again) or clear it "
            "with verify_positions --repair --abandon first. Nothing was changed."
        )
    if error.reason == PositionChangeRefused.HAS_COMMITMENT:
        return (
            f"{position} holds a commitment ({detail}): record it on {other or 'the right position'} and set "
            f"{position}'s to 0 first. Nothing was changed."
        )
    mine, theirs = detail if isinstance(detail, tuple) else (detail, None)
    what = {"fund_id": "fund", "investor_id": "investor", "currency": "currency"}.get(error.reason, error.reason)
    return (
        f"{position} ({what} {mine}) and {other} ({what} {theirs}) are of different {what}s: only a position "
        f"of the same fund, investor and currency can be merged. Nothing was changed."
    )


@describe.register
def _(error: RestatementRefused) -> str:
    document = f"Document '{error.document_id}'"
    if error.reason == RestatementRefused.NEW_ENTRY:
        return (
            f"{document} has a restatement awaiting approval: {error.what} can be recorded once it is approved."
            " Nothing was saved."
        )
    if error.reason == RestatementRefused.NOT_COUNTED:
        return f"{document} is not approved yet: change its entries directly. Nothing was saved."
    if error.reason == RestatementRefused.NEW_POSITION:
        return (
            f"{document} is approved: its changes wait for approval, and {error.what} is not a registered"
            " position yet. Open it in a draft document. Nothing was saved."
        )
    return f"{document}: {error.what} are more restated entries than one restatement can approve. Nothing was saved."


@describe.register
def _(error: BadCursor) -> str:
    return "The page link is invalid or belongs to another query."


@describe.register
def _(error: CursorExpired) -> str:
    return "This page link has expired; start again from the first page."


@describe.register
def _(error: ItemTooLarge) -> str:
    return f"The item is {error.size:,} bytes; DynamoDB accepts at most {error.limit:,} bytes per item."


@describe.register
def _(error: IdempotencyMismatch) -> str:
    return "This form was already submitted with other values; reload and try again."


@describe.register
def _(error: AlreadyImported) -> str:
    return (
        f"{error.filename} was already imported by {error.by} at {error.at} into "
        f"{', '.join(error.documents)}; this run wrote nothing of its own."
    )


@describe.register
def _(error: ImportUnfinished) -> str:
    return (
        f"The import {error.marker} stopped before it finished: the table refused or did not answer a request. "
        "Nothing of it is published. Confirm the same file again to finish it; if it keeps stopping, an operator "
        f"clears what it wrote with `manage.py verify_positions --repair --abandon {error.marker}`."
    )


@describe.register
def _(error: ImportConflict) -> str:
    if error.step == ImportConflict.ENTRY_TAKEN:
        return (
            f"{error.document_id} got a {error.kind} for {error.position_id} from someone else during the "
            "import; the rows written so far stay. Run the import again to see what is left."
        )
    if error.step == ImportConflict.DOCUMENTS_CHANGED:
        return (
            "A document of this file was created or removed by someone else since this import "
            "started, so it cannot finish; nothing more was written. The entries it wrote there count "
            "nowhere: `manage.py verify_positions --repair` clears them (audited). Import the file again "
            "under another document id."
        )
    return (
        "The import could not be published (a document changed meanwhile); nothing was published. Run the import again."
    )


@describe.register
def _(error: AllocationRefused) -> str:
    nothing = " Nothing was written."
    if error.reason == AllocationRefused.ZERO_BASIS:
        return "The basis adds up to zero: no position has any, nothing to allocate pro rata." + nothing
    if error.reason == AllocationRefused.NEGATIVE_WEIGHT:
        return f"The weight of {error.position_id} is negative ({error.given}); weights are zero or more." + nothing
    if error.reason == AllocationRefused.WEIGHTS_NOT_WHOLE:
        return f"The weights add up to {error.given} %, not {error.expected} %." + nothing
    if error.reason == AllocationRefused.TOO_PRECISE:
        places = "no decimals" if error.expected == "0" else f"at most {error.expected} decimals"
        return f"{error.currency} amounts have {places}; the total {error.given} has more." + nothing
    if error.reason == AllocationRefused.NOT_POSITIVE:
        return f"The total must be more than zero, not {error.given}." + nothing
    if error.reason == AllocationRefused.UNKNOWN_POSITION:
        return f"{error.position_id} is not a position of this fund; weights name the fund's positions only." + nothing
    where = f" ({error.position_id})" if error.position_id else ""
    return (
        f"The positions are in {error.given}{where}, the total in {error.expected}: amounts of two currencies "
        "are never allocated together." + nothing
    )


# --- the store's transport ------------------------------------------------------------------------


@describe.register
def _(error: DataLayerError) -> str:
    return "The fund data could not be processed."


@describe.register
def _(error: RegisterChanged) -> str:
    return "The position changed meanwhile; reload and try again."


@describe.register
def _(error: StoreUnavailable) -> str:
    return f"DynamoDB is unavailable: {error.reason}"


@describe.register
def _(error: UnprocessedItems) -> str:
    return f"{error.count} items were still unprocessed after all retries."


@describe.register
def _(error: TableInUse) -> str:
    return "The table already exists or is being changed."


@describe.register
def _(error: ConditionFailed) -> str:
    return "The item was not as expected; nothing was written."


@describe.register
def _(error: TransactionCancelled) -> str:
    return "The change was not applied; nothing was written."


# --- reconciliation flags (data in fundportal.domain.reconciliation; the sentence here) ----------


def _amount(value: Money | str | None) -> str:
    return format_money(value) if isinstance(value, Money) else str(value or "—")


def _signed(value: Money | None) -> str:
    """'USD +750,000.00' for a positive difference, 'USD -100,000.00' for a negative one."""
    text = format_money(value)
    if value is None or value.amount <= 0:
        return text
    code, amount = text.split(" ", 1)
    return f"{code} +{amount}"


def explain_flag(flag: Flag) -> str:
    """One line saying what a reconciliation flag found, with its figures."""
    expected, actual, difference = _amount(flag.expected), _amount(flag.actual), _signed(flag.difference)
    where = " ".join(flag.subject)
    if flag.kind is FlagKind.UNFUNDED_DIFFERS:
        on = f" ({flag.on.isoformat()})" if flag.on else ""
        return (
            f"{where}: reported unfunded {actual}{on} differs from computed unfunded {expected} "
            f"(commitment - called), by {difference}."
        )
    if flag.kind is FlagKind.ABOVE_COMMITMENT:
        return f"{where}: called {actual} is above the commitment {expected}, by {difference}."
    if flag.kind is FlagKind.ACTIVITY_VS_CALLS:
        return (
            f"{where}: capital activity {expected} differs from the sum of its positions' calls {actual}, "
            f"by {difference}."
        )
    if flag.kind is FlagKind.NAV_ROLL_FORWARD:
        since = flag.since.isoformat() if flag.since else "—"
        on = flag.on.isoformat() if flag.on else "—"
        return (
            f"{where}: NAV {since} rolled forward by calls and distributions is {expected}; reported NAV {on} "
            f"is {actual}: implied gain/loss {difference} (informational)."
        )
    if flag.kind is FlagKind.FUND_MISMATCH:
        return f"{where}: entry is for fund {actual}, but its {flag.holder} is in fund {expected}."
    if flag.kind is FlagKind.CURRENCY_MISMATCH:
        return f"{where}: amounts in {actual}, but its {flag.holder}'s currency is {expected}."
    return f"{where}: {flag.kind.value}"


_RECORD_FIELDS = {
    "name": "name",
    "legal_name": "legal name",
    "vintage": "vintage",
    "currency": "currency",
    "gp": "general partner",
    "investor_type": "investor type",
}
_RECORD_PROBLEMS = {
    "missing": "is required",
    "too_long": "is too long",
    "out_of_range": "must be a year between 1900 and 2100",
    "unknown": "is not one of the choices",
}


@describe.register
def _(error: InvalidRecord) -> str:
    field = _RECORD_FIELDS.get(error.field, error.field)
    return f"The {field} {_RECORD_PROBLEMS.get(error.problem, error.problem)}."
