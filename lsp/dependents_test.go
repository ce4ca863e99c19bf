package lsp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// catalogueServer returns the catalogue entry called name.
func catalogueServer(t testing.TB, name string) config.Server {
	t.Helper()
	for _, s := range config.Catalogue() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no catalogue server %q", name)
	return config.Server{}
}

// dependentsOf runs a fresh index of root for server on changed
// (slash-separated, relative to root) and returns the dependents relative
// to root.
func dependentsOf(t *testing.T, server, root string, changed ...string) (deps []string, capped bool) {
	t.Helper()
	abs := make([]string, len(changed))
	for i, c := range changed {
		abs[i] = filepath.Join(root, filepath.FromSlash(c))
	}
	got, capped, err := NewImportIndex(catalogueServer(t, server), root).Dependents(context.Background(), abs)
	if err != nil {
		t.Fatal(err)
	}
	return relAll(t, root, got), capped
}

func relAll(t *testing.T, root string, paths []string) []string {
	t.Helper()
	var out []string
	for _, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsAbs(p) {
			t.Fatalf("dependent %q is not an absolute path under %s", p, root)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// depCase is one import form: a project, the changed file, and the files
// that must (and only those) come back as its dependents.
type depCase struct {
	name    string
	server  string
	files   map[string]string
	changed string
	want    []string
}

const (
	pyModels = "def make_user(name: str) -> str:\n    return name\n"
	tsModels = "export function makeUser(name: string): string { return name; }\n"
	cModels  = "void make_user(const char *name);\n"
)

var pyCases = []depCase{
	{"import dotted", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "import pkg.models\n"}, "pkg/models.py", []string{"app.py"}},
	{"import as", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "import pkg.models as m\n"}, "pkg/models.py", []string{"app.py"}},
	{"import list", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "import os, pkg.models as m, sys\n"}, "pkg/models.py", []string{"app.py"}},
	{"from module import", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/service.py": "from pkg.models import make_user\n"}, "pkg/models.py", []string{"pkg/service.py"}},
	{"from package import module", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "from pkg import models\n"}, "pkg/models.py", []string{"app.py"}},
	{"from . import", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/service.py": "from . import models\n"}, "pkg/models.py", []string{"pkg/service.py"}},
	{"from .import no space", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/service.py": "from .import models\n"}, "pkg/models.py", []string{"pkg/service.py"}},
	{"from .module import", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/service.py": "from .models import make_user\n"}, "pkg/models.py", []string{"pkg/service.py"}},
	{"from .. import", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/sub/x.py": "from .. import models\n"}, "pkg/models.py", []string{"pkg/sub/x.py"}},
	{"from ..module import", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/sub/x.py": "from ..models import make_user\n"}, "pkg/models.py", []string{"pkg/sub/x.py"}},
	{"relative from __init__", "pyright", map[string]string{"pkg/models.py": pyModels, "pkg/__init__.py": "from .models import make_user\n"}, "pkg/models.py", []string{"pkg/__init__.py"}},
	{"parenthesized names", "pyright", map[string]string{"pkg/models.py": pyModels,
		"app.py": "from pkg import (  # the models\n    other,\n    models as m,\n)\n"}, "pkg/models.py", []string{"app.py"}},
	{"backslash continuation", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "from pkg.models \\\n    import make_user\n"}, "pkg/models.py", []string{"app.py"}},
	{"indented in a function", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "def f():\n    from pkg.models import make_user\n    return make_user('a')\n"}, "pkg/models.py", []string{"app.py"}},
	{"after a semicolon", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "import os; from pkg.models import make_user\n"}, "pkg/models.py", []string{"app.py"}},
	{"CRLF line ends", "pyright", map[string]string{"pkg/models.py": pyModels, "app.py": "import os\r\nfrom pkg.models import (\r\n  make_user,\r\n)\r\n"}, "pkg/models.py", []string{"app.py"}},
	{"src layout", "pyright", map[string]string{"src/pkg/models.py": pyModels, "src/pkg/service.py": "from pkg.models import make_user\n",
		"tests/test_service.py": "import pkg.models\n"}, "src/pkg/models.py", []string{"src/pkg/service.py", "tests/test_service.py"}},
	{"local directory", "pyright", map[string]string{"scripts/helper.py": pyModels, "scripts/run.py": "import helper\n", "scripts/deep/more.py": "from helper import make_user\n",
		"other/run.py": "import helper\n"}, "scripts/helper.py", []string{"scripts/run.py", "scripts/deep/more.py"}},
	{"package __init__", "pyright", map[string]string{"pkg/__init__.py": "from .models import make_user\n", "pkg/models.py": pyModels,
		"app.py": "from pkg import make_user\n", "pkg/a.py": "from . import make_user\n", "b.py": "import pkg.models\n"}, "pkg/__init__.py", []string{"pkg/a.py", "app.py"}},
	{"hidden directory", "pyright", map[string]string{".hidden/pkg/models.py": pyModels, ".hidden/pkg/service.py": "from .models import make_user\n", ".hidden/x.py": "from pkg import models\n"},
		".hidden/pkg/models.py", []string{".hidden/pkg/service.py", ".hidden/x.py"}},
	{"stub", "pyright", map[string]string{"pkg/models.pyi": "def make_user(name: str) -> str: ...\n", "app.py": "from pkg.models import make_user\n"}, "pkg/models.pyi", []string{"app.py"}},
	{"deleted module", "pyright", map[string]string{"app.py": "from pkg.models import make_user\n"}, "pkg/models.py", []string{"app.py"}},
	{"not dependents", "pyright", map[string]string{"pkg/models.py": pyModels,
		"a.py":        "import pkg.modelsx\nimport xpkg.models\n",
		"b.py":        "# import pkg.models\nx = 1  # from pkg.models import make_user\n",
		"c.py":        "from pkg.other import models\n",
		"d.py":        "fromage = 1\nimportant = 2\n",
		"e.py":        "from ... import models\n",
		"pkg/f.py":    "from .other import models\n",
		"g.py":        "from pkg.models.make_user import x\n",
		"lib/pkg.txt": "import pkg.models\n",
	}, "pkg/models.py", nil},
	{"pyright's extraPaths and execution environments", "pyright", map[string]string{
		"pyrightconfig.json":               "{\n  // a monorepo's roots\n  \"extraPaths\": [\"libs/core\"],\n  \"executionEnvironments\": [{\"root\": \"apps/api/src\", \"extraPaths\": [\"../../../libs/x\", \"/abs\"]}],\n}\n",
		"libs/core/acme_core/__init__.py":  pyModels,
		"apps/web/main.py":                 "from acme_core import make_user\n",
		"apps/api/src/api/h.py":            "import acme_core\n",
		"tools/pyproject.toml":             "[tool.pyright]\nextraPaths = [\"vendored\"]\n",
		"tools/vendored/acme_util/util.py": pyModels,
		"tools/run.py":                     "from acme_util import util\n",
	}, "libs/core/acme_core/__init__.py", []string{"apps/web/main.py", "apps/api/src/api/h.py"}},
	{"[tool.pyright] extraPaths of a pyproject.toml", "pyright", map[string]string{
		"tools/pyproject.toml":             "[project]\nname = \"tools\"\n\n[tool.pyright]\nextraPaths = [\"vendored\"]\n",
		"tools/vendored/acme_util/util.py": pyModels,
		"tools/run.py":                     "from acme_util import util\n",
	}, "tools/vendored/acme_util/util.py", []string{"tools/run.py"}},
	{"uv workspace members", "pyright", map[string]string{
		"pyproject.toml":                     "[tool.uv.workspace]\nmembers = [\"packages/*\"]\n",
		"packages/core/pyproject.toml":       "[project]\nname = \"core\"\n",
		"packages/core/src/core/__init__.py": pyModels,
		"packages/app/setup.cfg":             "[metadata]\nname = app\n",
		"packages/app/src/app/main.py":       "from core import make_user\n",
		"packages/app/src/app/other.py":      "import core\n",
		"packages/web/views.py":              "from core import make_user\n",
		"scripts/lib/core/__init__.py":       "",
		"scripts/run.py":                     "import lib.core\n",
	}, "packages/core/src/core/__init__.py", []string{"packages/web/views.py", "packages/app/src/app/main.py", "packages/app/src/app/other.py"}},
}

var tsCases = []depCase{
	{"import from", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/service.ts": "import { makeUser } from './models';\n"}, "src/models.ts", []string{"src/service.ts"}},
	{"parent dir with .js", "typescript-language-server", map[string]string{"src/lib/models.ts": tsModels, "src/app/x.ts": "import { makeUser } from \"../lib/models.js\";\n"}, "src/lib/models.ts", []string{"src/app/x.ts"}},
	{"require", "typescript-language-server", map[string]string{"lib/models.js": "exports.makeUser = (n) => n;\n", "lib/use.js": "const m = require ( './models' );\n"}, "lib/models.js", []string{"lib/use.js"}},
	{"export from", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/index.ts": "export * from './models';\nexport { makeUser as mk } from './models';\n"}, "src/models.ts", []string{"src/index.ts"}},
	{"dynamic import", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/lazy.ts": "export async function f() {\n  const m = await import('./models');\n  return m;\n}\n"}, "src/models.ts", []string{"src/lazy.ts"}},
	{"template dynamic import", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/lazy.ts": "const m = import(`./models`);\n"}, "src/models.ts", []string{"src/lazy.ts"}},
	{"side effect import", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/boot.ts": "import './models';\n"}, "src/models.ts", []string{"src/boot.ts"}},
	{"import type, multi-line", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/t.ts": "import type {\n  A,\n  B,\n} from\n  \"./models\";\n"}, "src/models.ts", []string{"src/t.ts"}},
	{"import equals require", "typescript-language-server", map[string]string{"src/models.ts": tsModels, "src/old.ts": "import m = require('./models');\n"}, "src/models.ts", []string{"src/old.ts"}},
	{"directory index", "typescript-language-server", map[string]string{"src/lib/index.ts": tsModels, "src/app.ts": "import { makeUser } from './lib';\n", "src/lib/x.ts": "import { makeUser } from '.';\n"}, "src/lib/index.ts", []string{"src/lib/x.ts", "src/app.ts"}},
	{"tsx, jsx, mts, cts", "typescript-language-server", map[string]string{"src/view.tsx": "export const V = 1;\n", "src/a.jsx": "import { V } from './view';\n",
		"src/b.mts": "import { V } from './view.js';\n", "src/c.cts": "const v = require('./view');\n"}, "src/view.tsx", []string{"src/a.jsx", "src/b.mts", "src/c.cts"}},
	{"declaration file", "typescript-language-server", map[string]string{"src/models.d.ts": "export declare function makeUser(n: string): string;\n", "src/u.ts": "import { makeUser } from './models';\n"}, "src/models.d.ts", []string{"src/u.ts"}},
	{"mjs written", "typescript-language-server", map[string]string{"src/m.mts": tsModels, "src/u.mts": "import { makeUser } from './m.mjs';\n"}, "src/m.mts", []string{"src/u.mts"}},
	{"workspace package, scoped, subpath", "typescript-language-server", map[string]string{
		"package.json":                  `{"name": "mono", "workspaces": ["packages/*"]}`,
		"packages/core/package.json":    `{"name": "@acme/core", "main": "dist/index.js"}`,
		"packages/core/src/models.ts":   tsModels,
		"packages/app/package.json":     `{"name": "@acme/app"}`,
		"packages/app/src/a.ts":         "import { makeUser } from '@acme/core';\n",
		"packages/app/src/b.ts":         "export * from \"@acme/core/src/models\";\n",
		"packages/web/src/c.ts":         "const m = require('@acme/core/dist/models.js');\n",
		"packages/web/src/other.ts":     "import { x } from '@acme/app';\nimport y from '@acme/cor';\nimport z from 'react';\n",
		"node_modules/@acme/core/x.ts":  "import '@acme/core';\n",
		"node_modules/dep/package.json": `{"name": "@acme/core"}`,
	}, "packages/core/src/models.ts", []string{"packages/app/src/a.ts", "packages/app/src/b.ts", "packages/web/src/c.ts"}},
	{"Nx: a library's import name in tsconfig.base.json paths", "typescript-language-server", map[string]string{
		"nx.json":                     "{}",
		"tsconfig.base.json":          "{\n  // Nx writes one entry per library\n  \"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\n    \"@acme/core\": [\"libs/core/src/index.ts\"],\n    \"@acme/ui/*\": [\"libs/ui/src/*\"],\n  }},\n}\n",
		"libs/core/src/lib/models.ts": tsModels,
		"libs/core/src/index.ts":      "export * from './lib/models';\n",
		"apps/web/tsconfig.json":      `{"extends": "../../tsconfig.base.json", "compilerOptions": {"paths": {"@web/util": ["src/util"]}}}`,
		"apps/web/src/main.ts":        "import { makeUser } from '@acme/core';\n",
		"apps/web/src/x.ts":           "import { u } from '@web/util';\nimport { b } from '@acme/ui/button';\n",
	}, "libs/core/src/lib/models.ts", []string{"libs/core/src/index.ts", "apps/web/src/main.ts"}},
	{"workspace package, unscoped; of two manifests naming it, the first in path order", "typescript-language-server", map[string]string{
		"libs/util/package.json":     `{"name": "util"}`,
		"libs/util/index.js":         "exports.f = 1;\n",
		"old/util/package.json":      `{"name": "util"}`,
		"old/util/deep/package.json": `{"name": "deep-util"}`,
		"app/main.js":                "const { f } = require('util');\n",
		"app/bad.js":                 "import x from 'node:util';\nimport y from '/abs/util';\n",
	}, "libs/util/index.js", []string{"app/main.js"}},
	{"not dependents", "typescript-language-server", map[string]string{"src/models.ts": tsModels,
		"src/a.ts":                "import models from 'models';\nimport x from '@app/models';\n",
		"src/b.ts":                "const s = x.require('./models');\nconst t = Array.from('./models');\n",
		"src/c.ts":                "import { a } from './modelsx';\nimport { b } from './other/models';\n",
		"src/d.ts":                "const m = import(`./${name}`);\n",
		"node_modules/p/index.ts": "import { makeUser } from '../../src/models';\n",
		"src/e.ts":                "import { makeUser } from '../../models';\n",
	}, "src/models.ts", nil},
}

var cCases = []depCase{
	{"same directory", "clangd", map[string]string{"models.h": cModels, "main.c": "#include \"models.h\"\n"}, "models.h", []string{"main.c"}},
	{"subdirectory", "clangd", map[string]string{"sub/models.h": cModels, "main.c": "#include <stdio.h>\n#include \"sub/models.h\"\n"}, "sub/models.h", []string{"main.c"}},
	{"parent directory", "clangd", map[string]string{"include/models.h": cModels, "src/main.cpp": "#include \"../include/models.h\"\n"}, "include/models.h", []string{"src/main.cpp"}},
	{"spaces and include_next", "clangd", map[string]string{"models.h": cModels, "a.c": "  #  include \"models.h\"\n", "b.h": "#include_next \"models.h\"\n", "c.m": "#import \"models.h\"\n"}, "models.h", []string{"a.c", "b.h", "c.m"}},
	{"-I of compile_flags.txt", "clangd", map[string]string{"include/models.h": cModels, "compile_flags.txt": "-xc\n-Iinclude\n",
		"src/main.c": "#include <models.h>\n", "src/q.c": "#include \"models.h\"\n"}, "include/models.h", []string{"src/main.c", "src/q.c"}},
	{"-I as two lines, -iquote", "clangd", map[string]string{"include/models.h": cModels, "compile_flags.txt": "-I\ninclude\n-iquote\nother\n",
		"src/main.c": "#include <models.h>\n"}, "include/models.h", []string{"src/main.c"}},
	{"nearest compile_flags.txt", "clangd", map[string]string{"include/models.h": cModels, "compile_flags.txt": "-Iinclude\n",
		"sub/compile_flags.txt": "-Ielsewhere\n", "sub/main.c": "#include <models.h>\n", "top.c": "#include <models.h>\n"}, "include/models.h", []string{"top.c"}},
	{"compile_commands.json in build/, a command line", "clangd", map[string]string{"include/models.h": cModels,
		"build/compile_commands.json": `[{"directory": ".", "file": "../src/main.c", "command": "/usr/bin/cc -DX=1 -I'../include' -o main.o -c ../src/main.c"}]`,
		"src/main.c":                  "#include \"models.h\"\n", "src/util/u.c": "#include <models.h>\n", "src/other.c": "#include <include/models.h>\n"},
		"include/models.h", []string{"src/main.c", "src/util/u.c"}},
	{"compile_commands.json at the root, arguments, -isystem apart", "clangd", map[string]string{"third/inc/models.h": cModels,
		"compile_commands.json": `[{"directory": ".", "file": "a.c", "arguments": ["cc", "-isystem", "third/inc", "-c", "a.c"]}]`,
		"a.c":                   "#include <models.h>\n", "b.c": "#include \"models.h\"\n"},
		"third/inc/models.h", []string{"a.c", "b.c"}},
	{"a compilation database that is no JSON array", "clangd", map[string]string{"include/models.h": cModels,
		"compile_commands.json": `{"directory": ".", "arguments": ["-Iinclude"]}`, "a.c": "#include <models.h>\n"},
		"include/models.h", nil},
	{"not dependents", "clangd", map[string]string{"include/models.h": cModels,
		"a.c": "// #include \"models.h\"\n#include <models.h>\n",
		"b.c": "#include \"include/models.hpp\"\n#include \"xmodels.h\"\n",
		"c.c": "#define models \"models.h\"\n",
	}, "include/models.h", nil},
}

func TestDependents(t *testing.T) {
	for _, set := range [][]depCase{pyCases, tsCases, cCases} {
		for _, c := range set {
			t.Run(c.server+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				root := workspace(t, c.files)
				got, capped := dependentsOf(t, c.server, root, c.changed)
				if !slices.Equal(got, c.want) || capped {
					t.Errorf("Dependents(%s) = %q, capped %v; want %q", c.changed, got, capped, c.want)
				}
			})
		}
	}
}

// TestDependentsWorkspaceServers: gopls and rust-analyzer diagnose the
// whole workspace, so nothing needs opening.
func TestDependentsWorkspaceServers(t *testing.T) {
	root := workspace(t, map[string]string{"a/a.go": "package a\n", "b/b.go": "package b\nimport _ \"m/a\"\n", "go.mod": "module m\n"})
	for _, name := range []string{"gopls", "rust-analyzer", "ruff"} {
		if got, _ := dependentsOf(t, name, root, "a/a.go"); got != nil {
			t.Errorf("%s: Dependents = %q, want nil", name, got)
		}
	}
}

// TestDependentsOrder: nearest first, then path order, capped at
// MaxDependents; the changed files themselves are never dependents.
func TestDependentsOrder(t *testing.T) {
	files := map[string]string{"pkg/models.py": pyModels, "pkg/other.py": "from pkg import models\n"}
	for i := range 12 {
		files[fmt.Sprintf("pkg/m%02d.py", i)] = "from . import models\n"
		files[fmt.Sprintf("far/away/f%02d.py", i)] = "import pkg.models\n"
	}
	files["a.py"] = "import pkg.models\n"
	root := workspace(t, files)
	got, capped := dependentsOf(t, "pyright", root, "pkg/models.py", "pkg/other.py")
	var want []string
	for i := range 12 {
		want = append(want, fmt.Sprintf("pkg/m%02d.py", i))
	}
	want = append(want, "a.py") // one directory up from pkg
	for i := range 7 {
		want = append(want, fmt.Sprintf("far/away/f%02d.py", i))
	}
	if !capped || !slices.Equal(got, want) {
		t.Errorf("Dependents = %q, capped %v;\nwant %q, capped", got, capped, want)
	}
}

// TestDependentsCache: an index notices an importer changed on disk, a
// file deleted, and a new file when a changed file is not in its listing
// (the agent is creating files).
func TestDependentsCache(t *testing.T) {
	root := workspace(t, map[string]string{"pkg/models.py": pyModels, "a.py": "import pkg.models\n", "b.py": "import pkg.models\n"})
	ix := NewImportIndex(catalogueServer(t, "pyright"), root)
	models := filepath.Join(root, "pkg", "models.py")
	changed := []string{models}
	check := func(what string, want ...string) {
		t.Helper()
		got, _, err := ix.Dependents(context.Background(), changed)
		if err != nil {
			t.Fatal(err)
		}
		if rel := relAll(t, root, got); !slices.Equal(rel, want) {
			t.Errorf("%s: Dependents = %q, want %q", what, rel, want)
		}
	}
	check("first", "a.py", "b.py")
	later := time.Now().Add(time.Minute)
	writeFile(t, root, "a.py", "import os\n")
	os.Chtimes(filepath.Join(root, "a.py"), later, later)
	os.Remove(filepath.Join(root, "b.py"))
	check("a.py changed, b.py deleted")
	writeFile(t, root, "c.py", "import pkg.models\n")
	changed = append(changed, writeFile(t, root, "pkg/new.py", "x = 1\n"))
	check("a changed file that is new", "c.py")
}

// TestDependentsGitIgnore: inside a git work tree, ignored files are no
// dependents (the listing is git's).
func TestDependentsGitIgnore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := workspace(t, map[string]string{".gitignore": "gen/\n", "pkg/models.py": pyModels,
		"gen/a.py": "import pkg.models\n", "b.py": "import pkg.models\n", "node_modules/x/c.py": "import pkg.models\n"})
	if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if got, _ := dependentsOf(t, "pyright", root, "pkg/models.py"); !slices.Equal(got, []string{"b.py"}) {
		t.Errorf("Dependents = %q, want [b.py]", got)
	}
}

// TestDependentsSkips: files outside the root, of other languages, over
// the size cap or symlinked are no dependents, and a changed file outside
// the root has none.
func TestDependentsSkips(t *testing.T) {
	root := workspace(t, map[string]string{"pkg/models.py": pyModels, "a.py": "import pkg.models\n",
		"big.py": "import pkg.models\n" + strings.Repeat("#\n", maxDependentFileSize/2), "c.txt": "import pkg.models\n"})
	if err := os.Symlink(filepath.Join(root, "a.py"), filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	if got, _ := dependentsOf(t, "pyright", root, "pkg/models.py"); !slices.Equal(got, []string{"a.py"}) {
		t.Errorf("Dependents = %q, want [a.py]", got)
	}
	outside := filepath.Join(filepath.Dir(root), "models.py")
	got, _, err := NewImportIndex(catalogueServer(t, "pyright"), root).Dependents(context.Background(), []string{outside})
	if err != nil || got != nil {
		t.Errorf("Dependents(outside) = %q, %v; want nil", got, err)
	}
}

// TestDependentsWatched: watching, an index stats only what the watcher
// saw change, and still sees new, changed and deleted importers at once.
func TestDependentsWatched(t *testing.T) {
	root := workspace(t, map[string]string{"pkg/models.py": pyModels, "a.py": "import pkg.models\n", "c.py": "import os\n"})
	w, err := NewWatcher(root, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	ix := NewImportIndex(catalogueServer(t, "pyright"), root)
	ix.Watch(w)
	changed := []string{filepath.Join(root, "pkg", "models.py")}
	check := func(what string, stats int, want ...string) {
		t.Helper()
		got, _, err := ix.Dependents(context.Background(), changed)
		if err != nil {
			t.Fatal(err)
		}
		if rel := relAll(t, root, got); !slices.Equal(rel, want) || ix.stats != stats {
			t.Errorf("%s: Dependents = %q after %d stats; want %q after %d", what, rel, ix.stats, want, stats)
		}
	}
	check("first call", 3, "a.py")
	check("nothing changed", 0, "a.py")
	writeFile(t, root, "b.py", "from pkg import models\n")
	check("b.py created", 1, "a.py", "b.py")
	writeFile(t, root, "a.py", "import os, sys\n")
	check("a.py changed", 1, "b.py")
	os.Remove(filepath.Join(root, "b.py"))
	check("b.py deleted", 0)
	ix.Watch(nil)
	check("unwatched", 3)
}

// TestTransitiveBeyond: the importers of a changed file and theirs, up to
// levels away (importLevels: every one), those of the first recheck
// levels at most limit; the rest of the level where the limit was reached,
// and every file past it or past recheck, come back as beyond, and capped
// says there may be more than both name: a level longer than
// MaxDependents, or a level the walk did not reach. apex.py imports
// models.py three imports away.
func TestTransitiveBeyond(t *testing.T) {
	files := map[string]string{"models.py": pyModels, "mid.py": "import models\n", "top.py": "import mid\n", "apex.py": "import top\n"}
	for i := range 5 {
		files[fmt.Sprintf("fan%02d.py", i)] = "import models\n"
	}
	for i := range 25 {
		files[fmt.Sprintf("wide/w%02d.py", i)] = "import hub\n"
	}
	files["hub.py"] = "x = 1\n"
	root := workspace(t, files)
	fanAndMid := []string{"fan00.py", "fan01.py", "fan02.py", "fan03.py", "fan04.py", "mid.py"}
	tests := []struct {
		name, changed          string
		limit, recheck, levels int
		deps, beyond           []string
		capped                 bool
	}{
		{"two levels re-checked, the third found", "models.py", 10, 2, importLevels, append(slices.Clone(fanAndMid), "top.py"), []string{"apex.py"}, false},
		{"every level re-checked", "models.py", 10, importLevels, importLevels, append(slices.Clone(fanAndMid), "top.py", "apex.py"), nil, false},
		{"the limit in the first level", "models.py", 4, 2, importLevels, fanAndMid[:4], append(slices.Clone(fanAndMid[4:]), "top.py", "apex.py"), false},
		{"a walk of two levels", "models.py", 4, 2, 2, fanAndMid[:4], append(slices.Clone(fanAndMid[4:]), "top.py"), true},
		{"the limit at the last level re-checked", "models.py", 6, 2, importLevels, fanAndMid, []string{"top.py", "apex.py"}, false},
		{"a level longer than MaxDependents", "hub.py", 10, 2, importLevels, wide(0, 10), wide(10, MaxDependents), true},
		{"beyond full", "hub.py", 0, 2, importLevels, nil, wide(0, MaxDependents), true},
		{"no importers", "apex.py", 10, 2, importLevels, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := NewImportIndex(catalogueServer(t, "pyright"), root)
			deps, beyond, capped, err := ix.transitive(context.Background(), []string{filepath.Join(root, tt.changed)}, nil, nil, nil, tt.limit, tt.recheck, tt.levels)
			if err != nil {
				t.Fatal(err)
			}
			if got := relAll(t, root, deps); !slices.Equal(got, tt.deps) {
				t.Errorf("deps = %q, want %q", got, tt.deps)
			}
			if got := relAll(t, root, beyond); !slices.Equal(got, tt.beyond) {
				t.Errorf("beyond = %q, want %q", got, tt.beyond)
			}
			if capped != tt.capped {
				t.Errorf("capped = %v, want %v", capped, tt.capped)
			}
		})
	}
}

// wide names wide/w<i>.py for i in [from, to).
func wide(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("wide/w%02d.py", i))
	}
	return out
}
