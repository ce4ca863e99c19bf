package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tsGlobalsProject is a TypeScript project whose files use globals no
// import links them to: a declaration file's global const and its
// augmentation of Window, and a module's `declare global` block.
var tsGlobalsProject = map[string]string{
	"tsconfig.json":    "{\"compilerOptions\": {\"strict\": true, \"noEmit\": true, \"target\": \"es2022\", \"module\": \"esnext\", \"moduleResolution\": \"bundler\"}, \"include\": [\"src\"]}\n",
	"src/globals.d.ts": "declare const APP_VERSION: string;\n\ninterface Window {\n  appName: string;\n}\n",
	"src/augment.ts":   "export {};\n\ndeclare global {\n  var BUILD_ID: string;\n}\n",
	"src/banner.ts":    "export function banner(): string {\n  return \"v\" + APP_VERSION.toUpperCase();\n}\n",
	"src/title.ts":     "export const title: string = window.appName.trim();\n",
	"src/build.ts":     "export const id: string = BUILD_ID.trim();\n",
	"src/unrelated.ts": "export const one = 1;\n",
}

// TestTypeScriptGlobalsWithServer: a change of what a file declares in
// the global scope breaks files that do not import it; through a real
// typescript-language-server, the check of the change alone must report
// each such file with the errors tsc --noEmit reports in it. Before
// dependents_globals.go the hook answered all four changes clean.
func TestTypeScriptGlobalsWithServer(t *testing.T) {
	requireServer(t, "typescript-language-server")
	for _, tc := range []struct {
		name, file, from, to string
		broken               string // the file tsc then reports
	}{
		{"a global's type changed", "src/globals.d.ts", "APP_VERSION: string", "APP_VERSION: number", "src/banner.ts"},
		{"a global renamed", "src/globals.d.ts", "APP_VERSION", "APP_RELEASE", "src/banner.ts"},
		{"a Window member renamed", "src/globals.d.ts", "appName", "appTitle", "src/title.ts"},
		{"a declare global block's var changed", "src/augment.ts", "var BUILD_ID: string", "var BUILD_ID: number", "src/build.ts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := workspace(t, tsGlobalsProject)
			old := tsGlobalsProject[tc.file]
			changed := writeFile(t, dir, tc.file, replaceOnce(t, old, tc.from, tc.to))
			truth := tscCLI(t, dir)
			if len(truth) != 1 || len(truth[tc.broken]) == 0 {
				t.Fatalf("tsc reports %v, want errors in %s alone", truth, tc.broken)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			c := startClient(ctx, t, catalogueServer(t, "typescript-language-server"), dir)
			o := c.Update(ctx, []Doc{{Path: changed, Prior: func() ([]byte, bool) { return []byte(old), true }}}, DefaultSettle)
			if o.Freshness != Fresh {
				t.Fatalf("%s, %v", o.Freshness, o.Err)
			}
			broken := filepath.Join(dir, filepath.FromSlash(tc.broken))
			if got := positions(o.Others[broken]); !slices.Equal(got, truth[tc.broken]) {
				t.Fatalf("%s: errors at %v, tsc's at %v (others: %v)", tc.broken, got, truth[tc.broken], o.Others)
			}
			t.Logf("%s: %v, as tsc says", tc.broken, messages(errorsOf(o.Others[broken])))
		})
	}
}

// replaceOnce returns s with its one occurrence of old replaced by new.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times in the text, want once", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// TestTypeScriptJSONModule: a JSON module (resolveJsonModule) changed so
// that a TypeScript file importing it breaks; the check of the JSON file,
// which no server checks, must report the importer with the errors tsc
// --noEmit reports, whether the server had the importer open or not
// (imported.go). Before, only the JSON validator was asked: clean.
func TestTypeScriptJSONModule(t *testing.T) {
	requireServer(t, "typescript-language-server")
	for _, warm := range []bool{false, true} {
		dir := workspace(t, map[string]string{
			"tsconfig.json":   "{\"compilerOptions\": {\"strict\": true, \"noEmit\": true, \"target\": \"es2022\", \"module\": \"esnext\", \"moduleResolution\": \"bundler\", \"resolveJsonModule\": true}, \"include\": [\"src\"]}\n",
			"src/config.json": "{\"port\": 8080, \"host\": \"localhost\"}\n",
			"src/server.ts":   "import config from \"./config.json\";\n\nexport const url: string = `http://${config.host}:${config.port.toFixed(0)}`;\n",
			"src/other.ts":    "export const other = 1;\n",
		})
		m, ctx := realManager(t, dir)
		m.WatchFiles = true
		server := filepath.Join(dir, "src", "server.ts")
		first := filepath.Join(dir, "src", "other.ts")
		if warm {
			first = server
		}
		if out := m.Check(ctx, []Doc{diskDoc(t, first)}, 0); outFreshness(out) != "fresh" {
			t.Fatalf("warm %v, first check: %+v", warm, out)
		}
		config := writeFile(t, dir, "src/config.json", "{\"host\": \"localhost\"}\n")
		truth := tscCLI(t, dir)
		if len(truth) != 1 || len(truth["src/server.ts"]) == 0 {
			t.Fatalf("tsc reports %v, want errors in src/server.ts alone", truth)
		}
		var got []string
		for _, o := range m.Check(ctx, []Doc{diskDoc(t, config)}, 0) {
			got = append(got, positions(o.Others[server])...)
		}
		if !slices.Equal(got, truth["src/server.ts"]) {
			t.Errorf("warm %v: src/server.ts errors at %v, tsc's at %v", warm, got, truth["src/server.ts"])
		}
	}
}
