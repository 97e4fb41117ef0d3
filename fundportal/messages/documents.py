"""The wording of a document's refusals: its entries, its approval and restatements, its creation."""

from __future__ import annotations

from fundportal.domain.errors import ApprovalRefused, InvalidEntry, LeftoverEntries, RestatementRefused

from .dispatch import describe


@describe.register
def _(error: LeftoverEntries) -> str:
    return (
        f"{error.document_id} already holds {error.count} position entries of an import that never finished "
        "(or left without a document); creating it would adopt them. Choose another id, or have an operator "
        "finish that import or clear it with `manage.py verify_positions --repair --abandon <import>`."
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
