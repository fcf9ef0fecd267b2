#!/usr/bin/env python3
"""Writes random *valid* schema folders and a package that compiles every SDK generated from them.

    scripts/random-schemas.py SEED COUNT OUT

OUT/Schemas/R<n>/ is schema folder n (sdk, auth, models, errors, events and store files);
OUT/Package.swift declares one target per folder, `Random<n>`, with its sources in
OUT/Sources/Random<n> (scripts/random-schemas.sh fills them with `sesame generate` and builds
the whole package in one `swift build`: one compiler run for every SDK). The same SEED and
COUNT give the same folders, byte for byte.

Each folder is what a back-end team could write, at the edges of what the format accepts
(docs/format.md, docs/store.md): names that are Swift keywords, names equal to the generated
decoder's locals (`container`, `decoder`, `extra`, `known`, `kept`, …), names that differ only by
case or by characters that give one Swift identifier (`a-b`, `a_b`, `aB`, `a b`, invisible
characters), non-ASCII and leading digits; nested objects, arrays, unions with and without a
discriminator, allOf, enums, const, defaults, JSON-checked keywords, $defs and anchors,
operations with path and query parameters, a sign-in method, events, error codes and store
versions. Where two names would give one Swift name and the format calls that an error
(models, operations, error codes, tables, columns), the folders never do it: they are meant
to be accepted, so a diagnostic is a finding too.
"""
import os
import random
import shutil
import sys
import unicodedata

KEYWORDS = ["class", "struct", "enum", "protocol", "func", "var", "let", "in", "is", "as", "self", "Self", "Type",
            "init", "deinit", "default", "case", "switch", "return", "throw", "throws", "try", "catch", "do",
            "repeat", "while", "for", "if", "else", "guard", "defer", "where", "import", "public", "private",
            "internal", "static", "extension", "subscript", "operator", "typealias", "associatedtype", "inout",
            "nil", "true", "false", "super", "_", "Any", "Protocol", "async", "await", "some", "any", "get", "set",
            "willSet", "didSet", "mutating", "open", "fileprivate", "rethrows", "indirect", "lazy", "weak"]
# The generated decoder's own locals, and members every generated type has.
LOCALS = ["container", "decoder", "extra", "known", "kept", "key", "value", "index", "item", "container_",
          "encoder", "values", "keys", "result", "error", "json", "raw", "rawValue", "description", "hashValue",
          "unknown", "allKnownCases", "additionalProperties", "wireName", "response", "code", "category",
          "status", "debugDescription", "customMirror", "arguments", "methodDescription", "schemaCheck", "_name",
          "tag", "kind", "request", "payload", "schema", "statement", "db", "record", "definition", "versions", "me",
          "type", "body", "operation", "performer", "service", "query", "path", "headers", "schemaCheck_value"]
# Types the generated code names; models named so are renamed (`DateModel`).
TYPES = ["Date", "Data", "Error", "String", "Int", "Double", "Bool", "URL", "UUID", "JSONValue", "PropertyKey",
         "Indirect", "Codable", "Decoder", "Encoder", "Sendable", "Hashable", "Optional", "Array", "Dictionary",
         "ModelCoding", "SchemaCheck", "ModelCheck", "CalendarDate", "Foundation", "Sesame", "Swift"]
ODD = ["a-b", "a_b", "aB", "a b", "A-B", "AB", "ab", "note", "Note", "NOTE", "note\u200d", "no\u200bte",
       "café", "cafe\u0301s", "名前", "עברית", "🎉", "*/", "/*", "#if DEBUG", "\\(x)", '"""', 'quote"d',
       "back\\slash", "line\nbreak", "1st", "2nd place", "9", "$0", "", " ", "\u2028", "x\u202eevil", "Ωmega",
       "ñ", "é", "e\u0301x", "_", "__", "a__b", "A1", "a1", "a_1", "a-1"]
IDENTIFIERS = KEYWORDS + [name for name in LOCALS if name.isidentifier()] + ["a_b", "aB", "ab_c", "_x", "x1", "X1"]
TEXT = ["plain", "*/ /* \"\"\" \\(x) #if os(Linux)", "line\nbreak", "tab\there", "quote \" and ' and `", "café 名前 🎉",
        "\u2028sep", "back\\slash", "{braces}", "'; DROP TABLE x; --", "#endif", "\\u{0}"]


def swift_key(name):
    """A key two names share when they could give one Swift name (conservatively: more names share one)."""
    name = unicodedata.normalize("NFC", name)
    visible = "".join(c for c in name if unicodedata.category(c)[0] in "LN")
    return visible.lower() or "#" + "-".join(f"{ord(c):x}" for c in name if c != "_")


def nfc(name):
    return unicodedata.normalize("NFC", name)


def q(text):
    """A YAML double-quoted scalar."""
    out = []
    for c in text:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or unicodedata.category(c) in ("Zl", "Zp", "Cf", "Mn") or ord(c) in (0x7f, 0xfeff):
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def flow(value):
    """YAML flow text of a Python value (dicts keep their order)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{q(str(k))}: {flow(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    return q(value)


class Folder:
    """One random schema folder."""

    def __init__(self, rng, number):
        self.rng = rng
        self.number = number
        self.models = {}        # file → {name: schema}
        self.objects = {}       # model name → its properties' JSON names (object models only)
        self.enums = {}         # string enum model name → its values
        self.keys = set()       # swift_key of every model name
        self.order = []         # model names in declaration order (references go backwards only)
        self.file_of = {}

    # MARK: names

    def unique(self, pool, taken, count, make):
        """Up to `count` names from `pool` (then made ones) whose swift_key is not in `taken`."""
        names = []
        candidates = self.rng.sample(pool, min(len(pool), count))
        for name in candidates:
            if swift_key(name) not in taken and len(names) < count:
                taken.add(swift_key(name))
                names.append(name)
        while len(names) < count:
            name = make(len(taken))
            if swift_key(name) not in taken:
                taken.add(swift_key(name))
                names.append(name)
        return names

    def model_name(self):
        rng = self.rng
        pool = KEYWORDS + TYPES + LOCALS + ODD + ["Token Response", "1 Model", "model-name", "ModelName", "Zeta"]
        for _ in range(20):
            name = rng.choice(pool) if rng.random() < 0.6 else f"{rng.choice(['M', 'm', '1', 'Ü', 'a-'])}{len(self.order)}{rng.choice(['', ' x', '_y', 'Z'])}"
            # A name ending like a renamed one could take the renamed one's name.
            if any(swift_key(name).endswith(s) for s in ["model", "record", "value", "error", "event", "method", "payload", "body", "response"]):
                continue
            if swift_key(name) not in self.keys and swift_key(name) not in self.reserved:
                self.keys.add(swift_key(name))
                return name
        name = f"Model{self.number}x{len(self.order)}"
        self.keys.add(swift_key(name))
        return name

    def property_names(self, count, avoid=()):
        rng = self.rng
        pool = LOCALS + KEYWORDS + ODD
        names, seen = [], {nfc(n) for n in avoid}
        while len(names) < count:
            name = rng.choice(pool) if rng.random() < 0.8 else f"p{rng.randrange(1000)}"
            if nfc(name) not in seen:
                seen.add(nfc(name))
                names.append(name)
        return names

    # MARK: schemas

    def ref(self, name):
        return {"$ref": self.pointer(name)}

    def pointer(self, name):
        """A reference to a model: `#/Name` (or `file#/Name`), `/` and `~` escaped as JSON Pointer says."""
        escaped = name.replace("~", "~0").replace("/", "~1")
        if self.rng.random() < 0.2 and self.file_of.get(name) == "models.yaml":
            return f"models.yaml#/{escaped}"
        return f"#/{escaped}"

    def scalar(self, depth):
        rng = self.rng
        kind = rng.choice(["string", "string", "integer", "number", "boolean", "format", "enum", "const", "checked",
                           "nullable", "any", "types"])
        if kind == "string":
            schema = {"type": "string"}
            if rng.random() < 0.3:
                schema.update(minLength=1, maxLength=40)
                if rng.random() < 0.5:
                    schema["default"] = rng.choice(["x", "*/", "\\(x)", 'a"b', "名前"])
            elif rng.random() < 0.3:
                schema["pattern"] = rng.choice(["^[a-z]+$", "^\\d{2}-\\w$", "^\"[a-z]+\\\\$", "a|b"])
            elif rng.random() < 0.3:
                schema["default"] = rng.choice(TEXT)
            return schema
        if kind == "integer":
            schema = {"type": "integer"}
            if rng.random() < 0.5:
                schema.update(minimum=-5, maximum=100)
                if rng.random() < 0.5:
                    schema["default"] = rng.randrange(-5, 101)
            elif rng.random() < 0.3:
                schema["multipleOf"] = 5
            return schema
        if kind == "number":
            schema = {"type": "number"}
            if rng.random() < 0.5:
                schema.update(exclusiveMinimum=0, maximum=1.5)
                if rng.random() < 0.5:
                    schema["default"] = 0.5
            return schema
        if kind == "boolean":
            return {"type": "boolean", **({"default": rng.random() < 0.5} if rng.random() < 0.5 else {})}
        if kind == "format":
            return {"type": "string", "format": rng.choice(["date-time", "date", "uuid", "uri", "email", "hostname",
                                                             "ipv4", "ipv6", "uri-reference"])}
        if kind == "enum":
            values = self.enum_values()
            schema = {"type": "string", "enum": values}
            if rng.random() < 0.4:
                schema["default"] = rng.choice(values)
            return schema
        if kind == "const":
            return rng.choice([{"type": "string", "const": rng.choice(TEXT)}, {"type": "integer", "const": 7},
                               {"type": "boolean", "const": True}, {"type": "number", "const": -2.5}, {"const": None}])
        if kind == "checked":
            return rng.choice([{"type": "string", "not": {"enum": ["admin", "root"]}},
                               {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "minItems": 1},
                               {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "maxItems": 2},
                               {"type": "array", "items": {"type": "integer"}, "contains": {"minimum": 3}},
                               {"type": "object", "minProperties": 1, "propertyNames": {"pattern": "^[a-z]+$"}}])
        if kind == "nullable":
            schema = {"type": [rng.choice(["string", "integer", "boolean"]), "null"]}
            if rng.random() < 0.4:
                schema["default"] = None
            return schema
        if kind == "types":
            return {"type": rng.sample(["string", "integer", "boolean", "number"], 2)}
        return {}

    def enum_values(self):
        values, seen = [], set()
        for value in self.rng.sample(ODD + KEYWORDS + ["unknown", "rawValue", "allKnownCases", "description"], self.rng.randrange(1, 7)):
            if nfc(value) not in seen:
                seen.add(nfc(value))
                values.append(value)
        return values

    def schema(self, depth, owner=None):
        """A property's schema: scalars, references, arrays, inline objects, unions."""
        rng = self.rng
        earlier = [name for name in self.order if name != owner]
        roll = rng.random()
        if depth > 3 or roll < 0.45:
            return self.scalar(depth)
        if roll < 0.6 and earlier:
            name = rng.choice(earlier)
            schema = self.ref(name)
            if name in self.enums and rng.random() < 0.5:
                schema["default"] = rng.choice(self.enums[name])  # a default through $ref
            return schema
        if roll < 0.7:
            items = self.schema(depth + 1, owner)
            while self.nullable(items):  # nullable items are refused
                items = self.schema(depth + 1, owner)
            schema = {"type": "array", "items": items}
            if rng.random() < 0.3 and items.get("type") in ("string", "integer", "number", "boolean") and "default" not in items:
                schema["default"] = []  # on arrays of scalars only
            return schema
        if roll < 0.8:
            return self.inline_object(depth + 1, owner)
        if roll < 0.85 and owner is not None:
            return {"type": "array", "items": self.ref(owner)}  # a recursive model
        if roll < 0.9 and earlier:
            return {"oneOf": [self.ref(rng.choice(earlier)), {"type": "null"}]}
        if roll < 0.95:
            members = [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}, {"type": "boolean"}]
            members += [self.ref(name) for name in rng.sample(earlier, min(2, len(earlier)))]
            return {rng.choice(["anyOf", "oneOf"]): rng.sample(members, rng.randrange(2, len(members) + 1))}
        return {"type": "object", "additionalProperties": self.scalar(depth + 1) if rng.random() < 0.7 else True}

    @staticmethod
    def nullable(schema):
        kinds = schema.get("type")
        return (isinstance(kinds, list) and "null" in kinds or "const" in schema and schema["const"] is None
                or {"type": "null"} in schema.get("oneOf", []) or schema == {})

    def inline_object(self, depth, owner=None, avoid=()):
        rng = self.rng
        names = self.property_names(rng.randrange(1, 6), avoid)
        properties = {name: self.schema(depth + 1, owner) for name in names}
        schema = {"type": "object", "properties": properties}
        required = [name for name in names if rng.random() < 0.3 and "default" not in properties[name]]
        if rng.random() < 0.2:
            required.append("nmae_undeclared")  # a required name with no schema: checked on decode
        if required:
            schema["required"] = required
        extra = rng.random()
        if extra < 0.15:
            schema["additionalProperties"] = True
        elif extra < 0.25:
            schema["additionalProperties"] = False
        elif extra < 0.35:
            schema["additionalProperties"] = self.scalar(depth + 1)
        if rng.random() < 0.15:
            schema["description"] = rng.choice(TEXT)
        return schema

    def add(self, name, schema, file="models.yaml", properties=None):
        self.models.setdefault(file, {})[name] = schema
        self.order.append(name)
        self.file_of[name] = file
        if properties is not None:
            self.objects[name] = properties
        if isinstance(schema, dict) and schema.get("type") == "string" and "enum" in schema:
            self.enums[name] = schema["enum"]

    def model(self):
        rng = self.rng
        name = self.model_name()
        file = rng.choice(["models.yaml", "models.yaml", "more/odd models.yaml"])
        kind = rng.random()
        objects = list(self.objects)
        if kind < 0.45:
            schema = self.inline_object(0, owner=name)
            self.add(name, schema, file, list(schema["properties"]))
        elif kind < 0.55:
            self.add(name, {"type": "string", "enum": self.enum_values(), "description": rng.choice(TEXT)}, file)
        elif kind < 0.6:
            self.add(name, {"type": "integer", "enum": sorted(rng.sample(range(-3, 50), 3))}, file)
        elif kind < 0.7 and objects:
            chosen = rng.sample(objects, min(len(objects), rng.randrange(1, 3)))
            if len(chosen) == 2 and {nfc(p) for p in self.objects[chosen[0]]} & {nfc(p) for p in self.objects[chosen[1]]}:
                chosen = chosen[:1]  # a property declared by two members must have one type
            members = [self.ref(other) for other in chosen]
            taken = [p for other in chosen for p in self.objects[other]]
            inline = self.inline_object(1, avoid=taken)
            self.add(name, {"allOf": members + [inline]}, file, taken + list(inline["properties"]))
        elif kind < 0.8:
            # A discriminated union over variants of its own.
            tag = rng.choice(["kind", 'kind"#', "type", "class", "container", "名前", "value", "tag", "default", "self",
                              "Type", "valueTag", "unknown", "_", ""])
            variants = []
            for _ in range(rng.randrange(1, 4)):
                variant = self.model_name()
                body = self.inline_object(1, avoid=[tag])
                body["properties"] = {tag: {"type": "string"}, **body["properties"]}
                body["required"] = [tag] + [r for r in body.get("required", []) if r != tag]
                self.add(variant, body, file, list(body["properties"]))
                variants.append(variant)
            schema = {"oneOf": [self.ref(v) for v in variants], "discriminator": {"propertyName": tag}}
            if rng.random() < 0.5:
                schema["discriminator"]["mapping"] = {rng.choice(TEXT) + str(i): self.pointer(v) for i, v in enumerate(variants)}
            self.add(name, schema, file)
        elif kind < 0.85:
            self.add(name, rng.choice([{"type": "string", "minLength": 3}, {"type": "integer"}, {"type": "array", "items": {"type": "string"}},
                                       {"type": ["string", "integer"]}, {"type": "string", "format": "uuid"}]), file)
        elif kind < 0.9 and self.order:
            self.add(name, self.ref(rng.choice(self.order)), file)  # an alias
            self.objects.pop(name, None)
        else:
            schema = self.schema(1, owner=name)
            if "$ref" in schema or schema.get("type") == "array" and "$ref" in str(schema):
                schema = {"type": "boolean"}  # an alias that is an array of itself is refused
            self.add(name, schema, file)

    # MARK: files

    def write(self, folder):
        rng = self.rng
        self.reserved = {swift_key(n) for n in ["Token", "User", f"S{self.number}", f"S{self.number}Error", f"S{self.number}Event"]}
        sdk_name = f"S{self.number}"
        files = {}
        token_required = "[access_token]"
        files["sdk.yaml"] = (
            f"sdk: {sdk_name}\n"
            f"description: {q(rng.choice(TEXT))}\n"
            "server: { baseURL: https://auth.example.com }\n"
            "credential:\n"
            "  token: { model: Token, accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in }\n"
            "  rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }\n"
            "  details: me\n"
            "  userID: id\n")
        self.models["models.yaml"] = {}
        for _ in range(rng.randrange(4, 16)):
            self.model()
        # $defs, an anchor, a JSON pointer into a model.
        defs_name = f"Def{self.number} {rng.choice(ODD)}"
        if swift_key(defs_name) not in self.keys:
            self.keys.add(swift_key(defs_name))
            holder = self.model_name()
            self.models["models.yaml"]["$defs"] = {defs_name: {"$anchor": f"anchor{self.number}", "type": "object",
                                                               "properties": {"city": {"type": "string"}}}}
            pointer_target = next((n for n in self.order if self.file_of[n] == "models.yaml" and n in self.objects
                                   and self.objects[n] and "/" not in n and "~" not in n), None)
            escaped = defs_name.replace("~", "~0").replace("/", "~1")
            properties = {"home": {"$ref": f"#/$defs/{escaped}"}, "work": {"$ref": f"#anchor{self.number}"}}
            self.models["models.yaml"][holder] = {"type": "object", "properties": properties}
            self.order.append(holder)
            self.file_of[holder] = "models.yaml"
        models_yaml = ("Token:\n  type: object\n  required: " + token_required + "\n  properties:\n"
                       "    access_token: { type: string }\n    refresh_token: { type: string }\n    expires_in: { type: integer }\n"
                       "User:\n  type: object\n  required: [id]\n  properties:\n    id: { type: string }\n")
        for file, models in self.models.items():
            text = models_yaml if file == "models.yaml" else ""
            for name, schema in models.items():
                text += f"{q(name) if name != '$defs' else '$defs'}: {flow(schema)}\n"
            files[file] = text
        files["auth.yaml"] = self.auth()
        if rng.random() < 0.8:
            files["errors.yaml"] = self.errors()
        if rng.random() < 0.8:
            files["events.yaml"] = self.events()
        if rng.random() < 0.8:
            files["store.yaml"] = self.store()
        for path, text in files.items():
            full = os.path.join(folder, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as handle:
                handle.write(text)

    def parameter_schema(self):
        rng = self.rng
        enums = list(self.enums)
        choices = [{"type": "string"}, {"type": "integer", "minimum": 1, "maximum": 100}, {"type": "boolean"},
                   {"type": "string", "format": "uuid"}, {"type": "number"}]
        if enums:
            choices.append(self.ref(rng.choice(enums)))
        return rng.choice(choices)

    def auth(self):
        rng = self.rng
        taken = {swift_key(n) for n in ["me"]}
        names = self.unique(IDENTIFIERS, taken, rng.randrange(1, 7), lambda n: f"op{n}")
        text = "operations:\n  me: { request: GET /me, response: User }\n"
        for name in names:
            method = rng.choice(["GET", "POST", "PUT", "PATCH", "DELETE"])
            parameters = {}
            path_names = self.unique(IDENTIFIERS, set(), rng.randrange(0, 3), lambda n: f"p{n}")
            query_taken = {swift_key(n) for n in path_names}
            query_names = self.unique(IDENTIFIERS, query_taken, rng.randrange(0, 3), lambda n: f"q{n}")
            path = f"/{rng.choice(['x', 'café', 'a-b', 'quote'])}/{name}" + "".join(f"/{{{p}}}" for p in path_names)
            for p in path_names:
                parameters[p] = {"in": "path", "schema": self.parameter_schema()}
            for p in query_names:
                parameters[p] = {"in": "query", "schema": self.parameter_schema(),
                                 **({"description": rng.choice(TEXT)} if rng.random() < 0.3 else {})}
            operation = {"request": f"{method} {path}"}
            if parameters:
                operation["parameters"] = parameters
            if method != "GET" and rng.random() < 0.6:
                operation["body"] = rng.choice([rng.choice(list(self.objects) or ["User"]), self.inline_object(1)])
            if rng.random() < 0.7:
                # A nullable body or response is refused.
                operation["response"] = rng.choice(list(self.objects) + ["User"]) if rng.random() < 0.6 else self.schema(1)
                while self.nullable(operation["response"]) if isinstance(operation["response"], dict) else False:
                    operation["response"] = self.schema(1)
            if rng.random() < 0.2:
                operation["description"] = rng.choice(TEXT)
            if rng.random() < 0.1:
                operation["deprecated"] = True
            if rng.random() < 0.1:
                operation["authenticated"] = False
            text += f"  {name}: {flow(operation)}\n"
        # A sign-in method whose parameters are odd names, sent under odd body keys.
        method = self.unique(IDENTIFIERS, set(), 1, lambda n: f"m{n}")[0]
        parameters = self.unique(IDENTIFIERS, set(), rng.randrange(1, 4), lambda n: f"a{n}")
        body = {rng.choice(ODD) + str(i): f"{{{p}}}" for i, p in enumerate(parameters)}
        text += ("methods:\n"
                 f"  {method}:\n"
                 f"    parameters: {flow({p: self.parameter_schema() for p in parameters})}\n"
                 "    steps:\n"
                 f"      - request: POST /auth/{method}\n"
                 f"        body: {flow(body)}\n"
                 "        response: Token\n")
        return text

    def errors(self):
        rng = self.rng
        codes = self.unique(ODD + KEYWORDS + LOCALS, set(), rng.randrange(1, 8), lambda n: f"e{n}")
        categories = ["credential-rejected", "reauthentication-required", "transient", "client", "server"]
        envelope = {"code": rng.choice(["error", "code", 'err"or']), "message": rng.choice(["message", "mess\\age"])}
        text = f"envelope: {flow(envelope)}\nerrors:\n"
        for code in codes:
            entry = {"status": rng.randrange(400, 600), "category": rng.choice(categories)}
            if rng.random() < 0.3:
                entry["description"] = rng.choice(TEXT)
            text += f"  {q(code)}: {flow(entry)}\n"
        return text

    def events(self):
        rng = self.rng
        names = self.unique(IDENTIFIERS, set(), rng.randrange(1, 6), lambda n: f"ev{n}")
        wires = self.unique(ODD + TEXT, set(), len(names), lambda n: f"wire.{n}")
        text = "stream: GET /events/stream\nevents:\n"
        for name, wire in zip(names, wires):
            event = {"wireName": wire}
            roll = rng.random()
            if roll < 0.4 and self.order:
                event["payload"] = rng.choice(self.order)
            elif roll < 0.7:
                event["payload"] = self.inline_object(1)
            if rng.random() < 0.2:
                event["effect"] = "invalidate"
            if rng.random() < 0.2:
                event["description"] = rng.choice(TEXT)
            text += f"  {name}: {flow(event)}\n"
        return text

    def store(self):
        rng = self.rng
        members = {"description", "hashValue", "self", "Self", "init", "Type", "Protocol", "debugDescription", "customMirror"}
        lower = [k for k in KEYWORDS + LOCALS if k.isidentifier() and k.isascii() and not k.startswith("_") and k not in members]
        lower += ["id", "a_b", "aB1", "x"]
        upper = ["Class", "Type", "Self", "Protocol", "Default", "Note", "Any", "Date", "Data", "Error", "Key", "Value", "Record", "Int"]
        text = ""
        for section in rng.sample(["persistence", "cache", "memory"], rng.randrange(1, 4)):
            tables = {}
            for table in self.unique(upper, set(), rng.randrange(1, 4), lambda n: f"T{n}"):
                columns = {}
                for index, column in enumerate(self.unique(lower, set(), rng.randrange(1, 6), lambda n: f"c{n}")):
                    kind = rng.choice(["text", "integer", "real", "boolean", "blob", "date"])
                    spec = {"type": kind}
                    if index == 0:
                        spec = {"type": rng.choice(["text", "integer"]), "primaryKey": True}
                    elif rng.random() < 0.3:
                        spec["nullable"] = True
                    elif kind in ("text", "integer", "real", "boolean") and rng.random() < 0.5:
                        spec["default"] = {"text": rng.choice(TEXT[:-1]), "integer": -3, "real": 1.5, "boolean": True}[kind]
                    columns[column] = spec
                tables[table] = columns
            versions = [tables]
            if section != "memory" and rng.random() < 0.6:
                # Version 2: a nullable column at the end of each table, and a new table.
                second = {table: {**columns, f"added{i}": {"type": "text", "nullable": True}}
                          for i, (table, columns) in enumerate(tables.items())}
                fresh = next((t for t in ["Added", "Extra", "Later"] if swift_key(t) not in {swift_key(n) for n in tables}), None)
                if fresh:
                    second[fresh] = {"id": {"type": "integer", "primaryKey": True}, "in": {"type": "text", "default": rng.choice(TEXT[:-1])}}
                versions.append(second)
            text += f"{section}:\n"
            if section == "cache" and rng.random() < 0.5:
                text += f"  policy: {rng.choice(['recreate', 'migrate'])}\n"
            for number, version in enumerate(versions, start=1):
                text += f"  {number}:\n"
                for table, columns in version.items():
                    text += f"    {table}: {flow(columns)}\n"
        return text


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    targets = []
    for number in range(count):
        rng = random.Random(f"{seed}-{number}")
        Folder(rng, number).write(os.path.join(out, "Schemas", f"R{number}"))
        os.makedirs(os.path.join(out, "Sources", f"Random{number}"), exist_ok=True)
        targets.append(f"Random{number}")
    for stale in os.listdir(os.path.join(out, "Sources")):
        if stale not in targets:
            shutil.rmtree(os.path.join(out, "Sources", stale))
    root = os.path.relpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.abspath(out))
    lines = [f'        .target(name: "{t}", dependencies: [.product(name: "Sesame", package: "Sesame"), '
             f'.product(name: "SesameStore", package: "Sesame"), .product(name: "GRDB", package: "GRDB.swift")]),' for t in targets]
    manifest = (
            "// swift-tools-version: 6.1\n"
            f"// Written by scripts/random-schemas.py ({count} schemas): one target per generated SDK.\n"
            "import PackageDescription\n\n"
            "let package = Package(\n"
            '    name: "RandomSchemas",\n'
            "    platforms: [.macOS(.v14), .iOS(.v17)],\n"
            f'    dependencies: [.package(name: "Sesame", path: "{root}"), .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0")],\n'
            "    targets: [\n" + "\n".join(lines) + "\n    ]\n)\n")
    path = os.path.join(out, "Package.swift")
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != manifest:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(manifest)


if __name__ == "__main__":
    main()
