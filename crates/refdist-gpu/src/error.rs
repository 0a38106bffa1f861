use std::fmt;

use dptest_refdist::RefdistError;

/// What went wrong setting up or running the GPU engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GpuError {
    /// No Vulkan adapter was found.
    NoAdapter(String),
    /// The adapter refused to create a device.
    Device(String),
    /// A WGSL module or compute pipeline failed validation (a bug in a kernel).
    Shader {
        /// The module, e.g. `rank_sums/sample`.
        module: String,
        /// The validation message.
        message: String,
    },
    /// The device was lost (driver reset, hang, out of memory); the engine cannot be used again.
    DeviceLost(String),
    /// A backend name other than `auto`, `cpu` or `gpu`.
    UnknownBackend(String),
    /// A submission, poll, buffer mapping or validation error while running a kernel.
    Run(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter(reason) => write!(
                f,
                "no GPU adapter ({reason}); set WGPU_BACKEND=vulkan and install \
                 mesa-vulkan-drivers for lavapipe, or use the cpu backend"
            ),
            GpuError::Device(reason) => {
                write!(f, "the GPU adapter refused a device ({reason}); use the cpu backend")
            }
            GpuError::Shader { module, message } => {
                write!(f, "WGSL module {module} failed validation: {message}")
            }
            GpuError::DeviceLost(reason) => write!(
                f,
                "the GPU device was lost ({reason}); create a new engine or use the cpu backend"
            ),
            GpuError::UnknownBackend(name) => {
                write!(f, "unknown backend {name:?}; use auto, cpu or gpu")
            }
            GpuError::Run(reason) => write!(f, "GPU run failed: {reason}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<GpuError> for RefdistError {
    fn from(error: GpuError) -> Self {
        RefdistError::Engine(error.to_string())
    }
}
