"""provision benchmarks (issue 9): B1 software ceiling, B2 radio floor, B3 peers, B4 manifests, B5 readers;
B6a the Type 4 (NTAG 424 DNA) radio floor.

Usage: python3 scripts/bench [--quick] [--only B1,B2,...] [--skip-build]

Builds the release binary, generates job folders under .build/bench/, runs them and writes
reports/bench.md and reports/bench.json. Every figure in the reports comes from this one run.
These are benchmarks, not tests: nothing here is part of `make test`.

Modules: common (shared runner), emulator (tag side and airtime model), b1 … b5 (one a benchmark),
report (bench.md and bench.json), __main__ (arguments and the run).
"""
