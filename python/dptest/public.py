"""The public (non-private) tests under scipy.stats' names: the same answers as scipy.

>>> from dptest import public
>>> public.kruskal([1, 2, 3], [4, 5, 6]).pvalue  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from . import _api, _dptest

__all__ = ["kruskal", "mannwhitneyu", "wilcoxon", "ttest_1samp", "ttest_rel", "f_oneway"]


def kruskal(*samples: Any) -> _api.TestResult:
    """``scipy.stats.kruskal(*samples)``."""
    return _api.kruskal(*samples, public=True)


def mannwhitneyu(
    x: Any, y: Any, use_continuity: bool = True, alternative: str = "two-sided",
    method: str = "auto",
) -> _api.TestResult:
    """``scipy.stats.mannwhitneyu(x, y, use_continuity, alternative, method=...)``."""
    return _api.mannwhitneyu(x, y, public=True, use_continuity=use_continuity,
                             alternative=alternative, method=method)


def wilcoxon(
    x: Any, y: Any = None, zero_method: str = "wilcox", correction: bool = False,
    alternative: str = "two-sided",
) -> _api.TestResult:
    """``scipy.stats.wilcoxon(x, y, zero_method, correction, alternative)`` (method="auto")."""
    return _api.wilcoxon(x, y, public=True, zero_method=zero_method, correction=correction,
                         alternative=alternative)


def ttest_1samp(a: Any, popmean: float = 0.0, alternative: str = "two-sided") -> _api.TestResult:
    """``scipy.stats.ttest_1samp(a, popmean, alternative=...)``."""
    return _api.ttest(a, public=True, popmean=popmean, alternative=alternative)


def ttest_rel(a: Any, b: Any, alternative: str = "two-sided") -> _api.TestResult:
    """``scipy.stats.ttest_rel(a, b, alternative=...)`` (the test of d = a − b)."""
    return _api.ttest(a, b, public=True, alternative=alternative)


def f_oneway(*samples: Any) -> _api.TestResult:
    """``scipy.stats.f_oneway(*samples)``."""
    arrays = [_api._array(s, f"sample {i}") for i, s in enumerate(samples)]
    return _api._native(_dptest.f_oneway, arrays, 0.05)
