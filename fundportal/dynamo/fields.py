"""How an entity's fields are stored: each field of an entity (`fundportal.dynamo.entities`) is
declared with `stored(attribute, codec, default)`, and `encode_fields` / `decode_fields` turn an
entity into its DynamoDB attributes and back from that declaration alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from functools import cache
from typing import Any

from .schema import TABLE


@dataclass(frozen=True, slots=True)
class Codec:
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def _same(value: Any) -> Any:
    return value


TEXT = Codec(_same, _same)
OPTIONAL_TEXT = Codec(lambda v: v or None, lambda v: v or "")
NUMBER = Codec(_same, _same)  # Decimal in, Decimal out (the serializer never makes floats)
INTEGER = Codec(_same, int)
DATE = Codec(_iso, lambda v: date.fromisoformat(v) if v else None)
DATETIME = Codec(_iso, lambda v: datetime.fromisoformat(v) if v else None)


def stored(attribute: str, codec: Codec = TEXT, default: Any = None) -> Any:
    """A dataclass field kept in DynamoDB attribute `attribute` (its default stated here only)."""
    return field(default=default, metadata={"attribute": attribute, "codec": codec})


@cache
def stored_fields(cls: type) -> tuple[tuple[str, str, Codec, Any], ...]:
    """(field name, attribute, codec, default) for every stored field of `cls`."""
    return tuple(
        (f.name, f.metadata["attribute"], f.metadata["codec"], f.default)
        for f in fields(cls)
        if "attribute" in f.metadata
    )


@cache
def decoders(cls: type) -> tuple[tuple[str, str, Callable[[Any], Any] | None, Any], ...]:
    """`stored_fields` for reading: (field name, attribute, decode or None for a value kept as
    read, default). A Query decodes every field of every item (3,000 items for a 1,000-position
    document): most fields are text, whose decode would be a call returning its argument."""
    return tuple(
        (name, attribute, None if codec.decode is _same else codec.decode, default)
        for name, attribute, codec, default in stored_fields(cls)
    )


def encode_fields(entity: Any) -> dict[str, Any]:
    item = {}
    for name, attribute, codec, _ in stored_fields(type(entity)):
        value = codec.encode(getattr(entity, name))
        if value is not None:
            item[attribute] = value
    return item


def decode_fields(cls: type, item: dict[str, Any]) -> dict[str, Any]:
    values = {}
    for name, attribute, decode, default in decoders(cls):
        raw = item.get(attribute)
        values[name] = default if raw is None else raw if decode is None else decode(raw)
    return values


def index_attributes(index_name: str, pk: str, sk: str) -> dict[str, str]:
    index = TABLE.index(index_name)
    return {index.pk: pk, index.sk: sk}
