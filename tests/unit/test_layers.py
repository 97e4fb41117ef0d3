"""The store stays below its tools and the apps: parsed imports, not conventions.

The store (`fundportal/store`) imports nothing from the ops tooling (`fundportal/ops`), the
apps or Django's views and templates; the domain imports nothing from the ops tooling.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("documents", "positions", "funds", "imports", "exports")
WEB = ("django.views", "django.template", "django.shortcuts", "django.http")
OPS = ("fundportal.ops",)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> Iterator[list[str]]:
    """For each import statement of a file, the modules it may name: relative imports resolved
    against the file's package; `from package import name` names `package` and `package.name`
    (the name may be a module)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            yield [source, *(f"{source}.{alias.name}" for alias in node.names)]


def is_under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def forbidden_imports(package: str, prefixes: tuple[str, ...], root: Path = ROOT) -> list[str]:
    """One line per import statement under `package` that names a module under `prefixes`."""
    files = sorted((root / package.replace(".", "/")).rglob("*.py"))
    assert files, f"no modules found under {package}"
    found = []
    for path in files:
        for modules in imports_of(path, root):
            hit = next((module for module in modules if is_under(module, prefixes)), None)
            if hit:
                found.append(f"{path.relative_to(root).as_posix()} imports {hit}")
    return found


@pytest.mark.parametrize(
    "forbidden",
    [pytest.param(OPS, id="ops"), pytest.param(APPS, id="apps"), pytest.param(WEB, id="django-views-templates")],
)
def test_the_store_imports_no_ops_tooling_app_or_view(forbidden):
    assert forbidden_imports("fundportal.store", forbidden) == []


def test_the_domain_imports_no_ops_tooling():
    assert forbidden_imports("fundportal.domain", OPS) == []


def test_the_import_check_sees_relative_absolute_and_from_imports(tmp_path):
    package = tmp_path / "fundportal" / "store"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "tool.py").write_text(
        "from ..ops import maintenance\n"
        "from fundportal import ops\n"
        "import documents.services\n"
        "from django.views.generic import View\n"
        "from django.conf import settings\n"
    )
    assert forbidden_imports("fundportal.store", OPS, tmp_path) == [
        "fundportal/store/tool.py imports fundportal.ops",
        "fundportal/store/tool.py imports fundportal.ops",
    ]
    assert forbidden_imports("fundportal.store", APPS, tmp_path) == [
        "fundportal/store/tool.py imports documents.services"
    ]
    assert forbidden_imports("fundportal.store", WEB, tmp_path) == [
        "fundportal/store/tool.py imports django.views.generic"
    ]
