#!/usr/bin/env python3
"""Checks that docs/sesame-format.schema.json, which `sesame grammar --json-schema` renders
from the generator's grammar table (`make check` fails when the committed copy is stale),
accepts what the generator accepts, so editors do not flag valid files.

Validates, against the `$defs` entry of each file's kind (chosen by file name, as the
generator does: sdk, auth, errors, events and store .yaml/.yml; any other YAML file
declares models; `released/` is skipped, and so are referenced documents: a file with a
top-level `openapi` or `$schema` key):

  * every YAML file of Schema/,
  * every .yaml/.yml file under Tests/**/Fixtures/ (a fixture that contains the line
    `# sesame-format-schema: expect-invalid` must instead be REJECTED),
  * every ```yaml block of docs/format.md whose first line is `# file: NAME.yaml`
    (blocks that also say `# expect: error` show a generator diagnostic and are skipped),
  * a few deliberately wrong snippets it must REJECT (so this check can fail).

It also checks that each docs/schema/<kind>.schema.json points at the matching `$defs`
entry of the main schema.

Prints `file: /json/pointer: message` for each problem and exits 1; exits 0 when all is
well. Needs python3 with `jsonschema` (4.x, draft 2020-12) and `PyYAML`:
`pip install jsonschema pyyaml`.

Usage: python3 scripts/validate-format-schema.py [repository root]
"""

import json
import os
import re
import sys

try:
    import yaml
    import jsonschema
    from jsonschema.exceptions import best_match
except ImportError as error:  # pragma: no cover - the message is the point
    sys.stderr.write(f"validate-format-schema: {error}; install them with: pip install jsonschema pyyaml\n")
    sys.exit(2)

KINDS = ["sdk", "auth", "errors", "events", "store", "models"]
MAIN_SCHEMA = os.path.join("docs", "sesame-format.schema.json")
PER_FILE_DIR = os.path.join("docs", "schema")


def role(relative_path):
    """The kind of a file, by its name, as SchemaSource.role decides it."""
    name = relative_path.replace(os.sep, "/").split("/")[-1]
    for kind in KINDS[:-1]:
        if name in (f"{kind}.yaml", f"{kind}.yml"):
            return kind
    return "models"


# ---------------------------------------------------------------------------------------
# YAML loading close to what the generator (Yams) sees.


class DuplicateKey(Exception):
    pass


class SesameLoader(yaml.SafeLoader):
    """SafeLoader that keeps keys as their text (Yams reads `1:` as the key "1"), keeps
    timestamps as strings (JSON Schema knows no dates) and refuses duplicate keys, which
    the generator reports as errors."""


SesameLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    result = {}
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            key = key_node.value
        else:
            key = json.dumps(loader.construct_object(key_node, deep=True), default=str)
        if key in result:
            mark = key_node.start_mark
            raise DuplicateKey(f"line {mark.line + 1}, column {mark.column + 1}: duplicate key '{key}'")
        result[key] = loader.construct_object(value_node, deep=deep)
    return result


SesameLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(text):
    return yaml.load(text, Loader=SesameLoader)


# ---------------------------------------------------------------------------------------
# Validation


class Checker:
    def __init__(self, root):
        self.root = root
        self.failures = []
        with open(os.path.join(root, MAIN_SCHEMA), encoding="utf-8") as handle:
            self.schema = json.load(handle)
        jsonschema.Draft202012Validator.check_schema(self.schema)
        self.validators = {}
        for kind in KINDS:
            # The main schema with its root pointed at one kind; `#/$defs/...` refs resolve
            # inside it. Per-file schemas are checked to point at the same entry.
            schema = {key: value for key, value in self.schema.items() if key not in ("anyOf", "oneOf")}
            schema["$ref"] = f"#/$defs/{kind}File"
            self.validators[kind] = jsonschema.Draft202012Validator(
                schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)

    def fail(self, where, pointer, message):
        self.failures.append(f"{where}: {pointer}: {message}")

    @staticmethod
    def pointer(error):
        parts = [str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path]
        return "/" + "/".join(parts)

    def errors(self, kind, instance):
        """(pointer, message) of each problem, the most telling one for each branch."""
        found = []
        for error in sorted(self.validators[kind].iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
            if error.context:
                error = best_match(error.context) or error
            found.append((self.pointer(error), error.message))
        return found

    def check_text(self, where, kind, text, expect_valid=True):
        try:
            instance = load_yaml(text)
        except (yaml.YAMLError, DuplicateKey) as error:
            if expect_valid:
                self.fail(where, "/", f"not valid YAML: {str(error).splitlines()[0] if str(error) else error}")
            return
        problems = self.errors(kind, instance)
        if expect_valid:
            for pointer, message in problems:
                self.fail(where, pointer, message)
        elif not problems:
            self.fail(where, "/", f"expected the JSON Schema to reject this {kind} file, but it accepts it")

    # -- sources ---------------------------------------------------------------------

    def check_schema_folder(self, folder):
        count = 0
        base = os.path.join(self.root, folder)
        for directory, subdirectories, files in os.walk(base):
            relative_directory = os.path.relpath(directory, base)
            if relative_directory.split(os.sep)[0] == "released":
                subdirectories[:] = []
                continue
            subdirectories.sort()
            for name in sorted(files):
                if not name.endswith((".yaml", ".yml")):
                    continue
                relative = os.path.normpath(os.path.join(relative_directory, name))
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    self.check_text(os.path.relpath(path, self.root), role(relative), handle.read())
                count += 1
        return count

    def check_fixtures(self):
        count = 0
        tests = os.path.join(self.root, "Tests")
        for directory, subdirectories, files in os.walk(tests):
            # Build folders and hidden folders (a fixture package's .build, its checkouts)
            # hold other projects' YAML, not Sesame schemas.
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d != "checkouts")
            parts = os.path.relpath(directory, tests).split(os.sep)
            if "Fixtures" not in parts or "released" in parts[parts.index("Fixtures"):]:
                continue
            for name in sorted(files):
                if not name.endswith((".yaml", ".yml")):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                # A referenced document (an OpenAPI document, a JSON Schema document with
                # `$schema`) is not a Sesame file: the generator reads it through `$ref` only.
                if re.search(r"^(openapi|\$schema|\"\$schema\"):", text, re.MULTILINE):
                    continue
                expect_valid = "# sesame-format-schema: expect-invalid" not in text
                self.check_text(os.path.relpath(path, self.root), role(name), text, expect_valid)
                count += 1
        return count

    def check_guide(self):
        path = os.path.join(self.root, "docs", "format.md")
        if not os.path.exists(path):
            return 0
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        count = 0
        index = 0
        while index < len(lines):
            if lines[index].strip() == "```yaml":
                start = index + 1
                end = start
                while end < len(lines) and lines[end].strip() != "```":
                    end += 1
                block = lines[start:end]
                match = re.match(r"^# file: (\S+\.ya?ml)\b", block[0]) if block else None
                if match and not any(line.startswith("# expect: error") for line in block):
                    self.check_text(f"docs/format.md:{start + 1}", role(match.group(1)), "\n".join(block) + "\n")
                    count += 1
                index = end
            index += 1
        return count

    def check_per_file_schemas(self):
        for kind in KINDS:
            where = os.path.join(PER_FILE_DIR, f"{kind}.schema.json")
            path = os.path.join(self.root, where)
            if not os.path.exists(path):
                self.fail(where, "/", "missing")
                continue
            with open(path, encoding="utf-8") as handle:
                schema = json.load(handle)
            jsonschema.Draft202012Validator.check_schema(schema)
            reference = schema.get("$ref", "")
            target, _, fragment = reference.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if resolved != os.path.normpath(os.path.join(self.root, MAIN_SCHEMA)) or fragment != f"/$defs/{kind}File":
                self.fail(where, "/$ref", f"must be '../sesame-format.schema.json#/$defs/{kind}File', found '{reference}'")
            elif f"{kind}File" not in self.schema.get("$defs", {}):
                self.fail(MAIN_SCHEMA, "/$defs", f"has no {kind}File")

    def check_snippets(self):
        for number, (kind, why, text) in enumerate(REJECTED, 1):
            self.check_text(f"scripts/validate-format-schema.py: rejected snippet {number} ({why})", kind, text, expect_valid=False)
        return len(REJECTED)


# ---------------------------------------------------------------------------------------
# Mistakes the generator reports that the JSON Schema must catch as well: one of each kind of
# constraint the grammar table renders (closed mappings, required keys, enums, patterns,
# refined forms, forbidden names, name patterns).

REJECTED = [
    ("sdk", "a misspelt key", "sdk: Mini\nserver: { baseUrl: https://auth.example.com }\n"),
    ("auth", "a step without a request", "methods:\n  guest: { steps: [ { response: TokenResponse } ] }\n"),
    ("errors", "an unknown category", "errors: { teapot: { status: 418, category: joke } }\n"),
    ("auth", "an unknown HTTP method", "operations:\n  me: { request: TRACE /me }\n"),
    ("sdk", "a revocation without the token", """
sdk: Mini
server: { baseURL: https://api.example.com }
credential: { token: { model: TokenResponse }, rejected: { body: { code: x } }, details: me, userID: uid }
lifecycle:
  revoke: { request: POST /oauth/revoke, fields: { token_type_hint: refresh_token } }
"""),
    ("auth", "a browser step that sets the state itself", """
methods:
  oauth2:
    steps:
      - browser: { request: GET /authorize, redirectURI: "app://cb", parameters: { state: fixed } }
        request: POST /token
        response: TokenResponse
"""),
    ("sdk", "a bare status in rejected", """
sdk: Mini
server: { baseURL: https://auth.example.com }
credential: { token: { model: TokenResponse }, rejected: { status: 401 }, details: me, userID: uid }
"""),
    ("models", "$dynamicRef", "X: { $dynamicRef: \"#node\" }\n"),
    ("store", "a lowercase table name", "cache: { 1: { note: { id: { type: text, primaryKey: true } } } }\n"),
    ("auth", "a duplicate key", "operations:\n  me: { request: GET /me }\n  me: { request: GET /me2 }\n"),
]


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    checker = Checker(root)
    schema_files = checker.check_schema_folder("Schema")
    fixtures = checker.check_fixtures()
    guide_blocks = checker.check_guide()
    checker.check_per_file_schemas()
    rejected = checker.check_snippets()
    for failure in checker.failures:
        print(failure)
    summary = (f"{schema_files} Schema/ files, {fixtures} fixtures, {guide_blocks} docs/format.md examples, "
               f"{rejected} rejected snippets")
    if checker.failures:
        print(f"validate-format-schema: {len(checker.failures)} problem(s) ({summary})", file=sys.stderr)
        return 1
    print(f"validate-format-schema: ok ({summary})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
