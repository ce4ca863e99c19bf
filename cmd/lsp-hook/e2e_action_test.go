package main_test

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
)

// actionRunner runs action.yml's run steps the way the Actions runner
// does for a composite action, minus the runner: each script with
// `bash --noprofile --norc -eo pipefail`, the step's env with its
// ${{ inputs.X }}, ${{ steps.X.outputs.Y }} and ${{ github.action_ref }}
// filled in, GITHUB_OUTPUT and GITHUB_PATH as files read back after the
// step, GITHUB_ACTION_PATH at this module. uses steps (setup-go,
// upload-sarif) and if: conditions are the test's to decide.
type actionRunner struct {
	t         *testing.T
	steps     map[string]actionStep        // by name
	inputs    map[string]string            // the action's defaults, then the test's values
	outputs   map[string]map[string]string // steps.<id>.outputs
	workspace string                       // GITHUB_WORKSPACE, a git repository
	temp      string                       // RUNNER_TEMP
	path      []string                     // GITHUB_PATH entries, newest first
	env       []string                     // the base environment
}

// actionExprRE is one ${{ … }} expression.
var actionExprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// newActionRunner reads action.yml, with the inputs' defaults overridden
// by inputs.
func newActionRunner(t *testing.T, workspace string, inputs map[string]string) *actionRunner {
	a := readAction(t)
	r := &actionRunner{t: t, steps: map[string]actionStep{}, inputs: map[string]string{}, outputs: map[string]map[string]string{},
		workspace: workspace, temp: t.TempDir(), env: childEnv(testdaemon.ShortDir(t), nil)}
	for _, s := range a.Runs.Steps {
		r.steps[s.Name] = s
	}
	for id, in := range a.Inputs {
		if in.Default != nil {
			r.inputs[id] = *in.Default
		}
	}
	maps.Copy(r.inputs, inputs)
	return r
}

// expand fills in the expressions of s.
func (r *actionRunner) expand(s string) string {
	return actionExprRE.ReplaceAllStringFunc(s, func(expr string) string {
		e := actionExprRE.FindStringSubmatch(expr)[1]
		if id, ok := strings.CutPrefix(e, "inputs."); ok {
			return r.inputs[id]
		}
		if e == "github.action_ref" {
			return "v0.0.0-action-test"
		}
		if m := regexp.MustCompile(`^steps\.([\w-]+)\.outputs\.([\w-]+)$`).FindStringSubmatch(e); m != nil {
			return r.outputs[m[1]][m[2]]
		}
		r.t.Fatalf("expression %s: the test runner does not know it", expr)
		return ""
	})
}

// run runs the run step named name and returns its stdout and stderr
// together and its exit code.
func (r *actionRunner) run(name string) (string, int) {
	t := r.t
	t.Helper()
	s, ok := r.steps[name]
	if !ok || s.Run == "" || s.Shell != "bash" {
		t.Fatalf("action.yml has no bash run step %q", name)
	}
	script := filepath.Join(r.temp, "step.sh")
	output, pathFile := filepath.Join(r.temp, "output"), filepath.Join(r.temp, "path")
	for _, f := range []string{output, pathFile} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(script, []byte(r.expand(s.Run)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = filepath.Join(r.workspace, r.expand(s.WorkingDirectory))
	cmd.Env = append(slices.Clone(r.env),
		"PATH="+strings.Join(append(slices.Clone(r.path), langPath()), string(os.PathListSeparator)),
		"RUNNER_TEMP="+r.temp, "GITHUB_OUTPUT="+output, "GITHUB_PATH="+pathFile,
		"GITHUB_ACTION_PATH="+moduleRoot, "GITHUB_WORKSPACE="+r.workspace, "GITHUB_BASE_REF=")
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+r.expand(v))
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("step %q: %v", name, err)
	}
	if s.ID != "" {
		r.outputs[s.ID] = map[string]string{}
		for _, line := range strings.Split(mustRead(t, output), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				r.outputs[s.ID][k] = v
			}
		}
	}
	for _, dir := range strings.Fields(mustRead(t, pathFile)) {
		r.path = append([]string{dir}, r.path...)
	}
	return string(out), code
}

// TestActionSteps runs action.yml's build, servers, diagnose and fail
// steps on a repository with an error in a JSON file and in a Go file (with
// gopls on PATH, the servers step finds nothing to install): SARIF with
// both, the category lsp-hook (lsp-hook/KofN for shard K of N, the shards
// covering both files between them), annotations with format github, and
// the run failed on findings unless fail-on-findings is false.
func TestActionSteps(t *testing.T) {
	e2e(t)
	w := newWorkspaceOf(t, "langs/go", "", nil)
	w.writeFile("main.go", "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\t_ = n\n}\n")
	w.writeFile("data.json", "{\"a\": 1,}\n")

	r := newActionRunner(t, w.root, nil)
	if out, code := r.run("Build lsp-hook"); code != 0 || !strings.Contains(out, "lsp-hook v0.0.0-action-test") {
		t.Fatalf("build step: exit %d\n%s", code, out)
	}
	path := r.path                                    // the built lsp-hook, for the runs below
	if _, err := exec.LookPath("gopls"); err == nil { // .tools/bin is on PATH: nothing to install
		if out, code := r.run("Install language servers"); code != 0 || !strings.Contains(out, "no language server to install") {
			t.Errorf("servers step with gopls on PATH: exit %d\n%s", code, out)
		}
	}

	sarifFiles := func(r *actionRunner) []string {
		t.Helper()
		o := r.outputs["diagnose"]
		var log struct {
			Runs []struct {
				AutomationDetails struct {
					ID string `json:"id"`
				} `json:"automationDetails"`
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(mustRead(t, o["sarif-file"])), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("sarif-file %q: %v (%d runs)", o["sarif-file"], err, len(log.Runs))
		}
		var files []string
		for _, res := range log.Runs[0].Results {
			for _, l := range res.Locations {
				files = append(files, l.PhysicalLocation.ArtifactLocation.URI)
			}
		}
		return files
	}

	out, _ := r.run("Run lsp-hook diagnose")
	if o := r.outputs["diagnose"]; o["exit-code"] != "1" || o["category"] != "lsp-hook" {
		t.Fatalf("diagnose step: outputs %v; want exit-code 1, category lsp-hook\n%s", o, out)
	}
	if files := sarifFiles(r); !slices.Contains(files, "data.json") || !slices.Contains(files, "main.go") {
		t.Errorf("SARIF results in %v; want data.json and main.go", files)
	}
	if _, code := r.run("Fail on findings"); code != 1 {
		t.Errorf("fail step after findings: exit %d, want 1", code)
	}
	r.inputs["fail-on-findings"] = "false"
	if _, code := r.run("Fail on findings"); code != 0 {
		t.Errorf("fail step with fail-on-findings false: exit %d, want 0", code)
	}

	var sharded []string
	for _, k := range []string{"1", "2"} {
		r := newActionRunner(t, w.root, map[string]string{"shard": k, "shards": "2"})
		r.path = path
		out, _ := r.run("Run lsp-hook diagnose")
		o := r.outputs["diagnose"]
		if o["category"] != "lsp-hook/"+k+"of2" || !strings.HasSuffix(o["sarif-file"], k+"of2.sarif") || !strings.Contains(out, "--shard "+k+"/2") {
			t.Errorf("shard %s/2: outputs %v\n%s", k, o, out)
		}
		sharded = append(sharded, sarifFiles(r)...)
	}
	if slices.Sort(sharded); !slices.Equal(slices.Compact(sharded), []string{"data.json", "main.go"}) {
		t.Errorf("the shards' SARIF results are in %v; want data.json and main.go between them", sharded)
	}

	r = newActionRunner(t, w.root, map[string]string{"format": "github", "paths": "*.json"})
	r.path = path
	out, _ = r.run("Run lsp-hook diagnose")
	if o := r.outputs["diagnose"]; o["exit-code"] != "1" || o["sarif-file"] != "" ||
		!strings.Contains(out, "::error file=data.json,") || strings.Contains(out, "main.go") {
		t.Errorf("format github, paths *.json: outputs %v; want data.json's annotation only\n%s", o, out)
	}
}
