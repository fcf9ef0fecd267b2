// The SDK's own file: the generated code is in Generated/, and apps that import NotesSDK
// see the runtime's types (AppSession, SesameError, …) without importing Sesame too.
@_exported import Sesame
