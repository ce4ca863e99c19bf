// Command npmpack turns goreleaser's dist/ into lsp-hook's npm packages,
// which goreleaser OSS does not make. As esbuild and Biome ship theirs:
//
//   - one package per platform, @lsp-hook/<os>-<cpu> (linux-x64,
//     darwin-arm64, …), whose package.json has "os" and "cpu" fields so npm
//     installs only the one that fits, carrying bin/lsp-hook;
//   - the package lsp-hook, whose optionalDependencies are all of those at
//     the same version and whose bin is a small launcher (lsp-hook.js,
//     embedded here) that finds the installed one and runs it.
//
// It reads dist/metadata.json (the version) and dist/artifacts.json (the
// Binary artifacts: path, goos, goarch), and writes each package to
// OUT/<name>/ and as an `npm pack` style tarball OUT/<name>-<version>.tgz
// (scoped names as npm pack writes them, "lsp-hook-linux-x64-…"),
// ready for `npm publish OUT/<tarball>` (platform packages first). Run by
// `make release-snapshot` after goreleaser:
//
//	go run ./tools/npmpack -dist dist -out dist/npm
//
// It imports nothing of lsp-hook.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

// main runs npmpack and exits 1 on an error.
func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
}

// run parses the command line and writes the packages, naming each
// tarball on stdout.
func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("npmpack", flag.ContinueOnError)
	dist := fs.String("dist", "dist", "goreleaser's dist `DIR`")
	root := fs.String("root", ".", "the `DIR` goreleaser ran in, which artifacts.json's paths are relative to")
	out := fs.String("out", "dist/npm", "`DIR` to write the packages to (replaced)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rel, err := readRelease(*dist, *root)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(*out); err != nil {
		return fmt.Errorf("clearing %s: %w", *out, err)
	}
	tarballs, err := writePackages(rel, *out)
	if err != nil {
		return err
	}
	for _, t := range tarballs {
		fmt.Fprintln(stdout, t)
	}
	return nil
}
