package soak

import "testing"

// cLanguage is a generated C project, a header and three .c files,
// checked by clangd and clang -fsyntax-only with compile_flags.txt. An
// implicit function declaration is made an error, as newer compilers
// have it, so a removed or renamed declaration breaks its callers.
func cLanguage() *language {
	return &language{
		name:      "c",
		tools:     []string{"clang", "clangd", "sed"},
		files:     func(*testing.T) map[string]string { return cFiles },
		compile:   compileC,
		format:    stripTrailingSpace,
		comment:   func(text string) string { return "/* " + text + " */" },
		scenarios: cScenarios,
	}
}

var cFiles = map[string]string{
	"compile_flags.txt": "-xc\n-std=c11\n-Iinclude\n-Werror=implicit-function-declaration\n",
	"include/shapes.h": `#ifndef SHAPES_H
#define SHAPES_H

struct point {
	int x;
	int y;
};

int add(int a, int b);
int dot(struct point p, struct point q);
const char *label(int code);

#endif
`,
	"src/math.c": `#include "shapes.h"

int add(int a, int b)
{
	return a + b;
}

int dot(struct point p, struct point q)
{
	return add(p.x * q.x, p.y * q.y);
}
`,
	"src/label.c": `#include "shapes.h"

static const char *names[] = {"zero", "one", "many"};

const char *label(int code)
{
	if (code < 0 || code > 2) {
		return "unknown";
	}
	return names[code];
}
`,
	"src/main.c": `#include <stdio.h>

#include "shapes.h"

int main(void)
{
	struct point p = {1, 2};
	struct point q = {3, 4};

	printf("%d %s\n", dot(p, q), label(add(p.x, q.y)));
	return 0;
}
`,
}

var cScenarios = []scenario{
	// The project's flags break every file the edit does not touch:
	// without -Iinclude, shapes.h is not found (clangd is started afresh
	// to read compile_flags.txt, lsp/project.go).
	{"include-path-removed", steps(
		edit("compile_flags.txt", "-Iinclude\n", ""),
		revert("compile_flags.txt"))},
	configWritten("src/math.c", "return a + b;", "return a + b.x;"),
	createdLater("src/main.c", []string{"#include \"shapes.h\"\n", "#include \"shapes.h\"\n#include \"extra.h\"\n", "return 0;", "return extra();"},
		"include/extra.h", "#ifndef EXTRA_H\n#define EXTRA_H\n\nint extra(void);\n\n#endif\n"),
	// The headers' directory renamed: -Iinclude finds no shapes.h.
	{"directory-moved", steps(moveDir("include", "headers"), moveDir("headers", "include"))},
	{"local-type", steps(edit("src/math.c", "return a + b;", "return a + b.x;"), revert("src/math.c"))},
	{"local-undefined", steps(
		edit("src/label.c", "return names[code];", "return name[code];"),
		edit("src/label.c", "return name[code];", "return names[code];"))},
	{"signature-change", steps(
		edit("include/shapes.h", "int add(int a, int b);", "int add(int a, int b, int c);"),
		revert("include/shapes.h"))},
	{"renamed-export", []step{
		{edit("include/shapes.h", "const char *label(int code);", "const char *label_of(int code);")},
		{edit("src/main.c", "label(add(", "label_of(add("),
			edit("src/label.c", "const char *label(int code)", "const char *label_of(int code)")},
		{revert("include/shapes.h")},
		{revert("src/main.c"), revert("src/label.c")},
	}},
	// The declaration, the definition and the caller change in one step:
	// clean; then the header and the definition turned back together
	// leave the caller calling a function nothing declares.
	{"renamed-everywhere", []step{
		{edit("include/shapes.h", "const char *label(int code);", "const char *label_of(int code);"),
			edit("src/main.c", "label(add(", "label_of(add("),
			edit("src/label.c", "const char *label(int code)", "const char *label_of(int code)")},
		{revert("include/shapes.h"), revert("src/label.c")},
		{revert("src/main.c")},
	}},
	{"renamed-field", steps(edit("include/shapes.h", "\tint y;\n", "\tint z;\n"), revert("include/shapes.h"))},
	{"removed-declaration", steps(
		edit("include/shapes.h", "int dot(struct point p, struct point q);\n", ""),
		revert("include/shapes.h"))},
	{"broken-header", steps(edit("include/shapes.h", "\tint y;\n};", "\tint y;\n}"), revert("include/shapes.h"))},
	{"deleted-header", steps(remove("include/shapes.h"), revert("include/shapes.h"))},
	{"renamed-file", steps(move("src/label.c", "src/labels.c"), move("src/labels.c", "src/label.c"))},
	{"broken-then-renamed", steps(
		edit("src/math.c", "return a + b;", "return a + b.x;"),
		move("src/math.c", "src/maths.c"),
		edit("src/maths.c", "return a + b.x;", "return a + b;"),
		move("src/maths.c", "src/math.c"))},
	{"new-file", steps(
		create("src/extra.c", "#include \"shapes.h\"\n\nint extra(void)\n{\n\treturn add(1);\n}\n"),
		create("src/extra.c", "#include \"shapes.h\"\n\nint extra(void)\n{\n\treturn add(1, 2);\n}\n"),
		remove("src/extra.c"))},
	{"new-file-removed-broken", steps(
		create("src/extra.c", "#include \"shapes.h\"\n\nint extra(void)\n{\n\treturn dot(1);\n}\n"),
		remove("src/extra.c"))},
	{"comment", steps(edit("src/math.c", "int add(int a, int b)\n{", "int add(int a, int b)\n{\n\t/* the sum */"), revert("src/math.c"))},
}
