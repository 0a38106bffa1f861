//! The `dptest` command-line tool.

fn main() {}
