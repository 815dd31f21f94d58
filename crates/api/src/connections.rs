//! The accept loop: connections served by hyper with the limits that `axum::serve` does not
//! set. `axum::serve` gives hyper no timer, so a client that sends its headers a byte at a
//! time, or opens a connection and sends nothing, holds it for ever; and it accepts
//! connections without bound. Here hyper serves each connection with a header read timeout
//! (which also bounds how long an idle keep-alive connection is kept) and a bounded buffer, a
//! semaphore caps the connections open at once (the one past the cap is closed at once, and
//! counted), a write the client does not read within a timeout closes the connection, and
//! shutdown is graceful: no new connections, and those open finish their requests in flight,
//! within a grace period.
//!
//! Only HTTP/1 is spoken. hyper's HTTP/2 server has no idle or header timeout: a client that
//! sends the HTTP/2 preface and then nothing (answering pings) held its connection for ever,
//! and a few thousand of them filled the cap. A JSON API loses nothing by it (TLS and HTTP/2
//! to clients belong to the proxy in front); a client speaking HTTP/2 in clear text gets
//! `505 HTTP Version Not Supported` and the connection is closed.
//!
//! Each request carries its peer's address as axum's `ConnectInfo`, for the limits on failed
//! authentication.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

/// What a connection may take.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// How long a write to the client may wait for the client to read: a client that stops
    /// reading (pipelining requests for large answers it never takes) is cut off, rather than
    /// holding its connection, and shutdown, for ever.
    pub write_timeout: Duration,
    /// How long shutdown waits for the connections still open; those left are dropped.
    pub shutdown_grace: Duration,
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
            write_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(30),
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
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(limits.max_header_bytes);
    let builder = Arc::new(builder);
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let (stop, stopped) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
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
        let service = TowerToHyperService::new(app.clone().map_request(move |mut request: Request<_>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        }));
        let builder = builder.clone();
        let mut stopped = stopped.clone();
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.write_timeout));
        tokio::spawn(async move {
            let connection = builder
                .serve_connection(TokioIo::new(Box::pin(stream)), service)
                .with_upgrades();
            tokio::pin!(connection);
            // The guard `wait_for` returns is not `Send`: dropped inside.
            let stop = async move { stopped.wait_for(|stop| *stop).await.is_ok() };
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                _ = stop => {
                    // Finish the request in flight, if any, then close.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = ended {
                tracing::debug!(%error, "a connection ended with an error");
            }
            // Held until the connection ends.
            drop(permit);
        });
    }
    drop(listener);
    stop.send_replace(true);
    // Every connection holds a permit until it ends: all of them back means all have ended.
    // Those still open after the grace period are dropped with the runtime.
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    if tokio::time::timeout(limits.shutdown_grace, open.acquire_many(all))
        .await
        .is_err()
    {
        tracing::warn!("connections still open after the shutdown grace period are dropped");
    }
    Ok(())
}

/// The peer's address, when the request came through [`serve`] (tests that call the router
/// directly have none).
pub fn peer_of(request: &Request) -> Option<SocketAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| *address)
}
