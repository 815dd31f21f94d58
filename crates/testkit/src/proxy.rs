//! A TCP proxy of the tests' own, put between a server under test and its PostgreSQL or Redis,
//! to inject the faults operators meet without touching the machine's shared servers: the
//! server unreachable (nothing gets through, connections stay open), gone (every connection
//! reset, new ones refused), or answering slowly (every reply delayed).

use std::net::SocketAddr;
use std::sync::Arc;
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
}

/// A running proxy; stops when dropped.
pub struct FaultProxy {
    address: SocketAddr,
    fault: Arc<watch::Sender<Fault>>,
    task: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// A proxy on 127.0.0.1 in front of `upstream` (`host:port`), passing everything on.
    pub async fn start(upstream: String) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port for the proxy");
        let address = listener.local_addr().expect("the proxy's address");
        let (fault, _) = watch::channel(Fault::None);
        let fault = Arc::new(fault);
        let task = tokio::spawn(accept(listener, upstream, fault.clone()));
        FaultProxy { address, fault, task }
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
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.fault.send_replace(Fault::Down);
        self.task.abort();
    }
}

async fn accept(listener: TcpListener, upstream: String, fault: Arc<watch::Sender<Fault>>) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        if *fault.borrow() == Fault::Down {
            reset(client);
            continue;
        }
        tokio::spawn(relay(client, upstream.clone(), fault.subscribe()));
    }
}

/// Closes a connection with a reset, as a dead server's host does. (`set_linger` is
/// deprecated because a linger blocks the thread on drop; a zero linger does not: it resets.)
#[allow(deprecated)]
fn reset(stream: TcpStream) {
    let _ = stream.set_linger(Some(Duration::ZERO));
    drop(stream);
}

/// Relays one connection both ways until either side closes or the proxy goes down.
async fn relay(client: TcpStream, upstream: String, mut fault: watch::Receiver<Fault>) {
    let Ok(server) = TcpStream::connect(&upstream).await else {
        reset(client);
        return;
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (mut client_reader, mut client_writer) = client.into_split();
    let (mut server_reader, mut server_writer) = server.into_split();
    let (mut requests_fault, mut replies_fault) = (fault.clone(), fault.clone());
    let requests = async {
        let mut buffer = vec![0; 16 * 1024];
        loop {
            let read = client_reader.read(&mut buffer).await?;
            if read == 0 {
                return Ok::<_, std::io::Error>(());
            }
            let _ = requests_fault.wait_for(|fault| *fault != Fault::Blackhole).await;
            server_writer.write_all(&buffer[..read]).await?;
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
