# The private path shared by every dp_*_test function: one call into the Rust release hook
# (src/rust/src/lib.rs, the CLI's and the Python package's path), then an htest object.

`%||%` <- function(a, b) if (is.null(a)) b else a

# The named options of a release as the CLI spells them: `known_sizes = TRUE` becomes
# ("known-sizes", "true"); FALSE and NULL are left out.
release_options <- function(options) {
  keep <- Filter(function(v) !is.null(v) && !identical(v, FALSE), options)
  names_out <- gsub("_", "-", names(keep), fixed = TRUE)
  values_out <- vapply(keep, function(v) if (isTRUE(v)) "true" else as.character(v), "")
  list(names = unname(names_out), values = unname(values_out))
}

# Refuses missing values before anything is computed (a private run cannot drop rows: n is
# public, and how many were dropped would be a release).
refuse_missing <- function(...) {
  for (v in list(...)) {
    if (!is.null(v) && anyNA(v)) {
      stop("missing values are refused in private mode (n is public): remove them from the ",
           "dataset first, and treat the result as its own dataset", call. = FALSE)
    }
  }
}

check_epsilon <- function(epsilon, public) {
  if (isTRUE(public) && !is.null(epsilon)) {
    stop("give exactly one of `epsilon` (a private test) and `public = TRUE`", call. = FALSE)
  }
  if (!isTRUE(public) && is.null(epsilon)) {
    stop("give `epsilon` for a private test, or `public = TRUE` for the ordinary one",
         call. = FALSE)
  }
  if (!is.null(epsilon) && !(is.numeric(epsilon) && length(epsilon) == 1L)) {
    stop("`epsilon` must be one number", call. = FALSE)
  }
}

# A public test's interval spends no epsilon: `ci.epsilon` is refused in public mode (it was
# ignored before).
no_public_ci_epsilon <- function(ci.epsilon) {
  if (!is.null(ci.epsilon)) {
    stop("`ci.epsilon` is the epsilon of a private interval: a public interval spends none",
         call. = FALSE)
  }
}

# One private release: `samples` is a list of numeric vectors (one per declared group, or
# one sample). Returns the release's fields (the CLI's --json keys) as a named list.
dp_release_fields <- function(test, samples, epsilon, paired = FALSE, delta = NULL,
                              alternative = "two.sided", bounds = NULL, mu = 0,
                              options = list(), conf.level = NULL, ci.epsilon = NULL,
                              draws = NULL, seed = NULL, alpha = 0.05, ledger = NULL) {
  opts <- release_options(options)
  if (!is.null(ledger) && !inherits(ledger, "dp_ledger")) {
    stop("`ledger` must come from dp_ledger()", call. = FALSE)
  }
  if (is.null(conf.level) && !is.null(ci.epsilon)) {
    stop("`ci.epsilon` is the interval's epsilon: it goes with `conf.level`", call. = FALSE)
  }
  dp_release(list(
    test = test, samples = lapply(samples, as.double), paired = isTRUE(paired),
    epsilon = as.double(epsilon), delta = delta, alternative = alternative,
    bounds = if (is.null(bounds)) NULL else as.double(bounds), popmean = as.double(mu),
    option_names = opts$names, option_values = opts$values, ci_level = conf.level,
    ci_epsilon = ci.epsilon, draws = if (is.null(draws)) NULL else as.double(draws),
    seed = if (is.null(seed)) NULL else as.double(seed), alpha = as.double(alpha),
    ledger_path = ledger$path, dataset = ledger$dataset, budget = ledger$budget,
    delta_budget = ledger$delta_budget
  ))
}
