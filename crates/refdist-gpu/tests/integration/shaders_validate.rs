//! Every composed WGSL module parses and validates with naga (no GPU needed).

use dptest_refdist_gpu::{Kernel, Operation, module_source, philox_kat_source};

fn validate(name: &str, source: &str) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}: {e:?}"));
}

#[test]
fn every_module_validates() {
    for kernel in Kernel::ALL {
        for op in Operation::ALL {
            validate(&format!("{}/{}", kernel.name(), op.name()), &module_source(kernel, op));
        }
    }
    validate("philox_kat", &philox_kat_source());
}
