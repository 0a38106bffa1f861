# The R package and the command line on the same data and options: the same keys, the same
# charge and the same release law (noise scale, sensitivity, reference and its draws).

test_that("Kruskal-Wallis: the same keys, charge and law as the CLI", {
  csv <- tempfile(fileext = ".csv")
  utils::write.csv(chickwts, csv, row.names = FALSE)
  groups <- levels(chickwts$feed)
  cli <- cli_json(c("kruskal-wallis", "--input", csv, "--group", "feed", "--value", "weight",
                    "--groups", paste(groups, collapse = ","), "--epsilon", "0.7"))
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 0.7, groups = groups)
  expect_equal(sort(setdiff(names(r$release), "group_labels")),
               setdiff(json_keys(cli), "group_labels"))
  for (key in c("epsilon", "delta", "noise_scale", "sensitivity", "n", "groups")) {
    expect_equal(r$release[[key]], json_number(cli, key), info = key)
  }
})

test_that("the one-sample tests: the same keys, charge and law as the CLI", {
  csv <- tempfile(fileext = ".csv")
  d <- sleep$extra[sleep$group == 2] - sleep$extra[sleep$group == 1]
  utils::write.csv(data.frame(d = d), csv, row.names = FALSE)
  cases <- list(
    list(cli = c("wilcoxon", "--input", csv, "--value", "d", "--epsilon", "1"),
         r = function() dp_wilcox_test(d, epsilon = 1)),
    list(cli = c("sign", "--input", csv, "--value", "d", "--epsilon", "1"),
         r = function() dp_sign_test(d, epsilon = 1)),
    list(cli = c("t-test", "--input", csv, "--value", "d", "--epsilon", "1", "--bounds=-5,5"),
         r = function() dp_t_test(d, epsilon = 1, bounds = c(-5, 5)))
  )
  for (case in cases) {
    cli <- cli_json(case$cli)
    r <- case$r()
    expect_equal(sort(setdiff(names(r$release), "kind")), setdiff(json_keys(cli), "kind"),
                 info = case$cli[[1]])
    for (key in c("epsilon", "delta", "n")) {
      expect_equal(r$release[[key]], json_number(cli, key), info = paste(case$cli[[1]], key))
    }
  }
})

test_that("Mann-Whitney: the same keys, charge and law as the CLI", {
  csv <- tempfile(fileext = ".csv")
  utils::write.csv(ToothGrowth, csv, row.names = FALSE)
  cli <- cli_json(c("mann-whitney", "--input", csv, "--group", "supp", "--value", "len",
                    "--groups", "OJ,VC", "--epsilon", "0.8"))
  r <- dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 0.8,
                            groups = c("OJ", "VC"))
  expect_equal(sort(setdiff(names(r$release), "group_labels")),
               setdiff(json_keys(cli), "group_labels"))
  for (key in c("epsilon", "delta", "n", "sensitivity", "noise_scale")) {
    expect_equal(r$release[[key]], json_number(cli, key), info = key)
  }
})
