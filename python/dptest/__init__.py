"""dptest: differentially private and K-anonymous hypothesis tests, scipy.stats-style.

>>> import dptest
>>> res = dptest.kruskal([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0], epsilon=1)
>>> stat, p = res                     # unpacks like scipy's result
>>> res.epsilon, res.reference        # privacy cost and the reference used  # doctest: +SKIP

Private calls need ``epsilon``; ``public=True`` (or :mod:`dptest.public`, with scipy's
function names) gives exactly scipy's answer. See ``help(dptest.kruskal)``.
"""

from . import federated, public
from ._api import (
    PrivacyBudgetError,
    TestResult,
    anova,
    critical_value,
    kruskal,
    mannwhitneyu,
    plan,
    private_test,
    reference_pvalue,
    shipped_table,
    task_clifton,
    tests,
    ttest,
    wilcoxon,
)
from ._dptest import __version__
from .ledger import Ledger

__all__ = [
    "Ledger",
    "PrivacyBudgetError",
    "TestResult",
    "__version__",
    "anova",
    "critical_value",
    "federated",
    "kruskal",
    "mannwhitneyu",
    "plan",
    "private_test",
    "public",
    "reference_pvalue",
    "shipped_table",
    "task_clifton",
    "tests",
    "ttest",
    "wilcoxon",
]
