"""Reading one typed ``REP_*`` value from a plain mapping, with errors that name the setting.

:class:`SettingsReader` converts the strings ``scrapy -s NAME=value`` passes and raises
:class:`SettingsError` naming the setting and what it accepts; the row readers below (``boolean``,
``text``, ``number(...)``, ...) are what a row of the settings table
(:mod:`scrapy_robots_rep.policy.settings_table`) names as its ``read``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy_robots_rep.core.fields import extension_rows
from scrapy_robots_rep.core.lazy_patterns import compiled_on_use
from scrapy_robots_rep.core.page import PURPOSE_NAMES
from scrapy_robots_rep.policy.origin import ascii_host

if TYPE_CHECKING:
    from scrapy_robots_rep.core.extension_field import ExtensionField

_TRUE_STRINGS = frozenset({"1", "true", "yes", "on"})
_FALSE_STRINGS = frozenset({"0", "false", "no", "off", ""})
_DOMAIN = compiled_on_use(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*")

_Number = TypeVar("_Number", int, float)


class SettingsError(ValueError):
    """A setting has a value this package cannot use."""


class SettingsReader:
    """Reads one typed setting at a time from a mapping, raising :class:`SettingsError` on bad values.

    ``None`` (or a missing name) gives the default. Strings, as ``scrapy -s NAME=value``
    passes them, are converted.
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self._settings = settings

    def raw(self, name: str) -> Any:
        """The value as configured, ``None`` when not set."""
        return self._settings.get(name)

    def boolean(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE_STRINGS | _FALSE_STRINGS:
            return value.strip().lower() in _TRUE_STRINGS
        raise SettingsError(f"{name} must be True or False, got {value!r}")

    def choice(self, name: str, default: str, allowed: Iterable[str]) -> str:
        """One of ``allowed`` (for a registry such as ``STATUS_POLICIES``: one of its names)."""
        value = self.raw(name)
        if value is None:
            return default
        names = list(allowed)
        if value not in names:
            options = ", ".join(repr(option) for option in names)
            raise SettingsError(f"{name} must be one of {options}, got {value!r}")
        return str(value)

    def text(self, name: str, default: str) -> str:
        """A non-empty string, stripped."""
        value = self.raw(name)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{name} must be a non-empty string, got {value!r}")
        return value.strip()

    def optional_text(self, name: str) -> str | None:
        """A string; ``None`` when not set or empty."""
        return self._optional_string(name, self.raw(name), "a string")

    def optional_path(self, name: str) -> str | None:
        """A file path (a string or ``pathlib.Path``); ``None`` when not set or empty."""
        value = self.raw(name)
        return self._optional_string(name, os.fspath(value) if isinstance(value, os.PathLike) else value, "a file path")

    def number(self, name: str, default: float, *, minimum: float, above: bool = False) -> float:
        """A finite number, at least ``minimum`` (greater than it with ``above``)."""
        value = self.raw(name)
        if value is None:
            return default
        number = self._parse(name, value, float, "a number of seconds")
        if not math.isfinite(number):
            raise SettingsError(f"{name} must be a finite number, got {value!r}")
        self._check_minimum(name, value, number, minimum, above)
        return number

    def integer(self, name: str, default: int, *, minimum: int) -> int:
        """A whole number, at least ``minimum``."""
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, float) and not value.is_integer():
            raise SettingsError(f"{name} must be a whole number, got {value!r}")
        number = self._parse(name, value, int, "a whole number")
        self._check_minimum(name, value, number, minimum, above=False)
        return number

    def extension_fields(self, name: str) -> tuple[ExtensionField, ...]:
        """Extension fields: a list of names (each kept per group) or ``ExtensionField`` objects, or
        one comma-separated string of names; each a field name the parser does not define."""
        value = self.raw(name)
        if value is None:
            return ()
        if isinstance(value, str):
            entries: list[Any] = [entry.strip() for entry in value.split(",") if entry.strip()]
        elif isinstance(value, (list, tuple)):
            entries = list(value)
        else:
            raise SettingsError(f"{name} must be a list of field names or a comma-separated string, got {value!r}")
        if not entries:
            return ()
        from scrapy_robots_rep.core.extension_field import ExtensionField

        fields = tuple(ExtensionField(entry) if isinstance(entry, str) else entry for entry in entries)
        try:
            extension_rows(fields)
        except (TypeError, ValueError) as error:
            raise SettingsError(f"{name}: {error}") from None
        return fields

    def purposes(self, name: str) -> tuple[str, ...]:
        """Content-usage purposes: a list, or one comma-separated string; each a name of ``PURPOSE_NAMES``
        (``Content-Signal``'s or AIPREF's: ``train-ai`` is ``ai-train``), kept by its ``Content-Signal`` name."""
        purposes: list[str] = []
        entries = self._listed(name, "purposes", (list, tuple, set, frozenset))
        for entry in entries:
            purpose = PURPOSE_NAMES.get(entry.strip().lower()) if isinstance(entry, str) else None
            if purpose is None:
                allowed = ", ".join(repr(option) for option in PURPOSE_NAMES)
                raise SettingsError(f"{name} entries must be among {allowed}, got {entry!r}")
            if purpose not in purposes:
                purposes.append(purpose)
        return tuple(purposes)

    def objects(self, name: str) -> tuple[Any, ...]:
        """Import paths (or the objects themselves): a list or tuple, or one comma-separated string."""
        entries = self._listed(name, "import paths")
        for entry in entries:
            if not isinstance(entry, str) and not callable(entry):
                raise SettingsError(f"{name} lists import paths such as 'myproject.sinks.Metrics', got {entry!r}")
        return tuple(entry.strip() if isinstance(entry, str) else entry for entry in entries)

    def domains(self, name: str) -> tuple[str, ...]:
        """Domain names: a list or tuple, or one comma-separated string; lower-cased, IDN as punycode."""
        domains: list[str] = []
        for entry in self._listed(name, "domain names"):
            domain = _domain(name, entry)
            if domain not in domains:
                domains.append(domain)
        return tuple(domains)

    def _listed(self, name: str, what: str, kinds: tuple[type[Collection[Any]], ...] = (list, tuple)) -> list[Any]:
        """The entries of a list setting: a list (or another of ``kinds``), or one comma-separated
        string (blank parts left out); none when not set."""
        value = self.raw(name)
        if value is None:
            return []
        if isinstance(value, str):
            return [entry for entry in value.split(",") if entry.strip()]
        if isinstance(value, kinds):
            return list(value)
        raise SettingsError(f"{name} must be a list of {what} or a comma-separated string, got {value!r}")

    @staticmethod
    def _optional_string(name: str, value: Any, description: str) -> str | None:
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise SettingsError(f"{name} must be {description}, got {value!r}")
        return value

    @staticmethod
    def _parse(name: str, value: Any, kind: type[_Number], description: str) -> _Number:
        if isinstance(value, bool):
            raise SettingsError(f"{name} must be {description}, got {value!r}")
        try:
            return kind(value)
        except (TypeError, ValueError, OverflowError):
            raise SettingsError(f"{name} must be {description}, got {value!r}") from None

    @staticmethod
    def _check_minimum(name: str, value: Any, number: float, minimum: float, above: bool) -> None:
        if above and number <= minimum:
            raise SettingsError(f"{name} must be greater than {minimum:g}, got {value!r}")
        if number < minimum:
            raise SettingsError(f"{name} must be at least {minimum:g}, got {value!r}")


def _domain(name: str, entry: Any) -> str:
    """One exempt domain, normalised; a URL or a pattern gets an error saying what to write instead."""
    if not isinstance(entry, str) or not entry.strip():
        raise SettingsError(f"{name} must list domain names such as 'api.example.com', got {entry!r}")
    text = entry.strip()
    if "://" in text or "/" in text:
        raise SettingsError(f"{name} lists domain names, not URLs: got {text!r}; write e.g. 'api.example.com'")
    domain = ascii_host(text.lstrip("."))
    if not _DOMAIN().fullmatch(domain):
        raise SettingsError(
            f"{name} lists domain names (subdomains are included; no '*', no port): got {text!r}; "
            "write e.g. 'example.com'"
        )
    return domain


Read = Callable[[SettingsReader, str, Any], Any]
"""How one setting is read: ``read(reader, name, default)`` returns its validated value."""


def boolean(reader: SettingsReader, name: str, default: bool) -> bool:
    return reader.boolean(name, default)


def text(reader: SettingsReader, name: str, default: str) -> str:
    return reader.text(name, default)


def options_else(fallback: str) -> Read:
    """A dict of keyword options; when not set, ``fallback``'s (scrapy-redis's ``REDIS_PARAMS``).
    The value is never echoed in an error: it may hold a password."""

    def read(reader: SettingsReader, name: str, default: dict[str, Any]) -> dict[str, Any]:
        for source in (name, fallback):
            value = reader.raw(source)
            if value is None:
                continue
            if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
                raise SettingsError(f"{source} must be a dict of redis-py client options (keyword: value)")
            return dict(value)
        return dict(default)

    return read


def text_unless_empty(reader: SettingsReader, name: str, default: str) -> str:
    """A non-empty string; an empty one counts as not set (so a setting after it in line is read)."""
    return reader.text(name, default) if reader.raw(name) != "" else default


def optional_text(reader: SettingsReader, name: str, default: None) -> str | None:
    return reader.optional_text(name)


def optional_path(reader: SettingsReader, name: str, default: None) -> str | None:
    return reader.optional_path(name)


def domains(reader: SettingsReader, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    return reader.domains(name)


def purposes(reader: SettingsReader, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    return reader.purposes(name)


def extension_fields(
    reader: SettingsReader, name: str, default: tuple[ExtensionField, ...]
) -> tuple[ExtensionField, ...]:
    return reader.extension_fields(name)


def objects(reader: SettingsReader, name: str, default: tuple[Any, ...]) -> tuple[Any, ...]:
    return reader.objects(name)


def choice(allowed: Iterable[str]) -> Read:
    """One of ``allowed``."""
    names = tuple(allowed)
    return lambda reader, name, default: reader.choice(name, default, names)


def number(minimum: float, *, above: bool = False) -> Read:
    """A finite number, at least ``minimum`` (greater than it with ``above``)."""
    return lambda reader, name, default: reader.number(name, default, minimum=minimum, above=above)


def integer(minimum: int) -> Read:
    """A whole number, at least ``minimum``."""
    return lambda reader, name, default: reader.integer(name, default, minimum=minimum)
