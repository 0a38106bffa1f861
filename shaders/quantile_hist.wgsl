// quantile_hist.wgsl — pass 1 of quantile extraction: histogram of the top
// 16 bits of the order-preserving key of each draw's tail key (65,536 bins).
// Twin: crates/refdist-gpu/src/cpu_twin/quantile_hist.rs.

@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let stride = groups.x * WORKGROUP;
    for (var i = gid.x; i < params.count; i += stride) {
        let r = model_draw(draw_index(i));
        atomicAdd(&hist[order_key(tail_key(r.s)) >> 16u], 1u);
    }
}
