"""How an entity is stored, declared once: its attributes (name, codec, default) and its keys on
the table and on every index together, as one `EntityMap`, from which its item is derived. An
index key function returning None leaves the item out of that (sparse) index. Key strings come
from `keys`; attribute names of the indexes from the one schema (`schema.TABLE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..schema import TABLE
from .codecs import TEXT, Codec

KeyPair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Attribute:
    """A field kept in DynamoDB attribute `name`; `default` when the item lacks it; `value`
    (optional) computes what is kept from the whole entity instead of the field alone."""

    field: str
    name: str
    codec: Codec = TEXT
    default: Any = None
    value: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class EntityMap:
    """One entity's storage: its class, EntityType, attributes, and keys per index (the table's
    own PK/SK under `TABLE.name`). `stamp` adds constant attributes (Version); `read_keys` sets
    the fields an item holds only in its keys (a document id in PK, a version in SK);
    `companions` names the constant items its write brings along for the catalog and search
    indexes (`companions`)."""

    cls: type
    entity_type: str
    table: Callable[[Any], KeyPair]
    attributes: tuple[Attribute, ...] = ()
    indexes: dict[str, Callable[[Any], KeyPair | None]] = field(default_factory=dict)
    stamp: Callable[[Any], dict[str, Any]] | None = None
    read_keys: Callable[[dict[str, Any], dict[str, Any]], None] | None = None
    companions: Callable[[Any], list[Any]] | None = None
    # Derived once: (field, attribute, decode or None for a value kept as read, default).
    decoders: tuple[tuple[str, str, Callable[[Any], Any] | None, Any], ...] = field(init=False)
    index_names: tuple[tuple[str, str, Callable[[Any], KeyPair | None]], ...] = field(init=False)

    def __post_init__(self) -> None:
        decoders = tuple(
            (a.field, a.name, None if a.codec.reads_as_is else a.codec.decode, a.default) for a in self.attributes
        )
        object.__setattr__(self, "decoders", decoders)
        names = tuple((TABLE.index(n).pk, TABLE.index(n).sk, keys_of) for n, keys_of in self.indexes.items())
        object.__setattr__(self, "index_names", names)

    def to_item(self, entity: Any) -> dict[str, Any]:
        pk, sk = self.table(entity)
        item = {TABLE.pk: pk, TABLE.sk: sk, "EntityType": self.entity_type}
        if self.stamp is not None:
            item.update(self.stamp(entity))
        for attribute in self.attributes:
            raw = attribute.value(entity) if attribute.value else getattr(entity, attribute.field)
            value = attribute.codec.encode(raw)
            if value is not None:
                item[attribute.name] = value
        for pk_name, sk_name, keys_of in self.index_names:
            found = keys_of(entity)
            if found is not None:
                item[pk_name], item[sk_name] = found
        return item

    def from_item(self, item: dict[str, Any]) -> Any:
        values = {}
        for name, attribute, decode, default in self.decoders:
            raw = item.get(attribute)
            values[name] = default if raw is None else raw if decode is None else decode(raw)
        if self.read_keys is not None:
            self.read_keys(item, values)
        return self.cls(**values)
