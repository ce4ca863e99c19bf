import nosuchmod


def greet(name: str) -> str:
    return "héllo 🌍 " + name


s = "wörld 😀"; x: int = s
greet(1)
reveal_type(x)
y = undefined_name
