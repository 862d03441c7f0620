//! The README's usage block runs as written, so it cannot drift from the program: every line that
//! starts with `rebel-zero` is run with tiny budgets (fewer games, shorter timings, the smoke study and
//! config in place of the long ones) in a scratch folder that sees the repository's configs, docs and
//! shipped networks, and must exit with success.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The README's usage lines that start with `rebel-zero`, without their comments.
fn usage_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let block = readme.split("## Usage").nth(1).expect("a Usage section");
    let code = block.split("```sh\n").nth(1).and_then(|b| b.split("\n```").next()).expect("a sh block");
    code.lines()
        .filter_map(|line| line.strip_prefix("rebel-zero "))
        .map(|line| line.split(" # ").next().unwrap_or(line).trim().to_string())
        .collect()
}

/// Words as a shell splits them (single quotes only, as the README uses); a `> FILE` redirect ends
/// the command.
fn words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            _ => (word.push(c), any = true).1,
        }
    }
    if any {
        words.push(word);
    }
    words.split(|w| w == ">").next().unwrap().to_vec()
}

/// The line with tiny budgets.
fn shrink(mut args: Vec<String>) -> Vec<String> {
    let serving = args[0] == "serve"; // its --games names a file to replay
    for i in 1..args.len() {
        match args[i - 1].as_str() {
            "--games" if !serving => args[i] = "4".into(),
            "--seconds" => args[i] = "0.05".into(),
            "--minutes" => (args[i - 1], args[i]) = ("--generations".into(), "3".into()),
            _ => {}
        }
    }
    for arg in &mut args {
        // Searches of 20 simulations: `mcts:sims=800` becomes `mcts:sims=20`.
        if let Some(at) = arg.find("sims=") {
            let digits = arg[at + 5..].chars().take_while(char::is_ascii_digit).count();
            arg.replace_range(at + 5..at + 5 + digits, "20");
        }
        *arg = match arg.as_str() {
            "configs/balance/quick.toml" => "configs/balance/smoke.toml".into(),
            // Resuming the shipped network would train it: the smoke run (made by the line before) instead.
            "configs/sixteen-rebels.toml" => "configs/smoke.toml".into(),
            _ => std::mem::take(arg),
        };
    }
    if serving {
        args.extend(["--port".into(), "0".into()]);
    }
    if args[0] == "bench-net" && !args.iter().any(|a| a == "--seconds") {
        args.extend(["--seconds".into(), "0.05".into()]);
    }
    args
}

#[test]
fn every_usage_line_of_the_readme_runs() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-usage");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("checkpoints")).unwrap();
    for linked in ["configs", "docs"] {
        std::os::unix::fs::symlink(repo.join(linked), dir.join(linked)).unwrap();
    }
    // Copies, not links: `quantize` writes beside the weights, and a test must not touch the repository.
    for network in ["sixteen-rebels", "imperial-contest"] {
        copy_folder(&repo.join("checkpoints").join(network), &dir.join("checkpoints").join(network));
    }
    let lines = usage_lines();
    assert!(lines.len() >= 25, "the usage block: {lines:?}");
    let (mut ran, mut skipped) = (0, 0);
    for line in &lines {
        let args = shrink(words(line));
        // Best play needs the tables that `solve` builds in minutes or hours: not a test's work (the
        // tablebase tests build reduced tables).
        if args[0] == "solve" || args[0] == "sweep" || args.iter().any(|a| a == "perfect") {
            skipped += 1;
            continue;
        }
        if args[0] == "serve" {
            check_serving(&args, &dir);
            ran += 1;
            continue;
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
            .args(&args)
            .current_dir(&dir)
            .env("REBEL_ZERO_DATA", dir.join("data"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `play` and `uci` read commands: they are told to stop.
        // (Commands that read nothing may have exited already: a closed pipe here is fine.)
        let _ = child.stdin.take().unwrap().write_all(b"quit\n");
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "`rebel-zero {line}` (run as {args:?}) failed: {stderr}");
        ran += 1;
    }
    // The skipped lines: `solve`, `sweep` and `perfect` (tables), each named in the README.
    assert!(skipped <= 10, "only {ran} of {} lines ran", lines.len());
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target)
        } else {
            std::fs::copy(&path, &target).map(|_| ()).unwrap()
        }
    }
}

/// `serve` runs until stopped: it must print its address, answer there, and is then stopped.
fn check_serving(args: &[String], dir: &Path) {
    use std::io::{BufRead, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(args)
        .current_dir(dir)
        .env("REBEL_ZERO_DATA", dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let address = first.split("http://").nth(1).and_then(|a| a.split('/').next()).map(str::to_string);
    let answer = address.map(|address| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .write_all(
                format!("GET /api/records?limit=1 HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            )
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    });
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    let answer = answer.unwrap_or_else(|| {
        panic!("`{args:?}` printed {first:?}: {}", String::from_utf8_lossy(&output.stderr))
    });
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("\"total\""), "{answer}");
}
