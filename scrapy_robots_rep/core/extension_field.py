"""``ExtensionField``: a robots.txt field the caller asks the parser to read (``REP_EXTENSION_FIELDS``).

A module of its own, imported when the first one is made or given (``core.fields.extension_rows``):
a crawl without extension fields never needs the class (docs/performance.md, "Process start").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtensionField:
    """A robots.txt field this parser does not define, read for the caller.

    ``RobotsTxt.parse(body, extensions=[ExtensionField("llm-policy")])`` keeps the
    field's values for the agent: ``AgentRules.extension("llm-policy")``. Per group
    (the default), the values of the groups the agent obeys; else every value of the file.
    The name is read exactly (any case), never as a misspelling of another field."""

    name: str
    per_group: bool = True
