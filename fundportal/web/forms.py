"""Form pieces shared by the apps' forms: money amounts, the submission token, and the widget
renderer of the forms the portal's own Jinja2 pages render field by field."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.forms.renderers import Jinja2

from fundportal.domain.amounts import typed_amount

# Django's own Jinja2 form renderer (its jinja2 widget templates), for a form whose fields a
# Jinja2 page renders with `{{ field }}`: the page then has one template engine, and a widget
# costs a compiled template instead of the Django language's. One instance: it builds its
# environment once. The admin's forms keep FORM_RENDERER (Django templates).
JINJA2_WIDGETS = Jinja2()

MAX_AMOUNT_DIGITS = 18  # up to 9,999,999,999,999,999.99


class AmountField(forms.DecimalField):
    """A DecimalField that accepts what people type ("1,250,000.00": thousands separators) and
    shows a stored amount the same way ("500,000.00", not "500000")."""

    GROUPED = re.compile(r"\s*-?\d{1,3}(?:,\d{3})+(?:\.\d*)?\s*")

    # DecimalField subclasses IntegerField in Django; django-stubs ignore the same override on it.
    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        if isinstance(value, str) and self.GROUPED.fullmatch(value):
            value = value.replace(",", "").strip()
        return super().to_python(value)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Decimal) and value.is_finite():
            return typed_amount(value)
        return value


def amount_field(**kwargs: Any) -> forms.DecimalField:
    """Money: a Decimal >= 0 with at most 2 decimal places (thousands separators accepted)."""
    return AmountField(
        min_value=Decimal(0),
        max_digits=MAX_AMOUNT_DIGITS,
        decimal_places=2,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        **kwargs,
    )


def signed_amount_field(**kwargs: Any) -> forms.DecimalField:
    """Money that may be negative (a loss, a reversal): which kinds allow it is the domain's rule."""
    return AmountField(
        max_digits=MAX_AMOUNT_DIGITS,
        decimal_places=2,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        **kwargs,
    )


class SubmissionTokenMixin(forms.Form):
    """A token made when the form is shown and sent back with it: a resubmission (double click,
    reload after a lost reply) repeats the same write, which the data layer applies once."""

    request_token = forms.RegexField(regex=r"^[0-9a-f]{32}$", widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["request_token"].initial = uuid.uuid4().hex

    @property
    def token(self) -> str:
        """The posted token; a post without one (a script, an old page) is a new write."""
        return self.cleaned_data.get("request_token") or uuid.uuid4().hex
