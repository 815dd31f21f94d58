//! The `marketlens-replay` binary: serves [`ReplayData::scaled`] and the recorded WebSocket
//! streams on `127.0.0.1` until Ctrl-C, for benchmarks against a local, deterministic exchange.

use anyhow::Context;
use clap::Parser;
use marketlens_replay::{ReplayData, ReplayServer};
use std::net::SocketAddr;

/// Replay the recorded Polymarket and Kalshi payloads over HTTP.
#[derive(Debug, Parser)]
#[command(name = "marketlens-replay", version)]
struct Cli {
    /// The port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// How many copies of the recorded data to serve (1 = as recorded; each copy adds 2,067
    /// markets).
    #[arg(long, default_value_t = 1)]
    copies: usize,
    /// How many times faster than recorded the WebSocket streams play their frames.
    #[arg(long, default_value_t = 1.0)]
    stream_speed: f64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let data = ReplayData::scaled(cli.copies);
    let address = SocketAddr::from(([127, 0, 0, 1], cli.port));
    let server = ReplayServer::bind(address, data).with_context(|| format!("cannot listen on {address}"))?;
    println!("Polymarket (Gamma) base URL: {}", server.polymarket_url());
    println!("Kalshi base URL:             {}", server.kalshi_url());
    println!("Polymarket CLOB base URL:    {}", server.polymarket_clob_url());
    println!("Polymarket Data API URL:     {}", server.polymarket_data_url());
    server.set_stream_speed(cli.stream_speed);
    println!("Polymarket market channel:   {}", server.polymarket_ws_url());
    println!("Kalshi WebSocket API:        {}", server.kalshi_ws_url());
    println!("Serving {} copies of the recorded data; Ctrl-C stops.", cli.copies);
    tokio::signal::ctrl_c().await.context("cannot wait for Ctrl-C")?;
    Ok(())
}
