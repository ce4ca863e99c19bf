def greet(name: str) -> str:
    return "hello " + name
