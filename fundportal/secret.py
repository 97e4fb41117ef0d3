"""A random SECRET_KEY kept per checkout under var/ for local runs (never committed)."""

from pathlib import Path

from django.core.management.utils import get_random_secret_key


def local_secret_key(var_dir: Path) -> str:
    path = var_dir / "secret_key"
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()
