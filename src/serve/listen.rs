//! `rebel-zero serve` running ([`run`]) and its connections. At most [`MAX_CONNECTIONS`] are open at
//! once (one more waits in the listen queue until one closes). A connection is *idle* while it waits
//! for a request's head: kept alive between requests, just opened, or slow to send one. Idle
//! connections may hold at most [`MAX_IDLE`] of the slots, and those from one client address at most
//! [`MAX_IDLE_PER_ADDRESS`]; past either, the longest idle is let go to make room, so a real request
//! always finds a slot however many idle or slow clients there are. An idle connection is also closed
//! when a request's head (or the next request on a kept-alive connection) takes longer than
//! [`HEADER_TIMEOUT`], and a request body that takes longer than [`api::BODY_TIMEOUT`] to arrive is
//! answered 408 (by the router).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore};

use super::{ServeConfig, Server, api};

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// Idle connections kept at once: half the slots, the other half kept for requests being served.
pub const MAX_IDLE: usize = MAX_CONNECTIONS / 2;
/// Idle connections kept for one client address (a browser opens six or so).
pub const MAX_IDLE_PER_ADDRESS: usize = MAX_IDLE / 2;
/// The longest a client may take to send a request's headers, or to start its next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The open connections, and which of them are idle since when.
#[derive(Default)]
struct Connections {
    open: Mutex<HashMap<u64, Tracked>>,
}

struct Tracked {
    address: IpAddr,
    /// Since when it waits for a request; `None` while one is served.
    idle_since: Option<Instant>,
    /// Told when the connection is let go to make room.
    let_go: Arc<Notify>,
}

impl Connections {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Tracked>> {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a new connection (idle until its first request), letting go of the longest idle one of
    /// its address, or of all, when it takes one idle slot too many.
    fn opened(&self, id: u64, address: IpAddr) -> Arc<Notify> {
        let let_go = Arc::new(Notify::new());
        let mut open = self.lock();
        open.insert(id, Tracked { address, idle_since: Some(Instant::now()), let_go: let_go.clone() });
        let idle_from = |open: &HashMap<u64, Tracked>, only: Option<IpAddr>| {
            let idle = open.iter().filter(|(_, c)| only.is_none_or(|a| c.address == a));
            let idle: Vec<(u64, Instant)> =
                idle.filter_map(|(&id, c)| c.idle_since.map(|since| (id, since))).collect();
            (idle.len(), idle.into_iter().min_by_key(|&(id, since)| (since, id)).map(|(id, _)| id))
        };
        for only in [Some(address), None] {
            let cap = if only.is_some() { MAX_IDLE_PER_ADDRESS } else { MAX_IDLE };
            if let (count, Some(longest)) = idle_from(&open, only)
                && count > cap
                && let Some(gone) = open.remove(&longest)
            {
                gone.let_go.notify_one();
            }
        }
        let_go
    }

    /// A request arrived on connection `id`: it is busy until the guard is dropped.
    fn serving(self: &Arc<Self>, id: u64) -> Serving {
        if let Some(connection) = self.lock().get_mut(&id) {
            connection.idle_since = None;
        }
        Serving { connections: self.clone(), id }
    }

    fn closed(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// A request being served; its connection is idle again once this is dropped.
struct Serving {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(connection) = self.connections.lock().get_mut(&self.id) {
            connection.idle_since = Some(Instant::now());
        }
    }
}

/// Serves `app` on `listener` until `stop` completes.
async fn serve(listener: TcpListener, app: Router, stop: impl Future<Output = ()>) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let connections = Arc::new(Connections::default());
    tokio::pin!(stop);
    for id in 0u64.. {
        let slot = tokio::select! {
            _ = &mut stop => return Ok(()),
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
        };
        let (stream, peer) = tokio::select! {
            _ = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let let_go = connections.opened(id, peer.ip());
        let router = TowerToHyperService::new(app.clone());
        let tracker = connections.clone();
        let service = hyper::service::service_fn(move |request| {
            let serving = tracker.serving(id);
            let answer = router.call(request);
            async move {
                let answer = answer.await;
                drop(serving);
                answer
            }
        });
        let connections = connections.clone();
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            // A client that goes away mid-request is its own business; one let go to make room is
            // idle, so dropping its connection drops no request.
            tokio::select! {
                _ = connection => {}
                _ = let_go.notified() => {}
            }
            connections.closed(id);
            drop(slot);
        });
    }
    Ok(())
}

/// Serves until Ctrl-C, printing the address it listens on first (`--port 0` picks a free port).
pub fn run(config: ServeConfig) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let server = Arc::new(Server::new(config)?);
    runtime.block_on(async {
        let address = server.config.address;
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {address}: {e}"))?;
        let bound = listener.local_addr()?;
        if !bound.ip().is_loopback() {
            eprintln!("warning: listening on {bound}: anyone who can reach this address can use the server");
        }
        println!("rebel-zero serve: http://{bound}/ (Ctrl-C to stop)");
        use std::io::Write;
        std::io::stdout().flush()?;
        let app = api::router(server.clone());
        serve(listener, app, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        server.games.stop_all();
        anyhow::Ok(())
    })?;
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}
