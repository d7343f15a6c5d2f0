"""Choosing lines: focus first, then the cheapest way up to the floor."""

from __future__ import annotations

from mcp_pruner_server.pruning.rules import rules_off
from mcp_pruner_server.pruning.select import Unit, choose


def test_the_focus_is_kept_whole_with_its_context_even_beyond_the_floor() -> None:
    units = [Unit(tuple(range(10, 22)), 5.0, (0,)), Unit(tuple(range(40, 45)), 1.0)]
    keep = choose(100, units, [], 5, [0.0] * 100, [False] * 100)
    assert [i for i in range(100) if keep[i]] == [0, *range(10, 22)]


def test_the_floor_is_met_with_free_blank_lines_before_lower_ranked_units() -> None:
    blank = [i in (30, 31) for i in range(100)]
    units = [Unit(tuple(range(10, 30)), 5.0), Unit(tuple(range(60, 62)), 1.0)]
    keep = choose(100, units, [], 22, [0.0] * 100, blank)
    assert sum(keep) == 22
    assert keep[30]
    assert keep[31]
    assert not keep[60]


def test_lower_ranked_units_fill_the_floor_and_lines_by_score_finish_it() -> None:
    scores = [0.0] * 100
    scores[90] = 3.0
    units = [Unit(tuple(range(10, 20)), 5.0), Unit(tuple(range(50, 55)), 1.0)]
    keep = choose(100, units, [99], 20, scores, [False] * 100)
    assert sum(keep) == 20
    assert all(keep[i] for i in range(50, 55))
    assert keep[99]


def test_a_close_runner_up_may_overshoot_the_floor_by_the_slack() -> None:
    # floor 20 of 100 lines; the best unit holds 15, a close runner-up 8: 23 lines is within
    # the floor plus 5 % of the lines, so the runner-up is kept whole, not dropped for fragments
    units = [Unit(tuple(range(0, 15)), 10.0), Unit(tuple(range(50, 58)), 9.0)]
    keep = choose(100, units, [], 20, [0.0] * 100, [False] * 100)
    assert all(keep[i] for i in range(50, 58))
    assert sum(keep) == 23


def test_a_runner_up_beyond_the_slack_stays_out_of_the_focus() -> None:
    units = [Unit(tuple(range(0, 15)), 10.0), Unit(tuple(range(50, 62)), 8.0)]
    keep = choose(100, units, [], 20, [0.0] * 100, [False] * 100)
    assert not any(keep[i] for i in range(50, 62))
    assert sum(keep) == 20


def test_a_runner_up_scoring_nearly_as_well_as_the_best_joins_beyond_the_slack() -> None:
    # floor 20 of 100 lines: the best unit holds 15, a runner-up scoring 90 % of it 20; the two
    # overshoot the floor plus the slack (25), not the further slack of a close runner-up (45)
    units = [Unit(tuple(range(0, 15)), 10.0), Unit(tuple(range(50, 70)), 9.0)]
    keep = choose(100, units, [], 20, [0.0] * 100, [False] * 100)
    assert all(keep[i] for i in range(50, 70))
    assert sum(keep) == 35


def test_even_a_close_runner_up_stays_out_beyond_its_further_slack() -> None:
    units = [Unit(tuple(range(0, 15)), 10.0), Unit(tuple(range(50, 81)), 9.0)]
    keep = choose(100, units, [], 20, [0.0] * 100, [False] * 100)
    assert not any(keep[i] for i in range(50, 81))


def test_the_fill_takes_small_units_before_a_long_one_scoring_about_the_same() -> None:
    # after the focus (10 lines) the floor misses 40: one 40-line unit would take them all,
    # three 5-line ones scoring 2 % less are three candidates for a third of the lines
    small = [tuple(range(start, start + 5)) for start in (200, 220, 240)]
    units = [Unit(tuple(range(10)), 10.0), Unit(tuple(range(100, 140)), 5.0), *(Unit(s, 4.9) for s in small)]
    keep = choose(400, units, [], 50, [0.0] * 400, [False] * 400)
    assert all(keep[i] for s in small for i in s)
    assert not all(keep[i] for i in range(100, 140))


def test_a_best_unit_over_the_budget_leaves_the_slack_to_the_next_units() -> None:
    # 200 lines, floor 40: the best unit holds 120, over the budget alone; the next one (4 lines)
    # still joins in the slack (5 % of the lines: 10), one of 20 lines does not fit it
    huge, short, longer = (
        Unit(tuple(range(120)), 10.0),
        Unit(tuple(range(150, 154)), 5.0),
        Unit(tuple(range(160, 180)), 4.0),
    )
    units = [huge, short, longer]
    keep = choose(200, units, [], 40, [0.0] * 200, [False] * 200)
    assert all(keep[i] for i in range(150, 154))
    assert not any(keep[i] for i in range(160, 180))
    assert sum(keep) == 124


def test_a_runner_up_the_huge_best_unit_left_out_of_the_focus_still_gets_the_slack() -> None:
    # 200 lines, floor 40: the best unit holds 120; a runner-up scoring 80 % of it is a focus
    # candidate, but no focus budget is left for it; the slack after the best unit still is
    huge, runner_up = Unit(tuple(range(120)), 10.0), Unit(tuple(range(150, 154)), 8.0)
    keep = choose(200, [huge, runner_up], [], 40, [0.0] * 200, [False] * 200)
    assert all(keep[i] for i in range(150, 154))


def test_a_unit_too_large_for_the_budget_keeps_its_first_line_and_its_best_scoring_window() -> None:
    n = 100
    scores = [0.0] * n
    scores[40:44] = [5.0, 6.0, 6.0, 5.0]  # the lines the question is about, inside a 60-line unit
    units = [
        Unit(tuple(range(0, 5)), 10.0),
        Unit(tuple(range(10, 70)), 9.0),  # close to the best, too large for any budget here
        *(Unit(tuple(range(start, start + 5)), 1.0) for start in (75, 82, 89)),
    ]
    keep = choose(n, units, [], 20, scores, [False] * n)
    assert keep[10]
    assert all(keep[40:44])
    assert not keep[20]
    with rules_off("windows_in_large_units"):
        keep = choose(n, units, [], 20, scores, [False] * n)
    assert not any(keep[10:70])


def test_a_large_unit_whose_best_lines_score_highest_is_windowed_though_its_fields_score_low() -> None:
    n = 100
    scores = [0.0] * n
    scores[2] = 3.0  # the best unit's best line
    scores[50:53] = [6.0, 7.0, 6.0]  # what the question says, in a unit its name and doc don't fit
    units = [
        Unit(tuple(range(0, 5)), 10.0, peak=3.0),
        Unit(tuple(range(10, 70)), 2.0, peak=19.0),
        *(Unit(tuple(range(start, start + 5)), 1.0, peak=1.0) for start in (75, 82, 89)),
    ]
    keep = choose(n, units, [], 20, scores, [False] * n)
    assert keep[10]
    assert all(keep[50:53])
    with rules_off("windows_by_best_lines"):
        keep = choose(n, units, [], 20, scores, [False] * n)
    assert not any(keep[10:70])


def test_in_code_a_line_scoring_near_the_best_joins_before_units_that_rank_above_its_own() -> None:
    n = 100
    scores = [0.0] * n
    scores[2] = 4.0
    scores[93] = 3.0  # the line the question names, in a unit whose fields say nothing of it
    units = [
        Unit(tuple(range(0, 5)), 10.0, peak=4.0),
        *(Unit(tuple(range(start, start + 5)), 2.0, peak=0.5) for start in (10, 20, 30, 40)),
        Unit(tuple(range(90, 96)), 0.5, peak=3.0),
    ]
    keep = choose(n, units, [], 20, scores, [False] * n, hot_lines=True)
    assert keep[93]
    assert sum(keep) == 20
    with rules_off("hot_lines"):
        keep = choose(n, units, [], 20, scores, [False] * n, hot_lines=True)
    assert not keep[93]
    assert not choose(n, units, [], 20, scores, [False] * n)[93]  # logs and docs: their units alone


def test_the_fill_takes_first_the_unit_whose_best_lines_score_highest_among_equals() -> None:
    n = 100
    units = [
        Unit(tuple(range(0, 5)), 10.0),
        Unit(tuple(range(20, 30)), 2.0, peak=1.0),
        Unit(tuple(range(40, 50)), 2.0, peak=9.0),  # a few lines doing what the question says
    ]
    keep = choose(n, units, [], 15, [0.0] * n, [False] * n)
    assert all(keep[40:50])
    assert not any(keep[20:30])
    with rules_off("best_lines_fill"):
        keep = choose(n, units, [], 15, [0.0] * n, [False] * n)
    assert all(keep[20:30])
