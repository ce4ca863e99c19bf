package install

import (
	"strings"
	"testing"
)

// TestInstallEditIsReversible: for JSON written in many styles (comments,
// trailing commas, tabs, CRLF, one line, empty containers), install adds
// only what it must, in the file's style, and uninstall without a backup
// gives back the input byte for byte.
func TestInstallEditIsReversible(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "empty object",
			in:   "{}",
			want: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit|MultiEdit|NotebookEdit|Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"lsp-hook hook claude\"\n          }\n        ]\n      }\n    ]\n  }\n}",
		},
		{
			name: "one line, spaced",
			in:   `{"model": "opus", "env": {"A": "1"}}` + "\n",
			want: `{"model": "opus", "env": {"A": "1"}, "hooks": {"PostToolUse":[{"matcher":"Write|Edit|MultiEdit|NotebookEdit|Bash","hooks":[{"type":"command","command":"lsp-hook hook claude"}]}]}}` + "\n",
		},
		{
			name: "minified",
			in:   `{"model":"opus","hooks":{"Stop":[]}}`,
			want: `{"model":"opus","hooks":{"Stop":[],"PostToolUse":[{"matcher":"Write|Edit|MultiEdit|NotebookEdit|Bash","hooks":[{"type":"command","command":"lsp-hook hook claude"}]}]}}`,
		},
		{
			name: "trailing comment on the last member",
			in:   "{\n  \"model\": \"opus\" // the default\n}\n",
			want: "{\n  \"model\": \"opus\", // the default\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit|MultiEdit|NotebookEdit|Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"lsp-hook hook claude\"\n          }\n        ]\n      }\n    ]\n  }\n}\n",
		},
		{
			name: "trailing commas and block comments",
			in:   "{\n    /* settings */\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"log\"}]}, // keep\n        ],\n    },\n}\n",
			want: "{\n    /* settings */\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"log\"}]}, // keep\n            {\n                \"matcher\": \"Write|Edit|MultiEdit|NotebookEdit|Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"lsp-hook hook claude\"\n                    }\n                ]\n            },\n        ],\n    },\n}\n",
		},
		{
			name: "tabs and CRLF",
			in:   "{\r\n\t\"model\": \"opus\"\r\n}\r\n",
			want: "{\r\n\t\"model\": \"opus\",\r\n\t\"hooks\": {\r\n\t\t\"PostToolUse\": [\r\n\t\t\t{\r\n\t\t\t\t\"matcher\": \"Write|Edit|MultiEdit|NotebookEdit|Bash\",\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"type\": \"command\",\r\n\t\t\t\t\t\t\"command\": \"lsp-hook hook claude\"\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n",
		},
		{
			name: "existing empty hooks on one line",
			in:   "{\n  \"hooks\": {}\n}\n",
			want: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"Write|Edit|MultiEdit|NotebookEdit|Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"lsp-hook hook claude\"\n          }\n        ]\n      }\n    ]\n  }\n}\n",
		},
	}
	tgt, _ := Lookup("claude")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseJSONDoc("settings.json", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if changed, err := d.install(tgt, Options{Command: installTestCommand("claude"), NoSession: true}); err != nil || !changed {
				t.Fatalf("install: changed %v, %v", changed, err)
			}
			got := string(d.bytes())
			if got != tt.want {
				t.Errorf("install:\n%s", unifiedDiff("want", "got", []byte(tt.want), []byte(got)))
			}
			d, err = parseJSONDoc("settings.json", []byte(got))
			if err != nil {
				t.Fatalf("install wrote invalid JSON: %v", err)
			}
			if n, err := d.uninstall("claude"); err != nil || n != 1 {
				t.Fatalf("uninstall: removed %d, %v", n, err)
			}
			back := string(d.bytes())
			if tt.name == "existing empty hooks on one line" {
				// The emptied "hooks" goes too: the backup restores it (see TestInstallRoundTrip).
				if back != "{}\n" {
					t.Errorf("uninstall: %q", back)
				}
				return
			}
			if back != tt.in {
				t.Errorf("uninstall did not restore the input:\n%s", unifiedDiff("input", "after uninstall", []byte(tt.in), []byte(back)))
			}
		})
	}
}

// TestUninstallMiddleEntry: removing an entry between others keeps the
// neighbours' comments and the array's commas valid.
func TestUninstallMiddleEntry(t *testing.T) {
	in := `{
  "hooks": {
    "post_write_code": [
      { "command": "fmt.sh" }, // formatter
      { "command": "lsp-hook hook windsurf", "show_output": true }, // ours
      { "command": "audit.sh" }
    ]
  }
}
`
	want := `{
  "hooks": {
    "post_write_code": [
      { "command": "fmt.sh" }, // formatter
      { "command": "audit.sh" }
    ]
  }
}
`
	d, err := parseJSONDoc("hooks.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := d.uninstall("windsurf"); n != 1 || err != nil {
		t.Fatalf("removed %d, %v", n, err)
	}
	if got := string(d.bytes()); got != want {
		t.Errorf("\n%s", unifiedDiff("want", "got", []byte(want), []byte(got)))
	}
}

// TestUninstallLastEntryKeepsTrailingCommaStyle: removing the last element
// of an array without a trailing comma must not leave one behind, even
// when the element before it had blanks before its comma.
func TestUninstallLastEntryKeepsTrailingCommaStyle(t *testing.T) {
	in := `{"hooks": {"afterFileEdit": [{"command": "fmt.sh"} , {"command": "lsp-hook hook cursor"}], "stop": []}}`
	d, err := parseJSONDoc("hooks.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d.uninstall("cursor")
	got := string(d.bytes())
	if want := `{"hooks": {"afterFileEdit": [{"command": "fmt.sh"} ], "stop": []}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if strings.Contains(got, ",]") || strings.Contains(got, ", ]") {
		t.Error("a trailing comma was left")
	}
}
