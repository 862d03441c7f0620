//! One integration-test binary (ripgrep's habit): each module tests one area through the public API.

mod alphabeta;
mod balance;
mod browser;
mod chess_rules;
mod chess_variant_reference;
mod cli;
mod described;
mod ecosystem;
mod golden;
mod guide;
mod hunt_reference;
mod hunt_rules;
mod imperial_rules;
mod juroku_table;
mod layers;
mod perft_vectors;
mod ray;
mod readme;
mod robustness;
mod search;
mod serve;
mod standalone;
mod sweep;
mod testkit_runs;
mod training;

/// Runs `rebel-zero ARGS` in `dir` with `typed` on its standard input; its data folder (where `play`
/// saves games) is `data`, a scratch folder, never the user's. Input a command does not read is ignored.
pub fn run_typing(
    dir: &std::path::Path,
    data: &std::path::Path,
    args: &[&str],
    typed: &[u8],
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(args)
        .current_dir(dir)
        .env("REBEL_ZERO_DATA", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let _ = child.stdin.take().expect("piped").write_all(typed);
    child.wait_with_output().expect("the binary runs")
}
