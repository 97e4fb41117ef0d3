"""The wording of errors every page and command meets: ids, not found, already there, changed meanwhile."""

from __future__ import annotations

from fundportal.domain.errors import (
    AlreadyExists,
    Conflict,
    InvalidId,
    ItemTooLarge,
    NotFound,
    SpelledOtherwise,
)

from .dispatch import describe

ID_RULE = "use 1-64 letters, digits, '_', '-' or '.' (not only dots)"


@describe.register
def _(error: SpelledOtherwise) -> str:
    return (
        f"The {error.what} '{str(error.value)[:80]}' differs only by case from the existing "
        f"{error.existing}; did you mean {error.existing}?"
    )


@describe.register
def _(error: InvalidId) -> str:
    value = error.value
    shown = repr(value) if not isinstance(value, str) else f"'{value[:80]}'"
    if error.what.endswith("id"):
        return f"Invalid {error.what} {shown}: {ID_RULE}"
    return f"Invalid {error.what} {shown}."


@describe.register
def _(error: NotFound) -> str:
    return f"{error.what} '{error.key}' was not found."


@describe.register
def _(error: AlreadyExists) -> str:
    return f"{error.what} '{error.key}' already exists."


@describe.register
def _(error: Conflict) -> str:
    who = f" by {error.updated_by}" if error.updated_by else ""
    when = f" at {error.updated_at:%Y-%m-%d %H:%M:%S} UTC" if error.updated_at else ""
    revisions = (
        f" (now revision {error.current_revision}, you loaded revision {error.expected_revision})"
        if error.expected_revision is not None
        else ""
    )
    return f"{error.what} '{error.key}' was changed{who}{when}{revisions}. Reload and apply your change again."


@describe.register
def _(error: ItemTooLarge) -> str:
    return f"The item is {error.size:,} bytes; DynamoDB accepts at most {error.limit:,} bytes per item."
