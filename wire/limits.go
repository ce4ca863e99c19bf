package wire

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// MaxFileSize is the largest file checked (16 MiB). Larger files are skipped
// with a note rather than read into memory.
const MaxFileSize = 16 << 20

// ErrTooLarge refuses content over MaxFileSize.
var ErrTooLarge = fmt.Errorf("larger than %d MiB", MaxFileSize>>20)

// Default budgets for a notify_change whose caller named none.
const (
	DefaultBudget     = 5 * time.Second
	DefaultColdBudget = 12 * time.Second
)

// requestOverhead is room kept in a notify_change message for everything
// but the changes' contents: the envelope, paths, modes and the other
// params.
const requestOverhead = 1 << 20

// oversized splits p's changes into those the daemon will take and notes
// for those it would refuse, which are left out: content over MaxFileSize
// (the daemon would skip it too, after reading it whole), or content whose
// JSON encoding would take the request over MaxMessageSize (the daemon
// would close the connection). Contents are measured as encoding/json
// encodes them (see encodedLen), in the order of the changes.
func oversized(p NotifyChangeParams) (kept []Change, notes []string) {
	budget := MaxMessageSize - requestOverhead
	for _, c := range p.Changes {
		if c.Content == nil {
			kept = append(kept, c)
			continue
		}
		if n := len(*c.Content); n > MaxFileSize {
			notes = append(notes, fmt.Sprintf("skipped %s: content of %s is %v; not sent to the daemon", c.Path, mib(n), ErrTooLarge))
			continue
		}
		if n := encodedLen(*c.Content); n > budget {
			notes = append(notes, fmt.Sprintf("skipped %s: its content takes %s as JSON, which would take the request over the daemon's %d MiB message limit; not sent",
				c.Path, mib(n), MaxMessageSize>>20))
			continue
		} else {
			budget -= n
		}
		kept = append(kept, c)
	}
	return kept, notes
}

// mib formats n bytes in MiB with one decimal.
func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// encodedLen returns the length in bytes of s encoded as a JSON string by
// encoding/json's Marshal, quotes included: `"` and `\` and the control
// characters \b \f \n \r \t take two bytes, other control characters and
// <, >, & (HTML-safe escaping) six, an invalid UTF-8 byte six (\ufffd),
// U+2028 and U+2029 six; everything else its own bytes.
func encodedLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20 || b == '<' || b == '>' || b == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
