// Sesame: the runtime that generated authentication SDKs sit on.
//
// Description/ holds the values a generated SDK declares about its back-end; Models/ the
// coding helpers its models call. State/ is the authentication state machine (pure values),
// Session/ the credential and its persistence, Pipeline/ the HTTP request pipeline built on
// swift-openapi-runtime, Events/ the event delivery, and Service/ the actor that runs it all.
// docs/runtime.md explains the rules.
//
// The protocol's values shared with the generator live in SesameDescription, re-exported
// here. Those that exist for generated code are `@_spi(Generated)`: apps see `JSONValue` and
// `ErrorCategory`, not the descriptions (docs/packages.md, "Modules, and what an app sees").
@_exported import SesameDescription
