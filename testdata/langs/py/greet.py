"""Greetings."""


def greet(name: str) -> str:
    """Return a greeting for name."""
    return "hello, " + name
