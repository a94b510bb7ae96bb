"""Every example in README.md runs, so the docs cannot rot.

``python`` blocks are settings snippets (module-level settings, or a spider's
``custom_settings``): they are executed, their dotted paths imported and their ``REP_*`` values
validated. ``pycon`` blocks run as doctests. ``console`` blocks are
shell sessions: each ``$`` command runs and its output must be what the README shows; the
local servers they mention (127.0.0.80 and 127.0.0.81, shown at port 8080) are started here.
The ``text`` block (the demo report) is compared with a real demo crawl in test_demo.py.
``sh`` blocks are instructions (``make demo``, ``make test``, benchmarks), covered elsewhere.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.utils.misc import load_object

from scrapy_robots_rep.policy.settings import RepSettings
from tests.sites import text

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
SHOWN_PORT = 8080
SERVERS = {
    "127.0.0.80": {"/robots.txt": text("Forbidden", status=403)},
    "127.0.0.81": {"/robots.txt": text("User-agent: *\nDisallow: /private\n")},
}


def blocks(language: str) -> list[str]:
    return [body for found, body in BLOCK.findall(README) if found == language]


def test_readme_opens_with_the_set_up_then_the_two_commands():
    setup, commands = BLOCK.findall(README)[:2]

    assert setup[0] == "python" and 'ADDONS = {"scrapy_robots_rep.Addon": 0}' in setup[1]
    assert commands == ("sh", "make demo\nmake test\n")
    sections = re.findall(r"^## (.+)$", README, re.MULTILINE)
    assert sections[:2] == ["Enable it", "Try it"]  # what it is (the opening paragraph), set-up, commands


@pytest.mark.parametrize("block", blocks("python"))
def test_settings_snippet_is_valid(block):
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    settings = {name: value for name, value in namespace.items() if name.isupper()}
    for value in namespace.values():
        settings.update(getattr(value, "custom_settings", None) or {})

    RepSettings.from_mapping(settings)
    paths = [
        *settings.get("ADDONS", {}),
        *settings.get("DOWNLOADER_MIDDLEWARES", {}),
        *settings.get("SPIDER_MIDDLEWARES", {}),
        settings.get("ROBOTSTXT_PARSER"),
        settings.get("REP_CACHE_BACKEND"),
        settings.get("SCHEDULER"),
        settings.get("DUPEFILTER_CLASS"),
    ]
    loaded = [load_object(path) for path in paths if path]
    assert any(getattr(component, "__module__", "").startswith("scrapy_robots_rep") for component in loaded), (
        "a settings snippet should name the add-on, a middleware or the parser"
    )


def test_python_api_examples():
    [block] = blocks("pycon")
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", "README.md", 0)
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)

    runner.run(test, out=output.append)

    assert runner.failures == 0, "".join(output)
    assert runner.tries >= 10


def sessions() -> list[tuple[str, str]]:
    """(command, shown output) of every ``$`` line in the console blocks."""
    found = []
    for block in blocks("console"):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output.rstrip("\n")))
    return found


@pytest.mark.parametrize(("command", "shown"), sessions())
def test_console_example_prints_what_the_readme_shows(sites, command, shown):
    ports = {host: sites.start(routes, host=host).port for host, routes in SERVERS.items()}
    for host, port in ports.items():
        command = command.replace(f"{host}:{SHOWN_PORT}", f"{host}:{port}")
    environment = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }

    completed = subprocess.run(
        command, shell=True, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )

    printed = completed.stdout.rstrip("\n")
    for host, port in ports.items():
        printed = printed.replace(f"{host}:{port}", f"{host}:{SHOWN_PORT}")
    assert printed == shown, completed.stderr
