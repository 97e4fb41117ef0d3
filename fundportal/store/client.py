"""The boto3 DynamoDB client, created lazily from settings (one per settings, thread-safe).

Requests are made by `gateway.call`, never here. Optional parts (e.g. `fundportal.perf`'s fast
Query parse) adjust each new client through `add_client_customizer`, on botocore's public API.

Background jobs write `paced()`: inside the block every client is made with botocore's
`adaptive` retry mode (`DYNAMODB_JOB_RETRY_MODE`), whose client-side token bucket slows the
requests down as soon as DynamoDB throttles them, instead of retrying at full speed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, Literal

import boto3
from botocore.config import Config
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

RetryMode = Literal["legacy", "standard", "adaptive"]
RETRY_MODES: tuple[RetryMode, ...] = ("legacy", "standard", "adaptive")


@dataclass(frozen=True)
class ClientSettings:
    endpoint_url: str | None
    region: str
    max_attempts: int
    connect_timeout: float
    read_timeout: float
    max_pool_connections: int
    retry_mode: RetryMode = "standard"

    @classmethod
    def from_django(cls) -> ClientSettings:
        return cls(
            endpoint_url=getattr(settings, "DYNAMODB_ENDPOINT_URL", None) or None,
            region=getattr(settings, "AWS_REGION", "us-east-1"),
            max_attempts=int(getattr(settings, "DYNAMODB_MAX_ATTEMPTS", 4)),
            connect_timeout=getattr(settings, "DYNAMODB_CONNECT_TIMEOUT", 1.0),
            read_timeout=getattr(settings, "DYNAMODB_READ_TIMEOUT", 3.0),
            max_pool_connections=int(getattr(settings, "DYNAMODB_MAX_POOL_CONNECTIONS", 32)),
            retry_mode=_retry_mode.get() or "standard",
        )

    def botocore_config(self) -> Config:
        return Config(
            # total_max_attempts counts the first try; botocore's "max_attempts" would count retries only.
            retries={"mode": self.retry_mode, "total_max_attempts": self.max_attempts},
            connect_timeout=self.connect_timeout,
            read_timeout=self.read_timeout,
            max_pool_connections=self.max_pool_connections,
            region_name=self.region,
            # Requests are built by this layer from typed entities and DynamoDB validates every
            # request itself; botocore's client-side walk of each attribute value is pure cost
            # on bulk loads (measured in bench/).
            parameter_validation=False,
        )


ClientCustomizer = Callable[[Any], None]

_retry_mode: ContextVar[RetryMode | None] = ContextVar("dynamodb_retry_mode", default=None)


def _as_retry_mode(value: str) -> RetryMode:
    for mode in RETRY_MODES:
        if mode == value:
            return mode
    raise ImproperlyConfigured(f"DYNAMODB_JOB_RETRY_MODE must be one of {', '.join(RETRY_MODES)}, not {value!r}")


@contextmanager
def paced() -> Iterator[None]:
    """Requests inside the block use the jobs' retry mode (`adaptive`: paced by a client-side
    token bucket that fills at the rate DynamoDB accepts)."""
    token = _retry_mode.set(_as_retry_mode(str(getattr(settings, "DYNAMODB_JOB_RETRY_MODE", "adaptive"))))
    try:
        yield
    finally:
        _retry_mode.reset(token)


def retry_mode() -> RetryMode:
    """The retry mode of the clients made here now."""
    return ClientSettings.from_django().retry_mode


_lock = threading.Lock()
_clients: dict[ClientSettings, Any] = {}
_customizers: list[ClientCustomizer] = []


def add_client_customizer(customizer: ClientCustomizer) -> None:
    """Call `customizer(client)` on every client created from now on (e.g. to register a
    botocore event handler); clients made before are forgotten so none misses it."""
    with _lock:
        if customizer not in _customizers:
            _customizers.append(customizer)
        _clients.clear()


def client_customizers() -> tuple[ClientCustomizer, ...]:
    return tuple(_customizers)


def remove_client_customizer(customizer: ClientCustomizer) -> None:
    with _lock:
        if customizer in _customizers:
            _customizers.remove(customizer)
        _clients.clear()


def get_client(limits: tuple[float, float, int] | None = None) -> Any:
    """The botocore DynamoDB client for the current settings; `limits` (connect timeout, read
    timeout, attempts) overrides the settings so a call fits the request's time budget."""
    config = ClientSettings.from_django()
    if limits is not None:
        connect_timeout, read_timeout, max_attempts = limits
        config = replace(config, connect_timeout=connect_timeout, read_timeout=read_timeout, max_attempts=max_attempts)
    client = _clients.get(config)
    if client is None:
        with _lock:
            client = _clients.get(config)
            if client is None:
                client = _clients[config] = _new_client(config)
    return client


def _new_client(config: ClientSettings) -> Any:
    kwargs: dict[str, Any] = {"config": config.botocore_config(), "region_name": config.region}
    session = boto3.session.Session()
    if config.endpoint_url:
        kwargs["endpoint_url"] = config.endpoint_url
        # DynamoDB Local accepts any credentials; don't require real ones locally.
        if session.get_credentials() is None:
            kwargs.update(aws_access_key_id="local", aws_secret_access_key="local")  # noqa: S106
    client = session.client("dynamodb", **kwargs)
    for customize in _customizers:
        customize(client)
    return client


def reset_clients() -> None:
    """Forget every client (tests call this when a mock starts or stops)."""
    with _lock:
        _clients.clear()


def table_name() -> str:
    return settings.DYNAMODB_TABLE
