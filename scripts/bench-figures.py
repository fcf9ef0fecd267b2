#!/usr/bin/env python3
"""Rewrite the figures table of docs/performance.md from the output of `sesame-bench all`.

    python3 scripts/bench-figures.py OUTPUT [--doc docs/performance.md] [--commit C] [--date D]
    python3 scripts/bench-figures.py --check

OUTPUT is what `sesame-bench all` printed (standard output and standard error in one file, as
`make bench` records it in Benchmarks/results/all.txt). The script reads its `targets:` block,
one line per target as `TargetCheck.description` prints it (`name: measured  met` or
`name: measured  MISSED`), and the `openid: id-token` lines (figures without a target), and
replaces what lies between the two marker comments of the document:

    <!-- figures:begin (make bench rewrites this table) -->
    ...
    <!-- figures:end -->

Nothing outside the markers changes. It exits 1 when the output holds no target (a run that
failed before its verdict), when the markers are missing, or when `--check` finds a difference.

`--check` tests the script itself, without a benchmark run: it renders
scripts/fixtures/sesame-bench-all.txt (an output in sesame-bench's format) and compares the
table with scripts/fixtures/sesame-bench-all.table.md, then rewrites a small document twice
and checks that the text around the markers is kept and that a second rewrite changes nothing.
`--check --update` rewrites the expected table after a deliberate change of the format.
"""

import argparse
import datetime
import pathlib
import re
import subprocess
import sys
import tempfile

BEGIN = "<!-- figures:begin (make bench rewrites this table) -->"
END = "<!-- figures:end -->"
ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "scripts" / "fixtures" / "sesame-bench-all.txt"
EXPECTED = ROOT / "scripts" / "fixtures" / "sesame-bench-all.table.md"

TARGET_LINE = re.compile(r"^  (?P<check>.+?)  (?P<verdict>met|MISSED)$")
ID_TOKEN_LINE = re.compile(r"^openid: id-token (?P<algorithm>\S+): (?P<figure>.+)$")


class Failure(Exception):
    pass


def parse(output):
    """The targets (benchmark, target, measured, met) and the id-token figures of one run."""
    lines = output.splitlines()
    starts = [index for index, line in enumerate(lines) if line == "targets:"]
    if not starts:
        raise Failure("no `targets:` block: the run ended before its verdict")
    targets = []
    for line in lines[starts[-1] + 1 :]:
        match = TARGET_LINE.match(line)
        if not match:
            break
        check = match.group("check")
        # TargetCheck.description is "\(name): \(measured)"; names hold ": " themselves
        # ("generate, 2000 models: under 0.6 s"), measured figures never do.
        name, separator, measured = check.rpartition(": ")
        if not separator:
            raise Failure(f"a target line without a figure: {line.strip()}")
        benchmark, separator, target = name.partition(": ")
        if not separator:
            benchmark, target = name, ""
        targets.append((benchmark, target, measured, match.group("verdict") == "met"))
    if not targets:
        raise Failure("the `targets:` block is empty")
    figures = [
        (f"id-token {match.group('algorithm')}", match.group("figure"))
        for match in map(ID_TOKEN_LINE.match, lines)
        if match
    ]
    return targets, figures


def cell(text):
    return text.replace("|", "\\|")


def render(targets, figures, commit, date):
    met = sum(1 for target in targets if target[3])
    rows = [
        f"`make bench` at commit `{commit}`, {date}: {met} of {len(targets)} targets met.",
        "",
        "| benchmark | target | figure | |",
        "|---|---|---|---|",
    ]
    for benchmark, target, measured, was_met in targets:
        verdict = "met" if was_met else "**missed**"
        rows.append(f"| {cell(benchmark)} | {cell(target)} | {cell(measured)} | {verdict} |")
    for benchmark, figure in figures:
        rows.append(f"| {cell(benchmark)} | (a figure, no target) | {cell(figure)} | |")
    return "\n".join(rows) + "\n"


def rewrite(document, table):
    begin = document.find(BEGIN)
    end = document.find(END)
    if begin < 0 or end < 0 or end < begin:
        raise Failure(f"the document lacks the markers `{BEGIN}` … `{END}`")
    return document[: begin + len(BEGIN)] + "\n" + table + document[end:]


def head_commit():
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def check(update):
    targets, figures = parse(FIXTURE.read_text(encoding="utf-8"))
    table = render(targets, figures, commit="0000000", date="2026-01-01")
    if update:
        EXPECTED.write_text(table, encoding="utf-8")
        print(f"{EXPECTED.relative_to(ROOT)}: rewritten")
        return 0
    problems = []
    if table != EXPECTED.read_text(encoding="utf-8"):
        problems.append(f"the table rendered from {FIXTURE.name} is not {EXPECTED.name}")
    missed = [target for target in targets if not target[3]]
    if (len(targets), len(missed), len(figures)) != (61, 6, 2):
        problems.append(f"expected 61 targets, 6 missed and 2 id-token figures; read {len(targets)}, {len(missed)}, {len(figures)}")
    document = f"# Title\n\nBefore.\n\n{BEGIN}\nold table\n{END}\n\nAfter.\n"
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "performance.md"
        path.write_text(document, encoding="utf-8")
        once = rewrite(path.read_text(encoding="utf-8"), table)
        twice = rewrite(once, table)
    if "old table" in once or not once.startswith("# Title\n\nBefore.\n\n") or not once.endswith(f"{END}\n\nAfter.\n"):
        problems.append("a rewrite did not replace exactly what lies between the markers")
    if once != twice:
        problems.append("a second rewrite with the same table changed the document")
    try:
        parse("generate: 1 models\n")
        problems.append("an output without a `targets:` block was accepted")
    except Failure:
        pass
    for problem in problems:
        print(f"bench-figures --check: {problem}", file=sys.stderr)
    if not problems:
        print(f"bench-figures --check: {len(targets)} targets and {len(figures)} figures rendered as expected")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="what `sesame-bench all` printed")
    parser.add_argument("--doc", default=str(ROOT / "docs" / "performance.md"))
    parser.add_argument("--commit", help="the commit measured (default: git rev-parse --short HEAD)")
    parser.add_argument("--date", help="the day of the run (default: today, UTC)")
    parser.add_argument("--check", action="store_true", help="test the script on its recorded fixture")
    parser.add_argument("--update", action="store_true", help="with --check: rewrite the expected table")
    arguments = parser.parse_args()
    try:
        if arguments.check:
            return check(arguments.update)
        if not arguments.output:
            parser.error("OUTPUT is required without --check")
        targets, figures = parse(pathlib.Path(arguments.output).read_text(encoding="utf-8"))
        date = arguments.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        table = render(targets, figures, arguments.commit or head_commit(), date)
        doc = pathlib.Path(arguments.doc)
        doc.write_text(rewrite(doc.read_text(encoding="utf-8"), table), encoding="utf-8")
        print(f"{doc}: figures table rewritten ({len(targets)} targets)")
        return 0
    except (Failure, OSError) as failure:
        print(f"bench-figures: {failure}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
