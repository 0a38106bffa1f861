after <- sleep$extra[sleep$group == 2]
before <- sleep$extra[sleep$group == 1]

test_that("paired differences are x - y, as in stats", {
  y <- c(before, before + 0.3)
  x <- y + c(2.1, 1.9, 2.4, 2.2, 1.7, 2.6, 2.0, 2.3, 1.8, 2.5)
  for (test in list(
    function(...) dp_wilcox_test(x, y, paired = TRUE, epsilon = 20, ...),
    function(...) dp_sign_test(x, y, paired = TRUE, epsilon = 20, ...),
    function(...) dp_t_test(x, y, paired = TRUE, epsilon = 20, bounds = c(-5, 5), ...)
  )) {
    # x - y is large and positive: "greater" rejects and "less" cannot. (The private
    # t-test's p-value is noisy at n = 20, so the direction is what is compared.) A false
    # alarm needs noise that flips the statistic's sign: Laplace scales 4 (W = 210), 0.1
    # (T = 20) and 0.05 (the mean, 2.15), each below 1e-18.
    greater <- test(alternative = "greater")$p.value
    less <- test(alternative = "less")$p.value
    expect_lt(greater, less)
    expect_gt(less, 0.5)
  }
  expect_lt(stats::t.test(x, y, paired = TRUE, alternative = "greater")$p.value, 0.05)
})

test_that("the one-sample tests release through the registry", {
  w <- dp_wilcox_test(after, before, paired = TRUE, epsilon = 1)
  expect_equal(w$release$test, "wilcoxon")
  expect_equal(w$privacy$sensitivity, 2 * length(after))
  s <- dp_sign_test(after, mu = 0.5, epsilon = 1)
  expect_equal(s$release$test, "sign")
  expect_equal(s$privacy$sensitivity, 2)
  t <- dp_t_test(after, before, paired = TRUE, bounds = c(-5, 5), epsilon = 1,
                 conf.level = 0.9)
  expect_equal(t$release$test, "t-test")
  expect_equal(attr(t$conf.int, "conf.level"), 0.9)
  expect_output(print(t), "Private paired t-test")
})

test_that("the private sign test tests mu", {
  # 1..40 all lie below 100: T = -40 against noise of scale 2 (a sign flip has probability
  # below 1e-8). Until this test the release read the values against 0.
  x <- as.numeric(1:40)
  expect_lt(dp_sign_test(x, mu = 100, epsilon = 1)$statistic, 0)
  expect_gt(dp_sign_test(x, epsilon = 1)$statistic, 0)
})

test_that("public = TRUE is the stats test", {
  expect_equal(dp_t_test(after, before, paired = TRUE, public = TRUE),
               stats::t.test(after, before, paired = TRUE))
  expect_equal(dp_t_test(after, mu = 1, public = TRUE)$p.value,
               stats::t.test(after, mu = 1)$p.value)
  zeros <- c(0, 0, 1.5, -0.5, 2, 2, 3.5, 0.5)
  expect_equal(suppressWarnings(dp_wilcox_test(zeros, public = TRUE, mu = 0.5)$p.value),
               suppressWarnings(stats::wilcox.test(zeros, mu = 0.5)$p.value))
  expect_equal(dp_wilcox_test(after, before, paired = TRUE, public = TRUE, exact = FALSE,
                              correct = FALSE)$p.value,
               stats::wilcox.test(after, before, paired = TRUE, exact = FALSE,
                                  correct = FALSE)$p.value)
  d <- after - before
  expect_equal(dp_sign_test(after, before, paired = TRUE, public = TRUE)$p.value,
               stats::binom.test(sum(d > 0), sum(d != 0))$p.value)
})

test_that("refusals name the R arguments", {
  expect_error(dp_t_test(after, epsilon = 1), "bounds")
  expect_error(dp_t_test(after, before, epsilon = 1, bounds = c(-5, 5)), "paired = TRUE")
  expect_error(dp_sign_test(after, epsilon = 1, ci.epsilon = 0.5), "conf.level")
})

test_that("the formula methods follow stats: two groups, public or rank sum", {
  expect_equal(dp_t_test(extra ~ group, data = sleep, public = TRUE),
               stats::t.test(extra ~ group, data = sleep))
  expect_error(dp_t_test(extra ~ group, data = sleep, epsilon = 1), "one-sample or paired")
  expect_equal(dp_wilcox_test(extra ~ group, data = sleep, public = TRUE, exact = FALSE),
               stats::wilcox.test(extra ~ group, data = sleep, exact = FALSE))
  r <- dp_wilcox_test(extra ~ group, data = sleep, epsilon = 1, groups = c("1", "2"))
  expect_equal(r$release$test, "mann-whitney")
  expect_equal(r$data.name, "extra by group")
})

test_that("the htest parameter is the whole epsilon the release spent", {
  # The sign test's median interval is a release of its own: epsilon 1 + 0.5 (issue 70).
  s <- dp_sign_test(after, before, paired = TRUE, epsilon = 1, conf.level = 0.9,
                    ci.epsilon = 0.5, bounds = c(-5, 5))
  expect_equal(unname(s$parameter["epsilon"]), 1.5)
  expect_equal(s$privacy$epsilon, 1.5)
  if (requireNamespace("broom", quietly = TRUE)) {
    expect_equal(unname(broom::tidy(s)$parameter), 1.5)
  }
  t <- dp_t_test(after, before, paired = TRUE, bounds = c(-5, 5), epsilon = 1,
                 conf.level = 0.9)
  expect_equal(unname(t$parameter["epsilon"]), 1)
})
