// Hand-written; the SDK itself is generated from Schema/ (docs/plugins.md).
@_exported import Sesame
