"""No package cycles: the layers of docs/architecture.md only import downwards.

Nodes are the subpackages of ``kenning`` (``kenning.lifecycle``, ``kenning.stores``…)
and its top-level modules; every import counts, also those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import kenning

SRC = Path(kenning.__file__).resolve().parent


def _node(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "kenning":
        return None
    if len(parts) == 1:
        return "kenning"
    if (SRC / parts[1]).is_dir() or (SRC / f"{parts[1]}.py").exists():
        return f"kenning.{parts[1]}"
    return None  # a name imported from the package itself, e.g. ``from kenning import open``


def import_graph() -> dict[str, dict[str, set[str]]]:
    """node -> {imported node -> the modules whose imports make that edge}."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in SRC.rglob("*.py"):
        parts = ("kenning", *path.relative_to(SRC).with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        src = _node(module)
        for n in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(n, ast.Import):
                targets = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                # ``from kenning import wiring`` depends on the module, not on the package's public surface
                targets = [f"kenning.{a.name}" if _node(f"kenning.{a.name}") else "kenning" for a in n.names] if n.module == "kenning" else [n.module]
            else:
                continue
            for t in targets:
                dst = _node(t)
                if dst is not None and dst != src:
                    graph.setdefault(src, {}).setdefault(dst, set()).add(module)
    return graph


def cycles(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_import_graph_has_no_cycles():
    graph = import_graph()
    found = cycles(graph)
    detail = [
        f"{a} -> {b} (in {', '.join(sorted(graph[a][b]))})" for comp in found for a in comp for b in graph.get(a, {}) if b in comp
    ]
    assert not found, "package cycles:\n" + "\n".join(detail)


def test_the_graph_sees_known_edges():
    # Guards the test itself: if the walk found nothing it would pass vacuously.
    graph = import_graph()
    assert "kenning.stores" in graph["kenning.lifecycle"]
    assert "kenning.lifecycle" in graph["kenning.llms"]
    assert "kenning.memory" in graph["kenning.server"] or "kenning" in graph["kenning.server"]


def test_a_cycle_is_reported():
    assert cycles({"a": {"b": set()}, "b": {"c": set()}, "c": {"a": set()}}) == [["a", "b", "c"]]
