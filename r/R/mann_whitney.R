#' Private Mann-Whitney (Wilcoxon rank sum) test
#'
#' The two-sample rank test of whether `x` tends to be larger or smaller than `y`, released
#' with differential privacy. By default the statistic is U1 - n1 n2 / 2 (the first group's
#' rank sum minus its null mean), sensitivity n - 1 whatever the group sizes, so the sizes are
#' never released and the test is epsilon-DP for every alternative. With `public = TRUE` it
#' is exactly [stats::wilcox.test()] (its `exact` and `correct` defaults).
#'
#' @param x,y Numeric vectors of data values (the first and second group).
#' @param formula A formula `response ~ group` with two groups.
#' @param data A data frame holding the variables of `formula`.
#' @param subset,na.action As for [stats::wilcox.test()]; public mode only.
#' @param alternative `"two.sided"`, `"less"` or `"greater"` (x shifted to the right of y).
#' @param mu The location shift of the null (public mode; a private test tests mu = 0).
#' @param epsilon The privacy budget. Give exactly one of `epsilon` and `public = TRUE`.
#' @param public `TRUE` for the ordinary test, exactly [stats::wilcox.test()].
#' @param groups With the formula interface of a private test: the two declared group labels
#'   (first, second).
#' @param statistic `"centred"` (the default) or `"paper"` (the CCS 2019 paper's min(U1, U2)
#'   with a private size estimate, (epsilon, delta)-DP, two-sided only).
#' @param delta The delta of `statistic = "paper"`.
#' @param known_sizes Declare the group sizes public (fixed by the design or published
#'   anyway).
#' @param count_sizes Spend a share of epsilon on a noisy count of the first group, for very
#'   unequal groups.
#' @param reference `"auto"`, `"normal"` or `"exact-u"` (`NULL`: the test's default).
#' @param conf.level A level for an interval of P(X > Y); it needs `known_sizes = TRUE` (with
#'   private sizes the number of pairs that scales U1 to P(X > Y) is not public, and the
#'   request is refused before the data are read). Without `ci.epsilon` it is
#'   post-processing of the test's release (no epsilon of its own). In public mode, passed to
#'   [stats::wilcox.test()] with `conf.int = TRUE`.
#' @param ci.epsilon With `conf.level`: an epsilon of its own for a release of DeLong's
#'   placement variance, so the interval uses the estimated variance instead of its largest
#'   possible value (narrower on large samples); charged with the test.
#' @param exact,correct Passed to [stats::wilcox.test()] in public mode.
#' @param draws,seed The Monte Carlo reference's draws and seed (public).
#' @param alpha The level at which the release's `reject` field is decided.
#' @param ledger A [dp_ledger()] to charge.
#' @param ... Further arguments for the methods.
#' @return An object of class `c("dp_htest", "htest")` (see [dp_kruskal_test()]); with
#'   `public = TRUE`, the `htest` of [stats::wilcox.test()].
#' @examples
#' dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1, groups = c("OJ", "VC"))
#' dp_mann_whitney_test(len ~ supp, data = ToothGrowth, public = TRUE, exact = FALSE)
#' @export
dp_mann_whitney_test <- function(x, ...) UseMethod("dp_mann_whitney_test")

#' @rdname dp_mann_whitney_test
#' @export
dp_mann_whitney_test.default <- function(x, y, alternative = c("two.sided", "less", "greater"),
                                         mu = 0, ..., epsilon = NULL, public = FALSE,
                                         statistic = c("centred", "paper"), delta = NULL,
                                         known_sizes = FALSE, count_sizes = FALSE,
                                         reference = NULL, conf.level = NULL,
                                         ci.epsilon = NULL, exact = NULL,
                                         correct = TRUE, draws = NULL, seed = NULL,
                                         alpha = 0.05, ledger = NULL) {
  alternative <- match.arg(alternative)
  check_epsilon(epsilon, public)
  dname <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  if (isTRUE(public)) {
    no_public_ci_epsilon(ci.epsilon)
    result <- stats::wilcox.test(
      x, y, alternative = alternative, mu = mu, paired = FALSE, exact = exact,
      correct = correct, conf.int = !is.null(conf.level), conf.level = conf.level %||% 0.95
    )
    result$data.name <- dname
    return(result)
  }
  statistic <- match.arg(statistic)
  if (!identical(mu, 0)) stop("a private Mann-Whitney test tests mu = 0", call. = FALSE)
  samples <- declared_groups(list(x, y), NULL, NULL)
  fields <- dp_release_fields(
    "mann-whitney", samples, epsilon, delta = if (statistic == "paper") delta %||% 1e-6,
    alternative = alternative,
    options = list(statistic = statistic, known_sizes = known_sizes,
                   count_sizes = count_sizes, reference = reference),
    conf.level = conf.level, ci.epsilon = ci.epsilon, draws = draws, seed = seed,
    alpha = alpha, ledger = ledger
  )
  as_dp_htest(
    fields,
    method = paste0("Private Wilcoxon rank sum test (",
                    if (statistic == "centred") "U1 - n1 n2 / 2" else "the paper's min(U1, U2)",
                    ", Laplace noise)"),
    data.name = dname,
    statistic.name = if (statistic == "centred") "noisy U1 - n1 n2 / 2" else "noisy min(U1, U2)",
    alternative = alternative
  )
}

#' @rdname dp_mann_whitney_test
#' @export
dp_mann_whitney_test.formula <- function(formula, data, subset, na.action, ...,
                                         groups = NULL) {
  if (missing(formula) || length(formula) != 3L) stop("'formula' missing or incorrect")
  call <- match.call(expand.dots = FALSE)
  call$groups <- NULL
  private <- is_private(...)
  frame <- model_frame(call, formula, data, private = private, parent.frame())
  dname <- paste(names(frame), collapse = " by ")
  names(frame) <- NULL
  if (private) {
    samples <- declared_groups(frame[[1L]], frame[[2L]], groups)
  } else {
    g <- factor(frame[[2L]])
    if (nlevels(g) != 2L) stop("grouping factor must have exactly 2 levels")
    samples <- split(frame[[1L]], g)
  }
  if (length(samples) != 2L) stop("`groups` must name exactly two groups", call. = FALSE)
  result <- dp_mann_whitney_test(x = samples[[1L]], y = samples[[2L]], ...)
  result$data.name <- dname
  result
}
