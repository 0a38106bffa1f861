# The release's fields as an object of class c("dp_htest", "htest"): the standard htest
# components, so print() reads like the stats function's and broom::tidy() works, plus the
# privacy facts in `privacy` and every field of the release in `release`.

as_dp_htest <- function(fields, method, data.name, statistic.name, alternative = NULL) {
  statistic <- c(fields$statistic)
  names(statistic) <- statistic.name
  # The whole epsilon the release spent (the test's and an interval's own), as the privacy
  # line and the ledger say: print() and broom::tidy() show what was charged.
  parameter <- c(epsilon = fields$epsilon_total %||% fields$epsilon)
  if (isTRUE(fields$delta > 0)) parameter <- c(parameter, delta = fields$delta)
  result <- list(
    statistic = statistic,
    parameter = parameter,
    p.value = fields$p_value,
    method = method,
    data.name = data.name
  )
  if (!is.null(alternative)) result$alternative <- alternative
  estimate <- fields$estimate
  if (!is.null(estimate) && !is.null(estimate$low)) {
    if (!is.null(estimate$value)) {
      result$estimate <- stats::setNames(estimate$value, estimate$parameter)
    }
    result$conf.int <- structure(c(estimate$low, estimate$high), conf.level = estimate$level)
  }
  result$privacy <- list(
    epsilon = fields$epsilon_total %||% fields$epsilon,
    delta = fields$delta,
    noise_scale = fields$noise_scale %||% fields$release$scale,
    sensitivity = fields$sensitivity %||% fields$release$sensitivity,
    reference = fields$reference,
    p_value_se = fields$p_value_se,
    warnings = fields$warnings,
    ledger = fields$ledger
  )
  result$release <- fields
  structure(result, class = c("dp_htest", "htest"))
}

#' Print a private test result
#'
#' Prints the test as `stats` prints an `htest`, then what the release spent and how its
#' reference was computed.
#'
#' @param x A result of a `dp_*_test` function.
#' @param digits Significant digits, as for `print.htest`.
#' @param ... Passed to `print.htest`.
#' @return `x`, invisibly.
#' @export
print.dp_htest <- function(x, digits = getOption("digits"), ...) {
  class(x) <- "htest"
  print(x, digits = digits, ...)
  p <- x$privacy
  cat("privacy: epsilon =", format(p$epsilon, digits = digits))
  if (isTRUE(p$delta > 0)) cat(", delta =", format(p$delta, digits = digits))
  cat(" spent")
  if (!is.null(p$noise_scale) && !is.null(p$sensitivity)) {
    cat("; Laplace noise of scale", format(p$noise_scale, digits = 4),
        "on a statistic of sensitivity", format(p$sensitivity, digits = 4))
  }
  cat("\n")
  ref <- p$reference
  if (is.list(ref) && isTRUE(ref$draws > 0)) {
    cat("reference: Monte Carlo,", format(ref$draws, big.mark = ",", scientific = FALSE),
        "draws (seed", paste0(format(ref$seed, scientific = FALSE), ")"))
    if (!is.null(p$p_value_se)) cat(", p-value s.e.", format(p$p_value_se, digits = 2))
    cat("\n")
  } else if (is.list(ref)) {
    cat("reference: exact", if (!is.null(ref$distribution)) paste0("(", ref$distribution, ")"),
        "\n")
  }
  if (!is.null(p$ledger)) {
    cat("ledger: dataset", sQuote(p$ledger$dataset, FALSE), "has spent",
        format(p$ledger$spent, digits = 4), "of", format(p$ledger$budget, digits = 4), "\n")
  }
  for (w in p$warnings) cat("warning:", w, "\n")
  invisible(x)
}
