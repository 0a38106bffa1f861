// rank_sums.wgsl — group rank sums by selection sampling, their statistic, plus b·L, tag 3.
// Twin: crates/refdist-gpu/src/cpu_twin/rank_sums.rs (dptest_refdist::RankSumNull).
// Word layout: word j (j = 0..n) deals rank j+1: v = below(word, left) and the rank goes to the
// first group k with v < left_0 + ... + left_k. Word n is the Laplace.
// Rank sums are exact u32; D_k = 2R_k - n_k(n+1) is an exact i32 (n <= 40000), so the
// statistics below have no cancellation:
//   kind 0 KW:    H = 3/(n(n+1)) · sum D_k²/n_k          (p1 = 3/(n(n+1)))
//   kind 1 KWabs: c_n · sum |D_k| / 2                    (p1 = c_n/2)
//   kind 2 MW min(U1, U2) - M/2 = -|2U1 - M| / 2         (center = M/2)
//   kind 3 MW U1 - M/2 = (2U1 - M) / 2                   (center = M/2)
// params: n, groups (<= 16), kind, p0 = b, p1 as above; sizes = group sizes.
// Outputs: i0 = R_1, i1 = FNV-1a style hash of all rank sums, aux = noiseless shifted statistic.

const MAX_GROUPS: u32 = 16u;

fn model_draw(d: vec2<u32>) -> Draw {
    var st = stream_new(seed_key(), 3u, d);
    let n = params.n;
    let g = params.groups;
    var left: array<u32, MAX_GROUPS>;
    var sums: array<u32, MAX_GROUPS>;
    for (var k = 0u; k < g; k++) {
        left[k] = sizes[k];
        sums[k] = 0u;
    }
    var remaining = n;
    for (var rank = 1u; rank <= n; rank++) {
        var v = below(stream_u32(&st), remaining);
        var k = 0u;
        loop {
            if (v < left[k] || k + 1u >= g) {
                break;
            }
            v -= left[k];
            k++;
        }
        left[k] -= 1u;
        sums[k] += rank;
        remaining -= 1u;
    }
    let l = laplace(stream_u32(&st));

    var hash = 2166136261u;
    var stat = 0.0;
    var abs_sum = 0u;
    for (var k = 0u; k < g; k++) {
        hash = (hash ^ sums[k]) * 16777619u;
        let dk = i32(2u * sums[k]) - i32(sizes[k] * (n + 1u));
        let df = f32(dk);
        stat += df * df / f32(sizes[k]);
        abs_sum += u32(abs(dk));
    }
    let m = sizes[0] * (n - sizes[0]);
    let u1 = sums[0] - sizes[0] * (sizes[0] + 1u) / 2u;
    let twice_shift = i32(2u * u1) - i32(m);
    var shifted = 0.0;
    switch params.kind {
        case 0u: {
            shifted = params.p1 * stat;
        }
        case 1u: {
            shifted = params.p1 * f32(abs_sum);
        }
        case 2u: {
            shifted = -0.5 * f32(abs(twice_shift));
        }
        default: {
            shifted = 0.5 * f32(twice_shift);
        }
    }
    return Draw(shifted + params.p0 * l, shifted, sums[0], hash);
}
