"""A package's house rules, read from its source (ast only, nothing imported): a newcomer finds anything
from folder names alone, and no module leans on another's insides.

- no import cycle among the package's modules, counting imports inside functions too (a function-
  local import hides a cycle, it does not break one);
- at most MAX_TOP_LEVEL modules directly in the package folder (the rest live in folders named for
  what they hold);
- at most MAX_LINES lines per module;
- no `_private` name imported from another module of the package (what two modules share is public
  in the module it belongs to);
- an import of one of the package's own modules inside a function says why on its line (a slow
  import kept off the start-up path), never to dodge a cycle, which the first rule catches anyway.

Written for any package of the repository: add its name to PACKAGES.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["audit"]
MAX_TOP_LEVEL = 10
MAX_LINES = 400


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: str  # the imported module (a name imported from a module counts as that module)
    names: tuple[str, ...]  # the names a `from` import takes ( () for `import x.y`)
    line: int
    local: bool  # inside a function
    commented: bool  # a comment on its line


def modules(package: str) -> dict[str, Path]:
    """Every module of the package, dotted name -> file (a folder's __init__.py is the folder's name)."""
    base = ROOT / package
    out = {}
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _function_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inside |= {id(n) for n in ast.walk(node) if n is not node}
    return inside


def imports(package: str) -> list[Import]:
    """Every import of one of the package's modules by another, resolved to the module it loads."""
    known = modules(package)
    out = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, filename=str(path))
        local = _function_nodes(tree)
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            found: list[tuple[str, tuple[str, ...]]] = []
            if isinstance(node, ast.Import):
                found = [(a.name, ()) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from the importing module's package
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base = ".".join(here[: len(here) - node.level + 1])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                for alias in node.names:  # `from pkg import submodule` loads the submodule
                    sub = f"{module}.{alias.name}"
                    found.append((sub, ()) if sub in known else (module, (alias.name,)))
            else:
                continue
            commented = "#" in lines[node.lineno - 1]
            for target, names in found:
                if target == package or target.startswith(package + "."):
                    out.append(Import(name, target, names, node.lineno, id(node) in local, commented))
    return out


def graph(package: str) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in modules(package)}
    for i in imports(package):
        if i.target in edges and i.target != i.source:
            edges[i.source].add(i.target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def depth(edges: dict[str, set[str]]) -> int:
    """The longest chain of imports (in modules) of an acyclic graph."""
    memo: dict[str, int] = {}

    def longest(v: str) -> int:
        if v not in memo:
            memo[v] = 1 + max((longest(w) for w in edges[v]), default=0)
        return memo[v]

    return max((longest(v) for v in edges), default=0)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    assert cycles(graph(package)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_few_modules_at_the_top(package):
    top = sorted(p.name for p in (ROOT / package).glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_long(package):
    long = {name: n for name, path in modules(package).items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_name_is_imported_from_another_module(package):
    private = [f"{i.source}:{i.line} imports {n} from {i.target}" for i in imports(package)
               for n in i.names if n.startswith("_") and not n.startswith("__") and i.target != i.source]
    private += [f"{i.source}:{i.line} imports the private module {i.target}" for i in imports(package)
                if any(part.startswith("_") and not part.startswith("__") for part in i.target.split("."))]
    assert private == []


@pytest.mark.parametrize("package", PACKAGES)
def test_a_function_local_import_of_the_package_says_why(package):
    silent = [f"{i.source}:{i.line} imports {i.target}" for i in imports(package)
              if i.local and not i.commented]
    assert silent == []


def test_the_guards_can_fail(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert depth({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"c"}}) == 3
    tree = ast.parse("def f():\n    import x\nimport y\n")
    inner = {id(n) for n in ast.walk(tree) if isinstance(n, ast.Import) and n.names[0].name == "x"}
    assert inner <= _function_nodes(tree)
    assert not {id(n) for n in ast.walk(tree) if isinstance(n, ast.Import) and n.names[0].name == "y"} \
        & _function_nodes(tree)
