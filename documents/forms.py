"""Forms for analyst writes. They validate user input and build domain objects; they never
see keys or DynamoDB items."""

from __future__ import annotations

from typing import Any

from django import forms

from fundportal.domain import dates
from fundportal.domain.errors import InvalidEntry, InvalidId
from fundportal.domain.kinds import (
    ACTIVITY_STATUSES,
    CARRY_ACCRUED,
    CARRY_STAGES,
    DEFAULT_DOCUMENT_TYPE,
    DOCUMENT_STATUSES,
    DOCUMENT_TYPES,
    ENTRY_STATUSES,
    FEE_GROSS,
    FEE_LINES,
    POSITION_KINDS,
    Kind,
    validate_id,
)
from fundportal.domain.model import CapitalActivity, Document
from fundportal.domain.money import CURRENCIES
from fundportal.domain.position_entries import ENTRY_CLASSES, PositionEntry, entry_parts
from fundportal.domain.restatement import shown
from fundportal.domain.statement_kinds import check_entry
from fundportal.messages import describe
from fundportal.web.cells import KIND_LABELS
from fundportal.web.forms import JINJA2_WIDGETS, SubmissionTokenMixin, amount_field, signed_amount_field

# Path segments under /documents/ that a document id would shadow.
RESERVED_DOCUMENT_IDS = frozenset({"new", "search", "import"})


def _choices(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


KIND_CHOICES = [(kind.slug, KIND_LABELS[kind]) for kind in POSITION_KINDS]


class IdField(forms.CharField):
    """An id as keys.validate_id accepts it: 1-64 letters, digits, '_', '-' or '.'."""

    def __init__(self, *, what: str, **kwargs: Any) -> None:
        self.what = what
        kwargs.setdefault("max_length", 64)
        super().__init__(**kwargs)

    def validate(self, value: str) -> None:
        super().validate(value)
        if value in self.empty_values:
            return
        try:
            validate_id(value, self.what)
        except InvalidId as error:
            raise forms.ValidationError(describe(error), code="invalid_id") from None


class DateInput(forms.DateInput):
    input_type = "date"


def sane_date(value):
    """As-of and due dates between 1900 and 2100 (fundportal.domain.dates)."""
    if value is not None and not dates.in_range(value):
        raise forms.ValidationError(dates.range_message("date"), code="date_range")


def date_field(**kwargs: Any) -> forms.DateField:
    return forms.DateField(widget=DateInput, validators=[sane_date], **kwargs)


class CreateDocumentForm(SubmissionTokenMixin, forms.Form):
    document_id = IdField(what="document id", label="Document id")
    title = forms.CharField(max_length=200)
    fund_id = IdField(what="fund id", label="Fund id")
    as_of_date = date_field(label="As-of date")
    currency = forms.ChoiceField(choices=_choices(CURRENCIES), initial="USD")
    status = forms.ChoiceField(choices=_choices(DOCUMENT_STATUSES), initial="Active")
    document_type = forms.ChoiceField(
        label="Type",
        required=False,  # a form (or script) without it creates an "other" document
        choices=[(t, t.replace("_", " ").capitalize()) for t in DOCUMENT_TYPES],
        initial=DEFAULT_DOCUMENT_TYPE,
        help_text="Capital calls and distributions are read as the period's amounts whatever the type; "
        "unfunded commitment is the latest balance.",
    )
    activity_amount = amount_field(label="Capital activity amount", required=False)
    activity_status = forms.ChoiceField(
        label="Capital activity status", choices=[("", "—"), *_choices(ACTIVITY_STATUSES)], required=False
    )

    def clean_document_id(self) -> str:
        document_id = self.cleaned_data["document_id"]
        if document_id.lower() in RESERVED_DOCUMENT_IDS:
            raise forms.ValidationError(f"'{document_id}' is reserved; choose another document id.")
        return document_id

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (the stubs allow None)
        data = self.cleaned_data
        if data.get("activity_status") and data.get("activity_amount") is None:
            self.add_error("activity_amount", "Give the capital activity amount, or leave its status empty.")
        return data

    def document(self) -> Document:
        data = self.cleaned_data
        return Document(
            document_id=data["document_id"],
            title=data["title"],
            fund_id=data["fund_id"],
            as_of_date=data["as_of_date"],
            currency=data["currency"],
            status=data["status"],
            document_type=data.get("document_type") or DEFAULT_DOCUMENT_TYPE,
        )

    def activity(self) -> CapitalActivity | None:
        data = self.cleaned_data
        if data.get("activity_amount") is None:
            return None
        return CapitalActivity(
            document_id=data["document_id"],
            amount=data["activity_amount"],
            status=data.get("activity_status") or "Pending",
            currency=data["currency"],
        )


class EntryDeleteForm(SubmissionTokenMixin, forms.Form):
    """The removal confirmation: the revision the page showed, and a submission token."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)


# The fields of one kind only (`model.entry_parts`): given for another kind they are refused.
PART_KINDS = {
    "management_fee": Kind.CAPITAL_CALL,
    "partnership_expense": Kind.CAPITAL_CALL,
    "outside_commitment": Kind.CAPITAL_CALL,
    "return_of_capital": Kind.DISTRIBUTION,
    "gain": Kind.DISTRIBUTION,
    "income": Kind.DISTRIBUTION,
    "recallable": Kind.DISTRIBUTION,
    "fee_line": Kind.MANAGEMENT_FEE,
    "carry_stage": Kind.CARRIED_INTEREST,
}
PART_DEFAULTS: dict[str, Any] = {"fee_line": FEE_GROSS, "carry_stage": CARRY_ACCRUED, "outside_commitment": False}


class EntryForm(SubmissionTokenMixin, forms.Form):
    """A position's entry of any kind in one document, with the fields of its kind: a call's fee
    and expense parts, a distribution's split, a fee line, a carry stage.

    When changing an existing entry, `kind` and `position_id` are fixed (disabled)."""

    kind = forms.ChoiceField(label="Entry", choices=KIND_CHOICES)
    position_id = IdField(what="position id", label="Position id")
    fund_id = IdField(what="fund id", label="Fund id")
    investor_id = IdField(what="investor id", label="Investor id")
    amount = signed_amount_field(help_text="Gains and losses and accrued carry may be negative; the rest not.")
    status = forms.ChoiceField(choices=_choices(ENTRY_STATUSES), initial="Pending")
    due_date = date_field(label="Due date", required=False)
    management_fee = amount_field(label="Capital call: management fee part", required=False)
    partnership_expense = amount_field(label="Capital call: partnership expense part", required=False)
    outside_commitment = forms.BooleanField(
        label="Capital call: fee and expense parts called outside the commitment", required=False
    )
    return_of_capital = amount_field(label="Distribution: return of capital", required=False)
    gain = amount_field(label="Distribution: gain", required=False)
    income = amount_field(label="Distribution: income", required=False)
    recallable = amount_field(label="Distribution: recallable", required=False)
    fee_line = forms.ChoiceField(
        label="Management fee: line", choices=[("", "—"), *_choices(FEE_LINES)], required=False
    )
    carry_stage = forms.ChoiceField(
        label="Carried interest: stage", choices=[("", "—"), *_choices(CARRY_STAGES)], required=False
    )
    # When changing an entry: the revision it was shown with (optimistic check).
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)

    def __init__(self, *args: Any, fixed: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if fixed:
            self.fields["kind"].disabled = True
            self.fields["position_id"].disabled = True

    def entry_kind(self) -> Kind:
        return Kind.from_slug(self.cleaned_data["kind"])

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (the stubs allow None)
        data = self.cleaned_data
        if self.errors or "kind" not in data:
            return data
        kind = self.entry_kind()
        for name, owner in PART_KINDS.items():
            if owner is not kind and data.get(name) not in (None, "", False):
                self.add_error(name, f"This applies to a {KIND_LABELS[owner].lower()} only.")
        if self.errors:
            return data
        try:
            check_entry(self.entry("FORM"))  # the kind's rules, before anything is asked of the table
        except InvalidEntry as error:
            field = error.field if error.field in self.fields else "return_of_capital"
            self.add_error(field if error.field != "split" else "return_of_capital", describe(error))
        return data

    def entry(self, document_id: str) -> PositionEntry:
        data = self.cleaned_data
        cls = ENTRY_CLASSES[self.entry_kind()]
        parts: dict[str, Any] = {
            name: data.get(name) if data.get(name) not in (None, "") else PART_DEFAULTS.get(name)
            for name, owner in PART_KINDS.items()
            if owner is cls.KIND
        }
        return cls(
            document_id=document_id,
            position_id=data["position_id"],
            fund_id=data["fund_id"],
            investor_id=data["investor_id"],
            amount=data["amount"],
            status=data["status"],
            due_date=data.get("due_date"),
            **parts,
        )

    @staticmethod
    def initial_for(entry: PositionEntry) -> dict[str, Any]:
        """The entry as its document states it (a pending restated value, not the counted one)."""
        entry = shown(entry) or entry
        return {
            **entry_parts(entry),
            "kind": entry.kind.slug,
            "position_id": entry.position_id,
            "fund_id": entry.fund_id,
            "investor_id": entry.investor_id,
            "amount": entry.amount,
            "status": entry.status,
            "due_date": entry.due_date,
            "revision": entry.revision,
        }


class RestateForm(SubmissionTokenMixin, forms.Form):
    """A restated document header and capital activity, tied to the revision it was loaded with."""

    title = forms.CharField(max_length=200)
    status = forms.ChoiceField(choices=_choices(DOCUMENT_STATUSES))
    activity_amount = amount_field(
        label="Capital activity amount",
        required=False,
        help_text="Leave empty to keep the capital activity as it is.",
    )
    activity_status = forms.ChoiceField(label="Capital activity status", choices=_choices(ACTIVITY_STATUSES))
    # One position amount restated with the header (an approved document's restatement waits for
    # approval, its approved amounts counting meanwhile); more through the entry forms after.
    entry_position = forms.CharField(
        label="Restated amount: position",
        required=False,
        max_length=64,
        help_text="Optional: the position whose entry this restatement changes.",
    )
    entry_kind = forms.ChoiceField(label="Restated amount: entry", choices=KIND_CHOICES, required=False)
    entry_amount = amount_field(label="Restated amount", required=False)
    entry_status = forms.ChoiceField(
        label="Restated amount: status", choices=[("", "as it is"), *_choices(ENTRY_STATUSES)], required=False
    )
    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def clean_entry_position(self) -> str:
        value = (self.cleaned_data.get("entry_position") or "").strip()
        if value:
            try:
                validate_id(value, "position id")
            except InvalidId as error:
                raise forms.ValidationError(describe(error)) from None
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        position, amount = cleaned.get("entry_position"), cleaned.get("entry_amount")
        if bool(position) != (amount is not None):
            raise forms.ValidationError("A restated amount needs both its position and its amount.")
        return cleaned

    def restated_entries(self, document_id: str) -> list[PositionEntry]:
        """The restated entry asked for ([] when none): its amount and status; the rest is kept."""
        data = self.cleaned_data
        if not data.get("entry_position"):
            return []
        cls = ENTRY_CLASSES[Kind.from_slug(data.get("entry_kind") or POSITION_KINDS[0].slug)]
        return [
            cls(
                document_id=document_id,
                position_id=data["entry_position"],
                amount=data["entry_amount"],
                status=data.get("entry_status") or "",
            )
        ]

    @staticmethod
    def initial_for(document: Document, activity: CapitalActivity | None) -> dict[str, Any]:
        return {
            "title": document.title,
            "status": document.status,
            "activity_amount": activity.amount if activity else None,
            "activity_status": activity.status if activity else "Pending",
            "expected_revision": document.revision,
        }

    def changes(self) -> dict[str, Any]:
        return {"title": self.cleaned_data["title"], "status": self.cleaned_data["status"]}

    def activity_changes(self) -> dict[str, Any] | None:
        """None when the document has no capital activity and none was given."""
        amount = self.cleaned_data.get("activity_amount")
        if amount is None:
            return None
        return {"amount": amount, "status": self.cleaned_data["activity_status"]}


class DateRangeQueryForm(forms.Form):
    """A GET form of query parameters (`PARAMETERS` maps field names to parameter names) with an
    optional `start`..`end` date range that must be in order."""

    PARAMETERS: dict[str, str] = {"start": "from", "end": "to"}
    default_renderer = JINJA2_WIDGETS  # list pages render the fields in Jinja2

    def add_prefix(self, field_name: str) -> str:
        return self.PARAMETERS.get(field_name, field_name)

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean returns cleaned_data (the stubs allow None)
        cleaned = self.cleaned_data
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            first, last = (self.fields["start"].label or "from").lower(), (self.fields["end"].label or "to").lower()
            raise forms.ValidationError(f"The '{first}' date must be on or before the '{last}' date.")
        return cleaned
