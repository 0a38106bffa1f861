//! dptest-refdist-gpu (work in progress).
