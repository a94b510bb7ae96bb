"""Ready to release: one version, a changelog, deprecated names that still work, a wheel that
installs and crawls, the optional compiled part built or skipped cleanly, and a demo that installs
only what it needs.

The tests that build a wheel are marked ``release`` (``make test`` runs them on the newest Scrapy).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from scrapy.utils.misc import load_object

import scrapy_robots_rep
from scrapy_robots_rep.crawl.scrapy_compat import installed_scrapy
from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
from scrapy_robots_rep.downloader.report import CrawlReporter
from scrapy_robots_rep.page.cache_policy import RobotsCachePolicy
from scrapy_robots_rep.page.middleware import PageDirectivesMiddleware
from tests.sites import PAGE, Reply, Sites, text

ROOT = Path(__file__).resolve().parents[1]
COMPILED = "scrapy_robots_rep/core/page/_tag_search"


def test_the_version_comes_from_one_place() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", scrapy_robots_rep.__version__)
    assert metadata.version("scrapy-robots-rep") == scrapy_robots_rep.__version__
    assert "version = attr: scrapy_robots_rep.__version__" in (ROOT / "setup.cfg").read_text()


def test_the_changelog_keeps_a_changelog_with_an_unreleased_section() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert changelog.startswith("# Changelog\n")
    assert "https://keepachangelog.com/en/1.1.0/" in changelog
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)
    assert headings[0] == "Unreleased"
    unreleased = changelog.split("## [Unreleased]")[1].split("\n## [")[0]
    kinds = re.findall(r"^### (\w+)", unreleased, flags=re.MULTILINE)
    assert kinds and set(kinds) <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_redis_cache_is_the_deprecated_name_of_redis_store() -> None:
    with pytest.warns(
        DeprecationWarning, match=r"scrapy_robots_rep\.RedisCache is deprecated .* scrapy_robots_rep\.RedisStore"
    ):
        old = scrapy_robots_rep.RedisCache  # type: ignore[attr-defined]
    assert old is scrapy_robots_rep.RedisStore


@pytest.mark.parametrize(
    ("old_path", "new"),
    [
        ("scrapy_robots_rep.middleware.RobotsMiddleware", RobotsMiddleware),
        ("scrapy_robots_rep.page_middleware.PageDirectivesMiddleware", PageDirectivesMiddleware),
        ("scrapy_robots_rep.cache_policy.RobotsCachePolicy", RobotsCachePolicy),
        ("scrapy_robots_rep.redis_cache.RedisCache", None),
        ("scrapy_robots_rep.downloader.scrapy_compat.installed_scrapy", installed_scrapy),
        ("scrapy_robots_rep.crawl.report.CrawlReporter", CrawlReporter),
    ],
)
def test_old_module_paths_written_in_settings_still_load_with_a_warning(old_path: str, new: type | None) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{re.escape(old_path)} is deprecated"):
        loaded = load_object(old_path)
    assert loaded is (new or scrapy_robots_rep.RedisStore)


def test_the_old_modules_are_not_files_at_the_package_root() -> None:
    package = ROOT / "scrapy_robots_rep"
    assert not [
        name
        for name in ("middleware", "page_middleware", "cache_policy", "redis_cache")
        if (package / f"{name}.py").exists()
    ]


def test_make_demo_installs_only_the_package_and_make_test_the_test_extras(tmp_path: Path) -> None:
    venv = tmp_path / "venv"  # never made: make -n only prints what it would run
    demo = subprocess.run(["make", "-n", "demo", f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert demo.returncode == 0, demo.stderr
    [demo_install] = [
        line for line in demo.stdout.splitlines() if "pip install" in line and "--upgrade pip" not in line
    ]
    assert demo_install.endswith("pip install --quiet -e .")
    test = subprocess.run(["make", "-n", "lint", f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "pip install --quiet -e '.[test]'" in test.stdout
    assert f"{venv}/.installed-demo" in demo.stdout and f"{venv}/.installed-demo" not in test.stdout


def build_wheel(out: Path, env: dict[str, str] | None = None) -> tuple[Path, str]:
    """``python -m build`` as ``make dist`` runs it (the sdist, then the wheel from the unpacked sdist,
    so nothing built earlier in the tree is reused); the wheel and the build's output."""
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    [wheel] = out.glob("*.whl")
    return wheel, result.stdout + result.stderr


def compiled_members(wheel: Path) -> list[str]:
    return [name for name in zipfile.ZipFile(wheel).namelist() if name.startswith(COMPILED) and name.endswith(".so")]


def fresh_venv_with(wheel: Path, where: Path) -> Path:
    """A new virtualenv with the wheel installed, its dependencies taken from the running one.

    The running environment's site-packages is appended by a ``.pth`` path line, whose own
    ``.pth`` files are not read: the editable install of the source tree stays out, so
    ``scrapy_robots_rep`` can only come from the wheel.
    """
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    running_site = next(path for path in sys.path if path.endswith("site-packages") and Path(path).is_dir())
    (Path(site) / "running_env.pth").write_text(running_site + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    return python


CRAWL = """
import sys
import scrapy
from scrapy.crawler import CrawlerProcess
import scrapy_robots_rep

class Pages(scrapy.Spider):
    name = "pages"
    start_urls = sys.argv[1:]
    def parse(self, response):
        yield {"url": response.url}

process = CrawlerProcess({
    "ADDONS": {"scrapy_robots_rep.Addon": 0},
    "ROBOTSTXT_OBEY": True,
    "USER_AGENT": "wheelbot/1.0",
    "REP_AUDIT_DIR": "audit",
    "REP_REPORT": "report.html",
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
})
process.crawl(Pages)
process.start()
print("package", scrapy_robots_rep.__file__, scrapy_robots_rep.__version__)
"""


@pytest.mark.release
@pytest.mark.timeout(1200)
def test_the_built_wheel_installs_into_a_fresh_venv_and_crawls(tmp_path: Path, sites: Sites) -> None:
    wheel, _ = build_wheel(tmp_path / "dist")
    assert wheel.name.startswith(f"scrapy_robots_rep-{scrapy_robots_rep.__version__}-")
    if shutil.which(os.environ.get("CC", "cc")):
        assert compiled_members(wheel), "a C compiler is here, so the wheel carries the compiled search"
    python = fresh_venv_with(wheel, tmp_path)
    site = sites.start({"/robots.txt": text("User-agent: wheelbot\nDisallow: /private\n"), "/page": Reply(body=PAGE)})
    script = tmp_path / "crawl.py"
    script.write_text(CRAWL)
    result = subprocess.run(
        [str(python), str(script), f"{site.url}/page", f"{site.url}/private"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(site.paths()) == ["/page", "/robots.txt"]
    assert "Obeying robots.txt as agent 'wheelbot'" in result.stderr
    package_line = result.stdout.strip().splitlines()[-1]
    assert package_line.startswith(f"package {python.parent.parent}/")
    assert package_line.endswith(f" {scrapy_robots_rep.__version__}")
    # The HTML report's templates are in the wheel, and Jinja2 came with it.
    assert "<title>robots.txt compliance report" in (tmp_path / "report.html").read_text()


@pytest.mark.release
@pytest.mark.timeout(1200)
def test_without_a_c_compiler_the_wheel_builds_without_the_compiled_part(tmp_path: Path) -> None:
    wheel, output = build_wheel(tmp_path / "dist", env={**os.environ, "CC": "/bin/false"})
    assert compiled_members(wheel) == []
    assert "scrapy_robots_rep/core/page/markup.py" in zipfile.ZipFile(wheel).namelist()
    assert 'building extension "scrapy_robots_rep.core.page._tag_search" failed' in output, output[-2000:]
