"""The core of acme."""


def greet(name: str) -> str:
    """Return a greeting for name."""
    return "hello, " + name
