// Package workspace owns what lsp-hook knows about a workspace's files as
// paths: which directory is the workspace root (Find, Root), whether a
// path lies inside it (Inside, Contains), a path made safe to read
// against it (Resolve: symlinks followed, "..", ErrOutside), the
// root-relative slash path shown to users and servers (Rel, Display), and
// the one listing of its files with one set of ignore rules (Files; and
// Changed, the files git reports as changed; Fixture, the test fixtures a
// CI run passes over). It also selects the files `lsp-hook diagnose`
// checks (CollectFiles: arguments, --changed, --shard; ParseShard).
//
// Paths are native (filepath): absolute and clean unless a function says
// otherwise; relative results use "/" on every platform. File URIs are
// internal/fileuri's. The package imports no lsp-hook package except
// internal/* leaf packages (safefile), so that every layer (engine,
// sidecar, mcp, lsp, diag) can use it.
package workspace
