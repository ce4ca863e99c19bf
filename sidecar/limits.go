package sidecar

import (
	"fmt"
)

// MaxParamsDepth is how deeply a request's params may nest: arrays and
// objects inside one another, the params value itself at depth 1. The
// protocol's own params nest 3 deep (notify_change's changes), an LSP
// request's passed-on params a few more; deeper params are refused with an
// invalid-params error before anything decodes them.
const MaxParamsDepth = 64

// checkDepth returns an invalid-params error when the JSON value raw nests
// arrays and objects more than max deep. It only counts brackets outside
// strings, so it is one pass over raw with no allocation; raw's syntax was
// checked when the message was decoded.
func checkDepth(raw []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for _, b := range raw {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch b {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			if depth > max {
				return invalidParams(fmt.Sprintf("params nest deeper than %d levels (MaxParamsDepth)", max))
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return nil
}
