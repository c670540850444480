"""Map generation over every room size and layout of the paper."""

import random
from collections import Counter, deque

import pytest

from engine.socialgrid.board import BUTTON, DOOR, FLOOR, STATION, STEP, WALL, Board
from engine.socialgrid.mapgen import (
    LAYOUTS,
    ROOM_SIZES,
    generate,
    map_size,
    spawn_tiles,
    station_capacity,
)

ALL = [(size, rows, cols) for size in ROOM_SIZES for rows, cols in LAYOUTS]
SEEDS = range(4)


def neighbours(pos):
    return [(pos[0] + dx, pos[1] + dy) for dx, dy in STEP.values()]


def reachable(board: Board, start) -> set:
    """Tiles reachable from `start` walking on floor and doors (all doors open)."""
    seen, todo = {start}, deque([start])
    while todo:
        for nxt in neighbours(todo.popleft()):
            if nxt not in seen and board.tile(nxt) in (FLOOR, DOOR):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def stations_for(size, rows, cols):
    return min(21, station_capacity(size, rows, cols))


@pytest.mark.parametrize(("size", "rows", "cols"), ALL)
def test_every_map_is_connected_and_playable(size, rows, cols):
    for seed in SEEDS:
        count = stations_for(size, rows, cols)
        board = generate(size, rows, cols, stations=count, rng=random.Random(seed))
        assert (board.width, board.height) == map_size(size, rows, cols)
        assert board.width == cols * (size + 1) + 1
        walkable = {(x, y) for y in range(board.height) for x in range(board.width)
                    if board.tile((x, y)) in (FLOOR, DOOR)}
        assert reachable(board, min(board.floor)) == walkable
        # The outer ring is wall, and the stored lists match the tiles.
        assert all(board.tile((x, 0)) == WALL == board.tile((x, board.height - 1))
                   for x in range(board.width))
        kinds = Counter(board.tile((x, y)) for y in range(board.height)
                        for x in range(board.width))
        assert kinds[STATION] == len(board.stations) == count
        assert kinds[BUTTON] == 1 and board.button is not None
        assert kinds[DOOR] == len(board.doors) == rows * (cols - 1) + cols * (rows - 1)
        # Every station and the button can be faced from free floor on all four sides.
        for thing in (*board.stations, board.button):
            assert all(board.tile(n) == FLOOR for n in neighbours(thing))
        # Every door joins two rooms: walls on one axis, floor on the other.
        for x, y in board.doors:
            across = {board.tile((x - 1, y)), board.tile((x + 1, y))}
            along = {board.tile((x, y - 1)), board.tile((x, y + 1))}
            assert {frozenset(across), frozenset(along)} == {frozenset({FLOOR}),
                                                             frozenset({WALL})}
            assert len({board.room_of(n) for n in neighbours((x, y))
                        if board.tile(n) == FLOOR}) == 2


def test_same_seed_same_map_and_seeds_differ():
    first = generate(10, 2, 2, stations=21, rng=random.Random(7))
    assert first == generate(10, 2, 2, stations=21, rng=random.Random(7))
    others = {generate(10, 2, 2, stations=21, rng=random.Random(s)) for s in range(8)}
    assert len(others) == 8


def test_stations_are_spread_over_the_rooms():
    board = generate(10, 3, 3, stations=21, rng=random.Random(3))
    per_room = Counter(board.room_of(s) for s in board.stations)
    assert len(per_room) == 9 and max(per_room.values()) - min(per_room.values()) <= 1
    # Consecutive stations (one crewmate's three tasks) sit in different rooms.
    for i in range(0, 21, 3):
        assert len({board.room_of(s) for s in board.stations[i:i + 3]}) == 3


def test_capacity_is_usable_to_the_last_slot():
    capacity = station_capacity(7, 1, 1)
    assert capacity == 3 * 3 - 1
    board = generate(7, 1, 1, stations=capacity, rng=random.Random(0))
    assert len(board.stations) == capacity
    assert station_capacity(10, 2, 2) == 4 * 16 - 1


@pytest.mark.parametrize(("args", "stations", "message"), [
    ((9, 2, 2), 3, "room size 9 is not supported; valid room sizes: 7, 10, 14, 18"),
    ((10, 2, 1), 3, "layout 2x1 is not supported; valid layouts: 1x1, 1x2"),
    ((10, 0, 0), 3, "layout 0x0"),
    ((7, 1, 1), 9, "9 task stations do not fit"),
    ((10, 2, 2), -1, "between 0 and 63"),
])
def test_bad_inputs_are_rejected(args, stations, message):
    with pytest.raises(ValueError, match=message):
        generate(*args, stations=stations, rng=random.Random(0))


def test_spawns_are_distinct_free_floor():
    board = generate(7, 1, 2, stations=6, rng=random.Random(1))
    taken = {min(board.floor)}
    spawns = spawn_tiles(board, 7, random.Random(2), exclude=taken)
    assert len(set(spawns)) == 7 and set(spawns) <= board.floor and not taken & set(spawns)
    assert spawns == spawn_tiles(board, 7, random.Random(2), exclude=taken)
    everything = spawn_tiles(board, len(board.floor), random.Random(0))
    assert set(everything) == board.floor
    with pytest.raises(ValueError, match="cannot place"):
        spawn_tiles(board, len(board.floor) + 1, random.Random(0))
