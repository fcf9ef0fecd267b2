#!/usr/bin/env python3
"""Checks that the commands the tutorials tell readers to run exist.

Reads docs/tutorial/*.md: every `sh` code block, and every inline code span of the prose
that starts with `sesame ` or `make `. For each `sesame <subcommand> …` invocation (run
directly or through `swift run … sesame`), the subcommand must be one the CLI lists and
every option (`--schema`, `--check`, `-h`) one its `--help` lists; for each `make <target>`,
the target must be a rule of the Makefile. The CLI's help is read once per subcommand
from the built binary (`make check` builds it first), so the whole check takes a second or
two.

    python3 scripts/check-tutorial-commands.py              # make check
    python3 scripts/check-tutorial-commands.py --self-test  # a misspelt option must fail

SWIFT (default `swift`) finds the binary (`swift build --show-bin-path`); `--sesame PATH`
names it instead. Prints `file:line: message` for each problem and exits 1.
"""

import argparse
import difflib
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
TUTORIAL = os.path.join(ROOT, "docs", "tutorial")
MAKEFILE = os.path.join(ROOT, "Makefile")
SEPARATORS = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&"}
INLINE = re.compile(r"`(?P<code>(?:sesame|make) [^`]+)`")


def commands(path):
    """(line, text) of every shell command and inline `sesame …`/`make …` span of a file."""
    found, block = [], None
    in_other = False
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                if block is not None:
                    found.extend(shell_commands(block))
                    block = None
                elif in_other:
                    in_other = False
                elif stripped[3:].split(" ")[0] in ("sh", "shell", "bash", "console"):
                    block = []
                else:
                    in_other = True
                continue
            if block is not None:
                block.append((number, stripped))
            elif not in_other:
                found.extend((number, match.group("code")) for match in INLINE.finditer(line))
    return found


def shell_commands(block):
    """The commands of a shell block: its `$ ` lines when it has any (the others are their
    output), else every line but comments; a line ending in `\\` continues on the next."""
    prompted = any(text.startswith("$ ") for _, text in block)
    result, pending = [], None
    for number, text in block:
        if pending is None:
            if prompted and not text.startswith("$ "):
                continue
            text = text[2:] if prompted else text
            if not text or text.startswith("#"):
                continue
            pending = (number, "")
        joined = pending[1] + text
        if joined.endswith("\\"):
            pending = (pending[0], joined[:-1] + " ")
            continue
        result.append((pending[0], joined))
        pending = None
    if pending:
        result.append(pending)
    return result


def invocations(text):
    """The `sesame` and `make` invocations of a command line: (tool, words after it)."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    result, current = [], []
    for word in words + [";"]:
        if word in SEPARATORS:
            if current:
                result.extend(invocation(current))
            current = []
        else:
            current.append(word)
    return result


def invocation(words):
    for index, word in enumerate(words):
        if os.path.basename(word) == "sesame" and (index == 0 or words[index - 1] not in ("--package-path", "--product")):
            return [("sesame", words[index + 1 :])]
    if words and words[0] == "make":
        return [("make", words[1:])]
    return []


def subcommands(root_help):
    """The subcommand names of the root `--help`'s SUBCOMMANDS: section."""
    return set(section_names(root_help, "SUBCOMMANDS:", r"^  (?P<name>[a-z][a-z0-9-]*)\b"))


def options(help_text):
    """The option names (`--schema`, `-h`, `--no-check`) of a subcommand's `--help`."""
    names = set()
    for line in section(help_text, "OPTIONS:"):
        head = line.strip().split("  ")[0]
        for token in re.findall(r"--\[no-\][A-Za-z0-9-]+|--[A-Za-z0-9-]+|-[A-Za-z]\b", head):
            if token.startswith("--[no-]"):
                names.update({"--" + token[7:], "--no-" + token[7:]})
            else:
                names.add(token)
    return names


def section(text, title):
    lines, inside = [], False
    for line in text.splitlines():
        if line.strip() == title:
            inside = True
        elif inside and line and not line.startswith(" "):
            break
        elif inside:
            lines.append(line)
    return lines


def section_names(text, title, pattern):
    return [match.group("name") for line in section(text, title) if (match := re.match(pattern, line))]


def make_targets(makefile_text):
    return set(re.findall(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", makefile_text, re.MULTILINE))


def hint(word, choices):
    close = difflib.get_close_matches(word, sorted(choices), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def check(files, help_for, makefile_text):
    """Problems (file:line: message) of the tutorials' commands; help_for(None) is the root help."""
    problems, checked = [], 0
    known = subcommands(help_for(None))
    targets = make_targets(makefile_text)
    option_cache = {}
    for path in files:
        label = os.path.relpath(path, ROOT)
        for number, text in commands(path):
            for tool, words in invocations(text):
                checked += 1
                where = f"{label}:{number}"
                if tool == "make":
                    for target in (word for word in words if not word.startswith("-") and "=" not in word):
                        if target not in targets and target != "…":
                            problems.append(f"{where}: `make {target}`: the Makefile has no target '{target}'{hint(target, targets)}")
                    continue
                if not words or words[0].startswith("-"):
                    continue
                sub = words[0]
                if sub not in known:
                    problems.append(f"{where}: `sesame {sub}`: no such subcommand{hint(sub, known)} (sesame --help)")
                    continue
                if sub not in option_cache:
                    option_cache[sub] = options(help_for(sub))
                for word in words[1:]:
                    if not word.startswith("-") or word == "-":
                        continue
                    name = word.split("=", 1)[0]
                    if name not in option_cache[sub]:
                        problems.append(
                            f"{where}: `sesame {sub} {name}`: no such option{hint(name, option_cache[sub])} (sesame {sub} --help)"
                        )
    return problems, checked


def self_test():
    import tempfile

    root_help = "USAGE: sesame <subcommand>\n\nSUBCOMMANDS:\n  validate                Checks.\n  discover                Writes.\n\n  See 'sesame help'.\n"
    discover_help = (
        "USAGE: sesame discover <source> --schema <schema> [--check]\n\nARGUMENTS:\n  <source>   The URL.\n\n"
        "OPTIONS:\n  --schema <schema>       The folder.\n  --algorithms <algorithms>\n                          What.\n"
        "  --[no-]color            Colour.\n  --check                 Write nothing.\n  -h, --help              Show help information.\n"
    )
    helps = {None: root_help, "discover": discover_help, "validate": "OPTIONS:\n  -h, --help   Help.\n"}
    makefile = "SESAME = swift run sesame\ncheck:\n\ttrue\ntest: check\n\ttrue\nX := 1\n"
    good = (
        "# T\n\n```sh\nswift run --package-path ../sesame sesame discover http://x --schema S --algorithms merge --no-color\n```\n\n"
        "Run `sesame discover … --check` and `make test`, or `sesame validate Schema`.\n\n"
        "```sh\n$ swift run notes sign-in --browser\nsesame discover --quietly\n```\n\n```yaml\nsesame discover --nope\n```\n"
        "```sh\nsesame discover http://x \\\n  --check\n```\n"
    )
    bad = {
        "misspelt option": ("```sh\nsesame discover http://x --schema S --chek\n```\n", "no such option; did you mean '--check'?"),
        "unknown subcommand": ("Run `sesame discovr x`.\n", "no such subcommand; did you mean 'discover'?"),
        "misspelt option on a continued line": ("```sh\nsesame discover http://x \\\n  --chek\n```\n", "did you mean '--check'?"),
        "missing make target": ("```sh\nmake tset\n```\n", "the Makefile has no target 'tset'; did you mean 'test'?"),
        "option of another subcommand": ("```sh\n$ sesame validate Schema --check\n```\n", "`sesame validate --check`: no such option"),
    }
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "good.md")
        with open(path, "w", encoding="utf-8") as file:
            file.write(good)
        problems, checked = check([path], helps.__getitem__, makefile)
        assert problems == [] and checked == 5, (problems, checked)
        for name, (text, words) in bad.items():
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
            problems, _ = check([path], helps.__getitem__, makefile)
            assert len(problems) == 1 and words in problems[0], f"{name}: {problems}"
    assert make_targets(makefile) == {"check", "test"}
    print("check-tutorial-commands.py self-test: ok", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="show that a misspelt option, subcommand or target fails")
    parser.add_argument("--sesame", help="the sesame binary (default: the one `swift build` built)")
    arguments = parser.parse_args()
    if arguments.self_test:
        self_test()
        return
    binary = arguments.sesame
    if not binary:
        swift = os.environ.get("SWIFT", "swift")
        found = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True)
        binary = os.path.join(found.stdout.strip(), "sesame")
    if not os.access(binary, os.X_OK):
        sys.exit(f"check-tutorial-commands: {binary} is not built; run `swift build --product sesame` first")

    def help_for(sub):
        result = subprocess.run([binary] + ([sub] if sub else []) + ["--help"], capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            sys.exit(f"check-tutorial-commands: `sesame {sub or ''} --help` failed:\n{result.stderr}")
        return result.stdout

    with open(MAKEFILE, encoding="utf-8") as file:
        makefile = file.read()
    files = sorted(glob.glob(os.path.join(TUTORIAL, "*.md")))
    problems, checked = check(files, help_for, makefile)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-tutorial-commands: ok ({checked} sesame and make commands in {len(files)} tutorial files)", file=sys.stderr)


if __name__ == "__main__":
    main()
