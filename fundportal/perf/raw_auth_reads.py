"""A speed-up, kept apart: the two reads every signed-in request makes (its session, its user)
as one fixed SQL statement each, run on Django's database cursor and made an instance by
`Model.from_db` (public APIs), instead of a queryset built and compiled to SQL on every request.

Nothing is kept between requests: the session row and the user row are read from the shared
database on every request, exactly as Django's own classes read them (the same rows, the same
expiry test, the same converters, the same "may this user sign in" check), so a sign-out, a
deactivation, a password change or a revoked permission holds on the next request on every
worker. Only the building of the SQL is skipped: its text depends on the models and the
database alone, and is made once per database.

- `SessionStore`: Django's database session store (`django.contrib.sessions.backends.db`) whose
  read is one fixed statement (`select_one`); writes (sign-in, sign-out, changes) are Django's own.
- `RawReadModelBackend`: Django's `ModelBackend` whose `get_user` is one fixed statement
  (`authenticate` and the permission checks are Django's own).
- `read_token`: an API call's token and its user in one statement, the token joined to its user
  (`api.tokens.read_active`'s rows: the same digest, revocation and expiry tests), installed by
  `PerfConfig.ready()` (`api.tokens.use_reader`).

Installed through the settings (`SESSION_ENGINE`, `AUTHENTICATION_BACKENDS`) and, for tokens,
`PerfConfig.ready()`; chosen in one
place by `AUTH_RAW_READS` (`FUNDPORTAL_AUTH_RAW_READS`, off with `FUNDPORTAL_SPEED_TRICKS=off`).
A session records its backend's path: switching the setting signs everyone out once (a session
whose backend is not configured is refused, as Django does).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, models, router
from django.utils import timezone

Condition = tuple[str, str]  # (field name, SQL comparison), e.g. ("expire_date", ">")


def _field(model: type[models.Model], name: str) -> models.Field:
    """The model's own (concrete) field `name`."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.concrete:
        raise ValueError(f"{model.__name__}.{name} is not a column")
    return field


@functools.lru_cache(maxsize=16)
def _select(model: type[models.Model], alias: str, where: tuple[Condition, ...]) -> str:
    """`SELECT <every column> FROM <table> WHERE <field> <comparison> %s AND ...` for `model` on
    database `alias`, names quoted by that database's rules."""
    quote = connections[alias].ops.quote_name
    columns = ", ".join(quote(str(field.column)) for field in model._meta.concrete_fields)
    conditions = " AND ".join(f"{quote(str(_field(model, name).column))} {op} %s" for name, op in where)
    return f"SELECT {columns} FROM {quote(model._meta.db_table)} WHERE {conditions}"  # noqa: S608


@dataclass(frozen=True, slots=True)
class _Row:
    """How one model's columns come back as an instance, made once: the columns' names and the
    converters of each column a queryset would convert (`DatabaseOperations.get_db_converters`,
    `Field.get_db_converters`)."""

    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]  # (column index, converters, column)


@dataclass(frozen=True, slots=True)
class _Read:
    """What reading one row (of a model, or of a model joined to a related one) on one database
    takes, made once: the statement, the fields preparing its values and each model's columns."""

    sql: str
    prepare: tuple[models.Field, ...]
    rows: tuple[_Row, ...]  # the model's columns, then the related model's (a join)


@functools.lru_cache(maxsize=16)
def _row(model: type[models.Model], alias: str) -> _Row:
    connection = connections[alias]
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((index, tuple(found), column))
    return _Row(attnames=tuple(field.attname for field in fields), converters=tuple(converters))


@functools.lru_cache(maxsize=16)
def _read(model: type[models.Model], alias: str, where: tuple[Condition, ...]) -> _Read:
    return _Read(
        sql=_select(model, alias, where),
        prepare=tuple(_field(model, name) for name, _ in where),
        rows=(_row(model, alias),),
    )


@functools.lru_cache(maxsize=16)
def _joined_read(model: type[models.Model], relation: str, alias: str, where: tuple[Condition, ...]) -> _Read:
    """`SELECT <model's columns>, <related model's columns> FROM <model's table> INNER JOIN
    <related table> ON <its key> = <model's foreign key> WHERE ...`: what
    `select_related(relation)` asks of a foreign key that cannot be null, names quoted by the
    database's rules."""
    relation_field = _field(model, relation)
    related = relation_field.related_model
    if not isinstance(relation_field, models.ForeignKey) or relation_field.null or not isinstance(related, type):
        raise ValueError(f"{model.__name__}.{relation} is not a required foreign key")
    quote = connections[alias].ops.quote_name
    table, other = quote(model._meta.db_table), quote(related._meta.db_table)

    def columns(of: type[models.Model], qualifier: str) -> str:
        return ", ".join(f"{qualifier}.{quote(str(field.column))}" for field in of._meta.concrete_fields)

    conditions = " AND ".join(f"{table}.{quote(str(_field(model, name).column))} {op} %s" for name, op in where)
    key = f"{other}.{quote(str(related._meta.pk.column))} = {table}.{quote(str(relation_field.column))}"
    return _Read(
        sql=f"SELECT {columns(model, table)}, {columns(related, other)} FROM {table} "  # noqa: S608
        f"INNER JOIN {other} ON {key} WHERE {conditions}",
        prepare=tuple(_field(model, name) for name, _ in where),
        rows=(_row(model, alias), _row(related, alias)),
    )


def _fetch(alias: str, read: _Read, values: list[Any]) -> tuple[Any, ...] | None:
    """The one row `read`'s statement finds with `values` (each prepared by its field for the
    database, as a queryset prepares it), through a cursor (`connection.cursor()`)."""
    connection = connections[alias]
    params = [field.get_db_prep_value(value, connection) for field, value in zip(read.prepare, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(read.sql, params)
        return cursor.fetchone()


def _instance(model: type[models.Model], alias: str, row: _Row, values: Sequence[Any]) -> Any:
    """`values` (the model's columns) converted back and made an instance, as a queryset does
    (the columns' converters, `Model.from_db`)."""
    shown = list(values)
    connection = connections[alias]
    for index, converters, column in row.converters:
        value = shown[index]
        for convert in converters:
            value = convert(value, column, connection)
        shown[index] = value
    return model.from_db(alias, row.attnames, shown)


def select_one(model: type[models.Model], where: tuple[Condition, ...], values: list[Any]) -> Any:
    """The row of `model` matching `where` with `values` (a key: one row or none) as an instance,
    or None: one fixed statement, no queryset built per read."""
    alias = router.db_for_read(model)
    read = _read(model, alias, where)
    found = _fetch(alias, read, values)
    return None if found is None else _instance(model, alias, read.rows[0], found)


def select_one_with(model: type[models.Model], relation: str, where: tuple[Condition, ...], values: list[Any]) -> Any:
    """As `select_one`, with the row's required foreign key `relation` read in the same statement
    (a join, as `select_related(relation)` reads it) and set on the instance; None when no row."""
    alias = router.db_for_read(model)
    read = _joined_read(model, relation, alias, where)
    found = _fetch(alias, read, values)
    if found is None:
        return None
    own, related = read.rows
    instance = _instance(model, alias, own, found[: len(own.attnames)])
    related_model = _field(model, relation).related_model
    setattr(instance, relation, _instance(related_model, alias, related, found[len(own.attnames) :]))  # type: ignore[arg-type]
    return instance


class SessionStore(DatabaseSessionStore):
    """Django's database session store; the session row read by one fixed statement."""

    def _get_session_from_db(self) -> Any:
        session = None
        if self.session_key is not None:
            session = select_one(
                self.model, (("session_key", "="), ("expire_date", ">")), [self.session_key, timezone.now()]
            )
        if session is None:
            self._session_key = None
        return session


class RawReadModelBackend(ModelBackend):
    """Django's `ModelBackend`; the signed-in user read by one fixed statement."""

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        user = select_one(user_model, ((user_model._meta.pk.name, "="),), [user_id])
        return user if user is not None and self.user_can_authenticate(user) else None


def read_token(digest: str, now: Any) -> Any:
    """The API token with `digest` that is not revoked and not expired at `now`, its `user` set,
    or None: one fixed statement (the token by its unique digest joined to its user, as
    `select_related("user")` reads them) instead of a joined queryset compiled on every call."""
    from api.models import ApiToken

    record = select_one_with(ApiToken, "user", (("digest", "="), ("expires_at", ">")), [digest, now])
    if record is None or record.revoked_at is not None:
        return None
    return record
