# The public corpus: each case calls a stats test (`stats`, the reference) and the same test
# through dptest (`dptest`, public = TRUE). testdata/gen_r_public.R writes the stats results to
# public-golden.csv; test-public-golden.R checks dptest against that file.

small_x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
small_y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
exact_x <- c(0.8, 0.83, 1.89, 1.04, 1.45)
exact_y <- c(1.15, 0.88, 0.9, 0.74, 1.21, 1.7)
with_zeros <- c(0, 0, 1.5, -0.5, 2, 2, 3.5, 0.5, -1.25, 4)
after <- sleep$extra[sleep$group == 2]
before <- sleep$extra[sleep$group == 1]
quiet <- function(expr) suppressWarnings(expr)

public_cases <- list(
  kruskal_chickwts = list(
    stats = function() stats::kruskal.test(weight ~ feed, data = chickwts),
    dptest = function() dp_kruskal_test(weight ~ feed, data = chickwts, public = TRUE)),
  kruskal_insects_ties = list(
    stats = function() stats::kruskal.test(count ~ spray, data = InsectSprays),
    dptest = function() dp_kruskal_test(count ~ spray, data = InsectSprays, public = TRUE)),
  kruskal_airquality_na = list(
    stats = function() stats::kruskal.test(Ozone ~ Month, data = airquality),
    dptest = function() dp_kruskal_test(Ozone ~ Month, data = airquality, public = TRUE)),
  kruskal_list = list(
    stats = function() stats::kruskal.test(list(exact_x, exact_y, small_x)),
    dptest = function() dp_kruskal_test(list(exact_x, exact_y, small_x), public = TRUE)),
  rank_sum_exact = list(
    stats = function() stats::wilcox.test(exact_x, exact_y),
    dptest = function() dp_mann_whitney_test(exact_x, exact_y, public = TRUE)),
  rank_sum_exact_greater = list(
    stats = function() stats::wilcox.test(exact_x, exact_y, alternative = "greater"),
    dptest = function() dp_mann_whitney_test(exact_x, exact_y, alternative = "greater",
                                             public = TRUE)),
  rank_sum_ties_corrected = list(
    stats = function() quiet(stats::wilcox.test(small_x, small_y)),
    dptest = function() quiet(dp_mann_whitney_test(small_x, small_y, public = TRUE))),
  rank_sum_mu = list(
    stats = function() stats::wilcox.test(exact_x, exact_y, mu = 0.2, alternative = "less"),
    dptest = function() dp_wilcox_test(exact_x, exact_y, mu = 0.2, alternative = "less",
                                       public = TRUE)),
  rank_sum_toothgrowth = list(
    stats = function() quiet(stats::wilcox.test(len ~ supp, data = ToothGrowth)),
    dptest = function() quiet(dp_mann_whitney_test(len ~ supp, data = ToothGrowth,
                                                   public = TRUE))),
  signed_rank_paired_ties = list(
    stats = function() quiet(stats::wilcox.test(after, before, paired = TRUE)),
    dptest = function() quiet(dp_wilcox_test(after, before, paired = TRUE, public = TRUE))),
  signed_rank_zeros = list(
    stats = function() quiet(stats::wilcox.test(with_zeros, mu = 0.5)),
    dptest = function() quiet(dp_wilcox_test(with_zeros, mu = 0.5, public = TRUE))),
  signed_rank_exact = list(
    stats = function() stats::wilcox.test(small_x - 1.6, alternative = "greater"),
    dptest = function() dp_wilcox_test(small_x - 1.6, alternative = "greater", public = TRUE)),
  sign_paired = list(
    stats = function() {
      d <- after - before
      stats::binom.test(sum(d > 0), sum(d != 0))
    },
    dptest = function() dp_sign_test(after, before, paired = TRUE, public = TRUE)),
  sign_ties_at_mu = list(
    stats = function() stats::binom.test(sum(with_zeros > 2), sum(with_zeros != 2),
                                         alternative = "less"),
    dptest = function() dp_sign_test(with_zeros, mu = 2, alternative = "less", public = TRUE)),
  t_one_sample = list(
    stats = function() stats::t.test(small_x, mu = 1.5),
    dptest = function() dp_t_test(small_x, mu = 1.5, public = TRUE)),
  t_paired = list(
    stats = function() stats::t.test(after, before, paired = TRUE, alternative = "greater"),
    dptest = function() dp_t_test(after, before, paired = TRUE, alternative = "greater",
                                  public = TRUE)),
  t_welch_formula = list(
    stats = function() stats::t.test(extra ~ group, data = sleep),
    dptest = function() dp_t_test(extra ~ group, data = sleep, public = TRUE)),
  t_pooled = list(
    stats = function() stats::t.test(small_x, small_y, var.equal = TRUE),
    dptest = function() dp_t_test(small_x, small_y, var.equal = TRUE, public = TRUE))
)

# The compared numbers of an htest: statistic, parameter (NA when absent), p-value.
htest_numbers <- function(result) {
  c(statistic = unname(result$statistic[1]),
    parameter = if (is.null(result$parameter)) NA_real_ else unname(result$parameter[1]),
    p_value = result$p.value)
}
