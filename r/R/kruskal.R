#' Private Kruskal-Wallis rank sum test
#'
#' The Kruskal-Wallis test of whether g groups come from one distribution, released with
#' epsilon-differential privacy (Couch et al., CCS 2019): the rank statistic (KW-abs by
#' default, sensitivity 8; or H, sensitivity 87) plus Laplace noise from the operating
#' system's random source, compared with a Monte Carlo reference of the null with the same
#' noise. With `public = TRUE` it is exactly [stats::kruskal.test()].
#'
#' The group sizes are private unless `known_sizes = TRUE` declares them public (fixed by the
#' design or published anyway); the reference then takes them instead of the worst case over
#' every split of n. A private test needs `groups`, the declared labels in order, because the
#' number of groups is public and is never read off the data; a label outside `groups` and a
#' missing value are refused before anything is computed.
#'
#' @param x A numeric vector of data values, or a list of numeric vectors (one per group).
#' @param g A vector or factor giving the group of each element of `x` (ignored if `x` is a
#'   list).
#' @param formula A formula `response ~ group`.
#' @param data A data frame holding the variables of `formula`.
#' @param subset,na.action As for [stats::kruskal.test()]; public mode only (a private run
#'   cannot choose rows: n is public).
#' @param epsilon The privacy budget of the release. Give exactly one of `epsilon` and
#'   `public = TRUE`.
#' @param public `TRUE` for the ordinary test, exactly [stats::kruskal.test()].
#' @param groups The declared group labels, in order (required for a private test unless `x`
#'   is a list).
#' @param statistic `"abs"` (KW-abs, the default) or `"squared"` (H).
#' @param known_sizes Declare the group sizes public.
#' @param conf.level A level for an interval of the rank effect KW-abs measures (no epsilon
#'   of its own). With `public = TRUE`, the public interval (the rank effect from mid-ranks,
#'   sign-aware on the exact mean ranks) is added to the [stats::kruskal.test()] result as
#'   `estimate` and `conf.int`, which `stats` does not give.
#' @param ci.epsilon With `conf.level` and `known_sizes = TRUE`: an epsilon of its own for a
#'   release of the mean ranks' sampling covariance, so the interval estimates their error
#'   instead of bounding it without the sizes (narrower); charged with the test.
#' @param ci.method With `ci.epsilon`: `"scaled"` spends it on one number, the mean ranks'
#'   covariance as a multiple of its null shape; `"covariance"` on the covariance's entries
#'   (narrower in a few designs); `"signs"` splits it with the groups' weighted mean-rank
#'   deviations and keeps the signs those make sure (narrower for large samples with groups
#'   off the middle); `"auto"` (the default) takes `"signs"` where the scaled route's one
#'   number would have noise of scale 0.025 or less (large groups or `ci.epsilon`), else
#'   `"scaled"` (public parameters only).
#' @param draws,seed The Monte Carlo reference's draws and seed (public; the defaults are the
#'   command line's).
#' @param alpha The level at which the release's `reject` field is decided.
#' @param ledger A [dp_ledger()] to charge.
#' @param ... Further arguments for the methods.
#' @return An object of class `c("dp_htest", "htest")`: `statistic` (the noisy statistic),
#'   `parameter` (epsilon), `p.value`, `method`, `data.name`, `conf.int` with `conf.level`,
#'   `privacy` (what was spent, the noise, the reference) and `release` (every field of the
#'   release, the command line's `--json` keys). With `public = TRUE`, the `htest` of
#'   [stats::kruskal.test()].
#' @examples
#' dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1,
#'                 groups = levels(chickwts$feed))
#' dp_kruskal_test(weight ~ feed, data = chickwts, public = TRUE)
#' @export
dp_kruskal_test <- function(x, ...) UseMethod("dp_kruskal_test")

#' @rdname dp_kruskal_test
#' @export
dp_kruskal_test.default <- function(x, g, ..., epsilon = NULL, public = FALSE, groups = NULL,
                                    statistic = c("abs", "squared"), known_sizes = FALSE,
                                    conf.level = NULL, ci.epsilon = NULL,
                                    ci.method = c("auto", "scaled", "covariance", "signs"),
                                    draws = NULL, seed = NULL, alpha = 0.05, ledger = NULL) {
  check_epsilon(epsilon, public)
  dname <- if (is.list(x)) deparse1(substitute(x)) else
    paste(deparse1(substitute(x)), "and", deparse1(substitute(g)))
  if (isTRUE(public)) {
    no_public_ci_epsilon(ci.epsilon)
    result <- if (is.list(x)) stats::kruskal.test(x) else stats::kruskal.test(x, g)
    result$data.name <- dname
    if (!is.null(conf.level)) result <- with_rank_effect_interval(result, x, g, conf.level)
    return(result)
  }
  statistic <- match.arg(statistic)
  ci.method <- match.arg(ci.method)
  if (!(ci.method %in% c("auto", "scaled")) && is.null(ci.epsilon)) {
    stop("`ci.method` chooses the interval's own release: it goes with `conf.level` and ",
         "`ci.epsilon`", call. = FALSE)
  }
  samples <- declared_groups(x, if (missing(g)) NULL else g, groups)
  fields <- dp_release_fields(
    "kruskal-wallis", samples, epsilon,
    options = list(statistic = statistic, known_sizes = known_sizes, ci_method = ci.method),
    conf.level = conf.level, ci.epsilon = ci.epsilon, draws = draws, seed = seed,
    alpha = alpha, ledger = ledger
  )
  as_dp_htest(
    fields,
    method = paste0("Private Kruskal-Wallis rank sum test (",
                    if (statistic == "abs") "KW-abs" else "H", ", Laplace noise)"),
    data.name = dname,
    statistic.name = if (statistic == "abs") "noisy KW-abs" else "noisy H"
  )
}

#' @rdname dp_kruskal_test
#' @export
dp_kruskal_test.formula <- function(formula, data, subset, na.action, ...) {
  if (missing(formula) || length(formula) != 3L) stop("'formula' missing or incorrect")
  call <- match.call(expand.dots = FALSE)
  frame <- model_frame(call, formula, data, private = is_private(...), parent.frame())
  dname <- paste(names(frame), collapse = " by ")
  names(frame) <- NULL
  result <- dp_kruskal_test(x = frame[[1L]], g = frame[[2L]], ...)
  result$data.name <- dname
  result
}

is_private <- function(...) !isTRUE(list(...)$public)

# The public test's htest with the rank effect's interval (stats::kruskal.test has none): the
# estimate and conf.int of the command line's --public --ci, on the rows kruskal.test used
# (complete cases, empty groups dropped).
with_rank_effect_interval <- function(result, x, g, conf.level) {
  samples <- if (is.list(x)) {
    lapply(x, function(u) u[stats::complete.cases(u)])
  } else {
    ok <- stats::complete.cases(x, g)
    split(x[ok], factor(g[ok]))
  }
  estimate <- dp_public_interval("kruskal-wallis", unname(samples), conf.level)
  result$estimate <- stats::setNames(estimate$value, estimate$parameter)
  result$conf.int <- structure(c(estimate$low, estimate$high), conf.level = estimate$level)
  result
}

# The model frame of a formula method, as the stats formula methods build it; a private run
# keeps every row (na.pass, no subset), so that missing values are refused, never dropped.
model_frame <- function(call, formula, data, private, env) {
  if (private && (!is.null(call$subset) || !is.null(call$na.action))) {
    stop("`subset` and `na.action` choose rows, which a private run cannot do (n is public): ",
         "make a data frame of the rows to compare and treat it as its own dataset",
         call. = FALSE)
  }
  call <- call[names(call) != "..."]
  call[[1L]] <- quote(stats::model.frame)
  if (private) call$na.action <- quote(stats::na.pass)
  eval(call, env)
}

# One sample per declared group, in the declared order.
declared_groups <- function(x, g, groups) {
  if (is.list(x)) {
    if (!all(vapply(x, is.numeric, TRUE))) stop("every group must be numeric", call. = FALSE)
    refuse_missing(unlist(x))
    return(unname(x))
  }
  if (is.null(groups)) {
    stop("a private test needs `groups`, the declared group labels in order (they are public ",
         "and never read off the data)", call. = FALSE)
  }
  if (is.null(g) || length(g) != length(x)) {
    stop("`x` and `g` must have the same length", call. = FALSE)
  }
  if (!is.numeric(x)) stop("`x` must be numeric", call. = FALSE)
  refuse_missing(x, g)
  labels <- as.character(g)
  declared <- as.character(groups)
  if (anyDuplicated(declared)) stop("`groups` names a group twice", call. = FALSE)
  if (!all(labels %in% declared)) {
    stop("a row's group is not declared in `groups` (a private run cannot leave rows out: ",
         "make a data frame of the declared groups' rows and treat it as its own dataset)",
         call. = FALSE)
  }
  lapply(declared, function(label) x[labels == label])
}
