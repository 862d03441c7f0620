//! The page of `rebel-zero serve` in a real browser: Debian's chromium driven through chromedriver
//! (WebDriver, by fantoccini). A game of each board kind is started, a move clicked, the agent's reply
//! seen and undone; a recorded game is stepped through and analysed. Each board kind's screenshot is
//! saved (to `$REBEL_ZERO_SCREENSHOTS` when set: `docs/screenshots` regenerates the README's).
//!
//! Without chromium and chromedriver these tests fail, saying how to install them: a browser test that
//! passes without a browser would prove nothing.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use super::serve::{call, serve, study_games};

const INSTALL: &str = "the browser tests need Debian's chromium and chromium-driver: \
                       sudo apt-get install -y chromium chromium-driver (.ci/run installs them)";

/// A chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

fn start_driver() -> Driver {
    let driver = find_program("chromedriver").unwrap_or_else(|| panic!("no chromedriver on PATH: {INSTALL}"));
    assert!(find_program("chromium").is_some(), "no chromium on PATH: {INSTALL}");
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("chromedriver does not start ({e}): {INSTALL}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not open port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, url: format!("http://127.0.0.1:{port}") }
}

/// A headless chromium session, flags as a sandboxed CI machine needs them (no network beyond
/// loopback, no first-run or background traffic).
async fn browser(driver: &Driver, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,860",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let options = json!({ "args": args });
    let capabilities = json!({ "browserName": "chrome", "goog:chromeOptions": options });
    let serde_json::Value::Object(capabilities) = capabilities else { unreachable!() };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .unwrap_or_else(|e| panic!("chromium does not start through chromedriver ({e}): {INSTALL}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits (up to a minute) until the text of the element `css` satisfies `wanted`, and returns it.
async fn wait_text(client: &Client, css: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Ok(element) = client.find(Locator::Css(css)).await {
            last = element.text().await.unwrap_or_default();
            if wanted(&last) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("`{css}` still reads {last:?} after a minute");
}

async fn count(client: &Client, css: &str) -> usize {
    client.find_all(Locator::Css(css)).await.unwrap().len()
}

/// Waits until exactly `wanted` elements match `css`.
async fn wait_count(client: &Client, css: &str, wanted: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while count(client, css).await != wanted {
        assert!(Instant::now() < deadline, "`{css}` never matched {wanted} elements");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn click(client: &Client, css: &str) {
    let element = client.wait().at_most(Duration::from_secs(30)).for_element(Locator::Css(css)).await;
    element.unwrap_or_else(|e| panic!("no `{css}`: {e}")).click().await.unwrap();
}

fn screenshot_dir() -> PathBuf {
    let dir = std::env::var_os("REBEL_ZERO_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Saves a screenshot as `name`.png once the page says its board is drawn (`body[data-drawn]`), so
/// that no picture catches "Loading…" or an empty board.
async fn screenshot(client: &Client, name: &str) {
    let drawn = "body[data-drawn]:not([data-drawn='none'])";
    client.wait().at_most(Duration::from_secs(30)).for_element(Locator::Css(drawn)).await.unwrap();
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join(format!("{name}.png")), &png).unwrap();
}

/// The bounding box of the first element `css` matches: left, top, right, bottom, in CSS pixels.
async fn bounds(client: &Client, css: &str) -> [f64; 4] {
    let script = format!(
        "const r = document.querySelector(\"{css}\").getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom];"
    );
    let found = client.execute(&script, vec![]).await.unwrap();
    let numbers: Vec<f64> = found.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    numbers.try_into().unwrap()
}

/// Whether the element `css` is wholly in the window, without scrolling.
async fn in_view(client: &Client, css: &str) -> bool {
    let [left, top, right, bottom] = bounds(client, css).await;
    let size = client.execute("return [window.innerWidth, window.innerHeight];", vec![]).await.unwrap();
    let (width, height) = (size[0].as_f64().unwrap(), size[1].as_f64().unwrap());
    left >= 0.0 && top >= 0.0 && right <= width && bottom <= height && bottom > top
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
}

#[test]
fn a_game_of_each_board_kind_is_played_by_clicks_and_undone() {
    let driver = start_driver();
    let server = serve("browser-play", &["--think-seconds", "5"]);
    let profile = scratch("play");
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        client.goto(&format!("http://{}/", server.address)).await.unwrap();
        client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
        // The side that moves first is the person's by default; each first move is a plain one.
        // A rules file of the shipped configs/rules/ is listed beside the built-in rulesets.
        let rules_file = std::fs::canonicalize(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/rules/sixteen-rebels-no-retreat.toml"),
        )
        .unwrap();
        let described = format!("file:{}", rules_file.display());
        for (spec, from, to, kind) in [
            ("sixteen-rebels", "c3", "c4", "points"),
            ("imperial-contest", "c5", "c6", "squares"),
            ("chess", "e2", "e4", "squares"),
            (described.as_str(), "c3", "c4", "points"),
        ] {
            client.find(Locator::Css("#ruleset")).await.unwrap().select_by_value(spec).await.unwrap();
            let agent = client.find(Locator::Css("#agent")).await.unwrap();
            agent.clear().await.unwrap();
            agent.send_keys("mcts:sims=40").await.unwrap();
            click(&client, "#new-game").await;
            wait_text(&client, "#status", |s| s.starts_with("Your move")).await;
            let drawn = client.find(Locator::Css("#board")).await.unwrap().attr("data-kind").await.unwrap();
            assert_eq!(drawn.as_deref(), Some(kind), "{spec}");
            click(&client, &format!(".hit[data-label='{from}']")).await;
            assert!(
                count(&client, &format!(".target[data-target='{to}']")).await == 1,
                "{spec}: {to} is a target"
            );
            click(&client, &format!(".hit[data-label='{to}']")).await;
            // The agent replies (the progress bar shows while it thinks), and it is the person's turn.
            wait_count(&client, "#moves li", 2).await;
            wait_text(&client, "#status", |s| s.starts_with("Your move")).await;
            // Chess lists its moves in SAN (`e4`), the others in their notation (`c3-c4`).
            let first = client.find(Locator::Css("#moves li")).await.unwrap().text().await.unwrap();
            let written = if spec == "chess" { to.to_string() } else { format!("{from}-{to}") };
            assert!(first.starts_with(&written) || first == written, "{spec}: {first}");
            assert_eq!(count(&client, ".last").await, 2, "{spec}: the reply is marked");
            // Chess has its own pictures, at the README's window sizes (below).
            if spec != "chess" {
                let name = if spec.starts_with("file:") { "rules-file" } else { spec };
                screenshot(&client, name).await;
            }
            click(&client, "#undo").await;
            wait_count(&client, "#moves li", 0).await;
        }
        // Several turns share the two squares clicked: a squirm before e7e5 is chosen from a list.
        client.find(Locator::Css("#ruleset")).await.unwrap().select_by_value("squirm-chess").await.unwrap();
        client.find(Locator::Css("#side")).await.unwrap().select_by_value("black").await.unwrap();
        click(&client, "#new-game").await;
        wait_text(&client, "#status", |s| s.starts_with("Your move (black)")).await;
        click(&client, ".hit[data-label='e7']").await;
        click(&client, ".hit[data-label='e5']").await;
        let choices = client.find_all(Locator::Css("#choices button")).await.unwrap();
        assert!(choices.len() >= 2, "e7e5 with and without squirms");
        let mut squirm = None;
        for choice in choices {
            if choice.text().await.unwrap().starts_with("r:") {
                squirm = Some(choice);
            }
        }
        squirm.expect("a squirm among the choices").click().await.unwrap();
        wait_count(&client, "#moves li", 3).await;
        let played = client.find_all(Locator::Css("#moves li")).await.unwrap()[1].text().await.unwrap();
        assert!(played.starts_with("r:") && played.ends_with("/e5"), "{played}");
        client.close().await.unwrap();
    });
}

#[test]
fn a_recorded_game_is_stepped_through_and_analysed() {
    let driver = start_driver();
    let games = study_games("chess");
    let server = serve("browser-replay", &["--games", games.to_str().unwrap(), "--think-seconds", "3"]);
    let profile = scratch("replay");
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        client.goto(&format!("http://{}/", server.address)).await.unwrap();
        client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
        click(&client, "#tab-replay").await;
        // The result filter's sides arrive with the first listing of records.
        client.wait().for_element(Locator::Css("#filter-result option[value='white']")).await.unwrap();
        client.find(Locator::Css("#filter-result")).await.unwrap().select_by_value("white").await.unwrap();
        wait_text(&client, "#records li", |s| s.contains("white win")).await;
        click(&client, "#records li").await;
        wait_text(&client, "#ply", |s| s.starts_with("Move 0 of")).await;
        click(&client, "#next").await;
        click(&client, "#next").await;
        wait_text(&client, "#ply", |s| s.starts_with("Move 2 of")).await;
        wait_count(&client, "#moves li", 2).await;
        click(&client, "#last").await;
        wait_text(&client, "#status", |s| s.starts_with("Game over: white win")).await;
        click(&client, "#prev").await;
        click(&client, "#analyse").await;
        client.wait().at_most(Duration::from_secs(60)).for_element(Locator::Css("#top-moves")).await.unwrap();
        assert!(count(&client, "#top-moves tr").await >= 2, "the search's top moves are listed");
        screenshot(&client, "replay").await;
        client.close().await.unwrap();
    });
}

/// In a 400 px wide window the page has no horizontal scrollbar and the whole board is in view and
/// plays by clicks; a game the server closed to make room (33 games opened) says so on the page.
#[test]
fn a_narrow_window_shows_the_whole_board_and_a_closed_game_says_why() {
    let driver = start_driver();
    let server = serve("browser-narrow", &["--think-seconds", "2"]);
    let profile = scratch("narrow");
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        client.set_window_size(400, 800).await.unwrap();
        client.goto(&format!("http://{}/", server.address)).await.unwrap();
        client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
        let agent = client.find(Locator::Css("#agent")).await.unwrap();
        agent.clear().await.unwrap();
        agent.send_keys("random").await.unwrap();
        click(&client, "#new-game").await;
        wait_text(&client, "#status", |s| s.starts_with("Your move")).await;
        let fits = client
            .execute(
                "const r = document.getElementById('board').getBoundingClientRect();
                 const page = document.documentElement;
                 return [page.scrollWidth, page.clientWidth, r.left, r.right, r.width, r.height];",
                vec![],
            )
            .await
            .unwrap();
        let numbers: Vec<f64> = fits.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let [scroll_width, client_width, left, right, width, height] = numbers[..] else { unreachable!() };
        assert!(scroll_width <= client_width, "a horizontal scrollbar: {numbers:?}");
        assert!(left >= 0.0 && right <= client_width && width > 300.0, "the board is cut: {numbers:?}");
        assert!((width - height).abs() < 1.0, "the board is not square: {numbers:?}");
        click(&client, ".hit[data-label='c3']").await;
        click(&client, ".hit[data-label='c4']").await;
        wait_count(&client, "#moves li", 2).await;
        screenshot(&client, "narrow").await;
        // Newer games (another tab, say): with the server full the page warns, and once its game is
        // the least recently used of 32 newer ones it is closed.
        let open_game = || {
            let body = json!({"spec": "sixteen-rebels", "agent": "random", "side": "rebels"});
            let (status, answer) = call(&server.address, "POST", "/api/games", Some(body));
            assert_eq!(status, 200, "{answer}");
        };
        (0..31).for_each(|_| open_game());
        click(&client, "#undo").await;
        let note = wait_text(&client, "#agent-note", |s| s.contains("server is full")).await;
        assert!(note.contains("32 games open"), "{note}");
        (0..32).for_each(|_| open_game());
        click(&client, ".hit[data-label='c3']").await;
        click(&client, ".hit[data-label='c4']").await;
        let shown = wait_text(&client, "#error", |s| !s.is_empty()).await;
        assert!(shown.contains("closed to make room") && shown.contains("start a new one"), "{shown}");
        client.close().await.unwrap();
    });
}

/// The board shows what the page is about: the Replay tab with no game chosen shows none (not the
/// game in play), a ruleset chosen shows its start, with the pieces counted and the shaded points
/// explained; at 1200 × 760 the analysis and the replay controls are in view without scrolling.
#[test]
fn the_board_follows_the_tab_and_the_ruleset() {
    let driver = start_driver();
    let games = study_games("quick").display().to_string();
    let server = serve("browser-follow", &["--think-seconds", "2", "--games", &games]);
    let profile = scratch("follow");
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        client.set_window_size(1200, 760).await.unwrap();
        client.goto(&format!("http://{}/", server.address)).await.unwrap();
        client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
        let agent = client.find(Locator::Css("#agent")).await.unwrap();
        agent.send_keys("random").await.unwrap();
        click(&client, "#new-game").await;
        wait_text(&client, "#status", |s| s.starts_with("Your move")).await;
        assert_eq!(wait_text(&client, "#counts", |s| !s.is_empty()).await, "general 1 · rebels 16");
        let legend = wait_text(&client, "#legend", |s| !s.is_empty()).await;
        assert!(legend.contains("privy") && legend.contains("only the General"), "{legend}");
        assert!(in_view(&client, "#analyse").await, "the analysis button is below the fold");
        // Another ruleset: its start replaces the game's board, and nothing of the game is playable.
        client.find(Locator::Css("#ruleset")).await.unwrap().select_by_value("chess").await.unwrap();
        wait_text(&client, "#status", |s| s.starts_with("Press New game to play chess")).await;
        let kind = client.find(Locator::Css("#board")).await.unwrap().attr("data-kind").await.unwrap();
        assert_eq!(kind.as_deref(), Some("squares"));
        assert_eq!(wait_text(&client, "#counts", |s| s.starts_with("white")).await, "white 16 · black 16");
        // The Replay tab with no game chosen shows no board; a game chosen shows its own.
        click(&client, "#tab-replay").await;
        wait_text(&client, "#status", |s| s == "Choose a recorded game.").await;
        assert_eq!(count(&client, "#board .piece").await, 0);
        assert!(in_view(&client, "#next").await, "the replay controls are below the fold");
        wait_count(&client, "#records li:first-child", 1).await;
        click(&client, "#records li").await;
        wait_text(&client, "#ply", |s| s.starts_with("Move 0 of")).await;
        assert!(count(&client, "#board .piece").await > 0);
        click(&client, "#next").await;
        wait_text(&client, "#ply", |s| s.starts_with("Move 1 of")).await;
        client.close().await.unwrap();
    });
}

/// Chess is drawn as chess, in a wide window and a narrow one: 32 pieces drawn as shapes (no
/// lettered discs, no font needed), the board and the panel centred as a pair, and the game's
/// controls in view without scrolling. The pictures are the README's.
#[test]
fn the_chess_board_shows_its_pieces_and_controls_wide_and_narrow() {
    let driver = start_driver();
    let server = serve("browser-chess", &["--think-seconds", "2"]);
    let profile = scratch("chess");
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        for (width, height, name) in [(1280, 800, "chess"), (400, 800, "chess-narrow")] {
            client.set_window_size(width, height).await.unwrap();
            client.goto(&format!("http://{}/", server.address)).await.unwrap();
            client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
            client.find(Locator::Css("#ruleset")).await.unwrap().select_by_value("chess").await.unwrap();
            wait_text(&client, "#status", |s| s.starts_with("Press New game to play chess")).await;
            let agent = client.find(Locator::Css("#agent")).await.unwrap();
            agent.clear().await.unwrap();
            agent.send_keys("random").await.unwrap();
            click(&client, "#new-game").await;
            wait_text(&client, "#status", |s| s.starts_with("Your move")).await;
            // What a visitor sees on arrival: the page at its top.
            client.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            assert_eq!(count(&client, "#board .piece.chess").await, 32, "{name}: pieces drawn as shapes");
            assert_eq!(count(&client, "#board .piece text").await, 0, "{name}: a piece drawn as a letter");
            let kings = count(&client, "#board .piece[data-piece='K'] path").await;
            assert_eq!(kings, 2 * 4, "{name}: each king is drawn from its four parts");
            for control in ["#board", "#status", "#new-game", "#undo", "#resign"] {
                assert!(in_view(&client, control).await, "{name}: {control} is out of view");
            }
            // Centred: as much room left of the board as right of the panel (or of the board, when
            // the panel wraps below it), within the page's width (the window's less a scrollbar).
            let page = client.execute("return document.documentElement.clientWidth;", vec![]).await.unwrap();
            let window = page.as_f64().unwrap();
            let [board_left, _, board_right, _] = bounds(&client, "#board-area").await;
            let [_, panel_top, panel_right, _] = bounds(&client, "#panel").await;
            let [_, _, _, board_bottom] = bounds(&client, "#board-area").await;
            let right = if panel_top >= board_bottom { board_right } else { panel_right };
            assert!(
                (board_left - (window - right)).abs() <= 2.0,
                "{name}: off centre: {board_left} px left, {} px right",
                window - right
            );
            screenshot(&client, name).await;
        }
        client.close().await.unwrap();
    });
}

/// On every board of points, no cell label meets another, in a wide window and a narrow one.
#[test]
fn no_two_point_labels_overlap_on_any_board() {
    let driver = start_driver();
    let server = serve("browser-labels", &["--think-seconds", "2"]);
    let profile = scratch("labels");
    let overlaps = "const boxes = [...document.querySelectorAll('#board .cell-label')] \
                        .map((e) => e.getBoundingClientRect()); \
                    const found = []; \
                    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => { \
                        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) \
                            found.push(`${a.left},${a.top} and ${b.left},${b.top}`); })); \
                    return [boxes.length, found];";
    runtime().block_on(async {
        let client = browser(&driver, &profile).await;
        let mut boards = 0;
        for (width, height) in [(1280, 800), (400, 800)] {
            client.set_window_size(width, height).await.unwrap();
            client.goto(&format!("http://{}/", server.address)).await.unwrap();
            client.wait().for_element(Locator::Css("body[data-ready]")).await.unwrap();
            let rulesets = client.find_all(Locator::Css("#ruleset option")).await.unwrap();
            let mut names = Vec::new();
            for option in rulesets {
                names.push(option.attr("value").await.unwrap().unwrap());
            }
            for name in names {
                client.find(Locator::Css("#ruleset")).await.unwrap().select_by_value(&name).await.unwrap();
                let drawn = format!("body[data-drawn='{name} 0']");
                client
                    .wait()
                    .at_most(Duration::from_secs(30))
                    .for_element(Locator::Css(&drawn))
                    .await
                    .unwrap();
                let kind =
                    client.find(Locator::Css("#board")).await.unwrap().attr("data-kind").await.unwrap();
                if kind.as_deref() != Some("points") {
                    continue;
                }
                let found = client.execute(overlaps, vec![]).await.unwrap();
                let labels = found[0].as_u64().unwrap();
                assert!(labels >= 20, "{name} at {width} px: only {labels} labels");
                assert_eq!(
                    found[1].as_array().unwrap().len(),
                    0,
                    "{name} at {width} px: labels meet: {found}"
                );
                boards += 1;
            }
        }
        assert!(boards >= 6, "only {boards} boards of points were looked at");
        client.close().await.unwrap();
    });
}
