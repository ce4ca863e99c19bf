package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Linter is one command-line checker run in compiler mode (the `linters:`
// key): its output goes through a parser (package parsers) into the same
// lint block as the language servers' diagnostics.
type Linter struct {
	// Name is the key under `linters:` ("ruff", "shellcheck").
	Name string
	// Command is argv. Placeholders, replaced in every argument: {file} the
	// changed file's absolute path, {root} the workspace root (or, with
	// RootMarkers, the linter's root for the file), {dir} the file's
	// directory, {rel} the file's root-relative slash path. Two list
	// placeholders stand for a whole argument each: {files}, the absolute
	// paths of every file one run covers, and {dirs}, their distinct
	// directories (absolute, sorted). One run covers every file of a check
	// for which the rest of the command and the directory come out the
	// same, so a command with a list placeholder and no per-file one runs
	// once per check and directory (`go vet {dirs}`, `eslint {files}`)
	// instead of once per file.
	Command []string
	// Extensions are the file extensions checked, with the dot: [".sh"].
	Extensions []string
	// Parser is the output format's name in package parsers ("ruff",
	// "eslint", "auto", …), or "errorformat" with Errorformat set.
	Parser string
	// Errorformat holds Vim errorformat strings for Parser "errorformat"
	// (`errorformat:`), read with reviewdog/errorformat.
	Errorformat []string
	// Timeout bounds one run (`timeout:`, default 30s); a check's own budget
	// can cut it shorter.
	Timeout time.Duration
	// Cwd is the directory the command runs in, with the same placeholders
	// as Command; relative paths are relative to the workspace root.
	// Default "{root}".
	Cwd string
	// Mode is LinterFallback (run only for files no live language server
	// serves) or LinterAlways (`mode:`).
	Mode string
	// When is LinterOnEdit (every hook check and diagnose) or
	// LinterOnDiagnose (only `lsp-hook diagnose`: for linters too slow to
	// run per keystroke, such as go vet over a package).
	When string
	// Requires lists file names, at least one of which must exist in the
	// linter's root for the file ({root}: the workspace root, or with
	// RootMarkers the nearest directory holding a marker) for the linter
	// to run on it (eslint's config files, say). Empty: no requirement.
	Requires []string
	// RootMarkers (`root_markers:`), as for a language server, make {root}
	// the nearest directory from the file's up to the workspace root that
	// holds one of them, the first marker found winning; the workspace
	// root when none does. Go's built-in go vet uses [go.mod], so it runs
	// in the file's module wherever the workspace root is.
	RootMarkers []string
	// Enabled is false when config turned the linter off.
	Enabled bool
	// Builtin marks an entry from BuiltinLinters; a built-in whose program
	// is not installed is skipped quietly, a configured one is reported.
	Builtin bool
}

// Linter modes and phases.
const (
	LinterFallback   = "fallback"
	LinterAlways     = "always"
	LinterOnEdit     = "edit"
	LinterOnDiagnose = "diagnose"
)

// DefaultLinterTimeout is Linter.Timeout's default.
const DefaultLinterTimeout = 30 * time.Second

// Serves reports whether the linter checks files with extension ext (with
// the dot).
func (l Linter) Serves(ext string) bool {
	for _, e := range l.Extensions {
		if e == ext {
			return true
		}
	}
	return false
}

// eslintConfigs are the file names of an eslint config, flat (eslint ≥ 9)
// and legacy: the built-in eslint runs in the nearest directory holding
// one, so each package of a monorepo gets its own.
var eslintConfigs = []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs",
	"eslint.config.ts", "eslint.config.mts", "eslint.config.cts", ".eslintrc.js", ".eslintrc.cjs",
	".eslintrc.json", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc"}

// BuiltinLinters returns the linters lsp-hook knows without config; each is
// used only when its program is installed (and, for eslint, a config file
// is present), and each takes every file of a check in one run ({files},
// {dirs}):
//
//   - shellcheck (`shellcheck -f json1`) for shell scripts, always: no
//     shell language server is built in;
//   - go vet (`go vet DIR…` over the files' packages, in their module) for
//     Go, on diagnose only — it builds the packages, too slow per edit;
//   - eslint (`eslint -f json`) for JavaScript and TypeScript, always (the
//     TypeScript server does not lint), in the nearest directory holding
//     an eslint config, when there is one;
//   - ruff (`ruff check --output-format json`) for Python, always;
//   - mypy for Python as a fallback when no Python server is live.
func BuiltinLinters() []Linter {
	js := []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}
	return []Linter{
		{Name: "shellcheck", Command: []string{"shellcheck", "-f", "json1", "{files}"},
			Extensions: []string{".sh", ".bash", ".ksh", ".bats"}, Parser: "shellcheck", Mode: LinterAlways},
		{Name: "go-vet", Command: []string{"go", "vet", "{dirs}"}, RootMarkers: []string{"go.mod"},
			Extensions: []string{".go"}, Parser: "go-vet", Mode: LinterAlways, When: LinterOnDiagnose,
			Timeout: 2 * time.Minute}, // a cold build cache compiles the packages' dependencies first
		{Name: "eslint", Command: []string{"eslint", "-f", "json", "{files}"}, Extensions: js, Parser: "eslint",
			Mode: LinterAlways, Requires: slices.Clone(eslintConfigs), RootMarkers: slices.Clone(eslintConfigs)},
		{Name: "ruff", Command: []string{"ruff", "check", "--output-format", "json", "--no-cache", "{files}"},
			Extensions: []string{".py", ".pyi"}, Parser: "ruff", Mode: LinterAlways},
		{Name: "mypy", Command: []string{"mypy", "--show-column-numbers", "--show-error-end", "--no-error-summary",
			"--no-color-output", "--no-pretty", "{files}"}, Extensions: []string{".py", ".pyi"}, Parser: "mypy",
			Mode: LinterFallback},
	}
}

func defaultLinters() map[string]Linter {
	out := make(map[string]Linter)
	for _, l := range BuiltinLinters() {
		l.Builtin, l.Enabled = true, true
		out[l.Name] = withLinterDefaults(l)
	}
	return out
}

func withLinterDefaults(l Linter) Linter {
	if l.Timeout == 0 {
		l.Timeout = DefaultLinterTimeout
	}
	if l.Cwd == "" {
		l.Cwd = "{root}"
	}
	if l.Mode == "" {
		l.Mode = LinterFallback
	}
	if l.When == "" {
		l.When = LinterOnEdit
	}
	if l.Parser == "" {
		l.Parser = "auto"
	}
	return l
}

// linters handles `linters:`: for each name, a bare bool (a built-in on or
// off) or a mapping of settings. A built-in keeps what the mapping leaves
// out; a new name needs command and extensions.
func (d *decoder) linters(c *Config, n *yaml.Node, key string) {
	if n.Kind != yaml.MappingNode {
		d.problem(n, key, "want a mapping of linter name to settings")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		lkey := join(key, k.Value)
		l, known := c.Linters[k.Value]
		switch {
		case v.Kind == yaml.ScalarNode && known:
			if d.boolean(&l.Enabled, v, lkey) {
				d.source(lkey+".enabled", k)
			}
			c.Linters[k.Value] = l
			continue
		case v.Kind != yaml.MappingNode:
			d.problem(v, lkey, "want a mapping such as {command: [tool, \"{file}\"], parser: auto, extensions: [.ext]}%s",
				suggest(k.Value, sortedKeys(c.Linters)))
			continue
		}
		if !known {
			l = Linter{Name: k.Value, Enabled: true}
		}
		before := len(d.problems)
		d.linter(&l, v, lkey)
		if !known && (len(l.Command) == 0 || len(l.Extensions) == 0) {
			if len(d.problems) == before { // else a broken command or extensions was said already
				d.problem(k, lkey, "a linter needs command and extensions")
			}
			continue
		}
		if !known && len(d.problems) > before {
			continue // a new linter with a broken field is left out whole
		}
		l.Builtin = l.Builtin && !commandSet(v) // a replaced command is the user's: report it when missing
		c.Linters[k.Value] = withLinterDefaults(l)
	}
}

// commandSet reports whether the mapping n sets `command`.
func commandSet(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "command" {
			return true
		}
	}
	return false
}

func (d *decoder) linter(l *Linter, n *yaml.Node, key string) {
	d.mapping(n, key, map[string]func(*yaml.Node, string){
		"enabled": func(n *yaml.Node, key string) { d.boolean(&l.Enabled, n, key) },
		"command": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok && len(v) > 0 {
				for _, a := range v {
					if msg := listPlaceholderMisuse(a, true); msg != "" {
						d.problem(n, key, "%s", msg)
						return
					}
				}
				l.Command = v
			} else if ok {
				d.problem(n, key, "want the program and its arguments, such as [ruff, check, \"{file}\"]")
			}
		},
		"extensions": func(n *yaml.Node, key string) {
			if v, ok := d.extensions(n, key); ok {
				l.Extensions = v
			}
		},
		"parser": func(n *yaml.Node, key string) {
			if n.Kind != yaml.ScalarNode || n.Value == "" {
				d.problem(n, key, "want a parser name such as auto, ruff or gcc")
				return
			}
			l.Parser = n.Value
		},
		"errorformat": func(n *yaml.Node, key string) {
			if n.Kind == yaml.ScalarNode {
				l.Errorformat = []string{n.Value}
			} else if v, ok := d.strings(n, key); ok {
				l.Errorformat = v
			}
			if l.Parser == "" || l.Parser == "auto" {
				l.Parser = "errorformat"
			}
		},
		"timeout": func(n *yaml.Node, key string) { d.duration(&l.Timeout, n, key) },
		"cwd": func(n *yaml.Node, key string) {
			if n.Kind != yaml.ScalarNode {
				d.problem(n, key, "want a directory such as \"{root}\" or \"{dir}\"")
				return
			}
			if msg := listPlaceholderMisuse(n.Value, false); msg != "" {
				d.problem(n, key, "%s", msg)
				return
			}
			l.Cwd = n.Value
		},
		"mode": func(n *yaml.Node, key string) {
			d.oneOf(&l.Mode, n, key, LinterFallback, LinterAlways)
		},
		"when": func(n *yaml.Node, key string) {
			d.oneOf(&l.When, n, key, LinterOnEdit, LinterOnDiagnose)
		},
		"requires": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok {
				l.Requires = v
			}
		},
		"root_markers": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok {
				l.RootMarkers = v
			}
		},
	})
}

// listPlaceholders are the placeholders that stand for a whole argument
// each, expanded to one argument per file or directory (Linter.Command).
var listPlaceholders = []string{"{files}", "{dirs}"}

// IsListPlaceholder reports whether the command argument a is a list
// placeholder, {files} or {dirs} (see Linter.Command).
func IsListPlaceholder(a string) bool { return slices.Contains(listPlaceholders, a) }

// listPlaceholderMisuse describes the first list placeholder in s used as
// part of a string rather than as the whole of it ("" when none is); whole
// says whether being the whole of s is allowed (an argument: yes; a
// directory: no).
func listPlaceholderMisuse(s string, whole bool) string {
	for _, p := range listPlaceholders {
		switch {
		case s == p && whole:
		case strings.Contains(s, p) && whole:
			return fmt.Sprintf("%s stands for a whole argument (one per file or directory), not part of %q", p, s)
		case strings.Contains(s, p):
			return fmt.Sprintf("a directory cannot hold the list placeholder %s: use {root} or {dir}", p)
		}
	}
	return ""
}

// oneOf sets *dst to n's value when it is one of allowed.
func (d *decoder) oneOf(dst *string, n *yaml.Node, key string, allowed ...string) {
	for _, a := range allowed {
		if n.Kind == yaml.ScalarNode && n.Value == a {
			*dst = a
			return
		}
	}
	d.problem(n, key, "want %s, got %q%s", strings.Join(allowed, " or "), n.Value, suggest(n.Value, allowed))
}

// extensions decodes a list of extensions, each with its dot.
func (d *decoder) extensions(n *yaml.Node, key string) ([]string, bool) {
	v, ok := d.strings(n, key)
	for _, ext := range v {
		if !strings.HasPrefix(ext, ".") || len(ext) < 2 {
			d.problem(n, key, "want extensions with their dot, such as .my; got %q", ext)
			ok = false
		}
	}
	return v, ok
}
