//! The library and the command agree: for every example domain, `Pipeline` with its
//! defaults (plus the tiling the file's header names) prints the same C text as
//! `polyscan gen` (with the same tile flags).

use codegen::input::parse_problem;
use codegen::{Pipeline, Tiling};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every `.pset` under examples/, sorted.
fn domains(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["seed", "domains", "tiling"] {
        for e in std::fs::read_dir(root.join("examples").join(dir)).expect("examples/ exists") {
            let p = e.expect("a readable entry").path();
            if p.extension().is_some_and(|x| x == "pset") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The value of `# KEY:` in a file's header.
fn header(src: &str, key: &str) -> Option<String> {
    src.lines()
        .find_map(|l| l.strip_prefix(&format!("# {key}:")))
        .map(|v| v.trim().to_string())
}

#[test]
fn library_defaults_print_what_gen_prints() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = domains(&root);
    assert!(files.len() >= 30, "{} example domains", files.len());
    let mut compared = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).expect("readable");
        let problem = parse_problem(&src).expect("examples parse");
        let mut pipeline = Pipeline::new(problem);
        let mut args: Vec<String> = vec!["gen".into(), path.display().to_string()];
        if let Some(sizes) = header(&src, "tile-sizes") {
            let shape = header(&src, "tile-shape");
            args.extend(["--tile-sizes".into(), sizes.clone()]);
            if let Some(s) = &shape {
                args.extend(["--tile-shape".into(), s.clone()]);
            }
            pipeline = pipeline.tiling(Tiling {
                shape,
                ..Tiling::sizes(sizes)
            });
        }
        let cli = Command::new(env!("CARGO_BIN_EXE_polyscan"))
            .args(&args)
            .output()
            .expect("the polyscan binary runs");
        let library = pipeline.run().map(|out| {
            let g = out.generated;
            g.emitter().fragment(&g.nodes).expect("printable")
        });
        match library {
            Ok(text) => {
                assert!(cli.status.success(), "{}: gen failed", path.display());
                assert_eq!(
                    text,
                    String::from_utf8_lossy(&cli.stdout),
                    "{}: library and gen differ",
                    path.display()
                );
                compared += 1;
            }
            // Both refuse (an unbounded domain): the command with exit code 2.
            Err(e) => assert_eq!(cli.status.code(), Some(2), "{}: {e}", path.display()),
        }
    }
    assert!(compared >= 30, "{compared} compared");
}
