"""What a crawl process's start costs with the add-on, in instructions (valgrind's callgrind).

The crawl is ``bench_crawl.py``'s, shaped as a short-lived worker's: one loopback site of 2
pages, so that nearly all of the process is its start (imports, the crawler's components built,
the spider opened) and its end. It runs as a whole process in each mode, ``none`` (no robots.txt
handling), ``builtin`` (Scrapy's ``ROBOTSTXT_OBEY``) and ``rep`` (the add-on), under callgrind,
which the load on the machine does not change; the figure that matters is rep - builtin. The
package's bytecode is compiled first, as an installed package has it (``pip install`` compiles it;
with ``PYTHONDONTWRITEBYTECODE=1`` an editable install would compile each module at every start).

Then the ``builtin`` and ``rep`` crawls run once more under callgrind with marks, to say where
rep's extra goes: each module's import (``importlib``'s load of it, nested imports included) and
each start-up method of this package's components (``from_crawler``, the ``_on_*`` signal handlers)
calls ``os.getppid`` as it begins and ends, and callgrind (``--dump-before=getppid``) writes the
instructions since the previous mark each time. A segment counts for every label open around it
(inclusive) and for the innermost one (self). The marks cost a little, so these runs count a few
per cent more than the unmarked ones.

    python benchmarks/bench_start.py             # the three modes, rep - builtin, and where rep's extra goes
    python benchmarks/bench_start.py --top 40    # more rows in the breakdown
    python benchmarks/bench_start.py --smoke     # no valgrind: each crawl once, and what rep imports beyond builtin
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import inspect
import io
import json
import os
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench_crawl import allowing_files, child_crawl, crawl, page
from loopback import REPO, LoopbackSites, run_child

from tests.test_start_imports import OPTIONAL  # what a plain crawl must not import: the smoke run names any found

MODES = ("none", "builtin", "rep")
PAGES = 2
PACKAGE = "scrapy_robots_rep"
STARTUP_METHODS = re.compile(r"^(from_crawler|_on_\w+|start)$")
"""Methods of this package's classes that the marked runs label: component set-up and signal handlers."""
CALLGRIND = ("valgrind", "--tool=callgrind")


class Marks:
    """Labels around imports and start-up methods; each begin and end is a callgrind dump."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.segments: list[list[str]] = []
        """The labels open during each segment, in dump order (segment ``i`` is dump ``i + 1``)."""

    def mark(self) -> None:
        self.segments.append(list(self.stack))
        os.getppid()

    @contextlib.contextmanager
    def label(self, name: str) -> Iterator[None]:
        self.mark()
        self.stack.append(name)
        try:
            yield
        finally:
            self.mark()
            self.stack.pop()

    def install(self) -> None:
        """Label every module load from now on, and the start-up methods of this package's classes."""
        import importlib._bootstrap as bootstrap

        load = bootstrap._load_unlocked  # type: ignore[attr-defined]

        def labelled_load(spec: Any) -> Any:
            with self.label(f"import {spec.name}"):
                module = load(spec)
            if spec.name.startswith(PACKAGE):
                self._wrap_methods(module)
            return module

        bootstrap._load_unlocked = labelled_load  # type: ignore[attr-defined]

    def _wrap_methods(self, module: Any) -> None:
        for cls in vars(module).values():
            if not (isinstance(cls, type) and cls.__module__ == module.__name__):
                continue
            for name, member in list(vars(cls).items()):
                if not STARTUP_METHODS.match(name):
                    continue
                is_classmethod = isinstance(member, classmethod)
                function = member.__func__ if is_classmethod else member
                if not inspect.isfunction(function) or inspect.iscoroutinefunction(function):
                    continue
                wrapped = self._labelled(f"{cls.__name__}.{name}", function)
                setattr(cls, name, classmethod(wrapped) if is_classmethod else wrapped)

    def _labelled(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            with self.label(name):
                return function(*args, **kwargs)

        return call


def child(mode: str, bases: list[str], pages: int, marked: bool) -> None:
    """One crawl (in the subprocess), reported with the modules it imported and, if ``marked``, its marks."""
    marks = Marks()
    if marked:
        marks.install()
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        child_crawl(mode, bases, pages, None)
    report = json.loads(output.getvalue().strip().splitlines()[-1])
    report["modules"] = sorted(sys.modules)
    report["segments"] = marks.segments
    print(json.dumps(report))


def marked_run(mode: str, sites: LoopbackSites) -> Marked:
    """``mode``'s crawl under callgrind with marks."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "marked.callgrind"
        options = ("--dump-before=getppid", "--dump-instr=no", "--dump-line=no", f"--callgrind-out-file={output}")
        report = run_child(__file__, mode, sites.bases, PAGES, prefix=(*CALLGRIND, *options), extra=("--marked",))
        dumps = {int(path.suffix[1:]): _totals(path) for path in output.parent.glob(f"{output.name}.*")}
        tail = _totals(output)
    segments: list[list[str]] = report["segments"]
    if sorted(dumps) != list(range(1, len(segments) + 1)):
        sys.exit(f"{mode}: {len(dumps)} callgrind dumps for {len(segments)} marks (is getppid called elsewhere?)")
    marked = Marked(set(report["modules"]), sum(dumps.values()) + tail, segments)
    marked.buckets["the rest"] += tail
    for number, labels in enumerate(segments, 1):
        count = dumps[number]
        for name in set(labels):
            marked.inclusive[name] += count
        marked.own[labels[-1] if labels else ""] += count
        if any(name.startswith("import ") for name in labels):
            marked.buckets["imports"] += count
        elif labels:
            marked.buckets["methods"] += count
        else:
            marked.buckets["the rest"] += count
    return marked


class Marked:
    """What a marked run counted: instructions per label, inclusive and own, and per bucket."""

    def __init__(self, modules: set[str], total: int, segments: list[list[str]]) -> None:
        self.segments = segments
        self.modules = modules
        self.total = total
        self.inclusive: dict[str, int] = defaultdict(int)
        self.own: dict[str, int] = defaultdict(int)
        self.buckets: dict[str, int] = defaultdict(int)


def _totals(path: Path) -> int:
    found = re.search(rb"^totals: (\d+)", path.read_bytes(), re.MULTILINE)
    if found is None:
        sys.exit(f"no instruction count in {path}")
    return int(found.group(1))


def outermost(names: set[str], segments: list[list[str]]) -> set[str]:
    """The modules of ``names`` whose import no import of another of ``names`` was around."""
    found = set()
    for labels in segments:
        for label in labels:
            if label.startswith("import ") and label[len("import ") :] in names:
                found.add(label[len("import ") :])
                break
    return found


def millions(count: float) -> str:
    return f"{count / 1e6:,.1f} M"


BUCKETS = {
    "imports": "imports (wherever made)",
    "methods": "this package's start-up methods, their imports left out",
    "the rest": "the rest (Python's start, Scrapy's work, the crawl)",
}


def instructions(sites: LoopbackSites, top: int) -> None:
    totals: dict[str, int] = {}
    for mode in MODES:
        with tempfile.NamedTemporaryFile(suffix=".callgrind") as output:
            crawl(mode, sites, PAGES, prefix=(*CALLGRIND, f"--callgrind-out-file={output.name}"))
            totals[mode] = _totals(Path(output.name))
        print(f"{mode:8} {millions(totals[mode]):>12}", flush=True)
    print(
        f"rep - builtin: {millions(totals['rep'] - totals['builtin'])}   builtin - none: "
        f"{millions(totals['builtin'] - totals['none'])}   (one crawl process, 1 site x {PAGES} pages, callgrind)",
        flush=True,
    )

    builtin, rep = marked_run("builtin", sites), marked_run("rep", sites)
    print(f"\nmarked runs{'':44} {'builtin':>10} {'rep':>10} {'rep - builtin':>14}")
    print(
        f"  {'whole process':53} {millions(builtin.total):>10} {millions(rep.total):>10} "
        f"{millions(rep.total - builtin.total):>14}"
    )
    for bucket, title in BUCKETS.items():
        before, after = builtin.buckets[bucket], rep.buckets[bucket]
        print(f"  {title:53} {millions(before):>10} {millions(after):>10} {millions(after - before):>14}")

    new = rep.modules - builtin.modules
    ours = sum(1 for name in new if name.startswith(PACKAGE))
    print(
        f"\n{len(new)} modules rep's process imports that builtin's does not ({ours} of this package); "
        "the outermost, inclusive:"
    )
    for name in sorted(outermost(new, rep.segments), key=lambda name: -rep.inclusive[f"import {name}"])[:top]:
        print(f"  {millions(rep.inclusive[f'import {name}']):>10}  {name}")
    print("\nthe largest own costs among them (a module's body, the imports it makes left out):")
    for name in sorted(new, key=lambda name: -rep.own[f"import {name}"])[:top]:
        print(f"  {millions(rep.own[f'import {name}']):>10}  {name}")
    print(
        "\nthis package's start-up methods (inclusive: the imports made inside them counted, also those of "
        "modules builtin's process imports elsewhere)"
    )
    methods = {name: count for name, count in rep.inclusive.items() if not name.startswith("import ")}
    for name, count in sorted(methods.items(), key=lambda item: -item[1])[:top]:
        print(f"  {millions(count):>10}  {name}")


def smoke(sites: LoopbackSites) -> None:
    modules = {}
    for mode in MODES:
        report = run_child(__file__, mode, sites.bases, PAGES)
        if report["pages"] != PAGES:
            sys.exit(f"{mode}: {report['pages']} pages, expected {PAGES}")
        modules[mode] = set(report["modules"])
        print(f"{mode:8} {len(modules[mode]):5} modules imported, {report['pages']} pages")
    new = modules["rep"] - modules["builtin"]
    ours = sorted(name for name in new if name.startswith(PACKAGE))
    optional = sorted(name for name in new if any(name == part or name.startswith(part + ".") for part in OPTIONAL))
    print(
        f"rep imports {len(new)} modules beyond builtin's, {len(ours)} of this package; "
        f"optional parts: {', '.join(optional) or 'none'}"
    )
    if optional:
        sys.exit("a crawl that does not ask for them imported optional parts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="no valgrind: each crawl once, and what rep imports")
    parser.add_argument("--top", type=int, default=20, help="rows of each list of the breakdown")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--bases", help=argparse.SUPPRESS)
    parser.add_argument("--pages", type=int, default=PAGES, help=argparse.SUPPRESS)
    parser.add_argument("--marked", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.bases.split(","), args.pages, args.marked)
        return

    import compileall

    compileall.compile_dir(REPO / PACKAGE, quiet=1)  # as installed: the bytecode is there, not compiled at start
    _, files = allowing_files(1)
    served = [page(index, PAGES) for index in range(PAGES)]

    def serve(path: bytes) -> tuple[bytes, bytes]:
        return served[int(path.rsplit(b"/", 1)[1])], b"text/html; charset=utf-8"

    sites = LoopbackSites(1, files, serve)
    try:
        if args.smoke:
            smoke(sites)
        else:
            instructions(sites, args.top)
    finally:
        sites.stop()


if __name__ == "__main__":
    main()
