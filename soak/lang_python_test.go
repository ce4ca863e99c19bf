package soak

import "testing"

// pythonLanguage is a generated package of four modules importing each
// other, checked by pyright (the server and its CLI) in standard mode,
// and app/, a package nested under it with its own pyrightconfig.json (so
// its own pyright) whose module imports pkg's models and service: a
// change in pkg/ that breaks app/main.py is carried to app's server
// (lsp/crossroot.go). Judged by the pyright CLI on each.
func pythonLanguage() *language {
	return &language{
		name:      "python",
		tools:     []string{"pyright", "pyright-langserver", "sed"},
		files:     func(*testing.T) map[string]string { return pythonFiles },
		compile:   compilePython,
		format:    stripTrailingSpace,
		comment:   func(text string) string { return "# " + text },
		scenarios: pythonScenarios,
	}
}

var pythonFiles = map[string]string{
	"pyrightconfig.json": `{"include": ["pkg"], "typeCheckingMode": "standard", "pythonVersion": "3.11"}
`,
	"app/pyrightconfig.json": `{"include": ["."], "extraPaths": [".."], "typeCheckingMode": "standard", "pythonVersion": "3.11"}
`,
	"app/main.py": `"""The command line."""

from pkg.models import User, make_user
from pkg.service import greet


def welcome(name: str) -> str:
    """Welcome a new user."""
    user: User = make_user(name, 1)
    return greet(user) + " #" + user.handle
`,
	"pkg/__init__.py": `"""Users, a service over them and the request handlers."""
`,
	"pkg/util.py": `"""Small string helpers."""


def slug(text: str) -> str:
    """Return text lower-cased, spaces as dashes."""
    return text.strip().lower().replace(" ", "-")


def initials(text: str) -> str:
    """Return the first letter of each word."""
    return "".join(word[0] for word in text.split() if word)
`,
	"pkg/models.py": `"""The user model."""

from dataclasses import dataclass

from pkg.util import slug


@dataclass
class User:
    """A registered user."""

    name: str
    age: int
    handle: str


def make_user(name: str, age: int) -> User:
    """Build a User with its handle."""
    return User(name=name, age=age, handle=slug(name))
`,
	"pkg/service.py": `"""Registration and greetings."""

from pkg.models import User, make_user
from pkg.util import initials


def register(name: str) -> User:
    """Register a user of unknown age."""
    return make_user(name, 0)


def greet(user: User) -> str:
    """Greet a user by name and initials."""
    return f"Hello {user.name} ({initials(user.name)})"
`,
	"pkg/api.py": `"""The request handlers."""

from pkg.service import greet, register
from pkg.util import slug


def handle(name: str) -> str:
    """Register name and greet it."""
    user = register(name)
    return greet(user) + " @" + slug(user.handle)


def count(names: list[str]) -> int:
    """Count the distinct handles."""
    return len({slug(n) for n in names})
`,
}

const pyGreet = `

def greet(user: User) -> str:
    """Greet a user by name and initials."""
    return f"Hello {user.name} ({initials(user.name)})"
`

var pythonScenarios = []scenario{
	// The project's configuration breaks files the edit does not touch:
	// list[str] needs Python 3.9 (pyright checks against the configured
	// version; the server starts afresh to read it, lsp/project.go).
	{"older-python-configured", steps(
		edit("pyrightconfig.json", `"pythonVersion": "3.11"`, `"pythonVersion": "3.8"`),
		revert("pyrightconfig.json"))},
	configWritten("pkg/api.py", "return len({slug(n) for n in names})", "return {slug(n) for n in names}"),
	createdLater("pkg/api.py", []string{"from pkg.util import slug\n", "from pkg.util import slug\nfrom pkg.extra import extra\n",
		"return len({slug(n) for n in names})", "return len({slug(n) for n in names}) + extra()"},
		"pkg/extra.py", "\"\"\"One more.\"\"\"\n\n\ndef extra() -> int:\n    \"\"\"Return one.\"\"\"\n    return 1\n"),
	// The package directory renamed: app/main.py's imports of pkg break.
	{"directory-moved", steps(moveDir("pkg", "lib"), moveDir("lib", "pkg"))},
	{"local-type", steps(
		edit("pkg/api.py", "return len({slug(n) for n in names})", "return {slug(n) for n in names}"),
		revert("pkg/api.py"))},
	{"local-undefined", steps(
		edit("pkg/service.py", "({initials(user.name)})", "({initial(user.name)})"),
		edit("pkg/service.py", "({initial(user.name)})", "({initials(user.name)})"))},
	{"signature-change", steps(
		edit("pkg/models.py", "def make_user(name: str, age: int) -> User:", "def make_user(name: str, age: int, email: str) -> User:"),
		revert("pkg/models.py"))},
	{"signature-change-fixed-in-caller", []step{
		{edit("pkg/models.py", "def make_user(name: str, age: int) -> User:", "def make_user(name: str, age: int, email: str) -> User:")},
		{edit("pkg/service.py", "return make_user(name, 0)", `return make_user(name, 0, "")`)},
		{revert("pkg/models.py")},
		{revert("pkg/service.py")},
	}},
	{"renamed-export", []step{
		{edit("pkg/util.py", "def slug(text: str) -> str:", "def slugify(text: str) -> str:")},
		{edit("pkg/models.py", "from pkg.util import slug\n", "from pkg.util import slugify as slug\n"),
			edit("pkg/api.py", "from pkg.util import slug\n", "from pkg.util import slugify as slug\n")},
		{revert("pkg/util.py")},
		{revert("pkg/models.py"), revert("pkg/api.py")},
	}},
	// The definition and its importers change in one step: clean; the
	// definition turned back alone breaks both importers.
	{"renamed-everywhere", []step{
		{edit("pkg/util.py", "def slug(text: str) -> str:", "def slugify(text: str) -> str:"),
			edit("pkg/models.py", "from pkg.util import slug", "from pkg.util import slugify as slug"),
			edit("pkg/api.py", "from pkg.util import slug", "from pkg.util import slugify as slug")},
		{revert("pkg/util.py")},
		{revert("pkg/models.py"), revert("pkg/api.py")},
	}},
	{"removed-function", steps(edit("pkg/service.py", pyGreet, ""), revert("pkg/service.py"))},
	{"removed-field", steps(
		edit("pkg/models.py", "    handle: str\n", ""),
		revert("pkg/models.py"))},
	{"deleted-module", steps(remove("pkg/util.py"), revert("pkg/util.py"))},
	{"renamed-module", steps(move("pkg/service.py", "pkg/services.py"), move("pkg/services.py", "pkg/service.py"))},
	{"broken-then-renamed", steps(
		edit("pkg/api.py", "return len({slug(n) for n in names})", "return {slug(n) for n in names}"),
		move("pkg/api.py", "pkg/handlers.py"),
		edit("pkg/handlers.py", "return {slug(n) for n in names}", "return len({slug(n) for n in names})"),
		move("pkg/handlers.py", "pkg/api.py"))},
	{"new-module", steps(
		create("pkg/extra.py", "\"\"\"Extra.\"\"\"\n\nfrom pkg.models import make_user\n\nUSER = make_user(\"x\")\n"),
		create("pkg/extra.py", "\"\"\"Extra.\"\"\"\n\nfrom pkg.models import make_user\n\nUSER = make_user(\"x\", 1)\n"),
		remove("pkg/extra.py"))},
	{"new-module-removed-broken", steps(
		create("pkg/extra.py", "\"\"\"Extra.\"\"\"\n\nfrom pkg.service import greet\n\nTEXT: int = greet(None)\n"),
		remove("pkg/extra.py"))},
	{"comment", steps(
		edit("pkg/util.py", `"""Small string helpers."""`, `"""Small string helpers, for handles."""`),
		revert("pkg/util.py"))},
}
