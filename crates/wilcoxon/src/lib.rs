//! dptest-wilcoxon (work in progress).
