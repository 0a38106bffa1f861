# The Rust functions of src/rust/src/lib.rs (registered by extendr_module!).
#' @useDynLib dptest, .registration = TRUE
NULL

# Raises a native failure (list(error =, budget =)) as an R condition; a ledger's refusal has
# class "dptest_budget_error".
native <- function(value) {
  if (is.list(value) && !is.null(value$error) && length(value) == 2L &&
      identical(names(value), c("error", "budget"))) {
    class <- c(if (isTRUE(value$budget)) "dptest_budget_error", "dptest_error", "error",
               "condition")
    stop(structure(list(message = value$error, call = NULL), class = class))
  }
  value
}

dp_release <- function(arguments) native(.Call(wrap__dp_release, arguments))

dp_ledger_status <- function(path, dataset) native(.Call(wrap__dp_ledger_status, path, dataset))

dp_public_interval <- function(test, samples, level) {
  native(.Call(wrap__dp_public_interval, test, samples, level))
}

#' The private tests this build knows
#'
#' @return The names of the private tests of the Rust registry the package was built with.
#' @examples
#' dp_test_names()
#' @export
dp_test_names <- function() .Call(wrap__dp_test_names)
