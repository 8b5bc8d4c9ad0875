"""The package's import graph, read from the source with ``ast``: no import circle between
modules, and no arrow back up from the metrics to the layers that use them.

Every import statement counts, at module level or inside a function (a lazy import is still a
dependency); imports under ``if TYPE_CHECKING:`` do not (they never run: annotations only). A
package's ``__init__`` importing its own submodules is an edge like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "meteor_eval"


def _modules() -> dict[str, tuple[Path, bool]]:
    out: dict[str, tuple[Path, bool]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _type_only(tree: ast.AST) -> set[int]:
    """Nodes under ``if TYPE_CHECKING:``."""
    nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                nodes.update(id(n) for n in ast.walk(inner))
    return nodes


def import_graph(*, annotations: bool = False) -> dict[str, set[str]]:
    """Per module of the package, the modules of the package it imports (with
    ``annotations``, also those imported under ``if TYPE_CHECKING:``)."""
    modules = _modules()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if annotations else _type_only(tree)
        edges: set[str | None] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                edges.update(owner(a.name) for a in node.names if a.name.startswith("meteor_eval"))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module if is_package else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                if not base.startswith("meteor_eval"):
                    continue
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    edges.add(full if full in modules else owner(base))
        edges.discard(None)
        edges.discard(module)
        graph[module] = {e for e in edges if e is not None}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert "meteor_eval.metrics.protocol" in graph["meteor_eval.comparison"]
    assert "meteor_eval.metrics.meteor.config" in graph["meteor_eval.metrics.meteor.scorer"]


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_no_circle_through_annotations_either() -> None:
    """A module names in its annotations only modules below it: a type-only import of a module
    above (``parallel`` naming ``comparison.Systems``) would tie the layers together for a reader
    and a type checker, though it never runs."""
    graph = import_graph(annotations=True)
    assert "meteor_eval.systems" in graph["meteor_eval.parallel"]  # read under TYPE_CHECKING
    # A submodule may name its own package's records (report.html's Report): one room.
    outward = {m: {t for t in targets if not _within(m, t)} for m, targets in graph.items()}
    assert circles(outward) == []


def test_no_arrow_back_up_from_the_metrics() -> None:
    """The metrics (and everything they are built from) import nothing of the layers that use
    them: comparison, the engines that run them (local processes, clusters), tuning, the
    command line, the jar's emulation. Lazy imports inside functions count (the graph reads
    every import statement); the metrics' own ``jobs=`` runs on the executor below them
    (``meteor_eval.pool``)."""
    above = (
        "meteor_eval.comparison",
        "meteor_eval.parallel",
        "meteor_eval.distributed",
        "meteor_eval.tuning",
        "meteor_eval.cli",
        "meteor_eval.jar",
        "meteor_eval.compat",
        "meteor_eval.report",
    )
    below = ("meteor_eval.metrics", "meteor_eval.stats", "meteor_eval.align", "meteor_eval.match")
    arrows = sorted(
        (module, target)
        for module, targets in import_graph().items()
        if any(_within(module, b) for b in below)
        for target in targets
        if any(_within(target, a) for a in above)
    )
    assert arrows == []


def test_a_lazy_import_inside_a_function_is_an_edge() -> None:
    """The protocol's ``jobs=`` used to import the local engine inside its methods: such an
    import is read as an edge like a module-level one."""
    graph = import_graph()
    # cli/report.py imports the engine only inside a function (segment scores with alignments)
    assert "meteor_eval.parallel" in graph["meteor_eval.cli.report"]
    assert "meteor_eval.pool" in graph["meteor_eval.metrics.protocol"]
    assert "meteor_eval.metrics.protocol" in graph["meteor_eval.parallel"]


def test_nothing_outside_the_command_line_imports_it() -> None:
    arrows = sorted(
        (module, target)
        for module, targets in import_graph().items()
        if not _within(module, "meteor_eval.cli") and module != "meteor_eval.__main__"
        for target in targets
        if _within(target, "meteor_eval.cli")
    )
    assert arrows == []
