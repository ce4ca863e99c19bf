// Package fileuri converts between absolute file paths and file:// URIs,
// for every package that sends a path to a language server or reads one
// from it (lsp, mcp), or writes or reads one in a report (diag, parsers).
// URIs come from outside (servers, SARIF files), so ToPath checks what it
// is given. It imports nothing of lsp-hook's: any package may use it.
//
// The mapping (RFC 8089, and the form VS Code's vscode-uri gives, which
// LSP 3.17 "URI" points to):
//
//	/home/u/a b.go      ↔ file:///home/u/a%20b.go
//	C:\Users\u\a.go     ↔ file:///c%3A/Users/u/a.go
//	\\server\share\a.go ↔ file://server/share/a.go
//
// FromPath escapes with net/url (a space, '%', '#', '?' and non-ASCII
// bytes are percent-encoded); on Windows it writes the drive letter lower
// case with its colon as %3A, as VS Code does, so the URIs match those
// most servers send back. ToPath accepts any spelling of the same path
// (file:///C:/x, file:///c%3A/x, file:///c:\x), gives the drive letter
// upper case, and cleans the path (filepath.Clean's rules, with ".."
// stopping at the root or drive).
//
// Both are methods of a Style, so that Windows paths can be tested on any
// platform; FromPath and ToPath use Native, the running platform's style.
package fileuri

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"runtime"
	"strings"
)

// Style is a platform's way of writing paths.
type Style uint8

const (
	// Unix paths: "/"-separated, absolute when they start with "/".
	Unix Style = iota
	// Windows paths: "\" or "/"-separated, absolute with a drive ("C:\")
	// or as a UNC name ("\\server\share\").
	Windows
)

// String returns "Unix" or "Windows".
func (s Style) String() string {
	if s == Windows {
		return "Windows"
	}
	return "Unix"
}

// Native is the running platform's style.
var Native = func() Style {
	if runtime.GOOS == "windows" {
		return Windows
	}
	return Unix
}()

// FromPath is Native.FromPath.
func FromPath(p string) string { return Native.FromPath(p) }

// ToPath is Native.ToPath.
func ToPath(uri string) (string, error) { return Native.ToPath(uri) }

// ErrNotFile is ToPath's error for a URI that names no local file: another
// scheme, another host (on unix), no path, or a relative one.
var ErrNotFile = errors.New("not a local file")

// FromPath returns the file:// URI of the absolute path p, percent-encoded
// with net/url. A relative p gives a URI that ToPath refuses.
func (s Style) FromPath(p string) string {
	if s == Unix {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if host, rest, ok := uncName(p); ok {
		return (&url.URL{Scheme: "file", Host: host, Path: rest}).String()
	}
	drive, rest, ok := driveLetter(p)
	if !ok {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	d := strings.ToLower(drive)
	// RawPath carries the %3A that net/url would not write for ':'; it
	// must decode to Path, which String checks.
	raw := "/" + d + "%3A" + (&url.URL{Path: rest}).EscapedPath()
	return (&url.URL{Scheme: "file", Path: "/" + d + ":" + rest, RawPath: raw}).String()
}

// ToPath returns the cleaned absolute path of a file:// URI, or an error
// wrapping ErrNotFile (or net/url's, for a URI it cannot parse).
func (s Style) ToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("parsing URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("URI %q: scheme %q is not file: %w", uri, u.Scheme, ErrNotFile)
	}
	if u.Opaque != "" || u.Path == "" {
		return "", fmt.Errorf("URI %q has no path: %w", uri, ErrNotFile)
	}
	if s == Unix {
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("URI %q names host %q: %w", uri, u.Host, ErrNotFile)
		}
		if !strings.HasPrefix(u.Path, "/") {
			return "", fmt.Errorf("URI %q: path is not absolute: %w", uri, ErrNotFile)
		}
		return path.Clean(u.Path), nil
	}
	p := strings.ReplaceAll(u.Path, `\`, "/")
	if u.Host != "" && u.Host != "localhost" {
		if _, _, ok := uncName("//" + u.Host + "/"); !ok {
			return "", fmt.Errorf("URI %q names host %q: %w", uri, u.Host, ErrNotFile)
		}
		return `\\` + u.Host + windowsClean(p), nil
	}
	drive, rest, ok := driveLetter(strings.TrimPrefix(p, "/"))
	if !ok {
		if host, rest, ok := uncName(p); ok { // file:////server/share/x
			return `\\` + host + windowsClean(rest), nil
		}
		return "", fmt.Errorf("URI %q: path has no drive letter: %w", uri, ErrNotFile)
	}
	return strings.ToUpper(drive) + ":" + windowsClean(rest), nil
}

// driveLetter splits a "/"-separated Windows path "C:/rest" (or "C:")
// into the drive letter and "/rest"; ok is false for any other path.
func driveLetter(p string) (drive, rest string, ok bool) {
	if len(p) < 2 || p[1] != ':' || !isLetter(p[0]) || len(p) > 2 && p[2] != '/' {
		return "", "", false
	}
	return p[:1], p[2:], true
}

// uncName splits a "/"-separated UNC path "//server/share/rest" into the
// server and "/share/rest"; ok is false for any other path, and for a
// server name that is not a DNS or NetBIOS name of letters, digits, '.',
// '-' and '_' (an IPv6 literal or a name with other bytes, which a URI
// host cannot carry as is).
func uncName(p string) (host, rest string, ok bool) {
	if !strings.HasPrefix(p, "//") || strings.HasPrefix(p, "///") {
		return "", "", false
	}
	host, rest, _ = strings.Cut(p[2:], "/")
	if host == "" || strings.IndexFunc(host, func(r rune) bool { return !isHostRune(r) }) >= 0 {
		return "", "", false
	}
	return host, "/" + rest, true
}

// windowsClean cleans the "/"-separated rooted path p (the part after a
// drive or server) as filepath.Clean does on Windows, ".." stopping at the
// root, and writes it with "\".
func windowsClean(p string) string {
	return strings.ReplaceAll(path.Clean("/"+p), "/", `\`)
}

func isHostRune(r rune) bool {
	return r < 0x80 && (isLetter(byte(r)) || '0' <= r && r <= '9' || r == '.' || r == '-' || r == '_')
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
