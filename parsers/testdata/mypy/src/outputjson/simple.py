# flags: --output=json
def foo() -> None:
    pass

foo(1)
