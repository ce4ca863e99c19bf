package parsers

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// cargoMsg wraps a rustc diagnostic in a cargo compiler-message line for
// target kind ("lib", "test").
func cargoMsg(kind, message string) string {
	return `{"reason":"compiler-message","package_id":"path+file:///p#0.1.0","target":{"kind":["` + kind + `"],"name":"p"},"message":` + message + "}\n"
}

// rustcSpanJSON is a primary span on src/lib.rs.
func rustcSpanJSON(line, col, endCol int, label string) string {
	l := "null"
	if label != "" {
		l = `"` + label + `"`
	}
	return `{"file_name":"src/lib.rs","byte_start":0,"byte_end":1,"line_start":` + strconv.Itoa(line) + `,"line_end":` + strconv.Itoa(line) +
		`,"column_start":` + strconv.Itoa(col) + `,"column_end":` + strconv.Itoa(endCol) + `,"is_primary":true,"label":` + l + `,"expansion":null,"text":[]}`
}

func TestParseCargo(t *testing.T) {
	unused := `{"$message_type":"diagnostic","message":"unused variable: ` + "`x`" + `","code":{"code":"unused_variables","explanation":null},"level":"warning","spans":[` + rustcSpanJSON(17, 13, 14, "") + `],"children":[],"rendered":"warning: unused variable"}`
	mismatch := `{"message":"mismatched types","code":{"code":"E0308","explanation":"Expected type did not match."},"level":"error","spans":[` +
		`{"file_name":"src/lib.rs","line_start":3,"line_end":3,"column_start":31,"column_end":34,"is_primary":false,"label":"expected due to this","expansion":null},` +
		rustcSpanJSON(3, 37, 38, "expected `i32`, found `&str`") + `],"children":[],"rendered":"error[E0308]"}`
	runToolCases(t, "cargo", ParseCargo, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "clean build", in: `{"reason":"compiler-artifact","package_id":"p","target":{"kind":["lib"]}}` + "\n" + `{"reason":"build-finished","success":true}` + "\n", want: nil},
		{
			name: "primary span, its label, dedupe across targets, noise",
			in: "    Checking p v0.1.0 (/p)\n" +
				cargoMsg("lib", mismatch) +
				cargoMsg("lib", mismatch) + // the lib test build reports it again
				cargoMsg("lib", `{"message":"For more information about this error, try `+"`rustc --explain E0308`"+`.","code":null,"level":"failure-note","spans":[],"children":[],"rendered":""}`) +
				cargoMsg("lib", `{"message":"aborting due to 1 previous error","code":null,"level":"error","spans":[],"children":[],"rendered":""}`) +
				cargoMsg("lib", `{"message":"1 warning emitted","code":null,"level":"warning","spans":[],"children":[],"rendered":""}`) +
				"error: could not compile `p` (lib) due to 1 previous error\n" +
				`{"reason":"build-finished","success":false}` + "\n",
			want: []diag.Diagnostic{{Path: "src/lib.rs", Line: 3, Column: 37, EndLine: 3, EndColumn: 38, Severity: diag.SeverityError, Code: "E0308", Message: "mismatched types: expected `i32`, found `&str`"}},
		},
		{
			name: "rustc --error-format=json line",
			in:   unused + "\n",
			want: []diag.Diagnostic{{Path: "src/lib.rs", Line: 17, Column: 13, EndLine: 17, EndColumn: 14, Severity: diag.SeverityWarning, Code: "unused_variables", Message: "unused variable: `x`"}},
		},
		{
			name: "span inside a std macro is followed to the call site",
			in: cargoMsg("lib", `{"message":"mismatched types","code":{"code":"E0308"},"level":"error","spans":[`+
				`{"file_name":"/rustc/59807616e/library/core/src/macros/mod.rs","line_start":40,"line_end":40,"column_start":9,"column_end":20,"is_primary":true,"label":null,`+
				`"expansion":{"span":`+rustcSpanJSON(12, 5, 25, "")+`,"macro_decl_name":"assert_eq!","def_site_span":null}}],"children":[]}`),
			want: []diag.Diagnostic{{Path: "src/lib.rs", Line: 12, Column: 5, EndLine: 12, EndColumn: 25, Severity: diag.SeverityError, Code: "E0308", Message: "mismatched types"}},
		},
		{
			name: "no primary span takes the first; note and help levels",
			in: cargoMsg("lib", `{"message":"n","code":null,"level":"note","spans":[{"file_name":"src/a.rs","line_start":1,"line_end":1,"column_start":2,"column_end":3,"is_primary":false,"label":null,"expansion":null}],"children":[]}`) +
				cargoMsg("lib", `{"message":"h","code":null,"level":"help","spans":[`+rustcSpanJSON(2, 1, 2, "")+`],"children":[]}`),
			want: []diag.Diagnostic{
				{Path: "src/a.rs", Line: 1, Column: 2, EndLine: 1, EndColumn: 3, Severity: diag.SeverityInfo, Message: "n"},
				{Path: "src/lib.rs", Line: 2, Column: 1, EndLine: 2, EndColumn: 2, Severity: diag.SeverityHint, Message: "h"},
			},
		},
		{
			name: "span-less error is kept without a path",
			in:   cargoMsg("bin", `{"message":"linking with `+"`cc`"+` failed: exit status: 1","code":null,"level":"error","spans":[],"children":[]}`),
			want: []diag.Diagnostic{{Severity: diag.SeverityError, Message: "linking with `cc` failed: exit status: 1"}},
		},
		{
			name: "internal compiler error",
			in:   cargoMsg("lib", `{"message":"unexpected panic","code":null,"level":"error: internal compiler error","spans":[`+rustcSpanJSON(1, 1, 2, "")+`],"children":[]}`),
			want: []diag.Diagnostic{{Path: "src/lib.rs", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: diag.SeverityError, Message: "unexpected panic"}},
		},
		{name: "unknown level", in: cargoMsg("lib", `{"message":"m","code":null,"level":"fatal","spans":[]}`), wantErr: `unknown level "fatal"`},
		{name: "truncated json line", in: cargoMsg("lib", mismatch)[:200], wantErr: "line 1"},
		{name: "compiler-message without message", in: `{"reason":"compiler-message"}` + "\n", wantErr: "without a message"},
		{name: "json that is not cargo's", in: `{"hello":"world"}` + "\n", wantErr: "neither reason"},
		{name: "human output only", in: "    Checking p v0.1.0\nerror[E0308]: mismatched types\n --> src/lib.rs:3:37\n", wantErr: "no line is cargo output"},
		{name: "negative column", in: cargoMsg("lib", `{"message":"m","code":null,"level":"error","spans":[{"file_name":"a.rs","line_start":1,"line_end":1,"column_start":-4,"column_end":1,"is_primary":true}]}`), wantErr: "out of range"},
	})
}

func TestParseCargoLongLine(t *testing.T) {
	// A message with a long explanation is one line well over 64 KiB.
	long := strings.Repeat("explanation ", 10<<10)
	in := cargoMsg("lib", `{"message":"m","code":{"code":"E0001","explanation":"`+long+`"},"level":"error","spans":[`+rustcSpanJSON(1, 1, 2, "")+`]}`)
	ds, err := ParseCargo(strings.NewReader(in))
	if err != nil || len(ds) != 1 || ds[0].Code != "E0001" {
		t.Fatalf("a %d-byte line: got %+v, %v", len(in), ds, err)
	}
}

func TestDetectCargo(t *testing.T) {
	runDetectCases(t, detectCargo, []detectCase{
		{"compiler message", `{"reason":"compiler-message","package_id":"p"}`, true},
		{"after progress noise", "    Checking p v0.1.0\n" + `{"reason":"compiler-artifact","package_id":"p"}`, true},
		{"rustc json", `{"$message_type":"diagnostic","message":"m"}`, true},
		{"other json lines", `{"file": "a.py", "line": 1}`, false},
		{"human output", "error[E0308]: mismatched types\n --> src/lib.rs:3:37\n", false},
	})
}
