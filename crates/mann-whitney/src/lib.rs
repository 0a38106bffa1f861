//! dptest-mann-whitney (work in progress).
