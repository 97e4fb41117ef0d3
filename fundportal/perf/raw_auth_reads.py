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
- `read_token`: an API call's token and its user (`api.tokens.read_active`'s rows: the same
  digest, revocation and expiry tests), installed by `PerfConfig.ready()` (`api.tokens.use_reader`).

Installed through the settings (`SESSION_ENGINE`, `AUTHENTICATION_BACKENDS`) and, for tokens,
`PerfConfig.ready()`; chosen in one
place by `AUTH_RAW_READS` (`FUNDPORTAL_AUTH_RAW_READS`, off with `FUNDPORTAL_SPEED_TRICKS=off`).
A session records its backend's path: switching the setting signs everyone out once (a session
whose backend is not configured is refused, as Django does).
"""

from __future__ import annotations

import functools
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
class _Read:
    """What reading one row of a model on one database takes, made once: the statement, the
    fields preparing its values, the columns' names and the converters of each column a
    queryset would convert (`DatabaseOperations.get_db_converters`, `Field.get_db_converters`)."""

    sql: str
    prepare: tuple[models.Field, ...]
    attnames: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]  # (column index, converters, column)


@functools.lru_cache(maxsize=16)
def _read(model: type[models.Model], alias: str, where: tuple[Condition, ...]) -> _Read:
    connection = connections[alias]
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((index, tuple(found), column))
    return _Read(
        sql=_select(model, alias, where),
        prepare=tuple(_field(model, name) for name, _ in where),
        attnames=tuple(field.attname for field in fields),
        converters=tuple(converters),
    )


def select_one(model: type[models.Model], where: tuple[Condition, ...], values: list[Any]) -> Any:
    """The row of `model` matching `where` with `values` (a key: one row or none), or None. Each
    value is prepared by its field for the database, and the row converted back and made an
    instance, as a queryset does (`Field.get_db_prep_value`, the columns' converters,
    `Model.from_db`), through a cursor (`connection.cursor()`): no queryset built per read."""
    alias = router.db_for_read(model)
    connection = connections[alias]
    read = _read(model, alias, where)
    params = [field.get_db_prep_value(value, connection) for field, value in zip(read.prepare, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(read.sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    shown = list(row)
    for index, converters, column in read.converters:
        value = shown[index]
        for convert in converters:
            value = convert(value, column, connection)
        shown[index] = value
    return model.from_db(alias, read.attnames, shown)


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
    or None: two fixed statements (the token by its unique digest, its user by key) instead of
    a joined queryset compiled on every call."""
    from api.models import ApiToken

    record = select_one(ApiToken, (("digest", "="), ("expires_at", ">")), [digest, now])
    if record is None or record.revoked_at is not None:
        return None
    user_model = get_user_model()
    user = select_one(user_model, ((user_model._meta.pk.name, "="),), [record.user_id])
    if user is None:
        return None
    record.user = user
    return record
