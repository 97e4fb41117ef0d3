"""The commitment form: editors record or change a position's commitment, in the
register's currency, conditioned on the register revision the form was loaded with; audited."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.generic import FormView

from fundportal.domain.kinds import validate_id
from fundportal.domain.model import PositionRegister
from fundportal.domain.money import format_money, money
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.uow import RegisterChanged
from fundportal.web.forms import SubmissionTokenMixin, amount_field
from fundportal.web.mixins import EditorRequiredMixin
from positions import services


class CommitmentForm(SubmissionTokenMixin, forms.Form):
    commitment = amount_field(label="Commitment")
    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


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
        return {"commitment": register.commitment, "expected_revision": register.revision}

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(position_id=self.kwargs["position_id"], register=getattr(self, "loaded", None))
        return context

    def form_valid(self, form: CommitmentForm) -> HttpResponse:
        position_id = self.kwargs["position_id"]
        try:
            saved = services.commitment_set(
                position_id=position_id,
                amount=form.cleaned_data["commitment"],
                expected_revision=form.cleaned_data["expected_revision"],
                user=self.username,
                token=form.token,
                scope=self.scope,
            )
        except RegisterChanged:
            form.add_error(None, f"{position_id} changed since this form was loaded; reload and enter it again.")
            return self.render_to_response(self.get_context_data(form=form), status=409)
        amount = format_money(money(saved.commitment, saved.currency))
        messages.success(self.request, f"Commitment of {position_id} set to {amount}.")
        return redirect("positions:detail", position_id=position_id)
