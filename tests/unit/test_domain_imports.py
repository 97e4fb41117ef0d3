"""Static check: the domain is the ground floor. No module of fundportal/domain imports the
store, Django, boto3/botocore or any package of ours other than the domain itself; pure
third-party libraries (moneyed, pyxirr, babel) and the standard library are fine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "fundportal" / "domain"
DOMAIN_PACKAGE = "fundportal.domain"
FORBIDDEN_THIRD_PARTY = ("django", "boto3", "botocore")
# Top-level packages of this project: the domain may import none of them but itself.
OURS = frozenset(path.name for path in ROOT.iterdir() if path.is_dir() and (path / "__init__.py").exists()) | frozenset(
    path.stem for path in ROOT.glob("*.py")
)


def imported_modules(source: str, module: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in `source`, relative ones resolved
    against `module` (the dotted name of the file, e.g. fundportal.domain.figures)."""
    package = module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def refused(name: str) -> str | None:
    """Why the domain may not import `name`, or None when it may."""
    top = name.split(".")[0]
    if name == DOMAIN_PACKAGE or name.startswith(DOMAIN_PACKAGE + "."):
        return None
    if top in FORBIDDEN_THIRD_PARTY:
        return f"{top} is infrastructure"
    if top in OURS:
        return "a project package other than the domain"
    return None


def import_violations(source: str, module: str) -> list[str]:
    return [
        f"{module}:{line}: imports {name} ({why})"
        for line, name in imported_modules(source, module)
        if (why := refused(name)) is not None
    ]


def domain_modules() -> list[Path]:
    return sorted(DOMAIN.rglob("*.py"))


def module_name(path: Path) -> str:
    """fundportal.domain.figures; a package's __init__ keeps its name (relative imports resolve
    against the package)."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def test_the_scan_covers_the_domain():
    names = {path.name for path in domain_modules()}
    assert {"kinds.py", "errors.py", "model.py", "figures.py", "returns.py"} <= names


def test_the_domain_imports_nothing_of_the_store_django_boto3_or_other_packages_of_ours():
    violations = [v for path in domain_modules() for v in import_violations(path.read_text(), module_name(path))]
    assert violations == [], "fundportal/domain must import nothing of ours:\n" + "\n".join(violations)


@pytest.mark.parametrize(
    "snippet",
    [
        "from fundportal.store.mapping.keys import Kind",
        "from fundportal.store.mapping import keys",
        "import fundportal.store.errors",
        "from fundportal.store.mapping.entities import to_item",
        "from ..store.mapping.keys import Kind",
        "from .. import messages",
        "from django.conf import settings",
        "import boto3",
        "from botocore.exceptions import ClientError",
        "from documents.services import document_create",
        "def f():\n    from positions import selectors",
    ],
)
def test_the_check_catches_each_way_of_importing_the_outside(snippet):
    assert import_violations(snippet, "fundportal.domain.figures"), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        "from .kinds import Kind",
        "from . import money",
        "from fundportal.domain.errors import NotFound",
        "import fundportal.domain.returns",
        "from moneyed import Money",
        "import pyxirr",
        "from babel.numbers import get_currency_precision",
        "from decimal import Decimal",
    ],
)
def test_the_check_lets_the_domain_and_pure_libraries_through(snippet):
    assert import_violations(snippet, "fundportal.domain.figures") == []


def test_the_project_packages_are_known():
    assert {"fundportal", "documents", "positions", "imports", "bench"} <= OURS
    assert "pyxirr" not in OURS
