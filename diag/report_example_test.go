package diag_test

import (
	"os"

	"github.com/lsp-hook/lsp-hook/diag"
)

// exampleReport is the report every renderer example prints: two
// diagnostics in one Go file of the workspace /repo, and a note.
func exampleReport() diag.Report {
	return diag.Report{
		Root: "/repo",
		Tool: diag.Tool{Name: "lsp-hook", Version: "v1.0.0", InformationURI: "https://github.com/lsp-hook/lsp-hook"},
		Files: []diag.FileDiagnostics{{
			Path: "/repo/cmd/app/main.go",
			Diagnostics: []diag.Diagnostic{
				{Path: "/repo/cmd/app/main.go", Line: 7, Column: 9, EndLine: 7, EndColumn: 10, Severity: diag.SeverityError,
					Code: "UndeclaredName", Source: "gopls", Message: "undefined: y"},
				{Path: "/repo/cmd/app/main.go", Line: 6, Column: 2, EndLine: 6, EndColumn: 3, Severity: diag.SeverityWarning,
					Source: "go vet", Message: "declared and not used: x"},
			},
		}},
		Notes: []string{"eslint timed out after 3s"},
	}
}

func ExampleWriteReport() {
	var f diag.OutputFormat
	if err := f.Set("text"); err != nil { // as --format text
		panic(err)
	}
	if err := diag.WriteReport(os.Stdout, f, exampleReport()); err != nil {
		panic(err)
	}
	// Output:
	// cmd/app/main.go:6:2: warning: declared and not used: x (go vet)
	// cmd/app/main.go:7:9: error: undefined: y [UndeclaredName] (gopls)
}

func ExampleWriteLint() {
	if err := diag.WriteLint(os.Stdout, exampleReport()); err != nil {
		panic(err)
	}
	// Output:
	// LSP errors detected in this file, please fix:
	// <diagnostics file="cmd/app/main.go">
	// WARN [6:2] declared and not used: x
	// ERROR [7:9] undefined: y (UndeclaredName)
	// </diagnostics>
	// note: eslint timed out after 3s
}

func ExampleWriteText() {
	if err := diag.WriteText(os.Stdout, exampleReport()); err != nil {
		panic(err)
	}
	// Output:
	// cmd/app/main.go:6:2: warning: declared and not used: x (go vet)
	// cmd/app/main.go:7:9: error: undefined: y [UndeclaredName] (gopls)
}

func ExampleWriteJSON() {
	if err := diag.WriteJSON(os.Stdout, exampleReport()); err != nil {
		panic(err)
	}
	// Output:
	// {
	//   "files": [
	//     {
	//       "path": "/repo/cmd/app/main.go",
	//       "rel": "cmd/app/main.go",
	//       "diagnostics": [
	//         {
	//           "path": "/repo/cmd/app/main.go",
	//           "line": 6,
	//           "column": 2,
	//           "end_line": 6,
	//           "end_column": 3,
	//           "severity": "warning",
	//           "source": "go vet",
	//           "message": "declared and not used: x"
	//         },
	//         {
	//           "path": "/repo/cmd/app/main.go",
	//           "line": 7,
	//           "column": 9,
	//           "end_line": 7,
	//           "end_column": 10,
	//           "severity": "error",
	//           "code": "UndeclaredName",
	//           "source": "gopls",
	//           "message": "undefined: y"
	//         }
	//       ]
	//     }
	//   ],
	//   "errors": 1,
	//   "warnings": 1,
	//   "notes": [
	//     "eslint timed out after 3s"
	//   ]
	// }
}

func ExampleWriteGitHub() {
	if err := diag.WriteGitHub(os.Stdout, exampleReport()); err != nil {
		panic(err)
	}
	// Output:
	// ::warning file=cmd/app/main.go,line=6,col=2,endLine=6,endColumn=3,title=go vet::declared and not used: x
	// ::error file=cmd/app/main.go,line=7,col=9,endLine=7,endColumn=10,title=UndeclaredName (gopls)::undefined: y
	// ::warning title=lsp-hook::eslint timed out after 3s
}

func ExampleWriteRDJSONL() {
	r := exampleReport()
	// With the file's text, columns become UTF-8 byte offsets: "é" before
	// y is two bytes.
	r.Text = func(string) (string, bool) {
		return "package main\n\nconst é = 1\n\nfunc main() {\n\tx := 1\n\tz := é+y\n}\n", true
	}
	if err := diag.WriteRDJSONL(os.Stdout, r); err != nil {
		panic(err)
	}
	// Output:
	// {"message":"declared and not used: x","location":{"path":"cmd/app/main.go","range":{"start":{"line":6,"column":2},"end":{"line":6,"column":3}}},"severity":"WARNING","source":{"name":"go vet"}}
	// {"message":"undefined: y","location":{"path":"cmd/app/main.go","range":{"start":{"line":7,"column":10},"end":{"line":7,"column":11}}},"severity":"ERROR","source":{"name":"gopls"},"code":{"value":"UndeclaredName"}}
}

func ExampleWriteSARIF() {
	r := exampleReport()
	r.Notes = nil
	r.Files[0].Diagnostics = r.Files[0].Diagnostics[:1]
	if err := diag.WriteSARIF(os.Stdout, r); err != nil {
		panic(err)
	}
	// Output:
	// {
	//   "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
	//   "version": "2.1.0",
	//   "runs": [
	//     {
	//       "tool": {
	//         "driver": {
	//           "name": "lsp-hook",
	//           "version": "1.0.0",
	//           "informationUri": "https://github.com/lsp-hook/lsp-hook",
	//           "rules": [
	//             {
	//               "id": "UndeclaredName",
	//               "shortDescription": {
	//                 "text": "UndeclaredName (gopls)"
	//               },
	//               "fullDescription": {
	//                 "text": "Rule UndeclaredName of gopls, such as: undefined: y"
	//               },
	//               "help": {
	//                 "text": "gopls reports this at the code the result points to; its message says what is wrong there. Fix the code, then run lsp-hook diagnose again. Documentation: https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName"
	//               },
	//               "helpUri": "https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName",
	//               "defaultConfiguration": {
	//                 "level": "error"
	//               },
	//               "properties": {
	//                 "tags": [
	//                   "gopls"
	//                 ]
	//               }
	//             }
	//           ]
	//         }
	//       },
	//       "originalUriBaseIds": {
	//         "%SRCROOT%": {
	//           "uri": "file:///repo/"
	//         }
	//       },
	//       "results": [
	//         {
	//           "ruleId": "UndeclaredName",
	//           "ruleIndex": 0,
	//           "level": "error",
	//           "message": {
	//             "text": "undefined: y"
	//           },
	//           "locations": [
	//             {
	//               "physicalLocation": {
	//                 "artifactLocation": {
	//                   "uri": "cmd/app/main.go",
	//                   "uriBaseId": "%SRCROOT%"
	//                 },
	//                 "region": {
	//                   "startLine": 7,
	//                   "startColumn": 9,
	//                   "endLine": 7,
	//                   "endColumn": 10
	//                 }
	//               }
	//             }
	//           ],
	//           "properties": {
	//             "lspHook/source": "gopls"
	//           }
	//         }
	//       ],
	//       "columnKind": "unicodeCodePoints"
	//     }
	//   ]
	// }
}
