# The one-sample and paired tests: Wilcoxon signed rank, sign, t. Paired differences are
# x - y, as stats computes them, and the null is a location of `mu`.

# The differences a one-sample or paired test runs on, and whether they are paired.
differences <- function(x, y, paired) {
  if (!is.numeric(x)) stop("`x` must be numeric", call. = FALSE)
  if (is.null(y)) {
    if (isTRUE(paired)) stop("`y` is missing for a paired test", call. = FALSE)
    refuse_missing(x)
    return(list(d = as.double(x), paired = FALSE))
  }
  if (!isTRUE(paired)) {
    stop("a private two-sample test of unpaired x and y is dp_mann_whitney_test(); this ",
         "test is one-sample or paired (paired = TRUE)", call. = FALSE)
  }
  if (!is.numeric(y) || length(x) != length(y)) {
    stop("`x` and `y` must be numeric vectors of the same length", call. = FALSE)
  }
  refuse_missing(x, y)
  d <- as.double(x) - as.double(y)
  # Overflowing differences of finite values saturate, as the library's.
  big <- .Machine$double.xmax
  d[is.infinite(d) & is.finite(x) & is.finite(y)] <- sign(d[is.infinite(d) & is.finite(x) &
                                                              is.finite(y)]) * big
  list(d = d, paired = TRUE)
}

one_sample_name <- function(x, y, paired) {
  if (is.null(y)) x else paste(x, "and", y)
}

#' Private Wilcoxon signed rank test
#'
#' The signed rank test of whether the distribution of `x` (or of the differences `x - y`,
#' with `paired = TRUE`) is symmetric about `mu`, released with epsilon-differential privacy:
#' Pratt's signed-rank statistic (zeros kept, sensitivity 2n) plus Laplace noise, against a
#' reference that holds whatever the number of zero differences. Unpaired `x` and `y` go to
#' [dp_mann_whitney_test()], as [stats::wilcox.test()] does. With `public = TRUE` it is
#' exactly [stats::wilcox.test()].
#'
#' @param x A numeric vector.
#' @param y An optional numeric vector: paired with `x` (`paired = TRUE`), or a second group.
#' @param alternative `"two.sided"`, `"less"` or `"greater"`.
#' @param mu The centre of symmetry under the null.
#' @param paired Whether `x` and `y` are paired.
#' @param epsilon The privacy budget. Give exactly one of `epsilon` and `public = TRUE`.
#' @param public `TRUE` for the ordinary test, exactly [stats::wilcox.test()].
#' @param reference `"exact"`, `"exact-untied"` or `"normal"` (`NULL`: the test's default).
#' @param conf.level A level for a private interval of the median (a release of its own,
#'   `ci.epsilon`, within declared `bounds`). In public mode, passed to
#'   [stats::wilcox.test()] with `conf.int = TRUE`.
#' @param ci.epsilon,bounds The median interval's epsilon and the declared range of the data.
#' @param exact,correct Passed to [stats::wilcox.test()] in public mode.
#' @param alpha The level at which the release's `reject` field is decided.
#' @param ledger A [dp_ledger()] to charge.
#' @param ... For unpaired `x` and `y`, passed to [dp_mann_whitney_test()].
#' @return An object of class `c("dp_htest", "htest")` (see [dp_kruskal_test()]); with
#'   `public = TRUE`, the `htest` of [stats::wilcox.test()].
#' @examples
#' dp_wilcox_test(sleep$extra[sleep$group == 2], sleep$extra[sleep$group == 1],
#'                paired = TRUE, epsilon = 1)
#' @export
dp_wilcox_test <- function(x, ...) UseMethod("dp_wilcox_test")

#' @rdname dp_wilcox_test
#' @export
dp_wilcox_test.default <- function(x, y = NULL, alternative = c("two.sided", "less", "greater"),
                           mu = 0, paired = FALSE, ..., epsilon = NULL, public = FALSE,
                           reference = NULL, conf.level = NULL, ci.epsilon = NULL,
                           bounds = NULL, exact = NULL, correct = TRUE, alpha = 0.05,
                           ledger = NULL) {
  alternative <- match.arg(alternative)
  check_epsilon(epsilon, public)
  dname <- one_sample_name(deparse1(substitute(x)),
                           if (!is.null(y)) deparse1(substitute(y)), paired)
  if (!is.null(y) && !isTRUE(paired)) {
    result <- dp_mann_whitney_test(x, y, alternative = alternative, mu = mu, ...,
                                   epsilon = epsilon, public = public, conf.level = conf.level,
                                   ci.epsilon = ci.epsilon, exact = exact, correct = correct,
                                   alpha = alpha, ledger = ledger)
    result$data.name <- dname
    return(result)
  }
  if (isTRUE(public)) {
    no_public_ci_epsilon(ci.epsilon)
    result <- stats::wilcox.test(
      x, y, alternative = alternative, mu = mu, paired = paired, exact = exact,
      correct = correct, conf.int = !is.null(conf.level), conf.level = conf.level %||% 0.95
    )
    result$data.name <- dname
    return(result)
  }
  data <- differences(x, y, paired)
  fields <- dp_release_fields(
    "wilcoxon", list(data$d), epsilon, paired = data$paired, alternative = alternative,
    bounds = bounds, mu = mu, options = list(reference = reference),
    conf.level = conf.level, ci.epsilon = ci.epsilon, alpha = alpha, ledger = ledger
  )
  as_dp_htest(fields,
              method = paste(if (data$paired) "Private Wilcoxon signed rank test (paired," else
                "Private Wilcoxon signed rank test (", "Pratt, Laplace noise)"),
              data.name = dname, statistic.name = "noisy W", alternative = alternative)
}

#' Private sign test
#'
#' The sign test of whether the median of `x` (or of `x - y`, with `paired = TRUE`) is `mu`,
#' released with epsilon-differential privacy: #(d > mu) - #(d < mu) (sensitivity 2) plus
#' Laplace noise, against its exact reference over every number of ties at `mu`. With
#' `public = TRUE` it is the sign test as R users run it,
#' `binom.test(sum(d > mu), sum(d != mu))`.
#'
#' @inheritParams dp_wilcox_test
#' @param y An optional numeric vector paired with `x` (`paired = TRUE`).
#' @param public `TRUE` for the ordinary sign test, [stats::binom.test()] on the signs.
#' @return An object of class `c("dp_htest", "htest")` (see [dp_kruskal_test()]); with
#'   `public = TRUE`, the `htest` of [stats::binom.test()].
#' @examples
#' dp_sign_test(sleep$extra[sleep$group == 2], sleep$extra[sleep$group == 1],
#'              paired = TRUE, epsilon = 1)
#' @export
dp_sign_test <- function(x, y = NULL, alternative = c("two.sided", "less", "greater"),
                         mu = 0, paired = FALSE, epsilon = NULL, public = FALSE,
                         conf.level = NULL, ci.epsilon = NULL, bounds = NULL, alpha = 0.05,
                         ledger = NULL) {
  alternative <- match.arg(alternative)
  check_epsilon(epsilon, public)
  dname <- one_sample_name(deparse1(substitute(x)),
                           if (!is.null(y)) deparse1(substitute(y)), paired)
  if (isTRUE(public)) {
    no_public_ci_epsilon(ci.epsilon)
    d <- if (is.null(y)) x else x - y
    d <- d[!is.na(d)]
    result <- stats::binom.test(sum(d > mu), sum(d != mu), p = 0.5, alternative = alternative,
                                conf.level = conf.level %||% 0.95)
    result$method <- "Sign test (exact binomial test of the signs)"
    result$data.name <- dname
    return(result)
  }
  data <- differences(x, y, paired)
  fields <- dp_release_fields(
    "sign", list(data$d), epsilon, paired = data$paired, alternative = alternative,
    bounds = bounds, mu = mu, conf.level = conf.level, ci.epsilon = ci.epsilon,
    alpha = alpha, ledger = ledger
  )
  as_dp_htest(fields, method = "Private sign test (Laplace noise)", data.name = dname,
              statistic.name = "noisy #(d > mu) - #(d < mu)", alternative = alternative)
}

#' Private t-test
#'
#' The one-sample or paired t-test of whether the mean of `x` (or of `x - y`) is `mu`,
#' released with epsilon-differential privacy from the mean and variance of the data clamped
#' to the declared `bounds`, each with Laplace noise. With `public = TRUE` it is exactly
#' [stats::t.test()].
#'
#' @inheritParams dp_wilcox_test
#' @param y An optional numeric vector: paired with `x` (`paired = TRUE`); in public mode,
#'   also a second group.
#' @param bounds The declared range `c(lo, hi)` of the data (of the differences when
#'   paired), required for a private test; values outside are clamped.
#' @param reference The reference (`NULL`: the test's default).
#' @param conf.level A level for the interval of the mean (private: post-processing of the
#'   release, no epsilon of its own).
#' @param var.equal Passed to [stats::t.test()] in public mode.
#' @param draws,seed The Monte Carlo reference's draws and seed (public).
#' @param public `TRUE` for the ordinary test, exactly [stats::t.test()].
#' @param ... Further arguments for the methods (passed to [stats::t.test()] by the formula
#'   method).
#' @return An object of class `c("dp_htest", "htest")` (see [dp_kruskal_test()]); with
#'   `public = TRUE`, the `htest` of [stats::t.test()].
#' @examples
#' dp_t_test(sleep$extra[sleep$group == 2], sleep$extra[sleep$group == 1], paired = TRUE,
#'           bounds = c(-5, 5), epsilon = 1)
#' @export
dp_t_test <- function(x, ...) UseMethod("dp_t_test")

#' @rdname dp_t_test
#' @export
dp_t_test.default <- function(x, y = NULL, alternative = c("two.sided", "less", "greater"), mu = 0,
                      paired = FALSE, ..., epsilon = NULL, public = FALSE, bounds = NULL,
                      reference = NULL, conf.level = NULL, var.equal = FALSE, draws = NULL,
                      seed = NULL, alpha = 0.05, ledger = NULL) {
  alternative <- match.arg(alternative)
  check_epsilon(epsilon, public)
  dname <- one_sample_name(deparse1(substitute(x)),
                           if (!is.null(y)) deparse1(substitute(y)), paired)
  if (isTRUE(public)) {
    result <- stats::t.test(x, y, alternative = alternative, mu = mu, paired = paired,
                            var.equal = var.equal, conf.level = conf.level %||% 0.95)
    result$data.name <- dname
    return(result)
  }
  data <- differences(x, y, paired)
  fields <- dp_release_fields(
    "t-test", list(data$d), epsilon, paired = data$paired, alternative = alternative,
    bounds = bounds, mu = mu, options = list(reference = reference), conf.level = conf.level,
    draws = draws, seed = seed, alpha = alpha, ledger = ledger
  )
  as_dp_htest(fields,
              method = paste0("Private ", if (data$paired) "paired " else "One Sample ",
                              "t-test (clamped data, Laplace noise)"),
              data.name = dname, statistic.name = "noisy t", alternative = alternative)
}

#' @rdname dp_wilcox_test
#' @param formula A formula `response ~ group` with two groups (a two-sample test, as
#'   [stats::wilcox.test()]'s formula method), passed to [dp_mann_whitney_test()].
#' @param data A data frame holding the variables of `formula`.
#' @param subset,na.action As for [stats::wilcox.test()]; public mode only.
#' @export
dp_wilcox_test.formula <- function(formula, data, subset, na.action, ...) {
  call <- match.call()
  call[[1L]] <- quote(dptest::dp_mann_whitney_test)
  names(call)[names(call) == "formula"] <- ""
  eval(call, parent.frame())
}

#' @rdname dp_t_test
#' @param formula A formula `response ~ group` (two groups): public mode only, as
#'   [stats::t.test()]'s formula method; the private t-test is one-sample or paired.
#' @param data A data frame holding the variables of `formula`.
#' @param subset,na.action As for [stats::t.test()].
#' @export
dp_t_test.formula <- function(formula, data, subset, na.action, ...) {
  if (is_private(...)) {
    stop("the private t-test is one-sample or paired: dp_t_test(x, epsilon = ...) or ",
         "dp_t_test(x, y, paired = TRUE, epsilon = ...); for two groups use ",
         "dp_mann_whitney_test()", call. = FALSE)
  }
  call <- match.call()
  call[[1L]] <- quote(stats::t.test)
  names(call)[names(call) == "formula"] <- ""
  call$public <- NULL
  eval(call, parent.frame())
}
