from greeting.core import greet

message: str = greet("app")
