// The generated SDK lives in Generated/.
@_exported import Sesame
