"""Forms of the DynamoDB admin section: ids are checked with the key codec's own rule."""

from __future__ import annotations

from django import forms

from fundportal.domain.errors import InvalidId
from fundportal.domain.kinds import validate_id
from fundportal.messages import describe
from fundportal.ops.explorer import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE


def _id_field(label: str, required: bool = False) -> forms.CharField:
    return forms.CharField(label=label, required=required, max_length=64, strip=True)


def _validated(value: str, what: str) -> str:
    if not value:
        return value
    try:
        return validate_id(value, what)
    except InvalidId as error:
        raise forms.ValidationError(describe(error)) from None


class ExplorerForm(forms.Form):
    """Either a document id (its partition) or a position id (its GSI_Position_Document collection)."""

    document = _id_field("Document id")
    position = _id_field("Position id")
    page_size = forms.IntegerField(
        label="Items a page", min_value=1, max_value=MAX_PAGE_SIZE, required=False, initial=DEFAULT_PAGE_SIZE
    )
    cursor = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_document(self) -> str:
        return _validated(self.cleaned_data["document"], "document id")

    def clean_position(self) -> str:
        return _validated(self.cleaned_data["position"], "position id")

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self.errors and bool(cleaned.get("document")) == bool(cleaned.get("position")):
            raise forms.ValidationError("Enter a document id or a position id (one of the two).")
        return cleaned


class PatternRunForm(forms.Form):
    document = _id_field("Document id", required=True)
    position = _id_field("Position id", required=True)

    def clean_document(self) -> str:
        return _validated(self.cleaned_data["document"], "document id")

    def clean_position(self) -> str:
        return _validated(self.cleaned_data["position"], "position id")


class RequestLogForm(forms.Form):
    n = forms.IntegerField(label="Last", min_value=1, max_value=200, required=False, initial=50)
