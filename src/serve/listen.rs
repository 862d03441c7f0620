//! `rebel-zero serve` running ([`run`]) and its connections: at most [`MAX_CONNECTIONS`] at once (one
//! more waits in the listen queue until one closes), each closed when a request's headers (or the next
//! request on a kept-alive connection) take longer than [`HEADER_TIMEOUT`], and a request body that
//! takes longer than [`api::BODY_TIMEOUT`] to arrive answered 408 (by the router). Half-open, idle and
//! slow clients so cannot hold the server's memory or its connection slots.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::{ServeConfig, Server, api};

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 256;
/// The longest a client may take to send a request's headers, or to start its next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` completes.
async fn serve(listener: TcpListener, app: Router, stop: impl Future<Output = ()>) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::pin!(stop);
    loop {
        let slot = tokio::select! {
            _ = &mut stop => return Ok(()),
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
        };
        let (stream, _) = tokio::select! {
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
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            // A client that goes away mid-request is its own business.
            let _ = connection.await;
            drop(slot);
        });
    }
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
