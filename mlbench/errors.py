"""The one error type users see: a message that fits on one line, exit code 2."""


class MlbenchError(Exception):
    """Bad input or an environment problem the user can fix.

    The CLI prints ``str(error)`` on one line of stderr and exits with code 2; anything
    else escaping the CLI is a bug in mlbench.
    """
