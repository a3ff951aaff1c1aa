"""The one error type users see: a message that fits on one line, exit code 2."""


class MlbenchError(Exception):
    """Bad input or an environment problem the user can fix.

    The CLI prints ``str(error)`` on one line of stderr and exits with code 2; anything
    else escaping the CLI is a bug in mlbench.
    """


class LogprobsUnsupported(MlbenchError):
    """The backend cannot return log-probs (a chat-only API); callers that have another way
    to get their answer (a judge that can parse generated text) say so in their message."""
