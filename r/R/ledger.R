#' A privacy budget ledger
#'
#' Names a dataset in a ledger file, the one the `dptest` command line writes (same format,
#' same lock), so that an R session and a command-line run on one dataset share one budget.
#' Pass it to any private test as `ledger =`: the release is refused before anything is
#' spent if it would overspend, and recorded at what it spent.
#'
#' @param path The ledger file (created on first use, readable by its owner only).
#' @param dataset The dataset's name in the ledger.
#' @param budget The dataset's total epsilon, required the first time the dataset is charged
#'   (and then fixed).
#' @param delta_budget The dataset's total delta (default 0: only pure epsilon-DP releases).
#' @return An object of class `"dp_ledger"`; `print()` shows the dataset's state.
#' @examples
#' path <- tempfile(fileext = ".json")
#' led <- dp_ledger(path, dataset = "chickwts", budget = 1)
#' dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.5,
#'                 groups = levels(chickwts$feed), ledger = led)
#' led
#' @export
dp_ledger <- function(path, dataset, budget = NULL, delta_budget = NULL) {
  if (!is.character(path) || length(path) != 1L) stop("`path` must be one file name", call. = FALSE)
  if (!is.character(dataset) || length(dataset) != 1L || !nzchar(trimws(dataset))) {
    stop("`dataset` must be a non-empty name", call. = FALSE)
  }
  structure(
    list(path = path.expand(path), dataset = dataset, budget = budget,
         delta_budget = delta_budget),
    class = "dp_ledger"
  )
}

#' @rdname dp_ledger
#' @param x A `"dp_ledger"` object.
#' @param ... Unused.
#' @export
print.dp_ledger <- function(x, ...) {
  status <- if (file.exists(x$path)) dp_ledger_status(x$path, x$dataset) else NULL
  cat("dptest ledger", x$path, "dataset", sQuote(x$dataset, FALSE), "\n")
  if (is.null(status)) {
    cat("no releases yet\n")
  } else {
    cat("epsilon spent", format(status$spent, digits = 4), "of", format(status$budget, digits = 4),
        "(remaining", paste0(format(status$remaining, digits = 4), ");"), status$releases,
        "releases\n")
  }
  invisible(x)
}
