"""The layers stay apart, and the map says so.

The core, the policy, the audit files and the stores run in a process without Scrapy or
Twisted; no module imports a room above its own (:data:`RANKS`, the order of
``docs/architecture.md``), and that document's module tree names every module of the package.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

PURE_PACKAGES = (
    "scrapy_robots_rep.core",
    "scrapy_robots_rep.policy",
    "scrapy_robots_rep.audit",
    "scrapy_robots_rep.stores",
)
ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scrapy_robots_rep"


def _pure_modules() -> list[str]:
    """The package's root and every module of the pure layers, found rather than listed."""
    names = ["scrapy_robots_rep"]
    for package_name in PURE_PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names.extend(info.name for info in pkgutil.walk_packages(package.__path__, package_name + "."))
    return names


PURE_MODULES = _pure_modules()


def test_the_pure_layers_are_all_found() -> None:
    assert {
        "scrapy_robots_rep.core.page.markup",
        "scrapy_robots_rep.policy.records",
        "scrapy_robots_rep.stores.redis",
    } <= set(PURE_MODULES)


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_layer_imports_neither_scrapy_nor_twisted(module):
    probe = (
        f"import sys, {module}\n"
        "loaded = sorted(name for name in sys.modules if name.split('.')[0] in ('scrapy', 'twisted'))\n"
        "print(loaded[:3])\n"
        "raise SystemExit(1 if loaded else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)

    assert result.returncode == 0, f"{module} pulls in {result.stdout.strip()} {result.stderr[-500:]}"


PUBLIC_FACE = {"__init__", "__main__", "addon", "exceptions", "robotparser", "signals", "spiders"}
"""The modules at the package root: what users name in their settings and code; the rest is in packages."""


def test_the_package_root_holds_only_the_public_face() -> None:
    package = importlib.import_module("scrapy_robots_rep")
    modules = {info.name for info in pkgutil.iter_modules(package.__path__) if not info.ispkg}
    assert modules - {"__init__", "__main__"} == PUBLIC_FACE - {"__init__", "__main__"}


@pytest.mark.parametrize("name", importlib.import_module("scrapy_robots_rep").__all__)
def test_every_public_name_loads_from_the_package_root(name: str) -> None:
    package = importlib.import_module("scrapy_robots_rep")
    assert getattr(package, name).__name__ == name


RANKS = {
    "core": 0,
    "policy": 1,
    "exceptions": 1,
    "signals": 1,
    "audit": 2,
    "stores": 2,
    "robotparser": 2,
    "crawl": 3,
    "downloader": 4,
    "page": 4,
    "cli": 5,
    "commands": 6,
    "addon": 7,
    "spiders": 7,
    "__main__": 7,
    "__init__": 8,
}
"""Each room (a package, or a module at the root) and its place: a module imports only its own room
and rooms ranked below it (so two rooms of one rank never lean on each other)."""


def _module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``'s)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


MODULES = _module_files()


def _room(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def _imports(module: str, path: Path) -> set[str]:
    """The package's modules ``module`` imports, at run time or for type checking."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found |= submodules if len(submodules) == len(node.names) else {node.module, *submodules}
    return {name for name in found if name in MODULES and name != module}


def test_every_room_has_a_rank() -> None:
    assert {_room(module) for module in MODULES} == set(RANKS)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_room_above_its_own(module: str) -> None:
    room = _room(module)
    upward = sorted(
        imported
        for imported in _imports(module, MODULES[module])
        if _room(imported) != room and RANKS[_room(imported)] >= RANKS[room]
    )
    assert upward == [], f"{module} ({room}, rank {RANKS[room]}) imports {upward}"


def _mapped_files() -> set[str]:
    """The files the module tree of docs/architecture.md names, as paths inside the package."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    tree = text.split("## Modules", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    folders: list[str] = []
    files = set()
    for line in tree.splitlines()[1:]:
        depth = (len(line) - len(line.lstrip())) // 2 - 1
        name = line.split()[0]
        folders = folders[:depth]
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        else:
            files.add("/".join([*folders, name]))
    return files


def test_the_architecture_document_names_every_module() -> None:
    modules = {path.relative_to(PACKAGE).as_posix() for path in MODULES.values()}
    packages = {name for name in modules if name.endswith("__init__.py") and name != "__init__.py"}
    assert sorted(modules - packages - _mapped_files()) == []
    assert sorted(_mapped_files() - modules) == []
