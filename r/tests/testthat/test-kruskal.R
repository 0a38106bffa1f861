groups <- levels(chickwts$feed)

test_that("a private Kruskal-Wallis test is an htest with the privacy facts", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups)
  expect_s3_class(r, c("dp_htest", "htest"))
  expect_named(r$statistic, "noisy KW-abs")
  expect_equal(unname(r$parameter), 1)
  expect_true(r$p.value > 0 && r$p.value <= 1)
  expect_equal(r$data.name, "weight by feed")
  expect_equal(r$privacy$epsilon, 1)
  expect_equal(r$privacy$sensitivity, 8)
  expect_equal(r$release$n, nrow(chickwts))
  expect_equal(r$release$groups, length(groups))
  out <- capture.output(print(r))
  expect_true(any(grepl("Private Kruskal-Wallis rank sum test", out)))
  expect_true(any(grepl("privacy: epsilon = 1 spent", out)))
  expect_true(any(grepl("reference: Monte Carlo", out)))
})

test_that("the vector and list interfaces release the same test", {
  by_vector <- dp_kruskal_test(chickwts$weight, chickwts$feed, epsilon = 1, groups = groups)
  by_list <- dp_kruskal_test(split(chickwts$weight, chickwts$feed), epsilon = 1)
  expect_equal(by_vector$release$reference_sizes, by_list$release$reference_sizes)
  expect_equal(by_vector$release$noise_scale, by_list$release$noise_scale)
})

test_that("known sizes, the squared statistic and the interval reach the release", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                       known_sizes = TRUE, conf.level = 0.9)
  expect_true(r$release$known_sizes)
  expect_equal(sort(r$release$reference_sizes), sort(as.numeric(table(chickwts$feed))))
  expect_equal(attr(r$conf.int, "conf.level"), 0.9)
  h <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                       statistic = "squared")
  expect_equal(h$privacy$sensitivity, 87)
  expect_named(h$statistic, "noisy H")
})

test_that("ci.epsilon releases the mean ranks' covariance for the rank effect's interval", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                       known_sizes = TRUE, conf.level = 0.95, ci.epsilon = 0.5)
  expect_true(r$conf.int[1] <= r$conf.int[2])
  expect_equal(r$privacy$epsilon, 1.5)
  expect_match(r$release$estimate$method, "scale factor")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                               conf.level = 0.95, ci.epsilon = 0.5), "known")
})

test_that("ci.method = 'auto' (the default) takes the signs route where ci.epsilon is large", {
  # Six feed groups of 10 to 14 chicks: the scaled route's noise scale is 0.025 or less from
  # ci.epsilon 50.9.
  for (method in c("auto", "scaled")) {
    r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                         known_sizes = TRUE, conf.level = 0.95, ci.epsilon = 60,
                         ci.method = method)
    expect_match(r$release$estimate$method,
                 if (method == "auto") "deviations" else "scale factor")
  }
})

test_that("ci.method = 'signs' splits ci.epsilon with the groups' deviations", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                       known_sizes = TRUE, conf.level = 0.95, ci.epsilon = 0.5,
                       ci.method = "signs")
  expect_true(r$conf.int[1] <= r$conf.int[2])
  expect_equal(r$privacy$epsilon, 1.5)
  expect_match(r$release$estimate$method, "deviations")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                               known_sizes = TRUE, conf.level = 0.95, ci.method = "signs"),
               "ci.epsilon")
})

test_that("ci.method = 'covariance' spends ci.epsilon on the covariance's entries", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                       known_sizes = TRUE, conf.level = 0.95, ci.epsilon = 0.5,
                       ci.method = "covariance")
  expect_true(0 <= r$conf.int[1] && r$conf.int[1] <= r$conf.int[2] && r$conf.int[2] <= 0.5)
  expect_equal(r$privacy$epsilon, 1.5)
  expect_match(r$release$estimate$method, "covariance released")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups,
                               known_sizes = TRUE, conf.level = 0.95, ci.method = "covariance"),
               "ci.epsilon")
})

test_that("public = TRUE is stats::kruskal.test, formula and vectors", {
  expect_equal(dp_kruskal_test(weight ~ feed, data = chickwts, public = TRUE),
               stats::kruskal.test(weight ~ feed, data = chickwts))
  x <- c(2.9, 3.0, 2.5, 2.6, 3.2, 3.8, 2.7, 4.0, 2.4, 2.8, 3.4, 3.7, 2.2, 2.0)
  g <- factor(rep(1:3, c(5, 4, 5)))
  expect_equal(dp_kruskal_test(x, g, public = TRUE)$p.value, stats::kruskal.test(x, g)$p.value)
  with_na <- data.frame(y = c(1, 2, NA, 4, 5, 6), g = rep(c("a", "b"), 3))
  expect_equal(dp_kruskal_test(y ~ g, data = with_na, public = TRUE)$statistic,
               stats::kruskal.test(y ~ g, data = with_na)$statistic)
})

test_that("public = TRUE with conf.level adds the rank effect's public interval", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, public = TRUE, conf.level = 0.95)
  plain <- stats::kruskal.test(weight ~ feed, data = chickwts)
  expect_equal(r[names(plain)], unclass(plain)[names(plain)], ignore_attr = TRUE)
  # D-hat = sum (n_i/n) |mean rank_i/(n + 1) - 1/2| from mid-ranks (base R's rank()).
  n <- nrow(chickwts)
  means <- tapply(rank(chickwts$weight), chickwts$feed, mean)
  sizes <- tapply(chickwts$weight, chickwts$feed, length)
  expect_equal(unname(r$estimate), sum(sizes / n * abs(means / (n + 1) - 0.5)))
  expect_true(r$conf.int[1] < r$estimate && r$estimate < r$conf.int[2])
  expect_equal(attr(r$conf.int, "conf.level"), 0.95)
  by_list <- dp_kruskal_test(split(chickwts$weight, chickwts$feed), public = TRUE,
                             conf.level = 0.95)
  expect_equal(by_list$conf.int, r$conf.int)
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, public = TRUE, conf.level = 0.95,
                               ci.epsilon = 0.5), "spends none")
  # The command line's --public --ci on the same rows.
  csv <- tempfile(fileext = ".csv")
  utils::write.csv(data.frame(group = chickwts$feed, value = chickwts$weight), csv,
                   row.names = FALSE)
  out <- strsplit(cli_json(c("kruskal-wallis", "--input", csv, "--group", "group", "--value",
                             "value", "--public", "--ci", "0.95")), "\n")[[1]]
  nested <- function(key) {
    as.numeric(sub(".*: ([^,]+),?$", "\\1", grep(paste0('^    "', key, '": '), out, value = TRUE)))
  }
  expect_equal(c(nested("low"), nested("high")), as.numeric(r$conf.int))
})

test_that("a private run refuses what would make n depend on the data", {
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1), "groups")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = groups[-1]),
               "not declared")
  with_na <- data.frame(y = c(1, 2, NA, 4, 5, 6), g = rep(c("a", "b"), 3))
  expect_error(dp_kruskal_test(y ~ g, data = with_na, epsilon = 1, groups = c("a", "b")),
               "missing values")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, subset = weight > 200,
                               epsilon = 1, groups = groups), "subset")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts), "epsilon")
  expect_error(dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, public = TRUE),
               "exactly one")
})

test_that("a declared group without rows is valid data", {
  r <- dp_kruskal_test(weight ~ feed, data = chickwts, epsilon = 1, groups = c(groups, "none"))
  expect_equal(r$release$groups, length(groups) + 1)
})
