// p_value_count.wgsl — count draws whose tail key is >= params.threshold.
// Twin: crates/refdist-gpu/src/cpu_twin/p_value_count.rs. One counter slot per dispatch (the
// host sums them in u64); a workgroup total is added once per workgroup.

@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;

var<workgroup> workgroup_count: atomic<u32>;

@compute @workgroup_size(256)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let stride = groups.x * WORKGROUP;
    var c = 0u;
    for (var i = gid.x; i < params.count; i += stride) {
        let r = model_draw(draw_index(i));
        if (tail_key(r.s) >= params.threshold) {
            c += 1u;
        }
    }
    atomicAdd(&workgroup_count, c);
    workgroupBarrier();
    if (lid == 0u) {
        atomicAdd(&counts[params.slot], atomicLoad(&workgroup_count));
    }
}
