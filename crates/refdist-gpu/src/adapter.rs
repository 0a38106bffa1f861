//! What the engine runs on, for results and bench rows.

use serde::Serialize;

/// The adapter a [`crate::GpuEngine`] runs on (from `wgpu::AdapterInfo`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AdapterReport {
    /// Adapter name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)` or `NVIDIA H200`.
    pub name: String,
    /// Graphics backend (always `vulkan` in this build).
    pub backend: String,
    /// `DiscreteGpu`, `IntegratedGpu`, `VirtualGpu`, `Cpu` or `Other`.
    pub device_type: String,
    /// Driver name.
    pub driver: String,
    /// Driver version details.
    pub driver_info: String,
    /// True for software adapters (lavapipe): their timings are not GPU speed.
    pub is_cpu: bool,
}

impl AdapterReport {
    pub(crate) fn from_info(info: &wgpu::AdapterInfo) -> Self {
        AdapterReport {
            name: info.name.clone(),
            backend: info.backend.to_string(),
            device_type: format!("{:?}", info.device_type),
            driver: info.driver.clone(),
            driver_info: info.driver_info.clone(),
            is_cpu: info.device_type == wgpu::DeviceType::Cpu,
        }
    }

    /// One line for logs and reports: `name (type, backend, driver info)`.
    pub fn summary(&self) -> String {
        format!("{} ({}, {}, {})", self.name, self.device_type, self.backend, self.driver_info)
    }
}

/// Every Vulkan adapter wgpu can see (cheap: no device is created).
pub fn list_adapters() -> Vec<AdapterReport> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
        .iter()
        .map(|adapter| AdapterReport::from_info(&adapter.get_info()))
        .collect()
}
