package diag_test

import (
	"fmt"

	"github.com/lsp-hook/lsp-hook/diag"
)

func ExampleLintBlock() {
	changed := []diag.FileDiagnostics{{
		Path: "/repo/src/utils.ts", Rel: "src/utils.ts",
		Diagnostics: []diag.Diagnostic{
			{Line: 43, Column: 10, Severity: diag.SeverityError, Code: "ts2339", Message: "Property 'foo' does not exist on type 'Bar'."},
			{Line: 42, Column: 5, Severity: diag.SeverityError, Code: "ts2322", Message: "Type 'string' is not assignable to type 'number'."},
		},
	}}
	others := []diag.FileDiagnostics{{
		Path: "/repo/src/api.ts", Rel: "src/api.ts",
		Diagnostics: []diag.Diagnostic{
			{Line: 7, Column: 3, Severity: diag.SeverityError, Code: "ts2554", Message: "Expected 2 arguments, but got 1."},
		},
	}}
	fmt.Println(diag.LintBlock(changed, others, diag.Limits{}))
	// Output:
	// LSP errors detected in this file, please fix:
	// <diagnostics file="src/utils.ts">
	// ERROR [42:5] Type 'string' is not assignable to type 'number'. (ts2322)
	// ERROR [43:10] Property 'foo' does not exist on type 'Bar'. (ts2339)
	// </diagnostics>
	// LSP errors detected in other files:
	// <diagnostics file="src/api.ts">
	// ERROR [7:3] Expected 2 arguments, but got 1. (ts2554)
	// </diagnostics>
}

func ExampleFormatLine() {
	fmt.Println(diag.FormatLine(diag.Diagnostic{Line: 3, Column: 1, Severity: diag.SeverityWarning, Message: "use a < b && c > d\ninstead"}))
	// Output:
	// WARN [3:1] use a &lt; b &amp;&amp; c &gt; d instead
}

func ExamplePlainLintBlock() {
	changed := []diag.FileDiagnostics{{
		Path: "/repo/queue.go", Rel: "queue.go",
		Diagnostics: []diag.Diagnostic{
			{Line: 9, Column: 12, Severity: diag.SeverityError, Code: "IncompatibleAssign", Message: "cannot use 1 (untyped int constant) as <-chan int value in variable declaration"},
			{Line: 14, Column: 9, Severity: diag.SeverityError, Code: "InvalidTypeArg", Message: "string does not satisfy Number[T] (string missing in ~int | ~float64) && more"},
		},
	}}
	others := []diag.FileDiagnostics{{
		Path: "/repo/web/app.ts", Rel: "web/app.ts",
		Diagnostics: []diag.Diagnostic{
			{Line: 3, Column: 7, Severity: diag.SeverityError, Code: "2322", Message: "Type 'Promise<string>' is not assignable to type 'string'."},
		},
	}}
	fmt.Println(diag.PlainLintBlock(diag.LintBlock(changed, others, diag.Limits{}) + "\nlsp-hook: a <note>"))
	// Output:
	// LSP errors detected in this file, please fix:
	// diagnostics for queue.go:
	// ERROR [9:12] cannot use 1 (untyped int constant) as ＜-chan int value in variable declaration (IncompatibleAssign)
	// ERROR [14:9] string does not satisfy Number[T] (string missing in ~int | ~float64) && more (InvalidTypeArg)
	// LSP errors detected in other files:
	// diagnostics for web/app.ts:
	// ERROR [3:7] Type 'Promise＜string＞' is not assignable to type 'string'. (2322)
	// lsp-hook: a ＜note＞
}
