"""The signing settings: off by default, and one start-up error line naming the setting otherwise."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.downloader.signing import SigningMiddleware
from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.signing.keys import generate_key, private_pem

AGENT = "https://bot.example"


def start(settings: dict[str, object]) -> SigningMiddleware:
    return SigningMiddleware.from_crawler(get_crawler(settings_dict=settings))


def test_off_unless_a_key_is_given() -> None:
    with pytest.raises(NotConfigured):
        start({})


@pytest.fixture
def key_file(tmp_path: Path) -> str:
    path = tmp_path / "bot.pem"
    path.write_bytes(private_pem(generate_key()))
    return str(path)


def unusable(tmp_path: Path, key_file: str) -> list[tuple[dict[str, object], str]]:
    public = tmp_path / "public.txt"
    public.write_text("not a key")
    return [
        ({"REP_SIGNING_KEY": str(tmp_path / "absent.pem"), "REP_SIGNATURE_AGENT": AGENT}, "REP_SIGNING_KEY"),
        ({"REP_SIGNING_KEY": str(public), "REP_SIGNATURE_AGENT": AGENT}, "REP_SIGNING_KEY"),
        ({"REP_SIGNING_KEY": key_file}, "REP_SIGNING_KEY and REP_SIGNATURE_AGENT go together"),
        ({"REP_SIGNATURE_AGENT": AGENT}, "REP_SIGNING_KEY and REP_SIGNATURE_AGENT go together"),
        ({"REP_SIGNING_KEY": key_file, "REP_SIGNATURE_AGENT": "ftp://bot.example"}, "REP_SIGNATURE_AGENT"),
    ]


def test_an_unusable_setting_is_one_error_line_naming_it(
    tmp_path: Path, key_file: str, caplog: pytest.LogCaptureFixture
) -> None:
    for settings, named in unusable(tmp_path, key_file):
        caplog.clear()
        with caplog.at_level(logging.ERROR), pytest.raises(SettingsError):
            start(settings)
        errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].startswith(f"scrapy_robots_rep cannot start: {named}"), errors


def test_a_missing_cryptography_package_is_one_error_line(
    key_file: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delitem(sys.modules, "scrapy_robots_rep.signing.keys", raising=False)
    monkeypatch.setitem(sys.modules, "cryptography.exceptions", None)
    with caplog.at_level(logging.ERROR), pytest.raises(SettingsError):
        start({"REP_SIGNING_KEY": key_file, "REP_SIGNATURE_AGENT": AGENT})
    errors = [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(errors) == 1 and "REP_SIGNING_KEY needs the cryptography package" in errors[0]
    assert "pip install 'scrapy-robots-rep[signing]'" in errors[0]


def test_the_add_on_places_signing_also_when_robots_txt_is_not_obeyed(key_file: str) -> None:
    """ROBOTSTXT_OBEY = False turns the robots parts off; signing says who the robot is either way."""
    for obey in (True, False):
        settings = {"ADDONS": {"scrapy_robots_rep.Addon": 0}, "ROBOTSTXT_OBEY": obey}
        crawler = get_crawler(settings_dict={**settings, "REP_SIGNING_KEY": key_file, "REP_SIGNATURE_AGENT": AGENT})
        placed = crawler.settings.getwithbase("DOWNLOADER_MIDDLEWARES")
        assert placed[SigningMiddleware] == 950, obey
