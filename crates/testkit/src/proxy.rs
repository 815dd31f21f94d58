//! A TCP proxy of the tests' own, put between a server under test and its PostgreSQL or Redis,
//! to inject the faults operators meet without touching the machine's shared servers: the
//! server unreachable (nothing gets through, connections stay open), gone (every connection
//! reset, new ones refused), answering slowly (every reply delayed), or one transaction's
//! `COMMIT` let through and its connection cut before the answer comes back.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with the traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Passes everything on at once.
    None,
    /// Resets every connection and refuses new ones, as a server that died or a network
    /// partition that answers with resets.
    Down,
    /// Lets nothing through either way, as a network that drops every packet: connections
    /// stay open (new ones too) and what is sent is held, to arrive once the fault heals.
    Blackhole,
    /// Holds every chunk the server sends back this long before passing it on.
    SlowReplies(Duration),
    /// Passes everything on until a connection that has written the ledger (sent
    /// [`LEDGER_WRITE`]: a batch of charges) sends `COMMIT`; passes that `COMMIT` on, then
    /// resets the connection before the server's answer can come back, so that the client
    /// cannot tell whether its transaction committed (it did). Once: the fault then becomes
    /// [`Fault::Down`] if `then_down`, else [`Fault::None`]. The `COMMIT` is held `held` first,
    /// the transaction open meanwhile, for a test to change the server around it.
    CutNextLedgerCommit { then_down: bool, held: Duration },
}

/// What a connection sends that marks it as one charging calls (PostgreSQL's wire protocol
/// carries statements as text).
pub const LEDGER_WRITE: &[u8] = b"INSERT INTO ledger";

/// A running proxy; stops when dropped.
pub struct FaultProxy {
    address: SocketAddr,
    fault: Arc<watch::Sender<Fault>>,
    commits_cut: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// A proxy on 127.0.0.1 in front of `upstream` (`host:port`), passing everything on.
    pub async fn start(upstream: String) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port for the proxy");
        let address = listener.local_addr().expect("the proxy's address");
        let (fault, _) = watch::channel(Fault::None);
        let fault = Arc::new(fault);
        let commits_cut = Arc::new(AtomicUsize::new(0));
        let task = tokio::spawn(accept(listener, upstream, fault.clone(), commits_cut.clone()));
        FaultProxy {
            address,
            fault,
            commits_cut,
            task,
        }
    }

    /// A proxy in front of the server of `url` (default port `default_port`), and the same URL
    /// pointing at the proxy instead.
    pub async fn in_front_of(url: &str, default_port: u16) -> (FaultProxy, String) {
        let mut parsed = url::Url::parse(url).expect("a server URL");
        let host = parsed.host_str().expect("a host in the URL").to_owned();
        let port = parsed.port().unwrap_or(default_port);
        let proxy = FaultProxy::start(format!("{host}:{port}")).await;
        parsed.set_host(Some("127.0.0.1")).expect("a URL with a host");
        parsed.set_port(Some(proxy.address.port())).expect("a URL with a port");
        (proxy, parsed.to_string())
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Injects `fault` from now on (`Fault::None` heals).
    pub fn set(&self, fault: Fault) {
        self.fault.send_replace(fault);
    }

    /// How many `COMMIT`s [`Fault::CutNextLedgerCommit`] has cut so far.
    pub fn commits_cut(&self) -> usize {
        self.commits_cut.load(Ordering::SeqCst)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.fault.send_replace(Fault::Down);
        self.task.abort();
    }
}

async fn accept(
    listener: TcpListener,
    upstream: String,
    fault: Arc<watch::Sender<Fault>>,
    commits_cut: Arc<AtomicUsize>,
) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        if *fault.borrow() == Fault::Down {
            reset(client);
            continue;
        }
        tokio::spawn(relay(client, upstream.clone(), fault.clone(), commits_cut.clone()));
    }
}

/// Closes a connection with a reset, as a dead server's host does. (`set_linger` is
/// deprecated because a linger blocks the thread on drop; a zero linger does not: it resets.)
#[allow(deprecated)]
fn reset(stream: TcpStream) {
    let _ = stream.set_linger(Some(Duration::ZERO));
    drop(stream);
}

/// Relays one connection both ways until either side closes, the proxy goes down, or the
/// connection's `COMMIT` is cut.
async fn relay(client: TcpStream, upstream: String, faults: Arc<watch::Sender<Fault>>, commits_cut: Arc<AtomicUsize>) {
    let mut fault = faults.subscribe();
    let Ok(server) = TcpStream::connect(&upstream).await else {
        reset(client);
        return;
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (mut client_reader, mut client_writer) = client.into_split();
    let (mut server_reader, mut server_writer) = server.into_split();
    let (mut requests_fault, mut replies_fault) = (fault.clone(), fault.clone());
    // Set once this connection's COMMIT is cut: nothing more goes back to the client.
    let cut = AtomicBool::new(false);
    let requests = async {
        let mut buffer = vec![0; 16 * 1024];
        let mut wrote_ledger = false;
        loop {
            let read = client_reader.read(&mut buffer).await?;
            if read == 0 {
                return Ok::<_, std::io::Error>(());
            }
            let _ = requests_fault.wait_for(|fault| *fault != Fault::Blackhole).await;
            let chunk = &buffer[..read];
            wrote_ledger |= contains(chunk, LEDGER_WRITE);
            let current = *requests_fault.borrow();
            if let Fault::CutNextLedgerCommit { then_down, held } = current
                && wrote_ledger
                && contains(chunk, b"COMMIT")
            {
                cut.store(true, Ordering::SeqCst);
                tokio::time::sleep(held).await;
                server_writer.write_all(chunk).await?;
                commits_cut.fetch_add(1, Ordering::SeqCst);
                faults.send_replace(if then_down { Fault::Down } else { Fault::None });
                return Ok(());
            }
            server_writer.write_all(chunk).await?;
        }
    };
    let replies = async {
        let mut buffer = vec![0; 16 * 1024];
        loop {
            let read = server_reader.read(&mut buffer).await?;
            if read == 0 {
                return Ok::<_, std::io::Error>(());
            }
            let _ = replies_fault.wait_for(|fault| *fault != Fault::Blackhole).await;
            let current = *replies_fault.borrow();
            if let Fault::SlowReplies(delay) = current {
                tokio::time::sleep(delay).await;
            }
            if cut.load(Ordering::SeqCst) {
                return Ok(());
            }
            client_writer.write_all(&buffer[..read]).await?;
        }
    };
    let down = async {
        let _ = fault.wait_for(|fault| *fault == Fault::Down).await;
    };
    tokio::select! {
        _ = requests => {}
        _ = replies => {}
        () = down => {}
    }
    // Dropping the halves closes both connections; the client's with a reset.
    let client = client_reader.reunite(client_writer);
    if let Ok(client) = client {
        reset(client);
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}
