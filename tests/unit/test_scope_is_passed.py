"""Every page and command passes its access scope on: each call from a view or a command to a
selector or service that takes `scope` names it (`scope=`), so no page silently falls back to
the operator's every-fund default. Found by parsing the edges, not by convention."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from tests.unit.test_layers import ROOT

SCOPED_MODULES = (
    "documents.selectors",
    "documents.list_selectors",
    "documents.services",
    "documents.entry_writes",
    "positions.selectors",
    "positions.services",
    "positions.merging",
    "positions.merge_selectors",
    "funds.selectors",
    "imports.services",
    "exports.statement",
    "api.selectors",
)
EDGES = ("*/views.py", "*/*_views.py", "positions/commitment.py", "*/management/commands/*.py")


def scoped_functions() -> set[str]:
    """Names of the selectors and services that take a `scope` parameter."""
    names = set()
    for module_name in SCOPED_MODULES:
        module = importlib.import_module(module_name)
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module_name and "scope" in inspect.signature(function).parameters:
                names.add(name)
    return names


def called_name(func: ast.expr) -> str:
    """`fund_detail` for `fund_detail(...)` and `selectors.fund_detail(...)` (a module of selectors
    or services under any alias); "" for anything else (`form.entry(...)` is not a selector)."""
    if isinstance(func, ast.Name):
        return func.id
    module = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(module, ast.Name) and module.id.endswith(("selectors", "services")):
        return func.attr  # type: ignore[union-attr]
    return ""


def unscoped_calls(path: Path, names: set[str], root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = called_name(node.func)
        if name in names and not any(keyword.arg == "scope" for keyword in node.keywords):
            found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} calls {name} without scope=")
    return found


def edge_files() -> list[Path]:
    files = {path for pattern in EDGES for path in ROOT.glob(pattern)}
    return sorted(path for path in files if ".venv" not in path.parts)


def test_the_scoped_selectors_and_services_are_found():
    names = scoped_functions()
    assert {"document_overview", "search", "fund_detail", "entry_record", "import_prepare"} <= names
    assert {"position_merge", "position_remove", "merge_choice", "position_to_change"} <= names


def test_every_view_and_command_passes_its_scope():
    names = scoped_functions()
    assert [line for path in edge_files() for line in unscoped_calls(path, names)] == []


def test_the_check_sees_a_call_without_scope(tmp_path):
    view = tmp_path / "views.py"
    view.write_text(
        "def get():\n"
        "    selectors.document_overview(document_id='x')\n"
        "    fund_detail(fund_id='y', scope=s)\n"
        "    form.document_overview()\n"
        "    statement_pdf(s)\n"
    )
    found = unscoped_calls(view, {"document_overview", "fund_detail"}, tmp_path)
    assert found == ["views.py:2 calls document_overview without scope="]
