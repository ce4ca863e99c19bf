package config

import (
	"fmt"
	"math"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
	"gopkg.in/yaml.v3"
)

// MemoryBudgetAuto is Config.MemoryBudget when no config file set
// `memory_budget`: the daemon then takes DefaultMemoryBudgetShare of the
// machine's memory.
const MemoryBudgetAuto int64 = -1

// DefaultMemoryBudgetShare is the share of the machine's physical memory
// that all of one user's daemons and their language servers may hold
// together when `memory_budget` is not set: a quarter (4 GiB of 16).
const DefaultMemoryBudgetShare = 0.25

// sizeSyntax is what ParseSize accepts before handing the unit to
// go-humanize: ASCII digits, an optional fraction, optional spaces and
// letters (go-humanize takes any Unicode digit and counts them as bytes).
var sizeSyntax = lazyre.New(`^[0-9]+(\.[0-9]+)?\s*[A-Za-z]*$`)

// ParseSize parses a size of memory into bytes: a number (a fraction
// allowed) and a unit, IEC (KiB, MiB, GiB, TiB: powers of 1024; Ki, Mi,
// Gi) or SI (kB, MB, GB, TB: powers of 1000; k, M, G), in any case, B or
// none for bytes: "2GiB" is 2147483648, "596MiB" 624951296, "1.5 GB"
// 1500000000, "0" is 0. The units are go-humanize's ParseBytes table.
// An error names the value and what is wanted; so does a size past
// math.MaxInt64 bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if !sizeSyntax().MatchString(t) {
		return 0, fmt.Errorf("%q is not a size: want a number and a unit such as 2GiB, 596MiB, 1.5GB or 0", s)
	}
	n, err := humanize.ParseBytes(t)
	if err != nil && strings.HasPrefix(err.Error(), "unhandled size name") {
		return 0, fmt.Errorf("%q has an unknown unit: want B, KiB, MiB, GiB, TiB (1024s) or kB, MB, GB, TB (1000s)", s)
	}
	// The syntax check leaves go-humanize only an out-of-range number to
	// fail on.
	if err != nil || n > math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large: at most %s", s, humanize.IBytes(math.MaxInt64))
	}
	return int64(n), nil
}

// FormatSize renders bytes for people in IEC units, as ParseSize reads
// them back within rounding: "2.0 GiB", "596 MiB", "0 B".
func FormatSize(n int64) string {
	if n < 0 {
		return "-" + humanize.IBytes(uint64(-n))
	}
	return humanize.IBytes(uint64(n))
}

// memoryBudget decodes `memory_budget`, which only the user file may set:
// the budget is shared by every daemon of the user, and a workspace that
// set its own would make them disagree.
func (d *decoder) memoryBudget(c *Config, n *yaml.Node, key string) {
	if !d.user {
		d.problem(n, key, "memory_budget is shared by all of your daemons: set it in %s, not in a workspace file", UserFile())
		return
	}
	if n.Kind != yaml.ScalarNode {
		d.problem(n, key, "want a size such as 2GiB or 596MiB, or 0 for no budget")
		return
	}
	v, err := ParseSize(n.Value)
	if err != nil {
		d.problem(n, key, "%v", err)
		return
	}
	c.MemoryBudget = v
}
