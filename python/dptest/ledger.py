"""The privacy-budget ledger (file format ``dptest-ledger-2``), bound from the Rust crate
``dptest-ledger`` that the CLI's ``--ledger`` uses too: one implementation of the file, the
lock on the ledger file itself (whatever path reaches it; held from the budget check until
the release is recorded, the file rewritten in place, created readable by its owner only) and
the ε and δ limits, so the CLI and Python share a ledger without overspending.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Optional

from . import _dptest

__all__ = ["Ledger", "LEDGER_FORMAT", "DEFAULT_DELTA_BUDGET"]

#: The file format's name and a dataset's δ budget when none is declared (0: only pure ε-DP
#: releases), both from the Rust crate.
LEDGER_FORMAT: str = _dptest.LEDGER_FORMAT
DEFAULT_DELTA_BUDGET: float = _dptest.DEFAULT_DELTA_BUDGET


class Ledger:
    """A budget ledger for one declared dataset.

    Parameters
    ----------
    path : str or os.PathLike
        The ledger file (created if absent).
    dataset : str
        The dataset's name in the ledger (key ``name:NAME``, as the CLI's ``--dataset``).
    budget : float, optional
        Total ε of the dataset, set on its first release (fixed after).
    delta_budget : float, optional
        Total δ, set on its first release (default 0: only pure ε-DP releases; a
        release with δ > 0, such as ``statistic="paper"``, is refused until one is declared).

    Examples
    --------
    >>> led = dptest.Ledger("budget.json", dataset="trial-7", budget=1.0)  # doctest: +SKIP
    >>> dptest.kruskal(a, b, epsilon=0.5, ledger=led)                       # doctest: +SKIP
    """

    def __init__(self, path: Any, dataset: str, budget: Optional[float] = None,
                 delta_budget: Optional[float] = None) -> None:
        if not dataset:
            raise ValueError("a ledger needs dataset=NAME (the declared dataset)")
        self.path = os.fspath(path)
        self.dataset = str(dataset)
        self.budget = None if budget is None else float(budget)
        self.delta_budget = None if delta_budget is None else float(delta_budget)

    def status(self) -> dict:
        """The dataset's budget state (the CLI's ``ledger`` key); no lock, no release."""
        text = _dptest.ledger_status(self.path, self.dataset)
        if text is None:
            raise ValueError(f"dataset {self.dataset!r} is not in ledger {self.path}")
        return json.loads(text)

    def charged(self, test: str, epsilon: float, delta: float, run: Callable[[], Any]) -> Any:
        """Runs ``run`` (the release) under the locked ledger: refused (``PrivacyBudgetError``,
        nothing run) if it would overspend, recorded if it succeeds."""
        result, status = _dptest.ledger_charged(
            self.path, self.dataset, self.budget, self.delta_budget, test,
            float(epsilon), float(delta), run,
        )
        if hasattr(result, "_fields"):
            result._fields["ledger"] = json.loads(status)
        return result

    def __repr__(self) -> str:
        return f"Ledger({self.path!r}, dataset={self.dataset!r})"
