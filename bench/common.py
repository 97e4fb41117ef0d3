"""What every section shares: timing (interleaved trials, medians), boto3 clients on the
bench's DynamoDB Local, a parallel BatchWriteItem loader, machine and version info."""

from __future__ import annotations

import gc
import os
import platform
import random
import statistics
import time
import zipfile
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import boto3
from botocore.config import Config

REGION = "us-east-1"


def credentials() -> dict[str, str]:
    """The process's (fake) keys: DynamoDB Local keeps one database per access key, so every
    client of a run - ours, the data layer's, PynamoDB's, gunicorn's - must use the same."""
    return {
        "aws_access_key_id": os.environ.get("AWS_ACCESS_KEY_ID", "local"),
        "aws_secret_access_key": os.environ.get("AWS_SECRET_ACCESS_KEY", "local"),
    }


@dataclass
class Samples:
    """Per-trial wall-clock and client-CPU milliseconds of one contender."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def p95(self) -> float:
        return percentile(self.wall, 95)

    @property
    def trials(self) -> int:
        return len(self.wall)


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: a reported p95 is a measured value)."""
    ordered = sorted(values)
    rank = max(1, round(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall ms, process CPU ms, result) of one call."""
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    result = fn()
    wall = (time.perf_counter() - wall0) * 1000
    cpu = (time.process_time() - cpu0) * 1000
    return wall, cpu, result


def interleave(
    contenders: dict[str, Callable[[], Any]],
    trials: int,
    warmup: int = 3,
    seed: int = 8,
    trials_for: dict[str, int] | None = None,
) -> dict[str, Samples]:
    """Run every contender once per trial, in a shuffled order each trial, so all ratios
    come from the same moments of the same run. `trials_for` caps slow contenders."""
    rng = random.Random(seed)
    names = list(contenders)
    for _ in range(warmup):
        for name in names:
            contenders[name]()
    samples = {name: Samples() for name in names}
    for trial in range(trials):
        order = names[:]
        rng.shuffle(order)
        gc.collect()
        for name in order:
            if trials_for and trial >= trials_for.get(name, trials):
                continue
            wall, cpu, _ = timed(contenders[name])
            samples[name].wall.append(wall)
            samples[name].cpu.append(cpu)
    return samples


def botocore_config(pool: int = 32) -> Config:
    return Config(retries={"mode": "standard", "max_attempts": 4}, max_pool_connections=pool, read_timeout=60)


def raw_client(endpoint: str, pool: int = 32) -> Any:
    """A plain boto3 DynamoDB client, configured like the data layer's."""
    return boto3.session.Session().client(
        "dynamodb", endpoint_url=endpoint, region_name=REGION, config=botocore_config(pool), **credentials()
    )


def resource_table(endpoint: str, table: str) -> Any:
    resource = boto3.session.Session().resource(
        "dynamodb", endpoint_url=endpoint, region_name=REGION, config=botocore_config(), **credentials()
    )
    return resource.Table(table)


def batches(items: Iterable[dict[str, Any]], size: int = 25) -> Iterable[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def write_batch(client: Any, table: str, batch: list[dict[str, Any]]) -> int:
    """One BatchWriteItem of typed items, retrying unprocessed ones with backoff."""
    pending = [{"PutRequest": {"Item": item}} for item in batch]
    for attempt in range(12):
        response = client.batch_write_item(RequestItems={table: pending})
        pending = response.get("UnprocessedItems", {}).get(table, [])
        if not pending:
            return len(batch)
        time.sleep(random.uniform(0, min(2.0, 0.05 * 2**attempt)))
    raise RuntimeError(f"{len(pending)} items still unprocessed in {table}")


def load(client: Any, table: str, typed_items: Iterable[dict[str, Any]], workers: int = 8) -> int:
    """Load typed items with BatchWriteItem (25 a request) over `workers` threads."""
    if workers <= 1:
        return sum(write_batch(client, table, batch) for batch in batches(typed_items))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return sum(pool.map(lambda batch: write_batch(client, table, batch), batches(typed_items)))


def create_simple_table(client: Any, name: str) -> None:
    """A PK/SK table without indexes (the alternative layouts of section 1)."""
    client.create_table(
        TableName=name,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("PK", "SK")],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
    )
    client.get_waiter("table_exists").wait(TableName=name)


def dynamodb_local_version() -> str:
    from fundportal.dynamodb_local import EMULATOR_DIR

    try:
        with zipfile.ZipFile(EMULATOR_DIR / "DynamoDBLocal.jar") as jar:
            props = jar.read("META-INF/maven/com/amazonaws/DynamoDBLocal/pom.properties").decode()
    except (OSError, KeyError):
        return "unknown"
    return next((line.split("=", 1)[1] for line in props.splitlines() if line.startswith("version=")), "unknown")


def machine_info() -> dict[str, Any]:
    import botocore
    import django
    import pynamodb

    return {
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "boto3": boto3.__version__,
        "botocore": botocore.__version__,
        "pynamodb": pynamodb.__version__,
        "dynamodb_local": dynamodb_local_version(),
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
