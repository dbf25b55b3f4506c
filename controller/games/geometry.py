"""Board geometry shared by the games: cells, their names, neighbours by direction.

A Grid numbers its cells 0..n-1 in a fixed board order and precomputes, for every cell
and direction, the neighbour (or -1 where the board ends) and the whole ray of cells
along that direction. The engines work on these integers; names are for people.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

Coord = tuple[int, int]


class Grid:
    """Cells at integer coordinates, with named directions as coordinate steps."""

    def __init__(
        self,
        coords: Iterable[Coord],
        name_of: Callable[[Coord], str],
        directions: Sequence[tuple[str, Coord]],
    ) -> None:
        self.coords: tuple[Coord, ...] = tuple(coords)
        self.names: tuple[str, ...] = tuple(name_of(c) for c in self.coords)
        self.directions: tuple[str, ...] = tuple(name for name, _ in directions)
        at = {c: i for i, c in enumerate(self.coords)}
        self._index = {name.lower(): i for i, name in enumerate(self.names)}
        self._direction_index = {name.lower(): d for d, name in enumerate(self.directions)}
        if len(self._index) != len(self.names) or len(at) != len(self.coords):
            raise ValueError("every cell needs its own coordinate and name")

        # step[d][cell] -> neighbour or -1; ray[d][cell] -> cells walked in d, nearest first
        self.step: tuple[tuple[int, ...], ...] = tuple(
            tuple(at.get((c[0] + dx, c[1] + dy), -1) for c in self.coords)
            for _, (dx, dy) in directions
        )
        rays = []
        for d in range(len(self.directions)):
            per_cell = []
            for cell in range(len(self.coords)):
                ray, nxt = [], self.step[d][cell]
                while nxt >= 0:
                    ray.append(nxt)
                    nxt = self.step[d][nxt]
                per_cell.append(tuple(ray))
            rays.append(tuple(per_cell))
        self.ray: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)

    def __len__(self) -> int:
        return len(self.coords)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._index

    def index(self, name: str) -> int:
        """The cell called `name` (case does not matter); ValueError if there is none."""
        try:
            return self._index[name.lower()]
        except (KeyError, AttributeError):
            raise ValueError(f"no cell {name!r} on this board") from None

    def direction(self, name: str) -> int:
        """The direction called `name` (case does not matter)."""
        try:
            return self._direction_index[name.lower()]
        except (KeyError, AttributeError):
            raise ValueError(
                f"no direction {name!r}; directions are {', '.join(self.directions)}"
            ) from None

    def neighbour(self, cell: int, direction: int) -> int | None:
        nxt = self.step[direction][cell]
        return None if nxt < 0 else nxt

    def neighbour_names(self, name: str) -> frozenset[str]:
        """The names of the cells next to the cell called `name` (none for a name off the grid)."""
        cell = self._index.get(name.lower()) if isinstance(name, str) else None
        if cell is None:
            return frozenset()
        return frozenset(self.names[steps[cell]] for steps in self.step if steps[cell] >= 0)

    def direction_between(self, a: int, b: int) -> int | None:
        """The direction that leads from cell a to its neighbour b, or None."""
        for d, steps in enumerate(self.step):
            if steps[a] == b:
                return d
        return None

    def __repr__(self) -> str:
        return f"Grid({len(self)} cells, directions {'/'.join(self.directions)})"
