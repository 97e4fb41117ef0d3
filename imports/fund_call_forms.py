"""The fund call page's form: what an editor enters (fund, dates, total, purpose, basis and,
for a custom basis, the weights). It checks the input's shape; the allocation's rules are the
domain's (`fundportal.domain.allocation`), reported on the form by the view."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms

from documents.forms import IdField, date_field
from fundportal.domain.allocation import Basis, Purpose
from fundportal.domain.amounts import AmountError, parse_amount
from fundportal.web.forms import SubmissionTokenMixin

from .fund_calls import parse_weights

PURPOSE_CHOICES = [
    ("Capital call", [(p.value, p.label) for p in Purpose if p.is_call]),
    ("Distribution", [(p.value, p.label) for p in Purpose if not p.is_call]),
]


class FundCallForm(SubmissionTokenMixin, forms.Form):
    fund_id = IdField(what="fund id", label="Fund id")
    on = date_field(label="Notice date", help_text="The basis is taken as of this date.")
    due = date_field(label="Due date", required=False, help_text="Defaults to the notice date.")
    total = forms.CharField(
        label="Total", max_length=40, widget=forms.TextInput(attrs={"inputmode": "decimal"}), help_text="5,000,000.00"
    )
    purpose = forms.ChoiceField(choices=PURPOSE_CHOICES)
    basis = forms.ChoiceField(choices=[(b.value, b.label) for b in Basis], initial=Basis.COMMITMENT.value)
    weights = forms.CharField(
        label="Custom weights (percent)",
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Custom basis only: one POSITION=PERCENT per position, like P7=25, P8=75 (adding up to 100).",
    )

    def clean_total(self) -> Decimal:
        try:
            return parse_amount(self.cleaned_data["total"])
        except AmountError as error:
            raise forms.ValidationError(str(error), code="amount") from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("basis") == Basis.CUSTOM.value:
            try:
                cleaned["parsed_weights"] = parse_weights(cleaned.get("weights", ""))
            except ValueError as error:
                self.add_error("weights", str(error))
        return cleaned

    def plan_arguments(self) -> dict[str, Any]:
        """The keyword arguments of `fund_call_plan` (a valid form)."""
        data = self.cleaned_data
        basis = Basis(data["basis"])
        return {
            "fund_id": data["fund_id"],
            "on": data["on"],
            "due": data.get("due"),
            "total": data["total"],
            "purpose": Purpose(data["purpose"]),
            "basis": basis,
            "weights": data.get("parsed_weights") if basis is Basis.CUSTOM else None,
            "token": self.token,
        }
