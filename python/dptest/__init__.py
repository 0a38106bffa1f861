"""dptest: differentially private and K-anonymous hypothesis tests, scipy.stats-style.

>>> import dptest
>>> res = dptest.kruskal([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0], epsilon=1)
>>> stat, p = res                     # unpacks like scipy's result
>>> res.epsilon_total, res.reference  # privacy cost and the reference used  # doctest: +SKIP

Private calls need ``epsilon``; ``public=True`` (or :mod:`dptest.public`, with scipy's
function names) gives exactly scipy's answer. See ``help(dptest.kruskal)``.
"""

import os as _os

# On a headless machine (no XDG_RUNTIME_DIR) Mesa's Vulkan device-select layer prints
# "error: XDG_RUNTIME_DIR is invalid or not set" on every GPU probe; it only orders GPUs for a
# display, so it is switched off there (as the CLI does) unless NODEVICE_SELECT is set.
if "XDG_RUNTIME_DIR" not in _os.environ:
    _os.environ.setdefault("NODEVICE_SELECT", "1")

from . import federated, public  # noqa: E402
from ._api import (  # noqa: E402
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
    sign,
    task_clifton,
    tests,
    ttest,
    wilcoxon,
)
from ._dptest import __version__  # noqa: E402
from .ledger import Ledger  # noqa: E402

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
    "sign",
    "task_clifton",
    "tests",
    "ttest",
    "wilcoxon",
]
