"""The limits on work done for files a user's benchmark points at (task YAML, Jinja,
an author's ``utils.py``, TOML values, data), in one place every reader uses.

Such files are data: read, never executed. Data can still ask for unbounded work (a YAML
alias bomb, nested loops in a template, a list doubled sixty times), so each reader stops
at these limits with one line naming the file (``BudgetError``), within seconds and in
bounded memory. The limits sit far above what a real benchmark needs: the largest prompt
of the five core benchmarks is under 20,000 characters, a task file under 200 lines.
"""

from __future__ import annotations

import os
import reprlib
from collections.abc import Iterable
from pathlib import PurePath

from mlbench.errors import MlbenchError

# A prompt (text, or chat turns together) is never this long: past it the file that made
# it is not a prompt file, and a tokenizer may abort the process instead of failing.
MAX_PROMPT_CHARS = 1_000_000
# Files of an author's code or task definitions (YAML, utils.py) read whole: a few kB in
# practice.
MAX_CODE_BYTES = 2_000_000
# A task file is a few kB and a hub card tens; PyYAML's pure-Python reader takes seconds
# a megabyte (and longer on YAML 1.1's base-60 numbers), so a YAML file stops at 512 kB.
MAX_YAML_CHARS = 512_000
# A YAML document with its aliases expanded: a hub card lists a few thousand nodes.
MAX_YAML_NODES = 200_000
# Nesting of YAML, of a parsed utils.py and of the values its functions build.
MAX_NESTING = 100
# Depth of a parsed file's syntax tree: the interpreter recurses once or twice per level,
# and stays under Python's recursion limit of 1,000 frames. A prompt function nests a
# dozen levels; a chain of 150 elif or + is still read.
MAX_CODE_DEPTH = 250
# How deep one evaluation of a utils.py expression may nest: the interpreter takes two or
# three Python frames a level, under Python's limit of 1,000 (the syntax tree is bounded
# by MAX_CODE_DEPTH).
MAX_EVALUATION_DEPTH = 200
# Steps of a Jinja template's own code (its lines run), per rendering: a real template
# runs a few dozen.
MAX_TEMPLATE_STEPS = 1_000_000
# A Jinja rendering's wall-clock limit in seconds, for work its steps do not show (a
# filter's C code).
MAX_TEMPLATE_SECONDS = 5
# Files an lm-eval task file's includes chain through: lm-eval's tasks include one or two;
# more is a loop or a changed layout.
MAX_INCLUDES = 8
# JSON from outside (lm-eval's logs, run files): how deep it nests (lm-eval's logs and
# mlbench's files nest under 10 levels), and the characters of one document (a samples
# file is read a line at a time).
MAX_JSON_DEPTH = 100
MAX_JSON_CHARS = 2_000_000_000
# Items of a list a prompt function builds: a prompt lists a handful of options.
MAX_LIST_ITEMS = 100_000
# Tokens a task file may ask a model to write per answer: lm-eval's tasks ask 256 to a few
# thousand; a file asking a hundred billion keeps every row writing to the model's limit.
MAX_NEW_TOKENS = 100_000
# Names listed in one error line before the rest are counted.
MAX_LISTED = 20


class BudgetError(MlbenchError):
    """A file asked for more work than its budget: one line naming the file and the limit."""


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlevel = 3
for _attribute in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque", "maxarray"):
    setattr(_SHORT, _attribute, 4)


def shown(value: object) -> str:
    """``repr(value)`` cut short without building the whole of it: a value read from a
    file may be an alias bomb whose full ``repr`` would not fit in memory."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"<a number of {value.bit_length():,} bits>"  # repr() refuses past 4,300 digits
    try:
        return _SHORT.repr(value)
    except ValueError:  # such a number inside a list
        return f"<a {type(value).__name__}>"


def listing(names: Iterable[str], limit: int = MAX_LISTED) -> str:
    """``a, b, c`` or, past ``limit`` names, the first ones and how many more."""
    items = list(names)
    if len(items) <= limit:
        return ", ".join(items)
    return f"{', '.join(items[:limit])} and {len(items) - limit:,} more"


def check_prompt_size(length: int, where: str) -> None:
    """Refuse a prompt of ``length`` characters past ``MAX_PROMPT_CHARS`` (``where``: the
    file or sample that made it)."""
    if length > MAX_PROMPT_CHARS:
        raise BudgetError(f"{where}: makes a prompt of {length:,} characters, over mlbench's {MAX_PROMPT_CHARS:,}")


# What Linux file systems hold: a name of 255 bytes, a path of 4,096.
NAME_MAX = 255
PATH_MAX = 4096


def check_path_length(path: str | PurePath, where: str) -> None:
    """Refuse a path a file system cannot hold, before anything opens it (``open`` would
    raise ENAMETOOLONG): one line naming ``where`` and the part too long."""
    if len(os.fsencode(str(path))) > PATH_MAX:
        raise BudgetError(f"{where}: a path of over {PATH_MAX:,} bytes, more than a file system holds")
    for part in PurePath(path).parts:
        length = len(os.fsencode(part))
        if length > NAME_MAX:
            name = shown(part)
            raise BudgetError(f"{where}: a file name of {length:,} bytes ({name}); a file system holds {NAME_MAX}")


# What a verdict keeps of its judge's prompt, in characters: the text itself up to here (a
# TruthfulQA judge's prompt is a few hundred), its sha256 and length past it (a claim
# checked against ten search snippets, say), so samples files stay small.
JUDGE_SENT_KEPT = 16_000
