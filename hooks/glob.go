package hooks

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A condition's `match` is one or more globs separated by `|` ("Write|Edit",
// "filesystem.write|workspace.*"); the condition holds when any of them
// matches. Spaces around each alternative are trimmed; an empty alternative
// is an error. Two dialects:
//
//   - tool names use fnmatch(3) without flags, as Python's fnmatch and agent
//     runtimes' matchers do: `*` matches any run of characters (`.` and `/`
//     included), `?` one character, `[abc]`, `[a-z]` and `[!abc]` (or
//     `[^abc]`) one character of (or not of) a set, `\x` the character x.
//     Matching is case-sensitive and covers the whole name.
//   - paths use doublestar globs (github.com/bmatcuk/doublestar/v4): `*` and
//     `?` stop at `/`, `**` crosses directories, `{a,b}` alternatives.

// toolGlobs is a compiled tool-name `match`: any alternative may match.
type toolGlobs []*regexp.Regexp

// match reports whether the tool name matches any alternative.
func (g toolGlobs) match(name string) bool {
	for _, re := range g {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// pathGlobs is a compiled path `match`: any alternative may match. An
// absolute glob ("/srv/**") is matched against the absolute path, any other
// against the path relative to the workspace root; both slash-separated.
type pathGlobs []string

// match reports whether a file matches any alternative; rel is its
// root-relative path ("" when it is outside the root), abs its absolute
// path.
func (g pathGlobs) match(rel, abs string) bool {
	for _, glob := range g {
		subject := rel
		if strings.HasPrefix(glob, "/") || rel == "" {
			subject = abs
		}
		if ok, _ := doublestar.Match(glob, subject); ok {
			return true
		}
	}
	return false
}

// splitAlternatives splits a `match` on `|`, trimming spaces; an empty
// alternative is an error.
func splitAlternatives(match string) ([]string, error) {
	parts := strings.Split(match, "|")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("empty alternative in %q", match)
		}
		parts[i] = p
	}
	return parts, nil
}

// compileToolGlobs compiles a tool-name `match` (fnmatch globs and `|`).
func compileToolGlobs(match string) (toolGlobs, error) {
	alts, err := splitAlternatives(match)
	if err != nil {
		return nil, err
	}
	var g toolGlobs
	for _, a := range alts {
		re, err := fnmatchRegexp(a)
		if err != nil {
			return nil, fmt.Errorf("bad glob %q: %w", a, err)
		}
		g = append(g, re)
	}
	return g, nil
}

// compilePathGlobs compiles a path `match` (doublestar globs and `|`).
func compilePathGlobs(match string) (pathGlobs, error) {
	alts, err := splitAlternatives(match)
	if err != nil {
		return nil, err
	}
	for _, a := range alts {
		if !doublestar.ValidatePattern(a) {
			return nil, fmt.Errorf("bad glob %q", a)
		}
	}
	return pathGlobs(alts), nil
}

// eventPaths returns the forms of an event's path p (absolute, or
// relative to root) that path globs match: root-relative ("" when p is
// outside root) and absolute, both cleaned and slash-separated.
func eventPaths(root, p string) (rel, abs string) {
	abs = filepath.ToSlash(p)
	if !path.IsAbs(abs) {
		abs = path.Join(filepath.ToSlash(root), abs)
	}
	abs = path.Clean(abs)
	r := strings.TrimSuffix(path.Clean(filepath.ToSlash(root)), "/")
	switch {
	case abs == r:
		rel = "."
	case strings.HasPrefix(abs, r+"/"):
		rel = strings.TrimPrefix(abs, r+"/")
	}
	return rel, abs
}

// errUnclosedClass is a `[` without its `]`.
var errUnclosedClass = errors.New("unclosed [")

// fnmatchRegexp translates one fnmatch glob into an anchored regular
// expression (see the dialect above).
func fnmatchRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '\\':
			if i+1 == len(rs) {
				return nil, errors.New(`trailing \`)
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case '[':
			end, class, err := bracket(rs, i)
			if err != nil {
				return nil, err
			}
			b.WriteString(class)
			i = end
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, err
	}
	return re, nil
}

// bracket translates the set that opens at rs[open] ('[') into a regexp
// character class, and returns the index of its closing ']'. A ']' right
// after the opening (or after its '!' or '^') is literal.
func bracket(rs []rune, open int) (int, string, error) {
	var b strings.Builder
	b.WriteString("[")
	i := open + 1
	if i < len(rs) && (rs[i] == '!' || rs[i] == '^') {
		b.WriteString("^")
		i++
	}
	first := true
	for ; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ']' && !first:
			return i, b.String() + "]", nil
		case c == '-' && !first && i+1 < len(rs) && rs[i+1] != ']':
			b.WriteString("-")
		case c == '\\' || c == '[' || c == ']' || c == '^' || c == '-':
			b.WriteString(`\` + string(c))
		default:
			b.WriteRune(c)
		}
		first = false
	}
	return 0, "", errUnclosedClass
}
