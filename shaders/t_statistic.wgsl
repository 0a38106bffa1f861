// t_statistic.wgsl — private t statistic null, tag 4.
// Twin: crates/refdist-gpu/src/cpu_twin/t_statistic.rs (dptest_refdist::TStatisticNull).
// x_i = clamp(sd·Z_i, -1, 1); mean and variance (f32 sums); noisy mean m + a·L1, noisy
// variance v + c·L2; T = m~ / sqrt(v~/n), 0 when v~ <= 0.
// Word layout: Box-Muller pairs (words 2i, 2i+1 -> x_2i cosine, x_2i+1 sine; the last sine is
// unused for odd n), then one word for L1 and one for L2.
// params: n, p0 = sd, p1 = a (mean scale), p2 = c (variance scale). center = 0.
// Outputs aux = noisy variance.

fn model_draw(d: vec2<u32>) -> Draw {
    var st = stream_new(seed_key(), 4u, d);
    let n = params.n;
    let sd = params.p0;
    var sum = 0.0;
    var sum_sq = 0.0;
    for (var produced = 0u; produced < n; produced += 2u) {
        let w1 = stream_u32(&st);
        let w2 = stream_u32(&st);
        let z = box_muller(w1, w2);
        let x0 = clamp(sd * z.x, -1.0, 1.0);
        sum += x0;
        sum_sq += x0 * x0;
        if (produced + 1u < n) {
            let x1 = clamp(sd * z.y, -1.0, 1.0);
            sum += x1;
            sum_sq += x1 * x1;
        }
    }
    let nf = f32(n);
    let mean = sum / nf;
    let variance = max((sum_sq - nf * mean * mean) / (nf - 1.0), 0.0);
    let noisy_mean = mean + params.p1 * laplace(stream_u32(&st));
    let noisy_variance = variance + params.p2 * laplace(stream_u32(&st));
    var t = 0.0;
    if (noisy_variance > 0.0) {
        t = noisy_mean / sqrt(noisy_variance / nf);
    }
    return Draw(t, noisy_variance, 0u, 0u);
}
