def ok() -> int:
    return 1
