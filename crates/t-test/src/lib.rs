//! dptest-t-test (work in progress).
