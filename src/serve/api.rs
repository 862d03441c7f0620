//! The HTTP routes. Every request body is JSON, read and checked here; every refusal is a JSON
//! `{"error": …}` with the message the CLI gives for the same mistake. Only the server's own page may
//! drive it: requests from another site's page, or through a host name that is not the server's, are
//! refused ([`own_page_only`]).
//!
//! | route | does |
//! | --- | --- |
//! | `GET /` `/app.js` `/style.css` | the page |
//! | `GET /api/rulesets` | every ruleset: options, sides, the strongest shipped agent |
//! | `POST /api/position` | `{spec, start?, moves}`: the position after the moves |
//! | `POST /api/analyse` | `{spec, start?, moves, agent?, simulations?}`: network, search, table |
//! | `POST /api/games` | `{spec, start?, moves?, side?, agent?, seed?}`: opens a game against an agent, from a line |
//! | `GET`/`DELETE /api/games/{id}` | the game; closes it |
//! | `POST /api/games/{id}/move` `/undo` `/resign` | `{move}`; takes back; resigns |
//! | `GET /api/records?file=&cell=&result=&offset=&limit=` | the games files' games, filtered |
//! | `GET /api/records/{id}` | one recorded game |
//!
//! A game's answers take `?since=N`: its moves before ply N, which the page has, are left out
//! (`moves_from` says where the moves sent begin), so an answer on a long game is as short as one on
//! a short game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::games::{GameView, NewGame};
use super::position::{Analysis, PositionView, analyse as analyse_position, replay, view};
use super::{ApiError, BadRequest, MAX_REQUEST_BYTES, Server};
use crate::agents::{AgentSpec, Watch};
use crate::game::registry::all_rulesets;
use crate::game::{AnyGame, Game};
use crate::with_game;

/// The most simulations an analysis may ask for (its time limit applies as well).
pub const MAX_ANALYSIS_SIMULATIONS: u32 = 100_000;
/// The most records one listing returns.
const MAX_LISTED: usize = 500;

pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", include_str!("assets/index.html")) }))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", include_str!("assets/app.js")) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", include_str!("assets/style.css")) }),
        )
        .route("/api/rulesets", get(rulesets))
        .route("/api/position", post(position))
        .route("/api/analyse", post(analyse))
        .route("/api/games", post(open_game))
        .route("/api/games/{id}", get(get_game).delete(close_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/records", get(list_records))
        .route("/api/records/{id}", get(get_record))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(axum::middleware::from_fn(body_within_deadline))
        .layer(axum::middleware::from_fn_with_state(server.clone(), own_page_only))
        .layer(axum::middleware::map_response(errors_as_json))
        .with_state(server)
}

/// Refuses what another web site's page could make a browser send: a request naming a host other
/// than an IP address, `localhost` or a name given with `--allow-host` (a name that an attacker's
/// DNS points at this machine: DNS rebinding), one whose `Origin` is not the server's own (a
/// cross-site request), and a body on the API that is not `application/json` (which a page may send
/// cross-site without the browser asking first). Jupyter's server makes the same checks.
async fn own_page_only(
    State(server): State<Arc<Server>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let headers = request.headers();
    let text =
        |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}").to_string());
    let refuse = |status: StatusCode, message: String| ApiError { status, message }.into_response();
    let Some(host) = text(header::HOST) else {
        return refuse(StatusCode::BAD_REQUEST, "the request names no host (no Host header)".to_string());
    };
    if !host_allowed(&host, &server.config.allowed_hosts) {
        return refuse(
            StatusCode::FORBIDDEN,
            format!(
                "host `{host}` is not this server's: name it by its address or localhost, or start the server with --allow-host"
            ),
        );
    }
    if let Some(origin) = text(header::ORIGIN) {
        let own = [format!("http://{host}"), format!("https://{host}")];
        if !own.iter().any(|o| o.eq_ignore_ascii_case(&origin)) {
            return refuse(
                StatusCode::FORBIDDEN,
                format!(
                    "a request from another site's page (Origin `{origin}`) is refused: only the server's own page may use the API"
                ),
            );
        }
    }
    // A bodiless POST (undo, resign) carries nothing to read; a cross-site one is refused by its Origin.
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || text(header::CONTENT_LENGTH).is_some_and(|n| n.trim() != "0");
    let json =
        text(header::CONTENT_TYPE).is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    if has_body && request.uri().path().starts_with("/api/") && !json {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the API reads JSON bodies: send Content-Type: application/json".to_string(),
        );
    }
    next.run(request).await
}

/// Whether a `Host` header names this server: an IP address, `localhost`, or an allowed name (any
/// port).
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host
            .rsplit_once(':')
            .map_or(host, |(name, port)| if port.chars().all(|c| c.is_ascii_digit()) { name } else { host }),
    };
    name.parse::<std::net::IpAddr>().is_ok()
        || name.eq_ignore_ascii_case("localhost")
        || allowed.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// The longest a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Reads the request body within [`BODY_TIMEOUT`] (408 past it, 413 past [`MAX_REQUEST_BYTES`]),
/// then hands the request on with its body whole.
async fn body_within_deadline(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_REQUEST_BYTES)).await
    {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let message = format!("request body: larger than {MAX_REQUEST_BYTES} bytes, or cut short");
            return ApiError { status: StatusCode::PAYLOAD_TOO_LARGE, message }.into_response();
        }
        Err(_) => {
            let message = format!("request body: not received within {} s", BODY_TIMEOUT.as_secs());
            return ApiError { status: StatusCode::REQUEST_TIMEOUT, message }.into_response();
        }
    };
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// Every error answers `{"error": …}`, also those axum writes itself in plain text or with no body (a
/// method a route does not take: 405; a path segment that is not text: 400).
async fn errors_as_json(response: axum::response::Response) -> axum::response::Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_REQUEST_BYTES).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let message =
        if text.is_empty() { status.canonical_reason().unwrap_or("error").to_lowercase() } else { text };
    let mut answer = ApiError { status, message }.into_response();
    if let Some(allowed) = parts.headers.get(header::ALLOW) {
        answer.headers_mut().insert(header::ALLOW, allowed.clone());
    }
    answer
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
}

/// A request body as received: too large or unreadable bodies are refused as JSON like the rest.
type Body = Result<Bytes, BytesRejection>;

/// The request body as `T`, or a refusal saying what is wrong with it.
fn parse<T: DeserializeOwned>(body: Body) -> Result<T, ApiError> {
    let body = body
        .map_err(|e| ApiError { status: e.status(), message: format!("request body: {}", e.body_text()) })?;
    serde_json::from_slice(&body).map_err(|e| BadRequest(format!("request body: {e}")).into())
}

fn game_id(text: &str) -> Result<u64, ApiError> {
    text.parse().map_err(|_| ApiError::not_found(format!("no open game {text}")))
}

async fn rulesets(State(server): State<Arc<Server>>) -> Json<Value> {
    let list = server.rulesets.get_or_init(|| {
        let rulesets: Vec<Value> = all_rulesets()
            .map(|info| {
                let game = AnyGame::from_spec(info.name).expect("every listed ruleset builds");
                let sides = with_game!(&game, |g| g.side_names());
                let options: Vec<Value> = info
                    .options
                    .iter()
                    .filter(|o| !info.preset.iter().any(|(key, _)| *key == o.key))
                    .map(option_json)
                    .collect();
                json!({
                    "name": info.name,
                    "summary": info.summary,
                    "sides": sides,
                    "options": options,
                    "agent": AgentSpec::strongest_shipped(&game).to_string(),
                })
            })
            .collect();
        Value::Array(rulesets.into_iter().chain(described_rulesets(&server)).collect())
    });
    Json(list.clone())
}

fn option_json(o: &crate::game::spec::OptionSpec) -> Value {
    json!({ "key": o.key, "values": o.values.to_string(), "default": o.default, "meaning": o.meaning })
}

/// The rules files (`*.toml`) in the folders the server may read (the shipped configs/rules/ among
/// them), as `file:` rulesets with their options; a file that does not load is left out.
fn described_rulesets(server: &Server) -> Vec<Value> {
    let mut files: Vec<std::path::PathBuf> = server
        .readable
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
        .filter(|path| path.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let path_text = path.display().to_string();
            let described = crate::game::hunt::described::load(&path_text).ok()?;
            let spec = format!("file:{path_text}");
            let game = crate::game::AnyGame::from_spec(&spec).ok()?;
            let options: Vec<Value> = described.options.iter().map(option_json).collect();
            let file = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
            Some(json!({
                "name": spec,
                "label": format!("file:{file}"),
                "summary": format!("{} (rules file {})", described.summary, path.display()),
                "sides": with_game!(&game, |g| g.side_names()),
                "options": options,
                "agent": AgentSpec::strongest_shipped(&game).to_string(),
            }))
        })
        .collect()
}

/// A position: a ruleset, an optional start, and the moves played from it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    spec: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

async fn position(State(server): State<Arc<Server>>, body: Body) -> Result<Json<PositionView>, ApiError> {
    let request: PositionRequest = parse(body)?;
    let game = server.ruleset(&request.spec)?;
    let line = with_game!(&game, |g| replay(g, request.start.as_deref(), &request.moves).map(|l| view(&l)))?;
    Ok(Json(line))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    spec: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    agent: Option<String>,
    simulations: Option<u32>,
}

async fn analyse(State(server): State<Arc<Server>>, body: Body) -> Result<Json<Analysis>, ApiError> {
    let request: AnalyseRequest = parse(body)?;
    let game = server.ruleset(&request.spec)?;
    with_game!(&game, |g| replay(g, request.start.as_deref(), &request.moves).map(|_| ()))?;
    let agent = match &request.agent {
        Some(text) => server.checked_agent(text)?,
        None => AgentSpec::strongest_searcher(&game),
    };
    let agent = match request.simulations {
        Some(n) if n == 0 || n > MAX_ANALYSIS_SIMULATIONS => {
            return Err(BadRequest(format!("simulations must be 1..{MAX_ANALYSIS_SIMULATIONS}")).into());
        }
        Some(n) => agent.with_simulations(n),
        None => agent,
    };
    let limit = server.config.think_limit;
    let permit = tokio::time::timeout(limit, server.searches.acquire())
        .await
        .map_err(|_| ApiError::busy("every core is searching; try again soon"))?;
    let _permit = permit.map_err(|_| ApiError::busy("the server is shutting down"))?;
    let watch = Watch::until(Instant::now() + limit);
    let analysis = tokio::task::spawn_blocking(move || {
        analyse_position(&game, request.start.as_deref(), &request.moves, &agent, &watch)
    })
    .await
    .map_err(|e| BadRequest(format!("the analysis failed: {e}")))??;
    Ok(Json(analysis))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenRequest {
    spec: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    side: Option<String>,
    agent: Option<String>,
    seed: Option<u64>,
}

async fn open_game(State(server): State<Arc<Server>>, body: Body) -> Result<Json<GameView>, ApiError> {
    let request: OpenRequest = parse(body)?;
    // Reading a rules file and building the agent (its network or table) read files: off the async
    // threads.
    let server = server.clone();
    let opened = tokio::task::spawn_blocking(move || {
        let game = server.ruleset(&request.spec)?;
        let agent = request.agent.as_deref().map(|text| server.checked_agent(text)).transpose()?;
        let OpenRequest { start, moves, side, seed, .. } = request;
        server.games.open(NewGame { game, start, moves, side, agent, seed })
    });
    let view = opened.await.map_err(|e| BadRequest(format!("opening the game failed: {e}")))??;
    Ok(Json(view))
}

/// `?since=N` on a game's routes: the ply from which its answer lists the moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Since {
    #[serde(default)]
    since: usize,
}

type SinceQuery = Result<Query<Since>, axum::extract::rejection::QueryRejection>;

fn since(query: SinceQuery) -> Result<usize, ApiError> {
    let Query(Since { since }) = query.map_err(|e| BadRequest(format!("query: {e}")))?;
    Ok(since)
}

async fn get_game(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    query: SinceQuery,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(server.games.get(game_id(&id)?, since(query)?)?))
}

async fn close_game(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    server.games.close(game_id(&id)?)?;
    Ok(Json(json!({ "closed": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

async fn play_move(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    query: SinceQuery,
    body: Body,
) -> Result<Json<GameView>, ApiError> {
    let request: MoveRequest = parse(body)?;
    Ok(Json(server.games.play(game_id(&id)?, &request.text, since(query)?)?))
}

async fn undo(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    query: SinceQuery,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(server.games.undo(game_id(&id)?, since(query)?)?))
}

async fn resign(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    query: SinceQuery,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(server.games.resign(game_id(&id)?, since(query)?)?))
}

#[derive(Deserialize)]
struct RecordFilter {
    /// The games file, by its place in the server's list.
    file: Option<usize>,
    cell: Option<String>,
    /// A side's name (its wins) or `draw`.
    result: Option<String>,
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
    /// A ruleset spec: the games of its family (hunt, imperial or chess) are listed first.
    prefer: Option<String>,
}

/// The family of a ruleset spec (0 hunt, 1 imperial, 2 chess); `None` for a spec that does not build.
fn family(spec: &str) -> Option<u8> {
    AnyGame::from_spec(spec).ok().map(|game| match game {
        AnyGame::Hunt(_) => 0,
        AnyGame::Imperial(_) => 1,
        AnyGame::Chess(_) => 2,
    })
}

async fn list_records(
    State(server): State<Arc<Server>>,
    filter: Result<Query<RecordFilter>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(filter) = filter.map_err(|e| BadRequest(format!("query: {e}")))?;
    let limit = filter.limit.unwrap_or(100).min(MAX_LISTED);
    let files = &server.config.games;
    let in_file = |path: &std::path::PathBuf| filter.file.is_none_or(|f| files.get(f) == Some(path));
    let mut groups: Vec<String> =
        server.records.iter().filter(|(path, _)| in_file(path)).map(|(_, r)| r.record.group()).collect();
    groups.sort();
    groups.dedup();
    let wanted = server.records.iter().enumerate().filter(|(_, (path, r))| {
        let record = &r.record;
        in_file(path)
            && filter.cell.as_ref().is_none_or(|cell| &record.group() == cell)
            && filter.result.as_deref().is_none_or(|result| match result {
                "draw" => record.winner.is_none(),
                side => record.winner.as_deref() == Some(side),
            })
    });
    let mut matching: Vec<_> = wanted.collect();
    if let Some(preferred) = filter.prefer.as_deref().map(family) {
        let mut families = std::collections::HashMap::new();
        let mut of = |spec: &str| *families.entry(spec.to_string()).or_insert_with(|| family(spec));
        // A stable sort: within each part the files' order stays.
        matching.sort_by_cached_key(|(_, (_, r))| of(&r.record.spec) != preferred);
    }
    let listed: Vec<Value> = matching
        .iter()
        .skip(filter.offset)
        .take(limit)
        .map(|(id, (path, r))| {
            json!({
                "id": id,
                "file": path.display().to_string(),
                "game": r.record.game,
                "group": r.record.group(),
                "spec": r.record.spec,
                "winner": r.record.winner,
                "reason": r.record.reason,
                "plies": r.record.plies,
            })
        })
        .collect();
    let files: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    Ok(Json(json!({ "total": matching.len(), "files": files, "groups": groups, "records": listed })))
}

async fn get_record(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let found = id.parse::<usize>().ok().and_then(|i| server.records.get(i));
    let (path, record) = found.ok_or_else(|| ApiError::not_found(format!("no recorded game {id}")))?;
    let mut value = serde_json::to_value(&record.record).map_err(|e| BadRequest(e.to_string()))?;
    value["file"] = json!(path.display().to_string());
    value["group"] = json!(record.record.group());
    Ok(Json(value))
}
