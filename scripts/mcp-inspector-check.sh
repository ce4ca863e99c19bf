#!/bin/sh
# mcp-inspector-check.sh BIN — an external check of `lsp-hook mcp` with the
# MCP Inspector's CLI mode (https://github.com/modelcontextprotocol/inspector):
# it starts `BIN mcp` in a fresh git workspace, lists the tools over stdio
# and fails unless all thirteen tools are there. Run by `make test`;
# without npx it prints "skipped: npx not found" and succeeds.
#
# The inspector is pinned (INSPECTOR_VERSION in the environment overrides
# it). 2.12.0 is the newest release, and its CLI mode runs on Node 20
# (checked on 20.20.2, as were 1.0.3 and 0.21.2), although from 0.16.0 on
# the package declares engines node >= 22 (npm warns EBADENGINE; with
# engine-strict set, use 0.15.0, the newest that declares Node 20).
set -eu

INSPECTOR_VERSION=${INSPECTOR_VERSION:-2.12.0}
TOOLS="lsp_goto_definition lsp_find_references lsp_hover lsp_document_symbols lsp_workspace_symbols lsp_diagnostics
lsp_type_definition lsp_implementation lsp_incoming_calls lsp_outgoing_calls lsp_rename lsp_code_actions lsp_check_edit"

if ! command -v npx >/dev/null 2>&1; then
	echo "skipped: npx not found"
	exit 0
fi
bin=${1:-bin/lsp-hook}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "mcp-inspector-check: $bin is not an executable (make build)" >&2; exit 1; }

tmp=$(mktemp -d)
# A short runtime directory: the daemon's socket path must fit sun_path.
run=$(mktemp -d /tmp/lhi.XXXXXX)
ws=$tmp/ws
cleanup() {
	XDG_RUNTIME_DIR=$run "$bin" stop --root "$ws" >/dev/null 2>&1 || true
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
mkdir -p "$ws"
git -C "$ws" init -q
printf 'module example.com/ws\n\ngo 1.22\n' >"$ws/go.mod"

out=$tmp/out
status=0
(cd "$ws" && XDG_RUNTIME_DIR=$run timeout 300 npx -y "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" \
	--cli "$bin" mcp --method tools/list) >"$out" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
	echo "mcp-inspector-check: the inspector exited with $status:" >&2
	cat "$out" >&2
	exit 1
fi
missing=
for t in $TOOLS; do
	grep -q "\"$t\"" "$out" || missing="$missing $t"
done
if [ -n "$missing" ]; then
	echo "mcp-inspector-check: tools/list lacks:$missing" >&2
	cat "$out" >&2
	exit 1
fi
echo "mcp-inspector-check: inspector $INSPECTOR_VERSION lists all thirteen tools ($(grep -c '"name"' "$out") names in the answer)"
