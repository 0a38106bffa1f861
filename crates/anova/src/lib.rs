//! dptest-anova (work in progress).
