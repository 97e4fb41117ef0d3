"""DynamoDB attribute values <-> Python values (Decimal for numbers, never float).

A small serializer pair instead of boto3's TypeSerializer/TypeDeserializer: the same semantics
for the types we store, several times faster on the hot read path.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def to_attr(value: Any) -> dict[str, Any]:
    # The exact built-in types first, by identity (an item's values almost always are): an
    # `isinstance` chain per value was half of typing a position register for a write.
    kind = type(value)
    if kind is str:
        return {"S": value}
    if kind is Decimal or kind is int:
        return {"N": str(value)}
    if kind is dict:
        return {"M": {k: to_attr(v) for k, v in value.items() if v is not None}}
    if kind is list or kind is tuple:
        return {"L": [to_attr(v) for v in value]}
    return _to_attr_of_subclass(value)


def _to_attr_of_subclass(value: Any) -> dict[str, Any]:
    """`to_attr` of everything else: bools, None, and subclasses of the types above."""
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, (int, Decimal)):
        return {"N": str(value)}
    if value is None:
        return {"NULL": True}
    if isinstance(value, dict):
        return {"M": {k: to_attr(v) for k, v in value.items() if v is not None}}
    if isinstance(value, (list, tuple)):
        return {"L": [to_attr(v) for v in value]}
    raise TypeError(f"cannot store {type(value).__name__} in DynamoDB (money must be Decimal)")


def to_item(values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Serialize a plain dict, leaving out None values."""
    return {k: to_attr(v) for k, v in values.items() if v is not None}


def from_attr(value: dict[str, Any]) -> Any:
    for kind, raw in value.items():
        if kind == "S":
            return raw
        if kind == "N":
            return Decimal(raw)
        if kind == "BOOL":
            return raw
        if kind == "NULL":
            return None
        if kind == "M":
            return {k: from_attr(v) for k, v in raw.items()}
        if kind == "L":
            return [from_attr(v) for v in raw]
        if kind in ("SS", "BS"):
            return set(raw)
        if kind == "NS":
            return {Decimal(v) for v in raw}
        return raw
    raise ValueError("empty attribute value")


def from_item(item: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in item.items():
        raw = value.get("S")
        if raw is not None:
            out[name] = raw
            continue
        raw = value.get("N")
        out[name] = Decimal(raw) if raw is not None else from_attr(value)
    return out
