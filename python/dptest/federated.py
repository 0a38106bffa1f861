"""Federated analysis from Python, as ``dptest federated ...``: K-anonymous summary tables
(Algorithm S1, then joining centres without splitting), the federated Mann–Whitney test and
quantiles (on a table, or over the centres' data). Tables are the versioned JSON (``dptest-federated-table/2``) read,
validated and written by the Rust crate ``dptest-federated`` itself, so a table built here
and one built by the CLI are the same file format.

A table releases K-anonymous counts only (every cell 0 or ≥ K); it is NOT differentially
private. Each centre keeps a disclosure journal (``journal=``, the CLI's ``--journal``): a
table that would, with what the centre disclosed before, reveal 1..K−1 of its values between
two limits is refused. :func:`summary` and :func:`combine` exchange exact per-centre
statistics and are neither K-anonymous nor differentially private.

>>> t = dptest.federated.bin(df_a, group="dx", value="y", k=10, groups=["case", "control"],
...                          journal="a-journal.json", dataset="site-a-2026",
...                          centre="site-a")                               # doctest: +SKIP
>>> t = dptest.federated.add(t, df_b, group="dx", value="y", journal="b-journal.json",
...                          dataset="site-b-2026", centre="site-b")         # doctest: +SKIP
>>> dptest.federated.test(t).pvalue                                           # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
from typing import Any, List, Optional, Sequence, Tuple

from . import _dptest
from ._api import TestResult, _array, _native

__all__ = ["Table", "CentreSummary", "bin", "add", "test", "quantile", "quantile_from_centres",
           "summary", "combine"]


class Table:
    """A K-anonymous federated summary table (``dptest-federated-table/2``).

    Attributes: ``k``, ``bins``, ``groups``, ``centres``, ``totals``; ``released`` (what the
    last centre disclosed) and ``suppressed`` (groups withheld at that centre: a note for the
    data holder, never part of the release) when the table comes from :func:`bin`/:func:`add`.
    """

    def __init__(self, text: str, released: Any = None, suppressed: Any = None) -> None:
        info = json.loads(_dptest.federated_table_info(text))
        self._json: str = info["json"]
        self.k: int = info["k"]
        self.bins: int = info["bins"]
        self.groups: List[str] = info["groups"]
        self.centres: List[str] = info["centres"]
        self.totals: List[float] = info["totals"]
        self.released = released
        self.suppressed = suppressed or []

    @classmethod
    def from_json(cls, text: str) -> "Table":
        """Parses and validates a table's JSON text."""
        return cls(text)

    @classmethod
    def load(cls, path: Any) -> "Table":
        """Reads a table file (as written by ``dptest federated bin/add`` or :meth:`save`)."""
        with open(os.fspath(path), encoding="utf-8") as f:
            return cls(f.read())

    def to_json(self) -> str:
        """The table's JSON text (the federated crate's serialisation)."""
        return self._json

    def save(self, path: Any) -> None:
        """Writes the table file as the CLI does (the JSON text and a newline)."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self._json + "\n")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and json.loads(self._json) == json.loads(other._json)

    def __repr__(self) -> str:
        return (f"Table(k={self.k}, bins={self.bins}, groups={self.groups}, "
                f"centres={self.centres}, totals={self.totals})")


def _table(table: Any) -> Table:
    if isinstance(table, Table):
        return table
    if isinstance(table, (str, os.PathLike)) and not str(table).lstrip().startswith("{"):
        return Table.load(table)
    if isinstance(table, str):
        return Table.from_json(table)
    raise TypeError("table must be a dptest.federated.Table, a table file or its JSON text")


def _columns(df: Any, group: str, value: str, groups: Sequence[Any],
             drop_missing: bool) -> List[list]:
    if group is None or value is None:
        raise ValueError("pass group= (the label column) and value= (the values column)")
    labels = df[group]
    declared = [str(g) for g in groups]
    present = {str(g) for g in labels.tolist()}
    extra = sorted(present - set(declared))
    if extra:
        raise ValueError(
            f"the {group!r} column holds labels that are not among the declared groups: "
            f"{', '.join(extra)}"
        )
    out = []
    as_text = labels.astype(str)
    for g in declared:
        column = df.loc[as_text == g, value]
        if drop_missing:
            column = column.dropna()
        out.append(_array(column, f"group {g!r}").tolist())
    return out


def _release(text: str) -> Table:
    out = json.loads(text)
    return Table(out["table"], released=out["released"], suppressed=out["suppressed"])


def bin(df: Any, *, group: str, value: str, k: int, groups: Sequence[Any], journal: Any,
        dataset: str, centre: Optional[str] = None, extremes: str = "infinite",
        natural: Optional[Tuple[float, float]] = None, small_groups: str = "error",
        drop_missing: bool = False) -> Table:
    """One centre's K-anonymous summary table (Algorithm S1), as ``dptest federated bin``.

    ``groups`` declares the one or two groups, in order (group 1 first); they are public
    parameters, never read off the data. ``journal`` is this centre's disclosure journal (a
    file, created if absent; the CLI's ``--journal``) and ``dataset`` the name of this data in
    it: each interior limit comes from the journal's secret and the two values it separates
    (the same in every run), and a table that would, with what the centre disclosed before,
    reveal 1..K−1 values between two limits raises ``ValueError``. ``centre`` is the centre's
    id (random if omitted); ``extremes`` is 'infinite', 'buffer' or 'natural' (with
    ``natural=(lo, hi)``); ``small_groups='suppress'`` withholds a group with 1..K−1
    observations instead of raising.
    """
    if groups is None or not 1 <= len(groups) <= 2:
        raise ValueError("declare the table's one or two groups, in order: groups=[A, B]")
    path = _journal(journal, dataset)
    values = _columns(df, group, value, groups, drop_missing)
    nat = None if natural is None else (float(natural[0]), float(natural[1]))
    return _release(_dptest.federated_bin(values, [str(g) for g in groups], int(k), centre,
                                          extremes, nat, small_groups, path, str(dataset)))


def add(table: Any, df: Any, *, group: str, value: str, journal: Any, dataset: str,
        centre: Optional[str] = None, small_groups: str = "error",
        drop_missing: bool = False) -> Table:
    """Adds a centre's data to a table (S3 without splitting), as ``dptest federated add``.
    The table's groups are the declared groups; joining draws no randomness. ``journal`` and
    ``dataset`` are as in :func:`bin`: a table that would, with what this centre disclosed
    before (a second version of a table, a hand-made one), reveal 1..K−1 of its values between
    two limits raises ``ValueError`` and records nothing."""
    t = _table(table)
    path = _journal(journal, dataset)
    values = _columns(df, group, value, t.groups, drop_missing)
    return _release(_dptest.federated_add(t.to_json(), values, centre, small_groups, path,
                                          str(dataset)))


def _journal(journal: Any, dataset: Any) -> str:
    """The journal path, checked (with the dataset name) before any data is read."""
    path = os.fspath(journal)
    _dptest.federated_journal_check(path, str(dataset))
    return path


def test(table: Any, alternative: str = "two-sided", *, alpha: float = 0.05) -> TestResult:
    """The federated Mann–Whitney test on a two-group table (U_fed), as
    ``dptest federated test``. Computed from the K-anonymous table only; no DP."""
    t = _table(table)
    return _native(_dptest.federated_test, t.to_json(), alternative, float(alpha))


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def quantile(table: Any, q: Any, *, method: str = "yj-table",
             group: Optional[str] = None) -> dict:
    """Quantiles of one group (default the first) from a table, as
    ``dptest federated quantile --table``; ``method`` is 'yj-table', 'linear' or 'naive'.
    Returns the CLI's keys: ``group``, ``method``, ``quantiles`` (``p``, ``quantile``; None
    for an open extreme bin) and ``fit`` (yj-table)."""
    t = _table(table)
    return json.loads(_dptest.federated_quantile(t.to_json(), _probabilities(q), method, group))


def quantile_from_centres(centres: Sequence[Any], q: Any, *, method: str = "yj-data") -> dict:
    """Quantiles of the pooled values of several centres, as ``dptest federated quantile
    --centres``: the protocol is run here over every centre's values (one array-like each), so
    use it where one party may see them all. ``method`` is 'yj-data' (Yeo–Johnson model from
    per-centre sums) or 'loss' (federated bisection on counts: the exact pooled order
    statistic). NOT K-anonymous and not DP: the protocol discloses per-centre counts or sums.
    Returns ``group`` ('all rows'), ``method``, ``quantiles`` (``p``, ``quantile``, and
    ``rounds`` for 'loss') and ``fit`` ('yj-data')."""
    arrays = [_array(c, f"centre {i}") for i, c in enumerate(centres)]
    return json.loads(_dptest.federated_quantile_data(arrays, _probabilities(q), method))


def _probabilities(q: Any) -> List[float]:
    return [float(p) for p in (q if hasattr(q, "__iter__") else [q])]


class CentreSummary:
    """One centre's exact Mann–Whitney summary (n, m, U, V): NOT K-anonymous, not DP."""

    k_anonymous = False

    def __init__(self, text: str) -> None:
        self._json = text
        fields = json.loads(text)
        self.centre: str = fields["centre"]
        self.groups: List[str] = fields["groups"]
        self.summary: dict = {key: fields[key] for key in ("n", "m", "u", "v")}

    def to_json(self) -> str:
        return self._json

    def save(self, path: Any) -> None:
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(self._json + "\n")

    @classmethod
    def load(cls, path: Any) -> "CentreSummary":
        with open(os.fspath(path), encoding="utf-8") as f:
            text = f.read()
        return cls(text.strip())

    def __repr__(self) -> str:
        return f"CentreSummary(centre={self.centre!r}, {self.summary}; not K-anonymous, not DP)"


def summary(df: Any, *, group: str, value: str, groups: Sequence[Any],
            centre: Optional[str] = None, drop_missing: bool = False) -> CentreSummary:
    """A centre's exact summary file, as ``dptest federated summary``. It releases the exact
    group sizes and U: NOT K-anonymous and NOT differentially private."""
    if groups is None or len(groups) != 2:
        raise ValueError("declare the two groups, in order: groups=[A, B]")
    x, y = _columns(df, group, value, groups, drop_missing)
    return CentreSummary(_dptest.federated_summary(x, y, (str(groups[0]), str(groups[1])),
                                                   centre))


def combine(summaries: Sequence[Any], method: str, alternative: str = "two-sided", *,
            alpha: float = 0.05) -> TestResult:
    """Combines centre summaries ('sum', 'weighted' or 'fisher'), as
    ``dptest federated combine``: NOT K-anonymous and NOT differentially private."""
    texts = [s.to_json() if isinstance(s, CentreSummary) else CentreSummary.load(s).to_json()
             for s in summaries]
    return _native(_dptest.federated_combine, texts, method, alternative, float(alpha))
