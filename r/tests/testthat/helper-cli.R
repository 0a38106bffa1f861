# The dptest command line for the tests that compare the R package with it: DPTEST_CLI names
# the binary (CI sets it to the one it built); without it those tests are skipped.
cli_path <- function() {
  path <- Sys.getenv("DPTEST_CLI")
  if (!nzchar(path) || !file.exists(path)) testthat::skip("DPTEST_CLI is not set")
  path
}

# Runs the CLI with `args` and `--json`; returns the parsed fields (a flat JSON reader for
# the keys compared here: numbers, strings, logicals and nested objects as text).
cli_json <- function(args) {
  out <- system2(cli_path(), c(args, "--json"), stdout = TRUE, stderr = FALSE)
  paste(out, collapse = "\n")
}

# The top-level keys of a JSON object printed by the CLI (two-space indented, one key a line).
json_keys <- function(text) {
  lines <- strsplit(text, "\n", fixed = TRUE)[[1]]
  top <- regmatches(lines, regexpr('^  "[^"]+"', lines))
  sort(gsub('^  "|"$', "", top))
}

# A top-level number of the CLI's JSON.
json_number <- function(text, key) {
  line <- grep(paste0('^  "', key, '": '), strsplit(text, "\n", fixed = TRUE)[[1]], value = TRUE)
  as.numeric(sub(".*: ([^,]+),?$", "\\1", line))
}
