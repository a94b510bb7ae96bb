"""The ``scrapy-robots`` console script: the grammar of ``python -m scrapy_robots_rep``."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.utils.misc import load_object

from scrapy_robots_rep.cli import main, scrapy_robots_main

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "scrapy-robots"
ROBOTS = "User-agent: *\nDisallow: /private\n"


def test_setup_cfg_declares_the_script():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    scripts = dict(line.split(" = ") for line in config["options.entry_points"]["console_scripts"].strip().splitlines())

    assert load_object(scripts["scrapy-robots"].replace(":", ".")) is scrapy_robots_main


def test_the_script_prints_what_check_prints(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    argv = ["check", str(path), "https://example.com/private/a", "--agent", "mybot", "--compare"]

    script_status = scrapy_robots_main(argv)
    script_out = capsys.readouterr().out
    check_status = main(argv)

    assert script_status == check_status == 0  # the modes agree
    assert script_out == capsys.readouterr().out
    assert "  rfc9309  disallowed  group line 1  rule line 2: Disallow: /private  (longest match)" in script_out


def test_the_installed_script_runs(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)

    completed = subprocess.run(
        [str(SCRIPT), "check", str(path), "--lint"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines() == [
        f"robots.txt {path}: read from file, linted in rfc9309 matching",
        "no warnings",
    ]


def test_usage_errors_name_the_script(capsys):
    with pytest.raises(SystemExit) as exit_info:
        scrapy_robots_main(["check", "robots.txt", "https://example.com/"])

    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("usage: scrapy-robots ")
