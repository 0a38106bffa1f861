// philox_kat.wgsl — raw Philox4x32-10 blocks for known-answer tests: input (binding 1, as
// `sizes`) holds 6 words per case (counter x4, key x2); output 4 words per case.
// Twin: dptest_refdist::philox4x32_10 (crates/refdist-gpu/src/cpu_twin/philox.rs).
// Needs no model: prepended by philox.wgsl + common.wgsl only.

@group(0) @binding(2) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let stride = groups.x * WORKGROUP;
    for (var i = gid.x; i < params.count; i += stride) {
        let c = vec4<u32>(sizes[6u * i], sizes[6u * i + 1u], sizes[6u * i + 2u], sizes[6u * i + 3u]);
        let k = vec2<u32>(sizes[6u * i + 4u], sizes[6u * i + 5u]);
        let b = philox4x32_10(c, k);
        out[4u * i] = b.x;
        out[4u * i + 1u] = b.y;
        out[4u * i + 2u] = b.z;
        out[4u * i + 3u] = b.w;
    }
}
