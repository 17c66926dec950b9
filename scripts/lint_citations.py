#!/usr/bin/env python3
"""Fails on a citation of a Markdown file that is not in the repository (`make lint`; issue 41 item 5).

Scans Sources, Tests, docs, README.md, scripts, Makefile and Fuzz (every UTF-8 text file) for tokens ending in `.md`
(`docs/reference/type2.md`, `[style.md](style.md)`, `reports/bench.md` ...). The rule, also in docs/style.md §8:

* A token resolves when a file of that path exists relative to the repository root, to the citing file's folder,
  to `docs/` or to `docs/reference/` (so `docs/reference/type2.md`, `reference/type2.md` from a page in docs/ and
  `type2.md` from a page beside it all resolve). A `#anchor` after the name is ignored. A Markdown link target,
  `[text](target.md)`, must resolve the way a renderer resolves it: relative to the linking file's folder.
* Not citations, so not checked: web addresses (`https://…/README.md`), names with a placeholder (`audit-<when>.md`),
  a bare `.md` suffix, and the few names (shell patterns) in NOT_IN_REPOSITORY below: files this tool writes at run
  time and other projects' files cited together with their project (boltcard `docs/TEST_VECTORS.md`). Add a name
  there only with its reason.
* Always wrong: a path into the team's former private notes folder and a `§` citation of a retired note name
  without `.md` (`STYLE` followed by a section sign); those notes now live in docs/reference/ and docs/style.md.
* This script and its test hold the very patterns they look for, so they are not scanned.

Prints `file:line: …` for each finding and exits 1, or exits 0 when every citation resolves.
Run: python3 scripts/lint_citations.py [--root DIR]   (tests: scripts/lint_test.py)
"""
import argparse
import fnmatch
import os
import re
import sys

SCANNED = ["Sources", "Tests", "docs", "README.md", "scripts", "Makefile", "Fuzz"]
SEARCHED = ["", "docs", "docs/reference"]  # besides the citing file's folder

# Names that are not repository files, with why.
NOT_IN_REPOSITORY = {
    "audit-*.md": "an audit's report, written at run time (audit-<when>.md)",
    "summary.md": "a run's report, written at run time (reports/<job>/summary.md)",
    "bench.md": "`make bench` output (reports/bench.md)",
    "reports/bench.md": "`make bench` output",
    "reliability.md": "`make reliability` output (reports/reliability.md)",
    "reports/reliability.md": "`make reliability` output",
    "docs/TEST_VECTORS.md": "boltcard/boltcard's file, cited with its project",
    "docs/DETERMINISTIC.md": "boltcard/boltcard's file, cited with its project",
    "SCARDCONTROL.md": "LudovicRousseau/CCID's file, cited with its project",
}

# The team's former private note names: cited with `§` but without `.md`, they are still a dead reference.
RETIRED = ["STYLE", "type2-ntag", "type4-ntag424", "type5-type3", "pcsc-vpcd", "postgres-ledger", "line-timing"]

TOKEN = re.compile(r"(?<![A-Za-z0-9_./<>*-])([A-Za-z0-9_./<>*-]*[A-Za-z0-9_>*-]\.md)(?![A-Za-z0-9_])")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\bgithub\.com/\S+|\bwww\.\S+")
PRIVATE = re.compile(r"shared/reference/|/work/shared\b")
SELF = {"scripts/lint_citations.py", "scripts/lint_test.py"}
RETIRED_CITE = re.compile(r"(?<![A-Za-z0-9_./-])(" + "|".join(map(re.escape, RETIRED)) + r")`? §")


def scanned_files(root, tops=None):
    """Every file under `tops` (files or folders; the scanned ones by default), relative to `root`, sorted;
    lint_columns.py walks its folders with this too."""
    for top in SCANNED if tops is None else tops:
        full = os.path.join(root, top)
        if os.path.isfile(full):
            yield top
        elif os.path.isdir(full):
            for folder, dirs, files in os.walk(full):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    yield os.path.relpath(os.path.join(folder, name), root)


def resolves(root, citing, token):
    """Whether `token`, cited from `citing`, names a file in the repository (see the module docstring)."""
    folders = [os.path.dirname(citing)] + SEARCHED
    return any(os.path.isfile(os.path.normpath(os.path.join(root, folder, token))) for folder in folders)


def findings(root):
    """`file:line: message` for every citation that leaves the repository."""
    found = []
    for path in scanned_files(root):
        if path in SELF:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as handle:
                lines = handle.read().split("\n")
        except (UnicodeDecodeError, OSError):
            continue  # binary fixtures
        for number, line in enumerate(lines, 1):
            if PRIVATE.search(line):
                found.append(f"{path}:{number}: cites the private notes (shared/reference); cite docs/reference/")
            for match in RETIRED_CITE.finditer(line):
                found.append(f"{path}:{number}: cites the retired note '{match.group(1)}'; cite docs/reference/ "
                             "or docs/style.md")
            text = URL.sub(" ", line)
            for match in TOKEN.finditer(text):
                token = match.group(1)
                if "<" in token or "*" in token or any(fnmatch.fnmatchcase(token, n) for n in NOT_IN_REPOSITORY):
                    continue
                if text[: match.start()].endswith("]("):
                    if not os.path.isfile(os.path.normpath(os.path.join(root, os.path.dirname(path), token))):
                        found.append(f"{path}:{number}: links to {token}, which is not there relative to the file")
                elif not resolves(root, path, token):
                    found.append(f"{path}:{number}: cites {token}, which is not in the repository")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = parser.parse_args().root
    found = findings(root)
    for finding in found:
        print(finding)
    if found:
        print(f"{len(found)} citation(s) leave the repository (rule: scripts/lint_citations.py, docs/style.md §8)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
