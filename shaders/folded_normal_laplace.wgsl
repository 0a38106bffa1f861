// folded_normal_laplace.wgsl — min(V, M - V) + b·L, V ~ Normal(M/2, sd²) (Mann-Whitney normal
// reference), tag 1. Twin: crates/refdist-gpu/src/cpu_twin/folded_normal_laplace.rs
// (dptest_refdist::FoldedNormalLaplace).
// Word layout as normal_laplace. Computed shifted by center = M/2 (exact identity
// min(V, M - V) - M/2 = -|sd·Z|), so f32 keeps its precision for large M.
// params: p0 = sd, p1 = b.

fn model_draw(d: vec2<u32>) -> Draw {
    let b = philox4x32_10(vec4<u32>(d.x, d.y, 0u, 1u), seed_key());
    let z = box_muller(b.x, b.y).x;
    let l = laplace(b.z);
    return Draw(-abs(params.p0 * z) + params.p1 * l, z, 0u, 0u);
}
