"""Expressions for values a crawl may never read are compiled at their first use, not at import."""

from __future__ import annotations

import re

import pytest

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use


def test_an_expression_is_compiled_by_its_first_use_once(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[tuple[str, int]] = []
    compile_now = re.compile

    def counting_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append((pattern, flags))
        return compile_now(pattern, flags)

    monkeypatch.setattr(re, "compile", counting_compile)
    expression = compiled_on_use(r"[0-9]+", re.ASCII)
    assert compiled == []
    assert expression() is expression()
    assert expression().fullmatch("42")
    assert compiled == [(r"[0-9]+", re.ASCII)]
