// normal_laplace.wgsl — sd·Z + b·L (Wilcoxon normal reference), tag 0.
// Twin: crates/refdist-gpu/src/cpu_twin/normal_laplace.rs (dptest_refdist::NormalLaplace).
// Word layout (one block): words 0-1 Box-Muller (cosine), word 2 Laplace, word 3 unused.
// params: p0 = sd, p1 = b. center = 0.

fn model_draw(d: vec2<u32>) -> Draw {
    let b = philox4x32_10(vec4<u32>(d.x, d.y, 0u, 0u), seed_key());
    let z = box_muller(b.x, b.y).x;
    let l = laplace(b.z);
    return Draw(params.p0 * z + params.p1 * l, z, 0u, 0u);
}
