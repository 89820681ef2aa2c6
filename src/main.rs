//! The `polyscan` command-line tool; see `polyscan --help`.

/// See the `mimalloc` entry in Cargo.toml for why.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(polyscan::cli::main());
}
