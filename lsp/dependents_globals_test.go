package lsp

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"
)

func TestTSGlobals(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a script's top-level declarations", "declare const APP_VERSION: string;\nfunction helper(n: number): void {\n  const inner = n;\n}\nlet count = 0;\nclass Store {\n  field: string = \"\";\n}\ntype Id = string;\nenum Mode { On, Off }\n",
			[]string{"APP_VERSION", "helper", "count", "Store", "Id", "Mode"}},
		{"interface members, newline-separated, optional, methods, generic",
			"interface Window {\n  appName: string\n  readonly appTitle?: string\n  track(event: string): void\n  get<T>(key: string): T\n  [key: string]: unknown\n}\n",
			[]string{"Window", "appName", "appTitle", "track", "get"}},
		{"a type literal's members, nested", "type Settings = {\n  region: string;\n  limits: { perDay: number };\n  cb: (arg: number) => void;\n};\n",
			[]string{"Settings", "region", "limits", "perDay", "cb"}},
		{"a namespace augmenting NodeJS.ProcessEnv", "declare namespace NodeJS {\n  interface ProcessEnv {\n    API_URL: string;\n  }\n}\n",
			[]string{"NodeJS", "ProcessEnv", "API_URL"}},
		{"a module declares nothing global", "import { x } from \"./x\";\nexport const y = x;\ninterface Local { a: string }\n", nil},
		{"an export {} makes a module", "export {};\ndeclare const NOT_GLOBAL: string;\n", nil},
		{"declare global in a module", "export {};\ndeclare global {\n  var BUILD_ID: string;\n  interface Window { buildId: string }\n}\nconst local = 1;\n",
			[]string{"BUILD_ID", "Window", "buildId"}},
		{"declare module augments", "import \"express\";\ndeclare module \"express-serve-static-core\" {\n  interface Request {\n    user?: string;\n  }\n}\n",
			[]string{"Request", "user"}},
		{"dynamic import and import.meta leave a script", "const m = import(\"./m\");\nconst u = import.meta.url;\n", []string{"m", "u"}},
		{"an arrow's body and an object literal after return are code", "const f = (): number => {\n  const hidden = 1;\n  return { key: hidden };\n};\n", []string{"f"}},
		{"comments and strings name nothing", "// declare const A: string;\n/* let B = 1; */\nconst s = \"const C = 1;\";\nconst t = `let D = ${s}`;\n", []string{"s", "t"}},
		{"module.exports opens no module block: its literal's keys, as any top-level literal's", "module.exports = {\n  key: 1,\n};\n", []string{"key"}},
		{"an unclosed brace, a stray one", "}\ninterface A {\n  b: string\n", []string{"A", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tsGlobals([]byte(tc.text)); !slices.Equal(got, tc.want) {
				t.Errorf("tsGlobals = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestImportsOrExports(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"import { x } from \"./x\";\n", true},
		{"const a = 1;\n  export default a;\n", true},
		{"export\n  const b = 2;\n", true},
		{"import type { T } from \"./t\";", true},
		{"const m = import(\"./m\");\nconst u = import.meta.url;\n", false},
		{"const importer = 1;\nexports.x = 2;\n", false},
		{"", false},
	} {
		if got := importsOrExports([]byte(tc.text)); got != tc.want {
			t.Errorf("importsOrExports(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestMentionsAny(t *testing.T) {
	names := map[string]bool{"APP_VERSION": true, "$store": true}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"return APP_VERSION.trim();", true},
		{"return MY_APP_VERSION;", false},
		{"APP_VERSION_2", false},
		{"x = $store + 1", true},
		{"// uses APP_VERSION", true},
		{"", false},
	} {
		if got := mentionsAny([]byte(tc.text), names); got != tc.want {
			t.Errorf("mentionsAny(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestGlobalUsers: a changed declaration file's users are its dependents
// whether they import it or not, by the names it declares now and those
// its text before declared, nearest first; files of other languages and
// files mentioning none of the names are not.
func TestGlobalUsers(t *testing.T) {
	root := workspace(t, map[string]string{
		"tsconfig.json":        "{}\n",
		"src/globals.d.ts":     "declare const APP_RELEASE: string;\ninterface Window { appZone: string }\n",
		"src/banner.ts":        "export const b = APP_VERSION.trim();\n",
		"src/zone.ts":          "export const z = window.appZone;\n",
		"src/deep/release.tsx": "export const r = APP_RELEASE;\n",
		"src/plain.ts":         "export const p = 1;\n",
		"src/readme.md":        "APP_RELEASE\n",
	})
	ix := NewImportIndex(catalogueServer(t, "typescript-language-server"), root)
	changed := filepath.Join(root, "src", "globals.d.ts")
	w := ix.walk([]string{changed}, nil, nil, MaxDependents, 1)
	w.before = map[string][]string{changed: {"APP_VERSION", "Window", "appName"}}
	if err := w.to(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	want := []string{"src/banner.ts", "src/zone.ts", "src/deep/release.tsx"}
	if got := relAll(t, root, w.deps); !slices.Equal(got, want) {
		t.Errorf("deps = %q, want %q", got, want)
	}
	// Without the names of the text before, the renamed global's user
	// is not found.
	deps, _, err := NewImportIndex(catalogueServer(t, "typescript-language-server"), root).Dependents(context.Background(), []string{changed})
	if err != nil {
		t.Fatal(err)
	}
	if got := relAll(t, root, deps); !slices.Equal(got, []string{"src/zone.ts", "src/deep/release.tsx"}) {
		t.Errorf("Dependents = %q, want the users of the names now", got)
	}
}

// FuzzTSGlobals feeds any text to the global-declaration reader: it must
// not panic, and every name it returns must be an identifier found in the
// text, once.
func FuzzTSGlobals(f *testing.F) {
	f.Add([]byte("declare const A: string;\ninterface W { b: string }\n"))
	f.Add([]byte("export {};\ndeclare global { var C: number }\ndeclare module \"m\" { interface R { u?: string } }\n"))
	f.Add([]byte("`${'`'}` /* unterminated"))
	f.Add([]byte("namespace A.B { export const c = 1 }\n}}}{{{"))
	f.Fuzz(func(t *testing.T, text []byte) {
		names := tsGlobals(text)
		for i, n := range names {
			if n == "" || !jsIdentByte(n[0]) || n[0] >= '0' && n[0] <= '9' || !bytes.Contains(text, []byte(n)) {
				t.Fatalf("name %q is not an identifier of the text", n)
			}
			if slices.Contains(names[:i], n) {
				t.Fatalf("name %q twice", n)
			}
		}
	})
}
