package install

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzInstallEdit runs `lsp-hook install`'s edit of an agent's own settings
// file on arbitrary JSONC, seeded from testdata: a refused file stays
// refused; otherwise install writes valid JSONC, a second install changes
// nothing, and uninstall gives back the original (up to empty containers).
func FuzzInstallEdit(f *testing.F) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no testdata/*.json: %v", err)
	}
	agents := Agents()
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		agent := strings.TrimSuffix(filepath.Base(file), ".json")
		f.Add(b, uint8(max(slices.Index(agents, agent), 0)), agent == "claude")
	}
	f.Add([]byte("{\r\n\t\"hooks\": {\"PostToolUse\": [ /* mine */ ],},\r\n}"), uint8(0), false)
	f.Add([]byte(`{"hooks":{"PostToolUse":{}}}`), uint8(0), false)
	f.Add([]byte(`{"hooks":[]}`), uint8(1), false)
	f.Fuzz(func(t *testing.T, existing []byte, which uint8, batch bool) {
		agent := agents[int(which)%len(agents)]
		tgt, err := Lookup(agent)
		if err != nil {
			t.Fatal(err)
		}
		batch = batch && tgt.HasBatch()
		command := installTestCommand(tgt.Agent)
		d, err := parseJSONDoc("settings.json", existing)
		if err != nil {
			return
		}
		orig, _ := parseJSONDoc("settings.json", existing)
		before, err := orig.uninstall(tgt.Agent)
		if err != nil {
			return
		}
		if _, err := d.install(tgt, Options{Command: command, Batch: batch, NoSession: true}); err != nil {
			return // a container of the wrong kind on the way: refused
		}
		out := d.bytes()
		d2, err := parseJSONDoc("settings.json", out)
		if err != nil {
			t.Fatalf("install wrote invalid JSONC: %v\n%s", err, out)
		}
		if changed, err := d2.install(tgt, Options{Command: command, Batch: batch, NoSession: true}); err != nil || changed || !bytes.Equal(d2.bytes(), out) {
			t.Fatalf("a second install changed %v, %v:\n%s", changed, err, unifiedDiff("first", "second", out, d2.bytes()))
		}
		n, err := d2.uninstall(tgt.Agent)
		if err != nil || n == 0 {
			t.Fatalf("uninstall after install removed %d, %v", n, err)
		}
		back := d2.bytes()
		if before > 0 {
			return // the file had lsp-hook entries of its own: they are gone now
		}
		b, err := parseJSONDoc("settings.json", back)
		if err != nil {
			t.Fatalf("uninstall wrote invalid JSONC: %v\n%s", err, back)
		}
		o, _ := parseJSONDoc("settings.json", existing)
		if !bytes.Equal(back, existing) && !sameJSONIgnoringEmpty(o, b) {
			t.Fatalf("install then uninstall changed the file:\n%s", unifiedDiff("before", "after", existing, back))
		}
	})
}
