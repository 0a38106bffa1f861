//! The wgpu side: one device, queue, bind-group layout and lazily built pipelines, shared by
//! every call; buffers, chunked dispatches and read-back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use bytemuck::{Pod, Zeroable};

use crate::adapter::AdapterReport;
use crate::error::GpuError;
use crate::shaders::{self, Kernel, Operation};

/// Uniform parameters of one dispatch (`Params` in `shaders/common.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct Params {
    pub(crate) seed_lo: u32,
    pub(crate) seed_hi: u32,
    pub(crate) first_lo: u32,
    pub(crate) first_hi: u32,
    pub(crate) count: u32,
    pub(crate) tail: u32,
    pub(crate) slot: u32,
    pub(crate) boundary: u32,
    pub(crate) threshold: f32,
    pub(crate) center: f32,
    pub(crate) cap: u32,
    pub(crate) n: u32,
    pub(crate) groups: u32,
    pub(crate) kind: u32,
    pub(crate) pad: [u32; 2],
    pub(crate) p: [f32; 4],
}

/// Which module a pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Module {
    Model(Kernel, Operation),
    PhiloxKat,
}

impl Module {
    fn label(self) -> String {
        match self {
            Module::Model(kernel, op) => format!("{}/{}", kernel.name(), op.name()),
            Module::PhiloxKat => "philox_kat".to_owned(),
        }
    }

    fn source(self) -> String {
        match self {
            Module::Model(kernel, op) => shaders::module_source(kernel, op),
            Module::PhiloxKat => shaders::philox_kat_source(),
        }
    }
}

/// The buffers bound at bindings 1–3.
pub(crate) struct Bindings<'a> {
    pub(crate) input: &'a wgpu::Buffer,
    pub(crate) out: &'a wgpu::Buffer,
    pub(crate) counts: &'a wgpu::Buffer,
}

pub(crate) struct Context {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pub(crate) adapter: AdapterReport,
    pub(crate) limits: wgpu::Limits,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    pipelines: Mutex<HashMap<Module, wgpu::ComputePipeline>>,
    lost: Arc<Mutex<Option<String>>>,
    uncaptured: Arc<Mutex<Option<String>>>,
    timeout: Duration,
}

const WORKGROUP: u32 = 256;
/// Upper bound on workgroups per dispatch (the kernels grid-stride over the rest).
const MAX_WORKGROUPS: u32 = 4096;

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Context {
    pub(crate) fn new(timeout: Duration) -> Result<Context, GpuError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let report = AdapterReport::from_info(&adapter.get_info());
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("dptest-refdist-gpu"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;

        let lost = Arc::new(Mutex::new(None));
        let lost_flag = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut slot) = lost_flag.lock() {
                *slot = Some(format!("{reason:?}: {message}"));
            }
        });
        let uncaptured = Arc::new(Mutex::new(None));
        let uncaptured_slot = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if let Ok(mut slot) = uncaptured_slot.lock() {
                slot.get_or_insert_with(|| error.to_string());
            }
        }));

        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("refdist"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                storage_entry(1, true),
                storage_entry(2, false),
                storage_entry(3, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("refdist"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        Ok(Context {
            device,
            queue,
            adapter: report,
            limits,
            layout,
            pipeline_layout,
            pipelines: Mutex::new(HashMap::new()),
            lost,
            uncaptured,
            timeout,
        })
    }

    /// Fails if the device was lost or an error escaped the error scopes.
    fn check(&self) -> Result<(), GpuError> {
        if let Some(reason) = self.lost.lock().ok().and_then(|slot| slot.clone()) {
            return Err(GpuError::DeviceLost(reason));
        }
        if let Some(message) = self.uncaptured.lock().ok().and_then(|mut slot| slot.take()) {
            return Err(GpuError::Run(message));
        }
        Ok(())
    }

    /// The pipeline of `module`, compiled on first use inside a validation error scope.
    fn pipeline(&self, module: Module) -> Result<wgpu::ComputePipeline, GpuError> {
        let mut cache =
            self.pipelines.lock().map_err(|_| GpuError::Run("pipeline cache poisoned".into()))?;
        if let Some(pipeline) = cache.get(&module) {
            return Ok(pipeline.clone());
        }
        let label = module.label();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let shader = self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&label),
            source: wgpu::ShaderSource::Wgsl(module.source().into()),
        });
        let pipeline = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: Some(&self.pipeline_layout),
            module: &shader,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Shader { module: label, message: error.to_string() });
        }
        cache.insert(module, pipeline.clone());
        Ok(pipeline)
    }

    /// A storage buffer of `size` bytes (≥ 4), zeroed, readable back.
    pub(crate) fn storage(&self, size: u64) -> Result<wgpu::Buffer, GpuError> {
        self.check()?;
        let size = size.max(16).next_multiple_of(4);
        if size > self.limits.max_storage_buffer_binding_size {
            return Err(GpuError::Run(format!(
                "a {size}-byte buffer exceeds the device's storage binding limit of {} bytes; \
                 use fewer draws per call or the cpu engine",
                self.limits.max_storage_buffer_binding_size
            )));
        }
        Ok(self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }))
    }

    /// A read-only storage buffer holding `words` (at least four words).
    pub(crate) fn input(&self, words: &[u32]) -> Result<wgpu::Buffer, GpuError> {
        let mut padded = words.to_vec();
        padded.resize(words.len().max(4), 0);
        self.upload(bytemuck::cast_slice(&padded), wgpu::BufferUsages::STORAGE)
    }

    /// A buffer holding `bytes`, written through the queue (unlike `create_buffer_init`, this
    /// cannot panic on a lost device).
    fn upload(&self, bytes: &[u8], usage: wgpu::BufferUsages) -> Result<wgpu::Buffer, GpuError> {
        self.check()?;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (bytes.len() as u64).next_multiple_of(4),
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&buffer, 0, bytes);
        Ok(buffer)
    }

    /// Runs one dispatch per entry of `chunks` (each with its own uniforms), then waits.
    pub(crate) fn run(
        &self,
        module: Module,
        chunks: &[Params],
        bindings: &Bindings<'_>,
    ) -> Result<(), GpuError> {
        self.check()?;
        let pipeline = self.pipeline(module)?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        for params in chunks {
            let uniforms = self.upload(bytemuck::bytes_of(params), wgpu::BufferUsages::UNIFORM)?;
            let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniforms.as_entire_binding() },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: bindings.input.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry { binding: 2, resource: bindings.out.as_entire_binding() },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: bindings.counts.as_entire_binding(),
                    },
                ],
            });
            let mut encoder = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                let groups = params.count.div_ceil(WORKGROUP).clamp(1, self.max_workgroups());
                pass.dispatch_workgroups(groups, 1, 1);
            }
            let index = self.queue.submit([encoder.finish()]);
            self.wait(index)?;
        }
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Run(error.to_string()));
        }
        self.check()
    }

    fn max_workgroups(&self) -> u32 {
        self.limits.max_compute_workgroups_per_dimension.min(MAX_WORKGROUPS)
    }

    fn wait(&self, index: wgpu::SubmissionIndex) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(index),
                timeout: Some(self.timeout),
            })
            .map_err(|e| match e {
                wgpu::PollError::Timeout => GpuError::Run(format!(
                    "a dispatch did not finish within {:?}; use fewer draws per call",
                    self.timeout
                )),
                other => GpuError::Run(other.to_string()),
            })?;
        Ok(())
    }

    /// Copies the first `size` bytes of `buffer` back to the host.
    pub(crate) fn read(&self, buffer: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        self.check()?;
        let size = size.max(4).next_multiple_of(4);
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
        let index = self.queue.submit([encoder.finish()]);
        let (sender, receiver) = mpsc::channel();
        staging.slice(..).map_async(wgpu::MapMode::Read, move |result| {
            let _ = sender.send(result);
        });
        self.wait(index)?;
        let mapped = match receiver.try_recv() {
            Ok(result) => result,
            Err(_) => {
                self.wait_all()?;
                receiver
                    .recv_timeout(self.timeout)
                    .map_err(|_| GpuError::Run("buffer mapping never completed".into()))?
            }
        };
        mapped.map_err(|e| GpuError::Run(format!("buffer mapping failed: {e}")))?;
        let bytes = {
            let view = staging
                .slice(..)
                .get_mapped_range()
                .map_err(|e| GpuError::Run(format!("mapped range: {e}")))?;
            view.to_vec()
        };
        staging.unmap();
        self.check()?;
        Ok(bytes)
    }

    fn wait_all(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::Wait { submission_index: None, timeout: Some(self.timeout) })
            .map_err(|e| GpuError::Run(e.to_string()))?;
        Ok(())
    }

    /// Reads a buffer back as u32 words.
    pub(crate) fn read_words(
        &self,
        buffer: &wgpu::Buffer,
        words: usize,
    ) -> Result<Vec<u32>, GpuError> {
        let bytes = self.read(buffer, words as u64 * 4)?;
        Ok(bytemuck::pod_collect_to_vec::<u8, u32>(&bytes[..words * 4]))
    }

    /// Destroys the device: the lost callback fires and every later call fails cleanly.
    pub(crate) fn destroy(&self) {
        self.device.destroy();
        let _ = self.device.poll(wgpu::PollType::Poll);
    }

    /// Compiles every module (to surface shader errors and pay the JIT once).
    pub(crate) fn compile_all(&self) -> Result<(), GpuError> {
        for kernel in Kernel::ALL {
            for op in Operation::ALL {
                self.pipeline(Module::Model(kernel, op))?;
            }
        }
        self.pipeline(Module::PhiloxKat).map(|_| ())
    }
}
