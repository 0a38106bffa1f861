test_that("a private Mann-Whitney test never releases the sizes by default", {
  r <- dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                            groups = c("OJ", "VC"))
  expect_s3_class(r, "htest")
  expect_equal(r$alternative, "two.sided")
  expect_equal(r$privacy$sensitivity, nrow(ToothGrowth) - 1)
  expect_equal(r$release$released_statistic, "centred")
  expect_equal(r$data.name, "len by supp")
})

test_that("the groups' order says which is x, and alternative follows wilcox.test", {
  x <- c(8.1, 9.3, 10.2, 11.7, 12.5, 13.4, 14.8, 15.1, 16.6, 17.2, 18.9, 19.5)
  y <- x - 6
  # Separated groups (U1 = 144 of 144) and noise of scale 12 / 50: a false alarm needs
  # noise below -40 or so, probability below 1e-50.
  greater <- dp_mann_whitney_test(x, y, alternative = "greater", epsilon = 50,
                                  known_sizes = TRUE)
  less <- dp_mann_whitney_test(x, y, alternative = "less", epsilon = 50, known_sizes = TRUE)
  expect_lt(greater$p.value, 0.05)
  expect_gt(less$p.value, 0.5)
  expect_lt(stats::wilcox.test(x, y, alternative = "greater")$p.value, 0.05)
})

test_that("public = TRUE is stats::wilcox.test with its defaults", {
  x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
  y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
  expect_equal(suppressWarnings(dp_mann_whitney_test(x, y, public = TRUE)$p.value),
               suppressWarnings(stats::wilcox.test(x, y)$p.value))
  tied <- c(1, 2, 2, 3, 3, 3, 4)
  expect_equal(suppressWarnings(dp_mann_whitney_test(tied, tied + 1, public = TRUE,
                                                     alternative = "less")$p.value),
               suppressWarnings(stats::wilcox.test(tied, tied + 1, alternative = "less")$p.value))
  expect_equal(dp_mann_whitney_test(len ~ supp, data = ToothGrowth, public = TRUE,
                                    exact = FALSE)$statistic,
               stats::wilcox.test(len ~ supp, data = ToothGrowth, exact = FALSE)$statistic)
  expect_equal(suppressWarnings(dp_wilcox_test(x, y, public = TRUE)$p.value),
               suppressWarnings(stats::wilcox.test(x, y)$p.value))
})

test_that("private refusals come before anything is spent", {
  expect_error(dp_mann_whitney_test(1:5, 6:10, mu = 1, epsilon = 1), "mu = 0")
  expect_error(dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1), "groups")
  expect_error(dp_mann_whitney_test(c(1, NA), 1:3, epsilon = 1), "missing values")
})

test_that("ci.epsilon releases DeLong's placement variance for the P(X > Y) interval", {
  r <- dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                            groups = c("OJ", "VC"), known_sizes = TRUE, conf.level = 0.95,
                            ci.epsilon = 0.5)
  expect_equal(attr(r$conf.int, "conf.level"), 0.95)
  expect_true(r$conf.int[1] <= r$conf.int[2])
  expect_equal(r$privacy$epsilon, 1.5)
  expect_match(r$release$estimate$method, "DeLong")
  # dp_wilcox_test's two-sample form passes ci.epsilon on (it dropped it before).
  oj <- ToothGrowth$len[ToothGrowth$supp == "OJ"]
  vc <- ToothGrowth$len[ToothGrowth$supp == "VC"]
  w <- dp_wilcox_test(oj, vc, epsilon = 1, known_sizes = TRUE, conf.level = 0.95,
                      ci.epsilon = 0.5)
  expect_equal(w$privacy$epsilon, 1.5)
  expect_match(w$release$estimate$method, "DeLong")
  # A public interval spends no epsilon: ci.epsilon is refused there (it was ignored).
  expect_error(dp_mann_whitney_test(oj, vc, public = TRUE, conf.level = 0.95, ci.epsilon = 0.5),
               "spends none")
  expect_error(dp_wilcox_test(oj, vc, paired = TRUE, public = TRUE, ci.epsilon = 0.5),
               "spends none")
  expect_error(dp_sign_test(oj, vc, paired = TRUE, public = TRUE, ci.epsilon = 0.5),
               "spends none")
})

test_that("conf.level needs known_sizes and is refused before the data are read", {
  expect_error(dp_mann_whitney_test(len ~ supp, data = ToothGrowth, epsilon = 1,
                                    groups = c("OJ", "VC"), conf.level = 0.95),
               "known_sizes")
})
