#!/usr/bin/env node
// The lsp-hook npm package's launcher. The binary itself comes in one
// optional dependency per platform (@lsp-hook/linux-x64, …), each with
// "os" and "cpu" fields so npm installs only the one that fits, as esbuild
// and Biome ship theirs. This finds that package's binary and runs it with
// the arguments, stdin, stdout and stderr of this process, and exits as it
// exits. LSP_HOOK_BINARY names another binary to run instead.
//
// Under npx (npm exec: npm_command=exec), npm puts the node_modules/.bin
// of its cache (~/.npm/_npx/<hash>) first on PATH for that one run; the
// launcher takes those entries out of the binary's PATH, so that
// `npx lsp-hook install claude` writes the binary's own path (which stays
// in npm's cache) into the agent's config instead of a bare `lsp-hook`
// that is not on PATH when the agent later runs the hook. An lsp-hook
// installed on PATH (npm install -g) still wins.
// Generated into the package by tools/npmpack; PLATFORMS is filled in there.
"use strict";

const { spawnSync } = require("child_process");
const path = require("path");

// "<process.platform> <process.arch>" to the package carrying the binary.
const PLATFORMS = __PLATFORMS__;

function binaryPath() {
  if (process.env.LSP_HOOK_BINARY) {
    return process.env.LSP_HOOK_BINARY;
  }
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    throw new Error(
      `no lsp-hook binary is published for ${key} (there are: ${Object.keys(PLATFORMS).join(", ")}); ` +
        "build it with: go install github.com/lsp-hook/lsp-hook/cmd/lsp-hook@latest",
    );
  }
  try {
    return require.resolve(`${pkg}/bin/lsp-hook`);
  } catch (err) {
    throw new Error(
      `the package ${pkg}, which carries lsp-hook for ${key}, is not installed: ` +
        "reinstall lsp-hook without --omit=optional or --no-optional",
    );
  }
}

// childEnv is this process's environment for the binary: PATH without
// npx's cache directories when npm exec runs the launcher.
function childEnv() {
  const env = { ...process.env };
  if (env.npm_command !== "exec") {
    return env;
  }
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH") || "PATH";
  env[key] = (env[key] || "")
    .split(path.delimiter)
    .filter((dir) => !dir.split(/[\\/]/).includes("_npx"))
    .join(path.delimiter);
  return env;
}

function main() {
  let bin;
  try {
    bin = binaryPath();
  } catch (err) {
    process.stderr.write(`lsp-hook: ${err.message}\n`);
    return 2;
  }
  const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", env: childEnv() });
  if (r.error) {
    process.stderr.write(`lsp-hook: running ${bin}: ${r.error.message}\n`);
    return 2;
  }
  if (r.signal) {
    process.kill(process.pid, r.signal);
    return 1;
  }
  return r.status;
}

process.exitCode = main();
