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
