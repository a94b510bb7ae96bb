"""The layers stay apart: the core, the policy and the audit files run in a process without Scrapy or Twisted."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

PURE_PACKAGES = (
    "scrapy_robots_rep.core",
    "scrapy_robots_rep.policy",
    "scrapy_robots_rep.audit",
    "scrapy_robots_rep.signing",
)


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
    assert {"scrapy_robots_rep.core.page.markup", "scrapy_robots_rep.policy.records"} <= set(PURE_MODULES)


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
