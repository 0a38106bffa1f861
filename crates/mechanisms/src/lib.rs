//! dptest-mechanisms (work in progress).
