package soak

import "testing"

// tsLanguage is a generated TypeScript project of two packages, each its
// own tsconfig.json and so its own root of typescript-language-server:
// src/, four modules importing each other, a declaration file of globals
// and a module using them, which imports nothing, a module importing a
// JSON file (resolveJsonModule), and app/, whose module
// uses src/'s by relative imports, so that a change in src/ breaks a file
// only app/'s server checks (lsp/crossroot.go). Judged by tsc on each
// package (strict).
func tsLanguage() *language {
	return &language{
		name:      "typescript",
		tools:     []string{"tsc", "tsserver", "typescript-language-server", "sed"},
		files:     func(*testing.T) map[string]string { return tsFiles },
		compile:   compileTS,
		format:    stripTrailingSpace,
		comment:   slashComment,
		scenarios: tsScenarios,
	}
}

var tsFiles = map[string]string{
	"src/tsconfig.json": `{
  "compilerOptions": {"target": "es2020", "module": "commonjs", "strict": true, "noEmit": true, "skipLibCheck": true,
    "resolveJsonModule": true, "esModuleInterop": true},
  "include": ["."]
}
`,
	"src/settings.json": `{"retries": 3, "region": "eu"}
`,
	"src/retry.ts": `import settings from "./settings.json";

/** How many times a call is tried: the configured retries and the first try. */
export function attempts(): number {
  return settings.retries + 1;
}
`,
	"app/tsconfig.json": `{
  "compilerOptions": {"target": "es2020", "module": "commonjs", "strict": true, "noEmit": true, "skipLibCheck": true},
  "include": ["."]
}
`,
	"app/main.ts": `import { User, makeUser } from "../src/models";
import { greet } from "../src/service";

export function welcome(name: string): string {
  const user: User = makeUser(name, 1);
  return greet(user) + " #" + user.handle;
}
`,
	"src/globals.d.ts": `/** Globals the bundler defines: a script, which no file imports. */
declare const APP_VERSION: string;

interface Window {
  appRegion: string;
}
`,
	"src/banner.ts": `/** The page's banner, from the bundler's globals. */
export function banner(): string {
  return APP_VERSION.trim() + " " + window.appRegion;
}
`,
	"src/util.ts": `/** Small string helpers. */

export function slug(text: string): string {
  return text.trim().toLowerCase().replace(/ /g, "-");
}

export function initials(text: string): string {
  return text
    .split(" ")
    .filter((w) => w.length > 0)
    .map((w) => w[0])
    .join("");
}
`,
	"src/models.ts": `import { slug } from "./util";

/** A registered user. */
export interface User {
  name: string;
  age: number;
  handle: string;
}

export function makeUser(name: string, age: number): User {
  return { name, age, handle: slug(name) };
}
`,
	"src/service.ts": `import { User, makeUser } from "./models";
import { initials } from "./util";

export function register(name: string): User {
  return makeUser(name, 0);
}

export function greet(user: User): string {
  return ` + "`Hello ${user.name} (${initials(user.name)})`" + `;
}
`,
	"src/api.ts": `import { greet, register } from "./service";
import { slug } from "./util";

export function handle(name: string): string {
  const user = register(name);
  return greet(user) + " @" + slug(user.handle);
}

export function count(names: string[]): number {
  return new Set(names.map((n) => slug(n))).size;
}
`,
}

const tsGreet = `
export function greet(user: User): string {
  return ` + "`Hello ${user.name} (${initials(user.name)})`" + `;
}
`

var tsScenarios = []scenario{
	// The project's configuration breaks files the edit does not touch:
	// without ES2015's library, Set is unknown (the server starts afresh
	// to read src/tsconfig.json, lsp/project.go).
	{"older-library-configured", steps(
		edit("src/tsconfig.json", `"target": "es2020",`, `"target": "es2020", "lib": ["es5"],`),
		revert("src/tsconfig.json"))},
	configWritten("src/api.ts", "return new Set(names.map((n) => slug(n))).size;", "return new Set(names.map((n) => slug(n)));"),
	createdLater("src/api.ts", []string{`import { slug } from "./util";` + "\n", `import { slug } from "./util";` + "\n" + `import { extra } from "./extra";` + "\n",
		"return new Set(names.map((n) => slug(n))).size;", "return new Set(names.map((n) => slug(n))).size + extra();"},
		"src/extra.ts", "export function extra(): number {\n  return 1;\n}\n"),
	// The sources' directory, a project of its own, renamed:
	// app/main.ts's imports of ../src break.
	{"directory-moved", steps(moveDir("src", "lib"), moveDir("lib", "src"))},
	{"local-type", steps(
		edit("src/api.ts", "return new Set(names.map((n) => slug(n))).size;", "return new Set(names.map((n) => slug(n)));"),
		revert("src/api.ts"))},
	{"local-undefined", steps(
		edit("src/service.ts", "(${initials(user.name)})", "(${initial(user.name)})"),
		edit("src/service.ts", "(${initial(user.name)})", "(${initials(user.name)})"))},
	{"signature-change", steps(
		edit("src/models.ts", "makeUser(name: string, age: number): User", "makeUser(name: string, age: number, email: string): User"),
		revert("src/models.ts"))},
	{"signature-change-fixed-in-caller", []step{
		{edit("src/models.ts", "makeUser(name: string, age: number): User", "makeUser(name: string, age: number, email: string): User")},
		{edit("src/service.ts", "return makeUser(name, 0);", `return makeUser(name, 0, "");`)},
		{revert("src/models.ts")},
		{revert("src/service.ts")},
	}},
	{"renamed-export", []step{
		{edit("src/util.ts", "export function slug(", "export function slugify(")},
		{edit("src/models.ts", `import { slug } from "./util";`, `import { slugify as slug } from "./util";`),
			edit("src/api.ts", `import { slug } from "./util";`, `import { slugify as slug } from "./util";`)},
		{revert("src/util.ts")},
		{revert("src/models.ts"), revert("src/api.ts")},
	}},
	// The definition and its importers change in one step: clean; the
	// definition turned back alone breaks both importers.
	{"renamed-everywhere", []step{
		{edit("src/util.ts", "export function slug(", "export function slugify("),
			edit("src/models.ts", `import { slug } from "./util";`, `import { slugify as slug } from "./util";`),
			edit("src/api.ts", `import { slug } from "./util";`, `import { slugify as slug } from "./util";`)},
		{revert("src/util.ts")},
		{revert("src/models.ts"), revert("src/api.ts")},
	}},
	{"renamed-field", steps(
		edit("src/models.ts", "  handle: string;\n", "  nick: string;\n"),
		revert("src/models.ts"))},
	{"removed-function", steps(edit("src/service.ts", tsGreet, ""), revert("src/service.ts"))},
	{"deleted-module", steps(remove("src/util.ts"), revert("src/util.ts"))},
	{"renamed-module", steps(move("src/service.ts", "src/services.ts"), move("src/services.ts", "src/service.ts"))},
	{"broken-then-renamed", steps(
		edit("src/api.ts", "return new Set(names.map((n) => slug(n))).size;", "return new Set(names.map((n) => slug(n)));"),
		move("src/api.ts", "src/handlers.ts"),
		edit("src/handlers.ts", "return new Set(names.map((n) => slug(n)));", "return new Set(names.map((n) => slug(n))).size;"),
		move("src/handlers.ts", "src/api.ts"))},
	{"new-module", steps(
		create("src/extra.ts", "import { makeUser } from \"./models\";\n\nexport const user = makeUser(\"x\");\n"),
		create("src/extra.ts", "import { makeUser } from \"./models\";\n\nexport const user = makeUser(\"x\", 1);\n"),
		remove("src/extra.ts"))},
	{"new-module-removed-broken", steps(
		create("src/extra.ts", "import { greet } from \"./service\";\n\nexport const text: number = greet(null);\n"),
		remove("src/extra.ts"))},
	// A global's declaration changed: its user imports nothing (lsp/
	// dependents_globals.go).
	{"global-type-changed", steps(
		edit("src/globals.d.ts", "declare const APP_VERSION: string;", "declare const APP_VERSION: number;"),
		revert("src/globals.d.ts"))},
	{"global-renamed", steps(
		edit("src/globals.d.ts", "declare const APP_VERSION:", "declare const APP_RELEASE:"),
		revert("src/globals.d.ts"))},
	{"global-member-renamed", steps(
		edit("src/globals.d.ts", "  appRegion: string;\n", "  appZone: string;\n"),
		revert("src/globals.d.ts"))},
	{"globals-removed", steps(remove("src/globals.d.ts"), revert("src/globals.d.ts"))},
	// A JSON module changed: only the JSON validator checks the file,
	// its importer breaks (lsp/imported.go).
	{"json-key-removed", steps(edit("src/settings.json", `"retries": 3, `, ""), revert("src/settings.json"))},
	{"json-type-changed", steps(edit("src/settings.json", `"retries": 3`, `"retries": "3"`), revert("src/settings.json"))},
	{"comment", steps(
		edit("src/util.ts", "/** Small string helpers. */", "/** Small string helpers, for handles. */"),
		revert("src/util.ts"))},
}
