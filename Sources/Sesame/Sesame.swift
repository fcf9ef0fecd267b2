// Sesame: the runtime that generated authentication SDKs sit on.
//
// Description/ holds the values a generated SDK declares about its back-end; Models/ the
// coding helpers its models call.
