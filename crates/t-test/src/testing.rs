//! Checks shared by the unit tests of the crate's null models.

use dptest_refdist::{DrawStream, NullModel};

/// A batched `fill` returns exactly what the per-draw `draw` does (300 draws from draw 5,
/// seed 3).
pub(crate) fn assert_fill_matches_draw(model: &dyn NullModel, label: &str) {
    let mut out = vec![0.0; 300];
    model.fill(3, 5, &mut out);
    for (i, &value) in out.iter().enumerate() {
        let expected = model.draw(&mut DrawStream::new(3, model.tag(), 5 + i as u64));
        assert_eq!(value.to_bits(), expected.to_bits(), "{label} draw {i}");
    }
}
