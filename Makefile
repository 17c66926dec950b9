# provision — build, test and run. `make test` is the CI entry point.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libnfc-dev libpcsclite-dev libsqlite3-dev libssl-dev libpq-dev libp11-kit-dev pkg-config sqlite3 \
	libnfc-bin libnfc-examples pcscd vsmartcard-vpcd libmicrohttpd-dev libmosquitto-dev
## Packages only the tests need: chromium renders report.html headless (Tests/ReportsTests/ReportBrowserTests);
## python3-pyscard is an independent PC/SC client reading Type 4 tags (Tests/ReaderPCSCTests/PCSCType4Tests);
## python3 also runs scripts/test_rerun.py, which `make test` uses; postgresql gives the throwaway server the
## PostgreSQL ledger tests start themselves (TestSupport/PostgresTestServer.swift); python3-jsonschema checks every
## --json document against its schema in docs/schemas (TestSupport/JSONSchemaCheck.swift); softhsm2 gives each
## PKCS #11 test its own token, and p11-kit (client module: p11-kit-modules) serves one from another process;
## curl is the HTTP client the HTTP service tests drive (Tests/HTTPServiceTests); mosquitto is the throwaway
## broker of the MQTT tests and mosquitto_sub their independent consumer (TestSupport/MosquittoBroker.swift);
## wrk loads serve in benchmark B10, whose tap URLs python3-cryptography mints (scripts/bench_sunload_test.py).
TEST_APT_PACKAGES := chromium python3 python3-pyscard python3-jsonschema postgresql softhsm2 p11-kit p11-kit-modules \
	openssl curl prometheus nginx mosquitto mosquitto-clients wrk python3-cryptography
## Packages `make deb` needs on top of deps: dpkg-shlibdeps (dpkg-dev), lintian, man-db (lintian's man page
## check, and `man` in the install test), systemd (systemd-analyze verify of the units).
DEB_APT_PACKAGES := dpkg-dev lintian man-db systemd binutils xz-utils
JOB ?= jobs/batch.json

.PHONY: deps test-deps build test lint run bench reliability fuzz clean deb deb-deps install-test bench-startup

# $(call apt_install,LABEL,PACKAGES): apt-get install the PACKAGES not installed yet (sudo when not root).
define apt_install
	@missing=""; for p in $(2); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "$(1): all present"; fi
endef

## deps: install the Debian packages the project needs to build and run (only those missing)
deps:
	$(call apt_install,deps,$(APT_PACKAGES))

## test-deps: deps plus what only the tests need: chromium, promtool (Debian prometheus: checks serve's /metrics),
## nginx (in front of two serve processes), nfcpy from PyPI (a client nobody here wrote: the tests check that it
## agrees with the PN532 emulator) and openapi-spec-validator from PyPI (validates serve's OpenAPI document);
## `build` and `run` never install them
test-deps: deps
	$(call apt_install,test-deps,$(TEST_APT_PACKAGES))
	@python3 -c 'import nfc, ndef' 2>/dev/null || python3 -m pip install --user -q nfcpy 2>/dev/null || \
		python3 -m pip install --user -q --break-system-packages nfcpy
	@python3 -c 'import openapi_spec_validator, jsonschema' 2>/dev/null || \
		python3 -m pip install --user -q openapi-spec-validator 2>/dev/null || \
		python3 -m pip install --user -q --break-system-packages openapi-spec-validator

build: deps
	$(SWIFT) build

## test: the whole suite; at most 3 tests that fail under the shared machine's load are rerun alone once, with
## the first run's PROVISION_TEST_SEED, and reported as FLAKY in .build/flaky.txt (scripts/test_rerun.py); a
## test that fails twice fails, and so does a run that crashed or did not run every test. The gate's own tests
## (scripts/test_rerun_test.py, a second), those of the units' start script (scripts/provision_service_test.py) and
## B10's load with wrk and cryptography present (scripts/bench_sunload_test.py --require) run first.
test: test-deps
	python3 scripts/test_rerun_test.py
	python3 scripts/provision_service_test.py
	python3 scripts/bench_sunload_test.py --require
	$(SWIFT) build --build-tests
	LIBNFC_LOG_LEVEL=0 python3 scripts/test_rerun.py $(SWIFT)

## lint: swift format (.swift-format: line length 120) over Sources and Tests with zero findings; no Swift line
## over 120 characters, comments and strings included (scripts/lint_columns.py); no citation of a Markdown file
## that is not in the repository (scripts/lint_citations.py); no Swift file over LINT_LINES lines (docs/style.md:
## 100–300 typical, 400 at most); and the own tests of the test gate, of these checks and of B10's tap URL pools
LINT_LINES ?= 400
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	python3 scripts/test_rerun_test.py
	python3 scripts/lint_test.py
	python3 scripts/bench_sunload_test.py
	python3 scripts/lint_citations.py
	python3 scripts/lint_columns.py
	@long=$$(find Sources Tests -name '*.swift' -exec awk -v max=$(LINT_LINES) \
		'END { if (NR > max) print FILENAME ": " NR " lines (at most " max ")" }' {} \;); \
	if [ -n "$$long" ]; then echo "$$long"; exit 1; fi

## run: the sample job on the simulated reader, with a fresh ledger
## (to continue a job instead of starting over: swift run provision run jobs/batch.json)
run: build
	rm -rf reports/batch
	$(SWIFT) run -q provision run $(JOB)

## bench: benchmarks B1–B5 (issue 9), B6a/B6b (Type 4), B7 (stations on PostgreSQL), B8 (Type 5), B9 (Type 3),
## B10 (`provision serve` under wrk; against nfc-developer/sdm-backend when SDM_BACKEND=<its checkout> is given)
## B11 (B6b with its master in a SoftHSM2 token ÷ in a key file) and B12 (`run --publish` and `provision publish`
## to a local mosquitto); PostgreSQL, SoftHSM2, wrk and mosquitto from test-deps
## → reports/bench.md and reports/bench.json (release build);
## QUICK=1 runs reduced sizes (< 2 min). Not part of `make test`.
bench: test-deps
	python3 scripts/bench $(if $(QUICK),--quick)

## reliability: crash (Type 2, Type 4: crash4, keyed NTAG 424 DNA: crash424, Type 5: crash5, Type 3: crash3), a line of
## stations on a PostgreSQL ledger (stations: KILLS kills, server stops, a frozen station), tear, bad-input,
## misbehaving-reader and environment-fault figures
## (writes reports/reliability.md and .json; environment faults need root; KILLS/ROWS/SEED to vary;
## ONLY=readers,swift runs some sections and keeps the others' figures; POSITIONS=1-16 the exchange
## positions of the misbehaving-reader matrix through the PN532/libnfc and vpcd/pcscd paths)
KILLS ?= 50
ROWS ?= 300
SEED ?= $(shell date +%s)
ONLY ?= crash,crash4,crash424,crash5,crash3,stations,corpus,env,swift,readers
POSITIONS ?= 1-16
reliability: test-deps
	$(SWIFT) build --build-tests
	LIBNFC_LOG_LEVEL=0 python3 scripts/reliability.py --kills $(KILLS) --rows $(ROWS) --seed $(SEED) \
		--only $(ONLY) --positions $(POSITIONS)

## deb: dist/provision_<version>_<arch>.deb (scripts/make_deb.sh): a release build with the Swift standard library
## linked statically and the version from git describe, man pages and bash completion generated by the binary,
## the systemd units, Depends from dpkg-shlibdeps; lintian must report no error (docs/install.md)
deb: deps deb-deps
	scripts/make_deb.sh

deb-deps:
	$(call apt_install,deb-deps,$(DEB_APT_PACKAGES))

## install-test: make deb, then install the package with apt-get, run --version, doctor, the sample job from the
## installed examples and man provision-run, verify the units, purge and check nothing is left
## (scripts/install_test.sh; installs into this machine, as root or with sudo; CI runs it after make test)
install-test: deps deb-deps
	scripts/install_test.sh

## bench-startup: milliseconds from exec to exit of `provision --version` (release build; goal: median ≤ 20 ms)
bench-startup: deps
	python3 scripts/bench/startup.py --binary "$$(scripts/make_deb.sh --build-only | tail -n 1)"

## fuzz: libFuzzer targets for the decoders and parsers, FUZZ_SECONDS each (not in CI; see docs/fuzzing.md)
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build
