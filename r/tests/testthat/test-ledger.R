test_that("the ledger refuses an overspending release and records what was spent", {
  path <- tempfile(fileext = ".json")
  led <- dp_ledger(path, dataset = "chickwts", budget = 1)
  groups <- levels(chickwts$feed)
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.6, groups = groups,
                       ledger = led)
  expect_equal(r$privacy$ledger$spent, 0.6)
  expect_equal(r$privacy$ledger$releases, 1)
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.6, groups = groups,
                               ledger = led), class = "dptest_budget_error")
  expect_equal(dptest:::dp_ledger_status(path, "chickwts")$releases, 1)
  expect_output(print(led), "epsilon spent 0.6 of 1")
  expect_error(dp_ledger(path, dataset = ""), "non-empty")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.1, groups = groups,
                               ledger = list(path = path)), "dp_ledger")
})

test_that("an R session and the command line share one budget", {
  cli <- cli_path()
  path <- tempfile(fileext = ".json")
  csv <- tempfile(fileext = ".csv")
  utils::write.csv(chickwts, csv, row.names = FALSE)
  groups <- levels(chickwts$feed)
  status <- system2(cli, c("kruskal-wallis", "--input", csv, "--group", "feed", "--value",
                           "weight", "--groups", paste(groups, collapse = ","), "--epsilon",
                           "0.4", "--ledger", path, "--dataset", "chickwts", "--budget", "1"),
                    stdout = FALSE, stderr = FALSE)
  expect_equal(status, 0)
  led <- dp_ledger(path, dataset = "chickwts")
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.5, groups = groups,
                       ledger = led)
  expect_equal(r$privacy$ledger$spent, 0.9)
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.2, groups = groups,
                               ledger = led), class = "dptest_budget_error")
})

test_that("a dataset without a delta budget admits only pure epsilon-DP releases", {
  # The documented default is 0 (issue 70: the ledger admitted 1e-5).
  path <- tempfile(fileext = ".json")
  led <- dp_ledger(path, dataset = "tooth", budget = 10)
  expect_error(dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                                    groups = c("OJ", "VC"), statistic = "paper", ledger = led),
               class = "dptest_budget_error")
  r <- dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                            groups = c("OJ", "VC"), ledger = led)
  expect_equal(r$privacy$ledger$releases, 1)
  expect_equal(dptest:::dp_ledger_status(path, "tooth")$delta_budget, 0)
  both <- dp_ledger(tempfile(fileext = ".json"), dataset = "tooth", budget = 10,
                    delta_budget = 1e-5)
  paper <- dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                                groups = c("OJ", "VC"), statistic = "paper", ledger = both)
  expect_equal(paper$privacy$delta, 1e-6)
})
