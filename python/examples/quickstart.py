# %% [markdown]
# # dptest from Python: a notebook-style tour
# Run as a script (`python python/examples/quickstart.py`) or open as a notebook (jupytext
# percent format). It uses the CLI's bundled example data (examples/*.csv).

# %%
import pathlib

import pandas as pd

import dptest

ROOT = pathlib.Path(__file__).resolve().parents[2]
df = pd.read_csv(ROOT / "examples" / "methylation.csv")

# %% [markdown]
# A private Kruskal–Wallis test: the groups are declared (public), never read off the data.

# %%
groups = ["bipolar", "control", "schizophrenia"]  # declared by the study design, not the data
res = dptest.kruskal(data=df, group="group", value="value", groups=groups, epsilon=1)
stat, p = res
print(res)
print("privacy cost:", res.epsilon, res.delta, "reference:", res.reference)

# %% [markdown]
# The ordinary test (scipy's answer), for comparison on non-sensitive data.

# %%
print(dptest.kruskal(data=df, group="group", value="value", public=True))

# %% [markdown]
# Paired data, a budget ledger shared with the CLI, and a critical value.

# %%
import tempfile

paired = pd.read_csv(ROOT / "examples" / "paired.csv")
with tempfile.TemporaryDirectory() as tmp:
    ledger = dptest.Ledger(pathlib.Path(tmp) / "budget.json", dataset="paired-demo", budget=1.0)
    w = dptest.wilcoxon("after", "before", data=paired, epsilon=0.5, ledger=ledger)
    print(w, w.ledger)
print(dptest.critical_value("wilcoxon", 100, 1.0, 0.05).critical_value)
