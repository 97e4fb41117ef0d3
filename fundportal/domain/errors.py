"""The errors the business can raise. Each carries data only (what, which key, which revisions,
who and when); what a user reads is chosen at the edge (`fundportal.messages.describe`).
`str(error)` is a plain technical description, for logs."""

from __future__ import annotations

from datetime import date, datetime


class DomainError(Exception):
    """Base class of every error of the domain."""


class InvalidId(DomainError, ValueError):
    """An id (document, position, fund, investor, month...) is malformed."""

    def __init__(self, what: str, value: object) -> None:
        self.what = what
        self.value = value
        super().__init__(f"invalid {what}: {value!r:.100}")


class SpelledOtherwise(InvalidId):
    """An id that differs only by case from one of its kind in the table (`existing`): taken, it
    would start a second document, position, fund or investor."""

    def __init__(self, what: str, value: str, existing: str) -> None:
        super().__init__(what, value)
        self.existing = existing


class LeftoverEntries(DomainError):
    """A new document's id whose partition already holds position entries (`count`) with no
    document: an import that never finished, or entries left behind. Creating the document
    would adopt them (another fund's, currency's and date's rows) as its own."""

    def __init__(self, document_id: str, count: int) -> None:
        self.document_id = document_id
        self.count = count
        super().__init__(f"{document_id} holds {count} entries without a document")


class NotFound(DomainError, LookupError):
    def __init__(self, what: str, key: str) -> None:
        self.what = what
        self.key = key
        super().__init__(f"{what} {key!r} not found")


class AlreadyExists(DomainError):
    def __init__(self, what: str, key: str) -> None:
        self.what = what
        self.key = key
        super().__init__(f"{what} {key!r} already exists")


class Conflict(DomainError):
    """An optimistic-lock check failed: someone else changed the item first."""

    def __init__(
        self,
        what: str,
        key: str,
        expected_revision: int | None,
        current_revision: int | None,
        updated_by: str | None = None,
        updated_at: datetime | None = None,
    ) -> None:
        self.what = what
        self.key = key
        self.expected_revision = expected_revision
        self.current_revision = current_revision
        self.updated_by = updated_by
        self.updated_at = updated_at
        super().__init__(
            f"{what} {key!r} changed: revision {current_revision}, expected {expected_revision}"
            f" (by {updated_by} at {updated_at})"
        )


class BadCursor(DomainError, ValueError):
    """A page link that is malformed or belongs to another query."""


class CursorExpired(BadCursor):
    """A signed page link older than `CURSOR_MAX_AGE`: its carried totals may be stale."""


class ItemTooLarge(DomainError, ValueError):
    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"item of {size} bytes, limit {limit}")


class IdempotencyMismatch(DomainError):
    """A request token was reused with different parameters."""


class PositionMismatch(InvalidId):
    """An entry that contradicts its position's register or its document: `field` (fund_id or
    investor_id) is `given`, but the `holder` ("document" or "position") `key` says `expected`."""

    def __init__(self, field: str, holder: str, key: str, expected: str, given: str) -> None:
        super().__init__(field, given)
        self.field = field
        self.holder = holder
        self.key = key
        self.expected = expected
        self.given = given
        self.args = (f"{holder} {key!r} has {field} {expected!r}, not {given!r}",)


class AlreadyImported(DomainError):
    """Another run of the same file (another user's confirm, another `import_notice`) published
    it first: this run wrote nothing of its own. `by` and `at` are the published import's."""

    def __init__(self, filename: str, by: str, at: str, documents: tuple[str, ...]) -> None:
        self.filename = filename
        self.by = by
        self.at = at
        self.documents = documents
        super().__init__(f"{filename} already imported by {by} at {at}")


class ImportUnfinished(DomainError):
    """An import stopped after writing part of its file (the table refused or did not answer a
    request): nothing of it is published. Its re-run finishes it; `marker` names it for the
    operator who would rather clear it (`verify_positions --repair --abandon <marker>`)."""

    def __init__(self, marker: str, written: bool) -> None:
        self.marker = marker
        self.written = written
        super().__init__(f"import {marker} unfinished")


class ImportConflict(DomainError):
    """Someone else's write stood in a notice import's way. `step` says where: `ENTRY_TAKEN`
    (someone else wrote the entry `document_id`/`kind`/`position_id` first), `DOCUMENTS_CHANGED`
    (a document of the file was created or removed since the import started) or `NOT_PUBLISHED`
    (a document changed before the import was published)."""

    ENTRY_TAKEN = "entry taken"
    DOCUMENTS_CHANGED = "documents changed"
    NOT_PUBLISHED = "not published"

    def __init__(self, step: str, document_id: str = "", kind: str = "", position_id: str = "") -> None:
        self.step = step
        self.document_id = document_id
        self.kind = kind
        self.position_id = position_id
        entry = f": {kind} {document_id}/{position_id}" if document_id else ""
        super().__init__(f"import conflict ({step}){entry}")


class NotPermitted(DomainError):
    """A covered fund the user may read but not `action` ("edit", "approve")."""

    def __init__(self, action: str, fund_id: str) -> None:
        self.action = action
        self.fund_id = fund_id
        super().__init__(f"may not {action} fund {fund_id!r}")


class InvalidCommitmentChange(InvalidId):
    """A commitment change the rules refuse: `field` ("reason" or "effective_on") is `problem`
    ("missing", "too_long" or "future")."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(field, problem)
        self.field = field
        self.problem = problem


class InvalidTimeParameter(InvalidId):
    """A time-travel parameter (`parameter`: "as_of" or "known_at") that is `problem`: "format"
    (not the expected ISO form) or "range" (outside the dates the portal accepts)."""

    def __init__(self, parameter: str, problem: str, value: object = "") -> None:
        super().__init__(parameter, value)
        self.parameter = parameter
        self.problem = problem


class DatedAfter(NotFound):
    """A document asked for as of a date (`as_of`) it is dated after (`dated`): it was not part
    of the figures then."""

    def __init__(self, what: str, key: str, dated: date, as_of: date) -> None:
        super().__init__(what, key)
        self.dated = dated
        self.as_of = as_of


class ApprovalRefused(DomainError):
    """A document's approval step refused (four eyes): `reason` is one of the constants below,
    `state` the document's approval when refused, `user` who asked, `editor` who changed it last."""

    OWN_CHANGE = "own_change"  # the approver last changed the document
    ALREADY_APPROVED = "already_approved"
    NOT_SUBMITTED = "not_submitted"  # approving a draft
    ALREADY_SUBMITTED = "already_submitted"

    def __init__(self, reason: str, document_id: str, state: str, user: str = "", editor: str | None = None) -> None:
        self.reason = reason
        self.document_id = document_id
        self.state = state
        self.user = user
        self.editor = editor
        super().__init__(f"approval of {document_id!r} refused ({reason}; {state})")


class PositionChangeRefused(DomainError):
    """Removing a position, or merging `position_id` into `other_id`, refused: `reason` is one of
    the constants below; `detail` what differs (the two values) or how many entries remain."""

    HAS_ENTRIES = "has_entries"  # removing a position that still has entries (`detail`: how many)
    SAME_POSITION = "same_position"
    DIFFERENT_FUND = "fund_id"  # `detail`: (the position's, the other's)
    DIFFERENT_INVESTOR = "investor_id"
    DIFFERENT_CURRENCY = "currency"
    CLASHING_ENTRIES = "clashing_entries"  # both hold an entry of one kind in one document (`detail`: where)
    IMPORT_UNFINISHED = "import_unfinished"  # an unfinished import still counts entries in it
    HAS_COMMITMENT = "has_commitment"  # the position holds a commitment (`detail`: the amount)

    def __init__(self, reason: str, position_id: str, other_id: str | None = None, detail: object = None) -> None:
        self.reason = reason
        self.position_id = position_id
        self.other_id = other_id
        self.detail = detail
        super().__init__(f"change of position {position_id!r} refused ({reason}; {other_id!r}; {detail!r})")


class AllocationRefused(DomainError, ValueError):
    """A fund-wide call or distribution that cannot be allocated: `reason` is one of the
    constants below; `currency`, `expected` and `given` say what was compared (codes, decimals or
    the weights' sum as text) and `position_id` which position's basis was at fault."""

    ZERO_BASIS = "zero_basis"  # the basis (commitments, unfunded, weights) adds up to zero
    NEGATIVE_WEIGHT = "negative_weight"
    WEIGHTS_NOT_WHOLE = "weights_not_whole"  # custom weights do not add up to 100 %
    TOO_PRECISE = "too_precise"  # more decimals than the currency's minor unit
    NOT_POSITIVE = "not_positive"  # a total of zero or less
    MIXED_CURRENCIES = "mixed_currencies"
    UNKNOWN_POSITION = "unknown_position"  # a custom weight for a position not in the fund

    def __init__(
        self, reason: str, *, currency: str = "", expected: str = "", given: str = "", position_id: str = ""
    ) -> None:
        self.reason = reason
        self.currency = currency
        self.expected = expected
        self.given = given
        self.position_id = position_id
        named = (("position", position_id), ("expected", expected), ("given", given))
        detail = ", ".join(f"{k}={v}" for k, v in named if v)
        super().__init__(f"allocation refused ({reason}{'; ' + detail if detail else ''})")


class RestatementRefused(DomainError):
    """A restatement's entry write refused (`fundportal.domain.restatement`): `reason` is one of
    the constants below."""

    NEW_ENTRY = "new_entry"  # a new entry in a document whose restatement awaits approval
    NOT_COUNTED = "not_counted"  # amounts restated in a document never approved: edit them directly
    TOO_LARGE = "too_large"  # more restated entries than one transaction holds
    NEW_POSITION = "new_position"  # a position not registered yet, new in a document whose approved values count

    def __init__(self, reason: str, document_id: str, what: str = "") -> None:
        self.reason = reason
        self.document_id = document_id
        self.what = what
        super().__init__(f"restatement of {document_id!r} refused ({reason}{'; ' + what if what else ''})")


class InvalidRecord(InvalidId):
    """A fund or investor record the rules refuse: `field` ("name", "legal_name", "vintage",
    "currency", "gp", "investor_type") is `problem` ("missing", "too_long", "out_of_range",
    "unknown")."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(field, problem)
        self.field = field
        self.problem = problem


class InvalidPeriod(InvalidId):
    """A statement period that is `problem`: "format" (`period` is not YYYYQn or YYYY; a date
    is not YYYY-MM-DD), "range" (a date outside the dates the portal accepts), "order" (start
    after end), "incomplete" (start without end or the reverse) or "both" (period and
    start/end given together). `parameter` names the query parameter at fault."""

    def __init__(self, parameter: str, problem: str, value: object = "") -> None:
        super().__init__(parameter, value)
        self.parameter = parameter
        self.problem = problem


class InvalidEntry(InvalidId):
    """A position entry the rules refuse (`fundportal.domain.statement_kinds.check_entry`): its
    `field` ("amount", "fee_line", "carry_stage", "management_fee", "partnership_expense",
    "recallable", "split") is `problem` (one of the constants below); `kind` is the entry's kind
    slug, `expected` and `given` the amounts or names compared, as text."""

    NEGATIVE = "negative"  # below zero where the kind allows none
    UNKNOWN = "unknown"  # a fee line or carry stage not among the known ones
    ABOVE_AMOUNT = "above_amount"  # a part larger than the entry's amount
    SPLIT_MISMATCH = "split_mismatch"  # return of capital + gain + income differs from the amount

    def __init__(self, kind: str, field: str, problem: str, *, expected: str = "", given: str = "") -> None:
        super().__init__(field, given)
        self.kind = kind
        self.field = field
        self.problem = problem
        self.expected = expected
        self.given = given
