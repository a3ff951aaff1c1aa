"""What the TruthfulQA-Multi authors' judge script does, read from it (hitz-zentroa/
truthfulqa-multi ``judge/run_experiments/llm_evaluate.py``, pinned in ``sources.py``),
never run: the text a judge reads, its chat turns per model class, how many tokens it
writes and how its words are read (docs/judges.md#truthfulqa-multis-judge-protocols).

The script is one ``main()`` whose choices hang on its flags (``args.label`` is ``truth``
or ``info``, ``args.instruct`` says whether the judge gets a chat template). This reader
walks that function as the flags choose: an ``if`` on a flag takes the branch the flag
selects, any other ``if`` (an ``isinstance`` on the judge's class, a marker ``in`` the
output) is kept as the condition of what it holds. Every piece is found in exactly one
place or the file is not the one mlbench was written against (``UpstreamShapeError``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from mlbench.data.source import DataSource
from mlbench.data.untrusted.python_module import UpstreamShapeError
from mlbench.data.untrusted.python_source import UpstreamCode, dotted_name

Flags = dict[str, object]  # "args.label" -> "truth", "args.instruct" -> True
LABELS = ("truth", "info")  # the script's --label choices, which are mlbench's judge kinds


@dataclass(frozen=True)
class Reached:
    """A statement the flags reach, with the conditions of the ``if``s around it that no
    flag decides (each with the branch taken)."""

    statement: ast.stmt
    conditions: tuple[tuple[ast.expr, bool], ...]


@dataclass(frozen=True)
class ChatLayout:
    """One ``format_chat_template`` of the script: the judge classes it is for and the
    expression of the turns it sends (over ``question`` and ``instruction``)."""

    classes: frozenset[str]
    turns: ast.expr


@dataclass(frozen=True)
class AuthorsJudgeCode:
    code: UpstreamCode
    questions: dict[str, str]  # label -> what an instruct judge is asked
    instructions: dict[str, ast.expr]  # label -> the text judged, over ``line``
    layouts: tuple[ChatLayout, ...]
    cut: int  # an instruct judge gets ``instruction[:cut]``
    max_new_tokens: int
    base_markers: dict[str, str]  # label -> the split a base judge's output is read after
    chat_markers: tuple[str, ...]  # tried in order on an instruct judge's output
    yes: str  # the one label the share counts

    def instruction(self, label: str, question: str, response: str) -> str:
        """The script's ``instruction`` for a logged line with this question and response."""
        line = {"doc": {"question": question}, "filtered_resps": [response]}
        return _text(self.code.value_of("main", self.instructions[label], line=line), "instruction")

    def layout_for(self, model_class: str) -> ChatLayout | None:
        return next((layout for layout in self.layouts if model_class in layout.classes), None)

    def turns(self, layout: ChatLayout, label: str, instruction: str) -> list[dict[str, str]]:
        """The chat turns an instruct judge of ``layout``'s classes is sent."""
        turns = self.code.value_of("main", layout.turns, question=self.questions[label], instruction=instruction)
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise UpstreamShapeError(f"{self.code.label}: format_chat_template() sends no list of turns")
        return [{str(k): _text(v, "a turn") for k, v in turn.items()} for turn in turns if isinstance(turn, dict)]

    def label_of(self, out: str, label: str, chat: bool) -> str | None:
        """The script's ``result`` of a decoded output (None: no marker in it, where the
        script would keep the previous line's label)."""
        if not chat:
            return out.split(self.base_markers[label])[-1].strip()
        for marker in self.chat_markers:
            if marker in out:
                return out.split(marker)[-1].strip()
        return None


@cache
def read_judge_code(code: UpstreamCode) -> AuthorsJudgeCode:
    main = code.function("main")
    where = code.label

    def one(found: list[Reached], what: str) -> Reached:
        if len(found) != 1:
            raise UpstreamShapeError(f"{where}: main() has {len(found)} {what}, not one (the file changed shape)")
        return found[0]

    questions, instructions, base_markers = {}, {}, {}
    for label in LABELS:
        asked = one(_assignments(main, "question", {"args.instruct": True, "args.label": label}), "questions")
        questions[label] = _text(_constant(asked.statement), "question")
        said = one(_assignments(main, "instruction", {"args.label": label}), f"{label} instructions")
        instructions[label] = _value(said.statement)
        read = one(_assignments(main, "result", {"args.instruct": False, "args.label": label}), "base readings")
        base_markers[label] = _split_marker(read.statement, where)
    chat_text = one(_assignments(main, "text", {"args.instruct": True}), "chat texts")
    readings = _assignments(main, "result", {"args.instruct": True})
    if not readings:
        raise UpstreamShapeError(f"{where}: main() reads no instruct judge's output (the file changed shape)")
    generate = code.keyword("main", "generate", "max_new_tokens")
    if not isinstance(generate, int) or isinstance(generate, bool) or not 0 < generate <= 64:
        raise UpstreamShapeError(f"{where}: main() generates {generate!r} tokens (the file changed shape)")
    return AuthorsJudgeCode(
        code=code,
        questions=questions,
        instructions=instructions,
        layouts=tuple(_layouts(main, where)),
        cut=_cut(chat_text.statement, where),
        max_new_tokens=generate,
        base_markers=base_markers,
        chat_markers=tuple(_guarded_marker(r, where) for r in readings),
        yes=_yes(main, where),
    )


def judge_code(data: DataSource) -> AuthorsJudgeCode:
    """The script found for ``data`` (its --data-dir copy or the data cache), pin checked."""
    from mlbench.benchmarks.truthfulqa_multi.sources import JUDGE_SCRIPT, JUDGE_UPSTREAM

    return read_judge_code(JUDGE_UPSTREAM.code(data, JUDGE_SCRIPT))


def _reached(body: list[ast.stmt], flags: Flags, conditions: tuple = ()) -> Iterator[Reached]:
    for statement in body:
        yield Reached(statement, conditions)
        if isinstance(statement, ast.If):
            decided = _decided(statement.test, flags)
            if decided is not False:
                held = conditions if decided else (*conditions, (statement.test, True))
                yield from _reached(statement.body, flags, held)
            if decided is not True:
                held = conditions if decided is False else (*conditions, (statement.test, False))
                yield from _reached(statement.orelse, flags, held)
        elif isinstance(statement, (ast.For, ast.While, ast.With)):
            yield from _reached(statement.body, flags, conditions)
        elif isinstance(statement, ast.FunctionDef):
            yield from _reached(statement.body, flags, conditions)


def _decided(test: ast.expr, flags: Flags) -> bool | None:
    """The test's value when it reads only flags (None: something else decides it)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decided(test.operand, flags)
        return None if inner is None else not inner
    name = dotted_name(test)
    if name is not None:
        return bool(flags[name]) if name in flags else None
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        left, right = dotted_name(test.left), test.comparators[0]
        if left in flags and isinstance(right, ast.Constant):
            return flags[left] == right.value
    return None


def _assignments(main: ast.FunctionDef, variable: str, flags: Flags) -> list[Reached]:
    """The assignments to ``variable`` the flags reach, in the order of the text, outside
    the nested ``format_chat_template`` functions (read by ``_layouts``)."""
    found = []
    for reached in _reached(main.body, flags):
        statement = reached.statement
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and target.id == variable and not _in_layout(main, statement):
                found.append(reached)
    return found


def _in_layout(main: ast.FunctionDef, statement: ast.stmt) -> bool:
    return any(
        isinstance(node, ast.FunctionDef) and statement in ast.walk(node) for node in ast.walk(main) if node is not main
    )


def _layouts(main: ast.FunctionDef, where: str) -> Iterator[ChatLayout]:
    found = False
    for reached in _reached(main.body, {"args.instruct": True}):
        function = reached.statement
        if not isinstance(function, ast.FunctionDef) or function.name != "format_chat_template":
            continue
        guards = [test for test, taken in reached.conditions if taken]
        classes = _isinstance_classes(guards[-1]) if guards else None
        turns = [s.value for s in function.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.List)]
        if not classes or len(turns) != 1:
            raise UpstreamShapeError(f"{where}: a format_chat_template() is not read (the file changed shape)")
        found = True
        yield ChatLayout(frozenset(classes), turns[0])
    if not found:
        raise UpstreamShapeError(f"{where}: main() has no format_chat_template() (the file changed shape)")


def _isinstance_classes(test: ast.expr) -> set[str] | None:
    """The class names of ``isinstance(model, A) or isinstance(model, B)``."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    classes = set()
    for part in parts:
        if not (
            isinstance(part, ast.Call)
            and isinstance(part.func, ast.Name)
            and part.func.id == "isinstance"
            and len(part.args) == 2
            and isinstance(part.args[1], ast.Name)
        ):
            return None
        classes.add(part.args[1].id)
    return classes


def _constant(statement: ast.stmt) -> object:
    value = _value(statement)
    return value.value if isinstance(value, ast.Constant) else None


def _value(statement: ast.stmt) -> ast.expr:
    assert isinstance(statement, ast.Assign)
    return statement.value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise UpstreamShapeError(f"llm_evaluate.py: {what} is not a text (the file changed shape)")
    return value


def _cut(statement: ast.stmt, where: str) -> int:
    """N of ``text = format_chat_template(instruction[:N])``."""
    call = _value(statement)
    argument = call.args[0] if isinstance(call, ast.Call) and len(call.args) == 1 else None
    if isinstance(argument, ast.Subscript) and dotted_name(argument.value) == "instruction":
        sliced = argument.slice
        if isinstance(sliced, ast.Slice) and sliced.lower is None and sliced.step is None:
            upper, sign = sliced.upper, 1
            if isinstance(upper, ast.UnaryOp) and isinstance(upper.op, ast.USub):
                upper, sign = upper.operand, -1
            if isinstance(upper, ast.Constant) and type(upper.value) is int:
                return sign * upper.value
    raise UpstreamShapeError(f"{where}: main() sends an instruct judge no cut instruction (the file changed shape)")


def _split_marker(statement: ast.stmt, where: str) -> str:
    """M of ``result = out.split(M)[-1].strip()``."""
    node = _value(statement)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "strip":
        taken = node.func.value
        last = isinstance(taken, ast.Subscript) and ast.unparse(taken.slice) == "-1"
        if last and isinstance(taken, ast.Subscript) and isinstance(taken.value, ast.Call):
            split = taken.value
            if isinstance(split.func, ast.Attribute) and split.func.attr == "split" and len(split.args) == 1:
                marker = split.args[0]
                if isinstance(marker, ast.Constant) and isinstance(marker.value, str) and marker.value:
                    return marker.value
    raise UpstreamShapeError(f"{where}: main() reads a judge's output otherwise (the file changed shape)")


def _guarded_marker(reading: Reached, where: str) -> str:
    """The marker of an instruct judge's reading, which its ``if 'M' in out`` must test."""
    marker = _split_marker(reading.statement, where)
    tests = [test for test, taken in reading.conditions if taken]
    guard = tests[-1] if tests else None
    if not (
        isinstance(guard, ast.Compare)
        and isinstance(guard.ops[0], ast.In)
        and isinstance(guard.left, ast.Constant)
        and guard.left.value == marker
    ):
        raise UpstreamShapeError(f"{where}: main() reads an instruct judge's output otherwise (the file changed shape)")
    return marker


def _yes(main: ast.FunctionDef, where: str) -> str:
    """The label ``counts[...]`` is taken of for the share."""
    keys = {
        node.slice.value
        for node in ast.walk(main)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "counts"
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    }
    if len(keys) != 1:
        raise UpstreamShapeError(f"{where}: main() counts {len(keys)} labels, not one (the file changed shape)")
    return keys.pop()
