//! dptest-kruskal-wallis (work in progress).
