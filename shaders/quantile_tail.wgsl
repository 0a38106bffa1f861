// quantile_tail.wgsl — pass 2 of quantile extraction: regenerate the same draws; append every
// order key whose top 16 bits exceed the boundary bin (params.boundary) to `tail` (at most
// params.cap stored; counts[0] counts them all), and histogram the low 16 bits of the keys in
// the boundary bin into counts[1..65537]. With 16 + 16 bits the boundary bin's keys are known
// exactly without being stored, so memory stays below the number of order statistics needed.
// Twin: crates/refdist-gpu/src/cpu_twin/quantile_tail.rs.

@group(0) @binding(2) var<storage, read_write> tail: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let stride = groups.x * WORKGROUP;
    for (var i = gid.x; i < params.count; i += stride) {
        let r = model_draw(draw_index(i));
        let key = order_key(tail_key(r.s));
        let bin = key >> 16u;
        if (bin > params.boundary) {
            let at = atomicAdd(&counts[0], 1u);
            if (at < params.cap) {
                tail[at] = key;
            }
        } else if (bin == params.boundary) {
            atomicAdd(&counts[1u + (key & 0xFFFFu)], 1u);
        }
    }
}
