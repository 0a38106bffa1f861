//! dptest: differentially private and K-anonymous hypothesis tests (umbrella crate).
