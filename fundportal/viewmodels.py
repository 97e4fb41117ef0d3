"""Small helpers the selectors and views share to build view models."""

from __future__ import annotations

from typing import Any


def vars_of(model: Any) -> dict[str, Any]:
    """A view model's fields as template variables (slots dataclasses have no __dict__)."""
    return {name: getattr(model, name) for name in model.__dataclass_fields__}
