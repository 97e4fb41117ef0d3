"""The commitment form: editors record a change of a position's commitment, in the register's
currency, with the date it takes effect from (default today, ISO) and its reason; conditioned on
the register revision the form was loaded with; audited. The form lists the dated history."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.generic import FormView

from fundportal.domain import dates
from fundportal.domain.commitments import REASON_MAX_LENGTH
from fundportal.domain.errors import InvalidCommitmentChange
from fundportal.domain.kinds import validate_id
from fundportal.domain.model import utcnow
from fundportal.domain.money import format_money, money
from fundportal.domain.position_register import PositionRegister
from fundportal.messages import describe
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.uow import RegisterChanged
from fundportal.web.forms import SubmissionTokenMixin, amount_field
from fundportal.web.mixins import EditorRequiredMixin
from positions import services
from positions.selectors import commitment_lines


class CommitmentForm(SubmissionTokenMixin, forms.Form):
    commitment = amount_field(label="Commitment")
    effective_on = forms.DateField(
        label="Effective from",
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="The date the new commitment takes effect (today or earlier).",
    )
    reason = forms.CharField(
        label="Reason", max_length=REASON_MAX_LENGTH, help_text="Why it changes: side letter, transfer, correction..."
    )
    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def clean_effective_on(self) -> date:
        value: date = self.cleaned_data["effective_on"]
        if not dates.in_range(value):
            raise forms.ValidationError(dates.range_message("effective date"), code="date_range")
        return value


class CommitmentView(EditorRequiredMixin, FormView):
    """GET: the form (one GetItem of the register); POST: a conditional transaction."""

    form_class = CommitmentForm
    template_name = "positions/commitment.html"

    def register(self) -> PositionRegister:
        register = RegisterRepository().get(validate_id(self.kwargs["position_id"], "position id"), consistent=True)
        if register is None:
            raise Http404("This position is not registered yet: record an entry for it first.")
        self.scope.require_edit(register.fund_id, "Position", register.position_id)
        return register

    def get_initial(self) -> dict[str, Any]:
        if self.request.method != "GET":
            return {}
        register = self.register()
        self.loaded = register
        return {
            "commitment": register.commitment,
            "effective_on": utcnow().date(),
            "expected_revision": register.revision,
        }

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        register = getattr(self, "loaded", None)
        context.update(position_id=self.kwargs["position_id"], register=register)
        if register is not None:
            context["commitments"] = commitment_lines(register)
        return context

    def form_valid(self, form: CommitmentForm) -> HttpResponse:
        position_id = self.kwargs["position_id"]
        try:
            saved = services.commitment_set(
                position_id=position_id,
                amount=form.cleaned_data["commitment"],
                effective_on=form.cleaned_data["effective_on"],
                reason=form.cleaned_data["reason"],
                expected_revision=form.cleaned_data["expected_revision"],
                user=self.username,
                token=form.token,
                scope=self.scope,
            )
        except InvalidCommitmentChange as error:
            form.add_error("effective_on" if error.field == "effective_on" else "reason", describe(error))
            return self.render_to_response(self.get_context_data(form=form), status=400)
        except RegisterChanged:
            form.add_error(None, f"{position_id} changed since this form was loaded; reload and enter it again.")
            return self.render_to_response(self.get_context_data(form=form), status=409)
        entered = format_money(money(form.cleaned_data["commitment"], saved.currency))
        today = saved.commitment_money
        messages.success(
            self.request,
            f"Commitment of {position_id}: {entered} from {form.cleaned_data['effective_on'].isoformat()} recorded; "
            f"effective today: {format_money(today) if today is not None else 'none'}.",
        )
        return redirect("positions:detail", position_id=position_id)
