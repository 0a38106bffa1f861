// sample.wgsl — store every draw: (s, aux, i0, i1) as four u32 words per draw.
// Twin: crates/refdist-gpu/src/cpu_twin/sample.rs. Output index = params.slot + local index.

@group(0) @binding(2) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let stride = groups.x * WORKGROUP;
    for (var i = gid.x; i < params.count; i += stride) {
        let r = model_draw(draw_index(i));
        let o = 4u * (params.slot + i);
        out[o] = bitcast<u32>(r.s);
        out[o + 1u] = bitcast<u32>(r.aux);
        out[o + 2u] = r.i0;
        out[o + 3u] = r.i1;
    }
}
