def mean(xs: list[float]) -> float:
    total: int = "zero"
    return sum(xs) / len(xs)
