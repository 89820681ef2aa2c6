//! The `polyscan` command-line tool; see `polyscan --help`.

fn main() {
    std::process::exit(polyscan::cli::main());
}
