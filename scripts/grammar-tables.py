#!/usr/bin/env python3
"""Keeps the key tables of docs/format.md what the grammar table renders.

Each key table of docs/format.md sits between `<!-- grammar: <mapping> -->` and
`<!-- /grammar -->`; `sesame grammar --markdown` prints every mapping's table between the
same markers. This script replaces each region of the document with the rendered one:

    python3 scripts/grammar-tables.py            # rewrite docs/format.md (make grammar)
    python3 scripts/grammar-tables.py --check    # fail with a diff when stale (make check)
    python3 scripts/grammar-tables.py --self-test

A region edited by hand, a region naming no mapping, a mapping shown twice or a marker left
open fails the check. SWIFT (default `swift`) runs the CLI; `--rendered FILE` reads its
output from a file instead.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

DOCUMENT = os.path.join(os.path.dirname(__file__), "..", "docs", "format.md")
OPEN = re.compile(r"^<!-- grammar: (?P<name>[^>]+?) -->$")
CLOSE = "<!-- /grammar -->"


class Stale(Exception):
    pass


def regions(text):
    """The rendered regions by mapping name: {name: region text, markers included}."""
    result = {}
    lines = text.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        match = OPEN.match(lines[index].rstrip("\n"))
        if not match:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip("\n") != CLOSE:
            end += 1
        if end == len(lines):
            raise Stale(f"line {index + 1}: `{lines[index].strip()}` is never closed by `{CLOSE}`")
        result[match.group("name")] = "".join(lines[index : end + 1]).rstrip("\n") + "\n"
        index = end + 1
    return result


def rewrite(document, rendered):
    """The document with each region replaced by the rendered one, and the names shown."""
    tables = regions(rendered)
    lines = document.splitlines(keepends=True)
    out, shown, index = [], [], 0
    while index < len(lines):
        line = lines[index]
        match = OPEN.match(line.rstrip("\n"))
        if not match:
            if line.rstrip("\n") == CLOSE:
                raise Stale(f"line {index + 1}: `{CLOSE}` closes no region")
            out.append(line)
            index += 1
            continue
        name = match.group("name")
        if name not in tables:
            raise Stale(f"line {index + 1}: no mapping of the grammar is named '{name}' (sesame grammar --markdown lists them)")
        if name in shown:
            raise Stale(f"line {index + 1}: the mapping '{name}' has a table above already: a key is documented once")
        end = index + 1
        while end < len(lines) and lines[end].rstrip("\n") != CLOSE:
            if OPEN.match(lines[end].rstrip("\n")):
                raise Stale(f"line {index + 1}: the region '{name}' is not closed before the next one opens")
            end += 1
        if end == len(lines):
            raise Stale(f"line {index + 1}: the region '{name}' is never closed by `{CLOSE}`")
        out.append(tables[name])
        shown.append(name)
        index = end + 1
    return "".join(out), shown


def check(document, rendered, label):
    """None when up to date, else the message and diff to print."""
    updated, _ = rewrite(document, rendered)
    if updated == document:
        return None
    diff = "".join(
        difflib.unified_diff(
            document.splitlines(keepends=True), updated.splitlines(keepends=True), label, label + " (rendered)", n=1
        )
    )
    return (
        f"{label}: stale, its key tables are not what `sesame grammar --markdown` renders from the grammar table "
        f"(Generator/SesameGenerator/Grammar); edit the key there, run `make grammar` and commit the result\n" + diff
    )


def self_test():
    rendered = (
        "<!-- grammar: window -->\n| key | type | default / required | meaning |\n|---|---|---|---|\n"
        "| `per` | *duration* | default `30s` | The window's length. |\n<!-- /grammar -->\n\n"
        "<!-- grammar: token -->\n| key | type | default / required | meaning |\n|---|---|---|---|\n"
        "| `model` | *modelName* | required | The model. |\n<!-- /grammar -->\n"
    )
    tables = regions(rendered)
    fresh = "# Doc\n\nProse.\n\n" + tables["window"] + "\nMore prose.\n\n" + tables["token"] + "\nEnd.\n"
    assert check(fresh, rendered, "doc.md") is None, "an up-to-date document was called stale"
    edited = fresh.replace("The window's length.", "The window's length, edited by hand.")
    message = check(edited, rendered, "doc.md")
    assert message and "stale" in message and "+| `per` | *duration* | default `30s` | The window's length. |" in message, message
    assert rewrite(edited, rendered)[0] == fresh, "the rewrite did not restore the rendered table"
    # A region whose table is gone entirely, or that was emptied, is refilled.
    emptied = fresh.replace(tables["token"], "<!-- grammar: token -->\n<!-- /grammar -->\n")
    assert check(emptied, rendered, "doc.md") and rewrite(emptied, rendered)[0] == fresh
    for broken, words in [
        (fresh.replace("grammar: token", "grammar: tokens"), "no mapping of the grammar is named 'tokens'"),
        (fresh + "\n" + tables["window"], "has a table above already"),
        (fresh.replace(tables["token"], "<!-- grammar: token -->\n| x |\n"), "never closed"),
        (fresh + "\n<!-- /grammar -->\n", "closes no region"),
    ]:
        try:
            rewrite(broken, rendered)
        except Stale as error:
            assert words in str(error), str(error)
        else:
            raise AssertionError(f"accepted a document that should fail with: {words}")
    print("grammar-tables.py self-test: ok", file=sys.stderr)


def render():
    swift = os.environ.get("SWIFT", "swift")
    result = subprocess.run([swift, "run", "--quiet", "sesame", "grammar", "--markdown"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"sesame grammar --markdown failed:\n{result.stderr}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail with a diff when a region is stale")
    parser.add_argument("--self-test", action="store_true", help="check the script on a document of its own")
    parser.add_argument("--rendered", help="the output of `sesame grammar --markdown`, instead of running it")
    parser.add_argument("document", nargs="?", default=DOCUMENT)
    arguments = parser.parse_args()
    if arguments.self_test:
        self_test()
        return
    if arguments.rendered:
        with open(arguments.rendered, encoding="utf-8") as file:
            rendered = file.read()
    else:
        rendered = render()
    with open(arguments.document, encoding="utf-8") as file:
        document = file.read()
    label = os.path.relpath(arguments.document)
    try:
        if arguments.check:
            message = check(document, rendered, label)
            if message:
                sys.exit(message.rstrip("\n"))
            print(f"{label}: key tables up to date", file=sys.stderr)
            return
        updated, shown = rewrite(document, rendered)
    except Stale as error:
        sys.exit(f"{label}: {error}")
    if updated != document:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=os.path.dirname(arguments.document), delete=False) as file:
            file.write(updated)
        os.replace(file.name, arguments.document)
    print(f"{label}: {len(shown)} key tables rendered", file=sys.stderr)


if __name__ == "__main__":
    main()
