"""lab.rigid_turns: the study runs, and says no to what it cannot measure."""

from lab.rigid_turns import main, on_rounds
from sim.params import load_params


def test_rigid_turns_leave_a_few_casual_rounds_as_they_were():
    result = on_rounds(load_params(), "casual", 3, seed=7)
    assert result["same_rounds"] == 3
    assert set(result["rounds_per_cpu_s"]) == {"rigid", "simulated"}


def test_bad_input_is_one_line_and_exit_2(capsys):
    assert main(["--players", "pro"]) == 2
    assert main(["--rounds", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["Error: unknown player model 'pro'; expected novice, casual, skilled, expert, learned, captain",
                   "Error: --rounds must be at least 2"]
