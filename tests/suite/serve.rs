//! `rebel-zero serve` over loopback: the JSON API plays, undoes, resigns, analyses and replays; bad
//! input is a 4xx with the CLI's message; a load of hundreds of requests gets well-formed answers,
//! no crash, and bounded memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rebel_zero::game::history::judge;
use rebel_zero::game::{AnyGame, Game, RepetitionTracker};
use rebel_zero::with_game;
use serde_json::{Value, json};

/// A running `rebel-zero serve` on a free port, killed when dropped.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    pub data: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A study's games, shipped in the repository, to replay.
pub fn study_games(study: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/studies").join(study).join("games.jsonl.gz")
}

/// Starts the server with `args` (besides `--port 0`), its data folder a scratch one named `name`.
pub fn serve(name: &str, args: &[&str]) -> Served {
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}"));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rebel-zero"))
        .args(["serve", "--port", "0"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("REBEL_ZERO_DATA", &data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let address = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("the server prints its address first, not {first:?}"))
        .to_string();
    Served { child, address, data }
}

/// One HTTP/1.1 request; the status and the body (JSON unless the route is the page's).
pub fn request(address: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let _ = stream.write_all(body.as_bytes()); // a refused oversized body may close the socket early
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8(response).expect("UTF-8 response");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no head in {response:?}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{head}"));
    (status, body.to_string())
}

/// A request whose answer must be JSON; returns the status and the value.
pub fn call(address: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let (status, answer) = request(address, method, path, text.as_deref());
    let value = serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{method} {path}: {e}: {answer:?}"));
    (status, value)
}

fn ok(address: &str, method: &str, path: &str, body: Option<Value>) -> Value {
    let (status, value) = call(address, method, path, body);
    assert_eq!(status, 200, "{method} {path}: {value}");
    value
}

/// Polls the game until the agent has moved (its search is time-limited, so this ends).
fn after_agent(address: &str, id: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let game = ok(address, "GET", &format!("/api/games/{id}"), None);
        if game["thinking"].is_null() {
            return game;
        }
        assert!(Instant::now() < deadline, "the agent is still thinking after a minute: {game}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn moves(game: &Value) -> Vec<String> {
    game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

#[test]
fn a_game_against_an_agent_plays_undoes_resigns_and_is_saved() {
    let server = serve("play", &["--think-seconds", "5"]);
    let a = server.address.as_str();
    // The person plays the Rebels, so the General (moving first) opens at once.
    let opened = ok(
        a,
        "POST",
        "/api/games",
        Some(json!({"spec": "sixteen-rebels", "side": "rebels", "agent": "mcts:sims=50"})),
    );
    let id = opened["id"].as_u64().unwrap();
    let game = after_agent(a, id);
    assert_eq!(moves(&game).len(), 1, "{game}");
    assert_eq!(game["to_move"], 1);
    let legal = game["legal"].as_array().unwrap();
    assert!(!legal.is_empty());
    let first = legal[0]["text"].as_str().unwrap().to_string();
    // Not the person's turn while the agent thinks; a wrong move names the legal ones.
    let (status, refused) = call(a, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "a1-a9"})));
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("a9"), "{refused}");
    ok(a, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": first})));
    let game = after_agent(a, id);
    assert_eq!(moves(&game).len(), 3, "the agent replied: {game}");
    assert!(game["note"].as_str().unwrap().contains("simulations"), "{game}");
    let undone = ok(a, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(moves(&undone).len(), 1, "undo takes back the person's move and the reply: {undone}");
    let resigned = ok(a, "POST", &format!("/api/games/{id}/resign"), None);
    assert_eq!(resigned["resigned"], true);
    assert_eq!(resigned["saved_as"], 0, "{resigned}");
    let (status, _) = call(a, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": first})));
    assert_eq!(status, 400, "no move after resigning");
    let saved = std::fs::read_to_string(server.data.join("played.jsonl")).unwrap();
    let record: Value = serde_json::from_str(saved.lines().next().unwrap()).unwrap();
    assert_eq!(
        (record["winner"].as_str(), record["reason"].as_str()),
        (Some("general"), Some("resignation"))
    );
    assert_eq!(record["agents"]["rebels"], "human");
    ok(a, "DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(call(a, "GET", &format!("/api/games/{id}"), None).0, 404);
}

#[test]
fn every_board_kind_opens_and_its_first_moves_play() {
    let server = serve("kinds", &["--think-seconds", "5"]);
    let a = server.address.as_str();
    // With no side named, the person plays the side that moves first.
    for (spec, kind) in [
        ("twenty-six-rebels", "points"),
        ("juroku-musashi:triangle=closed", "points"),
        ("imperial-contest", "squares"),
        ("squirm-chess:pawns=berolina", "squares"),
    ] {
        let game = ok(a, "POST", "/api/games", Some(json!({"spec": spec, "agent": "mcts:sims=20"})));
        assert_eq!(game["board"]["kind"], kind, "{spec}");
        let id = game["id"].as_u64().unwrap();
        let text = game["legal"][0]["text"].as_str().unwrap().to_string();
        ok(a, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": text})));
        let game = after_agent(a, id);
        assert_eq!(moves(&game).len(), 2, "{spec}: {game}");
        assert!(game["last"].is_array(), "{spec}: the agent's move is marked");
    }
}

#[test]
fn positions_analyses_and_records_answer_and_bad_requests_are_refused() {
    let games = study_games("chess");
    let server = serve("api", &["--games", games.to_str().unwrap(), "--think-seconds", "5"]);
    let a = server.address.as_str();
    let position = ok(a, "POST", "/api/position", Some(json!({"spec": "chess", "moves": ["e2e4", "e7e5"]})));
    assert_eq!(position["legal"].as_array().unwrap().len(), 29);
    assert_eq!(position["pieces"].as_array().unwrap().len(), 32);
    let analysis = ok(
        a,
        "POST",
        "/api/analyse",
        Some(
            json!({"spec": "sixteen-rebels", "agent": "net:path=checkpoints/sixteen-rebels,sims=64", "moves": []}),
        ),
    );
    let wdl = &analysis["network"];
    let total = wdl["win"].as_f64().unwrap() + wdl["draw"].as_f64().unwrap() + wdl["loss"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-3, "{analysis}");
    let visits: u64 = analysis["top"].as_array().unwrap().iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert!(visits > 0 && analysis["simulations"].as_u64().unwrap() <= 64, "{analysis}");
    // On a hunt board each move's exact verdict comes too, or a note saying how to build the table.
    match analysis["table"].as_array() {
        Some(moves) => assert_eq!(moves.len(), 8, "{analysis}"),
        None => {
            let note = analysis["table_note"].as_str().unwrap_or_default();
            assert!(note.contains("rebel-zero solve sixteen-rebels"), "{analysis}");
        }
    }

    // A ruleset described in a shipped rules file plays in the browser like its built-in twin.
    let file = format!("file:{}/configs/rules/sixteen-rebels.toml", env!("CARGO_MANIFEST_DIR"));
    let described = ok(a, "POST", "/api/position", Some(json!({"spec": file, "moves": ["c3-c4"]})));
    let builtin = ok(a, "POST", "/api/position", Some(json!({"spec": "sixteen-rebels", "moves": ["c3-c4"]})));
    assert_eq!(described["legal"], builtin["legal"]);
    assert_eq!(described["pieces"], builtin["pieces"]);

    let listing = ok(a, "GET", "/api/records?result=draw&limit=3", None);
    assert!(listing["total"].as_u64().unwrap() > 3);
    let first = &listing["records"][0];
    assert!(first["winner"].is_null());
    let record = ok(a, "GET", &format!("/api/records/{}", first["id"]), None);
    let replayed = ok(
        a,
        "POST",
        "/api/position",
        Some(json!({"spec": record["spec"], "start": record["start"], "moves": record["moves"]})),
    );
    assert!(replayed["outcome"].as_str().unwrap().starts_with("draw"), "{replayed}");
    let group = first["group"].as_str().unwrap();
    let by_cell = ok(a, "GET", &format!("/api/records?cell={group}&limit=500"), None);
    assert!(by_cell["records"].as_array().unwrap().iter().all(|r| r["group"] == group));

    let refused = [
        ("POST", "/api/position", r#"{"spec": "chesss"}"#, "unknown ruleset `chesss`"),
        ("POST", "/api/position", r#"{"spec": "chess", "moves": ["e2e5"]}"#, "move 1 (`e2e5`)"),
        ("POST", "/api/position", r#"{"spec": "chess:pawns=x"}"#, "pawns"),
        ("POST", "/api/position", r#"{"spec": "#, "request body"),
        ("POST", "/api/games", r#"{"spec": "chess", "agent": "net:path=/etc"}"#, "outside the folders"),
        ("POST", "/api/position", r#"{"spec": "file:/etc/passwd"}"#, "outside the folders"),
        ("POST", "/api/games", r#"{"spec": "chess", "agent": "mcts:sims=-1"}"#, "sims"),
        ("POST", "/api/games", r#"{"spec": "chess", "agent": "human"}"#, "must be an agent"),
        ("POST", "/api/games", r#"{"spec": "chess", "side": "red"}"#, "not a side"),
        ("POST", "/api/analyse", r#"{"spec": "chess", "simulations": 0}"#, "simulations"),
        ("GET", "/api/games/999", "", "no open game"),
        ("GET", "/api/records/99999999", "", "no recorded game"),
        ("GET", "/nothing-here", "", "no such page"),
        // axum's own refusals answer in JSON too.
        ("DELETE", "/api/rulesets", "", "method not allowed"),
        ("POST", "/api/games/%b00/move", "{}", "UTF-8"),
        // A path outside the readable folders is refused alike whether it exists or not.
        (
            "POST",
            "/api/games",
            r#"{"spec": "chess", "agent": "net:path=/no/such/folder"}"#,
            "outside the folders",
        ),
        ("POST", "/api/position", r#"{"spec": "file:/no/such/../file.toml"}"#, "outside the folders"),
    ];
    for (method, path, body, wanted) in refused {
        let (status, answer) = request(a, method, path, Some(body));
        assert!((400..500).contains(&status), "{method} {path} {body}: {status} {answer}");
        let error: Value = serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {answer}"));
        assert!(error["error"].as_str().unwrap().contains(wanted), "{method} {path} {body}: {answer}");
    }
    let (status, answer) = request(a, "POST", "/api/position", Some(&"x".repeat(600_000)));
    assert_eq!(status, 413, "{answer}");
    assert!(serde_json::from_str::<Value>(&answer).is_ok(), "{answer}");
    let (status, page) = request(a, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
}

/// The server's resident memory in kB (Linux).
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn hundreds_of_requests_get_well_formed_answers_and_memory_stays_bounded() {
    let server = serve("load", &["--think-seconds", "2"]);
    let address = server.address.clone();
    let pid = server.child.id();
    // Warm up (the first search allocates its arenas), then measure what the load adds.
    ok(&address, "POST", "/api/analyse", Some(json!({"spec": "imperial-contest", "agent": "mcts:sims=50"})));
    let before = resident_kb(pid);
    let started = Instant::now();
    let workers: Vec<_> = (0..8)
        .map(|worker| {
            let a = address.clone();
            std::thread::spawn(move || {
                let mut answered = 0;
                for i in 0..50 {
                    let (method, path, body) = match (worker + i) % 6 {
                        0 => ("GET", "/api/rulesets".to_string(), None),
                        1 => (
                            "POST",
                            "/api/position".to_string(),
                            Some(json!({"spec": "chess", "moves": ["e2e4"]})),
                        ),
                        2 => (
                            "POST",
                            "/api/position".to_string(),
                            Some(json!({"spec": "chess", "moves": ["e2e9"]})),
                        ),
                        3 => (
                            "POST",
                            "/api/games".to_string(),
                            Some(
                                json!({"spec": "sixteen-rebels", "agent": "mcts:sims=30", "side": "rebels"}),
                            ),
                        ),
                        // Not sixteen-rebels: its analysis reads the 1 GB tablebase where one is built.
                        4 => (
                            "POST",
                            "/api/analyse".to_string(),
                            Some(json!({"spec": "imperial-contest", "agent": "mcts:sims=30"})),
                        ),
                        _ => ("GET", format!("/api/games/{}", i), None),
                    };
                    let (status, value) = call(&a, method, &path, body);
                    assert!(
                        status == 200 || (400..500).contains(&status),
                        "{method} {path}: {status} {value}"
                    );
                    assert!(status == 200 || value["error"].is_string(), "{value}");
                    answered += 1;
                }
                answered
            })
        })
        .collect();
    let answered: usize = workers.into_iter().map(|w| w.join().expect("no worker panicked")).sum();
    assert_eq!(answered, 400);
    assert!(started.elapsed() < Duration::from_secs(300), "{:?}", started.elapsed());
    // More games were opened (about 67) than may be open at once: the oldest were closed.
    let (status, answer) = call(&address, "GET", "/api/games/1", None);
    assert_eq!(status, 410, "the first game was closed to make room: {answer}");
    let message = answer["error"].as_str().unwrap();
    assert!(message.contains("closed to make room") && message.contains("start a new one"), "{message}");
    let grown = resident_kb(pid).saturating_sub(before);
    assert!(grown < 300_000, "the server grew by {grown} kB under load");
    // Started without --games, the server offers the shipped studies' games.
    let listing = ok(&address, "GET", "/api/records?file=0&limit=1", None);
    assert!(
        listing["files"].as_array().unwrap().iter().all(|f| f.as_str().unwrap().contains("docs/studies/"))
    );
    assert!(listing["total"].as_u64().unwrap() > 0, "{listing}");
}

/// Whether the server closed `stream` (a read returns end of file) within `limit`.
fn closed_within(mut stream: &TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut byte = [0u8; 512];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return true,
            Ok(_) => continue, // an answer (a 408) before the close
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn idle_half_open_and_slow_clients_are_let_go_and_cannot_fill_the_server() {
    let server = serve("manners", &[]);
    let address = server.address.clone();
    let pid = server.child.id();
    ok(&address, "GET", "/api/rulesets", None);
    let before = resident_kb(pid);
    // More idle connections than the server takes at once (256), half of them with half a request head.
    let idle: Vec<TcpStream> = (0..300)
        .map(|i| {
            let mut stream = TcpStream::connect(&address).unwrap();
            if i % 2 == 0 {
                stream
                    .write_all(format!("GET /api/rulesets HTTP/1.1\r\nHost: {address}\r\n").as_bytes())
                    .unwrap();
            }
            stream
        })
        .collect();
    // A body that never finishes arriving.
    let mut slow = TcpStream::connect(&address).unwrap();
    let head = format!(
        "POST /api/position HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"spec\":"
    );
    slow.write_all(head.as_bytes()).unwrap();
    // A real request is answered at once: idle connections may hold only part of the slots, and the
    // longest idle is let go to make room (before, it waited 9-10 s for the idle ones to time out).
    for _ in 0..5 {
        let started = Instant::now();
        ok(&address, "GET", "/api/rulesets", None);
        let took = started.elapsed();
        println!("a request beside 300 idle connections: {:.1} ms", took.as_secs_f64() * 1e3);
        assert!(took < Duration::from_millis(500), "{took:?}");
    }
    // The slow body is answered 408, as JSON, and the idle connections are closed.
    slow.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut answer = String::new();
    let _ = slow.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#"{"error":"request body: not received within 10 s"}"#), "{answer}");
    let still_open = idle.iter().filter(|s| !closed_within(s, Duration::from_secs(30))).count();
    assert_eq!(still_open, 0, "connections still held");
    drop(idle);
    // The storm left little behind (the issue measured 85 MB kept after 4,091 idle connections).
    let grown = resident_kb(pid).saturating_sub(before);
    assert!(grown < 40_000, "the server kept {grown} kB after the connections closed");
}

/// A line of `plies` moves of `spec` that the rules do not end: each move, tried from a seeded place in
/// the list, leads to a position not seen before if one can, else to any the rules let the game go on
/// from. A walk that runs into a corner where every move ends the game starts again with the next seed.
fn long_line(spec: &str, plies: usize) -> Vec<String> {
    (1..20).find_map(|seed| walk(spec, plies, seed)).expect("a seed whose walk goes on")
}

fn walk(spec: &str, plies: usize, seed: u64) -> Option<Vec<String>> {
    let any = AnyGame::from_spec(spec).unwrap();
    with_game!(&any, |g| {
        let mut state = g.start();
        let mut seen = std::collections::HashSet::from([g.position_hash(&state)]);
        let mut repetition = RepetitionTracker::default();
        repetition.reset(g.position_hash(&state));
        let mut legal = Default::default();
        assert!(judge(g, &state, 0, false, &mut legal).is_none());
        let (mut texts, mut pick) = (Vec::new(), seed);
        while texts.len() < plies {
            let moves = legal.to_vec();
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let order = (0..moves.len()).map(|k| moves[(k + (pick >> 33) as usize) % moves.len()]);
            let mut next_legal = Default::default();
            let mut goes_on = |new_only: bool| {
                order.clone().find_map(|mv| {
                    let mut next = state; // every family's state is Copy
                    g.apply(&mut next, mv);
                    let hash = g.position_hash(&next);
                    let mut after = repetition.clone();
                    let repeated = after.push(hash, g.is_irreversible(&state, mv));
                    let plies = texts.len() as u32 + 1;
                    let open = judge(g, &next, plies, repeated, &mut next_legal).is_none();
                    (open && !(new_only && seen.contains(&hash))).then_some((mv, next, after))
                })
            };
            let (mv, next, after) = goes_on(true).or_else(|| goes_on(false))?;
            texts.push(g.format_move(&state, mv));
            seen.insert(g.position_hash(&next));
            (state, legal, repetition) = (next, next_legal, after);
        }
        Some(texts)
    })
}

fn median_ms(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

#[test]
fn a_long_game_costs_what_a_short_one_does_and_holds_up_no_other_game() {
    let server = serve("long", &[]);
    let a = server.address.clone();
    let spec = "imperial-contest:max_plies=20000";
    let line = long_line(spec, 5000);
    let open = |moves: &[String]| {
        let game =
            ok(&a, "POST", "/api/games", Some(json!({"spec": spec, "moves": moves, "agent": "random"})));
        assert_eq!(moves.len(), game["moves"].as_array().unwrap().len(), "{}", game["error"]);
        game["id"].as_u64().unwrap()
    };
    let (long, short) = (open(&line), open(&line[..10]));
    // The person's moves on both games, timed, as the page sends them (`?since=`: only the moves it
    // lacks come back): the game is kept, not replayed, and the answer is as long at ply 5,000 as at
    // ply 10, so the move costs the same (190-293 ms before; 2.3 ms against 0.5 ms with every move
    // sent back).
    let play = |id: u64, moves: usize| -> (Vec<Duration>, Vec<usize>) {
        let (mut times, mut sizes) = (Vec::new(), Vec::new());
        for _ in 0..moves {
            let game = after_agent(&a, id);
            let Some(mv) = game["legal"].as_array().unwrap().first() else { break };
            let plies = game["moves"].as_array().unwrap().len();
            let body = json!({"move": mv["text"]}).to_string();
            let started = Instant::now();
            let path = format!("/api/games/{id}/move?since={plies}");
            let (status, answer) = request(&a, "POST", &path, Some(&body));
            times.push(started.elapsed());
            assert_eq!(status, 200, "{answer}");
            let answer: Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(answer["moves_from"], plies, "{answer}");
            assert_eq!(answer["moves"].as_array().unwrap().len(), 1, "only the move played: {answer}");
            sizes.push(answer.to_string().len());
        }
        (times, sizes)
    };
    let ((short_times, short_sizes), (long_times, long_sizes)) = (play(short, 15), play(long, 15));
    let (at_10, at_5000) = (median_ms(short_times), median_ms(long_times));
    println!("a move at ply 10: {at_10:.2} ms; at ply 5,000: {at_5000:.2} ms (medians of 15)");
    let most = |sizes: Vec<usize>| sizes.into_iter().max().unwrap();
    let (short_bytes, long_bytes) = (most(short_sizes), most(long_sizes));
    assert!(long_bytes < short_bytes + 64, "answers of {short_bytes} and {long_bytes} bytes");
    // Only a bound far from both figures: replaying the game per request cost 190-293 ms a move, and a
    // kept game costs well under 1 ms on a quiet machine, several on a loaded one (the ratio of the
    // two medians is a benchmark's to measure, not a test's: it failed whenever a study shared the
    // cores).
    assert!(at_5000 < 50.0, "a move at ply 5,000 took {at_5000:.2} ms (at ply 10: {at_10:.2} ms)");
    // Asked from ply 0 (or past the end, as after an undo), the answer lists every move.
    let whole = ok(&a, "GET", &format!("/api/games/{long}?since=99999"), None);
    let plies = whole["moves_from"].as_u64().unwrap() as usize + whole["moves"].as_array().unwrap().len();
    assert_eq!(whole["moves"].as_array().unwrap().len(), 0, "{}", whole["moves_from"]);
    let all = ok(&a, "GET", &format!("/api/games/{long}"), None);
    assert_eq!((all["moves_from"].as_u64(), all["moves"].as_array().unwrap().len()), (Some(0), plies));
    assert_eq!(request(&a, "GET", &format!("/api/games/{long}?since=-1"), None).0, 400);
    // Eight clients poll the long game while the short one's requests are timed (each request
    // replayed the whole game under one lock for all games: a median of 402 ms at 7,645 plies).
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let pollers: Vec<_> = (0..8)
        .map(|_| {
            let (a, stop) = (a.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut polls = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    assert_eq!(request(&a, "GET", &format!("/api/games/{long}?since=5000"), None).0, 200);
                    polls += 1;
                    std::thread::sleep(Duration::from_millis(10)); // 25 times the page's pace
                }
                polls
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let beside: Vec<Duration> = (0..200)
        .map(|_| {
            let started = Instant::now();
            ok(&a, "GET", &format!("/api/games/{short}"), None);
            started.elapsed()
        })
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let polls: u32 = pollers.into_iter().map(|p| p.join().unwrap()).sum();
    let beside = median_ms(beside);
    println!("the short game beside 8 clients polling the long one ({polls} polls): median {beside:.2} ms");
    assert!(beside < 10.0, "{beside:.2} ms");
}

#[test]
fn recorded_games_of_the_family_in_play_are_listed_first() {
    let (hunt, chess) = (study_games("quick"), study_games("imperial"));
    let server = serve("prefer", &["--games", hunt.to_str().unwrap(), "--games", chess.to_str().unwrap()]);
    let first_spec = |query: &str| {
        let listing = ok(&server.address, "GET", &format!("/api/records?limit=1{query}"), None);
        listing["records"][0]["spec"].as_str().unwrap().to_string()
    };
    // The files in their order, unless a ruleset of another family is in play.
    assert!(first_spec("").starts_with("sixteen-rebels"), "{}", first_spec(""));
    assert!(first_spec("&prefer=imperial-contest").starts_with("imperial-contest"));
    assert!(first_spec("&prefer=sixteen-rebels:first=rebels").starts_with("sixteen-rebels"));
    // A spec that does not build prefers nothing.
    assert!(first_spec("&prefer=no-such-game").starts_with("sixteen-rebels"));
}

/// Only the server's own page may drive it: a request from another site's page (its Origin), a body
/// that is not JSON (which a page may send cross-site without the browser asking), and a host name
/// that is not the server's (DNS rebinding) are refused before any work starts; the server's own
/// origin, by address or as localhost, is served.
#[test]
fn another_sites_page_cannot_drive_the_server() {
    let server = serve("own-page", &["--allow-host", "lab.example"]);
    let address = server.address.clone();
    let port = address.rsplit(':').next().unwrap().to_string();
    let send = |host: &str, origin: Option<&str>, content_type: &str| -> (u16, String) {
        let body = r#"{"spec":"sixteen-rebels","agent":"random"}"#;
        let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
        let head = format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\n{origin}Connection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(&address).unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, answer)
    };
    let json = "application/json";
    let (status, answer) = send(&address, Some("http://evil.example"), "text/plain");
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("another site"), "{answer}");
    let (status, answer) = send(&address, None, "text/plain");
    assert_eq!(status, 415, "{answer}");
    let (status, answer) = send(&format!("evil.example:{port}"), None, json);
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("--allow-host"), "{answer}");
    for host in [address.clone(), format!("localhost:{port}"), format!("lab.example:{port}")] {
        let (status, answer) = send(&host, Some(&format!("http://{host}")), json);
        assert_eq!(status, 200, "{host}: {answer}");
    }
}
