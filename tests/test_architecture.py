"""The house's rules, checked from the code's own imports (docs/architecture.md): each package's top
level is at most ten modules, no module is over 400 lines, no import cycles (function-local imports
included: one hides a cycle, it does not break one), a function-local import of the package's own
modules says why on its line, no `_private` name imported from another module, the layers only
import downwards, and the style registries of both sides name the contracts in docs/styles/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("poolgen", "audit")
MAX_TOP_LEVEL = 10
MAX_LINES = 400


def _modules(package: str) -> dict[str, Path]:
    """Every module of a package by dotted name (a package by its __init__.py)."""
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in the file (each `from P import x` as P.x when
    that is a module, else P)."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base]).strip(".")
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in found if m in known and m != name}


def _graph(package: str) -> dict[str, set[str]]:
    known = _modules(package)
    return {name: _imports(name, path, known) for name, path in known.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_has_at_most_ten_top_level_modules(package):
    top = sorted(p.name for p in (ROOT / package).glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package):
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / package).rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_among_a_packages_modules(package):
    assert _cycle(_graph(package)) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_folder_cycle_either(package):
    """The package's folders (and top-level modules), as rooms: their imports form no loop."""
    rooms: dict[str, set[str]] = {}
    for name, deps in _graph(package).items():
        room = ".".join(name.split(".")[:2])
        rooms.setdefault(room, set()).update(".".join(d.split(".")[:2]) for d in deps)
    for room, deps in rooms.items():
        deps.discard(room)
        deps.discard(package)  # the package's own face (__init__: its version)
    assert _cycle(rooms) is None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_name_is_imported_from_another_module(package):
    known = _modules(package)
    private = []
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES:
                private += [f"{name}: {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert private == []


@pytest.mark.parametrize("package", PACKAGES)
def test_a_function_local_import_of_the_package_says_why(package):
    """A slow import kept off the start-up path is fine, and says so on its line; none dodges a cycle."""
    silent = []
    for name, path in _modules(package).items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package
                        and "#" not in lines[node.lineno - 1]
                        and "#" not in lines[getattr(node, "end_lineno", node.lineno) - 1]):
                    silent.append(f"{name}:{node.lineno}")
    assert silent == []


# Which folders may import which: the core never reaches up into presentation or the command line.
PRESENTATION = {"poolgen.cli", "poolgen.pdf"}
ENTRY = {"poolgen.__main__"}  # `python -m poolgen` is the command line


def test_the_core_never_imports_presentation_or_the_command_line():
    up = [f"{name} -> {dep}" for name, deps in _graph("poolgen").items()
          if not any(name.startswith(p) for p in PRESENTATION) and name not in ENTRY
          for dep in deps if any(dep.startswith(p) for p in PRESENTATION)]
    assert up == []


def test_only_the_command_line_imports_the_command_line():
    up = [f"{name} -> {dep}" for name, deps in _graph("poolgen").items()
          if not name.startswith("poolgen.cli") and name not in ENTRY
          for dep in deps if dep.startswith("poolgen.cli")]
    assert up == []


def test_every_style_has_a_contract_a_generator_and_an_audit_engine():
    """One name per style in docs/styles/, poolgen's registries, audit's registries and the proof
    faces of ticket-wide styles: a style is never half there."""
    from audit.styles import AREA_ENGINES, TICKET_ENGINES
    from poolgen.pdf.faces import TICKET_FACES
    from poolgen.styles import AREA_STYLES, TICKET_STYLES

    contracts = {p.stem for p in (ROOT / "docs" / "styles").glob("*.md")} - {"play"}
    assert set(AREA_STYLES) | set(TICKET_STYLES) == contracts
    assert set(AREA_ENGINES) == set(AREA_STYLES)
    assert set(TICKET_ENGINES) == set(TICKET_STYLES) == set(TICKET_FACES)
    assert not set(AREA_STYLES) & set(TICKET_STYLES)


# A shipped game's name said in package code as a rule's own words, not as the game (add_up's targets);
# names are matched as the games write them ("Scratch keno", the mechanic, is not Nebraska's Scratch Keno)
RULE_WORDS = {"7 or 11"}


def test_no_shipped_game_is_named_in_package_code():
    """The house style (/work/shared/STYLE.md): a game's name appears only in its spec; a style names its
    contract's sections, never the game that brought it (a docstring said `dealer = "shared"` was "Poker
    Night's")."""
    import re
    import tomllib

    names = {doc["game"]["name"] for p in sorted((ROOT / "specs").rglob("*.toml"))
             if isinstance((doc := tomllib.loads(p.read_text())).get("game"), dict) and "name" in doc["game"]}
    assert len(names) > 50 and "Poker Night" in names  # the guard reads the shipped games
    said = [f"{path.relative_to(ROOT)}: {name}" for package in PACKAGES
            for path in sorted((ROOT / package).rglob("*.py")) for name in sorted(names - RULE_WORDS)
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", path.read_text())]  # as the game writes it
    assert said == []


def test_no_shipped_spec_file_is_named_in_package_code():
    """Nor its spec's file name: a help example said `poolgen generate specs/wild_side.toml --seed-file
    ws.seed` (the examples now say specs/GAME.toml): a game's file is a game's name too."""
    import re

    stems = {p.stem for p in sorted((ROOT / "specs").rglob("*.toml"))}
    assert len(stems) > 50 and "wild_side" in stems
    said = [f"{path.relative_to(ROOT)}: {stem}" for package in PACKAGES
            for path in sorted((ROOT / package).rglob("*.py")) for stem in sorted(stems)
            if re.search(rf"(?<![\w.-]){re.escape(stem)}(?!\w)", path.read_text())]
    assert said == []
