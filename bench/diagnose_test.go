package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDiagnoseOut(t *testing.T) {
	var out diagnoseOut
	js := `{"files":[{"rel":"a/x.go","diagnostics":[
		{"line":8,"column":57,"severity":"warning","code":"printf","source":"printf","message":"bad verb [windows]"},
		{"line":8,"column":57,"severity":"warning","source":"go-vet","message":"bad verb"}]},
		{"rel":"run.sh","diagnostics":[{"line":3,"severity":"warning","code":"SC2086","source":"shellcheck"}]}],
		"errors":0,"warnings":3,"notes":["incomplete: gopls (/r): timeout"]}`
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		t.Fatal(err)
	}
	if got, want := out.bySource(), "go-vet 1, printf 1, shellcheck 1"; got != want {
		t.Errorf("bySource = %q, want %q", got, want)
	}
	for _, c := range []struct {
		rel  string
		line int
		want bool
	}{{"a/x.go", 8, true}, {"a/x.go", 9, false}, {"x.go", 8, false}, {"run.sh", 3, true}} {
		if got := out.has(c.rel, c.line); got != c.want {
			t.Errorf("has(%q, %d) = %v, want %v", c.rel, c.line, got, c.want)
		}
	}
	if tagged, dupes := out.viewTagged(); tagged != 1 || dupes != 1 {
		t.Errorf("viewTagged = %d, %d; want 1, 1", tagged, dupes)
	}
	if got := (diagnoseOut{}).bySource(); got != "nothing" {
		t.Errorf("bySource of nothing = %q", got)
	}
}

func TestOutputPatterns(t *testing.T) {
	vet := "# example.com/m/a\n./a/lsphook_bench_planted.go:8:57: fmt.Sprintf format %d has arg \"planted\" of wrong type string\n" +
		"/abs/b/x.go:366:2-420:3: Inefficient string concatenation\nvet: done\n"
	if n := len(goFinding.FindAllString(vet, -1)); n != 2 {
		t.Errorf("goFinding matched %d lines, want 2", n)
	}
	check := "/r/a.go:5:1-32: ineffectual directive [darwin]\n/r/a.go:5:1-32: ineffectual directive\n/r/b.go:1:2: x [windows,386]\n"
	if n := distinctGo(check); n != 2 {
		t.Errorf("distinctGo = %d, want 2", n)
	}
	planted := []string{"a/lsphook_bench_planted.go", "c/lsphook_bench_planted.go"}
	if got, want := plantedHits(vet, planted), "; planted 1/2"; got != want {
		t.Errorf("plantedHits = %q, want %q", got, want)
	}
	tsc := "src/a.ts(12,5): error TS2322: Type 'x' is not assignable.\n  continued\nsrc/b.ts(1,1): error TS4114: This member must have an 'override'.\n"
	m := tscError.FindAllStringSubmatch(tsc, -1)
	if len(m) != 2 || m[0][1] != "src/a.ts" || m[0][2] != "12" || m[1][3] != "TS4114" {
		t.Errorf("tscError matched %q", m)
	}
	if m := filesChecked.FindStringSubmatch("lsp-hook: 600 files checked in 2m11s: 0 errors, 28 warnings"); m == nil || m[1] != "600" {
		t.Errorf("filesChecked matched %q", m)
	}
}

func TestUntar(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"package/src/index.ts":        "export {};\n",
		"package/src/internal/a.ts":   "export const a = 1;\n",
		"package/src/Rx.global.js":    "// not TypeScript\n",
		"package/dist/types/index.ts": "// outside src\n",
	} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	dst := t.TempDir()
	isTS := func(n string) bool { return strings.HasSuffix(n, ".ts") }
	if err := untar(bytes.NewReader(buf.Bytes()), "package/src/", dst, isTS); err != nil {
		t.Fatal(err)
	}
	n, err := countFiles(dst, func(string) bool { return true })
	if err != nil || n != 2 {
		t.Errorf("extracted %d files (%v), want index.ts and internal/a.ts", n, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "internal", "a.ts")); err != nil {
		t.Error(err)
	}
}

// TestReapLeftovers kills a leftover known by pid and start time even when
// the command line first sampled was the forking shell's, and leaves alone
// a process whose start time says it is another one that got the pid.
func TestReapLeftovers(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer cmd.Process.Kill()
	pid := cmd.Process.Pid
	start, ok := startTime(pid)
	if !ok {
		t.Fatalf("no start time for pid %d", pid)
	}
	tests := []struct {
		name string
		seen seenProc
		want int
	}{
		{"pid reused", seenProc{start: start + 1, cmd: "sleep 30"}, 0},
		{"cmdline before exec", seenProc{start: start, cmd: "sh -c sleep 30 & exit"}, 1},
	}
	for _, tt := range tests {
		got := reapLeftovers(map[int]seenProc{pid: tt.seen}, 100*time.Millisecond)
		if len(got) != tt.want || tt.want == 1 && !strings.Contains(got[0], "sleep 30") {
			t.Errorf("%s: reaped %q, want %d naming sleep 30", tt.name, got, tt.want)
		}
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Error("the reaped sleep is still running")
	}
}

// TestMeasureProc runs a shell that leaves a child behind: the tree's
// memory is sampled, ru_maxrss read, and the child found and killed.
func TestMeasureProc(t *testing.T) {
	r, err := measureProc(context.Background(), t.TempDir(), os.Environ(),
		"sh", "-c", "sleep 30 >/dev/null 2>&1 & sleep 5; echo done; exit 3") // long enough for a sampler on a loaded machine (make test runs packages in parallel) to see the sleep
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 3 || strings.TrimSpace(string(r.stdout)) != "done" {
		t.Errorf("exit %d, stdout %q; want 3, done", r.code, r.stdout)
	}
	if r.maxRSS <= 0 || r.treePeak <= 0 || r.treeN < 2 {
		t.Errorf("maxRSS %d KiB, tree peak %d KiB over %d processes; want both > 0 over ≥ 2", r.maxRSS, r.treePeak, r.treeN)
	}
	if len(r.leftover) != 1 || !strings.Contains(r.leftover[0], "sleep 30") {
		t.Errorf("leftover = %q, want the sleep 30", r.leftover)
	}
}
