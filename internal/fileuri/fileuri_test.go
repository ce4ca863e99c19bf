package fileuri

import (
	"errors"
	"path"
	"strings"
	"testing"
)

// TestFromPath: the URI of each style's paths, in the form VS Code's
// vscode-uri gives (drive letter lower case, its colon %3A).
func TestFromPath(t *testing.T) {
	tests := []struct {
		style Style
		path  string
		want  string
	}{
		{Unix, "/home/u/a.go", "file:///home/u/a.go"},
		{Unix, "/home/u/a b#c%d?.go", "file:///home/u/a%20b%23c%25d%3F.go"},
		{Unix, "/home/u/ü.go", "file:///home/u/%C3%BC.go"},
		{Unix, `/home/u/back\slash.go`, "file:///home/u/back%5Cslash.go"},
		{Unix, "/", "file:///"},
		{Windows, `C:\x\y.go`, "file:///c%3A/x/y.go"},
		{Windows, `c:\x\y.go`, "file:///c%3A/x/y.go"},
		{Windows, `C:/x/y.go`, "file:///c%3A/x/y.go"},
		{Windows, `C:\`, "file:///c%3A/"},
		{Windows, `D:\a b\100%\é.ts`, "file:///d%3A/a%20b/100%25/%C3%A9.ts"},
		{Windows, `\\server\share\x.py`, "file://server/share/x.py"},
	}
	for _, tt := range tests {
		if got := tt.style.FromPath(tt.path); got != tt.want {
			t.Errorf("%v.FromPath(%q) = %q, want %q", tt.style, tt.path, got, tt.want)
		}
	}
}

// TestToPath: every spelling of a path servers send (VS Code's %3A, the
// colon as is, an upper- or lower-case drive, backslashes, localhost)
// gives the same cleaned path; URIs of no local absolute path are refused.
func TestToPath(t *testing.T) {
	tests := []struct {
		style Style
		uri   string
		want  string // "" : refused with ErrNotFile
	}{
		{Unix, "file:///home/u/a.go", "/home/u/a.go"},
		{Unix, "file://localhost/home/u/a.go", "/home/u/a.go"},
		{Unix, "file:///home/u/a%20b%23c.go", "/home/u/a b#c.go"},
		{Unix, "file:///home/u/./x/../a.go", "/home/u/a.go"},
		{Unix, "file:///../a.go", "/a.go"},
		{Unix, "FILE:///a.go", "/a.go"},
		{Unix, "file://server/a.go", ""},
		{Unix, "file:a.go", ""},
		{Unix, "untitled:Untitled-1", ""},
		{Unix, "https://example.com/a.go", ""},
		{Unix, "file://", ""},
		{Windows, "file:///c%3A/x/y.go", `C:\x\y.go`},
		{Windows, "file:///C%3a/x/y.go", `C:\x\y.go`},
		{Windows, "file:///C:/x/y.go", `C:\x\y.go`},
		{Windows, "file:///c:/x/y.go", `C:\x\y.go`},
		{Windows, "file:///c:%5Cx%5Cy.go", `C:\x\y.go`},
		{Windows, "file://localhost/C:/x/y.go", `C:\x\y.go`},
		{Windows, "file:///c%3A", `C:\`},
		{Windows, "file:///c%3A/x/../../y.go", `C:\y.go`},
		{Windows, "file:///d%3A/a%20b/100%25/%C3%A9.ts", `D:\a b\100%\é.ts`},
		{Windows, "file://server/share/x.py", `\\server\share\x.py`},
		{Windows, "file:////server/share/x.py", `\\server\share\x.py`},
		{Windows, "file:///x/y.go", ""},
		{Windows, "file:///1:/y.go", ""},
		{Windows, "untitled:Untitled-1", ""},
	}
	for _, tt := range tests {
		got, err := tt.style.ToPath(tt.uri)
		if tt.want == "" {
			if !errors.Is(err, ErrNotFile) {
				t.Errorf("%v.ToPath(%q) = %q, %v; want ErrNotFile", tt.style, tt.uri, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%v.ToPath(%q) = %q, %v; want %q", tt.style, tt.uri, got, err, tt.want)
		}
	}
}

// FuzzRoundTrip: for any absolute path of either style, ToPath(FromPath(p))
// is p cleaned (drive letter upper case on Windows), and FromPath of that
// is the URI again; for any string as a URI, ToPath either refuses it or
// gives a clean absolute path whose URI maps back to the same path.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"/home/u/a.go", "/a b/%41/#?", `C:\x\y.go`, `c:/x/../y`, `\\srv\share\a`,
		"file:///c%3A/x", "file:///C:/x", "file://h/a", "file:///a/../b", "file:////srv/s/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, style := range []Style{Unix, Windows} {
			if want, ok := cleanAbs(style, s); ok {
				uri := style.FromPath(s)
				got, err := style.ToPath(uri)
				if err != nil || got != want {
					t.Fatalf("%v: ToPath(FromPath(%q)) = ToPath(%q) = %q, %v; want %q", style, s, uri, got, err, want)
				}
				if again := style.FromPath(got); again != style.FromPath(want) {
					t.Fatalf("%v: FromPath(%q) = %q, not stable", style, got, again)
				}
			}
			p, err := style.ToPath(s)
			if err != nil {
				continue
			}
			if back, err := style.ToPath(style.FromPath(p)); err != nil || back != p {
				t.Fatalf("%v: ToPath(%q) = %q, whose URI %q gives %q, %v", style, s, p, style.FromPath(p), back, err)
			}
		}
	})
}

// cleanAbs is what ToPath(FromPath(p)) must give for a path p of style,
// and false when p is not one FromPath is for (not absolute, or with
// bytes no file name holds).
func cleanAbs(style Style, p string) (string, bool) {
	if strings.ContainsRune(p, 0) {
		return "", false
	}
	if style == Unix {
		return path.Clean(p), strings.HasPrefix(p, "/")
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if host, rest, ok := uncName(s); ok {
		return `\\` + host + windowsClean(rest), true
	}
	if drive, rest, ok := driveLetter(s); ok {
		return strings.ToUpper(drive) + ":" + windowsClean(rest), true
	}
	return "", false
}
