package hooks

import (
	"errors"
	"fmt"
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
// absolute glob ("/srv/**", on Windows also "C:/srv/**") is matched against
// the absolute path, any other against the path relative to the workspace
// root; both slash-separated, a drive letter upper-cased.
type pathGlobs []string

// match reports whether a file matches any alternative; rel is its
// root-relative path ("" when it is outside the root), abs its absolute
// path (eventPaths).
func (g pathGlobs) match(rel, abs string) bool {
	for _, glob := range g {
		subject := rel
		if absGlob(glob) || rel == "" {
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
	for i, a := range alts {
		if !doublestar.ValidatePattern(a) {
			return nil, fmt.Errorf("bad glob %q", a)
		}
		alts[i] = upperDrive(a)
	}
	return pathGlobs(alts), nil
}

// absGlob reports whether a path glob is absolute: it starts with "/", or
// with a drive letter (filepath.VolumeName, "" except on Windows).
func absGlob(glob string) bool {
	return strings.HasPrefix(glob, "/") || filepath.VolumeName(glob) != ""
}

// upperDrive upper-cases the drive letter of a Windows path ("c:/w" →
// "C:/w"): agents disagree on its case (VS Code-based ones lower it) and
// Windows ignores it. Elsewhere it returns p.
func upperDrive(p string) string {
	if v := filepath.VolumeName(p); len(v) == 2 && v[1] == ':' {
		return strings.ToUpper(v) + p[2:]
	}
	return p
}

// eventPaths returns the forms of an event's path p (absolute, or
// relative to root) that path globs match: root-relative ("" when p is
// outside root) and absolute, both cleaned and slash-separated, a drive
// letter upper-cased. Absolute and relative are the platform's
// (filepath.IsAbs: `C:\w\a.go` on Windows, where "/w/a.go" is relative to
// the drive); on Windows p is inside root whatever the case of its
// letters (filepath.Rel).
func eventPaths(root, p string) (rel, abs string) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if r, err := filepath.Rel(root, p); err == nil && root != "" &&
		r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		rel = filepath.ToSlash(r)
	}
	return rel, upperDrive(filepath.ToSlash(p))
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
