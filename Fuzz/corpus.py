#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus and dictionary from the repository (scripts/fuzz.sh runs it).

    Fuzz/corpus.py OUT    # OUT/seeds/<n>.txt and OUT/sesame.dict

A seed is a whole schema folder in the fuzz target's framing (Fuzz/Sources/sesame-fuzz):
a line `=== <path>` starts each file, `released/store/…json` files are store snapshots and
`released/schema/…yaml` files the released schema that the folder is diffed against.
The seeds are:
  * Schema/ with and without its released store snapshots and schema, and Schema/released/schema;
  * each schema folder of Tests/Fixtures;
  * each ```yaml block of docs/format.md and docs/store.md that names its file
    (`# file: auth.yaml`), in place of that file of Schema/;
  * each YAML snippet of Tests/SesameGeneratorTests (a multi-line string literal that reads
    as a YAML mapping), alone and in place of its file of the tests' small base folder
    (Fixture.swift);
  * the inputs of `FuzzCase.run("…")` in Tests/SesameGeneratorTests, earlier findings;
  * deep and wide inputs built here (deep_and_wide): reference chains, nesting, long names.
The dictionary holds every key and enumerated value of docs/sesame-format.schema.json, the
framing lines and YAML's own punctuation, so that mutations spell the format's words.
"""
import base64
import hashlib
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "=== "
ROLES = ["sdk.yaml", "auth.yaml", "errors.yaml", "events.yaml", "store.yaml", "models.yaml"]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def frame(files):
    """One input: every file after its `=== path` line, in path order."""
    return "".join(f"{MARKER}{path}\n{text.rstrip(chr(10))}\n" for path, text in sorted(files.items()))


def folder(path, released=True):
    """The YAML and JSON files of a schema folder by relative path, plus its released store snapshots and schema."""
    base = os.path.join(ROOT, path)
    files = {}
    for directory, subdirectories, names in os.walk(base):
        relative_directory = os.path.relpath(directory, base)
        top = relative_directory.split(os.sep)[0]
        for name in names:
            relative = os.path.normpath(os.path.join(relative_directory, name)).replace(os.sep, "/")
            if top == "released":
                if released and (relative.startswith("released/store/") and name.endswith(".json")
                                 or relative.startswith("released/schema/") and name.endswith((".yaml", ".yml"))):
                    files[relative] = read(os.path.join(path, relative))
            elif name.endswith((".yaml", ".yml", ".json")):
                files[relative] = read(os.path.join(path, relative))
    return files


def dedent(text):
    """A Swift multi-line literal's text: the closing delimiter's indentation removed."""
    lines = text.split("\n")
    indentation = len(lines[-1]) - len(lines[-1].lstrip(" "))
    return "\n".join(line[indentation:] for line in lines[:-1])


def role(text):
    """The file a snippet most likely belongs to, from its first key."""
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError:
        document = None
    keys = set(document) if isinstance(document, dict) else set()
    for keys_of_role, name in [({"sdk", "server", "credential"}, "sdk.yaml"), ({"methods", "operations"}, "auth.yaml"),
                               ({"codeField", "errors"}, "errors.yaml"), ({"stream", "events"}, "events.yaml"),
                               ({"persistence", "cache"}, "store.yaml")]:
        if keys & keys_of_role:
            return name
    return "models.yaml"


def swift_snippets():
    """(file name, YAML) of every test literal that reads as a YAML mapping."""
    directory = os.path.join(ROOT, "Tests/SesameGeneratorTests")
    literal = re.compile(r'(?:"([\w/.-]+\.ya?ml)"\s*:\s*)?(#?)"""\n(.*?\n[ \t]*)"""\2', re.S)
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".swift"):
            continue
        for match in literal.finditer(read(os.path.join("Tests/SesameGeneratorTests", name))):
            text = dedent(match.group(3))
            if match.group(2) == "":
                text = text.replace('\\"', '"').replace("\\\\", "\\")
            try:
                mapping = isinstance(yaml.safe_load(text), dict)
            except yaml.YAMLError:
                mapping = "\\(" not in text  # invalid YAML on purpose, but not Swift interpolation
            if mapping:
                yield match.group(1) or role(text), text


def markdown_snippets(path):
    """(file name, YAML) of every ```yaml block that names its file."""
    for block in re.findall(r"```yaml\n(.*?)```", read(path), re.S):
        match = re.match(r"# (?:file: )?(\w+\.ya?ml)\b", block)
        if match:
            yield match.group(1), block


def seeds():
    yield frame(folder("Schema"))
    schema = folder("Schema", released=False)
    yield frame(schema)
    yield frame(folder("Schema/released/schema"))
    fixtures = os.path.join(ROOT, "Tests/Fixtures")
    for directory, subdirectories, names in os.walk(fixtures):
        subdirectories[:] = [name for name in subdirectories if not name.startswith(".")]
        if "sdk.yaml" in names:
            yield frame(folder(os.path.relpath(directory, ROOT)))
    for document in ["docs/format.md", "docs/store.md"]:
        for name, text in markdown_snippets(document):
            yield frame({**schema, name: text})
    base = {}
    fixture = read("Tests/SesameGeneratorTests/Fixture.swift")
    for name in ["sdk", "auth", "models"]:
        match = re.search(rf'static let {name} = """\n(.*?\n[ \t]*)"""', fixture, re.S)
        base[f"{name}.yaml"] = dedent(match.group(1))
    yield frame(base)
    for name, text in swift_snippets():
        yield frame({**base, name: text})
        yield frame({name: text})  # alone: small inputs mutate fast
    yield from regressions()
    yield from deep_and_wide(base)


# The fuzzer's inputs are at most 64 KB (scripts/fuzz.sh, FUZZ_MAX_LEN): each seed below stays under.
LIMIT = 60_000


def chain(link, last, budget=LIMIT):
    """Model lines `link(i)` for i = 0, 1, … while they fit in `budget` bytes, then `last(n)`."""
    lines, size = [], 0
    while size < budget - 400:
        line = link(len(lines))
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines + [last(len(lines))]) + "\n"


def deep_and_wide(base):
    """Structure-aware seeds (issue 29): what random mutation of small schemas never builds.

    Long reference chains of every kind (allOf, defaults through $ref, oneOf variants, aliases,
    JSON pointers, required properties, with and without a cycle back to the start), nesting
    at and past the generator's limit (YAMLReader.maximumNesting, 64) and past libyaml's,
    long names with a reference one character off, many names that give one Swift name,
    names with invisible characters, constants named like the decoder's locals, and a store
    default holding NUL. Each is a whole folder: the tests' base with models.yaml replaced.
    """
    models = base["models.yaml"] + "\n"
    with_models = lambda text: frame({**base, "models.yaml": models + text})
    yield with_models(chain(lambda i: f"M{i}: {{ allOf: [ {{ $ref: '#/M{i + 1}' }} ] }}",
                            lambda n: f"M{n}: {{ type: object, properties: {{ x: {{ type: string }} }} }}"))
    yield with_models(chain(lambda i: f"M{i}: {{ allOf: [ {{ $ref: '#/M{i + 1}' }} ] }}",
                            lambda n: f"M{n}: {{ allOf: [ {{ $ref: '#/M0' }} ] }}"))
    yield with_models(chain(lambda i: f"M{i}: {{ type: object, properties: {{ p: {{ $ref: '#/M{i + 1}', default: a }} }} }}",
                            lambda n: f"M{n}: {{ type: string, enum: [a] }}"))
    yield with_models(chain(
        lambda i: f"U{i}: {{ oneOf: [ {{ $ref: '#/V{i}' }} ], discriminator: {{ propertyName: kind }} }}\n"
                  f"V{i}: {{ type: object, required: [kind], properties: {{ kind: {{ type: string }}, next: {{ $ref: '#/U{i + 1}', default: a }} }} }}",
        lambda n: f"U{n}: {{ type: string, enum: [a] }}"))
    yield with_models(chain(lambda i: f"M{i}: {{ $ref: '#/M{i + 1}' }}", lambda n: f"M{n}: {{ $ref: '#/M0' }}"))
    yield with_models(chain(lambda i: f"M{i}: {{ type: object, properties: {{ p: {{ $ref: '#/M{i + 1}/properties/p' }} }} }}",
                            lambda n: f"M{n}: {{ type: object, properties: {{ p: {{ type: string }} }} }}"))
    yield with_models(chain(lambda i: f"M{i}: {{ type: object, required: [p], properties: {{ p: {{ $ref: '#/M{i + 1}' }} }} }}",
                            lambda n: f"M{n}: {{ $ref: '#/M0' }}"))
    # Nesting: at the generator's limit, one past it, and past libyaml's 1,000.
    for depth in [62, 63, 1_100]:
        yield with_models("Deep: " + "{ type: array, items: " * depth + "{ type: string }" + " }" * depth + "\n")
    yield with_models("Deep: " + "{ properties: { p: " * 31 + "{ type: string }" + " } }" * 31 + "\n")
    yield with_models("Deep: { type: array, default: " + "[" * 70 + "]" * 70 + " }\n")
    yield with_models("Deep: " + "{ oneOf: [ " * 20 + "{ type: string }" + ", { type: integer } ] }" * 20 + "\n")
    # Nested compositions: allOf inside allOf inline, and allOf mixed with object nesting.
    yield with_models("Deep: " + "{ allOf: [ " * 30 + "{ type: object, properties: { x: { type: string } } }" + " ] }" * 30 + "\n")
    yield with_models("Deep: " + "{ allOf: [ { type: object, properties: { p: " * 15 + "{ type: string }" + " } } ] }" * 15 + "\n")
    # Wide compositions: one allOf of every model of a long list.
    parts = chain(lambda i: f"P{i}: {{ type: object, properties: {{ p{i}: {{ type: string }} }} }}", lambda n: "", LIMIT // 2)
    count = parts.count("\n") - 1
    yield with_models(parts + "All: { allOf: [ " + ", ".join(f"{{ $ref: '#/P{i}' }}" for i in range(count)) + " ] }\n")
    # Long names: a model of 20,000 characters (an explicit key: libyaml takes no plain key
    # over 1,024 characters) and a reference one character off.
    name = "a" * 20_000
    yield with_models(f"? {name}\n: {{ type: string }}\nHolder: {{ type: object, properties: {{ p: {{ $ref: '#/{name[:-1]}b' }} }} }}\n")
    # Many names, one Swift name (`a`); invisible characters; the decoder's locals as constants.
    keys, seen, queue = [], set(), ["a"]
    while len(keys) < 1_500:
        key = queue.pop(0)
        if key not in seen:
            seen.add(key)
            keys.append(key)
            queue += [separator + key for separator in "-_."] + [key + separator for separator in "-_."]
    wide = "".join(f'    "{key}": {{ type: string }}\n' for key in keys)
    yield with_models(f"Wide:\n  type: object\n  properties:\n{wide}")
    yield with_models('Note: { type: string }\n"Note\\u200D": { type: string }\n'
                      'Other: { type: object, properties: { note: { type: string }, "no\\u200Bte": { type: string } } }\n')
    locals_ = ", ".join(f"{name}: {{ type: string, const: x }}" for name in
                        ["container", "decoder", "extra", "known", "kept", "key", "value", "index", "item", "container_"])
    yield with_models(f"Fixed: {{ type: object, properties: {{ {locals_} }}, additionalProperties: {{ type: string }} }}\n")
    yield frame({**base, "store.yaml": 'persistence:\n  1: { Note: { id: { type: text, primaryKey: true }, body: { type: text, default: "a\\0b" } } }\n'})
    yield from many_files(base, models)


def many_files(base, models):
    """Seeds of the surfaces past one file: `$ref`s across referenced documents (a chain of
    `allOf`s a file each, as long as fits, one with a cycle back, one with an `$id` that takes
    a relative `$ref` to a server, one whose `../` climb out of the tree), aliases spread over
    several models files that together pass the schema's limit, and a discovery document for
    `sesame discover` beside the reference schema."""
    head = models + "Head: { type: object, properties: { link: { $ref: 'chain/0.json' } } }\n"
    files, size, index = {}, 0, 0
    while size < LIMIT - 2_000:
        text = '{"allOf":[{"$ref":"%d.json"}]}' % (index + 1)
        files[f"chain/{index}.json"] = text
        size += len(text) + 20
        index += 1
    files[f"chain/{index}.json"] = '{"type":"object","properties":{"end":{"type":"string"}}}'
    yield frame({**base, "models.yaml": head, **files})
    files[f"chain/{index}.json"] = '{"allOf":[{"$ref":"0.json"}]}'
    yield frame({**base, "models.yaml": head, **files})
    yield frame({**base, "models.yaml": head,
                 "chain/0.json": '{"$id":"https://example.com/s/0.json","type":"object","properties":{"p":{"$ref":"../1.json"}}}'})
    yield frame({**base, "models.yaml": models + "Up: { $ref: '" + "../" * 14 + "etc/x.json' }\n"})
    aliases = ("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
               + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 4))
               + "a4: [" + ", ".join(["*a3"] * 7) + "]\n")
    yield frame({**base, **{f"models/part{i}.yaml": f"Part{i}: {{ type: string }}\nx{i}:\n" + "".join("  " + line + "\n" for line in aliases.splitlines()) for i in range(3)}})
    discovery = {
        "issuer": "https://idp.example.com",
        "authorization_endpoint": "https://idp.example.com/oauth/authorize",
        "token_endpoint": "https://idp.example.com/oauth/token",
        "revocation_endpoint": "https://idp.example.com/oauth/revoke",
        "device_authorization_endpoint": "https://idp.example.com/oauth/device",
        "jwks_uri": "https://idp.example.com/.well-known/jwks.json",
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "id_token_signing_alg_values_supported": ["RS256", "ES256", "none"],
        "authorization_response_iss_parameter_supported": True,
        "dpop_signing_alg_values_supported": ["ES256"],
    }
    yield frame({**folder("Schema", released=False), "discovery.json": json.dumps(discovery, indent=2)})


def regressions():
    """The framed inputs of `FuzzCase.run("…")` calls in Tests/SesameGeneratorTests, earlier findings.

    Single-line literals and multi-line ones (triple-quoted, the closing delimiter's
    indentation removed); inputs built by `FuzzCase.folder` are covered by the YAML snippets.
    """
    escapes = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\", "0": "\0"}
    unescape = lambda text: re.sub(r"\\(.)", lambda match: escapes.get(match.group(1), match.group(0)), text)
    folder = "Tests/SesameGeneratorTests"
    found = 0
    for name in sorted(os.listdir(os.path.join(ROOT, folder))):
        if not name.endswith(".swift"):
            continue
        source = read(f"{folder}/{name}")
        for literal in re.findall(r'FuzzCase\.run\("((?:[^"\\]|\\.)*)"\)', source):
            found += 1
            yield unescape(literal)
        for body, indent in re.findall(r'FuzzCase\.run\(\s*"""\n(.*?)\n([ ]*)"""\)', source, re.S):
            found += 1
            yield unescape("\n".join(line[len(indent):] for line in body.split("\n")))
    if found == 0:
        sys.exit(f"no FuzzCase.run(\"…\") input found under {folder}: the regression seeds moved")


def dictionary():
    """libFuzzer dictionary entries: the format's words, the framing and YAML punctuation."""
    keys, values = set(), set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("properties", "patternProperties") and isinstance(value, dict):
                    keys.update(name for name in value if not name.startswith("^"))
                if key in ("enum", "const"):
                    values.update(str(item) for item in (value if isinstance(value, list) else [value]) if item is not None)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(json.loads(read("docs/sesame-format.schema.json")))
    values.update(["GET", "POST", "PUT", "PATCH", "DELETE", "$ref", "models.yaml#/", "true", "false", "null", "~", "-1", "0",
                  "2147483647", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                  "1e309", ".nan", "0x", "{{", "}}", "{id}", "250ms", "60s", "5m", "1h"])
    entries = [f"{key}: " for key in sorted(keys)] + sorted(keys | values)
    entries += ["\n" + MARKER + name + "\n" for name in ROLES + ["models/more.yaml", "released/store/persistence/1.json",
                                                               "released/store/cache/1.json", "released/schema/models.yaml"]]
    # Words that build deep and wide inputs when spliced in (deep_and_wide has whole examples).
    entries += ["allOf: [ { $ref: '#/", "oneOf: [ { $ref: '#/", "' } ] }", "discriminator: { propertyName: kind }",
                "{ type: array, items: ", "{ properties: { p: ", "default: a", "const: x", "/properties/p", "#/$defs/",
                "container", "decoder", "extra", "known", "kept", "\u200d", "\u200b", "\u202e", "\\u200D", "\\0",
                "a" * 64, "[[[[[[[[", "]]]]]]]]"]
    entries += [": ", "- ", "{ ", " }", "[ ", " ]", ", ", "\n  ", "\n    ", "&a ", "*a", "<<: ", "!!str ", "!!int ", "? ",
                "|\n", ">\n", "---\n", "...\n", "'", '"', "# ", "\r", "\r\n", "\t", "\u2028", "\ufeff"]

    return dictionary_lines(entries)


def dictionary_lines(entries):
    """libFuzzer's `-dict` format: one quoted entry a line, each byte that is not printable
    ASCII (or is `"` or `\\`) written `\\xNN`."""
    def quote(entry):
        escaped = "".join(f"\\x{ord(c):02x}" if c in '"\\' or not c.isprintable() or ord(c) > 126 else c for c in entry)
        return f'"{escaped}"'

    return "".join(f"{quote(entry.encode().decode('latin-1'))}\n" for entry in dict.fromkeys(entries))


def runtime_seeds():
    """Seeds of `sesame-fuzz-runtime`: the surface's name on the first line, then what arrives."""
    b64 = lambda data: base64.urlsafe_b64encode(data if isinstance(data, bytes) else data.encode()).decode().rstrip("=")
    claims = {"iss": "https://idp.example.com", "aud": "app", "sub": "u-1", "exp": 1_700_003_600, "iat": 1_700_000_000,
              "auth_time": 1_699_999_000, "nonce": "n-0S6_WzA2Mj",
              "at_hash": b64(hashlib.sha256(b"at-1").digest()[:16])}
    payload = json.dumps(claims)
    for header in [{"alg": "ES256", "kid": "ec-1", "typ": "JWT"}, {"alg": "none"}, {"alg": "HS256", "kid": "ec-1"},
                   {"alg": "ES256", "kid": "ec-1", "crit": ["exp"], "exp": 1}, {"alg": "ES256", "kid": "ec-1", "crit": []},
                   {"alg": "RS256", "kid": "unknown"}, {"alg": "ES256", "kid": "ec-1", "jku": "https://evil.example/jwks"},
                   {"alg": ["ES256"], "kid": 7}, {"kid": "ec-1"}]:
        yield f"id-token\n{b64(json.dumps(header))}.{b64(payload)}.{b64(bytes(64))}"
    yield "id-token\n" + ".".join(b64("{}") for _ in range(5))
    yield "id-token\nnot a token"
    yield "id-token\n" + b64('{"alg":"ES256","kid":"ec-1"}') + "." + b64("[" * 200 + "]" * 200) + "."
    yield "id-token-claims\n" + payload
    for change in [{"aud": ["app", "other"], "azp": "app"}, {"aud": ["other"]}, {"iss": "https://evil.example"},
                   {"exp": 1}, {"exp": "soon"}, {"nonce": None}, {"iat": 1e308}, {"sub": ""}, {"acr": "urn:x"},
                   {"at_hash": "AAAA"}, {"nested": {"a": [1, 2, {"b": None}]}}]:
        yield "id-token-claims\n" + json.dumps({**claims, **change})
    yield "id-token-claims\nnot json"
    answer = {"device_code": "dev-1", "user_code": "WDJB-MJHT", "verification_uri": "https://idp.example.com/device",
              "verification_uri_complete": "https://idp.example.com/device?user_code=WDJB-MJHT",
              "expires_in": 1800, "interval": 5}
    yield "device\n" + json.dumps(answer)
    for change in [{"verification_uri": "javascript:alert(1)"}, {"verification_uri": "data:text/html,x"},
                   {"verification_uri_complete": "file:///etc/passwd"}, {"verification_uri": "http://127.0.0.1:8080/device"},
                   {"verification_uri": "https://user:pw@idp.example.com/"}, {"interval": 0}, {"interval": 0.0001},
                   {"interval": "5"}, {"expires_in": 1e300}, {"expires_in": -1}, {"user_code": None}, {"device_code": ""}]:
        yield "device\n" + json.dumps({**answer, **change})
    for head in ["GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                 "GET /callback?code=c&state=other HTTP/1.1\r\n\r\n", "GET /callback?code=c&state=s-1&state=s-1 HTTP/1.1\r\n\r\n",
                 "GET /callback?state=s%2D1&code=%zz HTTP/1.1\r\n\r\n", "GET /callback#state=s-1 HTTP/1.1\r\n\r\n",
                 "POST /callback?state=s-1 HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "GET /favicon.ico HTTP/1.1\r\n\r\n",
                 "GET / HTTP/1.0\r\n\r\n", "GET  /callback HTTP/1.1\r\n\r\n", "GET /callback HTTP/2\r\n\r\n",
                 "GET /callback?code=c&state=s-1 HTTP/1.1\nHost: x\n\n", "\r\n\r\n"]:
        yield "loopback\n" + head


def runtime_dictionary():
    """Tokens of the runtime's surfaces, for mutations to splice."""
    entries = ["id-token\n", "id-token-claims\n", "device\n", "loopback\n", '"alg"', '"kid"', '"crit"', '"none"',
               '"ES256"', '"RS256"', '"ec-1"', '"aud"', '"azp"', '"iss"', '"exp"', '"nonce"', '"at_hash"', '"device_code"',
               '"verification_uri"', '"verification_uri_complete"', '"interval"', '"expires_in"', "javascript:", "https://",
               "http://127.0.0.1", "http://[::1]", "state=", "code=", "%2D", "HTTP/1.1", "\r\n", "GET ", "1e308", "-0", "null"]
    return dictionary_lines(entries)


def write(out, seeds, dictionary):
    """The seeds, numbered, in `out/seeds`, and the dictionary in `out/sesame.dict`; returns the seeds."""
    os.makedirs(os.path.join(out, "seeds"), exist_ok=True)
    unique = list(dict.fromkeys(seeds))
    for number, seed in enumerate(unique, start=1):
        with open(os.path.join(out, "seeds", f"{number:03}.txt"), "w", encoding="utf-8") as handle:
            handle.write(seed)
    with open(os.path.join(out, "sesame.dict"), "w", encoding="utf-8") as handle:
        handle.write(dictionary)
    return unique


def main():
    if sys.argv[1] == "--runtime":
        unique = write(sys.argv[2], runtime_seeds(), runtime_dictionary())
        print(f"{len(unique)} runtime seeds and a dictionary in {sys.argv[2]}")
        return
    unique = write(sys.argv[1], seeds(), dictionary())
    longest = max(len(seed.encode()) for seed in unique)
    print(f"{len(unique)} seeds (the longest {longest} bytes) and a dictionary in {sys.argv[1]}")


if __name__ == "__main__":
    main()
