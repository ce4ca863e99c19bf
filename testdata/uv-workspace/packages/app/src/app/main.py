"""The app's entry point."""

from core import greet

message: str = greet("app")
