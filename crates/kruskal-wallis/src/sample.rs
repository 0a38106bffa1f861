//! The validated input of the Kruskal–Wallis tests: values with a group index each.

use crate::KruskalWallisError;

/// Observations in `g` groups, validated on construction: finite values, at least two
/// groups, at most 2^32 − 1 observations.
///
/// Groups are numbered `0..g`. [`GroupedSample::from_groups`] and
/// [`GroupedSample::from_labels`] never produce empty groups; [`GroupedSample::from_indices`]
/// may (a declared group nobody belongs to), which the private tests accept and the public
/// test refuses.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupedSample {
    values: Vec<f64>,
    groups: Vec<u32>,
    sizes: Vec<u32>,
}

impl GroupedSample {
    /// One slice of values per group (group `i` is `groups[i]`); every group must be non-empty.
    ///
    /// For a private release whose groups are declared (the number of groups public, an empty
    /// group valid data, as the CLI and Python treat them) use [`GroupedSample::from_indices`]:
    /// refusing an empty group, as this constructor does, would make whether a release happens
    /// depend on the data.
    ///
    /// # Errors
    /// [`KruskalWallisError::TooFewGroups`], [`KruskalWallisError::EmptyGroup`],
    /// [`KruskalWallisError::NonFinite`], [`KruskalWallisError::TooLarge`].
    pub fn from_groups<G: AsRef<[f64]>>(groups: &[G]) -> Result<Self, KruskalWallisError> {
        if let Some(group) = groups.iter().position(|g| g.as_ref().is_empty()) {
            return Err(KruskalWallisError::EmptyGroup { group });
        }
        let values: Vec<f64> = groups.iter().flat_map(|g| g.as_ref().iter().copied()).collect();
        let indices: Vec<usize> = groups
            .iter()
            .enumerate()
            .flat_map(|(i, g)| std::iter::repeat_n(i, g.as_ref().len()))
            .collect();
        GroupedSample::from_indices(values, &indices, groups.len())
    }

    /// Values with one label each; the groups are the distinct labels in sorted order (the
    /// first label is group 0).
    ///
    /// # Errors
    /// As [`GroupedSample::from_indices`], plus [`KruskalWallisError::LengthMismatch`].
    pub fn from_labels<L: Ord>(values: &[f64], labels: &[L]) -> Result<Self, KruskalWallisError> {
        if values.len() != labels.len() {
            return Err(KruskalWallisError::LengthMismatch {
                values: values.len(),
                labels: labels.len(),
            });
        }
        let mut distinct: Vec<&L> = labels.iter().collect();
        distinct.sort();
        distinct.dedup();
        let indices: Vec<usize> =
            labels.iter().map(|label| distinct.binary_search(&label).unwrap_or_default()).collect();
        GroupedSample::from_indices(values.to_vec(), &indices, distinct.len())
    }

    /// Values with a group index in `0..groups` each. Declared groups may be empty: the number
    /// of groups is treated as public, the membership as private.
    ///
    /// # Errors
    /// [`KruskalWallisError::TooFewGroups`] (fewer than 2 declared groups),
    /// [`KruskalWallisError::LengthMismatch`], [`KruskalWallisError::GroupOutOfRange`],
    /// [`KruskalWallisError::NonFinite`], [`KruskalWallisError::TooLarge`].
    pub fn from_indices(
        values: Vec<f64>,
        group_of: &[usize],
        groups: usize,
    ) -> Result<Self, KruskalWallisError> {
        let sizes = checked_sizes(&values, group_of.iter().copied(), groups)?;
        let indices = group_of.iter().map(|&group| group as u32).collect();
        Ok(GroupedSample { values, groups: indices, sizes })
    }

    /// [`GroupedSample::from_indices`] taking 4-byte indices by value: the sample keeps them
    /// as they are, so a reader that numbers the groups in `u32` hands its rows over without a
    /// copy.
    ///
    /// # Errors
    /// As [`GroupedSample::from_indices`].
    pub fn from_index_vec(
        values: Vec<f64>,
        group_of: Vec<u32>,
        groups: usize,
    ) -> Result<Self, KruskalWallisError> {
        let sizes = checked_sizes(&values, group_of.iter().map(|&group| group as usize), groups)?;
        Ok(GroupedSample { values, groups: group_of, sizes })
    }

    /// Total number of observations n.
    pub fn n(&self) -> usize {
        self.values.len()
    }

    /// Number of groups g (including declared empty groups).
    pub fn groups(&self) -> usize {
        self.sizes.len()
    }

    /// Group sizes n_i.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The pooled values.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The group index of each value.
    pub fn group_indices(&self) -> &[u32] {
        &self.groups
    }

    /// The group rank sums from the group of each rank, in rank order (the `p`-th item is the
    /// group of rank `p + 1`), summed as integers (n(n + 1)/2 < 2^64 for every n the ranking
    /// accepts) and rounded once: the same sums as [`GroupedSample::rank_sums`] of those ranks
    /// wherever that is exact (n(n + 1)/2 < 2^53, n below 1.3·10⁸).
    pub(crate) fn rank_sums_of_group_order(
        &self,
        groups_in_rank_order: impl IntoIterator<Item = u32>,
    ) -> Vec<u64> {
        rank_sums_of_group_order(self.sizes.len(), groups_in_rank_order)
    }

    /// The sample's parts, consumed: the values, the group index of each, and the group sizes
    /// (for computations that free the rows as they go).
    pub fn into_parts(self) -> (Vec<f64>, Vec<u32>, Vec<u32>) {
        (self.values, self.groups, self.sizes)
    }

    /// Group rank sums R_i, the j-th rank being that of value j (summed in input order).
    pub(crate) fn rank_sums(&self, ranks: impl IntoIterator<Item = f64>) -> Vec<f64> {
        let mut sums = vec![0.0; self.sizes.len()];
        for (&group, rank) in self.groups.iter().zip(ranks) {
            sums[group as usize] += rank;
        }
        sums
    }

    /// The same sample with every value rounded to the nearest multiple of `multiple`
    /// (the paper's tied-data experiments, App. B.1). `multiple` must be finite and > 0.
    ///
    /// # Errors
    /// [`KruskalWallisError::InvalidParameter`] for a bad `multiple`.
    pub fn rounded_to(&self, multiple: f64) -> Result<Self, KruskalWallisError> {
        if !(multiple.is_finite() && multiple > 0.0) {
            return Err(KruskalWallisError::InvalidParameter {
                name: "multiple",
                requirement: format!("finite and > 0 (got {multiple})"),
            });
        }
        let mut rounded = self.clone();
        for v in &mut rounded.values {
            *v = (*v / multiple).round() * multiple;
        }
        dptest_core::check_finite(&rounded.values)
            .map_err(|e| KruskalWallisError::NonFinite { index: e.index })?;
        Ok(rounded)
    }
}

/// The checks of [`GroupedSample::from_indices`], and the group sizes.
fn checked_sizes(
    values: &[f64],
    group_of: impl ExactSizeIterator<Item = usize>,
    groups: usize,
) -> Result<Vec<u32>, KruskalWallisError> {
    if groups < 2 {
        return Err(KruskalWallisError::TooFewGroups { groups });
    }
    if values.len() != group_of.len() {
        return Err(KruskalWallisError::LengthMismatch {
            values: values.len(),
            labels: group_of.len(),
        });
    }
    if values.len() >= u32::MAX as usize || groups >= u32::MAX as usize {
        return Err(KruskalWallisError::TooLarge { n: values.len() });
    }
    dptest_core::check_finite(values)
        .map_err(|e| KruskalWallisError::NonFinite { index: e.index })?;
    let mut sizes = vec![0u32; groups];
    for (index, group) in group_of.enumerate() {
        if group >= groups {
            return Err(KruskalWallisError::GroupOutOfRange { index, group, groups });
        }
        sizes[group] += 1;
    }
    Ok(sizes)
}

/// [`GroupedSample::rank_sums_of_group_order`] for `groups` groups.
pub(crate) fn rank_sums_of_group_order(
    groups: usize,
    groups_in_rank_order: impl IntoIterator<Item = u32>,
) -> Vec<u64> {
    let mut sums = vec![0u64; groups];
    for (rank, group) in (1u64..).zip(groups_in_rank_order) {
        sums[group as usize] += rank; // at most n(n + 1)/2 < 2⁶³ for n < 2³¹
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_sorted_into_groups() {
        let s = GroupedSample::from_labels(&[1.0, 2.0, 3.0, 4.0], &["b", "a", "b", "c"]).unwrap();
        assert_eq!(s.sizes(), &[1, 2, 1]);
        assert_eq!(s.group_indices(), &[1, 0, 1, 2]);
    }

    /// The owned constructor builds the borrowed one's sample and refuses what it refuses.
    #[test]
    fn index_vectors_give_the_sample_of_index_slices() {
        let values: Vec<f64> = (0..50).map(f64::from).collect();
        let groups: Vec<usize> = (0..50).map(|i| (i * 7) % 4).collect();
        let narrow = |g: &[usize]| -> Vec<u32> { g.iter().map(|&i| i as u32).collect() };
        let want = GroupedSample::from_indices(values.clone(), &groups, 5).unwrap();
        assert_eq!(
            GroupedSample::from_index_vec(values.clone(), narrow(&groups), 5).unwrap(),
            want
        );
        let (v, g, sizes) = want.into_parts();
        assert_eq!((v, sizes), (values.clone(), vec![13, 12, 12, 13, 0]));
        assert_eq!(g, narrow(&groups));
        for bad in [vec![0, 1, 2], (0..50).map(|i| i % 6).collect()] {
            assert_eq!(
                GroupedSample::from_index_vec(values.clone(), narrow(&bad), 5).err(),
                GroupedSample::from_indices(values.clone(), &bad, 5).err()
            );
        }
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let empty: &[f64] = &[];
        assert_eq!(
            GroupedSample::from_groups(&[&[1.0][..], empty]),
            Err(KruskalWallisError::EmptyGroup { group: 1 })
        );
        assert_eq!(
            GroupedSample::from_groups(&[[1.0, 2.0]]),
            Err(KruskalWallisError::TooFewGroups { groups: 1 })
        );
        assert_eq!(
            GroupedSample::from_groups(&[vec![1.0, f64::NAN], vec![2.0]]),
            Err(KruskalWallisError::NonFinite { index: 1 })
        );
        assert_eq!(
            GroupedSample::from_groups(&[vec![1.0], vec![f64::INFINITY]]),
            Err(KruskalWallisError::NonFinite { index: 1 })
        );
        assert!(matches!(
            GroupedSample::from_labels(&[1.0, 2.0], &[1]),
            Err(KruskalWallisError::LengthMismatch { .. })
        ));
        assert!(matches!(
            GroupedSample::from_indices(vec![1.0, 2.0], &[0, 3], 2),
            Err(KruskalWallisError::GroupOutOfRange { .. })
        ));
        let s = GroupedSample::from_indices(vec![1.0, 2.0], &[0, 0], 3).unwrap();
        assert_eq!(s.sizes(), &[2, 0, 0]);
        assert!(s.rounded_to(0.0).is_err());
    }
}
