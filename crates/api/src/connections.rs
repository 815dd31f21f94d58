//! The accept loop: connections served by hyper with the limits that `axum::serve` does not
//! set. `axum::serve` gives hyper no timer, so a client that sends its headers a byte at a
//! time, or opens a connection and sends nothing, holds it for ever; and it accepts
//! connections without bound. Here hyper-util serves each connection with a header read
//! timeout and a bounded buffer, a semaphore caps the connections open at once (the one past
//! the cap is closed at once, and counted), and shutdown is graceful: no new connections,
//! and those open finish their requests in flight.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// What a connection may take.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections open at once; the next is closed on accept.
    pub max_connections: usize,
    /// How long a client may take to send a request's headers (and how long an idle
    /// keep-alive connection is kept).
    pub header_read_timeout: Duration,
    /// The largest request head read into memory; a larger one is answered 431.
    pub max_header_bytes: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: 64 * 1024,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets requests in flight finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    limits: ConnectionLimits,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(limits.max_header_bytes);
    builder.http2().timer(TokioTimer::new());
    let builder = Arc::new(builder);
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            metrics::counter!("marketlens_connections_refused_total").increment(1);
            drop(stream);
            continue;
        };
        stream.set_nodelay(true).ok();
        let service = TowerToHyperService::new(app.clone());
        let builder = builder.clone();
        let watcher = graceful.watcher();
        let first_byte_within = limits.header_read_timeout;
        tokio::spawn(async move {
            // hyper's header timeout starts once it reads a request; before that, the protocol
            // sniffing of the auto builder waits for a first byte without one.
            let mut first = [0u8; 1];
            if !matches!(
                tokio::time::timeout(first_byte_within, stream.peek(&mut first)).await,
                Ok(Ok(1..))
            ) {
                return;
            }
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            if let Err(error) = watcher.watch(connection.into_owned()).await {
                tracing::debug!(%error, "a connection ended with an error");
            }
            // Held until the connection ends.
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
