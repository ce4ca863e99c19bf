package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// compilePython asks `pyright --outputjson` (the CLI of the server the
// daemon runs) for the truth of the project in dir: the package's, by the
// pyrightconfig.json at dir, and app/'s, by its own (-p app), the errors
// of both. Exit 0 is clean, 1 errors; anything else is pyright's own
// failure.
func compilePython(ctx context.Context, dir string, env []string, s snapshot) (*truth, error) {
	all := newTruth("")
	// The CLI checks what the two configs include, pkg and app; a module
	// elsewhere (pkg renamed by directory-moved) it does not get to,
	// while the language server checks it once it is changed.
	for rel := range s {
		if path.Ext(rel) == ".py" && !strings.HasPrefix(rel, "pkg/") && !strings.HasPrefix(rel, "app/") {
			all.unknown[rel] = true
		}
	}
	for _, args := range [][]string{{"--outputjson"}, {"--outputjson", "-p", "app"}} {
		out, code, err := runTool(ctx, dir, env, "pyright", args...)
		if err != nil {
			return nil, err
		}
		if code != 0 && code != 1 {
			return nil, fmt.Errorf("pyright %s exited %d:\n%s", strings.Join(args, " "), code, out)
		}
		t, err := parsePyright(dir, out)
		if err != nil {
			return nil, err
		}
		all.output += out
		all.merge(t)
	}
	return all, nil
}

// parsePyright reads pyright's --outputjson report: generalDiagnostics
// with an absolute file and a 0-based range.
func parsePyright(dir, out string) (*truth, error) {
	var rep struct {
		GeneralDiagnostics []struct {
			File     string `json:"file"`
			Severity string `json:"severity"`
			Range    struct {
				Start struct{ Line int } `json:"start"`
			} `json:"range"`
		} `json:"generalDiagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return nil, fmt.Errorf("decoding pyright --outputjson: %w\n%s", err, out)
	}
	t := newTruth(out)
	for _, d := range rep.GeneralDiagnostics {
		if d.Severity == "error" {
			t.add(relTo(dir, d.File), d.Range.Start.Line+1)
		}
	}
	return t, nil
}

// compileTS asks `tsc --noEmit --pretty false` for the truth of the
// project in dir: each package's (src/ and app/, their tsconfig.json),
// the errors of both; a file of src/ that app/ imports is in both
// programs, under the same options. Exit 0 is clean, 1 or 2 errors.
func compileTS(ctx context.Context, dir string, env []string, s snapshot) (*truth, error) {
	var all []string
	// Every project of the snapshot: a directory holding a tsconfig.json
	// (src and app, or wherever directory-moved renamed src to).
	var projects []string
	for rel := range s {
		if path.Base(rel) == "tsconfig.json" {
			projects = append(projects, path.Dir(rel))
		}
	}
	slices.Sort(projects)
	for _, pkg := range projects {
		out, code, err := runTool(ctx, dir, env, "tsc", "--noEmit", "--pretty", "false", "-p", pkg)
		if err != nil {
			return nil, err
		}
		t, err := parseTsc(dir, out)
		if err == nil && code != 0 && len(t.errs) == 0 {
			err = fmt.Errorf("tsc -p %s exited %d with no error the soak could place:\n%s", pkg, code, out)
		}
		if err != nil {
			return nil, err
		}
		all = append(all, out)
	}
	return parseTsc(dir, strings.Join(all, "\n"))
}

var (
	tscErrorRE  = regexp.MustCompile(`^(.+?)\((\d+),\d+\): error TS\d+: `)
	tscGlobalRE = regexp.MustCompile(`^error TS\d+: `)
)

// parseTsc reads tsc's plain output: "src/a.ts(12,5): error TS2322: …",
// continuation lines indented. An error without a file is tsc's own
// failure.
func parseTsc(dir, out string) (*truth, error) {
	t := newTruth(out)
	for _, l := range strings.Split(out, "\n") {
		if tscGlobalRE.MatchString(l) {
			return nil, fmt.Errorf("tsc: %s", l)
		}
		if m := tscErrorRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			t.add(relTo(dir, m[1]), n)
		}
	}
	return t, nil
}

// compileC asks `clang -fsyntax-only` for the truth of every .c and .h
// file of the snapshot, each a translation unit of its own with the flags
// of compile_flags.txt (as clangd compiles an open file), all errors
// (-ferror-limit=0).
func compileC(ctx context.Context, dir string, env []string, s snapshot) (*truth, error) {
	var flags []string
	for _, f := range strings.Split(s["compile_flags.txt"], "\n") {
		if f = strings.TrimSpace(f); f != "" {
			flags = append(flags, f)
		}
	}
	all := newTruth("")
	for _, file := range slices.Sorted(maps.Keys(s)) {
		if ext := path.Ext(file); ext != ".c" && ext != ".h" {
			continue
		}
		args := append([]string{"-fsyntax-only", "-fno-color-diagnostics", "-fno-caret-diagnostics", "-ferror-limit=0"}, flags...)
		out, code, err := runTool(ctx, dir, env, "clang", append(args, file)...)
		if err != nil {
			return nil, err
		}
		t := parseClang(dir, file, out, s)
		if code != 0 && len(t.errs) == 0 {
			return nil, fmt.Errorf("clang %s exited %d with no error the soak could place:\n%s", file, code, out)
		}
		all.output += out
		all.merge(t)
	}
	return all, nil
}

var (
	clangErrorRE    = regexp.MustCompile(`^(.+?):(\d+):(\d+): (fatal )?error: `)
	clangIncludedRE = regexp.MustCompile(`^In file included from (.+?):(\d+):$`)
)

// parseClang reads clang's errors for the translation unit of main. An
// error inside an included file counts there and also on main's #include
// line that brought it in ("In file included from main:N:", the first of
// the chain): clangd reports it on that line of main ("In included
// file: …"). A fatal error ends the translation unit, so main is then
// partial: clangd goes on past a missing #include and may rightly report
// more. An error placed past the end of its line ("expected ';' after
// struct" just after the '}') counts on the line of the next token too,
// where clangd puts it; files holds the texts to find it.
func parseClang(dir, main, out string, files snapshot) *truth {
	t := newTruth(out)
	includeLine, inChain := 0, false
	for _, l := range strings.Split(out, "\n") {
		if m := clangIncludedRE.FindStringSubmatch(l); m != nil {
			if !inChain && relTo(dir, m[1]) == main {
				includeLine, _ = strconv.Atoi(m[2])
			}
			inChain = true
			continue
		}
		inChain = false
		m := clangErrorRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		file := relTo(dir, m[1])
		if next := nextTokenLine(files[file], n, col); next > 0 {
			t.addEither(file, n, next)
		} else {
			t.add(file, n)
		}
		if m[4] != "" {
			t.partial[main] = true
		}
		if file != main && includeLine > 0 {
			t.add(main, includeLine)
		}
	}
	return t
}

// nextTokenLine returns, when the 1-based byte column col of line n of
// text lies past the line's last non-blank character, the line of the
// next non-blank character after it; else 0.
func nextTokenLine(text string, n, col int) int {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) || col-1 < len(strings.TrimRight(lines[n-1], " \t")) {
		return 0
	}
	for i := n; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i + 1
		}
	}
	return 0
}
