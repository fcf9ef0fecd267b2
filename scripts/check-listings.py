#!/usr/bin/env python3
"""Checks that every listing of the docs that names its source file shows that file.

A fenced block whose info string carries `file=PATH` (relative to the repository's root) is
a listing of that file:

    ```yaml file=Reference/Sources/NotesSDK/Schema/sdk.yaml
    ```swift file=Reference/Sources/notes/NotesApp.swift region=password
    ```yaml file=Reference/Sources/NotesSDK/Schema/auth.yaml exclude=openid,notes

Without `region`, the listing is the whole file; `region=NAME` is the lines between the file's
`tutorial:begin NAME` and `tutorial:end NAME` comments (`# ` in YAML, `// ` in Swift);
`exclude=A,B` is the whole file without those regions (and without the blank lines they
leave: one where there were several, none before a closing brace). The marker lines
themselves never show. The listing must be the text exactly, or the check fails with a diff.

It also checks that the tutorial's manifest (Reference/Tutorial/Package.swift, shown in the
tutorial) declares the targets the Reference package builds from the same sources, with the
same dependencies (`swift package dump-package` of both, which resolves nothing).

    python3 scripts/check-listings.py               # docs/**/*.md and the manifest
    python3 scripts/check-listings.py --self-test   # the check fails on a changed listing
Exit 1 at any difference, naming the listing as file:line.
"""

import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^(`{3,})(\S*)\s+(.*\bfile=.*)$")
MARKER = re.compile(r"^\s*(#|//)\s*tutorial:(begin|end)\s+(\S+)\s*$")
ATTRIBUTES = {"file", "region", "exclude"}
# The tutorial's manifest and the Reference targets its targets must match.
TUTORIAL_MANIFEST = "Reference/Tutorial"
REFERENCE_MANIFEST = "Reference"
TUTORIAL_TARGETS = ["NotesAPISDK", "NotesSDK", "notes"]


class ListingError(Exception):
    pass


def extract(path, region=None, exclude=()):
    """The lines of `path` a listing shows: one region, or all but the excluded ones."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    active = []
    seen = set()
    shown = []
    for number, line in enumerate(lines, 1):
        marker = MARKER.match(line)
        if marker:
            kind, name = marker.group(2), marker.group(3)
            if kind == "begin":
                active.append(name)
                seen.add(name)
            elif not active or active[-1] != name:
                raise ListingError(f"{path}:{number}: 'tutorial:end {name}' closes no open region")
            else:
                active.pop()
            continue
        if region is not None:
            if region in active:
                shown.append(line)
        elif not any(name in exclude for name in active):
            shown.append(line)
    if active:
        raise ListingError(f"{path}: region '{active[-1]}' is never closed")
    for name in ([region] if region else []) + list(exclude):
        if name not in seen:
            raise ListingError(f"{path} has no region '{name}'")
    if exclude:
        shown = close_gaps(shown)
    return shown


def close_gaps(lines):
    """The blank lines that excluded regions leave: one where there were several, none
    before a closing brace or bracket."""
    closed = []
    for index, line in enumerate(lines):
        if line.strip() == "":
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if (closed and closed[-1].strip() == "") or following.lstrip().startswith(("}", "]", ")")):
                continue
        closed.append(line)
    return closed


def listings(markdown):
    """(line number, attributes, lines) of each listing that names its file."""
    with open(markdown, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        start = index + 1
        attributes = {}
        for word in fence.group(3).split():
            key, _, value = word.partition("=")
            if key not in ATTRIBUTES or not value:
                raise ListingError(f"{markdown}:{start}: unknown listing attribute '{word}' (file=, region=, exclude=)")
            attributes[key] = value
        end = start
        while end < len(lines) and lines[end] != fence.group(1):
            end += 1
        if end == len(lines):
            raise ListingError(f"{markdown}:{start}: the listing never ends")
        yield start, attributes, lines[start:end]
        index = end + 1


def check_markdown(markdown):
    """The problems of one markdown file's listings, as messages; and how many it has."""
    problems = []
    count = 0
    shown_path = os.path.relpath(markdown, ROOT)
    for start, attributes, shown in listings(markdown):
        count += 1
        path = attributes.get("file")
        exclude = tuple(filter(None, attributes.get("exclude", "").split(",")))
        if not os.path.isfile(os.path.join(ROOT, path)):
            problems.append(f"{shown_path}:{start}: error: no file {path}")
            continue
        try:
            expected = extract(path, attributes.get("region"), exclude)
        except ListingError as error:
            problems.append(f"{shown_path}:{start}: error: {error}")
            continue
        if shown != expected:
            what = path + (f" (region {attributes['region']})" if "region" in attributes else "")
            diff = "\n".join(difflib.unified_diff(expected, shown, what, shown_path, lineterm="", n=1))
            problems.append(f"{shown_path}:{start}: error: the listing is not {what}\n{diff}")
    return problems, count


def markdown_files():
    for folder, _, names in os.walk(os.path.join(ROOT, "docs")):
        for name in sorted(names):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def dump(package):
    swift = os.environ.get("SWIFT", "swift")
    result = subprocess.run(
        [swift, "package", "--package-path", os.path.join(ROOT, package), "dump-package"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise ListingError(f"{package}/Package.swift: swift package dump-package failed:\n{result.stderr}")
    return {target["name"]: target for target in json.loads(result.stdout)["targets"]}


def check_manifest():
    """The tutorial's manifest declares the Reference package's tutorial targets."""
    problems = []
    tutorial, reference = dump(TUTORIAL_MANIFEST), dump(REFERENCE_MANIFEST)
    if sorted(tutorial) != sorted(TUTORIAL_TARGETS):
        problems.append(f"{TUTORIAL_MANIFEST}/Package.swift: error: its targets are {sorted(tutorial)}, not {TUTORIAL_TARGETS}")
    for name in TUTORIAL_TARGETS:
        if name not in tutorial or name not in reference:
            problems.append(f"{TUTORIAL_MANIFEST}/Package.swift: error: target {name} is missing here or in {REFERENCE_MANIFEST}/Package.swift")
            continue
        for key in ("type", "dependencies", "exclude"):
            if tutorial[name].get(key) != reference[name].get(key):
                problems.append(
                    f"{TUTORIAL_MANIFEST}/Package.swift: error: target {name}'s {key} is not the one "
                    f"{REFERENCE_MANIFEST}/Package.swift builds: {tutorial[name].get(key)} != {reference[name].get(key)}")
    return problems


def self_test():
    """A listing with one changed line must fail, and the same listing unchanged must pass."""
    source = "Reference/Sources/NotesSDK/Schema/sdk.yaml"
    expected = extract(source, "openid")
    with tempfile.TemporaryDirectory() as folder:
        good = os.path.join(folder, "good.md")
        bad = os.path.join(folder, "bad.md")
        with open(good, "w", encoding="utf-8") as handle:
            handle.write("\n".join(["```yaml file=" + source + " region=openid"] + expected + ["```", ""]))
        changed = expected[:-1] + [expected[-1] + "  # changed"]
        with open(bad, "w", encoding="utf-8") as handle:
            handle.write("\n".join(["```yaml file=" + source + " region=openid"] + changed + ["```", ""]))
        good_problems, _ = check_markdown(good)
        bad_problems, _ = check_markdown(bad)
    if good_problems or len(bad_problems) != 1 or "the listing is not" not in bad_problems[0]:
        print("check-listings self-test: FAILED", good_problems, bad_problems, file=sys.stderr)
        return 1
    print("check-listings self-test: an unchanged listing passes, a changed one fails", file=sys.stderr)
    return 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    problems = []
    total = 0
    try:
        for markdown in markdown_files():
            found, count = check_markdown(markdown)
            problems += found
            total += count
        problems += check_manifest()
    except ListingError as error:
        problems.append(f"error: {error}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-listings: {total} listings show their files; the tutorial's manifest declares the Reference targets", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
