"""Metric names with a setting attached: ``sim_1gram@0.25`` is sim_1gram at temperature 0.25.

Tables and aggregation list metrics by their base name; every ``<name>@<setting>`` found
in the results follows its base name, settings in numeric order. What a metric is
(``metrics/descriptor.py``) is declared by base name too: ``refusal@adversarial`` is a
``refusal``.

>>> temperature_key(0.0), temperature_key(0.25), temperature_key(1)
('0', '0.25', '1')
>>> expand_order(["mc1", "sim_1gram"], ["sim_1gram@1", "sim_1gram@0.5", "mc1", "other"])
['mc1', 'sim_1gram@0.5', 'sim_1gram@1']
"""

from __future__ import annotations

from collections.abc import Iterable


def temperature_key(temperature: float) -> str:
    return f"{temperature:g}"


def at(metric: str, setting: str) -> str:
    return f"{metric}@{setting}"


def base_name(metric: str) -> str:
    return metric.split("@", 1)[0]


def _setting_rank(metric: str) -> tuple[int, float, str]:
    setting = metric.split("@", 1)[1] if "@" in metric else ""
    try:
        return (1, float(setting), setting)
    except ValueError:
        return (0 if not setting else 2, 0.0, setting)


def expand_order(order: Iterable[str], present: Iterable[str]) -> list[str]:
    """The metrics of ``present`` in ``order`` (by base name), settings ascending; metrics
    whose base name is not in ``order`` are left out."""
    present = set(present)
    out: list[str] = []
    for name in order:
        mine = [m for m in present if base_name(m) == name]
        out += sorted(mine, key=_setting_rank)
    return out
