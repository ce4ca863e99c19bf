package main_test

// Load tests (issue 7, "Load"): 200 hooks at once against one daemon
// (e2e_load_hooks_test.go), 10,000 requests on short connections with the
// daemon's goroutines and descriptors back to their baseline after
// (e2e_load_requests_test.go), and 10,000 sequential edits with the
// daemon's RSS steady (e2e_load_soak_test.go). Every run is bounded and
// stops by itself; all traffic to the daemon goes over its Unix socket, as
// hooks send it. This file holds what they share: the files they edit and
// the socket calls.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Load test budgets: far above what a warm hook needs, so that a timeout
// means the daemon could not keep up, not that the machine was slow to
// schedule 200 processes.
const (
	loadBudget     = 30 * time.Second
	loadColdBudget = 40 * time.Second
	// loadHookTimeout kills a load-test hook that outlives its budget.
	loadHookTimeout = 60 * time.Second
)

// loadFile is one file of the load workspace: its workspace-relative
// path, its text, and, for a file with an error, the mark the error's
// message names (a per-file identifier; "" for JSON, whose message names
// no identifier) and the line it is reported on.
type loadFile struct {
	rel, lang string
	text      string
	mark      string // per-file identifier in the error message; "" when clean or JSON
	line      int    // the error's line; 0 when clean
}

func (f loadFile) bad() bool { return f.line > 0 }

// loadFileOf builds file i of lang ("go", "ts", "py", "json", "yaml",
// "toml"): with an error naming a per-file identifier (JSON's names none:
// its error is a trailing comma) when bad, clean otherwise. i padding
// lines push the error down, so no two files of a language report the
// same line. stamp goes into a comment or a string away from the error's
// line, so that successive edits differ in text and nothing else.
func loadFileOf(lang string, i int, bad bool, stamp string) loadFile {
	id := fmt.Sprintf("undef%s%02d", strings.ToUpper(lang[:1])+lang[1:], i)
	pad := func(prefix string) string { return strings.Repeat(prefix+" padding\n", i) }
	val := fmt.Sprint(i)
	if bad {
		val = id
	}
	f := loadFile{lang: lang}
	var mark string // the text on the error's line
	switch lang {
	case "go":
		f.rel = fmt.Sprintf("load/file%02d.go", i)
		f.text = fmt.Sprintf("package load\n\n%s\n// Value%02d is file %02d's value (%s).\nfunc Value%02d() int { return %s }\n", pad("//"), i, i, stamp, i, val)
		mark = "return " + id
	case "ts":
		f.rel = fmt.Sprintf("ts/src/file%02d.ts", i)
		f.text = fmt.Sprintf("%s/** value%02d is file %02d's value (%s). */\nexport const value%02d: number = %s;\n", pad("//"), i, i, stamp, i, val)
		mark = "= " + id
	case "py":
		f.rel = fmt.Sprintf("py/file%02d.py", i)
		f.text = fmt.Sprintf("\"\"\"File %02d (%s).\"\"\"\n\n%svalue%02d: int = %s\n", i, stamp, pad("#"), i, val)
		mark = "= " + id
	case "json":
		var b strings.Builder
		fmt.Fprintf(&b, "{\n  \"file\": \"file%02d (%s)\",\n", i, stamp)
		for k := range i {
			fmt.Fprintf(&b, "  \"pad%d\": %d,\n", k, k)
		}
		if bad { // a trailing comma, reported at the closing brace
			b.WriteString("  \"nested\": {\"a\": 1,\n  },\n")
		} else {
			b.WriteString("  \"nested\": {\"a\": 1\n  },\n")
		}
		b.WriteString("  \"end\": true\n}\n")
		f.rel, f.text = fmt.Sprintf("data/file%02d.json", i), b.String()
		mark, id = "  },", ""
	case "yaml", "toml":
		second := fmt.Sprintf("other%02d", i)
		if bad {
			second = id
		}
		f.rel = fmt.Sprintf("data/file%02d.%s", i, lang)
		if lang == "yaml" { // a duplicate key
			f.text = fmt.Sprintf("%s: 1\n%sname: file%02d (%s)\n%s: 2\n", id, pad("#"), i, stamp, second)
			mark = second + ": 2"
		} else {
			f.text = fmt.Sprintf("%s = 1\n%sname = \"file%02d (%s)\"\n%s = 2\n", id, pad("#"), i, stamp, second)
			mark = second + " = 2"
		}
	default:
		panic("unknown load language " + lang)
	}
	if bad {
		f.mark, f.line = id, lineOf(f.text, mark)
	}
	return f
}

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		panic(fmt.Sprintf("%q not in %q", s, text))
	}
	return strings.Count(text[:i], "\n") + 1
}

// newLoadWorkspace copies testdata/langs/go (a Go module), adds ts/ and
// py/ projects (tsconfig.json, pyproject.toml), and writes files.
func newLoadWorkspace(t *testing.T, files []loadFile) *workspace {
	t.Helper()
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	// A server's first touch waits lsp.first_touch_timeout (10 s by
	// default), not the hook's cold budget: 200 hook processes starting
	// three servers on two cores can take longer than that (CI: 14 of 200
	// TypeScript and Python answers noted a timeout at 10.1-10.4 s), which
	// is the machine, not the daemon failing to keep up. The user config
	// lifts that wait, so the hooks' cold budget bounds it. So too the
	// wait of a warm check (lsp.timeout, 3 s by default): beside make
	// test's other packages, 9 and then 53 of the 200 warm hooks noted a
	// timeout at 3.1-4.4 s, TypeScript and Python ones, forty of each
	// queued on one server, far inside the load budget.
	writeUserConfig(t, w.runtime, "  timeout: "+loadBudget.String()+"\n")
	w.writeFile("ts/tsconfig.json", mustRead(t, moduleRoot+"/testdata/langs/ts/tsconfig.json"))
	w.writeFile("py/pyproject.toml", mustRead(t, moduleRoot+"/testdata/langs/py/pyproject.toml"))
	for _, f := range files {
		w.writeFile(f.rel, f.text)
	}
	return w
}

// rpc calls method on w's daemon over a connection of its own, as a hook
// does: dial, hello, the call, close.
func (w *workspace) rpc(ctx context.Context, method string, params, result any) error {
	c, err := wire.Dial(ctx, w.socket(), "e2e-load")
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Call(ctx, method, params, result)
}

// processStats asks the daemon for status over a connection of its own and
// returns its process block.
func (w *workspace) processStats(ctx context.Context) (sidecar.ProcessStats, error) {
	var st sidecar.StatusResult
	if err := w.rpc(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		return sidecar.ProcessStats{}, err
	}
	if st.Process == nil || st.Process.Goroutines == 0 || st.Process.OpenFDs == 0 || st.Process.RSSKiB == 0 {
		return sidecar.ProcessStats{}, fmt.Errorf("status has no complete process block: %+v", st.Process)
	}
	return *st.Process, nil
}

// checkResult checks a notify_change answer about f (its text as written):
// its error, at its line, and nothing else; or nothing for a clean file.
func checkResult(f loadFile, res wire.Result) error {
	if len(res.Notes) > 0 {
		return fmt.Errorf("%s: notes %q", f.rel, res.Notes)
	}
	if !f.bad() {
		if len(res.Files) > 0 || res.Lint != "" {
			return fmt.Errorf("clean %s reported: %+v", f.rel, res.Files)
		}
		return nil
	}
	if len(res.Files) != 1 || res.Files[0].Rel != f.rel || len(res.Files[0].Diagnostics) == 0 {
		return fmt.Errorf("%s: want its error at line %d, got files %+v", f.rel, f.line, res.Files)
	}
	for _, d := range res.Files[0].Diagnostics {
		if d.Line != f.line || !strings.Contains(d.Message, f.mark) {
			return fmt.Errorf("%s: want one error at line %d naming %q, got %+v", f.rel, f.line, f.mark, res.Files[0].Diagnostics)
		}
	}
	return nil
}

// percentile returns the p-th percentile (0-100, nearest rank) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
