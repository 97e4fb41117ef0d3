"""The wording of a fund's or an investor's record refused (name, vintage, currency...)."""

from __future__ import annotations

from fundportal.domain.errors import InvalidRecord

from .dispatch import describe

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
