#!/usr/bin/env bash
# demo.sh replays recorded Claude Code PostToolUse events against a copy of
# testdata/demo, running `lsp-hook hook claude` exactly as Claude Code does
# (event JSON on stdin, working directory = the workspace), and prints what
# the model would be shown after each tool call.
#
#   LSP_HOOK_BIN=bin/lsp-hook scripts/demo.sh   # as `make demo` runs it
#   scripts/demo.sh                             # builds lsp-hook into a temp dir
#
# The events and their format are described in testdata/demo-events/README.md.
# gopls is looked up on PATH, with ./.tools/bin (`make tools`) put first.
# Everything runs in temp dirs (workspace, socket dir) that are removed at
# the end, together with the daemon and its language servers.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
events=$repo/testdata/demo-events
export PATH="$repo/.tools/bin:$PATH"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lsp-hook-demo.XXXXXX")
tmp=$(cd "$tmp" && pwd -P) # the daemon names files by their real path
ws=$tmp/demo
# A short private socket dir: Unix socket paths are limited to 108 bytes.
XDG_RUNTIME_DIR=$(mktemp -d /tmp/lhdemo.XXXX)
export XDG_RUNTIME_DIR
unset LSP_HOOK_SOCKET

bin=${LSP_HOOK_BIN:-}
stopped=
cleanup() {
	if [ -z "$stopped" ] && [ -n "$bin" ] && [ -d "$ws" ]; then
		(cd "$ws" && "$bin" stop >/dev/null 2>&1) || true
	fi
	rm -rf "$tmp" "$XDG_RUNTIME_DIR"
}
trap cleanup EXIT

if [ -z "$bin" ]; then
	echo "building lsp-hook..."
	(cd "$repo" && go build -o "$tmp/bin/lsp-hook" ./cmd/lsp-hook)
	bin=$tmp/bin/lsp-hook
fi
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac
[ -x "$bin" ] || { echo "demo: $bin is not an executable" >&2; exit 2; }
command -v gopls >/dev/null || echo "demo: gopls not found (run 'make tools'); Go files will not be checked" >&2

cp -R "$repo/testdata/demo" "$ws"
git -C "$ws" init -q # a repository of its own: its top level is the workspace root

# {{ROOT}} in the events becomes the workspace path, escaped for sed.
root_sed=$(printf '%s' "$ws" | sed 's/[\\|&]/\\&/g')

# show prints the additionalContext of the hook's answer (with jq, else
# python3, else the raw JSON), or says that the hook printed nothing.
show() {
	local out=$1
	if [ -z "$out" ]; then
		echo "(no output: the hook printed nothing, so the model sees no diagnostics)"
	elif command -v jq >/dev/null; then
		printf '%s' "$out" | jq -r '.hookSpecificOutput.additionalContext' 2>/dev/null || printf '%s\n' "$out"
	elif command -v python3 >/dev/null; then
		printf '%s' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["hookSpecificOutput"]["additionalContext"])' 2>/dev/null ||
			printf '%s\n' "$out"
	else
		printf '%s\n' "$out"
	fi
}

# now_us prints the time in microseconds, or nothing where bash is too old
# to tell (EPOCHREALTIME is bash 5).
now_us() {
	local t=${EPOCHREALTIME:-}
	printf '%s' "${t//[.,]/}"
}

# running reports whether pid is a live process (a zombie waiting for init
# to reap it is not).
running() {
	local state
	if state=$(ps -o stat= -p "$1" 2>/dev/null); then
		case $state in Z*) return 1 ;; esac
		return 0
	fi
	command -v ps >/dev/null && return 1
	kill -0 "$1" 2>/dev/null
}

echo "workspace: $ws"
echo "lsp-hook:  $bin ($("$bin" version))"
echo
while IFS=$'\t' read -r name header; do
	case $name in '' | '#'*) continue ;; esac
	# What the tool wrote: Claude Code changes the file before the hook runs.
	if [ -d "$events/$name.after" ]; then
		cp -R "$events/$name.after/." "$ws/"
	fi
	echo "== ${name%%-*} $header"
	start=$(now_us)
	out=$(cd "$ws" && sed "s|{{ROOT}}|$root_sed|g" "$events/$name.json" | "$bin" hook claude)
	end=$(now_us)
	show "$out"
	if [ -n "$start" ] && [ -n "$end" ]; then
		echo "-- hook took $(((end - start) / 1000)) ms"
	fi
	echo
done <"$events/events.tsv"

echo "== lsp-hook status"
(cd "$ws" && "$bin" status)
echo
echo "== lsp-hook stop"
stop=$(cd "$ws" && "$bin" stop)
stopped=1
echo "$stop"
# stop returns once the daemon has agreed to go; wait until it and its
# language servers are gone, so nothing outlives the demo.
pid=$(printf '%s\n' "$stop" | sed -n 's/^stopped daemon pid \([0-9][0-9]*\).*/\1/p')
for _ in $(seq 50); do
	[ -n "$pid" ] && running "$pid" || break
	sleep 0.1
done
if [ -n "$pid" ] && running "$pid"; then
	echo "demo: daemon $pid still running 5s after stop" >&2
	exit 1
fi
