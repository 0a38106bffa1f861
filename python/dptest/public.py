"""The public (non-private) tests under scipy.stats' names and conventions.

Each function takes what its scipy namesake takes and answers as scipy 1.17 does: n-D input
with ``axis`` (and ``axis=None`` to ravel), ``keepdims``, ``nan_policy`` ('propagate',
'omit', 'raise'), scalar (0-d) input, float32 results for float32 input, ±inf ranked by the
rank tests, NaN with a :class:`SmallSampleWarning` for a sample too small for the test, and
scipy's messages for invalid arguments. The tests themselves run in the Rust crates (one
implementation for the CLI, Python and the private tests' public twins); this module only
loops over the 1-D slices, as scipy's own axis and NaN handling defines them.

What scipy offers and this module does not (each refused with ``NotImplementedError``):
random-resampling permutation tests (``PermutationMethod`` with fewer resamples than the
exact enumeration), ``mannwhitneyu(method=PermutationMethod(...))``, scipy's deprecated
``wilcoxon(mode=...)`` alias, and array-API backends other than NumPy.

>>> from dptest import public
>>> public.kruskal([1, 2, 3], [4, 5, 6]).pvalue  # doctest: +SKIP
np.float64(0.0495...)
"""

from __future__ import annotations

import json
import math
import warnings
from typing import Any, Callable, List, NamedTuple, Optional, Sequence

import numpy as np

from . import _api, _dptest

__all__ = [
    "kruskal",
    "mannwhitneyu",
    "wilcoxon",
    "ttest_1samp",
    "ttest_rel",
    "f_oneway",
    "binomtest",
    "sign",
    "BinomTestResult",
    "SmallSampleWarning",
]


class SmallSampleWarning(RuntimeWarning):
    """A sample (or every axis-slice) is too small for the test; the result is NaN (scipy's
    ``SmallSampleWarning``)."""


# scipy's wording, which users' code and tests match on.
_TOO_SMALL_1D = ("One or more sample arguments is too small; all returned values will be "
                 "NaN. See documentation for sample size requirements.")
_TOO_SMALL_1D_OMIT = ("After omitting NaNs, one or more sample arguments is too small; all "
                      "returned values will be NaN. See documentation for sample size "
                      "requirements.")
_TOO_SMALL_ND = ("All axis-slices of one or more sample arguments are too small; all "
                 "elements of returned arrays will be NaN. See documentation for sample "
                 "size requirements.")
_TOO_SMALL_ND_OMIT = ("After omitting NaNs, one or more axis-slices of one or more sample "
                      "arguments is too small; corresponding elements of returned arrays will "
                      "be NaN. See documentation for sample size requirements.")
_NAN_POLICIES = ("propagate", "omit", "raise")
_ALTERNATIVES = ("two-sided", "less", "greater")


# --- input: arrays, axis, broadcasting -------------------------------------------------------


def _numeric(x: Any, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == bool:
        a = a.astype(np.float64)
    if not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise ValueError(f"{name} must be an array of real numbers, got dtype {a.dtype}")
    return a


def _result_dtype(arrays: Sequence[np.ndarray]) -> np.dtype:
    dtype = np.result_type(*arrays) if arrays else np.dtype(np.float64)
    return dtype if np.issubdtype(dtype, np.floating) else np.dtype(np.float64)


class _Aligned(NamedTuple):
    """The samples with the tested axis last and the other axes broadcast together."""

    arrays: List[np.ndarray]
    shape: tuple  # the output shape (the broadcast non-tested axes)
    axis: Optional[int]  # the tested axis of the inputs (None: raveled)
    ndim: int  # the inputs' common number of dimensions


def _aligned(arrays: List[np.ndarray], axis: Any, paired: bool) -> _Aligned:
    arrays = [np.atleast_1d(a) for a in arrays]
    ndim = max(a.ndim for a in arrays)
    if axis is None:
        arrays = [a.ravel() for a in arrays]
    else:
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise ValueError("`axis` must be an integer.")
        axis = int(axis)
        if not -ndim <= axis < ndim:
            raise np.exceptions.AxisError(axis, ndim)
        axis %= ndim
        arrays = [np.moveaxis(a.reshape((1,) * (ndim - a.ndim) + a.shape), axis, -1)
                  for a in arrays]
    try:
        if paired:
            arrays = list(np.broadcast_arrays(*arrays))
        else:
            shape = np.broadcast_shapes(*(a.shape[:-1] for a in arrays))
            arrays = [np.broadcast_to(a, shape + a.shape[-1:]) for a in arrays]
    except ValueError:
        raise ValueError("Array shapes are incompatible for broadcasting.") from None
    return _Aligned(arrays, arrays[0].shape[:-1], axis, ndim)


def _check_nan_policy(nan_policy: str) -> None:
    if nan_policy not in _NAN_POLICIES:
        raise ValueError("nan_policy must be one of {'propagate', 'omit', 'raise'}")


def _omit_nan(slices: List[np.ndarray], paired: bool) -> List[np.ndarray]:
    if paired:
        keep = ~np.any([np.isnan(s) for s in slices], axis=0)
        return [s[keep] for s in slices]
    return [s[~np.isnan(s)] for s in slices]


def _any_empty(slices: List[np.ndarray]) -> bool:
    return any(s.size == 0 for s in slices)


# --- output: scipy-typed values --------------------------------------------------------------


class TtestResult(_api.TestResult):
    """A public t-test's result (scipy's ``TtestResult``): ``statistic``, ``pvalue``, ``df``
    and :meth:`confidence_interval`."""

    __test__ = False

    def confidence_interval(self, confidence_level: float = 0.95) -> "_api.ConfidenceInterval":
        """The Student-t interval for the mean (of the differences for ``ttest_rel``), two-sided
        or one-sided as the test's alternative, as scipy's."""
        if not (isinstance(confidence_level, (int, float, np.floating))
                and 0 < confidence_level < 1):
            raise ValueError("`confidence_level` must be a number between 0 and 1.")
        mean, se, df = (np.asarray(self._values[k], dtype=np.float64)
                        for k in ("_estimate", "_standard_error", "df"))
        low, high = np.full(mean.shape, np.nan), np.full(mean.shape, np.nan)
        for index in np.ndindex(mean.shape):
            if np.isfinite(mean[index]) and np.isfinite(se[index]) and df[index] > 0:
                low[index], high[index] = _dptest.ttest_confidence_interval(
                    float(mean[index]), float(se[index]), float(df[index]),
                    self._values["_alternative"], float(confidence_level))
        dtype = self._values["_dtype"]
        return _api.ConfidenceInterval(_typed(low, dtype), _typed(high, dtype))


def _typed(values: np.ndarray, dtype: np.dtype) -> Any:
    out = np.asarray(values, dtype=dtype)
    return out[()] if out.ndim == 0 else out


def _keep(values: np.ndarray, aligned: _Aligned, keepdims: bool) -> np.ndarray:
    if not keepdims:
        return values
    if aligned.axis is None:
        return values.reshape((1,) * aligned.ndim)
    return np.expand_dims(values, aligned.axis)


def _warn_too_small(aligned: _Aligned, omitted: bool) -> None:
    if aligned.shape == ():
        message = _TOO_SMALL_1D_OMIT if omitted else _TOO_SMALL_1D
    else:
        message = _TOO_SMALL_ND_OMIT if omitted else _TOO_SMALL_ND
    warnings.warn(SmallSampleWarning(message), stacklevel=4)


def _vectorised(
    test: str,
    core: Callable[[List[np.ndarray]], dict],
    samples: Sequence[Any],
    *,
    outputs: Sequence[str],
    axis: Any = 0,
    nan_policy: str = "propagate",
    keepdims: bool = False,
    paired: bool = False,
    too_small: Callable[[List[np.ndarray]], bool] = _any_empty,
    result: type = _api.TestResult,
    extra: Optional[dict] = None,
) -> _api.TestResult:
    """Runs ``core`` (1-D float64 slices → a dict of the named ``outputs``, and ``"fields"``,
    the native result's keys) on every axis-slice, with scipy's NaN and small-sample rules."""
    _check_nan_policy(nan_policy)
    arrays = [_numeric(s, f"sample {i}") for i, s in enumerate(samples)]
    # Python scalars are weak in NumPy's promotion (NEP 50), as in scipy: a float popmean
    # keeps a float32 sample's results float32.
    dtype = _result_dtype([s if isinstance(s, (int, float)) else a
                           for s, a in zip(samples, arrays)])
    aligned = _aligned(arrays, axis, paired)
    if nan_policy == "raise" and any(np.isnan(a).any() for a in aligned.arrays
                                     if np.issubdtype(a.dtype, np.floating)):
        raise ValueError("The input contains nan values")
    values = {name: np.full(aligned.shape, np.nan) for name in outputs}
    fields: Optional[dict] = None
    small = omitted = False
    for index in np.ndindex(aligned.shape):
        slices = [np.asarray(a[index], dtype=np.float64) for a in aligned.arrays]
        if any(np.isnan(s).any() for s in slices):
            if nan_policy == "propagate":
                continue
            slices, omitted = _omit_nan(slices, paired), True
        if too_small(slices):
            small = True
            continue
        out = core(slices)
        for name in outputs:
            values[name][index] = out[name]
        fields = out.get("fields")
    if small:
        _warn_too_small(aligned, omitted)
    typed = {name: _typed(_keep(v, aligned, keepdims), dtype) for name, v in values.items()}
    typed.update(extra or {}, _dtype=dtype)
    if aligned.shape != () or fields is None:
        fields = {"test": test, **{k: np.asarray(v).tolist() for k, v in values.items()}}
    fields = dict(fields, statistic=_plain(typed["statistic"]), p_value=_plain(typed["pvalue"]))
    return result(fields, values=typed)


def _plain(value: Any) -> Any:
    return np.asarray(value, dtype=np.float64).tolist()


def _check_alternative(alternative: Any, message: Optional[str] = None) -> str:
    if alternative not in _ALTERNATIVES:
        raise ValueError(message or "`alternative` must be one of {'two-sided', 'less', "
                         "'greater'}.")
    return alternative


def _ranked_codes(values: np.ndarray) -> np.ndarray:
    """An order-preserving recoding (ties kept) that replaces ±inf by finite codes, for the
    rank tests, whose statistic and p-value depend only on the order."""
    return np.unique(values, return_inverse=True)[1].astype(np.float64)


def _finite_for_ranks(slices: List[np.ndarray]) -> List[np.ndarray]:
    if all(np.isfinite(s).all() for s in slices):
        return slices
    codes = _ranked_codes(np.concatenate(slices))
    cuts = np.cumsum([s.size for s in slices])[:-1]
    return np.split(codes, cuts)


# --- the tests -------------------------------------------------------------------------------


def kruskal(*samples: Any, nan_policy: str = "propagate", axis: Any = 0,
            keepdims: bool = False) -> _api.TestResult:
    """``scipy.stats.kruskal(*samples, nan_policy=..., axis=..., keepdims=...)``."""
    if len(samples) < 2:
        raise ValueError("Need at least two groups in stats.kruskal()")

    def core(slices):
        if np.all(np.concatenate(slices) == slices[0][0]):
            return {"statistic": math.nan, "pvalue": math.nan}
        r = _api.kruskal(*_finite_for_ranks(slices), public=True)
        return {"statistic": r.statistic, "pvalue": r.pvalue, "fields": r._fields}

    return _vectorised("kruskal-wallis", core, samples, outputs=("statistic", "pvalue"),
                       axis=axis, nan_policy=nan_policy, keepdims=keepdims)


def _mwu_method(method: Any) -> str:
    if hasattr(method, "n_resamples"):
        raise NotImplementedError(
            "mannwhitneyu(method=PermutationMethod(...)) is not offered by dptest.public: use "
            "method='exact' (the exact null, which a permutation test estimates)")
    if not isinstance(method, str) or method.lower() not in ("auto", "exact", "asymptotic"):
        raise ValueError("`method` must be one of {'auto', 'exact', 'asymptotic'}.")
    return method.lower()


def mannwhitneyu(x: Any, y: Any, use_continuity: bool = True, alternative: str = "two-sided",
                 axis: Any = 0, method: Any = "auto", *, nan_policy: str = "propagate",
                 keepdims: bool = False) -> _api.TestResult:
    """``scipy.stats.mannwhitneyu(x, y, use_continuity, alternative, axis, method, ...)``: the
    statistic is U of ``x``."""
    if use_continuity not in (True, False):
        raise ValueError("`use_continuity` must be one of {False, True}.")
    alternative = _check_alternative(str(alternative).lower())
    method = _mwu_method(method)

    def core(slices):
        a, b = _finite_for_ranks(slices)
        if not use_continuity and method != "exact" and np.all(np.concatenate((a, b)) == a[0]):
            # The normal approximation is 0/0 on constant data (scipy: NaN).
            return {"statistic": a.size * b.size / 2.0, "pvalue": math.nan}
        r = _api.mannwhitneyu(a, b, public=True, use_continuity=bool(use_continuity),
                              alternative=alternative, method=method)
        return {"statistic": r.statistic, "pvalue": r.pvalue, "fields": r._fields}

    return _vectorised("mann-whitney", core, (x, y), outputs=("statistic", "pvalue"),
                       axis=axis, nan_policy=nan_policy, keepdims=keepdims)


def _wilcoxon_method(method: Any, n: int) -> str:
    """scipy's method name, or 'permutation' for a ``PermutationMethod`` whose resamples
    cover all 2ⁿ sign flips (then scipy enumerates them and its p-value is exact, as ours)."""
    if hasattr(method, "n_resamples"):
        if 2 ** n <= method.n_resamples:
            return "permutation"
        raise NotImplementedError(
            f"wilcoxon(method=PermutationMethod(n_resamples={method.n_resamples})) resamples "
            f"at random (2^{n} sign flips): not offered by dptest.public; use method='exact' or "
            "a PermutationMethod with n_resamples >= 2^n (the exact enumeration)")
    return "asymptotic" if method == "approx" else method


def _wilcoxon_codes(d: np.ndarray) -> np.ndarray:
    """d with |d| recoded order-preservingly (zeros stay 0) when it holds ±inf."""
    if np.isfinite(d).all():
        return d
    magnitude = np.abs(d)
    codes = _ranked_codes(magnitude) + (0.0 if (magnitude == 0).any() else 1.0)
    return np.sign(d) * codes


def _wilcoxon_all_zero(n: int, zero_method: str, method: str) -> dict:
    """scipy's answer when every difference is 0 (R+ = R− = 0): the auto rule picks the
    permutation null for n ≤ 13 (p = 1) and the normal approximation above (0/0: NaN); the
    exact null has p = 1 for wilcox (no ranks are left) and 2·2⁻ⁿ for pratt (the zeros' ranks
    stay in the null)."""
    if method == "auto":
        method = "permutation" if n <= 13 else "asymptotic"
    p = {"permutation": 1.0, "asymptotic": math.nan,
         "exact": 1.0 if zero_method == "wilcox" else min(1.0, 2.0 ** (1 - n))}[method]
    return {"statistic": 0.0, "pvalue": p, "zstatistic": math.nan}


def wilcoxon(x: Any, y: Any = None, zero_method: str = "wilcox", correction: bool = False,
             alternative: str = "two-sided", method: Any = "auto", *, axis: Any = 0,
             nan_policy: str = "propagate", keepdims: bool = False) -> _api.TestResult:
    """``scipy.stats.wilcoxon(x, y, zero_method, correction, alternative, method, ...)`` of
    d = x − y (or of x). ``zstatistic`` is set for ``method='asymptotic'``, as scipy's."""
    zero_method = str(zero_method).lower()
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError("`zero_method` must be one of {'wilcox', 'pratt', 'zsplit'}.")
    if correction not in (True, False):
        raise ValueError("`correction` must be one of {False, True}.")
    alternative = _check_alternative(str(alternative).lower())
    if not hasattr(method, "n_resamples") and method not in (
            "auto", "asymptotic", "exact", "approx"):
        raise ValueError("`method` must be one of {'auto', 'asymptotic', 'exact'} or an "
                         "instance of `stats.PermutationMethod`.")
    with_z = _wilcoxon_method(method, 0) == "asymptotic" if isinstance(method, str) else False
    outputs = ("statistic", "pvalue", "zstatistic") if with_z else ("statistic", "pvalue")

    def core(slices):
        d = slices[0] - slices[1] if len(slices) == 2 else slices[0]
        if zero_method != "zsplit" and np.all(d == 0):
            return _wilcoxon_all_zero(d.size, zero_method, _wilcoxon_method(method, d.size))
        r = _api.wilcoxon(_wilcoxon_codes(d), public=True, zero_method=zero_method,
                          correction=bool(correction), alternative=alternative,
                          method=_wilcoxon_method(method, d.size))
        z = r._fields.get("z")
        return {"statistic": r.statistic, "pvalue": r.pvalue,
                "zstatistic": math.nan if z is None else z, "fields": r._fields}

    samples = (x,) if y is None else (x, y)
    try:
        return _vectorised("wilcoxon", core, samples, outputs=outputs, axis=axis,
                           nan_policy=nan_policy, keepdims=keepdims, paired=True)
    except np.exceptions.AxisError as e:
        raise np.exceptions.AxisError(
            "`axis` must be compatible with the shape(s) of `x` (and `y`)") from e


_T_ALTERNATIVE = "`alternative` must be 'less', 'greater', or 'two-sided'."
_T_OUTPUTS = ("statistic", "pvalue", "df", "_estimate", "_standard_error")


def _t_core(alternative: str) -> Callable[[List[np.ndarray]], dict]:
    """The one-sample t-test of slices[0] against the popmean in slices[1] (one value)."""

    def core(slices):
        d, popmean = slices[0], float(slices[1][0])
        n = d.size
        if n < 2 or not np.isfinite(d).all() or not math.isfinite(popmean):
            if n < 2:
                warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=5)
            mean = float(np.mean(d)) if np.isfinite(d).all() else math.nan
            return {"statistic": math.nan, "pvalue": math.nan, "df": n - 1.0,
                    "_estimate": mean, "_standard_error": math.nan}
        if np.all(d == d[0]):
            return _t_constant(float(d[0]), popmean, n, alternative)
        r = _api.ttest(d, public=True, popmean=popmean, alternative=alternative)
        return {"statistic": r.statistic, "pvalue": r.pvalue, "df": r.df,
                "_estimate": r.mean, "_standard_error": r.standard_error, "fields": r._fields}

    return core


def _t_constant(value: float, popmean: float, n: int, alternative: str) -> dict:
    """A constant sample: t = ±inf (p = 0 or 1) or, at the popmean, NaN (scipy's values)."""
    warnings.warn("Precision loss occurred in moment calculation due to catastrophic "
                  "cancellation: the data are identical, so their standard error is 0.",
                  RuntimeWarning, stacklevel=5)
    gap = value - popmean
    t = math.nan if gap == 0 else math.copysign(math.inf, gap)
    if math.isnan(t):
        p = math.nan
    elif alternative == "two-sided":
        p = 0.0
    else:
        p = 0.0 if (t > 0) == (alternative == "greater") else 1.0
    return {"statistic": t, "pvalue": p, "df": n - 1.0, "_estimate": value,
            "_standard_error": 0.0}


def _ttest(samples, alternative, axis, nan_policy, keepdims, paired) -> TtestResult:
    _check_alternative(alternative, _T_ALTERNATIVE)
    result = _vectorised("t-test", _t_core(alternative), samples, outputs=_T_OUTPUTS,
                         axis=axis, nan_policy=nan_policy, keepdims=keepdims, paired=paired,
                         too_small=_any_empty, result=TtestResult,
                         extra={"_alternative": alternative})
    # scipy's df is an integer (n − 1) unless NaN marks a slice that was not tested.
    df = np.asarray(result._values["df"])
    if np.isfinite(df).all():
        result._values["df"] = _typed(df, np.dtype(np.int64))
    return result


def ttest_1samp(a: Any, popmean: Any, axis: Any = 0, nan_policy: str = "propagate",
                alternative: str = "two-sided", *, keepdims: bool = False) -> TtestResult:
    """``scipy.stats.ttest_1samp(a, popmean, axis, nan_policy, alternative, keepdims=...)``;
    ``popmean`` broadcasts against ``a`` with the tested axis of length one."""
    popmean_array = np.asarray(popmean)
    if axis is not None and popmean_array.ndim > 0:
        a_ndim = np.ndim(a)
        at = int(axis) - a_ndim + popmean_array.ndim if int(axis) >= 0 else int(axis)
        if -popmean_array.ndim <= at < popmean_array.ndim and popmean_array.shape[at] != 1:
            raise ValueError("`popmean.shape[axis]` must equal 1.")
    return _ttest((a, popmean), alternative, axis, nan_policy, keepdims, paired=False)


def ttest_rel(a: Any, b: Any, axis: Any = 0, nan_policy: str = "propagate",
              alternative: str = "two-sided", *, keepdims: bool = False) -> TtestResult:
    """``scipy.stats.ttest_rel(a, b, axis, nan_policy, alternative, keepdims=...)``: the test
    of d = a − b; the interval is for the mean of d."""
    _check_nan_policy(nan_policy)
    arrays = [_numeric(a, "a"), _numeric(b, "b")]
    aligned = _aligned(arrays, axis, paired=True)
    if nan_policy == "omit":
        # Drop the pairs with a NaN on either side (scipy's paired rule), then test d.
        keep = ~(np.isnan(aligned.arrays[0]) | np.isnan(aligned.arrays[1]))
        d = np.where(keep, aligned.arrays[0] - aligned.arrays[1], np.nan)
    else:
        d = aligned.arrays[0] - aligned.arrays[1]
    d = d.astype(_result_dtype(arrays))
    if aligned.axis is not None:
        d = np.moveaxis(d, -1, aligned.axis)
    return _ttest((d, 0.0), alternative, axis if aligned.axis is not None else None,
                  nan_policy, keepdims, paired=False)


def _f_too_small(slices: List[np.ndarray]) -> bool:
    if any(s.size == 0 for s in slices):
        return True
    if all(s.size == 1 for s in slices):
        warnings.warn(SmallSampleWarning(
            "all input arrays have length 1.  f_oneway requires that at least one input has "
            "length greater than 1."), stacklevel=5)
        return True
    return False


def f_oneway(*samples: Any, axis: Any = 0, equal_var: bool = True,
             nan_policy: str = "propagate", keepdims: bool = False) -> _api.TestResult:
    """``scipy.stats.f_oneway(*samples, axis, equal_var, nan_policy, keepdims)``; Welch's
    ANOVA with ``equal_var=False``."""
    if len(samples) < 2:
        raise TypeError(f"At least two samples are required; got {len(samples)}.")
    if not isinstance(equal_var, bool):
        raise TypeError("Expected a boolean value for 'equal_var'")

    def core(slices):
        if all(np.all(s == s[0]) for s in slices):
            same = np.all(np.concatenate(slices) == slices[0][0])
            return {"statistic": math.nan if same else math.inf,
                    "pvalue": math.nan if same else 0.0}
        if not equal_var and any(s.size < 2 or np.all(s == s[0]) for s in slices):
            return {"statistic": math.nan, "pvalue": math.nan}
        if not all(np.isfinite(s).all() for s in slices):
            return {"statistic": math.nan, "pvalue": math.nan}
        r = _api._native(_dptest.f_oneway, slices, equal_var, 0.05)
        return {"statistic": r.statistic, "pvalue": r.pvalue, "fields": r._fields}

    return _vectorised("anova", core, samples, outputs=("statistic", "pvalue"), axis=axis,
                       nan_policy=nan_policy, keepdims=keepdims, too_small=_f_too_small)


class BinomTestResult:
    """scipy's ``BinomTestResult``: ``k``, ``n``, ``alternative``, ``statistic`` (= k/n, also
    ``proportion_estimate``), ``pvalue`` and :meth:`proportion_ci`."""

    __test__ = False

    def __init__(self, k: int, n: int, p: float, alternative: str, fields: dict) -> None:
        self.k, self.n, self._p, self.alternative = k, n, p, alternative
        self.statistic = self.proportion_estimate = fields["statistic"]
        self.pvalue = fields["p_value"]
        self._fields = fields

    def proportion_ci(self, confidence_level: float = 0.95,
                      method: str = "exact") -> "_api.ConfidenceInterval":
        """The interval for the proportion: ``'exact'`` (Clopper–Pearson), ``'wilson'`` or
        ``'wilsoncc'``, one-sided as the test's alternative."""
        if method not in ("exact", "wilson", "wilsoncc"):
            raise ValueError(f"method ('{method}') must be one of 'exact', 'wilson' or "
                             "'wilsoncc'.")
        if not 0 <= confidence_level <= 1:
            raise ValueError(f"confidence_level ({confidence_level}) must be in the interval "
                             "[0, 1].")
        low, high = _dptest.binomtest_proportion_ci(self.k, self.n, self._p, self.alternative,
                                                    float(confidence_level), method)
        return _api.ConfidenceInterval(low, high)

    def to_dict(self) -> dict:
        """The result with the keys of the CLI's ``--json`` output."""
        return dict(self._fields)

    def __repr__(self) -> str:
        return (f"BinomTestResult(k={self.k}, n={self.n}, alternative={self.alternative!r}, "
                f"statistic={self.statistic}, pvalue={self.pvalue})")


def _whole(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if not (isinstance(value, (float, np.floating)) and float(value).is_integer()):
            raise TypeError(f"{name} must be an integer.")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be an integer not less than {minimum}, but got {value}")
    return value


def binomtest(k: Any, n: Any, p: float = 0.5, alternative: str = "two-sided") -> BinomTestResult:
    """``scipy.stats.binomtest(k, n, p, alternative)``: the exact test that the probability of
    success is ``p``."""
    k, n = _whole(k, "k", 0), _whole(n, "n", 1)
    if k > n:
        raise ValueError(f"k ({k}) must not be greater than n ({n}).")
    if not 0 <= p <= 1:
        raise ValueError(f"p ({p}) must be in range [0,1]")
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"alternative ('{alternative}') not recognized; \n"
                         "must be 'two-sided', 'less' or 'greater'")
    fields = json.loads(_dptest.binomtest(k, n, float(p), alternative, 0.05))
    return BinomTestResult(k, n, float(p), alternative, fields)


def sign(x: Any, y: Any = None, alternative: str = "two-sided") -> BinomTestResult:
    """The sign test of d = x − y (or of x): ``binomtest(#(d > 0), #(d ≠ 0), 0.5,
    alternative)``, zeros dropped (the public twin of :func:`dptest.private_test` ``"sign"``
    and the CLI's ``sign --public``; note the CLI's d is after − before)."""
    a = _api._array(x, "x")
    d = a if y is None else a - _api._array(y, "y")
    if np.isnan(d).any():
        raise ValueError("x (and y) must not contain NaN: remove the incomplete pairs first")
    positive, negative = int((d > 0).sum()), int((d < 0).sum())
    if positive + negative == 0:
        raise ValueError(f"all {d.size} differences are 0: the sign test needs a non-zero one")
    return binomtest(positive, positive + negative, 0.5, alternative)
