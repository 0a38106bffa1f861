# public = TRUE equals R's own stats functions on a corpus with ties, zeros, missing values and
# small exact cases, to 1e-9 relative: public-golden.csv (testdata/gen_r_public.R, R's output).

golden <- utils::read.csv(test_path("public-golden.csv"), comment.char = "#")

test_that("every case of the corpus has a golden row, and the reverse", {
  expect_setequal(golden$case, names(public_cases))
})

test_that("public mode gives R's statistic, parameter and p-value", {
  for (i in seq_len(nrow(golden))) {
    row <- golden[i, ]
    got <- htest_numbers(public_cases[[row$case]]$dptest())
    want <- c(statistic = row$statistic, parameter = row$parameter, p_value = row$p_value)
    expect_equal(got, want, tolerance = 1e-9, info = row$case)
  }
})
