#!/usr/bin/env python3
"""Measures Sesame's models against the official JSON-Schema-Test-Suite, draft 2020-12.

    scripts/conformance.py SUITE [--sesame PATH] [--work DIR] [--json OUT]
                           [--enums open|closed] [--formats assert|annotate]
    scripts/conformance.py SUITE --one-sdk [--sesame PATH] [--work DIR]

SUITE is a clone of github.com/json-schema-org/JSON-Schema-Test-Suite (its tests/draft2020-12
folder is read; optional/ is skipped). `make conformance SUITE=...` runs it; it is not part of
`make test`, since a fresh clone has no copy of the suite (docs/format.md, "Conformance").

Each group of tests/draft2020-12/*.json ({description, schema, tests}) becomes one model,
`T<n>`, in a schema file of its own (`T<n>.yaml`, the group's schema written as JSON, which
is YAML). The group's schema is a JSON Schema document whose `#` is its own root; in a Sesame
models file `#` is the models file, so a `$ref` of the document that starts with `#` is
rewritten to start at the model (`#/$defs/a` -> `#/T<n>/$defs/a`, `#` -> `#/T<n>`). Nothing
else is changed.

1. Each group is validated alone (`sesame validate` of a folder with the fixture's sdk.yaml and
   auth.yaml, its token models, and the group's file): translated, or refused. A refusal is
   *positioned* when every error it prints is `T<n>.yaml:line:column: error: ...`; any other
   refusal (an error with no position, or a crash) is a bug and is listed.
2. Every translated group goes into ONE schema folder, generated into ONE SDK and compiled in
   ONE `swift build` with a runner executable (scratch path WORK/build, kept between runs).
   A group whose code does not compile is dropped, listed as a bug, and the build is retried.
3. The runner decodes each case's data as the group's model with JSONDecoder (the generated,
   strict `init(from:)`), and encodes an accepted value back (every keyword is checked on
   encode too). A case is decided right when it decodes exactly when the suite says it is
   valid: data no Swift type of the schema can hold counts as refused. An accepted value that
   fails to encode is counted as a wrong decision.

`--enums` and `--formats` write sdk.yaml's model options into every folder (`models: { enums:
closed, formats: annotate }` is JSON Schema's own meaning of `enum` and `format`; without them
the SDK's defaults, open enums and asserted formats, are measured: docs/format.md, "models:
enums and formats").

`--one-sdk` measures only whether the groups can share one SDK: every group translated alone
goes into ONE schema folder, validated (`sesame validate`) until no group is refused; a group
refused there is *lost* (it translates alone but not beside the others, as when two groups
declare one name). It prints how many are lost and each one's first error, and builds nothing.

Prints per file: groups, translated, refused (positioned / not), cases of the translated
groups and how many were decided right; then the totals and the lists of bugs. Exits 0
whatever the figures (it is a measure, not a gate); 1 when it could not run.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "Tests", "Fixtures", "Conformance", "Schema")
TOKEN_MODELS = (
    "Token: { type: object, required: [access_token], properties: { access_token: { type: string } } }\n"
    "Me: { type: object, required: [id], properties: { id: { type: string } } }\n")
POSITIONED = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): error: ")


def rewrite_refs(value, model):
    """The group's schema with its document-relative `$ref`s made relative to the model."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("$ref", "$dynamicRef") and isinstance(item, str) and item.startswith("#"):
                rest = item[1:]
                if rest == "" or rest == "/":
                    item = f"#/{model}"
                elif rest.startswith("/"):
                    item = f"#/{model}{rest}"
                # `#anchor` names an anchor, which is the same in the models file.
            elif key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(item, dict):
                item = {name: rewrite_refs(sub, model) for name, sub in item.items()}
                out[key] = item
                continue
            elif key in ("enum", "const", "default", "examples"):
                out[key] = item
                continue
            else:
                item = rewrite_refs(item, model)
            out[key] = item
        return out
    if isinstance(value, list):
        return [rewrite_refs(item, model) for item in value]
    return value


def load_groups(suite):
    folder = os.path.join(suite, "tests", "draft2020-12")
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    if not files:
        sys.exit(f"conformance: no tests/draft2020-12/*.json under {suite}")
    groups = []
    for path in files:
        name = os.path.basename(path)[:-5]
        with open(path, encoding="utf-8") as handle:
            for index, group in enumerate(json.load(handle)):
                number = len(groups) + 1
                groups.append({"file": name, "index": index, "model": f"T{number:03d}",
                               "description": group["description"], "schema": group["schema"],
                               "tests": group["tests"]})
    return groups


# sdk.yaml's `models` options (`--enums`, `--formats`): empty for the SDK's defaults.
MODEL_OPTIONS = {}


def write_folder(folder, groups):
    if os.path.exists(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    for name in ("sdk.yaml", "auth.yaml"):
        shutil.copy(os.path.join(FIXTURE, name), os.path.join(folder, name))
    if MODEL_OPTIONS:
        with open(os.path.join(folder, "sdk.yaml"), "a", encoding="utf-8") as handle:
            handle.write("models: { " + ", ".join(f"{key}: {value}" for key, value in MODEL_OPTIONS.items()) + " }\n")
    with open(os.path.join(folder, "models.yaml"), "w", encoding="utf-8") as handle:
        handle.write(TOKEN_MODELS)
    for group in groups:
        schema = rewrite_refs(group["schema"], group["model"])
        with open(os.path.join(folder, group["model"] + ".yaml"), "w", encoding="utf-8") as handle:
            handle.write(f"# {group['file']}.json, group {group['index']}: {json.dumps(group['description'])}\n")
            handle.write(json.dumps({group["model"]: schema}, indent=1, ensure_ascii=True) + "\n")


def validate(sesame, work, group):
    """None when the group translates; otherwise (positioned, first lines of the output)."""
    folder = os.path.join(work, "one", group["model"])
    write_folder(folder, [group])
    try:
        run = subprocess.run([sesame, "validate", folder], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        shutil.rmtree(folder)
        return (False, ["timed out after 60 s"])
    shutil.rmtree(folder)
    if run.returncode == 0:
        return None
    output = (run.stdout + run.stderr).strip().splitlines()
    errors = [line for line in output if ": error: " in line or line.startswith("error")]
    positioned = bool(errors) and run.returncode == 1 and all(
        (m := POSITIONED.match(line)) and os.path.basename(m.group("file")) == group["model"] + ".yaml"
        for line in errors)
    shown = [line.replace(folder + "/", "") for line in (errors or output)[:3]]
    return (positioned, shown)


RUNNER = """\
// Written by scripts/conformance.py: decodes each case as its group's model.
%simport Foundation

typealias Decide = @Sendable (Data) -> String

func decide<Model: Codable>(_ model: Model.Type) -> Decide {
    { data in
        let value: Model
        do { value = try JSONDecoder().decode(Model.self, from: data) } catch { return "refused\\t\\(String(describing: error).prefix(300))" }
        do { _ = try JSONEncoder().encode(value) } catch { return "unencodable\\t\\(String(describing: error).prefix(300))" }
        return "accepted"
    }
}

let decisions: [String: Decide] = [
%s
]

let cases = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))) as! [[String]]
for item in cases {
    let result = decisions[item[0]].map { $0(Data(item[1].utf8)) } ?? "missing"
    print(String(result.map { $0.isNewline ? " " : $0 }))
}
"""


def write_package(package, layers, models):
    sources = os.path.join(package, "Sources")
    os.makedirs(os.path.join(sources, "ConformanceRunner"), exist_ok=True)
    suites = [f"ConformanceSuite{layer}" for layer in layers]
    root = os.path.relpath(ROOT, os.path.abspath(package))
    manifest = (
        "// swift-tools-version: 6.1\n"
        "// Written by scripts/conformance.py: the suite's SDK and the runner that decodes its cases.\n"
        "import PackageDescription\n\n"
        "let package = Package(\n"
        '    name: "ConformanceMeasure",\n'
        "    platforms: [.macOS(.v14), .iOS(.v17)],\n"
        f'    dependencies: [.package(name: "Sesame", path: "{root}")],\n'
        "    targets: [\n"
        + "".join(f'        .target(name: "{suite}", dependencies: [.product(name: "Sesame", package: "Sesame")]),\n' for suite in suites)
        + f'        .executableTarget(name: "ConformanceRunner", dependencies: {json.dumps(suites)}),\n'
        "    ]\n)\n")
    write_if_changed(os.path.join(package, "Package.swift"), manifest)
    table = "\n".join(f'    "{model}": decide({model}.self),' for model in models) or '    "": decide(Int.self),'
    imports = "".join(f"import {suite}\n" for suite in suites)
    write_if_changed(os.path.join(sources, "ConformanceRunner", "main.swift"), RUNNER % (imports, table))


def write_if_changed(path, text):
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


def model_of_error(line, generated):
    """The model `T<n>` whose generated code holds the compiler error on `line`."""
    m = re.match(r"^(/[^:]+\.swift):(\d+):\d+: error:", line)
    if not m or not m.group(1).startswith(generated):
        return None
    with open(m.group(1), encoding="utf-8") as handle:
        lines = handle.read().splitlines()[: int(m.group(2))]
    for text in reversed(lines):
        mark = re.match(r"^// MARK: - (T\d{3})\b", text)
        if mark:
            return mark.group(1)
    return None


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    suite = args[0]
    flags = [arg for arg in args[1:] if arg == "--one-sdk"]
    options = dict(zip([arg for arg in args[1:] if arg not in flags][::2], [arg for arg in args[1:] if arg not in flags][1::2]))
    work = os.path.abspath(options.get("--work", os.path.join(ROOT, ".build-conformance")))
    for key, allowed in (("enums", ("open", "closed")), ("formats", ("assert", "annotate"))):
        value = options.get("--" + key)
        if value is None:
            continue
        if value not in allowed:
            sys.exit(f"conformance: --{key} is {' or '.join(allowed)}, not {value!r}")
        MODEL_OPTIONS[key] = value
    sesame = options.get("--sesame")
    swift = os.environ.get("SWIFT", "swift")
    if not sesame:
        subprocess.run([swift, "build", "--product", "sesame"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        sesame = os.path.join(subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip(), "sesame")
    groups = load_groups(suite)
    described = ", ".join(f"{key}: {value}" for key, value in MODEL_OPTIONS.items()) or "the defaults"
    print(f"conformance: {len(groups)} groups of {suite}/tests/draft2020-12 (optional/ skipped), models: {described}", flush=True)

    for group in groups:
        group["refusal"] = validate(sesame, work, group)
    translated = [g for g in groups if g["refusal"] is None]
    if "--one-sdk" in args:
        one_sdk(sesame, work, translated)
        return

    # One SDK for every translated group, compiled in one `swift build`. Models declared in
    # `$defs` are models of the SDK, and anchors are the SDK's too, so two groups that declare
    # the same name (`$defs: {bar}`) or anchor cannot share one: a group that validated alone
    # but is refused beside the others (a positioned error in its file) moves to a second SDK
    # target of the same package, and so on. A group that fails to generate alone, or whose
    # code does not compile, is dropped and listed (a bug: it validated alone).
    package = os.path.join(work, "package")
    broken = {}
    layer_of = {g["model"]: 0 for g in translated}
    for attempt in range(40):
        layers = sorted(set(layer_of[g["model"]] for g in translated if g["model"] not in broken))
        retry = False
        for layer in layers:
            kept = [g for g in translated if g["model"] not in broken and layer_of[g["model"]] == layer]
            schema = os.path.join(work, f"Schema{layer}")
            write_folder(schema, kept)
            run = subprocess.run([sesame, "generate", schema, "--output", os.path.join(package, "Sources", f"ConformanceSuite{layer}")],
                                 capture_output=True, text=True)
            if run.returncode == 0:
                continue
            retry = True
            lines = run.stdout.splitlines() + run.stderr.splitlines()
            # Every group validated alone: one that fails beside others (a name or anchor
            # another group declares too) moves on to the next SDK target.
            clashes = {os.path.basename(m.group("file"))[:-5] for line in lines
                       if (m := POSITIONED.match(line)) and os.path.basename(m.group("file")).startswith("T")}
            culprits = {}
            if len(kept) == 1:
                culprits, clashes = {kept[0]["model"]: (lines or ["(no output)"])[0]}, set()
            if not clashes and not culprits:
                sys.exit("conformance: generating the SDK of the translated groups failed:\n" + run.stdout + run.stderr)
            for model in clashes:
                layer_of[model] += 1
            broken.update({model: "generating with the others: " + line.replace(schema + "/", "") for model, line in culprits.items()})
        if retry:
            continue
        for stale in os.listdir(os.path.join(package, "Sources")):
            if stale.startswith("ConformanceSuite") and int(stale[len("ConformanceSuite"):] or -1) not in layers:
                shutil.rmtree(os.path.join(package, "Sources", stale))
        write_package(package, layers, [g["model"] for g in translated if g["model"] not in broken])
        count = sum(1 for g in translated if g["model"] not in broken)
        print(f"conformance: {count} groups generated into {len(layers)} SDK target(s); swift build ...", flush=True)
        build = subprocess.run([swift, "build", "--package-path", package, "--scratch-path", os.path.join(work, "build"),
                                "--product", "ConformanceRunner"], capture_output=True, text=True)
        if build.returncode == 0:
            break
        log = build.stdout + build.stderr
        culprits = {}
        for line in log.splitlines():
            model = model_of_error(line, os.path.join(package, "Sources"))
            if model and model not in culprits:
                culprits[model] = "does not compile: " + line.split(": error: ", 1)[1][:200]
        if not culprits:
            sys.exit("conformance: the suite's SDK does not compile, and no group is to blame:\n" + log[-4000:])
        broken.update(culprits)
    else:
        sys.exit("conformance: gave up after 40 attempts")

    kept = [g for g in translated if g["model"] not in broken]
    cases = [[g["model"], json.dumps(t["data"])] for g in kept for t in g["tests"]]
    cases_path = os.path.join(work, "cases.json")
    with open(cases_path, "w", encoding="utf-8") as handle:
        json.dump(cases, handle)
    bin_path = subprocess.run([swift, "build", "--package-path", package, "--scratch-path", os.path.join(work, "build"),
                               "--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
    run = subprocess.run([os.path.join(bin_path, "ConformanceRunner"), cases_path], capture_output=True, text=True)
    results = run.stdout.split("\n")[:-1]
    if run.returncode != 0 or len(results) != len(cases):
        sys.exit(f"conformance: the runner failed (exit {run.returncode}, {len(results)} of {len(cases)} results):\n{run.stderr[-4000:]}")
    outcomes = iter(results)
    wrong = []
    for group in kept:
        group["right"] = 0
        for test in group["tests"]:
            outcome = next(outcomes)
            accepted = outcome == "accepted"
            if accepted == test["valid"]:
                group["right"] += 1
            else:
                wrong.append((group, test, outcome))

    report(groups, broken, wrong, options.get("--json"))


def one_sdk(sesame, work, translated):
    """Validates every translated group in one schema folder, dropping the groups refused
    there until none is, and prints how many were lost and why (`--one-sdk`)."""
    folder = os.path.join(work, "one-sdk")
    kept = list(translated)
    lost = {}
    while kept:
        write_folder(folder, kept)
        run = subprocess.run([sesame, "validate", folder], capture_output=True, text=True, timeout=600)
        if run.returncode == 0:
            break
        refused = {}
        for line in (run.stdout + run.stderr).splitlines():
            m = POSITIONED.match(line)
            if m and os.path.basename(m.group("file")).startswith("T"):
                refused.setdefault(os.path.basename(m.group("file"))[:-5], line.replace(folder + "/", ""))
        if not refused:
            sys.exit("conformance: the groups in one SDK are refused, and no group is to blame:\n" + run.stdout + run.stderr)
        lost.update(refused)
        kept = [g for g in kept if g["model"] not in refused]
    shutil.rmtree(folder, ignore_errors=True)
    print(f"\none SDK: {len(lost)} of {len(translated)} groups translated alone are lost beside the others")
    for g in translated:
        if g["model"] in lost:
            print(f"  {g['model']} {g['file']}/{g['index']}: {lost[g['model']]}")


def report(groups, broken, wrong, json_out):
    files = sorted({g["file"] for g in groups})
    print()
    print(f"{'file':26} {'groups':>6} {'transl.':>7} {'refused':>7} {'unpos.':>6} {'cases':>6} {'right':>6}")
    totals = [0] * 6
    per_file = {}
    for name in files:
        mine = [g for g in groups if g["file"] == name]
        ok = [g for g in mine if g["refusal"] is None and g["model"] not in broken]
        refused = [g for g in mine if g["refusal"] is not None]
        unpositioned = [g for g in refused if not g["refusal"][0]] + [g for g in mine if g["model"] in broken]
        cases = sum(len(g["tests"]) for g in ok)
        right = sum(g["right"] for g in ok)
        row = [len(mine), len(ok), len(refused), len(unpositioned), cases, right]
        per_file[name] = dict(zip(["groups", "translated", "refused", "unpositioned", "cases", "right"], row))
        totals = [a + b for a, b in zip(totals, row)]
        print(f"{name:26} {row[0]:>6} {row[1]:>7} {row[2]:>7} {row[3]:>6} {row[4]:>6} {row[5]:>6}")
    print(f"{'total':26} {totals[0]:>6} {totals[1]:>7} {totals[2]:>7} {totals[3]:>6} {totals[4]:>6} {totals[5]:>6}")
    share = 100.0 * totals[5] / totals[4] if totals[4] else 0.0
    print(f"\ngroups translated: {totals[1]} of {totals[0]}; cases of those decided right: {totals[5]} of {totals[4]} ({share:.1f} %);"
          f" refusals not positioned: {totals[3]}")

    print("\nrefused (first error):")
    for g in groups:
        if g["refusal"] is not None:
            mark = "" if g["refusal"][0] else "NOT POSITIONED "
            print(f"  {g['model']} {g['file']}/{g['index']} {json.dumps(g['description'])}: {mark}{g['refusal'][1][0] if g['refusal'][1] else '(no output)'}")
    if broken:
        print("\nBUGS, translated alone but not with the others, or not compiling:")
        for g in groups:
            if g["model"] in broken:
                print(f"  {g['model']} {g['file']}/{g['index']}: {broken[g['model']]}")
    print("\nwrong decisions (group, case, expected, outcome):")
    for group, test, outcome in wrong:
        expected = "valid" if test["valid"] else "invalid"
        print(f"  {group['model']} {group['file']}/{group['index']} {json.dumps(test['description'])}: {expected}, {outcome[:160]}")
    if json_out:
        with open(json_out, "w", encoding="utf-8") as handle:
            json.dump({"files": per_file, "totals": dict(zip(["groups", "translated", "refused", "unpositioned", "cases", "right"], totals))},
                      handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
