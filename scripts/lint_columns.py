#!/usr/bin/env python3
"""Fails on a Swift line longer than the project's limit, comments and strings included (`make lint`).

`swift format lint` enforces `.swift-format`'s lineLength on code only: a long comment or string literal passes it.
This check counts Unicode characters (not bytes: `§`, `µ`, `–` are one column each) on every line of every `.swift`
file under Sources, Tests and Fuzz and of Package.swift, against the same lineLength (docs/style.md §8).

Prints `file:line: N characters (at most MAX)` for each long line and exits 1, or exits 0.
Run: python3 scripts/lint_columns.py [--root DIR]   (tests: scripts/lint_test.py)
"""
import argparse
import json
import os
import sys

from lint_citations import scanned_files

SCANNED = ["Sources", "Tests", "Fuzz", "Package.swift"]


def line_length(root):
    """The `lineLength` of the repository's `.swift-format`, so the two checks share one number."""
    with open(os.path.join(root, ".swift-format"), encoding="utf-8") as handle:
        return int(json.load(handle)["lineLength"])


def swift_files(root):
    """Every Swift file scanned, as paths relative to `root`, sorted."""
    return (path for path in scanned_files(root, SCANNED) if path.endswith(".swift"))


def findings(root):
    """`file:line: …` for every line over the limit."""
    limit = line_length(root)
    found = []
    for path in swift_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            for number, line in enumerate(handle.read().split("\n"), 1):
                if len(line) > limit:
                    found.append(f"{path}:{number}: {len(line)} characters (at most {limit})")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = findings(parser.parse_args().root)
    for finding in found:
        print(finding)
    if found:
        print(f"{len(found)} line(s) too long: rewrap the comment, or split the string literal")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
