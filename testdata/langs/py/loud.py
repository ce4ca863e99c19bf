"""A second caller of greet, one the tests never open."""

from greet import greet


def loud() -> str:
    return greet("everyone").upper()
