# Types of the compiled core (_csolver.c); see python.py for the same functions in Python.

def init(orders: list[list[list[int]]], /) -> None: ...
def test(
    game: int,
    h0: int,
    h1: int,
    h2: int,
    declarer: int,
    leader: int,
    trick: tuple[int, ...],
    mode: int,
    threshold: int,
    seconds: float = 0.0,
    max_nodes: int = 0,
    /,
) -> bool | None: ...
def exact(
    game: int,
    h0: int,
    h1: int,
    h2: int,
    declarer: int,
    leader: int,
    trick: tuple[int, ...],
    guess: int = -1,
    seconds: float = 0.0,
    max_nodes: int = 0,
    /,
) -> int: ...
def clear() -> None: ...
def stats() -> dict[str, int]: ...
