"""The ship against the spec's tables: rooms, corridors (§3.2), vents (§3.3), tasks (§4.2)."""

from engine.amongagents.ship import (
    CORRIDOR_MAP,
    CORRIDORS,
    DECLARED_VENTS,
    IMPOSTOR_MAPS,
    RELEASED_CODE_VENTS,
    ROOMS,
    TASKS,
    TASKS_OF_TYPE,
    VENT_MAPS,
    shortest_path,
)

SPEC_NEIGHBOURS = {
    "Cafeteria": {"Weapons", "Admin", "Upper Engine", "Medbay"},
    "Weapons": {"Cafeteria", "Navigation", "O2"},
    "Navigation": {"Weapons", "Shields"},
    "O2": {"Weapons", "Shields", "Admin"},
    "Shields": {"Navigation", "O2", "Communications", "Storage"},
    "Communications": {"Shields", "Storage"},
    "Storage": {"Shields", "Communications", "Admin", "Electrical", "Lower Engine"},
    "Admin": {"Cafeteria", "O2", "Storage", "Electrical"},
    "Electrical": {"Admin", "Storage", "Lower Engine"},
    "Lower Engine": {"Storage", "Electrical", "Security", "Reactor", "Upper Engine"},
    "Security": {"Lower Engine", "Reactor", "Upper Engine"},
    "Reactor": {"Lower Engine", "Security", "Upper Engine"},
    "Upper Engine": {"Cafeteria", "Lower Engine", "Reactor", "Security", "Medbay"},
    "Medbay": {"Cafeteria", "Upper Engine"},
}
SPEC_TASKS = {  # room: [(name, type letter)]
    "Cafeteria": "Download Data S, Empty Garbage L, Fix Wiring C",
    "Weapons": "Accept Diverted Power S, Clear Asteroids L, Download Data S",
    "Navigation": "Accept Diverted Power S, Chart Course S, Download Data S, Fix Wiring C, "
                  "Stabilize Steering S",
    "O2": "Clean O2 Filter S, Empty Chute L, Accept Diverted Power S",
    "Shields": "Accept Diverted Power S, Prime Shields S",
    "Communications": "Accept Diverted Power S, Download Data S",
    "Storage": "Empty Garbage L, Empty Chute L",
    "Admin": "Fix Wiring C, Swipe Card C, Upload Data S",
    "Electrical": "Calibrate Distributor S, Divert Power S, Download Data S, Fix Wiring C",
    "Lower Engine": "Accept Diverted Power S, Align Engine Output L, Fuel Engines L",
    "Security": "Accept Diverted Power S, Fix Wiring C",
    "Reactor": "Start Reactor L, Unlock Manifolds S",
    "Upper Engine": "Accept Diverted Power S, Align Engine Output L, Fuel Engines L",
    "Medbay": "Inspect Sample L, Submit Scan S",
}
LETTER = {"S": "short", "L": "long", "C": "common"}


def test_fourteen_rooms_and_the_spec_corridors():
    assert len(ROOMS) == 14 == len(set(ROOMS))
    assert {r: set(n) for r, n in CORRIDOR_MAP.items()} == SPEC_NEIGHBOURS
    assert len({frozenset(e) for e in CORRIDORS}) == len(CORRIDORS) == 24
    assert sum(len(n) for n in CORRIDOR_MAP.values()) == 48  # undirected
    assert max(len(shortest_path(CORRIDOR_MAP, a, b)) - 1 for a in ROOMS for b in ROOMS) == 4


def test_vents_are_a_separate_edge_set():
    assert len({frozenset(e) for e in DECLARED_VENTS}) == 9
    assert set(VENT_MAPS["declared"]["Electrical"]) == {"Security", "Medbay"}
    assert set(VENT_MAPS["declared"]["Cafeteria"]) == {"Admin"}
    assert VENT_MAPS["declared"]["Storage"] == ()
    # Electrical-Security and Electrical-Medbay are vents, not corridors.
    assert "Security" not in CORRIDOR_MAP["Electrical"]
    assert "Security" in IMPOSTOR_MAPS["declared"]["Electrical"]
    # The released code: only the three vents its map keeps.
    assert {frozenset(e) for e in RELEASED_CODE_VENTS} == {
        frozenset(("Electrical", "Security")), frozenset(("Electrical", "Medbay")),
        frozenset(("Medbay", "Security"))}
    assert VENT_MAPS["released-code"]["Reactor"] == ()
    # The six vents the released code overwrites are corridors already.
    others = {frozenset(e) for e in DECLARED_VENTS} - {frozenset(e) for e in RELEASED_CODE_VENTS}
    assert len(others) == 6 and others <= {frozenset(e) for e in CORRIDORS}


def test_the_task_table():
    assert len(TASKS) == 39
    assert {t: len(k) for t, k in TASKS_OF_TYPE.items()} == {"common": 6, "short": 22,
                                                             "long": 11}
    for room, listed in SPEC_TASKS.items():
        expected = [(item[:-2], LETTER[item[-1]]) for item in listed.split(", ")]
        assert [(t.name, t.type) for t in TASKS if t.room == room] == expected
    assert {t.duration for t in TASKS_OF_TYPE["long"]} == {2}
    assert {t.duration for t in TASKS_OF_TYPE["short"] + TASKS_OF_TYPE["common"]} == {1}


def test_paths_use_corridors_for_crew_and_vents_for_impostors():
    assert shortest_path(CORRIDOR_MAP, "Electrical", "Security") == [
        "Electrical", "Lower Engine", "Security"]
    assert shortest_path(IMPOSTOR_MAPS["declared"], "Electrical", "Security") == [
        "Electrical", "Security"]
    assert shortest_path(CORRIDOR_MAP, "Cafeteria", "Cafeteria") == ["Cafeteria"]
