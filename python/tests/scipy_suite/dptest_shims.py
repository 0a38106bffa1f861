"""A pytest plugin that runs scipy's own tests against ``dptest.public``.

Loaded with ``-p dptest_shims`` while pytest runs scipy's test modules in place (from the
installed scipy: nothing is copied into or committed to this repository). At configure time
every name under which scipy's test modules can reach one of the replaced functions
(``scipy.stats.kruskal``, ``scipy.stats._mannwhitneyu.mannwhitneyu``, ...) is pointed at a
thin shim over ``dptest.public``. A shim adds nothing dptest lacks: it passes each argument
that the dptest function takes, drops one that equals scipy's default, and raises
:class:`Unsupported` for any other value.

Each test that called a shim is recorded with its outcome in the JSON file named by
``DPTEST_SCIPY_REPORT``: passed, ``unsupported`` (stopped at a feature dptest does not
offer, with the reason) or ``failed`` (a wrong value or a different exception: ours).
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import warnings

import numpy as np
import pytest

from dptest import public

# The replaced functions: scipy's name -> dptest.public's function.
REPLACED = {name: getattr(public, name) for name in (
    "kruskal", "mannwhitneyu", "wilcoxon", "ttest_1samp", "ttest_rel", "f_oneway", "binomtest",
)}


class Unsupported(NotImplementedError):
    """An argument value dptest.public does not take (and which is not scipy's default).
    dptest.public itself raises NotImplementedError for what it does not offer; both are
    recorded as ``unsupported``."""


_reached = False


def _is_default(value, default) -> bool:
    if value is default:
        return True
    try:
        return bool(np.all(value == default)) and type(value) is type(default)
    except Exception:
        return False


def _shim(name, original):
    ours = REPLACED[name]
    theirs = inspect.signature(original)
    takes = inspect.signature(ours).parameters

    def shim(*args, **kwargs):
        global _reached
        _reached = True
        try:
            bound = theirs.bind(*args, **kwargs)
        except TypeError as e:
            raise Unsupported(f"{name}: {e} (an argument outside scipy's signature)") from e
        positional, keywords = [], {}
        for pname, param in theirs.parameters.items():
            if pname not in bound.arguments:
                continue
            value = bound.arguments[pname]
            if param.kind is param.VAR_POSITIONAL:
                positional.extend(value)
            elif pname in takes:
                keywords[pname] = value
            elif not _is_default(value, param.default):
                raise Unsupported(f"{name}({pname}={value!r})")
        return _with_scipy_warnings(ours, positional, keywords)

    shim.__name__ = name
    shim.__wrapped_scipy__ = original
    return shim


def _with_scipy_warnings(ours, positional, keywords):
    """Calls ``ours``, re-raising its warnings with dptest's SmallSampleWarning translated to
    scipy's class (same message), which scipy's tests expect by class."""
    from scipy.stats._axis_nan_policy import SmallSampleWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ours(*positional, **keywords)
    for w in caught:
        category = w.category
        if issubclass(category, public.SmallSampleWarning):
            category = SmallSampleWarning
        warnings.warn(category(str(w.message)), stacklevel=3)
    return result


def _install() -> None:
    import scipy.stats  # noqa: F401  (imports the modules that define the functions)

    originals = {name: getattr(scipy.stats, name) for name in REPLACED}
    shims = {name: _shim(name, f) for name, f in originals.items()}
    by_id = {id(f): shims[name] for name, f in originals.items()}
    # scipy's tests look their array-API marks up by function object.
    from scipy._lib._array_api import xp_capabilities_table
    for name, f in originals.items():
        if f in xp_capabilities_table:
            xp_capabilities_table[shims[name]] = xp_capabilities_table[f]
    for modname, module in list(sys.modules.items()):
        if not (modname == "scipy.stats" or modname.startswith("scipy.stats._")):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in by_id and attr in REPLACED:
                setattr(module, attr, by_id[id(value)])


def pytest_configure(config):
    _install()
    config._dptest_records = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    global _reached
    _reached = False
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not _reached:
        return
    record = {"test": f"{item.module.__name__.rsplit('.', 1)[-1]}::{item.nodeid.lstrip(':')}",
              "outcome": report.outcome}
    if report.failed:
        excinfo = call.excinfo
        if excinfo is not None and excinfo.errisinstance(NotImplementedError):
            record["outcome"] = "unsupported"
            record["reason"] = str(excinfo.value)
        else:
            record["reason"] = excinfo.exconly().splitlines()[0][:300] if excinfo else ""
    item.config._dptest_records.append(record)


def pytest_sessionfinish(session):
    path = os.environ.get("DPTEST_SCIPY_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump(session.config._dptest_records, f, indent=1)
