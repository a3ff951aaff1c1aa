"""The values an option accepts, from a Literal, an Enum or an explicit ``choices``: listed
by `mlbench tasks NAME` and checked, each item of a list, in one line."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

import pytest

from mlbench.benchmarks.options import check_choices
from mlbench.errors import MlbenchError
from mlbench.records.options import choices_of, describe_options, option, parse_value


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Example:
    mode: Literal["a", "b"] = option("a", "A literal.")
    colour: Colour = option(Colour.RED, "An enum.")
    names: tuple[str, ...] = option((), "Names from a fixed set.", choices=("Alpha", "Beta Gamma"))
    maybe: Literal["x", "y"] | None = option(None, "An optional literal.")
    free: str = option("anything", "Any text.")

    def __post_init__(self) -> None:
        check_choices(self, "example")


def test_describe_options_gives_each_fixed_set_and_the_default_as_json():
    info = {item.name: item for item in describe_options(Example)}
    assert info["mode"].choices == ("a", "b") and info["mode"].value == "a"
    assert info["colour"].choices == ("red", "blue") and info["colour"].value == "red"
    assert info["colour"].type == "red|blue" and info["colour"].default == "red"
    assert info["names"].choices == ("Alpha", "Beta Gamma") and info["names"].value == []
    assert info["maybe"].choices == ("x", "y") and info["maybe"].value is None
    assert info["free"].choices == ()
    assert choices_of(tuple[Literal["p", "q"], ...]) == ("p", "q")


def test_every_kind_of_fixed_set_is_checked_in_one_line():
    assert Example(names=("Beta Gamma",), colour=Colour.BLUE).names == ("Beta Gamma",)
    with pytest.raises(MlbenchError, match=r"^example: names 'Beta' is not one of Alpha, Beta Gamma$"):
        Example(names=("Alpha", "Beta"))
    with pytest.raises(MlbenchError, match=r"^example: mode 'c' is not one of a, b$"):
        Example(mode="c")  # type: ignore[arg-type]
    with pytest.raises(MlbenchError, match=r"names 'alpha' is not one of Alpha, Beta Gamma \(did you mean Alpha"):
        Example(names=("alpha",))


def test_an_enum_is_read_by_its_value():
    assert parse_value("-T colour", Colour, " blue ") is Colour.BLUE
    with pytest.raises(MlbenchError, match=r"^-T colour: 'green' is not one of red, blue$"):
        parse_value("-T colour", Colour, "green")


def test_an_unknown_msqad_topic_is_one_line_and_exit_2(tmp_path):
    from typer.testing import CliRunner

    from mlbench.cli.main import app

    args = ["run", "-m", "m", "-t", "msqad", "-T", "topics=Refugees,Torture", "-o", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("mlbench: error: msqad: topics 'Refugees' is not one of Arms, Children's Rights,")
    assert line.endswith("Women's Rights")


@dataclass(frozen=True)
class Numbered:
    level: Literal[1, 2, 3] = option(2, "An int literal.")

    def __post_init__(self) -> None:
        check_choices(self, "numbered")


def test_an_int_literal_holds_its_default_and_refuses_another_number():
    assert Numbered().level == 2 and Numbered(level=3).level == 3
    with pytest.raises(MlbenchError, match=r"^numbered: level '4' is not one of 1, 2, 3$"):
        Numbered(level=4)  # type: ignore[arg-type]


def test_an_int_literal_is_read_from_its_text():
    assert parse_value("-T level", Literal[1, 2, 3], " 2 ") == 2
    with pytest.raises(MlbenchError, match=r"^-T level: '5' is not one of 1, 2, 3$"):
        parse_value("-T level", Literal[1, 2, 3], "5")
