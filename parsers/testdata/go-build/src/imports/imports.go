// Package imports imports a package that does not exist.
package imports

import "example.com/builddemo/nope"

// X re-exports nope.X.
var X = nope.X
