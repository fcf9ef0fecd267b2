// SesameDescription: the protocol a generated SDK describes, as plain values
// (docs/packages.md, "Modules, and what an app sees"). The generator builds these values from the YAML (its IR embeds them,
// adding only source positions and Swift names), prints them into the generated code, and
// the runtime (`Sesame`, which re-exports this module) interprets them. One type per idea,
// spelled once: no mirrored pair of types between the generator and the runtime.
//
// It depends on Foundation only, so that the generator builds without the runtime's
// networking stack.
