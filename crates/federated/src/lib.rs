//! dptest-federated (work in progress).
