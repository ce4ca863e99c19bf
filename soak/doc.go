// Package soak is lsp-hook's compiler-judged soak: the truth measure of
// DESIGN.md ("What is measured"). Its only content is the test TestSoak
// (soak_test.go and the helper files beside it), which builds the real
// binary and drives `lsp-hook hook claude` from outside, as Claude Code
// does (and `lsp-hook hook codex` for the moves made with Codex's
// apply_patch), through a SessionStart (the daemon prewarms) and then at
// once a seeded random schedule of agent moves over four
// projects: a copy of golang.org/x/sync from the module cache, and
// generated Python, TypeScript and C projects. After every hook it asks
// the compiler (go test -run ^$, pyright, tsc, clang -fsyntax-only) for
// the errors on disk and classifies the answer: correct, stale line,
// false clean, missed line, missed cross-file error, ghost, or a note (a
// note excuses only the missing errors it owns up to: lint_test.go,
// answer.excuses). After a step the agent may end its turn: the Stop
// hook's answer is judged too (a turn left with errors in committed files
// allowed in silence, a clean turn blocked, a named line the compiler
// does not report, a file with errors left out: stop_test.go).
//
//	go test ./soak                          # short form, a random seed
//	SOAK_SEED=42 go test ./soak             # reproduce a run
//	SOAK_CALLS=1000 go test -timeout 60m ./soak   # long form (make soak)
//
// SOAK_LANGS and SOAK_SCENARIOS narrow a run to some languages and
// scenarios; SOAK_SCHEDULE replaces odds of its schedule (schedule.with:
// SOAK_SCHEDULE=race=1,restart=0.7 plays a race of two hooks of one file
// on every content move, and a new session before most scenarios), so a
// timing a long run meets a few times is played on demand; SOAK_LOGDIR
// with SOAK_LOG_LEVEL=debug keeps each language's daemon log.
//
// The package imports nothing of lsp-hook: it sees the binary as an agent
// does, through stdin, stdout and the files on disk.
package soak
