package config

// This file holds the catalogue entries beyond the five Catalogue's doc
// comment measures: one function per family, each documenting where its
// facts come from. Commands, arguments and installs are each server's own
// (README, docs site or package page); where a fact comes only from a
// widely used client configuration (nvim-lspconfig's lsp/*.lua), it says so.

// Every entry gets maps and slices of its own: config loading fills in a
// server's LanguageIDs in place, which must not reach another server.

// jsFamily returns the JavaScript and TypeScript extensions with the
// language ids typescript-language-server's entry sends them under.
func jsFamily() map[string]string {
	return map[string]string{
		".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescriptreact",
		".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascriptreact",
	}
}

// moreServers returns the catalogue entries of catalogue_langs.go.
func moreServers() []Server {
	var out []Server
	for _, family := range [][]Server{pythonAlternatives(), jvmServers(), scriptingServers(),
		compiledServers(), webServers(), dataServers(), lintServers()} {
		out = append(out, family...)
	}
	return out
}

// pythonAlternatives are Python servers besides pyright, off by default
// (pyright serves .py and .pyi):
//
//   - basedpyright: `basedpyright-langserver --stdio`, a bin of the
//     basedpyright npm package (its package.json; the package also ships
//     a pyright-langserver bin, which is why lsp-hook links only the
//     program a server needs). Root markers as pyright's: it reads
//     pyrightconfig.json and pyproject.toml alike. OpenDependents as
//     pyright's: a fork of it that keeps its diagnosticMode setting and
//     its "openFilesOnly" default; ClosesGoneAcross as pyright's, whose
//     library watcher and debounce it keeps; neither measured (not
//     installed where the tests run).
//   - ruff: `ruff server`, ruff's built-in server (docs.astral.sh/ruff/
//     editors; stable since ruff 0.5.3); lint diagnostics only, no types.
//     Installed with pip, pipx or uv, not from npm. Root markers are
//     ruff's config files (docs.astral.sh/ruff/configuration).
//   - pylsp: `pylsp`, python-lsp-server (its README); Debian packages it
//     as python3-pylsp (bookworm: 1.7.1).
func pythonAlternatives() []Server {
	py := func() map[string]string { return map[string]string{".py": "python", ".pyi": "python"} }
	pyRoots := func() []string {
		return []string{"pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"}
	}
	return []Server{
		{Name: "basedpyright", Command: []string{"basedpyright-langserver", "--stdio"},
			Extensions: []string{".py", ".pyi"}, LanguageIDs: py(), RootMarkers: pyRoots(), OpenDependents: true,
			ClosesGoneAcross: true,
			Install:          Install{Method: InstallNPM, Packages: []string{"basedpyright@1.40.1"}, Binary: "basedpyright-langserver"}},
		{Name: "ruff", Command: []string{"ruff", "server"},
			Extensions: []string{".py", ".pyi"}, LanguageIDs: py(), RootMarkers: []string{"pyproject.toml", "ruff.toml", ".ruff.toml"},
			Install: Install{Method: InstallSystem, Binary: "ruff", Hint: "pipx install ruff (or: uv tool install ruff)"}},
		{Name: "pylsp", Command: []string{"pylsp"},
			Extensions: []string{".py", ".pyi"}, LanguageIDs: py(), RootMarkers: pyRoots()[1:],
			Install: Install{Method: InstallApt, Packages: []string{"python3-pylsp"}, Binary: "pylsp"}},
	}
}

// jvmServers are Java, Kotlin and C#:
//
//   - jdtls: `jdtls`, the launcher script in bin/ of an Eclipse JDT LS
//     milestone build (download.eclipse.org/jdtls/milestones); the script
//     needs Python 3.9 (argparse.BooleanOptionalAction), current builds
//     Java 21. Without -data the script keeps its workspace in
//     $TMPDIR/jdtls-<sha1 of the directory name> (scripts/jdtls.py), out
//     of the project. Root markers: the Gradle settings file of a
//     multi-project build first, then the build files.
//   - kotlin-language-server: `kotlin-language-server`, bin/ of the
//     server.zip release (fwcd/kotlin-language-server README); language
//     id kotlin, which LSP 3.17's table does not list (the Kotlin VS Code
//     extension's). Root markers: Gradle settings, Maven and Gradle
//     builds (nvim-lspconfig's list).
//   - csharp-ls: `csharp-ls`, the Roslyn-based server, a dotnet tool
//     (razzmatazz/csharp-language-server README: `dotnet tool install
//     --global csharp-ls`, .NET 10 SDK). Chosen over OmniSharp because it
//     is one dotnet tool with no runtime download or per-platform archive.
//     It loads the solution it finds in its root itself, and solution files
//     have no fixed name, so the root markers are the files that sit at a
//     .NET repository's top (global.json, Directory.Build.props), else the
//     workspace.
func jvmServers() []Server {
	gradleMaven := func() []string {
		return []string{"settings.gradle", "settings.gradle.kts", "pom.xml", "build.gradle", "build.gradle.kts"}
	}
	return []Server{
		{Name: "jdtls", Command: []string{"jdtls"}, Enabled: true,
			Extensions: []string{".java"}, LanguageIDs: map[string]string{".java": "java"},
			RootMarkers: append(gradleMaven(), "build.xml"),
			Install: Install{Method: InstallSystem, Binary: "jdtls",
				Hint: "download a build from https://download.eclipse.org/jdtls/milestones/ and put its bin/ on PATH (needs Java 21 and Python 3.9)"}},
		{Name: "kotlin-language-server", Command: []string{"kotlin-language-server"}, Enabled: true,
			Extensions: []string{".kt", ".kts"}, LanguageIDs: map[string]string{".kt": "kotlin", ".kts": "kotlin"},
			RootMarkers: gradleMaven(),
			Install: Install{Method: InstallSystem, Binary: "kotlin-language-server",
				Hint: "unzip server.zip from https://github.com/fwcd/kotlin-language-server/releases and put server/bin on PATH"}},
		{Name: "csharp-ls", Command: []string{"csharp-ls"}, Enabled: true,
			Extensions: []string{".cs"}, LanguageIDs: map[string]string{".cs": "csharp"},
			RootMarkers: []string{"global.json", "Directory.Build.props"},
			Install:     Install{Method: InstallSystem, Binary: "csharp-ls", Hint: "dotnet tool install --global csharp-ls"}},
	}
}

// scriptingServers are Ruby, PHP, Lua, Elixir and shell:
//
//   - ruby-lsp: `ruby-lsp` (shopify.github.io/ruby-lsp: `gem install
//     ruby-lsp`); root Gemfile. Gemfile and Rakefile are Ruby by name.
//   - intelephense: `intelephense --stdio`, from npm (intelephense.com;
//     bmewburn/intelephense-docs installation.md); the free features
//     include diagnostics. Root composer.json.
//   - lua-language-server: `lua-language-server` from the LuaLS release
//     archives (luals.github.io, "Install"); root markers are its own
//     config (.luarc.json, .luarc.jsonc) and the usual Lua tool configs.
//   - elixir-ls: the release zip's launcher is language_server.sh
//     (elixir-lsp/elixir-ls README, "Installation"); Homebrew and Nix
//     install it as `elixir-ls`, the name used here. Root mix.exs: an
//     umbrella app's children each get their own server.
//   - bash-language-server: `bash-language-server start`, from npm (its
//     README). Off by default: its diagnostics are shellcheck's, which
//     lsp-hook's built-in shellcheck linter already runs. Language id
//     shellscript; no project root of its own, so one per repository.
func scriptingServers() []Server {
	return []Server{
		{Name: "ruby-lsp", Command: []string{"ruby-lsp"}, Enabled: true,
			Extensions: []string{".rb", ".rake", ".gemspec", ".ru"}, FileNames: []string{"Gemfile", "Rakefile"},
			LanguageIDs: map[string]string{".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".ru": "ruby",
				"Gemfile": "ruby", "Rakefile": "ruby"},
			RootMarkers: []string{"Gemfile"},
			Install:     Install{Method: InstallSystem, Binary: "ruby-lsp", Hint: "gem install ruby-lsp"}},
		{Name: "intelephense", Command: []string{"intelephense", "--stdio"}, Enabled: true,
			Extensions: []string{".php"}, LanguageIDs: map[string]string{".php": "php"},
			RootMarkers: []string{"composer.json"},
			Install:     Install{Method: InstallNPM, Packages: []string{"intelephense@1.18.5"}, Binary: "intelephense"}},
		{Name: "lua-language-server", Command: []string{"lua-language-server"}, Enabled: true,
			Extensions: []string{".lua"}, LanguageIDs: map[string]string{".lua": "lua"},
			RootMarkers: []string{".luarc.json", ".luarc.jsonc", ".luacheckrc", ".stylua.toml", "stylua.toml", "selene.toml"},
			GivesWay:    rojoMarkers, // a Rojo project's .lua is Luau: luau-lsp's
			Install: Install{Method: InstallSystem, Binary: "lua-language-server",
				Hint: "download a release from https://github.com/LuaLS/lua-language-server/releases and put its bin/ on PATH"}},
		// luau-lsp (Roblox's Luau): .luau anywhere, .lua in a Rojo project.
		// It resolves requires through sourcemap.json, which `rojo
		// sourcemap --watch` keeps fresh: set it as the server's watch
		// companion (config watch:, or imported from opencode's
		// luau-lsp.sourcemap.autogenerate), and luau-lsp's registered
		// watcher for sourcemap.json tells it of each rewrite.
		{Name: "luau-lsp", Command: []string{"luau-lsp", "lsp"}, Enabled: true,
			Extensions: []string{".lua", ".luau"}, LanguageIDs: map[string]string{".lua": "luau", ".luau": "luau"},
			RootMarkers: rojoMarkers, RootRequired: true,
			Install: Install{Method: InstallSystem, Binary: "luau-lsp",
				Hint: "download a release from https://github.com/JohnnyMorganz/luau-lsp/releases and put luau-lsp on PATH; rojo (https://rojo.space) for sourcemap.json"}},
		{Name: "elixir-ls", Command: []string{"elixir-ls"}, Enabled: true,
			Extensions: []string{".ex", ".exs"}, LanguageIDs: map[string]string{".ex": "elixir", ".exs": "elixir"},
			RootMarkers: []string{"mix.exs"},
			Install: Install{Method: InstallSystem, Binary: "elixir-ls",
				Hint: "brew install elixir-ls, or unzip a release from https://github.com/elixir-lsp/elixir-ls/releases and link its language_server.sh onto PATH as elixir-ls"}},
		{Name: "bash-language-server", Command: []string{"bash-language-server", "start"},
			Extensions:  []string{".sh", ".bash"},
			LanguageIDs: map[string]string{".sh": "shellscript", ".bash": "shellscript"},
			RootMarkers: []string{".git"},
			Install:     Install{Method: InstallNPM, Packages: []string{"bash-language-server@5.8.1"}, Binary: "bash-language-server"}},
	}
}

// compiledServers are Zig, Swift, Haskell, OCaml and Dart, each from its
// toolchain:
//
//   - zls: `zls` (zigtools/zls README); a zls release must match the Zig
//     release it serves, so it is not pinned here. Root markers zls.json,
//     build.zig. Language id zig (the Zig VS Code extension's).
//   - sourcekit-lsp: ships with the Swift toolchain (swiftlang/sourcekit-lsp
//     README). Swift files only here: clangd serves C and Objective-C.
//     Root markers buildServer.json, then Package.swift.
//   - haskell-language-server: `haskell-language-server-wrapper --lsp`,
//     the wrapper that picks the server binary built for the project's
//     GHC (haskell-language-server docs, "Configuring your editor";
//     installed with `ghcup install hls`). Language id haskell.
//   - ocamllsp: `ocamllsp` (ocaml/ocaml-lsp README: `opam install
//     ocaml-lsp-server` in each switch). Language ids ocaml and, for
//     interfaces, ocaml.interface (ocaml-lsp's Document.Syntax); root
//     dune-workspace before dune-project.
//   - dart: `dart language-server`, the Dart SDK's analysis server
//     speaking LSP (dart.dev/tools/dart-tool; LSP is its default
//     protocol). Root pubspec.yaml.
func compiledServers() []Server {
	return []Server{
		{Name: "zls", Command: []string{"zls"}, Enabled: true,
			Extensions: []string{".zig"}, LanguageIDs: map[string]string{".zig": "zig"},
			RootMarkers: []string{"zls.json", "build.zig"},
			Install: Install{Method: InstallSystem, Binary: "zls",
				Hint: "download the zls release matching your Zig from https://github.com/zigtools/zls/releases"}},
		{Name: "sourcekit-lsp", Command: []string{"sourcekit-lsp"}, Enabled: true,
			Extensions: []string{".swift"}, LanguageIDs: map[string]string{".swift": "swift"},
			RootMarkers: []string{"buildServer.json", "Package.swift"},
			Install: Install{Method: InstallSystem, Binary: "sourcekit-lsp",
				Hint: "install the Swift toolchain (https://www.swift.org/install), which includes sourcekit-lsp"}},
		{Name: "haskell-language-server", Command: []string{"haskell-language-server-wrapper", "--lsp"}, Enabled: true,
			Extensions: []string{".hs"}, LanguageIDs: map[string]string{".hs": "haskell"},
			RootMarkers: []string{"hie.yaml", "cabal.project", "stack.yaml", "package.yaml"},
			Install:     Install{Method: InstallSystem, Binary: "haskell-language-server-wrapper", Hint: "ghcup install hls"}},
		{Name: "ocamllsp", Command: []string{"ocamllsp"}, Enabled: true,
			Extensions: []string{".ml", ".mli"}, LanguageIDs: map[string]string{".ml": "ocaml", ".mli": "ocaml.interface"},
			RootMarkers: []string{"dune-workspace", "dune-project"},
			Install:     Install{Method: InstallSystem, Binary: "ocamllsp", Hint: "opam install ocaml-lsp-server"}},
		{Name: "dart", Command: []string{"dart", "language-server"}, Enabled: true,
			Extensions: []string{".dart"}, LanguageIDs: map[string]string{".dart": "dart"},
			RootMarkers: []string{"pubspec.yaml"},
			Install: Install{Method: InstallSystem, Binary: "dart",
				Hint: "install the Dart SDK (https://dart.dev/get-dart) or Flutter, which includes it"}},
	}
}

// webServers are CSS, HTML, Dockerfile, Terraform and the component
// frameworks:
//
//   - vscode-css-language-server and vscode-html-language-server
//     (`--stdio`): VS Code's own CSS and HTML servers, as published in
//     the vscode-langservers-extracted npm package (its README). They
//     take no project root, so one per repository. The CSS server
//     validates .css, .scss and .less (language ids css, scss, less) when
//     its settings say validate (VS Code's css.validate, on by default,
//     answered explicitly here). The HTML server reports errors in
//     embedded <style> and <script> when initializationOptions
//     embeddedLanguages lists css and javascript and its settings
//     (sections html, css, javascript; configurationSection) say validate.
//   - docker-langserver: `docker-langserver --stdio`, from the
//     dockerfile-language-server-nodejs npm package (its README). A
//     Dockerfile is known by name (Dockerfile, Containerfile), or by the
//     .dockerfile extension; language id dockerfile.
//   - terraform-ls: `terraform-ls serve` (hashicorp/terraform-ls README
//     and docs/USAGE.md); language ids terraform and terraform-vars
//     (docs/language-clients.md). A Go module: go install builds it with
//     the Go toolchain lsp-hook already needs (v0.39.0's go.mod asks for
//     Go 1.25.8; v0.39.1's for 1.26.8). Root: the .terraform directory
//     terraform init makes, else the repository.
//   - vue-language-server: @vue/language-server 2.2.8, `--stdio`. Version
//     3 always runs in "hybrid mode", where the Vue server forwards every
//     TypeScript question to a tsserver that the editor runs with
//     @vue/typescript-plugin (vuejs/language-tools v3.0.0 release notes,
//     "Hybrid Mode Always On"); lsp-hook has no such relay. Version 2 with
//     vue.hybridMode false checks a .vue file on its own, and needs
//     typescript.tsdk, the directory of the typescript.js it loads
//     (packages/language-server/index.ts throws without it). It is given
//     relative, node_modules/typescript/lib, which Node resolves from the
//     server's working directory, its root (the nearest package.json): a
//     Vue project with TypeScript among its dependencies works as is; one
//     without needs an absolute tsdk in config.
//   - svelte-language-server: `svelteserver --stdio`, from npm (sveltejs
//     language-tools packages/language-server README). Its typescript
//     peer dependency is pinned beside it (5.9.3, as for
//     typescript-language-server), or npm would pick TypeScript 6.
//   - astro-language-server: `astro-ls --stdio`, from
//     @astrojs/language-server (withastro/language-tools README). Like Vue's
//     it refuses to start without typescript.tsdk, given the same
//     relative value.
func webServers() []Server {
	return []Server{
		{Name: "vscode-css-language-server", Command: []string{"vscode-css-language-server", "--stdio"}, Enabled: true,
			Extensions:  []string{".css", ".scss", ".less"},
			LanguageIDs: map[string]string{".css": "css", ".scss": "scss", ".less": "less"},
			RootMarkers: []string{".git"},
			Settings: map[string]any{
				"css": map[string]any{"validate": true}, "scss": map[string]any{"validate": true}, "less": map[string]any{"validate": true},
			},
			Install: Install{Method: InstallNPM, Packages: []string{"vscode-langservers-extracted@4.10.0"}, Binary: "vscode-css-language-server"}},
		{Name: "vscode-html-language-server", Command: []string{"vscode-html-language-server", "--stdio"}, Enabled: true,
			Extensions: []string{".html", ".htm"}, LanguageIDs: map[string]string{".html": "html", ".htm": "html"},
			RootMarkers: []string{".git"},
			InitializationOptions: map[string]any{
				"embeddedLanguages":    map[string]any{"css": true, "javascript": true},
				"configurationSection": []any{"html", "css", "javascript"},
			},
			Settings: map[string]any{
				"html":       map[string]any{"validate": map[string]any{"scripts": true, "styles": true}},
				"css":        map[string]any{"validate": true},
				"javascript": map[string]any{"validate": map[string]any{"enable": true}},
			},
			Install: Install{Method: InstallNPM, Packages: []string{"vscode-langservers-extracted@4.10.0"}, Binary: "vscode-html-language-server"}},
		{Name: "docker-langserver", Command: []string{"docker-langserver", "--stdio"}, Enabled: true,
			Extensions: []string{".dockerfile"}, FileNames: []string{"Dockerfile", "Containerfile"},
			LanguageIDs: map[string]string{".dockerfile": "dockerfile", "Dockerfile": "dockerfile", "Containerfile": "dockerfile"},
			RootMarkers: []string{".git"},
			Install:     Install{Method: InstallNPM, Packages: []string{"dockerfile-language-server-nodejs@0.15.0"}, Binary: "docker-langserver"}},
		{Name: "terraform-ls", Command: []string{"terraform-ls", "serve"}, Enabled: true,
			Extensions: []string{".tf", ".tfvars"}, LanguageIDs: map[string]string{".tf": "terraform", ".tfvars": "terraform-vars"},
			RootMarkers: []string{".terraform", ".git"},
			Install:     Install{Method: InstallGo, Packages: []string{"github.com/hashicorp/terraform-ls@v0.39.0"}, Binary: "terraform-ls"}},
		{Name: "vue-language-server", Command: []string{"vue-language-server", "--stdio"}, Enabled: true,
			Extensions: []string{".vue"}, LanguageIDs: map[string]string{".vue": "vue"},
			RootMarkers: []string{"package.json"},
			InitializationOptions: map[string]any{
				"typescript": map[string]any{"tsdk": "node_modules/typescript/lib"},
				"vue":        map[string]any{"hybridMode": false},
			},
			Install: Install{Method: InstallNPM, Packages: []string{"@vue/language-server@2.2.8"}, Binary: "vue-language-server"}},
		{Name: "svelte-language-server", Command: []string{"svelteserver", "--stdio"}, Enabled: true,
			Extensions: []string{".svelte"}, LanguageIDs: map[string]string{".svelte": "svelte"},
			RootMarkers: []string{"package.json"},
			Install: Install{Method: InstallNPM, Binary: "svelteserver",
				Packages: []string{"svelte-language-server@0.18.4", "typescript@5.9.3"}}},
		{Name: "astro-language-server", Command: []string{"astro-ls", "--stdio"}, Enabled: true,
			Extensions: []string{".astro"}, LanguageIDs: map[string]string{".astro": "astro"},
			RootMarkers:           []string{"package.json"},
			InitializationOptions: map[string]any{"typescript": map[string]any{"tsdk": "node_modules/typescript/lib"}},
			Install:               Install{Method: InstallNPM, Packages: []string{"@astrojs/language-server@2.17.1"}, Binary: "astro-ls"}},
	}
}

// dataServers are JSON and YAML, off by default: lsp-hook's built-in
// validators check both already, in-process.
//
//   - vscode-json-language-server `--stdio` (vscode-langservers-extracted);
//     language ids json and jsonc (VS Code's "JSON with Comments").
//   - yaml-language-server `--stdio`, from npm (redhat-developer/
//     yaml-language-server README). Pinned to 1.25.0: 2.0.0 needs Node 22.
func dataServers() []Server {
	return []Server{
		{Name: "vscode-json-language-server", Command: []string{"vscode-json-language-server", "--stdio"},
			Extensions: []string{".json", ".jsonc"}, LanguageIDs: map[string]string{".json": "json", ".jsonc": "jsonc"},
			RootMarkers: []string{".git"},
			Settings:    map[string]any{"json": map[string]any{"validate": map[string]any{"enable": true}}},
			Install:     Install{Method: InstallNPM, Packages: []string{"vscode-langservers-extracted@4.10.0"}, Binary: "vscode-json-language-server"}},
		{Name: "yaml-language-server", Command: []string{"yaml-language-server", "--stdio"},
			Extensions: []string{".yaml", ".yml"}, LanguageIDs: map[string]string{".yaml": "yaml", ".yml": "yaml"},
			RootMarkers: []string{".git"},
			Install:     Install{Method: InstallNPM, Packages: []string{"yaml-language-server@1.25.0"}, Binary: "yaml-language-server"}},
	}
}

// lintServers are linters that speak LSP, off by default: both serve the
// JavaScript and TypeScript files typescript-language-server serves, and
// eslint also runs as a built-in compiler-mode linter.
//
//   - eslint: `vscode-eslint-language-server --stdio`, VS Code's ESLint
//     server from vscode-langservers-extracted. It asks for its settings
//     with an empty section and needs them whole; these are VS Code's
//     defaults (microsoft/vscode-eslint README, "Settings Options"), as
//     nvim-lspconfig's lsp/eslint.lua sends them, leaving useFlatConfig to
//     the server's own detection. Root: the nearest ESLint config file.
//   - biome: `biome lsp-proxy` (biomejs.dev, "Integrate Biome in your
//     editor"), from @biomejs/biome, whose bin runs the platform binary
//     npm installs beside it. Root: biome.json or biome.jsonc.
func lintServers() []Server {
	eslintExts, biomeExts := sortedKeys(jsFamily()), append(sortedKeys(jsFamily()), ".json", ".jsonc", ".css")
	biomeIDs := jsFamily()
	biomeIDs[".json"], biomeIDs[".jsonc"], biomeIDs[".css"] = "json", "jsonc", "css"
	return []Server{
		{Name: "eslint", Command: []string{"vscode-eslint-language-server", "--stdio"},
			Extensions: eslintExts, LanguageIDs: jsFamily(),
			RootMarkers: []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts",
				"eslint.config.mts", "eslint.config.cts", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml",
				".eslintrc.json", ".eslintrc"},
			Settings: map[string]any{
				"validate": "on", "useESLintClass": false, "experimental": map[string]any{},
				"codeActionOnSave": map[string]any{"enable": false, "mode": "all"},
				"format":           false, "quiet": false, "onIgnoredFiles": "off", "rulesCustomizations": []any{},
				"run": "onType", "problems": map[string]any{"shortenToSingleLine": false}, "nodePath": "",
				"workingDirectory": map[string]any{"mode": "location"},
				"codeAction": map[string]any{
					"disableRuleComment": map[string]any{"enable": true, "location": "separateLine"},
					"showDocumentation":  map[string]any{"enable": true},
				},
			},
			Install: Install{Method: InstallNPM, Packages: []string{"vscode-langservers-extracted@4.10.0"}, Binary: "vscode-eslint-language-server"}},
		{Name: "biome", Command: []string{"biome", "lsp-proxy"},
			Extensions: biomeExts, LanguageIDs: biomeIDs,
			RootMarkers: []string{"biome.json", "biome.jsonc"},
			Install:     Install{Method: InstallNPM, Packages: []string{"@biomejs/biome@2.6.8"}, Binary: "biome"}},
	}
}

// rojoMarkers are the files of a Rojo project's root (rojo.space: a
// project file, default.project.json or NAME.project.json, and the
// sourcemap.json rojo writes).
var rojoMarkers = []string{"default.project.json", "*.project.json", "sourcemap.json"}
