"""Static check: `#`-joined key strings are built and parsed only in fundportal/store/mapping/keys/.

Walks the syntax tree of every Python module under fundportal/, documents/ and positions/ and
flags, outside the codec package, anything that joins or splits on '#' or spells a key prefix:

    f"DOCUMENT#{doc}"   f"{a}#{b}"   "#".join(...)   x + "#" + y   "%s#%s" % ...   "{}#{}".format(...)
    sk.split("#")   sk.partition("#")   keys.SEP   "CAPITAL_CALL#POSITION_1"
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("fundportal", "documents", "positions")
CODEC = ROOT / "fundportal" / "store" / "mapping" / "keys"
# A whole string that is a key: DOCUMENT#LATEST, CAPITAL_CALL#POSITION_1, LATEST_DOCS#2025-09.
KEY_LITERAL = re.compile(r"[A-Z][A-Z0-9_]*#\S*")
# '#' right next to a %- or {}-placeholder: "%s#%s", "{}#{}".
HASH_BESIDE_PLACEHOLDER = re.compile(r"(%\w|\})#|#(%|\{)")
SPLITTERS = {"split", "rsplit", "partition", "rpartition"}


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _joins_values(fstring: ast.JoinedStr) -> bool:
    """f"X#{a}" or f"{a}#..." -- '#' directly beside an interpolated value. DynamoDB's
    expression-name placeholders (f"#a{n}") put a letter between '#' and the value."""
    parts = fstring.values
    for before, after in pairwise(parts):
        if (_text(before) or "").endswith("#") and isinstance(after, ast.FormattedValue):
            return True
        if isinstance(before, ast.FormattedValue) and (_text(after) or "").startswith("#"):
            return True
    return any(KEY_LITERAL.search(_text(part) or "") for part in parts)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of docstring constants: prose may quote keys (e.g. 'SK=DOCUMENT#LATEST')."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and _text(first.value) is not None:
                found.add(id(first.value))
    return found


def key_codec_violations(source: str, filename: str = "<source>") -> list[str]:
    """Lines of `source` that build or parse a '#'-joined key (empty when clean)."""
    tree = ast.parse(source, filename)
    docstrings = _docstrings(tree)
    found: list[str] = []

    def flag(node: ast.AST, why: str) -> None:
        found.append(f"{filename}:{node.lineno}: {why}")

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            if _joins_values(node):
                flag(node, "f-string joins a value with '#'")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if (_text(node.left) or "").endswith("#") or (_text(node.right) or "").startswith("#"):
                flag(node, "'#' concatenated into a string")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            if HASH_BESIDE_PLACEHOLDER.search(_text(node.left) or ""):
                flag(node, "'#' %-formatted between values")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attribute, owner = node.func.attr, _text(node.func.value) or ""
            if attribute == "join" and "#" in owner:
                flag(node, "'#'.join()")
            elif attribute == "format" and HASH_BESIDE_PLACEHOLDER.search(owner):
                flag(node, "'#' .format()-ted between values")
            elif attribute in SPLITTERS and any("#" in (_text(arg) or "") for arg in node.args):
                flag(node, f".{attribute}('#') parses a key")
        elif getattr(node, "attr", None) == "SEP" or getattr(node, "id", None) == "SEP":
            flag(node, "uses the codec's separator directly")
        elif id(node) not in docstrings and KEY_LITERAL.fullmatch(_text(node) or ""):
            flag(node, f"spells a key: {node.value[:40]!r}")
    return found


def python_modules() -> list[Path]:
    return sorted(
        path
        for folder in SCANNED
        for path in (ROOT / folder).rglob("*.py")
        if not path.is_relative_to(CODEC) and "migrations" not in path.parts
    )


def module_violations(path: Path) -> list[str]:
    return key_codec_violations(path.read_text(), str(path.relative_to(ROOT)))


def test_the_scan_covers_the_project():
    modules = {str(p.relative_to(ROOT)) for p in python_modules()}
    assert "fundportal/store/repositories/documents.py" in modules
    assert "fundportal/store/gateway.py" in modules
    assert "fundportal/store/mapping/entities.py" in modules
    assert "fundportal/domain/model.py" in modules
    assert not any(m.startswith("fundportal/store/mapping/keys/") for m in modules)
    assert any(m.startswith("documents/") for m in modules)


def test_no_module_outside_the_codec_builds_or_parses_keys():
    violations = [v for path in python_modules() for v in module_violations(path)]
    assert violations == [], "build/parse keys only in fundportal/store/mapping/keys/:\n" + "\n".join(violations)


@pytest.mark.parametrize(
    "snippet",
    [
        'sk = f"CAPITAL_CALL#{position_id}"',
        'pk = f"{kind}#{position}#{doc}"',
        'key = "#".join([a, b])',
        "key = '#'.join(parts)",
        'key = kind + "#" + position',
        'key = "%s#%s" % (a, b)',
        'key = "{}#{}".format(a, b)',
        'kind, rest = sk.split("#", 1)',
        'head, _, tail = sk.partition("#")',
        "key = keys.SEP.join(parts)",
        'prefix = "DOCUMENT#LATEST"',
        'items = query(prefix="LATEST_DOCS#2025-09")',
        'sk = f"DOCUMENT#{on}#{revision:06d}"',
        'sk = "DISTRIBUTION#" + position_id',
    ],
)
def test_the_check_catches_each_way_of_building_a_key(snippet):
    assert key_codec_violations(snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        "sk = keys.entry_sk(Kind.CAPITAL_CALL, position_id)",
        'label = f"Position {position_id}"',
        'css = "color: red"  # a comment with # is not code',
        'url = reverse("documents:detail", args=[doc])',
        'title = "Q3 2025 capital account statement"',
        'names[f"#a{n}"] = attribute',
        'condition = f"attribute_not_exists(#a{n}) AND #rev = :rev"',
        'why = "Sparse: only current documents carry GSI3_PK (LATEST_DOCS#YYYY-MM), so..."',
        'def f():\n    """Builds SK=DOCUMENT#LATEST via keys.py."""',
    ],
)
def test_the_check_lets_ordinary_code_through(snippet):
    assert key_codec_violations(snippet) == []
