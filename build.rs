//! Embeds the build's provenance in the binary — the git commit, whether the work tree had changes,
//! and the compiler — so that a report says what built the binary that played its games, not what the
//! folder holds when the report is written.

use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let rustc = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=REBEL_ZERO_COMMIT={commit}{}", if dirty { "+dirty" } else { "" });
    println!("cargo:rustc-env=REBEL_ZERO_RUSTC={rustc}");
    // A new commit, a staged change or an edited source changes the answer.
    for path in [".git/HEAD", ".git/index", "src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
