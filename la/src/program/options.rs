//! What a program is built for (back end, sizes, seed, tolerance) and what comes out.

/// Where the kernels of the sequence come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `polyscan_kernels`'s blocked kernels where available, else catalogue nests.
    Generated,
    /// CBLAS and LAPACK (OpenBLAS, single-threaded).
    Blas,
    /// The catalogue nest for every kernel (no blocked kernels): the baseline the
    /// blocked kernels improve on, and a test of the nests.
    Nests,
}

impl Backend {
    /// The back end's name as printed in the program header: `generated`, `blas` or
    /// `nests`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Generated => "generated",
            Backend::Blas => "blas",
            Backend::Nests => "nests",
        }
    }
}

/// What the program is built for.
#[derive(Debug, Clone)]
pub struct ProgramOptions {
    /// Where the kernels come from.
    pub backend: Backend,
    /// Size overrides `NAME=VALUE`, applied after `scale`.
    pub sizes: Vec<(String, u64)>,
    /// Multiplies every size (order and distinctness of sizes are kept).
    pub scale: Option<f64>,
    /// Initial state of the program's random generator for the input data.
    pub seed: u64,
    /// Largest relative residual accepted.
    pub tolerance: f64,
    /// The kernel sequence runs this many times; the best time is reported.
    pub repeat: u32,
    /// Shown in the program's header and output.
    pub title: String,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            backend: Backend::Generated,
            sizes: Vec::new(),
            scale: None,
            seed: 1,
            tolerance: 1e-8,
            repeat: 1,
            title: "problem".into(),
        }
    }
}

/// The emitted program and what it contains.
#[derive(Debug, Clone)]
pub struct EmittedProgram {
    /// The C source text.
    pub source: String,
    /// Sizes the program runs at.
    pub sizes: Vec<(String, u64)>,
    /// Per kernel step: the catalogue name and how it is realised.
    pub realisation: Vec<(String, String)>,
}
