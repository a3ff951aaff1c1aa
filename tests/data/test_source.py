"""The tasks the embedded sample set covers, as error lines name them."""

from __future__ import annotations

from mlbench.benchmarks import all_tasks
from mlbench.benchmarks.base import TaskOptions
from mlbench.data.source import SAMPLE_TASKS, DataSource
from mlbench.errors import MlbenchError


def takes_the_sample(task) -> bool:
    try:
        task.validate(TaskOptions(source=DataSource("sample")))
    except MlbenchError:
        return False
    return True


def test_sample_tasks_are_the_tasks_that_take_the_sample():
    assert sorted(task.name for task in all_tasks() if takes_the_sample(task)) == sorted(SAMPLE_TASKS)


def test_a_hub_benchmark_without_a_sample_says_which_tasks_have_one_and_what_to_do():
    (task,) = [task for task in all_tasks() if task.name == "m_truthfulqa"]
    try:
        task.validate(TaskOptions(source=DataSource("sample")))
    except MlbenchError as error:
        said = str(error)
    assert said == (
        "m_truthfulqa has no embedded sample set (--sample covers: truthfulqa_multi, truthfulqa_multi_mt, veritasqa);"
        " drop --sample to fetch alexandrainst/m_truthfulqa, or give --data-dir DIR with a copy"
    )
