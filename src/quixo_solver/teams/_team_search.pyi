PASS_CODE: int
MATE_SCORE: int
PROVEN_BOUND: int
DEPTH_LIMIT: int

class TeamSearcher:
    size: int
    entries: int
    nodes: int
    stopped: bool
    root_move: int
    def __init__(self, size: int, tt_mib: float) -> None: ...
    def clear(self) -> None: ...
    def search(self, roles: tuple[int, int, int, int], depth: int, seconds: float,
               node_limit: int, nodes_before: int = ...) -> int: ...
    def table_move(self, roles: tuple[int, int, int, int]) -> int: ...
