"""The newcomer and production path (settings, scripts, README, docs)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fundportal import dynamodb_local

ROOT = Path(__file__).resolve().parents[2]


def _settings(module: str) -> dict:
    """STORAGES and friends of a settings module, imported in a clean interpreter."""
    fields = (
        "{'storage': m.STORAGES['staticfiles']['BACKEND'], "
        "'finders': getattr(m, 'WHITENOISE_USE_FINDERS', False), "
        "'proxy': list(getattr(m, 'SECURE_PROXY_SSL_HEADER', None) or [])}"
    )
    code = f"import importlib, json; m = importlib.import_module({module!r}); print(json.dumps({fields}))"
    env = {**os.environ, "DJANGO_SECRET_KEY": "x" * 64, "DJANGO_SETTINGS_MODULE": module}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_local_settings_need_no_collectstatic():
    """Was: the manifest storage everywhere, so the manual local path 500'd on every page."""
    local = _settings("fundportal.settings.local")
    assert "Manifest" not in local["storage"]
    assert local["finders"] is True


def test_production_uses_the_manifest_behind_a_tls_proxy():
    production = _settings("fundportal.settings.production")
    assert production["storage"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert production["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_in_memory_dynamodb_local_is_shared_across_credentials():
    """Was: `serve --in-memory` without -sharedDb: other tools saw no table."""
    assert "-sharedDb" in dynamodb_local.command_line(8100, in_memory=True)
    assert "-inMemory" in dynamodb_local.command_line(8100, in_memory=True)


def test_make_run_takes_port_and_prepares_the_cache_table():
    script = (ROOT / "scripts" / "run.sh").read_text()
    assert 'PORT="${PORT:-8000}"' in script
    assert '--bind "127.0.0.1:$PORT"' in script
    assert "manage.py createcachetable" in script
    assert "collectstatic" in script


def test_the_chromium_install_waits_for_the_apt_lock():
    script = (ROOT / "scripts" / "ensure_chromium.sh").read_text()
    assert "DPkg::Lock::Timeout=300" in script


def test_the_readme_is_self_contained():
    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).is_file(), target
    assert (ROOT / "docs" / "DESIGN.md").is_file()
    assert (ROOT / "docs" / "000_b2c4ef86bd8dfbd9.txt").is_file()


@pytest.mark.parametrize(
    "step",
    [
        "manage.py collectstatic --noinput",
        "manage.py createcachetable",
        "--timeout",
        "X-Forwarded-Proto",
        "DJANGO_SECURE_SSL_REDIRECT=false",
    ],
)
def test_the_production_recipe_is_complete(step):
    readme = (ROOT / "README.md").read_text()
    recipe = readme[readme.index("## Production") :]
    recipe = recipe[: recipe.index("\n## ", 5)]
    assert step in recipe
