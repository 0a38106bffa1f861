// signed_rank.wgsl — W = 2R+ - n(n+1)/2 plus b·L (Wilcoxon exact-null Monte Carlo), tag 2.
// Twin: crates/refdist-gpu/src/cpu_twin/signed_rank.rs (dptest_refdist::SignedRankLaplace).
// Word layout: words 0..ceil(n/32) carry the sign bits (bit t of word w: rank 32w + t + 1
// positive), the next word is the Laplace. R+ is exact in u32 (n <= 65535).
// params: n, p0 = b. center = 0. Outputs i0 = R+, aux = W (f32).

fn model_draw(d: vec2<u32>) -> Draw {
    var st = stream_new(seed_key(), 2u, d);
    let n = params.n;
    var r_plus = 0u;
    for (var base = 0u; base < n; base += 32u) {
        var w = stream_u32(&st);
        let remaining = n - base;
        if (remaining < 32u) {
            w = w & ((1u << remaining) - 1u);
        }
        let offsets = countOneBits(w & 0xAAAAAAAAu) + 2u * countOneBits(w & 0xCCCCCCCCu)
            + 4u * countOneBits(w & 0xF0F0F0F0u) + 8u * countOneBits(w & 0xFF00FF00u)
            + 16u * countOneBits(w & 0xFFFF0000u);
        r_plus += (base + 1u) * countOneBits(w) + offsets;
    }
    let half_total = n * (n + 1u) / 2u;
    let w_stat = i32(2u * r_plus) - i32(half_total);
    let l = laplace(stream_u32(&st));
    let wf = f32(w_stat);
    return Draw(wf + params.p0 * l, wf, r_plus, 0u);
}
