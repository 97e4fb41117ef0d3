"""The apps import each other in one direction only, never back: parsed imports, not conventions.

From top to bottom (README, "Architecture"): the edges `imports` and `exports`, then `documents`,
`positions`, `funds`. An app may import the apps on the floors below its own, never one on its
own floor or above, so no two apps can import each other, directly or round a cycle. What several
apps share sits in `fundportal.web`, which imports no app; `fundportal.urls` mounts the apps.
The apps (views, forms, services, selectors, their commands), the shared edge and the project's
commands name domain things only: none imports the store's mapping (entities, keys, companion
items) or its table gateway. Every import counts: module-level, inside a function, relative or
absolute.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tests.unit.test_layers import ROOT, forbidden_imports, imports_of

FLOORS = (
    ("imports", "exports", "api"),  # edges: write, download or serve the API through the apps below
    ("documents",),
    ("positions",),
    ("funds",),
)
APPS = tuple(app for floor in FLOORS for app in floor)
FLOOR_OF = {app: level for level, floor in enumerate(FLOORS) for app in floor}
# What only the store sees: how entities become items, and the requests that carry them.
STORE_INTERNALS = ("fundportal.store.mapping", "fundportal.store.gateway")
ABOVE_THE_STORE = (*APPS, "fundportal.web", "fundportal.management")


def app_imports(app: str, root: Path = ROOT) -> Iterator[tuple[str, str]]:
    """(file, other app) for each import statement of `app` that names another app."""
    files = sorted((root / app).rglob("*.py"))
    assert files, f"no modules found under {app}"
    for path in files:
        for modules in imports_of(path, root):
            other = next((m.split(".")[0] for m in modules if m.split(".")[0] in APPS and m.split(".")[0] != app), None)
            if other:
                yield path.relative_to(root).as_posix(), other


def imports_against_the_direction(root: Path = ROOT) -> list[str]:
    """One line per import of an app on the same floor or above."""
    return [
        f"{file} imports {other}"
        for app in APPS
        if (root / app).is_dir()
        for file, other in app_imports(app, root)
        if FLOOR_OF[other] <= FLOOR_OF[app]
    ]


def app_cycles(root: Path = ROOT) -> list[list[str]]:
    """Each cycle of the graph "app imports app", as the apps round it (first one repeated)."""
    graph = {app: sorted({other for _, other in app_imports(app, root)}) for app in APPS if (root / app).is_dir()}
    cycles: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for other in graph.get(path[-1], []):
            if other == path[0]:
                cycles.append([*path, other])
            elif other not in path and other > path[0]:  # each cycle once, from its smallest app
                walk([*path, other])

    for app in sorted(graph):
        walk([app])
    return cycles


def test_no_app_imports_an_app_on_its_own_floor_or_above():
    assert imports_against_the_direction() == []


def test_no_import_cycle_between_apps():
    assert app_cycles() == []


def test_the_shared_edge_imports_no_app():
    found = [
        f"{path.relative_to(ROOT).as_posix()} imports {module}"
        for path in sorted((ROOT / "fundportal" / "web").rglob("*.py"))
        for modules in imports_of(path, ROOT)
        for module in modules[:1]
        if module.split(".")[0] in APPS
    ]
    assert found == []


def store_internals_imported(root: Path = ROOT) -> list[str]:
    """One line per import of the store's mapping or gateway by an app, the shared edge or a command."""
    return [
        line
        for package in ABOVE_THE_STORE
        if (root / package.replace(".", "/")).is_dir()
        for line in forbidden_imports(package, STORE_INTERNALS, root)
    ]


def test_apps_and_commands_import_neither_the_store_mapping_nor_its_gateway():
    assert store_internals_imported() == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)


def test_the_check_sees_imports_back_up_and_cycles(tmp_path):
    _write(
        tmp_path,
        {
            "documents/__init__.py": "",
            "documents/views.py": "from positions import services\nfrom exports.views import csv_response\n",
            "positions/__init__.py": "",
            "positions/views.py": "def get():\n    from documents.forms import amount_field\n",
            "funds/__init__.py": "",
            "funds/selectors.py": "from . import views\nimport fundportal.web.cells\n",
            "imports/__init__.py": "",
            "imports/views.py": "from documents.forms import RESERVED_DOCUMENT_IDS\n",
        },
    )
    assert imports_against_the_direction(tmp_path) == [
        "documents/views.py imports exports",
        "positions/views.py imports documents",
    ]
    assert app_cycles(tmp_path) == [["documents", "positions", "documents"]]


def test_the_check_finds_a_cycle_round_three_apps(tmp_path):
    _write(
        tmp_path,
        {
            "documents/a.py": "import positions.b\n",
            "positions/b.py": "from funds import c\n",
            "funds/c.py": "from documents.a import x\n",
        },
    )
    assert app_cycles(tmp_path) == [["documents", "positions", "funds", "documents"]]
    assert imports_against_the_direction(tmp_path) == ["funds/c.py imports documents"]


def test_the_check_sees_the_store_mapping_and_gateway_imported_by_apps_and_commands(tmp_path):
    _write(
        tmp_path,
        {
            "documents/services.py": "from fundportal.store.mapping.entities import search_items_of\n",
            "positions/selectors.py": "from fundportal.store import gateway\nfrom fundportal.store.uow import NEW\n",
            "imports/writing.py": "def f():\n    from fundportal.store.gateway import TableGateway\n",
            "funds/views.py": "from fundportal.store.repositories import RegisterRepository\n",
            "fundportal/management/commands/seed_demo.py": "import fundportal.store.mapping.keys\n",
            "fundportal/web/forms.py": "from fundportal.domain.kinds import import_marker\n",
        },
    )
    assert store_internals_imported(tmp_path) == [
        "imports/writing.py imports fundportal.store.gateway",
        "documents/services.py imports fundportal.store.mapping.entities",
        "positions/selectors.py imports fundportal.store.gateway",
        "fundportal/management/commands/seed_demo.py imports fundportal.store.mapping.keys",
    ]
