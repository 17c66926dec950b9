#!/usr/bin/env python3
"""Tests of the `make lint` text checks (scripts/lint_citations.py, scripts/lint_columns.py) on planted trees.

Run: python3 scripts/lint_test.py   (`make lint` runs it before the checks themselves)
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def run(script, root):
    """Runs `script` on the tree at `root`: (exit status, output)."""
    done = subprocess.run([sys.executable, os.path.join(HERE, script), "--root", root],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout


class Tree:
    """A throwaway repository tree: `write(path, text)` adds a file."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = self.folder.name
        self.write(".swift-format", '{ "version": 1, "lineLength": 120 }\n')
        self.write("docs/reference/type2.md", "# Type 2\n")
        self.write("docs/style.md", "# Style\nSee [reference/type2.md](reference/type2.md) §5.\n")
        self.write("docs/reference/type3.md", "# Type 3\nSee [type2.md](type2.md) and [../style.md](../style.md).\n")
        self.write("README.md", "See [docs/style.md](docs/style.md) and https://github.com/x/y/blob/main/NOTES.md.\n")
        self.write("Sources/A/A.swift", "/// Uses `docs/reference/type2.md` §5.4 (`reports/bench.md`, `audit-<when>.md`).\n"
                   "let a = 1\n")

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as handle:
            handle.write(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.folder.cleanup()


class CitationTests(unittest.TestCase):
    def test_a_tree_whose_citations_resolve_passes(self):
        with Tree() as tree:
            self.assertEqual(run("lint_citations.py", tree.root), (0, ""))

    def test_a_citation_of_a_missing_file_fails_naming_file_and_line(self):
        with Tree() as tree:
            tree.write("Tests/ATests/ATests.swift", "import A\n// The CC layout (`type2-ntag.md` §5.4).\n")
            status, output = run("lint_citations.py", tree.root)
            self.assertEqual(status, 1)
            self.assertIn("Tests/ATests/ATests.swift:2: cites type2-ntag.md, which is not in the repository", output)

    def test_a_relative_link_that_misses_fails(self):
        with Tree() as tree:
            tree.write("docs/guide.md", "Facts: [type2.md](type2.md) §3.\n")  # docs/type2.md does not exist
            status, output = run("lint_citations.py", tree.root)
            self.assertEqual(status, 1)
            self.assertIn("docs/guide.md:1: links to type2.md, which is not there relative to the file", output)

    def test_the_private_notes_folder_and_a_retired_name_without_md_fail(self):
        with Tree() as tree:
            tree.write("scripts/x.py", "# see ../shared/" + "reference/pcsc.md\n# errors: STYLE" + " §3.4\n")
            status, output = run("lint_citations.py", tree.root)
            self.assertEqual(status, 1)
            self.assertIn("scripts/x.py:1: cites the private notes", output)
            self.assertIn("scripts/x.py:2: cites the retired note 'STYLE'", output)


class ColumnTests(unittest.TestCase):
    def test_characters_are_counted_not_bytes(self):
        with Tree() as tree:
            tree.write("Sources/A/B.swift", "/// " + "§" * 116 + "\n")  # 120 characters, 236 bytes
            self.assertEqual(run("lint_columns.py", tree.root), (0, ""))

    def test_a_long_comment_or_string_fails_naming_file_and_line(self):
        with Tree() as tree:
            tree.write("Tests/ATests/BTests.swift", "let x = 1\n/// " + "a" * 117 + "\nlet s = \"" + "b" * 120 + "\"\n")
            tree.write("Package.swift", "// " + "c" * 118 + "\n")
            status, output = run("lint_columns.py", tree.root)
            self.assertEqual(status, 1)
            self.assertIn("Tests/ATests/BTests.swift:2: 121 characters (at most 120)", output)
            self.assertIn("Tests/ATests/BTests.swift:3: 130 characters (at most 120)", output)
            self.assertIn("Package.swift:1: 121 characters (at most 120)", output)


if __name__ == "__main__":
    unittest.main()
