#!/usr/bin/env python3
"""Writes the schema folders of the worst generator inputs known, for measuring (docs/performance.md, "Hostile generator inputs").

    scripts/hostile-inputs.py OUT
    for folder in OUT/*; do
        /usr/bin/time -f "$folder %e s %M KB" .build/release/sesame generate "$folder" --output /tmp/hostile-out
    done

Each folder is the generator tests' small base (sdk.yaml, auth.yaml, models.yaml with Token
and User) with models appended:
  longname     a model named with 20,000 characters and a $ref one character off (40 KB)
  wide         3,000 properties whose names all give the Swift name `a` (94 KB)
  widenested   the same 3,000 names, each an inline object: 3,000 nested types named `A`
  allof-1000   1,000 models, each `allOf: [{ $ref: next }]`
  default-2000 2,000 models, each with a property `{ $ref: next, default: a }`
  arrays-150   an array of arrays 150 deep (one line)
  pointer-20000  20,000 models, each with a property `$ref: '#/<next>/properties/p'`
  allof-100000, default-100000, union-20000  the chains of DeepInputTests, at full length
  allofgrow-1000  1,000 models, each `allOf` of the next and one property of its own: every
               model holds the properties of all below it (allOf's meaning: output grows
               with the square of the chain)
"""
import os
import sys

SDK = """sdk: TestSDK
server: { baseURL: https://auth.example.com }
credential:
  token: { model: Token, accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in }
  rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }
  details: me
  userID: id
"""
AUTH = "operations:\n  me: { request: GET /me, response: User }\n"
MODELS = """Token:
  type: object
  required: [access_token]
  properties:
    access_token: { type: string }
    refresh_token: { type: string }
    expires_in: { type: integer }
User:
  type: object
  required: [id]
  properties:
    id: { type: string }
"""


def one_swift_name(count):
    """`count` distinct JSON names that all give the Swift name `a`."""
    keys, seen, queue = [], set(), ["a"]
    while len(keys) < count:
        key = queue.pop(0)
        if key not in seen:
            seen.add(key)
            keys.append(key)
            queue += [separator + key for separator in "-_."] + [key + separator for separator in "-_."]
    return keys


def chain(count, link, last):
    return [link(index) for index in range(count)] + [last(count)]


def folders():
    name = "a" * 20_000
    yield "longname", [f"? {name}\n: {{ type: string }}",
                       f"Holder: {{ type: object, properties: {{ p: {{ $ref: '#/{name[:-1]}b' }} }} }}"]
    keys = one_swift_name(3_000)
    yield "wide", ["Wide:\n  type: object\n  properties:\n" + "\n".join(f'    "{key}": {{ type: string }}' for key in keys)]
    yield "widenested", ["Wide:\n  type: object\n  properties:\n" + "\n".join(
        f'    "{key}": {{ type: object, properties: {{ x: {{ type: string }} }} }}' for key in keys)]
    for count in [1_000, 100_000]:
        yield f"allof-{count}", chain(count, lambda i: f"M{i}: {{ allOf: [ {{ $ref: '#/M{i + 1}' }} ] }}",
                                      lambda n: f"M{n}: {{ type: object, properties: {{ x: {{ type: string }} }} }}")
    for count in [2_000, 100_000]:
        yield f"default-{count}", chain(
            count, lambda i: f"M{i}: {{ type: object, properties: {{ p: {{ $ref: '#/M{i + 1}', default: a }} }} }}",
            lambda n: f"M{n}: {{ type: string, enum: [a] }}")
    union = []
    for index in range(20_000):
        union.append(f"U{index}: {{ oneOf: [ {{ $ref: '#/V{index}' }} ], discriminator: {{ propertyName: kind }} }}")
        union.append(f"V{index}: {{ type: object, required: [kind], properties: {{ kind: {{ type: string }}, "
                     f"next: {{ $ref: '#/U{index + 1}', default: a }} }} }}")
    yield "union-20000", union + ["U20000: { type: string, enum: [a] }"]
    yield "arrays-150", ["Deep: " + "{ type: array, items: " * 150 + "{ type: string }" + " }" * 150]
    yield "pointer-20000", chain(20_000, lambda i: f"M{i}: {{ type: object, properties: {{ p: {{ $ref: '#/M{i + 1}/properties/p' }} }} }}",
                                 lambda n: f"M{n}: {{ type: object, properties: {{ p: {{ type: string }} }} }}")
    yield "allofgrow-1000", chain(
        1_000, lambda i: f"M{i}: {{ allOf: [ {{ $ref: '#/M{i + 1}' }}, {{ properties: {{ p{i}: {{ type: string }} }} }} ] }}",
        lambda n: f"M{n}: {{ type: object, properties: {{ x: {{ type: string }} }} }}")


def main():
    out = sys.argv[1]
    for name, lines in folders():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for file, text in [("sdk.yaml", SDK), ("auth.yaml", AUTH), ("models.yaml", MODELS + "\n".join(lines) + "\n")]:
            with open(os.path.join(folder, file), "w", encoding="utf-8") as handle:
                handle.write(text)
        print(folder, os.path.getsize(os.path.join(folder, "models.yaml")), "bytes of models")


if __name__ == "__main__":
    main()
