"""The scipy.stats-like interface over the native module ``dptest._dptest``.

Privacy rules kept here exactly as in the CLI:

* a private call needs ``epsilon``; ``public=True`` gives scipy's answer; never both;
* private grouped tests take the groups as declared public parameters: the number of samples
  passed is the number of groups (an empty sample is a valid empty group), and with
  ``data=``/``group=`` the ``groups`` list must be given (never read off the data);
* a private result carries nothing about the input beyond the declared parameters and the
  noised values; release noise comes from the OS CSPRNG (never seeded), ``seed`` only fixes
  the public Monte Carlo reference.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _dptest

__all__ = [
    "TestResult",
    "plan",
    "private_test",
    "tests",
    "PrivacyBudgetError",
    "kruskal",
    "mannwhitneyu",
    "wilcoxon",
    "ttest",
    "anova",
    "task_clifton",
    "critical_value",
    "shipped_table",
    "reference_pvalue",
]


# A private query was refused because it would overspend the ledger's budget (raised by the
# ledger crate; a RuntimeError subclass).
PrivacyBudgetError = _dptest.PrivacyBudgetError


class ConfidenceInterval(NamedTuple):
    """A confidence interval, as scipy's: ``low`` and ``high``."""

    low: float
    high: float


class TestResult(tuple):
    """The result of a test: a ``(statistic, pvalue)`` tuple, as scipy's results are.

    Attributes
    ----------
    statistic : float
        The statistic (the released, noisy one for private tests).
    pvalue : float
        The p-value (post-processing of the release for private tests).
    epsilon, delta : float or None
        What the test itself spent (``None`` for public tests).
    epsilon_total : float
        Private tests: the whole ε the release spent, the test's ``epsilon`` plus the ε of an
        interval with a release of its own (``ci_epsilon``); what a ledger is charged and what
        to publish as the cost.
    reference : dict
        The reference distribution used: ``engine``, ``draws``, ``seed`` (and
        ``distribution`` for public tests).
    private : bool
        Whether this is a differentially private release.

    Every other key of :meth:`to_dict` is also an attribute (``n``, ``noise_scale``, ...).
    """

    __test__ = False  # not a pytest class

    def __new__(cls, fields: dict, values: Optional[dict] = None) -> "TestResult":
        # NumPy-typed outputs of dptest.public (scalars or arrays of the input's float type)
        # are read before the JSON fields.
        values = values or {}
        pair = (values.get("statistic", fields.get("statistic")),
                values.get("pvalue", fields.get("p_value")))
        self = super().__new__(cls, pair)
        self._fields, self._values = fields, values
        return self

    def __getnewargs__(self):
        return (self._fields, self._values)

    @property
    def statistic(self) -> float:
        return self[0]

    @property
    def pvalue(self) -> float:
        return self[1]

    @property
    def p_value(self) -> float:
        return self[1]

    @property
    def private(self) -> bool:
        return self._fields.get("epsilon") is not None

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values", {})
        if name in values and not name.startswith("_"):
            return values[name]
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(name)

    def confidence_interval(self, confidence_level: Optional[float] = None) -> "ConfidenceInterval":
        """The interval of ``estimate`` (released with ``ci=LEVEL``) as ``(low, high)``, as
        scipy's ``TtestResult.confidence_interval``. A private interval is made with the
        release, at the level asked for then: ask for another level with ``ci=`` on the test
        (for the t-test and Mann–Whitney that costs no extra ε)."""
        est = self._fields.get("estimate")
        if est is None:
            raise ValueError("no interval was released: pass ci=LEVEL (e.g. ci=0.95) to the test")
        if confidence_level is not None and abs(confidence_level - est["level"]) > 1e-12:
            raise ValueError(
                f"the interval was released at level {est['level']}; rerun the test with "
                f"ci={confidence_level}")
        return ConfidenceInterval(est["low"], est["high"])

    def to_dict(self) -> dict:
        """The result with the keys of the CLI's ``--json`` output (a deep copy)."""
        return json.loads(json.dumps(self._fields))

    def __repr__(self) -> str:
        if "statistic" not in self._fields:  # a query's answer (critical_value), not a test
            shown = ", ".join(f"{k}={v!r}" for k, v in self._fields.items()
                              if not isinstance(v, (dict, list)))
            return f"Result({shown})"
        kind = f"epsilon={self._fields.get('epsilon')}" if self.private else "public"
        return (
            f"TestResult(test={self._fields.get('test')!r}, statistic={self.statistic!r}, "
            f"pvalue={self.pvalue!r}, {kind})"
        )


def _array(x: Any, name: str) -> np.ndarray:
    """A 1-D contiguous float64 array (no copy when ``x`` already is one)."""
    if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
        x = x.to_numpy(dtype=np.float64)
    try:
        a = np.ascontiguousarray(x, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name} must be numeric: {e}") from None
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    return a


def _mode(epsilon: Optional[float], public: bool) -> Optional[float]:
    if public and epsilon is None:
        return None
    if epsilon is not None and not public:
        return float(epsilon)
    raise ValueError("pass exactly one of epsilon=E and public=True")


def _call(progress: Optional[bool], message: str, fn, *args):
    """Runs a native call (which releases the GIL), with a stderr spinner after one second
    when ``progress`` is on (default: only when stderr is a terminal)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return _native(fn, *args)
    done = threading.Event()

    def spin() -> None:
        start = time.monotonic()
        if done.wait(1.0):
            return
        frames = "|/-\\"
        i = 0
        while not done.wait(0.1):
            sys.stderr.write(f"\r{frames[i % 4]} {message} ({time.monotonic() - start:.0f}s)")
            sys.stderr.flush()
            i += 1
        sys.stderr.write("\r" + " " * (len(message) + 12) + "\r")
        sys.stderr.flush()

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        return _native(fn, *args)
    finally:
        done.set()
        thread.join()


def _native(fn, *args):
    out = fn(*args)
    if isinstance(out, tuple):  # a private release: (JSON, (ε, δ) spent), for the ledger
        result = TestResult(json.loads(out[0]))
        result._spent = out[1]
        return result
    return TestResult(json.loads(out)) if isinstance(out, str) else out


def _public_interval(result: TestResult, test: str, arrays: list, ci: Optional[float],
                     ci_epsilon: Optional[float]) -> TestResult:
    """A public test's result with the public interval of ``ci=LEVEL`` as ``estimate`` (the
    CLI's ``--public --ci``); a public interval spends no ε."""
    if ci_epsilon is not None:
        raise ValueError("ci_epsilon is the ε of a private interval: a public interval spends none")
    if ci is not None:
        result._fields["estimate"] = json.loads(_dptest.public_interval(test, arrays, float(ci)))
    return result


def _grouped(samples, data, group, value, groups, private: bool) -> Tuple[list, list]:
    """The samples and their labels (declared groups for private tests)."""
    if data is not None:
        if samples:
            raise ValueError("pass the samples, or data= with group= and value=, not both")
        if group is None or value is None:
            raise ValueError("data= needs group= (the label column) and value= (the values)")
        labels_col = data[group]
        if groups is None:
            if private:
                raise ValueError(
                    "a private test needs its groups declared, in order: groups=[A, B, ...] "
                    "(the groups are public parameters and are never read off the data)"
                )
            groups = sorted(set(labels_col.tolist()), key=lambda g: (str(type(g)), g))
        declared = list(groups)
        extra = [g for g in set(labels_col.tolist()) if g not in declared]
        if extra:
            raise ValueError(
                f"the {group!r} column holds labels that are not among the declared groups: "
                f"{', '.join(map(str, sorted(map(str, extra))))}"
            )
        arrays = [_array(data.loc[labels_col == g, value], f"group {g!r}") for g in declared]
        return arrays, [str(g) for g in declared]
    arrays = [_array(s, f"sample {i}") for i, s in enumerate(samples)]
    if groups is None:
        labels = [str(i) for i in range(len(arrays))]
    else:
        labels = [str(g) for g in groups]
        if len(labels) != len(arrays):
            raise ValueError(
                f"groups names {len(labels)} groups but {len(arrays)} samples were passed"
            )
    return arrays, labels


def _no_ledger(ledger) -> None:
    """Refuses a ledger for a public test."""
    if ledger is not None:
        raise ValueError("a ledger records private releases only; public tests cost no budget")


def _ledger_run(ledger, test: str, epsilon: Optional[float], delta: float, run):
    if ledger is None:
        return run()
    if epsilon is None:
        _no_ledger(ledger)
    return ledger.charged(test, epsilon, delta, run)


def _release(
    test: str,
    arrays: Sequence[np.ndarray],
    labels: Sequence[str],
    epsilon: float,
    *,
    paired: bool = False,
    delta: Optional[float] = None,
    alternative: str = "two-sided",
    bounds: Optional[Tuple[float, float]] = None,
    popmean: float = 0.0,
    options: Optional[dict] = None,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """A private release of any registered test through its release hook (the CLI's path):
    the ledger is charged the ε and δ the test (and its interval) says it spends, from
    public values only."""
    public = _choices(epsilon, delta=delta, alternative=alternative, bounds=bounds,
                      popmean=popmean, options=options, ci=ci, ci_epsilon=ci_epsilon)
    n = sum(int(a.size) for a in arrays)
    spent_epsilon, spent_delta = _dptest.release_cost(test, n, len(arrays), paired, *public)
    args = (test, list(arrays), list(labels), paired, *public, draws, seed, float(alpha))
    return _ledger_run(
        ledger, test, spent_epsilon, spent_delta,
        lambda: _call(progress, "computing the reference distribution", _dptest.release, *args),
    )


def _choices(
    epsilon: float,
    *,
    delta: Optional[float] = None,
    alternative: str = "two-sided",
    bounds: Optional[Tuple[float, float]] = None,
    popmean: float = 0.0,
    options: Optional[dict] = None,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
) -> tuple:
    """The public choices of a release as the native calls take them: (ε, δ, alternative,
    bounds, popmean, named options, interval)."""
    named = []
    for name, value in (options or {}).items():
        if value is False or value is None:
            continue
        named.append((name.replace("_", "-"), "true" if value is True else str(value)))
    b = None if bounds is None else (float(bounds[0]), float(bounds[1]))
    if ci is None and ci_epsilon is not None:
        raise ValueError("ci_epsilon is the interval's ε: it goes with ci=LEVEL")
    interval = None if ci is None else (
        float(ci), None if ci_epsilon is None else float(ci_epsilon))
    return (float(epsilon), delta, alternative, b, float(popmean), named, interval)


def private_test(
    test: str,
    *samples: Any,
    epsilon: float,
    groups: Optional[Sequence[Any]] = None,
    paired: bool = False,
    delta: Optional[float] = None,
    alternative: str = "two-sided",
    bounds: Optional[Tuple[float, float]] = None,
    popmean: float = 0.0,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
    **options: Any,
) -> TestResult:
    """Any private test of the registry by name (``dptest.tests()``), as the CLI runs it.

    The named functions (:func:`kruskal`, :func:`wilcoxon`, ...) call this for their private
    branch; a test added to the registry is reachable here without a Python wrapper.

    Parameters
    ----------
    test : str
        The registry name, e.g. ``"kruskal-wallis"`` or ``"t-test"``.
    *samples : array_like
        Grouped tests: one sample per declared group (an empty sample is a valid empty
        group). One-sample tests: one sample (the differences x − y for paired data, with
        ``paired=True``).
    epsilon : float
        Privacy budget asked for (the result's ``epsilon`` is what the test spent, its
        ``epsilon_total`` the whole cost with an interval's own ``ci_epsilon``).
    groups : sequence, optional
        Names of the groups, in order (default ``"0", "1", ...``).
    delta, alternative, bounds, popmean
        The test's public choices, as the CLI's options of the same names.
    ci, ci_epsilon
        The effect estimate and its interval (``result.estimate``), as the CLI's ``--ci`` and
        ``--ci-epsilon``.
    draws, seed, alpha, ledger, progress
        As :func:`kruskal`.
    **options
        The test's own choices, as its CLI options (``statistic="squared"``,
        ``reference="normal"``, ``known_sizes=True``); others are refused.

    Examples
    --------
    >>> import dptest
    >>> r = dptest.private_test("wilcoxon", [0.5, 1.2, -0.3, 2.0, 0.9], epsilon=1.0)  # doctest: +SKIP
    """
    arrays = [_array(s, f"sample {i}") for i, s in enumerate(samples)]
    labels = [str(g) for g in groups] if groups is not None else [str(i) for i in range(len(arrays))]
    if len(labels) != len(arrays):
        raise ValueError(f"groups names {len(labels)} groups but {len(arrays)} samples were passed")
    return _release(
        test, arrays, labels, epsilon, paired=paired, delta=delta, alternative=alternative,
        bounds=bounds, popmean=popmean, options=options, ci=ci, ci_epsilon=ci_epsilon,
        draws=draws, seed=seed, alpha=alpha, ledger=ledger, progress=progress,
    )


def tests() -> list:
    """The names of the private tests of the registry (for :func:`private_test` and
    :func:`plan`)."""
    return list(_dptest.tests())


def kruskal(
    *samples: Any,
    epsilon: Optional[float] = None,
    public: bool = False,
    groups: Optional[Sequence[Any]] = None,
    data: Any = None,
    group: Optional[str] = None,
    value: Optional[str] = None,
    statistic: str = "abs",
    known_sizes: bool = False,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    ci_method: str = "auto",
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Kruskal–Wallis test of g ≥ 2 groups, ε-differentially private or public.

    Parameters
    ----------
    *samples : array_like
        One sample per group. For a private test the number of samples is the declared
        (public) number of groups; an empty sample is a valid empty group.
    epsilon : float, optional
        Privacy budget of the release. Exactly one of ``epsilon`` and ``public=True``.
    public : bool, default False
        The ordinary test: exactly ``scipy.stats.kruskal``.
    groups : sequence, optional
        Group names, in order (required with ``data=`` for a private test).
    data : pandas.DataFrame, optional
        Long-format data; with ``group`` (label column) and ``value`` (value column).
    statistic : {'abs', 'squared'}, default 'abs'
        Private statistic: KW-abs (sensitivity 8) or H (sensitivity 87).
    known_sizes : bool, default False
        Treat the group sizes as public (fixed by the design, or published anyway): the
        reference takes them instead of equal groups, and the release is ε-DP among datasets
        with these sizes.
    ci : float, optional
        Private test with ``statistic='abs'``: add ``estimate``, the rank effect KW-abs
        measures with a two-sided interval at level ``ci`` (post-processing of the release, no
        ε of its own), as the CLI's ``--ci``. Public test: the same estimate from mid-ranks
        with the sign-aware interval on the exact mean ranks (the CLI's ``--public --ci``).
    ci_epsilon : float, optional
        With ``ci`` and ``known_sizes=True``: an ε of its own for a release of the mean ranks'
        sampling covariance, so that the interval estimates their error instead of bounding it
        without the sizes (the CLI's ``--ci-epsilon``; charged with the
        test, ``epsilon_total``).
    ci_method : {'auto', 'scaled', 'covariance', 'signs'}, default 'auto'
        With ``ci_epsilon``: ``'scaled'`` spends it on one number, the covariance as a
        multiple of its null shape; ``'covariance'`` on the covariance's entries;
        ``'signs'`` splits it between the covariance and the groups' weighted mean-rank
        deviations and keeps the signs those make sure; ``'auto'`` takes ``'signs'`` where
        the scaled route's one number would have noise of scale 0.025 or less (large groups
        or ``ci_epsilon``), else ``'scaled'`` (public parameters only; the CLI's
        ``--ci-method``; docs/intervals.md compares them).
    draws, seed : int, optional
        Monte Carlo draws and seed of the public reference (defaults as the CLI: the
        test's draws, and a fresh seed from the OS CSPRNG, reported in ``reference``).
    alpha : float, default 0.05
        Level of the ``reject`` decision in the result.
    ledger : dptest.Ledger, optional
        Budget ledger charged with this release (refused if it would overspend).
    progress : bool, optional
        Show a spinner on stderr for long references (default: when stderr is a terminal).

    Returns
    -------
    TestResult
        Unpacks as ``(statistic, pvalue)``; ``to_dict()`` has the CLI's JSON keys.

    Raises
    ------
    ValueError
        Bad input or parameters (the library's message).
    PrivacyBudgetError
        The ledger refused the release.

    Examples
    --------
    >>> import dptest
    >>> dptest.kruskal([1, 2, 3], [4, 5, 6], public=True).pvalue  # doctest: +SKIP
    0.0495...
    """
    eps = _mode(epsilon, public)
    if ci is None and ci_method not in ("auto", "scaled"):
        raise ValueError("ci_method chooses the rank effect's interval: it goes with ci=LEVEL "
                         "and ci_epsilon")
    arrays, labels = _grouped(samples, data, group, value, groups, eps is not None)
    if eps is not None:
        return _release(
            "kruskal-wallis", arrays, labels, eps,
            options={"statistic": statistic, "known_sizes": bool(known_sizes),
                     "ci_method": ci_method}, ci=ci,
            ci_epsilon=ci_epsilon, draws=draws, seed=seed, alpha=alpha, ledger=ledger,
            progress=progress,
        )
    _no_ledger(ledger)
    result = _native(_dptest.kruskal, arrays, labels, float(alpha))
    return _public_interval(result, "kruskal-wallis", arrays, ci, ci_epsilon)


def mannwhitneyu(
    x: Any = None,
    y: Any = None,
    *,
    epsilon: Optional[float] = None,
    public: bool = False,
    alternative: str = "two-sided",
    delta: float = 1e-6,
    known_sizes: bool = False,
    statistic: str = "centred",
    count_sizes: bool = False,
    reference: str = "auto",
    use_continuity: bool = True,
    method: str = "auto",
    groups: Optional[Sequence[Any]] = None,
    data: Any = None,
    group: Optional[str] = None,
    value: Optional[str] = None,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Mann–Whitney U test of two groups: ε-DP (sizes never released, or public with
    ``known_sizes``), (ε, δ)-DP with the paper's statistic, or public.

    Parameters
    ----------
    x, y : array_like
        The two samples (group 1 first). Private: either may be empty.
    epsilon : float, optional
        Privacy budget. Exactly one of ``epsilon`` and ``public=True``.
    public : bool, default False
        Exactly ``scipy.stats.mannwhitneyu(x, y, use_continuity=..., alternative=...,
        method=...)``; the statistic is U of ``x``.
    alternative : {'two-sided', 'less', 'greater'}
        The paper's statistic (``statistic='paper'``) is two-sided only.
    delta : float, default 1e-6
        δ of the paper's private group-size estimate (``statistic='paper'`` only).
    known_sizes : bool, default False
        Treat the group sizes as public and spend all ε on U.
    statistic : {'centred', 'paper'}
        With private sizes: ``'centred'`` releases U₁ − n₁n₂/2 with noise of scale
        (n − 1)/ε and never releases the sizes (ε-DP, any alternative; the reference takes
        the most balanced split, the widest null); ``'paper'`` spends part of ε on the
        smaller group's size and releases min(U₁, U₂) ((ε, δ)-DP, two-sided).
    count_sizes : bool, default False
        For very unequal groups: spend 0.2 of ε on a noisy count of the first group; the
        reference takes the worst case over the sizes the count leaves plausible and adds
        γ = 0.005 to p (Berger–Boos; ε-DP; centred statistic only; p is never below γ).
    reference : {'auto', 'normal', 'exact-u'}
        Private reference: ``'auto'`` is the exact one for the centred statistic up to
        n = 200 (the largest exact tail over every split) and the normal one otherwise;
        ``'normal'`` (closed form) or ``'exact-u'``.
    groups, data, group, value
        As :func:`kruskal` (exactly two groups).
    ci : float, optional
        Private test: add ``estimate``, the probability of superiority P(X > Y) + ½·P(X = Y)
        with its two-sided interval at this level (needs ``known_sizes=True``, any
        ``alternative``; post-processing, no extra ε), as the CLI's ``--ci``. Public test: the
        same inversion at the exact U₁ (the CLI's ``--public --ci``).
    ci_epsilon : float, optional
        With ``ci``: spend this ε on a release of DeLong's placement variance, so the
        interval uses the estimated variance instead of its largest possible value (about
        1.05× DeLong's public width at n = 1000 + 1000 against 1.24×; docs/intervals.md).
        Charged with the test (``epsilon_total``); reads the rows.
    draws, seed, alpha, ledger, progress
        As :func:`kruskal`.

    Returns
    -------
    TestResult

    Raises
    ------
    ValueError, PrivacyBudgetError
    """
    eps = _mode(epsilon, public)
    if data is not None:
        if groups is not None and len(groups) != 2:
            raise ValueError("mannwhitneyu compares two groups: groups must name exactly two")
        arrays, labels = _grouped((), data, group, value, groups, eps is not None)
        if len(arrays) != 2:
            raise ValueError(f"mannwhitneyu compares two groups, {len(arrays)} found")
    else:
        if x is None or y is None:
            raise ValueError("mannwhitneyu needs x and y (or data=, group=, value=)")
        arrays, labels = _grouped((x, y), None, None, None, groups, eps is not None)
    if eps is not None:
        paper = statistic == "paper"
        return _release(
            "mann-whitney", arrays, labels, eps, delta=float(delta) if paper else None,
            alternative=alternative,
            options={"known_sizes": bool(known_sizes), "statistic": statistic,
                     "count_sizes": bool(count_sizes), "reference": reference}, ci=ci,
            ci_epsilon=ci_epsilon, draws=draws, seed=seed, alpha=alpha, ledger=ledger, progress=progress,
        )
    _no_ledger(ledger)
    args = (arrays[0], arrays[1], labels, alternative, bool(use_continuity), method, float(alpha))
    return _public_interval(_native(_dptest.mannwhitneyu, *args), "mann-whitney", arrays, ci,
                            ci_epsilon)


def _tested(x, y, data, popmean: float, null: str) -> Tuple[np.ndarray, str]:
    """The tested values of a one-sample or paired test (:func:`_differences`); a popmean is
    for the one-sample test only (``null``: what a paired test tests)."""
    d, kind = _differences(x, y, data)
    if kind == "paired" and popmean != 0.0:
        raise ValueError(f"popmean applies to the one-sample test; paired tests test {null}")
    return d, kind


def _differences(x, y, data) -> Tuple[np.ndarray, str]:
    if data is not None:
        x = data[x]
        y = data[y] if y is not None else None
    a = _array(x, "x")
    if y is None:
        return a, "one-sample"
    b = _array(y, "y")
    if a.shape != b.shape:
        raise ValueError(f"x and y must have the same length ({a.size} and {b.size})")
    with np.errstate(over="ignore"):
        d = a - b
    # Saturating differences as the library (±inf only from finite inputs).
    d = np.where(np.isinf(d) & np.isfinite(a) & np.isfinite(b), np.sign(d) * np.finfo(float).max, d)
    return np.ascontiguousarray(d), "paired"


def wilcoxon(
    x: Any,
    y: Any = None,
    *,
    epsilon: Optional[float] = None,
    public: bool = False,
    alternative: str = "two-sided",
    zero_method: str = "wilcox",
    correction: bool = False,
    method: str = "auto",
    popmean: float = 0.0,
    reference: str = "exact",
    data: Any = None,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    bounds: Optional[Tuple[float, float]] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Wilcoxon signed-rank test of d = x − y (or of x), ε-DP (Pratt ranks) or public.

    Parameters
    ----------
    x : array_like or str
        The sample or first measurements (a column name with ``data=``).
    y : array_like or str, optional
        Second measurements; the test is on d = x − y, as scipy's (the CLI's ``--before B
        --after A`` tests d = A − B: pass ``x=A, y=B`` for the same test; swapping the order
        flips a one-sided alternative).
    epsilon : float, optional
        Privacy budget. Exactly one of ``epsilon`` and ``public=True``.
    public : bool, default False
        Exactly ``scipy.stats.wilcoxon(x, y, zero_method=..., correction=...,
        alternative=...)`` with ``method="auto"`` (exact for n ≤ 50 without ties/zeros,
        exhaustive permutation for n ≤ 13 with ties/zeros, else normal).
    zero_method : {'wilcox', 'pratt', 'zsplit'}
        Public test only (the private test always uses Pratt).
    method : {'auto', 'exact', 'asymptotic', 'permutation'}
        Public test only: scipy's ``method`` ('permutation' is the exhaustive sign-flip null,
        which scipy's ``PermutationMethod()`` computes for n ≤ 13).
    popmean : float, default 0
        One-sample test only: the hypothesised median M; the test is on x − M (R's
        ``wilcox.test(x, mu = M)``, the CLI's ``--popmean``).
    reference : {'exact', 'exact-untied', 'normal'}
        Private reference (default: the zero-robust exact reference).
    data : pandas.DataFrame, optional
        Then ``x`` and ``y`` are column names.
    ci, ci_epsilon, bounds
        Private test: add ``estimate``, the median of d with a two-sided interval at level
        ``ci``, a release of its own at ε = ``ci_epsilon`` (charged with the test's) on the
        declared range ``bounds``, as the CLI's ``--ci``, ``--ci-epsilon``, ``--bounds``.
        Public test: the order-statistic interval of d (the sign test inverted; no
        ``ci_epsilon``, no ``bounds``).
    alpha, ledger, progress
        As :func:`kruskal`.

    Returns
    -------
    TestResult

    Raises
    ------
    ValueError, PrivacyBudgetError
    """
    eps = _mode(epsilon, public)
    d, kind = _tested(x, y, data, popmean, "d = 0")
    if eps is not None:
        return _release(
            "wilcoxon", [d], [], eps, paired=kind == "paired", alternative=alternative,
            bounds=bounds, popmean=float(popmean), options={"reference": reference}, ci=ci,
            ci_epsilon=ci_epsilon,
            alpha=alpha, ledger=ledger, progress=progress,
        )
    _no_ledger(ledger)
    args = (d, kind, float(popmean), alternative, zero_method, bool(correction), method,
            float(alpha))
    result = _call(progress, "computing the reference distribution", _dptest.wilcoxon, *args)
    return _public_interval(result, "wilcoxon", [d], ci, ci_epsilon)


def sign(
    x: Any,
    y: Any = None,
    *,
    epsilon: float,
    alternative: str = "two-sided",
    popmean: float = 0.0,
    data: Any = None,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    bounds: Optional[Tuple[float, float]] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """The ε-differentially private sign test of d = x − y (or of x − popmean): T = #(d > 0)
    − #(d < 0) with Laplace noise (sensitivity 2), the CLI's ``sign``. The public sign test is
    :func:`dptest.public.sign`.

    Parameters
    ----------
    x, y, data, popmean
        As :func:`wilcoxon` (d = x − y, scipy's order).
    epsilon : float
        Privacy budget of the test.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': d tends to be positive.
    ci, ci_epsilon, bounds
        As :func:`wilcoxon`: the median of d with an interval, a release of its own.
    alpha, ledger, progress
        As :func:`kruskal`.

    Returns
    -------
    TestResult
        ``epsilon`` is the test's ε, ``epsilon_total`` the whole cost with ``ci_epsilon``.

    Examples
    --------
    >>> import dptest
    >>> r = dptest.sign([1.2, 0.4, 2.2, -0.3, 1.0], epsilon=1.0)  # doctest: +SKIP
    """
    d, kind = _tested(x, y, data, popmean, "d = 0")
    return _release(
        "sign", [d], [], float(epsilon), paired=kind == "paired", alternative=alternative,
        bounds=bounds, popmean=float(popmean), ci=ci, ci_epsilon=ci_epsilon, alpha=alpha,
        ledger=ledger, progress=progress,
    )


def ttest(
    x: Any,
    y: Any = None,
    *,
    epsilon: Optional[float] = None,
    public: bool = False,
    bounds: Optional[Tuple[float, float]] = None,
    popmean: float = 0.0,
    alternative: str = "two-sided",
    data: Any = None,
    ci: Optional[float] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
    reference: str = "default",
) -> TestResult:
    """One-sample (``y=None``) or paired t-test of d = x − y, ε-DP or public.

    Parameters
    ----------
    x, y : array_like or str
        As :func:`wilcoxon`.
    epsilon : float, optional
        Privacy budget. Exactly one of ``epsilon`` and ``public=True``.
    public : bool, default False
        Exactly ``scipy.stats.ttest_1samp(x, popmean)`` or ``scipy.stats.ttest_rel(x, y)``.
    bounds : (float, float)
        Private test: the declared range of the tested values (of x − y when paired).
    popmean : float, default 0
        One-sample null mean (paired tests test E[d] = 0).
    ci : float, optional
        Private test: add ``estimate``, the mean with a two-sided interval at this level
        (post-processing of the two releases, no extra ε), as the CLI's ``--ci``. Public test:
        the two-sided Student-t interval (scipy's ``confidence_interval``).
    alternative, data, draws, seed, alpha, ledger, progress
        As :func:`wilcoxon` and :func:`kruskal`.
    reference : str, default "default"
        Private test: the reference, as the CLI's ``--reference``: ``"default"``
        (noise-studentized Z, valid for every sd, over normal data and the most skewed bounded
        law of each sd), ``"normal"`` (the same over normal data only), ``"berger-boos-t"``
        (the paper's T̃ with a Berger–Boos supremum over the sd, normal data) or ``"paper"``
        (T̃ at sd = 0.3: not valid for small sd; for comparison only, with a warning). None
        is the most powerful everywhere (docs/power.md, "The t-test's references"): choose
        before seeing any p-value; trying several and keeping the smallest is not valid.

    Returns
    -------
    TestResult

    Raises
    ------
    ValueError, PrivacyBudgetError
    """
    eps = _mode(epsilon, public)
    d, kind = _tested(x, y, data, popmean, "E[d] = 0")
    if eps is not None:
        return _release(
            "t-test", [d], [], eps, paired=kind == "paired", alternative=alternative,
            bounds=bounds, popmean=popmean, options={"reference": reference}, ci=ci,
            draws=draws, seed=seed, alpha=alpha, ledger=ledger, progress=progress,
        )
    _no_ledger(ledger)
    result = _native(_dptest.ttest, d, kind, float(popmean), alternative, float(alpha))
    return _public_interval(result, "t-test", [d], ci, None)


def anova(
    *samples: Any,
    epsilon: float,
    bounds: Tuple[float, float],
    groups: Optional[Sequence[Any]] = None,
    data: Any = None,
    group: Optional[str] = None,
    value: Optional[str] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Swanberg et al.'s ε-DP one-way ANOVA (a baseline; group sizes treated as public).

    Parameters
    ----------
    *samples : array_like
        One sample per declared group.
    epsilon : float
        Privacy budget.
    bounds : (float, float)
        Declared data range (values are clamped to it).
    groups, data, group, value, draws, seed, alpha, ledger, progress
        As :func:`kruskal`.

    Returns
    -------
    TestResult
    """
    eps = _mode(epsilon, False)
    arrays, labels = _grouped(samples, data, group, value, groups, True)
    args = (arrays, labels, eps, (float(bounds[0]), float(bounds[1])), draws, seed, float(alpha))
    return _ledger_run(
        ledger, "anova", eps, 0.0,
        lambda: _call(progress, "simulating the reference distribution", _dptest.anova, *args),
    )


def task_clifton(
    x: Any,
    y: Any = None,
    *,
    epsilon: float,
    variant: str = "high-privacy",
    k: int = 15,
    alternative: str = "two-sided",
    data: Any = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    alpha: float = 0.05,
    ledger: Any = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Task & Clifton's private Wilcoxon test (a baseline, corrected), on d = x − y.

    ``variant='high-utility'`` is NOT differentially private (and is never charged to a
    ledger). The result has ``reject`` and ``critical_value`` (no p-value).
    """
    d, _ = _differences(x, y, data)
    private = variant in ("high-privacy", "high-privacy-plus")
    args = (d, float(epsilon), variant, int(k), alternative, draws, seed, float(alpha))
    run = lambda: _call(progress, "computing the critical value", _dptest.task_clifton, *args)  # noqa: E731
    if ledger is not None and not private:
        raise ValueError(f"variant {variant!r} is not differentially private: no ledger covers it")
    return _ledger_run(ledger, "task-clifton", float(epsilon), 0.0, run)


def reference_pvalue(result: Any, statistic: Optional[float] = None) -> float:
    """The p-value the reference of a private result (or CLI JSON dict) gives ``statistic``
    (default: the result's own released statistic). Public post-processing only.

    Supported: private Kruskal–Wallis and Wilcoxon results.
    """
    f = result.to_dict() if isinstance(result, TestResult) else dict(result)
    s = f["statistic"] if statistic is None else float(statistic)
    ref = f.get("reference") or {}
    if f.get("epsilon") is None:
        raise ValueError("reference_pvalue applies to private results")
    if f["test"] == "kruskal-wallis":
        kind = "squared" if f.get("variant") == "kruskal-wallis" else "abs"
        return _dptest.kruskal_reference_pvalue(
            s, f["n"], f["groups"], f["epsilon"], kind, ref.get("draws"), ref.get("seed")
        )
    if f["test"] == "wilcoxon":
        null = {"exact": "exact", "exact_untied": "exact-untied", "exact-untied": "exact-untied",
                "normal": "normal"}[str(f["null"]).lower()]
        return _dptest.wilcoxon_reference_pvalue(s, f["n"], f["epsilon"], f["alternative"], null)
    raise ValueError(f"reference_pvalue does not support {f['test']!r} yet")


def critical_value(
    test: str,
    n: int,
    epsilon: float,
    alpha: float = 0.05,
    *,
    groups: int = 3,
    statistic: str = "abs",
    reference: str = "exact",
    m_star: Optional[int] = None,
    progress: Optional[bool] = None,
) -> TestResult:
    """Critical value of a private test's reference (public parameters only, no data).

    The shipped table cell when one matches, else computed (exact where possible, else
    10⁶ CPU Monte Carlo draws). ``result.critical_value`` is the value, ``result.row`` the
    table row (CI, engine, draws), ``result.shipped`` whether it came from the tables.

    Parameters
    ----------
    test : {'kruskal-wallis', 'mann-whitney', 'wilcoxon', 't-test'}
    n : int
        Total sample size.
    epsilon, alpha : float
    groups, statistic : Kruskal–Wallis only.
    reference : {'exact', 'exact-untied', 'normal'}
        Wilcoxon only, the private test's reference names: ``'exact'`` (its default, the
        zero-robust null, computed exactly), ``'exact-untied'`` and ``'normal'``; each from
        the shipped tables where they cover the request, as the CLI's
        ``critical-value wilcoxon``. ``source`` says which.
    m_star : int, optional
        Mann–Whitney: the released lower bound on the smaller group (default n // 2).
    """
    return _call(progress, "computing the critical value", _dptest.critical_value,
                 test, int(n), float(epsilon), float(alpha), int(groups), statistic, reference,
                 m_star)


def shipped_table(family: str, as_frame: bool = False) -> Any:
    """The shipped critical-value table of ``family`` ('wilcoxon', 'kruskal-wallis',
    'mann-whitney', 't-test', 'wilcoxon-comparison') as CSV text, or a pandas DataFrame."""
    text = _dptest.shipped_table(family)
    if not as_frame:
        return text
    import io

    import pandas as pd

    lines = [ln for ln in text.splitlines() if not ln.startswith("#")]
    return pd.read_csv(io.StringIO("\n".join(lines)))


def plan(
    test: str,
    effect: float,
    epsilon: float,
    power: float = 0.8,
    *,
    alpha: float = 0.05,
    groups: int = 3,
    reps: int = 1000,
    max_n: int = 100_000,
    zero_fraction: float = 0.0,
    bounds: Optional[Tuple[float, float]] = None,
    sd: Optional[float] = None,
    smaller_share: Optional[float] = None,
    known_sizes: bool = False,
    ci: Optional[float] = None,
    ci_epsilon: Optional[float] = None,
    draws: Optional[int] = None,
    seed: Optional[int] = None,
    progress: Optional[bool] = None,
) -> dict:
    """Sample size by simulation, as ``dptest plan``: the smallest n whose simulated power
    reaches ``power`` (doubling then bisection over n, to 1%).

    Simulation only: nothing is released and no data is read.

    Parameters
    ----------
    test : {'kruskal-wallis', 'mann-whitney', 'wilcoxon', 't-test', 'sign'}
    effect : float
        Effect size in standard deviations (KW: max − min of the group means; MW: mean
        shift; Wilcoxon: mean of ``after`` minus mean of ``before``; t-test: mean over sd).
    epsilon : float
        Privacy budget ε of the planned test.
    power : float
        Target power (default 0.8).
    alpha, groups, reps, max_n, zero_fraction, draws, seed
        As the CLI's ``--alpha``, ``--groups``, ``--reps``, ``--max-n``, ``--zero-fraction``,
        ``--draws`` and ``--seed`` (same defaults).
    bounds, sd
        t-test: the bounds ``(lo, hi)`` the release will declare and the anticipated sd of
        the tested values in data units, as the CLI's ``--bounds`` and ``--sd`` (without them
        the plan assumes the paper's sd = 0.3 of the half-range, far more than honest
        a-priori bounds usually give). Sign and Wilcoxon, with ``ci`` and ``ci_epsilon``:
        ``bounds`` is the median interval's declared range (no ``sd``).
    smaller_share, known_sizes
        Mann–Whitney: the smaller group's share of n (default: equal groups); Kruskal–Wallis:
        the share of each of the first g − 1 groups (the last holds the rest); both: public
        group sizes; as the CLI's ``--smaller-share`` and ``--known-sizes``.
    ci : float, optional
        Also simulate the interval ``ci=`` would give at the planned n, as the CLI's ``--ci``:
        ``interval`` holds the median widths of the private and the public interval on the
        same simulated data (t-test: the mean against Student's, in sd of the data, the
        declared bounds setting the private one; Mann–Whitney with ``known_sizes=True``:
        P(X > Y) against DeLong's; Kruskal–Wallis: the rank effect against the public
        interval of ``public=True, ci=``; sign and Wilcoxon, with ``ci_epsilon`` and
        ``bounds``: the median against the order-statistic interval).
    ci_epsilon : float, optional
        With ``ci``: the interval's own ε, as the release's ``ci_epsilon`` would spend it
        beside ``epsilon`` (the CLI's ``--ci-epsilon``; Mann–Whitney with
        ``known_sizes=True``: DeLong's variance released; Kruskal–Wallis with
        ``known_sizes=True``: the default ``ci_method="auto"``). Refused for an interval
        that spends none (the t-test's).

    Returns
    -------
    dict
        The CLI's JSON keys: ``n``, ``power``, ``target_power``, ``evaluated`` (every
        candidate with ``n``, ``power``, ``std_error``), ``reference_draws``, ``seed``,
        ``public_n`` (the ordinary test's n for the same power, where a closed form exists),
        ...
    """
    out = _call(progress, "planning", _dptest.plan, str(test), float(effect), float(epsilon),
                float(power), float(alpha), int(groups), int(reps), int(max_n),
                float(zero_fraction), draws, seed,
                None if bounds is None else (float(bounds[0]), float(bounds[1])),
                None if sd is None else float(sd),
                None if smaller_share is None else float(smaller_share), bool(known_sizes),
                None if ci is None else float(ci),
                None if ci_epsilon is None else float(ci_epsilon))
    return out.to_dict()
