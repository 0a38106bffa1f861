"""The privacy-budget ledger, in the CLI's file format (``dptest-ledger-2``).

A ledger written by ``dptest ... --ledger FILE --dataset NAME`` and one written here are the
same file: both lock ``<file stem>.lock`` (flock) from the budget check until the release is
recorded, so the CLI and Python can share a ledger without overspending.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from typing import Any, Callable, Optional

from ._api import PrivacyBudgetError

__all__ = ["Ledger", "LEDGER_FORMAT", "DEFAULT_DELTA_BUDGET"]

LEDGER_FORMAT = "dptest-ledger-2"
DEFAULT_DELTA_BUDGET = 1e-5
_SLACK = 1e-12  # dptest_mechanisms::BUDGET_RELATIVE_SLACK


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
        Total δ, set on its first release (default 1e-5).

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

    @property
    def _key(self) -> str:
        return f"name:{self.dataset}"

    def _load(self) -> dict:
        if not os.path.exists(self.path):
            return {"format": LEDGER_FORMAT, "datasets": {}}
        with open(self.path, encoding="utf-8") as f:
            try:
                ledger = json.load(f)
            except json.JSONDecodeError as e:
                raise ValueError(f"ledger {self.path} is not a {LEDGER_FORMAT} ledger: {e}") from None
        if ledger.get("format") != LEDGER_FORMAT:
            raise ValueError(
                f"ledger {self.path} has format '{ledger.get('format')}', expected '{LEDGER_FORMAT}'"
            )
        return ledger

    def _save(self, ledger: dict) -> None:
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(ledger, indent=2) + "\n")
        os.replace(tmp, self.path)

    def _entry(self, ledger: dict) -> dict:
        d = ledger["datasets"].get(self._key)
        if d is not None:
            for given, key, what in ((self.budget, "budget", "budget"),
                                     (self.delta_budget, "delta_budget", "delta_budget")):
                if given is not None and given != d[key]:
                    raise ValueError(
                        f"the ledger fixes this dataset's {what} at {d[key]}; {what} {given} "
                        "cannot change it"
                    )
            return d
        if self.budget is None:
            raise ValueError(
                f"this dataset is not in ledger {self.path} yet: pass budget=E to set its total ε"
            )
        if not (self.budget > 0 and self.budget < float("inf")):
            raise ValueError(f"budget: ε must be finite and > 0, got {self.budget}")
        delta_budget = DEFAULT_DELTA_BUDGET if self.delta_budget is None else self.delta_budget
        if not 0.0 <= delta_budget < 1.0:
            raise ValueError(f"delta_budget {delta_budget} must be in [0, 1)")
        d = {"budget": self.budget, "delta_budget": delta_budget, "releases": []}
        ledger["datasets"][self._key] = d
        return d

    @staticmethod
    def _status(name: str, d: dict) -> dict:
        spent = sum(r["epsilon"] for r in d["releases"])
        return {
            "dataset": name,
            "budget": d["budget"],
            "spent": spent,
            "remaining": max(d["budget"] - spent, 0.0),
            "delta_budget": d["delta_budget"],
            "delta_spent": sum(r["delta"] for r in d["releases"]),
            "releases": len(d["releases"]),
        }

    def status(self) -> dict:
        """The dataset's budget state (the CLI's ``ledger`` key); no lock, no release."""
        d = self._load()["datasets"].get(self._key)
        if d is None:
            raise ValueError(f"dataset {self.dataset!r} is not in ledger {self.path}")
        return self._status(self.dataset, d)

    def charged(self, test: str, epsilon: float, delta: float, run: Callable[[], Any]) -> Any:
        """Runs ``run`` (the release) under the locked ledger: refused (``PrivacyBudgetError``,
        nothing run) if it would overspend, recorded if it succeeds."""
        lock_path = os.path.splitext(self.path)[0] + ".lock"
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                ledger = self._load()
                d = self._entry(ledger)
                st = self._status(self.dataset, d)
                if st["spent"] + epsilon > d["budget"] * (1.0 + _SLACK):
                    raise PrivacyBudgetError(
                        f"refused: this query needs ε = {epsilon:g} but only ε = "
                        f"{st['remaining']:g} of the budget {d['budget']:g} is left for this dataset"
                    )
                if st["delta_spent"] + delta > d["delta_budget"] * (1.0 + _SLACK):
                    raise PrivacyBudgetError(
                        f"refused: this query needs δ = {delta:g} but only δ = "
                        f"{max(d['delta_budget'] - st['delta_spent'], 0.0):g} of the δ budget "
                        f"{d['delta_budget']:g} is left for this dataset"
                    )
                result = run()
                d["releases"].append({"time_unix": int(time.time()), "test": test,
                                      "epsilon": float(epsilon), "delta": float(delta)})
                self._save(ledger)
                if hasattr(result, "_fields"):
                    result._fields["ledger"] = self._status(self.dataset, d)
                return result
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
