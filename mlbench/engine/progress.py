"""A progress bar that moves by whole samples while a backend reports finished requests."""

from __future__ import annotations

from collections.abc import Callable


class SampleProgress:
    """The requests a backend reports finished, as whole samples on a progress bar.

    Backends report progress in requests (an MC question is one request per option, a
    generated answer one request), and a chunk's requests go to the backend in one call
    so that they batch well: a bar advanced once per chunk sat still for minutes. Each
    mode counts as an equal share of every sample (an MC option costs far less than a
    generated answer, so counting requests would rush through MC and stall on
    generation), and the bar moves by one call per whole sample finished."""

    def __init__(self, advance: Callable[[int], None], samples: int, modes: int) -> None:
        self.advance, self.samples, self.modes = advance, samples, max(modes, 1)
        self.work = 0.0  # finished share of the chunk, 0 to 1
        self.shown = 0  # samples the bar has been advanced by

    def mode(self, requests: int) -> Callable[[int], None]:
        """The backend's progress callback for one mode's ``requests`` requests."""
        if requests == 0:  # nothing to wait for: this mode's share is done
            self.work += 1 / self.modes
            self._show()
            return lambda n: None
        share = 1 / (self.modes * requests)

        def finished(n: int) -> None:
            self.work += n * share
            self._show()

        return finished

    def _show(self) -> None:
        # A little slack for float sums: 3 × (1/3) must count as the whole sample.
        whole = min(self.samples, int(self.work * self.samples + 1e-9))
        while self.shown < whole:
            self.shown += 1
            self.advance(1)

    def finish(self) -> None:
        """Every sample is scored: a backend that reports less (or nothing) is made up for."""
        self.work = 1.0
        self._show()

    def undo(self) -> None:
        """Take back what this chunk showed, before the chunk is scored again."""
        if self.shown:
            self.advance(-self.shown)
        self.work, self.shown = 0.0, 0
