// The SDK of docs/tutorial/existing-back-end.md: the generated code is in Generated/, from
// Schema/, whose models are those of the OpenAPI document in api/.
@_exported import Sesame
