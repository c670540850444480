"""Visibility by room (spec §9), tested like an attacker: two games that differ in one hidden
input must tell every seat that should not know it exactly the same things."""

from engine.amongagents.ship import CORRIDOR_MAP, shortest_path
from tests.amongagents.helpers import act, finish_round, ids, new, seen_by, sit_meeting, turn, wait


def _same_for(a, b, seats):
    for s in seats:
        assert a.view(s) == b.view(s), f"seat {s}'s view differs"
        assert seen_by(a, s) == seen_by(b, s), f"seat {s} was told different things"
    assert a.view(None) == b.view(None)


def _common_task_round(game, worker, watcher):
    """`worker` walks to the common task with `watcher` and works on it (real or fake, which
    ever it is offered); the others stay in the Cafeteria. Then a meeting and a vote."""
    room = game.tasks[worker][0][0].room
    while not game.over and game.timestep < 12:
        seat = turn(game)
        if seat in (worker, watcher) and game.location[seat] != room:
            act(game, f"move:{shortest_path(CORRIDOR_MAP, game.location[seat], room)[1]}")
        elif seat == worker and {"task:0", "fake:0"} & set(ids(game)):
            act(game, next(i for i in ("task:0", "fake:0") if i in ids(game)))
        else:
            wait(game)
    return room


def test_who_the_impostor_is_never_shows_to_the_crewmates():
    # Seat 0 is the impostor in one game and seat 1 in the other; seat 0 does its common task
    # (a fake one when it is the impostor) with seat 2 watching; then a meeting and a vote.
    a, b = new((0,), seed=3), new((1,), seed=3)
    for game in (a, b):
        _common_task_round(game, 0, 2)
        act(game, "button") if "button" in ids(game) else None
    _same_for(a, b, (2, 3, 4))
    working = [d for t, d, _ in seen_by(a, 2) if t == "action" and d["verb"] == "working"]
    assert working and working[0]["seat"] == 0  # the watcher saw seat 0 work, nothing more


def test_where_an_unseen_player_went_never_shows():
    a, b = new((0,), seed=5), new((0,), seed=5)
    for game, goal in ((a, "Weapons"), (b, "Medbay")):
        wait(game, 0)
        for seat in (1, 2, 3):
            act(game, "move:Admin", seat=seat)
        wait(game, 4)
        wait(game, 0)
        for seat in (1, 2, 3):
            wait(game, seat)
        act(game, f"move:{goal}", seat=4)  # seen in the Cafeteria (seat 0) only
    _same_for(a, b, (1, 2, 3))
    assert a.view(0) != b.view(0)  # the one who saw it knows


def test_a_kill_is_known_only_to_those_in_the_room_until_a_meeting():
    a, b = new((0,), seed=2), new((0,), seed=2)
    for game in (a, b):
        wait(game, 0)
        for seat in (1, 2, 3, 4):
            act(game, "move:Admin" if seat != 1 else "move:Medbay", seat=seat)
        act(game, "move:Medbay", seat=0)
        wait(game, 1)
        for seat in (2, 3, 4):
            act(game, "move:Storage", seat=seat)
    act(a, "kill:1", seat=0)
    wait(b, 0)
    # b's seat 1 is alive and acts; a's is dead and skipped: the others' views are the same.
    wait(b, 1)
    for seat in (2, 3, 4):
        wait(a, seat)
        wait(b, seat)
    _same_for(a, b, (2, 3, 4))
    assert [d for t, d, _ in seen_by(a, 1) if t == "action"][-1]["verb"] == "kill"  # victim saw


def test_views_name_no_other_role_and_show_own_room_only():
    game = new((0,))
    for s in range(1, 5):
        view = game.view(s)
        assert view["private"]["role"] == "Crewmate" and "teammates" not in view["private"]
        assert "Impostor" not in str(view)
    assert game.view(0)["private"]["vents"] == ["Admin"]
    act(game, "move:Admin", seat=0)
    assert game.view(1)["private"]["seen"][-1] == {"timestep": 0, "seat": 0, "verb": "move",
                                                   "room": "Cafeteria", "to": "Admin"}
    # Whose turn it is in the task phase is not public (it would show who was skipped).
    assert game.public_view()["speaker"] is None and game.view(2)["private"]["offers"] == []


def test_task_speech_is_heard_only_in_the_room():
    game = new((0,))
    act(game, "move:Admin", seat=0)
    act(game, "speak", "hello", seat=1)
    finish_round(game)
    heard = [s for s in range(5) if any(d.get("text") == "hello"
                                        for t, d, _ in seen_by(game, s) if t == "action")]
    assert heard == [1, 2, 3, 4]


def test_bodies_are_listed_until_reported_and_meetings_announce_the_dead():
    game = new((0,))
    act(game, "kill:1", seat=0)
    assert game.view(2)["private"]["dead_here"] == [1]
    assert "report" in ids(game)
    act(game, "report", seat=2)
    started = [d for t, d, _ in seen_by(game, 4) if t == "meeting_started"]
    assert started[-1]["dead"] == [1]
    assert game.view(4)["private"]["dead_here"] == [] and game.public_view()["players"][1]["out"]


def test_cameras_show_the_chosen_room_with_raw_last_actions():
    game = new((0,), seed=4)
    path = shortest_path(CORRIDOR_MAP, "Cafeteria", "Security")
    watcher = 1
    fake_room = game.tasks[0][0][0].room
    while game.location[watcher] != "Security":
        seat = turn(game)
        if seat == watcher:
            act(game, f"move:{path[path.index(game.location[watcher]) + 1]}")
        elif seat == 0 and game.location[0] != fake_room:
            act(game, f"move:{shortest_path(CORRIDOR_MAP, game.location[0], fake_room)[1]}")
        elif seat == 0 and "fake:0" in ids(game):
            act(game, "fake:0")
        else:
            wait(game)
    finish_round(game)
    while turn(game) != watcher:
        wait(game)
    act(game, "monitor", fake_room, seat=watcher)
    camera = game.view(watcher)["private"]["camera"]
    assert camera["room"] == fake_room
    last = {p["seat"]: p["last"] for p in camera["players"]}
    assert last[0]["verb"] in ("fake", "speak")  # the camera shows what it really was
    if last[0]["verb"] == "fake":
        assert last[0]["task"]["name"] == game.tasks[0][0][0].name
    # Only the watcher sees the record.
    assert all(not any(t == "camera" for t, _, _ in seen_by(game, s)) for s in (0, 2, 3, 4))


def test_a_fake_task_looks_like_a_real_one():
    a, b = new((0,), seed=3), new((1,), seed=3)
    for game in (a, b):
        _common_task_round(game, 0, 2)
    own_a = [d for t, d, _ in seen_by(a, 0) if t == "task_worked"]
    own_b = [d for t, d, _ in seen_by(b, 0) if t == "task_worked"]
    assert own_a[0]["verb"] == "fake" and own_b[0]["verb"] == "task"
    seen_a = [d for t, d, _ in seen_by(a, 2) if t == "action" and d["seat"] == 0]
    seen_b = [d for t, d, _ in seen_by(b, 2) if t == "action" and d["seat"] == 0]
    assert seen_a == seen_b and any(d["verb"] == "working" for d in seen_a)


def test_a_meeting_is_public():
    game = new((0,))
    act(game, "button", seat=0)
    sit_meeting(game, {0: "vote:1", 1: "vote:0", 2: "vote:0", 3: "vote:1", 4: "vote:2"})
    for s in range(5):
        kinds = [t for t, _, _ in seen_by(game, s)]
        assert kinds.count("speech") == 15 and kinds.count("vote") == 5


def test_a_default_move_in_the_task_phase_is_told_to_its_seat_only():
    game = new((0,))
    events = game.act_default(0, "timeout")
    notice = next(e for e in events if e.type == "move_defaulted")
    assert notice.visible_to == (0,)
    act(game, "button", seat=1)
    events = game.act_default(turn(game), "timeout")
    assert next(e for e in events if e.type == "move_defaulted").visible_to == "all"


def test_a_vent_out_of_sight_is_never_seen():
    a, b = new((0,), seed=6), new((0,), seed=6)
    for game, choice in ((a, "vent:Admin"), (b, "move:Medbay")):
        wait(game, 0)
        for seat in (1, 2, 3, 4):
            act(game, "move:Weapons", seat=seat)
        act(game, choice, seat=0)
        finish_round(game)
    _same_for(a, b, (1, 2, 3, 4))
    assert a.location[0] == "Admin" and b.location[0] == "Medbay"
