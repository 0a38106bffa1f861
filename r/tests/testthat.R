library(testthat)
library(dptest)

test_check("dptest")
