//! The Ray drivers of scripts/ray/ on a local Ray head with two CPUs, as a cluster would run them: a
//! study's cells played by Ray tasks are byte-identical to a local run's, also when a worker is killed
//! in the middle of a cell; two generations trained by two self-play actors and a learner give a
//! checkpoint that plays. Runs when `ray` is importable (`pip install -r scripts/ray/requirements.txt`;
//! .ci/run installs it); without it the test says so and checks nothing else.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_rebel-zero");
/// A head on loopback for one test: Ray's token authentication (on by default, and what a real
/// cluster keeps; docs/SCALE.md) is switched off for it and its drivers.
const AUTH: &str = "disabled";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ray_installed() -> bool {
    Command::new("python3").args(["-c", "import ray"]).status().is_ok_and(|s| s.success())
}

/// A local Ray head with two CPUs, stopped when dropped.
struct Head {
    address: String,
}

impl Head {
    fn start() -> Head {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let output = Command::new("ray")
            .env("RAY_AUTH_MODE", AUTH)
            .args(["start", "--head", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"])
            .arg(format!("--port={port}"))
            .arg("--node-ip-address=127.0.0.1")
            .output()
            .expect("the ray command runs");
        assert!(output.status.success(), "ray start: {}", String::from_utf8_lossy(&output.stderr));
        Head { address: format!("127.0.0.1:{port}") }
    }
}

impl Drop for Head {
    fn drop(&mut self) {
        let _ = Command::new("ray").env("RAY_AUTH_MODE", AUTH).args(["stop", "--force"]).output();
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ray-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn succeed(output: Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{what}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

fn script(name: &str) -> PathBuf {
    repo().join("scripts/ray").join(name)
}

/// The cell files of a study's output folder (not the solver's), name → bytes.
fn cells(out: &Path) -> Vec<(String, Vec<u8>)> {
    let mut cells: Vec<(String, Vec<u8>)> = std::fs::read_dir(out.join("cells"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        // Game cells only: the variants' opening books are kept beside them wherever they were built.
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with("openings-"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    cells.sort();
    cells
}

/// The smoke study with searches slow enough (a few seconds a cell) to kill a worker during one.
fn slow_study(dir: &Path) -> PathBuf {
    let smoke = std::fs::read_to_string(repo().join("configs/balance/smoke.toml")).unwrap();
    assert!(smoke.contains("mcts:sims=16"));
    let path = dir.join("slow.toml");
    std::fs::write(
        &path,
        smoke.replace("mcts:sims=16", "mcts:sims=2000").replace("name = \"smoke\"", "name = \"slow\""),
    )
    .unwrap();
    path
}

/// Waits for a Ray worker running a cell and kills it; returns its pid.
fn kill_a_cell_worker() -> u32 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = Command::new("pgrep").args(["-f", "ray::play_cell"]).output().unwrap();
        let text = String::from_utf8_lossy(&found.stdout);
        if let Some(pid) = text.lines().next().and_then(|l| l.trim().parse::<u32>().ok()) {
            // Only once the worker has started its rebel-zero: the kill then lands mid-cell.
            let child = Command::new("pgrep").args(["-P", &pid.to_string()]).output().unwrap();
            if !child.stdout.is_empty() {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                return pid;
            }
        }
        assert!(Instant::now() < deadline, "no Ray worker played a cell within a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn studies_and_training_run_on_a_local_ray_head_as_on_one_machine() {
    if !ray_installed() {
        eprintln!("skipped: ray is not importable (pip install -r scripts/ray/requirements.txt)");
        return;
    }
    let head = Head::start();
    let dir = scratch("study");
    let study = slow_study(&dir);
    let (local, on_ray) = (dir.join("local"), dir.join("ray"));
    let run_local =
        Command::new(BINARY).args(["balance"]).arg(&study).arg("--out").arg(&local).output().unwrap();
    let local_lines = succeed(run_local, "the local study");

    // The study through Ray, one worker killed in the middle of a cell.
    let driver = Command::new("python3")
        .env("RAY_AUTH_MODE", AUTH)
        .arg(script("study.py"))
        .arg(&study)
        .args(["--address", &head.address, "--binary", BINARY, "--out"])
        .arg(&on_ray)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    kill_a_cell_worker();
    let ray_lines = succeed(driver.wait_with_output().unwrap(), "study.py");
    let (local_cells, ray_cells) = (cells(&local), cells(&on_ray));
    assert_eq!(local_cells.len(), 7);
    assert!(local_cells == ray_cells, "the cells played on Ray differ from the local run's");
    // The same verdicts: the claim lines both runs print at the end.
    let verdicts =
        |text: &str| text.lines().filter(|l| l.starts_with("  C")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(verdicts(&local_lines), verdicts(&ray_lines));
    assert!(!verdicts(&local_lines).is_empty());

    // Two generations: two self-play actors on Ray and the learner.
    let dir = scratch("train");
    let smoke = std::fs::read_to_string(repo().join("configs/smoke.toml")).unwrap();
    let config = dir.join("smoke.toml");
    std::fs::write(&config, smoke.replacen("[run]\n", "[run]\ncheckpoint_dir = \"runs\"\n", 1)).unwrap();
    let trained = Command::new("python3")
        .env("RAY_AUTH_MODE", AUTH)
        .arg(script("train.py"))
        .arg(&config)
        .args(["--address", &head.address, "--binary", BINARY, "--actors", "2", "--generations", "2"])
        .current_dir(&dir)
        .output()
        .unwrap();
    succeed(trained, "train.py");
    let run = dir.join("runs/smoke");
    assert_eq!(std::fs::read_to_string(run.join("latest")).unwrap().trim(), "gen-000002");
    let agent = format!("net:path={},sims=8", run.display());
    let played = Command::new(BINARY)
        .args(["match", "sixteen-rebels", "--agent", &agent, "--agent", "random", "--games", "2"])
        .output()
        .unwrap();
    succeed(played, "a match with the network trained on Ray");
}
