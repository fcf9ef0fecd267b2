#!/usr/bin/env python3
"""Keeps docs/sesame-format.schema.json in step with the generator's parser.

Validates, against the `$defs` entry of each file's kind (chosen by file name, as the
generator does: sdk, auth, errors, events and store .yaml/.yml; any other YAML file
declares models; `released/` is skipped):

  * every YAML file of Schema/,
  * every .yaml/.yml file under Tests/**/Fixtures/ (a fixture that contains the line
    `# sesame-format-schema: expect-invalid` must instead be REJECTED),
  * every ```yaml block of docs/format.md whose first line is `# file: NAME.yaml`
    (blocks that also say `# expect: error` show a generator diagnostic and are skipped),
  * snippets embedded below: some that the generator accepts and the JSON Schema must
    accept too, and deliberately wrong ones that it must REJECT (so this check can fail).

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
        for number, (kind, text) in enumerate(ACCEPTED, 1):
            self.check_text(f"scripts/validate-format-schema.py: accepted snippet {number}", kind, text, expect_valid=True)
        for number, (kind, why, text) in enumerate(REJECTED, 1):
            self.check_text(f"scripts/validate-format-schema.py: rejected snippet {number} ({why})", kind, text, expect_valid=False)
        return len(ACCEPTED), len(REJECTED)


# ---------------------------------------------------------------------------------------
# Snippets. ACCEPTED: forms the generator accepts that the JSON Schema must accept too.
# REJECTED: mistakes the generator reports that the JSON Schema must catch as well.

ACCEPTED = [
    ("sdk", """
sdk: Mini
server: { baseURL: https://auth.example.com/v1 }
credential:
  token: { model: TokenResponse }
  refresh: { request: post /oauth/token, leeway: 60, window: { per: 250ms } }
  rejected: { body: { code: invalid_token } }
  details: me
  userID: uid
"""),
    ("auth", """
methods:
  internal:
    parameters: { identifier: Provider, pin: { type: string, secret: true } }
    steps:
      - { name: start, request: POST /challenge, body: { id: "{identifier}", n: 5, b: true, z: null }, response: Challenge }
      - { needs: [code], request: "POST /verify/{pin}", body: { c: "{start.challengeId}", code: "Code {code}" }, response: TokenResponse }
operations:
  me: { request: GET /me, response: AuthenticationDetails, deprecated: true }
  search:
    request: GET /search/{kind}
    parameters: { q: { schema: { type: string }, required: true }, kind: { in: path, schema: Provider } }
    response: { type: array, items: AuthenticationDetails }
  logout: { request: POST /logout }
  detachIdentity: { request: DELETE /identities }
  destroyAccount: { request: DELETE /account }
"""),
    ("models", """
Loose:
  type: object
  required: name
  properties:
    name: { type: [string, null] }
    kind: Provider
    extra: {}
    map: { additionalProperties: { type: integer } }
  additionalProperties: true
Numbers: { enum: [1, 2, 3] }
Union:
  oneOf: [ { $ref: "#/TextNotice", description: a }, { $ref: "models.yaml#/LinkNotice" } ]
  discriminator: { propertyName: kind }
"""),
    ("models", """
$defs:
  Point: { $anchor: point, type: object, required: [x], properties: { x: { type: integer } } }
Shapes:
  $comment: every keyword of issue 13
  type: object
  required: [id]
  minProperties: 1.0
  maxProperties: 9
  dependentRequired: { a: [b] }
  propertyNames: { pattern: "^[a-z]+$" }
  patternProperties: { "^x": { type: string } }
  properties:
    tuple: { type: array, prefixItems: [ { type: string }, true ], contains: { const: 1 }, minContains: 1, uniqueItems: true }
    step: { type: number, multipleOf: 0.5, not: { const: 0 } }
    either: { anyOf: [ { type: string }, Point ] }
    one: { oneOf: [ { $ref: "#/$defs/Point" }, { type: "null" } ] }
    many: { type: [string, integer] }
    host: { type: string, format: hostname }
    near: { $ref: "#point" }
  if: { required: [a] }
  then: { required: [b] }
  else: false
"""),
    ("sdk", """
sdk: Mini
server: { baseURL: https://api.example.com }
authorizationServer: { baseURL: https://idp.example.com }
credential:
  token: { model: TokenResponse }
  refresh: { request: POST /token, server: authorization, clientAuthentication: basic }
  rejected: { wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: uid
lifecycle:
  revoke: { request: POST /oauth/revoke, clientAuthentication: post, fields: { token: "{refreshToken}", token_type_hint: refresh_token } }
"""),
    ("auth", """
methods:
  oauth2:
    parameters: { scope: { type: string, default: profile } }
    steps:
      - browser: { request: GET /authorize, redirectURI: "com.example.app://oauth/callback", parameters: { scope: "{scope}" } }
        request: POST /token
        server: authorization
        encoding: form
        body: { grant_type: authorization_code, code: "{code}", code_verifier: "{codeVerifier}", redirect_uri: "{redirectURI}" }
        response: TokenResponse
operations:
  userinfo: { request: GET /userinfo, server: authorization, authenticated: true, response: Me }
"""),
    ("models", ""),
    ("errors", "envelope: { code: code }\nerrors: { e: { status: 599, category: server } }\n"),
    ("events", "events:\n  ping: {}\n  pong: { payload: Notice, wireName: pong.v1 }\n"),
    ("store", """
persistence:
  1:
    Note: { id: { type: text, primaryKey: true }, body: text }
  2:
    Note: { id: { type: text, primaryKey: true }, text: { type: text, renamedFrom: body } }
cache: { policy: recreate, 1: ~ }
"""),
]

REJECTED = [
    ("sdk", "an unknown server in a refresh", """
sdk: Mini
server: { baseURL: https://api.example.com }
authorizationServer: { baseURL: https://idp.example.com }
credential:
  token: { model: TokenResponse }
  refresh: { request: POST /token, server: idp }
  rejected: { wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: uid
"""),
    ("sdk", "an authorization server without a base URL", """
sdk: Mini
server: { baseURL: https://api.example.com }
authorizationServer: {}
credential: { token: { model: TokenResponse }, rejected: { body: { code: x } }, details: me, userID: uid }
"""),
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
        body: { code: "{code}", code_verifier: "{codeVerifier}", redirect_uri: "{redirectURI}" }
        response: TokenResponse
"""),
    ("auth", "a browser step without a redirect URI", """
methods:
  oauth2:
    steps:
      - browser: { request: GET /authorize }
        request: POST /token
        response: TokenResponse
"""),
    ("sdk", "a bare status in rejected", """
sdk: Mini
server: { baseURL: https://auth.example.com }
credential: { token: { model: TokenResponse }, rejected: { status: 401 }, details: me, userID: uid }
"""),
    ("sdk", "an unknown clientAuthentication", """
sdk: Mini
server: { baseURL: https://auth.example.com }
credential:
  token: { model: TokenResponse }
  refresh: { request: POST /token, clientAuthentication: jwt }
  rejected: { wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: uid
"""),
    ("sdk", "a fractional duration", """
sdk: Mini
server: { baseURL: https://auth.example.com }
credential:
  token: { model: TokenResponse }
  refresh: { request: POST /token, leeway: 1.5s }
  rejected: { wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: uid
"""),
    ("sdk", "a placeholder apply does not know", """
sdk: Mini
server: { baseURL: https://auth.example.com }
credential:
  token: { model: TokenResponse }
  apply: { format: "Bearer {token}" }
  rejected: { wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: uid
"""),
    ("sdk", "a misspelt key", "sdk: Mini\nserver: { baseUrl: https://auth.example.com }\n"),
    ("auth", "a misspelt operation key", "operations:\n  me: { reqest: GET /me }\n"),
    ("auth", "an operation name that is no identifier", "operations:\n  my-op: { request: GET /me }\n"),
    ("auth", "a method without steps", "methods:\n  guest: { steps: [] }\n"),
    ("auth", "a step without a request", "methods:\n  guest: { steps: [ { response: TokenResponse } ] }\n"),
    ("auth", "a header parameter", "operations:\n  me: { request: GET /me, parameters: { x: { in: header, schema: { type: string } } } }\n"),
    ("auth", "an unknown HTTP method", "operations:\n  me: { request: TRACE /me }\n"),
    ("auth", "a path without a slash", "operations:\n  me: { request: GET me }\n"),
    ("auth", "an empty placeholder", "methods:\n  guest: { steps: [ { request: POST /g, body: { a: \"{}\" }, response: TokenResponse } ] }\n"),
    ("auth", "a nested body", "methods:\n  guest: { steps: [ { request: POST /g, body: { a: { b: 1 } }, response: TokenResponse } ] }\n"),
    ("auth", "needs given as one string", "methods:\n  m: { steps: [ { request: POST /a }, { needs: code, request: POST /b, response: TokenResponse } ] }\n"),
    ("models", "the OpenAPI nullable keyword", "X: { type: object, properties: { a: { type: string, nullable: true } } }\n"),
    ("models", "an unsupported format", "X: { type: string, format: int64 }\n"),
    ("models", "an unknown type", "X: { type: strin }\n"),
    ("models", "an inline oneOf variant", "X: { oneOf: [ { type: object } ], discriminator: { propertyName: kind } }\n"),
    ("models", "a negative maxLength", "X: { type: string, maxLength: -1 }\n"),
    ("models", "$dynamicRef", "X: { $dynamicRef: \"#node\" }\n"),
    ("models", "unevaluatedProperties", "X: { type: object, unevaluatedProperties: false }\n"),
    ("models", "a multipleOf of zero", "X: { type: number, multipleOf: 0 }\n"),
    ("models", "a fractional count", "X: { type: string, minLength: 1.5 }\n"),
    ("models", "a model that is not a mapping", "X: [ a, b ]\n"),
    ("errors", "a success status", "errors: { ok: { status: 200, category: client } }\n"),
    ("errors", "an unknown category", "errors: { teapot: { status: 418, category: joke } }\n"),
    ("errors", "an error without a category", "errors: { e: { status: 400 } }\n"),
    ("events", "an unknown effect", "events: { revoked: { effect: refresh } }\n"),
    ("events", "an event name that is no identifier", "events: { my-event: {} }\n"),
    ("store", "persistence that would be recreated", "persistence: { policy: recreate }\n"),
    ("store", "an unknown column type", "persistence: { 1: { Note: { id: { type: varchar, primaryKey: true } } } }\n"),
    ("store", "version 0", "cache: { 0: { Note: { id: { type: text, primaryKey: true } } } }\n"),
    ("store", "a lowercase table name", "cache: { 1: { note: { id: { type: text, primaryKey: true } } } }\n"),
    ("store", "an unknown section", "persistance: {}\n"),
    ("auth", "a duplicate key", "operations:\n  me: { request: GET /me }\n  me: { request: GET /me2 }\n"),
]


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    checker = Checker(root)
    schema_files = checker.check_schema_folder("Schema")
    fixtures = checker.check_fixtures()
    guide_blocks = checker.check_guide()
    checker.check_per_file_schemas()
    accepted, rejected = checker.check_snippets()
    for failure in checker.failures:
        print(failure)
    summary = (f"{schema_files} Schema/ files, {fixtures} fixtures, {guide_blocks} docs/format.md examples, "
               f"{accepted} accepted and {rejected} rejected snippets")
    if checker.failures:
        print(f"validate-format-schema: {len(checker.failures)} problem(s) ({summary})", file=sys.stderr)
        return 1
    print(f"validate-format-schema: ok ({summary})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
