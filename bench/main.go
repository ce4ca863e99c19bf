// Command bench measures lsp-hook against baselines taken in the same run
// (DESIGN.md "What is measured") and prints one table of medians, p90s and
// ratios:
//
//  1. the hook round trip for an Edit of a JSON file with a syntax error,
//     daemon warm, against `lsp-hook version` (a bare process start);
//  2. a warm Go edit → lint block through the hook, against `go build ./...`
//     and `gopls check FILE` after the same edit, on a small demo module and
//     on a copy of a real module of at least 10,000 lines;
//  3. the resident memory of the daemon and of its gopls.
//
// Machines are noisy, so the claims are ratios between measurements taken
// interleaved in one run, not absolute times. Everything runs in a private
// temporary tree (with its own $XDG_RUNTIME_DIR, so the daemons are the
// bench's own); the daemons are stopped and the tree removed at the end,
// on error and on Ctrl-C too.
//
// Usage (from the module root; gopls must be on PATH):
//
//	go run ./bench -bin bin/lsp-hook
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// main runs the bench until done or interrupted; Ctrl-C still stops the
// daemons and removes the temporary tree.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the command-line flags of one bench run.
type options struct {
	bin      string        // lsp-hook binary, absolute
	demo     string        // demo module to copy; a small one is generated when it does not exist
	module   string        // module path, in this module's requirements, copied as the large workspace
	jsonN    int           // timed iterations of the JSON round trip and of its baseline
	goN      int           // timed Go edits per workspace, after the untimed first touch
	cooldown time.Duration // pause between measurements, so one's background work is not billed to the next
	keep     bool          // keep the temporary tree, for debugging
}

// parseOptions reads the flags; -bin is required.
func parseOptions(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "", "lsp-hook binary to measure (required)")
	fs.StringVar(&o.demo, "demo", "testdata/demo", "demo module to copy (generated when missing)")
	fs.StringVar(&o.module, "module", "gopkg.in/yaml.v3", "module from this module's requirements to copy as the large workspace (≥ 10k lines)")
	fs.IntVar(&o.jsonN, "json-n", 30, "timed iterations of the JSON round trip and of `lsp-hook version`")
	fs.IntVar(&o.goN, "go-n", 20, "timed Go edits per workspace, after the first touch")
	fs.DurationVar(&o.cooldown, "cooldown", 250*time.Millisecond, "pause between Go measurements")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary tree (daemons are still stopped)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.bin == "" {
		return o, errors.New("-bin is required: the lsp-hook binary to measure")
	}
	if o.jsonN < 1 || o.goN < 1 {
		return o, errors.New("-json-n and -go-n must be at least 1")
	}
	abs, err := filepath.Abs(o.bin)
	if err != nil {
		return o, fmt.Errorf("resolving -bin: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
		return o, fmt.Errorf("-bin %s: not a file (build it first: go build -o bin/lsp-hook ./cmd/lsp-hook)", o.bin)
	}
	o.bin = abs
	return o, nil
}

// run is the whole bench: set up, measure, stop the daemons, print the
// report (also the part measured before an error), clean up.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	opts, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	b, err := newBench(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := b.close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	rep := &report{machine: b.machine}
	err = measureAll(ctx, b, rep)
	rep.cleanup = b.stopDaemons()
	if err != nil {
		rep.failure = err.Error()
	}
	rep.write(stdout)
	return err
}

// measureAll runs the three parts in order, filling rep as it goes so that
// a failure still leaves what was measured before it.
func measureAll(ctx context.Context, b *bench, rep *report) error {
	demo, err := b.demoWorkspace(ctx)
	if err != nil {
		return fmt.Errorf("preparing the demo workspace: %w", err)
	}
	big, err := b.moduleWorkspace(ctx)
	if err != nil {
		return fmt.Errorf("preparing the large workspace: %w", err)
	}
	b.progressf("1. JSON hook round trip on %s (%d + %d runs)", demo.name, b.opts.jsonN, b.opts.jsonN)
	js, err := b.jsonRoundTrip(ctx, demo)
	if err != nil {
		return fmt.Errorf("JSON round trip: %w", err)
	}
	rep.json = &js
	for _, ws := range []*workspace{demo, big} {
		b.progressf("2. Go edits on %s (1 + %d runs)", ws.name, b.opts.goN)
		g, err := b.goEdits(ctx, ws)
		if len(g.hook.s) > 0 || err == nil { // a partial run is still worth printing
			rep.goRuns = append(rep.goRuns, g)
		}
		if err != nil {
			return fmt.Errorf("Go edits on %s: %w", ws.name, err)
		}
	}
	b.progressf("3. memory")
	rep.memory, err = b.memory(ctx, []*workspace{demo, big})
	return err
}
