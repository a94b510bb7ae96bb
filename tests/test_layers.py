"""The layers stay apart: the core and the policy run in a process without Scrapy or Twisted."""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE_MODULES = [
    "scrapy_robots_rep",
    "scrapy_robots_rep.core",
    "scrapy_robots_rep.policy.accounting",
    "scrapy_robots_rep.policy.cache",
    "scrapy_robots_rep.policy.decoding",
    "scrapy_robots_rep.policy.deferral",
    "scrapy_robots_rep.policy.origin",
    "scrapy_robots_rep.policy.settings",
    "scrapy_robots_rep.policy.status",
]


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
