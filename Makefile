# Two entry points: `make demo` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test redis-server

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV) || { \
	  echo "python3 -m venv failed; installing Debian's python3-venv" >&2; \
	  rm -rf $(VENV); \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }

$(VENV)/.installed: $(BIN)/activate setup.cfg setup.py pyproject.toml scrapy_robots_rep/core/page/_tag_search.c
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The fleet tests run a real Redis; install Debian's redis-server when it is missing.
redis-server:
	@command -v redis-server >/dev/null || { \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; }

demo: $(VENV)/.installed
	cd example_project && ../$(BIN)/scrapy crawl demo

# The static checks first (seconds), then the whole test suite.
test: lint redis-server
	$(BIN)/python -m pytest

# Static checks, configured in pyproject.toml: ruff (style, likely bugs, imports), the code formatted
# as `ruff format` writes it, and mypy --strict on the package (it ships py.typed, so its types must hold).
.PHONY: lint
lint: $(VENV)/.installed
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy
