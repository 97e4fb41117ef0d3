"""The record pages: an editor sets a fund's record (name, legal name, vintage, currency, GP) or
an investor's (name, type). GET reads the record (one consistent GetItem; an investor's page also
its positions, one Query, to check the rule); POST is one conditional transaction on the revision
the form was loaded with (409 when someone saved in between), audited."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.generic import FormView

from fundportal.domain.errors import InvalidRecord
from fundportal.domain.kinds import validate_id
from fundportal.domain.money import CURRENCIES
from fundportal.domain.records import (
    GP_MAX_LENGTH,
    INVESTOR_TYPES,
    NAME_MAX_LENGTH,
    VINTAGE_RANGE,
    FundRecord,
    InvestorRecord,
)
from fundportal.messages import describe
from fundportal.web.forms import SubmissionTokenMixin
from fundportal.web.mixins import EditorRequiredMixin
from funds import record_selectors, record_services


class FundRecordForm(SubmissionTokenMixin, forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX_LENGTH)
    legal_name = forms.CharField(label="Legal name", max_length=NAME_MAX_LENGTH, required=False)
    vintage = forms.IntegerField(
        label="Vintage", min_value=VINTAGE_RANGE[0], max_value=VINTAGE_RANGE[1], required=False, help_text="Year"
    )
    currency = forms.ChoiceField(label="Currency", choices=[(c, c) for c in CURRENCIES])
    gp = forms.CharField(label="General partner", max_length=GP_MAX_LENGTH, required=False)
    expected_revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class InvestorRecordForm(SubmissionTokenMixin, forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX_LENGTH)
    investor_type = forms.ChoiceField(label="Type", choices=list(INVESTOR_TYPES.items()))
    expected_revision = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class RecordView(EditorRequiredMixin, FormView):
    template_name = "funds/record_form.html"
    subject = ""

    def record(self) -> FundRecord | InvestorRecord | None:
        raise NotImplementedError

    def save(self, form: forms.Form) -> FundRecord | InvestorRecord:
        raise NotImplementedError

    @property
    def subject_id(self) -> str:
        return validate_id(self.kwargs[f"{self.subject}_id"], f"{self.subject} id")

    def get_initial(self) -> dict[str, Any]:
        if self.request.method != "GET":
            return {}
        record = self.record()
        if record is None:
            return {"expected_revision": 0}
        fields = {name: getattr(record, name) for name in record.FIELDS}
        return {**fields, "expected_revision": record.revision}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(subject=self.subject, subject_id=self.subject_id, back=f"{self.back}:detail")
        return context

    @property
    def back(self) -> str:
        return "funds" if self.subject == "fund" else "investors"

    def form_valid(self, form: forms.Form) -> HttpResponse:
        try:
            saved = self.save(form)
        except InvalidRecord as error:
            field = error.field if error.field in form.fields else None
            form.add_error(field, describe(error))
            return self.render_to_response(self.get_context_data(form=form), status=400)
        messages.success(self.request, f"Record of {self.subject} {self.subject_id} saved: {saved.name}.")
        return redirect(f"{self.back}:detail", self.subject_id)


class FundRecordView(RecordView):
    form_class = FundRecordForm
    subject = "fund"

    def record(self) -> FundRecord | None:
        return record_selectors.fund_record_for_edit(fund_id=self.subject_id, scope=self.scope)

    def save(self, form: forms.Form) -> FundRecord:
        data = form.cleaned_data
        wanted = FundRecord(
            self.subject_id, data["name"], data["legal_name"], data["vintage"], data["currency"], data["gp"]
        )
        return record_services.fund_record_set(
            wanted,
            expected_revision=data["expected_revision"],
            user=self.username,
            token=form.token,  # type: ignore[attr-defined]
            scope=self.scope,
        )


class InvestorRecordView(RecordView):
    form_class = InvestorRecordForm
    subject = "investor"

    def record(self) -> InvestorRecord | None:
        return record_selectors.investor_record_for_edit(investor_id=self.subject_id, scope=self.scope)

    def save(self, form: forms.Form) -> InvestorRecord:
        data = form.cleaned_data
        return record_services.investor_record_set(
            InvestorRecord(self.subject_id, data["name"], data["investor_type"]),
            expected_revision=data["expected_revision"],
            user=self.username,
            token=form.token,  # type: ignore[attr-defined]
            scope=self.scope,
        )
