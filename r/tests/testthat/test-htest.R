test_that("broom::tidy reads a private result as any htest", {
  skip_if_not_installed("broom")
  r <- dp_kruskal_test(count ~ spray, data = InsectSprays, epsilon = 1,
                       groups = levels(InsectSprays$spray))
  tidied <- broom::tidy(r)
  expect_equal(unname(tidied$statistic), unname(r$statistic))
  expect_equal(tidied$p.value, r$p.value)
  expect_equal(tidied$method, r$method)
})

test_that("print shows the htest and then the privacy facts", {
  r <- dp_t_test(ToothGrowth$len, mu = 18, bounds = c(0, 40), epsilon = 2)
  out <- capture.output(print(r))
  expect_true(any(grepl("Private One Sample t-test", out)))
  expect_true(any(grepl("noisy t = ", out)))
  expect_true(any(grepl("privacy: epsilon = 2 spent", out)))
  expect_equal(r$data.name, "ToothGrowth$len")
})
